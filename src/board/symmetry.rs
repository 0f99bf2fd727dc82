//! The symmetries of a board (values relabelled; rows, bands, columns, stacks swapped;
//! transposition), each mapping a puzzle to an equivalent one, so `bench` presents each
//! pass's puzzles afresh: otherwise a solver's branch predictors learn them (as tdoku's
//! harness does).

use crate::base::rng::SplitMix64;
use crate::board::nine::Grid;
use crate::board::{Board, Square};

/// One symmetry of a board of `side` x `side` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Cell `k` of the presented board is cell `from[k]` of the original.
    from: Vec<u16>,
    /// A value's label in the presented board (0, the blank, stays 0), and back.
    relabel: [u8; 26],
    restore: [u8; 26],
}

fn permutation(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut p);
    p
}

/// Lines (rows or columns) in `count` bands of `size`: bands shuffled, and the lines
/// within each band.
pub(crate) fn lines(size: usize, count: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let bands = permutation(count, rng);
    bands
        .into_iter()
        .flat_map(|band| {
            permutation(size, rng)
                .into_iter()
                .map(move |line| band * size + line)
        })
        .collect()
}

impl Symmetry {
    /// A random symmetry of boards of `side` x `side`: rows within bands and bands,
    /// columns within stacks and stacks, values relabelled, and for square boxes a
    /// transposition.
    pub fn random(side: usize, rng: &mut SplitMix64) -> Symmetry {
        let (rows, cols, transpose) = match crate::board::Shape::of_side(side) {
            // Boxes `rows` tall and `cols` wide: `cols` bands of rows, `rows` stacks.
            Some(s) => (
                lines(s.rows, s.cols, rng),
                lines(s.cols, s.rows, rng),
                s.rows == s.cols && rng.next_u64() & 1 == 1,
            ),
            None => ((0..side).collect(), (0..side).collect(), false),
        };
        let from = (0..side * side)
            .map(|k| {
                let (i, j) = match transpose {
                    true => (k % side, k / side),
                    false => (k / side, k % side),
                };
                (rows[i] * side + cols[j]) as u16
            })
            .collect();
        let digits = permutation(side, rng);
        let (mut relabel, mut restore) = ([0u8; 26], [0u8; 26]);
        for (v, &d) in digits.iter().enumerate() {
            relabel[v + 1] = d as u8 + 1;
            restore[d + 1] = v as u8 + 1;
        }
        Symmetry {
            from,
            relabel,
            restore,
        }
    }

    /// The board as this symmetry presents it.
    pub fn apply(&self, board: &Board) -> Board {
        let s = board.to_square();
        let cells = self
            .from
            .iter()
            .map(|&f| self.relabel[s.get(f as usize) as usize]);
        Square::new(cells.collect())
            .expect("a board's cells")
            .into()
    }

    /// A 9x9 board found for the presented puzzle, in the original's form.
    pub fn undo_grid(&self, g: &Grid) -> Grid {
        self.undo_square(&Square::from_grid(g))
            .to_grid()
            .expect("a 9x9 board")
    }

    /// A board of another size found for the presented puzzle, in the original's form.
    pub fn undo_square(&self, s: &Square) -> Square {
        let mut cells = vec![0u8; s.cells().len()];
        for (k, &v) in s.cells().iter().enumerate() {
            cells[self.from[k] as usize] = self.restore[v as usize];
        }
        Square::new(cells).expect("a board's cells")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    const S: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    proptest::proptest! {
        /// A presented puzzle keeps its clues, its solution maps to a solution of the
        /// presented puzzle, and undoing it gives the original's solution back.
        #[test]
        fn symmetries_keep_puzzles_and_map_solutions_back(seed in proptest::prelude::any::<u64>()) {
            let mut rng = SplitMix64::new(seed);
            let sym = Symmetry::random(9, &mut rng);
            let (p, s): (Board, Board) = (P.parse().unwrap(), S.parse().unwrap());
            let (pp, ps) = (sym.apply(&p), sym.apply(&s));
            proptest::prop_assert_eq!(pp.clues(), p.clues());
            proptest::prop_assert_eq!(ps.check_solution_of(&pp), Ok(()));
            proptest::prop_assert_eq!(sym.undo_grid(ps.nine().unwrap()), *s.nine().unwrap());
            // Every size: a 16x16 board and its relabelled, shuffled form.
            let sym16 = Symmetry::random(16, &mut rng);
            let (n, side) = (4, 16);
            let sq = Square::new(
                (0..side * side)
                    .map(|i| ((n * (i / side % n) + i / side / n + i % side) % side + 1) as u8)
                    .collect(),
            )
            .unwrap();
            proptest::prop_assert_eq!(sq.find_conflict(), None);
            let b = Board::Other(Box::new(sq.clone()));
            let shown = sym16.apply(&b);
            let Board::Other(shown) = shown else { panic!("16x16") };
            proptest::prop_assert_eq!(shown.find_conflict(), None);
            proptest::prop_assert_eq!(sym16.undo_square(&shown), sq);
        }
    }

    #[test]
    fn symmetries_differ() {
        let mut rng = SplitMix64::new(1);
        let a = Symmetry::random(9, &mut rng);
        let b = Symmetry::random(9, &mut rng);
        assert_ne!(a, b);
        let p: Board = P.parse().unwrap();
        assert_ne!(a.apply(&p), p);
    }
}
