//! `--engine all`: several engines on one part, side by side.
//!
//! Each engine that ran is kept with its outcome and time, the answering
//! engine's first; one that refused the game, or that a limit stopped, is
//! kept as left out, with the reason. What the engines are compared on is
//! each game's to say (`output` turns an outcome into facts, field by field);
//! this module holds the runs, whatever the game, and gives them to JSON.

use std::time::Duration;

use serde::Serialize;

use crate::output::nanos;

/// An engine that plays a Crab Combat part or Dirac Dice's part 1: the fast
/// one, with its proven shortcuts, or the literal one, as the puzzle tells
/// it (every round of every game; every roll).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Fast,
    Literal,
}

/// An engine's name, as the output shows it.
pub trait Named: Copy {
    fn name(self) -> &'static str;
}

impl Named for Engine {
    fn name(self) -> &'static str {
        match self {
            Self::Fast => "fast",
            Self::Literal => "literal",
        }
    }
}

impl Named for crabdice::DiracEngine {
    fn name(self) -> &'static str {
        crabdice::DiracEngine::name(self)
    }
}

/// What one engine made of a part.
#[derive(Debug)]
pub struct Run<E, O> {
    pub engine: E,
    pub outcome: O,
    pub time: Option<Duration>,
}

/// What each engine made of a part.
#[derive(Debug)]
pub struct Compared<E, O> {
    /// Each engine's run, the answering engine's first (empty when one
    /// engine was asked for).
    pub runs: Vec<Run<E, O>>,
    /// The engines left out, and why.
    pub left_out: Vec<(E, String)>,
}

impl<E: Named, O> Compared<E, O> {
    /// No runs yet.
    pub fn new() -> Self {
        Self { runs: Vec::new(), left_out: Vec::new() }
    }

    /// Leaves `engine` out, `why` noted on standard error for the part
    /// `label` names.
    pub fn leave_out(&mut self, label: &str, engine: E, why: impl std::fmt::Display) {
        crate::failure::note(format_args!(
            "{label}: --engine all leaves out the {} engine: {why}",
            engine.name()
        ));
        self.left_out.push((engine, why.to_string()));
    }

    /// The names of the engines left out.
    pub fn left_out_names(&self) -> Vec<&'static str> {
        self.left_out.iter().map(|&(engine, _)| engine.name()).collect()
    }

    /// Every engine's JSON entry, with what it `found`: those that ran,
    /// then those left out.
    pub fn json<F>(&self, found: impl Fn(&O) -> F) -> Vec<EngineJson<F>> {
        let ran = self.runs.iter().map(|run| EngineJson {
            engine: run.engine.name(),
            found: Some(found(&run.outcome)),
            time_ns: run.time.map(nanos),
            left_out: None,
        });
        let left_out = self.left_out.iter().map(|(engine, why)| EngineJson {
            engine: engine.name(),
            found: None,
            time_ns: None,
            left_out: Some(why.clone()),
        });
        ran.chain(left_out).collect()
    }
}

/// One engine's findings `F` and time, or why it was left out.
#[derive(Serialize)]
pub struct EngineJson<F> {
    engine: &'static str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    found: Option<F>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    left_out: Option<String>,
}
