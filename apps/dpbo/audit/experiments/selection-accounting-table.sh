#!/usr/bin/env bash
# The table of docs/private-selection.md, "Against dp_accounting": `dpbo account --select` on every
# case of tests/reference/dp_accounting_repeat_and_select.txt (the DP-SGD table and the
# RepeatAndSelect cases of dp_accounting's tests), beside the values dp_accounting itself gives
# and the same theorem's optimum over a finer grid of orders (that file's script says how they were
# computed). dpbo must never exceed the first and never fall (materially) below the second.
# About ten minutes on a quiet machine (the DP-SGD rows take seconds each).
#
#   apps/dpbo/audit/experiments/selection-accounting-table.sh [DPBO]   (default build/bin/dpbo; from the source root)
#   python3 apps/reproduce/write_block.py docs/private-selection.md selection-accounting apps/dpbo/audit/experiments/selection-accounting-table.sh   (into the page)
set -euo pipefail

dpbo=${1:-build/bin/dpbo}
reference=tests/reference/dp_accounting_repeat_and_select.txt

echo "| case | trial | K | δ | dp_accounting ε | finer-grid ε (same theorem) | dpbo ε |"
echo "|---|---|---|---|---|---|---|"
grep -v '^#' "$reference" | while IFS=$'\t' read -r name trial select delta theirs fine; do
  # The selection as one event: the same accounting as --event TRIAL --select K (tests/cli/
  # account_select_test.cpp checks they agree), without --select's comparison rows, which cost 3x more.
  ours=$("$dpbo" account --event "repeat-and-select:trial=($trial),count=($select)" --delta "$delta" --json |
    jq -r '.epsilon_delta[] | select(.given == "delta") | .epsilon * 1000000 | round / 1000000')
  echo "| $name | \`$trial\` | \`$select\` | $delta | $theirs | $fine | $ours |"
done
