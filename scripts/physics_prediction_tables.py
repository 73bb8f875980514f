#!/usr/bin/env python3
"""The Markdown tables of docs/physics-vs-measures.md from a `softgrasp-cli compare --against-physics --json`
document, so the page's numbers come from one command and this script:

    python3 scripts/physics_prediction_tables.py table.json > tables.md

Prints: the pooled table (the document's rows), the trial scores per world, the static check's agreement with the
trial per model, and per world the rows of a few predictors recomputed from the document's samples with the rules
of src/sim/README.md §Measures against physics (average ranks; a grasp without a value ranks below every value;
ROC AUC = Mann-Whitney U / (P N); Spearman = Pearson of the average ranks; undefined for one class or a constant)."""
import json
import math
import os
import sys
from fractions import Fraction

WORLD_NAMES = {"default.xml": "ThreeFinger + mug", "paralleljaw_box.xml": "ParallelJaw + box",
               "threefinger_sphere.xml": "ThreeFinger + sphere", "fivefinger_cylinder.xml": "FiveFinger + cylinder"}
PER_WORLD = [("point", "epsilon-l1"), ("point", "epsilon-exact"), ("point", "volume-l1"),
             ("point", "min-singular-value"), ("patch", "epsilon-linf"), ("frictionless", "epsilon-l1"),
             ("point", "static-held"), ("soft-finger", "static-held"), ("patch", "static-held"),
             ("frictionless", "static-held")]


def fmt(v):
    return "undefined" if v is None else f"{v:.3f}"


def average_ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def auc(scores, positive):
    p = sum(positive)
    n = len(positive) - p
    if p == 0 or n == 0:
        return None
    ranks = average_ranks(scores)
    u = sum(r for r, pos in zip(ranks, positive) if pos) - p * (p + 1) / 2
    return u / (p * n)


def spearman(x, y):
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    rx, ry = average_ranks(x), average_ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy)


def main():
    doc = json.load(open(sys.argv[1]))
    rows, samples = doc["rows"], doc["samples"]
    # The per-world rows use this script's statistics: they must give the document's pooled rows back.
    for i, r in enumerate(rows):
        values = [-math.inf if s["predictors"][i] is None else s["predictors"][i] for s in samples]
        scores = [s["score"] for s in samples]
        for mine, theirs in ((auc(values, [x >= doc["successScore"] for x in scores]), r["auc"]),
                             (spearman(values, scores), r["spearman"])):
            if (mine is None) != (theirs is None) or (mine is not None and abs(mine - theirs) > 1e-9):
                sys.exit(f"{r['model']} {r['measure']}: recomputed {mine}, the document has {theirs}")
    names = [WORLD_NAMES.get(os.path.basename(f), os.path.basename(f)) for f in doc["files"]]
    out = []
    out.append("| model | measure | no value | ROC AUC | Spearman ρ |")
    out.append("|---|---|---|---|---|")
    for r in rows:
        out.append(f"| {r['model']} | {r['measure']} | {r['missing']} | {fmt(r['auc'])} | {fmt(r['spearman'])} |")

    tried = len(doc["settings"]["directions"])
    steps = [Fraction(k, tried) for k in range(tried + 1)]
    out.append("")
    out.append("Trial scores per world (how many grasps held in 0 … %d directions, as score):" % tried)
    out.append("")
    out.append("| world | " + " | ".join(str(s) for s in steps) + " |")
    out.append("|---|" + "---|" * len(steps))
    for w, name in enumerate(names):
        counts = [sum(1 for s in samples if s["file"] == w and sum(s["held"]) == k) for k in range(tried + 1)]
        out.append(f"| {name} | " + " | ".join(str(c) for c in counts) + " |")

    out.append("")
    out.append("| model | both held | static only | physics only | neither | agree |")
    out.append("|---|---|---|---|---|---|")
    models = []
    for a in doc["agreement"]:
        if a["model"] not in models:
            models.append(a["model"])
    for m in models:
        t = [sum(a[k] for a in doc["agreement"] if a["model"] == m)
             for k in ("bothHeld", "staticOnly", "physicsOnly", "neither")]
        total = sum(t)
        agree = f"{100 * (t[0] + t[3]) / total:.1f}%" if total else "undefined"
        out.append(f"| {m} | {t[0]} | {t[1]} | {t[2]} | {t[3]} | {agree} |")

    success = doc["successScore"]
    out.append("")
    out.append("| predictor | " + " | ".join(names) + " |")
    out.append("|---|" + "---|" * len(names))
    line = "| grasps (successes) |"
    for w in range(len(names)):
        mine = [s for s in samples if s["file"] == w]
        line += f" {len(mine)} ({sum(1 for s in mine if s['score'] >= success)}) |"
    out.append(line)
    index = {(r["model"], r["measure"]): i for i, r in enumerate(rows)}
    for model, measure in PER_WORLD:
        if (model, measure) not in index:
            continue
        i = index[(model, measure)]
        line = f"| {model} {measure} |"
        for w in range(len(names)):
            mine = [s for s in samples if s["file"] == w]
            values = [-math.inf if s["predictors"][i] is None else s["predictors"][i] for s in mine]
            scores = [s["score"] for s in mine]
            line += f" {fmt(auc(values, [s >= success for s in scores]))} / {fmt(spearman(values, scores))} |"
        out.append(line)
    print("\n".join(out))


if __name__ == "__main__":
    main()
