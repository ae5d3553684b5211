//! crabdice against the model of the fastest public Recursive Combat solution
//! (`benches/baseline/`) on many seeded puzzle-shaped deals: both solve each
//! deal in turn, interleaved so that the machine's drift hits both alike, and
//! the totals are compared. Also counts the deals on which the public model,
//! which remembers states by a lossy fingerprint, gives a wrong answer.
//!
//! With `plain` (or `plain N` for `N + N` deals, 25 unless given), the same
//! for plain Combat (part 1), where the model is exact: each side solves all the deals in a batch, the batches alternate
//! eleven times, and the medians are compared. Deals differ from one to the
//! next as users' inputs do, so the branch predictor cannot learn one game's
//! winners by heart, as it does when one deal is timed over and over.
//!
//! With `light N`, Recursive Combat in batches like that, on `N + N` deals:
//! small deals, where a game's fixed costs show, which timing each deal on
//! its own would drown.
//!
//! ```sh
//! cargo run --release --example versus -- 3000          # deals (seeds 0..3000)
//! cargo run --release --example versus -- 3000 plain    # plain Combat
//! cargo run --release --example versus -- 3000 plain 5  # plain, 5 + 5 deals
//! cargo run --release --example versus -- 3000 light 5  # 5 + 5 deals
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
    match std::env::args().nth(2).as_deref() {
        Some("plain") => {
            let cards = std::env::args().nth(3).and_then(|a| a.parse().ok()).unwrap_or(25);
            return batches(deals, Variant::Plain, cards);
        }
        Some("light") => {
            let cards = std::env::args().nth(3).and_then(|a| a.parse().ok()).unwrap_or(5);
            return batches(deals, Variant::Recursive, cards);
        }
        _ => {}
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

/// `variant` on the `cards + cards` deals of seeds `0..deals`, in
/// alternating batches.
fn batches(deals: u64, variant: Variant, cards: u64) {
    let model = |one: &[u8], two: &[u8]| match variant {
        Variant::Plain => baseline::combat(one, two),
        Variant::Recursive => baseline::recursive_combat(one, two),
    };
    let all: Vec<_> = (0..deals)
        .map(|seed| {
            let deal = seeded::deal(cards, seed);
            let (one, two) = baseline::decks(&deal);
            let answer = winning_score(&deal, variant).expect("no limit");
            (deal, one, two, answer)
        })
        // The model never ends an endless plain game.
        .filter(|(.., answer)| answer.is_some())
        .collect();
    let wrong =
        all.iter().filter(|(_, one, two, answer)| Some(u128::from(model(one, two))) != *answer);
    let wrong = wrong.count();
    assert!(variant == Variant::Recursive || wrong == 0, "plain Combat is exact");
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..11 {
        let start = Instant::now();
        for (deal, ..) in &all {
            black_box(winning_score(black_box(deal), variant).expect("no limit"));
        }
        let middle = Instant::now();
        for (_, one, two, _) in &all {
            black_box(model(black_box(one), black_box(two)));
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
    let name = match variant {
        Variant::Plain => "plain",
        Variant::Recursive => "Recursive",
    };
    println!("{} seeded {cards} + {cards} deals, {name} Combat, median of 11 batches:", all.len());
    println!("  crabdice      {ours:>10.3?}  ({:.3?} a deal)", each(ours));
    println!(
        "  public model  {theirs:>10.3?}  ({:.3?} a deal, {:.2}x crabdice)",
        each(theirs),
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
    if variant == Variant::Recursive {
        println!("  public model wrong on {wrong} deals");
    }
}
