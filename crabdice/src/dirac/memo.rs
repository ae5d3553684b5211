//! # Memoization over joint game states
//!
//! A game's future depends only on its state: every pawn's space and score,
//! and whose turn it is, never on the rolls that led there. So the universes
//! each player wins *from* a state can be computed once and reused every time
//! the state comes back ([memoization](https://en.wikipedia.org/wiki/Memoization)).
//! From a state, each move of the turn's [`Tally`](crate::Tally) (7 for the
//! puzzle) either wins for the player to move, weighted by its universes, or
//! leads to a state whose wins are added, multiplied by them.
//!
//! ## Whose turn, by rotation
//!
//! The state lists the pawns starting with the player to move. After the
//! move, that player goes to the back: `[a, b, c]` becomes `[b, c, a′]`. A
//! state's result is listed in the same rotated order, so the same entry
//! serves every player who reaches it, and the mover never needs storing.
//!
//! ## Sizes
//!
//! Each pawn is one of `board × target` cells, so there are at most `(board ×
//! target)^players` states (the mover is implied): 44,100 for the puzzle,
//! but 1.9 × 10⁹ for four players. Hence a hash map of reachable
//! states (keyed by the cells, with [`FxHashMap`]) rather than a flat array,
//! and a limit on its size ([`RulesError::MemoTooLarge`]). The walk uses an
//! explicit stack, so a long game cannot overflow the thread's stack.

use rustc_hash::FxHashMap;

use crate::count::Count;
use crate::error::{CountOverflow, DiceError, RulesError};

use super::DiceRules;
use super::quantum::moves;
use super::rules::advance;

/// A state being solved: its cells, the next move to try, and the wins found
/// so far (rotated like the cells).
struct Frame<C> {
    cells: Box<[u32]>,
    next: usize,
    wins: Vec<C>,
}

/// The universes each player wins, storing at most `limit` states.
pub(crate) fn wins<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    limit: usize,
) -> Result<Vec<C>, DiceError> {
    let (moves, _) = moves::<C>(rules)?;
    let overflow = || CountOverflow { width: C::NAME };
    let &DiceRules { board, target, .. } = rules;
    let players = starts.len();
    // A cell is score × board + space; the rules' size check keeps
    // board × target far below 2^32.
    let cell = |space: u64, score: u64| (score * board + space) as u32;
    let root: Box<[u32]> = starts.iter().map(|&s| cell(s - 1, 0)).collect();
    let mut memo: FxHashMap<Box<[u32]>, Box<[C]>> = FxHashMap::default();
    let mut after: Vec<u32> = Vec::with_capacity(players);
    let mut stack = vec![Frame { cells: root, next: 0, wins: vec![C::zero(); players] }];
    while let Some(frame) = stack.last_mut() {
        let Some((steps, universes)) = moves.get(frame.next) else {
            // Solved: remember it, and hand it to the state that asked.
            let Some(Frame { cells, wins, .. }) = stack.pop() else { break };
            let Some(parent) = stack.last_mut() else { return Ok(wins) };
            let universes = &moves[parent.next - 1].1;
            add_rotated(&mut parent.wins, &wins, universes).ok_or_else(overflow)?;
            memo.insert(cells, wins.into_boxed_slice());
            continue;
        };
        frame.next += 1;
        let (score, space) = (u64::from(frame.cells[0]) / board, u64::from(frame.cells[0]) % board);
        let space = advance(space, *steps, board);
        let score = score + space + 1;
        if score >= target {
            frame.wins[0] = frame.wins[0].checked_add(universes).ok_or_else(overflow)?;
            continue;
        }
        // Look the next state up in a reused buffer; allocate only for a new one.
        after.clear();
        after.extend(frame.cells.iter().skip(1).copied().chain([cell(space, score)]));
        if let Some(known) = memo.get(after.as_slice()) {
            add_rotated(&mut frame.wins, known, universes).ok_or_else(overflow)?;
            continue;
        }
        if memo.len() + stack.len() >= limit {
            return Err(RulesError::MemoTooLarge { limit }.into());
        }
        stack.push(Frame {
            cells: after.as_slice().into(),
            next: 0,
            wins: vec![C::zero(); players],
        });
    }
    Ok(Vec::new())
}

/// `parent[(k + 1) % n] += universes × child[k]`: the child's player `k` is
/// the parent's player `k + 1`, the parent's mover having gone to the back.
fn add_rotated<C: Count>(parent: &mut [C], child: &[C], universes: &C) -> Option<()> {
    let n = parent.len();
    for (k, wins) in child.iter().enumerate() {
        parent[(k + 1) % n].add_product(universes, wins)?;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_stops_at_its_limit() {
        let err = wins::<u64>(&[4, 8], &DiceRules::dirac(), 1_000).unwrap_err();
        assert_eq!(err, RulesError::MemoTooLarge { limit: 1_000 }.into());
    }

    #[test]
    fn a_long_single_path_does_not_overflow_the_stack() {
        let rules = DiceRules { board: 1, target: 200_000, faces: 1, rolls: 1 };
        assert_eq!(wins::<u64>(&[1, 1], &rules, 1 << 20).unwrap(), [1, 0]);
    }
}
