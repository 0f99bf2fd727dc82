/* A small Sudoku solver in C, for testing sudoku-bench's foreign backends.
 *
 * Built (by tests/foreign.rs) in several variants:
 *   -DLIBRARY     tdoku's solver type:  size_t solve(const char *input, size_t limit,
 *                 uint32_t flags, char *solution, size_t *num_guesses)
 *   (default)     the exec: line protocol: a puzzle a line in, count:solution out
 *   -DBARE        ... answering only the solution (uniqueness unknown)
 *   -DPOJ3074     a POJ 3074 submission: lines until "end", a solution a line
 *   -DHDU1426     an HDU 1426 submission: 9x9 tokens with '?', grids out, blank lines between
 *   -DWRONG       a wrong digit in the solution of puzzles whose first cell is '1'
 *   -DCRASH       crashes on puzzles whose first cell is '1'
 *   -DHANG        never answers puzzles whose first cell is '1'
 *   -DSOLUTION_ONLY_AT_LIMIT_1   (with LIBRARY) writes the solution only when limit is 1
 *   -DNOTHING     (with LIBRARY) solves nothing: always "no solution", instantly
 *   -DWRONG_AFTER=N  (with LIBRARY) answers "no solution" from its Nth call on
 *   -DTHREADED    (with LIBRARY) solves on a thread of its own, and spins there as long
 *                 again: the caller's thread only waits
 *   -DNO_GUESSES  (with LIBRARY) leaves num_guesses alone
 *   -DSLOW_AT_LIMIT_1  (with LIBRARY) spins 20 ms when limit is 1
 *   -DFIRST_ONLY  stops at the first solution and says it is the only one (1:solution)
 *   -DSILENT      answers every puzzle with an empty line ("no solution")
 *   -DSLOWER=P    spins P percent as long again as each solve took (a slower build)
 *   -DREPEAT_EVERY=N  solves every Nth puzzle twice (more work, on some puzzles only)
 *   -DSEARCH_IN_SECOND  (with LIBRARY) claims one solution at once for limit 2 and
 *                 searches in the second call, for the solution (limit 1)
 *   -DTDOKU_EXAMPLE  answers as tdoku's example/solve.c does: puzzle:count:solution,
 *                 the solution only when the count is 1, and the output left to
 *                 stdio's buffering (a pipe's is a block)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grid[81];
static int found;
static size_t limit_;
static char first[82];
static size_t guesses;

static int allowed(int cell) {
    int r = cell / 9, c = cell % 9, b = (r / 3) * 27 + (c / 3) * 3, used = 0;
    for (int k = 0; k < 9; k++) {
        used |= 1 << grid[r * 9 + k];
        used |= 1 << grid[k * 9 + c];
        used |= 1 << grid[b + (k / 3) * 9 + k % 3];
    }
    return ~used & 0x3FE;
}

static void search(void) {
    int best = -1, best_n = 10, best_mask = 0;
    for (int i = 0; i < 81; i++) {
        if (grid[i]) continue;
        int m = allowed(i), n = __builtin_popcount(m);
        if (n < best_n) { best = i; best_n = n; best_mask = m; }
        if (n == 0) return;
    }
    if (best < 0) {
        if (found++ == 0) for (int i = 0; i < 81; i++) first[i] = '0' + grid[i];
        return;
    }
    if (best_n > 1) guesses++;
    for (int d = 1; d <= 9 && (size_t)found < limit_; d++) {
        if (!(best_mask & (1 << d))) continue;
        grid[best] = d;
        search();
        grid[best] = 0;
    }
}

/* Counts solutions up to `limit`; the first goes to `first`. -1 on a bad puzzle. */
static int solve81_(const char *p, size_t limit) {
    found = 0; limit_ = limit; guesses = 0;
    for (int i = 0; i < 81; i++) {
        char ch = p[i];
        grid[i] = (ch >= '1' && ch <= '9') ? ch - '0' : 0;
    }
    for (int i = 0; i < 81; i++) {
        if (!grid[i]) continue;
        int d = grid[i];
        grid[i] = 0;
        int ok = allowed(i) & (1 << d);
        grid[i] = d;
        if (!ok) return 0;
    }
    search();
    first[81] = 0;
#ifdef WRONG
    if (found && p[0] == '1') first[80] = first[80] == '9' ? '1' : first[80] + 1;
#endif
#ifdef CRASH
    if (p[0] == '1') { volatile int *nothing = 0; *nothing = 1; }
#endif
#ifdef HANG
    if (p[0] == '1') for (;;) {}
#endif
    return found;
}

#if defined(SLOWER) || defined(THREADED) || defined(SLOW_AT_LIMIT_1)
#include <time.h>
static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
#endif

static int solve81(const char *p, size_t limit) {
#ifdef SLOWER
    double start = seconds();
#endif
#ifdef REPEAT_EVERY
    static long calls;
    if (++calls % REPEAT_EVERY == 0) solve81_(p, limit);
#endif
    int n = solve81_(p, limit);
#ifdef SLOWER
    double end = seconds() + (seconds() - start) * SLOWER / 100.0;
    while (seconds() < end) {}
#endif
    return n;
}

#ifdef LIBRARY
#if defined(THREADED) || defined(SLOW_AT_LIMIT_1)
#include <pthread.h>
struct job { const char *input; size_t limit; int n; };
#endif
#ifdef THREADED
static void *work(void *arg) {
    struct job *j = arg;
    double start = seconds();
    j->n = solve81(j->input, j->limit);
    double end = seconds() + (seconds() - start);
    while (seconds() < end) {}
    return NULL;
}
#endif

size_t solve(const char *input, size_t limit, uint32_t flags, char *solution, size_t *num_guesses) {
    (void)flags;
#ifdef NOTHING
    (void)input; (void)limit; (void)solution;
    *num_guesses = 0;
    return 0;
#endif
#ifdef SLOW_AT_LIMIT_1
    if (limit == 1) { double end = seconds() + 0.02; while (seconds() < end) {} }
#endif
#ifdef SEARCH_IN_SECOND
    if (limit != 1) { *num_guesses = 0; return 1; }
#endif
#ifdef WRONG_AFTER
    static int calls;
    if (++calls >= WRONG_AFTER) { *num_guesses = 0; return 0; }
#endif
#ifdef THREADED
    struct job j = { input, limit, 0 };
    pthread_t t;
    pthread_create(&t, NULL, work, &j);
    pthread_join(t, NULL);
    int n = j.n;
#else
    int n = solve81(input, limit);
#endif
#ifdef SOLUTION_ONLY_AT_LIMIT_1
    if (n > 0 && limit == 1) memcpy(solution, first, 81);
#else
    if (n > 0) memcpy(solution, first, 81);
#endif
#ifndef NO_GUESSES
    *num_guesses = guesses;
#endif
    return (size_t)n;
}
#else

static void answer(int n) {
#if defined(POJ3074)
    puts(n > 0 ? first : "");
#elif defined(HDU1426)
    static int cases;
    if (cases++) putchar('\n');
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) printf("%c%c", first[r * 9 + c], c == 8 ? '\n' : ' ');
#elif defined(BARE)
    puts(n > 0 ? first : "0");
#elif defined(SILENT)
    (void)n;
    puts("");
#else
    if (n > 0) printf("%d:%s\n", n, first); else puts("0");
#endif
#ifndef TDOKU_EXAMPLE
    fflush(stdout);
#endif
}

int main(int argc, char **argv) {
    const char *m = getenv("SUDOKU_BENCH_MAX_SOLUTIONS");
    size_t limit = m ? (size_t)atoi(m) : 2;
#if defined(POJ3074) || defined(HDU1426) || defined(FIRST_ONLY)
    limit = 1;
#endif
#ifdef TDOKU_EXAMPLE
    /* As tdoku's example: the limit from the command line, 10000 by default. */
    limit = argc > 1 ? (size_t)atoll(argv[1]) : 10000;
    char *puzzle = NULL;
    size_t size = 0;
    while (getline(&puzzle, &size, stdin) != -1) {
        if (strlen(puzzle) < 81 || puzzle[0] == '#') continue;
        first[0] = '\0';
        int count = solve81(puzzle, limit);
        if (count != 1) first[0] = '\0';
        printf("%.81s:%d:%.81s\n", puzzle, count, first);
    }
    return 0;
#endif
    (void)argc; (void)argv;
#ifdef HDU1426
    char p[82];
    int k = 0;
    char tok[8];
    while (scanf("%7s", tok) == 1) {
        p[k++] = tok[0] == '?' ? '.' : tok[0];
        if (k == 81) { answer(solve81(p, limit)); k = 0; }
    }
#else
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
#ifdef POJ3074
        if (strncmp(line, "end", 3) == 0) break;
#endif
        if (strlen(line) < 81) { answer(0); continue; }
        answer(solve81(line, limit));
    }
#endif
    return 0;
}
#endif
