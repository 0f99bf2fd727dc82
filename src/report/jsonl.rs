//! JSON lines: one object per input record, with the CSV's fields (numbers as numbers,
//! `true`/`false`, `null` where the CSV leaves a field empty).

use super::csv::{COLUMNS, CellRows, CellWriter};
use crate::board::Board;

pub type JsonRows = CellRows<Json>;

#[derive(Default)]
pub struct Json;

impl CellWriter for Json {
    #[inline(always)]
    fn before(out: &mut Vec<u8>, i: usize) {
        out.extend_from_slice(if i == 0 { b"{\"" } else { b",\"" });
        out.extend_from_slice(COLUMNS[i].as_bytes());
        out.extend_from_slice(b"\":");
    }
    fn end(out: &mut Vec<u8>) {
        out.extend_from_slice(b"}\n");
    }
    fn none(out: &mut Vec<u8>) {
        out.extend_from_slice(b"null");
    }
    fn text(out: &mut Vec<u8>, s: &str) {
        // Writing a `str` into a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
    fn word(out: &mut Vec<u8>, s: &str) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
    fn board(out: &mut Vec<u8>, g: &Board, blank: u8) {
        out.push(b'"');
        g.write_line_with(blank, out);
        out.push(b'"');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RowFormat;
    use crate::run::{PuzzleResult, Status};

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
            unseen_ns: 0,
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
