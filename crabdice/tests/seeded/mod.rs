//! Seeded puzzle-shaped deals, shared by the tests, the benchmark corpus
//! generator (`examples/corpus.rs`) and the scaling study
//! (`examples/scaling.rs`): the cards `1..=2n` shuffled (Fisher-Yates, driven
//! by proptest's `ChaCha` generator seeded with the seed's little-endian
//! bytes) and split `n + n`. A seed names the same deal on every machine.

#![allow(dead_code)]

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// The decks of the `n + n` deal named by `seed`, top card first.
pub fn decks(n: u64, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut cards: Vec<u64> = (1..=2 * n).collect();
    for i in (1..cards.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        cards.swap(i, j);
    }
    let two = cards.split_off(n as usize);
    (cards, two)
}

/// The `n + n` deal named by `seed`.
pub fn deal(n: u64, seed: u64) -> crabdice::Deal {
    let (one, two) = decks(n, seed);
    crabdice::Deal::new(one, two).expect("distinct positive cards")
}
