//! A table's cells, built once as text with each column's alignment (report's
//! `TextTable`, which lays itself out for the terminal), laid out here for Markdown and
//! HTML too, each picking its columns and its form of a cell (`map`).

use crate::report::text_table::Align;
pub use crate::report::text_table::TextTable as Table;

/// A column: its title, its alignment, and its cell of one item.
pub type Column<'a, T> = (&'static str, Align, &'a dyn Fn(&T) -> String);

impl Table {
    /// A row per item, a cell per column.
    pub fn of<T>(items: &[T], columns: &[Column<'_, T>]) -> Table {
        Table {
            columns: columns.iter().map(|c| (c.0, c.1)).collect(),
            rows: items
                .iter()
                .map(|item| columns.iter().map(|c| c.2(item)).collect())
                .collect(),
        }
    }

    /// Where the column titled `name` is; a name no column has is a bug.
    pub fn column(&self, name: &str) -> usize {
        self.columns
            .iter()
            .position(|c| c.0 == name)
            .unwrap_or_else(|| panic!("no column {name:?}"))
    }

    /// The named columns only, in that order.
    pub fn select(&self, names: &[&str]) -> Table {
        let at: Vec<usize> = names.iter().map(|n| self.column(n)).collect();
        Table {
            columns: at.iter().map(|&i| self.columns[i]).collect(),
            rows: self
                .rows
                .iter()
                .map(|row| at.iter().map(|&i| row[i].clone()).collect())
                .collect(),
        }
    }

    /// Every column but the named ones.
    pub fn without(&self, names: &[&str]) -> Table {
        let mut keep: Vec<&str> = self.columns.iter().map(|c| c.0).collect();
        keep.retain(|c| !names.contains(c));
        self.select(&keep)
    }

    pub fn rename(&mut self, name: &str, title: &'static str) {
        let i = self.column(name);
        self.columns[i].0 = title;
    }

    /// Each cell of one column in this renderer's form (shortened, marked).
    pub fn map(&mut self, name: &str, f: impl Fn(&str) -> String) {
        let i = self.column(name);
        for row in &mut self.rows {
            row[i] = f(&row[i]);
        }
    }

    /// A Markdown pipe table, aligned as on the terminal; cells go in as they are.
    pub fn markdown(&self) -> String {
        let line = |cells: Vec<&str>| format!("| {} |\n", cells.join(" | "));
        let rule = |c: &(&str, Align)| if c.1 == Align::Left { "---" } else { "--:" };
        let rules: Vec<&str> = self.columns.iter().map(rule).collect();
        let mut s = line(self.columns.iter().map(|c| c.0).collect());
        s.push_str(&format!("|{}|\n", rules.join("|")));
        for row in &self.rows {
            s.push_str(&line(row.iter().map(String::as_str).collect()));
        }
        s
    }
}

/// A number with `decimals` decimals, or "-" where there is none.
pub fn dash(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".into(), |v| format!("{v:.decimals$}"))
}
