//! The module map stays a map (ARCHITECTURE.md): the crate's top-level modules form
//! layers, each using only the layers below it, and no file uses a file that uses it
//! back, inside a module or across. The scan reads the code as tokens (comments and
//! strings dropped), skips every item under `#[cfg(test)]` wherever it stands (a `mod x;`
//! line or a block), reads `use` trees at any depth, and resolves `crate::`, `super::`
//! (at any depth) and `self::` paths, so an import cannot hide from it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, as ARCHITECTURE.md draws them: a module may use the modules
/// of its own layer's row only where listed in `SIDEWAYS`, and any module of a lower row.
const LAYERS: &[&[&str]] = &[
    &["base"],
    &["board"],
    &["solver"],
    &["record"],
    &["output"],
    &["format"],
    &["loader", "run"],
    &["report"],
    &["generate", "judge"],
    &["bench"],
    &["cli"],
    &["options"],
    &["app"],
];

/// A token: an identifier (or keyword), `::`, or one punctuation character.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Path,
    Punct(char),
}

/// The code of a file as tokens: comments, strings, chars and lifetimes dropped.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            'r' if matches!(next, Some('"' | '#')) && raw_string_start(&chars, i) => {
                i = skip_raw_string(&chars, i);
            }
            'b' if next == Some('"') => i = skip_string(&chars, i + 1),
            '"' => i = skip_string(&chars, i),
            '\'' => i = skip_char_or_lifetime(&chars, i),
            ':' if next == Some(':') => {
                out.push(Token::Path);
                i += 2;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push(Token::Ident(chars[start..i].iter().collect()));
            }
            c if c.is_whitespace() || c.is_ascii_digit() => i += 1,
            c => {
                out.push(Token::Punct(c));
                i += 1;
            }
        }
    }
    out
}

fn raw_string_start(chars: &[char], i: usize) -> bool {
    // `r"` or `r#...#"`, not an identifier ending in r.
    let before = i.checked_sub(1).map(|j| chars[j]);
    if before.is_some_and(|b| b.is_alphanumeric() || b == '_') {
        return false;
    }
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

fn skip_raw_string(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    let mut hashes = 0;
    while chars[j] == '#' {
        hashes += 1;
        j += 1;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
            return j + 1 + hashes;
        }
        j += 1;
    }
    j
}

fn skip_string(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    while j < chars.len() && chars[j] != '"' {
        j += if chars[j] == '\\' { 2 } else { 1 };
    }
    j + 1
}

fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    // 'a' or '\n' is a char; 'a (no closing quote right after) a lifetime.
    match (chars.get(i + 1), chars.get(i + 2)) {
        (Some('\\'), _) => {
            let mut j = i + 2;
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            j + 1
        }
        (Some(_), Some('\'')) => i + 3,
        _ => i + 1,
    }
}

/// The tokens with every item under `#[cfg(test)]` removed: the attribute, then the
/// item up to its `;` or the end of its block.
fn production(tokens: &[Token]) -> Vec<Token> {
    let is = |i: usize, t: &Token| tokens.get(i) == Some(t);
    let ident = |s: &str| Token::Ident(s.into());
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let cfg_test = is(i, &Token::Punct('#'))
            && is(i + 1, &Token::Punct('['))
            && is(i + 2, &ident("cfg"))
            && is(i + 3, &Token::Punct('('))
            && is(i + 4, &ident("test"))
            && is(i + 5, &Token::Punct(')'))
            && is(i + 6, &Token::Punct(']'));
        if !cfg_test {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        // Skip the item: through the block it opens, or to its `;` (an item) or `,` (a
        // field, a variant, an argument), or to the end of the block it stands in.
        i += 7;
        let mut depth = 0usize;
        while i < tokens.len() {
            match &tokens[i] {
                Token::Punct('{' | '(' | '[') => depth += 1,
                Token::Punct('}' | ')' | ']') if depth == 0 => break,
                Token::Punct('}') if depth == 1 => {
                    i += 1;
                    break;
                }
                Token::Punct('}' | ')' | ']') => depth -= 1,
                Token::Punct(';' | ',') if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// Every path the code names that starts with `crate`, `super` or `self`, as the
/// segments after that start (`use` trees expanded: `crate::{a::{b, c}, d}` gives
/// `a::b`, `a::c` and `d`), each with its start.
fn paths(tokens: &[Token]) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let start = match &tokens[i] {
            Token::Ident(s) if matches!(s.as_str(), "crate" | "super" | "self") => s.clone(),
            _ => {
                i += 1;
                continue;
            }
        };
        // A path segment before it (`a::crate`) would not be a path start.
        if i > 0 && tokens[i - 1] == Token::Path {
            i += 1;
            continue;
        }
        let mut prefix = vec![start];
        i += 1;
        i = tree(tokens, i, &mut prefix, &mut out);
    }
    out.into_iter()
        .map(|mut p| {
            let start = p.remove(0);
            (start, p)
        })
        .collect()
}

/// Reads the rest of a path or use tree from `i` (after `prefix`), adding each full
/// path to `out`; returns where it ended.
fn tree(
    tokens: &[Token],
    mut i: usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let depth = prefix.len();
    loop {
        if tokens.get(i) != Some(&Token::Path) {
            out.push(prefix.clone());
            break;
        }
        i += 1;
        match tokens.get(i) {
            Some(Token::Ident(s)) => {
                prefix.push(s.clone());
                i += 1;
            }
            Some(Token::Punct('{')) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some(Token::Punct('}')) => {
                            i += 1;
                            break;
                        }
                        Some(Token::Punct(',')) => i += 1,
                        Some(Token::Ident(s)) => {
                            let mut inner = prefix.clone();
                            if s != "self" {
                                inner.push(s.clone());
                            }
                            i = tree(tokens, i + 1, &mut inner, out);
                            // `as name`
                            if tokens.get(i) == Some(&Token::Ident("as".into())) {
                                i += 2;
                            }
                        }
                        Some(_) => i += 1,
                        None => break,
                    }
                }
                break;
            }
            _ => {
                out.push(prefix.clone());
                break;
            }
        }
    }
    prefix.truncate(depth);
    i
}

/// A file of `src/` and the module path it stands for (`bench/present/html.rs` is
/// `["bench", "present", "html"]`, `bench/mod.rs` is `["bench"]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The files of `src/`, each with its module path.
fn files() -> Vec<(PathBuf, Vec<String>)> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|f| {
            let m = module_path(&src, &f);
            (f, m)
        })
        .collect()
}

/// Which file (by module path) each file uses, resolved to the longest module path
/// that exists.
fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = files();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (file, here) in &files {
        let name = file.file_name().unwrap().to_string_lossy();
        // Test files, the crate root (it re-exports), the binary.
        if name == "tests.rs" || here.is_empty() {
            continue;
        }
        let code = production(&tokens(&std::fs::read_to_string(file).unwrap()));
        // The module a `self::` path is relative to: a file `x.rs` is module x.
        for (start, rest) in paths(&code) {
            let mut full = match start.as_str() {
                "crate" => Vec::new(),
                _ => here.clone(),
            };
            let mut rest = rest.into_iter().peekable();
            if start == "super" {
                full.pop();
                while rest.peek().is_some_and(|s| s == "super") {
                    rest.next();
                    full.pop();
                }
            }
            full.extend(rest);
            // The longest prefix that names a file of the crate.
            while !full.is_empty() && !modules.contains(&full) {
                full.pop();
            }
            if !full.is_empty() && full != *here && !here.starts_with(&full) {
                uses.entry(here.clone()).or_default().insert(full);
            }
        }
    }
    uses
}

fn top(m: &[String]) -> &str {
    &m[0]
}

#[test]
fn layers_are_used_only_downward() {
    let uses = graph();
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut wrong = Vec::new();
    let tops: BTreeSet<String> = files()
        .into_iter()
        .filter_map(|(_, m)| m.first().cloned())
        .collect();
    for t in &tops {
        assert!(
            layer(t).is_some(),
            "{t} is in no layer of LAYERS (and ARCHITECTURE.md)"
        );
    }
    for (from, tos) in &uses {
        for to in tos {
            let (a, b) = (top(from), top(to));
            if a == b {
                continue;
            }
            if layer(b) >= layer(a) {
                wrong.push(format!(
                    "{} uses {} ({a} may not use {b})",
                    from.join("/"),
                    to.join("/")
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_file_uses_a_file_that_uses_it_back() {
    let uses = graph();
    let mut loops = Vec::new();
    for start in uses.keys() {
        let mut path = vec![start.clone()];
        let mut seen = BTreeSet::new();
        if let Some(cycle) = back_to(start, &uses, &mut path, &mut seen)
            && cycle.iter().min() == Some(start)
        {
            let names: Vec<String> = cycle.iter().map(|m| m.join("/")).collect();
            loops.push(names.join(" -> "));
        }
    }
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

/// A path from the last module of `path` back to `start`, if there is one.
fn back_to(
    start: &Vec<String>,
    uses: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    path: &mut Vec<Vec<String>>,
    seen: &mut BTreeSet<Vec<String>>,
) -> Option<Vec<Vec<String>>> {
    let here = path.last().unwrap().clone();
    for next in uses.get(&here).into_iter().flatten() {
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
fn the_scan_cannot_be_fooled() {
    let code = r#"
#[cfg(test)] mod helper;
use crate::{a::{b, c}, d};
use super::super::e::f;
use self::g;
// crate::hidden_in_a_comment
fn h() -> &'static str { "crate::hidden_in_a_string" }
fn i() { crate::j::k(); }
#[cfg(test)]
mod tests { use crate::not_counted; }
fn l() { crate::m::n() }
"#;
    let found: Vec<String> = paths(&production(&tokens(code)))
        .into_iter()
        .map(|(start, rest)| format!("{start}::{}", rest.join("::")))
        .collect();
    assert_eq!(
        found,
        [
            "crate::a::b",
            "crate::a::c",
            "crate::d",
            "super::super::e::f",
            "self::g",
            "crate::j::k",
            "crate::m::n"
        ]
    );
}

#[test]
fn architecture_md_draws_the_same_layers() {
    let text =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .unwrap();
    for (row, modules) in LAYERS.iter().enumerate() {
        let line = format!(
            "{}. {}",
            row + 1,
            modules
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert!(
            text.contains(&line),
            "ARCHITECTURE.md's layers do not list {line:?}"
        );
    }
}
