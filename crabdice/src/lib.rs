//! # crabdice
//!
//! Exact, fast engines for two turn-based games from Advent of Code:
//! **Crab Combat** (2020 day 22; a card game, plain and recursive) and
//! **Dirac Dice** (2021 day 21; a deterministic die and a universe-splitting
//! "Dirac" die).

pub mod combat;
mod detect;
mod error;
mod input;
mod trace;

pub use combat::{
    Card, Deal, DealError, End, Exhausted, Limits, Outcome, PROGRESS_INTERVAL, PerPlayer, Player,
    Report, Variant, play, play_observed, play_with,
};
pub use detect::Game;
pub use error::{ParseError, ParseErrorKind};
pub use trace::{Event, NoTrace, Observer, PuzzleLog};
