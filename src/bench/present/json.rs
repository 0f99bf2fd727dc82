//! The whole run as JSON: the same layout as a saved baseline.

use super::export::Exporter;
use crate::bench::BenchRun;

pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn serialize(&self, run: &BenchRun) -> anyhow::Result<Vec<u8>> {
        let mut bytes = serde_json::to_vec_pretty(run)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}
