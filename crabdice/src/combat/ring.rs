//! # Ring-buffer decks
//!
//! A deck is a [double-ended queue](https://en.wikipedia.org/wiki/Double-ended_queue)
//! used in one direction only: cards leave at the top and arrive at the
//! bottom. Cards are conserved, so a deck never holds more than the `n` cards
//! of its game, and a ring buffer of `n.next_power_of_two()` slots never has
//! to grow. Indices wrap with a mask instead of a division.
//!
//! The slots hold card *ranks* ([`Rank`]): one byte each for deals of up to
//! 256 cards, so a puzzle deck fits in a single cache line.

use std::hash::Hash;

/// An unsigned integer type that can hold the ranks of a deal.
pub(crate) trait Rank: Copy + Ord + Eq + Hash + Default + std::fmt::Debug {
    /// The largest number of distinct ranks this type can hold.
    const CAPACITY: usize;
    /// Converts a rank known to be below [`Self::CAPACITY`].
    fn from_u32(rank: u32) -> Self;
    /// The rank as an index.
    fn index(self) -> usize;
}

macro_rules! impl_rank {
    ($($t:ty),*) => {$(
        impl Rank for $t {
            const CAPACITY: usize = <$t>::MAX as usize + 1;
            #[inline]
            fn from_u32(rank: u32) -> Self {
                rank as $t
            }
            #[inline]
            fn index(self) -> usize {
                self as usize
            }
        }
    )*};
}
impl_rank!(u8, u16, u32);

/// A deck of ranks in a fixed ring buffer, top card first.
#[derive(Debug, Clone)]
pub(crate) struct Ring<R> {
    slots: Vec<R>,
    head: usize,
    len: usize,
    mask: usize,
}

impl<R: Rank> Ring<R> {
    /// An empty deck that can hold `cards` cards.
    pub fn with_room_for(cards: usize) -> Self {
        let size = cards.max(1).next_power_of_two();
        Self { slots: vec![R::default(); size], head: 0, len: 0, mask: size - 1 }
    }

    /// A deck holding `cards`, top first, with room for `room` cards.
    pub fn from_ranks(cards: impl IntoIterator<Item = R>, room: usize) -> Self {
        let mut ring = Self::with_room_for(room);
        for card in cards {
            ring.push(card);
        }
        ring
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the deck holds no cards.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes the top card. The deck must not be empty.
    #[inline]
    pub fn pop(&mut self) -> R {
        debug_assert!(self.len > 0, "pop from an empty deck");
        let card = self.slots[self.head & self.mask];
        self.head = (self.head + 1) & self.mask;
        self.len -= 1;
        card
    }

    /// Puts a card at the bottom. The deck must have room.
    #[inline]
    pub fn push(&mut self, card: R) {
        debug_assert!(self.len <= self.mask, "deck overflow");
        self.slots[(self.head + self.len) & self.mask] = card;
        self.len += 1;
    }

    /// The top card, if any.
    #[inline]
    pub fn top(&self) -> Option<R> {
        (self.len > 0).then(|| self.slots[self.head])
    }

    /// The cards, top first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = R> + ExactSizeIterator + Clone + '_ {
        (0..self.len).map(move |i| self.slots[(self.head + i) & self.mask])
    }

    /// Replaces this deck's cards with the top `count` cards of `source`,
    /// making room for `room` cards and keeping this deck's buffer when it is
    /// large enough. Returns the highest card copied.
    pub fn copy_top_of(&mut self, source: &Self, count: usize, room: usize) -> R {
        debug_assert!(count <= source.len && count <= room);
        if self.slots.len() < room {
            *self = Self::with_room_for(room);
        }
        self.head = 0;
        self.len = 0;
        let mut highest = R::default();
        for card in source.iter().take(count) {
            highest = highest.max(card);
            self.slots[self.len] = card;
            self.len += 1;
        }
        highest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_and_pushes_wrap_around() {
        let mut ring: Ring<u8> = Ring::from_ranks([1, 2, 3], 4);
        for round in 0..10u8 {
            let top = ring.pop();
            ring.push(top);
            ring.push(100 + round);
            ring.pop();
        }
        assert_eq!(ring.len(), 3);
        let mut other = Ring::with_room_for(1);
        let highest = other.copy_top_of(&ring, 2, 3);
        assert_eq!(other.iter().collect::<Vec<_>>(), ring.iter().take(2).collect::<Vec<_>>());
        assert_eq!(highest, ring.iter().take(2).max().unwrap());
    }
}
