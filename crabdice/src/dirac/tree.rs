//! # The universe tree: every roll a branch
//!
//! The most literal reading of the rules, kept as the reference the other
//! engines are tested against. Each roll of the die branches into `faces`
//! universes; after `rolls` rolls the player to move lands and scores; a
//! universe whose player reaches the target is a leaf won by that player.
//! Counting the leaves counts the universes. Nothing is folded (not even
//! `1+1+3` with `3+1+1`), so the [`Tally`](crate::Tally) of moves is checked
//! too.
//!
//! The tree is walked depth first with an explicit stack of rolls rather than
//! recursion, so a deep game (a one-faced die, a large target) cannot overflow
//! the thread's stack. Each stack entry remembers the face it is trying and,
//! after the turn's last roll, the pawn's space and score before the move, so
//! backtracking undoes it. The cost is one step per node, and the puzzle's tree
//! has about 7 × 10¹⁴ leaves, so the walk stops with
//! [`RulesError::TreeTooLarge`] after a fixed number of rolls.
//!
//! ## How many rolls, beforehand
//!
//! Rules too large for the per-player engine's tables of cells are refused
//! first, as for the memo engine (module [`memo`](super::memo)); then the
//! tree itself is sized.
//!
//! Whether the walk would pass its limit is known before it starts. A turn
//! begun in a universe visits `faces + faces² + … + faces^rolls` roll nodes,
//! and the universes in which the game is still on at the start of the
//! game's turn `k` number `Π_j N_j[t_j]`: player `j` has played `t_j` turns
//! by then, and `N_j[t]` counts its own universes still short of the target
//! after `t` turns, as the per-player engine counts them (the pawns move
//! apart, so the players' universes combine freely while nobody has won).
//! [`rolls`] sums these, a turn at a time (only the mover's count changes,
//! by an exact division, while the product stays within the limit), so a
//! tree too large is refused at once instead of after its limit of rolls
//! (the puzzle's: 0.45 s). It is done only where the players' own counts
//! are cheap (the puzzle's rules to about 300 points); elsewhere, and
//! always as a check, the walk keeps its own count, and a test checks the
//! two agree roll for roll, at the limit and one roll short of it.

use crate::count::Count;
use crate::error::{CountOverflow, DiceError, RulesError};

use super::DiceRules;
use super::alone::Counts;
use super::rules::advance;

/// One roll on the path from the root.
struct Roll {
    /// The face being tried (0 before the first).
    face: u64,
    /// Which roll of the turn this is (0-based).
    nth: u64,
    /// The player rolling.
    mover: usize,
    /// The turn's sum of the rolls before this one, modulo the board.
    sum: u64,
    /// After the turn's last roll: the mover's space and score before moving.
    undo: Option<(u64, u64)>,
}

/// The universes each player wins, walking at most `limit` roll nodes.
pub(crate) fn wins<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    limit: u64,
) -> Result<Vec<C>, DiceError> {
    walk(starts, rules, limit).map(|(wins, _)| wins)
}

/// The roll nodes the walk visits, from the players' own counts `alone`
/// (see the module's documentation), or `None` if they are more than
/// `limit`.
pub(crate) fn rolls(alone: &Counts, rules: &DiceRules, limit: u64) -> Option<u64> {
    let faces = u128::from(rules.faces);
    let limit = u128::from(limit);
    // The roll nodes of one turn, while they are within the limit.
    let turn = if faces == 1 {
        u128::from(rules.rolls)
    } else {
        let (mut sum, mut power) = (0_u128, 1_u128);
        for _ in 0..rules.rolls {
            power = power.saturating_mul(faces);
            sum = sum.saturating_add(power);
            if sum > limit {
                break;
            }
        }
        sum
    };
    // `on` universes are still in the game at the start of its turn `k`:
    // the product of the players' own counts, `factors`. Each is at least
    // 1 and their product at most `limit` while the sum goes on, so each
    // turn changes one factor, the mover's, by an exact division.
    let players = alone.players();
    let mut factors = vec![1_u128; players];
    let (mut on, mut total) = (1_u128, 0_u128);
    // Every turn on which the game is on adds at least one roll: at most
    // `limit + 1` turns are summed.
    for k in 0.. {
        total = total.saturating_add(on.saturating_mul(turn));
        if total > limit {
            return None;
        }
        let mover = k % players;
        let n = alone.playing::<u128>(mover, k / players + 1).ok()?;
        if n == 0 {
            return u64::try_from(total).ok();
        }
        on = (on / factors[mover]).checked_mul(n)?;
        factors[mover] = n;
    }
    None
}

/// [`wins`], and the roll nodes visited.
pub(crate) fn walk<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    limit: u64,
) -> Result<(Vec<C>, u64), DiceError> {
    let &DiceRules { board, target, faces, rolls } = rules;
    let players = starts.len();
    let mut spaces: Vec<u64> = starts.iter().map(|&s| s - 1).collect();
    let mut scores = vec![0_u64; players];
    let mut wins = vec![C::zero(); players];
    let one = C::from_u64(1);
    let mut visited = 0_u64;
    let mut path = vec![Roll { face: 0, nth: 0, mover: 0, sum: 0, undo: None }];
    while let Some(top) = path.last_mut() {
        if let Some((space, score)) = top.undo.take() {
            (spaces[top.mover], scores[top.mover]) = (space, score);
        }
        if top.face == faces {
            path.pop();
            continue;
        }
        top.face += 1;
        visited += 1;
        if visited > limit {
            return Err(RulesError::TreeTooLarge { limit }.into());
        }
        let sum = advance(top.sum, top.face % board, board);
        let mover = top.mover;
        if top.nth + 1 < rolls {
            let next = Roll { face: 0, nth: top.nth + 1, mover, sum, undo: None };
            path.push(next);
            continue;
        }
        top.undo = Some((spaces[mover], scores[mover]));
        spaces[mover] = advance(spaces[mover], sum, board);
        scores[mover] = scores[mover].saturating_add(spaces[mover] + 1);
        if scores[mover] >= target {
            wins[mover] = wins[mover].checked_add(&one).ok_or(CountOverflow::of::<C>())?;
        } else {
            path.push(Roll { face: 0, nth: 0, mover: (mover + 1) % players, sum: 0, undo: None });
        }
    }
    Ok((wins, visited))
}

#[cfg(test)]
mod tests {
    use super::super::DiracLimits;
    use super::*;

    #[test]
    fn a_two_faced_coin_on_a_tiny_board_counts_by_hand() {
        // Board 2, target 2, one coin flip a turn, both pawns on space 1.
        // Player 1 flips 1: lands on 2 and wins. It flips 2: lands on 1
        // (score 1), then player 2 flips 1 and wins, or flips 2 (score 1)
        // and player 1 wins with either flip. So 1 + 2 = 3 against 1.
        let rules = DiceRules { board: 2, target: 2, faces: 2, rolls: 1 };
        assert_eq!(wins::<u64>(&[1, 1], &rules, 1_000).unwrap(), [3, 1]);
    }

    #[test]
    fn the_walk_goes_on_up_to_exactly_its_limit() {
        // The coin game above, by hand: player 1's flips (2 roll nodes),
        // player 2's after a flip of 2 (2 more), and player 1's after two
        // flips of 2 (2 more): 6 in all.
        let rules = DiceRules { board: 2, target: 2, faces: 2, rolls: 1 };
        let (wins, visited) = walk::<u64>(&[1, 1], &rules, 6).unwrap();
        assert_eq!((wins, visited), (vec![3, 1], 6));
        let err = walk::<u64>(&[1, 1], &rules, 5).unwrap_err();
        assert_eq!(err, RulesError::TreeTooLarge { limit: 5 }.into());
    }

    #[test]
    fn a_turn_counted_beforehand_is_never_cut_short_at_the_limit() {
        // Two flips of a coin a turn, target 1: player 1 wins on its first
        // turn, whose tree has 2 + 2 × 2 = 6 roll nodes. A limit equal to
        // a part of the turn (the first flip's 2) is still passed.
        let rules = DiceRules { board: 10, target: 1, faces: 2, rolls: 2 };
        let alone = super::super::alone::play(&[1, 1], &rules, &DiracLimits::default()).unwrap();
        assert_eq!(walk::<u64>(&[1, 1], &rules, 6).unwrap(), (vec![4, 0], 6));
        assert_eq!(rolls(&alone, &rules, 6), Some(6));
        for limit in 0..6 {
            assert_eq!(rolls(&alone, &rules, limit), None, "limit {limit}");
        }
    }

    #[test]
    fn the_walk_stops_at_its_limit() {
        let err = wins::<u64>(&[4, 8], &DiceRules::dirac(), 10_000).unwrap_err();
        assert_eq!(err, RulesError::TreeTooLarge { limit: 10_000 }.into());
    }

    #[test]
    fn a_score_past_2_to_the_64_wins_rather_than_wrapping() {
        // Board and target 2^64 − 1, a one-faced die rolled 3 times: from
        // 2^64 − 5 each pawn lands on 2^64 − 2 (one point short), then
        // player 1 lands on 2 and passes 2^64 − 1 points, and wins.
        let max = u64::MAX;
        let rules = DiceRules { board: max, target: max, faces: 1, rolls: 3 };
        assert_eq!(walk::<u64>(&[max - 4, max - 4], &rules, 100).unwrap(), (vec![1, 0], 9));
    }

    #[test]
    fn a_one_faced_die_makes_a_single_deep_path() {
        let rules = DiceRules { board: 1, target: 100_000, faces: 1, rolls: 2 };
        // Every turn scores 1; player 1 reaches the target first.
        assert_eq!(wins::<u64>(&[1, 1, 1], &rules, 1_000_000).unwrap(), [1, 0, 0]);
    }
}
