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
//! division by `(rolls − 1)!` for the whole sum. A die far larger than the
//! board gives a landing many sums (`2^25` for two rolls of `2^64 − 1`
//! faces on `2^40` spaces); past `2 × rolls` of them, each term `j` is
//! summed over all of them at once, as the polynomial in the sum's index
//! that it is, by Newton's forward differences: about `2 rolls³` products
//! for the landing, whatever the number of sums.
//!
//! A turn then moves each live cell `(p, s)` to every `(q, s + q)` with
//! `s + q` short of the target, `target³ / 6` products at most; the
//! universes that reach the target are the rest of the turn's
//! `faces^rolls` per universe. The counts are big integers from the start,
//! and the estimate of their work assumes that every cell holds universes
//! on every turn of the longest game it can bound, far more than most
//! games do: the per-player engine counts over live cells unless its table
//! is estimated at half their work or less (`rules::size::OVER_TABLE`), and,
//! when the table's counts outgrow 1024 bits, when big-integer cells are
//! refused or estimated at more than twice their work (`rules::size::OVER_CELLS`).

use num_bigint::{BigInt, BigUint};
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
        if first > high {
            return BigUint::zero();
        }
        let sums = (high - first) / board + 1;
        if by_polynomial(sums, u128::from(self.rolls)) {
            self.landing_by_polynomial(first, sums)
        } else {
            self.landing_sum_by_sum(first, sums)
        }
    }

    /// The universes of the `sums` sums `first + k × board` (`k < sums`)
    /// of a turn, each counted by [`sequences`](Self::sequences).
    fn landing_sum_by_sum(&self, first: u128, sums: u128) -> BigUint {
        (0..sums).map(|k| self.sequences(first + k * u128::from(self.board))).sum()
    }

    /// The universes of the `sums` sums `first + k × board` (`k < sums`)
    /// of a turn, when there are many: the sums of one term of
    /// [`sequences`](Self::sequences) at a time.
    ///
    /// Term `j` counts, in each sum `r` that has it (`r ≥ j × faces +
    /// rolls`, from `k = k_j` on), `C(r − j × faces − 1, rolls − 1)`: a
    /// polynomial `P_j` of degree `rolls − 1` in `k`, as `r` grows by
    /// `board` a step. Its sum over the `n` sums from `k_j` on is taken
    /// from its first `rolls` values by Newton's forward differences,
    /// `Σ_{i<n} P_j(k_j + i) = Σ_m Δ^m P_j(k_j) × C(n, m + 1)`: about
    /// `2 rolls³` products for the landing, where summing sum by sum takes
    /// `sums × rolls²`. (A die far larger than the board: a landing of two
    /// rolls of 2^64 − 1 faces on 2^40 spaces has 2^25 sums.)
    fn landing_by_polynomial(&self, first: u128, sums: u128) -> BigUint {
        let (rolls, faces, board) =
            (u128::from(self.rolls), u128::from(self.faces), u128::from(self.board));
        let degree = rolls - 1;
        let mut total = BigInt::zero();
        let mut choose_j = BigUint::one();
        for j in 0..=rolls {
            let least = j * faces + rolls;
            let k_j = least.saturating_sub(first).div_ceil(board);
            if k_j >= sums {
                // Every later term starts later still.
                break;
            }
            let n = sums - k_j;
            let at = |i: u128| -> BigInt {
                falling(first + (k_j + i) * board - j * faces - 1, degree).into()
            };
            let mut values: Vec<BigInt> = (0..(degree + 1).min(n)).map(at).collect();
            let part: BigInt = if n <= degree + 1 {
                values.iter().sum()
            } else {
                // `values[m]` becomes `Δ^m P_j(k_j)`.
                for m in 1..values.len() {
                    for i in (m..values.len()).rev() {
                        let below = values[i - 1].clone();
                        values[i] -= below;
                    }
                }
                let mut choose = BigUint::from(n);
                let mut part = BigInt::zero();
                for (m, difference) in (0..).zip(&values) {
                    part += difference * BigInt::from(choose.clone());
                    // C(n, m + 2) from C(n, m + 1), exactly.
                    choose = choose * (n - m - 1) / (m + 2);
                }
                part
            };
            let part = part * BigInt::from(choose_j.clone());
            if j % 2 == 0 {
                total += part;
            } else {
                total -= part;
            }
            choose_j = choose_j * (rolls - j) / (j + 1);
        }
        // A count of sequences, times `(rolls − 1)!`: not negative.
        let (sign, sequences) = total.into_parts();
        debug_assert_ne!(sign, num_bigint::Sign::Minus);
        sequences / &self.factorial
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

/// Whether a landing of `sums` sums is summed as polynomials
/// ([`Moves::landing_by_polynomial`], about `2 rolls³` products) rather than
/// sum by sum (`sums × rolls²`).
pub(crate) fn by_polynomial(sums: u128, rolls: u128) -> bool {
    sums > 2 * rolls
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

    /// Every game of these rules, from `starts(board)`, counted over live
    /// cells and by `reference`, player by player: how many were checked.
    fn agree(
        [boards, targets, faces, rolls]: [&[u64]; 4],
        starts: impl Fn(u64) -> Vec<u64>,
        reference: impl Fn(&DiceRules, &[u64]) -> Vec<Alone<BigUint>>,
    ) -> usize {
        let limits = DiracLimits::default();
        let mut checked = 0;
        for &board in boards {
            for &target in targets {
                for &faces in faces {
                    for &rolls in rolls {
                        let rules = DiceRules { board, target, faces, rolls };
                        let starts = starts(board);
                        let Counts::Big(got) = play(&starts, &rules, &limits) else {
                            unreachable!()
                        };
                        assert_eq!(got, reference(&rules, &starts), "{rules} from {starts:?}");
                        checked += 1;
                    }
                }
            }
        }
        checked
    }

    /// The whole table in big-integer cells, on the board as given.
    fn whole_table(rules: &DiceRules, starts: &[u64]) -> Vec<Alone<BigUint>> {
        by_cells(starts, rules).unwrap()
    }

    /// Every small game, counted over live cells and over the whole table
    /// in big-integer cells (the reference), player by player.
    #[test]
    fn live_cells_count_what_the_whole_table_counts() {
        let grid: [&[u64]; 4] = [
            &[1, 2, 3, 5, 7, 10, 13, 40, 100],
            &[1, 2, 5, 9, 16, 21],
            &[1, 2, 3, 6, 20],
            &[1, 2, 3, 5],
        ];
        let checked = agree(grid, |board| vec![1, board / 2 + 1, board], whole_table);
        assert!(checked > 1000);
    }

    /// Boards far larger than a turn goes, up to 2^64 − 1 spaces, counted
    /// over live cells, against the whole table of the small board that
    /// plays the same game (`DiceRules::dirac_board`).
    #[test]
    fn large_boards_count_what_their_small_boards_count() {
        let grid: [&[u64]; 4] =
            [&[200, 1_000_000, u64::MAX], &[1, 7, 21], &[1, 3, 10, 50], &[1, 2, 3]];
        let small_board = |rules: &DiceRules, starts: &[u64]| {
            let (small, at) = rules.dirac_board(starts);
            whole_table(&small, &at)
        };
        agree(grid, |board| vec![1, 5, 150, board - 2, board], small_board);
    }

    /// Dice far larger than small boards, so that a landing has many sums
    /// (summed as polynomials), counted over live cells and over the whole
    /// table, whose turn is the die's tally modulo the board.
    #[test]
    fn dice_far_larger_than_the_board_count_what_the_whole_table_counts() {
        let grid: [&[u64]; 4] =
            [&[1, 3, 7, 16, 29], &[1, 2, 5, 11], &[1000, (1 << 40) + 7, u64::MAX], &[1, 2, 3]];
        agree(grid, |board| vec![1, board / 2 + 1, board], whole_table);
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

    /// Every landing of small dice on small boards, summed as polynomials
    /// and sum by sum, against the turn's tally taken roll by roll
    /// (`quantum::moves`, which knows nothing of either).
    #[test]
    fn landings_summed_as_polynomials_are_the_turns_tally() {
        let mut by_polynomial = 0;
        for board in 1..=9 {
            for faces in 1..=40 {
                for rolls in 1..=5 {
                    let rules = DiceRules { board, target: 3, faces, rolls };
                    let moves = Moves::new(&rules);
                    let (turn, _) = super::super::quantum::moves::<BigUint>(&rules).unwrap();
                    let (low, high) = (u128::from(rolls), u128::from(rolls * faces));
                    for residue in 0..board {
                        let expected = turn
                            .iter()
                            .find(|(steps, _)| *steps == residue)
                            .map_or_else(BigUint::zero, |(_, n)| n.clone());
                        assert_eq!(moves.landing(i128::from(residue)), expected);
                        let (residue, board) = (u128::from(residue), u128::from(board));
                        let first = low + (residue + board - low % board) % board;
                        if first > high {
                            continue;
                        }
                        let sums = (high - first) / board + 1;
                        let context = format!("{rules}, residue {residue}");
                        assert_eq!(moves.landing_by_polynomial(first, sums), expected, "{context}");
                        assert_eq!(moves.landing_sum_by_sum(first, sums), expected, "{context}");
                        by_polynomial += usize::from(super::by_polynomial(sums, low));
                    }
                }
            }
        }
        assert!(by_polynomial > 1000, "{by_polynomial}");
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
