//! crabdice against the model of the fastest public Recursive Combat solution
//! (`benches/baseline/`) on many seeded puzzle-shaped deals: both solve each
//! deal in turn, interleaved so that the machine's drift hits both alike, and
//! the totals are compared. Also counts the deals on which the public model,
//! which remembers states by a lossy fingerprint, gives a wrong answer.
//!
//! With `plain`, the same for plain Combat (part 1), where the model is
//! exact: each side solves all the deals in a batch, the batches alternate
//! eleven times, and the medians are compared. Deals differ from one to the
//! next as users' inputs do, so the branch predictor cannot learn one game's
//! winners by heart, as it does when one deal is timed over and over.
//!
//! ```sh
//! cargo run --release --example versus -- 3000        # deals (seeds 0..3000)
//! cargo run --release --example versus -- 3000 plain  # plain Combat
//! ```

#[path = "../benches/baseline/mod.rs"]
mod baseline;
#[path = "../tests/seeded/mod.rs"]
mod seeded;

use std::hint::black_box;
use std::time::{Duration, Instant};

use crabdice::{Variant, winning_score};

fn main() {
    let deals: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3000);
    if std::env::args().nth(2).as_deref() == Some("plain") {
        return plain(deals);
    }
    let (mut ours, mut theirs, mut wrong) = (Duration::ZERO, Duration::ZERO, 0);
    let mut slowest = (Duration::ZERO, Duration::ZERO, 0);
    for seed in 0..deals {
        let deal = seeded::deal(25, seed);
        let (one, two) = baseline::decks(&deal);
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
        wrong += u32::from(answer != Some(u128::from(model)));
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

/// Plain Combat on seeds `0..deals`, in alternating batches.
fn plain(deals: u64) {
    let all: Vec<_> = (0..deals)
        .map(|seed| {
            let deal = seeded::deal(25, seed);
            let (one, two) = baseline::decks(&deal);
            let answer = winning_score(&deal, Variant::Plain).expect("no limit");
            (deal, one, two, answer)
        })
        // The model never ends an endless game.
        .filter(|(.., answer)| answer.is_some())
        .collect();
    for (_, one, two, answer) in &all {
        assert_eq!(Some(u128::from(baseline::combat(one, two))), *answer, "plain Combat is exact");
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..11 {
        let start = Instant::now();
        for (deal, ..) in &all {
            black_box(winning_score(black_box(deal), Variant::Plain).expect("no limit"));
        }
        let middle = Instant::now();
        for (_, one, two, _) in &all {
            black_box(baseline::combat(black_box(one), black_box(two)));
        }
        ours.push(middle - start);
        theirs.push(middle.elapsed());
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let (ours, theirs) = (median(&mut ours), median(&mut theirs));
    let each = |total: Duration| total / all.len() as u32;
    println!("{} seeded 25 + 25 deals, plain Combat, median of 11 batches:", all.len());
    println!("  crabdice      {ours:>10.3?}  ({:.3?} a deal)", each(ours));
    println!(
        "  public model  {theirs:>10.3?}  ({:.3?} a deal, {:.2}x crabdice)",
        each(theirs),
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
}
