//! # Lanes: the machine words that hold counts
//!
//! The word engine ([`super::table`]) adds and subtracts counts without
//! checking for overflow, because it proves once a turn that none happens
//! ([`Word::room`]: `N[t − 1] × faces^rolls` fits a lane). The words, from
//! narrowest to widest:
//!
//! * `u64`, which two players may share ([`Packing::Pair`]: 32 bits each,
//!   so one addition or multiplication by a small number serves both, and
//!   a half never carries into the other while both stay below 2³²);
//! * `u128`;
//! * [`Wide<N>`]: `64 × N` bits (256, 512 and 1024 in the engine) in `N`
//!   machine words, least significant first, added with carries.
//!
//! Each reads out as an exact [`Count`] (`Word::Exact`): `u128` for the
//! machine words, [`BigUint`] for the wide ones.

use std::fmt;

use num_bigint::BigUint;

use crate::count::Count;

/// How the players of one table share its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Packing {
    /// One player a word.
    Single,
    /// Two players in a 64-bit word, 32 bits each: additions and
    /// multiplications by small numbers act on both halves at once, and a
    /// half never carries into the other while both stay below 2³².
    Pair,
}

impl Packing {
    /// One universe of the player in `slot`.
    pub(super) fn seed<L: Word>(self, slot: usize) -> L {
        match self {
            Self::Single => L::ONE,
            Self::Pair => L::from_u64(1 << (32 * slot)),
        }
    }

    /// The players' counts in a word.
    pub(super) fn split<L: Word>(self, word: L) -> [L::Exact; 2] {
        match self {
            Self::Single => [word.exact(), L::Exact::zero()],
            Self::Pair => word.halves(),
        }
    }
}

/// A machine word of counts. Arithmetic does not check for overflow: the
/// engine proves, once a turn, that none happens (debug builds still trap).
pub(super) trait Word: Copy + PartialEq + fmt::Debug {
    /// Exact counts read out of the words, one a player and turn.
    type Exact: Count;
    /// 64-bit machine words in one word.
    const LIMBS: usize;
    const ZERO: Self;
    const ONE: Self;
    fn from_u64(n: u64) -> Self;
    fn add(&mut self, other: Self);
    fn sub(&mut self, other: Self);
    fn times(self, factor: u64) -> Self;
    /// The word's count.
    fn exact(self) -> Self::Exact;
    /// The two players' counts of a shared word (only 64-bit words are
    /// shared).
    fn halves(self) -> [Self::Exact; 2] {
        [self.exact(), Self::Exact::zero()]
    }
    /// Whether `alive × universes` fits in a lane.
    fn room(alive: &Self::Exact, universes: u128, packing: Packing) -> bool;
}

/// `alive × universes ≤ cap`, for counts read into a u128.
fn room_within(alive: u128, universes: u128, cap: u128) -> bool {
    alive.checked_mul(universes).is_some_and(|n| n <= cap)
}

impl Word for u64 {
    type Exact = u128;
    const LIMBS: usize = 1;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_u64(n: u64) -> Self {
        n
    }
    fn add(&mut self, other: Self) {
        *self += other;
    }
    fn sub(&mut self, other: Self) {
        *self -= other;
    }
    fn times(self, factor: u64) -> Self {
        self * factor
    }
    fn exact(self) -> u128 {
        self.into()
    }
    fn halves(self) -> [u128; 2] {
        [u128::from(self & u64::from(u32::MAX)), u128::from(self >> 32)]
    }
    fn room(alive: &u128, universes: u128, packing: Packing) -> bool {
        let cap = match packing {
            Packing::Single => u64::MAX,
            Packing::Pair => u32::MAX.into(),
        };
        room_within(*alive, universes, cap.into())
    }
}

impl Word for u128 {
    type Exact = u128;
    const LIMBS: usize = 2;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_u64(n: u64) -> Self {
        n.into()
    }
    fn add(&mut self, other: Self) {
        *self += other;
    }
    fn sub(&mut self, other: Self) {
        *self -= other;
    }
    fn times(self, factor: u64) -> Self {
        self * u128::from(factor)
    }
    fn exact(self) -> u128 {
        self
    }
    fn room(alive: &u128, universes: u128, _: Packing) -> bool {
        room_within(*alive, universes, u128::MAX)
    }
}

/// `64 × N` bits in `N` machine words, least significant first: additions
/// with carries, for players whose counts outgrow 128 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Wide<const N: usize>(pub(super) [u64; N]);

impl<const N: usize> From<u128> for Wide<N> {
    fn from(n: u128) -> Self {
        let mut wide = Self::ZERO;
        // The low and high halves.
        wide.0[0] = n as u64;
        wide.0[1] = (n >> 64) as u64;
        wide
    }
}

impl From<Wide<4>> for Wide<8> {
    fn from(n: Wide<4>) -> Self {
        let mut wide = Self::ZERO;
        wide.0[..4].copy_from_slice(&n.0);
        wide
    }
}

impl From<Wide<8>> for Wide<16> {
    fn from(n: Wide<8>) -> Self {
        let mut wide = Self::ZERO;
        wide.0[..8].copy_from_slice(&n.0);
        wide
    }
}

impl<const N: usize> Word for Wide<N> {
    type Exact = BigUint;
    const LIMBS: usize = N;
    const ZERO: Self = Self([0; N]);
    const ONE: Self = {
        let mut one = [0; N];
        one[0] = 1;
        Self(one)
    };
    fn from_u64(n: u64) -> Self {
        let mut wide = Self::ZERO;
        wide.0[0] = n;
        wide
    }
    fn add(&mut self, other: Self) {
        let mut carry = false;
        for (limb, &other) in self.0.iter_mut().zip(&other.0) {
            (*limb, carry) = limb.carrying_add(other, carry);
        }
        debug_assert!(!carry, "a wide count overflowed its bound");
    }
    fn sub(&mut self, other: Self) {
        let mut borrow = false;
        for (limb, &other) in self.0.iter_mut().zip(&other.0) {
            (*limb, borrow) = limb.borrowing_sub(other, borrow);
        }
        debug_assert!(!borrow, "a wide count went below zero");
    }
    fn times(self, factor: u64) -> Self {
        let mut carry = 0;
        let limbs = self.0.map(|limb| {
            let product = u128::from(limb) * u128::from(factor) + u128::from(carry);
            carry = (product >> 64) as u64;
            product as u64
        });
        debug_assert_eq!(carry, 0, "a wide count overflowed its bound");
        Self(limbs)
    }
    fn exact(self) -> BigUint {
        from_limbs(&self.0)
    }
    fn room(alive: &BigUint, universes: u128, _: Packing) -> bool {
        // alive × universes < 2^(bits(alive) + bits(universes)).
        let bits = alive.bits() + u64::from(u128::BITS - universes.leading_zeros());
        bits <= 64 * N as u64
    }
}

pub(super) fn add_all<L: Word, const W: usize>(to: &mut [L; W], from: &[L; W]) {
    for (to, &from) in to.iter_mut().zip(from) {
        to.add(from);
    }
}

pub(super) fn sub_all<L: Word, const W: usize>(to: &mut [L; W], from: &[L; W]) {
    for (to, &from) in to.iter_mut().zip(from) {
        to.sub(from);
    }
}

/// The number held in limbs, least significant first.
pub(super) fn from_limbs(limbs: &[u64]) -> BigUint {
    let bytes: Vec<u8> = limbs.iter().flat_map(|limb| limb.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_words_carry_and_borrow_across_limbs() {
        let max = Wide([u64::MAX, u64::MAX, 0]);
        let mut sum = max;
        sum.add(Wide::ONE);
        assert_eq!(sum, Wide([0, 0, 1]));
        sum.sub(Wide::ONE);
        assert_eq!(sum, max);
        assert_eq!(max.times(3).exact(), (BigUint::from(1_u8) << 128_u32) * 3_u8 - 3_u8);
        assert!(Wide::<2>::room(&BigUint::from(u64::MAX), 1 << 63, Packing::Single));
        assert!(!Wide::<2>::room(&BigUint::from(u64::MAX), u128::MAX, Packing::Single));
    }
}
