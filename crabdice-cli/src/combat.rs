//! `crabdice combat`: both variants of Crab Combat on one deal.
//!
//! Each part is played by the library's fast engine, or, for `--trace` and
//! `--engine literal`, by its literal engine, whose observer streams the
//! puzzle's log to standard output as the game is played (so a long game
//! never sits in memory). `--engine all` plays both and compares their
//! outcomes field by field. The command line's bounds (`--max-rounds`,
//! `--max-time`, `--threads`, `--max-memory`) become the library's
//! [`Limits`]; a game stopped by one is an error that names the flag to
//! change, and, when both parts were asked for, how to have the other
//! alone. `--json` also counts part 2's games and their nesting, within a
//! budget of its own, so that a count too long to finish leaves those two
//! fields `null` rather than the answer unprinted.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crabdice::{
    Deal, Event, Exhausted, GameCount, Limits, Natural, NoTrace, Observer, Outcome,
    PROGRESS_INTERVAL, PuzzleLog, Variant,
};
use miette::miette;

use crate::cli::{Bounds, CombatEngine, CombatOptions, Output};
use crate::compare::{Compared, Engine, Named, Run};
use crate::failure::{Failure, other_part_alone};
use crate::progress::Progress;
use crate::source::Source;
use crate::timing;

/// One part's result.
#[derive(Debug)]
pub struct Part {
    pub number: u8,
    /// The answering engine's outcome (with `--engine all`, the fast one's).
    pub outcome: Outcome,
    /// Games and deepest nesting, when the literal engine ran or `--json`
    /// counted them.
    pub games: Option<(Natural, u32)>,
    /// Whether `--json` asked for the games, but counting them ran past
    /// [`GAMES_BUDGET`] (`games` and `max_depth` are then `null`).
    pub games_unknown: bool,
    pub time: Option<Duration>,
    /// Whether the deal's scores can exceed 64 bits (huge cards), so that
    /// JSON gives `score` as a string.
    pub wide_scores: bool,
    /// `--engine all`: every engine's run, fast first, and those left out.
    pub compared: Compared<Engine, Outcome>,
}

/// The engines that play each part: `--trace` logs the literal engine's
/// rounds, so it plays with the default engine; `--engine all` plays both.
fn engines(options: CombatOptions) -> &'static [Engine] {
    match options.engine {
        CombatEngine::All => &[Engine::Fast, Engine::Literal],
        CombatEngine::Fast if !options.trace => &[Engine::Fast],
        CombatEngine::Fast | CombatEngine::Literal => &[Engine::Literal],
    }
}

/// The library's limits for the command line's bounds.
fn limits(bounds: Bounds) -> Limits {
    let default = Limits::default();
    Limits {
        max_rounds: bounds.max_rounds.unwrap_or(default.max_rounds),
        max_time: bounds.max_time,
        max_threads: bounds.threads.map_or(default.max_threads, usize::from),
        max_state_memory: bounds.max_memory.unwrap_or(default.max_state_memory),
    }
}

/// Plays the parts `output` asks for. With `trace`, the puzzle's log of
/// each part is streamed to `out` as it is played.
pub fn run(
    source: &Source,
    deal: &Deal,
    output: Output,
    options: CombatOptions,
    out: &mut dyn Write,
) -> Result<Vec<Part>, Failure> {
    let limits = limits(options.bounds);
    let mut parts = Vec::new();
    let wide_scores = deal.max_score() > u128::from(u64::MAX);
    let engines = engines(options);
    let several = engines.len() > 1;
    for (number, variant) in [(1, Variant::Plain), (2, Variant::Recursive)] {
        if !output.wants(number) {
            continue;
        }
        let label = format!("{}: part {number}", source.name);
        // Nothing is printed when a part stops at a limit: say how to have
        // the other part alone.
        let alone = other_part_alone(number, output);
        // A time limit bounds the part as a whole, so every engine's
        // clock starts with the part, and so does counting the games.
        let started = Instant::now();
        let mut compared = Compared::new();
        let mut games = None;
        for (nth, &engine) in engines.iter().enumerate() {
            let played = match engine {
                Engine::Fast => play_fast(deal, variant, limits, &label).map(|o| (o, None)),
                Engine::Literal => {
                    // A blank line between the two parts' logs, as between
                    // rounds.
                    if options.trace && !parts.is_empty() {
                        writeln!(out)?;
                    }
                    let traced = options.trace.then_some(&mut *out);
                    play_literal(deal, variant, limits, started, &label, traced)?.map(|report| {
                        (report.outcome, Some((report.games.into(), report.max_depth)))
                    })
                }
            };
            let (outcome, counted) = match played {
                Ok(played) => played,
                // The answering engine's limit ends the run, as does a
                // limit that cuts the log short; another engine's leaves it
                // out of the comparison.
                Err(error) if nth == 0 || (options.trace && engine == Engine::Literal) => {
                    let stopped = if several {
                        format!("{label} (the {} engine)", engine.name())
                    } else {
                        label
                    };
                    return Err(exhausted(&stopped, &error, alone));
                }
                Err(error) => {
                    compared.leave_out(&label, engine, error);
                    continue;
                }
            };
            games = games.or(counted);
            compared.runs.push(Run { engine, outcome, time: None });
        }
        // The fast engine skips sub-games; counting them takes a walk
        // through every game. A deal that cannot start one needs none.
        let mut games_unknown = false;
        if games.is_none() && output.json && variant == Variant::Recursive {
            games = if deal.can_recurse() {
                let counting = format!("{label} (counting the games for --json)");
                let count = count_games_within(deal, limits, started, &counting, several, alone)?;
                games_unknown = count.is_none();
                count.map(|count| (count.games, count.max_depth))
            } else {
                Some((1_u8.into(), 0))
            };
        }
        // Timed last, so that the repeats use none of the part's time limit.
        if output.time {
            for run in &mut compared.runs {
                run.time = Some(time(deal, variant, limits, run.engine));
            }
        }
        let games = games.filter(|_| variant == Variant::Recursive);
        // The first engine answers; the runs are kept to compare only when
        // several were asked for.
        let (outcome, time) = (compared.runs[0].outcome.clone(), compared.runs[0].time);
        if !several {
            compared.runs.clear();
        }
        parts.push(Part { number, outcome, games, games_unknown, time, wide_scores, compared });
    }
    Ok(parts)
}

/// `--time`: the median time of `engine` on the part. The part was solved
/// within the limits; its repeats are not stopped by the clock, which would
/// cut a measurement short.
fn time(deal: &Deal, variant: Variant, limits: Limits, engine: Engine) -> Duration {
    let untimed = Limits { max_time: None, ..limits };
    match engine {
        Engine::Fast => timing::median(|| {
            let _ = crabdice::play_with(deal, variant, untimed, &mut |_| {});
        }),
        Engine::Literal => timing::median(|| {
            let _ = crabdice::play_observed_with(deal, variant, untimed, &mut NoTrace);
        }),
    }
}

/// Plays with the fast engine, within `limits`, with a progress line.
fn play_fast(
    deal: &Deal,
    variant: Variant,
    limits: Limits,
    label: &str,
) -> Result<Outcome, Exhausted> {
    let mut progress = Progress::new(label.to_owned(), &limits);
    crabdice::play_with(deal, variant, limits, &mut |rounds| progress.tick(rounds))
}

/// The error for a part stopped by a limit; `alone` adds how to have the
/// other part alone, when both were asked for.
fn exhausted(label: &str, error: &Exhausted, alone: Option<&str>) -> Failure {
    let help = match error {
        Exhausted::Rounds { .. } => {
            "raise the limit with --max-rounds, or leave it out to play to the end"
        }
        Exhausted::Time { .. } => {
            "raise the limit with --max-time, or leave it out to play to the end"
        }
        Exhausted::Memory { .. } => {
            "raise the limit with --max-memory: the literal engine (--trace, --engine literal) \
             keeps every state of every game in progress; the default engine, without these \
             options, keeps only a few"
        }
        Exhausted::Nesting { .. } => {
            "raise the limit with --max-memory: each game in progress keeps its decks (and a \
             few of its states) while the sub-game it started is played"
        }
        _ => "the deal's sub-games nest too deeply for this machine",
    };
    Failure::Error(miette!(help = with_other_part(help, alone), "{label}: {error}"))
}

/// `help`, and how to have the other part alone, if given.
fn with_other_part(help: &str, alone: Option<&str>) -> String {
    match alone {
        Some(alone) => format!("{help}; {alone}"),
        None => help.to_owned(),
    }
}

/// Wraps an observer with the progress line.
struct Reporting<O> {
    inner: O,
    rounds: u64,
    progress: Progress,
}

impl<O: Observer> Observer for Reporting<O> {
    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if let Event::Draw { .. } = event {
            self.rounds += 1;
            if self.rounds.is_multiple_of(PROGRESS_INTERVAL) {
                self.progress.tick(self.rounds);
            }
        }
        self.inner.observe(event)
    }
}

/// Plays with the literal engine, within `limits`, the time limit counted
/// from `started` (the part's start); with `trace`, the puzzle's log is
/// streamed there. A limit reached is the inner error, naming the user's
/// limit.
fn play_literal<W: Write + ?Sized>(
    deal: &Deal,
    variant: Variant,
    limits: Limits,
    started: Instant,
    label: &str,
    trace: Option<&mut W>,
) -> Result<Result<crabdice::Report, Exhausted>, Failure> {
    let progress = Progress::new(label.to_owned(), &limits);
    let bounded = left(limits, started);
    let played = if let Some(out) = trace {
        // Standard output flushes every line; a long game's log is
        // millions of lines, so buffer it (the log flushes at the end).
        let log = PuzzleLog::new(std::io::BufWriter::with_capacity(1 << 16, out), variant);
        let mut reporting = Reporting { inner: log, rounds: 0, progress };
        let played = crabdice::play_observed_with(deal, variant, bounded, &mut reporting);
        if let Some(error) = reporting.inner.error() {
            return Err(std::io::Error::new(error.kind(), error.to_string()).into());
        }
        played
    } else {
        let mut reporting = Reporting { inner: NoTrace, rounds: 0, progress };
        crabdice::play_observed_with(deal, variant, bounded, &mut reporting)
    };
    match played {
        Ok(Some(report)) => Ok(Ok(report)),
        // The observer stopped because the output closed.
        Ok(None) => Err(Failure::ClosedOutput),
        Err(error) => Ok(Err(users(error, limits))),
    }
}

/// How long `--json` counts a deal's games when no `--max-time` is given.
/// Most puzzle-shaped deals take milliseconds, but some 50 + 50 deals play
/// billions of games: the answer is known, so the count gives up, with a
/// note, rather than keep a script waiting for hours.
pub const GAMES_BUDGET: Duration = Duration::from_secs(10);

/// Counts the games of a Recursive Combat deal for `--json`, within
/// `limits`, the time limit counted from `started` (the part's start: the
/// count comes after the engines' answers). With no time limit, the
/// count stops after [`GAMES_BUDGET`] and gives `None`, with a note on
/// standard error; so does any limit when `lenient` (`--engine all`, which
/// leaves out what a limit stops). `alone` is as for [`exhausted`].
fn count_games_within(
    deal: &Deal,
    limits: Limits,
    started: Instant,
    label: &str,
    lenient: bool,
    alone: Option<&str>,
) -> Result<Option<GameCount>, Failure> {
    let budget = limits.max_time.is_none();
    let bounded = if budget {
        Limits { max_time: Some(GAMES_BUDGET), ..limits }
    } else {
        left(limits, started)
    };
    let mut progress = Progress::new(label.to_owned(), &bounded);
    match crabdice::count_games(deal, bounded, &mut |rounds| progress.tick(rounds)) {
        Ok(count) => Ok(Some(count)),
        Err(Exhausted::Time { played, .. }) if budget => {
            drop(progress);
            crate::failure::note(format_args!(
                "{label}: stopped after {} s and {played} rounds, so `games` and `max_depth` \
                 are null (the answer is exact): this deal plays too many games to count \
                 quickly; give --max-time SECONDS to count for longer (the run then fails, \
                 without the answer, if the count is not done in time)",
                GAMES_BUDGET.as_secs()
            ));
            Ok(None)
        }
        Err(error) if lenient => {
            drop(progress);
            crate::failure::note(format_args!(
                "{label}: {}, so `games` and `max_depth` are null (the answer is exact: \
                 --engine all leaves out what a limit stops)",
                users(error, limits)
            ));
            Ok(None)
        }
        Err(error @ Exhausted::Time { .. }) => Err(Failure::Error(miette!(
            help = with_other_part(
                &format!(
                    "raise the limit with --max-time, or leave it out to have the count stop \
                     after {} s, with the answer and `games` and `max_depth` null",
                    GAMES_BUDGET.as_secs()
                ),
                alone
            ),
            "{label}: {}",
            users(error, limits)
        ))),
        Err(error) => Err(exhausted(label, &users(error, limits), alone)),
    }
}

/// `limits` with what is left of the time limit since `started`.
fn left(limits: Limits, started: Instant) -> Limits {
    Limits {
        max_time: limits.max_time.map(|limit| limit.saturating_sub(started.elapsed())),
        ..limits
    }
}

/// The error naming the user's time limit, not what was left of it.
fn users(error: Exhausted, limits: Limits) -> Exhausted {
    match (error, limits.max_time) {
        (Exhausted::Time { played, .. }, Some(limit)) => Exhausted::Time { limit, played },
        (error, _) => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_reach_the_library_and_default_to_its_own() {
        assert_eq!(limits(Bounds::default()), Limits::default());
        let bounds = Bounds {
            max_rounds: Some(7),
            max_time: Some(Duration::from_millis(5)),
            threads: Some(1),
            max_memory: Some(1 << 20),
        };
        let expected = Limits {
            max_rounds: 7,
            max_time: Some(Duration::from_millis(5)),
            max_threads: 1,
            max_state_memory: 1 << 20,
        };
        assert_eq!(limits(bounds), expected);
        assert_eq!(limits(Bounds { threads: Some(64), ..Bounds::default() }).max_threads, 64);
    }

    #[test]
    fn the_memory_limit_is_named_with_the_options_that_reach_it() {
        let error = Exhausted::Memory { limit: crabdice::STATE_MEMORY, played: 131_072 };
        let Failure::Error(report) = exhausted("deal.txt: part 2", &error, None) else {
            panic!("an error to show")
        };
        assert_eq!(
            report.to_string(),
            "deal.txt: part 2: gave up after 131072 rounds: the states the literal engine keeps \
             need more than 2 GiB"
        );
        let help = report.help().map(|help| help.to_string()).unwrap_or_default();
        for option in ["--max-memory", "--trace", "--engine literal"] {
            assert!(help.contains(option), "{help}");
        }
        // `--json` counts its games without storing states.
        assert!(!help.contains("--json"), "{help}");
        // Games nested deep stop every engine, with the same remedy.
        let error = Exhausted::Nesting { limit: 1 << 20, played: 0 };
        let Failure::Error(report) = exhausted("deal.txt: part 2", &error, None) else {
            panic!("an error to show")
        };
        assert_eq!(
            report.to_string(),
            "deal.txt: part 2: gave up after 0 rounds: the decks of sub-games nested inside each \
             other need more than 1 MiB"
        );
        let help = report.help().map(|help| help.to_string()).unwrap_or_default();
        assert!(help.starts_with("raise the limit with --max-memory"), "{help}");
    }
}
