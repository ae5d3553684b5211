//! # Ring storage for decks
//!
//! A deck is a ring buffer ([`Slots`]) addressed by two counters that only
//! grow ([`Deck`]): cards are drawn at `head` and won at `tail`, and a
//! counter becomes a slot by wrapping. Two kinds of ring:
//!
//! * [`ByteRing`], for deals whose cards fit in a byte (nearly every
//!   puzzle-shaped deal): 256 one-byte slots and a spare, wrapped by a
//!   cast, so no card is read or stored with a bounds check. Each deck's `tail` is kept even,
//!   so a round's pair is stored at one index and the next slot, never
//!   wrapping between them. Its labels are the cards' own values, each its
//!   own need ([`Values`]: no table to look up), or needs are read from a
//!   table ([`Ranked`]: labels that are ranks, or any plain game).
//! * [`WideRing`], for larger deals: a power of two of wider slots,
//!   wrapped with a mask.
//!
//! A sub-game's decks are copied from under the drawn cards by
//! [`Slots::copy_top`], which also finds their highest card; a byte ring
//! does it in masked windows of 16 slots.

use std::marker::PhantomData;

use super::super::deal::{Label, Labelled};

/// Ring storage for one deck.
pub(super) trait Slots: Sized {
    /// The label type.
    type Card: Label;
    /// The table of each label's need (see `Labelled::need`).
    type Table: Clone + Send + Sync + 'static;
    /// Builds the table for the deal (every card out of reach when the
    /// game has no sub-games).
    fn table(labelled: &Labelled<'_>, sub_games: bool) -> Self::Table;
    /// Cards a player must hold after drawing `card` to recurse on it (at
    /// most `u32::MAX`).
    fn need(table: &Self::Table, card: Self::Card) -> usize;
    /// An empty ring for a game of up to `cards` cards.
    fn with_room_for(cards: usize) -> Self;
    /// Whether the ring can hold a game of `cards` cards.
    fn fits(&self, cards: usize) -> bool;
    /// Bytes the ring holds outside itself.
    fn heap_bytes(&self) -> usize;
    /// The card at counter `at`.
    fn get(&self, at: usize) -> Self::Card;
    /// Stores a card at counter `at`.
    fn set(&mut self, at: usize, card: Self::Card);
    /// Whether every deck's tail is kept even, so that a pair stored at
    /// the tail never wraps around the end of the ring between its cards.
    const EVEN_TAILS: bool;
    /// Stores `first` at counter `at` and `second` at `at + 1`; `at` is
    /// even if [`Slots::EVEN_TAILS`].
    #[inline]
    fn set_pair(&mut self, at: usize, first: Self::Card, second: Self::Card) {
        self.set(at, first);
        self.set(at + 1, second);
    }
    /// The cards at counters `head..tail`, as at most two slices.
    fn slices(&self, head: usize, tail: usize) -> [&[Self::Card]; 2];
    /// Stores the `count` cards at counters `head..head + count` of `from`
    /// at counters `to..to + count` (`to` is 0 or 1, and 0 unless
    /// [`Slots::EVEN_TAILS`]), and returns the highest of them (label 0 if
    /// there are none). The slots from `to + count` on may change too.
    fn copy_top(&mut self, from: &Self, head: usize, count: usize, to: usize) -> Self::Card {
        let [a, b] = from.slices(head, head + count);
        let slots = &mut self.slots_mut()[to..];
        slots[..a.len()].copy_from_slice(a);
        slots[a.len()..count].copy_from_slice(b);
        // Part by part rather than chained: a plain loop over each slice.
        let max = |part: &[Self::Card]| part.iter().fold(Self::Card::default(), |m, &c| m.max(c));
        max(a).max(max(b))
    }
    /// All the slots, from counter 0.
    fn slots_mut(&mut self) -> &mut [Self::Card];
}

/// Splits the counters `head..tail` of a ring of `size` slots into at most
/// two ranges of slots.
fn ranges(head: usize, tail: usize, size: usize) -> [std::ops::Range<usize>; 2] {
    let (start, len) = (head % size, tail - head);
    if start + len <= size {
        [start..start + len, 0..0]
    } else {
        [start..size, 0..start + len - size]
    }
}

/// Slots a [`ByteRing`] copies at once.
const WINDOW: usize = 16;

/// `KEEP[k]`: a mask of `k` ones and `WINDOW - k` zeros. Read from a table,
/// the mask stays a vector `and`; computed per lane as `i < k`, the
/// compiler turns it into a branch per lane.
const KEEP: [[u8; WINDOW]; WINDOW + 1] = {
    let mut keep = [[0; WINDOW]; WINDOW + 1];
    let mut cards = 0;
    while cards <= WINDOW {
        let mut i = 0;
        while i < cards {
            keep[cards][i] = u8::MAX;
            i += 1;
        }
        cards += 1;
    }
    keep
};

/// Raises each of `high` to the card in the same place of `window`, for
/// the first `cards` places only (all of them past 16).
#[inline]
fn keep_highest(high: &mut [u8; WINDOW], window: &[u8], cards: usize) {
    let keep = &KEEP[cards.min(WINDOW)];
    for ((high, card), keep) in high.iter_mut().zip(window).zip(keep) {
        *high = (*high).max(*card & keep);
    }
}

/// How a [`ByteRing`]'s labels give their needs.
pub(super) trait Needs: Send + Sync + 'static {
    /// What the needs are looked up in.
    type Table: Clone + Send + Sync + 'static;
    /// The table for the deal (see [`Slots::table`]).
    fn table(labelled: &Labelled<'_>, sub_games: bool) -> Self::Table;
    /// A label's need (see [`Slots::need`]).
    fn need(table: &Self::Table, card: u8) -> usize;
}

/// Every label is the card's own value, and so its own need: no table to
/// build (clearing a kilobyte was 5% of a 3 + 3 deal) and no lookup in the
/// round loop. (The table caps needs at `n`, but a need the player cannot
/// meet starts no sub-game either way.) Never for plain Combat, whose
/// needs are all out of reach.
pub(super) struct Values;

impl Needs for Values {
    type Table = ();
    fn table(_: &Labelled<'_>, _: bool) {}
    #[inline]
    fn need((): &(), card: u8) -> usize {
        usize::from(card)
    }
}

/// Labels are ranks, or the game is plain: needs come from a table (all
/// out of reach for plain Combat).
pub(super) struct Ranked;

impl Needs for Ranked {
    type Table = [u32; 256];
    fn table(labelled: &Labelled<'_>, sub_games: bool) -> Self::Table {
        let mut table = [u32::MAX; 256];
        if sub_games {
            labelled.fill_need(&mut table);
        }
        table
    }
    #[inline]
    fn need(table: &Self::Table, card: u8) -> usize {
        table[usize::from(card)] as usize
    }
}

/// 256 one-byte slots: wrapping is a cast. `N` says where a label's need
/// comes from.
///
/// One slot more than the ring: a pair stored at an even counter ends at
/// most at slot 255, and the bounds of its second card need no check.
pub(super) struct ByteRing<N: Needs>([u8; 257], PhantomData<N>);

impl<N: Needs> Slots for ByteRing<N> {
    type Card = u8;
    type Table = N::Table;
    fn table(labelled: &Labelled<'_>, sub_games: bool) -> Self::Table {
        N::table(labelled, sub_games)
    }
    #[inline]
    fn need(table: &Self::Table, card: u8) -> usize {
        N::need(table, card)
    }
    fn with_room_for(_: usize) -> Self {
        Self([0; 257], PhantomData)
    }
    fn fits(&self, cards: usize) -> bool {
        cards <= 255
    }
    fn heap_bytes(&self) -> usize {
        0
    }
    #[inline]
    fn get(&self, at: usize) -> u8 {
        self.0[usize::from(at as u8)]
    }
    #[inline]
    fn set(&mut self, at: usize, card: u8) {
        self.0[usize::from(at as u8)] = card;
    }
    const EVEN_TAILS: bool = true;
    #[inline]
    fn set_pair(&mut self, at: usize, first: u8, second: u8) {
        debug_assert!(at.is_multiple_of(2), "a pair at an odd counter");
        let slot = usize::from(at as u8);
        self.0[slot] = first;
        self.0[slot + 1] = second;
    }
    fn slices(&self, head: usize, tail: usize) -> [&[u8]; 2] {
        ranges(head, tail, 256).map(|range| &self.0[range])
    }
    /// In windows of 16 slots, each copied whole and masked to its cards
    /// by a row of [`KEEP`]: a sub-game's decks (15 cards between them on
    /// average) then cost a load, a store, an `and` and a maximum each, with
    /// no loop whose length a branch predictor must guess. A deck of at
    /// most 16 cards whose window does not wrap around the ring (nearly
    /// every one) takes a path of its own with no loop at all: 2% fewer
    /// instructions on the heavy deals than the loop (deal 2951: 56.78 →
    /// 55.66 million), 1–2% less time. (Not inlined: on its own it
    /// compiles to vector code; inlined, partly to scalar code, 1.2% more
    /// instructions and 3% slower on deal 2951.)
    #[inline(never)]
    fn copy_top(&mut self, from: &Self, head: usize, count: usize, to: usize) -> u8 {
        let mut high = [0u8; WINDOW];
        let at = usize::from(head as u8);
        if count <= WINDOW
            && let Some(window) = from.0[..256].get(at..at + WINDOW)
        {
            let to = &mut self.0[to..to + WINDOW];
            to.copy_from_slice(window);
            keep_highest(&mut high, to, count);
            return high.into_iter().fold(0, u8::max);
        }
        for start in (0..count).step_by(WINDOW) {
            // `count < 256` and `to <= 1`, so every window ends within the
            // slots.
            let to = &mut self.0[to + start..to + start + WINDOW];
            let at = usize::from((head + start) as u8);
            match from.0[..256].get(at..at + WINDOW) {
                Some(window) => to.copy_from_slice(window),
                // The window wraps around the end of the ring (rarely).
                None => {
                    for (i, slot) in to.iter_mut().enumerate() {
                        *slot = from.0[usize::from((at + i) as u8)];
                    }
                }
            }
            keep_highest(&mut high, to, count - start);
        }
        high.into_iter().fold(0, u8::max)
    }
    fn slots_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

/// A power-of-two number of wider slots, wrapped with a mask.
pub(super) struct WideRing<C> {
    slots: Vec<C>,
    mask: usize,
}

impl<C: Label> Slots for WideRing<C> {
    type Card = C;
    type Table = Vec<u32>;
    fn table(labelled: &Labelled<'_>, sub_games: bool) -> Self::Table {
        if sub_games { labelled.need() } else { Vec::new() }
    }
    #[inline]
    fn need(table: &Self::Table, card: C) -> usize {
        table.get(card.index()).map_or(u32::MAX, |&n| n) as usize
    }
    fn with_room_for(cards: usize) -> Self {
        let size = cards.max(2).next_power_of_two();
        Self { slots: vec![C::default(); size], mask: size - 1 }
    }
    fn fits(&self, cards: usize) -> bool {
        cards <= self.slots.len()
    }
    fn heap_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<C>()
    }
    #[inline]
    fn get(&self, at: usize) -> C {
        self.slots[at & self.mask]
    }
    #[inline]
    fn set(&mut self, at: usize, card: C) {
        self.slots[at & self.mask] = card;
    }
    const EVEN_TAILS: bool = false;
    fn slices(&self, head: usize, tail: usize) -> [&[C]; 2] {
        ranges(head, tail, self.slots.len()).map(|range| &self.slots[range])
    }
    fn slots_mut(&mut self) -> &mut [C] {
        &mut self.slots
    }
}

/// A deck: the cards at counters `head..tail`, top first. In a ring with
/// [`Slots::EVEN_TAILS`], `tail` is always even: a deck is loaded so (from
/// counter 1 when it has an odd number of cards), and it only ever grows
/// by pairs, so its pairs never wrap between their two cards.
pub(super) struct Deck<S> {
    pub(super) slots: S,
    pub(super) head: usize,
    pub(super) tail: usize,
}

impl<S: Slots> Deck<S> {
    pub(super) fn len(&self) -> usize {
        self.tail - self.head
    }

    pub(super) fn cards(&self) -> impl Iterator<Item = S::Card> + '_ {
        (self.head..self.tail).map(|at| self.slots.get(at))
    }

    /// The cards as one slice: straight from the ring, or, when they wrap
    /// around its end (rarely), copied into `scratch`.
    pub(super) fn contiguous<'a>(&'a self, scratch: &'a mut Vec<S::Card>) -> &'a [S::Card] {
        match self.slots.slices(self.head, self.tail) {
            [front, []] => front,
            [front, back] => {
                scratch.clear();
                scratch.extend_from_slice(front);
                scratch.extend_from_slice(back);
                scratch
            }
        }
    }

    /// Replaces the cards with the `count` under the top of `from`, making
    /// sure a game of `room` cards fits; returns the highest of them.
    pub(super) fn load_top(&mut self, from: &Self, count: usize, room: usize) -> S::Card {
        self.make_room(room);
        self.head = Self::first_counter(count);
        self.tail = self.head + count;
        self.slots.copy_top(&from.slots, from.head + 1, count, self.head)
    }

    /// Replaces the cards, making sure a game of `room` cards fits; an odd
    /// number of them from counter 1 if the tail must be even.
    pub(super) fn load(&mut self, cards: impl ExactSizeIterator<Item = S::Card>, room: usize) {
        self.make_room(room);
        self.head = Self::first_counter(cards.len());
        self.tail = self.head;
        self.put_under(cards);
        debug_assert!(!S::EVEN_TAILS || self.tail.is_multiple_of(2));
    }

    /// The counter a deck of `count` cards is loaded from: 1 when the tail
    /// must be even and the count is odd, 0 otherwise.
    fn first_counter(count: usize) -> usize {
        if S::EVEN_TAILS { count % 2 } else { 0 }
    }

    /// Makes sure the ring can hold a game of `room` cards (its cards are
    /// lost if it must grow).
    fn make_room(&mut self, room: usize) {
        if !self.slots.fits(room) {
            self.slots = S::with_room_for(room);
        }
    }

    /// Puts `cards` under the deck, in order.
    fn put_under(&mut self, cards: impl Iterator<Item = S::Card>) {
        for card in cards {
            self.slots.set(self.tail, card);
            self.tail += 1;
        }
    }
}

/// Both decks' cards as slices, straightened in `scratch` where they wrap.
pub(super) fn state<'a, S: Slots>(
    decks: &'a [Deck<S>; 2],
    scratch: &'a mut [Vec<S::Card>; 2],
) -> [&'a [S::Card]; 2] {
    let [one, two] = decks;
    let [scratch_one, scratch_two] = scratch;
    [one.contiguous(scratch_one), two.contiguous(scratch_two)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `copy_top` must do, card by card: the cards at counters
    /// `head..head + count` of a ring of `slots.len()` slots, and the
    /// highest.
    fn expected<C: Label>(slots: &[C], head: usize, count: usize) -> (Vec<C>, C) {
        let cards: Vec<C> = (head..head + count).map(|at| slots[at % slots.len()]).collect();
        let high = cards.iter().copied().max().unwrap_or_default();
        (cards, high)
    }

    proptest! {
        /// Windows of 16, masked, and those that wrap around the ring's end.
        #[test]
        fn byte_rings_copy_and_maximise_the_cards_under_a_head(
            slots in prop::collection::vec(any::<u8>(), 256),
            spare in any::<u8>(),
            head in 0..2048usize,
            count in 0..256usize,
            at in 0..=1usize,
        ) {
            // The slot past the ring is never read as a card.
            let mut from = ByteRing::<Values>([spare; 257], PhantomData);
            from.0[..256].copy_from_slice(&slots);
            let mut to = ByteRing::<Values>([0xAA; 257], PhantomData);
            let high = to.copy_top(&from, head, count, at);
            let (cards, expected_high) = expected(&slots, head, count);
            prop_assert_eq!(&to.0[at..at + count], &cards[..]);
            prop_assert_eq!(high, expected_high);
        }

        /// The card-by-card default, on a ring of 512 wide slots.
        #[test]
        fn wide_rings_copy_and_maximise_the_cards_under_a_head(
            slots in prop::collection::vec(any::<u16>(), 512),
            head in 0..4096usize,
            count in 0..=512usize,
        ) {
            let mut from = WideRing::<u16>::with_room_for(512);
            from.slots.copy_from_slice(&slots);
            let mut to = WideRing::<u16>::with_room_for(512);
            let high = to.copy_top(&from, head, count, 0);
            let (cards, expected_high) = expected(&slots, head, count);
            prop_assert_eq!(&to.slots[..count], &cards[..]);
            prop_assert_eq!(high, expected_high);
        }
    }
}
