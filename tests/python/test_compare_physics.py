"""softgrasp.compare_physics equals softgrasp-cli compare --against-physics --json on a small run (one world, one
seed, a few iterations, short pulls): the same rows (AUC, Spearman, counts), the same samples (score, per-direction
verdicts, predictor values), the same static-check agreement; both go through the engine's one call
(src/sim/PhysicsComparison.h). Bad arguments are ValueError."""
import os

import pytest

import softgrasp
from conftest import SOURCE_DIR, cli_json

WORLD = os.path.join(SOURCE_DIR, "worlds", "paralleljaw_box.xml")
MODELS = ["point", "soft-finger"]
MEASURES = ["epsilon-l1", "min-singular-value"]


def test_equals_cli():
    doc = cli_json("compare", WORLD, "--against-physics", "--seeds", "1", "--iterations", "200", "--keep", "3",
                   "--duration", "0.05", "--threads", "2", "--contact-model", ",".join(MODELS), "--measures",
                   ",".join(MEASURES), "--no-progress", "--json")
    r = softgrasp.compare_physics(softgrasp.load_world(WORLD), seeds=1, iterations=200, keep=3, duration_s=0.05,
                                  threads=2, contact_models=MODELS, measures=MEASURES)
    assert r["complete"] and doc["complete"]
    assert r["grasps"] == doc["grasps"] > 0
    assert r["successes"] == doc["successes"]
    assert r["models"] == MODELS and r["measures"] == MEASURES

    # Rows: per model its measures, then static-held; the numbers exactly as the CLI printed them (shortest
    # round trip).
    assert [(x["model"], x["measure"]) for x in r["rows"]] == [(x["model"], x["measure"]) for x in doc["rows"]]
    assert [x["measure"] for x in r["rows"]] == MEASURES + ["static-held"] + MEASURES + ["static-held"]
    for mine, cli in zip(r["rows"], doc["rows"]):
        for key in ("grasps", "missing", "successes", "auc", "spearman"):
            assert mine[key] == cli[key], (mine["model"], mine["measure"], key)
        assert mine["undefined"] == cli.get("undefined", "")

    assert len(r["samples"]) == len(doc["samples"])
    for mine, cli in zip(r["samples"], doc["samples"]):
        assert (mine["world"], mine["seed"], mine["rank"]) == (cli["file"], cli["seed"], cli["rank"])
        assert mine["score"] == cli["score"]
        assert mine["held"] == cli["held"]
        assert mine["predictors"] == cli["predictors"]
        # The static-held predictor is the held fraction of the model's static verdicts.
        for k, model in enumerate(MODELS):
            statics = mine["static_held"][model]
            value = mine["predictors"][k * (len(MEASURES) + 1) + len(MEASURES)]
            assert (statics is None) == (value is None)
            if statics is not None:
                assert value == sum(statics) / len(statics)
        assert isinstance(mine["state"], softgrasp.WorldState)

    keys = {"both_held": "bothHeld", "static_only": "staticOnly", "physics_only": "physicsOnly",
            "neither": "neither", "not_applicable": "notApplicable"}
    assert len(r["agreement"]) == len(doc["agreement"]) == len(MODELS) * 6
    for mine, cli in zip(r["agreement"], doc["agreement"]):
        assert (mine["model"], mine["direction"]) == (cli["model"], cli["direction"])
        for py_key, json_key in keys.items():
            assert mine[py_key] == cli[json_key]


def test_bad_arguments():
    world = softgrasp.load_world(WORLD)
    with pytest.raises(ValueError):
        softgrasp.compare_physics(world, seeds=0)
    with pytest.raises(ValueError):
        softgrasp.compare_physics(world, success_score=0)
    with pytest.raises(ValueError):
        softgrasp.compare_physics(world, contact_models=["no-such-model"])
    with pytest.raises(ValueError):
        softgrasp.compare_physics([], seeds=1)
    with pytest.raises(ValueError):
        softgrasp.compare_physics(world, measures=["epsilon-l9"], seeds=1, iterations=10)
