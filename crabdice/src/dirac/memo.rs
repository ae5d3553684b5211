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
//! but 1.9 × 10⁹ for four players. So the states are numbered: a state's
//! key packs its cells into one number, and its wins are found through a
//! flat table indexed by the key while the keys are few (up to 2^24; the
//! puzzle's game has 44,100), and otherwise through a hash map of the
//! states reached ([`FxHashMap`]), keyed by the packed number while it
//! fits in 128 bits and by the pawns themselves past that. The wins of the
//! solved states sit in one array, `players` counts apiece, and the walk
//! keeps its path in flat stacks, so solving a state allocates nothing of
//! its own: the puzzle's game takes under a fourth of the time it took
//! with a map of boxed states, and three players a seventh.
//!
//! ## Limits
//!
//! Before the walk starts, the game is checked as the per-player engine's
//! tables of cells would be (module [`quantum`](super::quantum)): rules
//! whose tables, or the work over them, pass the [`DiracLimits`] are
//! refused at once (such as [`RulesError::DiracTooBig`] or
//! [`RulesError::DiracTooSlow`]), as
//! [`RulesError::PastTheTable`] where the per-player engine counts the
//! game over its live cells instead.
//!
//! The states stored are limited ([`RulesError::MemoTooLarge`]). A
//! state's counts can be large too (a die rolled a thousand times a turn
//! makes numbers of 1,600 bits), so the walk also adds up the words it
//! stores and the word operations of its products, and stops when either
//! passes the game's [`DiracLimits`] ([`RulesError::MemoPastLimits`]):
//! before, such a game ran for a minute and took gigabytes before it met
//! the state limit. A walk whose counts overflow is walked again in wider
//! ones (64 bits, 128, then big integers), and the work of all the tries
//! counts against one budget, so `max_work` bounds the whole count. The
//! walk uses an explicit stack, so a long game cannot overflow the
//! thread's stack.

use std::cell::Cell;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::count::Count;
use crate::error::{CountOverflow, DiceError, RulesError};

use super::quantum::moves;
use super::rules::advance;
use super::{DiceRules, DiracLimits};

/// A pawn: its space (0-based) and its score.
type Pawn = (u64, u64);

/// A state's key in the map of solved states. A pawn's cell, `score ×
/// board + space`, is below `span = board × target`; the key packs the
/// cells into one number, `Σ cellᵢ × spanⁱ`, when every key fits in it
/// (most games: the puzzle's keys are below 44,100), and is the pawns
/// themselves otherwise. A packed key costs no allocation, and its hash
/// and comparison are one word's.
trait Key: Hash + Eq {
    /// Words of a key in the map's slot.
    const WORDS: u128;
    /// Words a key keeps on the heap, with the allocator's header.
    fn heap(players: usize) -> u128;
    /// The key of the pawns `rest` then `last`, on a board of `board`
    /// spaces, `span` cells.
    fn of(rest: &[Pawn], last: Pawn, board: u64, span: u128) -> Self;
}

impl Key for u64 {
    const WORDS: u128 = 1;
    fn heap(_: usize) -> u128 {
        0
    }
    fn of(rest: &[Pawn], last: Pawn, board: u64, span: u128) -> Self {
        // Chosen only when span^players ≤ 2^64: no step overflows.
        let span = span as u64;
        let cell = |(space, score): Pawn| score * board + space;
        rest.iter().rev().fold(cell(last), |key, &pawn| key * span + cell(pawn))
    }
}

impl Key for u128 {
    const WORDS: u128 = 2;
    fn heap(_: usize) -> u128 {
        0
    }
    fn of(rest: &[Pawn], last: Pawn, board: u64, span: u128) -> Self {
        // Chosen only when span^players ≤ 2^128 − 1: no step overflows.
        let board = u128::from(board);
        let cell = |(space, score): Pawn| u128::from(score) * board + u128::from(space);
        rest.iter().rev().fold(cell(last), |key, &pawn| key * span + cell(pawn))
    }
}

impl Key for Box<[Pawn]> {
    const WORDS: u128 = 2;
    fn heap(players: usize) -> u128 {
        2 * players as u128 + 2
    }
    fn of(rest: &[Pawn], last: Pawn, _: u64, _: u128) -> Self {
        rest.iter().copied().chain([last]).collect()
    }
}

/// Where the solved states are found: for each state's key, the place of
/// its wins in the array of solved states.
trait States {
    /// The key a state is found by.
    type Key: Key;
    fn get(&self, key: &Self::Key) -> Option<usize>;
    fn insert(&mut self, key: Self::Key, at: usize);
    /// How many states it holds.
    fn len(&self) -> usize;
    /// Words it takes, with the allocations of its keys.
    fn words(&self, players: usize) -> u128;
}

/// A hash map from a state's key to its place.
impl<K: Key> States for FxHashMap<K, usize> {
    type Key = K;
    fn get(&self, key: &K) -> Option<usize> {
        self.get(key).copied()
    }
    fn insert(&mut self, key: K, at: usize) {
        self.insert(key, at);
    }
    fn len(&self) -> usize {
        self.len()
    }
    fn words(&self, players: usize) -> u128 {
        // A slot: the key, the place and a control byte, rounded up.
        let slots = self.capacity() as u128 * (K::WORDS + 2);
        slots + self.len() as u128 * K::heap(players)
    }
}

/// A table with a place for every packed key, for games whose keys are
/// few (the puzzle's 44,100): a look-up is one load, with no hashing.
struct Dense {
    /// For each key, its place plus one, or 0 for a state not yet solved
    /// (so that a new table is zeroed memory, which the system hands out
    /// a page at a time as it is touched).
    places: Vec<u32>,
    len: usize,
}

impl Dense {
    /// Keys up to which the table is used: 64 MB of places, about what a
    /// hash map takes at the state limit. Three players at the puzzle's
    /// rules (9.3 million keys, 1.7 million states reached) are solved in
    /// 0.70–0.95 s of CPU and 102 MB, against 2.25–2.36 s and 151 MB by a
    /// hash map.
    /// The system hands out the zeroed table a page at a time, as the
    /// states reached touch it.
    const KEYS: u128 = 1 << 24;
}

impl States for Dense {
    type Key = u64;
    fn get(&self, &key: &u64) -> Option<usize> {
        let place = self.places[key as usize];
        (place != 0).then(|| place as usize - 1)
    }
    fn insert(&mut self, key: u64, at: usize) {
        // Places stay below the state limit, far below u32::MAX.
        self.places[key as usize] = at as u32 + 1;
        self.len += 1;
    }
    fn len(&self) -> usize {
        self.len
    }
    fn words(&self, _: usize) -> u128 {
        self.places.len() as u128 / 2
    }
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
    let to = (limit, limits, spent);
    match Layout::of(starts.len(), rules, limits) {
        Layout::Dense(keys) => {
            walk::<C>(starts, rules, to, Dense { places: vec![0; keys], len: 0 })
        }
        Layout::Packed64 => walk::<C>(starts, rules, to, FxHashMap::<u64, _>::default()),
        Layout::Packed128 => walk::<C>(starts, rules, to, FxHashMap::<u128, _>::default()),
        Layout::Pawns => walk::<C>(starts, rules, to, FxHashMap::<Box<[Pawn]>, _>::default()),
    }
}

/// How the solved states are found.
#[derive(Debug, PartialEq, Eq)]
enum Layout {
    /// In a [`Dense`] table of this many places.
    Dense(usize),
    /// In a hash map, by keys packed into a `u64`.
    Packed64,
    /// In a hash map, by keys packed into a `u128`.
    Packed128,
    /// In a hash map, by the pawns themselves.
    Pawns,
}

impl Layout {
    /// The layout for a game of `players`: the smallest whose keys hold
    /// `span^players` states, and a dense table only while it is small,
    /// and a small part of the memory allowed.
    fn of(players: usize, rules: &DiceRules, limits: &DiracLimits) -> Self {
        let span = u128::from(rules.board) * u128::from(rules.target);
        match u32::try_from(players).ok().and_then(|players| span.checked_pow(players)) {
            Some(keys) if keys <= Dense::KEYS && keys / 2 <= limits.max_table_words / 4 => {
                Self::Dense(keys as usize)
            }
            Some(keys) if keys <= 1 << 64 => Self::Packed64,
            Some(_) => Self::Packed128,
            None => Self::Pawns,
        }
    }
}

/// [`wins`], finding solved states in `states`.
fn walk<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    (limit, limits, spent): (usize, &DiracLimits, &Cell<u128>),
    states: impl States,
) -> Result<Vec<C>, DiceError> {
    let mut cost = Cost::new::<C>(limits, spent.get());
    let wins = solve::<C, _>(starts, rules, limit, &mut cost, states);
    spent.set(cost.work);
    wins
}

/// The walk itself, adding what it stores and does to `cost`.
///
/// The path from the first state to the one being solved is kept in flat
/// stacks, a state's pawns and its wins so far `players` apiece, so that
/// going down and up allocates nothing; a solved state's wins move to
/// `solved`, at the place `states` keeps for its key.
fn solve<C: Count, S: States>(
    starts: &[u64],
    rules: &DiceRules,
    limit: usize,
    cost: &mut Cost,
    mut states: S,
) -> Result<Vec<C>, DiceError> {
    let (moves, _) = moves::<C>(rules)?;
    let &DiceRules { board, target, .. } = rules;
    let players = starts.len();
    let span = u128::from(board) * u128::from(target);
    let mut solved: Vec<C> = Vec::new();
    let mut pawns: Vec<Pawn> = starts.iter().map(|&s| (s - 1, 0)).collect();
    let (last, rest) = pawns.split_last().expect("two players or more");
    let mut keys = vec![S::Key::of(rest, *last, board, span)];
    let mut next = vec![0_usize];
    let mut wins = vec![C::zero(); players];
    // What is stored: the states found, their wins, and the path, each
    // state on it with its pawns, key, wins so far and next move.
    // The path's stacks only grow, so their words change only as a state
    // is pushed: worked out then, and checked when they have changed.
    let key_words = <S::Key as Key>::WORDS + <S::Key as Key>::heap(players);
    let in_place = cost.in_place;
    let path = |pawns: &Vec<Pawn>, keys: &Vec<S::Key>, wins: &Vec<C>, next: &Vec<usize>| {
        (pawns.capacity() * 2 + next.capacity()) as u128
            + keys.capacity() as u128 * key_words
            + wins.capacity() as u128 * in_place
    };
    let mut grown = path(&pawns, &keys, &wins, &next);
    let check = |cost: &Cost, states: &S, solved: &Vec<C>, path: u128| {
        cost.check(states.len(), states.words(players) + path, solved.capacity())
    };
    check(cost, &states, &solved, grown)?;
    while let Some(tried) = next.last_mut() {
        let top = pawns.len() - players;
        let Some((steps, universes)) = moves.get(*tried) else {
            // Solved: hand it to the state that asked, and remember it.
            next.pop();
            let Some(&asked) = next.last() else { return Ok(wins) };
            let universes = &moves[asked - 1].1;
            let (asking, child) = wins.split_at_mut(top);
            add_rotated(&mut asking[top - players..], child, universes)
                .ok_or_else(CountOverflow::of::<C>)?;
            cost.store(child);
            cost.products(universes, child);
            let key = keys.pop().expect("one key a state on the path");
            states.insert(key, solved.len() / players);
            solved.extend(wins.drain(top..));
            pawns.truncate(top);
            check(cost, &states, &solved, grown)?;
            continue;
        };
        *tried += 1;
        let (space, score) = pawns[top];
        let space = advance(space, *steps, board);
        // Saturating: a score past 2^64 − 1 has passed any target.
        let score = score.saturating_add(space + 1);
        if score >= target {
            wins[top] = wins[top].checked_add(universes).ok_or_else(CountOverflow::of::<C>)?;
            cost.products(universes, &[]);
            continue;
        }
        let key = S::Key::of(&pawns[top + 1..], (space, score), board, span);
        if let Some(known) = states.get(&key) {
            let known = &solved[known * players..(known + 1) * players];
            add_rotated(&mut wins[top..], known, universes).ok_or_else(CountOverflow::of::<C>)?;
            cost.products(universes, known);
            check(cost, &states, &solved, grown)?;
            continue;
        }
        if states.len() + next.len() >= limit {
            return Err(RulesError::MemoTooLarge { limit }.into());
        }
        pawns.extend_from_within(top + 1..);
        pawns.push((space, score));
        keys.push(key);
        wins.resize(wins.len() + players, C::zero());
        next.push(0);
        let now = path(&pawns, &keys, &wins, &next);
        if now != grown {
            grown = now;
            check(cost, &states, &solved, grown)?;
        }
    }
    Ok(Vec::new())
}

/// What the walk has stored and done, in 64-bit words, against the limits.
struct Cost {
    /// Words of a count in the array of solved states.
    in_place: u128,
    /// Word operations of a product: its limbs, but at least 1024 for
    /// counts on the heap, and 16 in machine words. Allocations and cache
    /// misses in a map of gigabytes, not the limbs, are the cost (measured:
    /// 26 operations a product, at 3 × 10⁹ a second, in the puzzle's
    /// game; 1300 to 1500 with counts of 1000 to 3000 bits).
    floor: u128,
    /// The counts' limbs on the heap (the states' keys and places, and
    /// the array of counts, are counted by their capacity).
    heap: u128,
    work: u128,
    limits: DiracLimits,
}

impl Cost {
    fn new<C: Count>(limits: &DiracLimits, work: u128) -> Self {
        let in_place = (size_of::<C>() / 8) as u128;
        let floor = if C::HEAP { 1024 } else { 16 };
        Self { in_place, floor, heap: 0, work, limits: *limits }
    }

    /// A state stored with these counts: their limbs, each with a header
    /// and the slack of a growing vector (measured: a third more).
    fn store<C: Count>(&mut self, wins: &[C]) {
        let heap = |limbs: u128| if limbs == 0 { 0 } else { limbs + limbs / 2 + 2 };
        let limbs: u128 = wins.iter().map(|count| heap(count.limbs().1)).sum();
        self.heap = self.heap.saturating_add(limbs);
    }

    /// Products of `universes` by every count of a state (none for a
    /// move that wins), and a look-up.
    fn products<C: Count>(&mut self, universes: &C, wins: &[C]) {
        let (factor, _) = universes.limbs();
        let products: u128 =
            wins.iter().map(|count| (factor * count.limbs().0).max(self.floor)).sum();
        self.work = self.work.saturating_add(factor + products + wins.len() as u128);
    }

    /// Refuses to go on past the limits, with `states` found in `index`
    /// words (and the path's) and `counts` in place.
    fn check(&self, states: usize, index: u128, counts: usize) -> Result<(), RulesError> {
        let limits = &self.limits;
        let words = self.heap.saturating_add(index).saturating_add(counts as u128 * self.in_place);
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
    let (last, child) = child.split_last()?;
    for (parent, wins) in parent[1..].iter_mut().zip(child) {
        parent.add_product(universes, wins)?;
    }
    parent[0].add_product(universes, last)
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use crate::Tally;

    use super::*;

    /// The puzzle's example, from 4 and 8.
    fn puzzle_starts() -> super::super::Starts {
        super::super::Starts::parse(
            "Player 1 starting position: 4\nPlayer 2 starting position: 8\n",
        )
        .unwrap()
    }

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

    /// The game states a game reaches before anyone wins, the first one
    /// included, counted by a search that stores each (pawns listed from
    /// the player to move).
    fn states_reached(starts: &[u64], rules: &DiceRules) -> usize {
        let sums = Tally::<u64>::die(rules.faces).sum_of(rules.rolls).unwrap();
        let first: Vec<Pawn> = starts.iter().map(|&s| (s - 1, 0)).collect();
        let mut seen = std::collections::HashSet::from([first.clone()]);
        let mut to_visit = vec![first];
        while let Some(state) = to_visit.pop() {
            for (sum, _) in sums.iter() {
                let (space, score) = state[0];
                let space = (space + sum) % rules.board;
                if score + space + 1 < rules.target {
                    let mut after = state[1..].to_vec();
                    after.push((space, score + space + 1));
                    if seen.insert(after.clone()) {
                        to_visit.push(after);
                    }
                }
            }
        }
        seen.len()
    }

    #[test]
    fn the_memo_holds_every_state_it_reaches_within_a_limit_of_that_many() {
        let three = DiceRules { target: 12, ..DiceRules::dirac() };
        for (starts, rules) in [(&[4, 8][..], DiceRules::dirac()), (&[1, 5, 10], three)] {
            let reached = states_reached(starts, &rules);
            let within =
                |limit| wins::<u64>(starts, &rules, limit, &DiracLimits::default(), &Cell::new(0));
            assert_eq!(within(reached).unwrap(), within(usize::MAX).unwrap());
            assert_eq!(
                within(reached - 1).unwrap_err(),
                RulesError::MemoTooLarge { limit: reached - 1 }.into(),
                "{reached} states"
            );
        }
    }

    #[test]
    fn every_layout_counts_what_the_per_player_engine_counts() {
        // The puzzle's game, games to 25 points on either side of the
        // largest table, and games to 40 points on boards from a
        // thousand spaces to 2^64 − 1 (where a pawn lands several times
        // before it wins, so that its space and score vary apart): their
        // solved states found in a dense table, then by keys packed into
        // 64 and 128 bits, then by the pawns themselves.
        let limits = DiracLimits::default();
        let starts = [4, 8];
        for (board, target, layout) in [
            (10, 21, Layout::Dense(44_100)),
            (160, 25, Layout::Dense(16_000_000)),
            (164, 25, Layout::Packed64),
            (1000, 40, Layout::Packed64),
            (1 << 40, 40, Layout::Packed128),
            (u64::MAX, 40, Layout::Pawns),
        ] {
            let rules = DiceRules { board, target, ..DiceRules::dirac() };
            assert_eq!(Layout::of(2, &rules, &limits), layout, "board {board}");
            let memo = wins::<u128>(&starts, &rules, 1 << 20, &limits, &Cell::new(0)).unwrap();
            let starts = puzzle_starts();
            let expected =
                crate::count_wins::<u128>(&starts, &rules, crate::DiracEngine::PerPlayer).unwrap();
            assert_eq!(memo, expected, "board {board}");
        }
        // A table that would be a large part of the memory allowed is not
        // made: the states are found by key instead.
        let small = DiracLimits { max_table_words: 40_000, ..limits };
        assert_eq!(Layout::of(2, &DiceRules::dirac(), &small), Layout::Packed64);
    }

    #[test]
    fn keys_of_exactly_64_bits_are_packed_into_64_bits() {
        // 2^32 cells for each of two players, or 2^16 for each of four:
        // 2^64 states, keys 0 to 2^64 − 1, which fit a u64. One more
        // point of target, and they do not.
        let limits = DiracLimits::default();
        for (players, side) in [(2, 1 << 16), (4, 1 << 8)] {
            let rules = DiceRules { board: side, target: side, ..DiceRules::dirac() };
            assert_eq!(Layout::of(players, &rules, &limits), Layout::Packed64, "{players}");
            let past = DiceRules { target: side + 1, ..rules };
            assert_eq!(Layout::of(players, &past, &limits), Layout::Packed128, "{players}");
        }
    }

    #[test]
    fn the_path_counts_against_the_memory_limit() {
        // 300 players scoring 1 a turn to 60 points: one universe, walked
        // 17,701 states deep before any is solved, each on the path with
        // its 300 pawns (600 words), 10 million words in all.
        let rules = DiceRules { board: 1, target: 60, faces: 1, rolls: 1 };
        let starts = vec![1; 300];
        let unbounded = DiracLimits::unbounded();
        let mut expected = vec![0_u64; 300];
        expected[0] = 1;
        let all = wins::<u64>(&starts, &rules, 1 << 20, &unbounded, &Cell::new(0)).unwrap();
        assert_eq!(all, expected);
        let limits = DiracLimits { max_table_words: 1_000_000, ..unbounded };
        let Err(DiceError::Rules(RulesError::MemoPastLimits { states, words, .. })) =
            wins::<u64>(&starts, &rules, 1 << 20, &limits, &Cell::new(0))
        else {
            panic!("the path was not counted");
        };
        assert_eq!(states, 0);
        assert!(words > 1_000_000 && words <= 2_000_000, "{words}");
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
    fn a_score_past_2_to_the_64_wins_rather_than_wrapping() {
        // Board and target 2^64 − 1, a one-faced die rolled 3 times: from
        // 2^64 − 5 each pawn lands on 2^64 − 2 (one point short), then
        // player 1 lands on 2 and passes 2^64 − 1 points, and wins.
        let max = u64::MAX;
        let rules = DiceRules { board: max, target: max, faces: 1, rolls: 3 };
        let limits = DiracLimits::default();
        let all = wins::<u64>(&[max - 4, max - 4], &rules, 1 << 10, &limits, &Cell::new(0));
        assert_eq!(all.unwrap(), [1, 0]);
    }

    #[test]
    fn the_memo_stops_at_the_dirac_limits() {
        // A die rolled 500 times: counts of 800 bits, in big integers.
        let rules = DiceRules { rolls: 500, ..DiceRules::dirac() };
        let unbounded = DiracLimits::unbounded();
        let all = wins::<BigUint>(&[4, 8], &rules, 1 << 20, &unbounded, &Cell::new(0)).unwrap();
        let starts = puzzle_starts();
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
    fn the_memo_stores_up_to_exactly_its_word_limit() {
        // Each refusal names the words the walk would have stored: raised
        // to them, the limit lets the walk on, until it finishes at exactly
        // the most words it ever stores, and is refused one word short.
        let rules = DiceRules { target: 15, ..DiceRules::dirac() };
        let unbounded = DiracLimits::unbounded();
        let within = |max_table_words| {
            let limits = DiracLimits { max_table_words, ..unbounded };
            wins::<u64>(&[4, 8], &rules, 1 << 20, &limits, &Cell::new(0))
        };
        let mut limit = 0;
        let most = loop {
            match within(limit) {
                Ok(_) => break limit,
                Err(DiceError::Rules(RulesError::MemoPastLimits { words, .. })) => {
                    assert!(words > limit, "refused {words} words within {limit}");
                    limit = words;
                }
                Err(other) => panic!("{other}"),
            }
        };
        assert_eq!(within(most).unwrap(), within(u128::MAX).unwrap());
        assert!(matches!(
            within(most - 1),
            Err(DiceError::Rules(RulesError::MemoPastLimits { words, .. })) if words == most
        ));
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
        let starts = puzzle_starts();
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
