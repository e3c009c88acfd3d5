#!/usr/bin/env bash
# What a tuning costs as the expected number of trials grows (the shape of Papernot & Steinke 2022's
# comparison of K's distributions): one trial is DP-SGD with q = 0.01, σ = 1.1 and 10 000 steps
# (Poisson sampling), and the search releases only the best of K trials, K logarithmic, geometric or
# Poisson with mean E[K], or composes E[K] trials. ε at δ = 1e-5 from `dpbo account --select`.
#
#   plugins/algorithms/private-search/experiments/tuning-cost-curve.sh [DPBO]   (from the source root)
set -euo pipefail

dpbo=${1:-build/bin/dpbo}
trial=subsampled-gaussian:q=0.01,sigma=1.1,steps=10000,sampling=poisson

epsilon() {
  "$dpbo" account --event "repeat-and-select:trial=($trial),count=($1)" --delta 1e-5 --json |
    jq -r '.epsilon_delta[] | select(.given == "delta") | .epsilon * 100 | round / 100'
}

one=$(epsilon fixed:k=1)
echo "| E[K] | logarithmic | geometric | Poisson | composition of E[K] trials |"
echo "|---|---|---|---|---|"
for mean in 2 5 10 20 50 100 1000; do
  echo "| $mean | $(epsilon "logarithmic:mean=$mean") | $(epsilon "geometric:mean=$mean") | $(epsilon "poisson:mean=$mean") | $(epsilon "fixed:k=$mean") |"
done
echo
echo "One trial alone: ε = $one."
