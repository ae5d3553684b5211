//! # The rules of Dirac Dice, as one value
//!
//! Both games share the same four numbers: the board's size, the target
//! score, the die's faces and the rolls in a turn. The number of players is
//! not a rule: it comes from the input. [`DiceRules`] holds the four numbers;
//! [`DiceRules::deterministic`] and [`DiceRules::dirac`] give the puzzle's
//! own values.
//!
//! | rule | deterministic game | Dirac game |
//! |---|---:|---:|
//! | board spaces | 10 | 10 |
//! | target score | 1000 | 21 |
//! | die faces | 100 | 3 |
//! | rolls a turn | 3 | 3 |
//!
//! ## Sense and size
//!
//! [`DiceRules::validate`] refuses rules that make no sense: a board, die,
//! turn or target of zero. Any other rules are played exactly, but some are
//! too large to finish. Each engine states its own limit:
//!
//! * The deterministic game simulates at most 20 million turns to learn each
//!   pawn's period (see [`crate::play_deterministic`]).
//! * The Dirac game keeps, for each player, a table of `board × target`
//!   counts, where a board of more than `target + rolls × faces` spaces
//!   counts as that many (see below). A count of one player's universes
//!   after `t` turns has at most `t × rolls × ⌈log₂ faces⌉` bits, and `t ≤
//!   target`. The table may hold at most 2²⁴ 64-bit words (128 MiB), and
//!   the whole count, estimated as `(players × board × target² × distinct
//!   moves + target × players²) × words per count`, may take at most 2 ×
//!   10¹⁰ word operations (seconds). Both estimates are upper bounds: the
//!   puzzle's rules are estimated at about 124,000.
//!
//! A Dirac game on a board of more than `target + rolls × faces` spaces is
//! checked and counted as the same game on a board of that many
//! (`DiceRules::dirac_board`; the proof is in the `dirac` module's
//! documentation, "A large board is a small one").

use std::fmt;

use crate::error::RulesError;

/// The most turns the deterministic game simulates before giving up on a
/// game that neither repeats nor ends.
pub(crate) const MAX_SIMULATED_TURNS: u64 = 20_000_000;

/// The most 64-bit words one player's table may hold in the Dirac game
/// (128 MiB).
pub(crate) const MAX_TABLE_WORDS: u128 = 1 << 24;

/// The most word operations a Dirac count may be estimated to take.
pub(crate) const MAX_WORK: u128 = 20_000_000_000;

/// The rules of a game of Dirac Dice.
///
/// Spaces are numbered `1..=board`; a turn rolls the die `rolls` times,
/// moves the pawn forward by the sum (wrapping around the board) and adds the
/// number of the space it lands on to the player's score. The first player to
/// reach `target` wins. The deterministic die counts `1, 2, ..., faces, 1, ...`;
/// the Dirac die splits the universe into `faces` copies on every roll.
///
/// # Examples
///
/// ```
/// use crabdice::DiceRules;
///
/// let rules = DiceRules::dirac();
/// assert_eq!((rules.board, rules.target, rules.faces, rules.rolls), (10, 21, 3, 3));
/// let longer = DiceRules { target: 30, ..DiceRules::dirac() };
/// assert!(longer.validate().is_ok());
/// assert_eq!(longer.to_string(), "board 10, target 30, 3 faces, 3 rolls a turn");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceRules {
    /// Spaces on the board, numbered from 1.
    pub board: u64,
    /// The score that wins.
    pub target: u64,
    /// Faces of the die.
    pub faces: u64,
    /// Rolls of the die in one turn.
    pub rolls: u64,
}

impl DiceRules {
    /// The puzzle's deterministic game: board 10, target 1000, a 100-sided die
    /// rolled 3 times a turn.
    pub const fn deterministic() -> Self {
        Self { board: 10, target: 1000, faces: 100, rolls: 3 }
    }

    /// The puzzle's Dirac game: board 10, target 21, a 3-faced die rolled 3
    /// times a turn.
    pub const fn dirac() -> Self {
        Self { board: 10, target: 21, faces: 3, rolls: 3 }
    }

    /// Refuses rules that make no sense.
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::{DiceRules, RulesError};
    ///
    /// assert_eq!(DiceRules { faces: 0, ..DiceRules::dirac() }.validate(), Err(RulesError::NoFaces));
    /// assert_eq!(DiceRules { rolls: 0, ..DiceRules::dirac() }.validate(), Err(RulesError::NoRolls));
    /// assert_eq!(DiceRules { target: 0, ..DiceRules::dirac() }.validate(), Err(RulesError::NoTarget));
    /// ```
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.board == 0 {
            Err(RulesError::EmptyBoard)
        } else if self.faces == 0 {
            Err(RulesError::NoFaces)
        } else if self.rolls == 0 {
            Err(RulesError::NoRolls)
        } else if self.target == 0 {
            Err(RulesError::NoTarget)
        } else {
            Ok(())
        }
    }

    /// Refuses a Dirac game too large to count (see the module
    /// documentation), for `players` players. Assumes valid rules.
    pub(crate) fn check_dirac_size(&self, players: usize) -> Result<(), RulesError> {
        let words = self.count_words();
        let cells = u128::from(self.board) * u128::from(self.target);
        let table = cells.saturating_mul(words);
        if table > MAX_TABLE_WORDS {
            return Err(RulesError::DiracTooBig { words: table, limit: MAX_TABLE_WORDS });
        }
        let moves = u128::from(self.distinct_moves());
        let turns = cells
            .saturating_mul(u128::from(self.target))
            .saturating_mul(moves)
            .saturating_mul(players as u128);
        // Building the moves tally: about 2·log₂(rolls) convolutions of at
        // most `moves` outcomes each.
        let tally = 2 * u128::from(u64::BITS - self.rolls.leading_zeros()) * moves * moves;
        // Interleaving: each turn multiplies the players' counts together.
        let players = players as u128;
        let interleave = u128::from(self.target).saturating_mul(players).saturating_mul(players);
        let work = turns.saturating_add(tally).saturating_add(interleave).saturating_mul(words);
        if work > MAX_WORK {
            return Err(RulesError::DiracTooSlow { work, limit: MAX_WORK });
        }
        Ok(())
    }

    /// The same Dirac game on the smallest board that plays it, with each
    /// start moved to its space there: every player wins in the same
    /// universes, turn for turn. Boards of up to `target + rolls × faces`
    /// spaces are kept as they are. (The proof is "A large board is a small
    /// one" in the `dirac` module's documentation.)
    pub(crate) fn dirac_board(&self, starts: &[u64]) -> (Self, Vec<u64>) {
        let reach = u128::from(self.rolls) * u128::from(self.faces);
        let board = u128::from(self.target) + reach;
        if u128::from(self.board) <= board {
            return (*self, starts.to_vec());
        }
        // Below the rules' own board, so a u64, as is every space below.
        let small = board as u64;
        let moved = starts.iter().map(|&start| {
            let to_end = u128::from(self.board - start);
            if start < self.target {
                start
            } else if to_end < reach {
                (board - to_end) as u64
            } else {
                self.target
            }
        });
        (Self { board: small, ..*self }, moved.collect())
    }

    /// The number of different moves modulo the board a turn can make:
    /// sums run from `rolls` to `rolls × faces`.
    pub(crate) fn distinct_moves(&self) -> u64 {
        let spread = self.rolls.saturating_mul(self.faces.saturating_sub(1)).saturating_add(1);
        spread.min(self.board)
    }

    /// 64-bit words for a count of one player's universes: at most
    /// `target` turns of `rolls × ⌈log₂ faces⌉` bits each.
    fn count_words(&self) -> u128 {
        let bits_per_roll = u128::from(u64::BITS - self.faces.saturating_sub(1).leading_zeros());
        let bits = u128::from(self.target)
            .saturating_mul(u128::from(self.rolls))
            .saturating_mul(bits_per_roll);
        1 + bits / 64
    }
}

impl fmt::Display for DiceRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board {}, target {}, {} faces, {} rolls a turn",
            self.board, self.target, self.faces, self.rolls
        )
    }
}

/// Moves a pawn on spaces `0..board` (space number minus one) forward by
/// `steps`, both already below `board`. This is the turn both games share:
/// the pawn lands on `advance(..) + 1` and scores that many points.
pub(crate) const fn advance(position: u64, steps: u64, board: u64) -> u64 {
    // position + steps < 2 × board could overflow u64; compare instead.
    if position >= board - steps { position - (board - steps) } else { position + steps }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_wraps_without_overflow() {
        assert_eq!(advance(3, 5, 10), 8);
        assert_eq!(advance(7, 5, 10), 2);
        assert_eq!(advance(0, 0, 1), 0);
        assert_eq!(advance(u64::MAX - 1, u64::MAX - 1, u64::MAX), u64::MAX - 2);
    }

    #[test]
    fn the_puzzles_rules_are_small_and_huge_rules_are_refused() {
        assert!(DiceRules::dirac().check_dirac_size(2).is_ok());
        assert!(DiceRules { target: 100, ..DiceRules::dirac() }.check_dirac_size(4).is_ok());
        let huge_board = DiceRules { board: 1 << 40, ..DiceRules::dirac() };
        assert!(matches!(huge_board.check_dirac_size(2), Err(RulesError::DiracTooBig { .. })));
        let slow = DiceRules { target: 2_000, ..DiceRules::dirac() };
        assert!(matches!(slow.check_dirac_size(2), Err(RulesError::DiracTooSlow { .. })));
        let huge_die = DiceRules { faces: u64::MAX, rolls: u64::MAX, ..DiceRules::dirac() };
        assert!(huge_die.check_dirac_size(2).is_err());
    }

    #[test]
    fn a_board_past_the_target_and_a_turn_shrinks_to_them() {
        // The puzzle's board is below 21 + 9 spaces: kept.
        let puzzle = DiceRules::dirac();
        assert_eq!(puzzle.dirac_board(&[4, 8]), (puzzle, vec![4, 8]));
        let thirty = DiceRules { board: 30, ..puzzle };
        assert_eq!(thirty.dirac_board(&[30]), (thirty, vec![30]));
        // Larger boards become 30 spaces. Starts below 21 stay; a start
        // fewer than 9 spaces from the end stays as far from the end; any
        // other start wins in one turn, as from space 21.
        let huge = DiceRules { board: u64::MAX, ..puzzle };
        let (small, starts) = huge.dirac_board(&[1, 20, 21, 1000, u64::MAX - 8, u64::MAX - 9]);
        assert_eq!(small, DiceRules { board: 30, ..puzzle });
        assert_eq!(starts, [1, 20, 21, 21, 22, 21]);
    }

    #[test]
    fn distinct_moves_are_bounded_by_the_sums_and_the_board() {
        assert_eq!(DiceRules::dirac().distinct_moves(), 7);
        assert_eq!(DiceRules { faces: 1, ..DiceRules::dirac() }.distinct_moves(), 1);
        assert_eq!(DiceRules { board: 4, ..DiceRules::dirac() }.distinct_moves(), 4);
        assert_eq!(DiceRules { faces: u64::MAX, ..DiceRules::dirac() }.distinct_moves(), 10);
    }
}
