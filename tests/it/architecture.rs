//! The module map stays a map: no import loops between the crate's top-level modules
//! (ARCHITECTURE.md's promise). A loop found here names the files that close it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, in a stable order.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The production code of a file: no comments, no test module.
fn production(text: &str) -> String {
    let mut code = String::new();
    let mut attribute = false;
    for line in text.lines() {
        let t = line.trim_start();
        // `#[cfg(test)]` then `mod tests` (inline or a file of its own): the rest is tests.
        if attribute && t.starts_with("mod ") {
            break;
        }
        attribute = t == "#[cfg(test)]";
        if !t.starts_with("//") {
            code.push_str(line);
            code.push('\n');
        }
    }
    code
}

/// The top-level modules named in `crate::NAME` paths, grouped imports included.
fn references(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                names.extend(group.split(',').map(|g| ident(g.trim())));
            }
            None => {
                names.insert(ident(rest));
            }
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

#[test]
fn no_import_loops_between_top_level_modules() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let module_of = |path: &Path| {
        let rel = path.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        first.trim_end_matches(".rs").to_string()
    };
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    // module -> module it uses -> the files that use it
    let mut uses: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let from = module_of(file);
        if matches!(from.as_str(), "lib" | "main") || file.ends_with("tests.rs") {
            continue;
        }
        let code = production(&std::fs::read_to_string(file).unwrap());
        for to in references(&code) {
            if to != from && modules.contains(&to) {
                let rel = file.strip_prefix(&src).unwrap().display().to_string();
                uses.entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(rel);
            }
        }
    }
    assert!(
        uses.get("bench").is_some_and(|u| u.contains_key("run")),
        "the scan found nothing: {uses:?}"
    );

    // A loop is a module that reaches itself: walk from each, report the first path back.
    let mut loops = Vec::new();
    for start in uses.keys() {
        let mut path = vec![start.clone()];
        let mut seen = BTreeSet::new();
        if let Some(cycle) = back_to(start, &uses, &mut path, &mut seen) {
            // Each loop once: from its smallest module.
            if cycle.iter().min() == Some(start) {
                loops.push(cycle);
            }
        }
    }
    let explain: Vec<String> = loops
        .iter()
        .map(|cycle| {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| {
                    let files: Vec<_> = uses[&w[0]][&w[1]].iter().cloned().collect();
                    format!("{} -> {} ({})", w[0], w[1], files.join(", "))
                })
                .collect();
            steps.join("; ")
        })
        .collect();
    assert!(loops.is_empty(), "import loops:\n{}", explain.join("\n"));
}

/// A path from the last module of `path` back to `start`, if there is one.
fn back_to(
    start: &str,
    uses: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    path: &mut Vec<String>,
    seen: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    let here = path.last().unwrap().clone();
    for next in uses.get(&here).into_iter().flat_map(|u| u.keys()) {
        if next == start {
            let mut cycle = path.clone();
            cycle.push(next.clone());
            return Some(cycle);
        }
        if seen.insert(next.clone()) {
            path.push(next.clone());
            if let Some(cycle) = back_to(start, uses, path, seen) {
                return Some(cycle);
            }
            path.pop();
        }
    }
    None
}

#[test]
fn the_scan_sees_grouped_imports_and_skips_comments_and_tests() {
    let code = production(
        "use crate::{alpha::X, beta};\n// crate::gamma\nfn f() { crate::delta::g() }\n#[cfg(test)]\nmod tests {\n use crate::epsilon;\n}\n",
    );
    let found: Vec<String> = references(&code).into_iter().collect();
    assert_eq!(found, ["alpha", "beta", "delta"]);
}
