//! sudoku-bench's backends as C functions with tdoku's solver type:
//!
//! ```c
//! size_t fn(const char *input, size_t limit, uint32_t flags, char *solution, size_t *num_guesses);
//! ```
//!
//! `input` is 81 characters (`1`-`9`, `.` or `0` for blanks); the function returns the
//! number of solutions up to `limit`, writes the first one (81 digits) to `solution` when
//! there is one and it is not null, and the guesses to `num_guesses` when it is not null.
//! `flags` is ignored. A malformed input returns 0. Each thread keeps its own solver, so
//! the functions may be called from several threads at once.
//!
//! tdoku's benchmark harness can call these, and one build of sudoku-bench can load
//! another's: `--backends lib:target/release/libsudoku_bench_ffi.so:sudoku_bench_dlx_static`.

use std::cell::RefCell;
use std::ffi::c_char;

use sudoku_bench::Grid;
use sudoku_bench::SplitMix64;
use sudoku_bench::{Backend, Limits, Solver, placed_anew};

/// A backend's solver on this thread, and the calls it has answered.
struct Slot {
    backend: Backend,
    solver: Box<dyn Solver>,
    calls: u32,
}

thread_local! {
    /// One solver per backend per thread, reused from call to call.
    static SOLVERS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
    /// Chooses where each renewed solver lands.
    static PLACES: RefCell<SplitMix64> = const { RefCell::new(SplitMix64::new(0x5EED)) };
}

/// Calls after which a thread's solver is made anew.
const RENEW: u32 = 4096;

/// A fresh solver, placed somewhere else than the last (`placed_anew`): a library that
/// kept one for ever would tilt every comparison of two builds one way or the other for
/// a whole run. Renewed every `RENEW` calls, the placements average out (as `bench
/// --paired` does for the built-in backends), at the cost of an allocation and some
/// cold memory: a small share of 4,096 calls.
fn fresh(backend: &Backend) -> Box<dyn Solver> {
    let random = PLACES.with(|p| p.borrow_mut().next_u64());
    placed_anew(random, || backend.new_solver())
}

/// Solves with `backend`; see the crate documentation for the contract.
///
/// # Safety
/// `input` must point to at least 81 readable bytes; `solution`, when not null, to 81
/// writable bytes; `num_guesses`, when not null, to a writable `size_t`.
unsafe fn solve_with(
    backend: Backend,
    input: *const c_char,
    limit: usize,
    solution: *mut c_char,
    num_guesses: *mut usize,
) -> usize {
    if input.is_null() || limit == 0 {
        return 0;
    }
    // SAFETY: the caller promises 81 readable bytes at `input`.
    let bytes = unsafe { std::slice::from_raw_parts(input.cast::<u8>(), 81) };
    let Ok(grid) = Grid::from_line(bytes) else {
        return 0;
    };
    // Conflicting givens need no check here: every backend answers them with no
    // solution (the `Solver` contract, tested for each).
    let limits = Limits {
        max_solutions: u32::try_from(limit).unwrap_or(u32::MAX),
        ..Limits::default()
    };
    // A panic must not unwind into C.
    let outcome = std::panic::catch_unwind(|| {
        SOLVERS.with(|cell| {
            let mut solvers = cell.borrow_mut();
            let i = match solvers.iter().position(|s| s.backend == backend) {
                Some(i) => i,
                None => {
                    solvers.push(Slot {
                        solver: fresh(&backend),
                        backend: backend.clone(),
                        calls: 0,
                    });
                    solvers.len() - 1
                }
            };
            let slot = &mut solvers[i];
            slot.calls += 1;
            if slot.calls == RENEW {
                slot.calls = 0;
                slot.solver = fresh(&backend);
            }
            slot.solver.solve(&grid, &limits)
        })
    });
    let Ok(outcome) = outcome else {
        return 0;
    };
    if let (Some(s), false) = (outcome.solution, solution.is_null()) {
        // SAFETY: the caller promises 81 writable bytes at `solution`.
        unsafe {
            std::ptr::copy_nonoverlapping(s.to_line_with(b'0').as_ptr(), solution.cast::<u8>(), 81)
        };
    }
    if !num_guesses.is_null() {
        // SAFETY: the caller promises a writable `size_t` at `num_guesses`.
        unsafe { *num_guesses = outcome.guesses as usize };
    }
    outcome.solutions as usize
}

macro_rules! export {
    ($name:ident, $backend:expr) => {
        /// tdoku's solver type; see the crate documentation.
        ///
        /// # Safety
        /// `input` must point to at least 81 readable bytes; `solution`, when not null,
        /// to 81 writable bytes; `num_guesses`, when not null, to a writable `size_t`.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            input: *const c_char,
            limit: usize,
            _flags: u32,
            solution: *mut c_char,
            num_guesses: *mut usize,
        ) -> usize {
            // SAFETY: the caller's promises are this function's own.
            unsafe { solve_with($backend, input, limit, solution, num_guesses) }
        }
    };
}

export!(sudoku_bench_bitboard, Backend::Bitboard);
export!(sudoku_bench_dlx_static, Backend::DlxStatic);
export!(sudoku_bench_dlx_arena, Backend::DlxArena);
export!(sudoku_bench_dfs, Backend::Dfs);
