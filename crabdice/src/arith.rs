//! # Small integer arithmetic shared by the engines
//!
//! Both games need the greatest common divisor of machine words in hot or
//! `const` code: Dirac Dice for the period of a pawn on the board, Crab
//! Combat for the residue classes and the cycle length of a see-saw. One
//! implementation serves both.

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

#[cfg(test)]
mod tests {
    use super::gcd;

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
