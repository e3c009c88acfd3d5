#!/usr/bin/env python3
"""CTest: the numpy DP-SGD example (sdk/examples/python-dp-sgd) as a `command` objective under random
search. The run's statement must give the whole search's composed guarantee — equal to `dpbo
account` of every trial's declared events — name what a trial protects, and say it composes all the
trials. Exits 77 (SKIP_RETURN_CODE) only when no python3 with numpy is found.

usage: python_dp_sgd_search_test.py DPBO SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
DELTA = 1e-5
TRIALS = 2


def numpy_python():
    """The first python3 that imports numpy (a pyenv shim may shadow the system's)."""
    for candidate in (shutil.which("python3"), "/usr/bin/python3"):
        if candidate and subprocess.run([candidate, "-c", "import numpy"], capture_output=True).returncode == 0:
            return candidate
    return None


def main():
    dpbo, source = sys.argv[1], sys.argv[2]
    python = numpy_python()
    if python is None:
        print("skipped: no python3 with numpy (apt-get install python3-numpy; cmake/setup.sh installs it)")
        return SKIP
    example = os.path.join(source, "sdk", "examples", "python-dp-sgd", "dp_sgd_objective.py")
    out = tempfile.mkdtemp(prefix="dpbo-dp-sgd-")
    try:
        run = subprocess.run([dpbo, "run", "--algorithm", "random-search", "--set", f"algorithm.budget={TRIALS}",
                              "--set", "algorithm.batch=2", "--objective", "command", "--set",
                              f"objective.command={python} {example}", "--accountant", "rdp", "--set",
                              f"accountant.delta={DELTA}", "--out", os.path.join(out, "run")],
                             capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            return 1
        with open(os.path.join(out, "run", "result.json")) as f:
            result = json.load(f)
        privacy = result["privacy"]
        print("statement:", privacy["headline"])
        assert f"composition of {TRIALS} trials" in privacy["mechanism"], privacy["mechanism"]
        assert privacy["neighbouring"] == "add or remove one record", privacy["neighbouring"]
        assert privacy["protected_unit"] == "one row of the example's table (its training or its validation part)"
        return check_against_account(dpbo, privacy, result)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def check_against_account(dpbo, privacy, result):
    trial_events = result["trial_events"]
    assert len(trial_events) == TRIALS, trial_events
    arguments = [dpbo, "account", "--accountant", "rdp", "--delta", str(DELTA), "--json"]
    for events in trial_events:
        for event in events:
            arguments += ["--event", event]
    accounted = subprocess.run(arguments, capture_output=True, text=True, timeout=60)
    if accounted.returncode != 0:
        print(accounted.stderr)
        return 1
    expected = json.loads(accounted.stdout)["epsilon_delta"]
    stated = privacy["equivalent_epsilon_delta"]
    print("dpbo account:", expected, "statement:", stated)
    at_delta = [pair["epsilon"] for pair in stated if pair["delta"] == DELTA]
    want = [pair["epsilon"] for pair in expected if pair["delta"] == DELTA]
    assert at_delta and want and at_delta[0] == want[0], (stated, expected)
    return 0


if __name__ == "__main__":
    sys.exit(main())
