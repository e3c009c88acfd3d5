#!/usr/bin/env bash
# The table of docs/privacy.md, "Kusner selection mechanisms": `dpbo audit` of each selection's claim
# at 10^6 choices per world, epsilon = 1, sensitivity 1, on the pair where candidate 0 loses 1 and
# nine others gain 1 (and, last, on a pair of three where two candidates swap), each with --seed 2024 so that every number is reproduced exactly. The last
# column is the true privacy loss of the pair, computed exactly from the two laws (python3): the
# largest |log P(i) / P'(i)| over the candidates. Under a minute in all.
#
#   apps/dpbo/audit/experiments/selections-table.sh [DPBO]   (default build/bin/dpbo; run from the source root)
#   python3 apps/reproduce/write_block.py docs/privacy.md selections apps/dpbo/audit/experiments/selections-table.sh   (into the page)
set -euo pipefail

dpbo=${1:-build/bin/dpbo}
seed=2024
scores=1,0,0,0,0,0,0,0,0,0
neighbour=0,1,1,1,1,1,1,1,1,1

# true_loss NAME FACTOR: the pair's exact loss for a selection weighting exp(-FACTOR·(q* − q_i)) (FACTOR
# = ε/(2Δq), or ε/Δq when monotone). Permute-and-flip: Pr[i] = p_i ∫₀¹ Π_{j≠i} (1 − t·p_j) dt (each
# candidate's place in the random order as an independent uniform time), integrated exactly as a polynomial.
true_loss() {
  python3 - "$1" "$2" "$scores" "$neighbour" <<'PY'
import math, sys
from fractions import Fraction
name, factor = sys.argv[1], float(sys.argv[2])
worlds = [[float(v) for v in arg.split(',')] for arg in sys.argv[3:5]]
def law(q):
    p = [math.exp(-factor * (max(q) - v)) for v in q]
    if name == 'exponential':
        return [w / sum(p) for w in p]
    out = []
    for i, pi in enumerate(p):
        poly = [1.0]  # coefficients of prod_{j != i} (1 - t p_j)
        for j, pj in enumerate(p):
            if j == i: continue
            poly = [a - (poly[k - 1] * pj if k > 0 else 0.0) for k, a in enumerate(poly + [0.0])]
        out.append(pi * sum(c / (k + 1) for k, c in enumerate(poly)))
    return out
a, b = (law(q) for q in worlds)
print(f"{max(abs(math.log(x / y)) for x, y in zip(a, b)):.3f}")
PY
}

# row LABEL NAME MONOTONE: one table row from the audit's --json report.
row() {
  local label=$1 name=$2 monotone=$3 report
  # Exit 3 (refuted) is a finding, not a failure of the script.
  report=$("$dpbo" audit --selection "$name" --set selection.epsilon=1 --set "selection.monotone=$monotone" \
    --scores "$scores" --neighbour-scores "$neighbour" --runs 1000000 --seed "$seed" --json) || [ $? -eq 3 ]
  local factor=0.5
  [ "$monotone" = true ] && factor=1
  jq -r --arg name "$label" --arg loss "$(true_loss "$name" "$factor")" '
    def g: . * 1000 | round / 1000 | tostring;
    "| \($name) | " + (if .refuted then "**refuted**: " else "" end) + "ε ≥ \(.lower_bound.epsilon | g)" +
      (if .refuted then "" else ", not refuted" end) + " | \($loss) |"' <<<"$report"
}

echo "| claim | empirical lower bound (10⁶ runs) | true loss on this pair |"
echo "|---|---|---|"
row '`exponential`, 1-DP' exponential false
row '`permute-and-flip`, 1-DP' permute-and-flip false
row '`exponential`, `monotone=true`, on these non-monotone neighbours' exponential true
row '`permute-and-flip`, `monotone=true`, same' permute-and-flip true
scores=0,1,2
neighbour=1,0,2
row '`exponential`, 1-DP, on scores 0,1,2 against 1,0,2' exponential false
