//! crabdice against the model of the fastest public Recursive Combat solution
//! (`benches/baseline/`) on many seeded puzzle-shaped deals: both solve each
//! deal in turn, interleaved so that the machine's drift hits both alike, and
//! the totals are compared. Also counts the deals on which the public model,
//! which remembers states by a lossy fingerprint, gives a wrong answer.
//!
//! ```sh
//! cargo run --release --example versus -- 3000      # deals (seeds 0..3000)
//! ```

#[path = "../benches/baseline/mod.rs"]
#[allow(dead_code, reason = "plain Combat's model is for the benchmarks")]
mod baseline;
#[path = "../tests/seeded/mod.rs"]
mod seeded;

use std::hint::black_box;
use std::time::{Duration, Instant};

use crabdice::{Variant, winning_score};

fn main() {
    let deals: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let (mut ours, mut theirs, mut wrong) = (Duration::ZERO, Duration::ZERO, 0);
    let mut slowest = (Duration::ZERO, Duration::ZERO, 0);
    for seed in 0..deals {
        let deal = seeded::deal(25, seed);
        let bytes = |deck: &[u64]| deck.iter().map(|&card| card as u8).collect::<Vec<u8>>();
        let (one, two) = (bytes(&deal.decks().one), bytes(&deal.decks().two));
        let start = Instant::now();
        let answer = winning_score(black_box(&deal), Variant::Recursive).expect("no limit");
        let middle = Instant::now();
        let model = baseline::recursive_combat(black_box(&one), black_box(&two));
        let end = Instant::now();
        let (a, b) = (middle - start, end - middle);
        ours += a;
        theirs += b;
        if b > slowest.1 {
            slowest = (a, b, seed);
        }
        wrong += u32::from(answer != Some(u64::from(model)));
    }
    println!("{deals} seeded 25 + 25 deals, solved in turn:");
    println!("  crabdice      {ours:>10.3?}");
    println!(
        "  public model  {theirs:>10.3?}  ({:.2}x crabdice)",
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
    println!("  public model wrong on {wrong} deals");
    let (a, b, seed) = slowest;
    println!(
        "  heaviest for the model: seed {seed}, {b:.3?} (crabdice {a:.3?}, {:.2}x)",
        b.as_secs_f64() / a.as_secs_f64()
    );
}
