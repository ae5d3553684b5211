//! # The literal engine: one game loop, a pluggable round rule
//!
//! This engine plays the rules exactly as written, round by round and game by
//! game, and reports every step to an [`Observer`]. Plain and Recursive
//! Combat share one loop; what differs is a [`RoundRule`]:
//!
//! | question                          | plain   | recursive                               |
//! |-----------------------------------|---------|-----------------------------------------|
//! | does a repeated state end a game? | no      | yes, player 1 wins                      |
//! | who wins a round?                 | higher  | a sub-game when both hold enough cards, |
//! |                                   |         | else higher                             |
//!
//! Sub-games are frames on an explicit stack rather than recursive calls, so
//! deep recursion on huge decks cannot overflow the thread's stack. Every
//! game keeps an exact [`StateSet`] of the states it has seen. That is
//! memory in proportion to the rounds, so the engine counts what the games
//! in progress hold (decks and states, as allocated) and gives up past
//! [`Limits::max_state_memory`] rather than exhaust the machine. A game that
//! ends leaves its (emptied) store to the next game to start, so the tens
//! of thousands of short sub-games of a heavy deal do not each grow a new
//! one; a kept store stays counted.
//!
//! A plain game that cycles never ends by itself: the fast engine finds the
//! cycle (with constant memory) and this loop stops where it begins to
//! repeat, so the log shows every round up to the first repeated state. The
//! fast engine looks first, for up to a million rounds (a few
//! milliseconds). A game that outlasts that look is played from its first
//! round at once, keeping every state, as the repetition rule does, so its
//! log starts at once too; once its states would hold 64 MiB, the fast
//! engine looks on to the game's end, and the states are forgotten. If a
//! limit on rounds stops the fast engine (it plays more rounds than the
//! game, to find where the cycle starts), the loop keeps every state and
//! stops at the first that repeats or at the limit: the log then holds
//! every round the limit allows, as under Recursive rules.

use std::collections::VecDeque;

use super::states::StateSet;
use super::{
    Budget, Card, Deal, End, Exhausted, Limits, Outcome, PerPlayer, Player, Report, Variant,
};
use crate::trace::{Event, Observer};

/// How a round is decided and when a game ends early: the one place where
/// the variants differ.
trait RoundRule {
    /// Whether a game ends, won by player 1, when its decks repeat.
    const REPETITION_ENDS_GAME: bool;
    /// Given the cards drawn and the decks after the draw, the sizes of the
    /// sub-game's decks if the round is decided by a sub-game.
    fn sub_game(
        drawn: PerPlayer<Card>,
        decks: &PerPlayer<VecDeque<Card>>,
    ) -> Option<PerPlayer<usize>>;
}

struct PlainRule;
impl RoundRule for PlainRule {
    const REPETITION_ENDS_GAME: bool = false;
    fn sub_game(_: PerPlayer<Card>, _: &PerPlayer<VecDeque<Card>>) -> Option<PerPlayer<usize>> {
        None
    }
}

struct RecursiveRule;
impl RoundRule for RecursiveRule {
    const REPETITION_ENDS_GAME: bool = true;
    fn sub_game(
        drawn: PerPlayer<Card>,
        decks: &PerPlayer<VecDeque<Card>>,
    ) -> Option<PerPlayer<usize>> {
        let enough = |p: Player| decks[p].len() as u64 >= drawn[p];
        (enough(Player::One) && enough(Player::Two))
            .then(|| PerPlayer::new(drawn.one as usize, drawn.two as usize))
    }
}

/// One game in progress.
struct Frame {
    game: u64,
    decks: PerPlayer<VecDeque<Card>>,
    round: u64,
    /// Cards drawn in the current round, while a sub-game decides it.
    drawn: PerPlayer<Card>,
    seen: Seen,
    /// The frame's memory as last counted against the limit.
    counted: usize,
}

/// The states a game has seen: one byte a card when every card fits in a
/// byte (every puzzle input), else the cards themselves.
enum Seen {
    Bytes(StateSet<u8>),
    Cards(StateSet<Card>),
}

impl Seen {
    fn footprint(&self) -> usize {
        match self {
            Self::Bytes(set) => set.footprint(),
            Self::Cards(set) => set.footprint(),
        }
    }
}

/// The largest state store kept for the next game when a game ends. A
/// heavy deal plays tens of thousands of short sub-games; giving each the
/// store of the last one to end, instead of a new one that grows by
/// doubling, made `--json` on the heaviest corpus deals about 25% faster.
/// Larger stores are freed, so that what one long game needed is not held
/// for the rest of the deal.
const KEPT_STORE: usize = 1 << 20;

impl Frame {
    /// A game on `decks`, storing its states in `seen` (emptied first).
    fn new(game: u64, decks: PerPlayer<VecDeque<Card>>, seen: Option<Seen>) -> Self {
        let cards = decks.one.len() + decks.two.len();
        let bytes = decks.one.iter().chain(&decks.two).all(|&card| u8::try_from(card).is_ok());
        let seen = match (bytes, seen) {
            (true, Some(Seen::Bytes(mut set))) => {
                set.reset(cards);
                Seen::Bytes(set)
            }
            (false, Some(Seen::Cards(mut set))) => {
                set.reset(cards);
                Seen::Cards(set)
            }
            (true, _) => Seen::Bytes(StateSet::new(cards)),
            (false, _) => Seen::Cards(StateSet::new(cards)),
        };
        Self { game, decks, round: 0, drawn: PerPlayer::default(), seen, counted: 0 }
    }

    /// The bytes the frame holds allocated: its decks and its states.
    fn footprint(&self) -> usize {
        let decks = (self.decks.one.capacity() + self.decks.two.capacity()) * size_of::<Card>();
        decks + self.seen.footprint()
    }

    /// The winner, if a deck is empty.
    #[inline]
    fn emptied(&self) -> Option<(Player, End)> {
        if self.decks.one.is_empty() {
            Some((Player::Two, End::EmptyDeck))
        } else if self.decks.two.is_empty() {
            Some((Player::One, End::EmptyDeck))
        } else {
            None
        }
    }

    /// Forgets the states the game has seen, freeing their memory.
    fn forget_states(&mut self) {
        let cards = self.decks.one.len() + self.decks.two.len();
        self.seen = match self.seen {
            Seen::Bytes(_) => Seen::Bytes(StateSet::new(cards)),
            Seen::Cards(_) => Seen::Cards(StateSet::new(cards)),
        };
    }

    /// The bytes storing the next state may allocate.
    fn next_growth(&self) -> usize {
        match &self.seen {
            Seen::Bytes(set) => set.next_growth(),
            Seen::Cards(set) => set.next_growth(),
        }
    }
}

/// The memory of the games in progress, counted against
/// [`Limits::max_state_memory`], with the state stores of ended games kept
/// for the next ones (counted too).
struct Memory {
    held: usize,
    limit: usize,
    spare: Vec<Seen>,
}

impl Memory {
    /// A frame for a new game, with a spare state store if there is one.
    fn frame(&mut self, game: u64, decks: PerPlayer<VecDeque<Card>>) -> Frame {
        let seen = self.spare.pop();
        if let Some(seen) = &seen {
            self.held -= seen.footprint();
        }
        Frame::new(game, decks, seen)
    }

    /// Counts the frame's memory again; fails if the games in progress now
    /// hold more than the limit.
    fn recount(&mut self, frame: &mut Frame, budget: &Budget<'_>) -> Result<(), Exhausted> {
        self.count(frame);
        self.room_for(0, budget)
    }

    /// Counts the frame's memory again.
    fn count(&mut self, frame: &mut Frame) {
        let now = frame.footprint();
        self.held = self.held_with(frame, now);
        frame.counted = now;
    }

    /// What the games would hold with the frame counted at `now` bytes.
    fn held_with(&self, frame: &Frame, now: usize) -> usize {
        self.held - frame.counted + now
    }

    /// Fails if `more` bytes on top of what the games hold would pass the
    /// limit.
    fn room_for(&self, more: usize, budget: &Budget<'_>) -> Result<(), Exhausted> {
        if self.held.saturating_add(more) > self.limit {
            return Err(Exhausted::Memory { limit: self.limit, played: budget.played() });
        }
        Ok(())
    }

    /// Records the frame's state, as [`repeats`] does, and counts its
    /// memory again. A store that must grow first allocates its new buffer
    /// beside the old one, so that growth is checked before it happens.
    fn repeats(
        &mut self,
        record: &mut (Vec<u8>, Vec<Card>),
        frame: &mut Frame,
        budget: &Budget<'_>,
    ) -> Result<Option<usize>, Exhausted> {
        self.room_for(frame.next_growth(), budget)?;
        let repeated = repeats(record, frame);
        self.recount(frame, budget)?;
        Ok(repeated)
    }

    /// Forgets a frame whose game ended, keeping its state store for the
    /// next game unless it is larger than [`KEPT_STORE`].
    fn release(&mut self, frame: Frame) {
        self.held -= frame.counted;
        let kept = frame.seen.footprint();
        if kept <= KEPT_STORE {
            self.held += kept;
            self.spare.push(frame.seen);
        }
    }
}

/// Plays every game of the deal literally, reporting each [`Event`] to
/// `observer`, and returns the top game's outcome with the number of games
/// played and how deep they nested.
///
/// Returns `None` if the observer stopped the game. Nothing else stops it:
/// the states it stores take memory in proportion to the rounds, with no
/// limit. See [`play_observed_with`] to bound the work and the memory.
///
/// # Examples
///
/// ```
/// use crabdice::{Deal, NoTrace, Variant, play_observed};
///
/// let deal = Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")?;
/// let report = play_observed(&deal, Variant::Recursive, &mut NoTrace).unwrap();
/// assert_eq!(report.outcome.score, Some(291));
/// assert_eq!((report.games, report.max_depth, report.outcome.rounds), (5, 2, 17));
/// # Ok::<_, crabdice::ParseError>(())
/// ```
pub fn play_observed(
    deal: &Deal,
    variant: Variant,
    observer: &mut impl Observer,
) -> Option<Report> {
    // Without limits nothing gives up: sub-games are frames on a stack of
    // their own, and a plain game always ends or cycles. (Were that ever
    // wrong, the error is a bug to show, not an observer's stop to report.)
    let unlimited = Limits { max_state_memory: usize::MAX, ..Limits::default() };
    match play_observed_with(deal, variant, unlimited, observer) {
        Ok(report) => report,
        Err(error) => unreachable!("a game without limits gave up: {error}"),
    }
}

/// [`play_observed`] within `limits`: the rounds counted are the rounds this
/// engine plays (draws, in every game), and the clock, started by this call,
/// is read more often on larger decks, as each round stores or shows the
/// whole state. The states stored, with the decks of every game in
/// progress, may take at most [`Limits::max_state_memory`] bytes (a store
/// that must grow is refused when its old and new buffers would pass it).
/// A plain game is also played by the fast engine, to learn where a cycle
/// starts (first for up to 2^20 rounds, then, if the game is longer, once
/// its states hold 64 MiB); those runs are bounded by the same clock and by
/// their own count of rounds.
///
/// ```
/// use crabdice::{Deal, Exhausted, Limits, NoTrace, Variant, play_observed_with};
///
/// let deal = Deal::parse("Player 1:\n43\n19\n\nPlayer 2:\n2\n29\n14\n")?;
/// let limits = Limits { max_rounds: 3, ..Limits::default() };
/// let result = play_observed_with(&deal, Variant::Recursive, limits, &mut NoTrace);
/// assert_eq!(result, Err(Exhausted::Rounds { limit: 3, played: 4 }));
/// # Ok::<_, crabdice::ParseError>(())
/// ```
pub fn play_observed_with(
    deal: &Deal,
    variant: Variant,
    limits: Limits,
    observer: &mut impl Observer,
) -> Result<Option<Report>, Exhausted> {
    let mut silent = |_| {};
    let mut budget = Budget::new(limits, &mut silent);
    match variant {
        Variant::Plain => play_plain(
            deal,
            observer,
            &mut budget,
            limits.max_state_memory,
            FIRST_LOOK,
            UNKNOWN_STATES,
        ),
        Variant::Recursive => {
            run::<RecursiveRule>(deal, observer, &mut budget, limits.max_state_memory, Cycle::Ruled)
        }
    }
}

/// Rounds the fast engine plays first, looking for where a plain game
/// starts to repeat, before the literal loop starts: a few milliseconds.
const FIRST_LOOK: u64 = 1 << 20;

/// The most bytes a plain game whose cycle is not yet known keeps in
/// states (or [`Limits::max_state_memory`], if lower) before the fast
/// engine is asked where the cycle starts.
const UNKNOWN_STATES: usize = 64 << 20;

/// Plays a plain game literally, within `budget` and `max_memory`, once
/// the fast engine has looked for where it starts to repeat for
/// `first_look` rounds: most games end or repeat within them. A longer one
/// is played from its first round on, keeping every state, until they
/// would hold `keep` bytes (or `max_memory`, if lower): then the fast
/// engine looks on, to its end, and the states are forgotten. So a long
/// game's log starts at once, and a limit that stops it leaves the rounds
/// played so far logged, a time limit that stops the first look included.
/// (A limit on rounds at most `first_look` is the game's: when it stops
/// the fast engine, the game keeps every state.)
fn play_plain(
    deal: &Deal,
    observer: &mut impl Observer,
    budget: &mut Budget<'_>,
    max_memory: usize,
    first_look: u64,
    keep: usize,
) -> Result<Option<Report>, Exhausted> {
    let cycle = match budget.apart(first_look, |budget| cycle_of(deal, budget)) {
        // Not found (when the clock stopped the look, the game is logged up
        // to the limit).
        Ok(Cycle::Watched) | Err(Exhausted::Time { .. }) => {
            if budget.limit > first_look {
                Cycle::Unknown { keep: keep.min(max_memory) }
            } else {
                Cycle::Watched
            }
        }
        found => found?,
    };
    run::<PlainRule>(deal, observer, budget, max_memory, cycle)
}

/// Where the fast engine finds that a plain game starts to repeat, within
/// `budget`: [`Cycle::At`] or [`Cycle::Ruled`], or [`Cycle::Watched`] once
/// the budget's rounds run out (the game itself may end or repeat within
/// them).
fn cycle_of(deal: &Deal, budget: &mut Budget<'_>) -> Result<Cycle, Exhausted> {
    match super::bulk::solve(&deal.labelled(), Variant::Plain, budget) {
        Ok(outcome) => match outcome.end {
            End::Cycle { start, length } => Ok(Cycle::At { start, length }),
            _ => Ok(Cycle::Ruled),
        },
        Err(Exhausted::Rounds { .. }) => Ok(Cycle::Watched),
        Err(other) => Err(other),
    }
}

/// What the loop knows of where a plain game starts to repeat.
#[derive(Debug, Clone, Copy)]
enum Cycle {
    /// Nothing to look for: the game ends with a deck empty, or the round
    /// rule ends it where it repeats.
    Ruled,
    /// The fast engine found it: the state before round `start` comes back
    /// `length` rounds later, and none comes back sooner.
    At { start: u64, length: u64 },
    /// Not known (a limit stopped the fast engine): the game keeps every
    /// state and stops at the first that repeats.
    Watched,
    /// Not known yet (the game outlasted the first look): the game keeps
    /// every state, as when watched, until the games would hold more than
    /// `keep` bytes; then the fast engine finds the cycle, with the rounds
    /// and the time left, and the states are forgotten.
    Unknown { keep: usize },
}

impl Cycle {
    /// If the top game, about to play its round `frame.round`, has come
    /// back to the state before an earlier round, that round: where its
    /// cycle starts.
    fn back_from(
        self,
        frame: &mut Frame,
        memory: &mut Memory,
        record: &mut (Vec<u8>, Vec<Card>),
        budget: &Budget<'_>,
    ) -> Result<Option<u64>, Exhausted> {
        Ok(match self {
            Self::Ruled => None,
            Self::At { start, length } => (frame.round == start + length).then_some(start),
            Self::Watched | Self::Unknown { .. } => {
                memory.repeats(record, frame, budget)?.map(|index| index as u64 + 1)
            }
        })
    }

    /// [`back_from`](Self::back_from) while the cycle is not yet known
    /// (`Unknown { keep }`): the state is kept, unless the games would then
    /// hold more than `keep` bytes, when the fast engine finds the cycle
    /// first. Apart and out of line, so that the loop over a game whose
    /// cycle is known stays as tight as it was: a plain game of 261
    /// million rounds, looked at by a `back_from` that took the cycle by
    /// reference and the budget mutably, took 4.1–6.0 s where it took
    /// 3.6–3.9 s.
    #[cold]
    #[inline(never)]
    fn not_yet_known(
        &mut self,
        keep: usize,
        deal: &Deal,
        frame: &mut Frame,
        memory: &mut Memory,
        record: &mut (Vec<u8>, Vec<Card>),
        budget: &mut Budget<'_>,
    ) -> Result<Option<u64>, Exhausted> {
        // The decks, grown since they were last counted, are counted too,
        // but not recorded: a watched game counts them as it always did.
        let held = memory.held_with(frame, frame.footprint());
        if held.saturating_add(frame.next_growth()) > keep {
            // A clock that stops the search names the rounds logged.
            *self =
                budget.apart(u64::MAX, |budget| cycle_of(deal, budget)).map_err(
                    |error| match error {
                        Exhausted::Time { limit, .. } => {
                            Exhausted::Time { limit, played: budget.played() }
                        }
                        other => other,
                    },
                )?;
            // Once the game keeps no states, it holds only its decks, which
            // are not counted (as when the cycle was known from the start).
            if let Self::At { .. } | Self::Ruled = self {
                frame.forget_states();
                memory.count(frame);
            }
        }
        self.back_from(frame, memory, record, budget)
    }
}

fn run<Rule: RoundRule>(
    deal: &Deal,
    observer: &mut impl Observer,
    budget: &mut Budget<'_>,
    max_memory: usize,
    mut cycle: Cycle,
) -> Result<Option<Report>, Exhausted> {
    macro_rules! emit {
        ($event:expr) => {
            if observer.observe(&$event).is_break() {
                return Ok(None);
            }
        };
    }
    // Each round stores (recursive) or may show (a trace) the whole state:
    // work in proportion to the cards, counted for the clock.
    let cards = (deal.decks().one.len() + deal.decks().two.len()) as u64;
    let decks = deal.decks().clone().map(VecDeque::from);
    let mut memory = Memory { held: 0, limit: max_memory, spare: Vec::new() };
    let mut stack = vec![memory.frame(1, decks)];
    memory.recount(&mut stack[0], budget)?;
    let (mut games, mut max_depth) = (1, 0);
    emit!(Event::GameStart { game: 1, depth: 0 });
    // Scratch space for one state, both decks back to back.
    let mut record = (Vec::new(), Vec::new());
    // The winner of the sub-game that just ended, to settle its parent's round.
    let mut settled: Option<Player> = None;
    loop {
        let depth = stack.len() as u32 - 1;
        let Some(frame) = stack.last_mut() else { unreachable!("the top game ends the loop") };
        let winner = if let Some(winner) = settled.take() {
            winner
        } else {
            let mut ended = frame.emptied();
            if ended.is_none() {
                frame.round += 1;
                emit!(Event::Round {
                    game: frame.game,
                    round: frame.round,
                    decks: frame.decks.as_ref()
                });
                let back = match cycle {
                    Cycle::Unknown { keep } => {
                        cycle.not_yet_known(keep, deal, frame, &mut memory, &mut record, budget)?
                    }
                    known => known.back_from(frame, &mut memory, &mut record, budget)?,
                };
                if let Some(start) = back {
                    let length = frame.round - start;
                    emit!(Event::Cycle { start, length });
                    emit!(Event::GameEnd { game: 1, winner: None, decks: frame.decks.as_ref() });
                    let end = End::Cycle { start, length };
                    return Ok(Some(report(frame, None, end, games, max_depth)));
                }
                if Rule::REPETITION_ENDS_GAME
                    && memory.repeats(&mut record, frame, budget)?.is_some()
                {
                    emit!(Event::Repetition { game: frame.game, round: frame.round });
                    frame.round -= 1;
                    ended = Some((Player::One, End::Repetition));
                }
            }
            if let Some((winner, end)) = ended {
                emit!(Event::GameEnd {
                    game: frame.game,
                    winner: Some(winner),
                    decks: frame.decks.as_ref()
                });
                if depth == 0 {
                    return Ok(Some(report(frame, Some(winner), end, games, max_depth)));
                }
                if let Some(frame) = stack.pop() {
                    memory.release(frame);
                }
                let parent = stack.last().map_or(1, |f| f.game);
                emit!(Event::Resume { game: parent });
                settled = Some(winner);
                continue;
            }
            let drawn = PerPlayer::new(
                frame.decks.one.pop_front().unwrap_or_default(),
                frame.decks.two.pop_front().unwrap_or_default(),
            );
            budget.spend(1)?;
            budget.charge(cards)?;
            emit!(Event::Draw { cards: drawn });
            frame.drawn = drawn;
            if let Some(sizes) = Rule::sub_game(drawn, &frame.decks) {
                emit!(Event::SubGame);
                games += 1;
                max_depth = max_depth.max(depth + 1);
                let decks = PerPlayer::new(
                    frame.decks.one.iter().take(sizes.one).copied().collect(),
                    frame.decks.two.iter().take(sizes.two).copied().collect(),
                );
                let mut frame = memory.frame(games, decks);
                memory.recount(&mut frame, budget)?;
                stack.push(frame);
                emit!(Event::GameStart { game: games, depth: depth + 1 });
                continue;
            }
            Player::higher(drawn.one, drawn.two)
        };
        let Some(frame) = stack.last_mut() else { unreachable!("a round is settled in a game") };
        let (won, lost) = (frame.drawn[winner], frame.drawn[winner.other()]);
        frame.decks[winner].push_back(won);
        frame.decks[winner].push_back(lost);
        emit!(Event::RoundWon { game: frame.game, round: frame.round, winner });
    }
}

/// Records the frame's state; if it occurred before in this game, the
/// index of its first copy (the state before round `index + 1`, as a game
/// records its state before every round).
fn repeats(record: &mut (Vec<u8>, Vec<Card>), frame: &mut Frame) -> Option<usize> {
    /// Records `cards` (both decks, player 1's `split` first) in `set`.
    fn seen_before<T: Copy + Eq + std::hash::Hash>(
        set: &mut StateSet<T>,
        record: &mut Vec<T>,
        split: usize,
        cards: impl Iterator<Item = T>,
    ) -> Option<usize> {
        record.clear();
        record.extend(cards);
        set.insert(split, record)
    }
    let cards = frame.decks.one.iter().chain(&frame.decks.two).copied();
    let split = frame.decks.one.len();
    match &mut frame.seen {
        // Every card fits in a byte: checked when the game started.
        Seen::Bytes(set) => seen_before(set, &mut record.0, split, cards.map(|card| card as u8)),
        Seen::Cards(set) => seen_before(set, &mut record.1, split, cards),
    }
}

fn report(frame: &Frame, winner: Option<Player>, end: End, games: u64, max_depth: u32) -> Report {
    let decks = frame.decks.clone().map(Vec::from);
    let score = winner.map(|w| super::deck_score(decks[w].iter().copied()));
    let rounds = match end {
        End::Cycle { start, length } => start - 1 + length,
        _ => frame.round,
    };
    Report { outcome: Outcome { winner, score, end, rounds, decks }, games, max_depth }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A frame for the cards `1..=cards` that stores `states` different
    /// states through `memory`: player 1's deck of the first `cards - k`
    /// cards turned by `r`, player 2's of the rest, for each `k` and `r`.
    fn played(memory: &mut Memory, budget: &Budget<'_>, cards: u64, states: usize) -> Frame {
        let mut frame = memory.frame(1, PerPlayer::new((1..=cards).collect(), VecDeque::new()));
        memory.recount(&mut frame, budget).unwrap();
        let mut record = (Vec::new(), Vec::new());
        let all = (0..cards).flat_map(|k| (0..cards - k).map(move |r| (k, r)));
        for (k, r) in all.take(states) {
            let mut one: VecDeque<Card> = (1..=cards - k).collect();
            one.rotate_left(r as usize);
            frame.decks = PerPlayer::new(one, (cards - k + 1..=cards).collect());
            assert_eq!(memory.repeats(&mut record, &mut frame, budget), Ok(None));
        }
        frame
    }

    #[test]
    fn a_kept_state_store_stays_counted_until_the_next_game_takes_it() {
        let mut silent = |_| {};
        let budget = Budget::new(Limits::default(), &mut silent);
        let mut memory = Memory { held: 0, limit: usize::MAX, spare: Vec::new() };
        let frame = played(&mut memory, &budget, 8, 30);
        let store = frame.seen.footprint();
        assert!(store > 0 && store <= KEPT_STORE);
        assert_eq!(memory.held, frame.footprint());
        // Ended, its decks are no longer counted but its store is, kept.
        memory.release(frame);
        assert_eq!(memory.held, store);
        // The next game takes the store, emptied, with room to spare.
        let frame = played(&mut memory, &budget, 8, 30);
        assert_eq!((frame.seen.footprint(), memory.spare.len()), (store, 0));
        assert_eq!(memory.held, frame.footprint());
        memory.release(frame);
        // A store larger than `KEPT_STORE` is freed with its game.
        let large = played(&mut memory, &budget, 200, KEPT_STORE / 200);
        assert!(large.seen.footprint() > KEPT_STORE);
        memory.release(large);
        assert_eq!((memory.held, memory.spare.len()), (0, 0));
    }

    /// A plain game's log, outcome and error with the fast engine's first
    /// look limited to `first_look` rounds and `keep` bytes of states kept
    /// while its cycle is not known, within `limits`.
    fn logged(
        deal: &Deal,
        limits: Limits,
        first_look: u64,
        keep: usize,
    ) -> Result<(String, Option<Report>), Exhausted> {
        let _deadline = crate::deadline::Deadline::new(&format!("{deal:?}"));
        let mut silent = |_| {};
        let mut budget = Budget::new(limits, &mut silent);
        let mut log = crate::PuzzleLog::new(Vec::new(), Variant::Plain);
        let max_memory = limits.max_state_memory;
        let report = play_plain(deal, &mut log, &mut budget, max_memory, first_look, keep)?;
        Ok((String::from_utf8(log.into_inner()).expect("the log is text"), report))
    }

    /// Deals of `1..=n` shuffled and split anywhere, for `n` in `2..=12`:
    /// many of them cycle.
    fn small_deals() -> impl Strategy<Value = Deal> {
        (2..=12_u64)
            .prop_flat_map(|n| (Just((1..=n).collect::<Vec<_>>()).prop_shuffle(), 0..=n as usize))
            .prop_map(|(cards, split)| {
                let (one, two) = cards.split_at(split);
                Deal::new(one.to_vec(), two.to_vec()).expect("distinct positive cards")
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// However short the fast engine's first look, and however few
        /// states the game keeps before the fast engine looks on, a plain
        /// game's log, outcome and error under a limit on rounds or memory
        /// are those of the game whose cycle is known before its first
        /// round (the fast engine playing it to its end first).
        #[test]
        fn a_plain_game_logged_before_its_cycle_is_known_is_logged_the_same(
            deal in small_deals(),
            first_look in 0..64_u64,
            keep in 0..4_096_usize,
            max_rounds in prop_oneof![Just(u64::MAX), 0..256_u64],
            max_state_memory in prop_oneof![Just(usize::MAX), 0..16_384_usize],
        ) {
            let limits = Limits { max_rounds, max_state_memory, ..Limits::default() };
            let known = logged(&deal, limits, u64::MAX, usize::MAX);
            prop_assert_eq!(logged(&deal, limits, first_look, keep), known);
        }
    }

    /// A clock that stops the fast engine's search, once the game has kept
    /// all the states it may, names the rounds the game played, not those
    /// of the search: here none, as the search comes before the first
    /// round's draw. The deal, 1,000 + 1,000 shuffled cards (by the
    /// census tests' `shuffled`), plays 541,282 rounds, more than the fast
    /// engine plays before it first reads the clock. (Named by the search,
    /// the error said 261,226.)
    #[test]
    fn a_clock_that_stops_the_search_names_the_rounds_the_game_played() {
        let deal = super::super::census::tests::shuffled(1_000, 3);
        let played = super::super::play(&deal, Variant::Plain).unwrap().rounds;
        assert!(played > super::super::TIME_CHECK_INTERVAL, "{played} rounds");
        let limit = std::time::Duration::ZERO;
        let limits = Limits { max_time: Some(limit), ..Limits::default() };
        let mut silent = |_| {};
        let mut budget = Budget::new(limits, &mut silent);
        let mut log = crate::PuzzleLog::new(Vec::new(), Variant::Plain);
        let result = play_plain(&deal, &mut log, &mut budget, usize::MAX, 0, 0);
        assert_eq!(result, Err(Exhausted::Time { limit, played: 0 }));
        let log = String::from_utf8(log.into_inner()).unwrap();
        assert_eq!(log.matches("-- Round").count(), 1, "{log}");
    }

    /// The limit is the most the games may hold: exactly that much is allowed.
    #[test]
    fn memory_exactly_at_the_limit_is_allowed() {
        let mut silent = |_| {};
        let budget = Budget::new(Limits::default(), &mut silent);
        let memory = Memory { held: 1000, limit: 1024, spare: Vec::new() };
        assert!(memory.room_for(24, &budget).is_ok());
        assert!(memory.room_for(25, &budget).is_err());
    }
}
