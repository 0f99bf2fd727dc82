//! A dataset loaded into memory once, for repeated passes, and its content hash.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::record::SourceName;

use crate::base::bounds::Held;
use crate::base::{FNV_START, fnv1a};
use crate::board::nine::{CELLS, Grid};
use crate::board::{Board, Square};
use crate::loader::subset::Subset;
use crate::loader::{Input, LoadOptions, Loader};
use crate::record::{Expected, Puzzle, Record};

/// A dataset in memory for repeated passes, at most `MAX_HELD_BYTES` counted as it is
/// read: 9x9 puzzles packed two cells a byte (53 bytes, 98 with a solution) and unpacked
/// a chunk at a time outside the clock; other sizes and untimed records kept whole.
#[derive(Default)]
pub struct Dataset {
    pub info: DatasetInfo,
    /// The timed puzzles, in input order (a blank placeholder for another size).
    grids: Vec<Packed>,
    /// The timed boards of other sizes: (index among the timed puzzles, board), ascending.
    others: Vec<(u32, Box<Square>)>,
    /// Expected solutions of other sizes: (index into `expected`, solution), ascending.
    other_solutions: Vec<(u32, Box<Square>)>,
    /// Per timed puzzle: its number, line and expected answer.
    metas: Vec<Meta>,
    expected: Vec<PackedExpected>,
    /// Expected counts too large for `PackedExpected` (index into `expected`, count).
    big_counts: Vec<(u32, u64)>,
    /// (first timed puzzle, source) at each change of source.
    sources: Vec<(u32, SourceName)>,
    /// Records not timed, with the number of timed puzzles before each.
    pub(super) untimed: Vec<(u32, Record)>,
    /// The bytes all of it holds, and the most it may (`MAX_HELD_BYTES`).
    pub(crate) held: u64,
    budget: u64,
}

/// A grid in 41 bytes: cell `2i` in the low half of byte `i`, cell `2i + 1` in the high.
#[derive(Clone, Copy)]
struct Packed([u8; 41]);

impl Packed {
    fn new(grid: &Grid) -> Packed {
        let mut out = [0u8; 41];
        for (o, pair) in out.iter_mut().zip(grid.cells().chunks(2)) {
            *o = pair[0] | pair.get(1).map_or(0, |&hi| hi << 4);
        }
        Packed(out)
    }

    fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (pair, &b) in cells.chunks_mut(2).zip(&self.0) {
            pair[0] = b & 15;
            if let Some(hi) = pair.get_mut(1) {
                *hi = b >> 4;
            }
        }
        Grid::from_cells(cells).expect("packed from a grid")
    }
}

/// A timed puzzle's place in its source and its expected answer.
#[derive(Clone, Copy)]
struct Meta {
    number: u32,
    line: u32,
    /// Index into `expected`, or `NONE`.
    expected: u32,
}

const NONE: u32 = u32::MAX;
/// A count in `big_counts`.
const BIG: u32 = u32::MAX - 1;

/// An expected answer: the count (`NONE` for none, `BIG` when it is in `big_counts`)
/// and the solution (all zero for none: a solution has no blank).
#[derive(Clone, Copy)]
struct PackedExpected {
    count: [u8; 4],
    solution: Packed,
}

impl Dataset {
    /// Loads a dataset: a file, a folder or standard input, read as `solve` reads it,
    /// holding at most `budget` bytes (what the command's one budget has left after the
    /// datasets before it). `None` when an interrupt stopped the reading. A source that
    /// cannot be read, a dataset past the budget, or one with no puzzle in it, is a
    /// [`DatasetError`].
    pub fn load(
        input: &Input,
        load: &LoadOptions,
        subset: &Subset,
        budget: u64,
    ) -> anyhow::Result<Option<Dataset>> {
        // Read whole into memory: a device such as /dev/zero never ends, and is refused.
        // (Pipes and FIFOs end when their writer does: they are read.)
        if let Input::File(path) = input
            && let Ok(t) = std::fs::metadata(path).map(|m| m.file_type())
            && (t.is_char_device() || t.is_block_device() || t.is_socket())
        {
            return Err(DatasetError(format!(
                "{}: a device, not a file, folder or pipe: a dataset is read whole",
                path.display()
            ))
            .into());
        }
        let mut loader = Loader::new(vec![input.clone()], load.clone()).hashing();
        let name = input.name();
        let mut dataset = Dataset {
            budget,
            ..Dataset::default()
        };
        dataset.info.path = name.clone();
        // Streamed into the compact form: the records are never all held whole.
        let mut failure = None;
        let records = (loader.by_ref()).map_while(|item| item.map_err(|e| failure = Some(e)).ok());
        let too_large = (subset.apply(records))
            .map_err(|e| DatasetError(format!("{name}: {e}")))?
            .find_map(|record| dataset.push(record).err());
        // The rest of the input (after --limit) is read too: the hash covers it all.
        if failure.is_none() && too_large.is_none() {
            failure = loader.by_ref().find_map(Result::err);
        }
        if let Some(why) = failure.map(|e| e.to_string()).or(too_large) {
            return Err(DatasetError(why).into());
        }
        if crate::base::interrupt::requested() {
            return Ok(None);
        }
        dataset.info.hash = loader.hash().expect("hashing");
        dataset.info.puzzles = dataset.len() as u64;
        if dataset.is_empty() {
            return Err(DatasetError(format!(
                "{name}: no puzzle to measure ({} records, {} could not be read, the others have conflicting givens)",
                dataset.info.records, dataset.info.parse_errors
            ))
            .into());
        }
        dataset.grids.shrink_to_fit();
        dataset.others.shrink_to_fit();
        dataset.other_solutions.shrink_to_fit();
        dataset.metas.shrink_to_fit();
        dataset.expected.shrink_to_fit();
        dataset.untimed.shrink_to_fit();
        Ok(Some(dataset))
    }

    /// Adds a record: packed when it is a puzzle to time, whole otherwise; `Err`: why the
    /// dataset is too large, past the memory budget or the numbers the compact form counts.
    fn push(&mut self, record: Record) -> Result<(), String> {
        use std::mem::size_of;
        let name = &self.info.path;
        let numbers = || {
            format!(
                "{name}: too large to bench: more than {BIG} puzzles, or a record number or line above it"
            )
        };
        let timed = u32::try_from(self.grids.len()).map_err(|_| numbers())?;
        // What the record will hold, counted before it is kept.
        self.held += match &record.puzzle {
            Ok(p) if !p.board.has_conflict() => {
                let boxed = |b: &Board| match b.heap_bytes() {
                    0 => 0,
                    heap => heap + size_of::<(u32, Box<Square>)>(),
                };
                let expected = p.expected.as_ref().map_or(0, |e| {
                    size_of::<PackedExpected>() + e.solution.as_ref().map_or(0, boxed)
                });
                size_of::<Packed>() + size_of::<Meta>() + boxed(&p.board) + expected
            }
            _ => size_of::<u32>() + record.held_bytes() as usize,
        } as u64;
        if self.held > self.budget {
            return Err(format!(
                "{name}: past the {} MiB that bench holds of its datasets, all of them together, after {} records of this one (53 bytes a 9x9 puzzle, 98 with its solution): measure a part of each with --limit N or --sample N",
                crate::base::bounds::MAX_HELD_BYTES >> 20,
                self.info.records
            ));
        }
        self.info.records += 1;
        self.info.parse_errors += u64::from(record.puzzle.is_err());
        // Conflicting givens are not solved.
        let Some(puzzle) = (record.puzzle.as_ref().ok()).filter(|p| !p.board.has_conflict()) else {
            self.untimed.push((timed, record));
            return Ok(());
        };
        let small = |n: u64| {
            u32::try_from(n)
                .ok()
                .filter(|&n| n < BIG)
                .ok_or_else(numbers)
        };
        let expected = match puzzle.expected.as_deref() {
            None => NONE,
            Some(e) => {
                let index = small(self.expected.len() as u64)?;
                let count = match e.count {
                    None => NONE,
                    Some(c) => small(c).unwrap_or_else(|_| {
                        self.big_counts.push((index, c));
                        BIG
                    }),
                };
                let solution = match &e.solution {
                    Some(Board::Nine(s)) => Packed::new(s),
                    Some(Board::Other(s)) => {
                        self.other_solutions.push((index, s.clone()));
                        Packed([0; 41])
                    }
                    None => Packed([0; 41]),
                };
                self.expected.push(PackedExpected {
                    count: count.to_le_bytes(),
                    solution,
                });
                index
            }
        };
        let meta = Meta {
            number: small(record.number)?,
            line: small(record.line)?,
            expected,
        };
        if self
            .sources
            .last()
            .is_none_or(|(_, s)| !s.same(&record.source))
        {
            self.sources.push((timed, record.source));
        }
        match &puzzle.board {
            Board::Nine(grid) => self.grids.push(Packed::new(grid)),
            Board::Other(square) => {
                self.info.other_sizes += 1;
                self.others.push((timed, square.clone()));
                self.grids.push(Packed([0; 41]));
            }
        }
        self.metas.push(meta);
        Ok(())
    }

    /// Timed puzzles.
    pub fn len(&self) -> usize {
        self.grids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.grids.is_empty()
    }

    /// The timed puzzles `range`, unpacked into `out` (cleared first).
    pub(super) fn unpack(&self, range: std::ops::Range<usize>, out: &mut Vec<Board>) {
        out.clear();
        out.extend(range.map(|k| self.board(k)));
    }

    /// The board of timed puzzle `k`.
    fn board(&self, k: usize) -> Board {
        match self.others.binary_search_by_key(&k, |(i, _)| *i as usize) {
            Ok(at) => Board::Other(self.others[at].1.clone()),
            Err(_) => self.grids[k].grid().into(),
        }
    }

    /// The record of timed puzzle `k`, rebuilt.
    pub(super) fn record(&self, k: usize) -> Record {
        let meta = self.metas[k];
        let at = self
            .sources
            .partition_point(|(first, _)| *first as usize <= k);
        let source = self.sources[at - 1].1;
        let expected = (meta.expected != NONE).then(|| {
            let e = &self.expected[meta.expected as usize];
            let count = match u32::from_le_bytes(e.count) {
                NONE => None,
                BIG => self
                    .big_counts
                    .iter()
                    .find(|(i, _)| *i == meta.expected)
                    .map(|&(_, c)| c),
                c => Some(u64::from(c)),
            };
            let solution = match self
                .other_solutions
                .binary_search_by_key(&meta.expected, |(i, _)| *i)
            {
                Ok(at) => Some(Board::Other(self.other_solutions[at].1.clone())),
                Err(_) => (e.solution.0 != [0; 41]).then(|| e.solution.grid().into()),
            };
            Box::new(Expected { count, solution })
        });
        Record {
            source,
            number: meta.number.into(),
            line: meta.line.into(),
            puzzle: Ok(Puzzle {
                board: self.board(k),
                expected,
            }),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// The input as given: a file, a folder, or `-`.
    pub path: String,
    /// FNV-1a 64 of the bytes read (every file of a folder, in order): runs on different
    /// data never compare.
    pub hash: String,
    pub records: u64,
    /// Records timed: parse errors and conflicting givens are not solved.
    pub puzzles: u64,
    /// Records that could not be read as puzzles.
    #[serde(default)]
    pub parse_errors: u64,
    /// Timed boards of another size than 9x9 (4x4, 16x16, 25x25).
    #[serde(default)]
    pub other_sizes: u64,
}

/// Why a dataset cannot be measured: an input problem (exit 3), not a failure.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DatasetError(pub String);

/// FNV-1a 64 of a regular file's bytes. Bounded: anything but a regular file (a FIFO,
/// `/dev/zero`) is refused, and no more than the file's size is read.
pub fn hash_file(path: &Path) -> anyhow::Result<String> {
    let reading = || format!("reading {}", path.display());
    let meta = std::fs::metadata(path).with_context(reading)?;
    if !meta.is_file() {
        anyhow::bail!(
            "{} is not a regular file: a dataset is read into memory and hashed, so it must be a file",
            path.display()
        );
    }
    let mut file = File::open(path).with_context(reading)?.take(meta.len());
    let mut hash = FNV_START;
    let mut buf = [0u8; 1 << 16];
    while let n @ 1.. = file.read(&mut buf).with_context(reading)? {
        hash = fnv1a(hash, &buf[..n]);
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_the_bytes_and_refuses_endless_files() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("e.txt");
        // FNV-1a 64 of "x" (and of "a", the published test vector), checked in Python.
        std::fs::write(&other, "x").unwrap();
        assert_eq!(hash_file(&other).unwrap(), "fnv1a64:af63f54c86021707");
        std::fs::write(&other, "a").unwrap();
        assert_eq!(hash_file(&other).unwrap(), "fnv1a64:af63dc4c8601ec8c");
        if Path::new("/dev/zero").exists() {
            let e = hash_file(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
    }

    use crate::bench::engine::{chunk_records, chunks_of};
    use crate::record::ParseError;
    use proptest::prelude::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const S: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    /// A record of one of the kinds a dataset holds (a 4x4 board among them).
    fn record(kind: u8, n: u64, source: &SourceName) -> Record {
        let grid: Grid = P.parse().unwrap();
        let solution: Grid = S.parse().unwrap();
        let expected = |count, solution| Some(Box::new(Expected { count, solution }));
        let body = match kind % 8 {
            0 => Ok(Puzzle::new(grid)),
            1 => Ok(Puzzle {
                board: grid.into(),
                expected: expected(Some(1), Some(solution.into())),
            }),
            2 => Ok(Puzzle {
                board: grid.into(),
                expected: expected(None, Some(solution.into())),
            }),
            3 => Ok(Puzzle {
                board: grid.into(),
                expected: expected(Some(u64::MAX - n), None),
            }),
            4 => Ok(Puzzle {
                board: grid.into(),
                expected: expected(Some(0), None),
            }),
            5 => Err(ParseError::new(n, "bad")),
            6 => Ok(Puzzle {
                board: "1.3...1.....4..1".parse().unwrap(),
                expected: expected(Some(1), Some("1234341221434321".parse().unwrap())),
            }),
            _ => Ok(Puzzle::new(
                "11..............................................................................."
                    .parse::<Grid>()
                    .unwrap(),
            )),
        };
        Record {
            source: *source,
            number: n,
            line: 2 * n + 1,
            puzzle: body,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// Packed and rebuilt, chunk by chunk, the records come back whole and in order.
        #[test]
        fn the_compact_form_gives_back_every_record_in_order(
            kinds in proptest::collection::vec((0u8..8, any::<bool>()), 1..200),
        ) {
            let sources: [SourceName; 2] = ["a".into(), "b".into()];
            let mut which = 0;
            let originals: Vec<Record> = kinds
                .iter()
                .enumerate()
                .map(|(i, &(kind, switch))| {
                    which ^= usize::from(switch);
                    record(kind, i as u64 + 1, &sources[which])
                })
                .collect();
            let mut dataset = Dataset {
                budget: crate::base::bounds::MAX_HELD_BYTES,
                ..Dataset::default()
            };
            for r in originals.clone() {
                prop_assert!(dataset.push(r).is_ok());
            }
            let timed = originals
                .iter()
                .filter(|r| matches!(&r.puzzle, Ok(p) if p.board.conflict().is_none()))
                .count();
            prop_assert_eq!(dataset.len(), timed);
            prop_assert_eq!(dataset.info.records, originals.len() as u64);
            // Rebuilt timed records equal the originals.
            let timed_originals = originals
                .iter()
                .filter(|r| matches!(&r.puzzle, Ok(p) if p.board.conflict().is_none()));
            for (k, r) in timed_originals.enumerate() {
                prop_assert_eq!(&dataset.record(k), r);
            }
            // The blocks give every record once, in input order, at a small block size.
            let mut got = Vec::new();
            let befores: Vec<u32> = dataset.untimed.iter().map(|(b, _)| *b).collect();
            for chunk in chunks_of(dataset.len(), &befores, 3) {
                let records = chunk_records(&dataset, &chunk);
                got.extend(records.iter().map(|(_, r)| (r.source, r.number, r.line)));
            }
            let want: Vec<(SourceName, u64, u64)> = originals.iter().map(|r| (r.source, r.number, r.line)).collect();
            prop_assert_eq!(got, want);
        }
    }

    /// Red-team finding: a 14 KB zstd file of two million puzzles made `bench` hold
    /// them all, with no bound but four billion puzzles. Now what a dataset holds is
    /// counted as it is read, compressed or not, and a dataset past the budget is
    /// refused with the way to measure a part of it.
    #[test]
    fn a_dataset_past_the_memory_budget_is_refused_whole_or_compressed() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("{P}\n").repeat(20_000);
        let zst = ruzstd::encoding::compress_to_vec(
            text.as_bytes(),
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        assert!(zst.len() < 20_000);
        let budget = 100_000;
        for (name, bytes) in [("p.txt", text.as_bytes()), ("p.zst", &zst[..])] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let input = Input::File(path);
            let load =
                |subset: &Subset| Dataset::load(&input, &LoadOptions::default(), subset, budget);
            let e = load(&Subset::default()).err().unwrap().to_string();
            assert!(
                e.contains("all of them together") && e.contains("--limit N"),
                "{e}"
            );
            let part = Subset {
                limit: Some(1000),
                ..Subset::default()
            };
            let d = load(&part).unwrap().unwrap();
            assert_eq!(d.len(), 1000);
            assert!(d.held <= 1000 * 53, "{}", d.held);
        }
    }

    #[test]
    fn a_timed_puzzle_takes_at_most_100_bytes() {
        assert_eq!(std::mem::size_of::<Packed>(), 41);
        assert_eq!(std::mem::size_of::<Meta>(), 12);
        assert_eq!(std::mem::size_of::<PackedExpected>(), 45);
    }
}
