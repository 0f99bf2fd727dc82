#!/usr/bin/env bash
# Issue P3's table: bitboard against tdoku at its best, both through lib: (this build's C
# library, libsudoku_bench_ffi.so, runs the same path dispatch as the built-in), paired
# (`bench` takes turns block by block), three runs per figure, written to
# results/tdoku/ratios.txt. Needs ../shared/datasets and a checkout of
# https://github.com/t-dillon/tdoku (TDOKU_SRC, default ../tdoku); about 5 minutes.
#
# tdoku is built by hand with g++, as its CMakeLists builds tdoku_shared (the solver and
# util.cc, -O3 -fno-exceptions -fno-rtti -fpic), with two sets of flags:
#   native:  -march=native                (its AVX-512 paths where the CPU has them)
#   avx2:    -march=native -mno-avx512f   (AVX2 and BMI2, no AVX-512)
# bitboard runs its best path against tdoku native, and is held to x86-64-v3 (AVX2,
# BMI2: SUDOKU_BENCH_BITBOARD_PATH) against tdoku avx2.
#
# Each line: run, set, pair, bitboard's time over tdoku's (95% interval).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${TDOKU_SRC:-../tdoku}
shared=../shared/datasets
out=results/tdoku
mkdir -p "$out"
cargo build --release --workspace --quiet
bin=target/release/sudoku-bench
lib=$PWD/target/release/libsudoku_bench_ffi.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O3 -march=native -std=c++17 -fno-exceptions -fno-rtti -fpic -shared -I"$src/include" \
    "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc" -o "$tmp/native.so"
g++ -O3 -march=native -mno-avx512f -std=c++17 -fno-exceptions -fno-rtti -fpic -shared \
    -I"$src/include" "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc" -o "$tmp/avx2.so"
sets=("$shared/puzzles2_17_clue" "$shared/puzzles3_magictour_top1465"
    "$shared/puzzles5_forum_hardest_1905_11+_every24th.txt")
{
    echo "# $(date -u +%F) $(git rev-parse --short HEAD)$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) CPUs:" \
        "$(grep -m1 '^flags' /proc/cpuinfo | grep -o 'avx512[a-z_]*' | tr '\n' ' ' || true)"
    echo "# g++ $(g++ -dumpfullversion); tdoku $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')"
} > "$out/ratios.txt"
for i in 1 2 3; do
    for s in "${sets[@]}"; do
        for pair in native avx2; do
            path=x86-64-v4
            [ "$pair" = avx2 ] && path=x86-64-v3
            SUDOKU_BENCH_BITBOARD_PATH=$path "$bin" bench --no-progress "$s" --backends \
                "bb=lib:$lib:sudoku_bench_bitboard,tdoku=lib:$tmp/$pair.so:TdokuSolverDpllTriadSimd" \
                > "$tmp/run.txt" 2>&1 || { cat "$tmp/run.txt"; exit 1; }
            # "bb ran / N times faster than tdoku (lo..hi)", or tdoku ran faster.
            awk -v run="$i" -v set="$(basename "$s")" -v pair="bitboard $path / tdoku $pair" '
                /^  [a-z]+ ran$/ {first = $1}
                /times (faster|slower) than/ {
                    gsub(/[()]/, "", $NF); split($NF, ci, /\.\./)
                    if (first == "bb") printf "run %s  %-44s %-36s %.3f (%.3f..%.3f)\n", run, set, pair, 1/$1, 1/ci[2], 1/ci[1]
                    else printf "run %s  %-44s %-36s %.3f (%.3f..%.3f)\n", run, set, pair, $1, ci[1], ci[2]
                }' "$tmp/run.txt" | tee -a "$out/ratios.txt"
        done
    done
done
