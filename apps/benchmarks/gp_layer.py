#!/usr/bin/env python3
"""docs/benchmarks.md's "GP layer speed" tables, measured now by `dpbo_bench_gp` (gp-ucb on
Rosenbrock-10 to n = 1 000, fixed hyperparameters, 500 acquisition evaluations per iteration, the
iteration's thread CPU), so that no figure of that section is typed by hand:

    python3 apps/reproduce/write_block.py docs/benchmarks.md gp-layer apps/benchmarks/gp_layer.py

    apps/benchmarks/gp_layer.py [--build build] [--repeats 3] [--quick]

Runs the program --repeats times with each acquisition optimiser (the default, `sweep-direct` and
`sweep-local`, at their defaults), the optimisers taking turns run by run so that the machine's drift
falls on all of them, and prints the medians: ms per iteration at each n, the simple regret after 200
and 1 001 evaluations (deterministic for the seed: the same in every run), the whole run's CPU time;
then the default runs' other figures (the ARD refit, the posterior gradient, appending one point).
--quick runs once to n = 200 (a smoke run, not for the page). BLAS on one thread. Standard library only.
"""
import argparse
import os
import re
import statistics
import sys

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from performance import Build, iteration_rows, number, parsed, run, run_main, size_rows  # noqa: E402  (beside this one)

OPTIMISERS = (None, "sweep-direct", "sweep-local")  # None: the loop's default


def label(optimiser):
    return "default (`sweep-batched-direct`)" if optimiser is None else f"`--optimiser {optimiser}`"


def one_run(build, optimiser, max_n):
    """The figures of one `dpbo_bench_gp` run."""
    words = [build.program("dpbo_bench_gp"), "--max-n", str(max_n)]
    text = run(words + (["--optimiser", optimiser] if optimiser else []))
    rest = text.split("simple regret", 1)[-1]
    figures = {"iteration": iteration_rows(text),
               "regret": {int(n): float(r) for n, r in re.findall(r"simple regret after\s+(\d+) evaluations: ([\d.e+-]+)",
                                                                  text)},
               "whole run": float(parsed(r"whole run: ([\d.]+) s CPU", rest, "dpbo_bench_gp")[1])}
    if optimiser is None:
        figures["refit"] = float(parsed(r"^ARD marginal-likelihood refit.*: ([\d.]+) s CPU", rest, "dpbo_bench_gp")[1])
        figures["gradient"] = float(parsed(r"^posterior mean gradient.*: ([\d.]+) us CPU each", rest,
                                           "dpbo_bench_gp")[1])
        appending = rest.split("appending one point", 1)[1]
        figures["append"] = size_rows(appending, "rows for appending one point")
    return figures


def median_of(runs, *keys):
    """{inner key: median over runs} of runs[i][keys...]."""
    def reach(figures):
        for key in keys:
            figures = figures[key]
        return figures
    inner = reach(runs[0])
    return {k: statistics.median(reach(r)[k] for r in runs) for k in inner}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(SOURCE_ROOT, "build"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args(argv)
    if options.repeats < 1:
        parser.error("--repeats must be ≥ 1")
    max_n = 200 if options.quick else 1000
    repeats = 1 if options.quick else options.repeats
    build = Build(options.build)
    runs = {optimiser: [] for optimiser in OPTIMISERS}
    for repeat in range(repeats):
        for optimiser in OPTIMISERS:
            print(f"dpbo_bench_gp {label(optimiser)}, run {repeat + 1} of {repeats}", file=sys.stderr)
            runs[optimiser].append(one_run(build, optimiser, max_n))

    print(f"{build.label}; medians of {repeats} runs of `build/bin/dpbo_bench_gp [--optimiser NAME]`, "
          f"each optimiser in turn; ms of the iteration's thread CPU, median of the iterations within n ± 10.")
    print()
    print("| n | " + " | ".join(f"ms per iteration, {label(o)}" for o in OPTIMISERS) + " |")
    print("|---|" + "---|" * len(OPTIMISERS))
    iteration = {o: median_of(runs[o], "iteration") for o in OPTIMISERS}
    for n in sorted(iteration[None]):
        print(f"| {n} | " + " | ".join(number(iteration[o].get(n)) for o in OPTIMISERS) + " |")
    regret = {o: median_of(runs[o], "regret") for o in OPTIMISERS}
    budgets = sorted(regret[None])
    print(f"| simple regret after {' / '.join(str(b) for b in budgets)} evaluations | " +
          " | ".join(" / ".join(number(regret[o].get(b), 4) for b in budgets) for o in OPTIMISERS) + " |")
    print("| whole run, s CPU | " +
          " | ".join(number(statistics.median(r["whole run"] for r in runs[o])) for o in OPTIMISERS) + " |")
    print()
    default = runs[None]
    refits = [r["refit"] for r in default]
    append = median_of(default, "append")
    print("| other (the default's runs) | result |")
    print("|---|---|")
    print(f"| ARD marginal-likelihood refit, n = 200, d = 10 (L-BFGS, current + 2 random starts, noise fitted) "
          f"| {number(statistics.median(refits))} s CPU ({number(min(refits))}–{number(max(refits))} over the runs) |")
    print(f"| posterior mean gradient + gradient covariance, n = 200, d = 10 "
          f"| {number(statistics.median(r['gradient'] for r in default))} µs CPU |")
    sizes = sorted(append)
    growth = ", ".join(f"×{append[b] / append[a]:.1f}" for a, b in zip(sizes, sizes[1:]))
    print(f"| appending one point (block Cholesky update), n = {' / '.join(str(n) for n in sizes)} "
          f"| {' / '.join(number(append[n]) for n in sizes)} µs CPU; per doubling {growth} |")
    return 0


if __name__ == "__main__":
    run_main(main, "gp_layer.py")
