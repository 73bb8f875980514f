"""scripts/plot_physics_prediction.py (docs/physics-vs-measures.md): the chart of compare --against-physics from
its CSV and its JSON — one bar per defined value (an undefined AUC or Spearman is left out, not drawn as zero),
the models in the legend — and a clear error for a file that is not the command's table.

Usage: python3 plot_physics_prediction_test.py SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SRC, WORK = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(SRC, "scripts", "plot_physics_prediction.py")
os.makedirs(WORK, exist_ok=True)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def bars(svg_path):
    """Count matplotlib's bar patches: <g id="patch_N"> groups inside the axes, minus the axes backgrounds."""
    root = ET.parse(svg_path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    texts = " ".join("".join(t.itertext()) for t in root.iter(ns + "text"))
    patches = [g for g in root.iter(ns + "g") if g.get("id", "").startswith("patch_")]
    return len(patches), texts


# Two models × two measures; one AUC and one Spearman undefined: 3 + 3 bars, plus the figure's and the two axes'
# backgrounds, the legend frame and its 2 handles.
rows = [("point", "epsilon-l1", "0.8", "0.6"), ("point", "volume-l1", "", "0.5"),
        ("patch", "epsilon-l1", "0.9", ""), ("patch", "volume-l1", "0.7", "0.4")]
csv_path = os.path.join(WORK, "table.csv")
with open(csv_path, "w", encoding="utf-8") as f:
    f.write("model,measure,grasps,missing,successes,auc,spearman\n")
    for m, q, a, s in rows:
        f.write(f"{m},{q},10,0,5,{a},{s}\n")
json_path = os.path.join(WORK, "table.json")
with open(json_path, "w", encoding="utf-8") as f:
    json.dump({"format": "softgrasp.physics-prediction", "version": 1, "grasps": 10, "successes": 5,
               "successScore": 0.5,
               "rows": [{"model": m, "measure": q, "auc": float(a) if a else None,
                         "spearman": float(s) if s else None} for m, q, a, s in rows]}, f)

counts = []
for source in (csv_path, json_path):
    svg = os.path.join(WORK, os.path.basename(source) + ".svg")
    png = os.path.join(WORK, os.path.basename(source) + ".png")
    r = subprocess.run([sys.executable, SCRIPT, source, svg, png], capture_output=True, text=True)
    check(r.returncode == 0, f"{source}: exit {r.returncode}: {r.stderr}")
    if r.returncode != 0:
        continue
    check(os.path.getsize(png) > 1000, f"{png}: no image")
    n, texts = bars(svg)
    counts.append(n)
    for word in ("point", "patch", "epsilon-l1", "volume-l1", "ROC AUC"):
        check(word in texts, f"{svg}: '{word}' not drawn")
check(len(counts) == 2 and counts[0] == counts[1], f"CSV and JSON give different charts: {counts}")

# With every value defined there are exactly two bars more (the two undefined ones).
full = os.path.join(WORK, "full.csv")
with open(full, "w", encoding="utf-8") as f:
    f.write("model,measure,grasps,missing,successes,auc,spearman\n")
    for m, q, a, s in rows:
        f.write(f"{m},{q},10,0,5,{a or '0.5'},{s or '0.1'}\n")
r = subprocess.run([sys.executable, SCRIPT, full, os.path.join(WORK, "full.svg")], capture_output=True, text=True)
check(r.returncode == 0, f"full.csv: exit {r.returncode}: {r.stderr}")
if r.returncode == 0 and counts:
    check(bars(os.path.join(WORK, "full.svg"))[0] == counts[0] + 2, "an undefined value is drawn as a bar")

# Not the command's table: a clear error naming the file.
wrong = os.path.join(WORK, "wrong.json")
with open(wrong, "w", encoding="utf-8") as f:
    json.dump({"format": "softgrasp.validation", "version": 1}, f)
r = subprocess.run([sys.executable, SCRIPT, wrong, os.path.join(WORK, "x.svg")], capture_output=True, text=True)
check(r.returncode != 0 and "wrong.json" in r.stderr and "physics-prediction" in r.stderr,
      f"a validation document: exit {r.returncode}, stderr {r.stderr!r}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("plot_physics_prediction: CSV and JSON charts agree, undefined values left out, bad input refused")
