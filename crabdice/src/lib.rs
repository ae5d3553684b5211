//! # crabdice
//!
//! Exact, fast engines for two turn-based games from Advent of Code:
//! **Crab Combat** (2020 day 22; a card game, plain and recursive) and
//! **Dirac Dice** (2021 day 21; a deterministic die and a universe-splitting
//! "Dirac" die).
//!
//! ```
//! use crabdice::{Deal, DiceRules, DiracEngine, Starts, Variant, play, play_deterministic, play_dirac};
//!
//! let deal = Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")?;
//! assert_eq!(play(&deal, Variant::Plain)?.score, Some(306));
//! assert_eq!(play(&deal, Variant::Recursive)?.score, Some(291));
//!
//! let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
//! assert_eq!(play_deterministic(&starts, &DiceRules::deterministic())?.answer, 739_785_u32);
//! assert_eq!(play_dirac(&starts, &DiceRules::dirac(), DiracEngine::PerPlayer)?.answer, 444_356_092_776_315u64);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! * [`combat`]: Crab Combat, its engines and the proofs of their shortcuts.
//! * [`dirac`]: Dirac Dice, its solvers and counting engines.
//!
//! The crate has no command-line dependencies; the `crabdice` binary lives in
//! the `crabdice-cli` crate.

mod arith;
pub mod combat;
mod cores;
mod count;
// The integration tests' watchdog, for the unit tests that play games to
// their end too.
#[cfg(test)]
#[path = "../tests/deadline/mod.rs"]
mod deadline;
mod detect;
pub mod dirac;
mod error;
mod input;
mod natural;
// The integration tests' states in rhythms of winners, for the unit tests of
// module `periodic` too.
#[cfg(test)]
#[path = "../tests/rhythms/mod.rs"]
mod rhythms;
mod tally;
mod trace;

pub use combat::{
    Card, Deal, DealError, End, Exhausted, GameCount, Limits, Outcome, PROGRESS_INTERVAL,
    PerPlayer, Player, Report, STATE_MEMORY, TIME_CHECK_INTERVAL, Variant, count_games, play,
    play_observed, play_observed_with, play_with, winning_score,
};
pub use count::{Count, Universes};
pub use detect::Game;
pub use dirac::{
    DIRAC_TABLE_WORDS, DIRAC_WORK, DeterministicOutcome, DiceRules, DiracEngine, DiracLimits,
    DiracOutcome, MAX_LITERAL_ROLLS, Starts, StartsError, WinsByTurn, check_win_histogram,
    count_wins, count_wins_within, play_deterministic, play_deterministic_literal, play_dirac,
    play_dirac_within, win_histogram, win_histogram_within,
};
pub use error::{
    CountOverflow, DiceError, DiracLimit, Overflowed, ParseError, ParseErrorKind, RulesError,
    acts_on_terminal, escape_for_terminal,
};
/// The diagnostics crate whose `Diagnostic` trait every error here
/// implements (its `help()` says what would fix the error), re-exported so
/// that a user's version always matches.
///
/// ```
/// use crabdice::miette::Diagnostic;
/// use crabdice::{Deal, ParseError, Starts};
///
/// let error = Deal::new(vec![3, 1], vec![3]).unwrap_err();
/// assert_eq!(error.code().unwrap().to_string(), "crabdice::deal");
/// assert!(error.help().unwrap().to_string().contains("deal each card once"));
/// let error = Starts::new(vec![4]).unwrap_err();
/// assert_eq!(error.code().unwrap().to_string(), "crabdice::starts");
/// let error: ParseError = Deal::parse("Player 1:\n0\n").unwrap_err();
/// assert_eq!(error.code().unwrap().to_string(), "crabdice::parse");
/// ```
pub use miette;
pub use natural::Natural;
/// The big-integer crate of this one's public API ([`Count`] for
/// `BigUint`, [`Natural::to_biguint`]), re-exported so that a user's
/// version always matches.
pub use num_bigint;
pub use tally::Tally;
pub use trace::{Event, NoTrace, Observer, PuzzleLog};

/// The README's Rust example, compiled and run with the doctests, so that it
/// cannot drift from the API (its shell examples are run by
/// `.ci/readme-examples`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExample;
