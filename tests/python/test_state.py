"""World, WorldState and the motions: validating setters, independent copies, lifetime, errors."""
import gc
import math
import os

import numpy as np
import pytest

import softgrasp
from conftest import SOURCE_DIR


@pytest.fixture()
def world(default_world_path):
    return softgrasp.load_world(default_world_path)


def rotation_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def test_world_description(world):
    assert world.robots and world.graspables
    names = world.dof_names()
    limits = world.dof_limits()
    assert limits.shape == (len(names), 2) and np.all(limits[:, 0] <= limits[:, 1])
    assert len(world.dof_units()) == len(names)
    assert any(b.startswith(world.robots[0] + "/") for b in world.bodies)


def test_urdf_joint_names_kept():
    w = softgrasp.load_world(os.path.join(SOURCE_DIR, "worlds", "threefinger_urdf.xml"))
    names = w.dof_names()
    assert names and not any(n.startswith("dof") and n[3:].isdigit() for n in names)


def test_dof_setter_round_trip_and_link_poses(world):
    s = world.state
    limits = world.dof_limits()
    mid = limits.mean(axis=1)
    s.dofs = mid
    assert np.array_equal(s.dofs, mid)
    poses = softgrasp.fk(world, s)
    first = next(iter(poses.values()))
    assert np.allclose(first, s.X_WP)  # the palm first, at X_WP


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_dof_setter_rejects_non_finite(world, bad):
    s = world.state
    v = world.dof_limits().mean(axis=1)
    v[0] = bad
    before = s.dofs
    with pytest.raises(ValueError):
        s.dofs = v
    assert np.array_equal(s.dofs, before)  # unchanged


def test_dof_setter_rejects_out_of_range_and_wrong_length(world):
    s = world.state
    limits = world.dof_limits()
    above = limits.mean(axis=1)
    above[0] = limits[0, 1] + 0.1
    below = limits.mean(axis=1)
    below[-1] = limits[-1, 0] - 0.1
    for v in (above, below):
        with pytest.raises(ValueError):
            s.set_dofs(v)
    with pytest.raises(ValueError):
        s.dofs = limits.mean(axis=1)[:-1]
    with pytest.raises(IndexError):
        s.set_dofs(limits.mean(axis=1), robot=7)


def test_pose_setters_reject_bad_input(world):
    s = world.state
    good = np.eye(4)
    good[:3, :3] = rotation_z(0.3)
    good[:3, 3] = [10, -20, 30]
    s.X_WP = good
    assert np.allclose(s.X_WP, good, atol=1e-12)
    s.set_X_WG(0, good)
    assert np.allclose(s.X_WG[0], good, atol=1e-12)
    for value in (float("nan"), float("inf")):
        bad = good.copy()
        bad[0, 3] = value
        with pytest.raises(ValueError):
            s.X_WP = bad
        with pytest.raises(ValueError):
            s.set_X_WG(0, bad)
    scaled = good.copy()
    scaled[:3, :3] *= 2
    mirrored = good.copy()
    mirrored[:3, 0] *= -1
    last_row = good.copy()
    last_row[3, 0] = 1
    for bad in (scaled, mirrored, last_row, np.eye(3)):
        with pytest.raises(ValueError):
            s.X_WP = bad
    with pytest.raises(IndexError):
        s.set_X_WG(5, good)
    with pytest.raises(IndexError):
        s.set_X_WO(len(world.obstacles), good)
    assert np.allclose(s.X_WP, good, atol=1e-12)  # the rejected values left it as it was


def test_copies_are_independent(world):
    s = world.state
    c = s.copy()
    limits = world.dof_limits()
    c.dofs = limits[:, 1]
    assert not np.array_equal(s.dofs, c.dofs)
    t = np.eye(4)
    t[:3, 3] = [1, 2, 3]
    c.X_WP = t
    assert not np.allclose(s.X_WP, c.X_WP)
    assert np.array_equal(world.state.dofs, s.dofs)  # World.state hands out copies too


def test_motion_leaves_input_and_returns_reason(world):
    s = world.state
    before = s.dofs
    closed, reason = softgrasp.auto_grasp(world, s)
    assert reason in ("reached", "contact", "blocked", "start-in-collision")
    assert np.array_equal(s.dofs, before)
    assert not np.array_equal(closed.dofs, before)
    opened, _ = softgrasp.auto_open(world, closed)
    approached, why = softgrasp.approach(world, s, distance_mm=30)
    assert why in ("reached", "contact", "blocked", "start-in-collision")
    assert np.array_equal(approached.dofs, before)
    # Closing by hand then analysing equals analysing with autograsp=True.
    a = softgrasp.analyze(world, closed)
    b = softgrasp.analyze(world, s, autograsp=True)
    assert a.measures["epsilon-l1"] == b.measures["epsilon-l1"]
    assert opened.dofs.shape == before.shape


def test_state_outlives_its_world(default_world_path):
    w = softgrasp.load_world(default_world_path)
    s = w.state
    names = w.robots
    del w
    gc.collect()
    assert s.world.robots == names
    a = softgrasp.analyze(s.world, s, autograsp=True)
    del s
    gc.collect()
    assert a.state.world.robots == names and len(a.contacts) > 0


def test_state_of_another_world_rejected(default_world_path):
    a = softgrasp.load_world(default_world_path)
    b = softgrasp.load_world(default_world_path)
    with pytest.raises(ValueError):
        softgrasp.analyze(a, b.state)


def test_errors(tmp_path, world):
    with pytest.raises(FileNotFoundError):
        softgrasp.load_world(str(tmp_path / "missing.xml"))
    bad = tmp_path / "bad.xml"
    bad.write_text("<?xml version=\"1.0\"?>\n<world>\n  <graspableBody>\n    <filename>nothing.xml</filename>\n"
                   "  </graspableBody>\n</world>\n")
    with pytest.raises(softgrasp.Error) as e:
        softgrasp.load_world(str(bad))
    assert e.value.file.endswith("bad.xml") or "bad.xml" in str(e.value)
    broken = tmp_path / "broken.xml"
    broken.write_text("<world>\n<graspableBody>\n</world>\n")
    with pytest.raises(softgrasp.Error) as e:
        softgrasp.load_world(str(broken))
    assert e.value.line > 0 and e.value.file.endswith("broken.xml")
    with pytest.raises(ValueError):
        softgrasp.load_robot(os.path.join(SOURCE_DIR, "worlds", "default.xml"))
    with pytest.raises(ValueError):
        softgrasp.analyze(world, contact_models=("no-such-model",))
    with pytest.raises(ValueError):
        softgrasp.analyze(world, measures=["no-such-measure"])
    with pytest.raises(ValueError):
        softgrasp.analyze(world, settings={"force_N": float("nan")})
    with pytest.raises(ValueError):
        softgrasp.analyze(world, threshold_mm=-1)
    with pytest.raises(IndexError):
        softgrasp.analyze(world, graspable=99)


def test_registries():
    models = softgrasp.contact_models()
    measures = softgrasp.quality_measures()
    assert "soft-finger" in models and "hertz" in models
    assert "epsilon-l1" in measures and "min-singular-value" in measures
    assert softgrasp.analyze.__doc__ and "mm" in softgrasp.analyze.__doc__


def test_stubs_generated_and_valid():
    """The build writes softgrasp/_softgrasp.pyi (ui/python/gen_stubs.py): valid Python naming every function."""
    import ast
    path = os.path.join(os.path.dirname(softgrasp.__file__), "_softgrasp.pyi")
    tree = ast.parse(open(path, encoding="utf-8").read())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    for name in ("load_world", "analyze", "evaluate_many", "plan", "compare", "sweep", "sense", "World",
                 "WorldState", "Analysis", "GraspList"):
        assert name in names, name


def test_qhull_exception_inside_the_engine(world):
    """A palm pose whose L1 hull makes Qhull throw (caught and retried inside the engine, geometry/ convexHull):
    the exception unwinds through the module without aborting the process (ui/python/README.md §Build)."""
    rng = np.random.default_rng(2)
    base = world.state
    for _ in range(3):  # the third pose of this sequence is one such
        s = base.copy()
        X = s.X_WP
        X[:3, 3] += rng.normal(0.0, 1.0, 3)
        s.X_WP = X
    a = softgrasp.analyze(world, s, autograsp=True, measures=["volume-l1"])
    assert a.measures["volume-l1"].ok and a.measures["volume-l1"] > 0


def test_obstacle_pose_setter_rejects_non_finite(world):
    s = world.state
    bad = np.eye(4)
    bad[2, 3] = float("nan")
    with pytest.raises(ValueError):
        s.set_X_WO(0, bad)
    assert np.all(np.isfinite(s.X_WO))
