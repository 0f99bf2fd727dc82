//! Saved runs: where named baselines live, loading them as the untrusted files they
//! are, and the regression verdict.

mod compare;
mod store;

pub use compare::{Comparison, Comparisons, Verdict, check_comparable, compare};
pub use store::{BaselineRef, Found, Store, check_name, load};
