#!/usr/bin/env python3
"""A dpbo `command` objective whose every evaluation is a private learner (numpy only).

Each trial trains a logistic regression with DP-SGD (Poisson-subsampled lots, per-example
gradients clipped to the trial's clipping norm, Gaussian noise of multiplier SIGMA), then releases
its validation accuracy through its own Laplace mechanism, and declares both events with its
answer, so that dpbo charges them (docs/objectives.md, "Trials that are private learners").

The data is a small table generated deterministically (it stands for the sensitive data: the same
rows in every run); the privacy noise comes from numpy's generator seeded from os.urandom. This
program owns its noise: dpbo can only account what it declares.
"""
import json
import os
import sys

import numpy as np

ROWS = 400             # the table: 300 training rows, 100 validation rows
TRAINING_ROWS = 300
FEATURES = 5
SAMPLING_RATE = 0.1    # Poisson sampling: each training row joins a lot with probability q
SIGMA = 1.1            # noise multiplier: noise of standard deviation SIGMA * clip on each lot's sum
SCORE_EPSILON = 0.5    # the Laplace release of the validation count: scale 1 / SCORE_EPSILON


def table():
    """The sensitive data: rows of a fixed logistic model, the same every run (data, not noise)."""
    data = np.random.default_rng(20261127)
    x = data.normal(size=(ROWS, FEATURES))
    w = np.array([1.5, -2.0, 1.0, 0.5, -1.0])
    y = (data.random(ROWS) < 1.0 / (1.0 + np.exp(-(x @ w)))).astype(float)
    return x[:TRAINING_ROWS], y[:TRAINING_ROWS], x[TRAINING_ROWS:], y[TRAINING_ROWS:]


def dp_sgd(x, y, learning_rate, clip, epochs, noise):
    """Returns the weights and the number of steps taken (each a subsampled Gaussian release)."""
    n = len(y)
    steps = int(round(epochs / SAMPLING_RATE))
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        lot = noise.random(n) < SAMPLING_RATE
        xs, ys = x[lot], y[lot]
        p = 1.0 / (1.0 + np.exp(-(xs @ w)))
        grads = (p - ys)[:, None] * xs
        norms = np.maximum(np.linalg.norm(grads, axis=1) / clip, 1.0)
        clipped_sum = (grads / norms[:, None]).sum(axis=0)
        noisy = clipped_sum + noise.normal(scale=SIGMA * clip, size=w.shape)
        # Divided by the expected lot size (public), never the drawn one (private).
        w -= learning_rate * noisy / (SAMPLING_RATE * n)
    return w, steps


def private_accuracy(w, x, y, noise):
    """The validation count of correct predictions (sensitivity 1 when one row is added or removed)
    with Laplace noise, over the nominal validation size (public)."""
    correct = float(np.sum(((x @ w) > 0).astype(float) == y))
    return (correct + noise.laplace(scale=1.0 / SCORE_EPSILON)) / len(y)


def main():
    train_x, train_y, valid_x, valid_y = table()
    noise = np.random.default_rng(int.from_bytes(os.urandom(16), "little"))
    print(json.dumps({
        "protocol": "dpbo-objective", "version": 1,
        "space": [
            {"name": "learning_rate", "lower": 0.01, "upper": 3.0, "scale": "log"},
            {"name": "clip", "lower": 0.1, "upper": 5.0, "scale": "log"},
            {"name": "epochs", "lower": 1, "upper": 5, "integer": True},
        ],
        "outputs": [{"name": "accuracy", "sense": "maximise"}],
        "trials": {
            "neighbouring": "add or remove one record",
            "protected": "one row of the example's table (its training or its validation part)",
            "bound": [f"subsampled-gaussian:q={SAMPLING_RATE},sigma={SIGMA},sampling=poisson,steps={int(round(5 / SAMPLING_RATE))}",
                      f"laplace:scale={1.0 / SCORE_EPSILON},sensitivity=1"],
        },
    }), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        values, events = [], []
        for learning_rate, clip, epochs in request["points"]:
            w, steps = dp_sgd(train_x, train_y, learning_rate, clip, int(round(epochs)), noise)
            values.append(private_accuracy(w, valid_x, valid_y, noise))
            events.append([f"subsampled-gaussian:q={SAMPLING_RATE},sigma={SIGMA},sampling=poisson,steps={steps}",
                           f"laplace:scale={1.0 / SCORE_EPSILON},sensitivity=1"])
        print(json.dumps({"values": values, "events": events}), flush=True)


if __name__ == "__main__":
    main()
