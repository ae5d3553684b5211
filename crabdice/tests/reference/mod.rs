//! An obviously-correct Crab Combat engine: the rules exactly as the puzzle
//! words them, with no shortcut and no cleverness. Every state a game sees is
//! stored in full in a `HashMap`, so repetition and cycles are found exactly.
//! It is slow and memory-hungry on purpose; the library's engines are checked
//! against it, field by field, by [`assert_matches`]. Asked for one
//! ([`plain_log`], [`recursive_log`]), it also writes the puzzle's log as it
//! plays, line by line, for the library's `PuzzleLog` to be checked against.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet, VecDeque};

/// Asserts that a library engine's outcome is the reference's, field by
/// field: winner, end, rounds, score, final decks and cycle.
pub fn assert_matches(outcome: &crabdice::Outcome, expected: &RefOutcome, what: &str) {
    let winner = outcome.winner.map_or(0, crabdice::Player::number);
    assert_eq!(winner, expected.winner, "{what}: winner");
    assert_eq!(outcome.end.name(), expected.end, "{what}: end");
    assert_eq!(outcome.rounds, expected.rounds, "{what}: rounds");
    assert_eq!(outcome.score, expected.score, "{what}: score");
    assert_eq!(
        (outcome.decks.one.clone(), outcome.decks.two.clone()),
        expected.decks,
        "{what}: decks"
    );
    let cycle = match outcome.end {
        crabdice::End::Cycle { start, length } => Some((start, length)),
        _ => None,
    };
    assert_eq!(cycle, expected.cycle, "{what}: cycle");
}

/// The library's log of `deal` (its `PuzzleLog` over the literal engine),
/// to compare with the reference's own ([`plain_log`], [`recursive_log`]).
pub fn library_log(deal: &crabdice::Deal, variant: crabdice::Variant) -> String {
    let mut log = crabdice::PuzzleLog::new(Vec::new(), variant);
    crabdice::play_observed(deal, variant, &mut log).unwrap();
    String::from_utf8(log.into_inner()).unwrap()
}

/// What the reference engine found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefOutcome {
    /// 1, 2, or 0 for a plain game that cycles.
    pub winner: u8,
    /// "empty-deck", "repetition" or "cycle".
    pub end: &'static str,
    /// Rounds played in the top game.
    pub rounds: u64,
    /// For a cycle: (first round of the cycle, its length).
    pub cycle: Option<(u64, u64)>,
    /// Final decks.
    pub decks: (Vec<u64>, Vec<u64>),
    /// The winner's score.
    pub score: Option<u128>,
    /// Games played (top game included).
    pub games: u64,
    /// Deepest nesting of sub-games (0 = none).
    pub max_depth: u32,
}

pub fn score(deck: &[u64]) -> u128 {
    deck.iter().rev().enumerate().map(|(i, &c)| u128::from(c) * (i as u128 + 1)).sum()
}

/// How a plain game that a deck runs out of ends.
fn plain_emptied(d1: VecDeque<u64>, d2: VecDeque<u64>, rounds: u64) -> RefOutcome {
    let winner = if d1.is_empty() { 2 } else { 1 };
    let decks = (Vec::from(d1), Vec::from(d2));
    let score = Some(score(if winner == 1 { &decks.0 } else { &decks.1 }));
    RefOutcome {
        winner,
        end: "empty-deck",
        rounds,
        cycle: None,
        decks,
        score,
        games: 1,
        max_depth: 0,
    }
}

/// One round of plain Combat.
pub fn plain_round(d1: &mut VecDeque<u64>, d2: &mut VecDeque<u64>) {
    let a = d1.pop_front().unwrap();
    let b = d2.pop_front().unwrap();
    if a > b {
        d1.push_back(a);
        d1.push_back(b);
    } else {
        d2.push_back(b);
        d2.push_back(a);
    }
}

/// Plain Combat played until a deck runs out, storing nothing, for decks
/// too large to remember every state of: `None` if it has not ended after
/// `max_rounds` rounds.
pub fn plain_to_the_end(one: &[u64], two: &[u64], max_rounds: u64) -> Option<RefOutcome> {
    let mut d1: VecDeque<u64> = one.iter().copied().collect();
    let mut d2: VecDeque<u64> = two.iter().copied().collect();
    for rounds in 0..=max_rounds {
        if d1.is_empty() || d2.is_empty() {
            return Some(plain_emptied(d1, d2, rounds));
        }
        plain_round(&mut d1, &mut d2);
    }
    None
}

/// Plain Combat, remembering every state to find a cycle.
pub fn plain(one: &[u64], two: &[u64]) -> RefOutcome {
    plain_logged(one, two, &mut Log(None))
}

/// [`plain`] and the puzzle's log of it, line by line as part one's
/// example words it (see [`Log`]).
pub fn plain_log(one: &[u64], two: &[u64]) -> (RefOutcome, String) {
    let mut log = Log(Some(String::new()));
    let outcome = plain_logged(one, two, &mut log);
    (outcome, log.0.unwrap())
}

fn plain_logged(one: &[u64], two: &[u64], log: &mut Log) -> RefOutcome {
    let mut d1: VecDeque<u64> = one.iter().copied().collect();
    let mut d2: VecDeque<u64> = two.iter().copied().collect();
    let mut seen: HashMap<(Vec<u64>, Vec<u64>), u64> = HashMap::new();
    let mut rounds = 0;
    loop {
        if d1.is_empty() || d2.is_empty() {
            if rounds > 0 {
                log.gap();
            }
            log.results(&d1, &d2);
            return plain_emptied(d1, d2, rounds);
        }
        log.round(rounds + 1, None, &d1, &d2);
        let state = (Vec::from(d1.clone()), Vec::from(d2.clone()));
        if let Some(&first) = seen.get(&state) {
            log.line(|| {
                format!(
                    "These decks already occurred before round {}: the game repeats every {} \
                     rounds forever, and nobody wins.",
                    first + 1,
                    rounds - first
                )
            });
            log.gap();
            log.results(&d1, &d2);
            return RefOutcome {
                winner: 0,
                end: "cycle",
                rounds,
                cycle: Some((first + 1, rounds - first)),
                decks: state,
                score: None,
                games: 1,
                max_depth: 0,
            };
        }
        seen.insert(state, rounds);
        let (a, b) = (d1[0], d2[0]);
        log.plays(a, b);
        plain_round(&mut d1, &mut d2);
        log.line(|| format!("Player {} wins the round!", if a > b { 1 } else { 2 }));
        rounds += 1;
    }
}

/// The puzzle's log, written as the reference plays, one line at a time
/// from the puzzle's own examples: part one's rounds (`-- Round 1 --`, `Player
/// 1 wins the round!`) or part two's games (`=== Game 1 ===`, `-- Round 1
/// (Game 1) --`, `Player 1 wins round 1 of game 1!`), a blank line between
/// rounds, two before the results. A repetition or a cycle, which the
/// puzzle never shows, gets one line of crabdice's wording. `None` when no
/// log is asked for, so that the reference pays nothing for it.
struct Log(Option<String>);

impl Log {
    fn line(&mut self, line: impl FnOnce() -> String) {
        if let Some(text) = &mut self.0 {
            text.push_str(&line());
            text.push('\n');
        }
    }

    /// A round's header and both decks; `game` for part two's wording. A
    /// round after the first is set off from the one before by a blank line.
    fn round(&mut self, round: u64, game: Option<u64>, d1: &VecDeque<u64>, d2: &VecDeque<u64>) {
        if round > 1 {
            self.line(String::new);
        }
        self.line(|| match game {
            Some(game) => format!("-- Round {round} (Game {game}) --"),
            None => format!("-- Round {round} --"),
        });
        self.decks(d1, d2);
    }

    fn decks(&mut self, d1: &VecDeque<u64>, d2: &VecDeque<u64>) {
        let listed =
            |deck: &VecDeque<u64>| deck.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        self.line(|| format!("Player 1's deck: {}", listed(d1)));
        self.line(|| format!("Player 2's deck: {}", listed(d2)));
    }

    fn plays(&mut self, a: u64, b: u64) {
        self.line(|| format!("Player 1 plays: {a}"));
        self.line(|| format!("Player 2 plays: {b}"));
    }

    /// The two blank lines that set the results off from the rounds.
    fn gap(&mut self) {
        self.line(String::new);
        self.line(String::new);
    }

    /// The top game's final decks.
    fn results(&mut self, d1: &VecDeque<u64>, d2: &VecDeque<u64>) {
        self.line(|| "== Post-game results ==".to_owned());
        self.decks(d1, d2);
    }
}

struct Counter {
    log: Log,
    games: u64,
    max_depth: u32,
    /// Rounds of every game so far, and the most allowed.
    rounds: u64,
    max_rounds: u64,
}

/// How a game ended: (winner, rounds, end, final decks).
type GameEnd = (u8, u64, &'static str, (Vec<u64>, Vec<u64>));

/// One game of Recursive Combat, or `None`
/// when the rounds of all games together pass the counter's limit.
fn recursive_game(
    mut d1: VecDeque<u64>,
    mut d2: VecDeque<u64>,
    depth: u32,
    counter: &mut Counter,
) -> Option<GameEnd> {
    counter.games += 1;
    counter.max_depth = counter.max_depth.max(depth);
    let game = counter.games;
    counter.log.line(|| format!("=== Game {game} ==="));
    counter.log.line(String::new);
    let mut seen: HashSet<(Vec<u64>, Vec<u64>)> = HashSet::new();
    let mut rounds = 0;
    let (winner, end) = loop {
        if d1.is_empty() {
            break (2, "empty-deck");
        }
        if d2.is_empty() {
            break (1, "empty-deck");
        }
        counter.log.round(rounds + 1, Some(game), &d1, &d2);
        let state = (Vec::from(d1.clone()), Vec::from(d2.clone()));
        if !seen.insert(state) {
            counter.log.line(|| {
                format!(
                    "These decks already occurred in game {game}: player 1 wins by the \
                     repetition rule."
                )
            });
            break (1, "repetition");
        }
        counter.rounds += 1;
        if counter.rounds > counter.max_rounds {
            return None;
        }
        let a = d1.pop_front().unwrap();
        let b = d2.pop_front().unwrap();
        counter.log.plays(a, b);
        let winner = if d1.len() as u64 >= a && d2.len() as u64 >= b {
            counter.log.line(|| "Playing a sub-game to determine the winner...".to_owned());
            counter.log.line(String::new);
            let sub1 = d1.iter().take(a as usize).copied().collect();
            let sub2 = d2.iter().take(b as usize).copied().collect();
            let winner = recursive_game(sub1, sub2, depth + 1, counter)?.0;
            counter.log.line(String::new);
            counter.log.line(|| format!("...anyway, back to game {game}."));
            winner
        } else if a > b {
            1
        } else {
            2
        };
        if winner == 1 {
            d1.push_back(a);
            d1.push_back(b);
        } else {
            d2.push_back(b);
            d2.push_back(a);
        }
        rounds += 1;
        counter.log.line(|| format!("Player {winner} wins round {rounds} of game {game}!"));
    };
    counter.log.line(|| format!("The winner of game {game} is player {winner}!"));
    if game == 1 {
        counter.log.gap();
        counter.log.results(&d1, &d2);
    }
    Some((winner, rounds, end, (Vec::from(d1), Vec::from(d2))))
}

/// Recursive Combat, literally.
pub fn recursive(one: &[u64], two: &[u64]) -> RefOutcome {
    recursive_within(one, two, u64::MAX).unwrap()
}

/// Recursive Combat, literally, unless it takes more than `max_rounds`
/// rounds of all games together.
pub fn recursive_within(one: &[u64], two: &[u64], max_rounds: u64) -> Option<RefOutcome> {
    recursive_logged(one, two, max_rounds, Log(None)).map(|(outcome, _)| outcome)
}

/// [`recursive_within`] and the puzzle's log of it, line by line as part
/// two's example words it (see [`Log`]).
pub fn recursive_log(one: &[u64], two: &[u64], max_rounds: u64) -> Option<(RefOutcome, String)> {
    recursive_logged(one, two, max_rounds, Log(Some(String::new())))
        .map(|(outcome, log)| (outcome, log.0.unwrap()))
}

fn recursive_logged(
    one: &[u64],
    two: &[u64],
    max_rounds: u64,
    log: Log,
) -> Option<(RefOutcome, Log)> {
    let mut counter = Counter { log, games: 0, max_depth: 0, rounds: 0, max_rounds };
    let (winner, rounds, end, decks) = recursive_game(
        one.iter().copied().collect(),
        two.iter().copied().collect(),
        0,
        &mut counter,
    )?;
    let score = Some(score(if winner == 1 { &decks.0 } else { &decks.1 }));
    let outcome = RefOutcome {
        winner,
        end,
        rounds,
        cycle: None,
        decks,
        score,
        games: counter.games,
        max_depth: counter.max_depth,
    };
    Some((outcome, counter.log))
}
