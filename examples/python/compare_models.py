"""Compare every registered contact model on the default world's grasp and plot each model's mean contact
patch area and torsional friction limit.

    PYTHONPATH=build/python python3 examples/python/compare_models.py [--out DIR]

Writes DIR/compare_models.png (Agg backend).
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import softgrasp  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="worlds/default.xml")
    parser.add_argument("--out", default=".")
    args = parser.parse_args()

    world = softgrasp.load_world(args.world)
    c = softgrasp.compare(world, approach=True, autograsp=True)  # the G key: approach 30 mm, then close
    models = [m for m in c.models if c.ok[m]]
    area = [np.nanmean(c.patch_area_mm2[m]) if len(c.rows) else 0.0 for m in models]
    limit = [np.nanmean(c.max_torsional_friction_Nmm[m]) if len(c.rows) else 0.0 for m in models]

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.bar(models, np.nan_to_num(area))
    left.set_ylabel("mean patch area (mm²)")
    right.bar(models, np.nan_to_num(limit), color="tab:orange")
    right.set_ylabel("mean torsional friction limit (N·mm)")
    for ax in (left, right):
        ax.tick_params(axis="x", rotation=45)
    fig.suptitle(f"{len(c.rows)} contacts of the default grasp under each contact model")
    fig.tight_layout()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "compare_models.png")
    fig.savefig(path, dpi=100)
    for m, a, t in zip(models, area, limit):
        print(f"{m:24} area {a:10.4g} mm²  torsional limit {t:10.4g} N·mm  ε L1 {c.measures[m]['epsilon-l1']:.6g}")
    print(path)


if __name__ == "__main__":
    main()
