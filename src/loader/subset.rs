//! Subsets of the records read: `--skip N`, `--limit N` and `--sample N --seed S`.

use crate::base::bounds::{Held, MAX_HELD_BYTES, held_too_much};
use crate::base::rng::SplitMix64;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Subset {
    /// Records dropped from the start.
    pub skip: u64,
    /// Records kept at most (after `skip`).
    pub limit: Option<u64>,
    /// A uniform random sample of this many records, with this seed.
    pub sample: Option<(u64, u64)>,
}

impl Subset {
    /// The records of `records` this subset keeps, in input order. `--sample` is
    /// reservoir sampling (Algorithm R) after `--skip`/`--limit`: at most N records held,
    /// the same seed picking the same ones; past [`MAX_HELD_BYTES`] held, an error.
    pub fn apply<'a, T, I>(
        &self,
        records: I,
    ) -> Result<Box<dyn Iterator<Item = T> + Send + 'a>, String>
    where
        T: Held + Send + 'a,
        I: Iterator<Item = T> + Send + 'a,
    {
        let at_most = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let kept = records
            .skip(at_most(self.skip))
            .take(self.limit.map_or(usize::MAX, at_most));
        let Some((want, seed)) = self.sample else {
            return Ok(Box::new(kept));
        };
        let n = at_most(want);
        let mut rng = SplitMix64::new(seed);
        let mut reservoir: Vec<(u64, T)> = Vec::new();
        let mut held = 0;
        for (i, record) in (0u64..).zip(kept) {
            if reservoir.len() < n {
                held += record.held_bytes();
                reservoir.push((i, record));
            } else if let Some(slot) = reservoir.get_mut(rng.below(i + 1) as usize) {
                held = held - slot.1.held_bytes() + record.held_bytes();
                *slot = (i, record);
            }
            if held > MAX_HELD_BYTES {
                let what = format!("--sample {want}");
                return Err(held_too_much(&what, i + 1, "take a smaller sample"));
            }
        }
        reservoir.sort_by_key(|(i, _)| *i);
        Ok(Box::new(reservoir.into_iter().map(|(_, r)| r)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ParseError, Record};

    fn records(n: u64) -> Vec<Record> {
        (1..=n)
            .map(|i| Record {
                source: "s".into(),
                number: i,
                line: i,
                puzzle: Err(ParseError::new(i, "x")),
            })
            .collect()
    }

    fn numbers(subset: &Subset, n: u64) -> Vec<u64> {
        subset
            .apply(records(n).into_iter())
            .unwrap()
            .map(|r| r.number)
            .collect()
    }

    /// What `--sample` holds is counted against the one memory budget: a sample past it
    /// stops the reading with an error.
    #[test]
    fn a_sample_past_the_memory_budget_is_refused() {
        struct Big;
        impl Held for Big {
            fn held_bytes(&self) -> u64 {
                MAX_HELD_BYTES / 4
            }
        }
        let sample = |n| Subset {
            sample: Some((n, 1)),
            ..Subset::default()
        };
        let big = || (0..10).map(|_| Big);
        assert_eq!(sample(3).apply(big()).unwrap().count(), 3);
        let e = sample(8).apply(big()).err().unwrap();
        assert!(
            e.contains("--sample 8") && e.contains("after 5 records"),
            "{e}"
        );
    }

    #[test]
    fn skip_limit_and_reproducible_samples() {
        let s = Subset {
            skip: 2,
            limit: Some(3),
            sample: None,
        };
        assert_eq!(numbers(&s, 10), [3, 4, 5]);
        let sample = Subset {
            sample: Some((5, 42)),
            ..Subset::default()
        };
        let a = numbers(&sample, 1000);
        assert_eq!(a.len(), 5);
        assert!(a.windows(2).all(|w| w[0] < w[1]), "input order: {a:?}");
        assert_eq!(a, numbers(&sample, 1000));
        let other = Subset {
            sample: Some((5, 43)),
            ..Subset::default()
        };
        assert_ne!(a, numbers(&other, 1000));
        assert_eq!(numbers(&sample, 3), [1, 2, 3]);
        // Each record equally likely: over many seeds, early and late ones both appear.
        let mut seen = [0u32; 20];
        for seed in 0..2000 {
            let s = Subset {
                sample: Some((2, seed)),
                ..Subset::default()
            };
            for n in numbers(&s, 20) {
                seen[n as usize - 1] += 1;
            }
        }
        assert!(seen.iter().all(|&c| (120..280).contains(&c)), "{seen:?}");
    }
}
