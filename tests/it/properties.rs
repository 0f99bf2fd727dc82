//! The fuzz targets' properties, as property tests in the normal suite.

use std::io::Cursor;

use proptest::prelude::*;
use sudoku_bench::Format;
use sudoku_bench::Grid;
use sudoku_bench::GuardedSolver;
use sudoku_bench::generate;
use sudoku_bench::{Backend, Limits, Shape};

const NINE: Shape = Shape { rows: 3, cols: 3 };

/// Puzzles with one, several or no solutions: a generated unique puzzle, some clues
/// removed (often several solutions), sometimes one cell changed (often none).
fn puzzle_of_every_kind() -> impl Strategy<Value = Grid> {
    (
        0u64..1000,
        proptest::collection::vec(0u8..8, 81),
        proptest::option::of((0usize..81, 1u8..=9)),
    )
        .prop_map(|(seed, removals, tweak)| {
            let mut solver = GuardedSolver::new(&Backend::DlxStatic, &Limits::default(), None);
            let mut grid = *generate(seed, 0, NINE, 24, &mut solver)
                .puzzle
                .nine()
                .unwrap();
            for (cell, &r) in removals.iter().enumerate() {
                if r == 0 {
                    grid.set(cell, 0);
                }
            }
            if let Some((cell, digit)) = tweak {
                grid.set(cell, digit);
            }
            grid
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every backend that finishes agrees on the count; every solution is right.
    #[test]
    fn backends_agree_on_arbitrary_grids(grid in puzzle_of_every_kind(), max in 1u32..=2) {
        let limits = Limits { max_solutions: max, max_nodes: 100_000, ..Limits::default() };
        let conflict = grid.find_conflict().is_some();
        let mut counts = Vec::new();
        for backend in Backend::ALL {
            let out = backend.new_solver().solve(&grid, &limits);
            prop_assert!(out.solutions <= max);
            prop_assert_eq!(out.solutions > 0, out.solution.is_some());
            if let Some(s) = out.solution {
                prop_assert!(!conflict);
                prop_assert_eq!(s.check_solution_of(&grid), Ok(()));
            }
            if !out.budget_exceeded {
                counts.push(out.solutions);
            }
        }
        prop_assert!(counts.windows(2).all(|w| w[0] == w[1]), "{:?} on {}", counts, grid);
    }

    /// Any bytes through every format: no panic, records numbered 1, 2, 3, ...
    #[test]
    fn any_bytes_in_any_format(data in proptest::collection::vec(any::<u8>(), 0..2000)) {
        for &format in &Format::ALL {
            let mut reader = format.reader(Cursor::new(&data), &Default::default());
            let mut number = 0;
            while let Some(record) = reader.next_record() {
                let record = record.unwrap();
                number += 1;
                prop_assert_eq!(record.number, number);
                prop_assert!(record.line >= 1);
            }
        }
    }

    /// JSON-like text (brackets, strings, numbers, `null`, cut anywhere) through the
    /// JSON reader: no panic, no I/O error, records numbered 1, 2, 3, ...
    #[test]
    fn json_like_text_reads_without_panic(
        text in r#"([\[\]{},: \n]|"[0-9.a-z]{0,20}"|[0-9]{1,3}|null|"puzzle"){0,200}"#,
    ) {
        let mut reader = Format::Json.reader(Cursor::new(text.as_bytes()), &Default::default());
        let mut number = 0;
        while let Some(record) = reader.next_record() {
            number += 1;
            prop_assert_eq!(record.unwrap().number, number);
        }
    }

    /// Text made of the formats' own characters reaches more of the parsers than bytes.
    #[test]
    fn puzzle_like_text_in_any_format(
        text in "([0-9.?|+ ,:#-]{0,90}(\r?\n)){0,30}(end\n)?",
    ) {
        for &format in &Format::ALL {
            let mut reader = format.reader(Cursor::new(text.as_bytes()), &Default::default());
            while let Some(record) = reader.next_record() {
                let record = record.unwrap();
                if let sudoku_bench::Body::Parsed(Ok(p)) = &record.body {
                    // Whatever parsed prints back as a line that reads back the same.
                    let line = p.board.to_line();
                    prop_assert_eq!(&line.parse::<sudoku_bench::Board>().unwrap(), &p.board);
                }
            }
        }
    }
}

/// A puzzle written in one of the layouts people publish.
#[derive(Clone, Debug)]
struct Layout {
    kind: u8,
    blank: char,
    ending: &'static str,
    compression: u8,
    style: u8,
}

fn layouts() -> impl Strategy<Value = Layout> {
    (
        0u8..6,
        prop::sample::select(vec!['.', '0', '_', 'X', 'x', '*', '-']),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
        0u8..3,
        0u8..4,
    )
        .prop_map(|(kind, blank, ending, compression, style)| Layout {
            kind,
            blank,
            ending,
            compression,
            style,
        })
}

fn write_puzzles(grids: &[Grid], l: &Layout) -> Vec<u8> {
    let cell = |d: u8| if d == 0 { l.blank } else { (b'0' + d) as char };
    let row =
        |g: &Grid, r: usize| -> Vec<char> { (0..9).map(|c| cell(g.get(r * 9 + c))).collect() };
    let e = l.ending;
    let mut out = String::new();
    match l.kind {
        // 81 characters a line, maybe with fields around it.
        0 => {
            for (i, g) in grids.iter().enumerate() {
                let line: String = (0..81).map(|k| cell(g.get(k))).collect();
                out += &match l.style {
                    0 => line,
                    1 => format!("{i:08x} {line} 1.5"),
                    2 => format!("{line},{}", i * 7),
                    _ => format!("{line}  # comment"),
                };
                out += e;
            }
        }
        // 9 groups of 9, or 81 comma fields (a blank as an empty field).
        1 => {
            for g in grids {
                let groups: Vec<String> = (0..9).map(|r| row(g, r).into_iter().collect()).collect();
                out += &match l.style % 2 {
                    0 => groups.join(" "),
                    _ => (0..81)
                        .map(|k| {
                            if g.get(k) == 0 {
                                String::new()
                            } else {
                                g.get(k).to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(","),
                };
                out += e;
            }
        }
        // A CSV with a header.
        2 => {
            out += if l.style.is_multiple_of(2) {
                "id,puzzle,rating"
            } else {
                "quizzes;extra"
            };
            out += e;
            for (i, g) in grids.iter().enumerate() {
                let line: String = (0..81).map(|k| cell(g.get(k))).collect();
                out += &if l.style.is_multiple_of(2) {
                    format!("{i},{line},1")
                } else {
                    format!("{line};x")
                };
                out += e;
            }
        }
        // Grids: plain, spaced, drawn, comma rows; with headers or separators.
        _ => {
            for (i, g) in grids.iter().enumerate() {
                match l.kind {
                    3 => out += &format!("Grid {:02}{e}", i + 1),
                    4 => out += e,
                    _ => out += &format!("========={e}"),
                }
                for r in 0..9 {
                    let cells = row(g, r);
                    let text: String = match l.style {
                        0 => cells.iter().collect(),
                        1 => cells
                            .iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(" "),
                        2 => format!(
                            "{} | {} | {}",
                            cells[..3].iter().collect::<String>(),
                            cells[3..6].iter().collect::<String>(),
                            cells[6..].iter().collect::<String>()
                        ),
                        _ => cells
                            .iter()
                            .map(|&c| {
                                if c == l.blank {
                                    "0".to_string()
                                } else {
                                    c.to_string()
                                }
                            })
                            .collect::<Vec<_>>()
                            .join(","),
                    };
                    out += &text;
                    out += e;
                    if l.style == 2 && (r == 2 || r == 5) && l.blank != '-' {
                        out += &format!("------+-------+------{e}");
                    }
                }
            }
        }
    }
    let bytes = out.into_bytes();
    match l.compression {
        1 => crate::common::compress("gz", &bytes),
        2 => crate::common::compress("zst", &bytes),
        _ => bytes,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any puzzle written in any supported layout (separators, blanks, line endings,
    /// compression) reads back as the same grids, in order, with no error.
    #[test]
    fn every_layout_reads_back_the_same_grids(
        seeds in proptest::collection::vec(0u64..10_000, 1..4),
        layout in layouts(),
    ) {
        let mut solver = GuardedSolver::new(&Backend::DlxStatic, &Limits::default(), None);
        let grids: Vec<Grid> = seeds.iter().map(|&s| *generate(s, 0, NINE, 26, &mut solver).puzzle.nine().unwrap()).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        std::fs::write(&path, write_puzzles(&grids, &layout)).unwrap();
        let loader = sudoku_bench::Loader::new(
            vec![sudoku_bench::Input::File(path)],
            Default::default(),
        )
        .on_note(|_| {});
        let read: Vec<Grid> = loader
            .map(|r| r.unwrap().puzzle.unwrap_or_else(|e| panic!("{e}")).board.nine().copied().unwrap())
            .collect();
        prop_assert_eq!(read, grids, "{:?}", layout);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The fuzz target `decode`: a compressed stream with bytes changed and cut anywhere
    /// (or no stream at all behind the magic bytes) reads to an end or an error, never a
    /// panic or an endless loop.
    #[test]
    fn damaged_compressed_streams_end_or_fail(
        text in proptest::collection::vec(any::<u8>(), 0..2000),
        kind in 0usize..4,
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        raw in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        use std::io::Read;
        let kind = ["gz", "zst", "xz", "bz2"][kind];
        let mut bytes = crate::common::compress(kind, &text);
        for (at, value) in flips {
            let at = at.index(bytes.len());
            bytes[at] = value;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        let magic: &[u8] = match kind {
            "gz" => b"\x1f\x8b",
            "zst" => b"\x28\xb5\x2f\xfd",
            "xz" => b"\xfd7zXZ\x00",
            _ => b"BZh9",
        };
        for input in [bytes, [magic, &raw].concat()] {
            if let Ok((reader, _)) = sudoku_bench::decompress(&input[..]) {
                let mut out = Vec::new();
                let _ = reader.take(1 << 24).read_to_end(&mut out);
            }
        }
    }
}
