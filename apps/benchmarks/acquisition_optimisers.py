#!/usr/bin/env python3
"""docs/benchmarks.md's table of the acquisition optimiser's strategies, measured now by
`dpbo_bench_acquisition_optimiser` (gp-ucb on Rosenbrock-10, 200 evaluations, 500 acquisition
evaluations per iteration, every strategy at its defaults), so that no figure of it is typed by hand:

    python3 apps/reproduce/write_block.py docs/benchmarks.md acquisition-optimisers apps/benchmarks/acquisition_optimisers.py

    apps/benchmarks/acquisition_optimisers.py [--build build] [--quick]

Runs the program over seeds 1–10 and over seeds 1–30 (--quick: 1–2 and 1–3, a smoke run, not for the
page) and prints one row per strategy: the median (min–max) of the final simple regret over each
seed set, and the mean CPU ms per iteration of the acquisition optimisation and of the whole
iteration in each run. Beside them, Limbo's figure on seeds 1–10, quoted: measured once beside dpbo
with the same model and NLopt's DIRECT_L_RAND, not built here. Standard library only.
"""
import argparse
import os
import re
import sys

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from performance import BenchmarkError, Build, run, run_main  # noqa: E402  (beside this one)

# Limbo (header-only, NLopt's DIRECT_L_RAND, the benchmark's model, 500 acquisition evaluations),
# measured beside dpbo when the optimiser's default was chosen: median (min–max) simple regret over
# seeds 1–10. It was the target the default had to meet.
LIMBO_REGRET_SEEDS_1_10 = (58.0, 31.0, 118.0)
ROW = re.compile(r"^(optimiser=\S+)\s+([\d.]+) \(([\d.]+)-([\d.]+)\)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$", re.M)


def strategies(build, seeds):
    """{setting: (median, min, max, acquisition evaluations per iteration, propose ms, iteration ms)}."""
    text = run([build.program("dpbo_bench_acquisition_optimiser"), "--seeds", str(seeds)])
    rows = {setting: tuple(float(v) for v in values) for setting, *values in ROW.findall(text)}
    if not rows:
        raise BenchmarkError(f"dpbo_bench_acquisition_optimiser --seeds {seeds} printed no strategy rows:\n{text[-800:]}")
    return rows


def default_optimiser(build):
    """gp-ucb's default strategy, as `dpbo info gp-ucb` states it (the row the table marks)."""
    match = re.search(r"^\s+optimiser\s+choice\s+default (\S+)", run([build.dpbo, "info", "gp-ucb"]), re.M)
    if match is None:
        raise BenchmarkError("`dpbo info gp-ucb` names no default for the key optimiser")
    return match.group(1)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(SOURCE_ROOT, "build"))
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args(argv)
    build = Build(options.build)
    few, many = (2, 3) if options.quick else (10, 30)
    print(f"dpbo_bench_acquisition_optimiser --seeds {few} and --seeds {many}", file=sys.stderr)
    first, second = strategies(build, few), strategies(build, many)
    default = default_optimiser(build)

    def regret(row):
        return f"{row[0]:.1f} ({row[1]:.1f}–{row[2]:.1f})"

    def times(row):
        return f"{row[4]:.2f} / {row[5]:.2f}"

    print(f"{build.label}; `build/bin/dpbo_bench_acquisition_optimiser --seeds {few}` and `--seeds {many}`: "
          f"simple regret after 200 evaluations, median (min–max) over the seeds; mean CPU ms per iteration "
          f"of the acquisition optimisation / of the whole iteration in each run.")
    print()
    print(f"| `--set algorithm.optimiser=` | regret, seeds 1–{few} | seeds 1–{many} | acquisition evaluations "
          f"per iteration | ms per iteration, optimiser / whole, seeds 1–{few} run | seeds 1–{many} run |")
    print("|---|---|---|---|---|---|")
    for setting, row in first.items():
        other = second.get(setting)
        name = setting.removeprefix("optimiser=").replace(",", ", ")
        name = f"**`{name}`** (the default)" if name == default else f"`{name}`"
        print(f"| {name} | {regret(row)} | {regret(other) if other else ''} | {row[3]:.0f} | {times(row)} | "
              f"{times(other) if other else ''} |")
    limbo = "{:.0f} ({:.0f}–{:.0f})".format(*LIMBO_REGRET_SEEDS_1_10)
    print(f"| Limbo, NLopt's DIRECT_L_RAND (quoted: measured once beside dpbo, not built here) | "
          f"{limbo if few == 10 else ''} | | 500 | | |")
    return 0


if __name__ == "__main__":
    run_main(main, "acquisition_optimisers.py")
