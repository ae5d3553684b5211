//! # Plain Combat in passes
//!
//! Plain Combat's rounds look sequential: each round's winner puts two
//! cards under its deck, and those cards come back to the top later. But
//! they come back only after every card that was above them. So when both
//! decks hold at least `k` cards, the next `k` rounds draw only cards that
//! are already in the decks: round `i` of such a **pass** compares card `i`
//! of each deck, whatever the rounds before it did. The rounds of a pass are
//! independent; the only thing they share is where each deck's next won
//! cards go.
//!
//! [`pass`] plays `k = min(len₁, len₂)` rounds this way. A deck is a
//! straight run of cards in a buffer ([`Line`]), drawn at `head` and won at
//! `tail`, and moved back to the front of its buffer when a pass could run
//! past the end (each move copies at most `n` cards and frees at least `n`
//! slots, so it costs under one card copy per round). The pass reads both
//! decks from their heads, writes the round's pair under *both* decks and
//! moves only the winner's tail (the loser's copy lands in its free slots
//! and is overwritten later), so the loop has no branch to mispredict. A
//! game is a sequence of passes.
//!
//! Branch-free matters more than it seems. Timing one deal over and over
//! flatters a loop that branches on each round's winner: the predictor
//! learns that one game's sequence of winners by heart. On 3,000 different
//! deals, as a user's inputs are, each of those branches is a coin flip: a
//! branching version of this loop took 2.4× as long as this one, and the
//! public solution 2.4× as long as crabdice (`examples/versus.rs`, `plain`).
//!
//! The pass's cards are read from two slices, one a deck, cut once per pass,
//! so the reads share one counter and need no bounds check. The cards won
//! are written at indices masked by the buffer's (power-of-two) size: the
//! room check above already keeps them in bounds, and the mask only lets the
//! compiler see that, so the writes have no bounds checks either (only for
//! the byte buffers on the stack: on the heap's the checks stay, about 3%
//! more time on 1,000 + 1,000 cards). Reading and writing one buffer at
//! once without `unsafe` takes a view of it as [`Cell`]s. Reading through
//! slices instead of masked indices saved three instructions of 22 a round,
//! and 5% of the time over 3,000 deals.
//!
//! ## Endless games
//!
//! A pass's length depends only on the state it starts from, so the states
//! at pass boundaries form a sequence in which each term determines the
//! next: it repeats exactly when the game does. Brent's algorithm watches
//! it with one saved state, compared at each boundary (almost always
//! rejected by player 1's deck length alone) and replaced at power-of-two
//! intervals. Each state it saves is also looked at for a see-saw (module
//! `seesaw`), whose cycle can take half a billion rounds on 2,001 cards:
//! Brent's algorithm would go round it once or twice first; and, once the
//! game has run 16 rounds a card, for any other rhythm of winners that
//! lasts forever (module `periodic`), such as the see-saws of see-saws of
//! games of an even number of cards. A rhythm gives the cycle's length,
//! and the general engine then finds the round where the cycle starts by
//! bisection with `periodic::keeps` (module `bulk`): the states from there
//! on keep the rhythm, and none before. It bisects from the state saved
//! before the one that passed, handed over with it, if that one does not
//! keep the rhythm yet (else from the deal up to it). A repeat that
//! Brent's algorithm sees only proves that the game never ends: the general
//! engine then replays the deal with anchors at the highest card, looking
//! at the states it saves the same way, for the start and the length.
//! Cycles are rare, so that costs nothing on the games that end, and the
//! looks come a few times in a game.

use std::cell::Cell;

use super::deal::{Label, Labelled};
use super::periodic::{self, Rhythm};
use super::seesaw;
use super::stacks::Brent;
use super::{Budget, Exhausted, Player};

/// How a plain game played in passes went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Passes {
    /// A deck ran out: the winner's index and the rounds played.
    Won { winner: usize, rounds: u64 },
    /// The game never ends: the state at a pass boundary came back, or it
    /// keeps a rhythm of winners (then known, with where it was seen).
    Endless(Option<InRhythm>),
}

/// A plain game's state after `at` rounds keeps `rhythm` forever (module
/// `periodic`; `rhythm.period` is its shortest period): so the game's
/// cycle starts at round `at` or before, and is `rhythm.length` long.
/// `before` is an earlier state of the game, after the rounds given, as
/// labels: the one the look saw last before (whether it keeps the rhythm
/// is not known: the look at it may have looked for shorter periods only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct InRhythm {
    pub at: u64,
    pub rhythm: Rhythm,
    pub before: Option<(u64, [Vec<u32>; 2])>,
}

/// A deck as the cards `buffer[head..tail]`, top first.
#[derive(Debug, Clone)]
struct Line<B> {
    buffer: B,
    head: usize,
    tail: usize,
}

impl<B> Line<B> {
    /// Deals `cards` into an empty deck. The buffer's [`size`] must be room
    /// for one and a half times the deal's `n` cards: after a move to the
    /// front, a deck of `len` cards needs `len + 2k` slots for a pass of `k`
    /// rounds, and `k` is at most `len` and at most the other deck's
    /// `n − len`, so `len + 2k ≤ min(3·len, 2n − len) ≤ 1.5n`.
    fn deal<C: Label>(&mut self, cards: impl Iterator<Item = C>)
    where
        B: AsMut<[C]>,
    {
        for (slot, card) in self.buffer.as_mut().iter_mut().zip(cards) {
            *slot = card;
            self.tail += 1;
        }
    }

    /// The cards, top first.
    fn cards<C: Label>(&self) -> &[C]
    where
        B: AsRef<[C]>,
    {
        &self.buffer.as_ref()[self.head..self.tail]
    }

    fn len(&self) -> usize {
        self.tail - self.head
    }

    /// Moves the cards to the front of the buffer unless `2k` more fit.
    fn make_room<C: Label>(&mut self, k: usize)
    where
        B: AsRef<[C]> + AsMut<[C]>,
    {
        if self.tail + 2 * k > size(self.buffer.as_ref()) {
            self.buffer.as_mut().copy_within(self.head..self.tail, 0);
            (self.head, self.tail) = (0, self.tail - self.head);
        }
    }
}

/// What to make of a plain game once it is over: its result and both final
/// decks, as labels.
pub(super) trait Finish {
    /// What the caller wants from the game.
    type Output;
    /// Makes it from how the game went and the final decks.
    fn finish<C: Label>(self, result: Passes, decks: [&[C]; 2]) -> Self::Output;
}

/// Plays the deal's plain game in passes, with the narrowest labels and
/// buffers that hold it, and hands the end to `finish`.
pub(super) fn solve<F: Finish>(
    labelled: &Labelled<'_>,
    budget: &mut Budget<'_>,
    finish: F,
) -> Result<F::Output, Exhausted> {
    // One and a half times the deal's cards is enough room (see
    // `Line::deal`); four times moves the decks back less often. Sizes are
    // powers of two, plus the one slot past the end (see `size`).
    let room = (4 * labelled.cards_in_deal() + 2).next_power_of_two() + 1;
    if u8::try_from(labelled.largest).is_ok() {
        // At most 255 cards, so 512 bytes each, on the stack; deals of up to
        // 170 cards take 256 (1.5 × 170 ≤ 256), quicker to clear. (128
        // would clear quicker still, but moving the decks back more often
        // cost more than it saved on puzzle-sized deals.)
        if labelled.cards_in_deal() <= 170 {
            run::<u8, _, _>(labelled, || [0; 256 + 1], budget, finish)
        } else {
            run::<u8, _, _>(labelled, || [0; 512 + 1], budget, finish)
        }
    } else if u16::try_from(labelled.largest).is_ok() {
        run::<u16, _, _>(labelled, || vec![0; room], budget, finish)
    } else {
        run::<u32, _, _>(labelled, || vec![0; room], budget, finish)
    }
}

/// Deals the cards as `C` labels into two buffers made by `buffer`, plays,
/// finishes. (The buffers are made where they stay: moving a byte array
/// into place cost more than a 39-round game's passes.)
fn run<C: Label, B: AsRef<[C]> + AsMut<[C]>, F: Finish>(
    labelled: &Labelled<'_>,
    buffer: impl Fn() -> B,
    budget: &mut Budget<'_>,
    finish: F,
) -> Result<F::Output, Exhausted> {
    let line = || Line { buffer: buffer(), head: 0, tail: 0 };
    let mut decks = [line(), line()];
    for (line, player) in decks.iter_mut().zip([Player::One, Player::Two]) {
        line.deal(labelled.deck(player).map(C::from_u32));
    }
    let result = play(&mut decks, budget)?;
    Ok(finish.finish(result, decks.each_ref().map(Line::cards)))
}

/// Boundaries before the first state is saved: short games end before
/// then and never copy a state (Brent's algorithm finds a cycle from
/// whichever boundary it starts saving at).
const FIRST_SAVE: u64 = 32;

/// Rounds a card before the states saved are looked at for rhythms longer
/// than a see-saw's: the look plays 128 rounds on a copy of the decks, and
/// at every first save it made 3,000 seeded 25 + 25 deals 56% slower
/// (714 → 1,118 ns a deal); most games end before this.
const RHYTHMS_AFTER: u64 = 16;

/// Plays plain Combat on `decks` to the end, in passes; see the module
/// documentation.
fn play<C: Label, B: AsRef<[C]> + AsMut<[C]>>(
    decks: &mut [Line<B>; 2],
    budget: &mut Budget<'_>,
) -> Result<Passes, Exhausted> {
    let mut brent = Brent::new(FIRST_SAVE);
    let mut rounds = 0;
    // Each state Brent's algorithm saves is also looked at for a see-saw
    // (module `seesaw`) and, once the game has run `RHYTHMS_AFTER` rounds a
    // card, for any other rhythm of winners that lasts forever (module
    // `periodic`): their cycles can take billions of rounds to come round.
    loop {
        let k = decks[0].len().min(decks[1].len());
        if k == 0 {
            let winner = usize::from(decks[0].len() == 0);
            return Ok(Passes::Won { winner, rounds });
        }
        let state = decks.each_ref().map(Line::cards);
        let mut rhythm = None;
        let look = |state: [&[C]; 2], rounds| {
            rhythm = endless(state, rounds);
            rhythm.is_some()
        };
        if brent.observe_saving(state, rounds, look).is_some() {
            // The state saved before is still there when the look passes.
            let before = brent.saved().map(|(at, decks)| {
                (at, decks.map(|deck| deck.iter().map(|card| card.index() as u32).collect()))
            });
            return Ok(Passes::Endless(rhythm.map(|rhythm| InRhythm {
                at: rounds,
                rhythm,
                before,
            })));
        }
        pass(decks, k);
        rounds += k as u64;
        budget.spend(k as u64)?;
    }
}

/// Whether a plain game's state after `rounds` rounds is proved to repeat
/// forever: a see-saw's, or from `RHYTHMS_AFTER` rounds a card on, in any
/// rhythm. (Out of line, and taking nothing else from the loop of passes:
/// inlined, or given one more value to keep, it cost plain games 1% more
/// instructions.)
#[inline(never)]
fn endless<C: Label>(state: [&[C]; 2], rounds: u64) -> Option<Rhythm> {
    // No card starts a sub-game: it would need more cards than anyone holds.
    let plain = |_| usize::MAX;
    // Late, the look for any rhythm, which tries the see-saw's first.
    if rounds >= RHYTHMS_AFTER * (state[0].len() + state[1].len()) as u64 {
        periodic::cycle(state, plain, rounds)
    } else {
        let length = seesaw::cycle_length(state, plain)?;
        Some(Rhythm { period: 2, length })
    }
}

/// The usable size of a deck's buffer: a power of two. One more slot
/// follows it, so that a round's pair can be written at `i` and `i + 1` for
/// any masked `i` without a bounds check.
#[inline]
fn size<C>(buffer: &[C]) -> usize {
    buffer.len() - 1
}

/// Plays `k` rounds, `k` at most the length of either deck.
#[inline]
fn pass<C: Label, B: AsRef<[C]> + AsMut<[C]>>(decks: &mut [Line<B>; 2], k: usize) {
    let [one, two] = decks;
    one.make_room(k);
    two.make_room(k);
    let (buffer_one, buffer_two) = (one.buffer.as_mut(), two.buffer.as_mut());
    // Masks that change no index (the room check keeps every index below the
    // size) but show the compiler that every write is in bounds.
    let (mask_one, mask_two) = (size(buffer_one) - 1, size(buffer_two) - 1);
    let (mut tail_one, mut tail_two) = (one.tail, two.tail);
    let (cells_one, cells_two) = (
        Cell::from_mut(buffer_one).as_slice_of_cells(),
        Cell::from_mut(buffer_two).as_slice_of_cells(),
    );
    let drawn_one = &cells_one[one.head..one.head + k];
    let drawn_two = &cells_two[two.head..two.head + k];
    // Cards drawn in this pass lie below the tails; cards won go above.
    for (a, b) in drawn_one.iter().zip(drawn_two) {
        let (a, b) = (a.get(), b.get());
        let one_wins = a > b;
        let (at_one, at_two) = (tail_one & mask_one, tail_two & mask_two);
        cells_one[at_one].set(a);
        cells_one[at_one + 1].set(b);
        cells_two[at_two].set(b);
        cells_two[at_two + 1].set(a);
        let (won_one, won_two) = (tail_one + 2, tail_two + 2);
        tail_one = std::hint::select_unpredictable(one_wins, won_one, tail_one);
        tail_two = std::hint::select_unpredictable(one_wins, tail_two, won_two);
    }
    (one.head, one.tail) = (one.head + k, tail_one);
    (two.head, two.tail) = (two.head + k, tail_two);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rhythms;

    /// A state in a see-saw of see-saws (period 4) or of those (period 8)
    /// is no see-saw, so `endless` passes it only from `RHYTHMS_AFTER`
    /// rounds a card on, and from then on it must.
    #[test]
    fn a_rhythm_longer_than_a_see_saws_is_endless_once_the_game_is_quiet() {
        let mut random = rhythms::xorshift(0x9E37_79B9_7F4A_7C15);
        for (level, units) in [(1, (2, 3)), (1, (4, 4)), (2, (3, 2))] {
            let decks = rhythms::rhythmic(level, units, 1, &mut random);
            let decks = decks.map(|deck| deck.into_iter().map(|c| c as u16).collect::<Vec<_>>());
            let state = [decks[0].as_slice(), decks[1].as_slice()];
            let quiet = RHYTHMS_AFTER * (state[0].len() + state[1].len()) as u64;
            assert_eq!(endless(state, 0), None, "{state:?}");
            let period = 2 << level;
            assert_eq!(endless(state, quiet).map(|r| r.period), Some(period), "{state:?}");
            assert_eq!(endless(state, quiet + 1_000), endless(state, quiet), "{state:?}");
        }
    }
}
