/* A lib: solver that writes its solution only when asked for one (limit 1), as tdoku
 * does: sudoku-bench's own backends from the ffi library, the solution pointer passed
 * on only for limit 1. Against the same backend called directly, it shows what the
 * second call for the solution costs inside the clock (nothing, when it is outside).
 * Built by scripts/foreign.sh, never by cargo:
 *
 * cc -O2 -shared -fPIC scripts/late-shim.c -o late-shim.so -Ltarget/release \
 *    -lsudoku_bench_ffi -Wl,-rpath,$PWD/target/release
 */
#include <stddef.h>
#include <stdint.h>

size_t sudoku_bench_bitboard(const char *, size_t, uint32_t, char *, size_t *);
size_t sudoku_bench_dlx_static(const char *, size_t, uint32_t, char *, size_t *);

size_t late_bitboard(const char *input, size_t limit, uint32_t flags, char *solution,
                     size_t *num_guesses) {
    return sudoku_bench_bitboard(input, limit, flags, limit == 1 ? solution : NULL,
                                 num_guesses);
}

size_t late_dlx_static(const char *input, size_t limit, uint32_t flags, char *solution,
                       size_t *num_guesses) {
    return sudoku_bench_dlx_static(input, limit, flags, limit == 1 ? solution : NULL,
                                   num_guesses);
}
