#!/usr/bin/env python3
"""The summary table at the top of docs/benchmarks.md: one row per thing measured, how, and the
result. Rows whose result is a section of its own point there; every other result is measured here,
now, by running the command the row names, so that no figure on the page is typed by hand:

    python3 apps/reproduce/write_block.py docs/benchmarks.md measurements apps/benchmarks/measurements.py

    apps/benchmarks/measurements.py [--build build] [--quick]

Runs from the source root (the `command` objective's benchmark runs the SDK's Python example by a
relative path). --quick runs each program with fewer repeats (for a test of the script, not for the
page). Prints the markdown table; standard library only. Takes about two minutes on 2 cores.
"""
import argparse
import os
import statistics
import sys
import tempfile

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from performance import BenchmarkError, Build, dpbo_run, parsed, run  # noqa: E402  (beside this one)
from startup import spawn_timed  # noqa: E402

ONE_BLAS_THREAD = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def wall_seconds(argv, runs):
    """Median wall time of `runs` runs of `argv`, after one not counted."""
    spawn_timed(argv, ONE_BLAS_THREAD)
    return statistics.median(spawn_timed(argv, ONE_BLAS_THREAD)[0] for _ in range(runs))


def g(value, digits=2):
    return f"{value:.{digits}g}"


def list_row(build, quick):
    runs = 5 if quick else 31
    seconds = wall_seconds([build.dpbo, "list"], runs)
    return ("`dpbo list` with every plugin loaded",
            f"`build/bin/dpbo list`, wall time, median of {runs} calls after one (the manifest cache current)",
            f"{seconds * 1000:.1f} ms per call")


def branin_row(build, scratch, quick):
    seeds = [1, 2] if quick else [1, 2, 3, 4, 5]

    def regrets(extra):
        # The last trace row's simple regret: the run's, as performance.py reads it.
        return [float(dpbo_run(build, ["--algorithm", "gp-ucb", "--objective", "branin", "--seed", str(seed), *extra],
                               scratch)[0][-1]["simple_regret"]) for seed in seeds]

    today, local = regrets([]), regrets(["--set", "algorithm.optimiser=sweep-local"])

    def summary(values):
        return f"{g(min(values))} … {g(max(values))} (median {g(statistics.median(values))})"

    return ("gp-ucb on Branin, 60 evaluations (its default budget)",
            f"`build/bin/dpbo run --algorithm gp-ucb --objective branin --seed S` for S = {seeds[0]}…{seeds[-1]}",
            f"simple regret {summary(today)}; with `--set algorithm.optimiser=sweep-local` (the default before the "
            f"DIRECT strategies) {summary(local)}")


def workers_row(build):
    text = run([build.program("dpbo_bench_workers")])
    m = parsed(r"(\d+) points at ([\d.]+) s each: 1 worker ([\d.]+) s, 2 workers ([\d.]+) s: ([\d.]+)x", text,
               "dpbo_bench_workers")
    return ("`--workers 2` throughput on a 100 ms objective (target: ≥ 1.8×)", "`build/bin/dpbo_bench_workers`",
            f"{m[5]}× ({m[1]} points: {m[3]} s serial, {m[4]} s with 2 workers)")


def ask_tell_row(build):
    text = run([build.program("dpbo_bench_ask_tell")])
    pairs = parsed(r"then (\d+) ask \+ tell pairs", text, "dpbo_bench_ask_tell")[1]
    m = parsed(r"ask ([\d.]+) ms, tell ([\d.]+) ms, ask \+ tell ([\d.]+) ms per trial", text, "dpbo_bench_ask_tell")
    return ("`dpbo ask` + `dpbo tell` per trial with 1 000 trials in the study (target: ≤ 20 ms)",
            "`build/bin/dpbo_bench_ask_tell` (random search on Branin, dpbo started directly as a client starts "
            "it; gp-ucb's asks, in process and through a keeper: [Studies](studies.md))",
            f"{m[3]} ms (ask {m[1]} ms, tell {m[2]} ms; median of {pairs})")


def report_row(build):
    text = run([build.program("dpbo_bench_report"), build.dpbo])
    m = parsed(r"dpbo report on (\d+) repeats x (\d+) evaluations: ([\d.]+) s \(best of 3.*page ([\d.]+) MB", text,
               "dpbo_bench_report")
    return ("`dpbo report` on 100 repeats of a 1 000-evaluation trace (target: ≤ 5 s)",
            "`build/bin/dpbo_bench_report build/bin/dpbo`", f"{m[3]} s (best of 3; a {m[4]} MB page)")


def command_row(build, quick):
    argv = [build.program("dpbo_bench_command_objective")] + (["--blocks", "3"] if quick else [])
    text = run(argv)
    m = parsed(r"([\d.]+) µs per round trip", text, "dpbo_bench_command_objective")
    return ("`command` objective round trip (target: ≤ 1 ms)",
            "`build/bin/dpbo_bench_command_objective` (from the repository's root)",
            f"{m[1]} µs with the persistent Python example")


def noise_row(build, quick):
    argv = [build.program("dpbo_bench_noise")] + (["--draws", "20000"] if quick else [])
    text = run(argv)
    value = {}
    for key, label in (("gaussian", r"secure gaussian release \(exact"), ("batch", r"vectors of 15"),
                       ("laplace", r"secure laplace release"), ("bernoulli", r"bernoulli\(exp\(-1/3\)\)"),
                       ("discrete", r"discrete laplace"), ("reference", r"old floating-point Box-Muller")):
        # The line's last number (the labels hold numbers of their own: "vectors of 15", "0.1/0.3").
        value[key] = float(parsed(label + r"[^\n]*?([\d.]+)\n", text, "dpbo_bench_noise")[1])
    draws = parsed(r"median of 5 repeats of (\d+) draws", text, "dpbo_bench_noise")[1]
    return ("secure noise", f"`build/bin/dpbo_bench_noise` (single-thread CPU, median of 5 × {draws} draws)",
            f"Gaussian release {g(value['gaussian'])} µs (vectors of 15: {g(value['batch'])} µs per coordinate), "
            f"Laplace {g(value['laplace'])} µs, Bernoulli(exp(−1/3)) {g(value['bernoulli'])} µs, discrete Laplace "
            f"{g(value['discrete'])} µs; the old floating-point Box–Muller draw took {g(value['reference'])} µs")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="the build folder (default: build)")
    parser.add_argument("--quick", action="store_true", help="fewer repeats: checks the script, not for the page")
    options = parser.parse_args()
    os.chdir(SOURCE_ROOT)  # the build folder is named from here, and the command objective's example
    try:
        build = Build(options.build)
        with tempfile.TemporaryDirectory(prefix="dpbo-measurements-") as scratch:
            run([build.dpbo, "list"])  # the manifest cache current, as for any call after a build's first
            rows = [
                list_row(build, options.quick),
                branin_row(build, scratch, options.quick),
                ("acquisition optimiser on Rosenbrock-10 (target: regret ≤ 58)",
                        "`build/bin/dpbo_bench_acquisition_optimiser`",
                        "see [The acquisition optimiser](#the-acquisition-optimiser)"),
                ("speed at every size against another build: per iteration to n = 1 000, regret, to n = 10 000 "
                        "with memory, start-up, DPareto, PO-GP-UCB",
                        "`python3 apps/benchmarks/performance.py --baseline OTHER_BUILD`",
                        "see [Speed at every size](#speed-at-every-size)"),
                ("GP layer speed", "`build/bin/dpbo_bench_gp`", "see [GP layer speed](#gp-layer-speed)"),
                ("GIBO speed and quality", "`build/bin/dpbo_bench_gibo`",
                        "see [GIBO speed and quality](#gibo-speed-and-quality)"),
                ("DP-GIBO speed", "`build/bin/dpbo_bench_dp_gibo`", "see [DP-GIBO speed](#dp-gibo-speed)"),
                ("dp-ucb speed (target: ≤ 0.2 s)", "`build/bin/dpbo_bench_dp_ucb`",
                        "see [dp-ucb speed](#dp-ucb-speed)"),
                workers_row(build),
                ask_tell_row(build),
                report_row(build),
                ("`dpbo run` under mpirun against serial: Open MPI's start, a slow objective on 3 and 5 ranks, "
                        "messaging per batch, an idle worker's CPU",
                        "`python3 apps/benchmarks/distributed.py`",
                        "see [Distributed evaluation](distributed.md#distributed-evaluation-mpirun)"),
                ("run journal's cost per batch and per point, and its size (crash-safe runs)",
                        "`build/bin/dpbo_bench_journal --points 1000000 --batch 1000` (Branin's points through a "
                        "serial evaluator with and without a journal, best of 3)",
                        "prints both times, the cost per batch and per point, the journal's size when the last batch "
                        "is written (what a run killed then leaves) and the transactions and statements it took"),
                command_row(build, options.quick),
                ("PO-GP-UCB speed (targets: the run ≤ 0.15 s, the modeler ≤ 0.3 s, the release ≤ 0.2 s, at "
                        "36 000 rows and T = 50)",
                        "`build/bin/dpbo_bench_po_gp_ucb` (median of 5 seeded repeats; prints the release, the "
                        "modeler and the run apart, and the regret of each repeat)",
                        "the run against another build: see [Speed at every size](#speed-at-every-size)"),
                ("`mlp` oracle's cost per epoch across lot sizes", "`nice build/bin/dpbo_bench_mlp_oracle`",
                        "see [the `mlp` oracle's cost per epoch](#the-mlp-oracles-cost-per-epoch)"),
                noise_row(build, options.quick),
                ("the selections' timing signal and cost per choice",
                        "`build/bin/dpbo_bench_selection_timing --n 10,100 --runs 400`, `… --n 1000 --runs 100`, "
                        "`… --cost`",
                        "per-world medians of 200 choices and two-sample KS p-values, then µs per choice by n and "
                        "shape; what they show is in [Privacy: the selections]"
                        "(privacy.md#kusner-selection-mechanisms-exponential-permute-and-flip)"),
                ("`rdp` accountant: ε for 10 000 DP-SGD steps (target: `dpbo account` ≤ 40 ms)",
                        "`build/bin/dpbo_bench_rdp build/bin/dpbo`", "see [RDP accountant speed](#rdp-accountant-speed)"),
                ("`pld` accountant: both bounds for 10 000 DP-SGD steps (target: ≤ 1 s)",
                        "`build/bin/dpbo_bench_rdp build/bin/dpbo --accountant pld`",
                        "see [RDP accountant speed](#rdp-accountant-speed)"),
            ]
    except (BenchmarkError, RuntimeError, OSError, KeyError, ValueError, IndexError) as error:
        print(f"measurements.py: {error}", file=sys.stderr)
        return 1
    print("| what | how measured | result |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
