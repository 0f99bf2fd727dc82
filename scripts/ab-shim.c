/* A lib: shim for A/B studies: sudoku-bench's dlx-static (from the ffi library), made
 * slower by a known share. Test-only: it is built by scripts/ab-study.sh, never by cargo.
 *
 *   ab_base  calls sudoku_bench_dlx_static and times the call (as ab_slow does, so the
 *            two differ only by the slowdown);
 *   ab_slow  the same, then spins until the call has taken (1000 + AB_SLOW_PERMILLE) /
 *            1000 times as long (default 30: 3% slower).
 *
 * The clock is CLOCK_MONOTONIC, read through the vDSO in about 20 ns: the thread's CPU
 * clock is a system call on many VMs (0.3 us), as long as the whole 3% of a 12 us solve,
 * which would make the slowdown a matter of how many clock reads fit.
 *
 * cc -O2 -shared -fPIC scripts/ab-shim.c -o ab-shim.so -Ltarget/release \
 *    -lsudoku_bench_ffi -Wl,-rpath,$PWD/target/release
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

size_t sudoku_bench_dlx_static(const char *input, size_t limit, uint32_t flags,
                               char *solution, size_t *num_guesses);

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t permille(void) {
    static int64_t cached = -1;
    if (cached < 0) {
        const char *env = getenv("AB_SLOW_PERMILLE");
        long v = env ? strtol(env, NULL, 10) : 30;
        cached = v < 0 ? 0 : v > 100000 ? 100000 : v;
    }
    return (uint64_t)cached;
}

static size_t timed(const char *input, size_t limit, uint32_t flags, char *solution,
                    size_t *num_guesses, uint64_t extra_permille) {
    uint64_t start = now_ns();
    size_t n = sudoku_bench_dlx_static(input, limit, flags, solution, num_guesses);
    uint64_t took = now_ns() - start;
    if (extra_permille > 0) {
        uint64_t until = start + took + took * extra_permille / 1000;
        while (now_ns() < until) {
        }
    }
    return n;
}

size_t ab_base(const char *input, size_t limit, uint32_t flags, char *solution,
               size_t *num_guesses) {
    return timed(input, limit, flags, solution, num_guesses, 0);
}

size_t ab_slow(const char *input, size_t limit, uint32_t flags, char *solution,
               size_t *num_guesses) {
    return timed(input, limit, flags, solution, num_guesses, permille());
}
