//! `crabdice dice`: the deterministic game (part 1) and the Dirac game
//! (part 2), each under the puzzle's rules unless flags change them.

use std::fmt::Write;
use std::time::Duration;

use crabdice::{
    DeterministicOutcome, DiceError, DiceRules, DiracEngine, DiracLimits, DiracOutcome, Starts,
    WinsByTurn, play_deterministic, play_dirac_within, win_histogram_within,
};
use serde::Serialize;

use crate::cli::{DiceEngine, DiceOptions, Output};
use crate::failure::Failure;
use crate::output::{EngineRun, Line, nanos};
use crate::source::Source;
use crate::timing;

/// A parsed Dirac Dice input.
pub struct Game {
    starts: Starts,
}

/// Everything the dice command learned about one input.
pub struct Solved {
    players: Vec<u64>,
    deterministic: Option<Deterministic>,
    dirac: Option<Dirac>,
}

struct Deterministic {
    rules: DiceRules,
    outcome: DeterministicOutcome,
    time: Option<Duration>,
}

struct Dirac {
    rules: DiceRules,
    engine: DiracEngine,
    outcome: DiracOutcome,
    histogram: Option<Vec<WinsByTurn>>,
    time: Option<Duration>,
    /// `--engine all`: every engine's run, the default's first (empty
    /// otherwise).
    engines: Vec<DiracRun>,
    /// `--engine all`: the engines that refused the game, and why.
    left_out: Vec<(DiracEngine, String)>,
}

/// What one engine made of part 2.
struct DiracRun {
    engine: DiracEngine,
    outcome: DiracOutcome,
    time: Option<Duration>,
}

/// The puzzle's rules and the default limits.
pub const NO_OPTIONS: DiceOptions = DiceOptions {
    board: None,
    target: None,
    die: None,
    rolls: None,
    engine: DiceEngine::PerPlayer,
    histogram: false,
    threads: None,
    max_work: None,
    max_memory: None,
};

/// The limits on counting part 2: the defaults, with the flags' changes.
fn limits(options: &DiceOptions) -> DiracLimits {
    let default = DiracLimits::default();
    DiracLimits {
        max_work: options.max_work.map_or(default.max_work, u128::from),
        // A table of 64-bit words.
        max_table_words: options
            .max_memory
            .map_or(default.max_table_words, |bytes| bytes as u128 / 8),
        max_threads: options.threads.map_or(default.max_threads, usize::from),
    }
}

/// The rules of `part`: the puzzle's, with the flags' changes.
fn rules(part: u8, options: &DiceOptions) -> DiceRules {
    let puzzle = if part == 1 { DiceRules::deterministic() } else { DiceRules::dirac() };
    DiceRules {
        board: options.board.unwrap_or(puzzle.board),
        target: options.target.unwrap_or(puzzle.target),
        faces: options.die.unwrap_or(puzzle.faces),
        rolls: options.rolls.unwrap_or(puzzle.rolls),
    }
}

/// Shows a library error with the input's text (for a position off the
/// board) or with the part it concerns (for rules).
fn error(source: &Source, part: u8, error: DiceError) -> miette::Report {
    match error {
        DiceError::Parse(parse) => source.error(*parse),
        other => miette::Report::new(other).wrap_err(format!("{}: part {part}", source.name)),
    }
}

/// Reads the starting positions and checks them, and the rules, for every
/// part that will run, so that a bad input or flag fails before any output.
pub fn parse(
    source: &Source,
    options: Option<&DiceOptions>,
    output: Output,
) -> miette::Result<Game> {
    let options = options.unwrap_or(&NO_OPTIONS);
    let starts = Starts::parse(&source.text).map_err(|e| source.error(e))?;
    for part in [1, 2].into_iter().filter(|&p| output.wants(p)) {
        let rules = rules(part, options);
        rules.validate().map_err(|e| error(source, part, e.into()))?;
        starts.check(&rules).map_err(|e| source.error(e))?;
    }
    Ok(Game { starts })
}

/// The engine `--engine` names to answer, and those it runs beside it.
fn engines(engine: DiceEngine) -> (DiracEngine, &'static [DiracEngine]) {
    match engine {
        DiceEngine::PerPlayer => (DiracEngine::PerPlayer, &[]),
        DiceEngine::Memo => (DiracEngine::Memo, &[]),
        DiceEngine::Tree => (DiracEngine::Tree, &[]),
        DiceEngine::All => (DiracEngine::PerPlayer, &[DiracEngine::Memo, DiracEngine::Tree]),
    }
}

/// Plays the parts `output` asks for.
pub fn run(
    source: &Source,
    game: &Game,
    output: Output,
    options: Option<&DiceOptions>,
) -> Result<Solved, Failure> {
    let options = options.unwrap_or(&NO_OPTIONS);
    let starts = &game.starts;
    let deterministic = if output.wants(1) {
        let rules = rules(1, options);
        let outcome = play_deterministic(starts, &rules).map_err(|e| error(source, 1, e))?;
        let time = output.time.then(|| timing::median(|| drop(play_deterministic(starts, &rules))));
        Some(Deterministic { rules, outcome, time })
    } else {
        None
    };
    let dirac = if output.wants(2) { Some(dirac(source, starts, output, options)?) } else { None };
    Ok(Solved { players: starts.positions().to_vec(), deterministic, dirac })
}

/// Counts part 2 with the engine `options` name, or with all of them.
fn dirac(
    source: &Source,
    starts: &Starts,
    output: Output,
    options: &DiceOptions,
) -> Result<Dirac, Failure> {
    let rules = rules(2, options);
    let limits = limits(options);
    let (answering, others) = engines(options.engine);
    let count = |engine| play_dirac_within(starts, &rules, engine, &limits);
    let time = |engine| output.time.then(|| timing::median(|| drop(count(engine))));
    let outcome = count(answering).map_err(|e| error(source, 2, e))?;
    let histogram = if options.histogram {
        Some(win_histogram_within(starts, &rules, &limits).map_err(|e| error(source, 2, e))?)
    } else {
        None
    };
    let mut engines = Vec::new();
    let mut left_out = Vec::new();
    if !others.is_empty() {
        engines.push(DiracRun {
            engine: answering,
            outcome: outcome.clone(),
            time: time(answering),
        });
    }
    for &engine in others {
        match count(engine) {
            Ok(outcome) => engines.push(DiracRun { engine, outcome, time: time(engine) }),
            Err(refused) => {
                crate::failure::note(format_args!(
                    "{}: part 2: --engine all leaves out the {} engine: {refused}",
                    source.name,
                    engine.name()
                ));
                left_out.push((engine, refused.to_string()));
            }
        }
    }
    let time = engines.first().map_or_else(|| time(answering), |run| run.time);
    Ok(Dirac { rules, engine: answering, outcome, histogram, time, engines, left_out })
}

/// Part 2's facts, for `--engine all` to compare.
fn dirac_run(run: &DiracRun) -> EngineRun {
    let wins: Vec<String> = run.outcome.wins.iter().map(ToString::to_string).collect();
    EngineRun {
        engine: run.engine.name(),
        answer: run.outcome.answer.to_string(),
        time: run.time,
        facts: vec![
            ("answer", run.outcome.answer.to_string()),
            ("winner", (run.outcome.winner + 1).to_string()),
            ("wins", wins.join(", ")),
        ],
    }
}

/// The answer lines.
pub fn lines(solved: &Solved) -> Vec<Line> {
    let mut lines = Vec::new();
    if let Some(part) = &solved.deterministic {
        let answer = part.outcome.answer.to_string();
        lines.push(Line { part: 1, answer, time: part.time, engines: Vec::new() });
    }
    if let Some(part) = &solved.dirac {
        lines.push(Line {
            part: 2,
            answer: part.outcome.answer.to_string(),
            time: part.time,
            engines: part.engines.iter().map(dirac_run).collect(),
        });
    }
    lines
}

/// `--histogram`: per turn, the universes each player wins playing alone
/// (the first time its score reaches the target) and in the real game.
pub fn histogram_text(solved: &Solved) -> String {
    let Some(histogram) = solved.dirac.as_ref().and_then(|d| d.histogram.as_ref()) else {
        return String::new();
    };
    let mut header = vec!["turn".to_owned()];
    for player in 1..=histogram.len() {
        header.push(format!("player {player} alone"));
        header.push(format!("player {player} wins"));
    }
    let turns = histogram.iter().map(|h| h.alone.len().max(h.in_game.len())).max().unwrap_or(0);
    let cell = |counts: &[crabdice::Universes], turn: usize| {
        counts.get(turn).map_or_else(|| "0".to_owned(), ToString::to_string)
    };
    let mut rows = vec![header];
    for turn in 0..turns {
        let mut row = vec![(turn + 1).to_string()];
        for player in histogram {
            row.push(cell(&player.alone, turn));
            row.push(cell(&player.in_game, turn));
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::from("\n");
    for row in rows {
        let cells: Vec<String> =
            row.iter().zip(&widths).map(|(cell, &w)| format!("{cell:>w$}")).collect();
        let _ = writeln!(text, "{}", cells.join("  ").trim_end());
    }
    text
}

#[derive(Serialize)]
struct RulesJson {
    board: u64,
    target: u64,
    die: u64,
    rolls: u64,
}

impl From<&DiceRules> for RulesJson {
    fn from(rules: &DiceRules) -> Self {
        Self { board: rules.board, target: rules.target, die: rules.faces, rolls: rules.rolls }
    }
}

#[derive(Serialize)]
struct DeterministicJson {
    rules: RulesJson,
    answer: String,
    winner: usize,
    /// Strings of decimal digits, like every figure that can outgrow 64
    /// bits (with targets near 2^64), whatever its value: a reader never
    /// meets a number in one run and a string in the next.
    rolls: String,
    scores: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
}

#[derive(Serialize)]
struct HistogramJson {
    alone: Vec<String>,
    in_game: Vec<String>,
}

#[derive(Serialize)]
struct DiracJson {
    rules: RulesJson,
    engine: &'static str,
    answer: String,
    winner: usize,
    wins: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    histogram: Option<Vec<HistogramJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
    /// `--engine all`: every engine's count, or why it was left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    engines: Vec<DiracEngineJson>,
}

#[derive(Serialize)]
struct DiracEngineJson {
    engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wins: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
    /// Why the engine did not count the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    left_out: Option<String>,
}

#[derive(Serialize)]
struct DiceJson<'a> {
    file: &'a str,
    game: &'static str,
    players: &'a [u64],
    #[serde(skip_serializing_if = "Option::is_none")]
    part1: Option<DeterministicJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    part2: Option<DiracJson>,
}

fn strings(counts: &[crabdice::Universes]) -> Vec<String> {
    counts.iter().map(ToString::to_string).collect()
}

/// The JSON object for one input.
pub fn json(file: &str, solved: &Solved) -> serde_json::Result<serde_json::Value> {
    let part1 = solved.deterministic.as_ref().map(|part| DeterministicJson {
        rules: (&part.rules).into(),
        answer: part.outcome.answer.to_string(),
        winner: part.outcome.winner + 1,
        rolls: part.outcome.rolls.to_string(),
        scores: part.outcome.scores().iter().map(ToString::to_string).collect(),
        time_ns: part.time.map(nanos),
    });
    let part2 = solved.dirac.as_ref().map(|part| DiracJson {
        rules: (&part.rules).into(),
        engine: part.engine.name(),
        answer: part.outcome.answer.to_string(),
        winner: part.outcome.winner + 1,
        wins: strings(&part.outcome.wins),
        histogram: part.histogram.as_ref().map(|h| {
            h.iter()
                .map(|p| HistogramJson { alone: strings(&p.alone), in_game: strings(&p.in_game) })
                .collect()
        }),
        time_ns: part.time.map(nanos),
        engines: part
            .engines
            .iter()
            .map(|run| DiracEngineJson {
                engine: run.engine.name(),
                answer: Some(run.outcome.answer.to_string()),
                winner: Some(run.outcome.winner + 1),
                wins: Some(strings(&run.outcome.wins)),
                time_ns: run.time.map(nanos),
                left_out: None,
            })
            .chain(part.left_out.iter().map(|(engine, why)| DiracEngineJson {
                engine: engine.name(),
                answer: None,
                winner: None,
                wins: None,
                time_ns: None,
                left_out: Some(why.clone()),
            }))
            .collect(),
    });
    serde_json::to_value(DiceJson { file, game: "dice", players: &solved.players, part1, part2 })
}
