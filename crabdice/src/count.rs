//! # Counting universes exactly
//!
//! The Dirac die splits the universe on every roll, so the answers are counts
//! of universes, and they grow fast: the puzzle's example needs 49 bits, a
//! target of 30 needs more than 64, and four players on a target of 50 need
//! more than 128. A wrapped count is a wrong answer, and a big integer
//! everywhere is about a hundred times slower than a machine word in the hot
//! loop. So the engines are written once, generic over the [`Count`] trait, and
//! run with the narrowest type that holds the answer:
//!
//! | type | holds up to | arithmetic |
//! |---|---|---|
//! | `u64` | 1.8 × 10^19 | checked: overflow is reported, never wrapped |
//! | `u128` | 3.4 × 10^38 | checked |
//! | [`BigUint`] | any size | cannot overflow |
//!
//! [`crate::play_dirac`] tries `u64`, then `u128`, then `BigUint`; an overflow
//! in a narrow type only costs the time of the failed attempt. (Its default
//! engine goes further: it counts each player alone in machine words as
//! wide as that player needs, and only multiplies the players' counts in a
//! [`Count`]; see [`crate::dirac`].)
//!
//! ## Checking overflow once a turn instead of once a product
//!
//! The hot loop adds `count × weight` into a table cell thousands of times a
//! turn. Every contribution is non-negative and all of them together add up to
//! the universes alive before the turn times the universes one turn splits
//! into. So an engine checks that single product once (with
//! [`Count::checked_mul`]); when it fits, no cell and no partial sum can exceed
//! it, and [`Sealed::add_product_within`](sealed::Sealed::add_product_within) may use plain arithmetic. Debug builds
//! (and so the test suite) still trap an overflow there, which would mean the
//! argument is wrong.

use std::fmt;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::natural::Natural;

/// A number of universes: a non-negative integer type with checked arithmetic.
///
/// Implemented by `u64`, `u128` and [`BigUint`] (sealed: the engines rely on
/// the exact semantics below). Every fallible method returns `None` instead of
/// wrapping; `BigUint` fails only where a result would be below zero
/// (`checked_sub`).
///
/// # Examples
///
/// ```
/// use crabdice::Count;
///
/// let big = u64::MAX;
/// assert_eq!(Count::checked_mul(&big, &2), None);
/// assert_eq!(<u128 as Count>::checked_mul(&u128::from(big), &2), Some(2 * u128::from(big)));
/// ```
pub trait Count:
    Clone + fmt::Debug + fmt::Display + Ord + Into<BigUint> + Into<Natural> + sealed::Sealed
{
    /// The type's name, for messages (`u64`, `u128`, `BigUint`).
    const NAME: &'static str;

    /// Zero universes.
    fn zero() -> Self;

    /// Converts a machine word; every count type holds all of `u64`.
    fn from_u64(n: u64) -> Self;

    /// True for zero.
    fn is_zero(&self) -> bool;

    /// `self + other`, or `None` when it does not fit.
    fn checked_add(&self, other: &Self) -> Option<Self>;

    /// `self - other`, or `None` when it would be negative.
    fn checked_sub(&self, other: &Self) -> Option<Self>;

    /// `self × other`, or `None` when it does not fit.
    fn checked_mul(&self, other: &Self) -> Option<Self>;

    /// `self += a × b`, or `None` (leaving `self` unchanged) when it does not fit.
    fn add_product(&mut self, a: &Self, b: &Self) -> Option<()> {
        *self = a.checked_mul(b)?.checked_add(self)?;
        Some(())
    }
}

/// Keeps [`Count`] to the three types the engines were proved for, and
/// carries the conversions the crate needs between them (not public: the
/// trait cannot be named outside the crate).
pub(crate) mod sealed {
    use num_bigint::BigUint;

    pub trait Sealed: Sized {
        /// Whether the number lives on the heap, so that making one
        /// allocates.
        const HEAP: bool = false;
        /// The count as `Self`, if it fits.
        fn from_u128(n: u128) -> Option<Self>;
        /// The count as `Self`, if it fits.
        fn from_biguint(n: &BigUint) -> Option<Self>;
        /// 64-bit words the number takes (at least one), and how many of
        /// them are on the heap.
        fn limbs(&self) -> (u128, u128);
        /// `self += a × b` where the caller has proved that the result
        /// fits (see the module documentation); debug builds panic if it
        /// does not, release builds would wrap. Here, not on [`Count`](super::Count),
        /// so that only the crate's engines, which carry the proofs, can
        /// call it.
        fn add_product_within(&mut self, a: &Self, b: &Self);
    }

    impl Sealed for u64 {
        fn from_u128(n: u128) -> Option<Self> {
            u64::try_from(n).ok()
        }
        fn from_biguint(n: &BigUint) -> Option<Self> {
            u64::try_from(n).ok()
        }
        fn limbs(&self) -> (u128, u128) {
            (1, 0)
        }
        fn add_product_within(&mut self, a: &Self, b: &Self) {
            // Fits by the caller's bound; overflow checks in debug builds
            // catch a broken bound.
            *self += *a * *b;
        }
    }

    impl Sealed for u128 {
        fn from_u128(n: u128) -> Option<Self> {
            Some(n)
        }
        fn from_biguint(n: &BigUint) -> Option<Self> {
            u128::try_from(n).ok()
        }
        fn limbs(&self) -> (u128, u128) {
            (2, 0)
        }
        fn add_product_within(&mut self, a: &Self, b: &Self) {
            // As for u64.
            *self += *a * *b;
        }
    }

    impl Sealed for BigUint {
        const HEAP: bool = true;
        fn from_u128(n: u128) -> Option<Self> {
            Some(n.into())
        }
        fn from_biguint(n: &BigUint) -> Option<Self> {
            Some(n.clone())
        }
        fn limbs(&self) -> (u128, u128) {
            let limbs = u128::from(self.bits().div_ceil(64));
            (limbs.max(1), limbs)
        }
        fn add_product_within(&mut self, a: &Self, b: &Self) {
            use num_traits::One as _;
            if a.is_one() {
                *self += b;
            } else if b.is_one() {
                *self += a;
            } else {
                *self += a * b;
            }
        }
    }
}

macro_rules! machine_count {
    ($t:ty, $name:literal) => {
        impl Count for $t {
            const NAME: &'static str = $name;

            fn zero() -> Self {
                0
            }

            fn from_u64(n: u64) -> Self {
                n.into()
            }

            fn is_zero(&self) -> bool {
                *self == 0
            }

            fn checked_add(&self, other: &Self) -> Option<Self> {
                <$t>::checked_add(*self, *other)
            }

            fn checked_sub(&self, other: &Self) -> Option<Self> {
                <$t>::checked_sub(*self, *other)
            }

            fn checked_mul(&self, other: &Self) -> Option<Self> {
                <$t>::checked_mul(*self, *other)
            }
        }
    };
}

machine_count!(u64, "u64");
machine_count!(u128, "u128");

impl Count for BigUint {
    const NAME: &'static str = "BigUint";

    fn zero() -> Self {
        Zero::zero()
    }

    fn from_u64(n: u64) -> Self {
        n.into()
    }

    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }

    fn checked_add(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }

    fn checked_sub(&self, other: &Self) -> Option<Self> {
        (self >= other).then(|| self - other)
    }

    fn checked_mul(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }

    fn add_product(&mut self, a: &Self, b: &Self) -> Option<()> {
        sealed::Sealed::add_product_within(self, a, b);
        Some(())
    }
}

/// An exact number of universes, of any size: a [`Natural`], a `u128`
/// while it fits and a big integer past that.
///
/// Prints as decimal digits, so a program can hand it on as a string without
/// losing precision (JSON numbers stop being exact at 2^53).
///
/// # Examples
///
/// ```
/// use crabdice::Universes;
///
/// let wins = Universes::from(444_356_092_776_315_u64);
/// assert_eq!(wins.to_string(), "444356092776315");
/// assert_eq!(wins.to_u128(), Some(444_356_092_776_315));
/// assert_eq!(String::from(wins), "444356092776315");
/// ```
pub type Universes = Natural;

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `1 + max²` and then `x + x²` fit, with `max = u64::MAX`;
    /// each that fails must leave the count as it was.
    fn exercise<C: Count>() -> (bool, bool) {
        let max = C::from_u64(u64::MAX);
        let mut acc = C::from_u64(1);
        let first = acc.add_product(&max, &max).is_some();
        if !first {
            assert_eq!(acc, C::from_u64(1), "a failed add_product leaves the count unchanged");
            return (false, false);
        }
        let before = acc.clone();
        let second = acc.add_product(&before, &before).is_some();
        if !second {
            assert_eq!(acc, before, "a failed add_product leaves the count unchanged");
        }
        (first, second)
    }

    #[test]
    fn overflow_is_reported_per_width() {
        assert_eq!(exercise::<u64>(), (false, false));
        assert_eq!(exercise::<u128>(), (true, false));
        assert_eq!(exercise::<BigUint>(), (true, true));
    }

    #[test]
    fn subtraction_below_zero_is_refused() {
        assert_eq!(Count::checked_sub(&3_u64, &4), None);
        assert_eq!(Count::checked_sub(&BigUint::from(3_u8), &BigUint::from(4_u8)), None);
        assert_eq!(
            Count::checked_sub(&BigUint::from(4_u8), &BigUint::from(3_u8)),
            Some(1_u8.into())
        );
    }

    #[test]
    fn universes_print_and_compare_as_numbers() {
        let big = Universes::from(BigUint::from(u128::MAX) * 10_u8);
        assert_eq!(big.to_string(), "3402823669209384634633746074317682114550");
        assert_eq!(big.to_u128(), None);
        assert_eq!(big.bits(), 132);
        assert_eq!(Universes::from(7_u64), 7_u128);
        assert_eq!(String::from(Universes::from(12_u64)), "12");
    }
}
