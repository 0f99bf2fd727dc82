//! How a benchmark run is shown: the table on the terminal, the verdicts, `history`'s
//! trends, the HTML report and its charts, and the exports (`--export-*`), each a file.

mod csv;
pub mod export;
pub mod history;
pub mod html;
mod markdown;
pub mod svg;
mod table;
pub mod terminal;
pub mod verdicts;

/// How every table and note shows a dataset's path, so a row and the notes on it read
/// alike: whole when short, else its end from a folder boundary (`…/datasets/a.txt`);
/// characters that could drive a terminal made U+FFFD (a saved run's path is a file's
/// text).
pub fn dataset_name(path: &str) -> String {
    const WIDTH: usize = 32;
    let cut = crate::report::text_table::shorten(&crate::base::bounds::shown(path, &[]), WIDTH);
    match cut
        .strip_prefix('…')
        .and_then(|tail| tail.find('/').map(|i| &tail[i..]))
    {
        Some(from_folder) if from_folder.len() > 1 => format!("…{from_folder}"),
        _ => cut,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_dataset_path_is_cut_at_a_folder() {
        use super::dataset_name as name;
        assert_eq!(name("datasets/a.txt"), "datasets/a.txt");
        let long = "/work/some/checkout/datasets/generated-3000.txt";
        assert_eq!(name(long), "…/datasets/generated-3000.txt");
        let file = format!("/x/{}", "f".repeat(40));
        assert_eq!(name(&file), format!("…{}", "f".repeat(31)));
        assert_eq!(name("a\u{1b}[2Jb"), "a\u{fffd}[2Jb");
    }
}
