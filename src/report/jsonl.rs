//! JSON lines: one object per input record, with the CSV's fields (numbers as numbers,
//! `true`/`false`, `null` where the CSV leaves a field empty).

use super::cached;
use crate::record::SourceName;
use std::io::Write;

use super::RowFormat;
use super::csv::COLUMNS;
use crate::run::PuzzleResult;

#[derive(Default)]
pub struct JsonRows {
    /// The last source and backend, already escaped.
    source: Option<(SourceName, Vec<u8>)>,
    backend: Option<(&'static str, Vec<u8>)>,
}

/// A JSON string, escaped.
fn string(out: &mut Vec<u8>, s: &str) {
    // Writing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

fn or_null<T: std::fmt::Display>(out: &mut Vec<u8>, v: Option<T>) {
    let _ = match v {
        Some(v) => write!(out, "{v}"),
        None => write!(out, "null"),
    };
}

impl RowFormat for JsonRows {
    fn row(&mut self, r: &PuzzleResult, out: &mut Vec<u8>) {
        let key = |out: &mut Vec<u8>, i: usize| {
            out.extend_from_slice(if i == 0 { b"{\"" } else { b",\"" });
            out.extend_from_slice(COLUMNS[i].as_bytes());
            out.extend_from_slice(b"\":");
        };
        key(out, 0);
        cached(out, &mut self.source, &r.source, string);
        key(out, 1);
        let _ = write!(out, "{}", r.number);
        key(out, 2);
        let _ = write!(out, "{}", r.line);
        key(out, 3);
        cached(out, &mut self.backend, &r.backend, string);
        key(out, 4);
        let _ = write!(out, "\"{}\"", r.status.name());
        key(out, 5);
        let _ = write!(out, "{}", r.solutions);
        key(out, 6);
        or_null(out, r.puzzle.as_ref().map(|g| g.clues()));
        key(out, 7);
        or_null(out, r.valid);
        key(out, 8);
        or_null(out, r.matches_expected);
        key(out, 9);
        or_null(out, r.nodes);
        key(out, 10);
        or_null(out, r.guesses);
        key(out, 11);
        let _ = write!(out, "{}", r.time_ns);
        key(out, 12);
        or_null(out, r.thread);
        key(out, 13);
        match &r.puzzle {
            Some(g) => {
                out.push(b'"');
                g.write_line_with(b'.', out);
                out.push(b'"');
            }
            None => out.extend_from_slice(b"null"),
        }
        key(out, 14);
        match &r.solution {
            Some(g) => {
                out.push(b'"');
                g.write_line_with(b'0', out);
                out.push(b'"');
            }
            None => out.extend_from_slice(b"null"),
        }
        key(out, 15);
        match &r.error {
            Some(e) => string(out, e),
            None => out.extend_from_slice(b"null"),
        }
        key(out, 16);
        or_null(out, r.puzzle.as_ref().map(|g| g.side()));
        key(out, 17);
        match r.status.reached_solver() {
            true => {
                let _ = write!(out, "\"{}\"", r.clock.name());
            }
            false => out.extend_from_slice(b"null"),
        }
        key(out, 18);
        or_null(out, r.verified.as_bool());
        out.extend_from_slice(b"}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Status;

    #[test]
    fn each_row_is_one_json_object_with_the_csv_fields() {
        let r = PuzzleResult {
            source: "a \"b\".txt".into(),
            number: 3,
            line: 7,
            backend: "dlx-static",
            status: Status::ParseError,
            puzzle: None,
            solutions: 0,
            solution: None,
            valid: None,
            matches_expected: Some(false),
            nodes: None,
            guesses: Some(0),
            time_ns: 12,
            clock: crate::solver::Clock::Harness,
            verified: crate::run::Verification::None,
            thread: Some(1),
            error: Some("line 7: bad\nthing".into()),
        };
        let mut out = Vec::new();
        let mut rows = JsonRows::default();
        rows.row(&r, &mut out);
        rows.row(&r, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2);
        let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let mut want = COLUMNS.to_vec();
        want.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, want);
        assert_eq!(v["source"], "a \"b\".txt");
        assert_eq!(v["status"], "parse_error");
        assert_eq!(v["clues"], serde_json::Value::Null);
        assert_eq!(v["matches_expected"], false);
        assert_eq!(v["thread"], 1);
        assert_eq!(v["error"], "line 7: bad\nthing");
    }
}
