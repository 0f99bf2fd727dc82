//! The one writer of text tables for the terminal: columns sized to their contents.

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table of text cells, each column with its alignment: laid out here for the
/// terminal, and by bench's presentation (`bench::present::table`) as Markdown and HTML.
pub struct TextTable {
    pub columns: Vec<(&'static str, Align)>,
    pub rows: Vec<Vec<String>>,
}

impl TextTable {
    pub fn new(columns: &[(&'static str, Align)]) -> TextTable {
        TextTable {
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; missing cells are blank, extra ones are dropped.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// For the terminal: columns sized to their cells. Control characters (a file name
    /// may hold an escape sequence or a line break) become U+FFFD, so a cell cannot
    /// recolour the terminal or split a row.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let shown = |c: &String| crate::base::bounds::shown(c, &[]).into_owned();
        let titles = self.columns.iter().map(|(t, _)| t.to_string()).collect();
        let rows: Vec<Vec<String>> = std::iter::once(titles)
            .chain(self.rows.iter().map(|row| row.iter().map(shown).collect()))
            .collect();
        let width = |i| rows.iter().map(|row| cell(row, i).chars().count()).max();
        let widths: Vec<usize> = (0..self.columns.len()).filter_map(width).collect();
        let mut out = String::new();
        for row in &rows {
            let mut line = String::new();
            for (i, (_, align)) in self.columns.iter().enumerate() {
                // Padding counts characters, as the widths do.
                let (sep, text, w) = (if i > 0 { "  " } else { "" }, cell(row, i), widths[i]);
                let _ = match align {
                    Align::Left => write!(line, "{sep}{text:<w$}"),
                    Align::Right => write!(line, "{sep}{text:>w$}"),
                };
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

fn cell(row: &[String], i: usize) -> &str {
    row.get(i).map_or("", String::as_str)
}

/// The end of a long text (a path), so tables stay narrow.
pub fn shorten(s: &str, width: usize) -> String {
    let count = s.chars().count();
    if count <= width || width == 0 {
        return s.to_string();
    }
    let tail: String = s.chars().skip(count - (width - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_cannot_reach_the_terminal() {
        let mut t = super::TextTable::new(&[("a", super::Align::Left)]);
        t.row(vec!["x\u{1b}[31m\r\ny".into()]);
        let out = t.render();
        assert!(!out.contains('\u{1b}') && !out.contains('\r'));
        assert_eq!(out.lines().count(), 2, "{out}");
    }

    use super::*;

    #[test]
    fn columns_fit_their_widest_cell() {
        let mut t = TextTable::new(&[("name", Align::Left), ("µs", Align::Right)]);
        t.row(vec!["dlx-static".into(), "1.5".into()]);
        t.row(vec!["dfs".into(), "12345.0".into()]);
        assert_eq!(
            t.render(),
            "name             µs\ndlx-static      1.5\ndfs         12345.0\n"
        );
        assert_eq!(shorten("abcdef", 4), "…def");
        assert_eq!(shorten("abc", 4), "abc");
    }
}
