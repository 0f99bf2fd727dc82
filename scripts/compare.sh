#!/usr/bin/env bash
# The standard comparison: bench's default backends (the fast ones; the binary's own
# list, `sudoku-bench backends` marks them) over the project's own datasets and, when
# ../shared/datasets is present, the public reference sets. Writes results/standard.*
# (Markdown table, JSON run record, CSV, HTML page) and results/dfs.* for the naive
# baseline, which is far too slow for the 17-clue set.
#
#   scripts/compare.sh [OUT_PREFIX]     (default: results/standard)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-results/standard}
cargo build --release --quiet
bin=target/release/sudoku-bench
shared=../shared/datasets

sets=(datasets/generated-3000.txt)
dfs_sets=(datasets/generated-3000.txt)
if [ -d "$shared" ]; then
    sets+=("$shared/puzzles2_17_clue.solved" "$shared/puzzles3_magictour_top1465.solved")
    dfs_sets+=("$shared/top95.txt")
fi

# No --backends: the binary's default list, so a new fast backend is never left out.
"$bin" bench "${sets[@]}" --warmup 1 --rounds 5 \
    --export-markdown "$out.md" --export-json "$out.json" --export-csv "$out.csv" \
    --html "$out.html"

# One round: dfs takes minutes, and its node counts say more than its times.
"$bin" bench "${dfs_sets[@]}" --backends dfs --warmup 0 --rounds 1 \
    --export-markdown "${out%/*}/dfs.md" --export-json "${out%/*}/dfs.json"

echo "wrote $out.{md,json,csv,html} and ${out%/*}/dfs.{md,json}"
