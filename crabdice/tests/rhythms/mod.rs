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

/// A state of `lengths` cards from which plain Combat's winners are
/// `winners` (`true` for player 1) over and over, with cards from `lowest`
/// up, if there is one; built for any rhythm, where [`rhythmic`] knows
/// only the nested see-saws.
///
/// The rounds of one period are played on the cards' *places*: the
/// places each round draws, and where each place's card stands after the
/// period (`after[q]` is the place whose card then stands at `q`). In
/// period `k`, a round meets the cards first at `afterᵏ(a)` and
/// `afterᵏ(b)`, where it met those at `a` and `b` in period 0; following
/// each meeting round until its pair of places comes back lists every
/// "this card beats that one" the rhythm needs. Cards that satisfy them
/// all exist exactly when those constraints hold no loop, and then any
/// order that puts each winner above its loser serves: one is drawn with
/// `random` (`random(k)` below `k`). `None` if a deck runs out within the
/// period, the period does not give the decks their lengths back, or the
/// constraints loop.
pub fn built(
    winners: &[bool],
    lengths: [usize; 2],
    lowest: u64,
    mut random: impl FnMut(usize) -> usize,
) -> Option<[Vec<u64>; 2]> {
    use std::collections::VecDeque;
    let n = lengths[0] + lengths[1];
    let mut decks = [
        (0..lengths[0]).collect::<VecDeque<usize>>(),
        (lengths[0]..n).collect::<VecDeque<usize>>(),
    ];
    let mut meetings = Vec::new();
    for &one in winners {
        let (a, b) = (decks[0].pop_front()?, decks[1].pop_front()?);
        meetings.push(if one { (a, b) } else { (b, a) });
        if one {
            decks[0].extend([a, b]);
        } else {
            decks[1].extend([b, a]);
        }
    }
    if decks[0].len() != lengths[0] {
        return None;
    }
    let after: Vec<usize> = decks.iter().flatten().copied().collect();
    // `above[low]` lists the places whose cards must beat `low`'s.
    let mut above = vec![Vec::new(); n];
    let mut below = vec![0_usize; n];
    for (high, low) in meetings {
        let (mut h, mut l) = (high, low);
        loop {
            above[l].push(h);
            below[h] += 1;
            (h, l) = (after[h], after[l]);
            if (h, l) == (high, low) {
                break;
            }
        }
    }
    // Cards from the lowest up, each to a place whose every loser has one.
    let mut ready: Vec<usize> = (0..n).filter(|&place| below[place] == 0).collect();
    let mut cards = vec![0; n];
    let mut next = lowest;
    while !ready.is_empty() {
        let place = ready.swap_remove(random(ready.len()));
        cards[place] = next;
        next += 1;
        for &high in &above[place] {
            below[high] -= 1;
            if below[high] == 0 {
                ready.push(high);
            }
        }
    }
    if next - lowest < n as u64 {
        return None;
    }
    let two = cards.split_off(lengths[0]);
    Some([cards, two])
}

/// Rhythms beyond the nested see-saws of [`rhythmic`], for [`built`]: the
/// two rarer shapes of periods 12 and 24 that random deals of 22 cards
/// fell into (found by playing millions of random deals), and see-saws
/// nested to periods 16 to 256 (winners `1ᵏ2ᵏ` on `5k` cards). Each with
/// its decks' lengths and its cycle's length (played literally by the
/// library's unit tests up to period 128).
pub fn built_shapes() -> [(Vec<bool>, [usize; 2], u64); 7] {
    let nested = |k: usize| [vec![true; k], vec![false; k]].concat();
    let sporadic = |winners: &str| winners.chars().map(|c| c == '1').collect::<Vec<_>>();
    [
        (sporadic("011001101010"), [13, 9], 288),
        (sporadic("110010101100101011010100"), [12, 10], 1_440),
        (nested(8), [16, 24], 7_920),
        (nested(16), [32, 48], 192_192),
        (nested(32), [64, 96], 11_880_960),
        (nested(64), [128, 192], 14_883_840),
        (nested(128), [256, 384], 13_179_640_320),
    ]
}
