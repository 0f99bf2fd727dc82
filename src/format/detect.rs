//! Detection by content, by one rule: every reading of the source's sample (each format,
//! and each way of writing grid rows) is scored by the lines its good records stand on;
//! the one that explains the most lines wins, then the one with fewer errors, then the
//! earlier; more puzzles never beat fewer errors. Three things decide before it:
//! program code, which is refused; a CSV header naming the puzzles' and the answers'
//! columns (another reading would take the answers for puzzles); and JSON values one
//! after another (a line reading would lose their structure).

use super::grid::space_blank_row;
use super::lines::trim;
use super::{Body, Cells, Format, Layout, Pairs, RecordReader, RowStyle, csv};
use crate::board::{Alphabet, Board, MAX_SIDE};

/// How much of a source detection reads.
pub const SAMPLE: usize = 64 * 1024;

/// The rule, as notes state it.
pub const RULE: &str = "the reading that explains the most of the file's lines wins; more puzzles never beat fewer errors";

/// The format chosen for a source, and how well it explained the sample: the parse
/// errors among the records read from it, and the lines the good records stand on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    pub format: Format,
    pub layout: Layout,
    pub errors: usize,
    pub explained: u64,
}

/// The sample's size, as notes say it.
const KIB: usize = SAMPLE / 1024;

/// How the source `name` is read, from its first bytes (`head`, at most [`SAMPLE`]): its
/// format (`forced`, else detected), its layout, and how the format was chosen; each
/// decision said on `say`. `Err` refuses the source, saying why and what to do.
pub fn reading(
    name: &str,
    head: &[u8],
    forced: Option<Format>,
    given: &Layout,
    say: &mut dyn FnMut(&str),
) -> Result<(Format, Layout, String), String> {
    // The line ending is the file's, whatever its format.
    let (sample, forced_layout) = sample(head, given);
    let (format, mut layout, how) = match forced {
        Some(format) => (format, forced_layout, "--format".into()),
        None => {
            let d = detect(head, given)?;
            let lines = lines(sample).filter(|t| !t.is_empty()).count();
            let how = format!(
                "detected: it explains {} of the {lines} lines of its first {KIB} KiB; {RULE}",
                // A JSON record's span counts the blank lines inside it.
                d.explained.min(lines as u64)
            );
            (d.format, d.layout, how)
        }
    };
    if given.pairs.is_none() {
        layout.pairs = Some(Pairs::No);
        let pairs = super::solutions_follow::follows(format.reader(sample, &layout));
        layout.pairs = Some(pairs);
        if pairs != Pairs::No {
            say(&super::solutions_follow::note(name, pairs));
        }
    }
    let r = layout.rows;
    let titles = "a line of digits alone before a grid is its title (a score, a number), not a row";
    let style = [
        (r.label_column, "each row starts with a label, not a cell"),
        (r.digit_titles, titles),
        (r.rectangular, "it holds boards of rectangular boxes"),
    ];
    for (_, what) in style.iter().filter(|s| s.0 && format == Format::Grid) {
        say(&format!("{name}: {what} (decided from its content)"));
    }
    layout.cells = alphabets(name, format, sample, &layout, say);
    Ok((format, layout, how))
}

/// Picks the reading of a source from its first bytes (`head`, at most [`SAMPLE`]).
/// `layout` brings the user's choices (blanks, columns); the line terminator is found
/// here. `Err` refuses the source, saying why and what to do.
pub fn detect(head: &[u8], layout: &Layout) -> Result<Detected, String> {
    let (sample, layout) = sample(head, layout);
    if let Some(why) =
        foreign(sample, layout.cr_only).or_else(|| program_code(sample, layout.cr_only))
    {
        return Err(why);
    }
    let full = head.len() >= SAMPLE;
    let first_line = lines(sample).find(|l| !l.is_empty() && !l.starts_with(b"#"));
    let header = first_line.and_then(|l| csv::header(l, layout.columns.as_ref()));
    let answers = header.is_some_and(|(fields, answers)| fields >= 2 && answers);
    let first = sample.trim_ascii_start().first();
    // JSON that explains no line (a row a line, `[5, 3, 0, ...]`) is kept unless grid
    // rows explain some.
    let decided =
        (answers || matches!(first, Some(b'[' | b'{')) && is_json(sample, full)).then(|| {
            score(
                if answers { Format::Csv } else { Format::Json },
                sample,
                layout.clone(),
                full,
            )
        });
    if let Some(d) = decided.clone().filter(|d| answers || d.explained > 0) {
        return Ok(d);
    }
    // When no reading explains a line, the one that finds the most damaged puzzles:
    // each says why it is none.
    let rank = |d: &Detected| match d.explained {
        0 => (0, d.errors as i64),
        n => (n, -(d.errors as i64)),
    };
    let readings = candidates(sample, &layout, header.is_some()).into_iter();
    let scored = readings.filter_map(|(ok, (f, l))| ok.then(|| score(f, sample, l, full)));
    // The first of the best: `max_by_key` keeps the last.
    let mut best = scored.rev().max_by_key(rank).expect("a candidate");
    if let Some(json) = decided.filter(|_| best.format != Format::Grid || best.explained == 0) {
        return Ok(json);
    }
    if best.explained == 0
        && let Some(why) = oversized(sample).or_else(|| cell_by_cell(sample, &layout.cells))
    {
        return Err(why);
    }
    // A line `end`: POJ 3074's last line.
    if best.format == Format::Line && lines(sample).any(|t| t == b"end") {
        best.format = Format::Poj;
    }
    Ok(best)
}

/// The flag that reads a source refused or misread (read as `not`), tried on its first
/// bytes (`head`) before it is named: another format (`--format grid`), a blank its lines
/// suggest (`--blanks :`), or values in letters (`--alphabet letters`). A reading with an
/// error there, or explaining no line, is no fix.
pub fn fix(head: &[u8], layout: &Layout, not: Option<Format>) -> Option<String> {
    let (sample, sampled) = sample(head, layout);
    if foreign(sample, sampled.cr_only).is_some() {
        return None;
    }
    let clean = |d: Detected| d.explained > 0 && d.errors == 0;
    let full = head.len() >= SAMPLE;
    let mut formats = Format::ALL.into_iter().filter(|f| Some(*f) != not);
    if let Some(f) = formats.find(|f| clean(score(*f, sample, sampled.clone(), full))) {
        return Some(format!("--format {}", f.name()));
    }
    let cells = &layout.cells;
    let blanks = lines(sample).take(8).flat_map(|t| {
        let mut sides = [4, 6, 8, 9, 81].into_iter();
        sides.find_map(|n| super::blank_for(t, cells, n, true))
    });
    let blank = |c: u8| {
        (
            format!("--blanks {}", char::from(c)),
            cells.clone().with_blank(c),
        )
    };
    let letters = cells.clone().written_in(Alphabet::Letters);
    let mut tries = blanks
        .map(blank)
        .chain([("--alphabet letters".into(), letters)]);
    let mut layout = layout.clone();
    let mut reads = |(_, cells): &(String, Cells)| {
        layout.cells = cells.clone();
        detect(head, &layout).is_ok_and(clean)
    };
    tries.find(&mut reads).map(|(flag, _)| flag)
}

/// The readings detection scores, the preferred first, each with whether the sample
/// may be so: each format, and each way of writing grid rows.
fn candidates(sample: &[u8], layout: &Layout, csv: bool) -> Vec<(bool, (Format, Layout))> {
    let first = sample.trim_ascii_start().first();
    let grid = |f: &dyn Fn(&mut RowStyle)| {
        let mut layout = layout.clone();
        f(&mut layout.rows);
        (Format::Grid, layout)
    };
    let plain = |format| (format, layout.clone());
    let mut candidates = vec![
        (first == Some(&b'['), plain(Format::Json)),
        (csv, plain(Format::Csv)),
        (true, plain(Format::Line)),
        // Before the grids, which read its `?` blanks too: an exact HDU file is that.
        (sample.contains(&b'?'), plain(Format::Hdu)),
        (true, plain(Format::Grid)),
        (sample.contains(&b','), grid(&|s| s.label_column = true)),
        (true, grid(&|s| s.rectangular = true)),
        (true, grid(&|s| s.digit_titles = true)),
    ];
    candidates.push((double_spaced(sample), grid(&|s| s.double_spaced = true)));
    for side in [4, 6, 8, 9, 16, 25] {
        let rows = grid(&|s| s.space_blanks = Some(side));
        candidates.push((space_blank_rows(sample, side), rows));
    }
    candidates.push((first == Some(&b'{'), plain(Format::Json)));
    candidates
}

/// The alphabet of each board size other than 9x9 in `sample` read as `format` (and not
/// given in `layout`), decided once for the file and said: the one that reads the most
/// puzzles of the sample without a conflict, then the most givens (`0` a value), then the
/// first. The cells with the decisions.
fn alphabets(
    name: &str,
    format: Format,
    sample: &[u8],
    layout: &Layout,
    say: &mut dyn FnMut(&str),
) -> Cells {
    let mut layout = layout.clone();
    // Board sides of the records, each with how many the sample holds; boards written
    // as numbers have no alphabet to decide.
    let mut sides = [0usize; MAX_SIDE + 1];
    for board in boards(format, sample, &layout) {
        sides[board.side()] += usize::from(board.symbols().is_some());
    }
    for (side, &count) in sides.iter().enumerate() {
        if count == 0 || layout.cells.alphabet(side).is_some() {
            continue;
        }
        let fits = Alphabet::ALL.into_iter().filter(|a| a.fits(side));
        let scored = fits.map(|alphabet| {
            let mut trial = layout.clone();
            trial.cells = trial.cells.with_alphabet(side, alphabet);
            let good =
                boards(format, sample, &trial).filter(|b| b.side() == side && !b.has_conflict());
            let score = good.fold((0, 0), |(n, givens), b| (n + 1, givens + b.clues()));
            (score, alphabet)
        });
        // The first of the best: `max_by_key` keeps the last.
        let best = scored.filter(|s| s.0.0 > 0).rev().max_by_key(|s| s.0);
        if let Some((_, alphabet)) = best {
            layout.cells = layout.cells.with_alphabet(side, alphabet);
            say(&format!(
                "{name}: {side}x{side} boards read as {} ({}), decided from the {count} in its first {KIB} KiB; --alphabet reads them otherwise",
                alphabet.describe(side),
                alphabet.name(),
            ));
        }
    }
    layout.cells
}

/// The sample of `head` a decision reads (a full one up to its last line end), and
/// `layout` reading it in the reader's own hands.
fn sample<'a>(head: &'a [u8], layout: &Layout) -> (&'a [u8], Layout) {
    let layout = Layout {
        // Classic Mac files: no LF in `head`, and a CR.
        cr_only: !head.contains(&b'\n') && head.contains(&b'\r'),
        blocks: false,
        ..layout.clone()
    };
    // Full before its byte-order mark is dropped: then its last line may be cut.
    let full = head.len() >= SAMPLE;
    let head = head.strip_prefix(super::BOM).unwrap_or(head);
    let end = if layout.cr_only { b'\r' } else { b'\n' };
    let cut = (head.iter().rposition(|&b| b == end))
        .filter(|_| full)
        .map_or(head.len(), |i| i + 1);
    (&head[..cut], layout)
}

/// The puzzles `format` reads from `sample`, up to a read error.
fn boards<'a>(
    format: Format,
    sample: &'a [u8],
    layout: &Layout,
) -> impl Iterator<Item = Board> + 'a {
    let mut reader = format.reader(sample, layout);
    std::iter::from_fn(move || reader.next_record()?.ok()).filter_map(|r| match r.body {
        Body::Parsed(Ok(p)) => Some(p.board),
        _ => None,
    })
}

/// How `format` read with `layout` explains `sample` (`full`: the source goes on past
/// it, so a JSON document is cut inside it: no error of the file's).
fn score(format: Format, sample: &[u8], mut layout: Layout, full: bool) -> Detected {
    let mut reader: Box<dyn RecordReader> = format.reader(sample, &layout);
    let mut errors = 0;
    while let Some(Ok(r)) = reader.next_record() {
        errors += usize::from(r.body.is_err());
    }
    if format == Format::Json && full {
        errors = errors.saturating_sub(1);
    }
    let notes = reader.notes();
    layout.rows.dash_blanks |= notes.dash_blanks;
    Detected {
        format,
        layout,
        errors,
        explained: notes.explained,
    }
}

/// Whether `sample` is JSON values one after another (`full`: it may end inside one).
fn is_json(sample: &[u8], full: bool) -> bool {
    let mut values =
        serde_json::Deserializer::from_slice(sample).into_iter::<serde::de::IgnoredAny>();
    values.all(|v| v.map_or_else(|e| e.is_eof() && full, |_| true))
}

/// The refusal of a sample that is no puzzle data whatever its lines read as (so no
/// flag is a fix): binary data (a tenth of its first KiB control bytes other than line
/// ends and tabs, NULs padding its end aside; UTF-16 is decoded before), or SAT clauses
/// in DIMACS CNF: a `p cnf` line first, or clauses alone (integers ending in `0`, a
/// negated one among them: `-111 -211 0`, which reads as a row of nine) on every line of
/// the first eight.
fn foreign(sample: &[u8], cr_only: bool) -> Option<String> {
    let end = sample.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let head = &sample[..end.min(1024)];
    let control = head
        .iter()
        .filter(|&&b| b < b' ' && !b"\t\r\n".contains(&b));
    let control = control.count();
    if control * 10 >= head.len().max(1) {
        let n = head.len();
        return Some(format!(
            "binary data, not text ({control} control bytes in its first {n}): export its puzzles as text, one a line"
        ));
    }
    let clause = |t: &&[u8]| {
        let words: Vec<&[u8]> = t
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty())
            .collect();
        let int = |w: &&[u8]| {
            let digits = w.strip_prefix(b"-").unwrap_or(w);
            !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
        };
        words.len() >= 2 && words.last() == Some(&&b"0"[..]) && words.iter().all(int)
    };
    let mut first = texts(sample, cr_only)
        .filter(|t| !t.is_empty() && !t.starts_with(b"c"))
        .take(8);
    let clauses = first.clone().count() >= 3
        && first.clone().all(|t| clause(&t))
        && first.clone().any(|t| t.contains(&b'-'));
    let t = first
        .next()
        .filter(|t| t.starts_with(b"p cnf ") || clauses)?;
    let t = String::from_utf8_lossy(t);
    Some(format!(
        "SAT clauses in DIMACS CNF (`{t}`), not puzzles: give the puzzles themselves, one a line"
    ))
}

/// The refusal of program code, at its first line: a declaration, an import, or an
/// assignment that opens a literal or a call (`const p = [`, `PUZZLES = [`, `int g[9][9]
/// = {`, `val b = arrayOf(`, `v := [][]byte{`, `int[,] b = new int[9, 9] { { 4, 2,`: the
/// first row on it).
fn program_code(sample: &[u8], cr_only: bool) -> Option<String> {
    const KEYWORDS: &str =
        "import |export |#include|#define|package |def |function |module.exports|using namespace";
    let code = |t: &[u8]| {
        let assigned = t
            .windows(2)
            .position(|w| w[1] == b'=' && !b"=!<>".contains(&w[0]))
            .map(|i| i + 1);
        let assignment = assigned.is_some_and(|i| {
            let (left, right) = (trim(&t[..i]), trim(&t[i + 1..]));
            let left = left.strip_suffix(b":").unwrap_or(left);
            let right = right.strip_prefix(b"new ").unwrap_or(right);
            // A name (or none) and the bracket it opens: `=>`, an arrow, opens none.
            let name = (right.iter())
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'!'))
                .count();
            left.first()
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                && left
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || b" _.,;[]<>*&:".contains(b))
                && matches!(right.get(name), Some(b'[' | b'{' | b'('))
        });
        assignment || KEYWORDS.split('|').any(|k| t.starts_with(k.as_bytes()))
    };
    let (i, t) = texts(sample, cr_only).enumerate().find(|(_, t)| code(t))?;
    let (n, code) = (i + 1, String::from_utf8_lossy(&t[..t.len().min(60)]));
    Some(format!(
        "line {n} is program code ({code:?}): program source is not read; extract its puzzles, one a line, into a file of their own"
    ))
}

/// Whether `side` lines in a row could be the rows of a board of that side with spaces
/// for blanks: most of them `side` columns wide (a row's trailing blanks may be cut), a
/// space inside at least one (`   26 7 1`). Short lines of digits and spaces alone
/// (`3 1 6` triples) are not.
fn space_blank_rows(sample: &[u8], side: u8) -> bool {
    let rows: Vec<Option<&[u8]>> = sample
        .split(|&b| b == b'\n')
        .map(|l| space_blank_row(l, side).map(|_| l.strip_suffix(b"\r").unwrap_or(l)))
        .collect();
    let side = usize::from(side);
    let runs = rows.split(Option::is_none);
    runs.flat_map(|run| run.windows(side)).any(|w| {
        let w: Vec<&[u8]> = w.iter().flatten().copied().collect();
        // Below 9x9, a column of spaces on every line parts boxes (`12 34`): no blanks.
        let parted = side != 9 && (1..side - 1).any(|c| w.iter().all(|r| r.get(c) == Some(&b' ')));
        // Most rows with a space: one short row among rows of `0` blanks is damaged.
        2 * w.iter().filter(|r| trim(r).contains(&b' ')).count() > side
            && 2 * w.iter().filter(|r| r.len() == side).count() > side
            && !parted
    })
}

/// Whether nearly every line of `sample` that is not blank has a blank line after it.
fn double_spaced(sample: &[u8]) -> bool {
    let lines: Vec<&[u8]> = lines(sample).collect();
    let text = lines.iter().filter(|t| !t.is_empty()).count();
    let spaced = lines
        .windows(2)
        .filter(|w| !w[0].is_empty() && w[1].is_empty())
        .count();
    text >= 8 && spaced * 10 >= text * 9
}

/// The refusal of boards too large to read whose rows `sample` holds: at least that many
/// lines of that many cells (written together or with one separator).
fn oversized(sample: &[u8]) -> Option<String> {
    let mut count = std::collections::HashMap::new();
    for t in lines(sample) {
        let tokens = t.split(|b| b" ,\t|".contains(b)).filter(|w| !w.is_empty());
        // One token: its characters, quotes, brackets and a separator after them aside, if
        // cells (`<value>0</value>` is none); as many as a board's are a puzzle a line (a
        // damaged one, say), no row.
        let inner = t.iter().filter(|b| !b"'\"[](){},;".contains(b));
        let n = match tokens.clone().count() {
            1 if inner
                .clone()
                .all(|b| b.is_ascii_alphanumeric() || b"._-*".contains(b)) =>
            {
                inner.count()
            }
            1 => continue,
            n => n,
        };
        if tokens.count() == 1 && crate::board::Shape::of_cells(n).is_some() {
            continue;
        }
        *count.entry(n).or_insert(0) += 1;
    }
    // The most lines of one width: `find` would name a width by hash order.
    let (n, _) = (count.into_iter())
        .filter(|&(n, lines)| n > MAX_SIDE && n <= 100 && lines >= n)
        .max_by_key(|&(n, lines)| (lines, n))?;
    Some(format!(
        "its lines of {n} cells are the rows of {}",
        crate::board::unread(n)
    ))
}

/// The refusal of boards given cell by cell: most lines of `sample` (row, column, value)
/// triples (`0,2,1`, `3 1 6`, packed `316`) or DIMACS clauses of one literal (`111 0`).
fn cell_by_cell(sample: &[u8], cells: &Cells) -> Option<String> {
    let text = lines(sample).filter(|t| !t.is_empty() && !super::line::is_comment(t, cells));
    fn words(t: &[u8]) -> Vec<&[u8]> {
        t.split(|b| b" ,;\t".contains(b))
            .filter(|w| !w.is_empty())
            .collect()
    }
    // A place or a value: at most 25, no leading zero (`06` is a cell group).
    let small = |w: &[u8]| {
        std::str::from_utf8(w)
            .is_ok_and(|w| w.parse::<u8>().is_ok_and(|n| n <= 25 && w == n.to_string()))
    };
    let triple = |t: &[u8]| match words(t)[..] {
        [r, c, v] => small(r) && small(c) && small(v),
        [rcv, b"0"] => rcv.len() == 3 && rcv.iter().all(u8::is_ascii_digit),
        [rcv] => rcv.len() == 3 && rcv.iter().all(|b| (b'1'..=b'9').contains(b)),
        _ => false,
    };
    let (all, triples): (Vec<&[u8]>, Vec<&[u8]>) = text.partition(|t| !triple(t));
    // A line with a run of cells (a damaged puzzle, rows) says why itself.
    let runs = |t: &&[u8]| words(t).len() >= 9 || words(t).iter().any(|w| w.len() >= 9);
    let n = triples.len();
    let first = String::from_utf8_lossy(triples.first()?);
    // A 9x9 board's places are 0-8 or 1-9: with 0 and 9 both, the lines are its cells
    // three a line (box by box, `9 0 2`).
    let numbers: Vec<u8> = (triples.iter().flat_map(|t| words(t)))
        .filter_map(|w| std::str::from_utf8(w).ok()?.parse().ok())
        .collect();
    let places = triples.iter().flat_map(|t| words(t).into_iter().take(2));
    let place = |p: &[u8]| places.clone().any(|w| w == p);
    let (what, why, board) = match numbers.iter().all(|&v| v <= 9) && place(b"0") && place(b"9") {
        true => (
            "three cells each",
            ": places 0 and 9 both, no place and value",
            "a board in pieces of three",
        ),
        false => (
            "triples of a cell's place and value",
            "",
            "a board given cell by cell",
        ),
    };
    (n >= 3 && n >= 2 * all.len() && !all.iter().any(runs)).then(|| {
        format!("{n} of its lines are {what} (`{first}`{why}): {board}, which is not read; write each board's cells in one line, `.` for blanks")
    })
}

/// The lines of `sample` ending with `\r` where `cr_only`, else `\n` (a CR before it
/// dropped), trimmed.
fn texts(sample: &[u8], cr_only: bool) -> impl Iterator<Item = &[u8]> + Clone {
    let texts = sample.split(move |&b| b == if cr_only { b'\r' } else { b'\n' });
    texts.map(|l| trim(l.strip_suffix(b"\r").unwrap_or(l)))
}

/// The lines of `sample` (LF, CRLF or CR), trimmed.
fn lines(sample: &[u8]) -> impl Iterator<Item = &[u8]> {
    sample.split(|&b| b == b'\n' || b == b'\r').map(trim)
}
