#!/usr/bin/env bash
# The measurements of issue 10 (foreign backends), three runs each, written under
# results/foreign/. Needs ../shared/datasets; about 5 minutes on the 2-vCPU VM.
#
# 1. The C-ABI library of this build (libsudoku_bench_ffi.so) against the built-in
#    backend, same run: 17-clue and top1465.
# 2. exec: with `sudoku-bench worker -b dlx-static`, per-puzzle (round trip calibrated
#    and subtracted) and stream mode, against the built-in backend: top1465.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/datasets
out=results/foreign
mkdir -p "$out"
cargo build --release --workspace --quiet
bin=target/release/sudoku-bench
lib=$PWD/target/release/libsudoku_bench_ffi.so
worker="exec:$PWD/$bin worker -b dlx-static"
for i in 1 2 3; do
    "$bin" bench "$shared/puzzles2_17_clue.solved" "$shared/puzzles3_magictour_top1465.solved" \
        --backends "dlx-static,lib:$lib:sudoku_bench_dlx_static" --no-progress \
        --export-json "$out/lib-$i.json" | tee "$out/lib-$i.txt"
    "$bin" bench "$shared/puzzles3_magictour_top1465.solved" \
        --backends "dlx-static,$worker" --no-progress \
        --export-json "$out/exec-$i.json" | tee "$out/exec-$i.txt"
    "$bin" bench "$shared/puzzles3_magictour_top1465.solved" \
        --backends "dlx-static,$worker" --exec-mode stream --no-progress \
        --export-json "$out/stream-$i.json" | tee "$out/stream-$i.txt"
done
# Ratios to the built-in backend, each run, and the median.
python3 - "$out" <<'PY'
import json, statistics, sys, glob, os
out = sys.argv[1]
lines = []
for kind in ["lib", "exec", "stream"]:
    ratios = {}
    for path in sorted(glob.glob(os.path.join(out, f"{kind}-*.json"))):
        run = json.load(open(path))
        base = {r["dataset"]["path"]: r["us_per_puzzle"] for r in run["results"] if r["backend"] == "dlx-static"}
        for r in run["results"]:
            if r["backend"] != "dlx-static":
                d = os.path.basename(r["dataset"]["path"])
                ratios.setdefault(d, []).append(r["us_per_puzzle"] / base[r["dataset"]["path"]])
                if r.get("foreign", {}).get("round_trip_ns"):
                    lines.append(f"{kind} {d}: calibrated round trip {r['foreign']['round_trip_ns']/1000:.1f} µs")
    for d, rs in ratios.items():
        lines.append(f"{kind} {d}: ratio to dlx-static " + ", ".join(f"{x:.3f}" for x in rs) + f"; median {statistics.median(rs):.3f}")
open(os.path.join(out, "ratios.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
