//! # Blocks: periods too long to learn, summed in closed form
//!
//! A pawn's moves repeat every `L` turns (the die's offsets do), so over
//! `N` blocks of `L` turns its points are, for each space it stands on in
//! the first block, a sum of remainders of an arithmetic progression
//! modulo the board: a floor sum, computed like Euclid's algorithm
//! ([`floor_sum`]). The block in which a pawn reaches the target is found
//! by bisection ([`blocks`]), whatever the period: `L × B / gcd(B, Δ)`
//! turns on a board of `B` spaces, for a block that moves the pawn `Δ`
//! spaces, which for a board near 2⁶⁴, or a die of millions of faces, no
//! table or simulation reaches. It applies when the blocks are short
//! enough: at most [`BLOCK_TURNS`] turns of all players, on at most
//! [`BLOCK_SPACES`] distinct spaces a pawn.

use super::super::rules::MAX_SIMULATED_TURNS;
use super::walk::Turns;
use super::{Arrival, End, Pawn, sub_mod};

/// The most turns of all pawns' blocks of offsets (`L` each) for
/// [`blocks`], which plays each block about three times: the budget of
/// simulated turns.
const BLOCK_TURNS: u64 = MAX_SIMULATED_TURNS;

/// The most distinct spaces a pawn's block may stand on for [`blocks`]:
/// each costs a floor sum at every step of the bisection.
const BLOCK_SPACES: usize = 1 << 15;

/// The game by blocks of `L` turns, when the die's offsets repeat within
/// [`BLOCK_TURNS`] turns of all players and each pawn stands on at most
/// [`BLOCK_SPACES`] distinct spaces over its block, but the pawns' periods
/// are too long to learn; `None` otherwise.
///
/// A pawn's moves repeat every `L` turns, so on turn `k` of block `n` it
/// stands on `(x_k + n·Δ) mod B`, where `x_k` is where it stands after
/// turn `k` of the first block and `Δ` how far a block moves it. Its points
/// over the first `N` blocks are therefore, for each distinct space `x`
/// among the `x_k` (times how often it comes), a sum of remainders of an
/// arithmetic progression:
///
/// ```text
/// Σ_{n<N} (x + n·Δ) mod B = N·x + Δ·N(N − 1)/2 − B · Σ_{n<N} ⌊(x + n·Δ)/B⌋
/// ```
///
/// and the last sum is a *floor sum*, computed in `O(log B)` steps like
/// Euclid's algorithm ([`floor_sum`]). Points grow with `N`, so the block
/// in which a pawn reaches the target is found by bisection, and the turn
/// within it by playing that block again. Work: `O(L)` turns and `O(min(L,
/// B) × log target × log B)` for the sums, per pawn, whatever the period
/// (`L × B / gcd(B, Δ)` turns, which for a board near 2⁶⁴, or a die of
/// millions, no table or simulation reaches).
pub(super) fn blocks(pawns: &[Pawn<'_>], target: u64) -> Option<End> {
    let die = pawns.first()?.die;
    let offsets = die.cycle_turns();
    if offsets.checked_mul(pawns.len() as u64)? > BLOCK_TURNS {
        return None;
    }
    let walks: Vec<Block<'_>> =
        pawns.iter().map(|pawn| Block::new(pawn, offsets)).collect::<Option<_>>()?;
    Some(End::first_to_arrive(
        walks.len(),
        |i| walks[i].arrival(target),
        |i, played| walks[i].points_after(played),
    ))
}

/// One pawn's first block of `L` turns: the spaces it stands on after each
/// turn (space minus one), each with how many turns end there, and how far
/// a block moves it.
struct Block<'a> {
    pawn: Pawn<'a>,
    turns: u64,
    spaces: Vec<(u64, u64)>,
    shift: u64,
}

impl<'a> Block<'a> {
    /// `None` if the block stands on more than [`BLOCK_SPACES`] spaces.
    fn new(pawn: &Pawn<'a>, turns: u64) -> Option<Self> {
        let mut walker = pawn.walker();
        let mut counts = rustc_hash::FxHashMap::default();
        for _ in 0..turns {
            walker.play();
            *counts.entry(walker.position()).or_insert(0_u64) += 1;
            if counts.len() > BLOCK_SPACES {
                return None;
            }
        }
        let shift = sub_mod(walker.position(), pawn.position, pawn.die.board);
        let mut spaces: Vec<(u64, u64)> = counts.into_iter().collect();
        spaces.sort_unstable();
        Some(Self { pawn: pawn.clone(), turns, spaces, shift })
    }

    /// Points over the first `blocks` blocks (fewer than 2⁶⁴ turns in
    /// all), or `None` past 2¹²⁸.
    fn points_over(&self, blocks: u64) -> Option<u128> {
        let board = u128::from(self.pawn.die.board);
        let (n, shift) = (u128::from(blocks), u128::from(self.shift));
        // The progression's own sum and the floor sum's multiple can each
        // pass 2¹²⁸, but their difference, a sum of remainders, is below
        // `blocks × board` < 2¹²⁸: computed modulo 2¹²⁸, it is exact.
        let drift = shift.wrapping_mul(n * n.saturating_sub(1) / 2);
        let mut points = 0_u128;
        for &(x, turns) in &self.spaces {
            let x = u128::from(x);
            let wraps = floor_sum(n, board, shift, x);
            let spaces =
                (n.wrapping_mul(x)).wrapping_add(drift).wrapping_sub(board.wrapping_mul(wraps));
            // Each turn scores its space plus one.
            let each = spaces.checked_add(n)?;
            points = points.checked_add(each.checked_mul(u128::from(turns))?)?;
        }
        Some(points)
    }

    /// The points of each turn of block `block`, in order.
    fn points_in(&self, block: u64) -> impl Iterator<Item = u128> + use<'_, 'a> {
        let board = u128::from(self.pawn.die.board);
        // `block × shift mod board` in 128 bits; each space is below the board.
        let moved = (u128::from(block) * u128::from(self.shift)) % board;
        let mut walker = self.pawn.walker();
        (0..self.turns).map(move |_| (u128::from(walker.play() - 1) + moved) % board + 1)
    }

    /// The turn (from 1) on which the pawn reaches `target`, and its score
    /// then.
    fn arrival(&self, target: u64) -> Arrival {
        let target = u128::from(target);
        // Every turn scores, so fewer than `target / L` whole blocks come
        // before it: bisect for the most blocks that stay below the target.
        let (mut low, mut high) = (0_u64, (target.saturating_sub(1) as u64) / self.turns + 1);
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if self.points_over(mid).is_some_and(|points| points < target) {
                low = mid;
            } else {
                high = mid;
            }
        }
        let mut score = self.points_over(low).unwrap_or(u128::MAX);
        let first = u128::from(low) * u128::from(self.turns);
        for (k, points) in self.points_in(low).enumerate() {
            score += points;
            if score >= target {
                return Arrival { turn: first + k as u128 + 1, score };
            }
        }
        // Unreachable: the block after `low` reaches the target.
        Arrival { turn: u128::MAX, score }
    }

    /// Points after `played` turns.
    fn points_after(&self, played: u128) -> u128 {
        let turns = u128::from(self.turns);
        // Fewer turns than the winner's, below 2⁶⁴.
        let (blocks, rest) = ((played / turns) as u64, (played % turns) as usize);
        let whole = self.points_over(blocks).unwrap_or(u128::MAX);
        whole + self.points_in(blocks).take(rest).sum::<u128>()
    }
}

/// `Σ_{i<n} ⌊(a·i + b) / m⌋` for `m > 0`, by the Euclid-like reduction:
/// take out the whole multiples of `m` in `a` and `b`, then count the lattice
/// points under the line the other way round. Exact while the sum and
/// `a·n + b` (after reduction) stay below 2¹²⁸.
pub(super) fn floor_sum(n: u128, m: u128, a: u128, b: u128) -> u128 {
    let (mut n, mut m, mut a, mut b) = (n, m, a, b);
    let mut sum = 0_u128;
    loop {
        if a >= m {
            sum += n * n.saturating_sub(1) / 2 * (a / m);
            a %= m;
        }
        if b >= m {
            sum += n * (b / m);
            b %= m;
        }
        let top = a * n + b;
        if top < m {
            return sum;
        }
        (n, m, a, b) = (top / m, a, m, top % m);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::generator;
    use super::super::*;
    use super::*;

    #[test]
    fn blocks_agree_with_simulation_and_with_learned_periods() {
        let mut random = generator(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for _ in 0..3000 {
            let board = 1 + random(300);
            let faces = 1 + random(60);
            let rolls = 1 + random(8);
            let players = 2 + random(3) as usize;
            let starts: Vec<u64> = (0..players).map(|_| 1 + random(board)).collect();
            // Short games, which simulation reaches, and long ones, which
            // the learned periods jump.
            for target in [1, 1 + random(50), 1 + random(20_000), 1 + random(u64::MAX - 1)] {
                let rules = DiceRules { board, target, faces, rolls };
                let die = Die::new(&rules, players);
                let pawns = die.pawns(&starts);
                let Some(by_blocks) = blocks(&pawns, target) else { continue };
                // Every turn scores, so a game ends within `target` rounds.
                let expected = if target <= 20_000 {
                    simulate(&pawns, target, target * players as u64).unwrap()
                } else {
                    learned(&pawns, target, MAX_SIMULATED_TURNS).unwrap()
                };
                assert_eq!(by_blocks, expected, "{rules} {starts:?}");
                checked += 1;
            }
        }
        assert!(checked > 10_000, "only {checked} games by blocks");
    }

    #[test]
    fn periods_past_any_budget_are_answered_by_blocks() {
        // A board near 2^64: pawns creep up it, and reach 2^64 − 1 points
        // after hundreds of millions of turns, long before any period.
        let rules = DiceRules { board: u64::MAX, target: u64::MAX, faces: 100, rolls: 7 };
        let die = Die::new(&rules, 2);
        let pawns = die.pawns(&[1, 2]);
        assert!(periods(&pawns, MAX_SIMULATED_TURNS).is_none());
        let end = end(&[1, 2], &rules, MAX_SIMULATED_TURNS).unwrap();
        // Scores are the sums of the spaces landed on: check the winner's
        // and the loser's by the blocks' own sums, turn by turn near the end.
        let walks: Vec<Block<'_>> =
            pawns.iter().map(|pawn| Block::new(pawn, 50).unwrap()).collect();
        let winner = &walks[end.winner];
        let before = winner.points_after(end.winning_turn - 1);
        assert!(
            before < u128::from(rules.target) && end.scores[end.winner] >= u128::from(rules.target)
        );
        assert_eq!(end.scores[end.winner], winner.points_after(end.winning_turn));
        // Boards near 2⁶⁴ and past 10⁹, with games short enough to
        // simulate (up to a few hundred thousand turns) but periods far
        // too long to learn: blocks of 50 and 997 turns, the second
        // wrapping round the board.
        for rules in [
            DiceRules { board: u64::MAX, target: 1_000_000_000_000, faces: 100, rolls: 7 },
            DiceRules { board: u64::MAX - 1, target: 1 << 45, faces: 100, rolls: 3 },
            DiceRules { board: 1_000_000_007, target: 100_000_000_000_000, faces: 997, rolls: 7 },
            // Blocks of 100,003 turns on the puzzle's board: ten spaces.
            DiceRules { board: 10, target: 1_000_000, faces: 100_003, rolls: 3 },
            DiceRules { board: 997, target: 3_000_000, faces: 50_021, rolls: 2 },
        ] {
            let die = Die::new(&rules, 3);
            let starts = [1, 2, 1_000_000.min(rules.board)];
            let pawns = die.pawns(&starts);
            assert!(periods(&pawns, 1_000_000).is_none(), "{rules}");
            let by_blocks = blocks(&pawns, rules.target).unwrap();
            assert_eq!(Some(by_blocks), simulate(&pawns, rules.target, 3_000_000), "{rules}");
        }
        // A block standing on more spaces than the bisection may sum is
        // left to simulation.
        let wide = DiceRules { board: 1_000_000_007, target: 1 << 40, faces: 99_991, rolls: 1 };
        let die = Die::new(&wide, 2);
        let pawns = die.pawns(&[1, 2]);
        assert!(Block::new(&pawns[0], 99_991).is_none());
        assert!(blocks(&pawns, wide.target).is_none());
        // The same game on a board small enough for its periods to be
        // learned, at a target the blocks must bisect for: the same end.
        let small = DiceRules { board: 1_000_003, target: 1 << 50, faces: 100, rolls: 7 };
        let die = Die::new(&small, 2);
        let pawns = die.pawns(&[1, 2]);
        let by_blocks = blocks(&pawns, small.target).unwrap();
        let by_periods = jump(&pawns, &periods(&pawns, u64::MAX).unwrap(), small.target);
        assert_eq!(by_blocks, by_periods);
    }
}
