//! A model of the fastest public Recursive Combat solution, written from its
//! published description, kept only to measure crabdice against on this
//! machine. **It is not exact**: it remembers each state by a two-number
//! fingerprint (both decks' running scores), so two different states with
//! equal scores look alike; on about 1-3% of random 50-card deals that ends a
//! game too early and gives a wrong answer. crabdice never does this.
//!
//! Its parts: fixed 64-slot ring decks of bytes that keep their score up to
//! date as cards move, the "player 1 holds the highest card" shortcut, and a
//! hash set of fingerprints per round, with one set per recursion depth
//! reused across games.

use rustc_hash::FxHashSet;

#[derive(Clone, Copy)]
struct Deck {
    cards: [u8; 64],
    head: u8,
    len: u8,
    sum: u32,
    score: u32,
}

impl Deck {
    fn new(cards: &[u8]) -> Self {
        let mut deck = Self { cards: [0; 64], head: 0, len: 0, sum: 0, score: 0 };
        for &c in cards {
            deck.push(c);
        }
        deck
    }

    #[inline]
    fn pop(&mut self) -> u8 {
        let card = self.cards[(self.head & 63) as usize];
        self.score -= u32::from(card) * u32::from(self.len);
        self.sum -= u32::from(card);
        self.head = self.head.wrapping_add(1) & 63;
        self.len -= 1;
        card
    }

    #[inline]
    fn push(&mut self, card: u8) {
        self.cards[(self.head.wrapping_add(self.len) & 63) as usize] = card;
        self.sum += u32::from(card);
        self.score += self.sum;
        self.len += 1;
    }

    fn copy_top(&self, count: u8) -> Self {
        let mut deck = Self { cards: [0; 64], head: 0, len: 0, sum: 0, score: 0 };
        for i in 0..count {
            deck.push(self.cards[(self.head.wrapping_add(i) & 63) as usize]);
        }
        deck
    }

    fn max(&self) -> u8 {
        (0..self.len)
            .map(|i| self.cards[(self.head.wrapping_add(i) & 63) as usize])
            .max()
            .unwrap_or(0)
    }
}

/// True when player 1 wins.
fn game(
    one: &mut Deck,
    two: &mut Deck,
    seen: &mut Vec<FxHashSet<(u32, u32)>>,
    depth: usize,
    top: bool,
) -> bool {
    if !top && one.max() > two.max() {
        return true;
    }
    if seen.len() <= depth {
        seen.push(FxHashSet::default());
    }
    seen[depth].clear();
    while one.len > 0 && two.len > 0 {
        if !seen[depth].insert((one.score, two.score)) {
            return true;
        }
        let (a, b) = (one.pop(), two.pop());
        let one_wins = if one.len >= a && two.len >= b {
            let (mut sub_one, mut sub_two) = (one.copy_top(a), two.copy_top(b));
            game(&mut sub_one, &mut sub_two, seen, depth + 1, false)
        } else {
            a > b
        };
        if one_wins {
            one.push(a);
            one.push(b);
        } else {
            two.push(b);
            two.push(a);
        }
    }
    two.len == 0
}

/// Both decks of a deal as the model takes them (the seeded and corpus
/// deals' cards all fit in a byte).
pub fn decks(deal: &crabdice::Deal) -> (Vec<u8>, Vec<u8>) {
    let bytes = |deck: &[u64]| deck.iter().map(|&card| card as u8).collect();
    (bytes(&deal.decks().one), bytes(&deal.decks().two))
}

/// The winner's score under Recursive Combat, as the public solution finds it.
pub fn recursive_combat(one: &[u8], two: &[u8]) -> u32 {
    let (mut one, mut two) = (Deck::new(one), Deck::new(two));
    let mut seen = Vec::new();
    if game(&mut one, &mut two, &mut seen, 0, true) { one.score } else { two.score }
}

/// The winner's score under plain Combat, with the same decks.
pub fn combat(one: &[u8], two: &[u8]) -> u32 {
    let (mut one, mut two) = (Deck::new(one), Deck::new(two));
    while one.len > 0 && two.len > 0 {
        let (a, b) = (one.pop(), two.pop());
        if a > b {
            one.push(a);
            one.push(b);
        } else {
            two.push(b);
            two.push(a);
        }
    }
    one.score.max(two.score)
}
