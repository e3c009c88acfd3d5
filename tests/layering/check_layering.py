#!/usr/bin/env python3
"""The house rule: includes and links run only downwards, host -> bo -> contract.

    check_layering.py SOURCE_DIR BUILD_DIR

1. Sources: no file of core/contract includes a toolkit (dpbo/bo, dpbo/gp) or host (dpbo/host)
   header; no file of core/bo includes a host header; no plugin or SDK file includes a host header;
   mechanisms, accountants, selections and row releases include no toolkit header.
2. Binaries (ldd): libdpbo loads no toolkit, host, SQLite or NLopt library; libdpbo-bo no host or
   SQLite library; a mechanism, an accountant, a selection and a row-release plugin load none of
   libdpbo-bo, libdpbo-host, SQLite or NLopt.
Every violation is printed as FILE:LINE (or the library) with the rule it breaks; exit 1 if any.
"""
import pathlib
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}

TOOLKIT = ("dpbo/bo/", "dpbo/gp/")
HOST = ("dpbo/host/",)
# Relative includes that reach into another library's folder.
CROSSING = ("contract/", "bo/src", "bo/include", "host/src", "host/include")

# (folder, forbidden include prefixes, why)
SOURCE_RULES = [
    ("core/contract", TOOLKIT + HOST + CROSSING, "the contract includes nothing above it"),
    ("core/bo", HOST + ("host/src", "host/include"), "the toolkit includes no host header"),
    ("plugins", HOST, "a plugin includes no host header"),
    ("sdk", HOST, "an SDK file includes no host header"),
    ("plugins/mechanisms", TOOLKIT, "a mechanism needs no BO toolkit"),
    ("plugins/accountants", TOOLKIT, "an accountant needs no BO toolkit"),
    ("plugins/selections", TOOLKIT, "a selection needs no BO toolkit"),
    ("plugins/row-releases", TOOLKIT, "a row release needs no BO toolkit"),
]

# (library in the build tree, forbidden sonames (substring), why)
HEAVY = ("libdpbo-bo.so", "libdpbo-host.so", "libsqlite3.so", "libnlopt.so")
BINARY_RULES = [
    ("lib/libdpbo.so", HEAVY, "the contract loads no toolkit, host, SQLite or NLopt"),
    ("lib/libdpbo-bo.so", ("libdpbo-host.so", "libsqlite3.so"), "the toolkit loads no host or SQLite"),
    ("lib/dpbo/plugins/mechanism-gaussian.so", HEAVY, "a mechanism plugin loads no GP, BO or SQLite"),
    ("lib/dpbo/plugins/mechanism-laplace.so", HEAVY, "a mechanism plugin loads no GP, BO or SQLite"),
    ("lib/dpbo/plugins/accountant-gdp.so", HEAVY, "an accountant plugin loads no GP, BO or SQLite"),
    ("lib/dpbo/plugins/selection-exponential.so", HEAVY, "a selection plugin loads no GP, BO or SQLite"),
    ("lib/dpbo/plugins/row-release-noisy-projection.so", HEAVY, "a row release loads no GP, BO or SQLite"),
]


def source_violations(source_dir: pathlib.Path):
    found = []
    for folder, forbidden, why in SOURCE_RULES:
        root = source_dir / folder
        if not root.is_dir():
            found.append(f"{root}: folder missing (the rule '{why}' checks it)")
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            # A plugin's tests beside it run in the host's test suite, not in the plugin.
            if path.name.endswith("_test.cpp"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if match and any(part in match.group(1) for part in forbidden):
                    found.append(f"{path.relative_to(source_dir)}:{number}: includes "
                                 f"'{match.group(1)}': {why}")
    return found


def binary_violations(build_dir: pathlib.Path):
    found = []
    for relative, forbidden, why in BINARY_RULES:
        library = build_dir / relative
        if not library.exists():
            found.append(f"{library}: not built (the rule '{why}' checks it)")
            continue
        listing = subprocess.run(["ldd", str(library)], capture_output=True, text=True, check=False)
        if listing.returncode != 0:
            found.append(f"{library}: ldd failed: {listing.stderr.strip()}")
            continue
        for line in listing.stdout.splitlines():
            if any(name in line for name in forbidden):
                found.append(f"{relative} loads {line.strip()}: {why}")
    return found


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source_dir, build_dir = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    problems = source_violations(source_dir) + binary_violations(build_dir)
    for problem in problems:
        print(problem)
    checked = len(SOURCE_RULES) + len(BINARY_RULES)
    print(f"{checked} layering rules checked: {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
