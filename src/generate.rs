//! Seeded generation of puzzles with exactly one solution: a random full grid, then
//! clues removed in random order while the solution stays unique.
//!
//! Puzzle `i` of seed `s` depends only on `(s, i)`, so generation is parallel and the
//! same command always writes the same file.

pub use crate::base::rng::SplitMix64;
use crate::board::nine::{CELLS, Grid, box_of, col_of, row_of};
use crate::board::symmetry::lines;
use crate::board::{Board, Shape, Square};
use crate::run::{Attempt, GuardedSolver};
use crate::solver::SolveOutcome;

/// The uniqueness checks of one puzzle that proved nothing: each kept its clue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Ran out of the node budget or time (the backend's or the verifier's).
    pub unfinished: u32,
    /// The backend failed, or claimed what its own answer belies ("unique" without the
    /// known board, "no solution").
    pub failed: u32,
    /// The backend's count, refuted by the verifier (a foreign backend's claims are
    /// verified, as `solve` and `bench` verify them).
    pub refuted: u32,
    /// A solution without a count: a backend that cannot count cannot prove a puzzle
    /// unique.
    pub uncounted: u32,
}

add_assign!(Checks: unfinished, failed, refuted, uncounted);

/// One generated puzzle and its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub puzzle: Board,
    pub solution: Board,
    pub checks: Checks,
}

/// Puzzle number `index` of `seed` on a board of `shape`: unique solution, at least
/// `min_clues` clues. A 9x9 board is a random fill; another is the pattern solution
/// relabelled and shuffled (a search for a random full 25x25 board can wander for long).
///
/// A clue is removed only when the check proves the solution still unique; a check that
/// does not finish or fails keeps the clue (more clues than the seed alone would give).
pub fn generate(
    seed: u64,
    index: u64,
    shape: Shape,
    min_clues: usize,
    solver: &mut GuardedSolver,
) -> Generated {
    let stream = seed ^ SplitMix64::new(index).next_u64();
    let (solution, mut rng) = match shape.side() {
        9 => {
            let mut rng = SplitMix64::new(stream);
            // A uniformly shuffled search for a full grid: random digit order at each cell.
            let grid = loop {
                let mut grid = Grid::EMPTY;
                let mut masks = [[0u16; 9]; 3];
                let mut budget = 100_000u32;
                if fill(0, &mut grid, &mut masks, &mut rng, &mut budget) {
                    break grid;
                }
                // Rarely a fill wanders; start over with fresh random choices.
            };
            (Board::Nine(grid), rng)
        }
        _ => {
            // Square boxes as ever; rectangular ones their own stream.
            let tag = (shape.rows as u64) << 56 ^ ((shape.cols - shape.rows) as u64) << 48;
            let mut rng = SplitMix64::new(stream ^ tag);
            let square = random_full_square(shape, &mut rng);
            (Board::Other(Box::new(square)), rng)
        }
    };
    let mut puzzle = solution.to_square().into_owned();
    let cells = solution.side() * solution.side();
    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    let mut checks = Checks::default();
    let mut clues = cells;
    for cell in order {
        if clues <= min_clues {
            break;
        }
        let value = puzzle.get(cell);
        puzzle.set(cell, 0);
        let board = Board::from(puzzle.clone());
        let unique = match solver.attempt_board(&board) {
            Attempt::Solved {
                outcome, square, ..
            } => {
                let found = match (&solution, square) {
                    (Board::Nine(g), _) => outcome.solution.as_ref() == Some(g),
                    (Board::Other(s), square) => square.as_deref() == Some(&**s),
                };
                judge(&outcome, found, solver, &board, &mut checks)
            }
            _ => {
                checks.failed += 1;
                false
            }
        };
        match unique {
            true => clues -= 1,
            false => puzzle.set(cell, value),
        }
    }
    Generated {
        puzzle: Board::from(puzzle),
        solution,
        checks,
    }
}

/// Whether a uniqueness check proved the puzzle unique, judged against the full board
/// it was cut from and, for a foreign backend, against the verifier's count: a claim
/// the answer belies ("no solution", "unique" without that board) failed, a count the
/// verifier refutes is refuted, a bare solution counted nothing.
fn judge(
    outcome: &SolveOutcome,
    found_the_known: bool,
    solver: &mut GuardedSolver,
    puzzle: &Board,
    checks: &mut Checks,
) -> bool {
    if outcome.budget_exceeded {
        checks.unfinished += 1;
        return false;
    }
    if outcome.solutions > 0 && outcome.count_is_lower_bound {
        checks.uncounted += 1;
        return false;
    }
    match solver.truth(puzzle) {
        Some(t) if !t.finished => checks.unfinished += 1,
        Some(t) if t.count != outcome.solutions => checks.refuted += 1,
        _ => match outcome.solutions {
            0 => checks.failed += 1,
            1 if !found_the_known => checks.failed += 1,
            1 => return true,
            _ => {}
        },
    }
    false
}

fn random_full_square(shape: Shape, rng: &mut SplitMix64) -> Square {
    let (h, w) = (shape.rows, shape.cols);
    let side = shape.side();
    let mut values: Vec<u8> = (1..=side as u8).collect();
    rng.shuffle(&mut values);
    // Rows in `w` bands of `h`, columns in `h` stacks of `w`, each shuffled.
    let (rows, cols) = (lines(h, w, rng), lines(w, h, rng));
    // Only square boxes stay boxes when transposed.
    let transpose = h == w && rng.below(2) == 1;
    let pattern = |r: usize, c: usize| (w * (r % h) + r / h + c) % side;
    let cells = (0..side * side)
        .map(|i| {
            let (mut r, mut c) = (rows[i / side], cols[i % side]);
            if transpose {
                std::mem::swap(&mut r, &mut c);
            }
            values[pattern(r, c)]
        })
        .collect();
    Square::new(cells).expect("a pattern solution")
}

fn fill(
    cell: usize,
    grid: &mut Grid,
    masks: &mut [[u16; 9]; 3],
    rng: &mut SplitMix64,
    budget: &mut u32,
) -> bool {
    if cell == CELLS {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let units = [row_of(cell), col_of(cell), box_of(cell)];
    let used = masks[0][units[0]] | masks[1][units[1]] | masks[2][units[2]];
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    for d in digits {
        let bit = 1u16 << (d - 1);
        if used & bit != 0 {
            continue;
        }
        masks.iter_mut().zip(units).for_each(|(m, u)| m[u] |= bit);
        grid.set(cell, d);
        if fill(cell + 1, grid, masks, rng, budget) {
            return true;
        }
        masks.iter_mut().zip(units).for_each(|(m, u)| m[u] &= !bit);
    }
    grid.set(cell, 0);
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::mock::Mock;
    use crate::solver::{Backend, DlxStatic, Limits, Solver};

    const NINE: Shape = Shape { rows: 3, cols: 3 };

    fn guarded(backend: Backend, limits: Limits) -> GuardedSolver {
        GuardedSolver::new(&backend, &limits, None)
    }

    #[test]
    fn generated_puzzles_are_unique_and_reproducible() {
        let mut solver = guarded(Backend::DlxStatic, Limits::default());
        let mut check = DlxStatic::default();
        for i in 0..20 {
            let g = generate(7, i, NINE, 24, &mut solver);
            assert_eq!(g.solution.check_solution_of(&g.puzzle), Ok(()));
            assert!(g.puzzle.clues() >= 24);
            assert_eq!(g.checks, Checks::default());
            let out = check.solve(g.puzzle.nine().unwrap(), &Limits::default());
            assert_eq!(out.solutions, 1);
            assert_eq!(out.solution.as_ref(), g.solution.nine());
            assert_eq!(generate(7, i, NINE, 24, &mut solver), g);
        }
        assert_ne!(
            generate(7, 0, NINE, 24, &mut solver),
            generate(8, 0, NINE, 24, &mut solver)
        );
    }

    #[test]
    fn failing_or_unfinished_checks_keep_their_clues() {
        // Every check panics (the first cell is blank once it is removed, or a digit).
        let mut panics = guarded(Backend::Mock(Mock::PanicsOnFirstCell(0)), Limits::default());
        let g = generate(7, 0, NINE, 24, &mut panics);
        assert!(g.checks.failed > 0);
        assert_eq!(g.solution.check_solution_of(&g.puzzle), Ok(()));
        let timed = Limits {
            timeout: Some(std::time::Duration::from_millis(1)),
            ..Limits::default()
        };
        let mut hangs = guarded(Backend::Mock(Mock::Hang), timed);
        let g = generate(7, 0, NINE, 24, &mut hangs);
        assert_eq!((g.puzzle, g.checks.unfinished), (g.solution, 81));
    }

    #[test]
    fn boards_of_every_size_are_unique_and_reproducible() {
        let limits = Limits::default();
        let mut solver = guarded(Backend::DlxArena, limits);
        for (rows, cols, min) in [(2, 2, 4), (2, 3, 8), (3, 4, 40), (4, 4, 120)] {
            let n = Shape { rows, cols };
            let g = generate(3, 1, n, min, &mut solver);
            assert_eq!(g.solution.check_solution_of(&g.puzzle), Ok(()));
            let cells = n.side() * n.side();
            assert!(g.puzzle.clues() >= min && g.puzzle.clues() < cells);
            assert_eq!(g.checks, Checks::default());
            let mut dlx = Backend::DlxArena.new_solver();
            let (out, sol) = dlx.solve_square(&g.puzzle.to_square(), &limits).unwrap();
            assert_eq!(out.solutions, 1);
            assert_eq!(sol.as_ref(), Some(&*g.solution.to_square()));
            assert_eq!(generate(3, 1, n, min, &mut solver), g);
            assert_ne!(generate(4, 1, n, min, &mut solver).solution, g.solution);
        }
    }

    #[test]
    fn rng_is_stable_and_unbiased_enough() {
        // Fixed values: a change here would silently change every generated dataset.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            counts[rng.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
