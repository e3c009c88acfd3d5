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
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class MeasurementError(RuntimeError):
    pass


def output_of(argv, environment=None, timeout=600):
    """What `argv` printed on stdout; MeasurementError naming the command when it fails."""
    finished = subprocess.run(argv, cwd=SOURCE_ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              env=environment, timeout=timeout)
    if finished.returncode != 0:
        raise MeasurementError(f"`{' '.join(argv)}` exited {finished.returncode}: {finished.stderr.strip()[-400:]}")
    return finished.stdout


def parsed(pattern, text, program):
    match = re.search(pattern, text)
    if match is None:
        raise MeasurementError(f"{program} printed no line matching /{pattern}/; it printed:\n{text[-800:]}")
    return match


def wall_seconds(argv, environment, runs):
    """Median wall time of `runs` runs of `argv` (its output discarded), after one not counted."""
    times = []
    for run in range(runs + 1):
        started = time.perf_counter()
        finished = subprocess.run(argv, cwd=SOURCE_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, env=environment)
        elapsed = time.perf_counter() - started
        if finished.returncode != 0:
            raise MeasurementError(f"`{' '.join(argv)}` exited {finished.returncode}: {finished.stderr.strip()[-400:]}")
        if run > 0:
            times.append(elapsed)
    return statistics.median(times)


def g(value, digits=2):
    return f"{value:.{digits}g}"


def list_row(build, environment, quick):
    runs = 5 if quick else 31
    seconds = wall_seconds([build.dpbo, "list"], environment, runs)
    return ("`dpbo list` with every plugin loaded",
            f"`build/bin/dpbo list`, wall time, median of {runs} calls after one (the manifest cache current)",
            f"{seconds * 1000:.1f} ms per call")


def branin_row(build, environment, scratch, quick):
    seeds = [1, 2] if quick else [1, 2, 3, 4, 5]

    def regrets(extra):
        values = []
        for seed in seeds:
            out = os.path.join(scratch, f"branin-{len(extra)}-{seed}")
            output_of([build.dpbo, "run", "--algorithm", "gp-ucb", "--objective", "branin", "--seed", str(seed),
                       "--out", out, *extra], environment)
            with open(os.path.join(out, "result.json")) as result:
                document = json.load(result)
            # Released where nothing privatised it (this run), evaluation-only where something was.
            for part in ("released", "evaluation_only"):
                if "simple_regret" in document.get(part, {}):
                    values.append(document[part]["simple_regret"]["value"])
                    break
            else:
                raise MeasurementError(f"{out}/result.json holds no simple_regret")
        return values

    today, local = regrets([]), regrets(["--set", "algorithm.optimiser=sweep-local"])

    def summary(values):
        return f"{g(min(values))} … {g(max(values))} (median {g(statistics.median(values))})"

    return ("gp-ucb on Branin, 60 evaluations (its default budget)",
            f"`build/bin/dpbo run --algorithm gp-ucb --objective branin --seed S` for S = {seeds[0]}…{seeds[-1]}",
            f"simple regret {summary(today)}; with `--set algorithm.optimiser=sweep-local` (the default before the "
            f"DIRECT strategies) {summary(local)}")


def workers_row(build, environment):
    text = output_of([build.program("dpbo_bench_workers")], environment)
    m = parsed(r"(\d+) points at ([\d.]+) s each: 1 worker ([\d.]+) s, 2 workers ([\d.]+) s: ([\d.]+)x", text,
               "dpbo_bench_workers")
    return ("`--workers 2` throughput on a 100 ms objective (target: ≥ 1.8×)", "`build/bin/dpbo_bench_workers`",
            f"{m[5]}× ({m[1]} points: {m[3]} s serial, {m[4]} s with 2 workers)")


def ask_tell_row(build, environment):
    text = output_of([build.program("dpbo_bench_ask_tell")], environment)
    pairs = parsed(r"then (\d+) ask \+ tell pairs", text, "dpbo_bench_ask_tell")[1]
    m = parsed(r"ask ([\d.]+) ms, tell ([\d.]+) ms, ask \+ tell ([\d.]+) ms per trial", text, "dpbo_bench_ask_tell")
    return ("`dpbo ask` + `dpbo tell` per trial with 1 000 trials in the study (target: ≤ 20 ms)",
            "`build/bin/dpbo_bench_ask_tell` (random search on Branin, dpbo started directly as a client starts "
            "it; gp-ucb's asks, in process and through a keeper: [Studies](studies.md))",
            f"{m[3]} ms (ask {m[1]} ms, tell {m[2]} ms; median of {pairs})")


def report_row(build, environment):
    text = output_of([build.program("dpbo_bench_report"), build.dpbo], environment)
    m = parsed(r"dpbo report on (\d+) repeats x (\d+) evaluations: ([\d.]+) s \(best of 3.*page ([\d.]+) MB", text,
               "dpbo_bench_report")
    return ("`dpbo report` on 100 repeats of a 1 000-evaluation trace (target: ≤ 5 s)",
            "`build/bin/dpbo_bench_report build/bin/dpbo`", f"{m[3]} s (best of 3; a {m[4]} MB page)")


def command_row(build, environment, quick):
    argv = [build.program("dpbo_bench_command_objective")] + (["--blocks", "3"] if quick else [])
    text = output_of(argv, environment)
    m = parsed(r"([\d.]+) µs per round trip", text, "dpbo_bench_command_objective")
    return ("`command` objective round trip (target: ≤ 1 ms)",
            "`build/bin/dpbo_bench_command_objective` (from the repository's root)",
            f"{m[1]} µs with the persistent Python example")


def noise_row(build, environment, quick):
    argv = [build.program("dpbo_bench_noise")] + (["--draws", "20000"] if quick else [])
    text = output_of(argv, environment)
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


def pointer(what, how, where):
    return what, how, where


class Build:
    def __init__(self, folder):
        self.folder = os.path.abspath(os.path.join(SOURCE_ROOT, folder))
        self.dpbo = os.path.join(self.folder, "bin", "dpbo")
        if not os.access(self.dpbo, os.X_OK):
            raise MeasurementError(f"{self.dpbo} is not an executable: build first (cmake --build {folder})")

    def program(self, name):
        path = os.path.join(self.folder, "bin", name)
        if not os.access(path, os.X_OK):
            raise MeasurementError(f"{path} is not an executable: build first")
        return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="the build folder (default: build)")
    parser.add_argument("--quick", action="store_true", help="fewer repeats: checks the script, not for the page")
    options = parser.parse_args()
    try:
        build = Build(options.build)
        # As the page says: BLAS on one thread; a fresh manifest cache, filled by one call first.
        with tempfile.TemporaryDirectory(prefix="dpbo-measurements-") as scratch:
            environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", XDG_CACHE_HOME=os.path.join(scratch, "cache"))
            output_of([build.dpbo, "list"], environment)
            rows = [
                list_row(build, environment, options.quick),
                branin_row(build, environment, scratch, options.quick),
                pointer("acquisition optimiser on Rosenbrock-10 (target: regret ≤ 58)",
                        "`build/bin/dpbo_bench_acquisition_optimiser`",
                        "see [The acquisition optimiser](#the-acquisition-optimiser)"),
                pointer("speed at every size against another build: per iteration to n = 1 000, regret, to n = 10 000 "
                        "with memory, start-up, DPareto, PO-GP-UCB",
                        "`python3 apps/benchmarks/performance.py --baseline OTHER_BUILD`",
                        "see [Speed at every size](#speed-at-every-size)"),
                pointer("GP layer speed", "`build/bin/dpbo_bench_gp`", "see [GP layer speed](#gp-layer-speed)"),
                pointer("GIBO speed and quality", "`build/bin/dpbo_bench_gibo`",
                        "see [GIBO speed and quality](#gibo-speed-and-quality)"),
                pointer("DP-GIBO speed", "`build/bin/dpbo_bench_dp_gibo`", "see [DP-GIBO speed](#dp-gibo-speed)"),
                pointer("dp-ucb speed (target: ≤ 0.2 s)", "`build/bin/dpbo_bench_dp_ucb`",
                        "see [dp-ucb speed](#dp-ucb-speed)"),
                workers_row(build, environment),
                ask_tell_row(build, environment),
                report_row(build, environment),
                pointer("`dpbo run` under mpirun against serial: Open MPI's start, a slow objective on 3 and 5 ranks, "
                        "messaging per batch, an idle worker's CPU",
                        "`python3 apps/benchmarks/distributed.py`",
                        "see [Distributed evaluation](distributed.md#distributed-evaluation-mpirun)"),
                pointer("run journal's cost per batch and per point, and its size (crash-safe runs)",
                        "`build/bin/dpbo_bench_journal --points 1000000 --batch 1000` (Branin's points through a "
                        "serial evaluator with and without a journal, best of 3)",
                        "prints both times, the cost per batch and per point, the journal's size when the last batch "
                        "is written (what a run killed then leaves) and the transactions and statements it took"),
                command_row(build, environment, options.quick),
                pointer("PO-GP-UCB speed (targets: the run ≤ 0.15 s, the modeler ≤ 0.3 s, the release ≤ 0.2 s, at "
                        "36 000 rows and T = 50)",
                        "`build/bin/dpbo_bench_po_gp_ucb` (median of 5 seeded repeats; prints the release, the "
                        "modeler and the run apart, and the regret of each repeat)",
                        "the run against another build: see [Speed at every size](#speed-at-every-size)"),
                pointer("`mlp` oracle's cost per epoch across lot sizes", "`nice build/bin/dpbo_bench_mlp_oracle`",
                        "see [the `mlp` oracle's cost per epoch](#the-mlp-oracles-cost-per-epoch)"),
                noise_row(build, environment, options.quick),
                pointer("the selections' timing signal and cost per choice",
                        "`build/bin/dpbo_bench_selection_timing --n 10,100 --runs 400`, `… --n 1000 --runs 100`, "
                        "`… --cost`",
                        "per-world medians of 200 choices and two-sample KS p-values, then µs per choice by n and "
                        "shape; what they show is in [Privacy: the selections]"
                        "(privacy.md#kusner-selection-mechanisms-exponential-permute-and-flip)"),
                pointer("`rdp` accountant: ε for 10 000 DP-SGD steps (target: `dpbo account` ≤ 40 ms)",
                        "`build/bin/dpbo_bench_rdp build/bin/dpbo`", "see [RDP accountant speed](#rdp-accountant-speed)"),
                pointer("`pld` accountant: both bounds for 10 000 DP-SGD steps (target: ≤ 1 s)",
                        "`build/bin/dpbo_bench_rdp build/bin/dpbo --accountant pld`",
                        "see [RDP accountant speed](#rdp-accountant-speed)"),
            ]
    except (MeasurementError, subprocess.TimeoutExpired, OSError, KeyError, ValueError) as error:
        print(f"measurements.py: {error}", file=sys.stderr)
        return 1
    print("| what | how measured | result |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
