//! Any bytes, every format (and detection): no panic, no endless loop, and records
//! numbered 1, 2, 3, ... with lines that never go backwards.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use sudoku_bench::Format;

fuzz_target!(|data: &[u8]| {
    let detected = sudoku_bench::detect(data, &Default::default()).map_or(Format::Line, |d| d.format);
    for &format in Format::ALL.iter().chain([&detected]) {
        let mut reader = format.reader(Cursor::new(data), &Default::default());
        let (mut number, mut line) = (0, 0);
        while let Some(record) = reader.next_record() {
            let record = record.expect("in-memory input has no I/O errors");
            number += 1;
            assert_eq!(record.number, number, "{format:?}");
            assert!(record.line >= line && record.line >= 1, "{format:?}");
            line = record.line;
            if let sudoku_bench::Body::Parsed(Err(e)) = &record.body {
                assert!(e.line >= 1, "{format:?}: {e}");
            }
        }
    }
});
