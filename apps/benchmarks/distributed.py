#!/usr/bin/env python3
"""What distributing `dpbo run` over Open MPI's ranks costs and gains, for docs/distributed.md:

    python3 apps/reproduce/write_block.py docs/distributed.md distributed apps/benchmarks/distributed.py

    apps/benchmarks/distributed.py [--build build] [--runs 5]

Each row is a `dpbo run` under `mpirun --oversubscribe` on this machine's cores against the same run
without mpirun, wall time from the spawn to the exit, the median of --runs runs (a fresh output
folder each), BLAS on one thread:

- Open MPI's start and end: random search on Branin, 10 points in one batch, on 3 ranks with Open
  MPI's defaults and with `--mca pml ob1` (the point-to-point layer without InfiniBand's probing),
  less the serial run;
- a slow objective: 40 points of a Python program that sleeps 100 ms per point, one batch, on 3 and 5
  ranks (two and four workers) against serially;
- messaging per batch: grid search over `branin-grid`'s 10 000 points in 1 000 batches of 10 on 3
  ranks with `pml ob1`, less Open MPI's start and the serial run, per batch;
- an idle worker's CPU: gp-ucb (one point per step, so its one worker waits) on 2 ranks with `pml
  ob1`, the CPU of every rank and of mpirun less that of the same job serially and of 2 ranks that
  only start and end, per second of the run.

Prints markdown; standard library only; about two minutes on 2 cores.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from startup import spawn_timed  # noqa: E402  (beside this one)

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The same sleeper as dpbo_bench_workers: a `command` objective that sleeps per point.
SLEEPER = ("python3 -c 'import json,sys,time\n"
           "print(json.dumps({\"protocol\":\"dpbo-objective\",\"version\":1,\"space\":[{\"lower\":0,\"upper\":1}]}), "
           "flush=True)\n"
           "for line in sys.stdin:\n"
           "    points = json.loads(line)[\"points\"]\n"
           "    time.sleep(0.1 * len(points))\n"
           "    print(json.dumps({\"values\": [p[0] for p in points]}), flush=True)'")


class Runner:
    def __init__(self, dpbo, mpirun, scratch, runs):
        self.dpbo, self.mpirun, self.scratch, self.runs = dpbo, mpirun, scratch, runs
        self.environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", XDG_CACHE_HOME=os.path.join(scratch, "cache"))
        self.count = 0
        # --allow-run-as-root only where it is needed (CI containers run as root).
        self.root = ["--allow-run-as-root"] if os.geteuid() == 0 else []

    def argv(self, job, ranks, mca):
        self.count += 1
        command = [self.dpbo, "run", *job, "--out", os.path.join(self.scratch, f"run-{self.count}")]
        if ranks is None:
            return command
        extra = ["--mca", "pml", "ob1"] if mca else []
        return [self.mpirun, *self.root, "-np", str(ranks), "--oversubscribe", *extra, *command]

    def measure(self, job, ranks=None, mca=False, runs=None):
        """Median (wall seconds, CPU seconds of the process and its descendants) over the runs."""
        walls, cpus = [], []
        for _ in range((runs or self.runs) + 1):
            wall, cpu = spawn_timed(self.argv(job, ranks, mca), self.environment)
            walls.append(wall)
            cpus.append(cpu)
        # The first run is not counted: it fills the manifest cache and the page cache.
        return statistics.median(walls[1:]), statistics.median(cpus[1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="the build folder (default: build)")
    parser.add_argument("--runs", type=int, default=5, help="runs per row, after one not counted (default 5)")
    options = parser.parse_args()
    if options.runs < 1:
        print(f"distributed.py: --runs {options.runs}: expected at least 1", file=sys.stderr)
        return 2
    dpbo = os.path.join(SOURCE_ROOT, options.build, "bin", "dpbo")
    mpirun = shutil.which("mpirun")
    if not os.access(dpbo, os.X_OK) or mpirun is None:
        print(f"distributed.py: needs {dpbo} (build first) and mpirun on PATH (Debian's openmpi-bin)", file=sys.stderr)
        return 1
    branin = ["--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budget=10", "--set",
              "algorithm.batch=10", "--seed", "3"]
    slow = ["--algorithm", "random-search", "--objective", "command", "--set", f"objective.command={SLEEPER}",
            "--set", "algorithm.budget=40", "--set", "algorithm.batch=40", "--seed", "3"]
    grid = ["--algorithm", "grid-search", "--objective", "branin-grid", "--set", "objective.grid=100", "--set",
            "algorithm.batch=10", "--seed", "3"]
    idle = ["--algorithm", "gp-ucb", "--objective", "branin", "--set", "algorithm.budget=150", "--seed", "3"]
    try:
        with tempfile.TemporaryDirectory(prefix="dpbo-distributed-") as scratch:
            run = Runner(dpbo, mpirun, scratch, options.runs)
            serial = run.measure(branin)[0]
            start_default = run.measure(branin, 3)[0] - serial
            start_ob1 = run.measure(branin, 3, mca=True)[0] - serial
            slow_runs = max(1, options.runs // 2)
            slow_serial = run.measure(slow, runs=slow_runs)[0]
            slow_3 = run.measure(slow, 3, runs=slow_runs)[0]
            slow_5 = run.measure(slow, 5, runs=slow_runs)[0]
            grid_serial = run.measure(grid)[0]
            grid_3 = run.measure(grid, 3, mca=True)[0]
            per_batch = (grid_3 - start_ob1 - grid_serial) / 1000
            idle_serial_wall, idle_serial_cpu = run.measure(idle)
            idle_2_wall, idle_2_cpu = run.measure(idle, 2, mca=True)
            _, start_2_cpu = run.measure(branin, 2, mca=True)
            _, branin_cpu = run.measure(branin)
            worker_cpu = idle_2_cpu - idle_serial_cpu - (start_2_cpu - branin_cpu)
    except (RuntimeError, OSError) as error:
        print(f"distributed.py: {error}", file=sys.stderr)
        return 1
    print("| what | serially | under mpirun | what it shows |")
    print("|---|---|---|---|")
    print(f"| random search on Branin, 10 points in one batch, 3 ranks | {serial:.3f} s | {serial + start_default:.2f} s "
          f"(Open MPI's defaults), {serial + start_ob1:.2f} s (`--mca pml ob1`) | Open MPI's start and end: "
          f"{start_default:.2f} s, {start_ob1:.2f} s with `pml ob1` |")
    print(f"| 40 points of a Python objective that sleeps 100 ms per point, one batch | {slow_serial:.2f} s | "
          f"{slow_3:.2f} s on 3 ranks, {slow_5:.2f} s on 5 | two and four workers, plus Open MPI's start and each "
          f"rank's start of the program |")
    print(f"| grid search over `branin-grid`'s 10 000 points in 1 000 batches of 10, 3 ranks, `pml ob1` | "
          f"{grid_serial:.2f} s | {grid_3:.2f} s | messaging: {per_batch * 1000:.2f} ms per batch beyond Open MPI's "
          f"start |")
    print(f"| gp-ucb on Branin, 150 points one at a time, 2 ranks, `pml ob1` | {idle_serial_wall:.2f} s | "
          f"{idle_2_wall:.2f} s | the idle worker's CPU: {worker_cpu:.2f} s, {100 * worker_cpu / idle_2_wall:.0f} % of "
          f"a core over the run |")
    print()
    print(f"Wall time from the spawn to the exit, median of {options.runs} runs after one not counted (of "
          f"{slow_runs} for the slow objective); every rank on this machine (`--oversubscribe`), BLAS on one thread. "
          f"The idle worker's CPU is that of mpirun and both ranks less the serial run's and less that of 2 ranks "
          f"that only start and end (the 10-point run).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
