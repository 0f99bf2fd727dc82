//! sudoku-bench's own backends through tdoku's C type (the `sudoku-bench-ffi` cdylib):
//! called directly, and loaded back through `lib:` next to the built-in backends.
#![cfg(unix)]

mod common;

use std::ffi::c_char;
use std::path::PathBuf;
use std::sync::OnceLock;

use common::{field, project_file, stdout_csv, sudoku_bench};

/// `target/release/libsudoku_bench_ffi.so`, built here when `cargo test` has not built it
/// (a plain `cargo build --release --workspace` does).
fn library() -> &'static PathBuf {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        let exe = assert_cmd::cargo::cargo_bin("sudoku-bench");
        let lib = exe.with_file_name("libsudoku_bench_ffi.so");
        let profile = exe
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = std::process::Command::new(cargo);
        build
            .args(["build", "-p", "sudoku-bench-ffi"])
            .current_dir(project_file(""));
        if profile == "release" {
            build.arg("--release");
        }
        let status = build.status().expect("running cargo");
        assert!(status.success(), "building the ffi crate");
        assert!(lib.exists(), "{} was not built", lib.display());
        lib
    })
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
        let backend: sudoku_bench::solver::Backend = name["sudoku_bench_".len()..]
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
    let path = project_file("datasets/generated-3000.txt");
    for (export, builtin) in [
        ("sudoku_bench_dlx_static", "dlx-static"),
        ("sudoku_bench_dlx_arena", "dlx-arena"),
        ("sudoku_bench_bitboard", "bitboard"),
    ] {
        let spec = format!("lib:{}:{export}", library().display());
        let run = |backend: &str| {
            let out = sudoku_bench()
                .args([
                    "solve",
                    "-q",
                    "--csv",
                    "-",
                    "--limit",
                    "500",
                    "--lib-threadsafe",
                    "-j",
                    "2",
                ])
                .args(["-b", backend])
                .arg(&path)
                .assert()
                .success();
            let (header, rows) = stdout_csv(&out);
            rows.iter()
                .map(|r| {
                    (
                        field(&header, r, "solution").to_string(),
                        field(&header, r, "guesses").to_string(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(&spec), run(builtin), "{export}");
    }
}
