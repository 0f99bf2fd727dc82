//! Records the compiler version and git revision, so benchmark runs say what built them.

use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BENCH_RUSTC={version}");
    let revision = output("git", &["rev-parse", "--short=12", "HEAD"]).map(|rev| {
        let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
        if dirty { format!("{rev}-dirty") } else { rev }
    });
    println!(
        "cargo:rustc-env=SUDOKU_BENCH_GIT_REVISION={}",
        revision.unwrap_or_default()
    );
    // Run again when the sources change (a changed tree is `-dirty`) and when a commit or
    // a checkout moves HEAD. The git paths are asked for: in a worktree `.git` is a file.
    for path in ["src", "ffi/src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    for (args, tail) in [
        (&["rev-parse", "--git-dir"][..], "HEAD"),
        (&["rev-parse", "--git-common-dir"][..], "refs/heads"),
        (&["rev-parse", "--git-common-dir"][..], "packed-refs"),
    ] {
        if let Some(dir) = output("git", args) {
            let path = std::path::Path::new(&dir).join(tail);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
