#!/usr/bin/env python3
"""Bar chart of `softgrasp-cli compare --against-physics`: ROC AUC (top) and Spearman's rho (bottom) per measure,
one bar per contact model (src/sim/README.md, Measures against physics).

    softgrasp-cli compare WORLD --against-physics ... --csv > table.csv     (or --json > table.json)
    python3 scripts/plot_physics_prediction.py table.csv out.svg [out.png ...]

Undefined values (one class only, a constant side) are left out of the chart, not drawn as zero.
"""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in the SVG (searchable, smaller)
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    """[(model, measure, auc or None, spearman or None)] from the command's CSV or JSON."""
    with open(path, encoding="utf-8") as f:
        if path.endswith(".json"):
            doc = json.load(f)
            if doc.get("format") != "softgrasp.physics-prediction":
                sys.exit(f"{path}: expected a softgrasp.physics-prediction document, found {doc.get('format')!r}")
            return [(r["model"], r["measure"], r["auc"], r["spearman"]) for r in doc["rows"]], doc
        rows = list(csv.DictReader(f))
        if not rows or "auc" not in rows[0]:
            sys.exit(f"{path}: expected the CSV of compare --against-physics (model,measure,...,auc,spearman)")
        number = lambda text: float(text) if text else None  # noqa: E731
        return [(r["model"], r["measure"], number(r["auc"]), number(r["spearman"])) for r in rows], None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows, doc = read_rows(sys.argv[1])
    models = list(dict.fromkeys(r[0] for r in rows))
    measures = list(dict.fromkeys(r[1] for r in rows))
    value = {(r[0], r[1]): (r[2], r[3]) for r in rows}
    fig, axes = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
    width = 0.8 / len(models)
    for panel, (ax, label) in enumerate(zip(axes, ["ROC AUC", "Spearman ρ"])):
        for k, model in enumerate(models):
            xs, ys = [], []
            for i, measure in enumerate(measures):
                v = value.get((model, measure), (None, None))[panel]
                if v is not None:
                    xs.append(i - 0.4 + (k + 0.5) * width)
                    ys.append(v)
            ax.bar(xs, ys, width, label=model)
        ax.axhline(0.5 if panel == 0 else 0.0, color="black", linewidth=0.8, linestyle="--")
        ax.set_ylabel(label)
        ax.set_ylim(0, 1) if panel == 0 else ax.set_ylim(-1, 1)
        ax.grid(axis="y", linewidth=0.3)
    axes[1].set_xticks(range(len(measures)))
    axes[1].set_xticklabels(measures)
    axes[0].legend(ncol=len(models), fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    if doc:
        fig.suptitle(f"{doc['grasps']} planned grasps, {doc['successes']} succeeded "
                     f"(trial score ≥ {doc['successScore']})", y=0.99)
    fig.tight_layout()
    for out in sys.argv[2:]:
        fig.savefig(out)


if __name__ == "__main__":
    main()
