//! How a benchmark run is shown: the table on the terminal, the comparisons and
//! paired verdicts, `history`'s trends, the HTML report and its charts, and the
//! exports (`--export-*`), each a file.

pub mod compare;
mod csv;
pub mod export;
pub mod history;
pub mod html;
mod markdown;
pub mod paired;
pub mod plot;
pub mod svg;
mod table;
pub mod terminal;
