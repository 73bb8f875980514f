"""evaluate_many: the same values as analyze() on each state, whatever the thread count."""
import numpy as np
import pytest

import softgrasp


@pytest.fixture(scope="module")
def jittered(default_world_path):
    world = softgrasp.load_world(default_world_path)
    rng = np.random.default_rng(7)
    base = world.state
    states = []
    for _ in range(6):
        s = base.copy()
        X = s.X_WP
        X[:3, 3] += rng.normal(0.0, 3.0, 3)
        s.X_WP = X
        states.append(s)
    return world, states


def same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def test_two_threads_equal_serial_calls(jittered):
    world, states = jittered
    many = softgrasp.evaluate_many(world, states, autograsp=True, threads=2)
    assert many.errors == [""] * len(states)
    serial = [softgrasp.analyze(world, s, autograsp=True) for s in states]
    assert list(many.measures) == list(softgrasp.quality_measures())
    for name in many.measures:
        assert same(many.measures[name], [a.measures[name] for a in serial]), name
        assert same(many.lower[name], [a.measures[name].lower for a in serial]), name
        assert same(many.upper[name], [a.measures[name].upper for a in serial]), name
    assert same(many.force_closure, [a.force_closure for a in serial])
    assert same(many.grasp_contacts, [len(a.models["soft-finger"].contacts) for a in serial])
    one = softgrasp.evaluate_many(world, states, autograsp=True, threads=1, measures=["epsilon-l1"])
    assert same(one.measures["epsilon-l1"], many.measures["epsilon-l1"])


def test_bad_input(jittered, default_world_path):
    world, states = jittered
    other = softgrasp.load_world(default_world_path)
    with pytest.raises(ValueError):
        softgrasp.evaluate_many(other, states)
    with pytest.raises(ValueError):
        softgrasp.evaluate_many(world, states, threads=-1)
    assert len(softgrasp.evaluate_many(world, []).force_closure) == 0


def test_ctrl_c_stops_evaluate_many(jittered):
    """SIGINT while evaluate_many runs: KeyboardInterrupt once the workers have stopped."""
    import os
    import signal
    import threading
    world, states = jittered
    many = [s for s in states for _ in range(40)]  # long enough to be interrupted
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            softgrasp.evaluate_many(world, many, autograsp=True, threads=2)
    finally:
        timer.cancel()
