"""bench_python: what the Python module costs over the engine (README.md here, §bench_python).

1. analyze() against the same engine call timed in C++ (softgrasp._softgrasp._time_analyze) on the default
   grasp: the same state (a jittered palm pose per round, both calls on it), the same request (auto-grasp,
   every measure), interleaved in one run; ε L1 cross-checked (a mismatch fails). Median and p90 of each,
   the overhead of the median.
2. evaluate_many on N states against N analyze() calls (the batch request: ε L1, the grasp's pairs) (the same jittered states; results cross-checked) and
   against N softgrasp-cli quality processes (the world file's own state: a process cannot be handed a state;
   its ε cross-checked against the module's on that state). Ratios printed.
3. Memory: RSS over many analyze() calls (default 100,000), printed at every tenth.

Usage: PYTHONPATH=build/python python3 tests/bench/bench_python.py --cli build/ui/cli/softgrasp-cli
       [--rounds 200] [--states 200] [--processes 20] [--memory-calls 100000] [--threads 0]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import softgrasp
from softgrasp import _softgrasp

HERE = os.path.dirname(os.path.abspath(__file__))
WORLD = os.path.join(HERE, "..", "..", "worlds", "default.xml")


def stats(xs):
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(0.9 * len(xs)))]


def jittered_states(world, count, seed):
    rng = np.random.default_rng(seed)
    base = world.state
    out = []
    for _ in range(count):
        s = base.copy()
        X = s.X_WP
        X[:3, 3] += rng.normal(0.0, 1.0, 3)
        s.X_WP = X
        out.append(s)
    return out


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def fail(message):
    print("bench_python: cross-check failed: " + message, file=sys.stderr)
    sys.exit(1)


def overhead(world, rounds):
    py, cpp = [], []
    for i, s in enumerate(jittered_states(world, rounds, 1)):
        # Alternate the order so neither call always runs on a warm cache.
        for first in ((0, 1) if i % 2 == 0 else (1, 0)):
            if first == 0:
                t0 = time.perf_counter()
                a = softgrasp.analyze(world, s, autograsp=True)
                eps = float(a.measures["epsilon-l1"])
                py.append(time.perf_counter() - t0)
            else:
                seconds, eps_cpp = _softgrasp._time_analyze(world, s, True, 1)
                cpp.append(seconds[0])
        if not (eps == eps_cpp or (np.isnan(eps) and np.isnan(eps_cpp))):
            fail(f"round {i}: analyze ε {eps!r} != C++ ε {eps_cpp!r}")
    (pm, p90), (cm, c90) = stats(py), stats(cpp)
    print(f"analyze, default grasp with auto-grasp, {rounds} jittered palm poses:")
    print(f"  C++ runAnalysis   median {cm * 1e3:8.3f} ms  p90 {c90 * 1e3:8.3f} ms")
    print(f"  Python analyze()  median {pm * 1e3:8.3f} ms  p90 {p90 * 1e3:8.3f} ms")
    print(f"  overhead of the median: {100 * (pm / cm - 1):+.2f} % (target <= 5 %)")


# The batch request (src/batch/BATCH.md): ε L1 only, the grasp's pairs only; the same for every contender.
FAST = {"measures": ["epsilon-l1"], "contact_scope": "grasp"}
FAST_CLI = ["--measures", "epsilon-l1", "--contact-scope", "grasp"]


def throughput(world, count, processes, cli, threads):
    states = jittered_states(world, count, 2)
    t0 = time.perf_counter()
    many = softgrasp.evaluate_many(world, states, autograsp=True, threads=threads, **FAST)
    t_many = time.perf_counter() - t0
    t0 = time.perf_counter()
    single = [softgrasp.analyze(world, s, autograsp=True, **FAST).measures["epsilon-l1"] for s in states]
    t_single = time.perf_counter() - t0
    if not np.array_equal(many.measures["epsilon-l1"], np.array(single, dtype=float), equal_nan=True):
        fail("evaluate_many differs from analyze() calls")
    own = float(softgrasp.analyze(world, autograsp=True, **FAST).measures["epsilon-l1"])
    t0 = time.perf_counter()
    for _ in range(processes):
        out = subprocess.run([cli, "quality", WORLD, "--autograsp", "--json", "--no-progress", *FAST_CLI], capture_output=True,
                             text=True, check=True).stdout
        if json.loads(out)["measures"]["epsilon-l1"]["value"] != own:
            fail("softgrasp-cli's ε differs from the module's")
    t_cli = time.perf_counter() - t0
    per_many, per_single, per_cli = t_many / count, t_single / count, t_cli / processes
    print(f"throughput (auto-grasp, epsilon-l1, contact scope grasp), {count} states (evaluate_many "
          f"threads={threads or os.cpu_count()}), {processes} CLI processes:")
    print(f"  evaluate_many   {per_many * 1e3:8.3f} ms/state")
    print(f"  analyze() loop  {per_single * 1e3:8.3f} ms/state   evaluate_many is {per_single / per_many:6.2f}x faster")
    print(f"  CLI processes   {per_cli * 1e3:8.3f} ms/state   evaluate_many is {per_cli / per_many:6.1f}x faster, "
          f"analyze() {per_cli / per_single:6.1f}x")


def memory(world, calls):
    s = world.state
    start = rss_mb()
    print(f"memory over {calls} analyze() calls (auto-grasp, epsilon-l1, contact scope grasp), RSS in MB:")
    line = [f"{start:.1f}"]
    for i in range(1, calls + 1):
        softgrasp.analyze(world, s, autograsp=True, **FAST)
        if i % max(1, calls // 10) == 0:
            line.append(f"{rss_mb():.1f}")
    print("  " + " ".join(line) + f"   (growth {float(line[-1]) - start:+.1f} MB from the first reading)")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--states", type=int, default=200)
    p.add_argument("--processes", type=int, default=20)
    p.add_argument("--memory-calls", type=int, default=100000)
    p.add_argument("--threads", type=int, default=0)
    args = p.parse_args()
    world = softgrasp.load_world(WORLD)
    softgrasp.analyze(world, autograsp=True)  # warm-up
    overhead(world, args.rounds)
    throughput(world, args.states, args.processes, args.cli, args.threads)
    memory(world, args.memory_calls)


if __name__ == "__main__":
    main()
