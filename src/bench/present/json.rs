//! The whole run as JSON: the same layout as a saved baseline, and the relative speeds
//! (which a baseline does not keep: they are computed from its results).

use serde::Serialize;

use super::export::Exporter;
use crate::bench::BenchRun;
use crate::bench::relative::Relative;

pub struct JsonExporter;

#[derive(Serialize)]
struct Export<'a> {
    #[serde(flatten)]
    run: &'a BenchRun,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    relative: Vec<Relative>,
}

impl Exporter for JsonExporter {
    fn serialize(&self, run: &BenchRun) -> anyhow::Result<Vec<u8>> {
        let export = Export {
            run,
            relative: run.relative(),
        };
        let mut bytes = serde_json::to_vec_pretty(&export)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}
