//! # Exact answers that stay in a machine word
//!
//! Most answers fit in 128 bits, but some do not: the deterministic game at a
//! target near 2⁶⁴ with a thousand rolls a turn multiplies a score of about
//! 2⁶³ by some 2⁷² rolls. A
//! [`BigUint`] holds any of them, but it allocates for every non-zero value,
//! and that allocation would be half the cost of solving the puzzle's part 1.
//! So [`Natural`] keeps a `u128` while the value fits and a `BigUint` only
//! past it. The representation is normalized (a `BigUint` is never at most
//! `u128::MAX`), so equality, hashing and ordering compare values. The Dirac
//! game's counts, [`Universes`](crate::Universes), are the same type, and so
//! is Recursive Combat's count of games, [`GameCount`](crate::GameCount),
//! which a deal built to nest sub-games takes past 2⁶⁴ in moments.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use num_bigint::BigUint;

/// An exact non-negative integer of any size; a `u128` inside while it fits.
///
/// It compares with machine words on its right (`n == 5_u8`, `n > u64::MAX`)
/// but not on their right: with both, `n == x.into()` would no longer know
/// which type `x.into()` is.
///
/// # Examples
///
/// ```
/// use crabdice::Natural;
///
/// let small = Natural::product(1_000, 745);
/// assert_eq!(small, 745_000_u32);
/// assert_eq!(small.to_u128(), Some(745_000));
///
/// let big = Natural::product(u128::MAX, 10);
/// assert_eq!(big.to_string(), "3402823669209384634633746074317682114550");
/// assert_eq!(big.to_u128(), None);
/// assert!(big > small);
/// assert_eq!(big.bits(), 132);
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Natural(Repr);

/// Words before big integers in the derived order: every `Big` exceeds every
/// `Word`, which the normalization guarantees.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Repr {
    Word(u128),
    Big(BigUint),
}

impl Default for Repr {
    fn default() -> Self {
        Self::Word(0)
    }
}

impl Natural {
    /// `a × b`, exactly; allocates only when the product exceeds 128 bits.
    pub fn product(a: u128, b: u128) -> Self {
        a.checked_mul(b).map_or_else(|| Self::from(BigUint::from(a) * b), Self::from)
    }

    /// The value as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match self.0 {
            Repr::Word(n) => Some(n),
            Repr::Big(_) => None,
        }
    }

    /// The value as a `u64`, if it fits.
    ///
    /// ```
    /// use crabdice::Natural;
    ///
    /// assert_eq!(Natural::from(739_785_u32).to_u64(), Some(739_785));
    /// assert_eq!(Natural::product(1 << 40, 1 << 40).to_u64(), None);
    /// ```
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|n| u64::try_from(n).ok())
    }

    /// The value as a big integer.
    pub fn to_biguint(&self) -> BigUint {
        match &self.0 {
            Repr::Word(n) => BigUint::from(*n),
            Repr::Big(n) => n.clone(),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.0 == Repr::Word(0)
    }

    /// The number of bits needed to write the value in binary (0 for zero).
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Word(n) => u64::from(u128::BITS - n.leading_zeros()),
            Repr::Big(n) => n.bits(),
        }
    }
}

/// Exact addition; allocates only when the sum exceeds 128 bits.
///
/// ```
/// use crabdice::Natural;
///
/// let mut n = Natural::from(u128::MAX);
/// n += &Natural::from(2_u8);
/// assert_eq!(n.to_string(), "340282366920938463463374607431768211457");
/// ```
impl AddAssign<&Natural> for Natural {
    fn add_assign(&mut self, other: &Natural) {
        if let (Repr::Word(a), Repr::Word(b)) = (&self.0, &other.0)
            && let Some(sum) = a.checked_add(*b)
        {
            self.0 = Repr::Word(sum);
            return;
        }
        let sum = BigUint::from(std::mem::take(self)) + other.to_biguint();
        *self = Self::from(sum);
    }
}

/// Exact addition, as `+=` does.
///
/// ```
/// use crabdice::Natural;
///
/// let (max, one) = (Natural::from(u128::MAX), Natural::from(1_u8));
/// assert_eq!((&max + &one).bits(), 129);
/// assert_eq!(max + one, Natural::product(1 << 64, 1 << 64));
/// ```
impl Add<&Natural> for Natural {
    type Output = Natural;

    fn add(mut self, other: &Natural) -> Natural {
        self += other;
        self
    }
}

impl Add for Natural {
    type Output = Natural;

    fn add(self, other: Natural) -> Natural {
        self + &other
    }
}

impl Add for &Natural {
    type Output = Natural;

    fn add(self, other: &Natural) -> Natural {
        self.clone() + other
    }
}

/// The exact sum of many: the per-turn wins of a histogram, say.
///
/// ```
/// use crabdice::Natural;
///
/// let wins = [3_u8, 4, 5].map(Natural::from);
/// assert_eq!(wins.iter().sum::<Natural>(), 12_u8);
/// assert_eq!(wins.into_iter().sum::<Natural>(), 12_u8);
/// ```
impl<'a> Sum<&'a Natural> for Natural {
    fn sum<I: Iterator<Item = &'a Natural>>(numbers: I) -> Natural {
        numbers.fold(Natural::default(), |sum, n| sum + n)
    }
}

/// The exact sum of many, as for references.
impl Sum for Natural {
    fn sum<I: Iterator<Item = Natural>>(numbers: I) -> Natural {
        numbers.fold(Natural::default(), |sum, n| sum + &n)
    }
}

impl fmt::Display for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Word(n) => fmt::Display::fmt(n, f),
            Repr::Big(n) => fmt::Display::fmt(n, f),
        }
    }
}

/// Prints the number alone, as `Display` does.
impl fmt::Debug for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// Compared with a word on the right only: `impl PartialEq<Natural> for
// u64` as well leaves `words == naturals.map(Into::into)` without a type to
// infer, which broke this crate's own tests, and would break its users'.
macro_rules! from_word {
    ($($word:ty),*) => {$(
        impl From<$word> for Natural {
            fn from(n: $word) -> Self {
                Self(Repr::Word(n.into()))
            }
        }

        impl PartialEq<$word> for Natural {
            fn eq(&self, other: &$word) -> bool {
                self.0 == Repr::Word((*other).into())
            }
        }

        impl PartialOrd<$word> for Natural {
            fn partial_cmp(&self, other: &$word) -> Option<std::cmp::Ordering> {
                // Every big integer exceeds every word (normalized).
                Some(self.0.cmp(&Repr::Word((*other).into())))
            }
        }
    )*};
}

from_word!(u8, u16, u32, u64, u128);

impl From<BigUint> for Natural {
    fn from(n: BigUint) -> Self {
        match u128::try_from(&n) {
            Ok(word) => Self(Repr::Word(word)),
            Err(_) => Self(Repr::Big(n)),
        }
    }
}

impl PartialEq<BigUint> for Natural {
    fn eq(&self, other: &BigUint) -> bool {
        match &self.0 {
            Repr::Word(n) => u128::try_from(other).is_ok_and(|other| other == *n),
            Repr::Big(n) => n == other,
        }
    }
}

/// Reads decimal digits, as `Display` prints them.
///
/// ```
/// use crabdice::Natural;
///
/// let n: Natural = "444356092776315".parse()?;
/// assert_eq!(n, 444_356_092_776_315_u64);
/// let huge: Natural = "340282366920938463463374607431768211456".parse()?;
/// assert_eq!(huge.bits(), 129);
/// assert!("-1".parse::<Natural>().is_err());
/// # Ok::<_, num_bigint::ParseBigIntError>(())
/// ```
impl std::str::FromStr for Natural {
    type Err = num_bigint::ParseBigIntError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.parse::<BigUint>().map(Self::from)
    }
}

impl From<Natural> for String {
    fn from(n: Natural) -> Self {
        n.to_string()
    }
}

impl From<Natural> for BigUint {
    fn from(n: Natural) -> Self {
        match n.0 {
            Repr::Word(n) => n.into(),
            Repr::Big(n) => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A number of up to 200 bits, built from three words and a shift.
    fn arbitrary() -> impl Strategy<Value = BigUint> {
        (any::<u64>(), any::<u64>(), any::<u64>(), 0_u32..200).prop_map(|(a, b, c, shift)| {
            let n = (BigUint::from(a) << 128_u32) + (BigUint::from(b) << 64_u32) + c;
            n >> shift
        })
    }

    proptest! {
        /// Order, equality, printing and bits agree with `BigUint`'s, on both
        /// sides of the 128-bit boundary.
        #[test]
        fn behaves_like_a_big_integer(a in arbitrary(), b in arbitrary()) {
            let (x, y) = (Natural::from(a.clone()), Natural::from(b.clone()));
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            prop_assert_eq!(x == y, a == b);
            prop_assert_eq!(x == b, a == b);
            prop_assert_eq!(x.to_string(), a.to_string());
            prop_assert_eq!(x.bits(), a.bits());
            prop_assert_eq!(x.to_u128(), u128::try_from(&a).ok());
            prop_assert_eq!(x.to_u64(), u64::try_from(&a).ok());
            prop_assert_eq!(x.to_string().parse::<Natural>().ok(), Some(x.clone()));
            prop_assert_eq!(BigUint::from(x.clone()), a.clone());
            prop_assert_eq!(x.to_biguint(), a);
        }

        #[test]
        fn sums_are_exact(a in arbitrary(), b in arbitrary(), c in arbitrary()) {
            let mut sum = Natural::from(a.clone());
            sum += &Natural::from(b.clone());
            prop_assert_eq!(sum.to_biguint(), &a + &b);
            let all = [&a, &b, &c].map(|n| Natural::from(n.clone()));
            let expected = &a + &b + &c;
            prop_assert_eq!(all.iter().sum::<Natural>().to_biguint(), expected.clone());
            prop_assert_eq!(all.clone().into_iter().sum::<Natural>().to_biguint(), expected.clone());
            let [x, y, z] = all;
            prop_assert_eq!((&(&x + &y) + &z).to_biguint(), expected.clone());
            prop_assert_eq!((x + y + &z).to_biguint(), expected);
        }

        /// Compared with a machine word, as with the same value widened.
        #[test]
        fn compares_with_words(a in arbitrary(), word in any::<u64>(), wide in any::<u128>()) {
            let x = Natural::from(a.clone());
            prop_assert_eq!(x.partial_cmp(&word), Some(a.cmp(&BigUint::from(word))));
            prop_assert_eq!(x == wide, a == BigUint::from(wide));
            prop_assert_eq!(x.partial_cmp(&wide), Some(a.cmp(&BigUint::from(wide))));
            let small = u8::try_from(word % 256).unwrap_or(0);
            prop_assert_eq!(x.partial_cmp(&small), Some(a.cmp(&BigUint::from(small))));
        }

        #[test]
        fn products_are_exact(a in any::<u128>(), b in any::<u128>()) {
            prop_assert_eq!(Natural::product(a, b).to_biguint(), BigUint::from(a) * b);
        }
    }

    #[test]
    fn the_boundary_is_normalized() {
        let max = Natural::from(BigUint::from(u128::MAX));
        assert_eq!(max, u128::MAX);
        assert_eq!(max.to_u128(), Some(u128::MAX));
        let past = Natural::from(BigUint::from(u128::MAX) + 1_u8);
        assert!(past > max);
        assert_eq!(past.bits(), 129);
        assert!(Natural::default().is_zero());
        assert_eq!(Natural::default().bits(), 0);
        assert_eq!(format!("{:?}", Natural::from(7_u8)), "7");
    }
}
