#!/usr/bin/env python3
"""CPU seconds of each ctest entry (tests/BUILD_TIME.md §ctest's wall time).

Runs the entries of a build directory one at a time, in ctest's listing order (so `decomposition_cache_reset`
and `install_tree` run before the entries that need them), each with its ENVIRONMENT and WORKING_DIRECTORY, and
prints one line per entry: name, wall seconds, CPU seconds (user + sys of the entry's process and every
descendant it waited for; a daemon's work is counted only when the entry reaps the daemon) and the exit code.
Run it under xvfb-run for the GL suites. CPU seconds change little with the machine's load, wall seconds do.

usage: scripts/ctest-cpu.py BUILD_DIR [REGEX]    (REGEX: only the entries whose name matches)
  e.g. cd build && xvfb-run -a -s "-screen 0 1280x1024x24" ../scripts/ctest-cpu.py . > ctest-cpu.txt
"""
import json
import os
import re
import resource
import subprocess
import sys
import time


def main():
    build = os.path.abspath(sys.argv[1])
    pattern = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    listing = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                                        text=True, check=True).stdout)
    for test in listing["tests"]:
        name = test["name"]
        if pattern and not pattern.search(name) and name != "decomposition_cache_reset":
            continue
        env, cwd = dict(os.environ), build
        for prop in test.get("properties", []):
            if prop["name"] == "ENVIRONMENT":
                for pair in prop["value"]:
                    key, value = pair.split("=", 1)
                    env[key] = value
            elif prop["name"] == "WORKING_DIRECTORY":
                cwd = prop["value"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        rc = subprocess.run(test["command"], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"{name} {wall:.2f} {cpu:.2f} rc={rc}", flush=True)


if __name__ == "__main__":
    main()
