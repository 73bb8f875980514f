#!/usr/bin/env python3
"""Self-test of scripts/check-doc-refs.py: a temporary tree with good references (plain, a heading with a trailing
parenthesis, a file in an ancestor folder, one cut by a comment's line end) and two dead ones (a missing heading, a
missing file) must make the checker exit 1 and report exactly the two dead ones.

Usage: test_check_doc_refs.py [CHECKER]   (default: scripts/check-doc-refs.py next to this repository's tests/)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                          os.path.join(HERE, "..", "..", "scripts", "check-doc-refs.py"))


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(root):
    done = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    return done.returncode, [line for line in done.stdout.splitlines() if line]


def main():
    failures = []
    with tempfile.TemporaryDirectory() as root:
        write(root, "src/lib/GUIDE.md",
              "# Guide\n\n## Search state\n\ntext\n\n## Energies (lower is better)\n\n### 2. The contact model\n")
        write(root, "src/lib/Good.h",
              "// See GUIDE.md §Search state, and GUIDE.md §Energies (the default).\n"
              "// The model (GUIDE.md §The contact\n// model) is cited across a line break.\n")
        write(root, "src/lib/deep/Nested.cpp", "// Found in an ancestor folder: GUIDE.md §The contact model.\n")
        write(root, "docs/NOTES.md", "# Notes\n\nSee src/lib/GUIDE.md §Energies (lower is better).\n")
        # The two dead references: a heading the file lacks, and a file that does not exist.
        write(root, "src/lib/Dead.h", "// GUIDE.md §Live view: no such heading.\n")
        write(root, "README.md", "# Readme\n\nSee MISSING.md §Anything.\n")

        status, lines = run(root)
        if status != 1:
            failures.append(f"exit status {status}, expected 1 (dead references present)")
        expected = {"src/lib/Dead.h:1", "README.md:3"}
        reported = {line.split(": ", 1)[0] for line in lines}
        if reported != expected or len(lines) != 2:
            failures.append(f"reported {sorted(reported)} ({len(lines)} lines), expected exactly {sorted(expected)}:\n"
                            + "\n".join(lines))

        # With the dead references gone the tree is clean: exit 0 and no output.
        os.remove(os.path.join(root, "src/lib/Dead.h"))
        write(root, "README.md", "# Readme\n\nSee src/lib/GUIDE.md §Search state.\n")
        status, lines = run(root)
        if status != 0 or lines:
            failures.append(f"clean tree: exit status {status}, output {lines}, expected 0 and nothing")

    for failure in failures:
        print("FAIL:", failure)
    print("test_check_doc_refs:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
