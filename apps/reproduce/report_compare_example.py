#!/usr/bin/env python3
"""The comparison report's example: two seeded runs on one objective (GP-UCB, not private, and random
search releasing its values by the Laplace mechanism), a seeded DP-GIBO run of ten Gaussian steps on
another (its ε grows release by release), and a seeded ask/tell study over a declared space with
named, log-scaled dimensions, reported together. Used by the headless-Chromium test
(tests/cli/report_chromium_test.py) and, with --screenshot, to draw docs/report-compare.png:

    python3 apps/reproduce/report_compare_example.py build/bin/dpbo WORKDIR --screenshot docs/report-compare.png
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

# The study's declared space: what its client computes is below (a closed form, so the example
# needs no data); the names and the log scale are what the report must show.
STUDY_SPEC = {"protocol": "dpbo-objective", "version": 1,
              "space": [{"name": "learning_rate", "lower": 1e-4, "upper": 1.0, "scale": "log"},
                        {"name": "l2_penalty", "lower": 0.0, "upper": 1.0}],
              "outputs": [{"name": "loss", "sense": "minimise"}], "records": 1}
COMMON = ["--set", "objective.validation_records=200", "--set", "algorithm.budget=12", "--seed", "1"]


def dpbo(binary, *arguments):
    done = subprocess.run([binary, *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"dpbo {' '.join(arguments)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def study_loss(point):
    learning_rate, l2_penalty = point
    return (math.log10(learning_rate) + 2.0) ** 2 + (l2_penalty - 0.3) ** 2


def make(binary, workdir):
    """Makes the runs and the study in workdir (emptied first); returns what to report, in order."""
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    gp_ucb, random_laplace = os.path.join(workdir, "gp-ucb"), os.path.join(workdir, "random-laplace")
    dpbo(binary, "run", "--algorithm", "gp-ucb", "--objective", "logreg-validation", *COMMON, "--out", gp_ucb)
    # Δ = 1/200: one validation record of 200 moves the accuracy by at most that.
    dpbo(binary, "run", "--algorithm", "random-search", "--objective", "logreg-validation", "--mechanism", "laplace",
         "--set", "mechanism.epsilon=0.5", "--set", "algorithm.value_sensitivity=0.005", *COMMON,
         "--out", random_laplace)
    dp_gibo = os.path.join(workdir, "dp-gibo")
    dpbo(binary, "run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "objective.dim=2",
         "--set", "algorithm.iterations=10", "--seed", "1", "--out", dp_gibo)
    spec = os.path.join(workdir, "spec.json")
    with open(spec, "w") as out:
        json.dump(STUDY_SPEC, out)
    study = os.path.join(workdir, "tuning-study.db")
    dpbo(binary, "study", "create", study, "--algorithm", "gp-ucb", "--space", spec, "--seed", "3",
         "--set", "algorithm.budget=10")
    while True:
        asked = json.loads(dpbo(binary, "ask", study, "--count", "4", "--json"))
        if asked["finished"]:
            break
        for trial in asked["trials"]:
            dpbo(binary, "tell", study, str(trial["id"]), "--value", repr(study_loss(trial["point"])))
    return [gp_ucb, random_laplace, dp_gibo, study]


def report(binary, sources, out):
    dpbo(binary, "report", *sources, "--out", out)


def chromium_run(chromium, *arguments):
    """Headless Chromium with a profile of its own that goes with it (nothing left in $HOME or $TMPDIR)."""
    with tempfile.TemporaryDirectory(prefix="dpbo-chromium-profile-") as profile:
        # Its crash database goes under XDG_CONFIG_HOME whatever --user-data-dir says.
        environment = dict(os.environ, XDG_CONFIG_HOME=profile, XDG_CACHE_HOME=profile)
        return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                               *arguments], capture_output=True, text=True, timeout=120, env=environment)


def screenshot(chromium, page, png, width=1200, height=1000):
    """The page's first screen as Chromium draws it, headless."""
    done = chromium_run(chromium, "--hide-scrollbars", f"--window-size={width},{height}",
                        f"--screenshot={os.path.abspath(png)}", "file://" + os.path.abspath(page))
    if done.returncode != 0 or not os.path.isfile(png):
        sys.exit(f"chromium --screenshot failed ({done.returncode}): {done.stderr.strip()[-2000:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dpbo")
    parser.add_argument("workdir")
    parser.add_argument("--screenshot", help="write the report's first screen to this PNG")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    arguments = parser.parse_args()
    sources = make(arguments.dpbo, arguments.workdir)
    page = os.path.join(arguments.workdir, "report.html")
    report(arguments.dpbo, sources, page)
    print(page)
    if arguments.screenshot:
        screenshot(arguments.chromium, page, arguments.screenshot)
        print(arguments.screenshot)


if __name__ == "__main__":
    main()
