"""scripts/timestep_convergence.py (src/sim/README.md §Timestep): two hand-made physics-prediction documents of
three grasps whose flips and displacement changes are counted here by hand; documents of different grasps, and a
document without per-direction displacements, are refused.

Usage: python3 timestep_convergence_test.py SOURCE_DIR WORK_DIR
"""
import copy
import json
import os
import subprocess
import sys

SRC, WORK = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(SRC, "scripts", "timestep_convergence.py")
os.makedirs(WORK, exist_ok=True)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def sample(file, seed, rank, held, disp, rot, predictors):
    return {"file": file, "seed": seed, "rank": rank, "score": sum(held) / len(held), "predictors": predictors,
            "held": held, "displacement_mm": disp, "rotation_deg": rot}


def document(step, samples):
    return {"format": "softgrasp.physics-prediction", "version": 2, "files": ["/w/default.xml", "/w/box.xml"],
            "successScore": 0.5, "settings": {"timestep_s": step, "directions": ["x+", "z-"]}, "samples": samples}


# 2 ms: grasp A holds both, B holds x+ only (score 0.5: a success), C holds neither.
# 1 ms: A the same with other displacements, B loses x+ (score 0: no success), C gains z- (score 0.5: a success).
a2 = [sample(0, 1, 1, [True, True], [1.0, 2.0], [1.0, 1.0], [0.3]),
      sample(0, 1, 2, [True, False], [3.0, 20.0], [2.0, 30.0], [0.2]),
      sample(1, 1, 1, [False, False], [12.0, 15.0], [20.0, 25.0], [None])]
a1 = [sample(0, 1, 1, [True, True], [1.5, 2.0], [1.25, 1.0], [0.3]),
      sample(0, 1, 2, [False, False], [11.0, 21.0], [2.0, 31.0], [0.2]),
      sample(1, 1, 1, [False, True], [12.0, 5.0], [20.0, 5.0], [None])]


def run(doc_a, doc_b, name):
    paths = []
    for i, doc in enumerate((doc_a, doc_b)):
        p = os.path.join(WORK, f"{name}{i}.json")
        with open(p, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        paths.append(p)
    return subprocess.run([sys.executable, SCRIPT] + paths, capture_output=True, text=True)


r = run(document(0.002, a2), document(0.001, a1), "ok")
check(r.returncode == 0, f"exit code {r.returncode}: {r.stderr}")
out = r.stdout
total = out[out.index("\nall\n"):] if "\nall\n" in out else ""
check("grasps 3: trial scores differ on 2; successes 2 at 0.002 s, 2 at 0.001 s; 2 flip (1 held -> lost, "
      "1 lost -> held)" in total, "grasp counts:\n" + out)
check("directions 6: 2 verdicts flip (1 held -> lost, 1 lost -> held)" in total, "direction counts:\n" + out)
# |Δ displacement|, all six directions: 0.5, 0, 8, 1, 0, 10 -> sorted 0 0 0.5 1 8 10: median (nearest rank 3) 0.5,
# p90 (rank 6) 10. Held at both: A's two directions: 0.5 and 0; rotations 0.25 and 0.
check("all directions: median 0.500, p90 10.000, max 10.000" in total, "displacements:\n" + out)
check("held at both: median 0.000, p90 0.500, max 0.500" in total, "held displacements:\n" + out)
check("rotation|, deg, held at both: median 0.000, p90 0.250, max 0.250" in total, "rotations:\n" + out)
check("default.xml\n  grasps 2:" in out and "box.xml\n  grasps 1:" in out, "per world:\n" + out)

other = copy.deepcopy(a1)
other[0]["predictors"] = [0.31]
r = run(document(0.002, a2), document(0.001, other), "other")
check(r.returncode == 1 and "measure values differ" in r.stderr, f"other grasps accepted: {r.returncode} {r.stderr}")
fewer = run(document(0.002, a2), document(0.001, a1[:2]), "fewer")
check(fewer.returncode == 1 and "different grasps" in fewer.stderr, f"fewer grasps accepted: {fewer.stderr}")
old = copy.deepcopy(a1)
del old[2]["displacement_mm"]
r = run(document(0.002, a2), document(0.001, old), "old")
check(r.returncode != 0 and "displacement_mm" in r.stderr, f"old document accepted: {r.returncode} {r.stderr}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
