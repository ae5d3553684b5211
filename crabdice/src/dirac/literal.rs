//! # The deterministic game, roll by roll
//!
//! The puzzle's own reading of part 1, kept as a second opinion on the
//! solver (`crabdice dice --engine all` runs both): the die shows `1, 2,
//! ..., faces, 1, ...`, one value a roll; a pawn moves by each roll as it
//! comes, and after its turn's last roll scores the space it stands on. No
//! closed-form sum, no period, no table: one step a roll, so the work is
//! the game's length, and the walk stops with
//! [`RulesError::LiteralTooLong`] after [`MAX_LITERAL_ROLLS`] rolls.
//!
//! The bookkeeping is its own too: turns and rolls are counted as they
//! happen, not worked out from the winning round, and the answer is the
//! lowest losing score times the rolls counted.

use super::deterministic::{Scores, fewest_turns};
use super::rules::advance;
use super::{DeterministicOutcome, DiceRules, Starts};
use crate::error::{DiceError, RulesError};
use crate::natural::Natural;

/// The most rolls [`play_deterministic_literal`] makes before it gives up:
/// about a quarter of a second.
pub const MAX_LITERAL_ROLLS: u64 = 100_000_000;

/// Plays the deterministic game one roll at a time, as the puzzle tells it:
/// the reference [`play_deterministic`](crate::play_deterministic) is
/// checked against, for games of up to [`MAX_LITERAL_ROLLS`] rolls.
///
/// Refuses nonsense rules, starts off the board (naming the line), and a
/// game nobody has won after [`MAX_LITERAL_ROLLS`] rolls.
///
/// # Examples
///
/// ```
/// use crabdice::{DiceRules, Starts, play_deterministic, play_deterministic_literal};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let rules = DiceRules::deterministic();
/// let literal = play_deterministic_literal(&starts, &rules)?;
/// assert_eq!(literal.answer, 739_785_u32);
/// assert_eq!(literal, play_deterministic(&starts, &rules)?);
///
/// // A game of 10^12 points lasts about 10^12 rolls: too long to roll.
/// let far = DiceRules { target: 1_000_000_000_000, ..rules };
/// assert!(play_deterministic_literal(&starts, &far).is_err());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn play_deterministic_literal(
    starts: &Starts,
    rules: &DiceRules,
) -> Result<DeterministicOutcome, DiceError> {
    rules.validate()?;
    starts.check(rules)?;
    Ok(rolled(starts.positions(), rules, MAX_LITERAL_ROLLS)?)
}

/// The game from `positions` (spaces `1..=board`), rolled one roll at a
/// time, at most `limit` rolls; refused at once if even turns that each
/// scored the whole board would need more.
fn rolled(
    positions: &[u64],
    rules: &DiceRules,
    limit: u64,
) -> Result<DeterministicOutcome, RulesError> {
    let &DiceRules { board, target, faces, rolls } = rules;
    let fewest = fewest_turns(positions.len(), target, board);
    if fewest.saturating_mul(u128::from(rolls)) > u128::from(limit) {
        return Err(RulesError::LiteralTooLong { limit });
    }
    // Spaces counted from 0, so that a move is an addition modulo the board.
    let mut spaces: Vec<u64> = positions.iter().map(|&space| space - 1).collect();
    let mut scores = Scores::from_elem(0, positions.len());
    // The value the die showed last: 0 before the first roll.
    let mut shown = 0;
    let (mut turns, mut rolled) = (0_u128, 0_u64);
    loop {
        for (player, space) in spaces.iter_mut().enumerate() {
            for _ in 0..rolls {
                if rolled == limit {
                    return Err(RulesError::LiteralTooLong { limit });
                }
                rolled += 1;
                shown = if shown == faces { 1 } else { shown + 1 };
                *space = advance(*space, shown % board, board);
            }
            turns += 1;
            scores[player] += u128::from(*space) + 1;
            if scores[player] >= u128::from(target) {
                let lowest = (scores.iter().enumerate())
                    .filter(|&(other, _)| other != player)
                    .map(|(_, &score)| score)
                    .min()
                    .unwrap_or(0);
                let rolls = u128::from(rolled);
                let answer = Natural::product(lowest, rolls);
                return Ok(DeterministicOutcome::new(player, scores, turns, rolls, answer));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;

    /// The input that starts the players on `positions`.
    fn text(positions: &[u64]) -> String {
        positions.iter().enumerate().fold(String::new(), |mut text, (i, p)| {
            let _ = writeln!(text, "Player {} starting position: {p}", i + 1);
            text
        })
    }

    /// Every game of small rules agrees with the solver, winner, every
    /// score, turns and rolls.
    #[test]
    fn rolling_agrees_with_the_solver_on_small_games() {
        for board in 1..=7 {
            for faces in 1..=6 {
                for rolls in 1..=4 {
                    for target in [1, 2, 9, 50, 333] {
                        let rules = DiceRules { board, target, faces, rolls };
                        for players in 2..=4_usize {
                            let positions: Vec<u64> =
                                (0..players).map(|i| (i as u64 * 5 + 1) % board + 1).collect();
                            let starts = Starts::parse(&text(&positions)).unwrap();
                            let solved = crate::play_deterministic(&starts, &rules).unwrap();
                            let literal = play_deterministic_literal(&starts, &rules).unwrap();
                            assert_eq!(literal, solved, "{rules}, starts {positions:?}");
                        }
                    }
                }
            }
        }
    }

    /// On a board of one space every turn scores exactly 1, so a game to
    /// `target` lasts `(target − 1) × players + 1` turns: the refusal made
    /// before rolling must let a game of exactly the limit through.
    #[test]
    fn a_game_that_cannot_end_in_time_is_refused_before_rolling() {
        for (target, rolls, players) in [(1, 1, 2), (10, 3, 2), (1000, 7, 5)] {
            let rules = DiceRules { board: 1, target, faces: 6, rolls };
            let positions = vec![1; players];
            let exact = ((target - 1) * players as u64 + 1) * rolls;
            assert_eq!(rolled(&positions, &rules, exact).unwrap().rolls, u128::from(exact));
            let short = exact - 1;
            assert_eq!(
                rolled(&positions, &rules, short),
                Err(RulesError::LiteralTooLong { limit: short })
            );
        }
    }

    #[test]
    fn a_game_longer_than_the_limit_is_refused_at_the_limit() {
        // The puzzle's game from 4 and 8 rolls 993 times.
        let rules = DiceRules::deterministic();
        assert_eq!(rolled(&[4, 8], &rules, 993).map(|outcome| outcome.rolls), Ok(993));
        assert_eq!(rolled(&[4, 8], &rules, 992), Err(RulesError::LiteralTooLong { limit: 992 }));
    }

    #[test]
    fn huge_boards_scores_and_dice_do_not_overflow() {
        let max = u64::MAX;
        // Pawns near the top of a board of 2^64 - 1 spaces: player 2's
        // first move wraps, and player 1's score passes 2^64 on its second
        // turn.
        for (faces, rolls, positions) in
            [(max, 1, [max - 5, max]), (2, 3, [max - 20, max]), (max, 2, [max - 20, max - 1])]
        {
            let rules = DiceRules { board: max, target: max, faces, rolls };
            let starts = Starts::parse(&text(&positions)).unwrap();
            let literal = play_deterministic_literal(&starts, &rules).unwrap();
            assert_eq!(literal, crate::play_deterministic(&starts, &rules).unwrap(), "{rules}");
            assert!(literal.scores().iter().any(|&score| score > u128::from(max)), "{rules}");
        }
    }
}
