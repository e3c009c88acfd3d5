#!/usr/bin/env python3
"""An ask/tell client of a dpbo study, standard library only: it asks for trials, evaluates the
record objective of record_objective.py on them, and tells the values back, until the algorithm
finishes. Several clients may work on one study at once.

    python3 record_objective.py --print-spec > spec.json
    dpbo study create study.db --algorithm dp-gibo --space spec.json --seed 5 \
        --set algorithm.track_objective=false
    python3 ask_tell_client.py study.db            # in as many terminals as you like
    dpbo study show study.db

Usage: ask_tell_client.py STUDY [--dpbo PATH] [--count N] [--wait SECONDS] [--log FILE]
                          [the objective's options: --dim, --records, --seed, --outputs]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_objective  # noqa: E402  (the objective lives beside this script)


def dpbo(binary, *arguments, stdin=None):
    done = subprocess.run([binary, *arguments], input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"dpbo {' '.join(arguments[:2])} failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study")
    parser.add_argument("--dpbo", default="dpbo", help="the dpbo executable")
    parser.add_argument("--count", type=int, default=1, help="trials to ask for at a time")
    parser.add_argument("--wait", type=float, default=60.0,
                        help="how long one ask waits while other clients hold the batch's trials")
    parser.add_argument("--log", help="append one line per evaluated trial (id and point) to this file")
    options, objective_arguments = parser.parse_known_args()
    objective = record_objective.parse_options(objective_arguments)
    records = record_objective.make_records(objective.dim, objective.records, objective.seed)

    while True:
        asked = dpbo(options.dpbo, "ask", options.study, "--count", str(options.count), "--wait", str(options.wait))
        if asked["finished"]:
            print(json.dumps(asked["result"]["released"]))
            return
        if not asked["trials"]:
            sys.exit(f"no trial handed out within {options.wait} s; still out: {asked['waiting_for']}")
        for trial in asked["trials"]:
            value, losses = record_objective.evaluate(trial["point"], records, objective.outputs)
            if options.log:
                with open(options.log, "a") as log:
                    log.write(json.dumps({"id": trial["id"], "point": trial["point"]}) + "\n")
            told = ["tell", options.study, str(trial["id"])]
            told += ["--values", json.dumps(value)] if objective.outputs == 2 else ["--value", repr(value)]
            if trial["per_record"]:
                with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
                    json.dump(losses, file)
                try:
                    dpbo(options.dpbo, *told, "--per-record", file.name)
                finally:
                    os.unlink(file.name)
            else:
                dpbo(options.dpbo, *told)


if __name__ == "__main__":
    main()
