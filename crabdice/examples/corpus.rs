//! Generates the benchmark corpus: puzzle-shaped deals (cards `1..=2n` shuffled
//! and split `n + n`) from fixed seeds, and reports how many rounds the fast
//! engine plays on each, so that a corpus can be picked from light to heavy.
//!
//! ```sh
//! cargo run --release --example corpus -- 25 0 2000      # n, first seed, seeds
//! cargo run --release --example corpus -- 25 1234 1 --print   # print one deal
//! ```
//!
//! Deals come from `tests/seeded/mod.rs`, shared with the tests, so a seed
//! names the same deal everywhere.

#[path = "../tests/seeded/mod.rs"]
mod seeded;

use crabdice::{Limits, Variant, play_with};
use seeded::deal;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (n, first, count) = (number(0, 25), number(1, 0), number(2, 100));
    let print = args.iter().any(|a| a == "--print");
    for seed in first..first + count {
        let deal = deal(n, seed);
        if print {
            for (number, deck) in [(1, &deal.decks().one), (2, &deal.decks().two)] {
                println!("Player {number}:");
                for card in deck {
                    println!("{card}");
                }
                if number == 1 {
                    println!();
                }
            }
            continue;
        }
        let mut rounds = 0;
        let limits = Limits { max_rounds: 200_000_000, ..Limits::default() };
        let start = std::time::Instant::now();
        let outcome = play_with(&deal, Variant::Recursive, limits, &mut |r| rounds = r);
        let time = start.elapsed();
        match outcome {
            Ok(outcome) => println!(
                "seed {seed}\trounds {rounds}\tscore {}\ttime {time:?}",
                outcome.score.unwrap_or(0)
            ),
            Err(error) => println!("seed {seed}\t{error}"),
        }
    }
}
