//! How the cost of Crab Combat grows with the size of the deal.
//!
//! For each size `n`, plays the puzzle-shaped deals (cards `1..=2n` shuffled
//! and split `n + n`, the same generator as `corpus.rs`) of seeds `0..seeds`
//! under both variants, within a round limit, and prints one Markdown table
//! row per size: how many finished, and the median and slowest rounds and
//! times of those that did.
//!
//! ```sh
//! cargo run --release --example scaling -- 20 200000000   # seeds, round limit
//! ```

use std::time::{Duration, Instant};

#[path = "../tests/seeded/mod.rs"]
mod seeded;

use crabdice::{Limits, Variant, play_with};
use seeded::deal;

fn median<T: Copy + Ord>(values: &mut [T]) -> Option<T> {
    values.sort_unstable();
    values.get(values.len() / 2).copied()
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let seeds = args.first().copied().unwrap_or(20);
    let limit = args.get(1).copied().unwrap_or(200_000_000);
    println!(
        "| variant | n + n | finished | median rounds | most rounds | median time | slowest |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let sizes = [
        (Variant::Recursive, &[10u64, 15, 20, 25, 30, 35, 40, 50, 60, 75, 100][..]),
        (Variant::Plain, &[10, 25, 50, 100, 250, 500, 1000][..]),
    ];
    for (variant, sizes) in sizes {
        for &n in sizes {
            let (mut rounds, mut times) = (Vec::new(), Vec::new());
            for seed in 0..seeds {
                let deal = deal(n, seed);
                let mut played = 0;
                let start = Instant::now();
                let result = play_with(
                    &deal,
                    variant,
                    Limits { max_rounds: limit, ..Limits::default() },
                    &mut |r| played = r,
                );
                if result.is_ok() {
                    rounds.push(played);
                    times.push(start.elapsed());
                }
            }
            let finished = rounds.len();
            let most = rounds.iter().max().copied().unwrap_or(0);
            let slowest = times.iter().max().copied().unwrap_or(Duration::ZERO);
            let name = if variant == Variant::Plain { "plain" } else { "recursive" };
            println!(
                "| {name} | {n} + {n} | {finished}/{seeds} | {} | {most} | {:?} | {slowest:?} |",
                median(&mut rounds).unwrap_or(0),
                median(&mut times).unwrap_or(Duration::ZERO),
            );
        }
    }
}
