#!/usr/bin/env python3
"""Summarises run.sh's and run-real.sh's output folders: per folder, the mean simple regret (± standard
error over the runs) after 10, 30 and 50 GP-UCB iterations and at the end (T), and the regime each run
reached (σ_min, ω, lifted).
Usage: summarise.py OUT_DIR"""
import csv
import json
import math
import pathlib
import sys


def regrets(folder):
    curves, regimes = [], set()
    for repeat in sorted(folder.glob("repeat-*")):
        with open(repeat / "trace.csv") as f:
            rows = list(csv.DictReader(f))
        curves.append([float(r["simple_regret"]) for r in rows])
        only = json.load(open(repeat / "result.json")).get("evaluation_only", {})
        if "lifted" in only:
            regimes.add((round(only["sigma_min"]["value"], 2), round(only["omega"]["value"], 1),
                         int(only["lifted"]["value"])))
    return curves, regimes


def mean_se(values):
    m = sum(values) / len(values)
    v = sum((x - m) ** 2 for x in values) / (len(values) - 1)
    return m, math.sqrt(v / len(values))


out = pathlib.Path(sys.argv[1])
print("| run | runs | S_10 | S_30 | S_50 | T: S_T | σ_min, ω, lifted |")
print("|---|---|---|---|---|---|---|")
for folder in sorted(p for p in out.iterdir() if p.is_dir()):
    curves, regimes = regrets(folder)
    if not curves:
        continue
    cells = []
    for t in (10, 30, 50):
        m, se = mean_se([c[t] for c in curves])
        cells.append(f"{m:.3f} ± {se:.3f}")
    m, se = mean_se([c[-1] for c in curves])
    cells.append(f"{len(curves[0]) - 1}: {m:.3f} ± {se:.3f}")
    regime = "; ".join(f"{s}, {w}, {'yes' if l else 'no'}" for s, w, l in sorted(regimes)) or "—"
    print(f"| {folder.name} | {len(curves)} | {' | '.join(cells)} | {regime} |")
