//! States of plain Combat whose winners repeat forever in a rhythm of
//! period `2^(level + 1)` (the library's module `periodic`), for the
//! library's unit tests and the integration tests alike.

/// A small xorshift generator: `random(below)` is in `0..below`, the same
/// sequence for the same seed.
#[allow(dead_code, reason = "the integration tests shuffle with proptest's generator")]
pub fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |below| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as usize
    }
}

/// A state whose winners repeat with period `2^(level + 1)`: the see-saw's
/// shape (module `seesaw`) on units of `2^level` cards, one deck holding
/// `2a` units `H L H L …` (it wins the first half of each period) and the
/// other `2b + 1` units `L H L … L`, where a high unit `H` beats a low one
/// `L` card by card. At level 0 the units are single cards: the low cards,
/// and the high ones above them. At level 1 a high unit is `(T, M)` and a
/// low one `(M, B)`, at level 2 they are `(T, X, X, Y)` and `(X, Y, Y,
/// B)`, with tiers `T > M > B` and `T > X > Y > B`: a period's winner puts
/// `h₁ ℓ₁ h₂ ℓ₂ …` under its deck, re-forming the units, and each card
/// keeps its tier (at level 1, `M` cards swap between high and low units;
/// `T` cards stay first in high units, `B` cards last in low ones). The
/// cards are consecutive from `lowest`, each tier shuffled with `random`
/// (`random(k)` below `k`). Returns the deck of `2a` units, then the other.
pub fn rhythmic(
    level: usize,
    (a, b): (usize, usize),
    lowest: u64,
    mut random: impl FnMut(usize) -> usize,
) -> [Vec<u64>; 2] {
    let (high, low) = match level {
        0 => ("T", "B"),
        1 => ("TM", "MB"),
        _ => ("TXXY", "XYYB"),
    };
    // Each tier's cards, from the lowest tier up, shuffled, and how many of
    // them have been dealt.
    let mut tiers = Vec::new();
    let mut next = lowest;
    for tier in "BYMXT".chars() {
        let count = (a + b) * high.matches(tier).count() + (a + b + 1) * low.matches(tier).count();
        let mut cards: Vec<u64> = (next..next + count as u64).collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, random(i + 1));
        }
        next += count as u64;
        tiers.push((tier, cards, 0));
    }
    let mut unit = |roles: &str, deck: &mut Vec<u64>| {
        for role in roles.chars() {
            let (_, cards, dealt) = tiers.iter_mut().find(|tier| tier.0 == role).unwrap();
            deck.push(cards[*dealt]);
            *dealt += 1;
        }
    };
    let (mut even, mut odd) = (Vec::new(), Vec::new());
    for _ in 0..a {
        unit(high, &mut even);
        unit(low, &mut even);
    }
    unit(low, &mut odd);
    for _ in 0..b {
        unit(high, &mut odd);
        unit(low, &mut odd);
    }
    [even, odd]
}
