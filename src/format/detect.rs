//! Detection by content: every reader reads a sample of the source (well past the first
//! line, bounded in bytes), and the one that reads the most puzzles from it, with the
//! fewest errors, wins. A title or comment that fits no format does not decide anything.

use super::{Body, Format, Layout, RecordReader, csv};
use crate::board::{Alphabet, MAX_SIDE};

/// How much of a source detection reads.
pub const SAMPLE: usize = 64 * 1024;

/// The format chosen for a source, and how well it explained the sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    pub format: Format,
    pub layout: Layout,
    /// Records read from the sample, and how many of them were parse errors.
    pub records: usize,
    pub errors: usize,
}

/// Picks the format of a source from its first bytes (`head`, at most [`SAMPLE`]).
/// `layout` brings the user's choices (blanks, columns); the line terminator is found
/// here.
pub fn detect(head: &[u8], layout: &Layout) -> Detected {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut layout = layout.clone();
    layout.cr_only = cr_only(head);
    let end = if layout.cr_only { b'\r' } else { b'\n' };
    let sample = whole_lines(head, end);
    // Each candidate is a format and the layout it reads with: grid rows after a label
    // column, lines among program text, are readings of their own.
    let plain = |format: Format| (format, layout.clone());
    let mut candidates = Vec::new();
    if layout.puzzle_column.is_some() || csv::has_header(sample, &layout) {
        candidates.push(plain(Format::Csv));
    }
    candidates.push(plain(Format::Line));
    if super::line::looks_like_source(sample) {
        let source = Layout {
            source_code: true,
            ..layout.clone()
        };
        candidates.push((Format::Line, source));
    }
    candidates.push(plain(Format::Grid));
    if sample.contains(&b',') {
        let labelled = Layout {
            label_column: true,
            ..layout.clone()
        };
        candidates.push((Format::Grid, labelled));
    }
    if rectangular_rows(sample) {
        let rectangular = Layout {
            rectangular: true,
            ..layout.clone()
        };
        candidates.push((Format::Grid, rectangular));
    }
    if digit_lines(sample) {
        let titled = Layout {
            digit_titles: true,
            ..layout.clone()
        };
        candidates.push((Format::Grid, titled));
    }
    if sample.contains(&b'?') {
        candidates.push(plain(Format::Hdu));
    }
    // A document that opens with `[` is JSON on a tie (a line reader skips the bracket
    // line as a header and stumbles on the last); one that opens with `{` may be JSON
    // lines, which the line reader reads in parallel.
    match sample.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'[') => candidates.insert(0, plain(Format::Json)),
        Some(b'{') => candidates.push(plain(Format::Json)),
        _ => {}
    }
    // Program source read in its literals: after plain JSON, which wins a tie.
    if super::source::opens_a_literal(sample) {
        let source = Layout {
            source_code: true,
            ..layout.clone()
        };
        candidates.push((Format::Json, source));
    }
    let mut best: Option<Detected> = None;
    let mut csv: Option<Detected> = None;
    let mut line: Option<Detected> = None;
    for (format, trial) in candidates {
        let variant =
            trial.label_column || trial.source_code || trial.digit_titles || trial.rectangular;
        let (records, mut errors, dash_blanks) = score(format, sample, &trial);
        // A JSON document longer than the sample ends inside it: no error of the file's.
        if format == Format::Json && head.len() >= SAMPLE {
            errors = errors.saturating_sub(1);
        }
        let found = Detected {
            format,
            layout: Layout {
                dash_blanks,
                ..trial
            },
            records,
            errors,
        };
        let good = |d: &Detected| d.records - d.errors;
        match format {
            Format::Csv => csv = Some(found.clone()),
            Format::Line if !variant => line = Some(found.clone()),
            _ => {}
        }
        let better = match &best {
            // A label column or program text is a reading of puzzles, never of
            // errors alone.
            _ if variant && good(&found) == 0 => false,
            None => true,
            // A JSON document's errors are its own records' (a line reader passes over
            // what it cannot place): another reading must read more puzzles.
            Some(b) if b.format == Format::Json && b.records > 0 => good(&found) > good(b),
            // More puzzles read; then fewer errors; the earlier candidate on a tie.
            Some(b) => (good(&found), b.errors) > (good(b), found.errors),
        };
        if better {
            best = Some(found);
        }
    }
    let mut best = best.expect("a candidate");
    // Nothing reads: a file of long lines is read a record a line, so each line gets
    // its own error (a grid reading would fold lines of pencil marks into one).
    if let Some(line) = line.filter(|_| best.records == best.errors && long_lines(sample, end)) {
        best = line;
    }
    // A file with a CSV header is CSV, even where a looser reading finds a few more
    // puzzles (a row that lacks its solution field is a broken row, not a puzzle), and
    // a table is CSV however few of its puzzles read (another reading would take them
    // from the wrong column).
    if let Some(csv) = csv.filter(|c| {
        2 * (c.records - c.errors) >= best.records - best.errors || csv::is_table(sample, &layout)
    }) {
        best = csv;
    }
    if best.format == Format::Line && has_end_line(sample) {
        best.format = Format::Poj;
    }
    best
}

/// Whether a source read as `format` (detected or forced) is puzzles each followed by
/// its solution, from its first bytes (`head`, at most [`SAMPLE`]).
pub fn solutions_follow(format: Format, head: &[u8], layout: &Layout) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let sample = whole_lines(head, if layout.cr_only { b'\r' } else { b'\n' });
    let layout = Layout {
        solutions_follow: Some(false),
        defer: false,
        blocks: false,
        ..layout.clone()
    };
    super::solutions_follow::follows(format.reader(sample, &layout))
}

/// The alphabet of boards other than 9x9 in a source read as `format`, decided once
/// for the file from its first bytes (`head`, at most [`SAMPLE`]): for each such size
/// among its records (and not already given in `layout`), every alphabet that writes it
/// reads the sample, and the one that reads the most puzzles without a conflict wins;
/// then the one that reads the most givens (`0` a value, not a blank), then the first.
/// Returns the layout's cells with the decisions, and each decision with how many
/// records of its size the sample held.
pub fn alphabets(
    format: Format,
    head: &[u8],
    layout: &Layout,
) -> (super::Cells, Vec<(usize, Alphabet, usize)>) {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let sample = whole_lines(head, if layout.cr_only { b'\r' } else { b'\n' });
    let layout = Layout {
        defer: false,
        blocks: false,
        ..layout.clone()
    };
    let mut cells = layout.cells.clone();
    let mut decided = Vec::new();
    // Board sides of the records, each with how many the sample holds.
    let mut sides = [0usize; MAX_SIDE + 1];
    read_boards(format, sample, &layout, |board| {
        if board.side() != 9 {
            sides[board.side()] += 1;
        }
    });
    for (side, &count) in sides.iter().enumerate() {
        if count == 0 || cells.alphabet(side).is_some() {
            continue;
        }
        let mut best: Option<((usize, usize), Alphabet)> = None;
        for alphabet in Alphabet::ALL.into_iter().filter(|a| a.fits(side)) {
            let trial = Layout {
                cells: cells.clone().with_alphabet(side, alphabet),
                ..layout.clone()
            };
            let (mut good, mut givens) = (0, 0);
            read_boards(format, sample, &trial, |board| {
                if board.side() == side && !board.has_conflict() {
                    good += 1;
                    givens += board.clues();
                }
            });
            if good > 0 && best.is_none_or(|(score, _)| (good, givens) > score) {
                best = Some(((good, givens), alphabet));
            }
        }
        if let Some((_, alphabet)) = best {
            cells = cells.with_alphabet(side, alphabet);
            decided.push((side, alphabet, count));
        }
    }
    (cells, decided)
}

/// `f` of each puzzle `format` reads from `sample`.
fn read_boards(
    format: Format,
    sample: &[u8],
    layout: &Layout,
    mut f: impl FnMut(&crate::board::Board),
) {
    let mut reader = format.reader(sample, layout);
    while let Some(Ok(r)) = reader.next_record() {
        if let Body::Parsed(Ok(puzzle)) = &r.body {
            f(&puzzle.board);
        }
    }
}

/// A full sample may end inside a record: its bytes up to its last line end.
fn whole_lines(head: &[u8], end: u8) -> &[u8] {
    match head.len() >= SAMPLE {
        true => {
            &head[..head
                .iter()
                .rposition(|&b| b == end)
                .map_or(head.len(), |i| i + 1)]
        }
        false => head,
    }
}

/// Records and parse errors `format` reads from `sample`, and whether its grids write
/// blanks as `-`.
fn score(format: Format, sample: &[u8], layout: &Layout) -> (usize, usize, bool) {
    let mut reader: Box<dyn RecordReader> = format.reader(sample, layout);
    let (mut records, mut errors) = (0, 0);
    while let Some(Ok(r)) = reader.next_record() {
        records += 1;
        errors += usize::from(r.body.is_err());
    }
    (records, errors, reader.notes().dash_blanks)
}

/// Whether some line could be a row of a board with rectangular boxes: 6, 8, 10 or 12
/// cells once spacing and borders are dropped.
fn rectangular_rows(sample: &[u8]) -> bool {
    sample.split(|&b| b == b'\n').any(|l| {
        let cells = l
            .iter()
            .filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'*'))
            .count();
        matches!(cells, 6 | 8 | 10 | 12)
    })
}

/// Whether some line past the first is digits alone: a grid's title in some files (a
/// score, an id as long as a row), a row in others; the reading decides.
fn digit_lines(sample: &[u8]) -> bool {
    sample.split(|&b| b == b'\n').skip(1).any(|l| {
        let t = super::lines::trim(l);
        !t.is_empty() && t.len() <= 32 && t.iter().all(u8::is_ascii_digit)
    })
}

/// True when `head` is program source around literals (`const p = [`), not a JSON
/// document: what `--format json` reads in its literals.
pub fn program_source(head: &[u8]) -> bool {
    !matches!(
        head.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'[' | b'{')
    ) && super::source::opens_a_literal(head)
}

/// True when lines end with a bare CR (classic Mac files): no LF in `head`, and a CR.
pub fn cr_only(head: &[u8]) -> bool {
    !head.contains(&b'\n') && head.contains(&b'\r')
}

/// True when most non-blank lines are long enough to hold a whole 9x9 puzzle.
fn long_lines(sample: &[u8], end: u8) -> bool {
    let (mut long, mut all) = (0, 0);
    for l in sample.split(|&b| b == end) {
        let l = super::lines::trim(l);
        if !l.is_empty() {
            all += 1;
            long += usize::from(l.len() >= 81);
        }
    }
    2 * long > all
}

/// A line `end` (POJ 3074's last line).
fn has_end_line(sample: &[u8]) -> bool {
    sample
        .split(|&b| b == b'\n' || b == b'\r')
        .any(|l| super::lines::trim(l) == b"end")
}
