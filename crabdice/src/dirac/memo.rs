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
//! and a limit on its size ([`RulesError::MemoTooLarge`]). A state's counts
//! can be large too (a die rolled a thousand times a turn makes numbers of
//! 1,600 bits), so the walk also adds up the words it stores and the word
//! operations of its products, and stops when either passes the game's
//! [`DiracLimits`] ([`RulesError::MemoPastLimits`]): before, such a game
//! ran for a minute and took gigabytes before it met the state limit. A
//! walk whose counts overflow is walked again in wider ones (64 bits, 128,
//! then big integers), and the work of all the tries counts against one
//! budget, so `max_work` bounds the whole count. The walk uses an explicit
//! stack, so a long game cannot overflow the thread's stack.

use std::cell::Cell;

use rustc_hash::FxHashMap;

use crate::count::Count;
use crate::error::{CountOverflow, DiceError, RulesError};

use super::quantum::moves;
use super::rules::advance;
use super::{DiceRules, DiracLimits};

/// A state being solved: its cells, the next move to try, and the wins found
/// so far (rotated like the cells).
struct Frame<C> {
    cells: Box<[u128]>,
    next: usize,
    wins: Vec<C>,
}

/// The universes each player wins, storing at most `limit` states, and
/// stopping when the words stored or the work pass `limits`. `spent` is
/// the work of earlier tries in narrower counts, which overflowed: it
/// counts against `limits` too, and the work of this try is added to it.
pub(crate) fn wins<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    limit: usize,
    limits: &DiracLimits,
    spent: &Cell<u128>,
) -> Result<Vec<C>, DiceError> {
    let mut cost = Cost::new::<C>(starts.len(), limits, spent.get());
    let wins = walk(starts, rules, limit, &mut cost);
    spent.set(cost.work);
    wins
}

/// [`wins`], adding what it stores and does to `cost`.
fn walk<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    limit: usize,
    cost: &mut Cost,
) -> Result<Vec<C>, DiceError> {
    let (moves, _) = moves::<C>(rules)?;
    let overflow = || CountOverflow { width: C::NAME };
    let &DiceRules { board, target, .. } = rules;
    let players = starts.len();
    // A cell is score × board + space, below board × target: a u128.
    let cell = |space: u64, score: u64| u128::from(score) * u128::from(board) + u128::from(space);
    let split = |cell: u128| ((cell / u128::from(board)) as u64, (cell % u128::from(board)) as u64);
    let root: Box<[u128]> = starts.iter().map(|&s| cell(s - 1, 0)).collect();
    let mut memo: FxHashMap<Box<[u128]>, Box<[C]>> = FxHashMap::default();
    let mut after: Vec<u128> = Vec::with_capacity(players);
    let mut stack = vec![Frame { cells: root, next: 0, wins: vec![C::zero(); players] }];
    while let Some(frame) = stack.last_mut() {
        let Some((steps, universes)) = moves.get(frame.next) else {
            // Solved: remember it, and hand it to the state that asked.
            let Some(Frame { cells, wins, .. }) = stack.pop() else { break };
            let Some(parent) = stack.last_mut() else { return Ok(wins) };
            let universes = &moves[parent.next - 1].1;
            add_rotated(&mut parent.wins, &wins, universes).ok_or_else(overflow)?;
            cost.store(&wins);
            cost.products(universes, &wins);
            memo.insert(cells, wins.into_boxed_slice());
            cost.check(memo.len(), memo.capacity())?;
            continue;
        };
        frame.next += 1;
        let (score, space) = split(frame.cells[0]);
        let space = advance(space, *steps, board);
        let score = score + space + 1;
        if score >= target {
            frame.wins[0] = frame.wins[0].checked_add(universes).ok_or_else(overflow)?;
            cost.products(universes, &[]);
            continue;
        }
        // Look the next state up in a reused buffer; allocate only for a new one.
        after.clear();
        after.extend(frame.cells.iter().skip(1).copied().chain([cell(space, score)]));
        if let Some(known) = memo.get(after.as_slice()) {
            add_rotated(&mut frame.wins, known, universes).ok_or_else(overflow)?;
            cost.products(universes, known);
            cost.check(memo.len(), memo.capacity())?;
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

/// What the walk has stored and done, in 64-bit words, against the limits.
struct Cost {
    /// Words of the allocations of an entry besides its counts' limbs: the
    /// key's cells and the counts in place, with the allocator's headers.
    entry: u128,
    /// Word operations of a product: its limbs, but at least 1024 for
    /// counts on the heap, and 16 in machine words. Allocations and cache
    /// misses in a map of gigabytes, not the limbs, are the cost (measured:
    /// 26 operations a product, at 3 × 10⁹ a second, in the puzzle's
    /// game; 1300 to 1500 with counts of 1000 to 3000 bits).
    floor: u128,
    /// The entries' allocations and the counts' limbs on the heap (the
    /// map's own slots are counted by its capacity).
    heap: u128,
    work: u128,
    limits: DiracLimits,
}

impl Cost {
    /// A slot of the map: two boxes and a control byte, rounded up.
    const SLOT: u128 = 5;

    fn new<C: Count>(players: usize, limits: &DiracLimits, work: u128) -> Self {
        let in_place = (size_of::<C>() / 8) as u128;
        let entry = 4 + players as u128 * (2 + in_place);
        let floor = if C::HEAP { 1024 } else { 16 };
        Self { entry, floor, heap: 0, work, limits: *limits }
    }

    /// A state stored with these counts: their limbs, each with a header
    /// and the slack of a growing vector (measured: a third more).
    fn store<C: Count>(&mut self, wins: &[C]) {
        let heap = |limbs: u128| if limbs == 0 { 0 } else { limbs + limbs / 2 + 2 };
        let limbs: u128 = wins.iter().map(|count| heap(count.limbs().1)).sum();
        self.heap = self.heap.saturating_add(self.entry + limbs);
    }

    /// Products of `universes` by every count of a state (none for a
    /// move that wins), and a look-up.
    fn products<C: Count>(&mut self, universes: &C, wins: &[C]) {
        let (factor, _) = universes.limbs();
        let products: u128 =
            wins.iter().map(|count| (factor * count.limbs().0).max(self.floor)).sum();
        self.work = self.work.saturating_add(factor + products + wins.len() as u128);
    }

    /// Refuses to go on past the limits, with `capacity` slots in the map
    /// holding `states`.
    fn check(&self, states: usize, capacity: usize) -> Result<(), RulesError> {
        let limits = &self.limits;
        let words = self.heap.saturating_add(capacity as u128 * Self::SLOT);
        if words <= limits.max_table_words && self.work <= limits.max_work {
            return Ok(());
        }
        Err(RulesError::MemoPastLimits {
            states,
            words,
            work: self.work,
            max_words: limits.max_table_words,
            max_work: limits.max_work,
        })
    }
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
    use num_bigint::BigUint;

    use super::*;

    #[test]
    fn the_memo_stops_at_its_limit() {
        let err = wins::<u64>(
            &[4, 8],
            &DiceRules::dirac(),
            1_000,
            &DiracLimits::default(),
            &Cell::new(0),
        )
        .unwrap_err();
        assert_eq!(err, RulesError::MemoTooLarge { limit: 1_000 }.into());
    }

    #[test]
    fn cells_past_32_bits_stay_apart() {
        // Board 2^32 + 5: a pawn on space 6 moves 2^32 ≡ −5 to space 1 and
        // scores 1, a cell of 2^32 + 5, which a 32-bit cell would read as
        // space 6 with no points, over and over.
        let rules = DiceRules { board: (1 << 32) + 5, target: 3, faces: 1, rolls: 1 << 32 };
        let limits = DiracLimits::default();
        assert_eq!(wins::<u64>(&[6, 6], &rules, 1 << 10, &limits, &Cell::new(0)).unwrap(), [1, 0]);
    }

    #[test]
    fn the_memo_stops_at_the_dirac_limits() {
        // A die rolled 500 times: counts of 800 bits, in big integers.
        let rules = DiceRules { rolls: 500, ..DiceRules::dirac() };
        let unbounded = DiracLimits::unbounded();
        let all = wins::<BigUint>(&[4, 8], &rules, 1 << 20, &unbounded, &Cell::new(0)).unwrap();
        let starts = super::super::Starts::parse(
            "Player 1 starting position: 4\nPlayer 2 starting position: 8\n",
        )
        .unwrap();
        let per_player =
            crate::count_wins::<BigUint>(&starts, &rules, crate::DiracEngine::PerPlayer).unwrap();
        assert_eq!(all, per_player);
        for limits in [
            DiracLimits { max_table_words: 10_000, ..unbounded },
            DiracLimits { max_work: 1_000_000, ..unbounded },
        ] {
            let Err(DiceError::Rules(RulesError::MemoPastLimits { words, work, .. })) =
                wins::<BigUint>(&[4, 8], &rules, 1 << 20, &limits, &Cell::new(0))
            else {
                panic!("not stopped at {limits:?}");
            };
            assert!(words > limits.max_table_words || work > limits.max_work);
            assert!(words <= 2 * limits.max_table_words.min(1 << 40), "{words}");
        }
    }

    #[test]
    fn the_tries_in_wider_counts_share_one_budget() {
        // Counts past 128 bits: the walk overflows u64, then u128.
        let rules = DiceRules { target: 60, rolls: 6, ..DiceRules::dirac() };
        let unbounded = DiracLimits::unbounded();
        let alone = |spent: &Cell<u128>| spent.get();
        let narrow = &Cell::new(0);
        assert!(matches!(
            wins::<u64>(&[4, 8], &rules, 1 << 20, &unbounded, narrow),
            Err(DiceError::Overflow(_))
        ));
        let wide = &Cell::new(0);
        assert!(matches!(
            wins::<u128>(&[4, 8], &rules, 1 << 20, &unbounded, wide),
            Err(DiceError::Overflow(_))
        ));
        let big = &Cell::new(0);
        let all = wins::<BigUint>(&[4, 8], &rules, 1 << 20, &unbounded, big).unwrap();
        let (narrow, wide, big) = (alone(narrow), alone(wide), alone(big));
        assert!(narrow > 0 && wide > 0 && big >= narrow.max(wide), "{narrow} {wide} {big}");
        let starts = super::super::Starts::parse(
            "Player 1 starting position: 4\nPlayer 2 starting position: 8\n",
        )
        .unwrap();
        let play = |max_work| {
            let limits = DiracLimits { max_work, ..unbounded };
            crate::play_dirac_within(&starts, &rules, crate::DiracEngine::Memo, &limits)
        };
        let total = narrow + wide + big;
        let outcome = play(total).unwrap();
        let expected: Vec<crate::Universes> = all.into_iter().map(Into::into).collect();
        assert_eq!(outcome.wins, expected);
        // Enough for any one try, not for all three.
        let Err(DiceError::Rules(RulesError::MemoPastLimits { work, .. })) = play(total - 1) else {
            panic!("the tries did not share the budget");
        };
        assert!(work >= total - 1 && work <= total, "{work} against {total}");
    }

    #[test]
    fn a_long_single_path_does_not_overflow_the_stack() {
        let rules = DiceRules { board: 1, target: 200_000, faces: 1, rolls: 1 };
        assert_eq!(
            wins::<u64>(&[1, 1], &rules, 1 << 20, &DiracLimits::default(), &Cell::new(0)).unwrap(),
            [1, 0]
        );
    }
}
