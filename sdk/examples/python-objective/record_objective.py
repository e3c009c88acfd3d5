#!/usr/bin/env python3
"""A record-decomposable objective in Python for dpbo's `command` objective (the dpbo-objective
protocol, docs/objectives.md "Objectives in any language"), standard library only.

The sensitive data are n records x_i drawn from N(1, I_d) with a fixed seed; the loss at θ is the
mean of the per-record losses ½‖θ − x_i‖², minimised at the records' mean. With --outputs 2 it is a
toy privacy–utility oracle for DPareto-style runs instead: "epsilon" = 0.1 + ‖θ‖₁ and "error" =
loss / (1 + loss), both minimised and pulling θ in opposite directions.

    dpbo run --algorithm dp-gibo --objective command \
        --set objective.command='python3 sdk/examples/python-objective/record_objective.py --dim 2'

The same functions serve an ask/tell client (ask_tell_client.py imports them).

Usage: record_objective.py [--dim D] [--records N] [--seed S] [--outputs 1|2] [--seconds-per-point S]
                           [--print-spec] [--log-points FILE]

--log-points FILE appends one JSON line per request it evaluated ({"points": [...], "per_record": ...})
to FILE, to count the evaluations a run really made (e.g. across a killed and resumed run).
"""
import argparse
import json
import random
import sys
import time


def make_records(dim, count, seed):
    """The sensitive data: `count` records drawn from N(1, I_dim) with their own seed."""
    rng = random.Random(seed)
    return [[rng.gauss(1.0, 1.0) for _ in range(dim)] for _ in range(count)]


def evaluate(theta, records, outputs=1):
    """(value(s), per-record losses) at θ: the loss, or [epsilon, error] with two outputs."""
    losses = [0.5 * sum((t - x) ** 2 for t, x in zip(theta, record)) for record in records]
    loss = sum(losses) / len(losses)
    if outputs == 2:
        return [0.1 + sum(abs(t) for t in theta), loss / (1.0 + loss)], losses
    return loss, losses


def parse_options(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", type=int, default=2)
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--outputs", type=int, choices=(1, 2), default=1)
    parser.add_argument("--seconds-per-point", type=float, default=0.0,
                        help="sleep this long per point, as an expensive model would take")
    parser.add_argument("--print-spec", action="store_true",
                        help="print the handshake (a spec file for `dpbo study create --space`) and exit")
    parser.add_argument("--log-points", metavar="FILE",
                        help="append each evaluated request's points to FILE, one JSON line per request")
    return parser.parse_args(argv)


def handshake(options):
    """The objective's declaration: its space, outputs and number of records."""
    outputs = [{"name": "loss", "sense": "minimise"}]
    if options.outputs == 2:
        outputs = [{"name": "epsilon", "sense": "minimise"}, {"name": "error", "sense": "minimise"}]
    return {
        "protocol": "dpbo-objective",
        "version": 1,
        "space": [{"name": f"theta{j}", "lower": -5.0, "upper": 5.0} for j in range(options.dim)],
        "outputs": outputs,
        "records": options.records,
    }


def main():
    options = parse_options()
    records = make_records(options.dim, options.records, options.seed)

    if options.print_spec:
        print(json.dumps(handshake(options)))
        return
    print(json.dumps(handshake(options)), flush=True)

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            points = request["points"]
        except (ValueError, KeyError) as error:
            print(json.dumps({"error": f"bad request: {error}"}), flush=True)
            continue
        if options.seconds_per_point > 0:
            time.sleep(options.seconds_per_point * len(points))
        values, per_record = [], []
        for theta in points:
            value, losses = evaluate(theta, records, options.outputs)
            values.append(value)
            per_record.append(losses)
        if options.log_points:
            # Before answering: a request evaluated but never answered (dpbo killed meanwhile) counts too.
            with open(options.log_points, "a") as log:
                log.write(json.dumps({"points": points, "per_record": bool(request.get("per_record"))}) + "\n")
        answer = {"values": values}
        if request.get("per_record"):
            answer["per_record"] = per_record
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
