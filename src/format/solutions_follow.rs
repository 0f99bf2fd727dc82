//! Puzzles each followed by their solution (QQWing's `--solution` output; books that print
//! the answer under the puzzle) or each preceded by it (a generator's grid, then the
//! puzzle cut from it), decided per source from its sample ([`follows`]) unless
//! `--solutions-follow` says: [`WithSolutions`] then takes a complete grid on that side
//! of a puzzle as its answer even when it does not solve it (a wrong answer in the file,
//! reported as a mismatch, not an 81-clue puzzle), and numbers the records itself.

use std::io;

use super::csv::solution_expected;
use super::{Body, Notes, RawRecord, RecordReader};
use crate::board::Board;

/// Whether a source's puzzles come with their solutions, and on which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairs {
    No,
    After,
    Before,
}

/// The records of `inner`, each puzzle and its solution beside it taken as one record.
pub struct WithSolutions<'a> {
    inner: Box<dyn RecordReader + 'a>,
    before: bool,
    /// Grids are written a row a line (else one a line): the lines a skipped one stands on.
    rows: bool,
    /// What was read after a puzzle to see whether it was its solution, and was not (a
    /// record, or a read error to say after the puzzle).
    held: Option<io::Result<RawRecord>>,
    number: u64,
}

impl<'a> WithSolutions<'a> {
    pub fn new(inner: Box<dyn RecordReader + 'a>, before: bool, rows: bool) -> WithSolutions<'a> {
        WithSolutions {
            inner,
            before,
            rows,
            held: None,
            number: 0,
        }
    }
}

/// The board of a record that gives no answer of its own.
fn bare(r: &RawRecord) -> Option<&Board> {
    match &r.body {
        Body::Parsed(Ok(p)) if p.expected.is_none() => Some(&p.board),
        _ => None,
    }
}

/// A puzzle that gives no answer of its own and still has blanks.
fn open(r: &RawRecord) -> bool {
    bare(r).is_some_and(|b| !b.is_full())
}

/// Joins `next` to `r`'s puzzle as its answer, right or wrong, when `next` is a complete
/// grid of its size and neither gives an answer of its own.
pub(crate) fn join(r: &mut RawRecord, next: &RawRecord) -> bool {
    match (&mut r.body, bare(next)) {
        (Body::Parsed(Ok(p)), Some(a))
            if p.expected.is_none() && a.is_full() && a.side() == p.board.side() =>
        {
            // The count is unknown: a generator prints the one it found.
            p.expected = Some(solution_expected(a.clone()));
            true
        }
        _ => false,
    }
}

impl RecordReader for WithSolutions<'_> {
    fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
        let mut r = match self.held.take().or_else(|| self.inner.next_record())? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        if self.before && bare(&r).is_some_and(Board::is_full) {
            self.held = self.inner.next_record();
            if let Some(Ok(next)) = &mut self.held
                && open(next)
                && join(next, &r)
            {
                r = self.held.take()?.ok()?;
            }
        } else if !self.before && open(&r) {
            match self.inner.next_record() {
                Some(Ok(next)) if join(&mut r, &next) => {
                    // Its further solutions (a puzzle printed with all of them): answers,
                    // never puzzles; skipped, counted.
                    self.held = loop {
                        match self.inner.next_record() {
                            Some(Ok(more)) if solves(&more, &r) => {
                                let grid = bare(&more).expect("a bare grid");
                                let n = if self.rows { grid.side() as u64 } else { 1 };
                                let text = grid.to_line();
                                (self.inner.notes().skipped).add(n, more.line, text.as_bytes());
                            }
                            other => break other,
                        }
                    };
                }
                other => self.held = other,
            }
        }
        self.number += 1;
        r.number = self.number;
        Some(Ok(r))
    }

    fn notes(&mut self) -> &mut Notes {
        self.inner.notes()
    }
}

/// Whether `answer` is a complete grid, giving no answer of its own, that solves the puzzle
/// of `puzzle`.
fn solves(answer: &RawRecord, puzzle: &RawRecord) -> bool {
    let puzzle = match &puzzle.body {
        Body::Parsed(Ok(p)) => &p.board,
        _ => return false,
    };
    bare(answer).is_some_and(|a| {
        a.is_full() && a.side() == puzzle.side() && a.check_solution_of(puzzle).is_ok()
    })
}

/// The board of `puzzle` when it has blanks and `answer` is a complete grid of its size
/// (its answer, right or wrong), and whether that grid solves it.
fn paired<'a>(puzzle: &'a RawRecord, answer: &RawRecord) -> Option<(&'a Board, bool)> {
    let (p, a) = (bare(puzzle)?, bare(answer)?);
    (!p.is_full() && a.is_full() && a.side() == p.side())
        .then(|| (p, a.check_solution_of(p).is_ok()))
}

/// Whether `sample`, read by `reader`, is puzzles each followed (or each preceded) by its
/// answer: nearly every record beside a complete grid on that side (the sample may cut
/// the last), at least two such pairs, and at least half of those grids solving their
/// puzzle (a typo in the file's answer is a wrong answer, reported, never a puzzle).
/// Followed wins a tie.
pub fn follows(mut reader: Box<dyn RecordReader + '_>) -> Pairs {
    let (mut records, mut given) = (0usize, [0usize; 2]);
    // After, then before: the complete grids beside a puzzle, and those that solve it.
    let mut beside = [[0usize; 2]; 2];
    let mut last: Option<RawRecord> = None;
    // The puzzle before, while the grids after it solve it: its further solutions count
    // as no record.
    let mut answered: Option<RawRecord> = None;
    while let Some(Ok(r)) = reader.next_record() {
        if let Some(p) = &answered
            && last.as_ref().is_some_and(|l| solves(l, p))
            && solves(&r, p)
        {
            continue;
        }
        records += 1;
        if let Some(prev) = &last {
            for (side, (puzzle, answer)) in [(prev, &r), (&r, prev)].into_iter().enumerate() {
                if let Some((p, solves)) = paired(puzzle, answer) {
                    beside[side][0] += 1;
                    beside[side][1] += usize::from(solves);
                    // A fifth of the cells given (17 of 81): no grid solves it by chance.
                    given[side] += usize::from(solves && 5 * p.clues() > p.side().pow(2));
                }
            }
        }
        answered = last.take().filter(open);
        last = Some(r);
    }
    // One pair is a file when the answer is beside a puzzle with givens enough (a puzzle
    // printed with its solution; an empty board is solved by any grid).
    let many = |side: usize| {
        let [grids, solve] = beside[side];
        (grids >= 2 && 20 * grids >= 9 * records && 2 * solve >= grids)
            || (given[side] == 1 && records == 2)
    };
    match (many(0), many(1)) {
        (true, _) => Pairs::After,
        (_, true) => Pairs::Before,
        _ => Pairs::No,
    }
}

/// The note for a source read as pairs without being told to.
pub fn note(name: &str, pairs: Pairs) -> String {
    let side = match pairs {
        Pairs::Before => "preceded",
        _ => "followed",
    };
    format!(
        "{name}: each puzzle is {side} by its solution (a complete grid that solves it): read as its expected answer, not as another puzzle; --solutions-follow no reads every grid as a puzzle"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, Layout};
    use crate::record::Puzzle;

    use crate::format::line::tests::{P, S};

    fn reader(text: &str, follow: bool) -> Box<dyn RecordReader + '_> {
        let layout = Layout {
            pairs: Some(if follow { Pairs::After } else { Pairs::No }),
            ..Layout::default()
        };
        Format::Line.reader(text.as_bytes(), &layout)
    }

    fn records(text: &str) -> Vec<RawRecord> {
        let mut r = reader(text, true);
        std::iter::from_fn(|| r.next_record().map(Result::unwrap)).collect()
    }

    #[test]
    fn a_solution_joins_its_puzzle_and_records_are_renumbered() {
        let got = records(&format!("{P}\n{S}\n{S}\n{P}\n\n{P}\n{S}\n"));
        let summary: Vec<(u64, u64, bool)> = got
            .iter()
            .map(|r| {
                let Body::Parsed(Ok(p)) = &r.body else {
                    panic!("{r:?}")
                };
                (r.number, r.line, p.expected.is_some())
            })
            .collect();
        // The second S solves the puzzle before it too: a further solution, skipped, no
        // puzzle; the P on line 4 is followed by another puzzle, not a solution.
        assert_eq!(summary, [(1, 1, true), (2, 4, false), (3, 6, true)]);
        let text = format!("{P}\n{S}\n{S}\n");
        let mut r = reader(&text, true);
        while r.next_record().is_some() {}
        assert_eq!(r.notes().skipped.get().0, 1);
    }

    #[test]
    fn a_read_error_after_a_puzzle_comes_after_it() {
        struct Failing(usize);
        impl RecordReader for Failing {
            fn next_record(&mut self) -> Option<io::Result<RawRecord>> {
                self.0 += 1;
                Some(match self.0 {
                    1 => Ok(RawRecord {
                        number: 1,
                        line: 1,
                        body: Body::Parsed(Ok(Puzzle::new(
                            P.parse::<crate::board::nine::Grid>().unwrap(),
                        ))),
                    }),
                    _ => Err(io::Error::other("disk")),
                })
            }
            fn notes(&mut self) -> &mut Notes {
                unreachable!()
            }
        }
        let mut r = WithSolutions::new(Box::new(Failing(0)), false, false);
        assert!(r.next_record().unwrap().is_ok());
        assert!(r.next_record().unwrap().is_err());
    }

    #[test]
    fn pairs_are_decided_from_nearly_every_record() {
        let follows_in = |t: &str| follows(reader(t, false)) == Pairs::After;
        let pair = format!("{P}\n{S}\n");
        assert!(follows_in(&pair.repeat(2)));
        // A file of one puzzle and its solution (survey 9: a judge's test with its
        // answer) is a pair; with one more puzzle it is no pattern.
        assert!(follows_in(&pair));
        assert!(
            !follows_in(&format!("{pair}{P}\n")),
            "one pair is not a pattern"
        );
        // One unpaired puzzle in eleven records of five pairs still is...
        assert!(follows_in(&format!("{}{P}\n", pair.repeat(5))));
        // ...but puzzles with the odd solution after one are not.
        assert!(!follows_in(&format!(
            "{}{}",
            format!("{P}\n").repeat(8),
            pair.repeat(2)
        )));
    }

    #[test]
    fn answers_before_their_puzzles_are_decided_and_joined() {
        let text = format!("{S}\n{P}\n").repeat(3);
        assert_eq!(follows(reader(&text, false)), Pairs::Before);
        let layout = Layout {
            pairs: Some(Pairs::Before),
            ..Layout::default()
        };
        let mut r = Format::Line.reader(text.as_bytes(), &layout);
        let got: Vec<(u64, u64, bool)> = std::iter::from_fn(|| r.next_record())
            .map(|r| r.unwrap())
            .map(|r| {
                (
                    r.number,
                    r.line,
                    matches!(r.body, Body::Parsed(Ok(p)) if p.expected.is_some()),
                )
            })
            .collect();
        assert_eq!(got, [(1, 2, true), (2, 4, true), (3, 6, true)]);
    }
}
