#!/usr/bin/env python3
"""Start-up of `dpbo run` for a trivial job: random search on Branin with one evaluation, seeded,
into a fresh folder each time; so what is timed is dpbo's own start (loading, finding the modules,
the journal and the result files), not the search's. Prints the medians as markdown lines that
docs/benchmarks.md takes through apps/reproduce/write_block.py:

    apps/benchmarks/startup.py [--build build] [--runs 21] [--baseline OTHER_BUILD]

Each run is started directly (no shell), as a client's subprocess call starts it, without
OPENBLAS_NUM_THREADS in its environment, as a user's shell starts it (dpbo's launcher then sets it
before it loads OpenBLAS, which is part of its start-up). Wall time is from the spawn to the exit;
CPU time is the child's user + system time (wait4's resource usage, which counts the process and its
descendants).
Each build has a manifest cache of its own (XDG_CACHE_HOME in the scratch folder), which one run
first, not counted, fills, as every run after a build's first finds it. With --baseline, the two builds run in turn, A B A B ..., so that the machine's drift
falls on both, and their ratio is printed too. Standard library only; `startup_medians`,
`spawn_medians` and `spawn_timed` are for other benchmark scripts.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TRIVIAL_JOB = ["run", "--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budget=1",
               "--seed", "1"]


def spawn_timed(argv, environment):
    """(wall seconds, CPU seconds of the process and its descendants) of one run of `argv`, started
    directly (no shell) with no input and its output discarded; RuntimeError naming it if it fails."""
    with open(os.devnull, "rb") as nothing, open(os.devnull, "wb") as null:
        started = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, environment,
                             file_actions=[(os.POSIX_SPAWN_DUP2, nothing.fileno(), 0),
                                           (os.POSIX_SPAWN_DUP2, null.fileno(), 1),
                                           (os.POSIX_SPAWN_DUP2, null.fileno(), 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        raise RuntimeError(f"{' '.join(argv)} failed (wait status {status})")
    return wall, usage.ru_utime + usage.ru_stime


def timed_run(dpbo, out, environment):
    """(wall seconds, CPU seconds) of one trivial `dpbo run` into `out`; raises if it fails."""
    return spawn_timed([dpbo, *TRIVIAL_JOB, "--out", out], environment)


def startup_medians(programs, runs=21):
    """For each dpbo executable in `programs`, its median (wall ms, CPU ms) over `runs` trivial runs,
    the programs taking turns run by run."""
    base = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    times = {program: [] for program in programs}
    with tempfile.TemporaryDirectory(prefix="dpbo-startup-") as scratch:
        # Each program a manifest cache of its own, holding its own build's plugins only, as a user's
        # machine with one dpbo has; a shared one would hold every build's and time their reading.
        environments = [dict(base, XDG_CACHE_HOME=os.path.join(scratch, f"cache-{index}")) for index in
                        range(len(programs))]
        for index, program in enumerate(programs):
            timed_run(program, os.path.join(scratch, f"warm-up-{index}"), environments[index])
        for run in range(runs):
            for index, program in enumerate(programs):
                times[program].append(
                    timed_run(program, os.path.join(scratch, f"{index}-{run}"), environments[index]))
    return {program: (1000 * statistics.median(w for w, _ in rows), 1000 * statistics.median(c for _, c in rows))
            for program, rows in times.items()}


def spawn_medians(commands, runs=21):
    """For each command (an argv tuple) in `commands`, its median (wall ms, CPU ms) over `runs` runs
    after one not counted, the commands taking turns run by run: the floors a trivial run's start-up
    is read against (an empty program; `dpbo --version`, which loads what every command loads)."""
    base = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    times = {command: [] for command in commands}
    for command in commands:
        spawn_timed(list(command), base)
    for _ in range(runs):
        for command in commands:
            times[command].append(spawn_timed(list(command), base))
    return {command: (1000 * statistics.median(w for w, _ in rows), 1000 * statistics.median(c for _, c in rows))
            for command, rows in times.items()}


def executable(build):
    path = os.path.join(build if os.path.isabs(build) else os.path.join(SOURCE_ROOT, build), "bin", "dpbo")
    if not os.access(path, os.X_OK):
        raise SystemExit(f"startup.py: {path} is not an executable; build dpbo first, or name the build "
                         f"folder with --build")
    return path


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="build folder whose bin/dpbo is timed (default: build)")
    parser.add_argument("--runs", type=int, default=21, help="counted runs of each build (default 21, at least 3)")
    parser.add_argument("--baseline", help="another build folder, timed in the same run for the ratio")
    arguments = parser.parse_args(argv)
    if arguments.runs < 3:
        parser.error(f"--runs {arguments.runs}: expected at least 3 (a median of fewer says little)")
    new = executable(arguments.build)
    programs = [new] + ([executable(arguments.baseline)] if arguments.baseline else [])
    medians = startup_medians(programs, arguments.runs)
    job = " ".join(["dpbo", *TRIVIAL_JOB, "--out", "DIR"])
    print(f"`{job}`, a fresh DIR each run; median of {arguments.runs} runs, each build's manifest cache current\n")
    print("| build | wall ms | CPU ms |")
    print("|---|---|---|")
    for program in programs:
        wall, cpu = medians[program]
        print(f"| {os.path.relpath(program, SOURCE_ROOT)} | {wall:.1f} | {cpu:.1f} |")
    if arguments.baseline:
        (wall, cpu), (base_wall, base_cpu) = medians[new], medians[programs[1]]
        print(f"| ratio of the medians, {arguments.build} / {arguments.baseline} | {wall / base_wall:.2f} | {cpu / base_cpu:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
