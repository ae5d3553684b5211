//! # The deterministic game, at any target
//!
//! The die rolls `1, 2, ..., faces, 1, 2, ...`; players take turns in input
//! order, each rolling `rolls` times. The puzzle's game from starts 4 and 8:
//!
//! | turn | player | die offset | rolls | sum | lands on | score |
//! |---:|---:|---:|---|---:|---:|---:|
//! | 1 | 1 | 0 | 1+2+3 | 6 | 10 | 10 |
//! | 2 | 2 | 3 | 4+5+6 | 15 | 3 | 3 |
//! | 3 | 1 | 6 | 7+8+9 | 24 | 4 | 14 |
//! | 4 | 2 | 9 | 10+11+12 | 33 | 6 | 9 |
//! | ... | | | | | | |
//! | 331 | 1 | 90 | 91+92+93 | 276 | 10 | 1000 |
//!
//! Player 1 reaches 1000 after 993 rolls while player 2 has 745, so the
//! answer is 745 × 993 = 739,785. Simulating turn by turn is fine for a target
//! of 1000 but not for 10¹⁸. Three observations make any target instant.
//!
//! ## A turn's sum in closed form
//!
//! After `o` rolls (counted modulo `faces`) the next roll shows `o + 1`. A
//! turn's `rolls` values are `rolls` consecutive numbers of the cycle
//! `0, 1, ..., faces − 1` (plus one each), so with `T(n) = n(n − 1)/2` and
//! `rolls = q·faces + r`:
//!
//! ```text
//! sum(o) = rolls + q·T(faces) + (T(o + r) − T(o))                  if o + r ≤ faces
//! sum(o) = rolls + q·T(faces) + (T(faces) − T(o)) + T(o + r − faces) otherwise
//! ```
//!
//! Only the sum modulo the board moves the pawn, so every term is reduced
//! modulo `board` in 128-bit arithmetic: a turn costs O(1) whatever the
//! number of rolls or faces.
//!
//! ## Each pawn is periodic on its own
//!
//! A pawn's future depends only on its space and the die's offset when its
//! turn comes, and the other players never change either: each round of
//! `players` turns moves the offset by `players × rolls` (mod `faces`),
//! whatever happens on the board. So player `i` sees the offsets `i·rolls +
//! k·players·rolls`, which repeat every `L = faces / gcd(faces, players·rolls)`
//! of its turns. After `L` turns its pawn has moved `Δ` spaces (mod
//! `board`), so pawn and offset are both back where they started after
//! `L × board / gcd(board, Δ)` turns: the pawn's **period**. For the puzzle
//! `L = 50` and the period is at most 500 turns.
//!
//! ## Jumping whole periods
//!
//! Over one period a pawn gains a fixed `G` points, and its points per turn
//! repeat. Every turn scores at least 1, so after `q = (target − 1) / G`
//! periods the player is still short of the target by some `need` in
//! `1..=G`, and one more partial period finds the turn `k` that reaches it.
//! The winner is the player with the smallest `k` (the earlier player on a
//! tie, having moved first in that round). The others have played `k` turns
//! (if they come before the winner) or `k − 1`, and their scores are whole
//! periods plus a prefix of one more. Work: a few periods per player, never
//! the game's length.
//!
//! ## The fast path: when the board divides the die
//!
//! Then the die's wraps vanish modulo the board, a player's moves form an
//! arithmetic progression (`first + k × players × rolls²`), and its period
//! follows from two gcds instead of being learned: the puzzle's pawns repeat
//! every 5 and 10 turns, not 50 to 500. One period of each pawn is played
//! into a table of running points on the stack (a single allocation when
//! the periods are long); every arrival and score is then a division and a
//! search or lookup, and nothing divides in 128 bits. For the puzzle's own
//! rules and two players, the same code runs at compile time and fills the
//! tables of all ten starts of both players, so solving the puzzle is two
//! lookups, a few divisions and no loop over turns. `short` does this for
//! any such rules, and `puzzle` for the puzzle's own, writing the outcome
//! once from values held in registers; learning the periods turn by turn
//! is the reference both are tested against. The `dirac` module's
//! documentation works the puzzle through.
//!
//! ## Tables for any die
//!
//! When the board does not divide the die, a pawn's moves still repeat
//! every `L` turns (its offsets do), so `L` sums give all of them, and its
//! period is `L × board / gcd(board, Δ)` for the `Δ` they add up to. The
//! period is then played with one addition a turn into the same kind of
//! table (`tabled`), instead of a turn of several additions (below,
//! "Simulating with additions alone") on every turn of three passes over
//! it. Periods too long for the tables are learned.
//!
//! ## Sizes
//!
//! Scores reach at most `target + board − 1`, which may exceed 64 bits, so
//! they are `u128`; so are turns (at most `players × target`) and rolls, with
//! an error if the rolls reach 2¹²⁸ (up to 2¹²⁸ − 1 are answered). The
//! answer, a score times the rolls, is a [`Natural`]: a `u128` while it fits,
//! a big integer past that. A period is at most `faces × board` turns, which
//! can be astronomical.
//!
//! ## Periods too long to learn: blocks
//!
//! When learning the periods would exceed 20 million simulated turns (a
//! board of 2⁶⁴ − 1 spaces, or a die of a million faces), the pawns are
//! followed in *blocks* of `L` turns instead, as long as the blocks of all
//! players add up to at most 20 million turns (a die of up to ten million
//! faces for two players) and each pawn stands on at most 32,768 distinct
//! spaces over its block (always, on a board that small): a pawn's points
//! over `N` blocks are sums of the remainders of arithmetic progressions
//! modulo the board, one for each space of the block, counted by a floor
//! sum in `O(log board)` steps, so the block in which it reaches the target
//! is found by bisection (module [`blocks`](mod@blocks)).
//!
//! ## A die too long to cycle: the line of its wraps
//!
//! A die of 999,999,937 faces takes a billion turns to come back to an
//! offset, too many even for blocks. On a small board (`players × board²`
//! at most 65,536 states: 181 spaces for two players) the game is instead
//! *swept* along the line of the die's wraps, with the universal Euclidean
//! algorithm, in `O(log)` products of maps over those states whatever the
//! die and the target (the [`sweep`] module). It is also chosen before
//! learning periods whenever the die's cycle takes more turns than the
//! sweep costs, unless the game ends sooner. Otherwise the game is
//! simulated, leaping over long stretches of the die (below) where it can,
//! and if nobody wins within a billion turns played (about 2 s in
//! stretches of 256 turns or more, about 3 s in stretches of 64 to 255,
//! 3.5 to 5 s by walkers; refused at once when even the shortest
//! game the board allows is longer, or, where stretches are leapt over,
//! when learning their periods would be) the rules are refused with
//! [`RulesError::PeriodTooLong`].
//!
//! ## Simulating with additions alone
//!
//! A turn's sum is linear in the die's offset on either side of `faces −
//! rest` (past which a turn's rolls wrap), and the offset moves by the
//! same step, or that step less `faces`, from one of a pawn's turns to
//! the next. So a pawn that keeps the sum its turn would have on either
//! line plays a turn with a few comparisons and modular additions, and no
//! product nor remainder: a [`Walker`] (module [`walk`], which works the
//! lines out), 3 to 4 ns a turn against 16 to 27 ns for the closed-form
//! sum. Rounds are played in blocks, pawn by pawn, each pawn's turns in a
//! loop of its own whose only test is the target's, in registers.
//!
//! ## Simulating in stretches
//!
//! While a pawn's die offset neither wraps nor crosses `faces − rest`, its
//! turn's sum grows by a constant modulo the board from one of its turns
//! to the next. (An offset that moves by more than half the die a turn
//! moves back by less, and wraps every turn, yet still along a line within
//! one side.) Such stretches are played with two modular additions a turn,
//! about 1.7 ns when they are long; a die whose offset moves more than a
//! 64th of its faces a turn, forward or back, makes stretches too short to
//! beat walkers, which play it instead.
//!
//! ## Leaping over stretches
//!
//! Within a stretch a pawn's space and sum `(p, s)` become `(p + s, s +
//! step)` modulo the board `B` each turn: a bijection on `B²` states, so
//! they come back, and over each such period the pawn scores the same
//! points. The period is short: with `g = gcd(B, step)` the sum comes back
//! after `m = B / g` turns, having moved the pawn by `m·s + step·m(m − 1)/2`
//! spaces. Since `step·m = (step / g)·B`, the second term is `0` modulo `B`
//! when `m` is odd and `0` or `B / 2` when it is even, so the move is a
//! multiple of `m` or of `m / 2`, whose order modulo `B` is at most `2g`:
//! the period is at most `m × 2g = 2B` turns. On a board of up to 2^20
//! spaces, stretches of four such periods or more (eight times the board;
//! a die of 10^12 faces on a board of 997: one stretch of 10^11 turns) are
//! leapt over: one period of each pawn is played into a table of running
//! points, which tells, as [`tabled`] does for whole games, whether someone
//! reaches the target within the stretch, and the score of every pawn after
//! any number of turns. The limit then counts the turns played (those that
//! learn periods twice) rather than the game's turns, and a game is played
//! so only when the periods of the stretches it begins fit that limit (by
//! a lower bound). On a board of 833 with a die of 1.8 × 10^19 faces, four
//! players reach a target of 6 × 10^11 after 5.7 billion turns in a
//! millisecond. The bound only decides when a leap pays: `leap` (module
//! [`stretches`]) learns each period as it comes, and reads its table only
//! within it.

use smallvec::SmallVec;

use crate::arith::gcd;
use crate::error::{DiceError, RulesError};
use crate::natural::Natural;

use super::rules::{MAX_SIMULATED_TURNS, advance};
use super::{DiceRules, Starts};

mod blocks;
mod stretches;
mod sweep;
mod walk;

use walk::{Turns, Walker};

use blocks::blocks;
use stretches::{PLAY_FURTHER, played};

/// How a deterministic game ends.
///
/// # Examples
///
/// ```
/// use crabdice::{DiceRules, Starts, play_deterministic};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let outcome = play_deterministic(&starts, &DiceRules::deterministic())?;
/// assert_eq!(outcome.winner, 0);
/// assert_eq!(outcome.scores(), [1000, 745]);
/// assert_eq!(outcome.rolls, 993);
/// assert_eq!(outcome.answer, 739_785_u32);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeterministicOutcome {
    /// The winner's index in input order (0 for player 1).
    pub winner: usize,
    /// Every player's final score, in input order (inline for two players);
    /// see [`scores`](Self::scores).
    scores: Scores,
    /// Turns played, by all players together.
    pub turns: u128,
    /// Times the die was rolled.
    pub rolls: u128,
    /// The lowest score among the players who did not win, times the rolls.
    pub answer: Natural,
}

impl DeterministicOutcome {
    /// An outcome from its parts.
    pub(super) fn new(
        winner: usize,
        scores: Scores,
        turns: u128,
        rolls: u128,
        answer: Natural,
    ) -> Self {
        Self { winner, scores, turns, rolls, answer }
    }

    /// Every player's final score, in input order.
    pub fn scores(&self) -> &[u128] {
        &self.scores
    }
}

/// Final scores, without an allocation for two players.
pub(super) type Scores = SmallVec<[u128; 2]>;

/// Plays the deterministic game exactly, at any target.
///
/// Each pawn, with the die's offset at its turns, repeats after a period of
/// at most `faces × board` turns; the solver finds every pawn's period and
/// points over it, then jumps whole periods, so the cost does not depend on
/// the target (the [`dirac`](crate::dirac) module's documentation derives
/// it). When the board divides the die (the puzzle's 10 and 100) the
/// periods come in closed form and the game takes well under a microsecond;
/// otherwise each pawn's moves over its cycle of die offsets come with a
/// few additions each, whatever the number of rolls, and its period is
/// played from them (or learned turn by turn, when too long to table). A
/// period too long to learn is not needed while the die's offsets repeat
/// within 20 million turns of all players, over at most 32,768 spaces of
/// the board for each: the pawns are followed in blocks of those offsets,
/// by floor sums. Nor is it on a board small enough that players × board²
/// is at most 65,536 (181 spaces for two players), whatever the die: the
/// game is swept along the line of the die's wraps.
///
/// Refuses nonsense rules, starts off the board (naming the line), and
/// games beyond those blocks and boards that neither repeat within 20
/// million turns nor end within a billion (played turn by turn: two to
/// three seconds, 3.5 to 5 when the die's offset moves more than a 64th
/// of its faces a turn, forward or back) unless, on a board of at most
/// 2^20 spaces, the die's long stretches without a wrap are leapt over
/// (a billion turns of learning periods, then), and games whose rolls
/// reach 2^128 ([`RulesError::TooManyRolls`]).
///
/// # Examples
///
/// A target of 10¹² takes no longer than the puzzle's, and its answer does not
/// fit in 64 bits:
///
/// ```
/// use crabdice::{DiceRules, Starts, play_deterministic};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let rules = DiceRules { target: 1_000_000_000_000, ..DiceRules::deterministic() };
/// let outcome = play_deterministic(&starts, &rules)?;
/// assert!(outcome.answer > u64::MAX);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn play_deterministic(
    starts: &Starts,
    rules: &DiceRules,
) -> Result<DeterministicOutcome, DiceError> {
    rules.validate()?;
    starts.check(rules)?;
    if let Some(outcome) = puzzle(starts.positions(), rules) {
        return Ok(outcome);
    }
    let end = end(starts.positions(), rules, MAX_SIMULATED_TURNS)?;
    Ok(end.outcome(starts.players(), rules.rolls)?)
}

/// Only the winner of [`play_deterministic`]'s game (counted from 0), for a
/// caller that needs no roll count: the winner is known wherever the game
/// is, even where its rolls reach 2^128 and the whole outcome is refused.
/// (Its one caller has a die of one face, so the puzzle's tables, a
/// shortcut for the die of 100, are not looked at: `end` plays any rules.)
pub(crate) fn deterministic_winner(starts: &Starts, rules: &DiceRules) -> Result<usize, DiceError> {
    rules.validate()?;
    starts.check(rules)?;
    Ok(end(starts.positions(), rules, MAX_SIMULATED_TURNS)?.winner)
}

/// The puzzle's rules for two players, at any target, from the tables built
/// at compile time; `None` for other rules.
///
/// The outcome is written once, from values held in registers: it is 144
/// bytes, and building it in steps (the scores, then the rest) cost more
/// than the game's arithmetic, mostly in loads stalled on the halves of
/// `u128`s just stored.
fn puzzle(starts: &[u64], rules: &DiceRules) -> Option<DeterministicOutcome> {
    let [one, two] = *starts else { return None };
    if *rules != (DiceRules { target: rules.target, ..DiceRules::deterministic() }) {
        return None;
    }
    let (first, second) = (PUZZLE.table(0, one), PUZZLE.table(1, two));
    let (one, two) = (arrival(first, rules.target), arrival(second, rules.target));
    // Player 1 moves first in a round, so it wins a tie.
    let (winner, win, lost) = if one.turn <= two.turn {
        (0, one, score_after(second, one.turn - 1))
    } else {
        (1, two, score_after(first, two.turn))
    };
    let turns = (win.turn - 1) * 2 + winner as u128 + 1;
    // At most 2^66 turns (every turn scores), three rolls each: no overflow.
    let rolls = turns * u128::from(DiceRules::deterministic().rolls);
    let scores = if winner == 0 { [win.score, lost] } else { [lost, win.score] };
    Some(DeterministicOutcome {
        winner,
        scores: Scores::from_buf(scores),
        turns,
        rolls,
        answer: Natural::product(lost, rolls),
    })
}

/// How the game ends, for starts already on the board and valid rules,
/// simulating at most about `budget` turns; by the fast path if it applies.
fn end(starts: &[u64], rules: &DiceRules, budget: u64) -> Result<End, RulesError> {
    short(starts, rules).map_or_else(|| general(starts, rules, budget), Ok)
}

/// The game under any rules: from tables of running points when the
/// periods are short enough, by learning them turn by turn otherwise.
fn general(starts: &[u64], rules: &DiceRules, budget: u64) -> Result<End, RulesError> {
    let die = Die::new(rules, starts.len());
    let pawns = die.pawns(starts);
    tabled(&pawns, rules.target).map_or_else(|| learned(&pawns, rules.target, budget), Ok)
}

/// The game under any rules from every pawn's running points over its
/// period, when the periods add up to at most [`SHORT`] turns; `None`
/// otherwise.
///
/// A pawn sees `L` offsets of the die in turn, then the same again, so its
/// moves (modulo the board) repeat every `L` turns: `L` sums of a
/// [`Walker`] give all of them. Over `L` turns it moves `Δ`, so its period
/// is `L × board / gcd(board, Δ)` turns, played with one addition a turn
/// into a table for [`finish`], as the fast path does when the moves form a
/// progression. Learning the periods instead costs a [`Walker`]'s turn on
/// every turn of three passes over each period.
fn tabled(pawns: &[Pawn<'_>], target: u64) -> Option<End> {
    let die = pawns.first()?.die;
    let offsets = die.cycle_turns();
    // A period is at least L turns: give up before computing any move if
    // the periods cannot fit.
    let cycle = usize::try_from(offsets).ok()?;
    if cycle.checked_mul(pawns.len())? > SHORT {
        return None;
    }
    let mut moves = vec![0; cycle];
    let mut points = Vec::new();
    let mut periods = SmallVec::<[usize; PAWNS_ON_STACK]>::with_capacity(pawns.len());
    for pawn in pawns {
        let (mut walker, mut shift) = (pawn.walker(), 0);
        for step in &mut moves {
            *step = walker.next_sum();
            shift = add_mod(shift, *step, die.board);
        }
        let period = offsets.checked_mul(die.board / gcd(die.board, shift))?;
        // Points over a period are at most the board a turn, in a u64.
        period.checked_mul(die.board)?;
        let period = usize::try_from(period).ok()?;
        if points.len() + period > SHORT {
            return None;
        }
        let played = points.len();
        points.resize(played + period, 0);
        run(pawn.position, &moves, die.board, &mut points[played..]);
        periods.push(period);
    }
    let mut rest = &points[..];
    let tables: SmallVec<[&[u64]; PAWNS_ON_STACK]> = periods
        .iter()
        .map(|&period| {
            let (table, after) = rest.split_at(period);
            rest = after;
            table
        })
        .collect();
    Some(finish(&tables, target))
}

/// Plays a pawn from `position` (space minus one) with the repeating
/// `moves`, writing its running points after each turn into `points`.
fn run(position: u64, moves: &[u64], board: u64, points: &mut [u64]) {
    /// The loop, with `next(position, step)` moving a pawn.
    #[inline]
    fn fill(mut position: u64, moves: &[u64], points: &mut [u64], next: impl Fn(u64, u64) -> u64) {
        let mut total = 0;
        for (slot, &step) in points.iter_mut().zip(moves.iter().cycle()) {
            position = next(position, step);
            total += position + 1;
            *slot = total;
        }
    }
    if board <= u64::MAX / 2 {
        // Sums of two spaces fit: wrap without a branch to mispredict.
        fill(position, moves, points, |position, step| wrap(position + step, board));
    } else {
        fill(position, moves, points, |position, step| advance(position, step, board));
    }
}

/// The game by learning every pawn's period turn by turn, by blocks or by
/// sweeping the line of the die's wraps if the periods are too long to
/// learn within `budget` turns, or by simulating it. A game whose die
/// cycles through its offsets more slowly than the sweep would take is
/// swept first, or simulated if it may end sooner (no turn scores more
/// than the board). A game that may end within a 16th of the turns
/// learning the periods would take at least is simulated that far first:
/// eight players at target 2^64 − 1 on a board of 3.7 × 10^18 spaces,
/// whose game is 41 turns, took 2.6 s learning first.
fn learned(pawns: &[Pawn<'_>], target: u64, budget: u64) -> Result<End, RulesError> {
    let Some(die) = pawns.first().map(|pawn| pawn.die) else {
        return Err(RulesError::PeriodTooLong { limit: budget });
    };
    let players = pawns.len() as u128;
    if let Some(work) = sweep::work(pawns)
        && u128::from(work) < u128::from(die.cycle_turns()) * players
        && let Some(end) =
            simulated_within(pawns, target, work).or_else(|| sweep::swept(pawns, target))
    {
        return Ok(end);
    }
    // Learning the periods plays at least one cycle of the die's offsets
    // for each pawn: a game a 16th as long is played out first.
    let quick = u64::try_from(u128::from(die.cycle_turns()) * players / 16)
        .map_or(budget / 16, |turns| turns.min(budget / 16));
    if let Some(end) = simulated_within(pawns, target, quick) {
        return Ok(end);
    }
    if let Some(periods) = periods(pawns, budget) {
        return Ok(jump(pawns, &periods, target));
    }
    let limit = budget.saturating_mul(PLAY_FURTHER);
    blocks(pawns, target)
        .or_else(|| sweep::swept(pawns, target))
        .or_else(|| played(pawns, target, limit))
        .ok_or(RulesError::PeriodTooLong { limit })
}

/// The game played turn by turn ([`walk::walked`]), if it ends within
/// `turns` turns; `None` at once when even the [`shortest`] game would
/// take longer.
fn simulated_within(pawns: &[Pawn<'_>], target: u64, turns: u64) -> Option<End> {
    if shortest(pawns, target) > u128::from(turns) {
        return None;
    }
    walk::walked(pawns, target, turns)
}

/// The fewest turns the pawns' game to `target` can take ([`fewest_turns`];
/// 0 without pawns).
fn shortest(pawns: &[Pawn<'_>], target: u64) -> u128 {
    pawns.first().map_or(0, |pawn| fewest_turns(pawns.len(), target, pawn.die.board))
}

/// The fewest turns a game of `players` (one or more) to `target` on a
/// board of `board` spaces can take: a turn scores at most the board, so
/// the winner needs `⌈target/board⌉` turns of its own, and every player
/// before it as many but one.
pub(super) fn fewest_turns(players: usize, target: u64, board: u64) -> u128 {
    let own = u128::from(target.div_ceil(board));
    (own - 1) * players as u128 + 1
}

/// The most turns the tables hold: one period of every pawn.
const SHORT: usize = 1 << 16;

/// Points tables kept on the stack: enough for the puzzle's periods (5 and
/// 10 turns) and for most boards up to a few dozen spaces.
const TABLE_ON_STACK: usize = 64;

/// Players whose tables are kept on the stack.
const PAWNS_ON_STACK: usize = 4;

/// The fast path, when the board divides the die's faces and the pawns'
/// periods add up to at most [`SHORT`] turns; `None` otherwise.
///
/// Then a turn's move modulo the board does not depend on where the die
/// wraps, only on its offset modulo the board, and the moves of one player's
/// turns form an arithmetic progression modulo the board ([`Moves`]). Each
/// pawn's period is played once into a table of running points (on the
/// stack for short periods; for the puzzle's rules, at compile time); the
/// turn a pawn reaches the target is then a division and a search in its
/// table, and a score a division and a lookup ([`finish`]).
fn short(starts: &[u64], rules: &DiceRules) -> Option<End> {
    let moves = Moves::new(rules, starts.len())?;
    // Every pawn's period first, then its running points into one buffer.
    let mut periods = SmallVec::<[usize; PAWNS_ON_STACK]>::with_capacity(starts.len());
    let mut pawn = moves.first_pawn();
    let mut turns = 0;
    for _ in starts {
        let period = moves.period(pawn)?;
        turns += period;
        if turns > SHORT {
            return None;
        }
        periods.push(period);
        pawn = moves.next_pawn(pawn);
    }
    let mut on_stack = [0; TABLE_ON_STACK];
    let mut on_heap = Vec::new();
    let mut points = if turns <= TABLE_ON_STACK {
        &mut on_stack[..turns]
    } else {
        on_heap.resize(turns, 0);
        &mut on_heap[..]
    };
    let mut tables = SmallVec::<[&[u64]; PAWNS_ON_STACK]>::with_capacity(starts.len());
    let mut pawn = moves.first_pawn();
    for (&start, &period) in starts.iter().zip(&periods) {
        let (table, rest) = points.split_at_mut(period);
        moves.play(start, pawn, table);
        tables.push(table);
        points = rest;
        pawn = moves.next_pawn(pawn);
    }
    Some(finish(&tables, rules.target))
}

/// The moves of the fast path's pawns: player `i`'s move on its turn `k` is
/// `first(i) + k × step` (modulo the board), with `step = players ×
/// rolls²`, and each player's first move is `rolls²` further than the
/// previous one's (it starts `rolls` rolls later). The moves repeat every
/// `cycle = board / gcd(board, step)` turns, after which the pawn has moved
/// `Δ = cycle × first + step × T(cycle)`, so pawn and moves are back where
/// they started after `cycle × board / gcd(board, Δ)` turns: its period.
#[derive(Debug, Clone, Copy)]
struct Moves {
    board: u64,
    step: u64,
    /// `rolls²` modulo the board.
    squared: u64,
    cycle: u64,
    /// Player 1's first move and `Δ`.
    first: MovesOf,
    /// How much `Δ` grows from one player to the next: `cycle × rolls²`.
    next_shift: u64,
}

/// One player's first move and how far its pawn moves over a cycle.
#[derive(Debug, Clone, Copy)]
struct MovesOf {
    first: u64,
    shift: u64,
}

impl Moves {
    /// The moves when the board divides the die and is below 2^63 (so that
    /// sums of two spaces fit in a u64), for `players` players.
    const fn new(rules: &DiceRules, players: usize) -> Option<Self> {
        let &DiceRules { board, faces, rolls, .. } = rules;
        if !faces.is_multiple_of(board) || board > u64::MAX / 2 {
            return None;
        }
        let squared = mul_mod(reduce(rolls, board), reduce(rolls, board), board);
        let step = mul_mod(reduce(players as u64, board), squared, board);
        let cycle = board / gcd(board, step);
        let drift = mul_mod(step, triangle_mod(cycle, board), board);
        let first = sum_to_mod(rolls, board);
        // The cycle divides the board: it is below it, or the board itself.
        let cycle_mod = reduce(cycle, board);
        let shift = add_mod(mul_mod(cycle_mod, first, board), drift, board);
        let next_shift = mul_mod(cycle_mod, squared, board);
        Some(Self { board, step, squared, cycle, first: MovesOf { first, shift }, next_shift })
    }

    const fn first_pawn(&self) -> MovesOf {
        self.first
    }

    /// The next player's moves.
    const fn next_pawn(&self, pawn: MovesOf) -> MovesOf {
        MovesOf {
            first: add_mod(pawn.first, self.squared, self.board),
            shift: add_mod(pawn.shift, self.next_shift, self.board),
        }
    }

    /// A pawn's period in turns, if at most [`SHORT`] and if a period's
    /// points (at most period × board) fit in a u64.
    const fn period(&self, pawn: MovesOf) -> Option<usize> {
        match self.cycle.checked_mul(self.board / gcd(self.board, pawn.shift)) {
            Some(period) if period <= SHORT as u64 && period.checked_mul(self.board).is_some() => {
                Some(period as usize)
            }
            _ => None,
        }
    }

    /// Plays a pawn from space `start` for `points.len()` turns, writing its
    /// points after each turn.
    const fn play(&self, start: u64, pawn: MovesOf, points: &mut [u64]) {
        let (board, step) = (self.board, self.step);
        let (mut position, mut moves, mut total) = (start - 1, pawn.first, 0);
        let mut turn = 0;
        while turn < points.len() {
            // Sums of two spaces fit (the board is below 2^63).
            position = wrap(position + moves, board);
            moves = wrap(moves + step, board);
            total += position + 1;
            points[turn] = total;
            turn += 1;
        }
    }
}

/// `sum mod board` for `sum < 2 × board`, without a branch.
const fn wrap(sum: u64, board: u64) -> u64 {
    let less = sum.wrapping_sub(board);
    if less < sum { less } else { sum }
}

/// The puzzle's rules for two players, every start, played at compile time
/// by [`Moves`]: the puzzle's game is then a lookup, two divisions and two
/// searches.
const PUZZLE: Puzzle = Puzzle::new();

/// The longest period of a pawn under the puzzle's rules (checked when the
/// table is built).
const PUZZLE_PERIOD: usize = 10;

/// Running points over one period, by player and start (see [`PUZZLE`]).
struct Puzzle {
    periods: [usize; 2],
    points: [[[u64; PUZZLE_PERIOD]; PUZZLE_BOARD]; 2],
}

const PUZZLE_BOARD: usize = DiceRules::deterministic().board as usize;

impl Puzzle {
    const fn new() -> Self {
        let Some(moves) = Moves::new(&DiceRules::deterministic(), 2) else {
            panic!("the puzzle's board divides its die");
        };
        let mut puzzle = Self { periods: [0; 2], points: [[[0; PUZZLE_PERIOD]; PUZZLE_BOARD]; 2] };
        let mut pawn = moves.first_pawn();
        let mut player = 0;
        while player < 2 {
            let period = match moves.period(pawn) {
                Some(period) if period <= PUZZLE_PERIOD => period,
                _ => panic!("a pawn's period under the puzzle's rules exceeds PUZZLE_PERIOD"),
            };
            puzzle.periods[player] = period;
            let mut start = 1;
            while start <= PUZZLE_BOARD {
                let (table, _) = puzzle.points[player][start - 1].split_at_mut(period);
                moves.play(start as u64, pawn, table);
                start += 1;
            }
            pawn = moves.next_pawn(pawn);
            player += 1;
        }
        puzzle
    }

    /// Player `player`'s table from space `start` (on the board).
    fn table(&self, player: usize, start: u64) -> &[u64] {
        &self.points[player][start as usize - 1][..self.periods[player]]
    }
}

/// The end of the game from every pawn's running points over its period.
fn finish(tables: &[&[u64]], target: u64) -> End {
    End::first_to_arrive(
        tables.len(),
        |pawn| arrival(tables[pawn], target),
        |pawn, played| score_after(tables[pawn], played),
    )
}

/// The turn on which a pawn reaches the target (counted from 1), and its
/// score then.
#[derive(Debug, Clone, Copy)]
struct Arrival {
    turn: u128,
    score: u128,
}

/// When a pawn with running points `table` over its period reaches `target`.
#[inline]
fn arrival(table: &[u64], target: u64) -> Arrival {
    let gain = table[table.len() - 1];
    let whole = (target - 1) / gain;
    // Points strictly grow, and `need` is at most the gain: it is reached
    // within the period, on the turn after those that score less.
    let need = target - whole * gain;
    let turn = table.iter().filter(|&&points| points < need).count();
    Arrival {
        turn: u128::from(whole) * table.len() as u128 + turn as u128 + 1,
        score: u128::from(whole * gain) + u128::from(table[turn]),
    }
}

/// A pawn's score after `played` turns, from its running points `table`.
#[inline]
fn score_after(table: &[u64], played: u128) -> u128 {
    let period = table.len();
    // Turns are below 2^64 when the target is (every turn scores), but
    // divide as u128 if not, rather than trust it.
    let (whole, rest) = match u64::try_from(played) {
        Ok(played) => (u128::from(played / period as u64), played % period as u64),
        Err(_) => (played / period as u128, (played % period as u128) as u64),
    };
    // The remainder is below the period, a usize.
    let rest = match rest as usize {
        0 => 0,
        turns => table[turns - 1],
    };
    whole * u128::from(table[period - 1]) + u128::from(rest)
}

/// The end of a game: who won on which of its turns, and every score.
#[derive(Debug, PartialEq, Eq)]
struct End {
    winner: usize,
    winning_turn: u128,
    scores: Scores,
}

impl End {
    /// The end of a game whose pawn `i` (of `pawns`) would first reach the
    /// target as `arrival(i)` says: the earliest wins, the earlier player
    /// on a tie (it moves first in the round), and every other pawn scores
    /// `score_after(i, played)` over the turns it has played by then, as
    /// many as the winner if it comes before it, one fewer if after.
    #[inline]
    fn first_to_arrive(
        pawns: usize,
        arrival: impl Fn(usize) -> Arrival,
        score_after: impl Fn(usize, u128) -> u128,
    ) -> Self {
        let mut winner = (0, Arrival { turn: u128::MAX, score: 0 });
        for pawn in 0..pawns {
            let arrival = arrival(pawn);
            if arrival.turn < winner.1.turn {
                winner = (pawn, arrival);
            }
        }
        let (winner, Arrival { turn: winning_turn, score: winning_score }) = winner;
        let scores = (0..pawns).map(|pawn| {
            if pawn == winner {
                return winning_score;
            }
            let played = if pawn < winner { winning_turn } else { winning_turn - 1 };
            score_after(pawn, played)
        });
        End { winner, winning_turn, scores: scores.collect() }
    }

    /// The outcome for `players` players rolling `rolls` times a turn.
    #[inline]
    fn outcome(self, players: usize, rolls: u64) -> Result<DeterministicOutcome, RulesError> {
        // Rounds before the winning one, plus the winning round up to the winner.
        let turns = (self.winning_turn - 1) * players as u128 + self.winner as u128 + 1;
        let rolls = turns.checked_mul(u128::from(rolls)).ok_or(RulesError::TooManyRolls)?;
        let others = self.scores.iter().enumerate().filter(|&(i, _)| i != self.winner);
        let lowest = others.map(|(_, &score)| score).min().unwrap_or(0);
        let answer = Natural::product(lowest, rolls);
        Ok(DeterministicOutcome { winner: self.winner, scores: self.scores, turns, rolls, answer })
    }
}

/// The deterministic die, with what a turn's closed-form sum needs.
struct Die {
    board: u64,
    faces: u64,
    /// How far the die's offset moves between two turns of the same player.
    round_step: u64,
    /// `rolls` split as `full_cycles × faces + rest`.
    rest: u64,
    /// `rolls + full_cycles × T(faces)`, modulo the board.
    constant: u64,
    /// `T(faces)` modulo the board.
    cycle: u64,
    /// What a [`Walker`] adds a turn.
    lines: walk::Lines,
}

impl Die {
    fn new(rules: &DiceRules, players: usize) -> Self {
        let (board, faces, rolls) = (rules.board, rules.faces, rules.rolls);
        let cycle = triangle_mod(faces, board);
        let full = (rolls / faces) % board;
        let constant = mul_mod(full, cycle, board);
        let constant = add_mod(constant, rolls % board, board);
        let round_step = mul_mod(players as u64 % faces, rolls % faces, faces);
        let rest = rolls % faces;
        let lines = walk::Lines::new(board, faces, rest, round_step, constant, cycle);
        Self { board, faces, round_step, rest, constant, cycle, lines }
    }

    /// `L`: how many of its turns a pawn takes before the die's offset at
    /// its turn comes back.
    const fn cycle_turns(&self) -> u64 {
        self.faces / gcd(self.faces, self.round_step)
    }

    /// A pawn for each player, starting on `starts`.
    fn pawns(&self, starts: &[u64]) -> Vec<Pawn<'_>> {
        starts.iter().enumerate().map(|(i, &start)| self.pawn(i, start)).collect()
    }

    /// A pawn for player `index` (0-based) starting on space `start`.
    fn pawn(&self, index: usize, start: u64) -> Pawn<'_> {
        // Players before it rolled `rolls` times each; `rest` is rolls mod faces.
        let offset = mul_mod(index as u64 % self.faces, self.rest, self.faces);
        Pawn { die: self, position: start - 1, offset }
    }

    /// The sum of a turn whose first roll comes after `offset` rolls, modulo
    /// the board.
    fn turn_sum(&self, offset: u64) -> u64 {
        let (board, faces) = (self.board, self.faces);
        let partial = if self.rest <= faces - offset {
            sub_mod(triangle_mod(offset + self.rest, board), triangle_mod(offset, board), board)
        } else {
            let tail = sub_mod(self.cycle, triangle_mod(offset, board), board);
            add_mod(tail, triangle_mod(offset - (faces - self.rest), board), board)
        };
        add_mod(self.constant, partial, board)
    }
}

/// One player's pawn and the die's offset at its next turn.
#[derive(Clone)]
struct Pawn<'a> {
    die: &'a Die,
    /// Space minus one.
    position: u64,
    offset: u64,
}

impl<'a> Pawn<'a> {
    /// Plays one turn by its closed-form sum and returns the points
    /// scored: the reference a [`Walker`], which plays them,
    /// is tested against.
    #[cfg(test)]
    fn turn(&mut self) -> u64 {
        let die = self.die;
        self.position = advance(self.position, die.turn_sum(self.offset), die.board);
        self.offset = advance(self.offset, die.round_step, die.faces);
        self.position + 1
    }

    /// The pawn walked turn by turn, with additions alone.
    fn walker(&self) -> Walker<'a> {
        Walker::new(self)
    }

    /// The points of the next `turns` turns.
    fn points_over(&self, turns: u64) -> u128 {
        let mut walker = self.walker();
        (0..turns).map(|_| u128::from(walker.play())).sum()
    }
}

/// One pawn's period: its length in turns and the points gained over it.
#[derive(Clone, Copy)]
struct Period {
    turns: u64,
    gain: u128,
}

/// Every pawn's period, if learning them all stays within `budget` turns
/// (three passes over each period, plus the first `L` turns of each pawn).
fn periods(pawns: &[Pawn<'_>], budget: u64) -> Option<Vec<Period>> {
    let die = pawns.first()?.die;
    let offsets = die.cycle_turns();
    let mut spent = u128::from(offsets).checked_mul(pawns.len() as u128)?;
    if spent > u128::from(budget) {
        return None;
    }
    let mut lengths = Vec::with_capacity(pawns.len());
    for pawn in pawns {
        let mut moved = pawn.walker();
        for _ in 0..offsets {
            moved.play();
        }
        let shift = sub_mod(moved.position(), pawn.position, die.board);
        let turns = u128::from(offsets) * u128::from(die.board / gcd(die.board, shift));
        spent = spent.checked_add(turns.checked_mul(3)?)?;
        lengths.push(turns);
    }
    if spent > u128::from(budget) {
        return None;
    }
    let periods = pawns.iter().zip(lengths).map(|(pawn, turns)| {
        let turns = u64::try_from(turns).ok()?;
        Some(Period { turns, gain: pawn.points_over(turns) })
    });
    periods.collect()
}

/// The end of the game by jumping whole periods.
fn jump(pawns: &[Pawn<'_>], periods: &[Period], target: u64) -> End {
    let target = u128::from(target);
    // The turn on which a player would reach the target, and its score then.
    let arrival = |i: usize| {
        let period = periods[i];
        let whole = (target - 1) / period.gain;
        let need = target - whole * period.gain;
        let (mut walker, mut turn, mut score) = (pawns[i].walker(), 0_u128, 0_u128);
        while score < need {
            score += u128::from(walker.play());
            turn += 1;
        }
        Arrival {
            turn: whole * u128::from(period.turns) + turn,
            score: whole * period.gain + score,
        }
    };
    let score_after = |i: usize, played: u128| {
        let period = periods[i];
        let period_turns = u128::from(period.turns);
        // The remainder is below the period's length, a u64.
        let rest = (played % period_turns) as u64;
        (played / period_turns) * period.gain + pawns[i].points_over(rest)
    };
    End::first_to_arrive(pawns.len(), arrival, score_after)
}

/// The end of the game by plain simulation, one closed-form sum a turn,
/// if it comes within `budget` turns: the reference the faster ways of
/// playing turn by turn are tested against.
#[cfg(test)]
fn simulate(pawns: &[Pawn<'_>], target: u64, budget: u64) -> Option<End> {
    if pawns.is_empty() {
        return None;
    }
    let mut pawns = pawns.to_vec();
    let mut scores = Scores::from_elem(0, pawns.len());
    let mut turns = 0;
    for round in 1_u128.. {
        for (i, pawn) in pawns.iter_mut().enumerate() {
            if turns == budget {
                return None;
            }
            turns += 1;
            scores[i] += u128::from(pawn.turn());
            if scores[i] >= u128::from(target) {
                return Some(End { winner: i, winning_turn: round, scores });
            }
        }
    }
    None
}

/// `a × b mod m`, exact for any 64-bit operands (`m > 0`); a machine word
/// division when the product fits in one.
const fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    match a.checked_mul(b) {
        Some(product) if product < m => product,
        Some(product) => product % m,
        // The remainder is below m, a u64.
        None => ((a as u128 * b as u128) % m as u128) as u64,
    }
}

/// `n(n + 1)/2 mod m`, without overflow for any `n`.
const fn sum_to_mod(n: u64, m: u64) -> u64 {
    // n + 1 does not overflow when n is even (u64::MAX is odd).
    let (a, b) = if n.is_multiple_of(2) { (n / 2, n + 1) } else { (n, n / 2 + 1) };
    mul_mod(reduce(a, m), reduce(b, m), m)
}

/// `n mod m`, without a division when `n` is already below `m` (divisions
/// are most of the fast path's work).
const fn reduce(n: u64, m: u64) -> u64 {
    if n < m { n } else { n % m }
}

/// `a + b mod m` for `a, b < m`.
const fn add_mod(a: u64, b: u64, m: u64) -> u64 {
    advance(a, b, m)
}

/// `a − b mod m` for `a, b < m`.
const fn sub_mod(a: u64, b: u64, m: u64) -> u64 {
    if a >= b { a - b } else { m - (b - a) }
}

/// `T(n) = n(n − 1)/2 mod m`: halve the even factor first, so the product
/// of two 64-bit numbers fits in 128 bits.
const fn triangle_mod(n: u64, m: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let (a, b) = if n.is_multiple_of(2) { (n / 2, n - 1) } else { (n, (n - 1) / 2) };
    mul_mod(reduce(a, m), reduce(b, m), m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The game by learning the periods turn by turn: the reference for
    /// the tables.
    fn learn(starts: &[u64], rules: &DiceRules, budget: u64) -> Result<End, RulesError> {
        let die = Die::new(rules, starts.len());
        let pawns = die.pawns(starts);
        learned(&pawns, rules.target, budget)
    }

    /// A xorshift generator: numbers below `below`.
    pub(super) fn generator(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        }
    }

    /// The sum of a turn, roll by roll.
    fn slow_sum(offset: u64, rolls: u64, faces: u64) -> u64 {
        (0..rolls).map(|k| (offset + k) % faces + 1).sum()
    }

    #[test]
    fn closed_form_sums_match_rolling_one_by_one() {
        for faces in 1..14 {
            for rolls in 1..30 {
                for board in 1..12 {
                    let rules = DiceRules { board, target: 1, faces, rolls };
                    let die = Die::new(&rules, 2);
                    for offset in 0..faces {
                        let want = slow_sum(offset, rolls, faces) % board;
                        assert_eq!(die.turn_sum(offset), want, "{rules}, offset {offset}");
                    }
                }
            }
        }
    }

    #[test]
    fn huge_dice_do_not_overflow() {
        let rules = DiceRules { board: u64::MAX, target: 1, faces: u64::MAX, rolls: u64::MAX - 1 };
        let die = Die::new(&rules, 3);
        // rolls = faces - 1: values offset+1 .. wrapping, i.e. every value but
        // one; the sum of 1..=faces is T(faces) + faces ≡ T(faces) mod board.
        let all = triangle_mod(u64::MAX, u64::MAX);
        assert_eq!(die.turn_sum(0), all);
        // From offset 5 the turn rolls every value but 5, wrapping past the end.
        assert_eq!(die.turn_sum(5), sub_mod(all, 5, u64::MAX));
        assert_eq!(
            triangle_mod(u64::MAX, 7),
            ((u128::from(u64::MAX) * u128::from(u64::MAX - 1) / 2) % 7) as u64
        );
    }

    /// The fast path against the general one, wherever it applies: boards
    /// that divide the die, from one space to twelve, any number of rolls,
    /// two to six players, targets from 1 to 2^64 − 1.
    #[test]
    fn short_periods_agree_with_learning_the_periods_turn_by_turn() {
        let mut checked = 0;
        let mut random = generator(0x9e37_79b9_7f4a_7c15);
        for board in 1..=12 {
            for multiple in 1..=5 {
                for rolls in 1..=7 {
                    let faces = board * multiple;
                    let players = 2 + random(5) as usize;
                    let starts: Vec<u64> = (0..players).map(|_| 1 + random(board)).collect();
                    for target in [1, 2, 1 + random(1000), random(u64::MAX - 1) + 1, u64::MAX] {
                        let rules = DiceRules { board, target, faces, rolls };
                        let Some(fast) = short(&starts, &rules) else { continue };
                        let slow = learn(&starts, &rules, MAX_SIMULATED_TURNS);
                        assert_eq!(Ok(fast), slow, "{rules} {starts:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1500, "only {checked} games took the fast path");
    }

    /// Sweeping the line of the die's wraps gives the same end as
    /// simulation: small boards, dice with and without wraps mid-turn
    /// (`rolls` below, at and past `faces`), one to four players, and
    /// crowds of up to 40.
    #[test]
    fn sweeps_agree_with_simulation() {
        let mut random = generator(0x5eed_1e55);
        let mut checked = 0;
        for _ in 0..3000 {
            let crowd = random(5) == 0;
            let players = 1 + random(if crowd { 40 } else { 4 }) as usize;
            let board = 1 + random(12);
            let (faces, rolls, target) = (random(2), random(3), random(2));
            let faces = 1 + random(if faces == 0 { 8 } else { 200 });
            let rolls = 1 + random(if rolls == 0 { 3 * faces } else { 6 });
            let target = 1 + random(if target == 0 { 50 } else { 5000 });
            let rules = DiceRules { board, target, faces, rolls };
            let starts: Vec<u64> = (0..players).map(|_| 1 + random(board)).collect();
            let die = Die::new(&rules, players);
            let pawns = die.pawns(&starts);
            let Some(swept) = sweep::swept(&pawns, target) else {
                assert!(board * board * players as u64 > sweep::MAX_STATES as u64, "{rules}");
                continue;
            };
            let simulated = simulate(&pawns, target, u64::MAX).unwrap();
            assert_eq!(swept, simulated, "{rules} {starts:?}");
            checked += 1;
        }
        assert!(checked > 2500, "only {checked} games swept");
    }

    /// At targets up to 2⁶⁴ − 1 (lines longer than 2⁶⁴ turns, split in
    /// two), sweeps agree with jumping whole learned periods.
    #[test]
    fn sweeps_agree_with_learned_periods_at_any_target() {
        for (board, faces, rolls) in
            [(10, 100, 3), (10, 97, 3), (7, 1000, 1), (13, 12, 24), (16, 999, 1000)]
        {
            for players in 1..=3 {
                for target in [999_983, 1 << 40, u64::MAX - 7, u64::MAX] {
                    let rules = DiceRules { board, target, faces, rolls };
                    let die = Die::new(&rules, players);
                    let starts: Vec<u64> =
                        (0..players as u64).map(|i| 1 + (3 * i + 2) % board).collect();
                    let pawns = die.pawns(&starts);
                    let by_periods = jump(&pawns, &periods(&pawns, u64::MAX).unwrap(), target);
                    assert_eq!(sweep::swept(&pawns, target), Some(by_periods), "{rules} {players}");
                }
            }
        }
    }

    /// Where blocks still apply (a die of a million faces, a cycle of as
    /// many turns), sweeps agree with them at targets near 2⁶⁴, and so does
    /// the game (which sweeps it).
    #[test]
    fn sweeps_agree_with_blocks_on_a_die_of_a_million_faces() {
        for target in [1_000_000_000_000_000_000, u64::MAX] {
            let rules = DiceRules { board: 10, target, faces: 1_000_003, rolls: 3 };
            let die = Die::new(&rules, 2);
            let pawns = die.pawns(&[4, 8]);
            let by_blocks = blocks(&pawns, target).unwrap();
            assert_eq!(sweep::swept(&pawns, target).as_ref(), Some(&by_blocks));
            assert_eq!(learned(&pawns, target, MAX_SIMULATED_TURNS), Ok(by_blocks));
        }
    }

    /// The puzzle's rules, whose tables are built at compile time, from
    /// every pair of starts, against the general solver and the fast path's
    /// tables built at run time.
    #[test]
    fn the_puzzle_tables_agree_with_learning_the_periods() {
        let rules = DiceRules::deterministic();
        let targets = (1..=60).chain([999, 1000, 1001, 999_983, 1 << 40, u64::MAX - 1, u64::MAX]);
        for target in targets {
            let rules = DiceRules { target, ..rules };
            for one in 1..=10 {
                for two in 1..=10 {
                    let fast = puzzle(&[one, two], &rules).unwrap();
                    let slow = learn(&[one, two], &rules, MAX_SIMULATED_TURNS).unwrap();
                    assert_eq!(fast, slow.outcome(2, rules.rolls).unwrap(), "{one} {two} {target}");
                    let built = short(&[one, two], &rules).unwrap();
                    assert_eq!(Ok(built), learn(&[one, two], &rules, MAX_SIMULATED_TURNS));
                }
            }
            // Other rules are not the puzzle's.
            assert_eq!(puzzle(&[4, 8], &DiceRules { faces: 99, ..rules }), None);
            assert_eq!(puzzle(&[4, 8, 1], &rules), None);
            // Three players take the table-building path instead.
            let three = [4, 8, 1];
            assert_eq!(
                Ok(short(&three, &rules).unwrap()),
                learn(&three, &rules, MAX_SIMULATED_TURNS)
            );
        }
    }

    /// Tables from closed-form moves against learning the periods, for
    /// any die: boards from one space to 30, dice of 1 to 150 faces, 1 to
    /// 12 rolls, two to six players, targets from 1 to 2^64 − 1.
    #[test]
    fn tables_of_moves_agree_with_learning_the_periods_turn_by_turn() {
        let mut random = generator(0x2545_f491_4f6c_dd1d);
        let (mut from_tables, mut learning) = (0, 0);
        for _ in 0..3000 {
            let board = 1 + random(30);
            let rules =
                DiceRules { board, target: 1, faces: 1 + random(150), rolls: 1 + random(12) };
            let players = 2 + random(5) as usize;
            let starts: Vec<u64> = (0..players).map(|_| 1 + random(board)).collect();
            for target in [1, 2, 1 + random(5000), random(u64::MAX - 1) + 1, u64::MAX] {
                let rules = DiceRules { target, ..rules };
                let die = Die::new(&rules, players);
                let pawns = die.pawns(&starts);
                let reference = learn(&starts, &rules, MAX_SIMULATED_TURNS);
                match tabled(&pawns, target) {
                    Some(end) => {
                        assert_eq!(Ok(end), reference, "{rules} {starts:?}");
                        from_tables += 1;
                    }
                    None => learning += 1,
                }
                assert_eq!(general(&starts, &rules, MAX_SIMULATED_TURNS), reference);
            }
        }
        // Periods of at most 150 × 30 turns a pawn always fit the tables.
        assert_eq!((from_tables, learning), (15_000, 0));
    }

    #[test]
    fn periods_too_long_for_the_fast_path_are_left_to_the_general_one() {
        // Board 1009 (prime), 3 rolls, 2 players: step 18, cycle 1009.
        let rules = DiceRules { board: 1009, target: 1000, faces: 1009, rolls: 3 };
        assert!(short(&[1, 2], &rules).is_some());
        let huge = DiceRules { board: 1 << 40, target: 1000, faces: 1 << 40, rolls: 3 };
        assert!(short(&[1, 2], &huge).is_none());
        let starts = crate::Starts::new(vec![1, 2]).expect("two players");
        let outcome = end(&[1, 2], &huge, MAX_SIMULATED_TURNS).unwrap().outcome(2, huge.rolls);
        let literal = crate::play_deterministic_literal(&starts, &huge).unwrap();
        assert_eq!(outcome.unwrap(), literal);
        // The die not a multiple of the board: the wraps matter.
        let odd = DiceRules { faces: 99, ..DiceRules::deterministic() };
        assert!(short(&[4, 8], &odd).is_none());
        // Periods of 1013 × 1009 turns do not fit the tables either.
        let long = DiceRules { board: 1009, target: 1 << 50, faces: 1013, rolls: 3 };
        let die = Die::new(&long, 2);
        let pawns = [die.pawn(0, 1), die.pawn(1, 2)];
        assert!(tabled(&pawns, long.target).is_none());
        assert_eq!(
            end(&[1, 2], &long, MAX_SIMULATED_TURNS),
            learned(&pawns, long.target, MAX_SIMULATED_TURNS)
        );
        // Learned to a target the literal game reaches in 12,000 rolls or so.
        let reachable = DiceRules { target: 1_000_000, ..long };
        assert!(tabled(&pawns, reachable.target).is_none());
        let outcome = end(&[1, 2], &reachable, MAX_SIMULATED_TURNS).unwrap().outcome(2, 3);
        let literal = crate::play_deterministic_literal(&starts, &reachable).unwrap();
        assert_eq!(outcome.unwrap(), literal);
    }

    #[test]
    fn a_game_that_neither_repeats_nor_ends_within_the_budget_is_refused() {
        // The die's offset moves 6 a turn: played in stretches, 50 times
        // the budget; two thirds of the die a turn, by walkers, as far.
        let rules = DiceRules { board: 1_000_003, target: 1 << 60, faces: 999_983, rolls: 3 };
        for rules in [rules, DiceRules { rolls: 333_331, ..rules }] {
            assert_eq!(
                end(&[1, 2], &rules, 10_000).unwrap_err(),
                RulesError::PeriodTooLong { limit: 500_000 },
                "{rules}"
            );
        }
        // With a budget large enough the periods are learned instead; with
        // a smaller one, the die's 97 offsets make blocks short enough.
        let small = DiceRules { board: 101, target: 1_000_000_000, faces: 97, rolls: 3 };
        assert!(learn(&[1, 2], &small, 1_000_000).is_ok());
        assert_eq!(learn(&[1, 2], &small, 10_000), learn(&[1, 2], &small, 1_000_000));
        // Tables of periods up to 97 × 101 turns need no budget.
        assert_eq!(end(&[1, 2], &small, 10_000), learn(&[1, 2], &small, 1_000_000));
    }
}
