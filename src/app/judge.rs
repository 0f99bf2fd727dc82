//! `judge`: answer an online judge's input on standard input.

use super::Exit;
use crate::loader::RawSource;
use crate::options::JudgeOptions;
use crate::output::RowStream;

pub(super) fn judge(opts: JudgeOptions) -> anyhow::Result<Exit> {
    let stdin = std::io::BufReader::with_capacity(1 << 16, RawSource::stdin()?);
    let mut out = RowStream::open(&opts.output)?;
    let report = crate::judge::judge(opts.problem, &opts.backend, &opts.limits, stdin, &mut out)?;
    // No case at all is no clean run, as in `solve` and `bench`.
    let nothing = report.cases == 0 && !report.interrupted;
    if nothing {
        say!("error: the input holds no cases");
    }
    Ok(Exit::worst(
        report.interrupted,
        report.wrong > 0,
        nothing || report.failed > 0,
    ))
}
