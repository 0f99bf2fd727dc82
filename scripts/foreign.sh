#!/usr/bin/env bash
# The measurements of issue 26 (fair, verified measurement of foreign solvers), three
# runs each, all side by side (`bench --builds`: both solve each block of puzzles, in a
# shuffled order), written under results/foreign/. Needs ../shared/datasets; about 15
# minutes on the 2-vCPU VM.
#
# 1. lib: this build's C library (libsudoku_bench_ffi.so) against the built-in
#    backends, bitboard and dlx-static: 17-clue and top1465. Target: <= 1.03.
# 2. lib: a solver that writes its solution only for limit 1 (scripts/late-shim.c,
#    the second call outside the clock) against the same search that always writes
#    it. Target: 0.97-1.03.
# 3. exec: `sudoku-bench worker -b bitboard`, reporting its own times (ns=), against
#    the built-in bitboard, per-puzzle and stream: the first 20,000 17-clue puzzles.
#    Target: 0.9-1.1.
# 4. With TDOKU_LIB=path/to/libtdoku_shared.so: tdoku against bitboard (figures only).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/datasets
out=results/foreign
mkdir -p "$out"
cargo build --release --workspace --quiet
bin=target/release/sudoku-bench
lib=$PWD/target/release/libsudoku_bench_ffi.so
late=$PWD/target/late-shim.so
cc -O2 -shared -fPIC scripts/late-shim.c -o "$late" -Ltarget/release -lsudoku_bench_ffi \
    -Wl,-rpath,"$PWD/target/release"
seventeen=$shared/puzzles2_17_clue
top=$shared/puzzles3_magictour_top1465
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n 20000 "$seventeen" > "$tmp/17-clue-20000.txt"
worker="exec:$PWD/$bin worker -b bitboard"
: > "$out/ratios.txt"
# The paired lines of a run, with what was measured in front.
paired() {
    local what=$1
    shift
    "$bin" bench --builds --no-progress "$@" > "$tmp/run.txt" || true
    awk -v w="$what" '/^backend +vs/ {on = 1; next} /^ratio:/ {on = 0} on && NF > 8 {print w, $0}' \
        "$tmp/run.txt" | tee -a "$out/ratios.txt"
}
for i in 1 2 3; do
    for b in bitboard dlx-static; do
        paired "run $i lib-own" "$seventeen" "$top" \
            --backends "$b,ffi=lib:$lib:sudoku_bench_${b//-/_}"
        paired "run $i lib-late" "$seventeen" "$top" \
            --backends "always=lib:$lib:sudoku_bench_${b//-/_},late=lib:$late:late_${b//-/_}"
    done
    for mode in per-puzzle stream; do
        paired "run $i exec-$mode" "$tmp/17-clue-20000.txt" \
            --backends "bitboard,worker=$worker" --exec-mode "$mode"
    done
    if [ -n "${TDOKU_LIB:-}" ]; then
        paired "run $i tdoku" "$seventeen" "$top" \
            --backends "bitboard,tdoku=lib:$TDOKU_LIB:TdokuSolverDpllTriadSimd"
    fi
done
