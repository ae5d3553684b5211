//! # Games too long to learn, swept along a line
//!
//! When the die's cycle of offsets is itself too long to walk through (a
//! die of 999,999,937 faces: a billion turns before a pawn's moves repeat),
//! neither periods nor blocks apply. But the game's only irregularity is
//! where the die wraps from its last face back to 1, and those wraps lie on
//! a straight line. This module follows the whole game along that line in
//! `O(log)` steps, as long as the board is small.
//!
//! ## The game as a word of two letters
//!
//! Count the die's offset in `rest = rolls mod faces` steps a turn
//! (whole cycles of the die add the same to every turn). Turn `t` rolls
//! from counter `rest·t`; it *wraps* when a multiple of `faces` falls among
//! its rolls `rest·t .. rest·t + rest − 1` (at most one does, as `rest <
//! faces`). So the game is a word: for each turn, a `U` for a wrap, then an
//! `R` for the turn, and the number of `U`s before the `t`-th `R` is
//! `y(t) − y(t − 1)` for the line `y(t) = ⌊(rest·t + rest − 1) / faces⌋`.
//!
//! Read one player's game modulo the board `B`: the state is whose turn it
//! is (counted from that player's), `a = rest·t − faces·wraps mod B`, and
//! the pawn's space. `R` moves the pawn by `constant + rest·a + T(rest)` on
//! the player's own turn, scores the space it lands on, and adds `rest` to
//! `a`; `U` takes `faces` from `a` and, on the player's own turn, takes
//! `faces × (a − faces)` from the pawn's move (the rolls past the wrap show
//! `faces` less, and there are `a − faces + rest` of them: see
//! [`Sweep::new`]). Each letter is a map on the `players × B²` states with
//! the points it scores from each; maps compose, and the game's first `N`
//! turns are the product of its word.
//!
//! ## Products along a line
//!
//! The product of such a word, for any line `⌊(p·x + r)/q⌋` and any length,
//! takes `O(log max(p, q, length))` products of maps (the *universal
//! Euclidean algorithm*, [`line()`]): while `p ≥ q` every `R` comes with at
//! least `⌊p/q⌋` `U`s before it, which fold into a new letter
//! `U^⌊p/q⌋·R`; once `p < q`, `U`s are rarer than `R`s, and the word read
//! between consecutive `U`s is the word of a line with `p` and `q`
//! swapped, which is solved the same way, like Euclid's algorithm.
//! Repeated letters are raised to powers by squaring.
//!
//! ## The end of the game
//!
//! Points only grow, so the first round after which some player has
//! reached the target is found by a search over the rounds (regula falsi,
//! at worst a bisection), each step one product of `O(log)` maps; the
//! first player in that round to have reached it is the winner, and the
//! products of that round and the one before give every player's score.
//! On 60 random games with 2 to 20 players the search took 0 to 11 steps
//! (3.4 on average), each a few hundred products of maps over all
//! `players × B²` states, whatever the die and the target, so [`swept`]
//! takes only games with few enough states ([`MAX_STATES`]).

use super::{Die, End, Pawn, add_mod, mul_mod, sub_mod, triangle_mod};

/// The most states (`players × board²`) a game may have for [`swept`]: a
/// board of 181 spaces for two players, 128 for four, the puzzle's 10 for
/// up to 655. At the limit a game takes 0.05 to 0.3 s (and 16,384 players
/// on a board of 2 spaces to 2⁶⁴ − 1 points, 1.5 s).
pub(super) const MAX_STATES: usize = 1 << 16;

/// The work of [`swept`] in simulated turns that would take as long, or
/// `None` if the game has more than [`MAX_STATES`] states: measured at
/// 200 to 550 turns a state (3 to 8 µs a state at 65,536 states, where a
/// turn takes 9 to 14 ns).
pub(super) fn work(pawns: &[Pawn<'_>]) -> Option<u64> {
    let states = states(pawns.first()?.die.board, pawns.len())?;
    Some(states as u64 * 400)
}

/// `players × board²`, if at most [`MAX_STATES`].
fn states(board: u64, players: usize) -> Option<usize> {
    let spaces = usize::try_from(board).ok()?;
    spaces.checked_mul(spaces)?.checked_mul(players).filter(|&states| states <= MAX_STATES)
}

/// The end of the game by sweeping its line of wraps, when it has at most
/// [`MAX_STATES`] states; `None` otherwise.
///
/// The search is over whole rounds (every player one turn): the game ends
/// in the first round after which somebody has reached the target, won by
/// the first player in turn order who has. The players before the winner
/// have played that round too; those after it have not.
pub(super) fn swept(pawns: &[Pawn<'_>], target: u64) -> Option<End> {
    let die = pawns.first()?.die;
    let sweep = Sweep::new(die, pawns.len())?;
    let target = u128::from(target);
    let players = pawns.len() as u128;
    let after = |rounds: u128| sweep.scores(rounds * players, pawns);
    let leader = |scores: &[u128]| scores.iter().copied().max().unwrap_or(0);
    // Every turn scores, so after `target` rounds everyone has.
    let (mut low, mut high) = (0_u128, target);
    let (mut before, mut scores) = (vec![0; pawns.len()], after(high));
    // Nobody reaches the target within `low` rounds, somebody within
    // `high`. Points grow almost in proportion to rounds, so the next round
    // to try is where the leader's points, drawn as a straight line
    // between the two ends, reach the target (regula falsi). When the same
    // end stays twice, the other's distance from the target counts half
    // (the Illinois rule), so the guesses close in from both sides; and a
    // step that fails to halve the interval is followed by one that halves
    // it, so at worst this is a bisection. Within 64 rounds the line
    // guesses no better than halving, as a turn scores up to the board.
    let (mut short, mut over) = (target, leader(&scores) - target);
    let (mut slow, mut kept) = (0, None);
    while high - low > 1 {
        let span = high - low;
        let mid = if slow >= 3 || span <= 64 {
            low + span / 2
        } else {
            low + share(span, short, short + over).clamp(1, span - 1)
        };
        let at = after(mid);
        let lead = leader(&at);
        let reached = lead >= target;
        if reached {
            (high, scores, over) = (mid, at, lead - target);
        } else {
            (low, before, short) = (mid, at, target - lead);
        }
        if kept == Some(reached) {
            // The other end stays: bring its weight down.
            if reached { short /= 2 } else { over /= 2 }
        }
        kept = Some(reached);
        slow = if high - low > span / 2 { slow + 1 } else { 0 };
    }
    let winner = scores.iter().position(|&score| score >= target)?;
    // Players after the winner have not played the last round.
    scores[winner + 1..].copy_from_slice(&before[winner + 1..]);
    Some(End { winner, winning_turn: high, scores: scores.into_iter().collect() })
}

/// The index of a state among `players × board²`: whose turn (counted
/// from the player's own), `a` and the pawn's space (both below `board`).
fn state(board: u64, turn: usize, a: u64, space: u64) -> usize {
    let spaces = board as usize;
    (turn * spaces + a as usize) * spaces + space as usize
}

/// About `span × part / whole` (for `part ≤ whole`, `whole > 0`): the
/// low bits of `part` and `whole` are dropped until the product fits in
/// 128 bits. Only a guess for the search.
fn share(span: u128, part: u128, whole: u128) -> u128 {
    let bits = |n: u128| 128 - n.leading_zeros();
    let drop = (bits(span) + bits(part)).saturating_sub(128);
    (span * (part >> drop)) / (whole >> drop).max(1)
}

/// One player's game, modulo the board, as the letters of its word.
struct Sweep {
    /// A wrap of the die.
    up: Map,
    /// A turn.
    right: Map,
    /// The die's offset moves by this many steps a turn (modulo its faces).
    rest: u64,
    faces: u64,
    board: u64,
    players: usize,
}

impl Sweep {
    /// The letters for `players` players under `die`'s rules, or `None` if
    /// they have more than [`MAX_STATES`] states.
    ///
    /// A turn that starts at offset `o` sums `constant + rest·o + T(rest)`
    /// if it does not wrap. If it wraps, its rolls from the wrap on show
    /// `faces` less: there are `o + rest − faces` of them, so it sums that
    /// much less `faces` times. Before the turn's `R`, its `U` has left `a ≡
    /// o − faces` (modulo the board), so `R` adds `rest·o − rest·faces`,
    /// and `U` makes up the difference, `rest·faces − faces·(o + rest −
    /// faces) = −faces·(o − faces)`, from the `a ≡ o` it finds. A turn that
    /// starts on the wrap itself (`o = 0`, the `U` finding `a ≡ faces`)
    /// gets nothing from `U`, as it should.
    fn new(die: &Die, players: usize) -> Option<Self> {
        let board = die.board;
        let states = states(board, players)?;
        let index = |turn, a, space| state(board, turn, a, space);
        let (rest, faces) = (die.rest, die.faces);
        let (step, wrap) = (rest % board, faces % board);
        let fixed = add_mod(die.constant, triangle_mod(rest, board), board);
        let mut up = Map::identity(states);
        let mut right = Map::identity(states);
        for turn in 0..players {
            for a in 0..board {
                for space in 0..board {
                    let from = index(turn, a, space);
                    // A wrap on the player's own turn.
                    let lost =
                        if turn == 0 { mul_mod(wrap, sub_mod(a, wrap, board), board) } else { 0 };
                    let wrapped = index(turn, sub_mod(a, wrap, board), sub_mod(space, lost, board));
                    up.steps[from] = Step::to(wrapped, 0);
                    let (landed, points) = if turn == 0 {
                        let moved = add_mod(fixed, mul_mod(step, a, board), board);
                        let landed = add_mod(space, moved, board);
                        (landed, landed + 1)
                    } else {
                        (space, 0)
                    };
                    let played = index((turn + 1) % players, add_mod(a, step, board), landed);
                    right.steps[from] = Step::to(played, points);
                }
            }
        }
        Some(Self { up, right, rest, faces, board, players })
    }

    /// Every pawn's points after the game's first `turns` turns.
    fn scores(&self, turns: u128, pawns: &[Pawn<'_>]) -> Vec<u128> {
        let word = self.word(turns);
        pawns
            .iter()
            .enumerate()
            .map(|(i, pawn)| {
                // Player `i` moves after `i` turns: its turn is `players − i` away.
                let turn = (self.players - i) % self.players;
                word.steps[state(self.board, turn, 0, pawn.position)].points()
            })
            .collect()
    }

    /// The map of the game's first `turns` turns.
    fn word(&self, turns: u128) -> Map {
        if turns == 0 {
            return self.up.empty();
        }
        if self.rest == 0 {
            // The offset never moves: the die never wraps mid-turn.
            return self.right.power(turns);
        }
        // Turn 0 cannot wrap; turns 1.. follow the line ⌊(rest·t + rest − 1)/faces⌋.
        let line = line(
            u128::from(self.rest),
            u128::from(self.faces),
            u128::from(self.rest - 1),
            turns - 1,
            &self.up,
            &self.right,
        );
        let mut word = self.right.clone();
        word.then(&line);
        word
    }
}

/// What a word of turns and wraps does from each state: the state it
/// leads to, and the points the player scores on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Map {
    steps: Vec<Step>,
}

/// Where a word leads from one state, and the points scored on the way:
/// 16 bytes, so that a product reads one cache line a state. Points stay
/// below 2⁹⁶: a player plays at most 2⁶⁴ turns of any word multiplied
/// (the search looks no further than `target` rounds) and scores at most
/// the board, 2⁸ (there are at most 2¹⁶ states), a turn: below 2⁷².
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    low: u64,
    high: u32,
    next: u32,
}

impl Step {
    /// To state `next` (below [`MAX_STATES`]) with `points` (below the board).
    const fn to(next: usize, points: u64) -> Self {
        Self { low: points, high: 0, next: next as u32 }
    }

    fn points(self) -> u128 {
        (u128::from(self.high) << 64) | u128::from(self.low)
    }

    /// This step followed by the step of `map` from where it leads.
    #[inline]
    fn then(self, map: &Map) -> Self {
        let second = map.steps[self.next as usize];
        let (low, carry) = self.low.overflowing_add(second.low);
        Self { low, high: self.high + second.high + u32::from(carry), next: second.next }
    }
}

impl Map {
    /// The empty word on `states` states.
    fn identity(states: usize) -> Self {
        Self { steps: (0..states).map(|state| Step::to(state, 0)).collect() }
    }
}

/// Words that can be multiplied: `a.then(b)` is `a` followed by `b`.
/// Products are made in place, so that a line's products reuse their
/// memory (a map of 65,536 states takes a megabyte, and allocating one
/// for each product cost a third of the time in page faults).
trait Word: Clone {
    /// Appends `other` to this word.
    fn then(&mut self, other: &Self);

    /// The empty word, of the same shape as this one.
    fn empty(&self) -> Self;

    /// `self` followed by `other`, written into `product` (whose memory is
    /// reused).
    fn product(&self, other: &Self, product: &mut Self);

    /// This word `times` times over, by squaring.
    fn power(&self, mut times: u128) -> Self {
        let mut result: Option<Self> = None;
        let mut base = self.clone();
        let mut spare = None;
        while times > 0 {
            if times & 1 == 1 {
                match &mut result {
                    Some(result) => result.then(&base),
                    None => result = Some(base.clone()),
                }
            }
            times >>= 1;
            if times > 0 {
                let square = spare.get_or_insert_with(|| self.empty());
                base.product(&base, square);
                std::mem::swap(&mut base, square);
            }
        }
        result.unwrap_or_else(|| self.empty())
    }

    /// `first` followed by `self`, in place of `self`.
    fn after(&mut self, mut first: Self) {
        first.then(self);
        *self = first;
    }
}

impl Word for Map {
    fn product(&self, other: &Self, product: &mut Self) {
        product.steps.clear();
        product.steps.extend(self.steps.iter().map(|&first| first.then(other)));
    }

    fn then(&mut self, other: &Self) {
        // Each state's step reads only itself and `other`: in place.
        for first in &mut self.steps {
            *first = first.then(other);
        }
    }

    fn empty(&self) -> Self {
        Self::identity(self.steps.len())
    }
}

/// The product over `x = 1..=length` of `up^(y(x) − y(x − 1))` then
/// `right`, for the line `y(x) = ⌊(p·x + r)/q⌋` with `0 ≤ r < q`: the
/// universal Euclidean algorithm, in `O(log max(p, q, length))` products.
///
/// Each round either folds the `⌊p/q⌋` `up`s that come before every `right`
/// into `right` (leaving `p < q`), or, with `p < q`, reads the word between
/// consecutive `up`s: `m` of them in all, the first after
/// `⌊(q − r − 1)/p⌋` `right`s and the last followed by the `cnt` `right`s
/// after it, and in between the word of the line `⌊(q·x + r')/p⌋` over
/// `m − 1` steps with the letters swapped, which the next round reads. The
/// prefix and suffix found so far are kept, so memory stays constant.
fn line<W: Word>(p: u128, q: u128, r: u128, length: u128, up: &W, right: &W) -> W {
    debug_assert!(r < q);
    assert!(p <= u128::from(u64::MAX) && q <= u128::from(u64::MAX), "line slopes are 64-bit");
    // Products `p × length` must fit in 128 bits. A longer line repeats
    // every `q` steps (`y(x + q) = y(x) + p`): whole repeats are a power.
    if length > u128::from(u64::MAX) {
        let mut word = line(p, q, r, q, up, right).power(length / q);
        word.then(&line(p, q, r, length % q, up, right));
        return word;
    }
    let (mut p, mut q, mut r, mut length) = (p, q, r, length);
    let (mut up, mut right) = (up.clone(), right.clone());
    let mut prefix = up.empty();
    let mut suffix = up.empty();
    while length > 0 {
        if p >= q {
            right.after(up.power(p / q));
            p %= q;
        }
        let m = (length * p + r) / q;
        if m == 0 {
            prefix.then(&right.power(length));
            break;
        }
        let count = length - (q * m - r - 1) / p;
        prefix.then(&right.power((q - r - 1) / p));
        prefix.then(&up);
        suffix.after(right.power(count));
        (p, q, r, length) = (q, p, (q - r - 1) % p, m - 1);
        std::mem::swap(&mut up, &mut right);
    }
    prefix.then(&suffix);
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words as strings: the free monoid.
    impl Word for String {
        fn then(&mut self, other: &Self) {
            self.push_str(other);
        }

        fn product(&self, other: &Self, product: &mut Self) {
            *product = format!("{self}{other}");
        }

        fn empty(&self) -> Self {
            String::new()
        }
    }

    /// The word of a line, written out letter by letter.
    fn spelled(p: u128, q: u128, r: u128, length: u128) -> String {
        let y = |x: u128| (p * x + r) / q;
        let mut word = String::new();
        for x in 1..=length {
            for _ in y(x - 1)..y(x) {
                word.push('U');
            }
            word.push('R');
        }
        word
    }

    /// A word summed up: its `U`s, its `R`s, and over its `R`s the `U`s
    /// before each, which for a whole line is `Σ y(x)`, a floor sum.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Tally {
        ups: u128,
        rights: u128,
        below: u128,
    }

    impl Word for Tally {
        fn then(&mut self, other: &Self) {
            self.below += other.below + self.ups * other.rights;
            self.ups += other.ups;
            self.rights += other.rights;
        }

        fn product(&self, other: &Self, product: &mut Self) {
            *product = self.clone();
            product.then(other);
        }

        fn empty(&self) -> Self {
            Tally { ups: 0, rights: 0, below: 0 }
        }
    }

    /// Lines longer than 2⁶⁴ steps (whole repeats of `q` steps raised to a
    /// power) against the floor sum of the blocks, which counts the same
    /// lattice points another way (slopes small enough for the sums to fit
    /// in 128 bits).
    #[test]
    fn lines_past_2_to_the_64_steps_match_floor_sums() {
        let up = Tally { ups: 1, rights: 0, below: 0 };
        let right = Tally { ups: 0, rights: 1, below: 0 };
        for (p, q, r, length) in [
            (3, (1 << 20) + 7, 5, 1 << 70),
            (1, 1 << 24, 0, (1 << 66) + 12_345),
            (999_999, (1 << 40) + 15, 1_000_002, (1 << 64) + 1),
            (7, (1 << 30) + 11, 3, u128::from(u64::MAX) * 3 + 2),
            (0, 5, 4, 1 << 90),
        ] {
            let tally = line(p, q, r, length, &up, &right);
            assert_eq!(tally.rights, length);
            assert_eq!(tally.ups, (p * length + r) / q, "{p} {q} {r} {length}");
            // Σ_{x=1..length} ⌊(p·x + r)/q⌋ = Σ_{i<length} ⌊(p·i + p + r)/q⌋.
            assert_eq!(
                tally.below,
                super::super::blocks::floor_sum(length, q, p, p + r),
                "{p} {q} {r} {length}"
            );
        }
    }

    #[test]
    fn lines_spell_the_same_word_as_letter_by_letter() {
        let (up, right) = ("U".to_string(), "R".to_string());
        for q in 1..=13 {
            for p in 0..=30 {
                for r in 0..q {
                    for length in 0..=25 {
                        assert_eq!(
                            line(p, q, r, length, &up, &right),
                            spelled(p, q, r, length),
                            "{p} {q} {r} {length}"
                        );
                    }
                }
            }
        }
    }
}
