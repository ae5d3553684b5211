//! # Dirac Dice
//!
//! (Overview written with the engines.)

mod deterministic;
mod memo;
mod quantum;
mod rules;
mod starts;
mod tree;

pub use deterministic::{DeterministicOutcome, play_deterministic};
pub use quantum::{DiracEngine, DiracOutcome, WinsByTurn, count_wins, play_dirac, win_histogram};
pub use rules::DiceRules;
pub use starts::Starts;
