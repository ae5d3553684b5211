//! # Periodic winners: see-saws of see-saws, and any other rhythm
//!
//! A see-saw (module `seesaw`) is a game whose winners alternate forever.
//! Plain games of an even number of cards cannot see-saw, but they cycle in
//! a rhythm of their own: winners `1122` repeating, decks in groups of four
//! cards, a see-saw whose units are pairs of rounds. A see-saw of those
//! (`11112222`) exists too, and on 2,000 cards such a cycle takes 70 to 170
//! million rounds. This module recognises every such rhythm, whatever its
//! period, with one look at the state.
//!
//! ## A rhythm is a permutation
//!
//! Say the winners of the `p` rounds from some state won `p / 2` rounds
//! each (so the decks have their lengths back). Those rounds move each card
//! by the same rule whatever its value: a round takes the top card of each
//! deck and puts both under the winner's. So the `p` rounds map *places* to
//! places, by a permutation `σ` that depends only on the deck lengths and
//! the winners: after them, place `q` holds the card that was at place
//! `σ(q)`. If the next `p` rounds have the same winners, they apply `σ`
//! again, and so on: the card at place `q` after `k` periods is the one
//! that was at `σᵏ(q)`.
//!
//! ## When the rhythm lasts
//!
//! Round `j` of a period draws, for each player, the card found at some
//! place at the period's start: places `a` and `b` (found by playing the
//! rhythm once on the places themselves). In period `k` it therefore
//! compares the cards that were at `σᵏ(a)` and `σᵏ(b)` at the state looked
//! at. Walk the cycles of `σ`: `a` lies on a cycle `A` of length `|A|` at
//! index `i`, `b` on `B` at index `j`, and period `k` compares `A[i + k]`
//! with `B[j + k]`. When `A` and `B` differ, by the Chinese remainder
//! theorem the pairs met are exactly those `(A[x], B[y])` with `x − y ≡ i −
//! j (mod gcd(|A|, |B|))`, each again and again: so each class of that
//! congruence must have its lowest card on the winning side above its
//! highest card on the losing side. `A` cannot be `B`: the pairs met would
//! be `(A[t], A[t + d])` for every `t`, with `d = j − i` not a multiple of
//! `|A|`, and the same side winning each, so `A[t] > A[t + d] > A[t + 2d] >
//! … > A[t + |A| d] = A[t]` (or the same with `<`). A meeting must
//! also start no sub-game: the deck lengths at round `j` are fixed by the
//! rhythm, and needs grow with the card, so a class is out of reach when
//! the lowest card of either side needs more than its holder keeps.
//!
//! The winners repeat forever **if and only if** every round of the period
//! passes, which costs `O(p · n)` in all.
//!
//! ## The cycle
//!
//! A state that passes comes back after `k` periods exactly when `σᵏ` is
//! the identity (the cards are distinct), that is after `p × lcm` of the
//! lengths of `σ`'s cycles rounds, *if `p` is the rhythm's shortest
//! period*: the winners of a cycle of length `λ` repeat every `λ` rounds,
//! and every period of an endless sequence is a multiple of its shortest
//! (two periods give their gcd as a period), so `λ` is a multiple of it.
//! [`cycle`] tries the see-saw's `2` first, by module `seesaw`'s quicker
//! look, which passes exactly when the winners alternate forever.
//! Otherwise it plays `2m` rounds on a copy, for the longest period `m` it
//! looks for, and tries only the shortest period `p` from 4 on that those
//! winners follow (even, balanced, at most `m`), if any: no other can
//! pass. Say they follow another, `q`. As `p + q ≤ 2m`, `gcd(p, q)` is a
//! period of theirs too (Fine and Wilf), even and balanced as well (a
//! sequence of odd period `g` balances no multiple of `g`), so it is `p`,
//! or `2`. Either way `q` is a multiple of it, and winners that repeat
//! forever with period `q` (their first `q` being the shorter period's
//! repeated) repeat forever with the shorter period: so `q` fails if `p`
//! fails, or if the see-saw's look did.
//!
//! How long a period to look for: 64 rounds in any game, and in games of
//! more cards, as many rounds as cards, up to 2,048, once the game has
//! played 4,096 rounds for each. Nested see-saws (`1ᵏ2ᵏ` repeating,
//! period `2k`) need at least `5k` cards: a game of 640 cards can cycle
//! with period 256, every 13,179,640,320 rounds, and a game that went
//! round it took minutes. A look for periods up to `m` plays `2m` rounds
//! on a copy, and games look only at the states Brent's algorithm saves,
//! a few dozen in all; the rounds a game must have played first keep that
//! to a per cent or less of its time. Looks for periods up to `n` from the
//! start made random plain games of 2,000 cards that end 15–30% slower,
//! and from 1,024 rounds a round of the period 1.5–3% slower; from 4,096
//! they take the same time as before, and the rhythm of period 256 is
//! found in 8 ms (2 ms at 1,024).
//!
//! As for see-saws, a state that passes lies on its own cycle (its `σ`
//! can be undone), and every state of that cycle passes with the same
//! period, so in a game the look is false before the cycle and true from
//! its first state on: bisection finds where the cycle starts.
//!
//! ## What it is worth
//!
//! The periods met in practice are short. Of the 16,159 cycles of 64,500
//! random deals of 4 to 30 cards (simulated in Python, every state
//! stored), 15,791 had period 2 (see-saws), 364 period 4 and 4 period 8,
//! and in each the length was `p × lcm` as above. Periods that are not
//! powers of two are rarer still: of four million random deals of 22
//! cards, 89 fell into rhythms of period 12 and 10 of period 24, and none
//! of three million deals of 23 to 34 cards did. The tests build states
//! for any rhythm by solving its meetings' constraints, and check the
//! look on periods 12, 16, 24, 32 and 64 too. A see-saw of see-saws
//! built on 1,000 + 998 cards cycles every 165,834,000 rounds, which the
//! plain engine took 2.0 s to go round; it is now answered at the first
//! state Brent's algorithm saves on the cycle.

use std::collections::VecDeque;

use super::deal::Label;
use super::seesaw;
use crate::arith::{checked_lcm, gcd};

/// Rounds a sub-game plays before it looks for rhythms, as the top game
/// does from the start. Most sub-games that end in a cycle ride a see-saw,
/// found without this module; looking at every sub-game's saved states
/// cost the heavy deals 15% more instructions, while a sub-game this long
/// is rare (none on the benchmark corpus) and may ride a rhythm whose cycle
/// takes billions of rounds.
pub(super) const RHYTHMS_IN_SUB_GAMES: u64 = 1 << 20;

/// The longest period looked for in any game.
const SHORT_PERIODS: usize = 64;

/// The longest period looked for in any game that has played long enough.
const MOST_PERIOD: usize = 2048;

/// Rounds a game must have played for each round of a period longer than
/// [`SHORT_PERIODS`] looked for.
const ROUNDS_A_PERIOD: u64 = 4096;

/// The longest period looked for in a game of `cards` cards that has
/// played `rounds` rounds (see the module docs).
fn longest_period(cards: usize, rounds: u64) -> usize {
    let earned = usize::try_from(rounds / ROUNDS_A_PERIOD).unwrap_or(usize::MAX);
    cards.min(earned).clamp(SHORT_PERIODS, MOST_PERIOD)
}

/// An endless rhythm of winners: its shortest period, and the length of
/// the cycle of states it lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rhythm {
    pub period: usize,
    pub length: u64,
}

/// If the winners from the state with these decks, reached after `rounds`
/// rounds, repeat forever with a period of at most 64 rounds, or for `n`
/// cards of at most `min(n, rounds / 4096, 2048)` (see the module docs),
/// that rhythm. `need` is as for [`seesaw::cycle_length`]: the cards a
/// player must hold after drawing a card to start a sub-game with it, not
/// decreasing as the card grows.
///
/// `None` says nothing: the game may end, or cycle in a longer rhythm, or
/// in one whose cycle is too long to count in 64 bits.
// Out of line: it runs a few dozen times a game, and inlined into the
// round loop of module `bulk` it cost the heavy deals 0.3% more
// instructions, where out of line they run 0.5% fewer than before.
#[inline(never)]
pub(crate) fn cycle<C: Label>(
    decks: [&[C]; 2],
    need: impl Fn(C) -> usize + Copy,
    rounds: u64,
) -> Option<Rhythm> {
    cycle_within(decks, need, longest_period(decks[0].len() + decks[1].len(), rounds))
}

/// [`cycle`], looking for periods of at most `longest` rounds.
fn cycle_within<C: Label>(
    decks: [&[C]; 2],
    need: impl Fn(C) -> usize + Copy,
    longest: usize,
) -> Option<Rhythm> {
    if let Some(length) = seesaw::cycle_length(decks, need) {
        return Some(Rhythm { period: 2, length });
    }
    let winners = winners(decks, need, 2 * longest)?;
    let period = (4..=longest).step_by(2).find(|&period| follows(&winners, period))?;
    Some(Rhythm { period, length: with_period(decks, need, period)? })
}

/// Whether the winners from this state repeat forever with period
/// `period`, which must be their shortest (see the module docs): the look
/// [`cycle`] took, for the states before and after the one it passed.
pub(crate) fn keeps<C: Label>(
    decks: [&[C]; 2],
    need: impl Fn(C) -> usize + Copy,
    period: usize,
) -> bool {
    if period == 2 {
        seesaw::cycle_length(decks, need).is_some()
    } else {
        with_period(decks, need, period).is_some()
    }
}

/// The winners (`true` for player 1) of the next `rounds` rounds, played on
/// a copy; `None` if a deck empties or a round starts a sub-game first.
fn winners<C: Label>(
    decks: [&[C]; 2],
    need: impl Fn(C) -> usize,
    rounds: usize,
) -> Option<Vec<bool>> {
    let [one, two] = decks;
    if one.len().min(two.len()) > rounds {
        // The rounds draw only cards already in the decks (a pass, module
        // `passes`): no copy of a large deck. Each deck keeps its length,
        // less the rounds so far and this one, and two cards a round won.
        let mut keeps = [one.len(), two.len()];
        return (0..rounds)
            .map(|i| {
                let (a, b) = (one[i], two[i]);
                keeps = keeps.map(|keep| keep - 1);
                if need(a) <= keeps[0] && need(b) <= keeps[1] {
                    return None;
                }
                keeps[usize::from(b > a)] += 2;
                Some(a > b)
            })
            .collect();
    }
    let mut decks = decks.map(|deck| deck.iter().copied().collect::<VecDeque<C>>());
    (0..rounds)
        .map(|_| match round(&mut decks, &need)? {
            (_, true) => None,
            (one, false) => Some(one),
        })
        .collect()
}

/// Plays a round of plain Combat on `decks`, top first: whether player 1
/// won it, and whether by `need` it would have started a sub-game instead
/// (the players' lengths after drawing); `None` if a deck is empty.
fn round<C: Ord + Copy>(
    decks: &mut [VecDeque<C>; 2],
    need: impl Fn(C) -> usize,
) -> Option<(bool, bool)> {
    let [one, two] = decks;
    let (a, b) = (one.pop_front()?, two.pop_front()?);
    let sub_game = need(a) <= one.len() && need(b) <= two.len();
    if a > b {
        one.extend([a, b]);
    } else {
        two.extend([b, a]);
    }
    Some((a > b, sub_game))
}

/// Whether `winners` (at least `2 × period` of them) split each period
/// evenly and repeat with that period.
fn follows(winners: &[bool], period: usize) -> bool {
    winners.iter().zip(&winners[period..]).all(|(x, y)| x == y)
        && winners[..period].iter().filter(|&&one| one).count() * 2 == period
}

/// One round of the rhythm, in places at the period's start: player 1
/// draws the card at `places[0]`, player 2 the one at `places[1]`, the
/// players keep `keeps` cards after drawing, and player 1 wins if `one`.
struct Meeting {
    places: [usize; 2],
    keeps: [usize; 2],
    one: bool,
}

/// The cycles of a permutation of places, listed one after another.
struct Cycles {
    /// Every place, each cycle's in order (`σ` of each is the next).
    order: Vec<usize>,
    /// For each place: where its cycle starts in `order`, and its index in it.
    at: Vec<(usize, usize)>,
    /// Where each cycle starts in `order`, and one past the last.
    starts: Vec<usize>,
}

impl Cycles {
    fn of(sigma: &[usize]) -> Self {
        let n = sigma.len();
        let (mut order, mut at, mut starts) = (Vec::with_capacity(n), vec![None; n], vec![]);
        for first in 0..n {
            if at[first].is_some() {
                continue;
            }
            let start = order.len();
            starts.push(start);
            let mut place = first;
            while at[place].is_none() {
                at[place] = Some((start, order.len() - start));
                order.push(place);
                place = sigma[place];
            }
        }
        starts.push(n);
        let at = at.into_iter().map(Option::unwrap_or_default).collect();
        Self { order, at, starts }
    }

    /// The cycle through `place`: where it starts in `order` (which names
    /// it), its places, and `place`'s index in it.
    fn through(&self, place: usize) -> (usize, &[usize], usize) {
        let (start, index) = self.at[place];
        let end = self.starts[self.starts.partition_point(|&s| s <= start)];
        (start, &self.order[start..end], index)
    }

    /// The least common multiple of the cycles' lengths; `None` past 64
    /// bits.
    fn order(&self) -> Option<u64> {
        self.starts
            .windows(2)
            .try_fold(1u64, |lcm, cycle| checked_lcm(lcm, (cycle[1] - cycle[0]) as u64))
    }
}

/// If the winners of the next `period` rounds repeat forever, the length
/// of the cycle of states (`period` × the order of `σ`, exact when `period`
/// is the shortest); see the module docs.
fn with_period<C: Label>(
    decks: [&[C]; 2],
    need: impl Fn(C) -> usize + Copy,
    period: usize,
) -> Option<u64> {
    let cards: Vec<C> = decks[0].iter().chain(decks[1]).copied().collect();
    let split = decks[0].len();
    // The rhythm played once on the places, its winners those of the cards.
    let [mut one, mut two]: [VecDeque<usize>; 2] =
        [(0..split).collect(), (split..cards.len()).collect()];
    let mut meetings = Vec::with_capacity(period);
    for _ in 0..period {
        let (a, b) = (one.pop_front()?, two.pop_front()?);
        let keeps = [one.len(), two.len()];
        let winner = cards[a] > cards[b];
        if winner {
            one.extend([a, b]);
        } else {
            two.extend([b, a]);
        }
        meetings.push(Meeting { places: [a, b], keeps, one: winner });
    }
    if one.len() != split {
        return None;
    }
    let sigma: Vec<usize> = one.into_iter().chain(two).collect();
    let cycles = Cycles::of(&sigma);
    for meeting in &meetings {
        let ([a, b], [keep_a, keep_b]) = (meeting.places, meeting.keeps);
        let ((name_a, cycle_a, i), (name_b, cycle_b, j)) = (cycles.through(a), cycles.through(b));
        if name_a == name_b {
            // Both on one cycle: no rhythm (see the module docs).
            return None;
        }
        let classes = gcd(cycle_a.len() as u64, cycle_b.len() as u64) as usize;
        let shift = (i + classes - j % classes) % classes;
        let [cards_a, cards_b] = [cycle_a, cycle_b].map(|cycle| cycle.iter().map(|&p| cards[p]));
        let holds = class_ranges(cards_a, cards_b, (classes, shift)).iter().all(
            |&([low_a, high_a], [low_b, high_b])| {
                let beats = if meeting.one { low_a > high_b } else { low_b > high_a };
                beats && (need(low_a) > keep_a || need(low_b) > keep_b)
            },
        );
        if !holds {
            return None;
        }
    }
    cycles.order()?.checked_mul(period as u64)
}

/// The lowest and highest of some cards, if there are any.
type Extremes<C> = Option<[C; 2]>;

/// The lowest and highest card of each side of each class of meetings
/// between two cycles' cards: `(classes, shift)` puts `a`'s `x`th card in
/// class `(x − shift) mod classes` and `b`'s `y`th in class `y mod
/// classes`.
fn class_ranges<C: Label>(
    a: impl Iterator<Item = C>,
    b: impl Iterator<Item = C>,
    (classes, shift): (usize, usize),
) -> Vec<([C; 2], [C; 2])> {
    let mut ranges: Vec<(Extremes<C>, Extremes<C>)> = vec![(None, None); classes];
    let widen = |range: &mut Extremes<C>, card: C| {
        *range = Some(range.map_or([card, card], |[low, high]| [low.min(card), high.max(card)]));
    };
    for (x, card) in a.enumerate() {
        widen(&mut ranges[(x + classes - shift) % classes].0, card);
    }
    for (y, card) in b.enumerate() {
        widen(&mut ranges[y % classes].1, card);
    }
    // Every class holds cards of both cycles: their lengths are multiples
    // of the number of classes.
    ranges.into_iter().filter_map(|(a, b)| Some((a?, b?))).collect()
}

#[cfg(test)]
mod tests {
    use super::super::seesaw::tests::{literal, permutations};
    use super::*;
    use crate::rhythms;
    use std::collections::VecDeque;

    fn plain<C>(_: C) -> usize {
        usize::MAX
    }

    /// A round of plain Combat written out apart from the module's own
    /// [`round`](super::round), so that the tests do not check the look
    /// against the code it is built on: whether player 1 won, and whether
    /// both players held, after drawing, at least as many cards as `need`
    /// asks of the card they drew; `None` once a deck is empty.
    fn play_round<C: Ord + Copy>(
        decks: &mut [VecDeque<C>; 2],
        need: impl Fn(C) -> usize,
    ) -> Option<(bool, bool)> {
        if decks[0].is_empty() || decks[1].is_empty() {
            return None;
        }
        let drawn = [decks[0][0], decks[1][0]];
        let enough = (0..2).all(|p| need(drawn[p]) < decks[p].len());
        let winner = usize::from(drawn[1] > drawn[0]);
        for deck in decks.iter_mut() {
            deck.pop_front();
        }
        decks[winner].push_back(drawn[winner]);
        decks[winner].push_back(drawn[1 - winner]);
        Some((winner == 0, enough))
    }

    /// A state in a rhythm of period `2^(level + 1)`, the shared tests'
    /// [`rhythms::rhythmic`], as labels: cards from 1, the deck of `2a`
    /// units player 1's if `e_first`.
    fn rhythmic(
        units: (usize, usize),
        level: usize,
        e_first: bool,
        random: &mut impl FnMut(usize) -> usize,
    ) -> [Vec<u16>; 2] {
        let [e, o] = rhythms::rhythmic(level, units, 1, random)
            .map(|deck| deck.into_iter().map(|card| card as u16).collect());
        if e_first { [e, o] } else { [o, e] }
    }

    /// `count` of the cards `1..=of`, in a random order.
    fn shuffled<C: TryFrom<usize>>(
        count: usize,
        of: usize,
        random: &mut impl FnMut(usize) -> usize,
    ) -> Vec<C> {
        let mut cards: Vec<usize> = (1..=of).collect();
        for i in 0..count {
            let j = i + random(of - i);
            cards.swap(i, j);
        }
        cards.truncate(count);
        cards.into_iter().map(|card| C::try_from(card).ok().expect("a card that fits")).collect()
    }

    #[test]
    fn period_two_is_the_see_saw() {
        let mut random = rhythms::xorshift(0x2545_F491_4F6C_DD1D);
        let mut agreed = [0; 2];
        for round in 0..20_000 {
            let n = 3 + random(12);
            let mut cards: Vec<u8> = shuffled(n, 2 * n, &mut random);
            let mut split = random(n + 1);
            // Half of the odd ones in the see-saw's shape, so that many pass;
            // its ranks 1..=n stand for the cards in order.
            if round % 2 == 0 && n % 2 == 1 && n >= 5 {
                let a = 1 + random(n / 2 - 1);
                let deal = rhythmic((a, n / 2 - a), 0, random(2) == 0, &mut random);
                let mut sorted = cards.clone();
                sorted.sort_unstable();
                split = deal[0].len();
                cards = deal.concat().into_iter().map(|c| sorted[usize::from(c) - 1]).collect();
            }
            let decks = [&cards[..split], &cards[split..]];
            let scale = 1 + random(4);
            for need in [plain as fn(u8) -> usize, |card| usize::from(card)] {
                let need = |card: u8| need(card) / scale;
                let see_saw = seesaw::cycle_length(decks, need);
                assert_eq!(with_period(decks, need, 2), see_saw, "{decks:?}");
                agreed[usize::from(see_saw.is_some())] += 1;
            }
        }
        assert!(agreed[1] > 2_000, "only {} see-saws", agreed[1]);
    }

    /// Every state of up to seven cards `1..=n`: in plain Combat the look
    /// passes exactly on the states that lie on a cycle (the literal game
    /// repeats its first state), with that cycle's length; under
    /// Recursive rules (needs the cards themselves) it passes only on such
    /// states.
    #[test]
    fn every_small_state_is_judged_as_the_literal_game_judges_it() {
        let mut passed = 0;
        for n in 2..=7u8 {
            let mut cards: Vec<u8> = (1..=n).collect();
            permutations(&mut cards, 0, &mut |order| {
                for split in 0..=order.len() {
                    let decks = [&order[..split], &order[split..]];
                    let on_cycle = literal(decks, false).filter(|&(first, _)| first == 0);
                    let rhythm = cycle(decks, plain, u64::MAX);
                    assert_eq!(rhythm.map(|r| r.length), on_cycle.map(|c| c.1), "{decks:?}");
                    if let Some(rhythm) = rhythm {
                        passed += 1;
                        assert!(keeps(decks, plain, rhythm.period));
                    }
                    if let Some(rhythm) = cycle(decks, usize::from, u64::MAX) {
                        let cycle = literal(decks, true);
                        assert_eq!(cycle, Some((0, rhythm.length)), "{decks:?}, recursive");
                    }
                }
            });
        }
        assert!(passed > 500, "{passed}");
    }

    /// Random plain deals of 10 to 14 cards played literally: in every one
    /// that cycles, the look passes on the cycle's first state with its
    /// length, and `keeps` fails on the state before it, so bisection can
    /// find where the cycle starts; with needs, it passes if and only if no
    /// round of the cycle would start a sub-game. Even numbers of cards cycle in rhythms
    /// of period 4 and more (none of up to 8 cards cycles at all).
    #[test]
    fn random_deals_cycle_where_the_look_says() {
        let mut random = rhythms::xorshift(0xD1B5_4A32_D192_ED03);
        let (mut periods, mut needs) = ([0; SHORT_PERIODS + 1], [0; 2]);
        for _ in 0..6_000 {
            let n = 10 + random(5);
            let cards: Vec<u8> = shuffled(n, n, &mut random);
            let split = 1 + random(n - 1);
            let mut decks: [VecDeque<u8>; 2] =
                [&cards[..split], &cards[split..]].map(|deck| deck.iter().copied().collect());
            let mut states: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            let mut seen = std::collections::HashMap::new();
            while decks.iter().all(|deck| !deck.is_empty()) {
                let state = (Vec::from(decks[0].clone()), Vec::from(decks[1].clone()));
                if let Some(&first) = seen.get(&state) {
                    let length = (states.len() - first) as u64;
                    let decks = |at: usize| [states[at].0.as_slice(), states[at].1.as_slice()];
                    let rhythm = cycle(decks(first), plain, u64::MAX).expect("a rhythm");
                    assert_eq!(rhythm.length, length, "{:?}", decks(first));
                    if first > 0 {
                        assert!(!keeps(decks(first - 1), plain, rhythm.period));
                    }
                    periods[rhythm.period] += 1;
                    // Under needs of several scales, the look passes exactly
                    // when no round of the cycle starts a sub-game.
                    for scale in 1..=6 {
                        let need = |card: u8| usize::from(card) * scale / 4;
                        let sub_game = states[first..]
                            .iter()
                            .any(|(one, two)| need(one[0]) < one.len() && need(two[0]) < two.len());
                        let expected = (!sub_game).then_some(rhythm);
                        assert_eq!(
                            cycle(decks(first), need, u64::MAX),
                            expected,
                            "{:?}",
                            decks(first)
                        );
                        needs[usize::from(sub_game)] += 1;
                    }
                    break;
                }
                seen.insert(state.clone(), states.len());
                states.push(state);
                play_round(&mut decks, plain);
            }
        }
        assert!(periods[2] > 50 && periods[4] > 50, "{periods:?}");
        assert!(needs[0] > 100 && needs[1] > 100, "{needs:?}");
    }

    /// States built in rhythms of period 4 and 8 (see [`rhythmic`]) are
    /// recognised with that period, and those whose cycle is short enough
    /// to play literally lie on a cycle of the length found.
    #[test]
    fn see_saws_of_see_saws_are_recognised_with_their_period() {
        let mut random = rhythms::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut played = 0;
        for level in 0..=2 {
            for _ in 0..300 {
                let units = (1 + random(4), 1 + random(4));
                let decks = rhythmic(units, level, random(2) == 0, &mut random);
                let decks = decks.each_ref().map(Vec::as_slice);
                let rhythm = cycle(decks, |_| usize::MAX, u64::MAX);
                let rhythm = rhythm.unwrap_or_else(|| panic!("{decks:?}"));
                assert_eq!(rhythm.period, 2 << level, "{decks:?}");
                if rhythm.length <= 5_000 {
                    played += 1;
                    let small = decks.map(|deck| deck.iter().map(|&c| c as u8).collect::<Vec<_>>());
                    let small = small.each_ref().map(Vec::as_slice);
                    assert_eq!(literal(small, false), Some((0, rhythm.length)), "{decks:?}");
                }
            }
        }
        assert!(played > 300, "only {played} played literally");
    }

    /// The look is complete as well as sound under Recursive rules: on
    /// states in rhythms of period 2, 4 and 8, with needs of several
    /// scales, it passes exactly on those whose plain cycle starts no
    /// sub-game in any round (played once round it), with the same period
    /// and length.
    #[test]
    fn it_passes_exactly_the_rhythms_that_start_no_sub_game() {
        let mut random = rhythms::xorshift(0x5851_F42D_4C95_7F2D);
        let mut outcomes = [0; 2];
        for _ in 0..1_500 {
            let (level, units) = (random(3), (1 + random(3), 1 + random(3)));
            let decks = rhythmic(units, level, random(2) == 0, &mut random);
            let decks = decks.each_ref().map(Vec::as_slice);
            let plain = cycle(decks, |_| usize::MAX, u64::MAX).expect("a rhythm");
            if plain.length > 20_000 {
                continue;
            }
            let scale = 1 + random(8);
            let need = |card: u16| usize::from(card) * scale / 4;
            let mut playing = decks.map(|deck| deck.iter().copied().collect::<VecDeque<_>>());
            let mut sub_game = false;
            for _ in 0..plain.length {
                sub_game |= play_round(&mut playing, need).expect("no deck empties in a rhythm").1;
            }
            let expected = (!sub_game).then_some(plain);
            assert_eq!(cycle(decks, need, u64::MAX), expected, "{decks:?}, needs × {scale} / 4");
            outcomes[usize::from(sub_game)] += 1;
        }
        assert!(outcomes[0] > 200 && outcomes[1] > 200, "{outcomes:?}");
    }

    /// The winners of the next 1 to 128 rounds, read off the decks when both hold
    /// more cards than that, or played on a copy when one does not, are
    /// those of the rounds played one by one, sub-games and empty decks
    /// (which stop the look) included.
    #[test]
    fn winners_are_those_of_the_rounds_played() {
        let mut random = rhythms::xorshift(0x0123_4567_89AB_CDEF);
        let mut outcomes = [[0; 2]; 2];
        for deal in 0..1_200 {
            let long = deal % 2 == 0;
            let n = if long { 260 + random(200) } else { 2 + random(40) };
            let cards: Vec<u16> = shuffled(n, n, &mut random);
            let split = if long { 130 + random(n - 259) } else { 1 + random(n - 1) };
            let decks = [&cards[..split], &cards[split..]];
            // Needs as high as the cards, or lower, or out of reach, or
            // close to what the players keep, whose count then matters.
            let (scale, near) = (1 + random(9), split.min(n - split).saturating_sub(20));
            let need = |card: u16| match scale {
                8 => usize::MAX,
                9 => near + usize::from(card) % if long { 128 } else { 4 },
                _ => usize::from(card) / scale,
            };
            let mut playing = decks.map(|deck| deck.iter().copied().collect::<VecDeque<_>>());
            let (rounds, mut played) = (1 + random(2 * SHORT_PERIODS), Vec::new());
            for _ in 0..rounds {
                match play_round(&mut playing, need) {
                    None | Some((_, true)) => break,
                    Some((one, false)) => played.push(one),
                }
            }
            let read = winners(decks, need, rounds);
            let whole = played.len() == rounds;
            assert_eq!(read, whole.then_some(played), "{decks:?}, need {scale}");
            outcomes[usize::from(long)][usize::from(whole)] += 1;
        }
        assert!(outcomes.iter().flatten().all(|&count| count > 30), "{outcomes:?}");
    }

    /// Whether plain Combat from `decks` comes back to them after `length`
    /// rounds and not sooner, played literally: the cycle's length divides
    /// `length`, so it is `length` unless the decks are back after
    /// `length / q` rounds for some prime `q` dividing `length`.
    fn comes_back_first_after(decks: [&[u16]; 2], length: u64) -> bool {
        let (mut primes, mut rest, mut q) = (Vec::new(), length, 2);
        while q * q <= rest {
            if rest.is_multiple_of(q) {
                primes.push(q);
                while rest.is_multiple_of(q) {
                    rest /= q;
                }
            }
            q += 1;
        }
        primes.extend((rest > 1).then_some(rest));
        let mut checks: Vec<u64> = primes.iter().map(|q| length / q).chain([length]).collect();
        checks.sort_unstable();
        let start = decks.map(|deck| deck.iter().copied().collect::<VecDeque<_>>());
        let mut playing = start.clone();
        let mut played = 0;
        for check in checks {
            while played < check {
                play_round(&mut playing, plain).expect("no deck empties in a rhythm");
                played += 1;
            }
            if (playing == start) != (check == length) {
                return false;
            }
        }
        true
    }

    /// Periods of up to 64 rounds are looked for in any game; longer ones
    /// up to one round a card, 2,048 at most, and only once the game has
    /// played 4,096 rounds for each round of the period.
    #[test]
    fn longer_periods_are_looked_for_as_a_game_goes_on() {
        assert_eq!(longest_period(22, u64::MAX), 64);
        assert_eq!(longest_period(640, 0), 64);
        assert_eq!(longest_period(640, 4096 * 100 - 1), 99);
        assert_eq!(longest_period(640, 4096 * 256), 256);
        assert_eq!(longest_period(640, u64::MAX), 640);
        assert_eq!(longest_period(100_000, 4096 * 3000), 2048);
        assert_eq!(longest_period(usize::MAX, u64::MAX), 2048);
    }

    /// Rhythms built for their winners by [`rhythms::built`], the shapes
    /// of [`rhythms::built_shapes`] (periods 12 to 256). Each is recognised
    /// with its period and the length of its cycle, played literally up to
    /// period 128 (15 million rounds); with needs, the look passes exactly
    /// when no round of the cycle starts a sub-game; and a rhythm longer
    /// than the longest period looked for is not taken for a shorter one.
    #[test]
    fn rhythms_up_to_the_longest_period_are_recognised() {
        let mut random = rhythms::xorshift(0x4F1B_BCDC_BFA5_3E0B);
        let mut outcomes = [0; 2];
        for (winners, lengths, length) in rhythms::built_shapes() {
            let period = winners.len();
            for order in 0..20 {
                let decks = rhythms::built(&winners, lengths, 1, &mut random).expect("a rhythm");
                let decks =
                    decks.map(|deck| deck.into_iter().map(|c| c as u16).collect::<Vec<_>>());
                let decks = decks.each_ref().map(Vec::as_slice);
                let rhythm = cycle(decks, plain, u64::MAX);
                assert_eq!(rhythm, Some(Rhythm { period, length }), "{decks:?}");
                assert!(keeps(decks, plain, period));
                // The cycle of period 256 is too long to play here.
                if order == 0 && length < 20_000_000 {
                    assert!(comes_back_first_after(decks, length), "{decks:?}");
                    assert!(!comes_back_first_after(decks, 2 * length), "{decks:?}");
                }
                if order == 0 && period > SHORT_PERIODS {
                    assert_eq!(cycle_within(decks, plain, period - 2), None, "{decks:?}");
                }
                if length > 200_000 {
                    continue;
                }
                // Needs raised by up to the number of cards, so that some
                // cycles start sub-games and some do not.
                let lift = random(lengths[0] + lengths[1]);
                let need = |card: u16| usize::from(card) + lift;
                let mut playing = decks.map(|deck| deck.iter().copied().collect::<VecDeque<_>>());
                let mut sub_game = false;
                for _ in 0..length {
                    sub_game |= play_round(&mut playing, need).expect("no deck empties").1;
                }
                let expected = (!sub_game).then_some(Rhythm { period, length });
                assert_eq!(cycle(decks, need, u64::MAX), expected, "{decks:?}, needs + {lift}");
                outcomes[usize::from(sub_game)] += 1;
            }
        }
        assert!(outcomes[0] > 5 && outcomes[1] > 5, "{outcomes:?}");
    }
}
