"""Shared fixtures of the Python module's tests (ui/python/README.md): where the sources, the CLI and the bundled
worlds are (ctest passes them in the environment: tests/python/CMakeLists.txt)."""
import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ["SG_SOURCE_DIR"]
CLI = os.environ["SG_CLI"]
WORLDS = sorted(os.path.join(SOURCE_DIR, "worlds", f) for f in os.listdir(os.path.join(SOURCE_DIR, "worlds"))
                if f.endswith(".xml"))


def run_cli(*args):
    """softgrasp-cli's stdout for the arguments (exit code 0 asserted)."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def cli_json(*args):
    return json.loads(run_cli(*args))


@pytest.fixture(scope="session")
def default_world_path():
    return os.path.join(SOURCE_DIR, "worlds", "default.xml")
