//! # Watching a game: events and observers
//!
//! [`play_observed`](crate::play_observed) reports everything that happens in
//! a game of Crab Combat as an [`Event`] to an [`Observer`]. What the
//! observer does is up to it: [`NoTrace`] ignores everything (and compiles
//! away), [`PuzzleLog`] writes the puzzle's own round-by-round log to any
//! [`Write`], as it happens, so a game of a million rounds is streamed rather
//! than held in memory.
//!
//! An observer can also stop a game early by returning
//! [`ControlFlow::Break`]; [`PuzzleLog`] does so when its writer fails, for
//! example when the reader of a pipe has gone away (`crabdice ... | head`).
//!
//! ```
//! use crabdice::{Deal, PuzzleLog, Variant, play_observed};
//!
//! let deal = Deal::parse("Player 1:\n2\n\nPlayer 2:\n1\n")?;
//! let mut log = PuzzleLog::new(Vec::new(), Variant::Plain);
//! play_observed(&deal, Variant::Plain, &mut log);
//! let text = String::from_utf8(log.into_inner())?;
//! assert!(text.starts_with("-- Round 1 --\nPlayer 1's deck: 2\nPlayer 2's deck: 1\n"));
//! assert!(text.ends_with("== Post-game results ==\nPlayer 1's deck: 2, 1\nPlayer 2's deck: \n"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::combat::{Card, PerPlayer, Player, Variant};

/// Something that happened in a game of Crab Combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A game starts. Game 1 is the top game; sub-games are numbered in the
    /// order they start. `depth` is 0 for the top game.
    GameStart {
        /// The game's number.
        game: u64,
        /// How many games enclose it.
        depth: u32,
    },
    /// A round is about to be played: the decks before the draw. In
    /// Recursive Combat the repetition rule is checked next, and in plain
    /// Combat whether the decks start a cycle: a game that ends by
    /// [`Event::Repetition`] or [`Event::Cycle`] reports one `Round` more
    /// than the rounds it played (its
    /// [`Outcome::rounds`](crate::Outcome::rounds)), the round that was
    /// not played, as the puzzle's log shows its decks.
    Round {
        /// The game's number.
        game: u64,
        /// The round's number within its game, from 1.
        round: u64,
        /// Both decks, top card first.
        decks: PerPlayer<&'a VecDeque<Card>>,
    },
    /// Both players drew their top card.
    Draw {
        /// The cards drawn.
        cards: PerPlayer<Card>,
    },
    /// The round will be decided by a sub-game; its [`Event::GameStart`]
    /// follows.
    SubGame,
    /// A sub-game ended and play returns to `game`.
    Resume {
        /// The game play returns to.
        game: u64,
    },
    /// A round was won.
    RoundWon {
        /// The game's number.
        game: u64,
        /// The round's number within its game.
        round: u64,
        /// Who won it.
        winner: Player,
    },
    /// Recursive Combat: the decks before `round` already occurred in this
    /// game, so player 1 wins it.
    Repetition {
        /// The game's number.
        game: u64,
        /// The round that was not played.
        round: u64,
    },
    /// Plain Combat: the decks before round `start + length` equal those
    /// before round `start`; the game would go on forever.
    Cycle {
        /// First round of the cycle.
        start: u64,
        /// Rounds in one turn of the cycle.
        length: u64,
    },
    /// A game ended.
    GameEnd {
        /// The game's number.
        game: u64,
        /// Who won it; `None` for a plain game that cycles.
        winner: Option<Player>,
        /// The decks at the end.
        decks: PerPlayer<&'a VecDeque<Card>>,
    },
}

/// Receives the [`Event`]s of a game as they happen.
pub trait Observer {
    /// Called for each event, in order. Return [`ControlFlow::Break`] to stop
    /// the game.
    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()>;
}

/// An observer that ignores every event.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl Observer for NoTrace {
    #[inline]
    fn observe(&mut self, _: &Event<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<O: Observer + ?Sized> Observer for &mut O {
    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        (**self).observe(event)
    }
}

/// Writes the puzzle's round-by-round log, in the puzzle's words.
///
/// Plain Combat uses part one's format (`-- Round 1 --`, `Player 1 wins the
/// round!`); Recursive Combat uses part two's (`=== Game 1 ===`,
/// `-- Round 1 (Game 1) --`, `Playing a sub-game to determine the winner...`).
/// Events the puzzle never shows (a repetition, a cycle) get one line in the
/// same style.
#[derive(Debug)]
pub struct PuzzleLog<W> {
    out: W,
    variant: Variant,
    error: Option<io::Error>,
    /// Whether a round has been logged: the results are set off by two
    /// blank lines from the rounds before them, and by none in a plain game
    /// that had none.
    any_round: bool,
}

impl<W: Write> PuzzleLog<W> {
    /// A log of a game played by `variant`'s rules, written to `out`.
    pub fn new(out: W, variant: Variant) -> Self {
        Self { out, variant, error: None, any_round: false }
    }

    /// The error that stopped the log, if writing failed.
    pub fn error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }

    /// Takes back the writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn write(&mut self, event: &Event<'_>) -> io::Result<()> {
        let out = &mut self.out;
        let recursive = self.variant == Variant::Recursive;
        match *event {
            Event::GameStart { game, .. } => {
                if recursive {
                    write!(out, "=== Game {game} ===\n\n")?;
                }
            }
            Event::Round { game, round, decks } => {
                self.any_round = true;
                if round > 1 {
                    writeln!(out)?;
                }
                if recursive {
                    writeln!(out, "-- Round {round} (Game {game}) --")?;
                } else {
                    writeln!(out, "-- Round {round} --")?;
                }
                write_decks(out, decks)?;
            }
            Event::Draw { cards } => {
                writeln!(out, "Player 1 plays: {}\nPlayer 2 plays: {}", cards.one, cards.two)?;
            }
            Event::SubGame => {
                if recursive {
                    write!(out, "Playing a sub-game to determine the winner...\n\n")?;
                }
            }
            Event::Resume { game } => writeln!(out, "...anyway, back to game {game}.")?,
            Event::RoundWon { game, round, winner } => {
                let n = winner.number();
                if recursive {
                    writeln!(out, "Player {n} wins round {round} of game {game}!")?;
                } else {
                    writeln!(out, "Player {n} wins the round!")?;
                }
            }
            Event::Repetition { game, .. } => writeln!(
                out,
                "These decks already occurred in game {game}: player 1 wins by the repetition rule."
            )?,
            Event::Cycle { start, length } => writeln!(
                out,
                "These decks already occurred before round {start}: the game repeats every \
                 {length} rounds forever, and nobody wins."
            )?,
            Event::GameEnd { game, winner, decks } => {
                if let (true, Some(winner)) = (recursive, winner) {
                    writeln!(out, "The winner of game {game} is player {}!", winner.number())?;
                }
                if game == 1 {
                    // A plain game whose deck was empty from the start has
                    // logged nothing before its results.
                    if recursive || self.any_round {
                        write!(out, "\n\n")?;
                    }
                    writeln!(out, "== Post-game results ==")?;
                    write_decks(out, decks)?;
                } else {
                    writeln!(out)?;
                }
            }
        }
        Ok(())
    }
}

fn write_decks(out: &mut impl Write, decks: PerPlayer<&VecDeque<Card>>) -> io::Result<()> {
    for player in Player::ALL {
        write!(out, "Player {}'s deck: ", player.number())?;
        for (i, card) in decks[player].iter().enumerate() {
            if i > 0 {
                write!(out, ", ")?;
            }
            write!(out, "{card}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

impl<W: Write> Observer for PuzzleLog<W> {
    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if self.error.is_some() {
            return ControlFlow::Break(());
        }
        let written = self.write(event);
        let flushed = match event {
            Event::GameEnd { game: 1, .. } => written.and_then(|()| self.out.flush()),
            _ => written,
        };
        match flushed {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error = Some(error);
                ControlFlow::Break(())
            }
        }
    }
}
