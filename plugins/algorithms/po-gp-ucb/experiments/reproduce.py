#!/usr/bin/env python3
"""PO-GP-UCB's reproduction (Kharkovskii, Dai & Low, ICML 2020, §4 and appendix A): runs every setting
and writes the experiment tables of docs/methods/po-gp-ucb.md.

    python3 plugins/algorithms/po-gp-ucb/experiments/reproduce.py [--jobs 2] [--only TABLE]

Every setting is 50 seeded runs (each its own M, noise and initial rows), T GP-UCB steps after 5
random rows; S_t is the simple regret after t steps, mean ± standard error over the 50 runs.
"""
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[4] / "apps" / "reproduce"))
from reproduction import Reproduction, mean_and_standard_error, number, read_trace_column  # noqa: E402

EXPERIMENTS = "plugins/algorithms/po-gp-ucb/experiments"
r = Reproduction("po-gp-ucb", "docs/methods/po-gp-ucb.md", __file__)

# f's ℓ = 1.25 on [0, 10]² is 4.4194 in the release's units (the box mapped onto [−17.68, 17.68]²);
# σ_y² = 1, σ_n² = 1e-5: the hyperparameters "known and reused on Z", as the paper's analysis assumes.
KNOWN = ["--set", "algorithm.lengthscale=4.4194173824159222", "--set", "algorithm.noise_variance=1e-5"]


def regret_at(steps):
    """S_t for each t in `steps` (and at the end), mean and standard error over the runs."""
    def extract(folder, _numbers):
        curves = read_trace_column(folder, "simple_regret")
        out = {}
        for t in list(steps) + [len(curves[0]) - 1]:
            mean, se = mean_and_standard_error(c[t] for c in curves)
            out[f"S_{t}.mean"], out[f"S_{t}.se"] = mean, se
        out["runs"] = len(curves)
        return out
    return extract


def release_cell(dataset, config, release, log_epsilon, rank, known=False, steps=(50,)):
    name = f"{dataset}-{'rp' if release == 'random-projection' else 'np'}-e{log_epsilon}-r{rank}" + (
        "-known" if known else "")
    if name in r.cells:
        return name
    args = ["--config", f"{EXPERIMENTS}/{config}.ini", "--release", release,
            "--set", f"release.epsilon={math.exp(log_epsilon)!r}", "--set", f"release.r={rank}"]
    return r.cell(name, args + (KNOWN if known else []), regret_at(steps))


def baseline_cell(name, config, steps=(50,)):
    return r.cell(name, ["--config", f"{EXPERIMENTS}/{config}.ini"], regret_at(steps))


def s(numbers, t=50):
    return f"{number(numbers[f'S_{t}.mean'], 2)} ± {number(numbers[f'S_{t}.se'], 1)}"


def lifted_mark(numbers):
    return "*" if numbers["evaluation_only.lifted.mean"] > 0 else ""


# ----- the synthetic GP grid (§4, Fig. 2a, Tables 1–3) ----------------------------------------------
FIG2A = [0.0, 0.5, 0.9, 1.1, 1.5]
# The paper's Tables 1–3: ε and its r grid; the largest r the paper finds with σ_min ≥ ω.
GRID_TABLES = [(1.1, [3, 6, 8, 10, 15, 20], 10, [0.073, 0.038, 0.018, 0.014, 0.118, 0.137]),
               (1.3, [3, 9, 12, 15, 20, 30], 15, [0.091, 0.009, 0.019, 0.008, 0.127, 0.134]),
               (1.5, [5, 10, 15, 20, 30, 50], 20, [0.05, 0.021, 0.003, 0.002, 0.094, 0.142])]
LOAN_TABLES = [(2.7, [3, 6, 8, 10, 15, 20], 10, [0.083, 0.088, 0.078, 0.069, 0.081, 0.076]),
               (2.9, [3, 9, 12, 15, 20, 30], 15, [0.091, 0.076, 0.078, 0.077, 0.1, 0.096]),
               (3.1, [5, 10, 15, 20, 30, 50], 20, [0.097, 0.091, 0.069, 0.084, 0.104, 0.127])]
PROPERTY_TABLES = [(2.6, [3, 6, 8, 10, 15, 20], 10, [0.682, 0.516, 0.495, 0.485, 0.485, 0.493]),
                   (2.8, [3, 9, 12, 15, 20, 30], 15, [0.567, 0.553, 0.479, 0.453, 0.493, 0.52]),
                   (3.0, [5, 10, 15, 20, 30, 50], 20, [0.591, 0.523, 0.486, 0.482, 0.489, 0.488])]

grid_baseline = baseline_cell("grid-gp-ucb", "synthetic-grid-gp-ucb")
grid_known_baseline = baseline_cell("grid-gp-ucb-known", "synthetic-grid-gp-ucb-known")
fig2a = {(rel, le): release_cell("grid", "synthetic-grid", rel, le, 10)
         for le in FIG2A for rel in ("random-projection", "noisy-projection")}
fig2a_known = {le: release_cell("grid", "synthetic-grid", "random-projection", le, 10, known=True) for le in FIG2A}
grid_tables = {(le, k, known): release_cell("grid", "synthetic-grid", "random-projection", le, k, known)
               for le, ranks, _, _ in GRID_TABLES for k in ranks for known in (False, True)}


def render_fig2a(n):
    rows = ["| ε | regime at r = 10 | `random-projection` S_50, GP fitted | `random-projection` S_50, GP known "
            "| `noisy-projection` S_50 |", "|---|---|---|---|---|"]
    for le in FIG2A:
        rp = n[fig2a[("random-projection", le)]]
        regime = "lifted (σ_min < ω)" if rp["evaluation_only.lifted.mean"] > 0 else "σ_min ≥ ω"
        rows.append(f"| e^{le} | {regime} | {s(rp)} | {s(n[fig2a_known[le]])} "
                    f"| {s(n[fig2a[('noisy-projection', le)]])} |")
    rows.append(f"| non-private GP-UCB on X | — | {s(n[grid_baseline])} | {s(n[grid_known_baseline])} | — |")
    return "\n".join(rows)


r.table("grid-fig2a", [grid_baseline, grid_known_baseline, *fig2a.values(), *fig2a_known.values()], render_fig2a)


def render_r_tables(tables, cell_of, t, with_known, also=None):
    """Tables 1–9's layout: S_t per r at each ε, dpbo's rows above the paper's; `also` adds S_also in
    parentheses (property prices: S_50 beside the paper's S_100)."""
    def cell_text(c):
        return s(c, t) + lifted_mark(c) + (f" ({number(c[f'S_{also}.mean'], 2)})" if also else "")

    def render(n):
        out = []
        for le, ranks, paper_best, paper in tables:
            variants = [("GP fitted (the paper's MLE)", False)] + ([("GP known", True)] if with_known else [])
            out.append(f"ε = e^{le} (paper: largest r with σ_min ≥ ω is {paper_best}); * = lifted\n")
            out.append("| | " + " | ".join(f"r = {k}" for k in ranks) + " |")
            out.append("|---|" + "---|" * len(ranks))
            for label, known in variants:
                cells = [n[cell_of(le, k, known)] for k in ranks]
                out.append(f"| dpbo, {label} | " + " | ".join(cell_text(c) for c in cells) + " |")
            out.append("| paper | " + " | ".join(
                number(v, 3) + ("*" if k > paper_best else "") for k, v in zip(ranks, paper)) + " |\n")
        return "\n".join(out)
    return render


r.table("grid-tables", list(grid_tables.values()),
        render_r_tables(GRID_TABLES, lambda le, k, known: grid_tables[(le, k, known)], 50, True))

# ----- the real datasets (§4, Fig. 2b–c, Tables 4–9) -------------------------------------------------
LOAN_EPSILONS = [0.5, 1.0, 2.0, 2.9]
PROPERTY_EPSILONS = [0.5, 1.0, 2.0, 2.8]
loan_baseline = baseline_cell("loan-gp-ucb", "loan-roi-gp-ucb")
property_baseline = baseline_cell("property-gp-ucb", "property-price-gp-ucb", steps=(50, 100))
loan_fig = {(rel, le): release_cell("loan", "loan-roi", rel, le, 15)
            for le in LOAN_EPSILONS for rel in ("random-projection", "noisy-projection")}
property_fig = {(rel, le): release_cell("property", "property-price", rel, le, 15, steps=(50, 100))
                for le in PROPERTY_EPSILONS for rel in ("random-projection", "noisy-projection")}
loan_tables = {(le, k, False): release_cell("loan", "loan-roi", "random-projection", le, k)
               for le, ranks, _, _ in LOAN_TABLES for k in ranks}
property_tables = {(le, k, False): release_cell("property", "property-price", "random-projection", le, k,
                                                steps=(50, 100))
                   for le, ranks, _, _ in PROPERTY_TABLES for k in ranks}


def render_real_fig(n):
    rows = ["| dataset | ε | regime at r = 15 | `random-projection` | `noisy-projection` |", "|---|---|---|---|---|"]
    for label, epsilons, cells, t in (("`loan-roi`, S_50", LOAN_EPSILONS, loan_fig, 50),
                                      ("`property-price`, S_100", PROPERTY_EPSILONS, property_fig, 100)):
        for le in epsilons:
            rp = n[cells[("random-projection", le)]]
            regime = "lifted" if rp["evaluation_only.lifted.mean"] > 0 else "σ_min ≥ ω"
            rows.append(f"| {label} | e^{le} | {regime} | {s(rp, t)} | {s(n[cells[('noisy-projection', le)]], t)} |")
    rows.append(f"| `loan-roi`: non-private GP-UCB on X | — | — | {s(n[loan_baseline])} | |")
    rows.append(f"| `property-price`: non-private GP-UCB on X | — | — | {s(n[property_baseline], 100)} | |")
    return "\n".join(rows)


r.table("real-fig2", [loan_baseline, property_baseline, *loan_fig.values(), *property_fig.values()], render_real_fig)
r.table("loan-tables", list(loan_tables.values()),
        render_r_tables(LOAN_TABLES, lambda le, k, known: loan_tables[(le, k, False)], 50, False))
r.table("property-tables", list(property_tables.values()),
        render_r_tables(PROPERTY_TABLES, lambda le, k, known: property_tables[(le, k, False)], 100, False, also=50))

# ----- Branin-Hoo (appendix A) ------------------------------------------------------------------------
BRANIN_EPSILONS = [0.0, 0.5, 0.9, 1.1, 1.5]
branin_baseline = baseline_cell("branin-gp-ucb", "branin-grid-gp-ucb")
branin = {(rel, le): release_cell("branin", "branin-grid", rel, le, 10)
          for le in BRANIN_EPSILONS for rel in ("random-projection", "noisy-projection")}


def render_branin(n):
    rows = ["| ε | regime at r = 10 | `random-projection` S_50 | `noisy-projection` S_50 |", "|---|---|---|---|"]
    for le in BRANIN_EPSILONS:
        rp = n[branin[("random-projection", le)]]
        regime = "lifted" if rp["evaluation_only.lifted.mean"] > 0 else "σ_min ≥ ω"
        rows.append(f"| e^{le} | {regime} | {s(rp)} | {s(n[branin[('noisy-projection', le)]])} |")
    rows.append(f"| non-private GP-UCB on X | — | {s(n[branin_baseline])} | |")
    return "\n".join(rows)


r.table("branin", [branin_baseline, *branin.values()], render_branin)


# ----- the regime thresholds, and the paper table ------------------------------------------------------
def largest_unlifted(n, tables, cell_of):
    """Per table ε: the largest r of its grid whose runs were not lifted (σ_min ≥ ω), from the runs."""
    return {le: max((k for k in ranks if n[cell_of(le, k)]["evaluation_only.lifted.mean"] == 0), default=None)
            for le, ranks, _, _ in tables}


def render_thresholds(n):
    rows = ["| dataset | ε | σ_min(X) (this data) | paper: largest r with σ_min ≥ ω | dpbo: largest r with σ_min ≥ ω "
            "| match? |", "|---|---|---|---|---|---|"]
    for label, tables, cell_of in (
            ("synthetic grid", GRID_TABLES, lambda le, k: grid_tables[(le, k, False)]),
            ("loans", LOAN_TABLES, lambda le, k: loan_tables[(le, k, False)]),
            ("property prices", PROPERTY_TABLES, lambda le, k: property_tables[(le, k, False)])):
        ours = largest_unlifted(n, tables, cell_of)
        for le, ranks, paper_best, _ in tables:
            sigma = n[cell_of(le, ranks[0])]["evaluation_only.sigma_min.median"]
            found = ours[le]
            rows.append(f"| {label} | e^{le} | {number(sigma, 6)} | {paper_best} | "
                        f"{found if found is not None else 'none (all lifted)'} | "
                        f"{'yes' if found == paper_best else 'no'} |")
    return "\n".join(rows)


r.table("thresholds", [*grid_tables.values(), *loan_tables.values(), *property_tables.values()], render_thresholds)


def best_r(n, ranks, cell_of, t):
    """The r with the smallest mean S_t."""
    return min(ranks, key=lambda k: n[cell_of(k)][f"S_{t}.mean"])


def within_two_se(n, a, b, t):
    """Whether cells a and b differ by at most two standard errors of their difference (equal means,
    such as two zeros, are within)."""
    da, db = n[a], n[b]
    return abs(da[f"S_{t}.mean"] - db[f"S_{t}.mean"]) <= 2 * math.hypot(da[f"S_{t}.se"], db[f"S_{t}.se"])


def render_paper(n):
    rows = ["| paper item | paper's figure | dpbo's figure | holds? | note |", "|---|---|---|---|---|"]

    def gap(cell, base, t=50):
        """S_t above the baseline's, and the standard error of that difference."""
        a, b = n[cell], n[base]
        return a[f"S_{t}.mean"] - b[f"S_{t}.mean"], math.hypot(a[f"S_{t}.se"], b[f"S_{t}.se"])

    # Fig. 2a: regret above non-private GP-UCB after 50 steps (σ_y = 1 on the synthetic grid).
    for le, paper in ((1.1, 0.011), (0.9, 0.069), (0.0, 0.099)):
        verdicts = []
        texts = []
        for label, cell, base in (("GP fitted", fig2a[("random-projection", le)], grid_baseline),
                                  ("GP known", fig2a_known[le], grid_known_baseline)):
            ours, se = gap(cell, base)
            texts.append(f"{number(ours, 2)} ± {number(se, 1)} ({label})")
            verdicts.append(f"{label}: {'yes' if abs(ours - paper) <= 2 * se else 'no'}")
        rows.append(f"| Fig. 2a: S_50 above non-private GP-UCB, ε = e^{le} | {paper}σ_y | {'; '.join(texts)} | "
                    f"{'; '.join(verdicts)} | rule: dpbo's gap within two standard errors of the paper's (σ_y = 1) |")
    # The privacy–utility ordering: regret grows as ε shrinks.
    for label, cells in (("random-projection, GP fitted", [fig2a[("random-projection", le)] for le in FIG2A]),
                         ("random-projection, GP known", [fig2a_known[le] for le in FIG2A]),
                         ("noisy-projection", [fig2a[("noisy-projection", le)] for le in FIG2A])):
        first, last = n[cells[0]], n[cells[-1]]
        holds = first["S_50.mean"] - last["S_50.mean"] > 2 * math.hypot(first["S_50.se"], last["S_50.se"])
        rows.append(f"| Fig. 2a: smaller ε, larger regret ({label}) | ordering | S_50 {s(first)} at e^{FIG2A[0]}, "
                    f"{s(last)} at e^{FIG2A[-1]} | {'yes' if holds else 'no'} | rule: S_50 at the smallest ε exceeds "
                    "S_50 at the largest by more than two standard errors |")
    # Remark 2 and Tables 1–3: a lifted release does worse than an unlifted one.
    for label, known in (("GP fitted", False), ("GP known", True)):
        lifted, unlifted = [], []
        for le, ranks, _, _ in GRID_TABLES:
            for k in ranks:
                c = n[grid_tables[(le, k, known)]]
                (lifted if c["evaluation_only.lifted.mean"] > 0 else unlifted).append(c["S_50.mean"])
        holds = min(lifted) > max(unlifted)
        rows.append(f"| Tables 1–3 ({label}): every lifted cell worse than every unlifted one | every * cell above "
                    f"every other | lifted S_50 {number(min(lifted), 2)}–{number(max(lifted), 2)}; unlifted "
                    f"{number(min(unlifted), 2)}–{number(max(unlifted), 2)} | {'yes' if holds else 'no'} | rule: the "
                    "smallest lifted mean exceeds the largest unlifted one |")
    # Tables 1–9: the best r is the largest with σ_min ≥ ω.
    # (label, the paper's number of the first table, its tables, the cell of (ε, r), T)
    for label, first_table, tables, cell_of, t in (
            ("Table {} (synthetic, GP fitted)", 1, GRID_TABLES, lambda le: lambda k: grid_tables[(le, k, False)], 50),
            ("Table {} (synthetic, GP known)", 1, GRID_TABLES, lambda le: lambda k: grid_tables[(le, k, True)], 50),
            ("Table {} (loans)", 4, LOAN_TABLES, lambda le: lambda k: loan_tables[(le, k, False)], 50),
            ("Table {} (property prices)", 7, PROPERTY_TABLES,
             lambda le: lambda k: property_tables[(le, k, False)], 100)):
        for i, (le, ranks, paper_best, _) in enumerate(tables):
            best = best_r(n, ranks, cell_of(le), t)
            tied = within_two_se(n, cell_of(le)(best), cell_of(le)(paper_best), t)
            holds = "yes" if best == paper_best else ("tie" if tied else "no")
            rows.append(f"| {label.format(first_table + i)}: best r at ε = e^{le} | r = {paper_best} | r = {best} "
                        f"(S_{t} {s(n[cell_of(le)(best)], t)}; r = {paper_best}: {s(n[cell_of(le)(paper_best)], t)}) "
                        f"| {holds} | rule: the smallest mean S_{t} is at the paper's r (tie: within two standard errors "
                        "of it) |")
    return "\n".join(rows)


r.table("paper", [grid_baseline, grid_known_baseline, *fig2a.values(), *fig2a_known.values(),
                  *grid_tables.values(), *loan_tables.values(), *property_tables.values()], render_paper)

# The paper's Fig. 2a and Table 1 drawn by `dpbo report` (PO-GP-UCB's declared figures).
REGRET_OVER_STEPS = "simple regret over iterations, per ε and r"
REGRET_AGAINST_R = "final simple regret against r"
r.figure("fig2a-fitted", [fig2a[("random-projection", le)] for le in FIG2A], REGRET_OVER_STEPS,
         "docs/figures/po-gp-ucb-fig2a-fitted.svg")
r.figure("fig2a-known", [fig2a_known[le] for le in FIG2A], REGRET_OVER_STEPS, "docs/figures/po-gp-ucb-fig2a-known.svg")
for known, suffix in ((False, "fitted"), (True, "known")):
    r.figure(f"table1-{suffix}", [grid_tables[(1.1, k, known)] for k in GRID_TABLES[0][1]], REGRET_AGAINST_R,
             f"docs/figures/po-gp-ucb-table1-{suffix}.svg")

# ----- the auditor against Algorithm 1's claim ---------------------------------------------------------
# 200 rows uniform in the ball of radius 25, D′ moves row 0 by 1, 20 000 releases per world (the audit's
# defaults for a row release), seed 1.
# (cell, release, what the row adds to the release's name, note on the claim, the release's settings)
AUDITS = [
    ("audit-random-projection", "random-projection", "", "(the paper's)", ["--set", "release.epsilon=3"]),
    ("audit-random-projection-always-lift", "random-projection", ", `always_lift`", "",
     ["--set", "release.epsilon=3", "--set", "release.always_lift=true"]),
    ("audit-noisy-projection", "noisy-projection", "", "", ["--set", "release.epsilon=3"]),
    ("audit-noisy-projection-r0-e1", "noisy-projection", ", r = 0, ε = 1", "",
     ["--set", "release.epsilon=1", "--set", "release.r=0"]),
]


def audit_extract(report):
    """The claim, the lower bound and the best event (its text and counts) of a `dpbo audit --json`."""
    best = report["best"] or {}
    return {"claim.epsilon": report["claim"]["epsilon"], "claim.delta": report["claim"]["delta"],
            "refuted": int(report["refuted"]), "runs_per_world": report["runs_per_world"],
            "lower_bound.epsilon": report["lower_bound"]["epsilon"],
            "largest_detectable.epsilon": report["largest_detectable"]["epsilon"],
            "best.event": best.get("event", ""), "best.likelier": best.get("count_in_likelier_world", 0),
            "best.other": best.get("count_in_other_world", 0), "best.samples": best.get("evaluation_samples", 0)}


audits = [r.audit(name, ["--release", release, *settings, "--seed", "1"], audit_extract)
          for name, release, _, _, settings in AUDITS]


def render_audit(n):
    rows = ["| release | claim | lower bound (95 %) | best event |", "|---|---|---|---|"]
    for name, release, variant, note, _ in AUDITS:
        a = n[name]
        claim = f"({number(a['claim.epsilon'])}, {number(a['claim.delta'])})-DP" + (f" {note}" if note else "")
        bound = f"ε ≥ {number(a['lower_bound.epsilon'], 3)}"
        if a["refuted"]:
            bound = f"**refuted**: {bound}; the most {int(a['runs_per_world'])} runs can show is " \
                    f"{number(a['largest_detectable.epsilon'], 3)}"
        event = (f"{a['best.event']}: in {int(a['best.likelier'])} of {int(a['best.samples'])} releases of one "
                 f"world, {int(a['best.other'])} of the other's") if a["best.event"] else "—"
        rows.append(f"| `{release}`{variant} | {claim} | {bound} | {event} |")
    return "\n".join(rows)


r.table("audit", audits, render_audit)

# The drift test: the cheapest cell (50 runs over 988 loans, about 2 s) and the audit that refutes
# Algorithm 1 (about 3 s).
r.drift("loan-rp-e2.7-r10", "audit-random-projection")

if __name__ == "__main__":
    sys.exit(r.main())
