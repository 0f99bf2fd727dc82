#!/usr/bin/env bash
# Did my change make it slower? Builds the C library of the old revision and of the
# working tree, and runs them against each other with `bench --paired` (each puzzle
# block solved by both, in a shuffled order, so the machine's load falls on both
# alike), backend by backend, on the project's datasets. Ends with one verdict line;
# exit 5 on a regression, 4 on a wrong answer, 0 otherwise.
#
#   scripts/ab.sh [OLD_REV]            old: OLD_REV (default HEAD), new: the working tree
#   scripts/ab.sh --old-lib A.so --new-lib B.so    two libraries built already
#
# Environment: AB_BACKENDS (default "bitboard dlx-static"), AB_DATASETS (default the
# shipped datasets/generated-3000.txt, and 20,000 17-clue puzzles and top1465 when
# ../shared/datasets is there), AB_NOISE (the change that counts, percent; default 2:
# two builds of the same code differ by up to 1.7% from where the linker placed it),
# AB_ARGS (more `bench` options, e.g. "--min-time 10").
set -euo pipefail
cd "$(dirname "$0")/.."

old_rev=HEAD
old_lib=""
new_lib=""
while [ $# -gt 0 ]; do
    case $1 in
    --old-lib) old_lib=$2; shift 2 ;;
    --new-lib) new_lib=$2; shift 2 ;;
    -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
    *) old_rev=$1; shift ;;
    esac
done

work=target/ab
mkdir -p "$work"
bin=target/release/sudoku-bench
lib=target/release/libsudoku_bench_ffi.so

# The working tree's build: the harness that measures, and the new library (a copy: a
# later build must not change what is measured).
cargo build --release --quiet --workspace
if [ -z "$new_lib" ]; then
    new_lib=$work/new.so
    cp "$lib" "$new_lib"
fi

if [ -z "$old_lib" ]; then
    rev=$(git rev-parse --verify --quiet "$old_rev^{commit}") ||
        { echo "ab.sh: $old_rev is not a revision" >&2; exit 2; }
    old_lib=$work/old-$rev.so
    if [ ! -f "$old_lib" ]; then
        tree=$work/old-tree
        git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
        git worktree add --quiet --detach "$tree" "$rev"
        # Its own target folder: the old build never replaces the files of the new one.
        (cd "$tree" && CARGO_TARGET_DIR="$PWD/../old-target" \
            cargo build --release --quiet -p sudoku-bench-ffi)
        cp "$work/old-target/release/libsudoku_bench_ffi.so" "$old_lib"
        git worktree remove --force "$tree"
    fi
fi

shared=../shared/datasets
datasets=${AB_DATASETS:-}
if [ -z "$datasets" ]; then
    datasets=datasets/generated-3000.txt
    if [ -d "$shared" ]; then
        head -n 20000 "$shared/puzzles2_17_clue" > "$work/17-clue-20000.txt"
        datasets="$datasets $work/17-clue-20000.txt $shared/puzzles3_magictour_top1465"
    fi
fi

worst=0
verdicts=()
for backend in ${AB_BACKENDS:-bitboard dlx-static}; do
    symbol=sudoku_bench_${backend//-/_}
    echo "== $backend: old ($old_lib) against new ($new_lib)"
    set +e
    # shellcheck disable=SC2086
    "$bin" bench $datasets --paired --no-progress --noise "${AB_NOISE:-2}" \
        --backends "old=lib:$old_lib:$symbol,new=lib:$new_lib:$symbol" ${AB_ARGS:-} |
        tee "$work/$backend.txt"
    code=${PIPESTATUS[0]}
    set -e
    case $code in
    0) if grep -q " improved$" "$work/$backend.txt"; then
           verdicts+=("$backend: improved")
       else
           verdicts+=("$backend: no change")
       fi ;;
    5) verdicts+=("$backend: REGRESSED") ;;
    4) verdicts+=("$backend: WRONG ANSWERS") ;;
    *) verdicts+=("$backend: failed (exit $code)") ;;
    esac
    # The worst outcome decides: a failure, then wrong answers, then a regression.
    case $code in
    0) ;;
    5) [ "$worst" -eq 0 ] && worst=5 ;;
    4) [ "$worst" -ne 1 ] && worst=4 ;;
    *) worst=1 ;;
    esac
done
echo
echo "verdict: $(IFS=';'; echo "${verdicts[*]}" | sed 's/;/; /g')"
exit "$worst"
