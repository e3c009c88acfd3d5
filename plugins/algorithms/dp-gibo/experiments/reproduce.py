#!/usr/bin/env python3
"""DP-GIBO's reproduction: Sopa, Marusic, Avella-Medina & Cunningham, "Scalable Differentially Private
Bayesian Optimization" (seed 003, the newer version; seed 000, the earlier one).

Runs every config of this folder (5 seeded repeats each) and writes the tables and the findings of
docs/methods/dp-gibo.md from their numbers, so that no figure on that page is typed by hand:

    python3 plugins/algorithms/dp-gibo/experiments/reproduce.py --dpbo build/bin/dpbo --jobs 1
    python3 plugins/algorithms/dp-gibo/experiments/reproduce.py --check      # the drift test

Each cell's numbers are `dpbo summary --json` plus, per repeat, the reported loss (`value.repeat.K`:
f(θ_T) for the private methods, the best value found for the baselines), the evaluations used and,
where the trace has them, the privacy noise's norm and the distance to the optimum along the path.
"""
import csv
import json
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[4] / "apps" / "reproduce"))
from reproduction import Reproduction, ReproductionError, number, repeat_folders  # noqa: E402

EXPERIMENTS = "plugins/algorithms/dp-gibo/experiments"
PAGE = "docs/methods/dp-gibo.md"

# The trace row (iteration) at which the Huber example's early lag is read: the paper says DP-GIBO
# lags DP-GD "in the first few iterations" of its 100.
EARLY_ITERATION = 10


# --- reading a finished cell ---------------------------------------------------------------------
def reported_value(result, path, metric):
    """The figure a cell reports: `metric` when given (an evaluation-only scalar, e.g. the distance to
    the optimum); otherwise f(θ_T) when the method releases a final iterate (DP-GIBO, DP-GD), and the
    best value found when it does not (random search, GP-UCB, GIBO)."""
    if metric:
        if metric not in result.get("evaluation_only", {}):
            raise ReproductionError(f"{path}: no evaluation_only.{metric}")
        return result["evaluation_only"][metric]["value"]
    for final in ("final_value", "objective_value"):   # DP-GIBO's name for f(θ_T), DP-GD's
        if final in result.get("evaluation_only", {}):
            return result["evaluation_only"][final]["value"]
    if "best_value" in result.get("released", {}):
        return result["released"]["best_value"]["value"]
    raise ReproductionError(f"{path}: none of evaluation_only.final_value, evaluation_only.objective_value, "
                            "released.best_value")


def read_trace(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def median_of_column(rows, column):
    values = [float(row[column]) for row in rows if row.get(column) not in (None, "")]
    return statistics.median(values) if values else None


def per_repeat_numbers(folder, metric=None):
    """The numbers the tables compare repeat by repeat, and their medians and ranges."""
    numbers = {}
    values, evaluations, gaps, noise, first_distance, early_distance = [], [], [], [], [], []
    cosine_first, cosine_run = [], []
    for index, repeat in enumerate(repeat_folders(folder), start=1):
        result_path = repeat / "result.json"
        result = json.loads(result_path.read_text())
        value = reported_value(result, result_path, metric)
        values.append(value)
        evaluations.append(result["evaluations"])
        numbers[f"value.repeat.{index}"] = value
        numbers[f"evaluations.repeat.{index}"] = result["evaluations"]
        truth = result["evaluation_only"].get("objective_loss_at_true_lengthscales")
        if truth is not None:
            numbers["loss_at_true_lengthscales"] = truth["value"]
            gaps.append(value - truth["value"])
        trace = read_trace(repeat / "trace.csv")
        if trace and "estimate_cosine" in trace[0]:
            # The gradient estimate's cosine with the exact mean gradient: at the first step and over the run.
            cosine_first.append(float(trace[0]["estimate_cosine"]))
            cosine_run.append(median_of_column(trace, "estimate_cosine"))
        if trace and "noise_norm" in trace[0]:
            noise.append(median_of_column(trace, "noise_norm"))
        if trace and "distance_to_optimum" in trace[0]:
            first_distance.append(float(trace[0]["distance_to_optimum"]))
            if len(trace) >= EARLY_ITERATION:
                early_distance.append(float(trace[EARLY_ITERATION - 1]["distance_to_optimum"]))
    for name, series in (("value", values), ("evaluations", evaluations), ("gap", gaps),
                         ("noise_norm", noise), ("first_distance", first_distance),
                         ("early_distance", early_distance), ("cosine_first", cosine_first),
                         ("cosine_run", cosine_run)):
        if series:
            numbers[f"{name}.median"] = statistics.median(series)
            numbers[f"{name}.min"] = min(series)
            numbers[f"{name}.max"] = max(series)
    return numbers


# --- the cells -----------------------------------------------------------------------------------
def arguments(config, *settings):
    """`dpbo run` arguments: one config of this folder and KEY=VALUE overrides."""
    args = ["--config", f"{EXPERIMENTS}/{config}.ini"]
    for setting in settings:
        args += ["--set", setting]
    return args


r = Reproduction("dp-gibo", PAGE, __file__)


# The examples whose figure is the final distance to the optimum (the paper plots the estimates'
# path towards the MLE or the true parameter), not the loss.
DISTANCE_CONFIGS = ("normal-location-", "huber-regression-")


def cell(name, config=None, *settings):
    config = config or name
    metric = "distance_to_optimum" if config.startswith(DISTANCE_CONFIGS) else None
    return r.cell(name, arguments(config, *settings), extract=lambda folder, _: per_repeat_numbers(folder, metric))


# Every config of this folder, under its own name.
EXAMPLES = [
    # (cell, what differs / the settings, what is reported)
    ("normal-location-mu2", "B = 0.5 (the authors' code), b = 3, T = 150, polynomial kernel, μ = 2",
     "final distance to the MLE"),
    ("normal-location-mu0.5", "the same at μ = 0.5", "same"),
    ("normal-location-mu2-paper-B", "B = 1 (the paper's), μ = 2", "same"),
    ("normal-location-mu0.5-paper-B", "B = 1, μ = 0.5", "same"),
    ("huber-regression-dp-gibo", "μ = 1, T = 100, b = 2, RBF, B = 1", "final distance to the empirical minimiser"),
    ("huber-regression-dp-gd", "the baseline, same μ, T, B; plain steps η = 0.2", "same"),
    ("huber-regression-dp-gibo-plain-steps", "DP-GIBO with DP-GD's plain steps η = 0.2 (default: AdaGrad η = 0.3)",
     "same"),
    ("gp-lengthscales-mu1", "d = 15, n = 1000 validation records, T = 25, B = 3, ε = 0.5, μ = 1, "
     "AdaGrad η = 0.3, from the box's centre", "final validation loss f(θ_T)"),
    ("gp-lengthscales-mu1-paper-estimator", "the authors' code's estimator on the same data: a fresh GP of "
     "only the new batch each step, uncentred losses", "same"),
    ("gp-lengthscales-mu1-random-starts", "as `-mu1`, from random starts (the paper's protocol)", "same"),
    ("gp-lengthscales-dp-gd", "DP-GD with the exact per-record gradients, same B, μ, T, steps and start", "same"),
    ("gp-lengthscales-dp-gd-random-starts", "the same from `-random-starts`' starts", "same"),
    ("gp-lengthscales-mu0.25", "μ = 0.25", "same"),
    ("gp-lengthscales-nonprivate", "μ = 10⁶ (the paper's \"no privacy\")", "same"),
    ("gp-lengthscales-random-search", "400 evaluations, not private", "best validation loss found"),
    ("gp-lengthscales-gp-ucb", "400 evaluations, not private, ARD Matérn-5/2 refitted every 20", "same"),
    ("gp-lengthscales-noisy-right", "f + 0.01·Z observed, the GP told σ = 0.01", "final validation loss"),
    ("gp-lengthscales-noisy-over", "the GP told σ = 1", "same"),
    ("gp-lengthscales-noisy-under", "the GP told σ = 0.0001", "same"),
    ("svr-tuning-dp-gibo", "d = 103, b = 104, T = 20, μ = 1, B = 1, AdaGrad η = 0.8, random starts; 200 "
     "training / 482 validation rows of the shipped sample", "final validation MSE (standardised target)"),
    ("svr-tuning-random-search", "2080 evaluations, not private", "best validation MSE"),
    ("svr-tuning-gibo", "2080 evaluations, not private, from the box's centre", "same"),
]
for name, _, _ in EXAMPLES:
    cell(name)

# Variants the findings quote: other data draws, the unit-cube inputs, the authors' estimator from
# random starts.
DATA_SEEDS = (1, 2)
for seed in DATA_SEEDS:
    cell(f"gp-lengthscales-mu1-data{seed}", "gp-lengthscales-mu1", f"objective.data_seed={seed}")
    cell(f"gp-lengthscales-random-search-data{seed}", "gp-lengthscales-random-search", f"objective.data_seed={seed}")
UNIT_CUBE = ("objective.input_range=1", "objective.data_noise=0.195")
for config in ("gp-lengthscales-mu1", "gp-lengthscales-random-search"):
    cell(f"{config}-unit-cube", config, *UNIT_CUBE)
cell("gp-lengthscales-mu1-paper-estimator-random-starts", "gp-lengthscales-mu1-paper-estimator",
     "algorithm.start=random")
# The method description's comparison of the gradient estimate with and without centring.
cell("gp-lengthscales-mu1-uncentred", "gp-lengthscales-mu1", "algorithm.centre_losses=false")


def render_estimator_cosine(n):
    centred, uncentred = n["gp-lengthscales-mu1"], n["gp-lengthscales-mu1-uncentred"]
    return (f"On `gp-lengthscales-mu1` the estimate's cosine with the exact gradient (`estimate_cosine`, median "
            f"of 5 repeats) is {number(uncentred['cosine_first.median'])} at the first step and "
            f"{number(uncentred['cosine_run.median'])} in median over the run without centring; centred, "
            f"{number(centred['cosine_first.median'])} and {number(centred['cosine_run.median'])} "
            "(`centre_losses = false` restores the paper's estimator).")


r.table("estimator-cosine", ["gp-lengthscales-mu1", "gp-lengthscales-mu1-uncentred"], render_estimator_cosine)

# Fig. 2, top row of the left block: the bias tolerance ε.
BIAS_TOLERANCES = ("0.1", "0.3", "0.5", "1", "2")
# ε = 0.5 is gp-lengthscales-mu1.ini's setting: that cell stands for it.
BIAS_TOLERANCE_CELLS = {t: "gp-lengthscales-mu1" if t == "0.5" else f"bias-tolerance-{t}" for t in BIAS_TOLERANCES}
for tolerance, name in BIAS_TOLERANCE_CELLS.items():
    if name not in r.cells:
        cell(name, "gp-lengthscales-bias-tolerance", f"algorithm.bias_tolerance={tolerance}")

# Fig. 2, bottom right of the left block: the evaluation noise s (the GP told s²; s = 0 gets a 1e-6
# jitter, the normal-location configs' value).
EVALUATION_NOISE = ("0", "0.01", "0.1", "0.3")


def noise_variance(stddev):
    return "1e-6" if float(stddev) == 0 else repr(float(stddev) ** 2)


for stddev in EVALUATION_NOISE:
    cell(f"evaluation-noise-{stddev}", "gp-lengthscales-evaluation-noise", f"objective.noise_stddev={stddev}",
         f"surrogate.noise_variance={noise_variance(stddev)}")

# Fig. 1: the dimension, each method with 25·(d + 1) evaluations (d = 15 is the -mu1 family).
DIMENSIONS = (5, 10, 15, 20)
DIMENSION_METHODS = {"dp-gibo": "gp-lengthscales-dimension", "random-search": "gp-lengthscales-dimension-random-search",
                     "gp-ucb": "gp-lengthscales-dimension-gp-ucb"}
D15_CELLS = {"dp-gibo": "gp-lengthscales-mu1", "random-search": "gp-lengthscales-random-search",
             "gp-ucb": "gp-lengthscales-gp-ucb"}


def dimension_cell(method, dimension):
    if dimension == 15:
        return D15_CELLS[method]
    name = f"dimension-{dimension}-{method}"
    if name not in r.cells:
        settings = [f"objective.dim={dimension}"]
        if method != "dp-gibo":
            settings.append(f"algorithm.budget={25 * (dimension + 1)}")
        cell(name, DIMENSION_METHODS[method], *settings)
    return name


DIMENSION_CELLS = [dimension_cell(m, d) for d in DIMENSIONS for m in DIMENSION_METHODS]

# Seed 000's d = 10 (§4.3) and d = 33 (§4.4) examples.
for name in ("gp-lengthscales-d10", "gp-lengthscales-d10-random-search", "gp-lengthscales-d10-gp-ucb",
             "svr-tuning-d33", "svr-tuning-d33-gibo", "svr-tuning-d33-random-search"):
    cell(name)
cell("gp-lengthscales-d10-centre", "gp-lengthscales-d10", "algorithm.start=centre")


# --- formatting and comparisons --------------------------------------------------------------------
def value_range(numbers, key="value", digits=3):
    return (f"{number(numbers[key + '.median'], digits)} "
            f"({number(numbers[key + '.min'], digits)}–{number(numbers[key + '.max'], digits)})")


def evaluation_range(numbers):
    low, high = int(numbers["evaluations.min"]), int(numbers["evaluations.max"])
    return str(low) if low == high else f"{low}–{high}"


def repeat_values(numbers):
    values, index = [], 1
    while f"value.repeat.{index}" in numbers:
        values.append(numbers[f"value.repeat.{index}"])
        index += 1
    return values


def wins(numbers, better, worse):
    """In how many repeats `better`'s loss is below `worse`'s (repeat k against repeat k), of how many."""
    mine, theirs = repeat_values(numbers[better]), repeat_values(numbers[worse])
    if len(mine) != len(theirs):
        raise ReproductionError(f"cells '{better}' and '{worse}' have {len(mine)} and {len(theirs)} repeats")
    return sum(a < b for a, b in zip(mine, theirs)), len(mine)


def median(numbers, name):
    return numbers[name]["value.median"]


def ranges_overlap(a, b):
    return a["value.min"] <= b["value.max"] and b["value.min"] <= a["value.max"]


# --- the tables ----------------------------------------------------------------------------------
def render_examples(numbers):
    lines = ["| config | settings | what is reported | dpbo: median (min–max) over 5 repeats | evaluations |",
             "|---|---|---|---|---|"]
    for name, settings, reported in EXAMPLES:
        n = numbers[name]
        lines.append(f"| `{name}` | {settings} | {reported} | {value_range(n)} | {evaluation_range(n)} |")
    return "\n".join(lines)


def adagrad_reach(rate, steps):
    """The farthest AdaGrad moves a coordinate whose gradient keeps one sign and size: step t is
    rate/√t, so the sum of rate/√t over the steps."""
    return sum(rate / t ** 0.5 for t in range(1, steps + 1))


def times_relation(mine, theirs):
    """'5.9 times below' or '1.2 times above': a ratio of two losses, worded by its direction."""
    if mine <= theirs:
        return f"{number(theirs / mine, 2)} times below"
    return f"{number(mine / theirs, 2)} times above"


def render_gp_findings(numbers):
    mu1, rs, ucb = "gp-lengthscales-mu1", "gp-lengthscales-random-search", "gp-lengthscales-gp-ucb"
    n = numbers
    truth = n[mu1]["loss_at_true_lengthscales"]
    won_rs, total = wins(n, mu1, rs)
    won_ucb, _ = wins(n, mu1, ucb)
    parts = []
    verdict_rs = ("beats random search in every repeat" if won_rs == total else
                  "beats random search in most repeats" if won_rs > total / 2 else "does not beat random search")
    parts.append(
        f"On `gp-lengthscales` (d = 15, μ = 1) DP-GIBO's median final loss is {number(median(n, mu1))} with "
        f"{evaluation_range(n[mu1])} evaluations; the best of 400 random settings is {number(median(n, rs))} "
        f"(DP-GIBO lower in {won_rs} of {total} repeats, repeat k against repeat k) and 400 evaluations of "
        f"GP-UCB give {number(median(n, ucb))} (DP-GIBO lower in {won_ucb} of {total}). So DP-GIBO {verdict_rs} "
        f"here, by {number(median(n, rs) - median(n, mu1), 2)} in median — a margin "
        f"{'smaller' if median(n, rs) - median(n, mu1) < n[mu1]['value.max'] - n[mu1]['value.min'] else 'larger'} "
        f"than the spread of its own five repeats ({value_range(n[mu1])}).")
    seeds = []
    for seed in DATA_SEEDS:
        a, b = f"gp-lengthscales-mu1-data{seed}", f"gp-lengthscales-random-search-data{seed}"
        won, total = wins(n, a, b)
        seeds.append(f"data seed {seed} (`--set objective.data_seed={seed}`): {number(median(n, a))} against "
                     f"random search's {number(median(n, b))}, lower in {won} of {total}")
    parts.append("On other data draws: " + "; ".join(seeds) + ".")
    nonprivate, dpgd = "gp-lengthscales-nonprivate", "gp-lengthscales-dp-gd"
    parts.append(
        f"Without privacy DP-GIBO ends at {number(median(n, nonprivate))} against {number(truth)} at the true "
        f"length-scales. DP-GD on the exact per-record gradients, at the same μ, B, T and steps, gets "
        f"{value_range(n[dpgd])} against DP-GIBO's {value_range(n[mu1])}: "
        + ("the ranges overlap, so at this n the gap to the non-private loss is the price of privacy more than "
           "of the gradient estimate, as the paper argues." if ranges_overlap(n[dpgd], n[mu1]) else
           "the ranges do not overlap, so the gradient estimate costs more than privacy here."))
    paper = "gp-lengthscales-mu1-paper-estimator"
    paper_random, random_starts = "gp-lengthscales-mu1-paper-estimator-random-starts", "gp-lengthscales-mu1-random-starts"
    parts.append(
        f"The authors' estimator run inside dpbo on the same data (`{paper}`) gives {value_range(n[paper])} with "
        f"{evaluation_range(n[paper])} evaluations, against dpbo's defaults' {number(median(n, mu1))} with "
        f"{evaluation_range(n[mu1])}; from random starts (`--set algorithm.start=random`) "
        f"{number(median(n, paper_random))} against {number(median(n, random_starts))}"
        + (" — within each other's spread." if ranges_overlap(n[paper_random], n[random_starts]) else "."))
    dpgd_random = "gp-lengthscales-dp-gd-random-starts"
    bullet_random = (
        f"- From random starts (`-random-starts`, the paper's protocol) the median is "
        f"{number(median(n, random_starts))}, "
        f"{'above' if median(n, random_starts) > median(n, rs) else 'below'} random search's "
        f"{number(median(n, rs))}. 25 AdaGrad steps of η = 0.3 move a coordinate by at most about "
        f"{number(adagrad_reach(0.3, 25), 2)} (a "
        f"gradient of constant sign and size), far less once large first gradients have filled AdaGrad's "
        f"accumulator, so runs that start far away stop on the way. DP-GD with the exact per-record "
        f"gradients from the same starts gets {number(median(n, dpgd_random))}: a better gradient does not fix "
        f"it. The comparisons above start at the box's centre, dpbo's default θ⁽⁰⁾ and equally "
        f"data-independent.")
    cube = {c: f"{c}-unit-cube" for c in (mu1, rs)}
    bullet_cube = (
        f"- On inputs in the unit cube (`--set objective.input_range=1 --set objective.data_noise=0.195`, an "
        f"earlier default), where length-scales above about 2 all fit alike, random search's best of 400 is "
        f"{number(median(n, cube[rs]))} (DP-GIBO lower in {wins(n, cube[mu1], cube[rs])[0]} of 5), against DP-GIBO's "
        f"{number(median(n, cube[mu1]))} from the centre (loss at the true length-scales "
        f"{number(n[cube[mu1]]['loss_at_true_lengthscales'])}).")
    noisy = {k: f"gp-lengthscales-noisy-{k}" for k in ("right", "over", "under")}
    ordered = sorted(noisy, key=lambda k: median(n, noisy[k]))
    spread = median(n, noisy[ordered[-1]]) - median(n, noisy[ordered[0]])
    noise_norm = n[mu1]["noise_norm.median"]
    noisy_text = (
        f"Noisy observations (appendix E.5): the medians are σ right {number(median(n, noisy['right']))}, over "
        f"{number(median(n, noisy['over']))}, under {number(median(n, noisy['under']))} (lowest: {ordered[0]}; "
        f"they span {number(spread, 2)}), and under-estimating σ "
        f"{'ends above' if median(n, noisy['under']) > median(n, rs) else 'does not end above'} random "
        f"search's {number(median(n, rs))}. The privacy noise (median norm {number(noise_norm, 2)} per step "
        f"at μ = 1) is far larger than the evaluation noise (0.01).")
    svr, svr_rs, svr_gibo = "svr-tuning-dp-gibo", "svr-tuning-random-search", "svr-tuning-gibo"
    svr_text = (
        f"On the 682-row CT sample DP-GIBO's median validation MSE ({number(median(n, svr))}) is "
        f"{times_relation(median(n, svr), median(n, svr_rs))} random search's "
        f"({number(median(n, svr_rs))}; DP-GIBO lower in {wins(n, svr, svr_rs)[0]} of 5), and non-private "
        f"GIBO from the box's centre reaches {number(median(n, svr_gibo))}; the paper's scale needs the full "
        f"UCI file (`objective.data_file`, `train_rows = 1000`, `validation_rows = 9000`).")
    return ("\n\n".join(parts) + " Two settings move the comparison with random search:\n\n" + bullet_random
            + "\n" + bullet_cube
            + "\n\n" + noisy_text + "\n\n" + svr_text)


def render_huber_step_rule(numbers):
    n = numbers["huber-regression-dp-gibo-plain-steps"]
    return (f"With DP-GD's step rule (`huber-regression-dp-gibo-plain-steps.ini`: plain steps, η = 0.2) DP-GIBO is "
            f"{value_range(n, 'early_distance')} from the empirical minimiser at step {EARLY_ITERATION} and ends at "
            f"{value_range(n)} (median, min–max over 5 repeats); the table at the top compares both step rules "
            f"with DP-GD.")


def render_normal_location(numbers):
    lines = ["| μ | B = 0.5 (the authors' code) | B = 1 (the paper, appendix E.3 / C.1) |", "|---|---|---|"]
    for mu in ("2", "0.5"):
        authors, paper = numbers[f"normal-location-mu{mu}"], numbers[f"normal-location-mu{mu}-paper-B"]
        lines.append(f"| {mu} | {value_range(authors)} | {value_range(paper)} |")
    lines.append("")
    lines.append("Final distance to the MLE, median (min–max) over 5 repeats. Starting distance (after the first "
                 f"step): {number(numbers['normal-location-mu2-paper-B']['first_distance.median'])}.")
    return "\n".join(lines)


def render_dimension(numbers):
    lines = ["| d | evaluations | DP-GIBO (μ = 1) | random search | GP-UCB | loss at the true length-scales |",
             "|---|---|---|---|---|---|"]
    for d in DIMENSIONS:
        gibo, rs, ucb = (numbers[dimension_cell(m, d)] for m in DIMENSION_METHODS)
        lines.append(f"| {d} | DP-GIBO {evaluation_range(gibo)}, the others {evaluation_range(rs)} | "
                     f"{value_range(gibo, 'gap')} | {value_range(rs, 'gap')} | {value_range(ucb, 'gap')} | "
                     f"{number(gibo['loss_at_true_lengthscales'])} |")
    lines.append("")
    lines.append("Each cell: the loss reached minus the loss at the true length-scales (DP-GIBO: f(θ_T); the "
                 "others: the best value found), median (min–max) over 5 repeats. " + dimension_finding(numbers))
    return "\n".join(lines)


def dimension_growth(numbers, method):
    """How much a method's median gap grows from the smallest to the largest d."""
    return (numbers[dimension_cell(method, DIMENSIONS[-1])]["gap.median"]
            - numbers[dimension_cell(method, DIMENSIONS[0])]["gap.median"])


def dimension_best_at_largest(numbers):
    gaps = {m: numbers[dimension_cell(m, DIMENSIONS[-1])]["gap.median"] for m in DIMENSION_METHODS}
    return min(gaps, key=gaps.get)


def dimension_finding(numbers):
    growth = {m: dimension_growth(numbers, m) for m in DIMENSION_METHODS}
    return (f"From d = {DIMENSIONS[0]} to d = {DIMENSIONS[-1]} the median gap grows by "
            + ", ".join(f"{number(g, 2)} ({m})" for m, g in growth.items())
            + f"; at d = {DIMENSIONS[-1]} the smallest is {dimension_best_at_largest(numbers)}'s.")


def render_bias_tolerance(numbers):
    lines = ["| ε (bias tolerance) | evaluations, median (min–max) | final loss f(θ_T) |", "|---|---|---|"]
    for tolerance in BIAS_TOLERANCES:
        n = numbers[BIAS_TOLERANCE_CELLS[tolerance]]
        lines.append(f"| {tolerance} | {value_range(n, 'evaluations')} | {value_range(n)} |")
    return "\n".join(lines)


def render_evaluation_noise(numbers):
    lines = ["| evaluation noise s (GP told s²) | final loss f(θ_T), without noise |", "|---|---|"]
    for stddev in EVALUATION_NOISE:
        lines.append(f"| {stddev} | {value_range(numbers[f'evaluation-noise-{stddev}'])} |")
    return "\n".join(lines)


def render_seed000(numbers):
    lines = ["| example (seed 000) | method | evaluations | reported loss, median (min–max) |", "|---|---|---|---|"]
    rows = [("§4.3, d = 10", "DP-GIBO (μ = 1, b = 11, B = 1, random starts)", "gp-lengthscales-d10"),
            ("", "DP-GIBO from the box's centre", "gp-lengthscales-d10-centre"),
            ("", "random search", "gp-lengthscales-d10-random-search"),
            ("", "GP-UCB", "gp-lengthscales-d10-gp-ucb"),
            ("§4.4, d = 33", "DP-GIBO (μ = 1, b = 34, B = 1)", "svr-tuning-d33"),
            ("", "GIBO (not private)", "svr-tuning-d33-gibo"),
            ("", "random search", "svr-tuning-d33-random-search")]
    for example, method, name in rows:
        n = numbers[name]
        lines.append(f"| {example} | {method} (`{name}`) | {evaluation_range(n)} | {value_range(n)} |")
    truth = numbers["gp-lengthscales-d10"]["loss_at_true_lengthscales"]
    lines.append("")
    lines.append(f"d = 10: validation loss; at the true length-scales it is {number(truth)}. d = 33: validation "
                 "MSE of the standardised target.")
    return "\n".join(lines)


# --- the paper table: each item's rule, written once ---------------------------------------------------
def holds(flag):
    return "yes" if flag else "**no**"


def paper_rows(n):
    """(paper item, the paper's figure, dpbo's figure, holds?, note with the rule)."""
    rows = []
    a, b = n["normal-location-mu2-paper-B"], n["normal-location-mu0.5-paper-B"]
    rows.append((
        "Normal location, B = 1 (003 E.3 / 000 §4.1)",
        "\"both the μ = 2 and μ = 0.5 private estimates move to the actual value of the MLE … the oscillations "
        "around the true value are bigger\" at μ = 0.5 (Fig. 3 / Fig. 1)",
        f"final distance μ = 2: {value_range(a)}; μ = 0.5: {value_range(b)}; after step 1: "
        f"{number(a['first_distance.median'])}",
        holds(a["value.median"] < b["value.median"] and b["value.max"] < a["first_distance.median"]),
        "rule: μ = 0.5's median distance above μ = 2's, and every final distance below the first step's"))
    a, b = n["normal-location-mu2"], n["normal-location-mu0.5"]
    rows.append((
        "Normal location, B = 0.5 (the authors' code)", "the same statement",
        f"μ = 2: {value_range(a)}; μ = 0.5: {value_range(b)}",
        holds(a["value.median"] < b["value.median"] and b["value.max"] < a["first_distance.median"]),
        "same rule"))
    gd = n["huber-regression-dp-gd"]
    for cell_name, steps in (("huber-regression-dp-gibo", "DP-GIBO's default AdaGrad η = 0.3"),
                             ("huber-regression-dp-gibo-plain-steps", "DP-GIBO with DP-GD's plain steps η = 0.2")):
        gibo = n[cell_name]
        lags = gibo["early_distance.median"] > gd["early_distance.median"]
        rows.append((
            f"Huber regression vs DP-GD (003 E.4 / 000 §4.2), {steps}",
            "\"a slight lag … in the DP-GIBO estimates … after several iterations, both estimates perform "
            "equally well\" (Fig. 4 / Fig. 2)",
            f"distance at step {EARLY_ITERATION}: DP-GIBO {value_range(gibo, 'early_distance')}, DP-GD "
            f"{value_range(gd, 'early_distance')}; final: {value_range(gibo)} vs {value_range(gd)}",
            holds(lags and ranges_overlap(gibo, gd)),
            f"rule: DP-GIBO's median distance at step {EARLY_ITERATION} above DP-GD's (lag: {holds(lags)}), and "
            f"the final ranges overlap ({holds(ranges_overlap(gibo, gd))}); the paper does not state DP-GIBO's "
            f"step rule"))
    strong, mid, none = (n[c] for c in ("gp-lengthscales-mu0.25", "gp-lengthscales-mu1", "gp-lengthscales-nonprivate"))
    rows.append((
        "GP length-scales, privacy levels (003 Fig. 2 bottom left)",
        "\"high levels of privacy come at a significant suboptimality gap cost\"",
        f"μ = 0.25: {number(strong['value.median'])}; μ = 1: {number(mid['value.median'])}; no privacy: "
        f"{number(none['value.median'])}",
        holds(strong["value.median"] > mid["value.median"] > none["value.median"]),
        "rule: the medians order as the privacy levels"))
    bias = [n[BIAS_TOLERANCE_CELLS[t]] for t in BIAS_TOLERANCES]
    fewer = all(x["evaluations.median"] >= y["evaluations.median"] for x, y in zip(bias, bias[1:]))
    worse = bias[-1]["value.median"] > bias[0]["value.median"]
    t03, t05 = n[BIAS_TOLERANCE_CELLS["0.3"]], n[BIAS_TOLERANCE_CELLS["0.5"]]
    rows.append((
        "Bias tolerance ε (003 Fig. 2 top left, §4.1)",
        "\"higher ε leads to a lower number of function evaluations … but the final attained loss will be "
        "worse … ε = 0.3 and ε = 0.5 producing roughly the same final loss\"",
        f"evaluations {', '.join(number(x['evaluations.median']) for x in bias)}; loss "
        f"{', '.join(number(x['value.median']) for x in bias)} (ε = {', '.join(BIAS_TOLERANCES)})",
        holds(fewer and worse and ranges_overlap(t03, t05)),
        f"rule: median evaluations non-increasing in ε; loss at ε = {BIAS_TOLERANCES[-1]} above ε = "
        f"{BIAS_TOLERANCES[0]}; ε = 0.3 and 0.5 ranges overlap (here: evaluations {holds(fewer)}, loss "
        f"{holds(worse)}, 0.3 ≈ 0.5 {holds(ranges_overlap(t03, t05))})"))
    noise = [n[f"evaluation-noise-{s}"] for s in EVALUATION_NOISE]
    low_alike = ranges_overlap(noise[0], noise[1])
    high_worse = noise[-1]["value.median"] > noise[0]["value.max"]
    rows.append((
        "Evaluation noise (003 Fig. 2 bottom right, §4.1)",
        "\"the noiseless and low noise regimes perform similarly, whereas the large noise regime suffers\" "
        "(levels not stated)",
        ", ".join(f"s = {s}: {number(x['value.median'])}" for s, x in zip(EVALUATION_NOISE, noise)),
        holds(low_alike and high_worse),
        f"rule: s = 0 and s = {EVALUATION_NOISE[1]} ranges overlap ({holds(low_alike)}); s = {EVALUATION_NOISE[-1]}'s "
        f"median above s = 0's worst repeat ({holds(high_worse)})"))
    growth = {m: dimension_growth(n, m) for m in DIMENSION_METHODS}
    best = dimension_best_at_largest(n)
    rows.append((
        "Scaling with the dimension (003 Fig. 1)",
        "\"The performance of Global BO methods, as well as random grid search methods, depend greatly on the "
        "dimension … By privatizing a Local BO approach, we significantly improve performance in higher "
        "dimensions\"",
        f"gap growth d = {DIMENSIONS[0]}→{DIMENSIONS[-1]}: " + ", ".join(f"{m} {number(g, 2)}" for m, g in growth.items())
        + f"; smallest gap at d = {DIMENSIONS[-1]}: {best}",
        holds(best == "dp-gibo" and growth["dp-gibo"] < min(growth["random-search"], growth["gp-ucb"])),
        f"rule: DP-GIBO's median gap grows least with d and is the smallest at d = {DIMENSIONS[-1]}"))
    for label, mu1, other in (("random search", "gp-lengthscales-mu1", "gp-lengthscales-random-search"),
                              ("GP-UCB", "gp-lengthscales-mu1", "gp-lengthscales-gp-ucb")):
        won, total = wins(n, mu1, other)
        rows.append((
            f"GP length-scales, DP-GIBO vs {label}, d = 15 (003 §1, §5)",
            "\"our approach outperforms both random-search based methods and global Bayesian Optimization "
            "techniques\"",
            f"{number(median(n, mu1))} vs {number(median(n, other))}; lower in {won} of {total} repeats",
            holds(median(n, mu1) < median(n, other) and won > total / 2),
            "rule: lower median and lower in most repeats (repeat k vs repeat k); from the box's centre"))
    random_starts, rs = "gp-lengthscales-mu1-random-starts", "gp-lengthscales-random-search"
    rows.append((
        "the same from random starts (003 E.1: \"random restarts\")", "as above",
        f"{number(median(n, random_starts))} vs random search {number(median(n, rs))}",
        holds(median(n, random_starts) < median(n, rs)), "rule: lower median"))
    right, over, under = (n[f"gp-lengthscales-noisy-{k}"] for k in ("right", "over", "under"))
    rows.append((
        "Noisy observations (003 E.5 / 000 C.5)",
        "\"the correct choice of the noise parameter results in the best average performance … underestimating "
        "… leads to worse performance than a random search\"",
        f"right {number(right['value.median'])}, over {number(over['value.median'])}, under "
        f"{number(under['value.median'])}; random search {number(median(n, rs))}",
        holds(right["value.median"] < min(over["value.median"], under["value.median"])
              and under["value.median"] > median(n, rs)),
        "rule: σ right has the lowest median, σ under's median above random search's"))
    for label, svr, svr_gibo, svr_rs, where in (
            ("SVM, d = 103 (003 §4.2, E.2)", "svr-tuning-dp-gibo", "svr-tuning-gibo", "svr-tuning-random-search",
             "1000 / 9000 rows"),
            ("SVM, d = 33 (000 §4.4, C.4)", "svr-tuning-d33", "svr-tuning-d33-gibo", "svr-tuning-d33-random-search",
             "5000 / 5000 rows")):
        rows.append((
            label,
            "DP-GIBO \"significantly outperforms random search\"; its gap \"constantly larger than … in the "
            "non-privatized case\"",
            f"DP-GIBO {number(median(n, svr))}, GIBO {number(median(n, svr_gibo))}, random search "
            f"{number(median(n, svr_rs))}",
            holds(median(n, svr_gibo) < median(n, svr) < median(n, svr_rs)),
            f"rule: GIBO < DP-GIBO < random search in median; 200 / 482 rows of the shipped sample (paper: {where})"))
    d10, d10_rs, d10_ucb = (n[c] for c in ("gp-lengthscales-d10", "gp-lengthscales-d10-random-search",
                                           "gp-lengthscales-d10-gp-ucb"))
    rows.append((
        "GP length-scales, d = 10 (000 §4.3, Fig. 4 top)",
        "\"Vanilla BO struggles in d = 10 dimensions with only 265 function evaluations, and our method "
        "performs significantly better\"",
        f"DP-GIBO {number(d10['value.median'])}, GP-UCB {number(d10_ucb['value.median'])}, random search "
        f"{number(d10_rs['value.median'])}",
        holds(d10["value.median"] < min(d10_ucb["value.median"], d10_rs["value.median"])),
        "rule: DP-GIBO's median below both; random starts, 2000 records (paper: 4500)"))
    centre = n["gp-lengthscales-d10-centre"]
    rows.append((
        "the same from the box's centre", "as above",
        f"DP-GIBO {number(centre['value.median'])}, GP-UCB {number(d10_ucb['value.median'])}, random search "
        f"{number(d10_rs['value.median'])}",
        holds(centre["value.median"] < min(d10_ucb["value.median"], d10_rs["value.median"])),
        "same rule; θ⁽⁰⁾ the box's centre"))
    return rows


def render_paper(numbers):
    lines = ["| paper item | paper's figure | dpbo's figure | holds? | note |", "|---|---|---|---|---|"]
    for row in paper_rows(numbers):
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


ALL_CELLS = list(r.cells)
r.table("examples", [name for name, _, _ in EXAMPLES], render_examples)
GP_FINDING_CELLS = ["gp-lengthscales-mu1", "gp-lengthscales-random-search", "gp-lengthscales-gp-ucb",
                    "gp-lengthscales-nonprivate", "gp-lengthscales-dp-gd", "gp-lengthscales-dp-gd-random-starts",
                    "gp-lengthscales-mu1-paper-estimator", "gp-lengthscales-mu1-paper-estimator-random-starts",
                    "gp-lengthscales-mu1-random-starts", "gp-lengthscales-noisy-right", "gp-lengthscales-noisy-over",
                    "gp-lengthscales-noisy-under", "svr-tuning-dp-gibo", "svr-tuning-random-search", "svr-tuning-gibo"]
GP_FINDING_CELLS += [f"gp-lengthscales-{k}-data{s}" for s in DATA_SEEDS for k in ("mu1", "random-search")]
GP_FINDING_CELLS += [f"{c}-unit-cube" for c in ("gp-lengthscales-mu1", "gp-lengthscales-random-search")]
r.table("findings", GP_FINDING_CELLS, render_gp_findings)
r.table("huber-step-rule", ["huber-regression-dp-gibo-plain-steps"], render_huber_step_rule)
r.table("normal-location-clipping", ["normal-location-mu2", "normal-location-mu0.5", "normal-location-mu2-paper-B",
                                     "normal-location-mu0.5-paper-B"], render_normal_location)
r.table("dimension", DIMENSION_CELLS, render_dimension)
r.table("bias-tolerance", list(BIAS_TOLERANCE_CELLS.values()), render_bias_tolerance)
r.table("evaluation-noise", [f"evaluation-noise-{s}" for s in EVALUATION_NOISE], render_evaluation_noise)
r.table("seed-000", ["gp-lengthscales-d10", "gp-lengthscales-d10-centre", "gp-lengthscales-d10-random-search",
                     "gp-lengthscales-d10-gp-ucb", "svr-tuning-d33", "svr-tuning-d33-gibo",
                     "svr-tuning-d33-random-search"], render_seed000)
r.table("paper", ALL_CELLS, render_paper)
r.drift("normal-location-mu2")


# --- figures, drawn by `dpbo report` as the paper draws them ----------------------------------------
# (file under docs/figures, the cells drawn together, the start of the report figure's caption)
r.figure("normal-location-distance", ["normal-location-mu2-paper-B", "normal-location-mu0.5-paper-B"],
         "Distance to the optimiser over", "docs/figures/dp-gibo-normal-location-distance.svg")
r.figure("normal-location-bias-noise", ["normal-location-mu0.5-paper-B"],
         "DP-GIBO on normal-location-mu0.5-paper-B: bias proxy and privacy noise",
         "docs/figures/dp-gibo-normal-location-bias-noise.svg")
r.figure("huber-distance", ["huber-regression-dp-gibo", "huber-regression-dp-gd"], "Distance to the optimiser over",
         "docs/figures/dp-gibo-huber-distance.svg")

if __name__ == "__main__":
    sys.exit(r.main())
