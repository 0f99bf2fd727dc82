//! Saved runs: where named baselines live, loading them as the untrusted files they
//! are, and the regression verdict.

mod store;
mod verdict;

pub use store::{BaselineRef, Found, Store, check_name, load};
pub use verdict::{Comparison, Comparisons, Verdict, check_comparable, compare};
