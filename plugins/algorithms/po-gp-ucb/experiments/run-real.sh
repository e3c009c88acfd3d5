#!/usr/bin/env bash
# PO-GP-UCB on the two real datasets (docs/methods/po-gp-ucb.md): simple regret for several ε with both row
# releases, and non-private GP-UCB on the rows themselves. Usage:
#   plugins/algorithms/po-gp-ucb/experiments/run-real.sh OUT_DIR [DPBO]
# then summarise.py OUT_DIR. A few minutes on one core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run-real.sh OUT_DIR [DPBO]}
dpbo=${2:-$here/../../../../build/bin/dpbo}
mkdir -p "$out"
baseline=(--surrogate gp --set surrogate.kernel=rbf --set surrogate.ard=false --set surrogate.mean=constant
          --set surrogate.standardise=true --set surrogate.fit=marginal-likelihood --set surrogate.refit_every=5
          --acquisition ucb --set acquisition.beta_schedule=finite --set acquisition.delta=0.025
          --set algorithm.initial_points=5 --seed 1 --repeat 50)
"$dpbo" run --algorithm gp-ucb --objective loan-roi "${baseline[@]}" --set algorithm.budget=55 \
  --out "$out/loan-gp-ucb" > "$out/loan-gp-ucb.log"
"$dpbo" run --algorithm gp-ucb --objective property-price "${baseline[@]}" --set algorithm.budget=105 \
  --out "$out/property-gp-ucb" > "$out/property-gp-ucb.log"
for data in loan-roi property-price; do
  for log_epsilon in 0.5 1.0 2.0 3.0; do
    epsilon=$(python3 -c "import math; print(repr(math.exp($log_epsilon)))")
    for release in random-projection noisy-projection; do
      "$dpbo" run --config "$here/$data.ini" --release "$release" --set release.epsilon="$epsilon" \
        --out "$out/$data-$release-e$log_epsilon" > "$out/$data-$release-e$log_epsilon.log"
    done
  done
done
