#!/usr/bin/env bash
# The measurements behind results/PERFORMANCE.md. Needs ../shared/datasets and about
# 15 minutes on the 2-vCPU development VM; writes its raw output under results/perf/.
#
#   scripts/perf.sh [ratios|harness|scaling|memory|sizes]...   (default: all five)
set -euo pipefail
cd "$(dirname "$0")/.."

shared=../shared/datasets
out=results/perf
tmp=${TMPDIR:-/tmp}/sudoku-bench-perf
mkdir -p "$out" "$tmp"
# The reference backend (AGPL) is only in a build with the feature: a separate binary.
cargo build --release --quiet --features reference
cp target/release/sudoku-bench "$tmp/sudoku-bench-ref"
cargo build --release --quiet
bin=target/release/sudoku-bench
ref=$tmp/sudoku-bench-ref

# 1M and 10M records: the 17-clue reference file repeated (puzzle:1:solution lines).
lines() { # N: the first N records of the repeated 17-clue set, on stdout
    # A finite loop: an endless one would not end when head closes the pipe (bash
    # carries on after a command killed by SIGPIPE).
    local set=$shared/puzzles2_17_clue.solved
    local reps=$(( $1 / $(grep -vc '^#' "$set") + 1 ))
    ( set +o pipefail; for _ in $(seq "$reps"); do grep -v '^#' "$set"; done | head -n "$1" )
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

hardest="$shared/puzzles5_forum_hardest_1905_11+_every24th.txt"

ratios() {
    echo "== ratios: reference, bitboard, dlx-static, dlx-arena, one thread, one run side by side"
    "$ref" bench "$shared/puzzles2_17_clue.solved" "$shared/puzzles3_magictour_top1465.solved" \
        "$hardest" --backends reference,bitboard,dlx-static,dlx-arena --warmup 1 --rounds 5 \
        --export-json "$out/ratios.json" --export-markdown "$out/ratios.md" | tee "$out/ratios.txt"
    echo "== paired: bitboard against reference; dlx-arena against dlx-static"
    "$ref" bench "$shared/puzzles2_17_clue" "$shared/puzzles3_magictour_top1465" "$hardest" \
        --backends reference,bitboard --no-progress | tee "$out/paired-bitboard.txt"
    "$bin" bench "$shared/puzzles2_17_clue" --backends dlx-static,dlx-arena \
        --no-progress | tee "$out/paired-arena.txt"
    echo "== solve -j1 mean time_ns, two alternating runs each (the best counts)"
    for set in "$shared/puzzles2_17_clue" "$shared/puzzles3_magictour_top1465" "$hardest"; do
        for run in 1 2; do
            for b in reference bitboard; do
                "$ref" solve -q -b "$b" -j 1 --csv "$tmp/t.csv" "$set" >/dev/null || true
                python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(sys.argv[2], sys.argv[3], sys.argv[4], "%.3f us" % (sum(int(x["time_ns"]) for x in r)/len(r)/1000))' \
                    "$tmp/t.csv" "$(basename "$set")" "$b" "$run"
            done
        done
    done | tee "$out/solve-time-bitboard.txt"
}

harness() {
    echo "== harness: the null backend on 1M 81-character lines to CSV, -j1 and -j2 alternating"
    lines 1000000 | cut -c1-81 > "$tmp/1m.txt"
    : > "$out/null-seconds.txt"
    # The CSV on disk (the kernel's writeback counts) and, where there is one, in memory.
    dirs=("$tmp")
    [ -d /dev/shm ] && [ -w /dev/shm ] && dirs+=(/dev/shm)
    for i in 1 2 3 4 5; do
        for dir in "${dirs[@]}"; do
            for j in 1 2; do
                # A new file each run (freeing the last run's pages is not writing this one's).
                rm -f "$dir/null-$$.csv"
                s=$( { /usr/bin/time -f "%e" "$bin" solve -b null -j$j -v "$tmp/1m.txt" --csv "$dir/null-$$.csv" > "$tmp/null.summary"; } 2>&1 | tail -1 )
                # The serial share, and its part outside the read and write calls.
                line=$(grep 'harness:' "$tmp/null.summary")
                serial=$(echo "$line" | grep -o '[0-9.]*% of the process' | cut -d% -f1)
                all=$(echo "$line" | sed -n 's/.*took \([0-9.]*\) ms.*/\1/p')
                io=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) ms of it inside.*/\1/p')
                own=$(awk -v s="$serial" -v a="$all" -v i="$io" 'BEGIN { printf "%.1f", (a > 0 ? s * (a - i) / a : 0) }')
                echo "$dir j$j $s $serial $own" | tee -a "$out/null-seconds.txt"
            done
        done
    done
    rm -f /dev/shm/null-$$.csv
    for dir in "${dirs[@]}"; do
        for j in 1 2; do
            echo "CSV in $dir, -j$j: median wall s: $(grep "^$dir j$j " "$out/null-seconds.txt" | cut -d' ' -f3 | median), serial share %: $(grep "^$dir j$j " "$out/null-seconds.txt" | cut -d' ' -f4 | median), of it outside read and write calls %: $(grep "^$dir j$j " "$out/null-seconds.txt" | cut -d' ' -f5 | median)"
        done
    done
    echo "== harness: the machine's floor: the same job in C (scripts/floor.c), -j1, alternating"
    if gcc -O2 -o "$tmp/floor" scripts/floor.c && gcc -O2 -DNO_CLOCK -o "$tmp/floor-noclock" scripts/floor.c; then
        : > "$out/floor-seconds.txt"
        for i in 1 2 3 4 5 6 7; do
            for b in floor floor-noclock tool; do
                rm -f "$tmp/floor.csv"
                if [ "$b" = tool ]; then
                    s=$( { /usr/bin/time -f "%e" "$bin" solve -b null -j1 -q "$tmp/1m.txt" --csv "$tmp/floor.csv" > /dev/null; } 2>&1 | tail -1 )
                else
                    s=$( { /usr/bin/time -f "%e" "$tmp/$b" "$tmp/1m.txt" "$tmp/floor.csv"; } 2>&1 | tail -1 )
                fi
                echo "$b $s" >> "$out/floor-seconds.txt"
            done
        done
        for b in floor floor-noclock tool; do
            echo "$b: median wall s: $(grep "^$b " "$out/floor-seconds.txt" | cut -d' ' -f2 | median)"
        done | tee "$out/floor.txt"
        rm -f "$tmp/floor.csv"
    fi
    echo "== harness: solve -j1 wall vs summed solve times + null wall (top1465 x 20)"
    for i in $(seq 20); do grep -v '^#' "$shared/puzzles3_magictour_top1465.solved"; done > "$tmp/top-x20.solved"
    cut -c1-81 "$tmp/top-x20.solved" > "$tmp/top-x20.txt"
    for i in 1 2 3; do
        null=$( { /usr/bin/time -f "%e" "$bin" solve -b null -j1 -q "$tmp/top-x20.txt" --csv "$tmp/n.csv"; } 2>&1 )
        real=$( { /usr/bin/time -f "%e" "$bin" solve -b dlx-static -j1 "$tmp/top-x20.txt" --csv "$tmp/r.csv" > "$tmp/r.summary"; } 2>&1 )
        sum=$(grep -o 'sum [0-9.]* s' "$tmp/r.summary" | awk '{print $2}')
        echo "null $null s, dlx-static wall $real s, summed solve times $sum s, overhead $(awk -v r="$real" -v s="$sum" -v n="$null" 'BEGIN {printf "%.2f%%", 100 * (r - s - n) / (s + n)}')"
    done | tee "$out/overhead.txt"
}

scaling() {
    echo "== scaling: scripts/scaling.sh (solve and bench -jT against T independent processes)"
    BIN="$bin" OUT="$out/scaling-$(hostname).md" DATASETS="$shared" scripts/scaling.sh
    echo "== scaling: bench -j 1,2 and two independent single-threaded processes"
    "$bin" bench "$shared/puzzles3_magictour_top1465.solved" --backends dlx-static,dlx-arena \
        -j 1,2 --rounds 10 --export-json "$out/scaling.json" --export-markdown "$out/scaling.md" \
        | tee "$out/scaling.txt"
    for i in $(seq 10); do grep -v '^#' "$shared/puzzles3_magictour_top1465.solved"; done > "$tmp/top-x10.solved"
    for backend in dlx-static dlx-arena; do
        one=$( { /usr/bin/time -f "%e" "$bin" solve -j1 -q -b "$backend" "$tmp/top-x10.solved"; } 2>&1 )
        two=$( { /usr/bin/time -f "%e" sh -c "'$bin' solve -j1 -q -b $backend '$tmp/top-x10.solved' & '$bin' solve -j1 -q -b $backend '$tmp/top-x10.solved'; wait"; } 2>&1 )
        j2=$( { /usr/bin/time -f "%e" "$bin" solve -j2 -q -b "$backend" "$tmp/top-x10.solved"; } 2>&1 )
        echo "$backend: 1 process ${one}s; 2 processes side by side (2x the work) ${two}s -> $(awk -v a="$one" -v b="$two" 'BEGIN {printf "%.2fx", 2 * a / b}'); -j2 ${j2}s -> $(awk -v a="$one" -v b="$j2" 'BEGIN {printf "%.2fx", a / b}')"
    done | tee -a "$out/scaling.txt"
}

memory() {
    echo "== memory: peak RSS streaming 1M and 10M records through solve with a CSV"
    for n in 1000000 10000000; do
        lines "$n" | /usr/bin/time -f "$n records: %e s, peak RSS %M KiB" \
            "$bin" solve -q - --csv "$tmp/mem.csv" 2>&1 | tee -a "$out/memory.txt"
        echo "   rows written: $(( $(wc -l < "$tmp/mem.csv") - 1 ))" | tee -a "$out/memory.txt"
    done
    rm -f "$tmp/mem.csv"
    echo "== memory: bench peak RSS, 40k and 400k puzzles (bytes a puzzle = difference / 360k)"
    for kind in txt solved; do
        lines 400000 > "$tmp/400k.solved"
        if [ "$kind" = txt ]; then cut -c1-81 "$tmp/400k.solved" > "$tmp/400k.$kind"; fi
        head -n 40000 "$tmp/400k.$kind" > "$tmp/40k.$kind"
        small=$( { /usr/bin/time -f "%M" "$bin" bench "$tmp/40k.$kind" --backends bitboard --warmup 0 --rounds 1 --no-progress > /dev/null; } 2>&1 | tail -1 )
        large=$( { /usr/bin/time -f "%M" "$bin" bench "$tmp/400k.$kind" --backends bitboard --warmup 0 --rounds 1 --no-progress > /dev/null; } 2>&1 | tail -1 )
        echo "$kind: 40k $small KiB, 400k $large KiB, $(( (large - small) * 1024 / 360000 )) bytes a puzzle" | tee -a "$out/memory.txt"
    done
}

sizes() {
    echo "== sizes: dlx-arena against dfs on 4x4, 16x16 and 25x25 (the shipped gen sets), bench -j1"
    "$bin" bench datasets/gen-4x4-200.txt datasets/gen-16x16-20.txt datasets/gen-25x25-4.txt \
        --backends dlx-arena,dfs --rounds 3 --no-progress \
        --export-json "$out/sizes.json" --export-markdown "$out/sizes.md" | tee "$out/sizes.txt"
    echo "== sizes: a 16x16 set with 150 clues, where dfs solves too"
    "$bin" gen --size 16 --min-clues 150 -n 40 -s 7 > "$tmp/g16-150.txt"
    "$bin" bench "$tmp/g16-150.txt" --backends "dlx-arena,dfs" \
        --rounds 3 --no-progress | tee -a "$out/sizes.txt"
}

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(ratios harness scaling memory sizes)
for p in "${parts[@]}"; do "$p"; done
