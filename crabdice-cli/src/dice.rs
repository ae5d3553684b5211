//! `crabdice dice`: the deterministic game (part 1) and the Dirac game
//! (part 2), each under the puzzle's rules unless flags change them.
//!
//! The flags become the library's [`DiceRules`] for each part (a flag
//! applies to every part run; a part without one keeps the puzzle's value)
//! and [`DiracLimits`]. The library refuses rules too large to count before
//! it starts, and its errors name its own fields (`DiceRules::target`,
//! `DiracLimits::max_work`): [`flags`] retells each refusal's help in the
//! flags' names, and under `solve`, which has none of those flags, says
//! whose they are. `--engine all` runs every engine of a part and compares
//! every player's figures; an engine beside the answering one that refuses
//! the game is left out with a note.

use std::fmt::Write;
use std::time::Duration;

use crabdice::{
    DeterministicOutcome, DiceError, DiceRules, DiracEngine, DiracLimit, DiracLimits, DiracOutcome,
    ParseError, ParseErrorKind, RulesError, Starts, WinsByTurn, check_win_histogram,
    play_deterministic, play_deterministic_literal, play_dirac_within, win_histogram_within,
};
use serde::Serialize;

use crate::cli::{DiceEngine, DiceOptions, Output};
use crate::compare::{Compared, Engine, EngineJson, Named, Run};
use crate::failure::{Failure, Helped, other_part_alone};
use crate::output::{EngineLine, Line, agreement, nanos};
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
    compared: Compared<Engine, DeterministicOutcome>,
}

struct Dirac {
    rules: DiceRules,
    engine: DiracEngine,
    outcome: DiracOutcome,
    histogram: Option<Vec<WinsByTurn>>,
    time: Option<Duration>,
    compared: Compared<DiracEngine, DiracOutcome>,
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
/// board) or with the part it concerns (for rules): `part` is its number,
/// or its number and engine (`2 (the memo engine)`). For `solve`, which
/// has none of the rules' flags, a help that names them says whose they
/// are.
fn error(
    source: &Source,
    part: impl std::fmt::Display,
    error: DiceError,
    solve: bool,
) -> miette::Report {
    if let DiceError::Parse(parse) = error {
        return input_error(source, *parse, solve);
    }
    // A refusal of the rules is helped in the flags' names; `solve` has
    // none of the rules' flags or limits.
    let flags = match &error {
        DiceError::Rules(rules) => flags(rules).map(|help| {
            if solve {
                format!(
                    "{help}; these options are `crabdice dice`'s: `solve` plays the puzzle's \
                     rules within the default limits"
                )
            } else {
                help
            }
        }),
        _ => None,
    };
    let help = flags.or_else(|| miette::Diagnostic::help(&error).map(|help| help.to_string()));
    // On the message's own line, as Combat's are: the first line of
    // standard error says what went wrong, and where.
    let message = format!("{}: part {part}: {error}", source.name);
    match help {
        Some(help) => miette::miette!(help = help, "{message}"),
        None => miette::miette!("{message}"),
    }
}

/// Shows an error in the starting positions; a position off the board
/// says which flag changes the board.
fn input_error(source: &Source, error: ParseError, solve: bool) -> miette::Report {
    if let ParseErrorKind::OffBoard { .. } = error.kind() {
        let help = if solve {
            "give a space on the board (the puzzle's has 10), or play on a larger one with \
             `crabdice dice --board`"
        } else {
            "give a space on the board, or change the board's size with --board"
        };
        source.error(Helped { error, help: help.to_owned() })
    } else {
        source.error(error)
    }
}

/// What to do about a refusal of the rules, in the flags' names (the
/// library's help names its fields); `None` for a refusal it does not
/// know, which keeps the library's help.
fn flags(error: &RulesError) -> Option<String> {
    let memory = "--max-memory (8 bytes a word)";
    Some(match error {
        RulesError::EmptyBoard => "use --board 1 or more".to_owned(),
        RulesError::NoFaces => "use --die 1 or more".to_owned(),
        RulesError::NoRolls => "use --rolls 1 or more".to_owned(),
        RulesError::NoTarget => "use --target 1 or more".to_owned(),
        RulesError::DiracTooBig { .. } => format!(
            "lower --target or --board, or --die or --rolls when the board is larger than target \
             + rolls × die, or raise the limit with {memory}"
        ),
        RulesError::DiracNoMemory { .. } => {
            "lower --max-memory to the memory this machine has, or --target or --board".to_owned()
        }
        RulesError::DiracTooSlow { .. } => format!(
            "lower --target, --board, --die or --rolls, or raise the limit with --max-work (the \
             default, {}, is up to about ten seconds of work)",
            crabdice::DIRAC_WORK
        ),
        RulesError::DiracTooManyPlayers { passed, .. } => {
            let flag = match passed {
                DiracLimit::MaxWork => "--max-work",
                _ => memory,
            };
            format!("use fewer players, or raise the limit with {flag}")
        }
        RulesError::MemoTooLarge { .. } | RulesError::TreeTooLarge { .. } => {
            "use --engine per-player, or a lower --target".to_owned()
        }
        RulesError::PastTheTable { reason, .. } => {
            format!(
                "use --engine per-player, which counts this game within the limits, or {}",
                flags(reason)?
            )
        }
        RulesError::MemoPastLimits { .. } => {
            "use --engine per-player, or raise --max-memory or --max-work".to_owned()
        }
        RulesError::PeriodTooLong { .. } => {
            "use a smaller --board or --die, or a lower --target".to_owned()
        }
        RulesError::LiteralTooLong { .. } => {
            "lower --target or --rolls: a game lasts at least target ÷ board turns a player"
                .to_owned()
        }
        RulesError::TooManyRolls => "lower --rolls or --target".to_owned(),
        _ => return None,
    })
}

/// Reads the starting positions and checks them, and the rules, for every
/// part that will run, so that a bad input or flag fails before any output.
pub fn parse(
    source: &Source,
    options: Option<&DiceOptions>,
    output: Output,
) -> miette::Result<Game> {
    let solve = options.is_none();
    let options = options.unwrap_or(&NO_OPTIONS);
    let starts = Starts::parse(&source.text).map_err(|e| input_error(source, e, solve))?;
    for part in [1, 2].into_iter().filter(|&p| output.wants(p)) {
        let rules = rules(part, options);
        rules.validate().map_err(|e| error(source, part, e.into(), solve))?;
        starts.check(&rules).map_err(|e| input_error(source, e, solve))?;
    }
    Ok(Game { starts })
}

/// The Dirac engine `--engine` names to answer, and those it runs beside it.
fn engines(engine: DiceEngine) -> (DiracEngine, &'static [DiracEngine]) {
    match engine {
        DiceEngine::PerPlayer => (DiracEngine::PerPlayer, &[]),
        DiceEngine::Memo => (DiracEngine::Memo, &[]),
        DiceEngine::Tree => (DiracEngine::Tree, &[]),
        DiceEngine::All => (DiracEngine::PerPlayer, &[DiracEngine::Memo, DiracEngine::Tree]),
    }
}

/// The deterministic game's engine that answers, and those `--engine`
/// runs beside it: `all` adds the literal one, roll by roll.
fn solvers(engine: DiceEngine) -> (Engine, &'static [Engine]) {
    (Engine::Fast, if engine == DiceEngine::All { &[Engine::Literal] } else { &[] })
}

/// Plays the parts `output` asks for.
pub fn run(
    source: &Source,
    game: &Game,
    output: Output,
    options: Option<&DiceOptions>,
) -> Result<Solved, Failure> {
    // Only `solve` gives no options.
    let solve = options.is_none();
    let options = options.unwrap_or(&NO_OPTIONS);
    let starts = &game.starts;
    let deterministic = if output.wants(1) {
        let rules = rules(1, options);
        let play = |solver| match solver {
            Engine::Fast => play_deterministic(starts, &rules),
            Engine::Literal => play_deterministic_literal(starts, &rules),
        };
        let solvers = solvers(options.engine);
        let hint = other_part_alone(1, output);
        let (Run { outcome, time, .. }, compared) =
            compare(source, (1, hint, solve), output, solvers, play)?;
        Some(Deterministic { rules, outcome, time, compared })
    } else {
        None
    };
    let dirac = if output.wants(2) {
        let rules = rules(2, options);
        let limits = limits(options);
        let engines = engines(options.engine);
        // Part 1 was answered: say how to have it alone, as nothing is
        // printed when part 2 fails.
        let hint = other_part_alone(2, output);
        let refused = |e| error(source, part_label(2, [hint]), e, solve);
        // A histogram keeps every turn's wins, so it may be refused where
        // the answer is not: say so before counting the answer.
        if options.histogram {
            check_win_histogram(starts, &rules, &limits).map_err(refused)?;
        }
        let play = |engine| play_dirac_within(starts, &rules, engine, &limits);
        let (Run { outcome, time, .. }, compared) =
            compare(source, (2, hint, solve), output, engines, play)?;
        let histogram = if options.histogram {
            Some(win_histogram_within(starts, &rules, &limits).map_err(refused)?)
        } else {
            None
        };
        Some(Dirac { rules, engine: engines.0, outcome, histogram, time, compared })
    } else {
        None
    };
    Ok(Solved { players: starts.positions().to_vec(), deterministic, dirac })
}

/// The part as its error names it: the number, then any of `notes` (the
/// engine, how to have the other part alone) in brackets: `2 (the memo
/// engine; for part 1 alone, add --part 1)`.
fn part_label<const N: usize>(part: u8, notes: [Option<&str>; N]) -> String {
    let notes: Vec<&str> = notes.into_iter().flatten().collect();
    if notes.is_empty() { part.to_string() } else { format!("{part} ({})", notes.join("; ")) }
}

/// The answering engine's run, and every engine's (`--engine all`).
type Played<E, O> = (Run<E, O>, Compared<E, O>);

/// Plays `part` with the `answering` engine (its refusal is the run's
/// error, followed by `hint`) and with `--engine all`'s `others`, compared
/// with it (an engine that refuses the game is left out, with a note).
/// Gives the answering run, timed with `--time`, and every engine's when
/// there are several.
fn compare<E: Named, O: Clone>(
    source: &Source,
    (part, hint, solve): (u8, Option<&str>, bool),
    output: Output,
    (answering, others): (E, &[E]),
    play: impl Fn(E) -> Result<O, DiceError>,
) -> Result<Played<E, O>, Failure> {
    let time = |engine| output.time.then(|| timing::median(|| drop(play(engine))));
    let mut compared = Compared::new();
    let outcome = play(answering).map_err(|e| {
        // Named with the engine when several run.
        let engine = (!others.is_empty()).then(|| format!("the {} engine", answering.name()));
        error(source, part_label(part, [engine.as_deref(), hint]), e, solve)
    })?;
    let answer_time = time(answering);
    if !others.is_empty() {
        compared.runs.push(Run { engine: answering, outcome: outcome.clone(), time: answer_time });
    }
    for &engine in others {
        match play(engine) {
            Ok(outcome) => compared.runs.push(Run { engine, outcome, time: time(engine) }),
            Err(refused) => {
                compared.leave_out(&format!("{}: part {part}", source.name), engine, refused);
            }
        }
    }
    Ok((Run { engine: answering, outcome, time: answer_time }, compared))
}

/// What `--engine all` compares of an outcome, field by field, the
/// answer first.
trait Facts {
    fn facts(&self) -> Vec<(&'static str, String)>;
}

impl Facts for DeterministicOutcome {
    fn facts(&self) -> Vec<(&'static str, String)> {
        let scores: Vec<String> = self.scores().iter().map(ToString::to_string).collect();
        vec![
            ("answer", self.answer.to_string()),
            ("winner", (self.winner + 1).to_string()),
            ("scores", format!("[{}]", scores.join(", "))),
            ("turns", self.turns.to_string()),
            ("rolls", self.rolls.to_string()),
        ]
    }
}

impl Facts for DiracOutcome {
    fn facts(&self) -> Vec<(&'static str, String)> {
        vec![
            ("answer", self.answer.to_string()),
            ("winner", (self.winner + 1).to_string()),
            ("wins", format!("[{}]", strings(&self.wins).join(", "))),
        ]
    }
}

/// One engine's run as a line shows it.
fn engine_line<E: Named, O: Facts>(run: &Run<E, O>) -> EngineLine {
    let facts = run.outcome.facts();
    EngineLine { engine: run.engine.name(), answer: facts[0].1.clone(), time: run.time, facts }
}

/// The answer lines.
pub fn lines(solved: &Solved) -> Vec<Line> {
    let mut lines = Vec::new();
    if let Some(part) = &solved.deterministic {
        let answer = part.outcome.answer.to_string();
        lines.push(Line::new(1, answer, part.time, &part.compared, engine_line));
    }
    if let Some(part) = &solved.dirac {
        let answer = part.outcome.answer.to_string();
        lines.push(Line::new(2, answer, part.time, &part.compared, engine_line));
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

/// What an engine found of the deterministic game.
#[derive(Serialize)]
struct DeterministicFound {
    answer: String,
    winner: usize,
    /// Strings of decimal digits, like every figure that can outgrow 64
    /// bits (with targets near 2^64), whatever its value: a reader never
    /// meets a number in one run and a string in the next.
    rolls: String,
    scores: Vec<String>,
}

impl From<&DeterministicOutcome> for DeterministicFound {
    fn from(outcome: &DeterministicOutcome) -> Self {
        Self {
            answer: outcome.answer.to_string(),
            winner: outcome.winner + 1,
            rolls: outcome.rolls.to_string(),
            scores: outcome.scores().iter().map(ToString::to_string).collect(),
        }
    }
}

#[derive(Serialize)]
struct DeterministicJson {
    rules: RulesJson,
    #[serde(flatten)]
    found: DeterministicFound,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
    /// `--engine all`: whether every engine that ran found the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    agree: Option<bool>,
    /// `--engine all`: every engine's game, or why it was left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    engines: Vec<EngineJson<DeterministicFound>>,
}

#[derive(Serialize)]
struct HistogramJson {
    alone: Vec<String>,
    in_game: Vec<String>,
}

/// What an engine found of the Dirac game.
#[derive(Serialize)]
struct DiracFound {
    answer: String,
    winner: usize,
    wins: Vec<String>,
}

impl From<&DiracOutcome> for DiracFound {
    fn from(outcome: &DiracOutcome) -> Self {
        Self {
            answer: outcome.answer.to_string(),
            winner: outcome.winner + 1,
            wins: strings(&outcome.wins),
        }
    }
}

#[derive(Serialize)]
struct DiracJson {
    rules: RulesJson,
    engine: &'static str,
    #[serde(flatten)]
    found: DiracFound,
    #[serde(skip_serializing_if = "Option::is_none")]
    histogram: Option<Vec<HistogramJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ns: Option<u64>,
    /// `--engine all`: whether every engine that ran found the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    agree: Option<bool>,
    /// `--engine all`: every engine's count, or why it was left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    engines: Vec<EngineJson<DiracFound>>,
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
        found: (&part.outcome).into(),
        time_ns: part.time.map(nanos),
        agree: agreement(&part.compared, engine_line),
        engines: part.compared.json(|outcome| outcome.into()),
    });
    let part2 = solved.dirac.as_ref().map(|part| DiracJson {
        rules: (&part.rules).into(),
        engine: part.engine.name(),
        found: (&part.outcome).into(),
        histogram: part.histogram.as_ref().map(|h| {
            h.iter()
                .map(|p| HistogramJson { alone: strings(&p.alone), in_game: strings(&p.in_game) })
                .collect()
        }),
        time_ns: part.time.map(nanos),
        agree: agreement(&part.compared, engine_line),
        engines: part.compared.json(|outcome| outcome.into()),
    });
    serde_json::to_value(DiceJson { file, game: "dice", players: &solved.players, part1, part2 })
}

#[cfg(test)]
mod tests {
    use crabdice::{DiracLimit, RulesError};

    use super::flags;

    /// Every refusal of the rules that the library gives gets help naming
    /// the flag that changes it, where the library's help names its field.
    #[test]
    fn every_refusal_of_the_rules_names_its_flags() {
        let players = |passed| RulesError::DiracTooManyPlayers {
            players: 3,
            words: 2,
            work: 2,
            limit: 1,
            passed,
        };
        let past = |reason| RulesError::PastTheTable {
            engine: crabdice::DiracEngine::Memo,
            reason: Box::new(reason),
        };
        let cases = [
            (RulesError::EmptyBoard, "--board"),
            (RulesError::NoFaces, "--die"),
            (RulesError::NoRolls, "--rolls"),
            (RulesError::NoTarget, "--target"),
            (RulesError::DiracTooBig { words: 2, limit: 1 }, "--max-memory"),
            (RulesError::DiracNoMemory { words: 2 }, "--max-memory"),
            (RulesError::DiracTooSlow { work: 2, limit: 1 }, "--max-work"),
            (players(DiracLimit::MaxTableWords), "--max-memory"),
            (players(DiracLimit::MaxWork), "--max-work"),
            (RulesError::MemoTooLarge { limit: 1 }, "--engine per-player"),
            (
                RulesError::MemoPastLimits {
                    states: 1,
                    words: 2,
                    work: 2,
                    max_words: 1,
                    max_work: 1,
                },
                "--max-work",
            ),
            (RulesError::TreeTooLarge { limit: 1 }, "--engine per-player"),
            (past(RulesError::DiracTooBig { words: 2, limit: 1 }), "--engine per-player"),
            (past(RulesError::DiracTooBig { words: 2, limit: 1 }), "--max-memory"),
            (past(RulesError::DiracTooSlow { work: 2, limit: 1 }), "--max-work"),
            (RulesError::PeriodTooLong { limit: 1 }, "--board"),
            (RulesError::LiteralTooLong { limit: 1 }, "--target"),
            (RulesError::TooManyRolls, "--rolls"),
        ];
        for (error, flag) in cases {
            let help = flags(&error).unwrap_or_default();
            assert!(help.contains(flag), "{error}: {help}");
            assert!(!help.contains("DiceRules") && !help.contains("DiracLimits"), "{help}");
        }
    }
}
