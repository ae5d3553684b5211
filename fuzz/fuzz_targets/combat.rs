//! Crab Combat deals from the fuzzer's bytes, up to 24 distinct cards of
//! values up to 48 (so sub-games nest), sometimes with the larger cards
//! raised past a byte or one card near 2^64: the fast engine, its answer
//! alone, the game count and the literal engine must equal the test suite's
//! reference engine (`crabdice/tests/reference`, which plays every rule
//! literally and stores every state), on the winner, score, end, cycle,
//! rounds, final decks, games and depth; and, for games of up to
//! [`LOGGED_ROUNDS`] rounds, the literal engine's log must be the
//! reference's, line for line.

#![no_main]

#[path = "../../crabdice/tests/reference/mod.rs"]
mod reference;

use std::collections::HashSet;

use crabdice::{Deal, Limits, NoTrace, Variant, count_games, play, play_observed, winning_score};
use libfuzzer_sys::fuzz_target;
use reference::{assert_matches, library_log};

/// Rounds the reference may play before the deal is passed over.
const REFERENCE_ROUNDS: u64 = 300_000;

/// Rounds of every game up to which the log is compared too.
const LOGGED_ROUNDS: u64 = 2_000;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, bytes)) = data.split_first() else { return };
    let mut seen = HashSet::new();
    let mut cards: Vec<u64> = Vec::new();
    for &byte in bytes.iter().take(24) {
        let card = u64::from(byte % 48) + 1;
        if seen.insert(card) {
            cards.push(card);
        }
    }
    if cards.is_empty() {
        return;
    }
    match mode % 4 {
        // Cards above 12 past a byte: the engines rank the labels.
        1 => cards.iter_mut().filter(|c| **c > 12).for_each(|c| *c += 1000),
        // The highest card near 2^64: scores past 64 bits.
        2 => {
            let top = cards.iter_mut().max().unwrap();
            *top = u64::MAX - u64::from(mode >> 2);
        }
        _ => {}
    }
    let split = usize::from(mode >> 2) % (cards.len() + 1);
    let (one, two) = cards.split_at(split);
    let deal = Deal::new(one.to_vec(), two.to_vec()).unwrap();

    let plain = reference::plain(one, two);
    assert_matches(&play(&deal, Variant::Plain).unwrap(), &plain, "plain");
    assert_eq!(winning_score(&deal, Variant::Plain).unwrap(), plain.score, "plain score");
    let literal = play_observed(&deal, Variant::Plain, &mut NoTrace).unwrap();
    assert_matches(&literal.outcome, &plain, "plain, literal");
    if plain.rounds <= LOGGED_ROUNDS {
        assert_eq!(
            library_log(&deal, Variant::Plain),
            reference::plain_log(one, two).1,
            "plain log"
        );
    }

    let Some(recursive) = reference::recursive_within(one, two, REFERENCE_ROUNDS) else { return };
    assert_matches(&play(&deal, Variant::Recursive).unwrap(), &recursive, "recursive");
    // One thread: the speculating helper must not change the answer either.
    let one_thread = Limits { max_threads: 1, ..Limits::default() };
    let alone = crabdice::play_with(&deal, Variant::Recursive, one_thread, &mut |_| {}).unwrap();
    assert_matches(&alone, &recursive, "recursive, one thread");
    assert_eq!(winning_score(&deal, Variant::Recursive).unwrap(), recursive.score, "score");
    let count = count_games(&deal, Limits::default(), &mut |_| {}).unwrap();
    assert_eq!(count.games, recursive.games, "games");
    assert_eq!(count.max_depth, recursive.max_depth, "depth");
    let literal = play_observed(&deal, Variant::Recursive, &mut NoTrace).unwrap();
    assert_matches(&literal.outcome, &recursive, "recursive, literal");
    assert_eq!((literal.games, literal.max_depth), (recursive.games, recursive.max_depth));
    if let Some((_, log)) = reference::recursive_log(one, two, LOGGED_ROUNDS) {
        assert_eq!(library_log(&deal, Variant::Recursive), log, "recursive log");
    }
});
