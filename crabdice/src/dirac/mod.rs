//! # Dirac Dice
//!
//! (Overview written with the engines.)

mod deterministic;
mod rules;
mod starts;

pub use deterministic::{DeterministicOutcome, play_deterministic};
pub use rules::DiceRules;
pub use starts::Starts;
