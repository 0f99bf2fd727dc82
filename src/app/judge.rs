//! `judge`: answer an online judge's input on standard input.

use super::Exit;
use crate::loader::RawSource;
use crate::options::JudgeOptions;
use crate::output::RowStream;

pub(super) fn judge(opts: JudgeOptions) -> anyhow::Result<Exit> {
    let stdin = std::io::BufReader::with_capacity(1 << 16, RawSource::stdin()?);
    let mut out = RowStream::open(&opts.output)?;
    let report = crate::judge::judge(opts.problem, &opts.backend, &opts.limits, stdin, &mut out)?;
    Ok(Exit::worst(
        report.interrupted,
        report.wrong > 0,
        report.failed > 0,
    ))
}
