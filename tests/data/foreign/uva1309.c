/* A 16x16 judge submission for the tests of `exec:uva1309:CMD` and
 * `exec:spoj-sudoku:CMD`, written the way contest solutions are: cases of 16 lines of
 * 16 characters (A-P, '-' blank) until the end of the input (with -DSPOJ, after a count
 * line), each answered with its solved grid, one empty line between grids. Backtracking
 * on bit masks, the cell with fewest candidates first.
 *
 * Variants (-D...): WRONG swaps two cells of every answer; CRASH aborts after the first
 * answer; HANG never answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 16
#define CELLS (N * N)

static int cell[CELLS];
static unsigned row_used[N], col_used[N], box_used[N];

static int box_of(int i) { return (i / N / 4) * 4 + (i % N) / 4; }

static void place(int i, int v) {
    unsigned bit = 1u << v;
    cell[i] = v + 1;
    row_used[i / N] |= bit;
    col_used[i % N] |= bit;
    box_used[box_of(i)] |= bit;
}

static void unplace(int i, int v) {
    unsigned bit = ~(1u << v);
    cell[i] = 0;
    row_used[i / N] &= bit;
    col_used[i % N] &= bit;
    box_used[box_of(i)] &= bit;
}

static int search(void) {
    int best = -1, best_count = N + 1;
    unsigned best_free = 0;
    for (int i = 0; i < CELLS; i++) {
        if (cell[i]) continue;
        unsigned free = ~(row_used[i / N] | col_used[i % N] | box_used[box_of(i)]) & 0xffffu;
        int count = __builtin_popcount(free);
        if (count < best_count) {
            best = i, best_count = count, best_free = free;
            if (count <= 1) break;
        }
    }
    if (best < 0) return 1;
    while (best_free) {
        int v = __builtin_ctz(best_free);
        best_free &= best_free - 1;
        place(best, v);
        if (search()) return 1;
        unplace(best, v);
    }
    return 0;
}

/* Reads one case; 0 at the end of the input. */
static int read_case(void) {
    char line[256];
    int r = 0;
    memset(cell, 0, sizeof cell);
    memset(row_used, 0, sizeof row_used);
    memset(col_used, 0, sizeof col_used);
    memset(box_used, 0, sizeof box_used);
    while (r < N && fgets(line, sizeof line, stdin)) {
        if (line[0] == '\n' || line[0] == '\r') continue;
        for (int c = 0; c < N; c++) {
            char ch = line[c];
            if (ch >= 'A' && ch <= 'P') place(r * N + c, ch - 'A');
        }
        r++;
    }
    return r == N;
}

int main(void) {
#ifdef HANG
    for (;;) pause();
#endif
#ifdef SPOJ
    int cases = 0;
    if (scanf("%d", &cases) != 1) return 0;
#endif
    int k = 0;
    while (
#ifdef SPOJ
        k < cases &&
#endif
        read_case()) {
        if (k > 0) putchar('\n');
        if (search()) {
#ifdef WRONG
            int t = cell[0];
            cell[0] = cell[1];
            cell[1] = t;
#endif
            for (int r = 0; r < N; r++) {
                for (int c = 0; c < N; c++) putchar('A' + cell[r * N + c] - 1);
                putchar('\n');
            }
        }
        k++;
        fflush(stdout);
#ifdef CRASH
        abort();
#endif
    }
    return 0;
}
