#!/usr/bin/env python3
"""Ask/tell overhead: CPU per ask and per tell for gp-ucb on Branin with N told trials, through the dpbo
command (a process per call, as a client in any language runs it: each ask replaying the study, or
answered by `dpbo study serve`, which keeps it) and through `import dpbo` (a study kept open), beside Optuna's TPE sampler in memory and with SQLite storage, measured in the same run.
Prints a markdown table (docs/studies.md takes it through apps/reproduce/write_block.py).

    apps/benchmarks/ask_tell_overhead.py [--build build] [--sizes 10,100,1000] [--repeats 3] [--model-fill 100]

It imports the package built in BUILD/lib/python and runs BUILD/bin/dpbo, under Debian's interpreter
(which has python3-numpy and python3-optuna: it re-executes itself there when started by another).

How the N told trials are made: up to --model-fill, every trial after gp-ucb's 10-point design is the
algorithm's own (a real study's history, which a new process replays). Above it, filling by gp-ucb
steps would itself take the better part of an hour, so the study's N trials are its initial design
(algorithm.initial_points = N): the first model step then sees N points, as a real study's would, but a
new process replays one model step instead of N. That row's CLI figure is therefore a lower bound,
and the table says so. Optuna's studies are filled by its own ask/tell with the same objective.

CPU is what is timed: the process's own (all its threads) for in-process calls, the child's user +
system time (getrusage) for each dpbo command, plus the keeper's own CPU over the call (/proc) when a
keeper answers it (/proc/PID/task/*/schedstat; the keeper's first ask, which replays the study once,
is not counted). In process, likewise, the first ask and tell of each study are not counted (a study
kept open builds its model at its first ask; the script prints that ask's CPU below the table). Each
figure is the median over --repeats calls (at most 16: a study allows 50 asks beyond its told trials).
"""
import argparse
import importlib.util
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SYSTEM_PYTHON = "/usr/bin/python3"


def system_interpreter():
    """Debian's python3, with numpy and Optuna, when another one (pyenv, a venv) started this script."""
    if not all(importlib.util.find_spec(name) for name in ("numpy", "optuna")):
        if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) and os.path.exists(SYSTEM_PYTHON):
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, *sys.argv])
        raise SystemExit("needs numpy and Optuna (Debian: apt-get install python3-numpy python3-optuna)")


dpbo = None  # imported by main() from the build folder given
SPACE = {"x1": (-5.0, 10.0), "x2": (0.0, 15.0)}
DESIGN = 10
EXTRA_ASKS = 50  # a study's budget beyond its told trials
MAX_REPEATS = (EXTRA_ASKS - 2) // 3  # in process, through the CLI and through a keeper, plus two first asks


def branin(x1, x2):
    b, c, t = 5.1 / (4 * math.pi ** 2), 5 / math.pi, 1 / (8 * math.pi)
    return (x2 - b * x1 * x1 + c * x1 - 6) ** 2 + 10 * (1 - t) * math.cos(x1) + 10


def timed_command(words):
    """(stdout, the child's user + system CPU seconds) for one dpbo command, started as a client starts it."""
    # getrusage counts microseconds (os.times counts clock ticks of 10 ms).
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.run(words, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(words)}: exit {process.returncode}: {process.stderr}")
    return process.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def process_cpu(pid):
    """CPU seconds of a running process's live threads, in nanoseconds' resolution (the scheduler's
    /proc/PID/task/TID/schedstat; /proc/PID/stat counts 10 ms ticks). The keeper's threads live as long
    as it does."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{thread}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            continue
    return total / 1e9


def through_keeper(executable, path, repeats):
    """The CLI with `dpbo study serve` keeping the study: the client's CPU plus the keeper's."""
    keeper = subprocess.Popen([executable, "study", "serve", path, "--idle", "600"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        if "keeping study" not in keeper.stdout.readline():
            raise SystemExit(f"dpbo study serve {path} did not start: {keeper.stderr.read()}")
        # The first ask brings the keeper's run to where the study waits (a replay, once): not counted.
        cli_pair(executable, path)
        return through_cli(executable, path, repeats, lambda: process_cpu(keeper.pid))
    finally:
        keeper.terminate()
        keeper.communicate(timeout=60)


def dpbo_study(path, told, model_fill):
    """A gp-ucb study on Branin with `told` told trials, kept open."""
    design = DESIGN if told <= model_fill else told
    study = dpbo.Study.create(path, algorithm="gp-ucb", space=SPACE, seed=1,
                              settings={"algorithm.budget": told + EXTRA_ASKS, "algorithm.initial_points": design})
    done = 0
    while done < told:
        for trial in study.ask_batch(told - done):
            study.tell(trial, value=branin(**trial.params))
            done += 1
    if sum(t.state == "done" for t in study.trials) != told:
        raise SystemExit(f"the study of {told} trials was filled with another number of told trials")
    return study


def timed_in_process(ask, tell, repeats, first=None):
    """Median CPU of ask() (which returns a point's arguments and a handle) and of tell(handle, value),
    after one pair that is not counted: a study kept open builds its model at its first ask (at N told
    trials from an N-point design, a factorisation and a fit of N points), once, as the keeper replays
    the study once. Its ask's CPU is appended to `first` when given."""
    start = time.process_time()
    handle, point = ask()
    if first is not None:
        first.append(time.process_time() - start)
    tell(handle, branin(*point))
    asks, tells = [], []
    for _ in range(repeats):
        start = time.process_time()
        handle, point = ask()
        middle = time.process_time()
        tell(handle, branin(*point))
        asks.append(middle - start)
        tells.append(time.process_time() - middle)
    return statistics.median(asks), statistics.median(tells)


def in_process(study, repeats, first):
    def ask():
        trial = study.ask()
        return trial, (trial.params["x1"], trial.params["x2"])

    return timed_in_process(ask, lambda trial, value: study.tell(trial, value=value), repeats, first)


def cli_pair(executable, path, server_cpu=lambda: 0.0):
    """One ask and one tell through the dpbo command: (ask CPU, tell CPU), the ask's including what
    `server_cpu` (a keeper's CPU so far) grew by meanwhile."""
    served_before = server_cpu()
    out, ask_cpu = timed_command([executable, "ask", path])
    ask_cpu += server_cpu() - served_before
    trial = json.loads(out)["trials"][0]
    _, tell_cpu = timed_command([executable, "tell", path, str(trial["id"]), "--value", repr(branin(*trial["point"]))])
    return ask_cpu, tell_cpu


def through_cli(executable, path, repeats, server_cpu=lambda: 0.0):
    asks, tells = zip(*(cli_pair(executable, path, server_cpu) for _ in range(repeats)))
    return statistics.median(asks), statistics.median(tells)


def optuna_study(told, storage):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=1), storage=storage)
    for _ in range(told):
        trial = study.ask()
        study.tell(trial, branin(trial.suggest_float("x1", -5, 10), trial.suggest_float("x2", 0, 15)))
    return study


def optuna_overhead(study, repeats):
    def ask():
        trial = study.ask()  # TPE samples when the objective asks for each parameter: part of the ask
        return trial, (trial.suggest_float("x1", -5, 10), trial.suggest_float("x2", 0, 15))

    return timed_in_process(ask, study.tell, repeats)


def ms(seconds):
    """Milliseconds: three significant digits, whole ones from 100 up (no exponents in a table)."""
    value = seconds * 1000
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def main():
    system_interpreter()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(SOURCE_ROOT, "build"), help="dpbo's build folder")
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--model-fill", type=int, default=100)
    options = parser.parse_args()
    if not 1 <= options.repeats <= MAX_REPEATS:
        parser.error(f"--repeats {options.repeats}: expected 1 to {MAX_REPEATS} (each study allows {EXTRA_ASKS} asks "
                     "beyond its told trials: three per repeat, and two that are not counted)")
    try:
        sizes = [int(s) for s in options.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes {options.sizes!r}: expected whole numbers separated by commas")
    build = os.path.abspath(options.build)
    executable = os.path.join(build, "bin", "dpbo")
    sys.path.insert(0, os.path.join(build, "lib", "python"))
    global dpbo
    import dpbo
    import optuna
    optuna_version = optuna.__version__

    folder = tempfile.mkdtemp(prefix="dpbo-ask-tell-overhead-")
    rows = []
    first_asks = []
    try:
        for told in sizes:
            path = os.path.join(folder, f"gp-ucb-{told}.db")
            study = dpbo_study(path, told, options.model_fill)
            python_ask, python_tell = in_process(study, options.repeats, first_asks)
            del study
            cli_ask, cli_tell = through_cli(executable, path, options.repeats)
            kept_ask, kept_tell = through_keeper(executable, path, options.repeats)
            memory_ask, memory_tell = optuna_overhead(optuna_study(told, None), options.repeats)
            storage = f"sqlite:///{os.path.join(folder, f'optuna-{told}.db')}"
            sqlite_ask, sqlite_tell = optuna_overhead(optuna_study(told, storage), options.repeats)
            history = "gp-ucb's own" if told <= options.model_fill else f"a {told}-point design, so the replay is a lower bound"
            rows.append(f"| {told}: {history} | {ms(cli_ask)} / {ms(cli_tell)} | {ms(kept_ask)} / {ms(kept_tell)} "
                        f"| {ms(python_ask)} / {ms(python_tell)} "
                        f"| {ms(memory_ask)} / {ms(memory_tell)} | {ms(sqlite_ask)} / {ms(sqlite_tell)} |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"CPU ms per ask / per tell, median of {options.repeats}; Branin; gp-ucb (dpbo defaults) against "
          f"Optuna {optuna_version} TPESampler, on the same machine in the same run")
    print()
    print("| told trials | dpbo CLI, each ask replays | dpbo CLI, `dpbo study serve` keeps the run "
          "| dpbo in Python (study kept open) | Optuna TPE, memory | Optuna TPE, SQLite |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    print()
    print("Not counted above: the first ask of each study kept open in Python, which builds its model once "
          "(as the keeper's first ask replays the study once): "
          + ", ".join(f"{ms(cpu)} ms at {told}" for told, cpu in zip(sizes, first_asks)) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main())
