"""Privately tune a numpy model from Python: each trial trains DP-SGD logistic regression and releases a
noisy accuracy (a private learner: it says what it spent), gp-ucb picks the next hyperparameters, and
dpbo states what the whole search cost. Run: PYTHONPATH=build/lib/python python3 this_file.py"""
import pathlib, sys
import numpy as np
import dpbo

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python-dp-sgd"))
from dp_sgd_objective import SAMPLING_RATE, SCORE_EPSILON, SIGMA, dp_sgd, private_accuracy, table

train_x, train_y, valid_x, valid_y = table()
noise = np.random.default_rng()  # the learner's own privacy noise: fresh every run


def trial(params):
    w, steps = dp_sgd(train_x, train_y, params["learning_rate"], params["clip"], int(params["epochs"]), noise)
    return {"value": private_accuracy(w, valid_x, valid_y, noise),
            "events": [f"subsampled-gaussian:q={SAMPLING_RATE},sigma={SIGMA},sampling=poisson,steps={steps}",
                       f"laplace:scale={1 / SCORE_EPSILON},sensitivity=1"]}


result = dpbo.run(trial, algorithm="gp-ucb", outputs={"accuracy": "maximise"}, roles={"accountant": "rdp"},
                  space={"learning_rate": dpbo.real(0.01, 3, log=True), "clip": dpbo.real(0.1, 5, log=True),
                         "epochs": dpbo.integer(1, 5)},
                  settings={"algorithm.budget": 8, "algorithm.initial_points": 4, "accountant.delta": 1e-5},
                  trials={"neighbouring": "add or remove one record", "protected": "one row of the table"})
print("released:", result["released"]["best_point"]["value"], result["released"]["best_value"]["value"])
print("privacy:", result["privacy"]["equivalent_epsilon_delta"], "for", result["privacy"]["protected_unit"])
