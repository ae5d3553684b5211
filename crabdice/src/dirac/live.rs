//! # A large board and a large die: only the spaces a pawn can still stand on
//!
//! The per-player engine keeps a table of `board × target` counts. With a
//! large die the board cannot shrink below `target + rolls × faces` spaces
//! (module `dirac`, "A large board is a small one"), so a board of a million
//! spaces and a die of 100,000 faces keep 300,000 rows: gigabytes at a
//! target of 50. Yet a pawn still short of the target stands on a space no
//! higher than its score, which is below the target: after its first turn
//! it is on one of the `target − 1` lowest spaces, with one of `target − 1`
//! scores. This engine keeps only those cells.
//!
//! A turn from space `p` lands on `q` when the turn's sum `r` is `q − p`
//! modulo the board, so the universes that go from `p` to `q` are
//! `M(q − p mod board)`, where `M(d)` counts the roll sequences whose sum is
//! `d` modulo the board. Only `d` between `−target` and `target` (and from
//! each start) are needed. Each is a short sum over the sums `r ≡ d` in
//! `rolls..=rolls × faces`: one or two of them once the board is larger
//! than a turn can go. A sum's count is the number of ways to write `r` as
//! `rolls` faces, by inclusion and exclusion:
//!
//! `c(r) = Σ_j (−1)^j · C(rolls, j) · C(r − j·faces − 1, rolls − 1)`,
//!
//! with each `C(·, rolls − 1)` a falling product of machine words, and one
//! division by `(rolls − 1)!` for the whole sum.
//!
//! A turn then moves each live cell `(p, s)` to every `(q, s + q)` with
//! `s + q` short of the target, `target³ / 6` products at most; the
//! universes that reach the target are the rest of the turn's
//! `faces^rolls` per universe. The counts are big integers from the start,
//! and the estimate of their work assumes that every cell holds universes
//! on every turn of the longest game it can bound, far more than most
//! games do: the per-player engine counts over live cells unless its table
//! is estimated at half their work or less (`rules::OVER_TABLE`), and,
//! when the table's counts outgrow 1024 bits, when big-integer cells are
//! refused or estimated at twice their work or more (`rules::OVER_CELLS`).

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::alone::{Alone, Counts, Turn};
use super::rules::Counting;
use super::{DiceRules, DiracLimits};
use crate::cores;

/// Every player alone, for starts on the board (any of its spaces) and
/// rules already checked by [`DiceRules::check_live_size`] within
/// `limits`: several players at once if the count is large enough to
/// gain by it and their tables fit `limits` together
/// ([`DiceRules::threads`]).
pub(crate) fn play(starts: &[u64], rules: &DiceRules, limits: &DiracLimits) -> Counts {
    let moves = Moves::new(rules);
    let threads = rules.threads(starts.len(), starts.len(), limits, Counting::Live);
    Counts::Big(cores::map(starts.to_vec(), threads, |start| moves.play(start, rules)))
}

/// The universes of one turn from a space to another, for the moves a live
/// pawn can make.
pub(crate) struct Moves {
    /// `faces^rolls`.
    universes: BigUint,
    /// Spaces below the target: `1..live`.
    live: u64,
    board: u64,
    /// `between[q − p + live]`: from live space `p` to live space `q`.
    between: Vec<BigUint>,
    rolls: u64,
    faces: u64,
    /// `(rolls − 1)!`, which divides the falling products.
    factorial: BigUint,
}

impl Moves {
    pub(crate) fn new(rules: &DiceRules) -> Self {
        let live = rules.live_spaces();
        // The rules' check keeps the rolls to a few thousand.
        let rolls = usize::try_from(rules.rolls).unwrap_or(usize::MAX);
        let universes = num_traits::pow(BigUint::from(rules.faces), rolls);
        let mut moves = Self {
            universes,
            live,
            board: rules.board,
            between: Vec::new(),
            rolls: rules.rolls,
            faces: rules.faces,
            factorial: (1..rules.rolls).fold(BigUint::one(), |product, i| product * i),
        };
        // q − p runs from −(live − 2) to live − 2.
        let span = 2 * live;
        moves.between = (0..span)
            .map(|i| {
                let step = i128::from(i) - i128::from(live);
                moves.landing(step)
            })
            .collect();
        moves
    }

    /// The universes of a turn whose sum is `step` modulo the board.
    fn landing(&self, step: i128) -> BigUint {
        let board = i128::from(self.board);
        let residue = u128::try_from(step.rem_euclid(board)).unwrap_or(0);
        let (low, high) = (u128::from(self.rolls), u128::from(self.rolls) * u128::from(self.faces));
        let board = u128::from(self.board);
        // The first sum at or above `low` with this residue.
        let first = low + (residue + board - low % board) % board;
        let mut total = BigUint::zero();
        let mut sum = first;
        while sum <= high {
            total += self.sequences(sum);
            sum += board;
        }
        total
    }

    /// Roll sequences of `rolls` faces adding up to `sum` (in
    /// `rolls..=rolls × faces`), by inclusion and exclusion over the rolls
    /// that exceed `faces`. Each term's `C(n, rolls − 1)` is kept as the
    /// falling product `n (n − 1) … (n − rolls + 2)`, and the sum divided by
    /// `(rolls − 1)!` once: multiplications by machine words only.
    fn sequences(&self, sum: u128) -> BigUint {
        let (rolls, faces) = (u128::from(self.rolls), u128::from(self.faces));
        let (mut plus, mut minus) = (BigUint::zero(), BigUint::zero());
        let mut choose_j = BigUint::one();
        let mut j = 0;
        while j <= rolls && j * faces + rolls <= sum {
            let term = &choose_j * falling(sum - j * faces - 1, rolls - 1);
            if j % 2 == 0 {
                plus += term;
            } else {
                minus += term;
            }
            // C(rolls, j + 1) from C(rolls, j); both below 2^64 as factors.
            choose_j *= u64::try_from(rolls - j).unwrap_or(0);
            choose_j /= u64::try_from(j + 1).unwrap_or(1);
            j += 1;
        }
        (plus - minus) / &self.factorial
    }

    /// From `p` to `q`, both live spaces.
    fn between(&self, p: u64, q: u64) -> &BigUint {
        // Both below `live`, so the index is in `1..2 × live`.
        &self.between[(q + self.live - p) as usize]
    }

    /// One player from `start`, until no universe is short of the target.
    pub(crate) fn play(&self, start: u64, rules: &DiceRules) -> Alone<BigUint> {
        // The rules' check keeps the live spaces to a few thousand.
        let live = self.live as usize;
        let target = rules.target as usize;
        let index = |space: usize, score: usize| score * live + space;
        let mut now = vec![BigUint::zero(); target * live];
        let mut turns = Vec::new();
        // The first turn, from the start (any space) with no score.
        let mut playing = BigUint::zero();
        for q in 1..self.live {
            let universes = self.landing(i128::from(q) - i128::from(start));
            if !universes.is_zero() {
                playing += &universes;
                now[index(q as usize, q as usize)] = universes;
            }
        }
        let reached = &self.universes - &playing;
        turns.push(Turn { reached, playing: playing.clone() });
        let mut next = vec![BigUint::zero(); target * live];
        while !playing.is_zero() {
            let before = std::mem::take(&mut playing);
            for score in 1..target {
                for p in 1..live.min(score + 1) {
                    let count = std::mem::take(&mut now[index(p, score)]);
                    if count.is_zero() {
                        continue;
                    }
                    for q in 1..(target - score).min(live) {
                        let universes = self.between(p as u64, q as u64);
                        if !universes.is_zero() {
                            next[index(q, score + q)] += &count * universes;
                        }
                    }
                }
            }
            std::mem::swap(&mut now, &mut next);
            playing = now.iter().sum();
            let reached = before * &self.universes - &playing;
            turns.push(Turn { reached, playing: playing.clone() });
        }
        turns
    }
}

/// `n (n − 1) … (n − k + 1)`: zero when `k > n`.
fn falling(n: u128, k: u128) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    (0..k).fold(BigUint::one(), |product, i| product * (n - i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dirac::alone::by_cells;

    /// Every small game, counted over live cells and over the whole table
    /// in big-integer cells (the reference), player by player.
    #[test]
    fn live_cells_count_what_the_whole_table_counts() {
        let limits = DiracLimits::default();
        let mut checked = 0;
        for board in [1, 2, 3, 5, 7, 10, 13, 40, 100] {
            for target in [1, 2, 5, 9, 16, 21] {
                for faces in [1, 2, 3, 6, 20] {
                    for rolls in [1, 2, 3, 5] {
                        let rules = DiceRules { board, target, faces, rolls };
                        let starts: Vec<u64> = [1, board / 2 + 1, board].into();
                        let expected = by_cells::<BigUint>(&starts, &rules).unwrap();
                        let Counts::Big(got) = play(&starts, &rules, &limits) else {
                            unreachable!()
                        };
                        assert_eq!(got, expected, "{rules} from {starts:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    /// Boards far larger than a turn goes, up to 2^64 − 1 spaces, counted
    /// over live cells, against the whole table of the small board that
    /// plays the same game (`DiceRules::dirac_board`).
    #[test]
    fn large_boards_count_what_their_small_boards_count() {
        let limits = DiracLimits::default();
        for board in [200, 1_000_000, u64::MAX] {
            for target in [1, 7, 21] {
                for faces in [1, 3, 10, 50] {
                    for rolls in [1, 2, 3] {
                        let rules = DiceRules { board, target, faces, rolls };
                        let starts = [1, 5, 150, board - 2, board];
                        let (small, at) = rules.dirac_board(&starts);
                        let expected = by_cells::<BigUint>(&at, &small).unwrap();
                        let Counts::Big(got) = play(&starts, &rules, &limits) else {
                            unreachable!()
                        };
                        assert_eq!(got, expected, "{rules} from {starts:?}");
                    }
                }
            }
        }
    }

    /// A count large enough to spread its players over the cores counts
    /// what one player after another does, in the players' order.
    #[test]
    fn players_counted_at_once_come_back_in_order() {
        let rules = DiceRules { board: 1_000_000, target: 60, faces: 1000, rolls: 2 };
        let starts = [999_000, 1, 7, 500_000, 3];
        let limits = DiracLimits::default();
        assert!(rules.spreads(starts.len(), 2, &limits, Counting::Live));
        let Counts::Big(got) = play(&starts, &rules, &limits) else { unreachable!() };
        let moves = Moves::new(&rules);
        let one_by_one: Vec<_> = starts.iter().map(|&start| moves.play(start, &rules)).collect();
        assert_eq!(got, one_by_one);
        assert_ne!(got[0], got[1]);
    }

    #[test]
    fn sequences_are_counted_by_inclusion_and_exclusion() {
        let rules = DiceRules { board: 1000, target: 21, faces: 3, rolls: 3 };
        let moves = Moves::new(&rules);
        let counts: Vec<u64> =
            (3..=9).map(|sum| u64::try_from(moves.sequences(sum)).unwrap()).collect();
        assert_eq!(counts, [1, 3, 6, 7, 6, 3, 1]);
        assert_eq!(falling(10, 3), BigUint::from(720_u16));
        assert_eq!(falling(3, 10), BigUint::zero());
        // Five rolls of a die of a million: C(n, 4) over each excess.
        let many =
            Moves::new(&DiceRules { board: 1 << 40, target: 21, faces: 1_000_000, rolls: 5 });
        assert_eq!(many.sequences(5), BigUint::one());
        assert_eq!(many.sequences(6), BigUint::from(5_u8));
        // The middle sum of two dice of a million: a million ways.
        let two = Moves::new(&DiceRules { board: 1 << 40, target: 21, faces: 1_000_000, rolls: 2 });
        assert_eq!(two.sequences(1_000_001), BigUint::from(1_000_000_u32));
    }
}
