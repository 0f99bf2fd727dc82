//! How inputs are read (`solve` and `bench`): format, blanks, columns, folders, subsets.

use super::usage;
use crate::base::bounds;
use crate::bench::ReadSettings;
use crate::board::Alphabet;
use crate::cli::InputArgs;
use crate::format::{Cells, Column, Columns, Format, Layout, Pairs};
use crate::loader::subset::Subset;
use crate::loader::{LoadOptions, Walk};

/// The input options (as given, or as a recorded run kept them), checked; `verbose` says
/// which format each input is read as.
pub(crate) fn load_options(
    a: &ReadSettings,
    verbose: bool,
) -> anyhow::Result<(LoadOptions, Subset)> {
    let mut cells =
        Cells::with_blanks(a.blanks.as_deref().unwrap_or("")).or_else(|e| usage("--blanks", e))?;
    if let Some(name) = &a.alphabet {
        let alphabet: Alphabet = name.parse().or_else(|e| usage("--alphabet", e))?;
        cells = cells.written_in(alphabet);
    }
    let column = |v: &Option<String>, option: &str| -> anyhow::Result<Option<Column>> {
        v.as_deref()
            .map(str::parse::<Column>)
            .transpose()
            .or_else(|e| usage(option, e))
    };
    let puzzle = column(&a.puzzle_column, "--puzzle-column")?;
    let solution = column(&a.solution_column, "--solution-column")?;
    if solution.is_some() && puzzle.is_none() {
        return usage("--solution-column", "give --puzzle-column too");
    }
    let layout = Layout {
        cells,
        columns: puzzle.map(|puzzle| Columns { puzzle, solution }),
        pairs: match a.solutions_follow.as_deref() {
            None | Some("auto") => None,
            Some("yes") => Some(Pairs::After),
            Some("before") => Some(Pairs::Before),
            Some("no") => Some(Pairs::No),
            Some(other) => {
                return usage(
                    "--solutions-follow",
                    format!("{other:?}: auto, yes, before or no"),
                );
            }
        },
        ..Layout::default()
    };
    let mut format = (a.format.as_deref().map(str::parse::<Format>).transpose())
        .or_else(|e| usage("--format", e))?;
    if layout.columns.is_some() {
        if format.is_some_and(|f| f != Format::Csv) {
            return usage("--puzzle-column", "columns are for --format csv");
        }
        format = Some(Format::Csv);
    }
    if a.globs.iter().any(String::is_empty) {
        return usage("--glob", "an empty pattern");
    }
    let sample = a.sample.map(|n| bounds::within(n, 1, bounds::MAX_SAMPLE));
    let sample = sample.transpose().or_else(|e| usage("--sample", e))?;
    if a.limit == Some(0) {
        return usage("--limit", "0 records is nothing to read");
    }
    let load = LoadOptions {
        format,
        layout,
        walk: Walk {
            max_depth: a.max_depth,
            globs: a.globs.clone(),
        },
        verbose,
        io: verbose.then(Default::default),
        written: Default::default(),
    };
    let subset = Subset {
        skip: a.skip,
        limit: a.limit,
        sample: sample.map(|n| (n, a.seed)),
    };
    Ok((load, subset))
}

/// The input options as a run records them, and as [`load_options`] reads them.
pub(crate) fn read_settings(a: &InputArgs) -> ReadSettings {
    ReadSettings {
        format: a.format.clone(),
        blanks: a.blanks.clone(),
        alphabet: a.alphabet.clone(),
        puzzle_column: a.puzzle_column.clone(),
        solution_column: a.solution_column.clone(),
        solutions_follow: (a.solutions_follow != "auto").then(|| a.solutions_follow.clone()),
        globs: a.glob.clone(),
        max_depth: a.max_depth,
        skip: a.skip,
        limit: a.limit,
        sample: a.sample,
        seed: a.seed,
    }
}
