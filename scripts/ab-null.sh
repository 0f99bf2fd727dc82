#!/usr/bin/env bash
# Harness cost of two builds side by side: the null backend on FILE to a CSV file,
# -j1 and -j2, builds and thread counts in turn, N rounds; prints the median wall
# and CPU time of each (build, -jN). The machine's load moves absolute figures a lot:
# compare builds within one run only.
#
# The CSV goes to $CSV_DIR (default: the temporary folder); a disk-backed one adds the
# kernel's writeback to the wall time, /dev/shm leaves it out. Each run writes a new
# file: the previous run's CSV is removed, untimed, before it (freeing its 147 MB of
# pages in the run's open() cost 4-5% of a -j1 run). OVERWRITE=1 keeps the old file, so
# the run truncates it, as a repeated command with the same --csv does.
#
#   scripts/ab-null.sh N FILE BIN...
set -euo pipefail
n=$1; file=$2; shift 2
out=$(mktemp); csv=$(mktemp -p "${CSV_DIR:-${TMPDIR:-/tmp}}")
trap 'rm -f "$out" "$csv"' EXIT
for _ in $(seq "$n"); do
    for bin in "$@"; do
        for j in 1 2; do
            [ "${OVERWRITE:-0}" = 1 ] || rm -f "$csv"
            t=$( { /usr/bin/time -f "%e %U %S" "$bin" solve -b null -j"$j" -q "$file" --csv "$csv" > /dev/null; } 2>&1 | tail -1 )
            echo "$bin j$j $t" >> "$out"
        done
    done
done
python3 - "$out" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    b, j, w, u, s = line.split()
    runs[(b, j)].append((float(w), float(u) + float(s)))
for (b, j), v in sorted(runs.items()):
    wall = statistics.median(x[0] for x in v)
    cpu = statistics.median(x[1] for x in v)
    print(f"{b} -{j}: median wall {wall:.3f} s, CPU {cpu:.3f} s")
PY
