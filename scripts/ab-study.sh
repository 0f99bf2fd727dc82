#!/usr/bin/env bash
# The A/B study of issue P4, on a machine kept busy by another CPU-bound process:
#   - SAME runs of the same build against itself (dlx-static vs dlx-static): each should
#     say "no change";
#   - SLOW runs against a build made 3% slower (scripts/ab-shim.c, a lib: shim around the
#     ffi export that spins for a known share of each call): each should say "regressed".
# Each run is `bench 17-clue[:10000] top1465 --backends A,B --builds -j 1`, under a 30 s
# limit. Results go to results/ab-study/ (summary.md and one line per run).
#
#   scripts/ab-study.sh [SAME=20] [SLOW=10]
# Environment: DATASETS (default ../shared/datasets), LOAD=0 to run without `yes`.
set -euo pipefail
cd "$(dirname "$0")/.."
same=${1:-20}
slow=${2:-10}
data=${DATASETS:-../shared/datasets}
out=results/ab-study
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

cargo build --release --workspace --quiet
cc -O2 -shared -fPIC scripts/ab-shim.c -o "$work/ab-shim.so" -Ltarget/release \
    -lsudoku_bench_ffi -Wl,-rpath,"$PWD/target/release"
head -n 10000 "$data/puzzles2_17_clue" >"$work/17-clue-10000.txt"
sets=("$work/17-clue-10000.txt" "$data/puzzles3_magictour_top1465")

if [ "${LOAD:-1}" = 1 ]; then
    yes >/dev/null &
    echo "load: yes > /dev/null (pid $!) for the whole study"
fi

log="$out/runs.txt"
: >"$log"
run() { # kind index backends
    local kind=$1 i=$2 backends=$3 start end rc=0
    start=$(date +%s.%N)
    timeout 30 target/release/sudoku-bench bench "${sets[@]}" --backends "$backends" \
        --builds -j 1 --seed "$i" --no-progress >"$work/out.txt" 2>&1 || rc=$?
    end=$(date +%s.%N)
    # The verdict column of the builds' table, one per dataset.
    local verdicts
    verdicts=$(awk '/^builds compared/{p=1;next} p&&/^b /{v=$9; if (v=="no") v=($10=="change")?"no-change":"no-verdict"; print v}' \
        "$work/out.txt" | tr '\n' ' ')
    local ratios
    ratios=$(awk '/^builds compared/{p=1;next} p&&/^b /{print $5" ["$6"]"}' "$work/out.txt" | tr '\n' ' ')
    printf '%s %2d rc=%d %5.1fs %s| %s\n' "$kind" "$i" "$rc" "$(echo "$end - $start" | bc)" \
        "$verdicts" "$ratios" | tee -a "$log"
}
for i in $(seq 1 "$same"); do run same "$i" a=dlx-static,b=dlx-static; done
for i in $(seq 1 "$slow"); do
    run slow "$i" "a=lib:$work/ab-shim.so:ab_base,b=lib:$work/ab-shim.so:ab_slow"
done

count() { grep -c "$1" "$log" || true; }
same_ok=$(grep '^same' "$log" | grep -vc 'regressed\|improved' || true)
slow_ok=$(grep '^slow' "$log" | grep -c 'regressed regressed' || true)
slowest=$(awk '{sub("s","",$4); if ($4>m) m=$4} END {print m}' "$log")
{
    echo "# Paired A/B study ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD))"
    echo
    echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
    echo "Load: ${LOAD:-1} (1: \`yes > /dev/null\` ran the whole time)"
    echo "Datasets: first 10,000 of puzzles2_17_clue, puzzles3_magictour_top1465"
    echo "Command: \`bench 17-clue-10000.txt top1465 --backends A,B --builds -j 1 --seed I\`"
    echo
    echo "- same build (a=dlx-static,b=dlx-static): $same_ok of $same runs said \"no change\" on both datasets"
    echo "- 3% slower (a=lib:ab-shim.so:ab_base,b=lib:ab-shim.so:ab_slow): $slow_ok of $slow runs said \"regressed\" on both datasets"
    echo "- slowest run: ${slowest}s (limit 30 s); runs cut by the limit: $(count 'rc=124')"
    echo
    echo '```'
    cat "$log"
    echo '```'
} >"$out/summary.md"
cat "$out/summary.md" | head -12
