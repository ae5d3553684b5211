//! # Tally: outcomes weighted by how many universes produce them
//!
//! A [`Tally`] maps each outcome (a whole number) to the number of universes
//! in which it happens: a [probability
//! distribution](https://en.wikipedia.org/wiki/Probability_distribution)
//! that keeps exact counts instead of fractions. A three-faced Dirac die is
//! the tally `{1: 1, 2: 1, 3: 1}`.
//!
//! ## Combining two tallies is a convolution
//!
//! Two independent rolls give every pair of outcomes, and the universes
//! multiply: outcome `a + b` receives `count(a) × count(b)` from each pair
//! that sums to it. That is a discrete
//! [convolution](https://en.wikipedia.org/wiki/Convolution#Discrete_convolution).
//! Three rolls of the three-faced die make 3³ = 27 universes, but only seven
//! different sums, so a turn branches 7 ways instead of 27:
//!
//! | sum | rolls giving it | universes |
//! |---:|---|---:|
//! | 3 | 111 | 1 |
//! | 4 | 112 121 211 | 3 |
//! | 5 | 113 131 311 122 212 221 | 6 |
//! | 6 | 123 132 213 231 312 321 222 | 7 |
//! | 7 | 133 313 331 223 232 322 | 6 |
//! | 8 | 233 323 332 | 3 |
//! | 9 | 333 | 1 |
//!
//! Note that "roll three times" is not "roll once and triple": `3 × die` has
//! the outcomes 3, 6, 9 once each, while `die + die + die` is the table above.
//!
//! ## Folding outcomes onto the board
//!
//! A pawn only cares about its move modulo the board's size, so the engines
//! keep outcomes modulo `board` ([`Tally::sum_of_modulo`]). That bounds a
//! tally's size by the board, whatever the number of faces or rolls. A die
//! with more faces than the board is folded in closed form
//! ([`Tally::die_modulo`]): on a board of 10, a 100-faced die lands 10 faces on
//! each residue.
//!
//! ## Many rolls by repeated squaring
//!
//! `R` rolls are the `R`-fold convolution of the die with itself. Convolution
//! is associative, so [exponentiation by
//! squaring](https://en.wikipedia.org/wiki/Exponentiation_by_squaring) needs
//! about 2·log₂ R convolutions instead of R − 1.

use std::collections::BTreeMap;

use crate::count::Count;
use crate::error::CountOverflow;

/// Outcomes, each with the number of universes that produce it.
///
/// # Examples
///
/// The roll-sum table of the puzzle's Dirac die (three faces, three rolls),
/// computed rather than written down:
///
/// ```
/// use crabdice::Tally;
///
/// let turn = Tally::<u64>::die(3).sum_of(3)?;
/// let table: Vec<(u64, u64)> = turn.iter().map(|(sum, &n)| (sum, n)).collect();
/// assert_eq!(table, [(3, 1), (4, 3), (5, 6), (6, 7), (7, 6), (8, 3), (9, 1)]);
/// assert_eq!(turn.total()?, 27);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally<C = u64> {
    counts: BTreeMap<u64, C>,
}

impl<C: Count> Tally<C> {
    /// One universe with the given outcome.
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::Tally;
    ///
    /// let start = Tally::<u64>::single(0);
    /// assert_eq!(start.iter().collect::<Vec<_>>(), [(0, &1)]);
    /// ```
    pub fn single(outcome: u64) -> Self {
        Self { counts: BTreeMap::from([(outcome, C::from_u64(1))]) }
    }

    /// A die with faces `1..=faces`, one universe each. Empty for zero faces.
    /// Takes time and memory proportional to `faces`; [`Tally::die_modulo`]
    /// folds a large die in time proportional to the modulus.
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::Tally;
    ///
    /// assert_eq!(Tally::<u64>::die(3).iter().collect::<Vec<_>>(), [(1, &1), (2, &1), (3, &1)]);
    /// ```
    pub fn die(faces: u64) -> Self {
        Self { counts: (1..=faces).map(|face| (face, C::from_u64(1))).collect() }
    }

    /// The faces `1..=faces` of a die, folded modulo `modulus`: outcome `r`
    /// counts the faces `f` with `f % modulus == r`. Takes time proportional
    /// to `min(faces, modulus)`, not to `faces`. Empty when either is zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::Tally;
    ///
    /// // Faces 1..=7 on a board of 3: {3, 6} → 0, {1, 4, 7} → 1, {2, 5} → 2.
    /// let folded = Tally::<u64>::die_modulo(7, 3);
    /// assert_eq!(folded.iter().collect::<Vec<_>>(), [(0, &2), (1, &3), (2, &2)]);
    /// assert_eq!(folded, Tally::die(7).modulo(3)?);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn die_modulo(faces: u64, modulus: u64) -> Self {
        if modulus == 0 {
            return Self { counts: BTreeMap::new() };
        }
        let (full, rest) = (faces / modulus, faces % modulus);
        let residues = faces.min(modulus - 1);
        let mut counts: BTreeMap<u64, C> = (1..=residues)
            .map(|r| (r, C::from_u64(full + u64::from(r <= rest))))
            .filter(|(_, n)| !n.is_zero())
            .collect();
        if full > 0 {
            counts.insert(0, C::from_u64(full));
        }
        Self { counts }
    }

    /// Builds a tally from `(outcome, universes)` pairs, adding the counts of
    /// repeated outcomes and dropping zero counts.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u64, C)>) -> Result<Self, CountOverflow> {
        let mut counts = BTreeMap::new();
        for (outcome, n) in pairs {
            add_to(&mut counts, outcome, &n)?;
        }
        Ok(Self { counts })
    }

    /// The outcomes in increasing order, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &C)> {
        self.counts.iter().map(|(&outcome, n)| (outcome, n))
    }

    /// The number of universes with this outcome, if any.
    pub fn get(&self, outcome: u64) -> Option<&C> {
        self.counts.get(&outcome)
    }

    /// The number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// True when no universe is counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The number of universes over all outcomes.
    pub fn total(&self) -> Result<C, CountOverflow> {
        self.counts
            .values()
            .try_fold(C::zero(), |sum, n| sum.checked_add(n).ok_or_else(CountOverflow::of::<C>))
    }

    /// Relabels every outcome with `f`, adding the counts of outcomes that
    /// meet.
    pub fn map(&self, f: impl Fn(u64) -> u64) -> Result<Self, CountOverflow> {
        Self::from_pairs(self.iter().map(|(outcome, n)| (f(outcome), n.clone())))
    }

    /// Every outcome modulo `modulus` (which must not be zero: the result is
    /// then empty).
    pub fn modulo(&self, modulus: u64) -> Result<Self, CountOverflow> {
        if modulus == 0 {
            return Ok(Self { counts: BTreeMap::new() });
        }
        self.map(|outcome| outcome % modulus)
    }

    /// Every pair of independent outcomes, combined by `combine` (which returns
    /// `None` when the combined outcome does not fit), with the product of
    /// their counts.
    ///
    /// Fails with [`CountOverflow`] when a count does not fit in `C`, and
    /// also when an outcome does not fit in its `u64` (the error's width is
    /// then `u64`), here and in [`sum_of`](Self::sum_of).
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::Tally;
    ///
    /// let die = Tally::<u64>::die(2);
    /// let two = die.convolve(&die, u64::checked_add)?;
    /// assert_eq!(two.iter().collect::<Vec<_>>(), [(2, &1), (3, &2), (4, &1)]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn convolve(
        &self,
        other: &Self,
        combine: impl Fn(u64, u64) -> Option<u64>,
    ) -> Result<Self, CountOverflow> {
        let mut counts = BTreeMap::new();
        for (a, m) in self.iter() {
            for (b, n) in other.iter() {
                let outcome = combine(a, b).ok_or(CountOverflow::OUTCOME)?;
                add_to(
                    &mut counts,
                    outcome,
                    &m.checked_mul(n).ok_or_else(CountOverflow::of::<C>)?,
                )?;
            }
        }
        Ok(Self { counts })
    }

    /// The sum of `times` independent draws from this tally. Zero draws give
    /// the single outcome 0.
    ///
    /// Fails at once with an outcome's [`CountOverflow`] when the largest
    /// sum, `times` draws of the largest outcome, does not fit in a `u64`:
    /// the squaring would reach it only after work and memory that grow
    /// with the sums (a two-faced die drawn 2⁶⁴ − 1 times). That error
    /// comes first even where the counts would also outgrow `C`.
    pub fn sum_of(&self, times: u64) -> Result<Self, CountOverflow> {
        if let Some(&largest) = self.counts.keys().next_back()
            && times > 0
        {
            largest.checked_mul(times).ok_or(CountOverflow::OUTCOME)?;
        }
        self.power(times, u64::checked_add)
    }

    /// The sum of `times` independent draws, modulo `modulus`; the outcomes
    /// must already be below `modulus`. As with [`modulo`](Self::modulo), a
    /// modulus of zero leaves no outcome: the result is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::Tally;
    ///
    /// // The puzzle's turn on its board of 10: the sums 3..=9 are all below 10.
    /// let moves = Tally::<u64>::die_modulo(3, 10).sum_of_modulo(3, 10)?;
    /// assert_eq!(moves, Tally::die(3).sum_of(3)?);
    /// // On a board of 4 the same turn folds into four moves.
    /// let moves = Tally::<u64>::die_modulo(3, 4).sum_of_modulo(3, 4)?;
    /// assert_eq!(moves.iter().collect::<Vec<_>>(), [(0, &6), (1, &7), (2, &7), (3, &7)]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn sum_of_modulo(&self, times: u64, modulus: u64) -> Result<Self, CountOverflow> {
        if modulus == 0 {
            return Ok(Self { counts: BTreeMap::new() });
        }
        self.power(times, |a, b| {
            // a, b < modulus, so a + b < 2 × modulus fits in u128.
            u64::try_from((u128::from(a) + u128::from(b)) % u128::from(modulus)).ok()
        })
    }

    /// The `times`-fold convolution by repeated squaring.
    fn power(
        &self,
        mut times: u64,
        combine: impl Fn(u64, u64) -> Option<u64>,
    ) -> Result<Self, CountOverflow> {
        let mut result = Self::single(0);
        let mut base = self.clone();
        while times > 0 {
            if times & 1 == 1 {
                result = result.convolve(&base, &combine)?;
            }
            times >>= 1;
            if times > 0 {
                base = base.convolve(&base, &combine)?;
            }
        }
        Ok(result)
    }
}

fn add_to<C: Count>(
    counts: &mut BTreeMap<u64, C>,
    outcome: u64,
    n: &C,
) -> Result<(), CountOverflow> {
    if n.is_zero() {
        return Ok(());
    }
    match counts.get_mut(&outcome) {
        Some(sum) => *sum = sum.checked_add(n).ok_or_else(CountOverflow::of::<C>)?,
        None => {
            counts.insert(outcome, n.clone());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::*;

    #[test]
    fn zero_faces_or_rolls_are_degenerate_not_errors() {
        assert!(Tally::<u64>::die(0).is_empty());
        assert!(Tally::<u64>::die_modulo(0, 10).is_empty());
        assert!(Tally::<u64>::die_modulo(5, 0).is_empty());
        let die = Tally::<u64>::die(3);
        assert!(die.modulo(0).unwrap().is_empty());
        assert!(die.sum_of_modulo(2, 0).unwrap().is_empty());
        assert!(die.sum_of_modulo(0, 0).unwrap().is_empty());
        assert_eq!(Tally::<u64>::die(3).sum_of(0).unwrap(), Tally::single(0));
    }

    #[test]
    fn folding_in_closed_form_matches_folding_face_by_face() {
        for faces in 0..30 {
            for modulus in 1..12 {
                let direct = Tally::<u64>::die(faces).modulo(modulus).unwrap();
                assert_eq!(
                    Tally::die_modulo(faces, modulus),
                    direct,
                    "{faces} faces mod {modulus}"
                );
            }
        }
    }

    #[test]
    fn squaring_matches_rolling_one_die_at_a_time() {
        let die = Tally::<u64>::die(4);
        let mut slow = Tally::single(0);
        for rolls in 0..9 {
            assert_eq!(die.sum_of(rolls).unwrap(), slow, "{rolls} rolls");
            slow = slow.convolve(&die, u64::checked_add).unwrap();
        }
    }

    #[test]
    fn overflow_is_reported_and_big_integers_do_not_overflow() {
        // Every sum of 64 coin flips fits in u64, but their 2^64 total does not.
        let flips = Tally::<u64>::die(2).sum_of(64).unwrap();
        assert_eq!(flips.total().unwrap_err().width, "u64");
        // 40 rolls of a 4-faced die make a single sum of about 2^76 universes.
        assert_eq!(Tally::<u64>::die(4).sum_of(40).unwrap_err().width, "u64");
        let big = Tally::<BigUint>::die(4).sum_of(40).unwrap();
        assert_eq!(big.total().unwrap(), BigUint::from(1_u8) << 80);
        // Outcomes that do not fit are reported too.
        assert!(Tally::<u64>::single(u64::MAX).sum_of(2).is_err());
    }

    #[test]
    fn zero_counts_are_dropped_however_they_are_given() {
        let tally = Tally::<u64>::from_pairs([(1, 0), (2, 3), (2, 0), (5, 0)]).unwrap();
        assert_eq!(tally.iter().collect::<Vec<_>>(), [(2, &3)]);
        assert_eq!((tally.len(), tally.get(1), tally.get(5)), (1, None, None));
        assert_eq!(tally, Tally::from_pairs([(2, 3)]).unwrap());
        assert!(Tally::<u64>::from_pairs([(7, 0)]).unwrap().is_empty());
        assert!(Tally::<BigUint>::from_pairs([(7, BigUint::from(0_u8))]).unwrap().is_empty());
    }

    #[test]
    fn an_outcome_past_64_bits_is_reported_as_u64s_overflow_whatever_the_count() {
        // u64::MAX + u64::MAX does not fit in an outcome; the counts (1 × 1)
        // fit in every count type, so the overflow is the outcome's.
        assert_eq!(Tally::<u64>::single(u64::MAX).sum_of(2), Err(CountOverflow::OUTCOME));
        assert_eq!(Tally::<u128>::single(u64::MAX).sum_of(2), Err(CountOverflow::OUTCOME));
        assert_eq!(Tally::<BigUint>::single(u64::MAX).sum_of(2), Err(CountOverflow::OUTCOME));
        // Counts that do not fit are the count type's.
        let wide = Tally::<u128>::from_pairs([(1, u128::MAX)]).unwrap();
        assert_eq!(wide.sum_of(2), Err(CountOverflow::of::<u128>()));
    }

    /// `sum_of` refuses at once the sums that drawing one at a time would
    /// find too large, and answers the others as drawing one at a time does.
    #[test]
    fn sums_past_64_bits_are_refused_before_any_squaring() {
        // A two-faced die drawn 2^64 − 1 times sums up to 2^65 − 2: squaring
        // would build tallies of 2^k + 1 outcomes long before it got there.
        assert_eq!(Tally::<BigUint>::die(2).sum_of(u64::MAX), Err(CountOverflow::OUTCOME));
        // Its counts would outgrow a u64 first, at 2^63 draws; the outcome
        // is the error all the same.
        assert_eq!(Tally::<u64>::die(2).sum_of(1 << 63), Err(CountOverflow::OUTCOME));
        for times in 1..=6_u64 {
            let edge = u64::MAX / times;
            for largest in [edge - 1, edge, edge.saturating_add(1)] {
                let tally = Tally::<u64>::from_pairs([(1, 2), (largest, 3)]).unwrap();
                let mut drawn = Ok(Tally::single(0));
                for _ in 0..times {
                    drawn = drawn.and_then(|sum| sum.convolve(&tally, u64::checked_add));
                }
                assert_eq!(tally.sum_of(times), drawn, "{times} × {largest}");
                assert_eq!(drawn.is_err(), largest.checked_mul(times).is_none());
            }
        }
    }

    #[test]
    fn sums_modulo_a_modulus_near_2_pow_64_do_not_wrap() {
        // (2^63 + 5) × 2 = 2^64 + 10, which is 11 modulo 2^64 − 1; a sum
        // that wrapped at 2^64 would leave 10.
        let half = (1_u64 << 63) + 5;
        let twice = Tally::<u64>::single(half).sum_of_modulo(2, u64::MAX).unwrap();
        assert_eq!(twice, Tally::single(11));
        let thrice = Tally::<u64>::single(half).sum_of_modulo(3, u64::MAX).unwrap();
        assert_eq!(thrice, Tally::single((1 << 63) + 16));
    }
}
