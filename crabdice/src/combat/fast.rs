//! Plain Combat, the engine behind [`play`](super::play) for
//! [`Variant::Plain`](super::Variant); the reasoning is in `fast.md`,
//! included in the [module docs](super).
//!
//! The engine is written once against [`Deck`] and compiled for the deck
//! layout that fits the deal (see [`ring`](super::ring)). The two decks of a
//! game are an array indexed by player (`0` or `1`), so the winner of a round
//! can be computed as a number and its cards pushed without a branch: the
//! winner of a random round is a coin flip, and a mispredicted branch costs
//! more than the rest of the round.

use super::deal::Labelled;
use super::ring::{ByteDeck, Deck, Label, Ring};
use super::{Budget, End, Exhausted, Outcome, PerPlayer, Player};

/// Both decks of a game, player 1's first.
type Pair<D> = [D; 2];

/// Which deck layout fits the deal, and runs `$f` with it.
macro_rules! with_deck {
    ($labelled:expr, $f:ident) => {{
        let largest = $labelled.largest;
        if u8::try_from(largest).is_ok() {
            $f::<ByteDeck>
        } else if u16::try_from(largest).is_ok() {
            $f::<Ring<u16>>
        } else {
            $f::<Ring<u32>>
        }
    }};
}

fn start<D: Deck>(labelled: &Labelled) -> Pair<D> {
    let room = labelled.decks.one.len() + labelled.decks.two.len();
    let deck = |cards: &Vec<u32>| D::from_labels(cards.iter().copied(), room);
    [deck(&labelled.decks.one), deck(&labelled.decks.two)]
}

fn player(index: usize) -> Player {
    if index == 0 { Player::One } else { Player::Two }
}

/// The index of the player holding the highest card, and that card.
fn highest<D: Deck>(decks: &Pair<D>) -> (usize, D::Card) {
    let one = decks[0].iter().max();
    let two = decks[1].iter().max();
    match (one, two) {
        (Some(one), Some(two)) if one > two => (0, one),
        (Some(one), None) => (0, one),
        (_, two) => (1, two.unwrap_or_default()),
    }
}

fn same<D: Deck>(a: &Pair<D>, b: &Pair<D>) -> bool {
    a[0].same(&b[0]) && a[1].same(&b[1])
}

/// Puts the round's cards under the winner's deck, winner's card first,
/// without branching on who won.
#[inline]
fn settle<D: Deck>(decks: &mut Pair<D>, a: D::Card, b: D::Card, winner: usize) {
    let cards = [a, b];
    let deck = &mut decks[winner];
    deck.push(cards[winner]);
    deck.push(cards[winner ^ 1]);
}

/// One round of plain Combat.
#[inline]
fn plain_round<D: Deck>(decks: &mut Pair<D>) {
    let (a, b) = (decks[0].pop(), decks[1].pop());
    settle(decks, a, b, usize::from(b > a));
}

fn outcome<D: Deck>(
    labelled: &Labelled,
    decks: &Pair<D>,
    winner: Option<usize>,
    end: End,
    rounds: u64,
) -> Outcome {
    let labels = |deck: &D| deck.iter().map(|card| card.index() as u32).collect::<Vec<_>>();
    let [one, two] = [labels(&decks[0]), labels(&decks[1])];
    let score = winner.map(|w| labelled.score([&one, &two][w].iter().copied()));
    let decks = PerPlayer::new(labelled.cards(one.into_iter()), labelled.cards(two.into_iter()));
    Outcome { winner: winner.map(player), score, end, rounds, decks }
}

/// The winner when a deck is empty.
#[inline]
fn empty_deck_winner<D: Deck>(decks: &Pair<D>) -> Option<usize> {
    if decks[0].is_empty() {
        Some(1)
    } else if decks[1].is_empty() {
        Some(0)
    } else {
        None
    }
}

/// Plain Combat; see "Plain Combat" in `fast.md`.
pub(super) fn plain(labelled: &Labelled, budget: &mut Budget<'_>) -> Result<Outcome, Exhausted> {
    with_deck!(labelled, plain_with)(labelled, budget)
}

fn plain_with<D: Deck>(labelled: &Labelled, budget: &mut Budget<'_>) -> Result<Outcome, Exhausted> {
    let start = start::<D>(labelled);
    let mut decks = start.clone();
    let (holder, high) = highest(&decks);
    let is_anchor = |decks: &Pair<D>| decks[holder].top() == Some(high);

    // Brent's cycle finding, with checkpoints and comparisons only at anchors.
    let mut rounds = 0u64;
    let mut saved: Option<(Pair<D>, u64)> = None;
    let (mut power, mut seen_since_saved) = (1u64, 0u64);
    let length = loop {
        if let Some(winner) = empty_deck_winner(&decks) {
            return Ok(outcome(labelled, &decks, Some(winner), End::EmptyDeck, rounds));
        }
        if is_anchor(&decks) {
            match &saved {
                Some((state, at)) if same(state, &decks) => break rounds - at,
                Some(_) if seen_since_saved < power => seen_since_saved += 1,
                _ => {
                    saved = Some((decks.clone(), rounds));
                    power = power.saturating_mul(2);
                    seen_since_saved = 1;
                }
            }
        }
        plain_round(&mut decks);
        rounds += 1;
        budget.spend(1)?;
    };

    // The cycle has `length` rounds; find where it starts. `behind` walks from
    // the deal, `ahead` runs `length` rounds in front: the decks agree from the
    // cycle's first round on, and at no round before it.
    let mut behind = start;
    let mut ahead = behind.clone();
    for _ in 0..length {
        plain_round(&mut ahead);
    }
    budget.spend(length)?;
    // First compare at anchors only, keeping the pair at the last anchor
    // that disagreed; the cycle starts after it.
    let (mut last_behind, mut last_ahead, mut last_round) = (behind.clone(), ahead.clone(), 0);
    let mut round = 0u64;
    loop {
        if is_anchor(&behind) {
            if same(&behind, &ahead) {
                break;
            }
            (last_behind, last_ahead, last_round) = (behind.clone(), ahead.clone(), round);
        }
        plain_round(&mut behind);
        plain_round(&mut ahead);
        round += 1;
    }
    budget.spend(round)?;
    let (mut behind, mut ahead, mut start) = (last_behind, last_ahead, last_round);
    while !same(&behind, &ahead) {
        plain_round(&mut behind);
        plain_round(&mut ahead);
        start += 1;
    }
    Ok(outcome(labelled, &behind, None, End::Cycle { start: start + 1, length }, start + length))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::combat::{Deal, Limits};

    fn play_with<D: Deck>(deal: &Deal) -> Outcome {
        let mut progress = |_| {};
        let mut budget = Budget::new(Limits::default(), &mut progress);
        plain_with::<D>(&deal.labelled(), &mut budget).unwrap()
    }

    fn deals() -> impl Strategy<Value = Deal> {
        (1u64..=40)
            .prop_flat_map(|n| (Just((1..=n).collect::<Vec<u64>>()).prop_shuffle(), 0..=n as usize))
            .prop_map(|(mut cards, split)| {
                let two = cards.split_off(split);
                Deal::new(cards, two).unwrap()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        // The byte decks are checked against the reference engine in
        // tests/combat.rs; the wide rings (used above 256 cards) must agree.
        #[test]
        fn every_deck_layout_plays_alike(deal in deals()) {
            let bytes = play_with::<ByteDeck>(&deal);
            prop_assert_eq!(&bytes, &play_with::<Ring<u16>>(&deal));
            prop_assert_eq!(&bytes, &play_with::<Ring<u32>>(&deal));
        }
    }
}
