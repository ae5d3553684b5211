//! # Crab Combat
//!
//! Two players hold decks of distinct positive cards. Each round both draw
//! their top card, the higher card wins, and the winner puts its own card and
//! then the loser's card at the bottom of its deck. A player whose deck runs
//! out loses. The winner's score is its bottom card × 1, the next × 2, and so
//! on up to its top card × its deck's length.
//!
//! * [`Variant::Plain`] is the puzzle's part one. Some deals never end: the
//!   decks return to an earlier state and repeat forever. That is reported as
//!   [`End::Cycle`], with the round where the cycle starts and its length.
//! * [`Variant::Recursive`] is part two. A game ends at once, won by player 1,
//!   when both decks exactly repeat an earlier round *of the same game*; and
//!   when both players hold at least as many cards as the card they drew, the
//!   round is decided by a sub-game on copies of that many cards.
//!
//! Two engines implement the rules:
//!
//! * [`play`] is the fast one: it returns the [`Outcome`] of the top game
//!   (winner, score, how it ended, rounds) and skips whatever cannot change
//!   it, using only shortcuts proved correct in [`fast`](self#the-fast-engine).
//!   [`winning_score`] is the same engine asked for the answer alone, which
//!   spares a plain game its final decks.
//! * [`play_observed`] plays every game of the rules literally, one round at
//!   a time, through one game loop with a pluggable round rule, reporting
//!   each event to an [`Observer`](crate::Observer). It counts the games
//!   and the depth of recursion ([`Report`]), and can write the puzzle's own
//!   round-by-round log ([`PuzzleLog`](crate::PuzzleLog)).
//!
//! [`count_games`] gives the literal engine's count of games and depth
//! without storing states: it walks every game with the fast engine's
//! constant-memory repetition tools, and stops each game as soon as no later
//! round of it can start a sub-game.
//!
//! Both are exact: repetition is always confirmed by comparing full decks;
//! hashes only ever decide where to look. [`play_with`] and
//! [`play_observed_with`] run them within [`Limits`] on rounds, time,
//! memory and threads, so
//! that a game too long to wait for ends in an [`Exhausted`] error instead.
//!
//! # The fast engine
#![doc = include_str!("fast.md")]

mod bulk;
mod census;
mod deal;
mod observed;
mod passes;
mod periodic;
mod recall;
mod seesaw;
mod speculate;
mod stacks;
mod states;

use std::fmt;
use std::ops::{Index, IndexMut};
use std::time::{Duration, Instant};

pub use census::{GameCount, count_games};
pub use deal::{Deal, DealError};

use deal::Labelled;
pub use observed::{play_observed, play_observed_with};

/// A card: a positive whole number. Cards in a deal are distinct.
pub type Card = u64;

/// One of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 1, who also wins a game whose decks repeat.
    One,
    /// Player 2.
    Two,
}

impl Player {
    /// Both players, in order.
    pub const ALL: [Player; 2] = [Player::One, Player::Two];

    /// The opponent.
    ///
    /// ```
    /// use crabdice::Player;
    /// assert_eq!(Player::One.other(), Player::Two);
    /// ```
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::One => Self::Two,
            Self::Two => Self::One,
        }
    }

    /// The player's number as the puzzle writes it: 1 or 2.
    pub const fn number(self) -> u8 {
        match self {
            Self::One => 1,
            Self::Two => 2,
        }
    }

    /// The player who holds the higher of two distinct values.
    pub(crate) fn higher<T: Ord + Copy>(one: T, two: T) -> Self {
        if one > two { Self::One } else { Self::Two }
    }
}

/// `player 1` or `player 2`, as the puzzle's log names them.
///
/// ```
/// use crabdice::Player;
/// assert_eq!(format!("the winner is {}", Player::Two), "the winner is player 2");
/// ```
impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// One value per player, indexable by [`Player`].
///
/// ```
/// use crabdice::{PerPlayer, Player};
/// let decks = PerPlayer::new(vec![9, 2], vec![5]);
/// assert_eq!(decks[Player::Two], vec![5]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PerPlayer<T> {
    /// Player 1's value.
    pub one: T,
    /// Player 2's value.
    pub two: T,
}

impl<T> PerPlayer<T> {
    /// Pairs player 1's and player 2's values.
    pub const fn new(one: T, two: T) -> Self {
        Self { one, two }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> PerPlayer<U> {
        PerPlayer { one: f(self.one), two: f(self.two) }
    }

    /// Borrows both values.
    pub const fn as_ref(&self) -> PerPlayer<&T> {
        PerPlayer { one: &self.one, two: &self.two }
    }
}

impl<T> Index<Player> for PerPlayer<T> {
    type Output = T;
    fn index(&self, player: Player) -> &T {
        match player {
            Player::One => &self.one,
            Player::Two => &self.two,
        }
    }
}

impl<T> IndexMut<Player> for PerPlayer<T> {
    fn index_mut(&mut self, player: Player) -> &mut T {
        match player {
            Player::One => &mut self.one,
            Player::Two => &mut self.two,
        }
    }
}

/// Which rules to play by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Combat: the higher card always wins the round (part one).
    Plain,
    /// Recursive Combat: sub-games and the repetition rule (part two).
    Recursive,
}

/// `Combat` or `Recursive Combat`.
///
/// ```
/// use crabdice::Variant;
/// assert_eq!(Variant::Recursive.to_string(), "Recursive Combat");
/// ```
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Plain => "Combat",
            Self::Recursive => "Recursive Combat",
        })
    }
}

/// How the top game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// A player ran out of cards.
    EmptyDeck,
    /// Recursive Combat only: the decks repeated an earlier round of the
    /// game, so player 1 won.
    Repetition,
    /// Plain Combat only: the game never ends. The decks before round
    /// `start + length` equal the decks before round `start`, and no earlier
    /// pair of rounds repeats.
    Cycle {
        /// The first round of the cycle (1-based).
        start: u64,
        /// The number of rounds in one turn of the cycle.
        length: u64,
    },
}

impl End {
    /// The name used in JSON output: `empty-deck`, `repetition` or `cycle`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::EmptyDeck => "empty-deck",
            Self::Repetition => "repetition",
            Self::Cycle { .. } => "cycle",
        }
    }
}

/// The result of the top game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Who won; `None` when a plain game cycles forever.
    pub winner: Option<Player>,
    /// The winner's score; `None` when there is no winner.
    /// Exact for every deal: past 64 bits only when the cards are huge
    /// (see [`Deal::max_score`]).
    pub score: Option<u128>,
    /// How the game ended.
    pub end: End,
    /// Rounds the top game played. For a cycle, the rounds played before the
    /// decks first repeat (`start - 1 + length`).
    pub rounds: u64,
    /// Both decks at the end, top card first. For a cycle or a repetition,
    /// the repeated decks.
    pub decks: PerPlayer<Vec<Card>>,
}

/// Everything [`play_observed`] learns about a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The top game's result, as [`play`] gives it.
    pub outcome: Outcome,
    /// Games played, the top game included (always 1 for plain Combat).
    pub games: u64,
    /// How deeply sub-games nested: 0 when no sub-game was played, 1 when
    /// sub-games were played but none of them started another, and so on.
    pub max_depth: u32,
}

/// Bounds on the work a game may take.
///
/// Recursive Combat on large decks can take longer than anyone will wait
/// (random 30 + 30 card deals already reach tens of millions of rounds), and
/// a few deals are slow even at puzzle size. A limit turns an endless wait
/// into an [`Exhausted`] error. Fields left out of a literal come from the
/// default, which has no limit on rounds or time:
///
/// ```
/// use std::time::Duration;
///
/// use crabdice::Limits;
///
/// let limits = Limits { max_time: Some(Duration::from_secs(10)), ..Limits::default() };
/// assert_eq!(limits.max_rounds, u64::MAX);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most rounds to play, over all games together. This bounds the
    /// engine's work, not the game's length: the fast engine ([`play_with`])
    /// plays rounds of its own beyond a plain game's to find where its
    /// cycle starts, and finishes the rounds in flight (up to a deck's
    /// length past the limit), so it may stop a game of fewer rounds than
    /// this, as below (that game needs 367). The literal
    /// walk ([`play_observed_with`]) plays exactly the rounds of every
    /// game, so it answers any deal whose games take at most this many
    /// rounds in all.
    ///
    /// ```
    /// use crabdice::{Deal, Limits, NoTrace, Variant, play_observed_with, play_with};
    ///
    /// // A plain game that cycles after 51 rounds.
    /// let deal = Deal::new(vec![6, 13, 4, 3, 9, 5, 2], vec![10, 12, 7, 8, 1, 11])?;
    /// let limit = |max_rounds| Limits { max_rounds, ..Limits::default() };
    /// let literal = play_observed_with(&deal, Variant::Plain, limit(51), &mut NoTrace)?;
    /// assert_eq!(literal.map(|report| report.outcome.rounds), Some(51));
    /// assert!(play_with(&deal, Variant::Plain, limit(51), &mut |_| {}).is_err());
    /// assert_eq!(play_with(&deal, Variant::Plain, limit(1_000), &mut |_| {})?.rounds, 51);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub max_rounds: u64,
    /// Most wall-clock time to spend, from the call on. The clock is read
    /// every [`TIME_CHECK_INTERVAL`] units of work (a millisecond or two of
    /// play), so a game stops within about that much of the limit. Setting
    /// up a huge deal (ranking its cards) is not counted.
    pub max_time: Option<Duration>,
    /// Most threads to play on. With two or more, and no limit on rounds or
    /// time, a heavy Recursive Combat deal lets a second thread play ahead
    /// of the first, on a machine with a second core (see
    /// [speculation](self#speculation-a-second-core-plays-ahead)); the
    /// answer is the same either way. The engine uses at most two. A
    /// second thread that has not yet begun to run when the answer is
    /// found is not waited for: it may outlive the call briefly, and exits
    /// as soon as it runs, having done nothing.
    pub max_threads: usize,
    /// Most bytes of memory the games in progress may hold. The literal
    /// engine ([`play_observed_with`]) keeps their decks and every state
    /// each of them has seen: a long game on a large deal stores more
    /// states than a machine has memory for, and this turns that into
    /// [`Exhausted::Memory`]. The fast engine and [`count_games`] keep a
    /// bounded number of states a game, but every game nested in progress
    /// keeps its decks: only deals built to nest thousands of sub-games
    /// deep come near the limit, and they stop with [`Exhausted::Nesting`]
    /// (their memory is counted when a game starts a sub-game). On a deal
    /// of more than 1,024 cards the fast engine's and [`count_games`]'
    /// tables of long sub-games (one for each thread of the fast engine),
    /// which otherwise take at most 1 MiB, grow with the deal's size up to
    /// an eighth of this limit each, beside it.
    /// The default is [`STATE_MEMORY`].
    pub max_state_memory: usize,
}

/// The default [`Limits::max_state_memory`]: 2 GiB. Memory is counted as
/// allocated, room to grow included. In the literal engine a store that
/// must grow is counted with its old and new buffers before it allocates,
/// so the games in progress never hold more than the limit; the fast
/// engine and [`count_games`] count a game's memory when it starts a
/// sub-game, and may pass the limit by what one game's stored states grew
/// since.
pub const STATE_MEMORY: usize = 2 << 30;

impl Default for Limits {
    /// No limit on rounds or time; two threads; [`STATE_MEMORY`] for the
    /// literal engine's states.
    fn default() -> Self {
        Self {
            max_rounds: u64::MAX,
            max_time: None,
            max_threads: 2,
            max_state_memory: STATE_MEMORY,
        }
    }
}

/// A game that was abandoned before it ended. Its
/// [`help`](miette::Diagnostic::help) names the field of [`Limits`] that
/// would let it go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(crabdice::exhausted))]
#[non_exhaustive]
pub enum Exhausted {
    /// More rounds than [`Limits::max_rounds`] allows.
    #[error("gave up at round {played}, past the limit of {}", rounds(*limit))]
    #[diagnostic(help("raise Limits::max_rounds, or leave it at its default to play to the end"))]
    Rounds {
        /// The limit.
        limit: u64,
        /// Rounds played when the engine stopped.
        played: u64,
    },
    /// More time than [`Limits::max_time`] allows.
    #[error("gave up after {}: the time limit of {limit:?} has passed", rounds(*played))]
    #[diagnostic(help("raise Limits::max_time, or leave it at its default to play to the end"))]
    Time {
        /// The limit.
        limit: Duration,
        /// Rounds played when the engine stopped.
        played: u64,
    },
    /// Sub-games nested deeper than the engine could make room for.
    #[error("sub-games nest deeper than the stack allows")]
    #[diagnostic(help("the deal's sub-games nest too deeply for this machine"))]
    Stack,
    /// The literal engine's games in progress needed more memory than
    /// [`Limits::max_state_memory`] allows.
    #[error(
        "gave up after {}: the states the literal engine keeps need more than {}",
        rounds(*played),
        in_units(*limit)
    )]
    #[diagnostic(help(
        "raise Limits::max_state_memory, or play with the fast engine (play, play_with), which \
         keeps only a few states"
    ))]
    Memory {
        /// The limit, in bytes.
        limit: usize,
        /// Rounds played when the engine stopped.
        played: u64,
    },
    /// Sub-games nested inside each other needed more memory than
    /// [`Limits::max_state_memory`] allows: each game in progress keeps its
    /// decks (and the fast engine a few stored states) while the sub-game
    /// it started is played, so a deal built to nest thousands of games
    /// deep, on tens of thousands of cards, holds gigabytes.
    #[error(
        "gave up after {}: the decks of sub-games nested inside each other need more than {}",
        rounds(*played),
        in_units(*limit)
    )]
    #[diagnostic(help("raise Limits::max_state_memory"))]
    Nesting {
        /// The limit, in bytes.
        limit: usize,
        /// Rounds played when the engine stopped.
        played: u64,
    },
}

/// `1 round`, `2 rounds`.
fn rounds(count: u64) -> String {
    if count == 1 { "1 round".to_owned() } else { format!("{count} rounds") }
}

/// `bytes` in the largest binary unit it reaches: `2 GiB`, `1.5 MiB`.
fn in_units(bytes: usize) -> String {
    if bytes == 1 {
        return "1 byte".to_owned();
    }
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let power = bytes.max(1).ilog2() / 10;
    let (whole, part) = (bytes >> (10 * power), bytes & ((1 << (10 * power)) - 1));
    let unit = units[power as usize];
    if part == 0 {
        format!("{whole} {unit}")
    } else {
        // Tenths, rounded down: a limit is never overstated.
        let tenths = (part as u128 * 10) >> (10 * power);
        format!("{whole}.{tenths} {unit}")
    }
}

/// How often, in rounds, a progress callback hears from a long game.
pub const PROGRESS_INTERVAL: u64 = 1 << 22;

/// How often the clock is read when [`Limits::max_time`] is set: every this
/// many units of work, a unit being a round played or a card dealt into a
/// sub-game (and, in the literal engine, each card of the deal, every
/// round, for the state it stores): a millisecond or two of play.
pub const TIME_CHECK_INTERVAL: u64 = 1 << 18;

/// Counts rounds against the limits and reports progress now and then.
///
/// Two schedules share it. *Stops* (a progress report every
/// [`PROGRESS_INTERVAL`] rounds, and the round past the round limit) may
/// cut a stretch of bulk rounds short: [`Budget::room`] says how far the
/// next one is. *Clock readings* (every [`TIME_CHECK_INTERVAL`] units of
/// work, with a time limit only) never do: they happen when work is
/// reported, so a time limit that is not reached leaves the engine playing
/// exactly the same rounds as without one. The per-round cost is one
/// addition; each report of work costs two comparisons.
pub(crate) struct Budget<'a> {
    limit: u64,
    played: u64,
    next_stop: u64,
    /// Rounds played plus other work, counted for the clock.
    work: u64,
    /// When the clock is next read (never without a time limit).
    next_reading: u64,
    /// When the clock started, and how long it may run.
    clock: Option<(Instant, Duration)>,
    progress: &'a mut (dyn FnMut(u64) + Send),
    /// A speculative game's question, asked at every stop: whether it
    /// should stop (module `speculate`).
    halt: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Rounds a sub-game must have been played for before a second thread
    /// may play past it (module `speculate`); `u64::MAX` for never.
    pub(crate) speculate_after: u64,
    /// Rounds a sub-game must take, its own sub-games' included, for the
    /// fast engine to remember its winner (module `recall`).
    pub(crate) remember_after: u64,
    /// Rounds a card a game plays before its repetition stacks start
    /// watching its anchors (`bulk::QUIET`; tests lower it).
    pub(crate) quiet: u64,
    /// [`Limits::max_state_memory`].
    max_memory: usize,
}

/// The bytes the games in progress hold in the fast engine's levels or
/// `count_games`' frames, counted piece by piece each time a game starts a
/// sub-game, against [`Limits::max_state_memory`]: games nested `d` deep
/// keep `d` pairs of decks, which only a deal built to nest thousands deep
/// makes large.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Held {
    bytes: usize,
}

impl Held {
    /// Counts a piece that holds `now` bytes and was last counted at
    /// `counted`, which it updates (pieces only grow).
    #[inline]
    pub(crate) fn recount(&mut self, counted: &mut usize, now: usize) {
        self.bytes = (self.bytes + now).saturating_sub(*counted);
        *counted = now;
    }

    /// [`Exhausted::Nesting`] once the pieces hold more than the limit.
    #[inline]
    pub(crate) fn check(self, budget: &Budget<'_>) -> Result<(), Exhausted> {
        if self.bytes > budget.max_memory {
            return Err(Exhausted::Nesting { limit: budget.max_memory, played: budget.played() });
        }
        Ok(())
    }
}

/// How often, in rounds, a speculative game asks whether it should stop.
pub(crate) const HALT_CHECK_INTERVAL: u64 = 1 << 12;

/// What a budget fails with when its game is halted. Only speculative games
/// have a halt; they run without limits, and whoever started one discards
/// its result, so this never reaches a caller.
pub(crate) const HALTED: Exhausted = Exhausted::Rounds { limit: 0, played: 0 };

impl<'a> Budget<'a> {
    pub(crate) fn new(limits: Limits, progress: &'a mut (dyn FnMut(u64) + Send)) -> Self {
        let clock = limits.max_time.map(|max_time| (Instant::now(), max_time));
        let mut budget = Self {
            limit: limits.max_rounds,
            played: 0,
            next_stop: 0,
            work: 0,
            next_reading: if clock.is_some() { TIME_CHECK_INTERVAL } else { u64::MAX },
            clock,
            progress,
            halt: None,
            speculate_after: if limits.max_threads >= 2
                && limits.max_rounds == u64::MAX
                && limits.max_time.is_none()
            {
                speculate::SPECULATE_AFTER
            } else {
                u64::MAX
            },
            remember_after: recall::REMEMBER_AFTER,
            quiet: bulk::QUIET,
            max_memory: limits.max_state_memory,
        };
        budget.restart_rounds();
        budget
    }

    /// A budget without limits for a speculative game, which stops (with
    /// [`HALTED`]) once `halt` says so; it is asked every
    /// [`HALT_CHECK_INTERVAL`] rounds.
    pub(crate) fn halting(
        halt: &'a (dyn Fn() -> bool + Sync),
        quiet: &'a mut (dyn FnMut(u64) + Send),
    ) -> Self {
        let mut budget = Self::new(Limits { max_threads: 1, ..Limits::default() }, quiet);
        budget.halt = Some(halt);
        budget.plan_next_stop();
        budget
    }

    /// Rounds counted so far.
    pub(crate) fn played(&self) -> u64 {
        self.played
    }

    /// Counts `rounds` rounds played.
    #[inline]
    pub(crate) fn spend(&mut self, rounds: u64) -> Result<(), Exhausted> {
        self.played = self.played.saturating_add(rounds);
        self.charge(rounds)?;
        if self.played >= self.next_stop { self.stop() } else { Ok(()) }
    }

    /// Counts work that is not rounds (cards dealt into a sub-game, or the
    /// state the literal engine stores each round), for the clock only: on
    /// huge decks it can cost far more than the rounds.
    #[inline]
    pub(crate) fn charge(&mut self, work: u64) -> Result<(), Exhausted> {
        self.work = self.work.saturating_add(work);
        if self.work >= self.next_reading { self.read_clock() } else { Ok(()) }
    }

    /// Starts counting rounds from zero again, against the same limit; the
    /// clock runs on.
    pub(crate) fn restart_rounds(&mut self) {
        self.played = 0;
        self.plan_next_stop();
    }

    /// Runs `work` with rounds counted apart, from zero, against `limit`
    /// or the budget's own limit if that is lower, then counts on from
    /// the rounds played before: the literal engine's rounds are not
    /// charged for the fast engine's search for a plain game's cycle. The
    /// clock runs on.
    pub(crate) fn apart<T>(&mut self, limit: u64, work: impl FnOnce(&mut Self) -> T) -> T {
        let (played, own) = (self.played, self.limit);
        self.limit = own.min(limit);
        self.restart_rounds();
        let done = work(self);
        (self.played, self.limit) = (played, own);
        self.plan_next_stop();
        done
    }

    /// Rounds that can be spent before the next stop (at least one while
    /// the round limit has not been passed).
    #[inline]
    pub(crate) fn room(&self) -> u64 {
        self.next_stop.saturating_sub(self.played)
    }

    #[cold]
    fn stop(&mut self) -> Result<(), Exhausted> {
        if self.played > self.limit {
            return Err(Exhausted::Rounds { limit: self.limit, played: self.played });
        }
        if self.halt.is_some_and(|halt| halt()) {
            return Err(HALTED);
        }
        (self.progress)(self.played);
        self.plan_next_stop();
        Ok(())
    }

    /// The next stop: the next progress report (or question to `halt`), or
    /// the round past the limit.
    fn plan_next_stop(&mut self) {
        let interval = if self.halt.is_some() { HALT_CHECK_INTERVAL } else { PROGRESS_INTERVAL };
        self.next_stop = self.played.saturating_add(interval).min(self.limit.saturating_add(1));
    }

    #[cold]
    fn read_clock(&mut self) -> Result<(), Exhausted> {
        self.next_reading = self.work.saturating_add(TIME_CHECK_INTERVAL);
        match self.clock {
            Some((started, limit)) if started.elapsed() > limit => {
                Err(Exhausted::Time { limit, played: self.played })
            }
            _ => Ok(()),
        }
    }
}

/// Plays a deal and returns the top game's [`Outcome`].
///
/// Exact for every deal: endless plain games are detected with constant
/// extra memory, and the repetition rule always compares full decks. This
/// runs with [`Limits::default`]: no limit on rounds or time, so the only
/// possible errors are [`Exhausted::Stack`] (sub-games of a huge deal
/// nesting deeper than a thread's stack could be made for) and
/// [`Exhausted::Nesting`] (games in progress holding more than
/// [`STATE_MEMORY`], which only deals built to nest thousands deep do); see
/// [`play_with`] to bound the work.
///
/// # Examples
///
/// ```
/// use crabdice::{Deal, End, Player, Variant, play};
///
/// let deal = Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")?;
/// let plain = play(&deal, Variant::Plain)?;
/// assert_eq!((plain.winner, plain.score, plain.rounds), (Some(Player::Two), Some(306), 29));
/// let recursive = play(&deal, Variant::Recursive)?;
/// assert_eq!((recursive.winner, recursive.score, recursive.end), (Some(Player::Two), Some(291), End::EmptyDeck));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn play(deal: &Deal, variant: Variant) -> Result<Outcome, Exhausted> {
    play_with(deal, variant, Limits::default(), &mut |_| {})
}

/// The puzzle's answer: the winner's score, or `None` when a plain game
/// never ends. The same as `play(deal, variant)?.score`, but a plain game is
/// not asked for its final decks, so the answer costs only the rounds.
///
/// ```
/// use crabdice::{Deal, Variant, winning_score};
///
/// let deal = Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")?;
/// assert_eq!(winning_score(&deal, Variant::Plain)?, Some(306));
/// assert_eq!(winning_score(&deal, Variant::Recursive)?, Some(291));
/// let endless = Deal::parse("Player 1:\n43\n19\n\nPlayer 2:\n2\n29\n14\n")?;
/// assert_eq!(winning_score(&endless, Variant::Plain)?, None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn winning_score(deal: &Deal, variant: Variant) -> Result<Option<u128>, Exhausted> {
    let mut silent = |_| {};
    let mut budget = Budget::new(Limits::default(), &mut silent);
    bulk::score(&deal.labelled(), variant, &mut budget)
}

/// Plays a deal within `limits`, calling `progress` with the rounds played
/// so far about every [`PROGRESS_INTERVAL`] rounds, and once more at the end
/// with the total (rounds of every game the engine had to play). A round
/// limit fails with [`Exhausted::Rounds`], a time limit with
/// [`Exhausted::Time`] (the clock starts when this is called), and the
/// memory limit with [`Exhausted::Nesting`]. Without
/// either, a heavy Recursive Combat deal may share its sub-games with a
/// second thread ([`Limits::max_threads`]); `progress` then counts the
/// rounds of the calling thread only, which vary from run to run.
///
/// ```
/// use crabdice::{Deal, Exhausted, Limits, Variant, play_with};
///
/// let deal = Deal::parse("Player 1:\n43\n19\n\nPlayer 2:\n2\n29\n14\n")?;
/// let limits = Limits { max_rounds: 3, ..Limits::default() };
/// let result = play_with(&deal, Variant::Plain, limits, &mut |_| {});
/// assert!(matches!(result, Err(Exhausted::Rounds { limit: 3, .. })));
/// # Ok::<_, crabdice::ParseError>(())
/// ```
pub fn play_with(
    deal: &Deal,
    variant: Variant,
    limits: Limits,
    progress: &mut (dyn FnMut(u64) + Send),
) -> Result<Outcome, Exhausted> {
    let labelled: Labelled<'_> = deal.labelled();
    let mut budget = Budget::new(limits, progress);
    let outcome = bulk::solve(&labelled, variant, &mut budget)?;
    (budget.progress)(budget.played);
    Ok(outcome)
}

/// The score of a deck's card values, top card first: the bottom card × 1,
/// the next × 2, and so on. Fits in a `u128` for any deck of a [`Deal`]'s
/// cards.
pub(crate) fn deck_score(cards: impl DoubleEndedIterator<Item = Card>) -> u128 {
    cards.rev().zip(1..).map(|(card, place)| u128::from(card) * place).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_round_is_singular() {
        let error = Exhausted::Rounds { limit: 0, played: 1 };
        assert_eq!(error.to_string(), "gave up at round 1, past the limit of 0 rounds");
        let error = Exhausted::Time { limit: Duration::ZERO, played: 2 };
        assert_eq!(error.to_string(), "gave up after 2 rounds: the time limit of 0ns has passed");
    }

    /// Each abandoned game's help names the field of [`Limits`] that would
    /// let it go on, never a command-line flag (the command line gives its
    /// own help).
    #[test]
    fn an_abandoned_game_is_helped_with_the_limit_to_raise() {
        use miette::Diagnostic;
        let help = |error: Exhausted| error.help().map(|help| help.to_string()).unwrap_or_default();
        for (error, field) in [
            (Exhausted::Rounds { limit: 0, played: 1 }, "Limits::max_rounds"),
            (Exhausted::Time { limit: Duration::ZERO, played: 1 }, "Limits::max_time"),
            (Exhausted::Memory { limit: 1, played: 1 }, "Limits::max_state_memory"),
            (Exhausted::Nesting { limit: 1, played: 1 }, "Limits::max_state_memory"),
            (Exhausted::Stack, "too deeply"),
        ] {
            let help = help(error);
            assert!(help.contains(field) && !help.contains("--"), "{error}: {help}");
        }
    }

    #[test]
    fn memory_is_named_in_the_largest_unit_it_reaches() {
        assert_eq!(in_units(0), "0 bytes");
        assert_eq!(in_units(1), "1 byte");
        assert_eq!(in_units(1000), "1000 bytes");
        assert_eq!(in_units(1536), "1.5 KiB");
        assert_eq!(in_units(STATE_MEMORY), "2 GiB");
        assert_eq!(in_units(3 << 19), "1.5 MiB");
        assert_eq!(in_units((1 << 20) + 1), "1.0 MiB");
        assert_eq!(in_units(usize::MAX), "15.9 EiB");
    }

    /// Games in progress may hold exactly [`Limits::max_state_memory`]:
    /// only a byte more stops the game ("more than the limit").
    #[test]
    fn games_in_progress_may_hold_exactly_the_memory_limit() {
        let mut quiet = |_| {};
        let limits = Limits { max_state_memory: 1000, ..Limits::default() };
        let budget = Budget::new(limits, &mut quiet);
        let (mut held, mut counted) = (Held::default(), 0);
        held.recount(&mut counted, 1000);
        assert!(held.check(&budget).is_ok());
        held.recount(&mut counted, 1001);
        assert!(matches!(held.check(&budget), Err(Exhausted::Nesting { limit: 1000, .. })));
    }

    /// A round limit that falls on a progress report still allows its last
    /// round: exactly [`Limits::max_rounds`] rounds are played, and the one
    /// after them is refused.
    #[test]
    fn a_round_limit_on_a_progress_report_allows_exactly_its_rounds() {
        let limit = 2 * PROGRESS_INTERVAL;
        let mut reports = Vec::new();
        {
            let mut progress = |played| reports.push(played);
            let mut budget =
                Budget::new(Limits { max_rounds: limit, ..Limits::default() }, &mut progress);
            for _ in 0..2 {
                assert!(budget.spend(PROGRESS_INTERVAL).is_ok());
            }
            assert_eq!(budget.spend(1), Err(Exhausted::Rounds { limit, played: limit + 1 }));
        }
        assert_eq!(reports, [PROGRESS_INTERVAL, limit]);
    }
}
