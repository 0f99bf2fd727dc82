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
        "cargo:rustc-env=SUDOKU_BENCH_VERSION_REVISION={}",
        revision.as_deref().unwrap_or("unknown revision")
    );
    println!(
        "cargo:rustc-env=SUDOKU_BENCH_GIT_REVISION={}",
        revision.unwrap_or_default()
    );
    // Rebuild when the checked-out commit changes; harmless outside a git checkout.
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    println!("cargo:rerun-if-changed=build.rs");
}
