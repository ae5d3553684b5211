//! The fast engines behind [`play`](super::play); the reasoning is in
//! `fast.md`, included in the [module docs](super).
//!
//! Both engines are written once against [`Deck`] and compiled for the deck
//! layout that fits the deal (see [`ring`](super::ring)). The two decks of a
//! game are an array indexed by player (`0` or `1`), so the winner of a round
//! can be computed as a number and its cards pushed without a branch: the
//! winner of a random round is a coin flip, and a mispredicted branch costs
//! more than the rest of the round.

use super::deal::Labelled;
use super::ring::{ByteDeck, Deck, Label, Ring};
use super::states::StateSet;
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
    let mut solve = || with_deck!(labelled, recursive_with)(labelled, budget);
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

/// The buffers of one level of recursion, reused by every game at that level.
#[derive(Debug)]
struct Level<D: Deck> {
    decks: Pair<D>,
    seen: StateSet<D::Card>,
}

impl<D: Deck> Level<D> {
    fn new() -> Self {
        Self { decks: [D::with_room_for(0), D::with_room_for(0)], seen: StateSet::default() }
    }
}

/// What every game shares.
struct Context<'a, 'b, C> {
    /// Cards a player must hold to recurse on each label.
    need: &'a [u32],
    budget: &'a mut Budget<'b>,
    /// The top game's round number at each recorded anchor state.
    anchor_rounds: Vec<u64>,
    /// Scratch space for one state, both decks back to back.
    record: Vec<C>,
}

/// How a game ended.
struct GameEnd {
    winner: usize,
    rounds: u64,
    /// For a repetition, the index of the recorded anchor state that came
    /// back.
    repeated: Option<usize>,
}

/// Plays one round of the game whose decks are `decks`, deciding sub-games
/// with the buffers in `deeper`.
#[inline]
fn round<D: Deck>(
    ctx: &mut Context<'_, '_, D::Card>,
    decks: &mut Pair<D>,
    deeper: &mut [Level<D>],
) -> Result<(), Exhausted> {
    let (a, b) = (decks[0].pop(), decks[1].pop());
    let need = |card: D::Card| ctx.need.get(card.index()).map_or(usize::MAX, |&n| n as usize);
    let (need_a, need_b) = (need(a), need(b));
    let winner = if need_a <= decks[0].len() && need_b <= decks[1].len() {
        let (next, _) = deeper.split_first_mut().ok_or(Exhausted::Stack)?;
        let room = need_a + need_b;
        let high_one = next.decks[0].copy_top_of(&decks[0], need_a, room);
        let high_two = next.decks[1].copy_top_of(&decks[1], need_b, room);
        if high_one > high_two {
            // Player 1 holds the sub-game's highest card, so wins it.
            0
        } else {
            game::<D, false>(ctx, deeper, 1, high_two)?.winner
        }
    } else {
        usize::from(b > a)
    };
    settle(decks, a, b, winner);
    ctx.budget.spend(1)
}

/// Records the state of `decks` in `seen`; returns the index of an earlier
/// equal state, if any.
fn record<D: Deck>(
    record: &mut Vec<D::Card>,
    seen: &mut StateSet<D::Card>,
    decks: &Pair<D>,
) -> Option<usize> {
    record.clear();
    for deck in decks {
        let (front, back) = deck.slices();
        record.extend_from_slice(front);
        record.extend_from_slice(back);
    }
    seen.insert(decks[0].len(), record)
}

/// Plays the game whose decks are in `levels[0]` until a deck empties or a
/// recorded anchor state (before a round where player `holder` draws `high`,
/// the game's highest card) comes back. `TOP` games record their anchor
/// rounds.
fn game<D: Deck, const TOP: bool>(
    ctx: &mut Context<'_, '_, D::Card>,
    levels: &mut [Level<D>],
    holder: usize,
    high: D::Card,
) -> Result<GameEnd, Exhausted> {
    let (this, deeper) = levels.split_first_mut().ok_or(Exhausted::Stack)?;
    let Level { decks, seen } = this;
    seen.reset(decks[0].len() + decks[1].len());
    let mut rounds = 0u64;
    let end = loop {
        if let Some(winner) = empty_deck_winner(decks) {
            break GameEnd { winner, rounds, repeated: None };
        }
        if decks[holder].top() == Some(high) {
            if let Some(index) = record(&mut ctx.record, seen, decks) {
                break GameEnd { winner: 0, rounds, repeated: Some(index) };
            }
            if TOP {
                ctx.anchor_rounds.push(rounds);
            }
        }
        round(ctx, decks, deeper)?;
        rounds += 1;
    };
    Ok(end)
}

fn recursive_with<D: Deck>(
    labelled: &Labelled,
    budget: &mut Budget<'_>,
) -> Result<Outcome, Exhausted> {
    let cards = labelled.decks.one.len() + labelled.decks.two.len();
    let mut levels: Vec<Level<D>> = (0..cards / 2 + 2).map(|_| Level::new()).collect();
    let start = start::<D>(labelled);
    levels[0].decks.clone_from(&start);
    let (holder, high) = highest(&start);
    let mut ctx = Context {
        need: &labelled.need,
        budget,
        anchor_rounds: Vec::new(),
        record: Vec::with_capacity(cards),
    };
    let end = game::<D, true>(&mut ctx, &mut levels, holder, high)?;
    let Some(index) = end.repeated else {
        return Ok(outcome(
            labelled,
            &levels[0].decks,
            Some(end.winner),
            End::EmptyDeck,
            end.rounds,
        ));
    };

    // The decks before round `end.rounds` equal those recorded at anchor
    // `index`: the game cycles with this length. It really ended the first
    // time any state came back, somewhere after the previous anchor (which
    // is outside the cycle, or it would have come back first). Replay from
    // there with a second copy `length` rounds ahead; the first round where
    // the two agree starts the cycle.
    let length = end.rounds - ctx.anchor_rounds[index];
    let (mut from, mut behind) = if index == 0 {
        (0, start)
    } else {
        let (one, two) = levels[0].seen.get(index - 1);
        let deck =
            |labels: &[D::Card]| D::from_labels(labels.iter().map(|l| l.index() as u32), cards);
        (ctx.anchor_rounds[index - 1], [deck(one), deck(two)])
    };
    let deeper = &mut levels[1..];
    let mut ahead = behind.clone();
    for _ in 0..length {
        round(&mut ctx, &mut ahead, deeper)?;
    }
    while !same(&behind, &ahead) {
        round(&mut ctx, &mut behind, deeper)?;
        round(&mut ctx, &mut ahead, deeper)?;
        from += 1;
    }
    Ok(outcome(labelled, &behind, Some(0), End::Repetition, from + length))
}
