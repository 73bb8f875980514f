"""Evaluate random palm poses around the default world's hand with evaluate_many and save the measures as a
NumPy file (and a histogram of ε).

    PYTHONPATH=build/python python3 examples/python/evaluate_palm_poses.py [--count 10000] [--out DIR]

Each pose moves the palm up to 15 mm and turns it up to 10° about a random axis, then closes the hand
(auto-grasp). Writes DIR/palm_poses.npz (X_WP: (N, 4, 4) in mm, and per measure an (N,) array) and
DIR/palm_poses.png (Agg backend).
"""
import argparse
import os
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import softgrasp  # noqa: E402


def rotation(axis, angle):
    """Rodrigues' formula: the rotation by `angle` rad about the unit `axis`."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="worlds/default.xml")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=".")
    args = parser.parse_args()

    world = softgrasp.load_world(args.world)
    rng = np.random.default_rng(args.seed)
    base = world.state
    states, poses = [], []
    for _ in range(args.count):
        X = base.X_WP
        axis = rng.normal(size=3)
        X[:3, :3] = rotation(axis / np.linalg.norm(axis), np.radians(rng.uniform(0, 10))) @ X[:3, :3]
        X[:3, 3] += rng.uniform(-15, 15, 3)
        s = base.copy()
        s.X_WP = X
        states.append(s)
        poses.append(s.X_WP)

    start = time.perf_counter()
    many = softgrasp.evaluate_many(world, states, autograsp=True, contact_scope="grasp",
                                   measures=["epsilon-l1", "min-singular-value"], threads=args.threads)
    elapsed = time.perf_counter() - start

    os.makedirs(args.out, exist_ok=True)
    npz = os.path.join(args.out, "palm_poses.npz")
    np.savez(npz, X_WP=np.array(poses), force_closure=many.force_closure, grasp_contacts=many.grasp_contacts,
             **{name.replace("-", "_"): values for name, values in many.measures.items()})
    eps = many.measures["epsilon-l1"]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.hist(eps[np.isfinite(eps)], bins=40)
    ax.set_xlabel("ε L1")
    ax.set_ylabel("palm poses")
    ax.set_title(f"{args.count} palm poses, {int(many.force_closure.sum())} with force closure")
    fig.tight_layout()
    png = os.path.join(args.out, "palm_poses.png")
    fig.savefig(png, dpi=100)
    print(f"{args.count} states in {elapsed:.2f} s ({args.count / elapsed:.0f}/s): {npz}, {png}")


if __name__ == "__main__":
    main()
