#!/usr/bin/env python3
"""Checks the user guide (docs/guide/README.md §How the pictures are made), as the ctest `user_guide`:

- every image a guide page (or the top-level README) shows exists, lies in docs/guide/images/ and is made by a
  rule of the `docs` build target (the rule list docs/CMakeLists.txt writes to build/docs/guide/pictures.txt),
  and every rule's picture is shown somewhere;
- every relative link resolves (and a link to a Markdown heading finds the heading);
- every page of docs/guide/ is linked from its index, docs/guide/README.md;
- every `softgrasp-cli ...` command line in the pages' code blocks runs (exit 0) with the built CLI, in page
  order, in a scratch folder holding the bundled worlds/, models/ and scripts/, so a command can read what an
  earlier one wrote; a code block after a `<!-- file: NAME -->` line is first saved as NAME; ```python blocks
  run with the CLI on PATH and the build's module softgrasp importable (build/python); every option of a `softgrasp ...` (application) line is one `softgrasp --help` lists.

Usage: check_user_guide.py SOURCE_DIR RULES_FILE SOFTGRASP_CLI SOFTGRASP_APP
Exit 0 when everything holds, 1 with one line per problem otherwise.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

GUIDE = os.path.join("docs", "guide")
IMAGES = os.path.join(GUIDE, "images")

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
FILE_MARKER = re.compile(r"^<!--\s*file:\s*(\S+)\s*-->\s*$")
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"`+[^`]*`+")
SHELL_CUTS = {"|", ";", "&&", "||", ">", ">>", "2>", "&"}


class Block:
    """A code block: its language ('' for an indented block or a bare fence), lines, first line number and the
    file name of a `<!-- file: NAME -->` marker right before it."""

    def __init__(self, language, lines, line, save_as):
        self.language, self.lines, self.line, self.save_as = language, lines, line, save_as


def parse_markdown(text):
    """Splits a page into prose lines (line number, text) and code blocks, in order."""
    prose, blocks = [], []
    lines = text.split("\n")
    i, marker, previous_blank = 0, None, True
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            indent, ticks, language = fence.groups()
            body, j = [], i + 1
            while j < len(lines) and not lines[j].strip().startswith(ticks):
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
                j += 1
            blocks.append(Block(language.lower(), body, i + 1, marker))
            marker, i, previous_blank = None, j + 1, False
            continue
        if line.startswith("    ") and previous_blank and line.strip():
            body, start = [], i
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            blocks.append(Block("", body, start + 1, marker))
            marker, previous_blank = None, True
            continue
        m = FILE_MARKER.match(line.strip())
        if m:
            marker = m.group(1)
        elif line.strip():
            prose.append((i + 1, line))
            marker = None
        previous_blank = not line.strip()
        i += 1
    return prose, blocks


def heading_slugs(text):
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    slugs = set()
    _, blocks = parse_markdown(text)
    code_lines = {b.line + k for b in blocks for k in range(len(b.lines) + 1)}
    for n, line in enumerate(text.split("\n"), start=1):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and n not in code_lines:
            title = INLINE_CODE.sub(lambda c: c.group(0).strip("`"), m.group(1)).lower()
            slugs.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return slugs


def links_of(prose):
    """(line, is_image, target) of every Markdown link and image outside code."""
    for n, line in prose:
        for m in LINK.finditer(INLINE_CODE.sub("", line)):
            yield n, m.group(1) == "!", m.group(3)


def read_rules(path):
    """Picture names the `docs` target makes (the first column of build/docs/guide/pictures.txt)."""
    rules = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rules.add(line.split("\t", 1)[0].strip())
    return rules


def guide_pages(source):
    """The guide's pages in reading order: the index, then the pages in the order the index links them, then any
    page it does not link (reported by check_links)."""
    guide = os.path.join(source, GUIDE)
    index = os.path.join(guide, "README.md")
    pages = [index]
    with open(index, encoding="utf-8") as f:
        prose, _ = parse_markdown(f.read())
    for _, image, target in links_of(prose):
        path = os.path.normpath(os.path.join(guide, target.split("#", 1)[0]))
        if not image and path.endswith(".md") and os.path.dirname(path) == guide and path not in pages \
                and os.path.exists(path):
            pages.append(path)
    others = sorted(os.path.join(guide, n) for n in os.listdir(guide) if n.endswith(".md"))
    return pages + [p for p in others if p not in pages]


def check_links(source, pages, rules):
    """Problems with the images and relative links of `pages` (guide pages and the top-level README)."""
    problems, shown = [], set()
    index = os.path.join(source, GUIDE, "README.md")
    linked_from_index = set()
    for page in pages:
        with open(page, encoding="utf-8") as f:
            prose, _ = parse_markdown(f.read())
        where = os.path.relpath(page, source)
        for n, image, target in links_of(prose):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # https:, mailto:
            file_part, _, anchor = target.partition("#")
            path = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
            if page == index and path.endswith(".md"):
                linked_from_index.add(path)
            if not os.path.exists(path):
                problems.append(f"{where}:{n}: {'image' if image else 'link'} {target} does not resolve")
                continue
            if anchor and path.endswith(".md"):
                with open(path, encoding="utf-8") as f:
                    if anchor.lower() not in heading_slugs(f.read()):
                        problems.append(f"{where}:{n}: link {target}: no heading #{anchor} in {file_part or where}")
            if image:
                if os.path.dirname(path) != os.path.join(source, IMAGES):
                    problems.append(f"{where}:{n}: image {target} is not in {IMAGES}/")
                name = os.path.basename(path)
                shown.add(name)
                if name not in rules:
                    problems.append(f"{where}:{n}: image {target}: no rule of the docs target makes {name} "
                                    "(docs/CMakeLists.txt)")
    for page in pages:
        if os.path.dirname(page) == os.path.join(source, GUIDE) and page != index and page not in linked_from_index:
            problems.append(f"{os.path.relpath(page, source)}: not linked from {GUIDE}/README.md")
    for name in sorted(rules - shown):
        problems.append(f"docs/CMakeLists.txt: the docs target makes {name}, which no page shows")
    return problems


def command_lines(block):
    """The block's shell lines, continuation lines (ending in a backslash) joined: (offset, text)."""
    out, pending, start = [], "", 0
    for k, line in enumerate(block.lines):
        if not pending:
            start = k
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append((start, pending + line))
        pending = ""
    return out


def split_command(text):
    """The words of one command up to the first pipe, list or redirection, and the file of a `>` redirection."""
    words = shlex.split(text, comments=True)
    for k, w in enumerate(words):
        if w in SHELL_CUTS:
            redirect = words[k + 1] if w in (">", ">>") and k + 1 < len(words) else None
            return words[:k], redirect
    return words, None


class Runner:
    """Runs the pages' commands in a scratch folder, in order."""

    def __init__(self, source, cli, app, scratch):
        self.source, self.cli, self.app, self.scratch = source, cli, app, scratch
        self.help_cache = {}
        self.counts = {"softgrasp-cli commands run": 0, "softgrasp command lines checked": 0, "Python examples run": 0,
                       "files saved": 0}
        for name in ("worlds", "models", "scripts"):
            os.symlink(os.path.join(source, name), os.path.join(scratch, name))

    def help_text(self, program, command):
        key = (program, command)
        if key not in self.help_cache:
            args = [program] + ([command] if command else []) + ["--help"]
            done = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=self.scratch,
                                  env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
            self.help_cache[key] = done.stdout + done.stderr
        return self.help_cache[key]

    def flag_listed(self, program, command, flag):
        return re.search(r"(^|[\s\[|,])" + re.escape(flag) + r"(?![\w-])", self.help_text(program, command),
                         re.M) is not None

    def run_cli(self, words, redirect, where):
        args = list(words[1:])
        command = args[0] if args else ""
        self.counts["softgrasp-cli commands run"] += 1
        done = subprocess.run([self.cli] + args, capture_output=True, text=True, timeout=600, cwd=self.scratch)
        if done.returncode != 0:
            return [f"{where}: `{' '.join(words)}` exited {done.returncode}: {done.stderr.strip()[:400]}"]
        if redirect:
            with open(os.path.join(self.scratch, redirect), "w", encoding="utf-8") as f:
                f.write(done.stdout)
        return []

    def check_app(self, words, where):
        problems = []
        self.counts["softgrasp command lines checked"] += 1
        for w in words[1:]:
            flag = w.split("=", 1)[0]
            if flag.startswith("-") and not self.flag_listed(self.app, "", flag):
                problems.append(f"{where}: `{' '.join(words)}`: softgrasp --help does not list {flag}")
        return problems

    def run_python(self, block, where):
        self.counts["Python examples run"] += 1
        env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(self.cli)) + os.pathsep + os.environ["PATH"])
        # The module softgrasp of the same build (build/ui/cli/softgrasp-cli → build/python; ui/python/README.md).
        build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(self.cli))))
        env["PYTHONPATH"] = os.path.join(build, "python") + os.pathsep + os.environ.get("PYTHONPATH", "")
        env["MPLBACKEND"] = "Agg"
        done = subprocess.run([sys.executable, "-c", "\n".join(block.lines)], capture_output=True, text=True,
                              timeout=600, cwd=self.scratch, env=env)
        if done.returncode != 0:
            return [f"{where}: the Python example exited {done.returncode}: {done.stderr.strip()[-400:]}"]
        return []

    def run_page(self, page):
        problems = []
        with open(page, encoding="utf-8") as f:
            _, blocks = parse_markdown(f.read())
        rel = os.path.relpath(page, self.source)
        for block in blocks:
            if block.save_as:
                with open(os.path.join(self.scratch, block.save_as), "w", encoding="utf-8") as f:
                    f.write("\n".join(block.lines) + "\n")
                self.counts["files saved"] += 1
            if block.language == "python":
                problems += self.run_python(block, f"{rel}:{block.line}")
                continue
            if block.language not in ("", "sh", "bash", "shell", "console"):
                continue
            for offset, text in command_lines(block):
                where = f"{rel}:{block.line + offset + (1 if block.language else 0)}"
                try:
                    words, redirect = split_command(text)
                except ValueError as e:
                    problems.append(f"{where}: cannot split `{text}`: {e}")
                    continue
                if not words:
                    continue
                program = os.path.basename(words[0])
                if program == "softgrasp-cli":
                    problems += self.run_cli(words, redirect, where)
                elif program == "softgrasp":
                    problems += self.check_app(words, where)
        return problems


def check(source, rules_file, cli, app):
    source, cli, app = os.path.abspath(source), os.path.abspath(cli), os.path.abspath(app)
    pages = guide_pages(source)
    problems = check_links(source, pages + [os.path.join(source, "README.md")], read_rules(rules_file))
    readme_images = [t for _, image, t in links_of(parse_markdown(open(os.path.join(source, "README.md"),
                                                                       encoding="utf-8").read())[0]) if image]
    if not any(t.startswith(IMAGES + "/") for t in readme_images):
        problems.append(f"README.md: shows no picture of {IMAGES}/")
    with tempfile.TemporaryDirectory(prefix="sg-guide-") as scratch:
        runner = Runner(source, cli, app, scratch)
        for page in pages:
            problems += runner.run_page(page)
    print(f"user guide: {len(pages)} pages; " + ", ".join(f"{n} {what}" for what, n in runner.counts.items()))
    return problems


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    problems = check(*argv[1:])
    for p in problems:
        print(p)
    print(f"user guide: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
