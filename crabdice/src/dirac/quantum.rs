//! # The Dirac game: the engines' front door
//!
//! [`play_dirac`], [`count_wins`] and [`win_histogram`] check the rules and
//! run an engine: the universe tree (`tree`), memoization over joint states
//! (`memo`), or each player alone (`alone`), whose counts are then
//! interleaved here: player `i` wins on its turn `t` in
//!
//! ```text
//! W_i[t] × Π_{j<i} N_j[t] × Π_{j>i} N_j[t−1]
//! ```
//!
//! universes. The essay, with the puzzle's numbers, is the documentation of
//! the `dirac` module.
//!
//! A die of one face splits nothing: [`play_dirac`] hands its one universe
//! to the deterministic game, whose cost does not grow with the target.

use std::cell::Cell;

use num_bigint::BigUint;

use crate::count::{Count, Universes};
use crate::error::{CountOverflow, DiceError, RulesError};
use crate::tally::Tally;

use super::alone::{self, Counts};
use super::rules::Counting;
use super::{DiceRules, DiracLimits, Starts, live, memo, tree};

/// The most roll nodes the universe tree engine visits.
pub(crate) const MAX_TREE_ROLLS: u64 = 100_000_000;

/// The most word operations the players' own counts may be estimated to
/// take for the universe tree's rolls to be counted beforehand: a few
/// hundredths of a second, against the walk's 0.45 s to its limit (the
/// puzzle's board to 300 points is estimated at 1.2 × 10⁸).
const TREE_PRE_COUNT: u128 = 200_000_000;

/// The most game states the memo engine stores.
pub(crate) const MAX_MEMO_STATES: usize = 1 << 21;

/// A way to count the universes of a Dirac game. All give the same counts.
///
/// # Examples
///
/// ```
/// use crabdice::DiracEngine;
///
/// assert_eq!(DiracEngine::default(), DiracEngine::PerPlayer);
/// assert_eq!(DiracEngine::from_name("memo"), Some(DiracEngine::Memo));
/// assert_eq!(DiracEngine::Tree.to_string(), "tree");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DiracEngine {
    /// Every roll of every universe, one branch each: the obvious reference,
    /// for small rules only (it stops after 100 million rolls).
    Tree,
    /// [Memoization](https://en.wikipedia.org/wiki/Memoization) over joint
    /// game states (every pawn's space and score, with the player to move
    /// first); it stops after about two million states.
    Memo,
    /// Each player alone on a flat table of (space, score) cells, turn by
    /// turn, then the players interleaved: player `i` wins on its turn `t` in
    /// `W_i[t] × Π_{j<i} N_j[t] × Π_{j>i} N_j[t−1]` universes, where `W`
    /// counts a player's universes first reaching the target and `N` those
    /// still short of it. The fastest; the default.
    #[default]
    PerPlayer,
}

impl DiracEngine {
    /// Every engine, from the most obvious to the fastest.
    pub const ALL: [Self; 3] = [Self::Tree, Self::Memo, Self::PerPlayer];

    /// The engine's name: `tree`, `memo` or `per-player`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Tree => "tree",
            Self::Memo => "memo",
            Self::PerPlayer => "per-player",
        }
    }

    /// The engine with this [name](Self::name).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|engine| engine.name() == name)
    }
}

impl std::fmt::Display for DiracEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The universes each player wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiracOutcome {
    /// Universes won by each player, in input order.
    pub wins: Vec<Universes>,
    /// The player who wins in the most universes (0 for player 1; the
    /// earliest on a tie).
    pub winner: usize,
    /// The most universes any player wins.
    pub answer: Universes,
}

/// Counts the universes each player wins, exactly, with the given engine.
///
/// The per-player engine counts each player in the narrowest words its
/// counts fit (proved turn by turn, widened mid-game when they outgrow
/// them) and multiplies the players' counts in `u64`, then `u128`, then
/// [`BigUint`]; the other engines run in `u64`, then `u128`, then `BigUint`.
/// The common case is fast and every case exact. A die of one face is one
/// universe, the deterministic game's, answered at any target by
/// [`play_deterministic`](super::play_deterministic) (but for the universe
/// tree, the reference). Refuses nonsense rules, starts off the board
/// (naming the line), and games too large to count.
///
/// # Examples
///
/// ```
/// use crabdice::{DiceRules, DiracEngine, Starts, play_dirac};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let outcome = play_dirac(&starts, &DiceRules::dirac(), DiracEngine::default())?;
/// assert_eq!(outcome.wins, [444_356_092_776_315_u64, 341_960_390_180_808]);
/// assert_eq!((outcome.winner, outcome.answer.to_string()), (0, "444356092776315".to_owned()));
///
/// // A longer game needs more than 128 bits; the count is still exact.
/// let long = DiceRules { target: 60, ..DiceRules::dirac() };
/// let three = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\nPlayer 3 starting position: 1\n")?;
/// assert!(play_dirac(&three, &long, DiracEngine::PerPlayer)?.answer.bits() > 128);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn play_dirac(
    starts: &Starts,
    rules: &DiceRules,
    engine: DiracEngine,
) -> Result<DiracOutcome, DiceError> {
    play_dirac_within(starts, rules, engine, &DiracLimits::default())
}

/// [`play_dirac`] within `limits` instead of the default ones: a game
/// estimated past them is refused before it starts, and raising them lets
/// a larger game be counted (see [`DiracLimits`]).
pub fn play_dirac_within(
    starts: &Starts,
    rules: &DiceRules,
    engine: DiracEngine,
    limits: &DiracLimits,
) -> Result<DiracOutcome, DiceError> {
    if let Some(winner) = one_universe(starts, rules, engine) {
        let one = Universes::from(1_u64);
        let wins = won_by(winner, starts.players(), [Universes::from(0_u64), one.clone()]);
        return Ok(DiracOutcome { wins, winner, answer: one });
    }
    let (rules, at, counting) = &check(starts, rules, engine, limits)?;
    let wins = if engine == DiracEngine::PerPlayer {
        // Each player alone once, in the narrowest words that hold it; only
        // the few products of the interleaving are retried wider.
        let alone = per_player(at, rules, limits, *counting)?;
        widen(
            || totals::<u64>(&alone).map(into_universes),
            || {
                widen(
                    || totals::<u128>(&alone).map(into_universes),
                    || totals::<BigUint>(&alone).map(into_universes),
                )
            },
        )?
    } else {
        // The tries in wider counts share one budget of work.
        let spent = &Cell::new(0);
        widen(
            || wins::<u64>(at, rules, engine, (limits, spent), *counting).map(into_universes),
            || {
                widen(
                    || {
                        wins::<u128>(at, rules, engine, (limits, spent), *counting)
                            .map(into_universes)
                    },
                    || {
                        wins::<BigUint>(at, rules, engine, (limits, spent), *counting)
                            .map(into_universes)
                    },
                )
            },
        )?
    };
    let (winner, answer) = wins
        .iter()
        .enumerate()
        .rev()
        .max_by_key(|&(_, n)| n)
        .map(|(i, n)| (i, n.clone()))
        .unwrap_or_default();
    Ok(DiracOutcome { wins, winner, answer })
}

/// A die of one face splits nothing: every roll shows 1, so there is one
/// universe, whose game is the deterministic die's with one face (it too
/// counts `1, 1, ...`), and its winner wins it. That game is played in the
/// same time at any target ([`play_deterministic`](super::play_deterministic)),
/// where the engines' tables grow with the target; only its winner is
/// asked for, so a game whose rolls reach 2^128 is answered too. `None` for
/// any other die, for the universe tree (the reference, which walks its one
/// branch), and for a game the deterministic engine refuses, which is left
/// to the engines and their own limits. Gives the winner of that universe.
fn one_universe(starts: &Starts, rules: &DiceRules, engine: DiracEngine) -> Option<usize> {
    if rules.faces != 1 || engine == DiracEngine::Tree {
        return None;
    }
    super::deterministic_winner(starts, rules).ok()
}

/// Each of `players` players' count of one universe won by `winner`:
/// `one` for the winner, `none` for the others.
fn won_by<T: Clone>(winner: usize, players: usize, [none, one]: [T; 2]) -> Vec<T> {
    let mut wins = vec![none; players];
    wins[winner] = one;
    wins
}

/// Counts the universes each player wins in the count type `C`, reporting an
/// overflow instead of moving on to a wider type. A die of one face is one
/// universe, counted at any target as [`play_dirac`] does.
///
/// # Examples
///
/// ```
/// use crabdice::{DiceError, DiceRules, DiracEngine, Starts, count_wins};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let wins = count_wins::<u64>(&starts, &DiceRules::dirac(), DiracEngine::Memo)?;
/// assert_eq!(wins, [444_356_092_776_315, 341_960_390_180_808]);
///
/// let long = DiceRules { target: 40, ..DiceRules::dirac() };
/// assert!(matches!(count_wins::<u64>(&starts, &long, DiracEngine::PerPlayer), Err(DiceError::Overflow(_))));
/// assert!(count_wins::<u128>(&starts, &long, DiracEngine::PerPlayer).is_ok());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn count_wins<C: Count>(
    starts: &Starts,
    rules: &DiceRules,
    engine: DiracEngine,
) -> Result<Vec<C>, DiceError> {
    count_wins_within(starts, rules, engine, &DiracLimits::default())
}

/// [`count_wins`] within `limits` instead of the default ones (see
/// [`DiracLimits`]).
pub fn count_wins_within<C: Count>(
    starts: &Starts,
    rules: &DiceRules,
    engine: DiracEngine,
    limits: &DiracLimits,
) -> Result<Vec<C>, DiceError> {
    if let Some(winner) = one_universe(starts, rules, engine) {
        return Ok(won_by(winner, starts.players(), [C::zero(), C::from_u64(1)]));
    }
    let (rules, at, counting) = check(starts, rules, engine, limits)?;
    wins(&at, &rules, engine, (limits, &Cell::new(0)), counting)
}

/// One player's universes by turn: how many first reach the target on each of
/// its turns when it plays alone, and how many it wins on each turn of the
/// real game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinsByTurn {
    /// `alone[t − 1]`: the player's own universes (`faces^rolls` per turn)
    /// that first reach the target on its turn `t`, as if it played alone.
    /// Runs until every universe has reached the target.
    pub alone: Vec<Universes>,
    /// `in_game[t − 1]`: the game's universes the player wins on its turn `t`.
    /// Runs until the last turn on which some player can still win.
    pub in_game: Vec<Universes>,
}

/// Per player, per turn: universes that reach the target alone, and
/// universes won in the game (the `W` and the terms of the sum of
/// [`DiracEngine::PerPlayer`]).
///
/// # Examples
///
/// ```
/// use crabdice::{DiceRules, Starts, play_dirac, win_histogram, DiracEngine, Universes};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let histogram = win_histogram(&starts, &DiceRules::dirac())?;
/// // Nobody can reach 21 in two turns: the best is 10 + 10.
/// assert!(histogram[0].alone[..2].iter().all(Universes::is_zero));
/// // Summed over the turns, the in-game wins are the answer.
/// let total: Universes = histogram[0].in_game.iter().sum();
/// assert_eq!(total, 444_356_092_776_315_u64);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn win_histogram(starts: &Starts, rules: &DiceRules) -> Result<Vec<WinsByTurn>, DiceError> {
    win_histogram_within(starts, rules, &DiracLimits::default())
}

/// [`win_histogram`] within `limits` instead of the default ones (see
/// [`DiracLimits`]).
pub fn win_histogram_within(
    starts: &Starts,
    rules: &DiceRules,
    limits: &DiracLimits,
) -> Result<Vec<WinsByTurn>, DiceError> {
    let (rules, at, counting) = histogram_fits(starts, rules, limits)?;
    let alone = per_player(&at, &rules, limits, counting)?;
    widen(
        || histogram::<u64>(&alone),
        || widen(|| histogram::<u128>(&alone), || histogram::<BigUint>(&alone)),
    )
}

/// Whether [`win_histogram_within`] would take on this game within
/// `limits`: the refusals it gives before counting anything (bad rules,
/// starts off the board, a game too large to count, or too many players'
/// wins to keep for every turn), without counting. The command line asks
/// this first, so that a refused histogram does not wait for the answer.
///
/// ```
/// use crabdice::{DiceRules, DiracLimits, Starts, check_win_histogram};
///
/// let two = Starts::new(vec![4, 8])?;
/// assert!(check_win_histogram(&two, &DiceRules::dirac(), &DiracLimits::default()).is_ok());
/// let many = Starts::new(vec![4; 10_000])?;
/// assert!(check_win_histogram(&many, &DiceRules::dirac(), &DiracLimits::default()).is_err());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn check_win_histogram(
    starts: &Starts,
    rules: &DiceRules,
    limits: &DiracLimits,
) -> Result<(), DiceError> {
    histogram_fits(starts, rules, limits).map(drop)
}

/// The game as the per-player engine counts it ([`check`]), once its
/// wins of every turn are known to fit `limits`.
fn histogram_fits(
    starts: &Starts,
    rules: &DiceRules,
    limits: &DiracLimits,
) -> Result<(DiceRules, Vec<u64>, Counting), DiceError> {
    let (rules, at, counting) = check(starts, rules, DiracEngine::PerPlayer, limits)?;
    rules.check_histogram(&at, limits)?;
    Ok((rules, at, counting))
}

/// Valid rules, starts on the board, a game small enough to count: returns
/// the game as `engine` plays it, on the smallest board that plays the same
/// game (see `DiceRules::dirac_board`), except for the universe tree, the
/// reference, which walks the board as given; and, for the per-player
/// engine, how it counts each player: in a table of machine words, or over
/// the live cells alone (`DiceRules::per_player_counting`).
fn check(
    starts: &Starts,
    rules: &DiceRules,
    engine: DiracEngine,
    limits: &DiracLimits,
) -> Result<(DiceRules, Vec<u64>, Counting), DiceError> {
    rules.validate()?;
    starts.check(rules)?;
    let (small, at) = rules.dirac_board(starts.positions());
    let counting = if engine == DiracEngine::PerPlayer {
        let counting = small.per_player_counting(&at, limits)?;
        // After the players' own counts, which refuse a game too large for
        // any number of players first.
        small.check_interleave(&at, limits)?;
        counting
    } else {
        small.check_dirac_size(&at, limits, Counting::Cells).map_err(|reason| {
            // Named as this engine's limit only where the per-player
            // engine surely counts the game: its live cells are within the
            // limits, so it counts over them wherever its table is refused,
            // up front or once counts outgrow 1024 bits; or its die has one
            // face, whose one universe it plays at any target (the memo
            // engine too, so only the tree gets here with one).
            let counted = (small.check_live_size(at.len(), limits).is_ok()
                && small.check_interleave(&at, limits).is_ok())
                || one_universe(starts, rules, DiracEngine::PerPlayer).is_some();
            if counted {
                RulesError::PastTheTable { engine, reason: Box::new(reason) }
            } else {
                reason
            }
        })?;
        Counting::Cells
    };
    if engine == DiracEngine::Tree {
        tree_fits(&small, &at, limits)?;
    }
    Ok(match engine {
        DiracEngine::Tree => (*rules, starts.positions().to_vec(), counting),
        DiracEngine::Memo | DiracEngine::PerPlayer => (small, at, counting),
    })
}

/// Refuses at once a universe tree that would pass its limit of rolls,
/// counting its rolls from the players' own counts (see `tree::rolls`),
/// when counting them is cheap: estimated at most [`TREE_PRE_COUNT`] word
/// operations (the puzzle's rules to about 300 points). Other games are
/// left to the walk, which stops at the limit by itself, in about 0.45 s.
fn tree_fits(small: &DiceRules, at: &[u64], limits: &DiracLimits) -> Result<(), DiceError> {
    let cheap = small.check_dirac_size(at, limits, Counting::Words);
    if !cheap.is_ok_and(|work| work <= TREE_PRE_COUNT) {
        return Ok(());
    }
    let Ok(counting) = small.per_player_counting(at, limits) else { return Ok(()) };
    let Ok(alone) = per_player(at, small, limits, counting) else { return Ok(()) };
    match tree::rolls(&alone, small, MAX_TREE_ROLLS) {
        Some(_) => Ok(()),
        None => Err(RulesError::TreeTooLarge { limit: MAX_TREE_ROLLS }.into()),
    }
}

/// Each player alone, counted as [`check`] chose.
fn per_player(
    at: &[u64],
    rules: &DiceRules,
    limits: &DiracLimits,
    counting: Counting,
) -> Result<Counts, DiceError> {
    if counting == Counting::Live {
        Ok(live::play(at, rules, limits))
    } else {
        alone::play(at, rules, limits)
    }
}

/// Runs the `narrow` count, and the `wide` one if it overflows.
fn widen<T>(
    narrow: impl FnOnce() -> Result<T, DiceError>,
    wide: impl FnOnce() -> Result<T, DiceError>,
) -> Result<T, DiceError> {
    match narrow() {
        Err(DiceError::Overflow(_)) => wide(),
        done => done,
    }
}

fn into_universes<C: Count>(wins: Vec<C>) -> Vec<Universes> {
    wins.into_iter().map(Into::into).collect()
}

/// The engines, for starts already on the board and rules already checked
/// (`limits` for the per-player engine's move to big-integer cells and for
/// the memo's walk, with the work it spent in narrower counts; and
/// `counting` as [`check`] chose).
fn wins<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
    engine: DiracEngine,
    (limits, spent): (&DiracLimits, &Cell<u128>),
    counting: Counting,
) -> Result<Vec<C>, DiceError> {
    match engine {
        DiracEngine::Tree => tree::wins(starts, rules, MAX_TREE_ROLLS),
        DiracEngine::Memo => memo::wins(starts, rules, MAX_MEMO_STATES, limits, spent),
        DiracEngine::PerPlayer => totals(&per_player(starts, rules, limits, counting)?),
    }
}

/// Every player's wins, interleaving the players' own counts in `C`.
fn totals<C: Count>(alone: &Counts) -> Result<Vec<C>, DiceError> {
    let mut totals = vec![C::zero(); alone.players()];
    interleave(alone, |i, wins| {
        totals[i] = totals[i].checked_add(&wins).ok_or_else(CountOverflow::of::<C>)?;
        Ok(())
    })?;
    Ok(totals)
}

fn histogram<C: Count>(alone: &Counts) -> Result<Vec<WinsByTurn>, DiceError> {
    let mut in_game = vec![Vec::new(); alone.players()];
    interleave(alone, |i, wins: C| {
        in_game[i].push(wins);
        Ok(())
    })?;
    let players = in_game
        .into_iter()
        .enumerate()
        .map(|(i, in_game)| WinsByTurn { alone: alone.alone(i), in_game: into_universes(in_game) });
    Ok(players.collect())
}

/// The moves of one turn, modulo the board, with their universes, and the
/// universes of a turn (`faces^rolls`).
pub(crate) fn moves<C: Count>(rules: &DiceRules) -> Result<(Vec<(u64, C)>, C), CountOverflow> {
    let turn =
        Tally::<C>::die_modulo(rules.faces, rules.board).sum_of_modulo(rules.rolls, rules.board)?;
    let universes = turn.total()?;
    Ok((turn.iter().map(|(steps, n)| (steps, n.clone())).collect(), universes))
}

/// Hands `(i, wins)` to `visit` for every player `i` and each of its turns
/// `t` in order: the universes player `i` wins on its turn `t`,
/// `W_i[t] × Π_{j<i} N_j[t] × Π_{j>i} N_j[t−1]`.
///
/// The products of all players but one are taken down two product trees
/// (one of the `N_j[t]`, one of the `N_j[t−1]`): a node's product of the
/// players outside it is its parent's, times its sibling's subtree from
/// the tree of the side it lies on. With `P` players of `w` words each, a
/// turn then takes about `P² w² log₂ P` word operations and `P w log₂ P`
/// words, where taking the products from one end (`Π_{j>i}` as suffixes,
/// then `Π_{j<i}` as a running product) multiplies numbers of `i w` and
/// `(P − i) w` words for every `i`: `P³ w² / 6` and `P² w / 2` words (10,000
/// players on the puzzle's rules: 33.6 s and 445 MB). That is still the
/// faster way for a few players ([`FEW_PLAYERS`]), whose products are
/// short.
fn interleave<C: Count>(
    players: &Counts,
    visit: impl FnMut(usize, C) -> Result<(), CountOverflow>,
) -> Result<(), CountOverflow> {
    if players.players() == 0 {
        Ok(())
    } else if players.players() <= FEW_PLAYERS {
        interleave_from_the_ends(players, visit)
    } else {
        interleave_by_trees(players, visit)
    }
}

/// Players up to which [`interleave`] takes the products from the ends of
/// the row rather than down trees. For two players the trees, even with
/// their buffers kept from turn to turn, took 7% of the puzzle's time more
/// (2.34 → 2.50 µs, `cargo bench -- dirac_puzzle`; fresh trees each turn
/// took 3.5 µs);
/// the ends' `P³` work tells from a few dozen players, sooner when counts
/// are wide. Medians of `--time`, one thread, ends against trees:
///
/// | players | target 21 | target 100 |
/// |---:|---|---|
/// | 4 | 4.9 / 5.6 µs | 200 / 200–217 µs |
/// | 16 | 37 / 41 µs | 945 / 943 µs |
/// | 32 | 84 / 92 µs | 2.33 / 2.20 ms |
/// | 64 | 220 / 208 µs | 7.4 / 5.6 ms |
/// | 128 | 650 / 516 µs | 33 / 17 ms |
const FEW_PLAYERS: usize = 16;

/// [`interleave`] with `Π_{j>i} N_j[t−1]` taken as suffix products, then
/// `Π_{j<i} N_j[t]` as a running product: about `P³ w² / 6` word operations
/// a turn. At least one player.
fn interleave_from_the_ends<C: Count>(
    players: &Counts,
    mut visit: impl FnMut(usize, C) -> Result<(), CountOverflow>,
) -> Result<(), CountOverflow> {
    let count = players.players();
    let one = C::from_u64(1);
    let mut after = vec![C::zero(); count];
    for t in 1..=players.turns() {
        // after[i] = Π_{j>i} N_j[t−1], without the product of them all,
        // which is not needed and might not fit where every win does.
        after[count - 1] = one.clone();
        for j in (1..count).rev() {
            let next = after[j].checked_mul(&players.playing(j, t - 1)?);
            after[j - 1] = next.ok_or_else(CountOverflow::of::<C>)?;
        }
        // before = Π_{j<i} N_j[t], likewise without the last step.
        let mut before = one.clone();
        let mut over = false;
        for (i, after) in after.iter().enumerate() {
            let wins = players
                .reached::<C>(i, t)?
                .checked_mul(&before)
                .and_then(|n| n.checked_mul(after))
                .ok_or_else(CountOverflow::of::<C>)?;
            visit(i, wins)?;
            let playing = players.playing::<C>(i, t)?;
            over |= playing.is_zero();
            if i + 1 < count {
                before = before.checked_mul(&playing).ok_or_else(CountOverflow::of::<C>)?;
            }
        }
        if over {
            // Some player has no universe left after t turns: no game goes on.
            break;
        }
    }
    Ok(())
}

/// [`interleave`] down two product trees. At least one player.
fn interleave_by_trees<C: Count>(
    players: &Counts,
    mut visit: impl FnMut(usize, C) -> Result<(), CountOverflow>,
) -> Result<(), CountOverflow> {
    let count = players.players();
    // Built again each turn, in the same buffers.
    let (mut now, mut before) = (ProductTree::default(), ProductTree::default());
    for t in 1..=players.turns() {
        now.build((0..count).map(|j| players.playing(j, t)))?;
        before.build((0..count).map(|j| players.playing(j, t - 1)))?;
        let mut visit_wins = |i: usize, outside: &C| {
            let wins = players
                .reached::<C>(i, t)?
                .checked_mul(outside)
                .ok_or_else(CountOverflow::of::<C>)?;
            visit(i, wins)
        };
        all_but_one(&now, &before, now.levels.len(), 0, &C::from_u64(1), &mut visit_wins)?;
        if now.levels[0].iter().any(C::is_zero) {
            // Some player has no universe left after t turns: no game goes on.
            break;
        }
    }
    Ok(())
}

/// Products of a row of numbers over aligned ranges: `levels[k][m]` is the
/// product of the numbers `m·2^k..(m + 1)·2^k` (those that exist).
///
/// The root, the product of them all, is left out: `levels` stops at the
/// first level of at most two nodes, and the root's level
/// (`levels.len()`) is implicit. Only products of all numbers *but one*
/// are needed, and the root would have been the largest product of all.
struct ProductTree<C> {
    levels: Vec<Vec<C>>,
}

impl<C> Default for ProductTree<C> {
    fn default() -> Self {
        Self { levels: Vec::new() }
    }
}

impl<C: Count> ProductTree<C> {
    /// Makes this the tree of `numbers` (at least one), without its root,
    /// in the buffers of the tree it was: a game's turns build trees of the
    /// same shape, and fresh ones each turn cost allocations that, for
    /// the few players of the puzzle, took longer than the products.
    fn build(
        &mut self,
        numbers: impl Iterator<Item = Result<C, CountOverflow>>,
    ) -> Result<(), CountOverflow> {
        let levels = &mut self.levels;
        if levels.is_empty() {
            levels.push(Vec::new());
        }
        levels[0].clear();
        for number in numbers {
            levels[0].push(number?);
        }
        let mut k = 0;
        while levels[k].len() > 2 {
            if levels.len() == k + 1 {
                levels.push(Vec::new());
            }
            let (below, above) = levels.split_at_mut(k + 1);
            let (below, above) = (&below[k], &mut above[0]);
            above.clear();
            for pair in below.chunks(2) {
                above.push(match pair {
                    [a, b] => a.checked_mul(b).ok_or_else(CountOverflow::of::<C>)?,
                    [a] => a.clone(),
                    _ => unreachable!("chunks of one or two"),
                });
            }
            k += 1;
        }
        levels.truncate(k + 1);
        Ok(())
    }
}

/// Hands `visit` each player `i` under node `m` of level `k`, in order,
/// with `Π_{j<i} now_j × Π_{j>i} before_j`, given `outside`: that product
/// over the players outside the node. The implicit root is node 0 of level
/// `now.levels.len()`, with nobody outside it.
fn all_but_one<C: Count>(
    now: &ProductTree<C>,
    before: &ProductTree<C>,
    k: usize,
    m: usize,
    outside: &C,
    visit: &mut impl FnMut(usize, &C) -> Result<(), CountOverflow>,
) -> Result<(), CountOverflow> {
    if k == 0 {
        return visit(m, outside);
    }
    let (left, right) = (2 * m, 2 * m + 1);
    let Some(right_before) = before.levels[k - 1].get(right) else {
        // No right child: the left one has the same players.
        return all_but_one(now, before, k - 1, left, outside, visit);
    };
    // The left child's players come before the right child's.
    let for_left = outside.checked_mul(right_before).ok_or_else(CountOverflow::of::<C>)?;
    all_but_one(now, before, k - 1, left, &for_left, visit)?;
    drop(for_left);
    let left_now = &now.levels[k - 1][left];
    let for_right = outside.checked_mul(left_now).ok_or_else(CountOverflow::of::<C>)?;
    all_but_one(now, before, k - 1, right, &for_right, visit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::RulesError;

    /// Every small game the universe tree can walk in 20,000 rolls, checked
    /// against the other two engines; and the rolls it walks, or that it
    /// refuses, as counted beforehand from the players' own counts.
    #[test]
    fn the_universe_tree_agrees_with_both_engines_on_small_games() {
        let unbounded = DiracLimits::unbounded();
        let (mut walked, mut refused) = (0, 0);
        for board in 1..=7 {
            for target in 1..=8 {
                for faces in 1..=3 {
                    for rolls in 1..=3 {
                        for players in 2..=4 {
                            let rules = DiceRules { board, target, faces, rolls };
                            let starts: Vec<u64> =
                                (0..players).map(|i| (i * 3 + 1) % board + 1).collect();
                            let alone =
                                per_player(&starts, &rules, &unbounded, Counting::Words).unwrap();
                            let rolls = tree::rolls(&alone, &rules, 20_000);
                            let tree = match tree::walk::<u64>(&starts, &rules, 20_000) {
                                Ok((tree, visited)) => {
                                    assert_eq!(rolls, Some(visited), "{rules} {starts:?}");
                                    // Exactly at the limit, and one roll short.
                                    let at = |limit| tree::rolls(&alone, &rules, limit);
                                    assert_eq!(at(visited), Some(visited));
                                    assert_eq!(at(visited - 1), None, "{rules} {starts:?}");
                                    tree
                                }
                                Err(DiceError::Rules(RulesError::TreeTooLarge { .. })) => {
                                    assert_eq!(rolls, None, "{rules} {starts:?}");
                                    refused += 1;
                                    continue;
                                }
                                Err(other) => panic!("{other}"),
                            };
                            walked += 1;
                            let fast = wins::<u64>(
                                &starts,
                                &rules,
                                DiracEngine::PerPlayer,
                                (&unbounded, &Cell::new(0)),
                                Counting::Words,
                            )
                            .unwrap();
                            let spent = &Cell::new(0);
                            let memo =
                                memo::wins::<u64>(&starts, &rules, 1 << 16, &unbounded, spent);
                            let memo = memo.unwrap();
                            assert_eq!(tree, fast, "{rules} {starts:?}");
                            assert_eq!(memo, fast, "{rules} {starts:?}");
                        }
                    }
                }
            }
        }
        assert!(walked > 300, "only {walked} games were small enough for the tree");
        assert!(refused > 100, "only {refused} games were too large for the tree");
    }

    /// Both ways of interleaving, from the ends and down product trees,
    /// give every player's wins as the formula says, taken literally:
    /// `W_i[t] × Π_{j<i} N_j[t] × Π_{j>i} N_j[t−1]`, each product
    /// multiplied out on its own. From 1 to 40 players, so that trees of
    /// every shape (a last node with no sibling at each level) are walked;
    /// the board and target kept small so that some players run out of
    /// universes before others.
    #[test]
    fn both_interleavings_are_the_formula() {
        let unbounded = DiracLimits::unbounded();
        for players in 1..=40_u64 {
            for rules in [
                DiceRules { target: 21, ..DiceRules::dirac() },
                DiceRules { board: 5, target: 9, faces: 2, rolls: 2 },
            ] {
                let starts: Vec<u64> =
                    (0..players).map(|i| (i * 7 + players) % rules.board + 1).collect();
                let alone = per_player(&starts, &rules, &unbounded, Counting::Words).unwrap();
                let mut literal = vec![BigUint::ZERO; starts.len()];
                for t in 1..=alone.turns() {
                    for (i, total) in literal.iter_mut().enumerate() {
                        let mut wins: BigUint = alone.reached(i, t).unwrap();
                        for j in 0..starts.len() {
                            let turn = if j < i { t } else { t - 1 };
                            if j != i {
                                wins *= alone.playing::<BigUint>(j, turn).unwrap();
                            }
                        }
                        *total += wins;
                    }
                }
                for by_trees in [false, true] {
                    let mut got = vec![BigUint::ZERO; starts.len()];
                    let mut add = |i: usize, wins: BigUint| {
                        got[i] += wins;
                        Ok(())
                    };
                    if by_trees {
                        interleave_by_trees(&alone, &mut add).unwrap();
                    } else {
                        interleave_from_the_ends(&alone, &mut add).unwrap();
                    }
                    assert_eq!(got, literal, "{players} players, {rules}, trees: {by_trees}");
                }
                assert_eq!(totals::<BigUint>(&alone).unwrap(), literal);
            }
        }
    }

    /// A one-faced die's game, answered by the deterministic engine for
    /// the table engines, against the universe tree's walk of its one
    /// branch.
    #[test]
    fn a_die_of_one_face_has_one_universe_won_as_the_tree_walks_it() {
        use std::fmt::Write;
        let mut checked = 0;
        for board in 1..=12 {
            for target in (1..=60).step_by(7) {
                for rolls in 1..=4 {
                    for players in 2..=4 {
                        let rules = DiceRules { board, target, faces: 1, rolls };
                        let mut lines = String::new();
                        for i in 0..players {
                            let at = (i * 5 + target) % board + 1;
                            writeln!(lines, "Player {} starting position: {at}", i + 1).unwrap();
                        }
                        let starts = Starts::parse(&lines).unwrap();
                        let tree = play_dirac(&starts, &rules, DiracEngine::Tree).unwrap();
                        assert_eq!(tree.answer, Universes::from(1_u64), "{rules}");
                        let counted =
                            count_wins::<u64>(&starts, &rules, DiracEngine::Tree).unwrap();
                        assert_eq!(into_universes(counted), tree.wins, "{rules} {lines}");
                        for engine in [DiracEngine::Memo, DiracEngine::PerPlayer] {
                            assert_eq!(
                                play_dirac(&starts, &rules, engine).unwrap(),
                                tree,
                                "{rules} {engine} {lines}"
                            );
                            let counted = count_wins::<u128>(&starts, &rules, engine).unwrap();
                            assert_eq!(into_universes(counted), tree.wins, "{rules} {engine}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 12 * 9 * 4 * 3);
    }

    /// A one-faced die's game too long for the engines' tables is still
    /// answered, with the winner of the game rolled one roll at a time.
    #[test]
    fn a_die_of_one_face_is_answered_past_the_tables() {
        let starts =
            Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")
                .unwrap();
        let rules = DiceRules { target: 10_000_000, faces: 1, ..DiceRules::dirac() };
        let limits = DiracLimits::default();
        assert!(check(&starts, &rules, DiracEngine::PerPlayer, &limits).is_err());
        let rolled = crate::play_deterministic_literal(&starts, &rules).unwrap();
        let outcome = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome.winner, rolled.winner);
        let mut wins = vec![Universes::from(0_u64); 2];
        wins[rolled.winner] = Universes::from(1_u64);
        assert_eq!((outcome.wins, outcome.answer), (wins.clone(), Universes::from(1_u64)));
        // Counting the universes alone takes the same way round the tables.
        for engine in [DiracEngine::Memo, DiracEngine::PerPlayer] {
            let counted = count_wins::<BigUint>(&starts, &rules, engine).unwrap();
            assert_eq!(into_universes(counted), wins, "{engine}");
        }
    }

    /// A one-faced die's game whose rolls reach 2^128 has no part 1 answer
    /// (the roll count does not fit), but its one universe still has a
    /// winner. Every turn moves `2^64 − 1` spaces: on a board of 1 each
    /// pawn scores 1 a turn, so player 1 gets there first; on a board of 2
    /// (an odd move) each pawn swaps spaces every turn, so from spaces 2
    /// and 1 the players score `1, 3, 4, 6, ...` and `2, 3, 5, 6, ...`,
    /// and a target of `3m + 2` (such as `2^64 − 2`) is reached by player
    /// 2 on turn `2m + 1`, when player 1 has `3m + 1`. Each game lasts
    /// about 2^64 turns a player.
    #[test]
    fn a_one_faced_game_past_2_to_the_128_rolls_is_still_won() {
        let games = [
            ("Player 1 starting position: 1\nPlayer 2 starting position: 1\n", 1, u64::MAX, 0),
            ("Player 1 starting position: 2\nPlayer 2 starting position: 1\n", 2, u64::MAX - 1, 1),
        ];
        for (input, board, target, winner) in games {
            let starts = Starts::parse(input).unwrap();
            let rules = DiceRules { board, target, faces: 1, rolls: u64::MAX };
            assert_eq!(
                crate::play_deterministic(&starts, &rules).unwrap_err(),
                RulesError::TooManyRolls.into()
            );
            let mut wins = vec![Universes::from(0_u64); 2];
            wins[winner] = Universes::from(1_u64);
            for engine in [DiracEngine::Memo, DiracEngine::PerPlayer] {
                let outcome = play_dirac(&starts, &rules, engine).unwrap();
                assert_eq!((outcome.winner, &outcome.wins), (winner, &wins), "{rules} {engine}");
                let counted = count_wins::<u64>(&starts, &rules, engine).unwrap();
                assert_eq!(into_universes(counted), wins, "{rules} {engine}");
            }
        }
    }

    #[test]
    fn a_wider_type_is_only_needed_when_the_narrow_one_overflows() {
        let rules = DiceRules { target: 30, ..DiceRules::dirac() };
        let starts = [4, 8];
        let limits = (&DiracLimits::default(), &Cell::new(0));
        let per_player = DiracEngine::PerPlayer;
        let narrow = wins::<u64>(&starts, &rules, per_player, limits, Counting::Words).unwrap_err();
        assert_eq!(narrow, CountOverflow::of::<u64>().into());
        let wide = wins::<u128>(&starts, &rules, per_player, limits, Counting::Words).unwrap();
        let big = wins::<BigUint>(&starts, &rules, per_player, limits, Counting::Words).unwrap();
        assert_eq!(wide.into_iter().map(BigUint::from).collect::<Vec<_>>(), big);
    }
}
