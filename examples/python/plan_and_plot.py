"""Plan grasps of the default world's mug and plot each grasp's ε (L1) against its planner energy.

    PYTHONPATH=build/python python3 examples/python/plan_and_plot.py [--grasps 20] [--iterations 20000] [--out DIR]

Writes DIR/plan_epsilon_vs_energy.png (matplotlib's Agg backend: no display needed).
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import softgrasp  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="worlds/default.xml")
    parser.add_argument("--grasps", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=".")
    args = parser.parse_args()

    world = softgrasp.load_world(args.world)
    found = softgrasp.plan(world, iterations=args.iterations, seed=args.seed,
                           progress=lambda f, m: print(f"\r{100 * f:5.1f} % {m:40.40}", end="", flush=True))
    print()
    grasps = found.grasps[:args.grasps]
    energy = [g.energy for g in grasps]
    eps = [g.measures["epsilon-l1"] for g in grasps]
    closure = [g.force_closure for g in grasps]

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(energy, eps, c=["tab:green" if c else "tab:red" for c in closure])
    ax.set_xlabel("planner energy (lower is better)")
    ax.set_ylabel("ε L1 (negative: no force closure)")
    ax.set_title(f"{len(grasps)} planned grasps of {found.object} (green: force closure)")
    fig.tight_layout()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "plan_epsilon_vs_energy.png")
    fig.savefig(path, dpi=100)
    print(f"{len(grasps)} grasps, {sum(closure)} with force closure: {path}")


if __name__ == "__main__":
    main()
