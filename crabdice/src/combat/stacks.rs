//! # Finding a repeat without remembering every state
//!
//! The fast engine must notice when a game's state comes back, but storing
//! every state (as a hash set would) makes memory grow with the length of the
//! game. [Nivasch's stack algorithm](https://doi.org/10.1016/j.ipl.2004.01.016)
//! finds a repeat of a deterministic sequence with a stack of a few states:
//!
//! * keep a stack of `(state, round)` pairs whose states increase from bottom
//!   to top, in some fixed total order;
//! * for each new state, pop every entry above it; if the new top *equals* it,
//!   the state has come back; otherwise push it.
//!
//! Once the sequence is in its cycle, the smallest state of the cycle is
//! never popped, so the second time it occurs the algorithm stops: within one
//! turn of the cycle after the first time around. The stack only ever holds
//! an increasing sequence of recent states, `O(log n)` of them on average.
//!
//! Nivasch's *partitioning* makes the delay shorter: states are dealt to one
//! of [`STACKS`] stacks by their hash, each stack runs the algorithm on its
//! own share, and the first stack to see its smallest state return stops the
//! search, on average `λ / (STACKS + 1)` rounds after the cycle has been gone
//! around once.
//!
//! The order is the state's 64-bit hash, then the full state; the hash also
//! picks the partition. Equality is always decided by comparing full states,
//! so a hash collision can make the search slower but never wrong.

use std::cmp::Ordering;
use std::hash::Hash;

/// A hash of a state from player 1's deck length and the first sixteen
/// cards of each deck: cheap, and only ever used to order and partition
/// states, never to decide that two are equal.
fn quick_hash<T: Hash>(one: &[T], two: &[T]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = rustc_hash::FxBuildHasher.build_hasher();
    one.len().hash(&mut hasher);
    T::hash_slice(&one[..one.len().min(16)], &mut hasher);
    T::hash_slice(&two[..two.len().min(16)], &mut hasher);
    hasher.finish()
}

/// Number of partitions.
pub(crate) const STACKS: usize = 16;

#[derive(Debug, Clone, Copy)]
struct Key {
    hash: u64,
    split: u32,
    round: u64,
}

#[derive(Debug, Default)]
struct Stack<T> {
    keys: Vec<Key>,
    /// The states of `keys`, `cards` each, in the same order.
    states: Vec<T>,
}

/// Nivasch's partitioned stacks over the states of one game.
#[derive(Debug)]
pub(crate) struct Stacks<T> {
    cards: usize,
    /// Empty until the first state is seen, [`STACKS`] from then on: most
    /// games end before their stacks start watching, and a small value is
    /// cheap to create and move.
    partitions: Vec<Stack<T>>,
    /// Bytes the stacks have allocated (they never give memory back).
    bytes: usize,
}

impl<T> Default for Stacks<T> {
    fn default() -> Self {
        Self { cards: 0, partitions: Vec::new(), bytes: 0 }
    }
}

impl<T> Stacks<T> {
    /// Bytes allocated for stored states, counted as the stacks grow.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl<T: Copy + Ord + Hash> Stacks<T> {
    /// Empties the stacks for a game of `cards` cards.
    pub fn reset(&mut self, cards: usize) {
        self.cards = cards;
        for stack in &mut self.partitions {
            stack.keys.clear();
            stack.states.clear();
        }
    }

    /// Sees the state of round `round`, in which the players hold `decks`.
    /// Returns the round of an earlier equal state when the algorithm finds
    /// one.
    pub fn observe(&mut self, decks: [&[T]; 2], round: u64) -> Option<u64> {
        let [one, two] = decks;
        debug_assert_eq!(one.len() + two.len(), self.cards);
        let hash = quick_hash(one, two);
        let split = one.len() as u32;
        let cards = self.cards;
        if self.partitions.is_empty() {
            self.partitions.resize_with(STACKS, || Stack { keys: Vec::new(), states: Vec::new() });
            self.bytes += STACKS * size_of::<Stack<T>>();
        }
        let stack = &mut self.partitions[(hash >> 60) as usize % STACKS];
        while let Some(top) = stack.keys.last() {
            let stored = &stack.states[stack.states.len() - cards..];
            let order = (top.hash, top.split).cmp(&(hash, split)).then_with(|| {
                let (stored_one, stored_two) = stored.split_at(split as usize);
                stored_one.cmp(one).then_with(|| stored_two.cmp(two))
            });
            match order {
                Ordering::Greater => {
                    stack.keys.pop();
                    stack.states.truncate(stack.states.len() - cards);
                }
                Ordering::Equal => return Some(top.round),
                Ordering::Less => break,
            }
        }
        let room = [stack.keys.capacity(), stack.states.capacity()];
        stack.keys.push(Key { hash, split, round });
        stack.states.extend_from_slice(one);
        stack.states.extend_from_slice(two);
        if room != [stack.keys.capacity(), stack.states.capacity()] {
            self.bytes += (stack.keys.capacity() - room[0]) * size_of::<Key>()
                + (stack.states.capacity() - room[1]) * size_of::<T>();
        }
        None
    }

    /// The largest number of states held at once by any stack, for tests.
    #[cfg(test)]
    fn depth(&self) -> usize {
        self.partitions.iter().map(|s| s.keys.len()).max().unwrap_or(0)
    }
}

/// [Brent's algorithm](https://en.wikipedia.org/wiki/Cycle_detection#Brent's_algorithm)
/// over a sequence of states: one saved state, compared with each new one
/// and replaced when the number of states seen since it was saved reaches a
/// power of two. Cheaper per state than the stacks, but it may go around a
/// cycle a few times before it notices: right where cycles are rare. Like
/// the stacks, it only ever reports a repeat on an exact match.
#[derive(Debug)]
pub(crate) struct Brent<T> {
    /// Player 1's deck length in the saved state, if one is saved.
    split: Option<usize>,
    /// Both decks of the saved state, and when it was seen.
    cards: Vec<T>,
    at: u64,
    since: u64,
    power: u64,
}

impl<T: Copy + Eq> Brent<T> {
    /// A finder that saves its first state after `first` states (at least
    /// 1): a sequence that ends sooner never pays for a copy.
    pub fn new(first: u64) -> Self {
        Self { split: None, cards: Vec::new(), at: 0, since: 0, power: first }
    }

    /// Sees the state `decks` at time `now`; returns the time of the saved
    /// state when this one equals it. (The engines always look at the
    /// states saved, with [`Brent::observe_saving`].)
    #[cfg(test)]
    pub fn observe(&mut self, decks: [&[T]; 2], now: u64) -> Option<u64> {
        self.observe_saving(decks, now, |_, _| false)
    }

    /// The state saved, and when it was seen, if one is saved.
    pub fn saved(&self) -> Option<(u64, [&[T]; 2])> {
        let split = self.split?;
        let (one, two) = self.cards.split_at(split);
        Some((self.at, [one, two]))
    }

    /// Sees the state `decks` at time `now`, as `observe` does (returns the
    /// time of the saved state when this one equals it), and shows
    /// `endless` each state it saves (a few, at power-of-two intervals),
    /// with `now`: when `endless` says the sequence repeats from that state,
    /// this returns `Some(now)`, as if it had come back. A test there costs
    /// nothing on the states in between.
    #[expect(
        clippy::inline_always,
        reason = "called once a plain pass; as a call, plain games ran 5-10% slower"
    )]
    #[inline(always)]
    pub fn observe_saving(
        &mut self,
        decks: [&[T]; 2],
        now: u64,
        endless: impl FnOnce([&[T]; 2], u64) -> bool,
    ) -> Option<u64> {
        let [one, two] = decks;
        if self.split == Some(one.len())
            && self.cards.len() == one.len() + two.len()
            && self.cards[..one.len()] == *one
            && self.cards[one.len()..] == *two
        {
            return Some(self.at);
        }
        self.since += 1;
        if self.since == self.power {
            if endless(decks, now) {
                return Some(now);
            }
            self.split = Some(one.len());
            self.at = now;
            self.cards.clear();
            self.cards.extend_from_slice(one);
            self.cards.extend_from_slice(two);
            self.power = self.power.saturating_mul(2);
            self.since = 0;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `x -> f(x)` from `start` until the stacks stop; returns the
    /// step it stopped at and the step of the earlier equal value.
    fn run(f: impl Fn(u32) -> u32, start: u32) -> (u64, u64, usize) {
        let mut stacks = Stacks::default();
        stacks.reset(4);
        let mut x = start;
        let mut depth = 0;
        for step in 0.. {
            let bytes = x.to_le_bytes();
            if let Some(earlier) = stacks.observe([&bytes[..1], &bytes[1..]], step) {
                return (step, earlier, depth);
            }
            depth = depth.max(stacks.depth());
            assert_eq!(stacks.bytes(), allocated(&stacks));
            x = f(x);
        }
        unreachable!()
    }

    /// The bytes the stacks' vectors hold, read from their capacities.
    fn allocated<T>(stacks: &Stacks<T>) -> usize {
        let bytes = |stack: &Stack<T>| {
            stack.keys.capacity() * size_of::<Key>() + stack.states.capacity() * size_of::<T>()
        };
        let partitions = stacks.partitions.capacity() * size_of::<Stack<T>>();
        partitions + stacks.partitions.iter().map(bytes).sum::<usize>()
    }

    /// The count of allocated bytes follows the stacks as they grow, and
    /// as they are emptied for other games (which keep their room).
    #[test]
    fn the_stacks_count_the_bytes_they_hold() {
        let mut stacks = Stacks::default();
        let mut grew = 0;
        for game in 0..4_u32 {
            stacks.reset(8);
            for step in 0..5_000_u32 {
                let state = (u64::from(game) << 40 | u64::from(step)).to_be_bytes();
                let before = stacks.bytes();
                assert_eq!(stacks.observe([&state[..3], &state[3..]], step.into()), None);
                grew += usize::from(stacks.bytes() != before);
                assert_eq!(stacks.bytes(), allocated(&stacks));
            }
        }
        assert!(grew > 16, "{grew} growths, {} bytes", stacks.bytes());
    }

    #[test]
    fn finds_the_cycle_of_a_sequence_exactly() {
        // A sequence with a tail of 1000 and a cycle of 777: x -> x + 1
        // until 1776, which goes back to 1000.
        let f = |x: u32| if x == 1776 { 1000 } else { x + 1 };
        let (step, earlier, depth) = run(f, 1);
        assert_eq!(step - earlier, 777, "the distance is the cycle's length");
        assert!(earlier >= 999, "both occurrences are in the cycle");
        assert!(step <= 999 + 2 * 777, "found within one more turn of the cycle");
        assert!(depth < 64, "the stacks stay small: {depth}");
    }

    #[test]
    fn brent_finds_the_cycle_length_exactly() {
        // The same sequence: a tail of 1000, then a cycle of 777.
        let f = |x: u32| if x == 1776 { 1000 } else { x + 1 };
        let mut brent = Brent::new(1);
        let mut x = 1_u32;
        for step in 0.. {
            let bytes = x.to_le_bytes();
            if let Some(earlier) = brent.observe([&bytes[..1], &bytes[1..]], step) {
                assert_eq!(step - earlier, 777);
                assert!(earlier >= 999);
                return;
            }
            x = f(x);
        }
    }

    /// States that agree on everything the hash reads (player 1's length
    /// and the first sixteen cards of each deck) fall in one partition and
    /// tie on the hash, so only the cards past those tell them apart: in
    /// either deck, in increasing and in decreasing order (pushed, or
    /// popping the one before). Each is new until one comes back, for
    /// the stacks and for Brent's algorithm.
    #[test]
    fn states_the_hash_cannot_tell_apart_are_compared_card_for_card() {
        let base: Vec<u8> = (1..=40).collect();
        for player in 0..2 {
            for (order, values) in [("increasing", [0_u8, 1, 2, 3]), ("decreasing", [3, 2, 1, 0])] {
                let mut stacks = Stacks::default();
                stacks.reset(base.len());
                let state = |value: u8| {
                    let mut cards = base.clone();
                    // Player 1 holds the first 20 cards, player 2 the rest;
                    // change the 18th card of one of them.
                    cards[20 * player + 17] = 100 + value;
                    cards
                };
                let what = format!("player {}, {order}", player + 1);
                for (round, &value) in values.iter().enumerate() {
                    let cards = state(value);
                    let seen = stacks.observe([&cards[..20], &cards[20..]], round as u64);
                    assert_eq!(seen, None, "{what}: state {round} is new");
                }
                let last = state(values[3]);
                assert_eq!(stacks.observe([&last[..20], &last[20..]], 4), Some(3), "{what}");
                let mut brent = Brent::new(1);
                for (round, &value) in values.iter().enumerate() {
                    let cards = state(value);
                    let seen = brent.observe([&cards[..20], &cards[20..]], round as u64);
                    assert_eq!(seen, None, "Brent, {what}: state {round} is new");
                }
                // Brent's algorithm saved the state of round 2 (after 1,
                // then 2 more): the last state again is not it, but the
                // state of round 2 is.
                let seen = brent.observe([&last[..20], &last[20..]], 4);
                assert_eq!(seen, None, "Brent, {what}: not the state saved");
                let saved = state(values[2]);
                let seen = brent.observe([&saved[..20], &saved[20..]], 5);
                assert_eq!(seen, Some(2), "Brent, {what}: the state saved");
            }
        }
    }

    /// `observe_saving` shows `endless` only the states Brent's algorithm
    /// saves (after 1, 2, 4, … states: steps `2^k − 2`), and when one of
    /// them is endless returns `Some(now)`, that state's own time, not the
    /// time of the state saved before it.
    #[test]
    fn brent_shows_endless_its_saves_only_and_answers_now() {
        let mut brent = Brent::new(1);
        let mut shown = Vec::new();
        for step in 0..1000_u64 {
            let bytes = (step as u32).to_le_bytes();
            let state = [&bytes[..1], &bytes[1..]];
            let seen = brent.observe_saving(state, step, |given, now| {
                assert_eq!((given, now), (state, step));
                shown.push(step);
                false
            });
            assert_eq!(seen, None, "step {step} is new");
        }
        let saves: Vec<u64> = (1..=9).map(|k| (1_u64 << k) - 2).collect();
        assert_eq!(shown, saves);
        // The fifth save (step 30) is endless: found there, at step 30.
        let mut brent = Brent::new(1);
        for step in 0..=30_u64 {
            let bytes = (step as u32).to_le_bytes();
            let seen = brent.observe_saving([&bytes[..1], &bytes[1..]], step, |_, _| step == 30);
            assert_eq!(seen, (step == 30).then_some(30), "step {step}");
        }
    }

    #[test]
    fn a_fixed_point_is_found_at_once() {
        let (step, earlier, _) = run(|_| 7, 7);
        assert_eq!((step, earlier), (1, 0));
    }
}
