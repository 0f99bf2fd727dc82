//! The verifier's counts for a dataset, found once before it is measured: every pass
//! then checks its claims against them without solving anything again.

use rayon::prelude::*;

use super::Dataset;
use crate::board::Board;
use crate::run::{Truth, Verifier, verifier_of};
use crate::solver::{Backend, Limits};

/// A count the verifier did not finish.
const UNFINISHED: u32 = u32::MAX;
/// Puzzles unpacked at a time.
const STRETCH: usize = 16_384;

/// The true counts of a dataset's timed puzzles (up to the run's limit), as the
/// verifiers of one backend found them.
pub struct Truths {
    /// The backend whose claims these check (its verifiers are not itself).
    pub backend: Backend,
    counts: Vec<u32>,
    /// (9x9, other sizes) verifiers' names.
    by: (&'static str, &'static str),
}

impl Truths {
    /// Solves every timed puzzle of `dataset` with the verifiers of `backend`, on
    /// `pool`, untimed. `None` when an interrupt stopped it.
    pub fn find(
        pool: &rayon::ThreadPool,
        dataset: &Dataset,
        backend: &Backend,
        limits: &Limits,
    ) -> Option<Truths> {
        let mut counts = Vec::with_capacity(dataset.len());
        let mut boards = Vec::new();
        for start in (0..dataset.len()).step_by(STRETCH) {
            dataset.unpack(start..(start + STRETCH).min(dataset.len()), &mut boards);
            let found: Vec<u32> = pool.install(|| {
                boards
                    .par_iter()
                    .map_init(
                        || Verifier::new(backend, limits),
                        |v, board: &Board| match v.truth(board) {
                            t if t.finished => t.count.min(UNFINISHED - 1),
                            _ => UNFINISHED,
                        },
                    )
                    .collect()
            });
            counts.extend(found);
            if crate::base::interrupt::requested() {
                return None;
            }
        }
        let name = |side| verifier_of(backend, side).name();
        Some(Truths {
            backend: backend.clone(),
            counts,
            by: (name(9), name(16)),
        })
    }

    /// Whether these counts were found by the verifiers of `backend` too.
    pub fn serves(&self, backend: &Backend) -> bool {
        [9, 16]
            .iter()
            .all(|&side| verifier_of(&self.backend, side) == verifier_of(backend, side))
    }

    /// The truth about timed puzzle `k`, a board of `side` x `side`.
    pub fn get(&self, k: usize, side: usize) -> Truth {
        let count = self.counts[k];
        Truth {
            count: if count == UNFINISHED { 0 } else { count },
            finished: count != UNFINISHED,
            by: if side == 9 { self.by.0 } else { self.by.1 },
        }
    }
}
