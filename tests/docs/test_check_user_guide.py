#!/usr/bin/env python3
"""Self-test of tests/docs/check_user_guide.py (ctest user_guide_selftest): a small guide in a temporary tree with
one of each kind of problem, and as many correct cases next to them. The checker must report exactly the broken
ones, each with its page and line.

Usage: test_check_user_guide.py SOFTGRASP_CLI SOFTGRASP_APP
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import check_user_guide  # noqa: E402

INDEX = """# Guide

[The page](page.md) and [a page that is gone](gone.md).
"""

# Line numbers matter: the expectations below name them.
PAGE = """# A page

## Second heading

![shown, made by a rule](images/a.png)
![exists, but no rule makes it](images/b.png)
![missing](images/c.png)
[good anchor](page.md#second-heading) and [bad anchor](README.md#no-such-heading)
[outside link](https://example.org/x.png) and `[code](not-a-link.md)`

    softgrasp-cli info worlds/default.xml
    softgrasp-cli info worlds/default.xml --no-such-flag
    softgrasp worlds/default.xml --screenshot x.png --fit grasp --no-such-option
    softgrasp-cli plan worlds/paralleljaw_box.xml --iterations 20 --seed 1 --no-progress --out listed.json
    softgrasp-cli evaluate worlds/paralleljaw_box.xml --grasps listed.json > evaluated.txt

<!-- file: tetra.off -->
```
OFF
4 4 0
0 0 0
10 0 0
0 10 0
0 0 10
3 0 2 1
3 0 1 3
3 0 3 2
3 1 2 3
```

    softgrasp-cli info tetra.off

```python
import os
assert os.path.getsize("evaluated.txt") > 0
raise SystemExit(3)
```
"""

ORPHAN = "# Not linked from the index\n"

EXPECTED = [
    "docs/guide/README.md:3: link gone.md does not resolve",
    "docs/guide/page.md:6: image images/b.png: no rule of the docs target makes b.png",
    "docs/guide/page.md:7: image images/c.png does not resolve",
    "docs/guide/page.md:8: link README.md#no-such-heading: no heading #no-such-heading",
    "docs/guide/orphan.md: not linked from docs/guide/README.md",
    "docs/CMakeLists.txt: the docs target makes unused.png, which no page shows",
    "README.md: shows no picture of docs/guide/images/",
    "docs/guide/page.md:12: `softgrasp-cli info worlds/default.xml --no-such-flag` exited 2",
    "docs/guide/page.md:13: `softgrasp worlds/default.xml --screenshot x.png --fit grasp --no-such-option`: "
    "softgrasp --help does not list --no-such-option",
    "docs/guide/page.md:33: the Python example exited 3",
]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    cli, app = argv[1], argv[2]
    with tempfile.TemporaryDirectory(prefix="sg-guide-selftest-") as root:
        for name in ("worlds", "models", "scripts"):
            os.symlink(os.path.join(REPO, name), os.path.join(root, name))
        write(os.path.join(root, "README.md"), "# Project\n\nSee [the guide](docs/guide/README.md).\n")
        write(os.path.join(root, "docs/guide/README.md"), INDEX)
        write(os.path.join(root, "docs/guide/page.md"), PAGE)
        write(os.path.join(root, "docs/guide/orphan.md"), ORPHAN)
        for png in ("a.png", "b.png"):
            write(os.path.join(root, "docs/guide/images", png), "not really a PNG")
        rules = os.path.join(root, "pictures.txt")
        write(rules, "# comment\na.png\tworlds/default.xml\nunused.png\tworlds/default.xml\n")
        problems = check_user_guide.check(root, rules, cli, app)

    failures = []
    for expected in EXPECTED:
        if not any(p.startswith(expected) for p in problems):
            failures.append(f"not reported: {expected}")
    for p in problems:
        if not any(p.startswith(expected) for expected in EXPECTED):
            failures.append(f"reported, but not a problem: {p}")
    for f in failures:
        print(f)
    print(f"{len(problems)} problem(s) reported, {len(EXPECTED)} expected, {len(failures)} mismatch(es)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
