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
//! every `L` turns (its offsets do), so `L` closed-form sums give all of
//! them, and its period is `L × board / gcd(board, Δ)` for the `Δ` they add
//! up to. The period is then played with one addition a turn into the same
//! kind of table (`tabled`), instead of a closed-form sum on every turn of
//! three passes over it. Periods too long for the tables are learned.
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
//! is found by bisection ([`blocks`]).
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
//! and if nobody wins within a billion turns played (200 million when
//! the die's offset moves more than a 32nd of the die a turn, forward or
//! back; about two seconds either way; refused at once when even the
//! shortest game the board allows is longer, or, where stretches are
//! leapt over, when learning their periods would be) the rules are
//! refused with [`RulesError::PeriodTooLong`].
//!
//! ## Simulating in stretches
//!
//! While a pawn's die offset neither wraps nor crosses `faces − rest`
//! (past which a turn's rolls wrap), a turn's sum is linear in the offset,
//! so from one of the pawn's turns to the next it grows by a constant
//! modulo the board. (An offset that moves by more than half the die a
//! turn moves back by less, and wraps every turn, yet still along a line
//! within one side.) Simulation plays such stretches with two modular
//! additions a turn, the rounds every pawn can play within its stretch in a
//! loop whose only test is the target's: about 2.4 ns a turn, against 11
//! ns for a closed-form sum of 128-bit products and remainders each turn.
//! A die whose offset moves by more than a 32nd of its faces a turn,
//! forward or back, makes stretches too short to pay, and is played one
//! closed-form sum a turn.
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
//! millisecond. The bound only decides when a leap pays: [`leap`] learns
//! each period as it comes, and reads its table only within it.

use smallvec::SmallVec;

use crate::arith::gcd;
use crate::error::{DiceError, RulesError};
use crate::natural::Natural;

use super::rules::{MAX_SIMULATED_TURNS, advance};
use super::{DiceRules, Starts};

mod sweep;

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
/// periods come in closed form and the game takes well under a
/// microsecond; otherwise each pawn's moves over its cycle of die offsets
/// come in closed form whatever the number of rolls, and its period is
/// played from them (or learned turn by turn, when too long to table). A
/// period too long to learn is not needed while the die's offsets repeat
/// within 20 million turns of all players, over at most 32,768 spaces of
/// the board for each: the pawns are followed in blocks of those offsets,
/// by floor sums. Nor is it on a board of at most 65,536 / players
/// squares (181 spaces for two players), whatever the die: the game is
/// swept along the line of the die's wraps.
///
/// Refuses nonsense rules, starts off the board (naming the line), and
/// games beyond those blocks and boards that neither repeat within 20
/// million turns nor end within a billion (200 million for a die whose
/// offset moves more than a 32nd of its faces a turn, forward or back;
/// played turn by turn: about two seconds) unless, on a board of at most
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
/// moves (modulo the board) repeat every `L` turns: `L` closed-form sums
/// give all of them. Over `L` turns it moves `Δ`, so its period is `L ×
/// board / gcd(board, Δ)` turns, played with one addition a turn into a
/// table for [`finish`], as the fast path does when the moves form a
/// progression. Learning the periods instead costs a closed-form sum on
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
        let (mut offset, mut shift) = (pawn.offset, 0);
        for step in &mut moves {
            *step = die.turn_sum(offset);
            shift = add_mod(shift, *step, die.board);
            offset = advance(offset, die.round_step, die.faces);
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
/// than the board).
fn learned(pawns: &[Pawn<'_>], target: u64, budget: u64) -> Result<End, RulesError> {
    let Some(die) = pawns.first().map(|pawn| pawn.die) else {
        return Err(RulesError::PeriodTooLong { limit: budget });
    };
    let players = pawns.len() as u128;
    if let Some(work) = sweep::work(pawns)
        && u128::from(work) < u128::from(die.cycle_turns()) * players
    {
        let quick = if shortest(pawns, target) <= u128::from(work) {
            simulate(pawns, target, work)
        } else {
            None
        };
        if let Some(end) = quick.or_else(|| sweep::swept(pawns, target)) {
            return Ok(end);
        }
    }
    if let Some(periods) = periods(pawns, budget) {
        return Ok(jump(pawns, &periods, target));
    }
    let limit = budget.saturating_mul(play_further(die));
    blocks(pawns, target)
        .or_else(|| sweep::swept(pawns, target))
        .or_else(|| played(pawns, target, limit))
        .ok_or(RulesError::PeriodTooLong { limit })
}

/// How many times further than learning periods the game is played turn
/// by turn when nothing else applies. Learning keeps a table of every turn;
/// plain play keeps nothing, so it can afford to go further: 50 times (a
/// billion turns for the default budget, about 2.4 s) in [`Stretch`]es, at
/// about 2.4 ns a turn; 10 times (200 million turns, about 2 s) one turn at
/// a time, at about 11 ns.
const fn play_further(die: &Die) -> u64 {
    if in_stretches(die) { 50 } else { 10 }
}

/// Whether the game is played in [`Stretch`]es: when the die's offset
/// moves by at most a 32nd of the die a turn, forward or back (a step of
/// `faces − k` is `k` back), so that they last 16 turns or more on
/// average. Shorter ones cost more than a closed-form sum a turn (1.4× the
/// time with a step of a third of the die).
const fn in_stretches(die: &Die) -> bool {
    stretch_turns(die) >= 32
}

/// The end of the game played turn by turn, if it comes within `limit`
/// turns; `None` at once when even the [`shortest`] game would take
/// longer. When stretches may be leapt over ([`leaps`]) and learning
/// the periods of those it begins would not pass `limit` (by a lower
/// bound), `limit` bounds the turns played one by one instead.
fn played(pawns: &[Pawn<'_>], target: u64, limit: u64) -> Option<End> {
    let die = pawns.first()?.die;
    let shortest = shortest(pawns, target);
    if leaps(die) {
        // Each pawn learns a period in every stretch it leaps over, two
        // turns of the limit a turn, of at least `least_period` turns.
        let stretches = shortest / u128::from(stretch_turns(die)) * pawns.len() as u128;
        let work = stretches * u128::from(least_period(die)) * 2;
        if work <= u128::from(limit) {
            return stretched(pawns, target, limit, true);
        }
    }
    if shortest > u128::from(limit) {
        return None;
    }
    if in_stretches(die) {
        stretched(pawns, target, limit, false)
    } else {
        simulate(pawns, target, limit)
    }
}

/// The most turns a pawn's stretch lasts: the die's offset moves by
/// `round_step` a turn (or `faces − round_step` back), and its sides are
/// at most `faces` long. `u64::MAX` when it does not move.
const fn stretch_turns(die: &Die) -> u64 {
    let step = die.round_step;
    let shortest = if step <= die.faces - step { step } else { die.faces - step };
    match die.faces.checked_div(shortest) {
        Some(turns) => turns,
        None => u64::MAX,
    }
}

/// The largest board on which stretches are leapt over: a pawn's period
/// within a stretch is at most `2 × board` turns, so its table takes up to
/// 16 MiB.
const LEAP_BOARD: u64 = 1 << 20;

/// Whether stretches are leapt over ([`leap`]): on a board of at most
/// [`LEAP_BOARD`] spaces, when a stretch can be [`worth_a_leap`].
const fn leaps(die: &Die) -> bool {
    in_stretches(die) && die.board <= LEAP_BOARD && worth_a_leap(stretch_turns(die), die.board)
}

/// Whether `turns` turns of a stretch hold four periods of the longest
/// kind (`2 × board` turns), so that leaping over them pays.
const fn worth_a_leap(turns: u64, board: u64) -> bool {
    turns / 8 >= board
}

/// The fewest turns of a period [`leap`] learns: a pawn's state comes
/// back only once its sum does, which grows by the stretch's step, so
/// after `board / gcd(board, step)` turns at least. The step is the same
/// in every stretch of a side of the die (rolls that wrap or not) and a
/// direction; the least over the sides is taken.
fn least_period(die: &Die) -> u64 {
    if die.round_step == 0 {
        // One stretch, the whole game: a period of one turn at least.
        return 1;
    }
    let forward = die.round_step <= die.faces - die.round_step;
    // The start of each side's longest stretch: up from its bottom, or
    // down from its top.
    let sides =
        if forward { [0, die.faces - die.rest + 1] } else { [die.faces - die.rest, die.faces - 1] };
    sides
        .into_iter()
        .filter(|&offset| offset < die.faces)
        .filter_map(|offset| {
            let mut stretch = Stretch::new(Pawn { die, position: 0, offset });
            stretch.begin();
            (stretch.left > 1).then(|| die.board / gcd(die.board, stretch.step))
        })
        .min()
        .unwrap_or(1)
}

/// [`played`] in [`Stretch`]es: the rounds every pawn can play within its
/// stretch are played with no test but the target's, or, if `leap` and
/// they are [`worth_a_leap`], leapt over whole ([`leap`]). `limit` bounds
/// the turns played one by one, periods included, and without leaps the
/// game's turns.
fn stretched(pawns: &[Pawn<'_>], target: u64, limit: u64, leap: bool) -> Option<End> {
    if pawns.is_empty() {
        return None;
    }
    let players = pawns.len() as u64;
    let mut stretches: Vec<Stretch<'_>> = pawns.iter().cloned().map(Stretch::new).collect();
    let mut scores = Scores::from_elem(0, pawns.len());
    let (target, mut turns, mut round) = (u128::from(target), 0, 0_u128);
    loop {
        // Whole rounds within every pawn's stretch and the limit, played
        // with no other test than the target's.
        for stretch in stretches.iter_mut().filter(|s| s.left == 0) {
            stretch.begin();
        }
        let whole = stretches.iter().map(|s| s.left).min().unwrap_or(0);
        if leap && whole != u64::MAX && worth_a_leap(whole, pawns[0].die.board) {
            // A turn learning a period costs about two played (it keeps its
            // points and compares its state).
            let left = (limit - turns) / 2;
            match self::leap(&mut stretches, &mut scores, round, whole, target, left) {
                Leap::Ended(end) => return Some(end),
                Leap::Over { searched } => {
                    round += u128::from(whole);
                    for stretch in &mut stretches {
                        stretch.left -= whole;
                    }
                    turns += 2 * searched;
                    continue;
                }
                Leap::Refused => {}
            }
        }
        let whole = whole.min((limit - turns) / players);
        if whole == 0 {
            // Fewer turns than a round are left before the limit.
            break;
        }
        for _ in 0..whole {
            round += 1;
            for (i, (stretch, score)) in stretches.iter_mut().zip(scores.iter_mut()).enumerate() {
                *score += u128::from(stretch.play());
                if *score >= target {
                    return Some(End { winner: i, winning_turn: round, scores });
                }
            }
        }
        for stretch in &mut stretches {
            stretch.left -= whole;
        }
        turns += whole * players;
    }
    // The round the limit falls in, turn by turn.
    round += 1;
    for (i, stretch) in stretches.iter_mut().enumerate() {
        if turns == limit {
            return None;
        }
        turns += 1;
        scores[i] += u128::from(stretch.turn());
        if scores[i] >= target {
            return Some(End { winner: i, winning_turn: round, scores });
        }
    }
    None
}

/// What [`leap`] did.
enum Leap {
    /// The game ends within the rounds leapt over.
    Ended(End),
    /// It does not: every pawn was moved over them, at the cost of
    /// `searched` turns played to learn the periods.
    Over { searched: u64 },
    /// Learning the periods would pass the limit: nothing was moved.
    Refused,
}

/// Leaps over `rounds` rounds (after `round` rounds played) of
/// `stretches`, within each of which a pawn's sum grows by a constant step
/// modulo the board: the pawn's space and sum `(p, s)` become `(p + s, s +
/// step)`, a bijection on at most `board²` states, so they come back to
/// where they are, within `2 × board` turns (see "Leaping over stretches"
/// above): its period, over which it gains the same points every time.
/// One period of each pawn, played into a table of running points, tells
/// when it would reach the target and its score after any number of turns,
/// as [`tabled`] does for whole games; the pawns are then moved over the
/// rounds, unless someone wins in them. The tables are kept for the
/// scores if someone wins, up to [`KEPT_PERIODS`] turns in all; past that
/// (on wide boards with many players: a table takes up to 16 MiB) the
/// others' periods are learned again. `limit` bounds the turns played to
/// learn the periods the first time.
fn leap(
    stretches: &mut [Stretch<'_>],
    scores: &mut Scores,
    round: u128,
    rounds: u64,
    target: u128,
    limit: u64,
) -> Leap {
    let mut searched = 0_u64;
    let mut learned = Vec::with_capacity(stretches.len());
    for (stretch, &score) in stretches.iter().zip(scores.iter()) {
        let Some(table) = period(stretch, limit - searched) else { return Leap::Refused };
        searched += table.len() as u64;
        // Nobody has reached the target yet, so what each still needs fits.
        let need = u64::try_from(target - score).unwrap_or(u64::MAX);
        learned.push(Learned {
            arrival: arrival(&table, need),
            gained: score_after(&table, u128::from(rounds)),
            period: table.len() as u64,
            table: (searched <= KEPT_PERIODS).then_some(table),
        });
    }
    if learned.iter().any(|pawn| pawn.arrival.turn <= u128::from(rounds)) {
        return Leap::Ended(End::first_to_arrive(
            stretches.len(),
            |i| {
                let Arrival { turn, score } = learned[i].arrival;
                Arrival { turn: round + turn, score: scores[i] + score }
            },
            |i, played| {
                let learned_again;
                let table = if let Some(table) = &learned[i].table {
                    table
                } else {
                    learned_again = period(&stretches[i], u64::MAX)
                        .unwrap_or_else(|| unreachable!("a period learned once comes back again"));
                    &learned_again
                };
                scores[i] + score_after(table, played - round)
            },
        ));
    }
    for ((stretch, score), pawn) in stretches.iter_mut().zip(scores.iter_mut()).zip(learned) {
        *score += pawn.gained;
        for _ in 0..rounds % pawn.period {
            stretch.play();
        }
    }
    Leap::Over { searched }
}

/// What [`leap`] learned of a pawn's period.
struct Learned {
    /// When it would reach the target, counted from the leap.
    arrival: Arrival,
    /// Its points over the rounds leapt.
    gained: u128,
    /// The period's length in turns.
    period: u64,
    /// Its running points over the period, unless past [`KEPT_PERIODS`].
    table: Option<Vec<u64>>,
}

/// The most turns of periods [`leap`] keeps in tables at once: 8 MiB.
const KEPT_PERIODS: u64 = 1 << 20;

/// The running points of `stretch`'s pawn over one period within its
/// stretch (see [`leap`]), or `None` if it takes more than `limit` turns.
fn period(stretch: &Stretch<'_>, limit: u64) -> Option<Vec<u64>> {
    let board = stretch.pawn.die.board;
    let (start, step) = ((stretch.pawn.position, stretch.sum), stretch.step);
    let (mut position, mut sum, mut total) = (start.0, start.1, 0);
    let mut table = Vec::new();
    for _ in 0..limit {
        (position, sum) = Stretch::next(position, sum, step, board);
        total += position + 1;
        table.push(total);
        if (position, sum) == start {
            return Some(table);
        }
    }
    None
}

/// A pawn played a stretch of turns at a time (see "Simulating in
/// stretches" above): a turn's sum is a constant plus `rest × offset` up
/// to `faces − rest`, or minus `(faces − rest) × offset` past it, modulo
/// the board, so within a stretch it grows by a constant step. A stretch
/// lasts up to `faces / round_step` turns.
#[derive(Clone)]
struct Stretch<'a> {
    pawn: Pawn<'a>,
    /// The sum of the next turn, modulo the board.
    sum: u64,
    /// How the sum grows from turn to turn in this stretch.
    step: u64,
    /// Turns left in this stretch.
    left: u64,
}

impl<'a> Stretch<'a> {
    /// `pawn`, its first stretch not yet begun.
    fn new(pawn: Pawn<'a>) -> Self {
        Self { pawn, sum: 0, step: 0, left: 0 }
    }

    /// Plays one turn and returns the points scored, as [`Pawn::turn`].
    fn turn(&mut self) -> u64 {
        if self.left == 0 {
            self.begin();
        }
        self.left -= 1;
        self.play()
    }

    /// Plays one turn of the stretch, leaving `left` to the caller, and
    /// returns the points scored.
    #[inline]
    fn play(&mut self) -> u64 {
        (self.pawn.position, self.sum) =
            Self::next(self.pawn.position, self.sum, self.step, self.pawn.die.board);
        self.pawn.position + 1
    }

    /// A turn within a stretch: the pawn moves by the sum, which grows by
    /// the step, both modulo the board.
    #[inline]
    const fn next(position: u64, sum: u64, step: u64, board: u64) -> (u64, u64) {
        (advance(position, sum, board), add_mod(sum, step, board))
    }

    /// Begins the stretch at the pawn's offset, and moves the offset to
    /// the one after it.
    fn begin(&mut self) {
        let die = self.pawn.die;
        let (offset, faces, rest, step) = (self.pawn.offset, die.faces, die.rest, die.round_step);
        self.sum = die.turn_sum(offset);
        if step == 0 {
            // Every turn starts at the same offset.
            (self.left, self.step) = (u64::MAX, 0);
            return;
        }
        // The offsets `0..=faces − rest` and `faces − rest + 1..faces`
        // (offsets are below `faces`) are the two sides.
        let (low, high) = if offset <= faces - rest {
            // `rest` is not 0 here (that makes the step 0), so `faces −
            // rest` is an offset.
            (0, faces - rest)
        } else {
            (faces - rest + 1, faces - 1)
        };
        // The stretch goes up to `high` before the die wraps, or, when a
        // step of more than half the die is a smaller step back, down to
        // `low`: wrapping every turn, the offset still moves along a line.
        let back = faces - step;
        let (left, end) = if step <= back {
            let left = (high - offset) / step + 1;
            // Below `faces`, so no overflow.
            (left, offset + (left - 1) * step)
        } else {
            let left = (offset - low) / back + 1;
            (left, offset - (left - 1) * back)
        };
        self.left = left;
        self.step = if left > 1 {
            sub_mod(die.turn_sum(advance(offset, step, faces)), self.sum, die.board)
        } else {
            0
        };
        self.pawn.offset = advance(end, step, faces);
    }
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
fn blocks(pawns: &[Pawn<'_>], target: u64) -> Option<End> {
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
        let mut walker = pawn.clone();
        let mut counts = rustc_hash::FxHashMap::default();
        for _ in 0..turns {
            walker.turn();
            *counts.entry(walker.position).or_insert(0_u64) += 1;
            if counts.len() > BLOCK_SPACES {
                return None;
            }
        }
        let shift = sub_mod(walker.position, pawn.position, pawn.die.board);
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
        let mut walker = self.pawn.clone();
        (0..self.turns).map(move |_| {
            walker.turn();
            (u128::from(walker.position) + moved) % board + 1
        })
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
fn floor_sum(n: u128, m: u128, a: u128, b: u128) -> u128 {
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
}

impl Die {
    fn new(rules: &DiceRules, players: usize) -> Self {
        let (board, faces, rolls) = (rules.board, rules.faces, rules.rolls);
        let cycle = triangle_mod(faces, board);
        let full = (rolls / faces) % board;
        let constant = mul_mod(full, cycle, board);
        let constant = add_mod(constant, rolls % board, board);
        let round_step = mul_mod(players as u64 % faces, rolls % faces, faces);
        Self { board, faces, round_step, rest: rolls % faces, constant, cycle }
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

impl Pawn<'_> {
    /// Plays one turn and returns the points scored.
    fn turn(&mut self) -> u64 {
        let die = self.die;
        self.position = advance(self.position, die.turn_sum(self.offset), die.board);
        self.offset = advance(self.offset, die.round_step, die.faces);
        self.position + 1
    }

    /// The points of the next `turns` turns, from a fresh copy.
    fn points_over(&self, turns: u64) -> u128 {
        let mut pawn = self.clone();
        (0..turns).map(|_| u128::from(pawn.turn())).sum()
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
        let mut moved = pawn.clone();
        for _ in 0..offsets {
            moved.turn();
        }
        let shift = sub_mod(moved.position, pawn.position, die.board);
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
        let (mut pawn, mut turn, mut score) = (pawns[i].clone(), 0_u128, 0_u128);
        while score < need {
            score += u128::from(pawn.turn());
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

/// The end of the game by plain simulation, if it comes within `budget` turns.
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
    fn generator(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        }
    }

    /// A stretch started from `pawn` scores as the pawn does, turn by turn,
    /// for `turns` turns.
    fn stretch_follows(mut pawn: Pawn<'_>, turns: u32, what: &str) {
        let mut stretch = Stretch::new(pawn.clone());
        for turn in 0..turns {
            assert_eq!(stretch.turn(), pawn.turn(), "{what}, turn {turn}");
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
    fn stretches_score_every_turn_as_the_closed_form_does() {
        // Dice of every shape: rolls below, at and past the faces (the
        // stretch's two sides of `faces − rest`), steps forward and back,
        // steps that divide the faces or not, a step of 0, and 64-bit boards
        // and dice.
        let mut random = generator(0x5eed_1e55);
        let mut rules = Vec::new();
        for _ in 0..400 {
            let board =
                [1 + random(12), 1 + random(1000), u64::MAX - random(1000)][random(3) as usize];
            let faces =
                [1 + random(40), 1 + random(5000), u64::MAX - random(1000)][random(3) as usize];
            // A roll or three short of the die steps back.
            let rolls = [
                1 + random(90),
                faces,
                faces.saturating_mul(2).saturating_add(1 + random(7)),
                faces.saturating_sub(1 + random(3)).max(1),
            ][random(4) as usize];
            rules.push((1 + random(4) as usize, DiceRules { board, target: 1, faces, rolls }));
        }
        // One step of 0: two players rolling half the faces each turn.
        rules.push((2, DiceRules { board: 17, target: 1, faces: 10, rolls: 5 }));
        for (players, rules) in rules {
            let die = Die::new(&rules, players);
            let pawn = die.pawn(random(players as u64) as usize, 1 + random(rules.board));
            // Past several wraps of a small die's offsets.
            stretch_follows(pawn, 3_000, &format!("{rules}, {players} players"));
        }
    }

    #[test]
    fn stretches_cross_the_wraps_of_64_bit_dice_as_the_closed_form_does() {
        // Pawns started just before the die wraps or just before
        // `faces − rest`, on dice and boards of up to 2^64 − 1, with rolls
        // below and past the faces (2^62 faces leave room for two cycles).
        let mut random = generator(0xface_0ff5);
        for _ in 0..600 {
            let faces = [u64::MAX - random(1000), (1 << 62) + random(1000), 1 + random(1 << 40)]
                [random(3) as usize];
            let rolls =
                [1 + random(20), faces - 1 - random(3).min(faces - 1), faces + 1 + random(9)]
                    [random(3) as usize];
            let Some(rolls) = (rolls <= faces.saturating_mul(3)).then_some(rolls) else { continue };
            let board = [u64::MAX - random(1000), 1 + random(1 << 40)][random(2) as usize];
            let rules = DiceRules { board, target: 1, faces, rolls };
            let players = 1 + random(4) as usize;
            let die = Die::new(&rules, players);
            // A few steps before a wrap or `faces − rest`, forward or back.
            let (step, back) = (die.round_step, faces - die.round_step);
            let (rest, steps) = (die.rest.max(1), random(40));
            let offset = [
                (faces - 1).saturating_sub(steps.saturating_mul(step)),
                (faces - rest).saturating_sub(steps.saturating_mul(step)),
                (faces - rest + 1).saturating_add(steps.saturating_mul(back)),
                steps.saturating_mul(back),
            ][random(4) as usize]
                .min(faces - 1);
            let pawn = Pawn { die: &die, position: random(board), offset };
            stretch_follows(pawn, 200, &format!("{rules}, offset {offset}"));
        }
    }

    #[test]
    fn games_played_in_stretches_end_as_simulated_within_the_same_limit() {
        let mut random = generator(0x0dd_ba11);
        for _ in 0..300 {
            let players = 1 + random(4) as usize;
            let board =
                [1 + random(10), 1 + random(300), u64::MAX - random(100)][random(3) as usize];
            let faces = [1 + random(50), 100 + random(5000)][random(2) as usize];
            let rolls = [1 + random(4), faces, faces * 3 + 1, faces - random(3).min(faces - 1)]
                [random(4) as usize];
            let target =
                [1 + random(100), 1 + random(100_000), u64::MAX - random(100)][random(3) as usize];
            let rules = DiceRules { board, target, faces, rolls };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let Some(end) = simulate(&pawns, target, 2_000_000) else { continue };
            assert_eq!(stretched(&pawns, target, u64::MAX, false).as_ref(), Some(&end), "{rules}");
            // The same limit: the game's own length, not one turn less.
            let turns = (end.winning_turn - 1) * players as u128 + end.winner as u128 + 1;
            let turns = u64::try_from(turns).unwrap();
            assert_eq!(stretched(&pawns, target, turns, false).as_ref(), Some(&end), "{rules}");
            assert_eq!(stretched(&pawns, target, turns - 1, false), None, "{rules}");
        }
    }

    /// Games whose stretches are leapt over end as simulated, on small
    /// boards with dice long enough for stretches of four periods or more
    /// (steps forward and back, rolls past the die), across several
    /// stretches and the die's wraps.
    #[test]
    fn games_leapt_over_end_as_simulated() {
        let mut random = generator(0x1ea9_0e55);
        let mut leapt = 0;
        for _ in 0..400 {
            let players = 1 + random(4) as usize;
            let board = 1 + random(12);
            let faces = 20_000 + random(200_000);
            let rolls =
                [1 + random(4), faces + 1 + random(3), faces - 1 - random(2)][random(3) as usize];
            let target = [1 + random(1_000), 1 + random(2_000_000)][random(2) as usize];
            let rules = DiceRules { board, target, faces, rolls };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let Some(end) = simulate(&pawns, target, 20_000_000) else { continue };
            leapt += usize::from(leaps(&die));
            assert_eq!(stretched(&pawns, target, u64::MAX, true).as_ref(), Some(&end), "{rules}");
            assert_eq!(played(&pawns, target, 1 << 30).as_ref(), Some(&end), "{rules}");
        }
        assert!(leapt > 200, "{leapt}");
    }

    /// Games of 40 to 47 players on boards of 45,000 to 50,000 spaces that
    /// end in their first leap: their periods add up to more than
    /// [`KEPT_PERIODS`] turns, so the scores of some are learned again.
    #[test]
    fn leaps_of_many_players_learn_again_the_periods_they_do_not_keep() {
        let mut random = generator(0x0b16_ba5d);
        for _ in 0..4 {
            let players = 40 + random(8) as usize;
            let board = 45_000 + random(5_000);
            let rules = DiceRules {
                board,
                target: 2_000_000_000 + random(10_000_000),
                faces: 1 << 30,
                rolls: 1 + random(3),
            };
            let die = Die::new(&rules, players);
            assert!(leaps(&die), "{rules}");
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let mut stretches: Vec<_> = pawns.iter().cloned().map(Stretch::new).collect();
            let periods: usize = stretches
                .iter_mut()
                .map(|stretch| {
                    stretch.begin();
                    period(stretch, u64::MAX).map_or(0, |table| table.len())
                })
                .sum();
            assert!(periods as u64 > KEPT_PERIODS, "{rules}: {periods}");
            let end = simulate(&pawns, rules.target, 20_000_000).unwrap();
            assert!(end.winning_turn < u128::from(stretches[0].left), "{rules}");
            assert_eq!(stretched(&pawns, rules.target, u64::MAX, true), Some(end), "{rules}");
        }
    }

    /// The bound on periods within a stretch that decides when a leap pays
    /// ([`worth_a_leap`]): every state `(p, s)` of every step on boards of
    /// up to 48 spaces comes back within `2 × board` turns, and some take
    /// more than `board`, so the factor 2 is needed.
    #[test]
    fn periods_within_a_stretch_are_at_most_twice_the_board() {
        for board in 1..=48_u64 {
            let mut longest = 0;
            for step in 0..board {
                for (p, s) in (0..board).flat_map(|p| (0..board).map(move |s| (p, s))) {
                    let (mut q, mut t, mut period) = (p, s, 0_u64);
                    loop {
                        (q, t) = ((q + t) % board, (t + step) % board);
                        period += 1;
                        if (q, t) == (p, s) {
                            break;
                        }
                    }
                    longest = longest.max(period);
                }
            }
            assert!(longest <= 2 * board, "board {board}: a period of {longest}");
            if board % 2 == 0 {
                assert!(longest > board, "board {board}: periods up to {longest}");
            }
        }
    }

    #[test]
    fn play_turn_by_turn_refuses_at_once_only_games_longer_than_its_limit() {
        // On a board of one space every turn scores 1: the game lasts
        // exactly as long as the shortest game the bound allows, so the
        // bound is tight.
        for (players, target, faces) in [(2, 1000, 7), (3, 12_345, 100), (5, 1, 3), (2, 2, 1)] {
            let rules = DiceRules { board: 1, target, faces, rolls: 2 };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1)).collect();
            let length = (target - 1) * players as u64 + 1;
            let end = played(&pawns, target, length).unwrap();
            assert_eq!((end.winner, end.winning_turn), (0, u128::from(target)));
            assert_eq!(Some(end), simulate(&pawns, target, u64::MAX));
            assert!(played(&pawns, target, length - 1).is_none());
        }
        // On larger boards it plays what `simulate` plays, within the limit.
        let rules = DiceRules { board: 97, target: 50_000, faces: 1009, rolls: 3 };
        let die = Die::new(&rules, 3);
        let pawns = [die.pawn(0, 5), die.pawn(1, 50), die.pawn(2, 97)];
        let end = simulate(&pawns, rules.target, u64::MAX).unwrap();
        let turns = (end.winning_turn - 1) * 3 + end.winner as u128 + 1;
        let turns = u64::try_from(turns).unwrap();
        assert_eq!(played(&pawns, rules.target, turns), Some(end));
        assert!(played(&pawns, rules.target, turns - 1).is_none());
        // A limit below the shortest game is refused without playing.
        assert!(played(&pawns, rules.target, (rules.target / 97 - 1) * 3).is_none());
    }

    #[test]
    fn a_game_that_neither_repeats_nor_ends_within_the_budget_is_refused() {
        // The die's offset moves 6 a turn: played in stretches, 50 times
        // the budget.
        let rules = DiceRules { board: 1_000_003, target: 1 << 60, faces: 999_983, rolls: 3 };
        assert_eq!(
            end(&[1, 2], &rules, 10_000).unwrap_err(),
            RulesError::PeriodTooLong { limit: 500_000 }
        );
        // Two thirds of the die a turn: one closed-form sum a turn, 10 times.
        let rules = DiceRules { rolls: 333_331, ..rules };
        assert_eq!(
            end(&[1, 2], &rules, 10_000).unwrap_err(),
            RulesError::PeriodTooLong { limit: 100_000 }
        );
        // With a budget large enough the periods are learned instead; with
        // a smaller one, the die's 97 offsets make blocks short enough.
        let small = DiceRules { board: 101, target: 1_000_000_000, faces: 97, rolls: 3 };
        assert!(learn(&[1, 2], &small, 1_000_000).is_ok());
        assert_eq!(learn(&[1, 2], &small, 10_000), learn(&[1, 2], &small, 1_000_000));
        // Tables of periods up to 97 × 101 turns need no budget.
        assert_eq!(end(&[1, 2], &small, 10_000), learn(&[1, 2], &small, 1_000_000));
    }
}
