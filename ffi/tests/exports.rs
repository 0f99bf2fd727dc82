//! sudoku-bench's own backends through tdoku's C type (this crate's cdylib): called
//! directly, and loaded back through `lib:` next to the built-in backends.
#![cfg(unix)]

use std::ffi::c_char;
use std::path::PathBuf;

/// The cdylib cargo built for this test (beside it, in `deps/`: the crate is an rlib
/// too, so cargo builds the library before its integration tests).
fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let lib = exe.with_file_name(format!(
        "{}sudoku_bench_ffi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(lib.exists(), "{} was not built", lib.display());
    lib
}

type SolveFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

const PUZZLE: &[u8; 81] =
    b".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
const SOLUTION: &[u8; 81] =
    b"652483917978162435314975628825736149791824563436519872269348751547291386183657294";

#[test]
fn the_exports_follow_tdokus_contract() {
    // SAFETY: our own library, whose initializers are Rust's.
    let lib = unsafe { libloading::Library::new(library()) }.unwrap();
    for name in [
        "sudoku_bench_bitboard",
        "sudoku_bench_dlx_static",
        "sudoku_bench_dlx_arena",
        "sudoku_bench_dfs",
    ] {
        // SAFETY: the exports have exactly tdoku's type (ffi/src/lib.rs).
        let solve: libloading::Symbol<SolveFn> = unsafe { lib.get(name.as_bytes()) }.unwrap();
        let mut input = [0u8; 96];
        input[..81].copy_from_slice(PUZZLE);
        let mut solution = [0u8; 81];
        let mut guesses = 99usize;
        // SAFETY: 96 readable bytes, 81 writable, a valid size_t: the contract.
        let n = unsafe {
            solve(
                input.as_ptr().cast(),
                2,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        assert_eq!((n, &solution), (1, SOLUTION), "{name}");
        // The built-in backend's own count of guesses for this puzzle.
        let backend: sudoku_bench::Backend = name["sudoku_bench_".len()..]
            .replace('_', "-")
            .parse()
            .unwrap();
        let grid: sudoku_bench::Grid = std::str::from_utf8(PUZZLE).unwrap().parse().unwrap();
        let own = backend.new_solver().solve(&grid, &Default::default());
        assert_eq!(guesses as u64, own.guesses, "{name}");
        // Null pointers for what the caller does not want; a malformed puzzle is 0.
        // SAFETY: as above; nulls are allowed for the outputs.
        let n = unsafe {
            solve(
                input.as_ptr().cast(),
                1,
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(n, 1);
        input[0] = b'x';
        // SAFETY: as above.
        let n = unsafe {
            solve(
                input.as_ptr().cast(),
                2,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        assert_eq!(n, 0, "{name}");
    }
}

#[test]
fn the_library_loads_back_and_agrees_with_the_built_in_backends() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../datasets/generated-3000.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let grids: Vec<sudoku_bench::Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(500)
        .map(|l| l[..81].parse().unwrap())
        .collect();
    for (export, builtin) in [
        ("sudoku_bench_dlx_static", "dlx-static"),
        ("sudoku_bench_dlx_arena", "dlx-arena"),
        ("sudoku_bench_bitboard", "bitboard"),
    ] {
        let spec = format!("lib:{}:{export}", library().display());
        let run = |backend: &str| {
            let backend: sudoku_bench::Backend = backend.parse().unwrap();
            let mut solver = backend.new_solver();
            grids
                .iter()
                .map(|g| {
                    let out = solver.solve(g, &Default::default());
                    (out.solutions, out.solution, out.guesses)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(&spec), run(builtin), "{export}");
    }
}
