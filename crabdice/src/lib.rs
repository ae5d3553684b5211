//! # crabdice
//!
//! Exact, fast engines for two turn-based games from Advent of Code:
//! **Crab Combat** (2020 day 22; a card game, plain and recursive) and
//! **Dirac Dice** (2021 day 21; a deterministic die and a universe-splitting
//! "Dirac" die).

pub mod combat;
mod count;
mod detect;
pub mod dirac;
mod error;
mod input;
mod tally;
mod trace;

pub use combat::{
    Card, Deal, DealError, End, Exhausted, Limits, Outcome, PROGRESS_INTERVAL, PerPlayer, Player,
    Report, Variant, play, play_observed, play_with,
};
pub use count::{Count, Universes};
pub use detect::Game;
pub use dirac::{
    DeterministicOutcome, DiceRules, DiracEngine, DiracOutcome, Starts, WinsByTurn, count_wins,
    play_deterministic, play_dirac, win_histogram,
};
pub use error::{CountOverflow, DiceError, ParseError, ParseErrorKind, RulesError};
pub use tally::Tally;
pub use trace::{Event, NoTrace, Observer, PuzzleLog};
