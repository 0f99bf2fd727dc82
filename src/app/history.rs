//! `history`: trends of the recorded results, with change points.

use super::Exit;
use crate::base::interrupt;
use crate::bench::history::{self, Entry};
use crate::options::HistoryOptions;

pub(super) fn history(opts: HistoryOptions) -> anyhow::Result<Exit> {
    let stop = &interrupt::INTERRUPTED;
    let loaded = history::load(&opts.file, stop)?;
    let file = opts.file.display().to_string();
    if interrupt::requested() {
        // The oldest runs alone would show stale "last" times: nothing rather than that.
        say!("interrupted while reading {file}: nothing shown");
        return Ok(Exit::Interrupted);
    }
    for why in loaded.skipped.iter().take(20) {
        say!("warning: {why}; line skipped");
    }
    if loaded.skipped.len() > 20 {
        say!("warning: {} more lines skipped", loaded.skipped.len() - 20);
    }
    if loaded.unread_bytes > 0 {
        say!(
            "note: {file} is over the size read; its first {} bytes (the oldest runs) were not read",
            loaded.unread_bytes
        );
    }
    let keep = |e: &Entry| {
        (opts.backends.is_empty() || opts.backends.contains(&e.backend))
            && opts
                .dataset
                .as_deref()
                .is_none_or(|d| e.dataset.contains(d))
            && opts.threads.is_none_or(|j| e.threads == j)
    };
    let mut entries: Vec<Entry> = loaded.entries.into_iter().filter(keep).collect();
    if let Some(last) = opts.last {
        // The newest `last` of each series: cut after grouping.
        let series = history::series(&entries);
        let newest = series
            .iter()
            .flat_map(|s| &s[s.len().saturating_sub(last)..]);
        entries = newest.map(|e| (*e).clone()).collect();
    }
    // A series is looked at up to its newest MAX_POINTS runs: say so where one is longer.
    // Sorted: the notes come out in the same order every run.
    let mut counts: std::collections::BTreeMap<_, usize> = std::collections::BTreeMap::new();
    for e in &entries {
        *counts.entry(e.series_key()).or_default() += 1;
    }
    let most = history::change_points::MAX_POINTS;
    for ((backend, _, threads, machine, _), n) in counts.iter().filter(|(_, n)| **n > most) {
        say!(
            "note: {backend} -j{threads} on {machine}: only the newest {most} of its {n} runs are shown"
        );
    }
    let trends = history::trends(&entries, opts.min_step_pct, stop);
    let interrupted = interrupt::requested();
    if interrupted {
        say!(
            "interrupted: only the {} series analysed before it are shown",
            trends.len()
        );
    }
    if !trends.is_empty() {
        opts.text.print(&crate::bench::present::history::render(
            &file,
            &trends,
            opts.min_step_pct,
        ))?;
    } else if !interrupted {
        opts.text
            .print(&format!("history: {file}: no entries match\n"))?;
    }
    Ok(Exit::worst(interrupted, false, !loaded.skipped.is_empty()))
}
