//! Any bytes behind every compression's magic bytes: no panic, no endless loop, and
//! never more output than a bound asked for.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use sudoku_bench::decompress;

const MAGIC: [&[u8]; 6] = [
    b"",
    b"\x1f\x8b",
    b"\x28\xb5\x2f\xfd",
    b"\xfd7zXZ\x00",
    b"BZh9",
    b"\xff\xfe",
];

fuzz_target!(|data: &[u8]| {
    for magic in MAGIC {
        let input = [magic, data].concat();
        if let Ok((reader, _)) = decompress(&input[..]) {
            let mut out = Vec::new();
            let _ = reader.take(1 << 24).read_to_end(&mut out);
            assert!(out.len() <= 1 << 24);
        }
    }
});
