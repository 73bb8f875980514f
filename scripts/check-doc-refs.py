#!/usr/bin/env python3
"""Checks that every cross-reference of the form `FILE.md §Heading` in the repository resolves.

A reference names a Markdown file (a path relative to the referring file's folder or one of its ancestors up to the
repository root, or a file name that is unique in the repository) and a heading of that file. The heading text in the reference may run on
into the sentence ("§Names section") or be cut by a line break in a comment; it resolves when a heading of the file
equals it, is a prefix of it at a word boundary, or (at a line end) starts with it. Headings compare without their
leading section numbers ("## 3. The contact model"), case-insensitively, and a heading's trailing parenthesis is
optional: "§Energies" resolves to "## Energies (lower is better)".

Usage: check-doc-refs.py [ROOT]   exit status 1 and one line per dead reference when any does not resolve.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
SCANNED = (".md", ".h", ".cpp", ".txt", ".sh", ".py", ".cmake")
SKIPPED_DIRS = {".git", "build", "node_modules"}
# The checker and its self-test quote references as examples.
SKIPPED_FILES = {"check-doc-refs.py", "test_check_doc_refs.py"}
REF = re.compile(r"([\w./-]+\.md) §([^\n]*)")
# The heading text ends at a closing bracket, punctuation followed by a space or the line's end, a quote, a
# backquote or the end of a C comment.
END = re.compile(r"[)\]\"`]|[.,;:](\s|$)|\*/|\s—|\s\(")


def repo_files():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("build")]
        for name in files:
            yield os.path.join(folder, name)


def normalise(text):
    text = re.sub(r"^[\d.]+\s+", "", text.strip())  # "3. The contact model" → "The contact model"
    text = re.sub(r"[*_`]", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def without_parenthesis(heading):
    """"energies (lower is better)" → "energies"; a heading without a trailing parenthesis is returned as is."""
    return re.sub(r"\s*\([^()]*\)$", "", heading)


def headings(path):
    out = []
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and re.match(r"#{1,6} ", line):
                heading = normalise(line.lstrip("#"))
                out.append(heading)
                if without_parenthesis(heading) != heading:
                    out.append(without_parenthesis(heading))
    return out


def main():
    files = list(repo_files())
    markdown = [p for p in files if p.endswith(".md")]
    by_name = {}
    for p in markdown:
        by_name.setdefault(os.path.basename(p), []).append(p)
    heading_cache = {}
    dead = []
    for path in files:
        if not path.endswith(SCANNED) or os.path.basename(path) in SKIPPED_FILES:
            continue
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            for match in REF.finditer(line):
                target_name, rest = match.group(1), match.group(2)
                end = END.search(rest)
                at_line_end = end is None
                ref = normalise(rest[: end.start()] if end else rest)
                ref = re.sub(r"\s*(//|#)\s*$", "", ref).rstrip(".")
                # The referring file's folder and its ancestors first ("README.md" in src/geometry/X.h is
                # src/geometry/README.md; "model/README.md" in src/grasp/planner is src/model/README.md).
                candidates = []
                folder = os.path.dirname(path)
                while True:
                    candidates.append(os.path.normpath(os.path.join(folder, target_name)))
                    if os.path.samefile(folder, ROOT) if os.path.exists(folder) else True:
                        break
                    folder = os.path.dirname(folder)
                # A test under tests/<layer>/ cites its layer's documents as src/<layer>/ does (before the root).
                rel = os.path.relpath(path, ROOT).split(os.sep)
                if rel[0] == "tests" and len(rel) > 2:
                    candidates.insert(len(candidates) - 1, os.path.join(ROOT, "src", rel[1], target_name))
                candidates.append(os.path.join(ROOT, "src", target_name))
                target = next((c for c in candidates if os.path.isfile(c)), None)
                if target is None and len(by_name.get(os.path.basename(target_name), [])) == 1:
                    target = by_name[os.path.basename(target_name)][0]
                where = f"{os.path.relpath(path, ROOT)}:{number}"
                if target is None:
                    dead.append(f"{where}: {target_name} §{rest.strip()}: no such file (or the name is ambiguous)")
                    continue
                if target not in heading_cache:
                    heading_cache[target] = headings(target)
                ok = any(h == ref or ref.startswith(h + " ") or (at_line_end and h.startswith(ref))
                         for h in heading_cache[target] if h)
                if not ok or not ref:
                    dead.append(f"{where}: {target_name} §{rest.strip()}: no heading '{ref}' in "
                                f"{os.path.relpath(target, ROOT)}")
    for line in dead:
        print(line)
    print(f"check-doc-refs: {len(dead)} dead reference(s)", file=sys.stderr)
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
