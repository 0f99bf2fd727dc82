//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The binary under test, with no terminal-only output.
pub fn sudoku_bench() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("sudoku-bench").expect("binary is built");
    cmd.env_remove("RUST_LOG");
    cmd
}

/// A file under the project root (`datasets/...`, `tests/data/...`).
pub fn project_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Parses a CSV written by `solve --csv` into header and rows.
pub fn read_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.expect("row").iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// The CSV a command wrote to its stdout (`--csv -`), as header and rows.
pub fn stdout_csv(assert: &assert_cmd::assert::Assert) -> (Vec<String>, Vec<Vec<String>>) {
    read_csv(&String::from_utf8_lossy(&assert.get_output().stdout))
}

/// The binary under test, run in `dir` (where `results/baselines/` is looked for).
pub fn sudoku_bench_in(dir: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = sudoku_bench();
    cmd.current_dir(dir);
    cmd
}

/// The value of `column` in `row`.
pub fn field<'a>(header: &[String], row: &'a [String], column: &str) -> &'a str {
    let i = header
        .iter()
        .position(|h| h == column)
        .unwrap_or_else(|| panic!("no column {column}"));
    &row[i]
}

/// The CSV with the columns that vary run to run (time, thread) blanked, for snapshots.
pub fn stable_csv(text: &str) -> String {
    let (header, rows) = read_csv(text);
    let mut out = header.join(",") + "\n";
    for row in rows {
        let cells: Vec<String> = header
            .iter()
            .zip(row)
            .map(|(h, v)| match h.as_str() {
                "time_ns" | "thread" => "_".to_string(),
                "source" => v.rsplit(['/', '\\']).next().unwrap_or("").to_string(),
                _ if v.contains(',') || v.contains('"') => format!("{v:?}"),
                _ => v,
            })
            .collect();
        out += &(cells.join(",") + "\n");
    }
    out
}

/// `bytes` compressed as a file of that extension would be: `gz`, `zst`, `xz` or `bz2`
/// (pure-Rust encoders, as the decoders are).
pub fn compress(kind: &str, bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    match kind {
        "gz" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        "zst" => {
            ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
        }
        "xz" => {
            let mut e = lzma_rust2::XzWriter::new(Vec::new(), Default::default()).unwrap();
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        "bz2" => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        _ => panic!("no compression {kind}"),
    }
}

/// `n` generated 16x16 puzzles (`puzzle:1:solution` lines after a `#` header) with
/// many clues, quick to make and to solve; the same for the same seed.
pub fn easy_16x16(n: usize, seed: u64) -> Vec<u8> {
    let (n, seed) = (n.to_string(), seed.to_string());
    let args = [
        "gen",
        "--size",
        "16",
        "--min-clues",
        "150",
        "-n",
        &n,
        "-s",
        &seed,
    ];
    let out = sudoku_bench().args(args).assert().success();
    out.get_output().stdout.clone()
}

/// `solve --csv -` with `args` on `text` written to a file named `name` (its name picks
/// nothing; its content is detected): the output, and the rows' header and fields.
pub fn solve_named(
    name: &str,
    text: &[u8],
    args: &[&str],
) -> (std::process::Output, Vec<String>, Vec<Vec<String>>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let out = sudoku_bench()
        .args(["solve", "--csv", "-"])
        .args(args)
        .arg(&path)
        .output()
        .unwrap();
    let (header, rows) = read_csv(&String::from_utf8_lossy(&out.stdout));
    (out, header, rows)
}
