#!/usr/bin/env bash
# The table of docs/privacy.md, "Privacy-loss-distribution accountant (pld)": `dpbo account
# --accountant pld` on every row of tests/reference/dp_accounting_pld.txt, its upper and lower
# bounds beside dp_accounting's PLD at the same (default) grid, pessimistic and optimistic (that
# file's script, tests/reference/dp_accounting_pld_oracle.py, says how they were computed). A query
# "delta=D" is ε at δ = D; "epsilon=E" is δ at ε = E. About a minute on a quiet machine.
#
#   plugins/accountants/pld/experiments/pld-reference-table.sh [DPBO]   (default build/bin/dpbo; from the source root)
set -euo pipefail

dpbo=${1:-build/bin/dpbo}
reference=tests/reference/dp_accounting_pld.txt

echo "| case | events | query | dp_accounting upper | dpbo upper | dp_accounting lower | dpbo lower |"
echo "|---|---|---|---|---|---|---|"
grep -v '^#' "$reference" | while IFS=$'\t' read -r name events query theirs_upper theirs_lower; do
  arguments=()
  IFS=';' read -ra texts <<<"$events"
  for text in "${texts[@]}"; do arguments+=(--event "$text"); done
  value=${query#*=}
  if [[ $query == delta=* ]]; then
    answer=$("$dpbo" account --accountant pld "${arguments[@]}" --delta "$value" --json |
      jq -r '.epsilon_delta[] | select(.given == "delta") | "\(.epsilon) \(.epsilon_lower)"')
  else
    answer=$("$dpbo" account --accountant pld "${arguments[@]}" --epsilon "$value" --json |
      jq -r '.epsilon_delta[] | select(.given == "epsilon") | "\(.delta) \(.delta_lower)"')
  fi
  read -r upper lower <<<"$answer"
  printf '| %s | `%s` | %s | %.6g | %.6g | %.6g | %.6g |\n' "$name" "$events" "$query" "$theirs_upper" "$upper" \
    "$theirs_lower" "$lower"
done
