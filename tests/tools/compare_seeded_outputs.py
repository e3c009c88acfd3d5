#!/usr/bin/env python3
"""Runs shipped experiment configs with two dpbo builds and compares their seeded outputs.

    compare_seeded_outputs.py OLD_DPBO NEW_DPBO CONFIG.ini... [--repeat N] [--ignore FIELD]...

Each config runs once per build (`dpbo run --config CONFIG --repeat N --out DIR`, N = 1 by
default) from the repository root. For every repeat, result.json is compared after removing the
fields that legitimately differ (timing, and any --ignore FIELD: a top-level key the newer build
adds) and with each build's own folder written as <build> (statements name plugin files), and
trace.csv line by line without its CPU-time columns (*_seconds). Prints one line per config (identical, or the first differing
JSON path / trace line) and exits 1 if any differ. A reader reruns the claim "seeded outputs are
byte-identical before and after a change" with it.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ALWAYS_IGNORED = {"timing"}


def first_difference(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}: only in {'new' if key in b else 'old'}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} entries"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}"


def run(dpbo, config, repeat, out):
    done = subprocess.run([dpbo, "run", "--config", str(config), "--repeat", str(repeat), "--out", str(out)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{dpbo} on {config} exited {done.returncode}: {done.stderr.strip()[-400:]}")


def result_files(out):
    return sorted(p for p in out.rglob("result.json"))


def normalised(text, build):
    return text.replace(str(build), "<build>")


def without_timing(lines):
    """trace.csv rows without the columns whose header ends in 'seconds' (CPU time: never equal)."""
    rows = [line.split(",") for line in lines]
    if not rows:
        return []
    keep = [i for i, name in enumerate(rows[0]) if not name.endswith("seconds")]
    return [",".join(row[i] for i in keep if i < len(row)) for row in rows]


def compare(old_out, new_out, ignored, old_build, new_build):
    old_files, new_files = result_files(old_out), result_files(new_out)
    if [p.relative_to(old_out) for p in old_files] != [p.relative_to(new_out) for p in new_files]:
        return "different result files"
    for old_file, new_file in zip(old_files, new_files):
        old = json.loads(normalised(old_file.read_text(), old_build))
        new = json.loads(normalised(new_file.read_text(), new_build))
        for key in ignored:
            old.pop(key, None)
            new.pop(key, None)
        found = first_difference(old, new)
        if found:
            return f"{old_file.relative_to(old_out)}: {found}"
        old_trace, new_trace = old_file.with_name("trace.csv"), new_file.with_name("trace.csv")
        if old_trace.exists() != new_trace.exists():
            return f"{old_trace.relative_to(old_out)}: present in one build only"
        if old_trace.exists():
            old_lines = without_timing(old_trace.read_text().splitlines())
            new_lines = without_timing(new_trace.read_text().splitlines())
            for number, (x, y) in enumerate(zip(old_lines, new_lines), 1):
                if x != y:
                    return f"{old_trace.relative_to(old_out)} line {number} differs"
            if len(old_lines) != len(new_lines):
                return f"{old_trace.relative_to(old_out)}: {len(old_lines)} vs {len(new_lines)} lines"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("configs", nargs="+", type=pathlib.Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--ignore", action="append", default=[])
    args = parser.parse_args()
    ignored = ALWAYS_IGNORED | set(args.ignore)
    differing = 0
    with tempfile.TemporaryDirectory(prefix="dpbo-compare-") as work:
        for number, config in enumerate(args.configs):
            old_out = pathlib.Path(work) / f"{number}-old"
            new_out = pathlib.Path(work) / f"{number}-new"
            try:
                run(args.old, config, args.repeat, old_out)
                run(args.new, config, args.repeat, new_out)
                found = compare(old_out, new_out, ignored, pathlib.Path(args.old).resolve().parent.parent,
                                pathlib.Path(args.new).resolve().parent.parent)
            except RuntimeError as error:
                found = str(error)
            print(f"{config}: {'identical' if found is None else 'DIFFERS: ' + found}", flush=True)
            differing += found is not None
    print(f"{len(args.configs) - differing} identical, {differing} differing")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
