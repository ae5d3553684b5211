//! # crabdice
//!
//! Exact, fast engines for two turn-based games from Advent of Code:
//! **Crab Combat** (2020 day 22; a card game, plain and recursive) and
//! **Dirac Dice** (2021 day 21; a deterministic die and a universe-splitting
//! "Dirac" die).

mod error;
mod input;

pub use error::{ParseError, ParseErrorKind};
