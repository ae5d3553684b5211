//! Printing results: AoC-style text lines, or one JSON object.
//!
//! Text is `part 1: N` and `part 2: N`, one a line, prefixed by the file name
//! when several files are solved; with `--part` it is the bare answer. JSON
//! is built from `#[derive(Serialize)]` structs, one per shape, so the field
//! names are in one place. Figures that can outgrow 64 bits (universe counts,
//! and the deterministic game's answer, rolls and scores, at huge targets)
//! are always decimal strings, so no JSON reader rounds them, and no reader
//! meets a number for a field in one run and a string in the next. A Combat
//! score outgrows 64 bits only with cards of about 10^16 and more, so it is a
//! number for every deal that cannot score past 2^64 - 1 (every puzzle
//! input) and a string, on every run, for a deal that can.

use std::fmt::Write;

use serde::Serialize;

use crate::cli::Output;
use crate::failure::Failure;
use crate::{combat, dice, timing};

/// What one file produced.
pub enum Solved {
    Combat(Vec<combat::Part>),
    Dice(Box<dice::Solved>),
}

/// One file's result, with its name.
pub struct FileResult {
    /// The file's name as shown on a terminal.
    pub name: String,
    /// The file's name as given, for JSON.
    pub path: String,
    pub solved: Solved,
    /// `--time`: the median time to parse the file's text.
    pub parse_time: Option<std::time::Duration>,
}

/// A part's answer as a text line's payload.
pub struct Line {
    pub part: u8,
    pub answer: String,
    pub time: Option<std::time::Duration>,
}

fn combat_answer(part: &combat::Part) -> String {
    match (part.outcome.score, part.outcome.end) {
        (Some(score), _) => score.to_string(),
        (None, crabdice::End::Cycle { start, length }) => {
            format!("no winner: the decks repeat forever, every {length} rounds from round {start}")
        }
        (None, _) => "no winner".to_owned(),
    }
}

/// A file's answers, one line a part run.
fn lines(result: &FileResult) -> Vec<Line> {
    match &result.solved {
        Solved::Combat(parts) => parts
            .iter()
            .map(|p| Line { part: p.number, answer: combat_answer(p), time: p.time })
            .collect(),
        Solved::Dice(solved) => dice::lines(solved),
    }
}

/// `--expect`: an error naming every part whose answer is not the one
/// expected (`expected` holds one answer a part run, in order, as decimal
/// digits with no leading zeros).
pub fn check(result: &FileResult, expected: &[String]) -> Result<(), Failure> {
    let wrong: Vec<String> = lines(result)
        .iter()
        .zip(expected)
        .filter(|(line, expected)| line.answer != **expected)
        .map(|(line, expected)| {
            format!("part {}: {}, where {expected} was expected", line.part, line.answer)
        })
        .collect();
    if wrong.is_empty() {
        return Ok(());
    }
    Err(Failure::Error(miette::miette!(
        help = "the answers found are on standard output",
        "{}: {}",
        result.name,
        wrong.join("; ")
    )))
}

/// The text output.
pub fn text(results: &[FileResult], output: Output) -> String {
    let several = results.len() > 1;
    let mut text = String::new();
    for result in results {
        for line in lines(result) {
            if several {
                text.push_str(&result.name);
                text.push_str(": ");
            }
            if output.part.is_none() || several {
                let _ = write!(text, "part {}: ", line.part);
            }
            text.push_str(&line.answer);
            if let Some(time) = line.time {
                let _ = write!(text, " ({})", timing::format(time));
            }
            text.push('\n');
        }
        if let Solved::Dice(solved) = &result.solved {
            text.push_str(&dice::histogram_text(solved));
        }
    }
    text
}

#[derive(Serialize)]
struct CombatJson<'a> {
    file: &'a str,
    game: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    part1: Option<CombatPartJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    part2: Option<CombatPartJson>,
}

#[derive(Serialize)]
struct CycleJson {
    start: u64,
    length: u64,
}

#[derive(Serialize)]
struct CombatPartJson {
    winner: Option<u8>,
    score: Option<serde_json::Value>,
    end: &'static str,
    rounds: u64,
    /// Part 1 only: the cycle, or `null` when the game ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    cycle: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// A number, or a string of decimal digits past 2^64 − 1.
    games: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_depth: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
}

fn combat_part_json(part: &combat::Part) -> CombatPartJson {
    let outcome = &part.outcome;
    let cycle = match outcome.end {
        crabdice::End::Cycle { start, length } => Some(CycleJson { start, length }),
        _ => None,
    };
    let unknown = || part.games_unknown.then_some(serde_json::Value::Null);
    CombatPartJson {
        winner: outcome.winner.map(crabdice::Player::number),
        score: outcome.score.map(|score| match u64::try_from(score) {
            Ok(small) if !part.wide_scores => small.into(),
            _ => score.to_string().into(),
        }),
        end: outcome.end.name(),
        rounds: outcome.rounds,
        // Part 1 always says whether it cycles; part 2 cannot.
        cycle: (part.number == 1).then(|| serde_json::to_value(cycle).unwrap_or_default()),
        // `null` when they were asked for but not counted in time.
        games: part
            .games
            .as_ref()
            .map(|(games, _)| match games.to_u128().and_then(|n| u64::try_from(n).ok()) {
                Some(small) => small.into(),
                None => games.to_string().into(),
            })
            .or_else(unknown),
        max_depth: part.games.as_ref().map(|(_, depth)| (*depth).into()).or_else(unknown),
        time_ns: part.time.map(nanos),
    }
}

/// Nanoseconds, saturating (a run longer than 584 years is not expected).
pub fn nanos(time: std::time::Duration) -> u64 {
    u64::try_from(time.as_nanos()).unwrap_or(u64::MAX)
}

fn file_json(result: &FileResult) -> serde_json::Value {
    let value = match &result.solved {
        Solved::Combat(parts) => {
            let find = |n| parts.iter().find(|p| p.number == n).map(combat_part_json);
            serde_json::to_value(CombatJson {
                file: &result.path,
                game: "combat",
                part1: find(1),
                part2: find(2),
            })
        }
        Solved::Dice(solved) => dice::json(&result.path, solved),
    };
    let mut value = value
        .unwrap_or_else(|e| serde_json::json!({ "file": result.path, "error": e.to_string() }));
    if let (Some(time), Some(object)) = (result.parse_time, value.as_object_mut()) {
        object.insert("parse_ns".to_owned(), nanos(time).into());
    }
    value
}

/// The JSON output: the file's object, or `{"files": [...]}` for several.
pub fn json(results: &[FileResult]) -> String {
    let value = match results {
        [one] => file_json(one),
        _ => serde_json::json!({ "files": results.iter().map(file_json).collect::<Vec<_>>() }),
    };
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}
