//! # Remembering long sub-games
//!
//! A sub-game's winner depends on its deal alone (both decks, card for
//! card): the rules play it the same way wherever it comes up. So a
//! winner found once may be used again for any sub-game dealt exactly the
//! same cards, and the answer does not change.
//!
//! Most deals gain nothing from that. On the heavy benchmark deals, a
//! sub-game repeats an earlier one's deal about one time in fifteen, and a
//! table of every sub-game's winner made them 30–43% slower (`fast.md`,
//! "Remembering sub-games"). But a deal can be built so that every game
//! starts the same sub-game twice, nested level below level (the
//! `nested` deals of the tests): its work doubles with every level, and a
//! deal nested 60 deep, on 250 cards, would take longer than anyone can
//! wait. Remembering each sub-game that took long makes that work grow
//! with the number of levels instead.
//!
//! So the engine remembers the winner of every sub-game that took at least
//! [`REMEMBER_AFTER`] rounds, its own sub-games' rounds included, by its
//! deal. Before a sub-game is played, two tests say whether it may be one
//! of them: it has at least as many cards as the smallest deal remembered
//! (one comparison, which fails for every sub-game until one is
//! remembered), and a filter of [`FILTER_BITS`] bits, one set for each
//! remembered deal's sizes and highest card, has its bit set. Only then is
//! its deal copied and looked up. `fast.md` ("Remembering long sub-games")
//! has the measurements.
//!
//! Memory stays bounded by the deal: past [`most_cards`] cards of keys, no
//! more deals are remembered. That is room for one deal at every level of
//! the deepest nesting the deal allows, so that a deal built to start the
//! same sub-game again at every level keeps them all: a sub-game has at
//! least two cards fewer than the game that started it, so sub-games
//! nested inside each other on a deal of `n` cards hold at most `n − 2 +
//! n − 4 + …`, about `n² / 4` cards in all. A fixed `2^18` cards (1 MiB)
//! was too few past deals of about 1,000 cards: such a deal nested 400 deep
//! on 1,610 cards needs 320,000 cards of keys, and with only `2^18` its
//! work doubled again at every level that did not fit (it never ended; it
//! now takes 0.4 s with one thread).

use rustc_hash::FxHashMap;

use super::deal::Label;
use super::speculate::Key;

/// Rounds a sub-game must take, its own sub-games' included, for its winner
/// to be remembered: as many as the helper thread waits for
/// ([`SPECULATE_AFTER`](super::speculate::SPECULATE_AFTER)). Copying and
/// storing a deal costs a few hundred instructions, next to 2^15 rounds of
/// about 50 each.
pub(super) const REMEMBER_AFTER: u64 = 1 << 15;

/// Fewest cards the remembered deals may hold together, whatever the deal
/// ([`most_cards`]): 1 MiB of `u32`.
pub(super) const MOST_CARDS: usize = 1 << 18;

/// Most cards the remembered deals may hold together on a deal of `cards`
/// cards, within a memory limit of `max_memory` bytes
/// ([`Limits::max_state_memory`](super::Limits::max_state_memory)): the
/// `n² / 4` of every level's deal (see the module's doc), at least
/// [`MOST_CARDS`], and past that at most an eighth of the memory limit in
/// 4-byte cards. The census's table of long games (module `census`) keeps
/// to the same. A puzzle-sized deal keeps [`MOST_CARDS`]: only deals of
/// more than 1,024 cards have room for more.
pub(super) fn most_cards(cards: usize, max_memory: usize) -> usize {
    let nested = (cards / 2).saturating_mul(cards / 2);
    MOST_CARDS.max(nested.min(max_memory / 32))
}

/// Bits in the filter: a deal that is not remembered passes it about as
/// often as one bit in `FILTER_BITS / remembered` is set.
const FILTER_BITS: usize = 1024;

/// The winners of long sub-games, by deal.
#[derive(Debug)]
pub(super) struct Recall<C> {
    /// One bit for each remembered deal's [`Recall::slot`].
    filter: [u64; FILTER_BITS / 64],
    winners: FxHashMap<Key<C>, usize>,
    /// Cards held by the keys of `winners`.
    cards: usize,
    /// Most cards the keys may hold ([`most_cards`]).
    most: usize,
    /// The fewest cards of a remembered deal (`usize::MAX` while none is).
    fewest: usize,
}

impl<C> Recall<C> {
    /// An empty table for a deal of `cards` cards within a memory limit of
    /// `max_memory` bytes (see [`most_cards`]).
    pub(super) fn for_deal(cards: usize, max_memory: usize) -> Self {
        Self {
            filter: [0; FILTER_BITS / 64],
            winners: FxHashMap::default(),
            cards: 0,
            most: most_cards(cards, max_memory),
            fewest: usize::MAX,
        }
    }
}

impl<C: Label> Recall<C> {
    /// The filter's bit for a sub-game dealt `sizes[0]` cards to player 1
    /// and `sizes[1]` in all, whose highest card is `highest`: the top bits
    /// of one multiplication (Fibonacci hashing).
    fn slot([first, cards]: [usize; 2], highest: C) -> usize {
        let mixed = (highest.index() << 24 ^ first << 12 ^ cards) as u64;
        (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FILTER_BITS.trailing_zeros())) as usize
    }

    /// Whether a sub-game of `cards` cards may be remembered: only if it
    /// has at least as many cards as the smallest deal remembered. Tested
    /// first, as it nearly always fails:
    /// none is remembered, or the long sub-games remembered are larger
    /// than most.
    #[inline]
    pub(super) fn may_hold_size(&self, cards: usize) -> bool {
        cards >= self.fewest
    }

    /// Whether a sub-game so dealt may be remembered (see [`Recall::slot`]).
    #[inline]
    pub(super) fn may_hold(&self, sizes: [usize; 2], highest: C) -> bool {
        let slot = Self::slot(sizes, highest);
        self.filter[slot / 64] >> (slot % 64) & 1 != 0
    }

    /// The remembered winner of the sub-game dealt `key`, if any.
    pub(super) fn winner(&self, key: &Key<C>) -> Option<usize> {
        self.winners.get(key).copied()
    }

    /// Remembers that `winner` won the sub-game dealt `key`, unless the
    /// table is full.
    pub(super) fn remember(&mut self, key: Key<C>, winner: usize) {
        let sizes = key.sizes();
        if self.cards + sizes[1] > self.most {
            return;
        }
        let slot = Self::slot(sizes, key.highest());
        self.filter[slot / 64] |= 1 << (slot % 64);
        self.cards += sizes[1];
        self.fewest = self.fewest.min(sizes[1]);
        self.winners.insert(key, winner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(one: &[u8], two: &[u8]) -> Key<u8> {
        Key::new([one, &[]], [two, &[]])
    }

    #[test]
    fn remembers_exact_deals_only() {
        let mut recall = Recall::<u8>::for_deal(5, usize::MAX);
        assert!(!recall.may_hold_size(5));
        recall.remember(key(&[3, 1], &[9, 2, 4]), 1);
        assert!(recall.may_hold_size(5) && recall.may_hold([2, 5], 9));
        assert!(!recall.may_hold_size(4));
        assert_eq!(recall.winner(&key(&[3, 1], &[9, 2, 4])), Some(1));
        // The same cards in another order, or split otherwise, are another
        // deal, even where the filter cannot tell them apart.
        assert_eq!(recall.winner(&key(&[1, 3], &[9, 2, 4])), None);
        assert_eq!(recall.winner(&key(&[3, 1, 9], &[2, 4])), None);
    }

    /// A table of `most` cards holds deals of `most` cards together, and
    /// not one card more.
    fn fills_at(mut recall: Recall<u32>, most: usize) {
        let big: Vec<u32> = (0..most as u32 - 2).collect();
        let whole = Key::new([&big[..1], &[]], [&big[1..], &[]]);
        recall.remember(whole.clone(), 0);
        let pair = Key::new([&[7][..], &[]], [&[8][..], &[]]);
        recall.remember(pair.clone(), 1);
        assert_eq!((recall.winner(&whole), recall.winner(&pair)), (Some(0), Some(1)));
        let more = Key::new([&[9][..], &[]], [&[][..], &[]]);
        recall.remember(more.clone(), 1);
        assert_eq!(recall.winner(&more), None);
    }

    #[test]
    fn stops_remembering_when_full() {
        fills_at(Recall::for_deal(50, usize::MAX), MOST_CARDS);
        // n² / 4 past 1,024 cards.
        fills_at(Recall::for_deal(1030, usize::MAX), 515 * 515);
        fills_at(Recall::for_deal(1031, usize::MAX), 515 * 515);
        fills_at(Recall::for_deal(5000, usize::MAX), 2500 * 2500);
        // An eighth of the memory limit in 4-byte cards, but never less
        // than `MOST_CARDS`.
        fills_at(Recall::for_deal(5000, 32 << 20), 1 << 20);
        fills_at(Recall::for_deal(5000, 1000), MOST_CARDS);
        assert_eq!(most_cards(usize::MAX, usize::MAX), usize::MAX / 32);
    }
}
