//! Recursive Combat in bulk: the engine behind [`play`](super::play) for
//! [`Variant::Recursive`](super::Variant); the reasoning is in `fast.md`,
//! included in the [module docs](super).
//!
//! A deck is a ring buffer ([`Slots`]) addressed by two counters that only
//! grow: cards are drawn at `head` and won at `tail`, and a counter becomes a
//! slot by wrapping. For deals whose cards fit in a byte the ring is
//! `[u8; 256]` and wrapping is `as u8`, so no access is bounds-checked.
//!
//! [`bulk`] plays rounds in a tight loop with no unpredictable branch: it
//! writes the round's pair under *both* decks and moves only the winner's
//! `tail`, so the other write lands in the loser's free slots, where it is
//! harmless (a deck holds at most `n`, and the loser at most `n - 2` after a
//! draw, so two free slots always exist). The loop leaves only before a round
//! that starts a sub-game (rare), when a deck runs out, or before the round in
//! which the game's highest card is drawn, where the state is checked for
//! repetition; the number of rounds until then is known in advance, so that
//! costs nothing per round.

use super::deal::Labelled;
use super::ring::Label;
use super::states::StateSet;
use super::{Budget, End, Exhausted, Outcome, PerPlayer, Player};

/// Ring storage for one deck.
trait Slots: Sized {
    /// The label type.
    type Card: Label;
    /// An empty ring for a game of up to `cards` cards.
    fn with_room_for(cards: usize) -> Self;
    /// Whether the ring can hold a game of `cards` cards.
    fn fits(&self, cards: usize) -> bool;
    /// The card at counter `at`.
    fn get(&self, at: usize) -> Self::Card;
    /// Stores a card at counter `at`.
    fn set(&mut self, at: usize, card: Self::Card);
    /// The cards at counters `head..tail`, as at most two slices.
    fn slices(&self, head: usize, tail: usize) -> [&[Self::Card]; 2];
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

/// 256 one-byte slots: wrapping is a cast.
struct ByteRing(Box<[u8; 256]>);

impl Slots for ByteRing {
    type Card = u8;
    fn with_room_for(_: usize) -> Self {
        Self(Box::new([0; 256]))
    }
    fn fits(&self, cards: usize) -> bool {
        cards <= 255
    }
    #[inline]
    fn get(&self, at: usize) -> u8 {
        self.0[usize::from(at as u8)]
    }
    #[inline]
    fn set(&mut self, at: usize, card: u8) {
        self.0[usize::from(at as u8)] = card;
    }
    fn slices(&self, head: usize, tail: usize) -> [&[u8]; 2] {
        ranges(head, tail, 256).map(|range| &self.0[range])
    }
}

/// A power-of-two number of wider slots, wrapped with a mask.
struct WideRing<C> {
    slots: Vec<C>,
    mask: usize,
}

impl<C: Label> Slots for WideRing<C> {
    type Card = C;
    fn with_room_for(cards: usize) -> Self {
        let size = cards.max(2).next_power_of_two();
        Self { slots: vec![C::default(); size], mask: size - 1 }
    }
    fn fits(&self, cards: usize) -> bool {
        cards <= self.slots.len()
    }
    #[inline]
    fn get(&self, at: usize) -> C {
        self.slots[at & self.mask]
    }
    #[inline]
    fn set(&mut self, at: usize, card: C) {
        self.slots[at & self.mask] = card;
    }
    fn slices(&self, head: usize, tail: usize) -> [&[C]; 2] {
        ranges(head, tail, self.slots.len()).map(|range| &self.slots[range])
    }
}

/// A deck: the cards at counters `head..tail`, top first.
struct Deck<S> {
    slots: S,
    head: usize,
    tail: usize,
}

impl<S: Slots> Deck<S> {
    fn len(&self) -> usize {
        self.tail - self.head
    }

    fn cards(&self) -> impl Iterator<Item = S::Card> + '_ {
        (self.head..self.tail).map(|at| self.slots.get(at))
    }

    /// Replaces the cards, making sure a game of `room` cards fits.
    fn load(&mut self, cards: impl Iterator<Item = S::Card>, room: usize) {
        if !self.slots.fits(room) {
            self.slots = S::with_room_for(room);
        }
        self.head = 0;
        self.tail = 0;
        for card in cards {
            self.slots.set(self.tail, card);
            self.tail += 1;
        }
    }
}

/// The buffers of one level of recursion, reused by every game at that level.
struct Level<S: Slots> {
    decks: [Deck<S>; 2],
    seen: StateSet<S::Card>,
}

impl<S: Slots> Level<S> {
    fn new(room: usize) -> Self {
        let deck = || Deck { slots: S::with_room_for(room), head: 0, tail: 0 };
        Self { decks: [deck(), deck()], seen: StateSet::default() }
    }

    fn load(
        &mut self,
        one: impl Iterator<Item = S::Card>,
        two: impl Iterator<Item = S::Card>,
        room: usize,
    ) {
        self.decks[0].load(one, room);
        self.decks[1].load(two, room);
    }

    fn same(&self, other: &Self) -> bool {
        self.decks
            .iter()
            .zip(&other.decks)
            .all(|(a, b)| a.len() == b.len() && a.cards().eq(b.cards()))
    }
}

/// What every game shares.
struct Context<'a, 'b, C> {
    /// Cards a player must hold after drawing each label to recurse on it.
    need: &'a [u32],
    budget: &'a mut Budget<'b>,
    /// The top game's round number at each recorded anchor state.
    anchor_rounds: Vec<u64>,
    _cards: std::marker::PhantomData<C>,
}

/// Why [`play`] stopped.
enum Stop {
    /// A deck ran out; the other player (this index) won.
    Empty(usize),
    /// The state recorded with this index came back.
    Repeated(usize),
    /// The round limit was reached.
    Limit,
}

/// Cards a player must hold after drawing `card` to recurse on it (at most
/// `u32::MAX`).
#[inline]
fn need<C: Label>(table: &[u32], card: C) -> usize {
    table.get(card.index()).map_or(u32::MAX, |&n| n) as usize
}

/// Plays at most `rounds` rounds while no sub-game is due and both decks
/// have cards; returns the rounds played.
#[inline]
fn bulk<S: Slots>(decks: &mut [Deck<S>; 2], table: &[u32], rounds: usize) -> usize {
    let [one, two] = decks;
    let (mut head_one, mut tail_one, mut head_two, mut tail_two) =
        (one.head, one.tail, two.head, two.tail);
    let mut played = 0;
    while played < rounds && head_one < tail_one && head_two < tail_two {
        let (a, b) = (one.slots.get(head_one), two.slots.get(head_two));
        // A sub-game is due when each player needs fewer cards than it holds
        // before the draw. Both needs and lengths are below 2^63, so
        // `need - length` wraps to a number with its top bit set exactly when
        // `need < length`: one `&` tests both players without a branch each
        // (either test alone is a coin flip; both together are rare).
        let short_one = need(table, a).wrapping_sub(tail_one - head_one);
        let short_two = need(table, b).wrapping_sub(tail_two - head_two);
        if (short_one & short_two) >> (usize::BITS - 1) != 0 {
            break;
        }
        head_one += 1;
        head_two += 1;
        let two_wins = b > a;
        one.slots.set(tail_one, a);
        one.slots.set(tail_one + 1, b);
        two.slots.set(tail_two, b);
        two.slots.set(tail_two + 1, a);
        tail_one += 2 * usize::from(!two_wins);
        tail_two += 2 * usize::from(two_wins);
        played += 1;
    }
    (one.head, one.tail, two.head, two.tail) = (head_one, tail_one, head_two, tail_two);
    played
}

/// The index of the player holding the highest card, and the card's
/// counter in that player's deck.
fn highest<S: Slots>(decks: &[Deck<S>; 2]) -> (usize, usize) {
    let mut best: Option<(S::Card, usize, usize)> = None;
    for (player, deck) in decks.iter().enumerate() {
        for (card, at) in deck.cards().zip(deck.head..) {
            if best.is_none_or(|(high, _, _)| card > high) {
                best = Some((card, player, at));
            }
        }
    }
    best.map_or((0, 0), |(_, player, at)| (player, at))
}

/// Plays the game at `levels[depth]` (sub-games use the levels below, added
/// as needed) for at most `limit` rounds, until a deck empties or, if
/// `check`, until a recorded anchor state comes back. `TOP` records the
/// rounds of the anchors. The game's highest card is in player `holder`'s
/// deck at counter `high_at`.
fn play<S: Slots, const TOP: bool>(
    ctx: &mut Context<'_, '_, S::Card>,
    levels: &mut Vec<Level<S>>,
    depth: usize,
    (holder, mut high_at): (usize, usize),
    limit: u64,
    check: bool,
) -> Result<(Stop, u64), Exhausted> {
    let this = &mut levels[depth];
    let cards = this.decks[0].len() + this.decks[1].len();
    if check {
        this.seen.reset(cards);
    }
    let mut rounds = 0u64;
    loop {
        let this = &mut levels[depth];
        if this.decks[0].len() == 0 {
            return Ok((Stop::Empty(1), rounds));
        }
        if this.decks[1].len() == 0 {
            return Ok((Stop::Empty(0), rounds));
        }
        if rounds >= limit {
            return Ok((Stop::Limit, rounds));
        }
        let left = usize::try_from(limit - rounds).unwrap_or(usize::MAX);
        let until_high = high_at - this.decks[holder].head;
        if until_high == 0 {
            // The highest card is about to be drawn: an anchor.
            if check {
                let [one, two] = &this.decks;
                let [a, b] = one.slots.slices(one.head, one.tail);
                let [c, d] = two.slots.slices(two.head, two.tail);
                if let Some(index) = this.seen.insert_parts(one.len(), [a, b, c, d]) {
                    return Ok((Stop::Repeated(index), rounds));
                }
                if TOP {
                    ctx.anchor_rounds.push(rounds);
                }
            }
            // It cannot start a sub-game and wins its round, so it goes
            // under its holder's deck first.
            high_at = this.decks[holder].tail;
            bulk(&mut this.decks, ctx.need, 1);
            rounds += 1;
            ctx.budget.spend(1)?;
            continue;
        }
        let most = until_high.min(left);
        let played = bulk(&mut this.decks, ctx.need, most);
        rounds += played as u64;
        ctx.budget.spend(played as u64)?;
        let [one, two] = &this.decks;
        if played == most || one.len() == 0 || two.len() == 0 {
            continue;
        }
        // The next round is decided by a sub-game on the cards under the
        // two drawn.
        let drawn = [one.slots.get(one.head), two.slots.get(two.head)];
        let winner = match deal_sub_game(ctx.need, levels, depth, drawn) {
            Some(high_at) => {
                match play::<S, false>(ctx, levels, depth + 1, (1, high_at), u64::MAX, true)?.0 {
                    Stop::Empty(winner) => winner,
                    Stop::Repeated(_) | Stop::Limit => 0,
                }
            }
            // Player 1 holds the sub-game's highest card, so wins it.
            None => 0,
        };
        let this = &mut levels[depth];
        for deck in &mut this.decks {
            deck.head += 1;
        }
        let deck = &mut this.decks[winner];
        deck.slots.set(deck.tail, drawn[winner]);
        deck.slots.set(deck.tail + 1, drawn[winner ^ 1]);
        deck.tail += 2;
        rounds += 1;
        ctx.budget.spend(1)?;
    }
}

/// Deals the sub-game started by the cards `drawn` (still on top of the
/// decks at `levels[depth]`) into `levels[depth + 1]`, unless player 1 holds
/// its highest card. Returns where player 2's highest card is.
fn deal_sub_game<S: Slots>(
    table: &[u32],
    levels: &mut Vec<Level<S>>,
    depth: usize,
    drawn: [S::Card; 2],
) -> Option<usize> {
    /// The `count` cards under player `player`'s top card.
    fn sub<S: Slots>(
        this: &Level<S>,
        player: usize,
        count: usize,
    ) -> impl Iterator<Item = S::Card> + '_ {
        let deck = &this.decks[player];
        (deck.head + 1..deck.head + 1 + count).map(move |at| deck.slots.get(at))
    }
    let counts = drawn.map(|card| need(table, card));
    let this = &levels[depth];
    let (high_one, high_two) = (sub(this, 0, counts[0]).max(), sub(this, 1, counts[1]).max());
    if high_one > high_two {
        return None;
    }
    let cards = counts[0] + counts[1];
    if levels.len() == depth + 1 {
        levels.push(Level::new(cards));
    }
    let (upper, lower) = levels.split_at_mut(depth + 1);
    let (this, next) = (&upper[depth], &mut lower[0]);
    next.load(sub(this, 0, counts[0]), sub(this, 1, counts[1]), cards);
    next.decks[1].cards().position(|c| Some(c) == high_two)
}

fn outcome<S: Slots>(
    labelled: &Labelled,
    level: &Level<S>,
    winner: Option<usize>,
    end: End,
    rounds: u64,
) -> Outcome {
    let labels = |deck: &Deck<S>| deck.cards().map(|c| c.index() as u32).collect::<Vec<_>>();
    let [one, two] = [labels(&level.decks[0]), labels(&level.decks[1])];
    let score = winner.map(|w| labelled.score([&one, &two][w].iter().copied()));
    let player = |w: usize| if w == 0 { Player::One } else { Player::Two };
    let decks = PerPlayer::new(labelled.cards(one.into_iter()), labelled.cards(two.into_iter()));
    Outcome { winner: winner.map(player), score, end, rounds, decks }
}

/// Recursive Combat; see "Recursive Combat" in `fast.md`.
pub(super) fn recursive(
    labelled: &Labelled,
    budget: &mut Budget<'_>,
) -> Result<Outcome, Exhausted> {
    // Every sub-game has at least two cards fewer than its parent, so games
    // nest at most n / 2 deep. Deep nesting only happens with huge decks;
    // give those a stack to match.
    let depth = usize::midpoint(labelled.decks.one.len(), labelled.decks.two.len()) + 2;
    let stack = depth * 512;
    let largest = labelled.largest;
    let mut solve = || {
        if u8::try_from(largest).is_ok() {
            recursive_with::<ByteRing>(labelled, budget)
        } else if u16::try_from(largest).is_ok() {
            recursive_with::<WideRing<u16>>(labelled, budget)
        } else {
            recursive_with::<WideRing<u32>>(labelled, budget)
        }
    };
    if stack <= 1 << 20 {
        solve()
    } else {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(stack + (1 << 20))
                .spawn_scoped(scope, solve)
                .map_or(Err(Exhausted::Stack), |thread| {
                    thread.join().unwrap_or(Err(Exhausted::Stack))
                })
        })
    }
}

fn recursive_with<S: Slots>(
    labelled: &Labelled,
    budget: &mut Budget<'_>,
) -> Result<Outcome, Exhausted> {
    let label = |&l: &u32| S::Card::from_u32(l);
    let (one, two) = (&labelled.decks.one, &labelled.decks.two);
    let cards = one.len() + two.len();
    let mut levels = vec![Level::<S>::new(cards)];
    levels[0].load(one.iter().map(label), two.iter().map(label), cards);
    let mut ctx = Context {
        need: &labelled.need,
        budget,
        anchor_rounds: Vec::new(),
        _cards: std::marker::PhantomData,
    };
    let high = highest(&levels[0].decks);
    let (stop, rounds) = play::<S, true>(&mut ctx, &mut levels, 0, high, u64::MAX, true)?;
    let index = match stop {
        Stop::Empty(winner) => {
            return Ok(outcome(labelled, &levels[0], Some(winner), End::EmptyDeck, rounds));
        }
        Stop::Repeated(index) => index,
        Stop::Limit => unreachable!("the top game is played without a round limit"),
    };

    // The decks before round `rounds` equal those recorded at anchor
    // `index`: the game cycles with this length. It really ended the first
    // time any state came back, somewhere after the previous anchor (which
    // is outside the cycle, or it would have come back first). Replay from
    // there with a second copy `length` rounds ahead; the first round where
    // the two agree starts the cycle. Each copy takes its turn at level 0.
    let length = rounds - ctx.anchor_rounds[index];
    let (mut from, state): (u64, [Vec<S::Card>; 2]) = if index == 0 {
        (0, [one.iter().map(label).collect(), two.iter().map(label).collect()])
    } else {
        let (one, two) = levels[0].seen.get(index - 1);
        (ctx.anchor_rounds[index - 1], [one.to_vec(), two.to_vec()])
    };
    let mut behind = Level::<S>::new(cards);
    for level in [&mut levels[0], &mut behind] {
        level.load(state[0].iter().copied(), state[1].iter().copied(), cards);
    }
    // Level 0 runs `length` rounds ahead; then both copies take turns there.
    let high = highest(&levels[0].decks);
    play::<S, false>(&mut ctx, &mut levels, 0, high, length, false)?;
    while !levels[0].same(&behind) {
        for _ in 0..2 {
            std::mem::swap(&mut levels[0], &mut behind);
            let high = highest(&levels[0].decks);
            play::<S, false>(&mut ctx, &mut levels, 0, high, 1, false)?;
        }
        from += 1;
    }
    Ok(outcome(labelled, &behind, Some(0), End::Repetition, from + length))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::combat::{Deal, Limits};

    /// Plays `one` against `two` with the ring layout `S`.
    fn play_with<S: Slots>(deal: &Deal) -> Outcome {
        let mut progress = |_| {};
        let mut budget = Budget::new(Limits::default(), &mut progress);
        recursive_with::<S>(&deal.labelled(), &mut budget).unwrap()
    }

    fn deals() -> impl Strategy<Value = Deal> {
        (1u64..=24)
            .prop_flat_map(|n| (Just((1..=n).collect::<Vec<u64>>()).prop_shuffle(), 0..=n as usize))
            .prop_map(|(mut cards, split)| {
                let two = cards.split_off(split);
                Deal::new(cards, two).unwrap()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        // The byte rings are checked against the reference engine in
        // tests/combat.rs; the wide rings (used above 256 cards) must agree
        // with them move for move.
        #[test]
        fn every_ring_layout_plays_alike(deal in deals()) {
            let bytes = play_with::<ByteRing>(&deal);
            prop_assert_eq!(&bytes, &play_with::<WideRing<u16>>(&deal));
            prop_assert_eq!(&bytes, &play_with::<WideRing<u32>>(&deal));
        }
    }
}
