#!/usr/bin/env bash
# PO-GP-UCB's synthetic-grid experiments (docs/methods/po-gp-ucb.md): simple regret against iterations for
# several ε and the non-private baseline (the paper's Fig. 2a), and S_50 against r at three ε whose
# largest r with σ_min(X) ≥ ω is 10, 15 and 20 (the paper's Tables 1–3). Usage:
#   plugins/algorithms/po-gp-ucb/experiments/run.sh OUT_DIR [DPBO]
# then summarise.py OUT_DIR. About 35 minutes on one core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUT_DIR [DPBO]}
dpbo=${2:-$here/../../../../build/bin/dpbo}
mkdir -p "$out"
"$dpbo" run --config "$here/synthetic-grid-gp-ucb.ini" --out "$out/gp-ucb" > "$out/gp-ucb.log"
# Fig. 2a: ε from e^0 to e^2.5 at r = 10 (ε ≥ e^2.30 reaches σ_min ≥ ω with these inputs; see docs/methods/po-gp-ucb.md).
for log_epsilon in 0.0 0.5 1.1 1.5 2.0 2.5; do
  epsilon=$(python3 -c "import math; print(repr(math.exp($log_epsilon)))")
  for release in random-projection noisy-projection; do
    "$dpbo" run --config "$here/synthetic-grid.ini" --release "$release" --set release.epsilon="$epsilon" \
      --out "$out/fig2-$release-e$log_epsilon" > "$out/fig2-$release-e$log_epsilon.log"
  done
done
# Tables 1–3: at each ε, r = 3, 6, 8, 10, 15, 20 (σ_min(X) = 1030.88 here).
for log_epsilon in 2.30 2.53 2.69; do
  epsilon=$(python3 -c "import math; print(repr(math.exp($log_epsilon)))")
  for r in 3 6 8 10 15 20; do
    "$dpbo" run --config "$here/synthetic-grid.ini" --set release.epsilon="$epsilon" --set release.r="$r" \
      --out "$out/table-e$log_epsilon-r$r" > "$out/table-e$log_epsilon-r$r.log"
  done
done
# The same with the GP's hyperparameters known and reused on Z, as the paper's analysis does: ℓ = 1.25
# on [0, 10]², which the scaling to norm 25 (the box onto [−17.68, 17.68]²) makes 4.4194 in the
# release's units; σ_y² = 1, σ_n² = 1e-5.
known=(--set algorithm.lengthscale=4.4194173824159222 --set algorithm.noise_variance=1e-5)
for log_epsilon in 0.0 0.5 1.1 1.5 2.0 2.5; do
  epsilon=$(python3 -c "import math; print(repr(math.exp($log_epsilon)))")
  "$dpbo" run --config "$here/synthetic-grid.ini" --set release.epsilon="$epsilon" "${known[@]}" \
    --out "$out/known-fig2-e$log_epsilon" > "$out/known-fig2-e$log_epsilon.log"
done
for log_epsilon in 2.30 2.53 2.69; do
  epsilon=$(python3 -c "import math; print(repr(math.exp($log_epsilon)))")
  for r in 3 6 8 10 15 20; do
    "$dpbo" run --config "$here/synthetic-grid.ini" --set release.epsilon="$epsilon" --set release.r="$r" \
      "${known[@]}" --out "$out/known-table-e$log_epsilon-r$r" > "$out/known-table-e$log_epsilon-r$r.log"
  done
done
# Non-private GP-UCB on X with the same known hyperparameters.
"$dpbo" run --config "$here/synthetic-grid-gp-ucb-known.ini" --out "$out/known-gp-ucb" > "$out/known-gp-ucb.log"
