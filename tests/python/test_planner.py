"""plan, GraspList, compare, sweep: the CLI's list for a seed, save/load round trips, Ctrl+C keeps what was found."""
import json
import os

import numpy as np
import pytest

import softgrasp
from conftest import run_cli, cli_json


def test_plan_equals_cli_list(tmp_path, default_world_path):
    cli_file = tmp_path / "cli.json"
    run_cli("plan", default_world_path, "--iterations", "300", "--seed", "5", "--threads", "1", "--no-progress",
            "--out", str(cli_file))
    world = softgrasp.load_world(default_world_path)
    grasps = softgrasp.plan(world, iterations=300, seed=5, threads=2)
    py_file = tmp_path / "py.json"
    grasps.save(str(py_file))
    assert py_file.read_text() == cli_file.read_text()
    assert len(grasps) > 0 and grasps.stop_reason == "step-limit"

    # Round trip through the file, with the world: states of it, in the saved configuration.
    loaded = softgrasp.GraspList.load(str(py_file), world=world)
    assert loaded.to_json() == grasps.to_json()
    first = loaded.grasps[0]
    assert np.array_equal(first.state.dofs, first.dofs)
    assert np.allclose(first.state.X_WP, first.X_WP, atol=1e-12)
    # The list's order is the planner's (PLANNER.md §Final stage: force closure first, then energy and tie break),
    # not plain energy order; the file equality above with the CLI's list is the contract.
    doc = json.loads(cli_file.read_text())
    assert [g.energy for g in loaded.grasps] == [g["energy"] for g in doc["grasps"]]


def test_plan_keyboard_interrupt_keeps_grasps(default_world_path):
    world = softgrasp.load_world(default_world_path)
    seen = []

    def progress(fraction, message):
        seen.append(fraction)
        if fraction > 0.02:  # 4,000 of the 200,000 iterations: early, as a user's Ctrl+C; later only costs time
            raise KeyboardInterrupt

    with pytest.raises(softgrasp.PlanInterrupted) as e:
        softgrasp.plan(world, iterations=200000, seed=2, threads=1, progress=progress)
    assert isinstance(e.value, KeyboardInterrupt)
    partial = e.value.grasps
    assert partial.stop_reason == "cancelled"
    assert len(partial) > 0
    assert max(seen) < 1.0


def test_plan_bad_arguments(default_world_path):
    world = softgrasp.load_world(default_world_path)
    for kwargs in ({"energy": "nope"}, {"space": "nope"}, {"iterations": 0}, {"iterations": 5, "steps": 100},
                   {"chains": 0}, {"quality_measure": "nope"}):
        with pytest.raises(ValueError):
            softgrasp.plan(world, **kwargs)
    with pytest.raises(softgrasp.Error):
        softgrasp.GraspList.load(os.path.join(os.environ["SG_SOURCE_DIR"], "worlds", "default.xml"))


def test_compare_matches_analyze(default_world_path):
    world = softgrasp.load_world(default_world_path)
    c = softgrasp.compare(world, autograsp=True, models=["soft-finger", "point"])
    assert c.models == ["soft-finger", "point"] and all(c.ok.values())
    a = softgrasp.analyze(world, autograsp=True, contact_models=("soft-finger", "point"),
                          measures=["epsilon-l1", "epsilon-linf", "epsilon-exact", "volume-l1"])
    for model in c.models:
        for name in ("epsilon-l1", "epsilon-linf"):
            assert c.measures[model][name] == a.models[model].measures[name]
    # A point contact has no patch and no torsional friction; the soft finger has both.
    assert np.all(np.nan_to_num(c.patch_area_mm2["point"]) == 0)
    assert np.nanmax(c.patch_area_mm2["soft-finger"]) > 0
    assert c.csv.startswith("row,")


def test_sweep_force(default_world_path):
    world = softgrasp.load_world(default_world_path)
    s = softgrasp.sweep(world, autograsp=True, parameter="force", values=[1.0, 4.0], models=["soft-finger"])
    assert list(s.values) == [1.0, 4.0] and s.unit == "N"
    area = s.mean_patch_area_mm2["soft-finger"]
    assert area[1] > area[0] > 0  # a larger normal force presses a larger patch
    with pytest.raises(ValueError):
        softgrasp.sweep(world, parameter="nope", values=[1.0, 2.0])


def test_plan_ctrl_c_keeps_grasps(default_world_path):
    """A real SIGINT (Ctrl+C) during plan: the progress sink sees it, the search stops, the grasps are kept."""
    import signal
    world = softgrasp.load_world(default_world_path)
    sent = []

    def progress(fraction, message):
        if fraction > 0.02 and not sent:  # as above
            sent.append(fraction)
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(softgrasp.PlanInterrupted) as e:
        softgrasp.plan(world, iterations=200000, seed=2, threads=2, progress=progress)
    assert sent and e.value.grasps.stop_reason == "cancelled" and len(e.value.grasps) > 0


def test_grasp_states_keep_their_break_away_joints():
    """A planned grasp's `state` is the hand the planner measured, its joints in break-away included
    (src/grasp/planner/PLANNER.md §Grasp list file, "breakAway"): analysed again it has the list's force closure
    and ε L1; hydro_fingertips seed 2 (tst_planner's run) keeps closings with joints in break-away."""
    world = softgrasp.load_world(os.path.join(os.environ["SG_SOURCE_DIR"], "worlds", "hydro_fingertips.xml"))
    grasps = softgrasp.plan(world, iterations=250, seed=2, threads=1, contact_models=["point"],
                            measures=["epsilon-l1"])
    doc = json.loads(grasps.to_json())
    broke = [i for i, g in enumerate(doc["grasps"]) if "breakAway" in g["grasp"]]
    assert broke
    for i in broke:
        g = grasps.grasps[i]
        r = softgrasp.analyze(world, g.state, contact_models=["point"], measures=["epsilon-l1"]).models["point"]
        assert r.force_closure == g.force_closure, i
        listed, again = g.measures["epsilon-l1"], r.measures["epsilon-l1"]
        assert listed.ok == again.ok, i
        if listed.ok:
            assert abs(float(again) - float(listed)) <= 1e-9, (i, float(again), float(listed))
