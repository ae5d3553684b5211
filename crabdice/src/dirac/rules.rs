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
//! How large a game the engines take on, and the limits that bound it,
//! are in the [`size`] module.

mod size;

use std::fmt;

use crate::error::RulesError;

pub(crate) use self::size::{Counting, MAX_SIMULATED_TURNS, OVER_CELLS};
pub use self::size::{DIRAC_TABLE_WORDS, DIRAC_WORK, DiracLimits};

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

    /// The spaces a pawn short of the target can stand on after its first
    /// turn, counted from 1 (module `live`): `1..live`, below the target
    /// and on the board.
    pub(crate) fn live_spaces(&self) -> u64 {
        self.target.min(self.board.saturating_add(1))
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
