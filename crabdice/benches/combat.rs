//! Crab Combat benchmarks on the fixed corpus in `benches/corpus/` (see its
//! `expected.txt`), from a 39-round deal to one of ~1.9 million rounds. Each
//! benchmark asserts its answer, except `baseline_recursive`: the model it
//! times is inexact for Recursive Combat.
//!
//! `baseline_*` time a model of the fastest public solution (`baseline/`),
//! which is inexact, on the same deals, so the README can give ratios
//! measured on one machine.
//!
//! `*_many` solve 1,000 different seeded deals (`tests/seeded`) per
//! iteration. Timing one deal over and over lets the branch predictor learn
//! that game's winners by heart, which flatters code that branches on them
//! (the public model does, crabdice's plain passes do not); a user's input
//! is a deal the predictor has never seen.
//!
//! ```sh
//! cargo bench -p crabdice --bench combat
//! ```

mod baseline;
#[path = "../tests/seeded/mod.rs"]
mod seeded;

use crabdice::{Deal, Variant, play, winning_score};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const DEALS: &[&str] = &["1188", "2774", "992", "1762", "2114", "287", "2951"];

/// The corpus deal named `seed` and its expected (part 1, part 2) scores.
fn case(seed: &str) -> (Deal, u128, u128) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/corpus");
    let text = std::fs::read_to_string(format!("{dir}/deal-{seed}.txt")).unwrap();
    let table = std::fs::read_to_string(format!("{dir}/expected.txt")).unwrap();
    let row = table.lines().find(|l| l.starts_with(&format!("deal-{seed}.txt"))).unwrap();
    let fields: Vec<u128> = row.split_whitespace().skip(1).map(|f| f.parse().unwrap()).collect();
    (Deal::parse(&text).unwrap(), fields[0], fields[2])
}

#[divan::bench(args = DEALS)]
fn recursive(bencher: Bencher, seed: &str) {
    let (deal, _, expected) = case(seed);
    bencher.bench(|| {
        let outcome = play(black_box(&deal), Variant::Recursive).unwrap();
        assert_eq!(outcome.score, Some(expected));
    });
}

#[divan::bench(args = DEALS)]
fn baseline_recursive(bencher: Bencher, seed: &str) {
    let (deal, _, _) = case(seed);
    let (one, two) = baseline::decks(&deal);
    bencher.bench(|| baseline::recursive_combat(black_box(&one), black_box(&two)));
}

#[divan::bench(args = DEALS)]
fn plain(bencher: Bencher, seed: &str) {
    let (deal, expected, _) = case(seed);
    bencher.bench(|| {
        let outcome = play(black_box(&deal), Variant::Plain).unwrap();
        assert_eq!(outcome.score, Some(expected));
    });
}

/// The answer alone, as the public solution gives it: no final decks.
#[divan::bench(args = DEALS)]
fn plain_score(bencher: Bencher, seed: &str) {
    let (deal, expected, _) = case(seed);
    bencher.bench(|| {
        let score = winning_score(black_box(&deal), Variant::Plain).unwrap();
        assert_eq!(score, Some(expected));
    });
}

#[divan::bench(args = DEALS)]
fn baseline_plain(bencher: Bencher, seed: &str) {
    let (deal, expected, _) = case(seed);
    let (one, two) = baseline::decks(&deal);
    bencher.bench(|| {
        let score = baseline::combat(black_box(&one), black_box(&two));
        assert_eq!(u128::from(score), expected);
    });
}

/// Deals for the `*_many` benchmarks: seeds `0..1000`, 25 + 25 cards, with
/// their plain Combat scores as the model gives them (exact for plain
/// Combat, and checked against crabdice here).
fn many() -> Vec<(Deal, Vec<u8>, Vec<u8>, u128)> {
    (0..1000)
        .map(|seed| {
            let deal = seeded::deal(25, seed);
            let (one, two) = baseline::decks(&deal);
            let score = u128::from(baseline::combat(&one, &two));
            assert_eq!(winning_score(&deal, Variant::Plain).unwrap(), Some(score));
            (deal, one, two, score)
        })
        .collect()
}

#[divan::bench]
fn plain_score_many(bencher: Bencher) {
    let deals = many();
    bencher.counter(ItemsCount::new(deals.len())).bench(|| {
        for (deal, _, _, score) in &deals {
            assert_eq!(winning_score(black_box(deal), Variant::Plain).unwrap(), Some(*score));
        }
    });
}

#[divan::bench]
fn baseline_plain_many(bencher: Bencher) {
    let deals = many();
    bencher.counter(ItemsCount::new(deals.len())).bench(|| {
        for (_, one, two, score) in &deals {
            assert_eq!(u128::from(baseline::combat(black_box(one), black_box(two))), *score);
        }
    });
}
