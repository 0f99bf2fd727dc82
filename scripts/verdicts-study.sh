#!/usr/bin/env bash
# The study behind the verdict rules (issue P1's "Done means"), on this machine with one
# core kept busy by `yes > /dev/null`, three runs of each:
#   1. the README's regression recipe: a bitboard build 10% slower is regressed, an
#      identical one no change (built-in backends: this executable and a patched copy);
#   2. the same for a lib: library and an exec: program replaced in place (the C test
#      solver, and its -DSLOWER=10 variant);
#   3. total cost: a library doing a tenth more work (every 10th call twice) reads 1.10;
#   4. isolation: bitboard against a C library, alone and with a Python exec: solver in
#      the run;
#   5. bench with no flags (bitboard, dlx-static) against the same run with no load.
# Writes results/verdicts/runs.txt and prints a summary. Takes about 20 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

out=results/verdicts
work=target/study
mkdir -p "$out" "$work/lib" "$work/store"
export SUDOKU_BENCH_BUILDS=$PWD/$work/store
log=$out/runs.txt
: > "$log"
say() { echo "$*" | tee -a "$log"; }

cargo build --release --quiet
bin=$PWD/target/release/sudoku-bench
cp "$bin" "$work/normal"

# A bitboard that spins 10% longer per solve: this tree, patched, built apart.
if [ ! -x "$work/slow" ]; then
    tree=$work/slow-tree
    rm -rf "$tree" && mkdir -p "$tree"
    git archive HEAD | tar -x -C "$tree"
    python3 - "$tree" <<'EOF'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
p = next(root.glob("src/solver/bitboard*/mod.rs"), root / "src/solver/bitboard.rs")
s = p.read_text()
head = "impl Solver for Bitboard {\n    fn solve(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {\n"
assert head in s, "the patch no longer applies"
s = s.replace(head, head + "        let t0 = crate::base::cpu::monotonic_ns();\n        let out = self.solve_slowly(puzzle, limits);\n        let until = t0 + (crate::base::cpu::monotonic_ns() - t0) * 11 / 10;\n        while crate::base::cpu::monotonic_ns() < until {}\n        out\n    }\n}\n\nimpl Bitboard {\n    fn solve_slowly(&mut self, puzzle: &Grid, limits: &Limits) -> SolveOutcome {\n", 1)
p.write_text(s)
EOF
    (cd "$tree" && CARGO_TARGET_DIR="$PWD/../slow-target" cargo build --release --quiet --bin sudoku-bench)
    cp "$work/slow-target/release/sudoku-bench" "$work/slow"
fi

src=tests/data/foreign/solver.c
cc -O2 -shared -fPIC -DLIBRARY -o "$work/lib/good.so" "$src"
cc -O2 -shared -fPIC -DLIBRARY -DSLOWER=10 -o "$work/lib/slower.so" "$src"
cc -O2 -shared -fPIC -DLIBRARY -DREPEAT_EVERY=10 -o "$work/lib/repeat.so" "$src"
cc -O2 -o "$work/lib/good" "$src"
cc -O2 -DSLOWER=10 -o "$work/lib/slower" "$src"
data=datasets/generated-3000.txt
head -n 501 "$data" | tail -n 500 > "$work/d500.txt"

yes > /dev/null &
hog=$!
trap 'kill $hog 2>/dev/null || true' EXIT
say "load: yes > /dev/null (pid $hog); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"

# The verdict line of a compare or bench --builds run: ratio, interval, verdict; exit.
verdict() {
    local rc=0
    "$@" --no-progress > "$work/out.txt" 2>&1 || rc=$?
    local line
    line=$(awk '/^builds compared/{p=1;next} p && $1!="backend" {print; exit}' "$work/out.txt")
    say "  exit $rc: ${line:-$(tail -n 1 "$work/out.txt")}"
}

say "== 1. built-in: the README's recipe, bitboard"
(cd "$work" && "$PWD/normal" bench "$PWD/../../$data" --backends bitboard --save-baseline study \
    --baselines-dir baselines --force --no-progress > /dev/null)
for i in 1 2 3; do
    say "10% slower build, run $i"
    verdict "$work/slow" compare study --baselines-dir "$work/baselines"
done
for i in 1 2 3; do
    say "identical build, run $i"
    verdict "$work/normal" compare study --baselines-dir "$work/baselines"
done

for kind in lib exec; do
    say "== 2. $kind: replaced in place by a build 10% slower"
    case $kind in
    lib) good=$work/lib/good.so slow=$work/lib/slower.so spec=lib:./x:solve ;;
    exec) good=$work/lib/good slow=$work/lib/slower spec=exec:./x ;;
    esac
    put() { rm -f "$work/x" && cp "$1" "$work/x"; }
    put "$good"
    (cd "$work" && "$bin" bench d500.txt --backends "$spec" --save-baseline "$kind" \
        --baselines-dir baselines --force --no-progress > /dev/null)
    for i in 1 2 3; do
        put "$slow"
        say "slower, run $i"
        verdict env -C "$work" "$bin" compare "$kind" --baselines-dir baselines --backends "$spec"
    done
    for i in 1 2 3; do
        put "$good"
        say "identical, run $i"
        verdict env -C "$work" "$bin" compare "$kind" --baselines-dir baselines --backends "$spec"
    done
done

say "== 3. total cost: every 10th call twice (a tenth more work)"
for i in 1 2 3; do
    verdict "$bin" bench "$work/d500.txt" --builds \
        --backends "old=lib:$work/lib/good.so:solve,new=lib:$work/lib/repeat.so:solve"
done

say "== 4. isolation: bitboard against a C library, then with a Python program in the run"
for extra in "" ",py=exec:scripts/slow-solver.py"; do
    for i in 1 2 3; do
        "$bin" bench "$work/d500.txt" --backends "bitboard,c=lib:$work/lib/good.so:solve$extra" \
            --no-progress > "$work/out.txt" 2>&1 || true
        say "  ${extra:-alone}: $(grep -m1 'than c ' "$work/out.txt" | xargs)"
    done
done

say "== 5. bench with no flags: bitboard and dlx-static, one core busy"
for i in 1 2 3; do
    "$bin" bench "$data" --backends bitboard,dlx-static --no-progress > "$work/out.txt" 2>&1
    say "  busy: $(grep -m1 'than dlx-static' "$work/out.txt" | xargs)"
done
kill $hog 2>/dev/null || true
for i in 1 2 3; do
    "$bin" bench "$data" --backends bitboard,dlx-static --no-progress > "$work/out.txt" 2>&1
    say "  no load: $(grep -m1 'than dlx-static' "$work/out.txt" | xargs)"
done
