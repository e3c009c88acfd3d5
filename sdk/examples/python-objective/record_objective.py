#!/usr/bin/env python3
"""A record-decomposable objective in Python for dpbo's `command` objective (the dpbo-objective
protocol, README "Objectives in any language"), standard library only.

The sensitive data are n records x_i drawn from N(1, I_d) with a fixed seed; the loss at θ is the
mean of the per-record losses ½‖θ − x_i‖², minimised at the records' mean. With --outputs 2 it is a
toy privacy–utility oracle for DPareto-style runs instead: "epsilon" = 0.1 + ‖θ‖₁ and "error" =
loss / (1 + loss), both minimised and pulling θ in opposite directions.

    dpbo run --algorithm dp-gibo --objective command \
        --set objective.command='python3 sdk/examples/python-objective/record_objective.py --dim 2'

Usage: record_objective.py [--dim D] [--records N] [--seed S] [--outputs 1|2]
"""
import argparse
import json
import random
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", type=int, default=2)
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--outputs", type=int, choices=(1, 2), default=1)
    options = parser.parse_args()

    rng = random.Random(options.seed)
    records = [[rng.gauss(1.0, 1.0) for _ in range(options.dim)] for _ in range(options.records)]

    outputs = [{"name": "loss", "sense": "minimise"}]
    if options.outputs == 2:
        outputs = [{"name": "epsilon", "sense": "minimise"}, {"name": "error", "sense": "minimise"}]
    handshake = {
        "protocol": "dpbo-objective",
        "version": 1,
        "space": [{"name": f"theta{j}", "lower": -5.0, "upper": 5.0} for j in range(options.dim)],
        "outputs": outputs,
        "records": options.records,
    }
    print(json.dumps(handshake), flush=True)

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            points = request["points"]
        except (ValueError, KeyError) as error:
            print(json.dumps({"error": f"bad request: {error}"}), flush=True)
            continue
        values, per_record = [], []
        for theta in points:
            losses = [0.5 * sum((t - x) ** 2 for t, x in zip(theta, record)) for record in records]
            loss = sum(losses) / len(losses)
            if options.outputs == 2:
                values.append([0.1 + sum(abs(t) for t in theta), loss / (1.0 + loss)])
            else:
                values.append(loss)
            per_record.append(losses)
        answer = {"values": values}
        if request.get("per_record"):
            answer["per_record"] = per_record
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
