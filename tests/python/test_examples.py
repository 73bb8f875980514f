"""The examples of examples/python run headless (Agg) and write their PNG (and NumPy file), on small sizes."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import SOURCE_DIR

EXAMPLES = os.path.join(SOURCE_DIR, "examples", "python")


def run_example(name, tmp_path, *args):
    out = os.environ.get("SG_EXAMPLES_OUT") or str(tmp_path)
    done = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), "--out", out, *args], capture_output=True,
                          text=True, cwd=SOURCE_DIR, env={**os.environ, "MPLBACKEND": "Agg"}, check=False)
    assert done.returncode == 0, done.stderr
    return out


def png_ok(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 1000


def test_plan_and_plot(tmp_path):
    out = run_example("plan_and_plot.py", tmp_path, "--iterations", "2000")
    assert png_ok(os.path.join(out, "plan_epsilon_vs_energy.png"))


def test_compare_models(tmp_path):
    out = run_example("compare_models.py", tmp_path)
    assert png_ok(os.path.join(out, "compare_models.png"))


def test_evaluate_palm_poses(tmp_path):
    out = run_example("evaluate_palm_poses.py", tmp_path, "--count", "60", "--threads", "2")
    assert png_ok(os.path.join(out, "palm_poses.png"))
    data = np.load(os.path.join(out, "palm_poses.npz"))
    assert data["X_WP"].shape == (60, 4, 4) and data["epsilon_l1"].shape == (60,)
    assert np.all(data["epsilon_l1"][data["force_closure"]] > 0)  # force closure: ε L1 above 0
