//! # An exact set of deck pairs
//!
//! The repetition rule asks "did exactly these two decks occur before in
//! this game?". Popular fast solutions answer with a set of 64-bit
//! fingerprints and are wrong whenever two different states share one; a
//! key that concatenates both decks without saying where the first ends is
//! wrong too (`[1, 2] | [3]` and `[1] | [2, 3]`). This set is exact by
//! construction:
//!
//! * every state is stored in full, in an arena of fixed-size records (a game
//!   never gains or loses cards, so every record has the game's `n` cards),
//!   with player 1's deck length kept beside it;
//! * a hash of the record only chooses where to look in a
//!   [`hashbrown::HashTable`] of record indices; a hit is confirmed by
//!   comparing the full record.
//!
//! The arena and table are cleared, not freed, between games, so sub-games
//! reuse their memory.

use std::hash::{BuildHasher, Hash, Hasher};

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

/// A set of `(deck 1, deck 2)` states of one game.
#[derive(Debug, Default)]
pub(crate) struct StateSet<T> {
    /// Records of `cards` cards: player 1's deck then player 2's.
    arena: Vec<T>,
    /// Player 1's deck length, per record.
    splits: Vec<u32>,
    table: HashTable<u32>,
    cards: usize,
}

/// The hash of a state: player 1's deck length, then every card.
fn hash_state<T: Hash>(split: usize, cards: impl Iterator<Item = T>) -> u64 {
    let mut hasher = FxBuildHasher.build_hasher();
    split.hash(&mut hasher);
    for card in cards {
        card.hash(&mut hasher);
    }
    hasher.finish()
}

impl<T: Copy + Eq + Hash> StateSet<T> {
    /// Empties the set for a game of `cards` cards.
    pub fn reset(&mut self, cards: usize) {
        self.arena.clear();
        self.splits.clear();
        self.table.clear();
        self.cards = cards;
    }

    /// Adds the state with decks `one` and `two` (top first). If it was
    /// already present, returns the index of the earlier copy instead.
    pub fn insert<I>(&mut self, one: &I, two: &I) -> Option<usize>
    where
        I: ExactSizeIterator<Item = T> + Clone,
    {
        debug_assert_eq!(one.len() + two.len(), self.cards);
        let split = one.len();
        let state = || one.clone().chain(two.clone());
        let hash = hash_state(split, state());
        let (arena, splits, cards) = (&self.arena, &self.splits, self.cards);
        let seen = self.table.find(hash, |&index| {
            let start = index as usize * cards;
            splits[index as usize] as usize == split
                && arena[start..start + cards].iter().copied().eq(state())
        });
        if let Some(&index) = seen {
            return Some(index as usize);
        }
        let index = self.splits.len() as u32;
        self.arena.extend(state());
        self.splits.push(split as u32);
        let (arena, splits) = (&self.arena, &self.splits);
        self.table.insert_unique(hash, index, |&index| {
            let start = index as usize * cards;
            hash_state(splits[index as usize] as usize, arena[start..start + cards].iter())
        });
        None
    }

    /// The `index`-th state inserted, as `(deck 1, deck 2)`.
    pub fn get(&self, index: usize) -> (&[T], &[T]) {
        let start = index * self.cards;
        let record = &self.arena[start..start + self.cards];
        record.split_at(self.splits[index] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinguishes_states_that_concatenate_alike() {
        let mut set = StateSet::<u8>::default();
        set.reset(3);
        let (a1, a2, b1, b2) = ([1u8, 2], [3u8], [1u8], [2u8, 3]);
        assert_eq!(set.insert(&a1.iter().copied(), &a2.iter().copied()), None);
        assert_eq!(set.insert(&b1.iter().copied(), &b2.iter().copied()), None);
        assert_eq!(set.insert(&a1.iter().copied(), &a2.iter().copied()), Some(0));
        assert_eq!(set.insert(&b1.iter().copied(), &b2.iter().copied()), Some(1));
        assert_eq!(set.get(1), (&[1][..], &[2, 3][..]));
    }
}
