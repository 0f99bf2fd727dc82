//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The path of the binary under test.
pub fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_sudoku-bench"))
}

/// The binary under test, with no terminal-only output, keeping the builds of the
/// baselines it saves under the tests' own folder of `target/`, not in the user's cache.
pub fn sudoku_bench() -> Cmd {
    let mut cmd = program(bin());
    cmd.env_remove("RUST_LOG");
    cmd.env(
        "SUDOKU_BENCH_BUILDS",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("builds"),
    );
    cmd
}

/// Another program (a shell, a tool), run the same way.
pub fn program(name: impl AsRef<OsStr>) -> Cmd {
    Cmd {
        cmd: Command::new(name),
        stdin: Vec::new(),
        timeout: None,
    }
}

/// A command with its standard input and a time limit, run to an [`Assert`]: the few
/// things the tests need from a command-testing crate, without its dependencies.
pub struct Cmd {
    cmd: Command,
    stdin: Vec<u8>,
    timeout: Option<Duration>,
}

impl Cmd {
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Self {
        self.cmd.arg(arg);
        self
    }

    pub fn args(&mut self, args: impl IntoIterator<Item = impl AsRef<OsStr>>) -> &mut Self {
        self.cmd.args(args);
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Self {
        self.cmd.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Self {
        self.cmd.env_remove(key);
        self
    }

    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.cmd.current_dir(dir);
        self
    }

    pub fn write_stdin(&mut self, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.stdin = bytes.into();
        self
    }

    /// Kills the command and fails the test if it runs longer than `limit`.
    pub fn timeout(&mut self, limit: Duration) -> &mut Self {
        self.timeout = Some(limit);
        self
    }

    /// Runs the command to its end: its status and everything it wrote.
    pub fn output(&mut self) -> std::io::Result<Output> {
        let mut child = self
            .cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        // Each pipe drained by its own thread: a command that fills one while the test
        // waits on another would never end.
        let mut stdin = child.stdin.take().expect("piped");
        let input = std::mem::take(&mut self.stdin);
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input); // a command may exit without reading it all
        });
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                pipe.read_to_end(&mut bytes).map(|_| bytes)
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("piped")));
        let stderr = drain(Box::new(child.stderr.take().expect("piped")));
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if self.timeout.is_some_and(|limit| start.elapsed() > limit) {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{:?} ran past its {:?} limit",
                    self.cmd,
                    self.timeout.unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        writer.join().expect("stdin writer");
        Ok(Output {
            status,
            stdout: stdout.join().expect("stdout reader")?,
            stderr: stderr.join().expect("stderr reader")?,
        })
    }

    /// Runs the command, for the checks of [`Assert`].
    pub fn assert(&mut self) -> Assert {
        let output = self.output().expect("the command starts");
        Assert {
            command: format!("{:?}", self.cmd),
            output,
        }
    }
}

/// A finished command, checked by chained calls that fail the test with its output.
pub struct Assert {
    command: String,
    output: Output,
}

impl Assert {
    pub fn get_output(&self) -> &Output {
        &self.output
    }

    #[track_caller]
    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\ncommand: {}\nstatus: {}\nstdout:\n{}\nstderr:\n{}",
            self.command,
            self.output.status,
            String::from_utf8_lossy(&self.output.stdout),
            String::from_utf8_lossy(&self.output.stderr)
        )
    }

    #[track_caller]
    pub fn success(self) -> Self {
        if !self.output.status.success() {
            self.fail("expected success");
        }
        self
    }

    #[track_caller]
    pub fn failure(self) -> Self {
        if self.output.status.success() {
            self.fail("expected failure");
        }
        self
    }

    #[track_caller]
    pub fn code(self, code: i32) -> Self {
        if self.output.status.code() != Some(code) {
            self.fail(&format!("expected exit code {code}"));
        }
        self
    }

    #[track_caller]
    pub fn stdout(self, expect: impl Expect) -> Self {
        if let Err(why) = expect.check(&self.output.stdout) {
            self.fail(&format!("stdout: {why}"));
        }
        self
    }

    #[track_caller]
    pub fn stderr(self, expect: impl Expect) -> Self {
        if let Err(why) = expect.check(&self.output.stderr) {
            self.fail(&format!("stderr: {why}"));
        }
        self
    }
}

/// What an output must be: exactly these bytes (`&str`, `String`, `Vec<u8>`), or
/// [`contains`] a text.
pub trait Expect {
    fn check(&self, output: &[u8]) -> Result<(), String>;
}

impl Expect for &[u8] {
    fn check(&self, output: &[u8]) -> Result<(), String> {
        match output == *self {
            true => Ok(()),
            false => Err(format!(
                "expected exactly {:?}",
                String::from_utf8_lossy(self)
            )),
        }
    }
}

impl Expect for &str {
    fn check(&self, output: &[u8]) -> Result<(), String> {
        self.as_bytes().check(output)
    }
}

impl Expect for String {
    fn check(&self, output: &[u8]) -> Result<(), String> {
        self.as_bytes().check(output)
    }
}

impl Expect for Vec<u8> {
    fn check(&self, output: &[u8]) -> Result<(), String> {
        self.as_slice().check(output)
    }
}

/// The output contains `needle` (or, after [`Contains::not`], does not).
pub fn contains(needle: impl Into<String>) -> Contains {
    Contains {
        needle: needle.into(),
        present: true,
    }
}

pub struct Contains {
    needle: String,
    present: bool,
}

impl Contains {
    #[allow(clippy::should_implement_trait)] // reads as the predicate crates' `.not()`
    pub fn not(self) -> Contains {
        Contains {
            present: !self.present,
            ..self
        }
    }
}

impl Expect for Contains {
    fn check(&self, output: &[u8]) -> Result<(), String> {
        match String::from_utf8_lossy(output).contains(&self.needle) == self.present {
            true => Ok(()),
            false if self.present => Err(format!("expected it to contain {:?}", self.needle)),
            false => Err(format!("expected it not to contain {:?}", self.needle)),
        }
    }
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
pub fn stdout_csv(assert: &Assert) -> (Vec<String>, Vec<Vec<String>>) {
    read_csv(&String::from_utf8_lossy(&assert.get_output().stdout))
}

/// The binary under test, run in `dir` (where `results/baselines/` is looked for).
pub fn sudoku_bench_in(dir: &Path) -> Cmd {
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
