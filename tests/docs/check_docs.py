#!/usr/bin/env python3
"""Checks of dpbo's documentation (standard library only).

    check_docs.py links SOURCE_DIR        every relative link resolves (files, and headings for #anchors)
    check_docs.py readme SOURCE_DIR       README.md: at most 150 lines, starting with the two commands
    check_docs.py references SOURCE_DIR   no "SPEC §" and no "issue N" in the docs, manifests or configs
    check_docs.py quickstart SOURCE_DIR BIN_DIR
                                          runs the README's quick start in a temporary directory

Each failure is printed as FILE:LINE: what is wrong, and the check exits 1.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

README_MAX_LINES = 150
README_COMMANDS = [
    "bash cmake/setup.sh && build/bin/dpbo run",
    "bash cmake/setup.sh && bash cmake/test.sh",
]
QUICK_START_HEADING = re.compile(r"^##\s+Quick start\b")


def doc_files(source):
    """README.md, CHANGELOG.md, sdk/README.md and every Markdown file under docs/."""
    files = [os.path.join(source, name) for name in ("README.md", "CHANGELOG.md", os.path.join("sdk", "README.md"))]
    for root, _, names in os.walk(os.path.join(source, "docs")):
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".md")]
    return [f for f in files if os.path.isfile(f)]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def prose_lines(lines):
    """(line number, text) of the lines outside fenced code blocks, inline code spans blanked."""
    fence = None
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
            fence = stripped[:3]
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        yield number, re.sub(r"`+[^`]*`+", lambda m: " " * len(m.group(0)), line)


def heading_text(line):
    """The text GitHub renders for an ATX heading line, or None."""
    m = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
    if not m:
        return None
    text = m.group(1)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images: their text
    text = text.replace("`", "")
    text = re.sub(r"[*_]{1,3}([^*_]+)[*_]{1,3}", r"\1", text)  # emphasis markers
    return text


def slug(text):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        fence = None
        for line in read_lines(path):
            stripped = line.lstrip()
            if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
                fence = stripped[:3]
                continue
            if fence is not None:
                if stripped.startswith(fence):
                    fence = None
                continue
            text = heading_text(line)
            if text is None:
                continue
            base = slug(text)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def check_links(source):
    failures = []
    for path in doc_files(source):
        rel = os.path.relpath(path, source)
        for number, line in prose_lines(read_lines(path)):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:
                file_part, _, anchor = target.partition("#")
                resolved = path if not file_part else os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(resolved):
                    failures.append(f"{rel}:{number}: broken link '{target}': {os.path.relpath(resolved, source)} "
                                    "does not exist")
                    continue
                if anchor and resolved.endswith(".md"):
                    if anchor not in anchors(resolved):
                        failures.append(f"{rel}:{number}: broken link '{target}': no heading with anchor "
                                        f"'#{anchor}' in {os.path.relpath(resolved, source)}")
    return failures


def check_readme(source):
    path = os.path.join(source, "README.md")
    lines = read_lines(path)
    if lines and lines[-1] == "":
        lines = lines[:-1]
    failures = []
    if len(lines) > README_MAX_LINES:
        failures.append(f"README.md:{len(lines)}: {len(lines)} lines, more than {README_MAX_LINES}")
    # The first fenced block, before any other command, holds exactly the two commands.
    first_fence = next((i for i, line in enumerate(lines) if line.lstrip().startswith("```")), None)
    if first_fence is None:
        failures.append("README.md:1: no fenced block with the two commands")
        return failures
    for i, line in enumerate(lines[:first_fence]):
        if line.strip() and not line.startswith("#"):
            failures.append(f"README.md:{i + 1}: text before the two commands: '{line.strip()}'")
    body = lines[first_fence + 1:first_fence + 1 + len(README_COMMANDS)]
    for k, expected in enumerate(README_COMMANDS):
        got = body[k] if k < len(body) else "(nothing)"
        if got != expected:
            failures.append(f"README.md:{first_fence + 2 + k}: expected '{expected}', found '{got}'")
    closing = first_fence + 1 + len(README_COMMANDS)
    if closing >= len(lines) or not lines[closing].lstrip().startswith("```"):
        failures.append(f"README.md:{closing + 1}: the first block must hold only the two commands")
    return failures


INTERNAL = [
    (re.compile(r"SPEC\s*§"), "a reference to the SPEC (cite the paper and its section)"),
    (re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE), "an issue number (say it in plain words)"),
]
MANIFEST_SUFFIXES = (".cpp", ".hpp", ".ini", ".sh", ".py", ".md", ".txt")


def check_references(source):
    files = doc_files(source)
    for root, dirs, names in os.walk(os.path.join(source, "plugins")):
        dirs[:] = [d for d in dirs if d != "data"]  # shipped data sets, not prose
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith(MANIFEST_SUFFIXES) or n == "CMakeLists.txt"]
    failures = []
    for path in files:
        rel = os.path.relpath(path, source)
        for number, line in enumerate(read_lines(path), 1):
            for pattern, what in INTERNAL:
                m = pattern.search(line)
                if m:
                    failures.append(f"{rel}:{number}: '{m.group(0)}' is {what}")
    return failures


def quick_start_block(source):
    """(line number, commands) of the first ```sh block under the README's "Quick start" heading."""
    lines = read_lines(os.path.join(source, "README.md"))
    start = next((i for i, line in enumerate(lines) if QUICK_START_HEADING.match(line)), None)
    if start is None:
        return None, "README.md has no '## Quick start' heading"
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("## "):
            break
        if lines[i].strip() in ("```sh", "```bash", "```shell"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith("```")), None)
            if end is None:
                return None, f"README.md:{i + 1}: the quick start's block is not closed"
            return i + 1, "\n".join(lines[i + 1:end]) + "\n"
    return None, f"README.md:{start + 1}: no ```sh block under the 'Quick start' heading"


def tree_listing(source):
    """Every path in the source tree except build folders and .git: what the quick start must not add to."""
    listing = set()
    for root, dirs, names in os.walk(source):
        if root == source:
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
        for name in names + dirs:
            listing.add(os.path.relpath(os.path.join(root, name), source))
    return listing


def check_quickstart(source, bin_dir):
    line, block = quick_start_block(source)
    if line is None:
        return [block]
    before = tree_listing(source)
    work = tempfile.mkdtemp(prefix="dpbo-quickstart-")
    failures = []
    try:
        # The commands are written for the repository's root after the set-up command: build/bin/dpbo
        # and sdk/ are linked into a fresh directory, so everything they write stays there.
        os.makedirs(os.path.join(work, "build"))
        os.symlink(os.path.abspath(bin_dir), os.path.join(work, "build", "bin"))
        os.symlink(os.path.join(os.path.abspath(source), "sdk"), os.path.join(work, "sdk"))
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=os.path.join(work, "cache"))
        script = "set -euo pipefail\nset -x\n" + block
        done = subprocess.run(["bash", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        if done.returncode != 0:
            tail = "\n".join(done.stdout.splitlines()[-40:])
            failures.append(f"README.md:{line}: the quick start failed (exit {done.returncode}; run in a temporary directory, since removed):\n{tail}")
        else:
            sys.stdout.write(done.stdout)
    except subprocess.TimeoutExpired:
        failures.append(f"README.md:{line}: the quick start did not finish within 600 s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    added = sorted(tree_listing(source) - before)
    for path in added:
        failures.append(f"{path}:1: written into the source tree by the quick start (README.md:{line})")
    return failures


def main(argv):
    if len(argv) < 3 or argv[1] not in ("links", "readme", "references", "quickstart"):
        sys.stderr.write(__doc__)
        return 2
    check, source = argv[1], os.path.abspath(argv[2])
    if check == "links":
        failures = check_links(source)
    elif check == "readme":
        failures = check_readme(source)
    elif check == "references":
        failures = check_references(source)
    else:
        if len(argv) < 4:
            sys.stderr.write(__doc__)
            return 2
        failures = check_quickstart(source, argv[3])
    for failure in failures:
        print(failure)
    if failures:
        print(f"{check}: {len(failures)} failure(s)")
        return 1
    print(f"{check}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
