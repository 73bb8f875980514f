#!/usr/bin/env python3
"""Every JSON document SoftGrasp writes validates against its schema (docs/schemas/README.md).

Runs every softgrasp-cli command with --json on every bundled world (robot commands on the worlds with a robot,
plan with a couple of hundred iterations), writes every file kind (grasp list, batch shard, merged dataset,
GraspIt! conversion) and validates each document against docs/schemas/<kind>.schema.json, after checking that
the command printed the kind it should. Negative cases: one document of each kind with an undocumented field added
(at the top and in a nested record), and with a wrong format or version, fails validation; every schema is used;
evaluate and batch refuse a file of another kind or a newer version naming the file and the tags; every number is
in its shortest round-trip form.

usage: json_schemas.py SOFTGRASP_CLI SOURCE_DIR WORK_DIR [--samples DIR]
(--samples keeps a copy of every document, one folder per kind, for reading.)
"""
import copy
import json
import os
import shutil
import subprocess
import sys

import jsonschema

CLI, SRC, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
SAMPLES = sys.argv[sys.argv.index("--samples") + 1] if "--samples" in sys.argv else None
SCHEMAS = os.path.join(SRC, "docs", "schemas")
WORLDS = sorted(os.path.join(SRC, "worlds", f) for f in os.listdir(os.path.join(SRC, "worlds")) if f.endswith(".xml"))
MODELS = os.path.join(SRC, "models")
failures = []
documents = []  # (kind, where, document)


def run(args, expect_kind=None, jsonl=False):
    """Runs softgrasp-cli with args; returns the parsed stdout document (or None for text output)."""
    where = "softgrasp-cli " + " ".join(os.path.relpath(a, SRC) if a.startswith(SRC) else a for a in args)
    p = subprocess.run([CLI] + args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        failures.append(f"{where}: exit {p.returncode}: {p.stderr.strip()}")
        return None
    if expect_kind is None:
        return None
    try:
        doc = parse(p.stdout, where)
    except json.JSONDecodeError as e:
        failures.append(f"{where}: stdout is not JSON: {e}")
        return None
    add(expect_kind, where, doc)
    return doc


def significant_digits(token):
    mantissa = token.lower().lstrip("-").split("e")[0].replace(".", "")
    return len(mantissa.strip("0")) or 1


def parse(text, where):
    """json.loads that checks every number is written in its shortest round-trip form (src/core/NumberFormat.h):
    no more significant digits than the shortest text that reads back to the same double."""
    def number(token):
        value = float(token)
        if significant_digits(token) > significant_digits(repr(value)):
            failures.append(f"{where}: number {token} is longer than its shortest round-trip form {value!r}")
        return value
    return json.loads(text, parse_float=number)


def add(expect_kind, where, doc):
    found = doc.get("format") if isinstance(doc, dict) else None
    if found != "softgrasp." + expect_kind:
        failures.append(f"{where}: format is {found!r}, expected 'softgrasp.{expect_kind}'")
        return
    documents.append((expect_kind, where, doc))


def read_file(expect_kind, path, where):
    with open(path, encoding="utf-8") as f:
        add(expect_kind, where, parse(f.read(), where))


def shard_lines(path, where):
    """A shard (JSON Lines, BATCH.md §Shard files): line 1's record is the tagged header, the others row records
    (batch-shard-row, untagged: the header's tag covers the file)."""
    with open(path, encoding="utf-8") as f:
        lines = [parse(line, where)["record"] for line in f if line.strip()]
    add("batch-shard", where + " line 1", lines[0])
    for i, record in enumerate(lines[1:], start=2):
        documents.append(("batch-shard-row", f"{where} line {i}", record))


def registered_models():
    """Every registered contact model, as quality --help lists them ("...: soft-finger, hertz, ... (default ...)")."""
    text = subprocess.run([CLI, "quality", "--help"], capture_output=True, text=True, check=True).stdout
    line = next(l for l in text.splitlines() if l.strip().startswith("--contact-model"))
    names = line.split(": ", 1)[1].split(" (default")[0]
    return ",".join(n.strip() for n in names.split(","))


def worlds_with_robot():
    out = []
    for w in WORLDS:
        doc = run(["info", w, "--json"], "info")
        if doc and doc["robots"]:
            out.append(w)
    return out


def produce():
    os.makedirs(WORK, exist_ok=True)
    robot_worlds = worlds_with_robot()  # runs info on every world
    for path in [os.path.join(MODELS, "robots", "ParallelJaw", "ParallelJaw.xml"),
                 os.path.join(MODELS, "robots", "ThreeFingerURDF", "urdf", "three_finger.urdf"),
                 os.path.join(MODELS, "objects", "mug.xml"), os.path.join(MODELS, "objects", "torus.obj")]:
        run(["info", path, "--json"], "info")
    for robot in [os.path.join(MODELS, "robots", "ThreeFinger", "ThreeFinger.xml"),
                  os.path.join(MODELS, "robots", "ThreeFingerURDF", "urdf", "three_finger.urdf")]:
        dofs = len(json.loads(subprocess.run([CLI, "info", robot, "--json"], capture_output=True, text=True,
                                             check=True).stdout)["robots"][0]["dofs"])
        run(["fk", robot, "--dofs", ",".join(["0.3"] * dofs), "--json"], "fk")
        run(["fk", robot, "--dofs", ",".join(["400"] * dofs), "--degrees", "--json"], "fk")  # clamped
    all_models = registered_models()
    for w in WORLDS:
        has_robot = w in robot_worlds
        run(["quality", w, "--json"], "quality")
        run(["quality", w, "--contact-model", all_models, "--json"], "quality")
        run(["contact", w, "--json"], "contact")
        run(["contact", w, "--contact-model", "soft-finger", "--json"], "contact")
        run(["compare", w, "--json"], "compare")
        run(["compare", w, "--contact-model", "soft-finger,point", "--sweep", "force:5:20:2", "--json"], "compare")
        if not has_robot:
            continue
        run(["grasp", w, "--json"], "grasp")
        run(["grasp", w, "--approach", "--sensing", "--json"], "grasp")
        run(["quality", w, "--approach", "--autograsp", "--contact-model", all_models, "--json"], "quality")
        run(["contact", w, "--approach", "--autograsp", "--json"], "contact")
        run(["compare", w, "--autograsp", "--json"], "compare")
        run(["sensing", w, "--json"], "sensing")
        run(["sensing", w, "--autograsp", "--squeeze-torque", "--json"], "sensing")
    # The grasp force optimisation: the six weight directions, a wrench, models with and without friction.
    default_world, jaw_world = (os.path.join(SRC, "worlds", w) for w in ("default.xml", "paralleljaw_box.xml"))
    run(["hold", default_world, "--approach", "--autograsp", "--json"], "hold")
    run(["hold", jaw_world, "--autograsp", "--contact-model", "point,frictionless", "--json"], "hold")
    run(["hold", jaw_world, "--autograsp", "--wrench", "0,0,-2,0,50,0", "--json"], "hold")
    # The planner: a few hundred iterations (the step counter starts at 30000), its file and evaluate.
    default = os.path.join(SRC, "worlds", "default.xml")
    grasps = os.path.join(WORK, "grasps.json")
    run(["plan", default, "--steps", "30200", "--energy", "autograsp-quality", "--no-progress", "--json",
         "--out", grasps], "grasp-list")
    run(["plan", os.path.join(SRC, "worlds", "paralleljaw_box.xml"), "--planner", "guided", "--steps", "30200",
         "--child-steps", "20", "--no-progress", "--json"], "grasp-list")
    read_file("grasp-list", grasps, "plan --out " + os.path.basename(grasps))
    evaluated = os.path.join(WORK, "evaluated.json")
    run(["evaluate", default, "--grasps", grasps, "--contact-model", "hertz", "--json", "--out", evaluated],
        "grasp-list")
    read_file("grasp-list", evaluated, "evaluate --out " + os.path.basename(evaluated))
    # Physics trials (src/sim/README.md): the world's grasp and a grasp list, short pulls.
    run(["validate", default, "--approach", "--autograsp", "--directions", "z-,x+", "--duration", "0.05",
         "--no-progress", "--json"], "validation")
    run(["validate", default, "--grasps", grasps, "--directions", "y-", "--duration", "0.05", "--no-progress",
         "--json"], "validation")
    # Measures against physics (src/sim/README.md): two planned grasps, short pulls.
    run(["compare", os.path.join(SRC, "worlds", "paralleljaw_box.xml"), "--against-physics", "--seeds", "1",
         "--iterations", "200", "--keep", "2", "--duration", "0.05", "--threads", "1", "--no-progress", "--json"],
        "physics-prediction")
    # A batch: the job list, its shard, the merged dataset and the run summaries.
    jobs = os.path.join(WORK, "jobs.json")
    with open(jobs, "w", encoding="utf-8") as f:
        json.dump({"format": "softgrasp.batch-jobs", "version": 1,
                   "defaults": {"steps": 30100, "contactModel": "point", "measures": ["epsilon-l1"]},
                   "jobs": [{"world": os.path.join(SRC, "worlds", "paralleljaw_box.xml"), "seeds": [1, 2]},
                            # the world has one graspable: this row fails and is recorded with its error
                            {"world": os.path.join(SRC, "worlds", "paralleljaw_box.xml"), "graspable": 3}]}, f)
    read_file("batch-jobs", jobs, "the test's job list")
    for example in ("example-jobs.json", "scale-jobs.json"):
        read_file("batch-jobs", os.path.join(SRC, "scripts", "slurm", example), "scripts/slurm/" + example)
    out = os.path.join(WORK, "batch")
    shutil.rmtree(out, ignore_errors=True)
    run(["batch", jobs, "--out", out, "--no-progress", "--json"], "batch-run")
    for name in sorted(os.listdir(out)) if os.path.isdir(out) else []:
        if name.endswith(".jsonl"):
            shard_lines(os.path.join(out, name), "batch shard " + name)
    dataset = os.path.join(WORK, "dataset.json")
    for rank_by in ("row", "energy"):
        if run(["batch-merge", out, "--out", dataset, "--rank-by", rank_by, "--json"], "batch-merge"):
            read_file("grasp-dataset", dataset, "batch-merge --rank-by " + rank_by)
    # The grasp database (src/store/README.md): the same shards streamed into SQLite, imported again (nothing
    # new), queried and counted.
    db = os.path.join(WORK, "grasps.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    run(["batch-merge", out, "--db", db, "--json"], "batch-merge-db")
    run(["db", "import", db, out, "--json"], "db-import")
    run(["db", "query", db, "--json"], "db-query")
    run(["db", "query", db, "--measure", "epsilon-l1", "--min", "0", "--rank-by", "epsilon-l1", "--limit", "2",
         "--json"], "db-query")
    run(["db", "info", db, "--json"], "db-info")
    converted = os.path.join(WORK, "converted")
    shutil.rmtree(converted, ignore_errors=True)
    run(["convert", os.path.join(MODELS, "robots", "ThreeFingerURDF", "urdf", "three_finger.urdf"), "--to", "graspit",
         converted, "--json"], "convert")


def refused(args, file, expected):
    """softgrasp-cli refuses a file of the wrong kind: exit 3 and one stderr line naming the file and the tags."""
    p = subprocess.run([CLI] + args, capture_output=True, text=True, timeout=600)
    if p.returncode != 3 or file not in p.stderr or expected not in p.stderr or p.stdout:
        failures.append(f"softgrasp-cli {' '.join(args)}: expected exit 3 naming {file} and '{expected}', got exit "
                        f"{p.returncode}: {p.stderr.strip()}")


def readers_refuse_other_kinds():
    default = os.path.join(SRC, "worlds", "default.xml")
    jobs, grasps = os.path.join(WORK, "jobs.json"), os.path.join(WORK, "grasps.json")
    refused(["evaluate", default, "--grasps", jobs, "--json"], jobs,
            'expected a softgrasp.grasp-list document version 1, found format "softgrasp.batch-jobs", version 1')
    refused(["batch", grasps, "--out", os.path.join(WORK, "refused"), "--json"], grasps,
            'expected a softgrasp.batch-jobs document version 1, found format "softgrasp.grasp-list", version 1')
    newer = os.path.join(WORK, "newer-grasps.json")
    with open(grasps, encoding="utf-8") as f:
        doc = json.load(f)
    doc["version"] = 2
    with open(newer, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    refused(["evaluate", default, "--grasps", newer], newer, "version 2 (newer than this program reads)")


def validator(kind, cache={}):
    if kind not in cache:
        with open(os.path.join(SCHEMAS, kind + ".schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        cache[kind] = cls(schema)
    return cache[kind]


def first_error(kind, doc):
    if not os.path.exists(os.path.join(SCHEMAS, kind + ".schema.json")):
        return "no schema docs/schemas/" + kind + ".schema.json"
    errors = sorted(validator(kind).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    return "/".join(str(p) for p in e.absolute_path) + ": " + e.message[:300]


MAP_KEYS = {"epsilon-l1", "volume-l1", "epsilon-linf", "volume-linf", "epsilon-exact", "min-singular-value",
            "soft-finger", "hertz", "point", "frictionless", "hydroelastic", "patch", "penalty"}


def nested_candidates(doc):
    """(key, index) of the top-level arrays whose first item is a record with fixed keys (not a name map)."""
    for key, value in doc.items():
        if isinstance(value, list) and value and isinstance(value[0], dict) and value[0] \
                and not set(value[0]) <= MAP_KEYS:
            yield key


def nested_record(doc):
    key = next(nested_candidates(doc), None)
    return None if key is None else doc[key][0]


def nested_path(doc):
    return next(nested_candidates(doc)) + "[0]"


def main():
    produce()
    readers_refuse_other_kinds()
    kinds_seen = set()
    for kind, where, doc in documents:
        kinds_seen.add(kind)
        if SAMPLES:
            folder = os.path.join(SAMPLES, kind)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{len(os.listdir(folder))}.json"), "w", encoding="utf-8") as f:
                json.dump({"where": where, "document": doc}, f, indent=1)
        err = first_error(kind, doc)
        if err:
            failures.append(f"{where}: does not validate against {kind}.schema.json: {err}")
    # Negative cases, once per kind: an undocumented field, a wrong format name and a wrong version fail.
    negatives = nested_checks = 0
    for kind in sorted(kinds_seen):
        doc = next(d for k, _, d in documents if k == kind)
        extra = copy.deepcopy(doc)
        extra["undocumentedField"] = 1
        if first_error(kind, extra) is None:
            failures.append(f"{kind}.schema.json accepts an undocumented top-level field")
        nested = nested_record(doc)
        if nested is not None:
            nested_checks += 1
            nested_extra = copy.deepcopy(doc)
            nested_record(nested_extra)["undocumentedField"] = 1
            if first_error(kind, nested_extra) is None:
                failures.append(f"{kind}.schema.json accepts an undocumented field in {nested_path(doc)}")
        if kind != "batch-shard-row":
            for key, value in (("format", "softgrasp.something-else"), ("version", 2)):
                wrong = copy.deepcopy(doc)
                wrong[key] = value
                if first_error(kind, wrong) is None:
                    failures.append(f"{kind}.schema.json accepts {key} {value!r}")
        negatives += 1
    schema_kinds = {f[:-len(".schema.json")] for f in os.listdir(SCHEMAS) if f.endswith(".schema.json")}
    for kind in sorted(schema_kinds - kinds_seen):
        failures.append(f"{kind}.schema.json: no document of this kind was produced")
    for kind in sorted(kinds_seen - schema_kinds):
        failures.append(f"{kind}: no schema in docs/schemas")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(documents)} documents of {len(kinds_seen)} kinds validated, {negatives} kinds checked against "
          f"undocumented fields ({nested_checks} also in a nested record), {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
