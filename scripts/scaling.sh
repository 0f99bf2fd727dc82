#!/usr/bin/env bash
# Scaling against the machine's own ceiling: for each thread count T, one `solve -jT`
# (and one `bench -jT`) is compared with T independent single-threaded processes doing
# the same total work side by side. Efficiency = ceiling / measured (1.00: the threads
# scale as well as separate processes do; the target on a 16-core machine is >= 0.90).
#
#   scripts/scaling.sh [THREADS="1 2 4 8 16"]
# Environment: BACKEND (default bitboard), RECORDS per unit of work (default 200000),
#   REPEAT (default 3; the median is kept), DATASETS (default ../shared/datasets),
#   OUT (default results/scaling-$(hostname).md).
# Thread counts above the machine's cores are skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-"1 2 4 8 16"}
backend=${BACKEND:-bitboard}
records=${RECORDS:-200000}
repeat=${REPEAT:-3}
data=${DATASETS:-../shared/datasets}
out=${OUT:-results/scaling-$(hostname).md}
bin=${BIN:-target/release/sudoku-bench}
[ -n "${BIN:-}" ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)

# One unit of work: RECORDS 17-clue puzzles (the file repeated as needed).
(
    set +o pipefail
    while true; do grep -v '^#' "$data/puzzles2_17_clue"; done | head -n "$records"
) | cut -c1-81 >"$work/unit.txt"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
now() { date +%s.%N; }
pps() { python3 -c 'import json,sys; print(sum(r["puzzles_per_s"] for r in json.load(open(sys.argv[1]))["results"]))' "$1"; }

# solve: T copies of the unit through one process with -jT, against T processes -j1.
solve_one() { # T -> wall seconds of solve -jT on T units
    local t=$1 files=() s
    for _ in $(seq "$t"); do files+=("$work/unit.txt"); done
    s=$(now)
    "$bin" solve -q -b "$backend" -j "$t" --csv "$work/solve.csv" "${files[@]}" >/dev/null
    echo "$(now) - $s" | bc
}
solve_indep() { # T -> wall seconds of T processes solve -j1, one unit each
    local t=$1 s pids=()
    s=$(now)
    for i in $(seq "$t"); do
        "$bin" solve -q -b "$backend" -j 1 --csv "$work/indep-$i.csv" "$work/unit.txt" >/dev/null &
        pids+=($!)
    done
    wait "${pids[@]}"
    echo "$(now) - $s" | bc
}
# bench: puzzles/s of bench -jT against the sum of T side-by-side bench -j1 processes.
bench_args=(--backends "$backend" --warmup 1 --rounds 3 --min-round-ms 0 --no-progress)
bench_one() {
    "$bin" bench "$work/unit.txt" "${bench_args[@]}" -j "$1" --export-json "$work/b.json" >/dev/null
    pps "$work/b.json"
}
bench_indep() {
    local t=$1 pids=() total=0
    for i in $(seq "$t"); do
        "$bin" bench "$work/unit.txt" "${bench_args[@]}" -j 1 --export-json "$work/b-$i.json" \
            >/dev/null &
        pids+=($!)
    done
    wait "${pids[@]}"
    for i in $(seq "$t"); do total=$(echo "$total + $(pps "$work/b-$i.json")" | bc); done
    echo "$total"
}

{
    echo "# Scaling: $backend, $(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo
    echo "Machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "Work: $records 17-clue puzzles per thread; median of $repeat repeats"
    echo "Commands: \`solve -q -b $backend -jT --csv F UNIT x T\` vs T x \`solve -j1 UNIT\` side by side;"
    echo "\`bench UNIT --backends $backend -jT\` puzzles/s vs the sum of T side-by-side \`bench -j1\`"
    echo
    echo "| threads | solve -jT s | T processes s | solve efficiency | bench -jT puzzles/s | T processes puzzles/s | bench efficiency |"
    echo "|--:|--:|--:|--:|--:|--:|--:|"
} >"$out"
for t in $threads; do
    if [ "$t" -gt "$cores" ]; then
        echo "| $t | skipped: the machine has $cores cores | | | | | |" >>"$out"
        continue
    fi
    a=$(for _ in $(seq "$repeat"); do solve_one "$t"; done | median)
    b=$(for _ in $(seq "$repeat"); do solve_indep "$t"; done | median)
    c=$(for _ in $(seq "$repeat"); do bench_one "$t"; done | median)
    d=$(for _ in $(seq "$repeat"); do bench_indep "$t"; done | median)
    printf '| %s | %.2f | %.2f | %.2f | %.0f | %.0f | %.2f |\n' "$t" "$a" "$b" \
        "$(echo "$b / $a" | bc -l)" "$c" "$d" "$(echo "$c / $d" | bc -l)" >>"$out"
    tail -n 1 "$out"
done
echo "written: $out"
