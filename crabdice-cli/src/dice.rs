//! `crabdice dice`: the deterministic and Dirac games.

use crate::output::Line;

/// Everything the dice command learned.
pub struct Solved;

pub fn lines(_: &Solved) -> Vec<Line> {
    Vec::new()
}

pub fn histogram_text(_: &Solved) -> String {
    String::new()
}

pub fn json(_: &str, _: &Solved) -> serde_json::Value {
    serde_json::Value::Null
}

/// A parsed Dirac Dice input.
pub struct Game;

pub fn parse(
    source: &crate::source::Source,
    _: Option<&crate::cli::DiceOptions>,
) -> miette::Result<Game> {
    Err(miette::miette!("{}: Dirac Dice is not supported yet", source.name))
}

#[allow(clippy::unnecessary_wraps)]
pub fn run(
    _: &crate::source::Source,
    _: &Game,
    _: crate::cli::Output,
    _: Option<&crate::cli::DiceOptions>,
) -> Result<Solved, crate::failure::Failure> {
    Ok(Solved)
}
