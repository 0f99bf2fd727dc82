//! The base layer: what every other module may use and which uses none of them — the
//! memory budget (`bounds`), the CPU's clocks and counters (`cpu`), interruption by a
//! signal (`interrupt`), the seeded random numbers (`rng`) and the content hash (FNV-1a).

pub(crate) mod bounds;
pub(crate) mod cpu;
pub(crate) mod interrupt;
pub(crate) mod rng;

/// Where FNV-1a 64 starts: the hash of nothing.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// A mutex's guard, even where a thread panicked holding it: what it guards stays
/// usable (a list, a counter), and a panic is reported where it happened.
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Adds `x` to `list` unless it holds it already: a list in order of first appearance.
pub fn push_new<T: PartialEq>(list: &mut Vec<T>, x: T) {
    if !list.contains(&x) {
        list.push(x);
    }
}

/// FNV-1a 64 of `bytes`, continued from `hash`: the one content hash (inputs read,
/// datasets, builds, colours).
pub fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    (bytes.iter()).fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
