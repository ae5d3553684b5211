//! # Small integer arithmetic shared by the engines
//!
//! Both games need the greatest common divisor of machine words in hot or
//! `const` code: Dirac Dice for the period of a pawn on the board, Crab
//! Combat for the residue classes and the cycle length of a see-saw. One
//! implementation serves both, and the least common multiple of cycle
//! lengths (a see-saw's, a rhythm's) is built on it, checked against
//! overflow.

/// The greatest common divisor, by [Stein's
/// algorithm](https://en.wikipedia.org/wiki/Binary_GCD_algorithm): shifts
/// and subtractions, no division (a division is slow, and was the largest
/// cost of the see-saw check).
pub(crate) const fn gcd(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            (a, b) = (b, a);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// The least common multiple of `a` and `b`, or `None` past 64 bits (0
/// when either is 0).
pub(crate) const fn checked_lcm(a: u64, b: u64) -> Option<u64> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    (a / gcd(a, b)).checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::{checked_lcm, gcd};

    #[test]
    fn checked_lcm_is_the_least_common_multiple_or_none() {
        for a in 0..100u64 {
            for b in 0..100u64 {
                let least = if a == 0 || b == 0 {
                    0
                } else {
                    (1..=a * b).find(|m| m % a == 0 && m % b == 0).unwrap()
                };
                assert_eq!(checked_lcm(a, b), Some(least), "lcm({a}, {b})");
            }
        }
        assert_eq!(checked_lcm(u64::MAX, u64::MAX), Some(u64::MAX));
        assert_eq!(checked_lcm(u64::MAX, 2), None);
        assert_eq!(checked_lcm(1 << 32, 1 << 32 | 1), None);
        assert_eq!(checked_lcm(1 << 31, 1 << 32 | 1), Some((1 << 31) * ((1 << 32) + 1)));
    }

    #[test]
    fn gcd_agrees_with_euclid() {
        const fn euclid(a: u64, b: u64) -> u64 {
            if b == 0 { a } else { euclid(b, a % b) }
        }
        for a in 0..200 {
            for b in 0..200 {
                assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
            }
        }
        assert_eq!(gcd(1 << 40, 3 << 38), 1 << 38);
        assert_eq!(gcd(u64::MAX, u64::MAX - 1), 1);
    }
}
