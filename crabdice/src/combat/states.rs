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

/// A set of `(deck 1, deck 2)` states of one game, hashed by `H` (tests
/// give every state the same hash, to see that the set never relies on it).
#[derive(Debug)]
pub(crate) struct StateSet<T, H = FxBuildHasher> {
    /// Records of `cards` cards: player 1's deck then player 2's.
    arena: Vec<T>,
    /// Player 1's deck length, per record.
    splits: Vec<u32>,
    table: HashTable<u32>,
    cards: usize,
    hasher: H,
}

/// The hash of a state from both decks, each hashed as one slice (so bytes
/// are hashed many at a time); a slice's hash includes its length, so the
/// pair of slices is hashed unambiguously.
fn hash_state<T: Hash>(hasher: &impl BuildHasher, one: &[T], two: &[T]) -> u64 {
    let mut hasher = hasher.build_hasher();
    one.hash(&mut hasher);
    two.hash(&mut hasher);
    hasher.finish()
}

impl<T: Copy + Eq + Hash, H: BuildHasher + Default> StateSet<T, H> {
    /// An empty set for a game of `cards` cards.
    pub fn new(cards: usize) -> Self {
        let (arena, splits, table) = (Vec::new(), Vec::new(), HashTable::new());
        Self { arena, splits, table, cards, hasher: H::default() }
    }

    /// Empties the set for a game of `cards` cards, keeping its buffers.
    pub fn reset(&mut self, cards: usize) {
        self.arena.clear();
        self.splits.clear();
        self.table.clear();
        self.cards = cards;
    }

    /// The bytes the set holds allocated, counting the room it keeps to
    /// grow into.
    pub fn footprint(&self) -> usize {
        self.stores().iter().sum()
    }

    /// The bytes of each store: records, splits, hash table.
    fn stores(&self) -> [usize; 3] {
        [
            self.arena.capacity() * size_of::<T>(),
            self.splits.capacity() * size_of::<u32>(),
            self.table.allocation_size(),
        ]
    }

    /// The bytes the next [`insert`](Self::insert) may allocate: a larger
    /// buffer for each store that is full, allocated while the old one is
    /// still held. The set grows its stores itself, doubling them, so this
    /// is what it asks for.
    pub fn next_growth(&self) -> usize {
        self.grown_stores().iter().sum()
    }

    /// The bytes of each store that the next insert grows, after growing;
    /// 0 for the others.
    fn grown_stores(&self) -> [usize; 3] {
        let [arena, splits, table] = self.next_capacities();
        [
            arena.map_or(0, |capacity| capacity * size_of::<T>()),
            splits.map_or(0, |capacity| capacity * size_of::<u32>()),
            table.map_or(0, table_bytes),
        ]
    }

    /// The capacity each store (records' cards, splits, table entries)
    /// grows to at the next insert; `None` for a store with room left.
    fn next_capacities(&self) -> [Option<usize>; 3] {
        let next = |len: usize, capacity: usize, more: usize| {
            (capacity - len < more).then(|| grown(capacity, len + more))
        };
        [
            next(self.arena.len(), self.arena.capacity(), self.cards),
            next(self.splits.len(), self.splits.capacity(), 1),
            next(self.table.len(), self.table.capacity(), 1),
        ]
    }

    /// Adds the state whose cards, player 1's deck then player 2's (top
    /// first), are `record`, with player 1 holding the first `split`. If it
    /// was already present, returns the index of the earlier copy instead.
    pub fn insert(&mut self, split: usize, record: &[T]) -> Option<usize> {
        debug_assert_eq!(record.len(), self.cards);
        let hash = hash_state(&self.hasher, &record[..split], &record[split..]);
        let (arena, splits, cards) = (&self.arena, &self.splits, self.cards);
        let seen = self.table.find(hash, |&index| {
            let start = index as usize * cards;
            splits[index as usize] as usize == split && arena[start..start + cards] == *record
        });
        if let Some(&index) = seen {
            return Some(index as usize);
        }
        // Grow as `next_growth` says, not as the collections would.
        let [arena_to, splits_to, table_to] = self.next_capacities();
        if let Some(capacity) = arena_to {
            self.arena.reserve_exact(capacity - self.arena.len());
        }
        if let Some(capacity) = splits_to {
            self.splits.reserve_exact(capacity - self.splits.len());
        }
        let index = self.splits.len() as u32;
        self.arena.extend_from_slice(record);
        self.splits.push(split as u32);
        let (arena, splits, hasher) = (&self.arena, &self.splits, &self.hasher);
        let rehash = |&index: &u32| {
            let start = index as usize * cards;
            let (one, two) = arena[start..start + cards].split_at(splits[index as usize] as usize);
            hash_state(hasher, one, two)
        };
        if let Some(capacity) = table_to {
            self.table.reserve(capacity - self.table.len(), rehash);
        }
        self.table.insert_unique(hash, index, rehash);
        None
    }
}

/// The capacity a full store of `capacity` grows to when it must hold
/// `needed`: twice as much, or what is needed if that is more.
fn grown(capacity: usize, needed: usize) -> usize {
    capacity.saturating_mul(2).max(needed)
}

/// The bytes hashbrown allocates for a table of record indices with room
/// for `capacity` of them: buckets a power of two filled to at most 7/8, a
/// slot and a control byte per bucket, and a group of control bytes more.
fn table_bytes(capacity: usize) -> usize {
    let buckets = match capacity {
        0 => return 0,
        1..4 => 4,
        4..8 => 8,
        _ => (capacity.saturating_mul(8) / 7).next_power_of_two(),
    };
    buckets * (size_of::<u32>() + 1) + GROUP
}

/// Control bytes hashbrown adds past the last bucket: one SIMD group, 16
/// bytes with SSE2 and fewer elsewhere.
const GROUP: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    /// A hasher that gives every state the same hash: every lookup then
    /// meets every stored state, and only the full comparison can tell
    /// them apart.
    #[derive(Default)]
    struct Colliding;

    impl BuildHasher for Colliding {
        type Hasher = Constant;
        fn build_hasher(&self) -> Constant {
            Constant
        }
    }

    struct Constant;

    impl Hasher for Constant {
        fn finish(&self) -> u64 {
            7
        }
        fn write(&mut self, _: &[u8]) {}
    }

    /// With every hash the same, states that share their cards and differ
    /// only in where player 1's deck ends, or only past the first cards,
    /// are all kept apart, and each is found again as itself: the set is
    /// exact whatever its hash does.
    #[test]
    fn states_whose_hashes_collide_are_told_apart_by_their_cards() {
        let mut set = StateSet::<u8, Colliding>::new(4);
        let states: [(usize, [u8; 4]); 6] = [
            (2, [1, 2, 3, 4]),
            (1, [1, 2, 3, 4]),
            (3, [1, 2, 3, 4]),
            (2, [1, 2, 4, 3]),
            (2, [2, 1, 3, 4]),
            (0, [1, 2, 3, 4]),
        ];
        for (i, (split, record)) in states.iter().enumerate() {
            assert_eq!(set.insert(*split, record), None, "state {i} is new");
        }
        for (i, (split, record)) in states.iter().enumerate() {
            assert_eq!(set.insert(*split, record), Some(i), "state {i} is found as itself");
        }
    }

    #[test]
    fn distinguishes_states_that_concatenate_alike() {
        let mut set = StateSet::<u8>::new(3);
        assert_eq!(set.insert(2, &[1, 2, 3]), None);
        assert_eq!(set.insert(1, &[1, 2, 3]), None);
        assert_eq!(set.insert(2, &[1, 2, 3]), Some(0));
        assert_eq!(set.insert(1, &[1, 2, 3]), Some(1));
        assert_eq!(set.insert(1, &[1, 3, 2]), None);
    }

    /// A store with room left for exactly the next insert does not grow:
    /// records of 4 cards grow to 4, 8 and 16 cards for the first three
    /// states, and the fourth fits; the splits grow to 1, 2 and 4 alike.
    #[test]
    fn a_store_with_just_enough_room_does_not_grow() {
        let mut set = StateSet::<u8>::new(4);
        for i in 0..3 {
            assert_eq!(set.insert(2, &[i, i + 1, i + 2, i + 3]), None);
        }
        let before = set.stores();
        assert_eq!(before[..2], [16, 4 * size_of::<u32>()]);
        assert_eq!(set.grown_stores()[..2], [0, 0]);
        assert_eq!(set.insert(2, &[9, 9, 9, 9]), None);
        assert_eq!(set.stores()[..2], before[..2]);
    }

    /// `table_bytes` is what hashbrown allocates for a table of each
    /// capacity up to 64, none included (to within a group of control
    /// bytes, fewer without SSE2).
    #[test]
    fn table_bytes_are_what_hashbrown_allocates() {
        for capacity in 0..=64 {
            let allocated = HashTable::<u32>::with_capacity(capacity).allocation_size();
            let expected = table_bytes(capacity);
            assert!(
                allocated <= expected && allocated + GROUP >= expected,
                "capacity {capacity}: {allocated} for {expected}"
            );
        }
    }

    #[test]
    fn growth_is_announced_before_it_happens() {
        let mut set = StateSet::<u64>::new(5);
        let mut grew = 0;
        for i in 0..10_000u64 {
            let (before, announced) = (set.stores(), set.grown_stores());
            let record = [i, i + 1, i + 2, i + 3, i + 4];
            assert_eq!(set.insert(2, &record), None);
            // Each store that grew takes the bytes announced (the table to
            // within a group of control bytes, smaller without SSE2); the
            // others are as they were.
            for (store, after) in set.stores().into_iter().enumerate() {
                let expected = if announced[store] == 0 { before[store] } else { announced[store] };
                let slack = if store == 2 { GROUP } else { 0 };
                assert!(
                    after <= expected && after + slack >= expected,
                    "state {i}, store {store}: {after} for {expected}"
                );
                grew += usize::from(announced[store] != 0);
            }
        }
        assert!(grew > 20, "{grew} growths");
        // Doubling: 10,000 states of 40 bytes in at most twice that.
        assert!(set.footprint() < 2 * 10_000 * (40 + 4 + 10));
    }
}
