#!/usr/bin/env bash
# The table of docs/auditing.md, "What the audit finds": `dpbo audit` of every shipped mechanism's
# claim at 10^6 releases per world (x = 0 against x' = 1) and of DP-GIBO at 10^5 runs, each with a
# fixed --seed so that every number below is reproduced exactly. Each run of each world is one
# release of the claim under test (the audit does not compose its runs), so an (epsilon, delta)
# claim is audited at any run count: (1, 1e-5) at 10^6 = 10/delta runs. A few minutes in all.
#
#   apps/dpbo/audit/experiments/claims-table.sh [DPBO]   (default build/bin/dpbo; run from the source root)
#   python3 apps/reproduce/write_block.py docs/auditing.md claims apps/dpbo/audit/experiments/claims-table.sh   (into the page)
set -euo pipefail

dpbo=${1:-build/bin/dpbo}
seed=2024

# row LABEL ARGUMENTS...: one table row from the audit's --json report.
row() {
  local label=$1
  shift
  local report
  # Exit 3 (refuted) is a finding, not a failure of the script.
  report=$("$dpbo" audit "$@" --seed "$seed" --json) || [ $? -eq 3 ]
  jq -r --arg name "$label" '
    def g: if . == null then "" else (. * 1000 | round / 1000 | tostring) end;
    "| \($name) | \(.runs_per_world) | ε ≥ \(.lower_bound.epsilon | g)" +
      (if .lower_bound.mu == null then "" else ", μ ≥ \(.lower_bound.mu | g)" end) +
      " | \(.largest_detectable.epsilon | g) | \(.best.event) | " +
      (if .refuted then "**refuted**" else "not refuted" end) + " |"' <<<"$report"
}

gibo() {
  row "\`dp-gibo\`, $1-GDP, T = $2" --algorithm dp-gibo --objective normal-location --set objective.dim=2 \
    --set objective.records=8 --set "algorithm.mu=$1" --set "algorithm.iterations=$2" --set algorithm.optimizer=plain \
    --set algorithm.lr=0.5 --set algorithm.clipping_bound=0.5 --neighbour objective.neighbour_record=0 --runs 100000
}

echo "| claim | runs per world | lower bound (95%) | largest ε the runs can show | best event | verdict |"
echo "|---|---|---|---|---|---|"
row '`gaussian`, 1-GDP' --mechanism gaussian --set mechanism.mu=1 --runs 1000000
row '`gaussian`, (1, 1e-5)-DP' --mechanism gaussian --set mechanism.epsilon=1 --set mechanism.delta=1e-5 --runs 1000000
row '`gaussian`, 6-GDP' --mechanism gaussian --set mechanism.mu=6 --runs 1000000
row '`laplace`, 1-DP' --mechanism laplace --set mechanism.epsilon=1 --runs 1000000
row '`laplace`, 30-DP' --mechanism laplace --set mechanism.epsilon=30 --runs 1000000
gibo 1 1
gibo 1 3
gibo 6 1
gibo 6 3
