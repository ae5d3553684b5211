//! The command line's shape: subcommands, options and their help, and the
//! run that follows them.
//!
//! clap's derive API declares the three commands (`solve`, `combat`,
//! `dice`) and their flags; counts are parsed here rather than by clap, so
//! that `2^64-1`, `1e12` and `10_000` are accepted and a value out of range
//! is refused with its limits. [`run`] then reads and parses every file
//! before it solves any (a bad file leaves standard output empty, and every
//! bad file is named), recognises each file's game for `solve` (a file of
//! the other game given to `combat` or `dice` is told which command reads
//! it), solves the parts asked for, and prints text or JSON in one write at
//! the end.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Plays, solves and explains Crab Combat and Dirac Dice (Advent of Code
/// 2020 day 22 and 2021 day 21), exactly and fast.
#[derive(Debug, Parser)]
#[command(name = "crabdice", version)]
#[command(after_help = "Examples:\n  \
    crabdice solve examples/*.txt\n  \
    crabdice combat examples/combat.txt --part 2 --trace | head -20\n  \
    crabdice dice examples/dice.txt --target 100 --json\n  \
    cat input.txt | crabdice solve -")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Each one's arguments are built only when it runs
/// (`defer`): building all three took about 0.13 ms of CPU, a sixth of a
/// puzzle input's whole run.
///
/// Deferred arguments are added after a subcommand's own description, so
/// the structs of arguments below, and those they flatten, carry plain
/// comments, not doc comments, which clap would take for the description
/// (a test checks each subcommand's).
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Recognize the game in each file and print both parts' answers.
    #[command(after_help = "Examples:\n  \
        crabdice solve examples/combat.txt examples/dice.txt\n  \
        crabdice solve input.txt --part 2      # the bare answer, for scripts\n  \
        crabdice solve input.txt --json --time\n  \
        crabdice solve big-deal.txt --max-time 60")]
    Solve(Solve),
    /// Crab Combat: plain (part 1) and recursive (part 2).
    #[command(after_help = "Examples:\n  \
        crabdice combat examples/combat.txt\n  \
        crabdice combat examples/combat.txt --part 2 --trace\n  \
        crabdice combat deal.txt --json --max-rounds 100000000\n  \
        crabdice combat deal.txt --part 2 --max-time 10\n  \
        crabdice combat deal.txt --engine all --time    # both engines, cross-checked")]
    Combat(Combat),
    /// Dirac Dice: the deterministic die (part 1) and the Dirac die (part 2).
    #[command(after_help = "Examples:\n  \
        crabdice dice examples/dice.txt\n  \
        crabdice dice examples/dice.txt --part 2 --target 30 --die 4\n  \
        crabdice dice examples/dice.txt --part 1 --target 1e12\n  \
        crabdice dice examples/dice.txt --part 1 --board 2^64-1 --target 10^18\n  \
        crabdice dice examples/dice.txt --part 2 --histogram\n  \
        crabdice dice examples/dice.txt --part 2 --target 10 --engine all --time\n\n\
        Part 1's answer is the lowest score among the players who did not win, times the \
        rolls made; part 2's is the most universes any player wins in, and its winner that \
        player (the lowest-numbered of any that tie).\n\n\
        Counts may be written in digits (20_000_000 groups them), as a power \
        (10^18, 2^64-1) or in scientific notation (1e12, 2.5e9).")]
    Dice(Dice),
}

// `crabdice solve`'s arguments.
#[derive(Debug, Args)]
pub struct Solve {
    /// Puzzle inputs (`-` reads standard input). All are read and checked
    /// before any is solved; every one that cannot be read or parsed is
    /// named, and nothing is solved. With several files, each answer's line
    /// starts with its file's name and part, --part or not.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub bounds: Bounds,
    #[command(flatten)]
    pub check: Check,
}

// `crabdice combat`'s arguments.
#[derive(Debug, Args)]
pub struct Combat {
    /// A deal: `Player 1:` and its cards, a blank line, `Player 2:` and its cards (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub options: CombatOptions,
    #[command(flatten)]
    pub check: Check,
}

// `crabdice dice`'s arguments.
#[derive(Debug, Args)]
#[command(mut_arg("json", |json| json.help(
    "Print one JSON object with everything known about the run: the players' \
     starts, and per part the rules used, the answer, the winner, part 1's rolls \
     and scores, part 2's engine and wins (answers, rolls, scores and wins as strings of digits)"
)))]
#[command(mut_arg("expect", |expect| expect.help(
    "Check the answers against ANSWERS, the expected answers of the parts run, in order \
     and separated by commas (`--expect 739785,444356092776315`, or `--part 1 --expect 739785`): \
     the answers are printed as usual, and if any differs, a message on standard error names \
     it and the exit status is 1"
)))]
pub struct Dice {
    /// Starting positions: `Player 1 starting position: 4`, one line a player (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub options: DiceOptions,
    #[command(flatten)]
    pub check: Check,
}

// Options every command shares.
#[derive(Debug, Clone, Copy, Args)]
pub struct Output {
    /// Only this part; the plain output is then the bare answer.
    #[arg(long, value_name = "N", value_parser = part, allow_negative_numbers = true)]
    pub part: Option<u8>,
    /// Print one JSON object with everything known about the run. For
    /// Recursive Combat this counts every game the deal plays: with no
    /// --max-time, that count stops after 10 s (some deals play billions),
    /// and `games` and `max_depth` are then null, with a note.
    #[arg(long)]
    pub json: bool,
    /// Also time each part's solver (median of at least 11 runs, ~0.3 s);
    /// with --json, the reading of the input too (`parse_ns`).
    #[arg(long)]
    pub time: bool,
}

impl Output {
    /// Whether to run `part`.
    pub fn wants(self, part: u8) -> bool {
        self.part.is_none_or(|p| p == part)
    }
}

// `--expect`: the answers a run must give, to check a change against
// known answers.
#[derive(Debug, Clone, Default, Args)]
pub struct Check {
    /// Check the answers against ANSWERS, the expected answers of the parts
    /// run, in order and separated by commas (`--expect 306,291`, or
    /// `--part 2 --expect 291`; `cycle` for a Combat game that never ends):
    /// the answers are printed as usual, and if any differs, a message on
    /// standard error names it and the exit status is 1. One file only.
    #[arg(long, value_name = "ANSWERS", value_parser = expected_answers, allow_negative_numbers = true)]
    pub expect: Option<Expected>,
}

/// The answers given to `--expect`, each as decimal digits with no
/// leading zeros (so `0291` and `2_91` expect `291`), or `cycle`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected(pub Vec<String>);

impl Expected {
    /// Exits with a usage error unless there is one answer for each part
    /// `output` runs, of one file.
    fn fit(&self, command: &str, files: usize, output: Output) {
        let parts = if output.part.is_some() { 1 } else { 2 };
        let dice = command == "dice";
        let problem = if files > 1 {
            Some("--expect checks the answers of one file: give one file".to_owned())
        } else if dice && self.0.iter().any(|answer| answer == crate::output::CYCLE) {
            Some("`cycle` is a Crab Combat answer: every Dirac Dice game ends".to_owned())
        } else if self.0.len() != parts {
            let given = match self.0.len() {
                1 => "1 answer".to_owned(),
                n => format!("{n} answers"),
            };
            Some(if parts == 1 {
                let example =
                    if dice { "--part 1 --expect 739785" } else { "--part 2 --expect 291" };
                format!(
                    "--expect gives {given}, but 1 part is run: give its answer alone (`{example}`)"
                )
            } else {
                let example = if dice { "739785,444356092776315" } else { "306,291" };
                format!(
                    "--expect gives {given}, but 2 parts are run: give one answer a part, \
                     separated by commas (`--expect {example}`), or choose a part with --part"
                )
            })
        } else {
            None
        };
        if let Some(problem) = problem {
            conflict(command, problem);
        }
    }
}

/// Exits as clap does for options that cannot go together: `problem` on
/// standard error, with the usage of the subcommand `command`, and status 2.
fn conflict(command: &str, problem: impl std::fmt::Display) -> ! {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    // Builds the deferred subcommands too, and names them `crabdice combat`.
    cli.build();
    match cli.find_subcommand_mut(command) {
        Some(sub) => sub.error(clap::error::ErrorKind::ArgumentConflict, problem).exit(),
        None => cli.error(clap::error::ErrorKind::ArgumentConflict, problem).exit(),
    }
}

fn expected_answers(text: &str) -> Result<Expected, String> {
    let answer = |written: &str| {
        let written = written.trim();
        if written == crate::output::CYCLE {
            return Ok(written.to_owned());
        }
        let digits = written.replace('_', "");
        let digit_ends = written.starts_with(|c: char| c.is_ascii_digit())
            && written.ends_with(|c: char| c.is_ascii_digit());
        if written.is_empty() {
            return Err("an answer is missing: answers are whole numbers in digits \
                 (or `cycle`, for a Combat game that never ends), separated by commas, \
                 such as `306,291`"
                .to_owned());
        }
        if !digit_ends || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{written}` is not an answer: answers are whole numbers in digits \
                 (or `cycle`, for a Combat game that never ends), separated by commas, \
                 such as `306,291`"
            ));
        }
        let significant = digits.trim_start_matches('0');
        Ok(if significant.is_empty() { "0".to_owned() } else { significant.to_owned() })
    };
    text.split(',').map(answer).collect::<Result<_, _>>().map(Expected)
}

// Limits on the work of a Crab Combat part (Dirac Dice games too large to
// count are refused before they start).
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct Bounds {
    /// Give up on a Combat part once the engine has played more than N
    /// rounds, counting every game it plays. The fast engine (the default)
    /// skips many games, but plays rounds beyond a game's own count to find
    /// where its cycle starts, and finishes rounds in flight, so the count
    /// may pass N by up to a deck's length. (`combat --engine literal` and
    /// --trace play every round of every game, so they answer any deal
    /// whose games draw N rounds or fewer in all: for a plain game they
    /// have the fast engine find where its cycle starts, and keep every
    /// state instead if the limit stops it. `--json` walks through
    /// every game to count part 2's games, within the same limits.)
    #[arg(long, value_name = "N", value_parser = whole_number, allow_negative_numbers = true)]
    pub max_rounds: Option<u64>,
    /// Give up on a Combat part once it has taken more than this many seconds (a
    /// decimal, such as 2.5) to solve. The clock is read every millisecond
    /// or two of play, so a part solved sooner than that is answered even
    /// under a limit of 0. The clock starts once the deal is read and set
    /// up, which takes half a second on a million cards a side. The
    /// repeats of `--time` run without this limit.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_hyphen_values = true)]
    pub max_time: Option<Duration>,
    /// Most threads a Combat part may use [default: 2]. Part 2 puts a
    /// second thread to work on heavy deals only (once a sub-game has run
    /// 32768 rounds), and not while --max-rounds or --max-time bounds the
    /// work (the repeats of --time drop --max-time, so they may); 1 keeps
    /// it on one. The answer is the same either way. (`solve` applies it
    /// to Dirac Dice's part 2 too, whose default is the cores.)
    #[arg(long, value_name = "N", value_parser = threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,
    /// Give up on a Combat part once the games in progress hold more
    /// memory than this [default: 2G]. The literal engine (--trace,
    /// --engine literal) keeps every state of each of them; the others keep
    /// only their decks and a few states, which reach this only on deals
    /// built to nest sub-games thousands deep. Bytes, or K, M, G or T for
    /// powers of 1024, such as 512M, 1.5G, 8G or 2^33.
    #[arg(long, value_name = "SIZE", value_parser = memory_size, allow_negative_numbers = true)]
    pub max_memory: Option<usize>,
}

#[derive(Debug, Clone, Copy, Default, Args)]
pub struct CombatOptions {
    /// Print the round-by-round log in the puzzle's format (streamed: if a
    /// limit stops the game, the rounds logged so far stay on standard
    /// output, before the error).
    #[arg(long, conflicts_with = "json")]
    pub trace: bool,
    #[command(flatten)]
    pub bounds: Bounds,
    /// Which engine answers: `fast` skips what cannot change the answer;
    /// `literal` plays every round of every game; `all` runs both, side by
    /// side.
    #[arg(long, value_enum, default_value_t = CombatEngine::Fast)]
    pub engine: CombatEngine,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum CombatEngine {
    /// Proven shortcuts; the default.
    #[default]
    Fast,
    /// Every round of every game, as the puzzle describes it.
    Literal,
    /// Both, cross-checked on everything they find (winner, score, end,
    /// rounds, final decks): each part's answer with both engines' times
    /// (--time), and exit status 1 if they disagree. If a limit stops the
    /// literal engine, it is left out, with a note (with --trace, whose log
    /// it would cut short, it is an error).
    All,
}

#[derive(Debug, Clone, Copy, Args)]
pub struct DiceOptions {
    /// Spaces on the board [puzzle: 10].
    #[arg(long, value_name = "B", value_parser = positive, allow_negative_numbers = true)]
    pub board: Option<u64>,
    /// Score that wins [puzzle: 1000 in part 1, 21 in part 2].
    #[arg(long, value_name = "T", value_parser = positive, allow_negative_numbers = true)]
    pub target: Option<u64>,
    /// Faces of the die [puzzle: 100 in part 1, 3 in part 2].
    #[arg(long, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub die: Option<u64>,
    /// Rolls per turn [puzzle: 3].
    #[arg(long, value_name = "R", value_parser = positive, allow_negative_numbers = true)]
    pub rolls: Option<u64>,
    /// How part 2 counts universes (`all` also plays part 1 roll by roll).
    #[arg(long, value_enum, default_value_t = DiceEngine::PerPlayer)]
    pub engine: DiceEngine,
    /// Print, per turn, how many universes each player wins (part 2).
    #[arg(long)]
    pub histogram: bool,
    /// Most threads a Dirac count (part 2) may use [default: the cores].
    /// Each player is counted alone before the players are combined, and
    /// large counts count several at once; 1 keeps it on one. The answer
    /// is the same either way.
    #[arg(long, value_name = "N", value_parser = threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,
    /// Refuse to count a Dirac game (part 2) estimated to take more than
    /// OPS word operations [default: 20000000000, up to about ten seconds]. The
    /// estimate is an upper bound, made before the count starts; raise it
    /// to count a larger game. (--engine memo also stops part way through
    /// once its own work passes OPS.)
    #[arg(long, value_name = "OPS", value_parser = whole_number, allow_negative_numbers = true)]
    pub max_work: Option<u64>,
    /// Refuse to count a Dirac game (part 2) whose table of one player's
    /// counts is estimated past SIZE [default: 1G], or that this machine
    /// cannot allocate. Bytes, or K, M, G or T for powers of 1024, such as
    /// 512M, 1.5G or 8G. (--engine memo also stops part way through once the
    /// states it stores pass SIZE.)
    #[arg(long, value_name = "SIZE", value_parser = memory_size, allow_negative_numbers = true)]
    pub max_memory: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiceEngine {
    /// Each player's own distribution, combined turn by turn (fastest).
    PerPlayer,
    /// Memoization over joint game states.
    Memo,
    /// Every universe, one roll at a time (small rules only).
    Tree,
    /// All three, cross-checked on every player's wins; and part 1 by its
    /// solver (`fast`) and roll by roll (`literal`, run only here),
    /// cross-checked on every score: each answer with every engine's time
    /// (--time), and exit status 1 if they disagree. An engine beside the
    /// answering one that refuses the game, or that a limit stops, is left
    /// out, with a note.
    All,
}

/// Parses a count: a whole number from 0 to 2^64 - 1, in digits (`_` may
/// group them: `20_000_000_000`), as a power (`10^18`, `2^63`), or in
/// scientific notation or as a decimal (`1e18`, `2.5e9`, `1000.0`, when
/// the value is whole); a power may be followed by `- N` or `+ N`
/// (`2^64-1`).
fn whole_number(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if let Some(positive) = text.strip_prefix('-') {
        return Err(if count(positive).is_ok() {
            "a count cannot be negative".to_owned()
        } else {
            format!("`{text}` is not a whole number")
        });
    }
    match count(text) {
        Ok(Some(n)) => u64::try_from(n).map_err(|_| format!("`{text}` is more than 2^64 - 1")),
        Ok(None) => Err(format!("`{text}` is more than 2^64 - 1")),
        // A power less more than itself: well formed with a plus instead.
        Err(()) if text.contains('^') && count(&text.replacen('-', "+", 1)).is_ok() => {
            Err(format!("`{text}` is below zero: a count cannot be negative"))
        }
        Err(()) => Err(format!("`{text}` is not a whole number")),
    }
}

/// `--part`: 1 or 2.
fn part(text: &str) -> Result<u8, String> {
    match text.trim().parse() {
        Ok(part @ 1..=2) => Ok(part),
        _ => Err(format!("`{text}` is not a part: give 1 or 2 (leave --part out for both)")),
    }
}

/// `--threads`: a [`whole_number`] from 1 to 65535.
fn threads(text: &str) -> Result<u16, String> {
    match whole_number(text)? {
        0 => Err("a part needs 1 thread or more".to_owned()),
        n => u16::try_from(n).map_err(|_| format!("`{text}` threads are more than 65535")),
    }
}

/// A [`whole_number`] of at least 1: a rule of the game (a board of no
/// spaces, a die of no faces, no rolls or no points to win is no game, and
/// a usage error like any other bad value).
fn positive(text: &str) -> Result<u64, String> {
    match whole_number(text)? {
        0 => Err("the rules need 1 or more".to_owned()),
        n => Ok(n),
    }
}

/// The value of a count as [`whole_number`] reads it: `Err` if it is not
/// written as one (or is below zero), `Ok(None)` if it is too large to hold
/// (31 significant digits or more, or a power of 2^128 or more).
fn count(text: &str) -> Result<Option<u128>, ()> {
    if let Some((base, rest)) = text.split_once('^') {
        let (exponent, offset) = rest.split_at(rest.find(['-', '+']).unwrap_or(rest.len()));
        let value = power(grouped(base)?, grouped(exponent)?);
        if offset.is_empty() {
            return Ok(value);
        }
        let by = grouped(&offset[1..])?;
        return match (value, by, offset.starts_with('-')) {
            (Some(value), Some(by), true) => value.checked_sub(by).map(Some).ok_or(()),
            (Some(value), Some(by), false) => Ok(value.checked_add(by)),
            // Past 2^127 (less at most 10^30: still past 2^64), or less
            // a number past 10^30.
            _ => Ok(None),
        };
    }
    // A decimal point without an exponent is an exponent of 0: `1000.0`.
    let scientific =
        text.split_once(['e', 'E']).or_else(|| text.contains('.').then_some((text, "0")));
    if let Some((mantissa, exponent)) = scientific {
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let fraction = if fraction.is_empty() { String::new() } else { plain(fraction)? };
        let shown = plain(whole)? + &fraction;
        // `shown × 10^(exponent − fraction digits)`: whole only if the
        // negative part of that power divides away zeros.
        let kept = shown.trim_end_matches('0');
        let zeros = (shown.len() - kept.len()) as u128;
        let Some(kept) = value(kept) else { return Ok(None) };
        let places = fraction.len() as u128;
        return match grouped(exponent)? {
            _ if kept == 0 => Ok(Some(0)),
            Some(exponent) if exponent + zeros < places => Err(()),
            exponent => Ok(power(Some(10), exponent.map(|exponent| exponent + zeros - places))
                .and_then(|scale| kept.checked_mul(scale))),
        };
    }
    grouped(text)
}

/// Digits, with `_` only between two of them, without the `_`.
fn plain(text: &str) -> Result<String, ()> {
    let bytes = text.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let well_formed = !bytes.is_empty()
        && (0..bytes.len())
            .all(|i| digit(i) || (bytes[i] == b'_' && i > 0 && digit(i - 1) && digit(i + 1)));
    if well_formed { Ok(text.replace('_', "")) } else { Err(()) }
}

/// The value of plain digits, `None` past 30 significant ones.
fn value(digits: &str) -> Option<u128> {
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        Some(0)
    } else if significant.len() > 30 {
        None
    } else {
        significant.parse().ok()
    }
}

/// The value of grouped digits ([`plain`]), `None` if past 30 digits.
fn grouped(text: &str) -> Result<Option<u128>, ()> {
    Ok(value(&plain(text)?))
}

/// `base^exponent`, `None` at 2^128 or more (or for a huge exponent).
fn power(base: Option<u128>, exponent: Option<u128>) -> Option<u128> {
    match (base?, exponent) {
        (0, Some(0)) => Some(1),
        (base @ (0 | 1), _) => Some(base),
        (base, exponent) => base.checked_pow(u32::try_from(exponent?).ok()?),
    }
}

/// Parses an amount of memory: a whole number of bytes, or of KiB, MiB,
/// GiB or TiB with a suffix `K`, `M`, `G` or `T` (either case, `B` or
/// `iB` after it allowed), the number written as [`whole_number`] reads
/// it (`2^30`, `1e9`, `1_000`), or, before a suffix, as a decimal that
/// makes whole bytes (`1.5G`; not `1.3K`, 1331.2 bytes).
fn memory_size(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let number = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match number.as_bytes().last() {
        Some(b'K') => (&number[..number.len() - 1], 10),
        Some(b'M') => (&number[..number.len() - 1], 20),
        Some(b'G') => (&number[..number.len() - 1], 30),
        Some(b'T') => (&number[..number.len() - 1], 40),
        _ => (number, 0),
    };
    if digits.starts_with('-') {
        return Err("an amount of memory cannot be negative".to_owned());
    }
    let nonsense = || {
        format!(
            "`{trimmed}` is not an amount of memory: write a whole number of bytes, or of K, M, G \
             or T (powers of 1024), such as 512M, 1.5G, 8G or 2^33"
        )
    };
    // A decimal of a unit (`1.5G`) is read in bytes, which must be whole:
    // its digits without the point, times the unit, over 10^places.
    let (digits, places) = match digits.split_once('.') {
        Some((whole, fraction))
            if shift > 0 && !digits.contains(['e', 'E', '^']) && !fraction.contains('.') =>
        {
            let places = fraction.bytes().filter(u8::is_ascii_digit).count();
            (format!("{whole}{fraction}"), u32::try_from(places).unwrap_or(u32::MAX))
        }
        _ => (digits.to_owned(), 0),
    };
    let n = count(&digits).map_err(|()| nonsense())?;
    let too_much = || format!("`{trimmed}` is more memory than this machine can address");
    let bytes = n.and_then(|n| n.checked_mul(1 << shift)).ok_or_else(too_much)?;
    let scale = 10_u128.checked_pow(places).ok_or_else(nonsense)?;
    if bytes % scale != 0 {
        return Err(format!("`{trimmed}` is not a whole number of bytes"));
    }
    usize::try_from(bytes / scale).map_err(|_| too_much())
}

/// Parses a time limit in seconds: a decimal number, at least zero.
fn seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 =
        text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds.is_nan() {
        return Err(format!("`{text}` is not a number of seconds"));
    }
    // A nonzero number too small for a float (`1e-400`) reads as 0.
    let mantissa = text.trim().split(['e', 'E']).next().unwrap_or("");
    let underflows = seconds == 0.0 && mantissa.chars().any(|c| matches!(c, '1'..='9'));
    if seconds < 0.0 || (underflows && mantissa.starts_with('-')) {
        return Err("a time limit cannot be negative".to_owned());
    }
    // The clock counts whole nanoseconds: a limit that would round down to
    // none would be reported as `0ns`, which is not what the user gave.
    if (seconds > 0.0 && seconds < 1e-9) || underflows {
        return Err(format!(
            "`{text}` seconds is less than a nanosecond, the smallest time limit (0 gives up at the first look at the clock)"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        format!("`{text}` seconds is more than a time limit can be: leave --max-time out for none")
    })
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), crate::failure::Failure> {
    use std::io::Write;

    use crabdice::Game;

    use crate::output::{FileResult, Solved};

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (files, output, combat, dice, only, check) = match cli.command {
        Command::Solve(Solve { files, output, bounds, check }) => {
            let dice = (bounds.threads.is_some())
                .then_some(DiceOptions { threads: bounds.threads, ..crate::dice::NO_OPTIONS });
            (files, output, CombatOptions { bounds, ..CombatOptions::default() }, dice, None, check)
        }
        Command::Combat(Combat { file, output, options, check }) => {
            (vec![file], output, options, None, Some(Game::Combat), check)
        }
        Command::Dice(Dice { file, output, options, check }) => {
            if options.histogram && output.part == Some(1) {
                conflict(
                    "dice",
                    "--histogram counts the Dirac game's universes, part 2's: drop --part 1",
                );
            }
            (vec![file], output, CombatOptions::default(), Some(options), Some(Game::Dice), check)
        }
    };
    if let Some(expected) = &check.expect {
        expected.fit(only.map_or("solve", Game::name), files.len(), output);
    }
    let inputs = read_all(&files, only, dice.as_ref(), output)?;
    let mut results = Vec::new();
    for (source, parsed, parse_time) in &inputs {
        let solved = match parsed {
            Parsed::Combat(deal) => {
                Solved::Combat(crate::combat::run(source, deal, output, combat, &mut out)?)
            }
            Parsed::Dice(game) => {
                Solved::Dice(Box::new(crate::dice::run(source, game, output, dice.as_ref())?))
            }
        };
        results.push(FileResult {
            name: source.name.clone(),
            path: source.path.clone(),
            solved,
            parse_time: *parse_time,
        });
    }
    let text = if output.json {
        crate::output::json(&results)
    } else {
        crate::output::text(&results, output)
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    // `--expect` checks one file (`Expected::fit`).
    let expected = check.expect.as_ref().map(|Expected(answers)| &answers[..]);
    for result in &results {
        crate::output::verify(result, expected)?;
    }
    Ok(())
}

/// A file read and parsed, with the median time its parse took under
/// `--json --time`.
type Input = (crate::source::Source, Parsed, Option<std::time::Duration>);

/// Reads and checks every file before any is solved, so that a bad file
/// leaves standard output empty; every file that cannot be read or parsed
/// is named, in order, and the last error is the run's.
fn read_all(
    files: &[PathBuf],
    only: Option<crabdice::Game>,
    dice: Option<&DiceOptions>,
    output: Output,
) -> Result<Vec<Input>, crate::failure::Failure> {
    use crabdice::Game;

    use crate::source::Source;

    let mut read = Vec::new();
    let mut errors = Vec::new();
    // Standard input can be read once: a second `-` names the same text,
    // and one that failed has been named already.
    let mut stdin: Option<Option<Source>> = None;
    for path in files {
        let is_stdin = path.as_os_str() == "-";
        let source = match &stdin {
            Some(source) if is_stdin => match source {
                Some(source) => Ok(source.clone()),
                None => continue,
            },
            _ => Source::read(path),
        };
        let parsed = source.and_then(|source| {
            let game = match only {
                Some(game) => game,
                None => Game::detect(&source.text).map_err(|e| source.error(e))?,
            };
            let parsed = parse(&source, game, dice, output)
                .map_err(|error| other_game(&source, game, is_stdin).unwrap_or(error))?;
            Ok((source, game, parsed))
        });
        match parsed {
            Ok((source, game, parsed)) => {
                if is_stdin {
                    stdin = Some(Some(source.clone()));
                }
                read.push((source, game, parsed));
            }
            Err(error) => {
                if is_stdin {
                    stdin = Some(None);
                }
                errors.push(error);
            }
        }
    }
    if let Some(last) = errors.pop() {
        for error in errors {
            crate::failure::show(&error);
        }
        return Err(last.into());
    }
    // `--time`: each parse timed as the parts are (JSON only: the text
    // output is the parts'), once every file has parsed.
    Ok(read
        .into_iter()
        .map(|(source, game, parsed)| {
            let time = (output.time && output.json)
                .then(|| crate::timing::median(|| drop(parse(&source, game, dice, output))));
            (source, parsed, time)
        })
        .collect())
}

/// For input that `game`'s reader refused but whose first line is the
/// other game's (`crabdice dice` given a Crab Combat deal), an error that
/// says so and names the command for it, instead of the reader's.
fn other_game(
    source: &crate::source::Source,
    game: crabdice::Game,
    is_stdin: bool,
) -> Option<miette::Report> {
    use crabdice::Game;
    let found = Game::detect(&source.text).ok().filter(|&found| found != game)?;
    // The line that tells the game: the first that is not blank.
    let line = source.text.lines().position(|line| !line.trim().is_empty())? + 1;
    let title = |game| match game {
        Game::Combat => "a Crab Combat deal",
        Game::Dice => "a Dirac Dice game",
    };
    Some(miette::miette!(
        help = format!(
            "use `crabdice {} {}`, or `crabdice solve`, which tells the games apart",
            found.name(),
            if is_stdin { "-".to_owned() } else { shell_word(&source.path) }
        ),
        "{}: line {line}: the input holds {}, not {}",
        source.name,
        title(found),
        title(game)
    ))
}

/// `path` as a word to paste into a shell: quoted if it holds anything but
/// the characters of plain paths, after `--` if it starts like an option,
/// and escaped where it would act on the terminal.
fn shell_word(path: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._/+-@%:,=".contains(c);
    let word = if !path.is_empty() && path.chars().all(plain) {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    };
    let word = if path.starts_with('-') && path != "-" { format!("-- {word}") } else { word };
    crabdice::escape_for_terminal(&word).into_owned()
}

/// Parses `source` as `game`.
fn parse(
    source: &crate::source::Source,
    game: crabdice::Game,
    dice: Option<&DiceOptions>,
    output: Output,
) -> miette::Result<Parsed> {
    Ok(match game {
        crabdice::Game::Combat => {
            Parsed::Combat(crabdice::Deal::parse(&source.text).map_err(|e| source.error(e))?)
        }
        crabdice::Game::Dice => Parsed::Dice(crate::dice::parse(source, dice, output)?),
    })
}

/// A file's parsed contents.
enum Parsed {
    Combat(crabdice::Deal),
    Dice(crate::dice::Game),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap's own checks of every argument, the deferred ones included.
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    /// Every spelling of a count against the value worked out by hand, in
    /// u128 arithmetic, over a grid of mantissas, exponents and offsets.
    #[test]
    fn counts_read_as_their_value_in_every_spelling() {
        let fits = |n: Option<u128>| n.and_then(|n| u64::try_from(n).ok());
        for base in [0_u128, 1, 2, 3, 7, 10, 255, 65_536] {
            for exponent in [0_u32, 1, 2, 5, 16, 31, 63, 64, 65, 127, 200] {
                let power = base.checked_pow(exponent);
                for (offset, spelled) in
                    [(0_i128, String::new()), (-1, "-1".into()), (9, "+9".into())]
                {
                    let text = format!("{base}^{exponent}{spelled}");
                    // Below zero (0^1 - 1) or past 2^64 - 1: refused.
                    let expected = power
                        .and_then(|n| i128::try_from(n).ok())
                        .and_then(|n| n.checked_add(offset))
                        .and_then(|n| u128::try_from(n).ok());
                    assert_eq!(whole_number(&text).ok(), fits(expected), "{text}");
                }
            }
        }
        for mantissa in [0_u128, 1, 15, 25, 100, 18_446_744_073_709_551_615] {
            for exponent in [0_u32, 1, 3, 9, 19, 20, 40] {
                let value = 10_u128.checked_pow(exponent).and_then(|p| p.checked_mul(mantissa));
                let expected = if mantissa == 0 { Some(0) } else { fits(value) };
                assert_eq!(whole_number(&format!("{mantissa}e{exponent}")).ok(), expected);
                // The same with one digit after a point: whole when the
                // exponent covers it.
                let (whole, tenth) = (mantissa / 10, mantissa % 10);
                let text = format!("{whole}.{tenth}e{}", exponent + 1);
                assert_eq!(whole_number(&text).ok(), expected, "{text}");
            }
        }
        for n in [0_u64, 7, 1000, 123_456_789, u64::MAX] {
            let grouped = n
                .to_string()
                .as_bytes()
                .rchunks(3)
                .rev()
                .map(|chunk| std::str::from_utf8(chunk).unwrap())
                .collect::<Vec<_>>()
                .join("_");
            assert_eq!(whole_number(&grouped), Ok(n), "{grouped}");
            assert_eq!(whole_number(&n.to_string()), Ok(n));
        }
    }

    #[test]
    fn memory_sizes_count_in_powers_of_1024() {
        for (text, bytes) in [
            ("512", 512_usize),
            ("2K", 2 << 10),
            ("3MiB", 3 << 20),
            ("8g", 8 << 30),
            ("1T", 1 << 40),
            ("2tb", 2 << 40),
            ("2^30", 1 << 30),
            ("2^10M", 1 << 30),
            ("1e9", 1_000_000_000),
            ("1_500K", 1_500 << 10),
            ("1.5G", 3 << 29),
            ("0.25k", 256),
            ("1.50K", 1536),
            ("1.0", 1),
            ("1_000.5K", 1_024_512),
        ] {
            assert_eq!(memory_size(text), Ok(bytes), "{text}");
        }
        for text in ["2^70", "2^64", "17179869184G", "1e30"] {
            let refused = memory_size(text).unwrap_err();
            assert!(refused.contains("more memory than this machine can address"), "{refused}");
        }
        for text in ["", "K", "1.5", "1.5.0G", "2^3.5G", "1e3.5K", ".G", "G1", "2^", "x", "1 G"] {
            let refused = memory_size(text).unwrap_err();
            assert!(refused.contains("is not an amount of memory"), "{text}: {refused}");
        }
        for text in ["1.3K", "0.001K", "1.0000000001G"] {
            let refused = memory_size(text).unwrap_err();
            assert!(refused.contains("is not a whole number of bytes"), "{text}: {refused}");
        }
    }
}
