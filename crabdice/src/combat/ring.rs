//! # Ring-buffer decks
//!
//! A deck is a [double-ended queue](https://en.wikipedia.org/wiki/Double-ended_queue)
//! used in one direction only: cards leave at the top and arrive at the
//! bottom. Cards are conserved, so a deck never holds more than the `n` cards
//! of its game and a ring buffer never has to grow.
//!
//! The engines are written once against the [`Deck`] trait and compiled for
//! two layouts:
//!
//! * [`ByteDeck`], for deals whose cards can be labelled `0..=255` (every
//!   puzzle input): 256 one-byte slots indexed by a `u8` that wraps by itself,
//!   so there is no mask, no bounds check, and no heap allocation. A whole
//!   deck is a `Copy` value of 258 bytes.
//! * [`Ring`], for larger deals: a heap buffer of `u16` or `u32` labels,
//!   sized to a power of two and wrapped with a mask.

use std::fmt::Debug;
use std::hash::Hash;

/// A card label: the card itself for small values, else its rank.
pub(crate) trait Label: Copy + Ord + Eq + Hash + Default + Debug {
    /// Converts a label known to fit.
    fn from_u32(label: u32) -> Self;
    /// The label as an index.
    fn index(self) -> usize;
}

macro_rules! impl_label {
    ($($t:ty),*) => {$(
        impl Label for $t {
            #[inline]
            fn from_u32(label: u32) -> Self {
                label as $t
            }
            #[inline]
            fn index(self) -> usize {
                self as usize
            }
        }
    )*};
}
impl_label!(u8, u16, u32);

/// What the engines need of a deck.
pub(crate) trait Deck: Clone + Debug {
    /// The type of the labels it holds.
    type Card: Label;
    /// An empty deck with room for `room` cards.
    fn with_room_for(room: usize) -> Self;
    /// Number of cards.
    fn len(&self) -> usize;
    /// Takes the top card; the deck must not be empty.
    fn pop(&mut self) -> Self::Card;
    /// Puts a card at the bottom; the deck must have room.
    fn push(&mut self, card: Self::Card);
    /// The top card, if any.
    fn top(&self) -> Option<Self::Card>;
    /// The cards, top first, as at most two slices.
    fn slices(&self) -> (&[Self::Card], &[Self::Card]);

    /// True when the deck holds no cards.
    #[inline]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A deck holding `cards`, top first, with room for `room` cards.
    fn from_labels(cards: impl IntoIterator<Item = u32>, room: usize) -> Self {
        let mut deck = Self::with_room_for(room);
        for card in cards {
            deck.push(Self::Card::from_u32(card));
        }
        deck
    }

    /// The cards, top first.
    fn iter(&self) -> impl Iterator<Item = Self::Card> + '_ {
        let (front, back) = self.slices();
        front.iter().chain(back).copied()
    }

    /// True when both decks hold the same cards in the same order.
    fn same(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// A deck of up to 255 one-byte labels in 256 slots.
#[derive(Clone, Copy)]
pub(crate) struct ByteDeck {
    slots: [u8; 256],
    head: u8,
    len: u8,
}

impl Debug for ByteDeck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Deck for ByteDeck {
    type Card = u8;

    fn with_room_for(room: usize) -> Self {
        debug_assert!(room <= 255);
        Self { slots: [0; 256], head: 0, len: 0 }
    }

    #[inline]
    fn len(&self) -> usize {
        usize::from(self.len)
    }

    #[inline]
    fn pop(&mut self) -> u8 {
        let card = self.slots[usize::from(self.head)];
        self.head = self.head.wrapping_add(1);
        self.len = self.len.wrapping_sub(1);
        card
    }

    #[inline]
    fn push(&mut self, card: u8) {
        self.slots[usize::from(self.head.wrapping_add(self.len))] = card;
        self.len = self.len.wrapping_add(1);
    }

    #[inline]
    fn top(&self) -> Option<u8> {
        (self.len > 0).then_some(self.slots[usize::from(self.head)])
    }

    fn slices(&self) -> (&[u8], &[u8]) {
        let (head, len) = (usize::from(self.head), usize::from(self.len));
        if head + len <= 256 {
            (&self.slots[head..head + len], &[])
        } else {
            (&self.slots[head..], &self.slots[..head + len - 256])
        }
    }
}

/// A deck of `u16` or `u32` labels in a power-of-two ring buffer.
#[derive(Debug, Clone)]
pub(crate) struct Ring<R> {
    slots: Vec<R>,
    head: usize,
    len: usize,
    mask: usize,
}

impl<R: Label> Deck for Ring<R> {
    type Card = R;

    fn with_room_for(room: usize) -> Self {
        let size = room.max(1).next_power_of_two();
        Self { slots: vec![R::default(); size], head: 0, len: 0, mask: size - 1 }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn pop(&mut self) -> R {
        debug_assert!(self.len > 0, "pop from an empty deck");
        let card = self.slots[self.head];
        self.head = (self.head + 1) & self.mask;
        self.len -= 1;
        card
    }

    #[inline]
    fn push(&mut self, card: R) {
        debug_assert!(self.len <= self.mask, "deck overflow");
        self.slots[(self.head + self.len) & self.mask] = card;
        self.len += 1;
    }

    #[inline]
    fn top(&self) -> Option<R> {
        (self.len > 0).then(|| self.slots[self.head])
    }

    fn slices(&self) -> (&[R], &[R]) {
        let size = self.mask + 1;
        if self.head + self.len <= size {
            (&self.slots[self.head..self.head + self.len], &[])
        } else {
            (&self.slots[self.head..], &self.slots[..self.head + self.len - size])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<D: Deck>() {
        let mut deck = D::from_labels([1, 2, 3], 4);
        for round in 0..300u32 {
            let top = deck.pop();
            deck.push(top);
            deck.push(D::Card::from_u32(100 + round % 50));
            deck.pop();
        }
        assert_eq!(deck.len(), 3);
        let (front, back) = deck.slices();
        assert_eq!(front.len() + back.len(), 3);
        let other = D::from_labels([1, 2], 3);
        assert!(!other.same(&deck));
        assert!(deck.clone().same(&deck));
    }

    #[test]
    fn both_layouts_pop_push_and_wrap_around() {
        exercise::<ByteDeck>();
        exercise::<Ring<u16>>();
        exercise::<Ring<u32>>();
    }
}
