//! The fast engines behind [`play`](super::play); the reasoning is in
//! `fast.md`, included in the [module docs](super).

use super::deal::Ranked;
use super::ring::{Rank, Ring};
use super::states::StateSet;
use super::{Budget, End, Exhausted, Outcome, PerPlayer, Player};

/// Runs `$body` with the type alias `R` bound to the narrowest rank type for
/// the deal.
macro_rules! with_rank_type {
    ($ranked:expr, $f:ident) => {{
        let cards = $ranked.values.len();
        if cards <= u8::CAPACITY {
            $f::<u8>
        } else if cards <= u16::CAPACITY {
            $f::<u16>
        } else {
            $f::<u32>
        }
    }};
}

fn rings<R: Rank>(ranked: &Ranked) -> PerPlayer<Ring<R>> {
    let cards = ranked.values.len();
    ranked.decks.clone().map(|deck| Ring::from_ranks(deck.into_iter().map(R::from_u32), cards))
}

/// The player holding the highest card of a non-empty game, and that card.
fn highest<R: Rank>(decks: &PerPlayer<Ring<R>>) -> (Player, R) {
    let one = decks.one.iter().max();
    let two = decks.two.iter().max();
    match (one, two) {
        (Some(one), Some(two)) if one > two => (Player::One, one),
        (Some(one), None) => (Player::One, one),
        (_, two) => (Player::Two, two.unwrap_or_default()),
    }
}

/// The winner when a deck is empty.
fn empty_deck_winner<R: Rank>(decks: &PerPlayer<Ring<R>>) -> Option<Player> {
    if decks.one.is_empty() {
        Some(Player::Two)
    } else if decks.two.is_empty() {
        Some(Player::One)
    } else {
        None
    }
}

fn same<R: Rank>(a: &PerPlayer<Ring<R>>, b: &PerPlayer<Ring<R>>) -> bool {
    a.one.len() == b.one.len() && a.one.iter().eq(b.one.iter()) && a.two.iter().eq(b.two.iter())
}

/// One round of plain Combat.
#[inline]
fn plain_round<R: Rank>(decks: &mut PerPlayer<Ring<R>>) {
    let (a, b) = (decks.one.pop(), decks.two.pop());
    if a > b {
        decks.one.push(a);
        decks.one.push(b);
    } else {
        decks.two.push(b);
        decks.two.push(a);
    }
}

fn outcome<R: Rank>(
    ranked: &Ranked,
    decks: &PerPlayer<Ring<R>>,
    winner: Option<Player>,
    end: End,
    rounds: u64,
) -> Outcome {
    fn ranks<R: Rank>(deck: &Ring<R>) -> impl DoubleEndedIterator<Item = u32> + '_ {
        deck.iter().map(|r| r.index() as u32)
    }
    let score = winner.map(|w| ranked.score(ranks(&decks[w])));
    let decks = decks.as_ref().map(|deck| ranked.cards(ranks(deck)));
    Outcome { winner, score, end, rounds, decks }
}

/// Plain Combat; see "Plain Combat" in `fast.md`.
pub(super) fn plain(ranked: &Ranked, budget: &mut Budget<'_>) -> Result<Outcome, Exhausted> {
    with_rank_type!(ranked, plain_with)(ranked, budget)
}

fn plain_with<R: Rank>(ranked: &Ranked, budget: &mut Budget<'_>) -> Result<Outcome, Exhausted> {
    let start = rings::<R>(ranked);
    let mut decks = start.clone();
    let (holder, high) = highest(&decks);
    let is_anchor = |decks: &PerPlayer<Ring<R>>| decks[holder].top() == Some(high);

    // Brent's cycle finding, with checkpoints and comparisons only at anchors.
    let mut rounds = 0u64;
    let mut saved: Option<(PerPlayer<Ring<R>>, u64)> = None;
    let (mut power, mut seen_since_saved) = (1u64, 0u64);
    let length = loop {
        if let Some(winner) = empty_deck_winner(&decks) {
            return Ok(outcome(ranked, &decks, Some(winner), End::EmptyDeck, rounds));
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
    Ok(outcome(ranked, &behind, None, End::Cycle { start: start + 1, length }, start + length))
}

/// Recursive Combat; see "Recursive Combat" in `fast.md`.
pub(super) fn recursive(ranked: &Ranked, budget: &mut Budget<'_>) -> Result<Outcome, Exhausted> {
    // Every sub-game has at least two cards fewer than its parent, so games
    // nest at most n / 2 deep. Deep nesting only happens with huge decks;
    // give those a stack to match.
    let depth = ranked.values.len() / 2 + 2;
    let stack = depth * 512;
    let mut solve = || with_rank_type!(ranked, recursive_with)(ranked, budget);
    if stack <= 1 << 20 {
        solve()
    } else {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(stack + (1 << 20))
                .spawn_scoped(scope, solve)
                .map_or_else(
                    |_| Err(Exhausted::Stack),
                    |thread| thread.join().unwrap_or(Err(Exhausted::Stack)),
                )
        })
    }
}

/// The buffers of one level of recursion, reused by every game at that level.
#[derive(Debug)]
struct Level<R> {
    decks: PerPlayer<Ring<R>>,
    seen: StateSet<R>,
}

impl<R: Rank> Default for Level<R> {
    fn default() -> Self {
        Self {
            decks: PerPlayer::new(Ring::with_room_for(0), Ring::with_room_for(0)),
            seen: StateSet::default(),
        }
    }
}

/// What every game shares.
struct Context<'a, 'b> {
    /// Cards a player must hold to recurse on each rank.
    need: &'a [u32],
    budget: &'a mut Budget<'b>,
    /// The top game's round number at each recorded anchor state.
    anchor_rounds: Vec<u64>,
}

/// How a game ended.
struct GameEnd {
    winner: Player,
    rounds: u64,
    /// For a repetition, the index of the recorded anchor state that came
    /// back.
    repeated: Option<usize>,
}

/// Plays one round of the game whose decks are `decks`, deciding sub-games
/// with the buffers in `deeper`.
#[inline]
fn round<R: Rank>(
    ctx: &mut Context<'_, '_>,
    decks: &mut PerPlayer<Ring<R>>,
    deeper: &mut [Level<R>],
) -> Result<(), Exhausted> {
    let (a, b) = (decks.one.pop(), decks.two.pop());
    let (need_a, need_b) = (ctx.need[a.index()] as usize, ctx.need[b.index()] as usize);
    let winner = if need_a <= decks.one.len() && need_b <= decks.two.len() {
        let (next, _) = deeper.split_first_mut().ok_or(Exhausted::Stack)?;
        let room = need_a + need_b;
        let high_one = next.decks.one.copy_top_of(&decks.one, need_a, room);
        let high_two = next.decks.two.copy_top_of(&decks.two, need_b, room);
        if high_one > high_two {
            // Player 1 holds the sub-game's highest card, so wins it.
            Player::One
        } else {
            game::<R, false>(ctx, deeper, Player::Two, high_two)?.winner
        }
    } else {
        Player::higher(a, b)
    };
    if winner == Player::One {
        decks.one.push(a);
        decks.one.push(b);
    } else {
        decks.two.push(b);
        decks.two.push(a);
    }
    ctx.budget.spend(1)
}

/// Plays the game whose decks are in `levels[0]` until a deck empties or a
/// recorded anchor state (before a round where `holder` draws `high`, the
/// game's highest card) comes back. `TOP` games record their anchor rounds.
fn game<R: Rank, const TOP: bool>(
    ctx: &mut Context<'_, '_>,
    levels: &mut [Level<R>],
    holder: Player,
    high: R,
) -> Result<GameEnd, Exhausted> {
    let (this, deeper) = levels.split_first_mut().ok_or(Exhausted::Stack)?;
    let Level { decks, seen } = this;
    seen.reset(decks.one.len() + decks.two.len());
    let mut rounds = 0u64;
    loop {
        if let Some(winner) = empty_deck_winner(decks) {
            return Ok(GameEnd { winner, rounds, repeated: None });
        }
        if decks[holder].top() == Some(high) {
            if let Some(index) = seen.insert(&decks.one.iter(), &decks.two.iter()) {
                return Ok(GameEnd { winner: Player::One, rounds, repeated: Some(index) });
            }
            if TOP {
                ctx.anchor_rounds.push(rounds);
            }
        }
        round(ctx, decks, deeper)?;
        rounds += 1;
    }
}

fn recursive_with<R: Rank>(ranked: &Ranked, budget: &mut Budget<'_>) -> Result<Outcome, Exhausted> {
    let cards = ranked.values.len();
    let mut levels: Vec<Level<R>> = (0..cards / 2 + 2).map(|_| Level::default()).collect();
    let start = rings::<R>(ranked);
    levels[0].decks = start.clone();
    let (holder, high) = highest(&start);
    let mut ctx = Context { need: &ranked.need, budget, anchor_rounds: Vec::new() };
    let end = game::<R, true>(&mut ctx, &mut levels, holder, high)?;
    let Some(index) = end.repeated else {
        return Ok(outcome(ranked, &levels[0].decks, Some(end.winner), End::EmptyDeck, end.rounds));
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
        let deck = |ranks: &[R]| Ring::from_ranks(ranks.iter().copied(), cards);
        (ctx.anchor_rounds[index - 1], PerPlayer::new(deck(one), deck(two)))
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
    Ok(outcome(ranked, &behind, Some(Player::One), End::Repetition, from + length))
}
