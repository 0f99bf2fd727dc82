//! The base layer: what every other module may use and which uses none of them — the
//! memory budget (`bounds`), the CPU's clocks and counters (`cpu`), interruption by a
//! signal (`interrupt`) and the seeded random numbers (`rng`).

pub(crate) mod bounds;
pub(crate) mod cpu;
pub(crate) mod interrupt;
pub(crate) mod rng;
