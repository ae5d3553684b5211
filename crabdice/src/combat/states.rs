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
//! The literal engine ([`play_observed`](crate::play_observed)) keeps one
//! per game in progress: it must stop each game at exactly the round the
//! rules say, so it remembers every state. (The fast engine does not need to,
//! and keeps a few states only; see `stacks.rs`.)

use std::hash::{BuildHasher, Hash, Hasher};

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

/// A set of `(deck 1, deck 2)` states of one game.
#[derive(Debug)]
pub(crate) struct StateSet<T> {
    /// Records of `cards` cards: player 1's deck then player 2's.
    arena: Vec<T>,
    /// Player 1's deck length, per record.
    splits: Vec<u32>,
    table: HashTable<u32>,
    cards: usize,
}

/// The hash of a state from both decks, each hashed as one slice (so bytes
/// are hashed many at a time); a slice's hash includes its length, so the
/// pair of slices is hashed unambiguously.
fn hash_state<T: Hash>(one: &[T], two: &[T]) -> u64 {
    let mut hasher = FxBuildHasher.build_hasher();
    one.hash(&mut hasher);
    two.hash(&mut hasher);
    hasher.finish()
}

impl<T: Copy + Eq + Hash> StateSet<T> {
    /// An empty set for a game of `cards` cards.
    pub fn new(cards: usize) -> Self {
        Self { arena: Vec::new(), splits: Vec::new(), table: HashTable::new(), cards }
    }

    /// The bytes the set holds allocated, counting the room it keeps to
    /// grow into (the hash table's share is estimated from its capacity).
    pub fn footprint(&self) -> usize {
        self.arena.capacity() * size_of::<T>()
            + self.splits.capacity() * size_of::<u32>()
            // A slot per bucket, a control byte per bucket, buckets at
            // most 8/7 of the capacity.
            + self.table.capacity() * (size_of::<u32>() + 1) * 8 / 7
    }

    /// Adds the state whose cards, player 1's deck then player 2's (top
    /// first), are `record`, with player 1 holding the first `split`. If it
    /// was already present, returns the index of the earlier copy instead.
    pub fn insert(&mut self, split: usize, record: &[T]) -> Option<usize> {
        debug_assert_eq!(record.len(), self.cards);
        let hash = hash_state(&record[..split], &record[split..]);
        let (arena, splits, cards) = (&self.arena, &self.splits, self.cards);
        let seen = self.table.find(hash, |&index| {
            let start = index as usize * cards;
            splits[index as usize] as usize == split && arena[start..start + cards] == *record
        });
        if let Some(&index) = seen {
            return Some(index as usize);
        }
        let index = self.splits.len() as u32;
        self.arena.extend_from_slice(record);
        self.splits.push(split as u32);
        let (arena, splits) = (&self.arena, &self.splits);
        self.table.insert_unique(hash, index, |&index| {
            let start = index as usize * cards;
            {
                let (one, two) =
                    arena[start..start + cards].split_at(splits[index as usize] as usize);
                hash_state(one, two)
            }
        });
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinguishes_states_that_concatenate_alike() {
        let mut set = StateSet::<u8>::new(3);
        assert_eq!(set.insert(2, &[1, 2, 3]), None);
        assert_eq!(set.insert(1, &[1, 2, 3]), None);
        assert_eq!(set.insert(2, &[1, 2, 3]), Some(0));
        assert_eq!(set.insert(1, &[1, 2, 3]), Some(1));
        assert_eq!(set.insert(1, &[1, 3, 2]), None);
    }
}
