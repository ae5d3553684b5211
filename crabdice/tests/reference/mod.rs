//! An obviously-correct Crab Combat engine: the rules exactly as the puzzle
//! words them, with no shortcut and no cleverness. Every state a game sees is
//! stored in full in a `HashMap`, so repetition and cycles are found exactly.
//! It is slow and memory-hungry on purpose; the library's engines are checked
//! against it, field by field, by [`assert_matches`].

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
fn plain_round(d1: &mut VecDeque<u64>, d2: &mut VecDeque<u64>) {
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
    let mut d1: VecDeque<u64> = one.iter().copied().collect();
    let mut d2: VecDeque<u64> = two.iter().copied().collect();
    let mut seen: HashMap<(Vec<u64>, Vec<u64>), u64> = HashMap::new();
    let mut rounds = 0;
    loop {
        if d1.is_empty() || d2.is_empty() {
            return plain_emptied(d1, d2, rounds);
        }
        let state = (Vec::from(d1.clone()), Vec::from(d2.clone()));
        if let Some(&first) = seen.get(&state) {
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
        plain_round(&mut d1, &mut d2);
        rounds += 1;
    }
}

struct Counter {
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
    let mut seen: HashSet<(Vec<u64>, Vec<u64>)> = HashSet::new();
    let mut rounds = 0;
    loop {
        if d1.is_empty() {
            return Some((2, rounds, "empty-deck", (Vec::from(d1), Vec::from(d2))));
        }
        if d2.is_empty() {
            return Some((1, rounds, "empty-deck", (Vec::from(d1), Vec::from(d2))));
        }
        let state = (Vec::from(d1.clone()), Vec::from(d2.clone()));
        if !seen.insert(state) {
            return Some((1, rounds, "repetition", (Vec::from(d1), Vec::from(d2))));
        }
        counter.rounds += 1;
        if counter.rounds > counter.max_rounds {
            return None;
        }
        let a = d1.pop_front().unwrap();
        let b = d2.pop_front().unwrap();
        let winner = if d1.len() as u64 >= a && d2.len() as u64 >= b {
            let sub1 = d1.iter().take(a as usize).copied().collect();
            let sub2 = d2.iter().take(b as usize).copied().collect();
            recursive_game(sub1, sub2, depth + 1, counter)?.0
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
    }
}

/// Recursive Combat, literally.
pub fn recursive(one: &[u64], two: &[u64]) -> RefOutcome {
    recursive_within(one, two, u64::MAX).unwrap()
}

/// Recursive Combat, literally, unless it takes more than `max_rounds`
/// rounds of all games together.
pub fn recursive_within(one: &[u64], two: &[u64], max_rounds: u64) -> Option<RefOutcome> {
    let mut counter = Counter { games: 0, max_depth: 0, rounds: 0, max_rounds };
    let (winner, rounds, end, decks) = recursive_game(
        one.iter().copied().collect(),
        two.iter().copied().collect(),
        0,
        &mut counter,
    )?;
    let score = Some(score(if winner == 1 { &decks.0 } else { &decks.1 }));
    Some(RefOutcome {
        winner,
        end,
        rounds,
        cycle: None,
        decks,
        score,
        games: counter.games,
        max_depth: counter.max_depth,
    })
}
