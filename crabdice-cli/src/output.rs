//! Printing results: AoC-style text lines, or one JSON object.
//!
//! Text is `part 1: N` and `part 2: N`, one a line, prefixed by the file name
//! when several files are solved; with `--part` it is the bare answer
//! (followed, like every line, by its time with `--time`, and by each
//! engine's with `--engine all`, in parentheses). JSON
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
use crate::compare::{Compared, Engine, EngineJson, Named, Run};
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
    /// The answer as `--expect` writes it: the same digits, or
    /// [`CYCLE`] for a game with no winner.
    pub expected_as: String,
    pub time: Option<std::time::Duration>,
    /// `--engine all`: each engine's run, the default engine's first (empty
    /// for a single engine).
    pub engines: Vec<EngineLine>,
    /// `--engine all`: the engines left out (a limit stopped them, or they
    /// refused the game).
    pub left_out: Vec<&'static str>,
}

/// `--engine all`: what one engine made of a part.
pub struct EngineLine {
    pub engine: &'static str,
    pub answer: String,
    pub time: Option<std::time::Duration>,
    /// Everything the engines are compared on, field by field: the whole
    /// outcome, not the answer alone.
    pub facts: Vec<(&'static str, String)>,
}

impl EngineLine {
    /// The engine's name, with its time if measured.
    fn label(&self) -> String {
        match self.time {
            Some(time) => format!("{} {}", self.engine, timing::format(time)),
            None => self.engine.to_owned(),
        }
    }
}

/// What `--expect` takes for a Combat part whose game never ends.
pub const CYCLE: &str = "cycle";

fn combat_answer(outcome: &crabdice::Outcome) -> String {
    match (outcome.score, outcome.end) {
        (Some(score), _) => score.to_string(),
        (None, crabdice::End::Cycle { start, length }) => {
            format!("no winner: the decks repeat forever, every {length} rounds from round {start}")
        }
        (None, _) => "no winner".to_owned(),
    }
}

/// One Combat engine's run, with the whole outcome as its facts.
fn combat_engine(run: &Run<Engine, crabdice::Outcome>) -> EngineLine {
    let outcome = &run.outcome;
    let decks = |player: crabdice::Player| {
        let cards: Vec<String> = outcome.decks[player].iter().map(ToString::to_string).collect();
        format!("[{}]", cards.join(", "))
    };
    let end = match outcome.end {
        crabdice::End::Cycle { start, length } => {
            format!("cycle of {length} rounds from round {start}")
        }
        end => end.name().to_owned(),
    };
    let facts = vec![
        ("winner", outcome.winner.map_or_else(|| "none".to_owned(), |p| p.number().to_string())),
        ("score", outcome.score.map_or_else(|| "none".to_owned(), |s| s.to_string())),
        ("end", end),
        ("rounds", outcome.rounds.to_string()),
        ("player 1's final deck", decks(crabdice::Player::One)),
        ("player 2's final deck", decks(crabdice::Player::Two)),
    ];
    EngineLine { engine: run.engine.name(), answer: combat_answer(outcome), time: run.time, facts }
}

/// Checks a file's answers: an error naming every part whose engines
/// disagree (`--engine all`), and on what, and every answer that is not
/// the one `expected` (`--expect`: one answer a part run, in order, as
/// decimal digits with no leading zeros).
pub fn verify(result: &FileResult, expected: Option<&[String]>) -> Result<(), Failure> {
    let lines = lines(result);
    let disagree = disagreements(&lines);
    let wrong = expected.map(|expected| unexpected(&lines, expected)).unwrap_or_default();
    if disagree.is_empty() && wrong.is_empty() {
        return Ok(());
    }
    let help = if disagree.is_empty() {
        "the answers found are on standard output"
    } else {
        "every engine's answer is on standard output; please report this input"
    };
    let problems = [disagree, wrong].concat().join("; ");
    Err(Failure::Error(miette::miette!(help = help, "{}: {problems}", result.name)))
}

/// Whether every engine that ran found the same, fact for fact.
fn agreeing(engines: &[EngineLine]) -> bool {
    engines.iter().all(|run| run.facts == engines[0].facts)
}

/// `--engine all`'s verdict, for JSON: whether every engine that ran found
/// the same, each run shown as `show` shows it (`None` when one engine was
/// asked for).
pub fn agreement<E, O>(
    compared: &Compared<E, O>,
    show: impl Fn(&Run<E, O>) -> EngineLine,
) -> Option<bool> {
    let engines: Vec<EngineLine> = compared.runs.iter().map(show).collect();
    (!engines.is_empty()).then(|| agreeing(&engines))
}

impl Line {
    /// A part's line: its answer and time, and, with `--engine all`, each
    /// engine's run as `show` shows it, and those left out.
    pub fn new<E: Named, O>(
        part: u8,
        answer: String,
        time: Option<std::time::Duration>,
        compared: &Compared<E, O>,
        show: impl Fn(&Run<E, O>) -> EngineLine,
    ) -> Self {
        let engines = compared.runs.iter().map(show).collect();
        let expected_as = answer.clone();
        Self { part, answer, expected_as, time, engines, left_out: compared.left_out_names() }
    }
}

/// Each part on which an engine finds anything other than the first
/// engine does: `part 2: fast and literal disagree on score (291 against
/// 290), rounds (17 against 18)`.
fn disagreements(lines: &[Line]) -> Vec<String> {
    let mut found = Vec::new();
    for line in lines {
        let Some((first, others)) = line.engines.split_first() else { continue };
        for other in others {
            let fields: Vec<String> = first
                .facts
                .iter()
                .zip(&other.facts)
                .filter(|(one, two)| one != two)
                .map(|((field, one), (_, two))| format!("{field} ({one} against {two})"))
                .collect();
            if !fields.is_empty() {
                found.push(format!(
                    "part {}: {} and {} disagree on {}",
                    line.part,
                    first.engine,
                    other.engine,
                    fields.join(", ")
                ));
            }
        }
    }
    found
}

/// A file's answers, one line a part run.
fn lines(result: &FileResult) -> Vec<Line> {
    match &result.solved {
        Solved::Combat(parts) => parts
            .iter()
            .map(|p| {
                let mut line = Line::new(
                    p.number,
                    combat_answer(&p.outcome),
                    p.time,
                    &p.compared,
                    combat_engine,
                );
                if p.outcome.score.is_none() {
                    CYCLE.clone_into(&mut line.expected_as);
                }
                line
            })
            .collect(),
        Solved::Dice(solved) => dice::lines(solved),
    }
}

/// `--expect`: each part whose answer is not the one expected.
fn unexpected(lines: &[Line], expected: &[String]) -> Vec<String> {
    lines
        .iter()
        .zip(expected)
        .filter(|(line, expected)| line.expected_as != **expected)
        .map(|(line, expected)| {
            format!("part {}: {}, where {expected} was expected", line.part, line.answer)
        })
        .collect()
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
            text.push_str(&answer_text(&line));
            text.push('\n');
        }
        if let Solved::Dice(solved) = &result.solved {
            text.push_str(&dice::histogram_text(solved));
        }
    }
    text
}

/// A line's answer, with its time, or with every engine's (`--engine all`):
/// `291 (fast 8.10 µs, literal 95.3 µs: agree)` when they agree in every
/// fact, each engine's answer when they do not, and the engines left out:
/// `444356092776315 (per-player, memo: agree; tree left out)`.
fn answer_text(line: &Line) -> String {
    let engines = &line.engines;
    let labels = || engines.iter().map(EngineLine::label).collect::<Vec<_>>().join(", ");
    let left_out = if line.left_out.is_empty() {
        String::new()
    } else {
        format!("; {} left out", line.left_out.join(", "))
    };
    match (engines.as_slice(), line.time) {
        ([], None) => line.answer.clone(),
        ([], Some(time)) => format!("{} ({})", line.answer, timing::format(time)),
        ([_], _) => format!("{} ({}{left_out})", line.answer, labels()),
        (_, _) if agreeing(engines) => {
            format!("{} ({}: agree{left_out})", line.answer, labels())
        }
        (_, _) => {
            let each: Vec<String> =
                engines.iter().map(|run| format!("{} ({})", run.answer, run.label())).collect();
            format!("{}{left_out}", each.join(", "))
        }
    }
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

/// What an engine found of a Combat part's top game.
#[derive(Serialize)]
struct OutcomeJson {
    winner: Option<u8>,
    score: Option<serde_json::Value>,
    end: &'static str,
    rounds: u64,
    /// Part 1 only: the cycle, or `null` when the game ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    cycle: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct CombatPartJson {
    #[serde(flatten)]
    outcome: OutcomeJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// A number, or a string of decimal digits past 2^64 − 1.
    games: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_depth: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
    /// `--engine all`: whether every engine that ran found the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    agree: Option<bool>,
    /// `--engine all`: every engine's outcome, fast first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    engines: Vec<EngineJson<OutcomeJson>>,
}

/// A score as JSON: a number, or a string for a deal that can score past
/// 2^64 − 1 (whatever this score is).
fn score_json(score: Option<u128>, wide: bool) -> Option<serde_json::Value> {
    score.map(|score| match u64::try_from(score) {
        Ok(small) if !wide => small.into(),
        _ => score.to_string().into(),
    })
}

/// An outcome as JSON. Part 1 always says whether it cycles (its `cycle`
/// is `{start, length}`, or `null` when the game ends); part 2 cannot.
fn outcome_json(part: &combat::Part, outcome: &crabdice::Outcome) -> OutcomeJson {
    let cycle = match outcome.end {
        crabdice::End::Cycle { start, length } => Some(CycleJson { start, length }),
        _ => None,
    };
    OutcomeJson {
        winner: outcome.winner.map(crabdice::Player::number),
        score: score_json(outcome.score, part.wide_scores),
        end: outcome.end.name(),
        rounds: outcome.rounds,
        cycle: (part.number == 1).then(|| serde_json::to_value(cycle).unwrap_or_default()),
    }
}

fn combat_part_json(part: &combat::Part) -> CombatPartJson {
    let unknown = || part.games_unknown.then_some(serde_json::Value::Null);
    CombatPartJson {
        outcome: outcome_json(part, &part.outcome),
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
        agree: agreement(&part.compared, combat_engine),
        engines: part.compared.json(|outcome| outcome_json(part, outcome)),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(engine: &'static str, answer: &str, rounds: &str) -> EngineLine {
        EngineLine {
            engine,
            answer: answer.to_owned(),
            time: None,
            facts: vec![("score", answer.to_owned()), ("rounds", rounds.to_owned())],
        }
    }

    fn line(engines: Vec<EngineLine>) -> Line {
        let answer = engines[0].answer.clone();
        let expected_as = answer.clone();
        Line { part: 2, answer, expected_as, time: None, engines, left_out: vec![] }
    }

    #[test]
    fn engines_that_agree_share_one_answer() {
        let agreeing = line(vec![run("fast", "291", "17"), run("literal", "291", "17")]);
        assert_eq!(answer_text(&agreeing), "291 (fast, literal: agree)");
        assert!(disagreements(&[agreeing]).is_empty());
        // Engines left out are named, so a check of nothing is visible.
        let mut alone = line(vec![run("fast", "291", "17")]);
        alone.left_out = vec!["literal"];
        assert_eq!(answer_text(&alone), "291 (fast; literal left out)");
        let mut two = line(vec![run("a", "5", "1"), run("b", "5", "1")]);
        two.left_out = vec!["c", "d"];
        assert_eq!(answer_text(&two), "5 (a, b: agree; c, d left out)");
        assert_eq!(unexpected(&[two], &["6".to_owned()]), ["part 2: 5, where 6 was expected"]);
    }

    /// A file's result for part 2 of the puzzle's example, played by both
    /// Combat engines, the literal one's rounds changed by `off`.
    fn example_result(off: u64) -> FileResult {
        let deal = crabdice::Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")
            .unwrap();
        let outcome = crabdice::play(&deal, crabdice::Variant::Recursive).unwrap();
        let mut literal = outcome.clone();
        literal.rounds += off;
        let run = |engine, outcome| Run { engine, outcome, time: None };
        let part = combat::Part {
            number: 2,
            outcome: outcome.clone(),
            games: None,
            games_unknown: false,
            time: None,
            wide_scores: false,
            compared: Compared {
                runs: vec![run(Engine::Fast, outcome), run(Engine::Literal, literal)],
                left_out: Vec::new(),
            },
        };
        FileResult {
            name: "deal.txt".to_owned(),
            path: "deal.txt".to_owned(),
            solved: Solved::Combat(vec![part]),
            parse_time: None,
        }
    }

    fn failure(verified: Result<(), Failure>) -> String {
        match verified {
            Err(Failure::Error(report)) => report.to_string(),
            other => panic!("an error, not {other:?}"),
        }
    }

    #[test]
    fn a_disagreement_fails_the_file_and_is_reported_with_a_wrong_answer() {
        let expected = ["291".to_owned()];
        assert!(verify(&example_result(0), Some(&expected)).is_ok());
        assert_eq!(
            failure(verify(&example_result(1), None)),
            "deal.txt: part 2: fast and literal disagree on rounds (17 against 18)"
        );
        assert_eq!(
            failure(verify(&example_result(1), Some(&["290".to_owned()]))),
            "deal.txt: part 2: fast and literal disagree on rounds (17 against 18); \
             part 2: 291, where 290 was expected"
        );
        assert_eq!(
            failure(verify(&example_result(0), Some(&["290".to_owned()]))),
            "deal.txt: part 2: 291, where 290 was expected"
        );
    }

    #[test]
    fn engines_that_disagree_on_anything_are_named_with_what_each_found() {
        // The same answer, but not the same game: still a disagreement.
        let rounds = line(vec![run("fast", "291", "17"), run("literal", "291", "18")]);
        assert_eq!(answer_text(&rounds), "291 (fast), 291 (literal)");
        assert_eq!(
            disagreements(&[rounds]),
            ["part 2: fast and literal disagree on rounds (17 against 18)"]
        );
        let mut three = vec![run("a", "1", "5"), run("b", "2", "6"), run("c", "1", "5")];
        three[1].time = Some(std::time::Duration::from_micros(12));
        let three = line(three);
        assert_eq!(answer_text(&three), "1 (a), 2 (b 12.0 µs), 1 (c)");
        assert_eq!(
            disagreements(&[three]),
            ["part 2: a and b disagree on score (1 against 2), rounds (5 against 6)"]
        );
    }
}
