#!/usr/bin/env python3
"""The tables of docs/benchmarks.md whose benchmark program prints plain columns: runs the program
now and prints its figures as the page's Markdown table, so that none of them is typed by hand:

    python3 apps/reproduce/write_block.py docs/benchmarks.md TABLE apps/benchmarks/bench_tables.py TABLE

    apps/benchmarks/bench_tables.py TABLE [--build build]

TABLE is one of
  gibo        `dpbo_bench_gibo` (GIBO against the authors' reference on its synthetic setup);
  dp-gibo     `dpbo_bench_dp_gibo` (DP-GIBO's time per iteration, and the floor of an exact fit);
  dp-ucb      `dpbo_bench_dp_ucb --repeats 9` (dp-ucb on a 10 000-point grid, T = 100);
  mlp-oracle  `dpbo_bench_mlp_oracle --epochs 1 --repetitions 2` (one `mlp` evaluation per epoch).
The reference's figures the programs print beside ours are quoted constants of the programs (the
authors' code, timed once on the machine of the issue that asked for the comparison), not measured
here. BLAS on one thread, as the programs set it. Standard library only.
"""
import argparse
import os
import re
import sys

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from performance import BenchmarkError, Build, number, run, run_main  # noqa: E402  (beside this one)


def rows(pattern, text, program):
    found = re.findall(pattern, text, re.M)
    if not found:
        raise BenchmarkError(f"{program} printed no row matching /{pattern}/; it printed:\n{text[-800:]}")
    return found


def first_line(text):
    return text.strip().splitlines()[0]


def gibo(build):
    text = run([build.program("dpbo_bench_gibo")])
    print(f"`build/bin/dpbo_bench_gibo`: {first_line(text)}; the reference's CPU seconds per iteration quoted.")
    print()
    print("| d | iterations | CPU s per iteration | reference (sarmueller/gibo) | speed-up | best of iterates, "
          "mean / median | final iterate, mean / median |")
    print("|---|---|---|---|---|---|---|")
    for d, iterations, _, cpu, reference, speed_up, best_mean, best_median, final_mean, final_median in rows(
            r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+(\S+)\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%\s*$",
            text, "dpbo_bench_gibo"):
        print(f"| {d} | {iterations} | {number(float(cpu))} | {reference} | {speed_up.replace('x', '×')} | "
              f"{best_mean} % / {best_median} % | {final_mean} % / {final_median} % |")


def dp_gibo(build):
    text = run([build.program("dpbo_bench_dp_gibo")])
    print("`build/bin/dpbo_bench_dp_gibo`: medians over the iterations of one seeded run, CPU ms per iteration; "
          "the reference (the authors' code) quoted.")
    print()
    print("| scenario | algorithm | objective evaluations | total | speed-up: algorithm / total |")
    print("|---|---|---|---|---|")
    for label, algorithm, evaluation, total, by_algorithm, by_total in rows(
            r"^(\S.*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+(\S+)\s*$", text, "dpbo_bench_dp_gibo"):
        speed_up = "" if by_algorithm == "-" else f"{by_algorithm.replace('x', '×')} / {by_total.replace('x', '×')}"
        print(f"| {label} | {number(1e3 * float(algorithm))} ms | {number(1e3 * float(evaluation))} ms | "
              f"{number(1e3 * float(total))} ms | {speed_up} |")
    floor = rows(r"^(floor of one exact .*)$", text, "dpbo_bench_dp_gibo")[0]
    print()
    print(f"The program's last line: {floor}.")


def dp_ucb(build):
    text = run([build.program("dpbo_bench_dp_ucb"), "--repeats", "9"])
    print(f"`build/bin/dpbo_bench_dp_ucb --repeats 9`: {first_line(text)}.")
    print()
    print("| variant | selection | total, s | loop, s | rest, s | γ_T greedy / bound |")
    print("|---|---|---|---|---|---|")
    for variant, selection, total, loop, rest, greedy, bound in rows(
            r"^(noisy|noise-free)\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+([-\d.]+)\s+(\S+)\s+(\S+)\s*$", text,
            "dpbo_bench_dp_ucb"):
        gamma = "—" if greedy == "-" else f"{greedy} / {bound}"
        print(f"| {variant} | {selection} | {number(float(total))} | {number(float(loop))} | "
              f"{number(float(rest))} | {gamma} |")


def mlp_oracle(build):
    text = run([build.program("dpbo_bench_mlp_oracle"), "--epochs", "1", "--repetitions", "2"])
    table = {}
    for lot, threads, seconds, _ in rows(r"^\s*([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s*$", text,
                                         "dpbo_bench_mlp_oracle"):
        table.setdefault(int(threads), {})[int(float(lot))] = float(seconds)
    lots = sorted(next(iter(table.values())))
    print(f"`build/bin/dpbo_bench_mlp_oracle --epochs 1 --repetitions 2`: {first_line(text)}; wall seconds per "
          f"epoch of one evaluation.")
    print()
    print("| lot size m | " + " | ".join(str(lot) for lot in lots) + " |")
    print("|---|" + "---|" * len(lots))
    for threads in sorted(table):
        label = "1 thread" if threads == 1 else f"{threads} threads"
        print(f"| {label} | " + " | ".join(number(table[threads].get(lot)) for lot in lots) + " |")


TABLES = {"gibo": gibo, "dp-gibo": dp_gibo, "dp-ucb": dp_ucb, "mlp-oracle": mlp_oracle}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table", choices=sorted(TABLES))
    parser.add_argument("--build", default=os.path.join(SOURCE_ROOT, "build"))
    options = parser.parse_args(argv)
    TABLES[options.table](Build(options.build))
    return 0


if __name__ == "__main__":
    run_main(main, "bench_tables.py")
