#!/usr/bin/env python3
"""How much the physics trial's verdicts depend on MuJoCo's timestep (src/sim/README.md §Timestep): two
`softgrasp-cli compare --against-physics --json` documents of the same worlds and seeds, one per timestep,
compared grasp by grasp and direction by direction:

    softgrasp-cli compare worlds/default.xml --against-physics --world ... --seeds 3 --json > step2ms.json
    softgrasp-cli compare worlds/default.xml --against-physics --world ... --seeds 3 --timestep 0.001 \
        --json > step1ms.json
    python3 scripts/timestep_convergence.py step2ms.json step1ms.json

Planning does not depend on the trial's settings, so both documents hold the same grasps; the script checks it
(same files, seeds, ranks and measure values) before it counts: trial scores that differ, successes (score >=
successScore) that flip each way, per-direction held/lost verdicts that flip each way, and the change of the
largest displacement and rotation per direction (all directions, and those held at both steps; median, p90, max).
Per world and in all. Exit code 1, with the reason on stderr, when the grasps differ, or for a document that is
not a physics-prediction document or lacks the per-direction displacements (an older softgrasp-cli)."""
import json
import math
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != "softgrasp.physics-prediction":
        sys.exit(f"{path}: not a softgrasp.physics-prediction document (format {doc.get('format')!r})")
    for s in doc["samples"]:
        if "displacement_mm" not in s or "rotation_deg" not in s:
            sys.exit(f"{path}: samples without displacement_mm/rotation_deg (rerun with this softgrasp-cli)")
    return doc


def percentile(values, q):
    """Nearest-rank percentile (q in [0, 1]) of a non-empty list."""
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def spread(values):
    if not values:
        return "none"
    return f"median {percentile(values, 0.5):.3f}, p90 {percentile(values, 0.9):.3f}, max {max(values):.3f}"


class Tally:
    def __init__(self):
        self.grasps = self.scores_differ = self.success_a = self.success_b = 0
        self.success_lost = self.success_gained = 0  # a -> b: held at a and lost at b, and the reverse
        self.directions = self.held_lost = self.lost_held = 0
        self.d_disp_all, self.d_disp_held, self.d_rot_held = [], [], []

    def add(self, sa, sb, success_score):
        self.grasps += 1
        self.scores_differ += sa["score"] != sb["score"]
        ok_a, ok_b = sa["score"] >= success_score, sb["score"] >= success_score
        self.success_a += ok_a
        self.success_b += ok_b
        self.success_lost += ok_a and not ok_b
        self.success_gained += ok_b and not ok_a
        for ha, hb, da, db, ra, rb in zip(sa["held"], sb["held"], sa["displacement_mm"], sb["displacement_mm"],
                                          sa["rotation_deg"], sb["rotation_deg"]):
            self.directions += 1
            self.held_lost += ha and not hb
            self.lost_held += hb and not ha
            self.d_disp_all.append(abs(da - db))
            if ha and hb:
                self.d_disp_held.append(abs(da - db))
                self.d_rot_held.append(abs(ra - rb))

    def lines(self, step_a, step_b):
        return [
            f"grasps {self.grasps}: trial scores differ on {self.scores_differ}; successes {self.success_a} at "
            f"{step_a} s, {self.success_b} at {step_b} s; {self.success_lost + self.success_gained} flip "
            f"({self.success_lost} held -> lost, {self.success_gained} lost -> held)",
            f"directions {self.directions}: {self.held_lost + self.lost_held} verdicts flip ({self.held_lost} held -> "
            f"lost, {self.lost_held} lost -> held)",
            f"|change of largest displacement|, mm, all directions: {spread(self.d_disp_all)}",
            f"|change of largest displacement|, mm, held at both: {spread(self.d_disp_held)}",
            f"|change of largest rotation|, deg, held at both: {spread(self.d_rot_held)}",
        ]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    a, b = load(argv[1]), load(argv[2])
    step_a, step_b = a["settings"]["timestep_s"], b["settings"]["timestep_s"]
    if [os.path.basename(f) for f in a["files"]] != [os.path.basename(f) for f in b["files"]]:
        print("the documents plan different worlds", file=sys.stderr)
        return 1
    if a["successScore"] != b["successScore"] or a["settings"]["directions"] != b["settings"]["directions"]:
        print("the documents use different success scores or directions", file=sys.stderr)
        return 1
    key = lambda s: (s["file"], s["seed"], s["rank"])
    sa, sb = {key(s): s for s in a["samples"]}, {key(s): s for s in b["samples"]}
    if sa.keys() != sb.keys():
        print(f"the documents tried different grasps ({len(sa)} and {len(sb)})", file=sys.stderr)
        return 1
    for k in sorted(sa):
        if sa[k]["predictors"] != sb[k]["predictors"]:
            print(f"grasp {k}: measure values differ, so the grasps differ", file=sys.stderr)
            return 1
    total, per_world = Tally(), {}
    for k in sorted(sa):
        total.add(sa[k], sb[k], a["successScore"])
        per_world.setdefault(k[0], Tally()).add(sa[k], sb[k], a["successScore"])
    print(f"timestep {step_a} s against {step_b} s, success: score >= {a['successScore']}")
    for w in sorted(per_world):
        print(os.path.basename(a["files"][w]))
        for line in per_world[w].lines(step_a, step_b):
            print("  " + line)
    print("all")
    for line in total.lines(step_a, step_b):
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
