//! # See-saw cycles: proving at a glance that a game never ends
//!
//! Most Recursive Combat work goes into sub-games that end by repetition:
//! on puzzle-shaped deals about four rounds in five are played inside them,
//! mostly going once around a cycle just to see a state come back. Nearly
//! all of those cycles have one shape, and a state of that shape can be
//! recognised, with the cycle's exact length, by one look at the decks.
//!
//! ## The shape
//!
//! In a game of an odd number of cards, call the deck of even length `E`
//! and the other `O`, and read them as
//!
//! ```text
//! E = h₀ ℓ  h₁ ℓ  … h₍ₐ₋₁₎ ℓ                (2a cards, a ≥ 1)
//! O = ℓ  g₀ ℓ  g₁ … g₍ᵦ₋₁₎ ℓ               (2b + 1 cards, b ≥ 1)
//! ```
//!
//! where the `h` and `g` are *high* cards and the `ℓ` are *low* ones. If
//! every round pits a high card against a low card and the high card wins
//! it, without a sub-game, then the winners alternate and the shape lasts
//! forever. `E` draws `h₀` against `O`'s `ℓ` and wins, putting `h₀ ℓ` under
//! its deck: `E` becomes `ℓ (h ℓ)ᵃ` (odd) and `O` becomes `(g ℓ)ᵇ` (even),
//! the same shape with the roles swapped; the next round `O` wins with `g₀`,
//! and so on. No deck can empty: their lengths only swing between `2a` and
//! `2a + 1`, and between `2b + 1` and `2b`.
//!
//! ## Who meets whom
//!
//! Each player's high cards stay with it and come round in order: `E` plays
//! `hᵢ mod a` in round `2i` (counting from the state above), `O` plays
//! `gᵢ mod b` in round `2i + 1`. The `m = a + b + 1` low cards travel together
//! as one queue through both decks: number them `ℓ₀ … ℓₘ₋₁` in the order `O`
//! will draw them (`O`'s low cards top down, then `E`'s, since each low card
//! `E` draws goes under `O`'s deck); then `O` draws `ℓᵢ mod m` in round `2i`
//! and `E` draws `ℓ₍ᵢ₋ₐ₎ mod m` in round `2i + 1`. So `hₓ` meets exactly the
//! `ℓᵧ` with `x ≡ y (mod gcd(a, m))`, and `gₓ` exactly the `ℓᵧ` with
//! `x ≡ y + a (mod gcd(b, m))` (by the Chinese remainder theorem every pair
//! in a class meets, again and again).
//!
//! The shape therefore lasts forever **if and only if**, in every class of
//! both kinds, the lowest high card beats the highest low card, and no
//! meeting in the class starts a sub-game: in round `2i`, `E` holds `2a - 1`
//! cards after drawing and `O` holds `2b`; in round `2i + 1`, `E` holds `2a`
//! and `O` holds `2b - 1`. A class is free of sub-games when all its high
//! cards, or all its low cards, need more cards than their holder has then.
//! [`cycle_length`] checks exactly this, in `O(n)`.
//!
//! ## What it proves
//!
//! A state that passes never leads to an empty deck, so a sub-game in it is
//! won by player 1 (the repetition rule must eventually stop it), whatever
//! came before. More: inside the shape a round is a rotation of three
//! sequences of distinct cards (`h`, `g` and the low queue), which can be
//! undone, so every state of the shape lies on its own cycle, whose length is
//! the period of the three rotations together:
//!
//! ```text
//! λ = 2 × lcm(a, b, a + b + 1)
//! ```
//!
//! (the `2` because a state of the shape comes back only in the same phase).
//! For the top game, whose exact last round matters, the cycle starts at the
//! first state of the shape: none before it lies on a cycle, and every state
//! on the cycle passes the look (its rounds turn the three sequences and
//! keep the shape and its meetings). So the engine finds that round by
//! bisection over the game replayed from the deal, with a look at each
//! step, instead of going once around a cycle that, on a deal of 2,001
//! cards, can take half a billion rounds (`2 × lcm(499, 501, 1001)`).
//!
//! ## What it is worth
//!
//! On the benchmark corpus, 97% of the sub-games that end by repetition are
//! see-saws from the first state of their cycle, and their cycles average
//! 150 to 250 rounds: recognising the shape soon after entering it plays
//! about half as many rounds in all. The engine looks after `1.5 n` rounds
//! in which every pass was won half by each player, give or take one, as
//! always inside the shape (that costs a test per pass, none per round).
//! Nearly every state that gets that far has its pairs in order, so the
//! check reads each deck's pairs once, with no early exit, for the extremes
//! of the high and low cards; only a kind of meeting that fails on those
//! extremes is checked class by class. On deal 2951 that is 9,850 looks,
//! 5,299 of them see-saws, at about 450 instructions a look.

use super::deal::Label;
use crate::arith::{checked_lcm, gcd};

/// If the state with these decks is a see-saw that lasts forever (see the
/// module docs), the length of the cycle it lies on. `need` gives the cards
/// a player must still hold after drawing a card to start a sub-game with
/// it (nothing within reach means no sub-games: plain Combat), and must not
/// decrease as the card grows: the checks below rely on the lowest card of
/// a side having the smallest need.
///
/// `None` says nothing: the game may end or cycle in another way.
#[expect(clippy::many_single_char_names, reason = "the names of the formulas in the module docs")]
pub(crate) fn cycle_length<C: Label>(decks: [&[C]; 2], need: impl Fn(C) -> usize) -> Option<u64> {
    let [one, two] = decks;
    let (e, o) = match (one.len() % 2, two.len() % 2) {
        (0, 1) => (one, two),
        (1, 0) => (two, one),
        _ => return None,
    };
    let (a, b) = (e.len() / 2, o.len() / 2);
    if a == 0 || b == 0 {
        return None;
    }
    // Necessary: the cards put under a deck together meet (both lie in one
    // class), so the high card of each such pair is the higher. With that,
    // the extremes of all high and all low cards, in one pass over each
    // deck's pairs with no early exit: most states that get here pass, and
    // a branch per card costs more than the cards.
    let (mut ordered, mut lowest_low, mut highest_low) = (true, o[0], o[0]);
    let mut lowest_high = |pairs: &[C]| {
        let mut lowest = pairs[0];
        for pair in pairs.chunks_exact(2) {
            let (high, low) = (pair[0], pair[1]);
            ordered &= high > low;
            lowest = lowest.min(high);
            lowest_low = lowest_low.min(low);
            highest_low = highest_low.max(low);
        }
        lowest
    };
    let (high_e, high_o) = (lowest_high(e), lowest_high(&o[1..]));
    if !ordered {
        return None;
    }
    let m = a + b + 1;
    // A kind of meeting in which the lowest high card beats the highest low
    // card, and no meeting can start a sub-game, holds in every class,
    // whatever the classes are (a class's extremes lie within the kind's,
    // and needs grow with the card). Otherwise its classes are checked one
    // by one, unless there is only one, which was the whole condition.
    // `E`'s high cards meet in round 2i, when `O` holds 2b cards after
    // drawing; `O`'s in round 2i + 1, when `E` holds 2a, and `gₓ` meets `ℓᵧ`
    // when x ≡ y + a (mod gcd(b, m)).
    let lows = (lowest_low, highest_low);
    let kind_holds = |highs: &[C], lowest_high: C, count: usize, keeps: (usize, usize), shift| {
        if class_wins(lowest_high, lows, keeps.0, keeps.1, &need) {
            return true;
        }
        let classes = gcd(count as u64, m as u64) as usize;
        classes > 1 && classes_hold([o, e], highs, (classes, shift), keeps, &need)
    };
    if !kind_holds(e, high_e, a, (2 * a - 1, 2 * b), 0)
        || !kind_holds(&o[1..], high_o, b, (2 * b - 1, 2 * a), a)
    {
        return None;
    }
    checked_lcm(a as u64, b as u64).and_then(|p| checked_lcm(p, m as u64))?.checked_mul(2)
}

/// Whether every one of `classes` classes of one kind of meeting holds.
/// The low cards are the queue `ℓ₀ … ℓₘ₋₁`: `O`'s (its even places, top
/// down), then `E`'s (its odd places), `ℓᵧ` in class `y mod classes`; the
/// high cards are `highs[0], highs[2], …`, the `x`th of them in class
/// `(x - shift) mod classes`; `keeps` as for [`class_wins`].
fn classes_hold<C: Label>(
    [o, e]: [&[C]; 2],
    highs: &[C],
    (classes, shift): (usize, usize),
    (high_keeps, low_keeps): (usize, usize),
    need: impl Fn(C) -> usize,
) -> bool {
    // `O` holds `ℓ₀ … ℓ_b`; the first of `E`'s, `ℓ_(b + 1)`, is in class
    // `(b + 1) mod classes`.
    let (shift, in_e, step) = (shift % classes, (o.len() / 2 + 1) % classes, 2 * classes);
    (0..classes).all(|class| {
        let Some((lowest_high, _)) = extremes(highs, 2 * ((class + shift) % classes), step, None)
        else {
            return true;
        };
        let lows = extremes(o, 2 * class, step, None);
        let Some(lows) = extremes(e, 1 + 2 * ((class + classes - in_e) % classes), step, lows)
        else {
            return true;
        };
        class_wins(lowest_high, lows, high_keeps, low_keeps, &need)
    })
}

/// The lowest and highest of `cards[from]`, `cards[from + step]`, … and of
/// `so_far`.
fn extremes<C: Label>(
    cards: &[C],
    from: usize,
    step: usize,
    so_far: Option<(C, C)>,
) -> Option<(C, C)> {
    let mut range = so_far;
    let mut at = from;
    while let Some(&card) = cards.get(at) {
        range = Some(range.map_or((card, card), |(low, high)| (low.min(card), high.max(card))));
        at += step;
    }
    range
}

/// Whether every high card of a class beats every low card of it, and no
/// meeting starts a sub-game, from the class's lowest high card and the
/// lowest and highest of its low cards: the high card's holder keeps
/// `high_keeps` cards after drawing, the low card's holder `low_keeps`.
fn class_wins<C: Label>(
    lowest_high: C,
    (lowest_low, highest_low): (C, C),
    high_keeps: usize,
    low_keeps: usize,
    need: impl Fn(C) -> usize,
) -> bool {
    // Needs grow with the card, so the lowest card of a side decides
    // whether all of that side is out of reach.
    lowest_high > highest_low && (need(lowest_high) > high_keeps || need(lowest_low) > low_keeps)
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::{HashMap, VecDeque};

    use super::cycle_length;

    /// Plays literal Recursive Combat (or plain, with `recursive` false)
    /// from `decks`, as a sub-game with no history; returns the round at
    /// which the first repeated state is seen and the length of the cycle,
    /// or `None` if a deck empties.
    pub(in super::super) fn literal(decks: [&[u8]; 2], recursive: bool) -> Option<(u64, u64)> {
        fn game(one: &[u8], two: &[u8], recursive: bool) -> (bool, Option<(u64, u64)>) {
            let (mut one, mut two): (VecDeque<u8>, VecDeque<u8>) =
                (one.iter().copied().collect(), two.iter().copied().collect());
            let mut seen = HashMap::new();
            for round in 0u64.. {
                if one.is_empty() || two.is_empty() {
                    return (two.is_empty(), None);
                }
                if let Some(first) = seen.insert((one.clone(), two.clone()), round) {
                    return (true, Some((first, round - first)));
                }
                let (a, b) = (one.pop_front().unwrap(), two.pop_front().unwrap());
                let one_wins =
                    if recursive && usize::from(a) <= one.len() && usize::from(b) <= two.len() {
                        let sub_one: Vec<u8> = one.iter().take(a.into()).copied().collect();
                        let sub_two: Vec<u8> = two.iter().take(b.into()).copied().collect();
                        game(&sub_one, &sub_two, true).0
                    } else {
                        a > b
                    };
                if one_wins {
                    one.extend([a, b]);
                } else {
                    two.extend([b, a]);
                }
            }
            unreachable!()
        }
        game(decks[0], decks[1], recursive).1
    }

    fn need(card: u8) -> usize {
        usize::from(card)
    }

    #[test]
    fn the_smallest_see_saw_has_the_predicted_length() {
        // E = 6 2 8 3 (a = 2), O = 1 7 5 9 4 (b = 2): λ = 2 × lcm(2, 2, 5).
        let decks: [&[u8]; 2] = [&[6, 2, 8, 3], &[1, 7, 5, 9, 4]];
        assert_eq!(cycle_length(decks, need), Some(20));
        assert_eq!(literal(decks, true), Some((0, 20)));
    }

    #[test]
    fn classes_let_a_high_card_face_only_some_low_cards() {
        // a = 3, b = 5, m = 9: E's high cards fall into gcd(3, 9) = 3
        // classes, so 29 need only beat the low cards of its own class
        // (taken from a real corpus sub-game).
        let decks: [&[u8]; 2] =
            [&[10, 49, 29, 45, 34, 38, 1], &[42, 39, 50, 12, 44, 27, 48, 28, 41, 40]];
        assert_eq!(cycle_length(decks, need), Some(90));
        assert_eq!(literal(decks, true), Some((0, 90)));
        // Swap 29 and 44: every pair put under a deck together is still in
        // order, but 29 is now one of player 2's high cards, which (one
        // class, gcd(5, 9) = 1) must beat every low card, 39 among them. The
        // state is indeed not on its cycle, which starts 14 rounds later.
        let swapped: [&[u8]; 2] =
            [&[10, 49, 44, 45, 34, 38, 1], &[42, 39, 50, 12, 29, 27, 48, 28, 41, 40]];
        assert_eq!(cycle_length(swapped, need), None);
        assert_eq!(literal(swapped, true), Some((14, 90)));
    }

    #[test]
    fn a_sub_game_inside_the_shape_breaks_it() {
        // As the smallest see-saw, but with cards so low that a round would
        // start a sub-game (1 vs 4 with four cards each after drawing).
        let plain: [&[u8]; 2] = [&[6, 2, 8, 3], &[1, 7, 5, 9, 4]];
        let low_needs = |card: u8| usize::from(card) / 4;
        assert_eq!(cycle_length(plain, low_needs), None);
        assert_eq!(cycle_length(plain, |_| usize::MAX), Some(20));
    }

    /// The check counts exactly the cards a low card's holder keeps after
    /// drawing against `E`'s high cards (`2b`): a low card needing one more
    /// is out of reach, one needing just that many is not.
    #[test]
    fn the_low_cards_facing_e_are_in_reach_at_exactly_2b_cards() {
        // a = 3, b = 1: E's high cards (needs 4 and 5) are in reach of the
        // 5 cards E keeps, but O keeps 2 and its low cards need 3 or more.
        let quarter = |card: u8| usize::from(card) / 4;
        let out_of_reach: [&[u8]; 2] = [&[17, 14, 18, 15, 19, 16], &[12, 20, 13]];
        assert_eq!(alternates(out_of_reach, quarter), Some(30));
        assert_eq!(cycle_length(out_of_reach, quarter), Some(30));
        // a = 4, b = 3: E keeps 7 cards, O keeps 6, and every card needs 6
        // or 7: the first round starts a sub-game.
        let eighth = |card: u8| usize::from(card) / 8;
        let in_reach: [&[u8]; 2] =
            [&[56, 52, 57, 53, 58, 54, 59, 55], &[48, 60, 49, 61, 50, 62, 51]];
        assert_eq!(alternates(in_reach, eighth), None);
        assert_eq!(cycle_length(in_reach, eighth), None);
        assert_eq!(cycle_length(in_reach, |_| usize::MAX), Some(48));
    }

    /// Calls `out` with every order of `items[k..]` after `items[..k]`.
    pub(in super::super) fn permutations(
        items: &mut Vec<u8>,
        k: usize,
        out: &mut dyn FnMut(&[u8]),
    ) {
        if k == items.len() {
            out(items);
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            permutations(items, k + 1, out);
            items.swap(k, i);
        }
    }

    /// Every state of up to nine cards 1..=n in which the check fires is on
    /// a cycle of exactly the predicted length, under both rule sets.
    #[test]
    fn every_small_state_it_accepts_cycles_with_the_predicted_length() {
        let mut accepted = 0;
        for n in [5u8, 7, 9] {
            let mut cards: Vec<u8> = (1..=n).collect();
            permutations(&mut cards, 0, &mut |order| {
                for split in 0..=order.len() {
                    let decks = [&order[..split], &order[split..]];
                    for recursive in [false, true] {
                        let needs =
                            |card: u8| if recursive { usize::from(card) } else { usize::MAX };
                        if let Some(length) = cycle_length(decks, needs) {
                            accepted += 1;
                            assert_eq!(literal(decks, recursive), Some((0, length)), "{decks:?}");
                        }
                    }
                }
            });
        }
        assert!(accepted > 10_000, "only {accepted} states accepted");
    }

    /// Plays `decks` while they keep to the see-saw's pattern: no round
    /// starts a sub-game (under `need`), and the winners alternate, the
    /// deck of even length winning first. The number of rounds until the
    /// first state comes back, or `None` at the first round out of the
    /// pattern (or a deck too short for the shape).
    fn alternates(decks: [&[u8]; 2], need: impl Fn(u8) -> usize) -> Option<u64> {
        let start: [VecDeque<u8>; 2] = decks.map(|deck| deck.iter().copied().collect());
        let even = match (decks[0].len() % 2, decks[1].len() % 2) {
            (0, 1) => 0,
            (1, 0) => 1,
            _ => return None,
        };
        if decks[even].is_empty() || decks[1 - even].len() < 3 {
            return None;
        }
        let mut state = start.clone();
        for round in 0u64.. {
            if round > 0 && state == start {
                return Some(round);
            }
            assert!(round < 10_000, "{decks:?} keeps the pattern but does not come back");
            let [one, two] = &mut state;
            let (a, b) = (one.pop_front()?, two.pop_front()?);
            if need(a) <= one.len() && need(b) <= two.len() {
                return None;
            }
            let winner = usize::from(b > a);
            if (winner == even) != (round % 2 == 0) {
                return None;
            }
            if winner == 0 {
                one.extend([a, b]);
            } else {
                two.extend([b, a]);
            }
        }
        unreachable!()
    }

    /// The check is complete as well as sound: on see-saw-shaped states of
    /// 5 to 17 cards (high and low cards in place, sometimes a high and a
    /// low card swapped, so only some classes hold), under needs of several
    /// scales, it accepts exactly the states that keep alternating with no
    /// sub-game through a whole cycle, with that cycle's length.
    #[test]
    #[expect(
        clippy::many_single_char_names,
        reason = "the names of the formulas in the module docs"
    )]
    fn it_accepts_exactly_the_states_that_alternate_forever() {
        let mut random = crate::rhythms::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for _ in 0..20_000 {
            let (a, b) = (1 + random(4), 1 + random(4));
            let n = 2 * (a + b) + 1;
            // n of the cards 1..=4n, shuffled; the a + b highest are the
            // high cards.
            let mut cards: Vec<u8> = (1..=4 * n as u8).collect();
            for i in 0..n {
                let j = i + random(cards.len() - i);
                cards.swap(i, j);
            }
            cards.truncate(n);
            let mut sorted = cards.clone();
            sorted.sort_unstable();
            let (mut highs, mut lows): (Vec<u8>, Vec<u8>) =
                cards.iter().partition(|&&card| card >= sorted[a + b + 1]);
            if random(2) == 0 {
                let (high, low) = (random(highs.len()), random(lows.len()));
                std::mem::swap(&mut highs[high], &mut lows[low]);
            }
            // E = h ℓ h ℓ …, O = ℓ g ℓ g … ℓ.
            let e: Vec<u8> = (0..a).flat_map(|i| [highs[i], lows[b + 1 + i]]).collect();
            let mut o = vec![lows[0]];
            o.extend((0..b).flat_map(|i| [highs[a + i], lows[1 + i]]));
            let decks: [&[u8]; 2] = if random(2) == 0 { [&e, &o] } else { [&o, &e] };
            let scale = 1 + random(8);
            let need = |card: u8| usize::from(card) / scale;
            let expected = alternates(decks, need);
            assert_eq!(cycle_length(decks, need), expected, "{decks:?}, needs / {scale}");
            accepted += usize::from(expected.is_some());
        }
        assert!(accepted > 2_000, "only {accepted} see-saws");
    }
}
