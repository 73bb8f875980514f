"""analyze(approach=True, autograsp=True) equals softgrasp-cli quality --approach --autograsp --json on every
bundled world: the same document text, and the module's arrays carry the document's numbers (1e-12)."""
import json
import subprocess

import numpy as np
import pytest

import softgrasp
from conftest import CLI, WORLDS, run_cli

TOL = 1e-12


def close(a, b):
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=0, atol=TOL, equal_nan=True)


def value(v):
    return float("nan") if v is None else v


@pytest.mark.parametrize("path", WORLDS, ids=lambda p: p.rsplit("/", 1)[-1])
def test_analyze_equals_cli(path):
    world = softgrasp.load_world(path)
    motion = ["--approach", "--autograsp"] if world.robots else []
    if not world.robots:
        # Nothing to move: both refuse the motion; the grasp as it is still compares.
        done = subprocess.run([CLI, "quality", path, "--approach", "--autograsp", "--json"], capture_output=True)
        assert done.returncode == 2
        with pytest.raises(IndexError):
            softgrasp.analyze(world, approach=True, autograsp=True)
    cli_text = run_cli("quality", path, *motion, "--json", "--no-progress")
    a = softgrasp.analyze(world, approach=bool(motion), autograsp=bool(motion))
    assert a.to_json() + "\n" == cli_text
    doc = json.loads(cli_text)

    # Contacts: same count, same order, same numbers.
    found = doc["found"]
    assert len(a.contacts) == len(found) == doc["contactsFound"]
    for i, c in enumerate(found):
        assert a.contacts.body1[i] == c["body1"] and a.contacts.body2[i] == c["body2"]
        assert close(a.contacts.p_WC_mm[i], c["position1"]) and close(a.contacts.n_W[i], c["normal1"])
        assert close(a.contacts.p2_WC_mm[i], c["position2"]) and close(a.contacts.n2_W[i], c["normal2"])
        assert close(a.contacts.separation_mm[i], c["separation"])

    # Every model's measures with their bounds, and its contacts.
    assert list(a.models) == [e["contactModel"] for e in doc["evaluations"]]
    for e in doc["evaluations"]:
        m = a.models[e["contactModel"]]
        assert m.force_closure == e["forceClosure"]
        assert list(m.measures) == list(e["measures"])
        for name, expected in e["measures"].items():
            got = m.measures[name]
            assert got.ok == expected["ok"]
            assert close(got, value(expected["value"])), name
            if "lowerBound" in expected:
                assert close(got.lower, value(expected["lowerBound"])) and close(got.upper, value(expected["upperBound"]))
        assert len(m.contacts) == len(e["contacts"])
        for i, c in enumerate(e["contacts"]):
            assert m.contacts.source_contacts[i] == c["contacts"]
            assert m.contacts.kind[i] == c["kind"]
            assert close(m.contacts.p_WC_mm[i], c["position_mm"]) and close(m.contacts.n_W[i], c["normal"])
            assert close(m.contacts.mu[i], c["mu"]) and close(m.contacts.torsion_mm[i], c["torsion_mm"])
            assert close(m.contacts.wrenches[i].reshape(-1, 6), np.asarray(c["wrenches"], dtype=float).reshape(-1, 6))

    # The primary model's measures at the top level, as Analysis.measures.
    for name, expected in doc["measures"].items():
        assert close(a.measures[name], value(expected["value"]))


def test_done_when_command(default_world_path):
    """The issue's one-liner: the module prints the CLI's ε L1 for the default world after auto-grasp."""
    doc = json.loads(run_cli("quality", default_world_path, "--autograsp", "--json", "--no-progress"))
    eps = softgrasp.analyze(softgrasp.load_world(default_world_path), autograsp=True).measures["epsilon-l1"]
    assert repr(eps) == repr(doc["measures"]["epsilon-l1"]["value"])


def test_other_options_equal_cli(default_world_path):
    """Several models, a measure subset and a model parameter, as the CLI's flags."""
    cli_text = run_cli("quality", default_world_path, "--autograsp", "--json", "--no-progress",
                       "--contact-model", "hertz,point", "--measures", "epsilon-l1,min-singular-value",
                       "--force", "3", "--model-param", "patch.tolerance_mm=0.2")
    a = softgrasp.analyze(softgrasp.load_world(default_world_path), autograsp=True, contact_models=("hertz", "point"),
                          measures=["epsilon-l1", "min-singular-value"],
                          settings={"force_N": 3, "patch.tolerance_mm": 0.2})
    assert a.to_json() + "\n" == cli_text
