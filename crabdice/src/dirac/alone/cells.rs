//! # Big-integer cells: a player past 1024 bits
//!
//! A player the words cannot hold (a turn of more than 2¹²⁸ universes, or
//! counts past 1024 bits) is counted from its first turn in a flat table of
//! (space, score) cells, each pushed through the turn's moves folded onto
//! the board (worked out once a game: [`BigMoves`]). Each cell holding
//! universes adds its count times each move's universes into the cell it
//! lands on, or into `W[t]` from the target on, within the turn's bound
//! `N[t − 1] × faces^rolls`.
//!
//! * When every move's universes fit a machine word, the cells are limbs
//!   (`Vec<u64>`), and a product is added in place in one pass
//!   ([`mul_add`]), with no allocation once a cell has grown.
//! * Otherwise they are [`BigUint`]s.
//!
//! The same loop over any [`Count`] is the reference the other engines
//! are tested against (`by_cells`).

use num_bigint::BigUint;

use crate::count::Count;
use crate::dirac::DiceRules;
use crate::dirac::quantum::moves;
use crate::error::CountOverflow;

use super::word::from_limbs;
use super::{Alone, Turn};

/// A turn's moves for the big-integer cells, worked out once a game (with
/// a die of 2⁶⁴ − 1 faces, that takes seconds): the steps modulo the
/// board with their universes, also in machine words when every move's
/// fit one, and the universes of a turn.
pub(crate) struct BigMoves {
    words: Option<Vec<(usize, u64)>>,
    big: Vec<(usize, BigUint)>,
    per_turn: BigUint,
}

impl BigMoves {
    pub(crate) fn new(rules: &DiceRules) -> Result<Self, CountOverflow> {
        let (moves, per_turn) = moves::<BigUint>(rules)?;
        let big: Vec<(usize, BigUint)> = moves
            .into_iter()
            .filter(|(_, n)| !n.is_zero())
            .map(|(steps, n)| (steps as usize, n))
            .collect();
        let words = big.iter().map(|(steps, n)| Some((*steps, u64::try_from(n).ok()?))).collect();
        Ok(Self { words, big, per_turn })
    }

    /// Counts the players on `starts` in big-integer cells: in limbs
    /// ([`Cells::play_in_limbs`]) when the moves' universes fit in words,
    /// else in [`BigUint`] cells ([`Cells::play`]).
    pub(crate) fn count(
        &self,
        starts: &[u64],
        rules: &DiceRules,
    ) -> Result<Vec<Alone<BigUint>>, CountOverflow> {
        let Self { words, big, per_turn } = self;
        if let Some(words) = words {
            let mut tables = Cells::new(rules, Vec::new());
            Ok(starts
                .iter()
                .map(|&start| tables.play_in_limbs(start as usize - 1, words, per_turn))
                .collect())
        } else {
            let mut tables = Cells::new(rules, BigUint::zero());
            starts.iter().map(|&start| tables.play(start as usize - 1, big, per_turn)).collect()
        }
    }
}

/// The same counts cell by cell, in any [`Count`]: a flat table of (space,
/// score) cells a turn, each pushed through the turn's folded moves. Slower
/// than words, but any size: the reference the other engines are tested
/// against (the engine itself counts in [`BigUint`] cells through
/// [`BigMoves`]).
#[cfg(test)]
pub(crate) fn by_cells<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
) -> Result<Vec<Alone<C>>, CountOverflow> {
    let (moves, per_turn) = moves::<C>(rules)?;
    let moves: Vec<(usize, C)> = moves.into_iter().map(|(s, n)| (s as usize, n)).collect();
    let mut tables = Cells::new(rules, C::zero());
    starts.iter().map(|&start| tables.play(start as usize - 1, &moves, &per_turn)).collect()
}

/// A player's two flat tables of (space, score) cells, reused from one
/// player to the next: counts in any [`Count`], or in limbs (`Vec<u64>`,
/// where each cell keeps the capacity it grew to).
struct Cells<T> {
    board: usize,
    target: usize,
    now: Vec<T>,
    next: Vec<T>,
}

/// A cell of [`Cells`]: a count into which a move adds its product.
trait Cell {
    /// A move's universes.
    type Factor;
    fn is_empty(&self) -> bool;
    /// `self += count × factor`, within the turn's bound.
    fn add_product(&mut self, count: &Self, factor: &Self::Factor);
    fn clear(&mut self);
}

impl<C: Count> Cell for C {
    type Factor = C;
    fn is_empty(&self) -> bool {
        self.is_zero()
    }
    fn add_product(&mut self, count: &Self, factor: &C) {
        self.add_product_within(count, factor);
    }
    fn clear(&mut self) {
        *self = C::zero();
    }
}

/// Limbs, least significant first: empty for no universe.
impl Cell for Vec<u64> {
    type Factor = u64;
    fn is_empty(&self) -> bool {
        <[u64]>::is_empty(self)
    }
    fn add_product(&mut self, count: &Self, factor: &u64) {
        mul_add(self, count, *factor);
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

impl<T: Clone> Cells<T> {
    /// Two tables of `board × target` cells under `rules`, every cell
    /// `empty`.
    fn new(rules: &DiceRules, empty: T) -> Self {
        // The rules' size check bounds board × target by the table limit,
        // so both fit in usize.
        let board = usize::try_from(rules.board).unwrap_or(usize::MAX);
        let target = usize::try_from(rules.target).unwrap_or(usize::MAX);
        let now = vec![empty; board * target];
        Self { board, target, next: now.clone(), now }
    }
}

impl<T: Cell> Cells<T> {
    /// One turn over the scores `low..high` of `now`: each cell holding
    /// universes adds its count times each move's into the cell it lands
    /// on, or into `reached` from the target on. Leaves those rows of
    /// `now` cleared and the turn's table in `now`; returns the scores that
    /// may hold universes now.
    fn turn(
        &mut self,
        (low, high): (usize, usize),
        moves: &[(usize, T::Factor)],
        reached: &mut T,
    ) -> (usize, usize) {
        let (board, target) = (self.board, self.target);
        let (mut next_low, mut next_high) = (target, 0);
        for score in low..high {
            let row = &self.now[score * board..(score + 1) * board];
            for (space, count) in row.iter().enumerate() {
                if count.is_empty() {
                    continue;
                }
                for (steps, universes) in moves {
                    let mut landing = space + steps;
                    if landing >= board {
                        landing -= board;
                    }
                    let new_score = score + landing + 1;
                    if new_score >= target {
                        reached.add_product(count, universes);
                    } else {
                        self.next[new_score * board + landing].add_product(count, universes);
                        next_low = next_low.min(new_score);
                        next_high = next_high.max(new_score + 1);
                    }
                }
            }
        }
        for cell in &mut self.now[low * board..high * board] {
            cell.clear();
        }
        std::mem::swap(&mut self.now, &mut self.next);
        (next_low, next_high.max(next_low))
    }
}

impl<C: Count> Cells<C> {
    /// Plays a pawn from `space` (0-based) until every universe has reached
    /// the target. Leaves both tables zeroed.
    fn play(
        &mut self,
        space: usize,
        moves: &[(usize, C)],
        per_turn: &C,
    ) -> Result<Alone<C>, CountOverflow> {
        let mut alive = C::from_u64(1);
        self.now[space] = alive.clone();
        // Rows (scores) of `now` that may hold universes.
        let mut band = (0, 1);
        let mut alone = Vec::new();
        while !alive.is_zero() {
            // Every addition below is a share of this bound, so none overflows.
            let bound = alive.checked_mul(per_turn).ok_or_else(CountOverflow::of::<C>)?;
            let mut reached = C::zero();
            band = self.turn(band, moves, &mut reached);
            alive = bound.checked_sub(&reached).ok_or_else(CountOverflow::of::<C>)?;
            alone.push(Turn { reached, playing: alive.clone() });
        }
        Ok(alone)
    }
}

impl Cells<Vec<u64>> {
    /// Plays a pawn from `space` (0-based) in limbs, moves of at most a
    /// word each, until every universe has reached the target, as
    /// [`Cells::play`] does in big integers. Leaves both tables empty.
    fn play_in_limbs(
        &mut self,
        space: usize,
        moves: &[(usize, u64)],
        per_turn: &BigUint,
    ) -> Alone<BigUint> {
        let mut alive = BigUint::from(1_u8);
        self.now[space].push(1);
        let mut band = (0, 1);
        let mut alone = Vec::new();
        let mut reached = Vec::new();
        while !alive.is_zero() {
            band = self.turn(band, moves, &mut reached);
            let turn = from_limbs(&reached);
            reached.clear();
            // The universes that reach the target are some of those the
            // turn split into.
            alive = alive * per_turn - &turn;
            alone.push(Turn { reached: turn, playing: alive.clone() });
        }
        alone
    }
}

/// `to += from × factor`, in limbs, least significant first, with `factor`
/// above zero. Trimmed (no zero limb on top) if both were: `to` grows only
/// as far as the sum needs.
fn mul_add(to: &mut Vec<u64>, from: &[u64], factor: u64) {
    if to.len() < from.len() {
        to.resize(from.len(), 0);
    }
    let (low, high) = to.split_at_mut(from.len());
    let mut carry = 0_u64;
    for (to, &from) in low.iter_mut().zip(from) {
        // At most (2⁶⁴ − 1)² + 2 × (2⁶⁴ − 1) = 2¹²⁸ − 1: no overflow.
        let sum = u128::from(from) * u128::from(factor) + u128::from(*to) + u128::from(carry);
        *to = sum as u64;
        carry = (sum >> 64) as u64;
    }
    for to in high {
        if carry == 0 {
            return;
        }
        let overflowed;
        (*to, overflowed) = to.overflowing_add(carry);
        carry = u64::from(overflowed);
    }
    if carry > 0 {
        to.push(carry);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::{cells, rules};
    use super::*;

    #[test]
    fn limbs_add_products_with_every_carry() {
        let big = |limbs: &[u64]| from_limbs(limbs);
        for (to, from, factor) in [
            (vec![], vec![u64::MAX, u64::MAX], u64::MAX),
            (vec![u64::MAX, u64::MAX, u64::MAX], vec![1], 1),
            (vec![u64::MAX, u64::MAX, u64::MAX], vec![u64::MAX], u64::MAX),
            (vec![5], vec![0, 0, 7], 3),
            (vec![1, 2, 3, 4], vec![u64::MAX], 2),
        ] {
            let mut sum = to.clone();
            mul_add(&mut sum, &from, factor);
            assert_eq!(big(&sum), big(&to) + big(&from) * factor, "{to:?} + {from:?} × {factor}");
            assert_ne!(sum.last(), Some(&0), "{sum:?} is not trimmed");
        }
    }

    /// The limb cells count as the big-integer cells do, past many limbs
    /// (target 300: counts of about 1500 bits), and leave to them the dice
    /// whose moves outgrow a word.
    #[test]
    fn limb_cells_agree_with_big_integer_cells() {
        for rules in [
            DiceRules { target: 300, ..DiceRules::dirac() },
            DiceRules { board: 7, target: 120, faces: 6, rolls: 6 },
            DiceRules { board: 1, target: 9, faces: 5, rolls: 2 },
            DiceRules { board: 3, target: 40, faces: 1 << 40, rolls: 1 },
        ] {
            let starts = [1, rules.board];
            let moves = BigMoves::new(&rules).unwrap();
            assert!(moves.words.is_some(), "{rules}");
            assert_eq!(moves.count(&starts, &rules).unwrap(), cells(&starts, &rules), "{rules}");
        }
        // A move's universes past 2^64: about 2^80 / 3 each.
        let wide = DiceRules { board: 3, target: 40, faces: 1 << 40, rolls: 2 };
        let moves = BigMoves::new(&wide).unwrap();
        assert!(moves.words.is_none());
        assert_eq!(moves.count(&[1, 2], &wide).unwrap(), cells(&[1, 2], &wide));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn limbs_agree_with_big_integer_cells((rules, starts) in rules()) {
            let moves = BigMoves::new(&rules).unwrap();
            prop_assert!(moves.words.is_some());
            prop_assert_eq!(moves.count(&starts, &rules).unwrap(), cells(&starts, &rules));
        }
    }
}
