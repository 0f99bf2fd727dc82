#!/usr/bin/env bash
# Did my change make it slower? Builds the executable of the old revision and of the
# working tree, and runs them side by side as two builds (`bench --builds`: each block of
# puzzles solved by both, in a shuffled order, so the machine's load falls on both
# alike), each as an `exec:` worker of its own executable, as `compare` runs a saved
# build against this one; backend by backend, on the project's datasets. Ends with one
# verdict line; exit 5 on a regression, 4 on a wrong answer, 0 otherwise.
#
#   scripts/ab.sh [OLD_REV]            old: OLD_REV (default HEAD), new: the working tree
#   scripts/ab.sh --old-bin A --new-bin B    two executables built already
#
# Environment: AB_BACKENDS (default "bitboard dlx-static"), AB_DATASETS (default the
# shipped datasets/generated-3000.txt, and 20,000 17-clue puzzles and top1465 when
# ../shared/datasets is there), AB_NOISE (the change that counts, percent; default 2),
# AB_ARGS (more `bench` options, e.g. "--min-time 10").
set -euo pipefail
cd "$(dirname "$0")/.."

old_rev=HEAD
old_bin=""
new_bin=""
while [ $# -gt 0 ]; do
    case $1 in
    --old-bin) old_bin=$2; shift 2 ;;
    --new-bin) new_bin=$2; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
    *) old_rev=$1; shift ;;
    esac
done

work=target/ab
mkdir -p "$work"
bin=target/release/sudoku-bench

# The working tree's build: the harness that measures, and the new build (a copy: a
# later build must not change what is measured).
cargo build --release --quiet
if [ -z "$new_bin" ]; then
    new_bin=$work/new-sudoku-bench
    cp "$bin" "$new_bin"
fi

if [ -z "$old_bin" ]; then
    rev=$(git rev-parse --verify --quiet "$old_rev^{commit}") ||
        { echo "ab.sh: $old_rev is not a revision" >&2; exit 2; }
    old_bin=$work/old-$rev
    if [ ! -f "$old_bin" ]; then
        tree=$work/old-tree
        git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
        git worktree add --quiet --detach "$tree" "$rev"
        # Its own target folder: the old build never replaces the files of the new one.
        (cd "$tree" && CARGO_TARGET_DIR="$PWD/../old-target" \
            cargo build --release --quiet --bin sudoku-bench)
        cp "$work/old-target/release/sudoku-bench" "$old_bin"
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
    echo "== $backend: old ($old_bin) against new ($new_bin)"
    set +e
    # shellcheck disable=SC2086
    "$bin" bench $datasets --builds --no-progress --noise "${AB_NOISE:-3}" \
        --backends "old=exec:$old_bin worker -b $backend,new=exec:$new_bin worker -b $backend" \
        ${AB_ARGS:-} | tee "$work/$backend.txt"
    code=${PIPESTATUS[0]}
    set -e
    case $code in
    0) if grep -q " improved " "$work/$backend.txt"; then
           verdicts+=("$backend: improved")
       else
           verdicts+=("$backend: no change")
       fi ;;
    5) verdicts+=("$backend: REGRESSED") ;;
    4) verdicts+=("$backend: WRONG ANSWERS") ;;
    *) verdicts+=("$backend: no verdict (exit $code)") ;;
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
