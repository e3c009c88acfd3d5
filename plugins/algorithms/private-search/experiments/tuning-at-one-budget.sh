#!/usr/bin/env bash
# Tuning a DP learner at one total budget, four ways:
#   private-search with K logarithmic, geometric or Poisson (mean MEAN): the best of K trials;
#   random-search over MEAN trials, every trial composed.
# LEARNER picks the trials (each trains with DP-SGD noise from the secure layer, lots drawn without
# replacement, and releases its validation error through the Laplace mechanism at ε = 0.1):
#   adult  `dpsgd` with trial = private: logistic regression on Adult (a9a) over epochs, learning rate
#          (0.05–5, log scale) and clipping norm; test error on a9a.t;
#   mnist  `mlp` with trial = private: the 784-128-64-10 MLP on the shipped MNIST t10k file (8 000
#          training images, 1 000 of them the validation part; 2 000 test images) over epochs, learning
#          rate (1e-3–0.5, log scale) and clipping norm.
# For each search, `dpbo plan` finds the trial noise σ that meets the budget; the search then runs at
# that σ over SEEDS seeds. The table gives, per search, σ, the ε the run states (median over seeds),
# the ε a report of one trial would give, the ε of composing MEAN trials at that σ, the trials run,
# and the released model's test error (median and range over seeds). Seeded runs are reproducible,
# and so not private; their statements are what the run would claim with secret noise.
#
#   plugins/algorithms/private-search/experiments/tuning-at-one-budget.sh adult|mnist [DPBO]   (from the source root)
#   TARGET=4 DELTA=1e-5 MEAN=10 SEEDS=5 MAX_EPOCHS=8 (adult) / 3 (mnist) to change the setting
#   (these are the defaults).
set -euo pipefail

learner=${1:?usage: tuning-at-one-budget.sh adult|mnist [DPBO]}
dpbo=${2:-build/bin/dpbo}
target=${TARGET:-4}
delta=${DELTA:-1e-5}
mean=${MEAN:-10}
seeds=${SEEDS:-5}
score_epsilon=0.1
lot=256
case "$learner" in
  adult)
    max_epochs=${MAX_EPOCHS:-8}
    training=$((32561 - 2000))  # a9a's training rows less the validation part dpsgd carves out
    objective=(--objective dpsgd --set objective.learning_rates=0.05,5) ;;
  mnist)
    max_epochs=${MAX_EPOCHS:-3}
    training=$((8000 - 1000))   # mlp's training images less its validation part (their defaults)
    objective=(--objective mlp) ;;
  *) echo "tuning-at-one-budget.sh: LEARNER = '$learner'; expected adult or mnist" >&2; exit 2 ;;
esac
q=$(python3 -c "print(repr($lot / $training))")
steps=$((max_epochs * (training / lot)))
# One trial's events at the most epochs (the bound every trial is checked against).
trial="subsampled-gaussian:q=$q,sigma=?,steps=$steps,sampling=without-replacement"
score="laplace:scale=$(python3 -c "print(repr(1 / $score_epsilon))"),sensitivity=1"
objective+=(--set objective.trial=private --set "objective.max_epochs=$max_epochs"
  --set "objective.trial_lot_size=$lot" --set "objective.score_epsilon=$score_epsilon")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# plan COUNT: the σ meeting the budget, and one trial's ε at it.
plan() {
  "$dpbo" plan --target "epsilon=$target,delta=$delta" --event "$trial" --event "$score" --select "$1" --json |
    jq -r '"\(.value) \(.one_trial_epsilon)"'
}

# composition_epsilon SIGMA: the ε of MEAN trials at σ, composed.
composition_epsilon() {
  "$dpbo" account --event "${trial/sigma=\?/sigma=$1}" --event "$score" --select "fixed:k=$mean" --delta "$delta" \
    --json | jq -r '.epsilon_delta[] | select(.given == "delta") | .epsilon'
}

# median VALUES...: the median, and "low–high".
summary() {
  python3 -c "
import statistics, sys
v = sorted(float(x) for x in sys.argv[1:])
print(f'{statistics.median(v):.4g} ({v[0]:.4g}–{v[-1]:.4g})')" "$@"
}

row() {
  local label=$1 algorithm=$2 count=$3 sigma one
  read -r sigma one < <(plan "$count")
  local epsilons=() errors=() trials=()
  for seed in $(seq 1 "$seeds"); do
    local out="$tmp/$label-$seed" settings=()
    if [ "$algorithm" = private-search ]; then
      settings=(--set "algorithm.count=$count")
    else
      settings=(--set "algorithm.budget=$mean")
    fi
    "$dpbo" run --algorithm "$algorithm" "${settings[@]}" "${objective[@]}" \
      --set "objective.trial_noise_multiplier=$sigma" --seed "$seed" --out "$out" > /dev/null
    epsilons+=("$(jq -r '.privacy.hypothetical.equivalent_epsilon_delta[0].epsilon' "$out/result.json")")
    if [ "$algorithm" = private-search ]; then
      trials+=("$(jq -r '.evaluation_only.trials_run.value' "$out/result.json")")
      # The selected trial's test error: the trace row of the released score (evaluation-only).
      errors+=("$(python3 -c "
import csv, json, sys
r = json.load(open(sys.argv[1] + '/result.json'))
best = r['released']['best_score']['value']
rows = list(csv.DictReader(open(sys.argv[1] + '/trace.csv')))
print(min(rows, key=lambda row: abs(float(row['score']) - best))['test_error'])" "$out")")
    else
      trials+=("$mean")
      errors+=("$(jq -r '.evaluation_only.best_point_test_error.value' "$out/result.json")")
    fi
  done
  printf '| %s | %.4g | %s | %.3g | %.3g | %s | %s |\n' "$label" "$sigma" "$(summary "${epsilons[@]}")" "$one" \
    "$(composition_epsilon "$sigma")" "$(summary "${trials[@]}")" "$(summary "${errors[@]}")"
}

echo "| search (E[K] = $mean) | trial σ | ε stated (δ = $delta) | ε of one trial | ε of $mean trials composed | trials run | test error of the released model |"
echo "|---|---|---|---|---|---|---|"
row "private-search, K logarithmic" private-search "logarithmic:mean=$mean"
row "private-search, K geometric" private-search "geometric:mean=$mean"
row "private-search, K Poisson" private-search "poisson:mean=$mean"
row "random-search, $mean trials composed" random-search "fixed:k=$mean"
