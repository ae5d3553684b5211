//! # One player alone, counted in machine words
//!
//! The per-player engine needs, for each player and each of its turns `t`,
//! `W[t]` (its universes first reaching the target on turn `t`) and `N[t]`
//! (those still short of it). This module computes them; the essay in the
//! [module documentation of `dirac`](super) explains the table, the kernel
//! and the bounds. In short:
//!
//! * the table is transposed, one row per space and one column per score,
//!   and a turn is `rolls` passes of the die over the rows, so moving by a
//!   roll is picking another row, never shuffling words inside a vector;
//! * a pass sums the rows `1..=faces` spaces behind (a sliding window, plus
//!   `faces / board` times the whole row sum when the die is larger than the
//!   board), then the turn lands: the value for space `q` moves `q + 1`
//!   columns right, or into `W[t]` past the target;
//! * the columns are processed a few at a time, all passes on those columns
//!   at once, in registers, with the puzzle's board and die compiled in;
//! * every value of a turn is at most `N[t − 1] × faces^rolls`, checked once
//!   before the turn, so the words are added without checks; two players
//!   share a 64-bit word (32 bits each) while that bound stays below 2³²,
//!   then each has its own table, which moves to wider words (128, 256, 512,
//!   1024 bits) mid-game when the bound outgrows them; past 1024 bits the
//!   player is counted again in big-integer cells, once the game's
//!   estimate in them has been checked against the limits: cells of
//!   64-bit limbs, each move's product added in place in one pass
//!   (`Cells::play_in_limbs`), or, when a move's universes outgrow a word,
//!   cells of [`BigUint`] (`Cells::play`, which in any count type is also
//!   the tests' reference, `by_cells`).
//!
//! This module chooses among them and gathers the counts ([`play`]); the
//! word engine is in [`table`], the words it counts in are in [`word`],
//! and the big-integer cells are in [`cells`].

mod cells;
mod table;
mod word;

use num_bigint::BigUint;

use crate::cores;
use crate::count::{Count, Universes};
use crate::error::{CountOverflow, DiceError};

use self::cells::BigMoves;
#[cfg(test)]
pub(crate) use self::cells::by_cells;
pub(crate) use self::table::MAX_COLUMNS;
use self::table::{Shape, State};
use self::word::Packing;
use super::rules::{Counting, OVER_CELLS};
use super::{DiceRules, DiracLimits, live};

/// A player's turn `t` alone: `W[t]`, its universes first reaching the
/// target then, and `N[t]`, those still short of it after the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Turn<C> {
    pub(crate) reached: C,
    pub(crate) playing: C,
}

/// A player's turns alone, until no universe is left short of the target.
pub(crate) type Alone<C> = Vec<Turn<C>>;

/// Every player's counts, in the narrowest form that held them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Counts {
    /// Every count fits in 128 bits.
    Words(Vec<Alone<u128>>),
    /// Some count needed more.
    Big(Vec<Alone<BigUint>>),
}

impl Counts {
    /// The number of players.
    pub(crate) fn players(&self) -> usize {
        match self {
            Self::Words(players) => players.len(),
            Self::Big(players) => players.len(),
        }
    }

    /// The most turns a player takes.
    pub(crate) fn turns(&self) -> usize {
        let longest = match self {
            Self::Words(players) => players.iter().map(Vec::len).max(),
            Self::Big(players) => players.iter().map(Vec::len).max(),
        };
        longest.unwrap_or(0)
    }

    /// `W[t]` of player `i` as `C` (zero once it has no universe left).
    pub(crate) fn reached<C: Count>(&self, i: usize, t: usize) -> Result<C, CountOverflow> {
        let n = match self {
            Self::Words(players) => players[i].get(t - 1).map(|turn| C::from_u128(turn.reached)),
            Self::Big(players) => players[i].get(t - 1).map(|turn| C::from_biguint(&turn.reached)),
        };
        n.unwrap_or_else(|| Some(C::zero())).ok_or(CountOverflow::of::<C>())
    }

    /// `N[t]` of player `i` as `C`: 1 before its first turn, zero once it has
    /// no universe left.
    pub(crate) fn playing<C: Count>(&self, i: usize, t: usize) -> Result<C, CountOverflow> {
        if t == 0 {
            return Ok(C::from_u64(1));
        }
        let n = match self {
            Self::Words(players) => players[i].get(t - 1).map(|turn| C::from_u128(turn.playing)),
            Self::Big(players) => players[i].get(t - 1).map(|turn| C::from_biguint(&turn.playing)),
        };
        n.unwrap_or_else(|| Some(C::zero())).ok_or(CountOverflow::of::<C>())
    }

    /// Player `i`'s `W[t]` for every turn.
    pub(crate) fn alone(&self, i: usize) -> Vec<Universes> {
        match self {
            Self::Words(players) => players[i].iter().map(|turn| turn.reached.into()).collect(),
            Self::Big(players) => {
                players[i].iter().map(|turn| turn.reached.clone().into()).collect()
            }
        }
    }
}

/// Every player alone, for starts on the board and rules already checked:
/// in machine words when the bounds allow it, in big integers otherwise.
///
/// A player whose counts outgrow 1024 bits is counted again in big
/// integers: in big-integer cells, or over live cells (module `live`) if
/// those are refused by `limits` or estimated at more than twice the live
/// cells' work ([`OVER_CELLS`]). All such players are counted after the others,
/// at once on as many cores as their tables fit `limits` together.
pub(crate) fn play(
    starts: &[u64],
    rules: &DiceRules,
    limits: &DiracLimits,
) -> Result<Counts, DiceError> {
    let mut beyond = Beyond { starts, rules, limits, chosen: None };
    let Some(shape) = Shape::new(rules) else {
        beyond.chosen = Some(BigEngine::Cells(BigMoves::new(rules)?));
        return Ok(Counts::Big(beyond.count(starts)?));
    };
    // A pair that outgrows its shared words goes on as two players, at
    // once when their count is large enough to gain by it (a thread is
    // started for each pair).
    let ways = rules.threads(2, 2, limits, Counting::Words);
    let mut players = Vec::with_capacity(starts.len());
    for group in starts.chunks(2) {
        let singles: Vec<State<u64>> = if let [a, b] = *group {
            let mut pair = State::<u64>::new(&shape, &[a, b], Packing::Pair);
            if shape.resume(&mut pair, Packing::Pair) {
                players.extend(pair.players.into_iter().map(Played::Words));
                continue;
            }
            pair.split().into()
        } else {
            group.iter().map(|&start| State::new(&shape, &[start], Packing::Single)).collect()
        };
        players.extend(cores::map(singles, ways, |single| shape.finish(single)));
        if players.iter().any(|played| matches!(played, Played::Later(_))) {
            // Refused now, if the limits allow no way on.
            beyond.choose()?;
        }
    }
    if players.iter().all(|played| matches!(played, Played::Words(_))) {
        let words = players.into_iter().filter_map(|played| match played {
            Played::Words(turns) => Some(turns),
            Played::Big(_) | Played::Later(_) => None,
        });
        return Ok(Counts::Words(words.collect()));
    }
    let later: Vec<u64> = players
        .iter()
        .filter_map(|played| match *played {
            Played::Later(start) => Some(start),
            Played::Words(_) | Played::Big(_) => None,
        })
        .collect();
    let mut counted = beyond.count(&later)?.into_iter();
    let big = players.into_iter().map(|played| match played {
        Played::Words(turns) => turns
            .into_iter()
            .map(|turn| Turn { reached: turn.reached.into(), playing: turn.playing.into() })
            .collect(),
        Played::Big(turns) => turns,
        Played::Later(_) => counted.next().unwrap_or_default(),
    });
    Ok(Counts::Big(big.collect()))
}

/// How a game counts the players whose counts outgrow 1024 bits: chosen
/// once, for the whole game, when the first of them needs it (working out
/// the estimates can take a tenth of a second on a large board), then
/// used for all of them at once, on as many cores as their tables fit the
/// limits together.
struct Beyond<'a> {
    /// Every player's start, as the estimates are the whole game's.
    starts: &'a [u64],
    rules: &'a DiceRules,
    limits: &'a DiracLimits,
    /// `None` until a player needs it.
    chosen: Option<BigEngine>,
}

/// The engines that count a player in big integers from its first turn.
enum BigEngine {
    /// Over live cells, with the turn's moves worked out once.
    Live(live::Moves),
    /// In big-integer cells over the whole table, with the turn's moves
    /// worked out once.
    Cells(BigMoves),
}

impl Beyond<'_> {
    /// Chooses the engine, if not done yet: refuses the game if the limits
    /// allow neither.
    fn choose(&mut self) -> Result<&BigEngine, DiceError> {
        let Self { starts, rules, limits, .. } = *self;
        Ok(match &mut self.chosen {
            Some(chosen) => chosen,
            unchosen => {
                let cells = rules.check_dirac_size(starts, limits, Counting::Cells);
                let live = rules.check_live_size(starts.len(), limits);
                unchosen.insert(if DiceRules::prefer_live(cells, live, OVER_CELLS)? {
                    BigEngine::Live(live::Moves::new(rules))
                } else {
                    BigEngine::Cells(BigMoves::new(rules)?)
                })
            }
        })
    }

    /// Counts the players starting on `starts` in big integers from their
    /// first turn, several at once if their tables fit the limits together
    /// ([`DiceRules::threads`]).
    fn count(&mut self, starts: &[u64]) -> Result<Vec<Alone<BigUint>>, DiceError> {
        if starts.is_empty() {
            // Nobody needs the engine: its estimate must not refuse the game.
            return Ok(Vec::new());
        }
        let (rules, players, limits) = (self.rules, self.starts.len(), self.limits);
        let chosen = self.choose()?;
        let counting = match chosen {
            BigEngine::Live(_) => Counting::Live,
            BigEngine::Cells(_) => Counting::Cells,
        };
        let threads = rules.threads(players, starts.len(), limits, counting);
        cores::map(starts.to_vec(), threads, |start| match chosen {
            BigEngine::Live(moves) => Ok(moves.play(start, rules)),
            BigEngine::Cells(moves) => Ok(moves.count(&[start], rules)?.pop().unwrap_or_default()),
        })
        .into_iter()
        .collect()
    }
}

/// One player's counts, in words or in big integers, or to be counted in
/// big integers from its first turn with the other players that need it.
enum Played {
    Words(Alone<u128>),
    Big(Alone<BigUint>),
    Later(u64),
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::word::Wide;
    use super::*;
    use crate::error::RulesError;

    /// The word engine's counts as big integers, and which form held them.
    fn words(
        starts: &[u64],
        rules: &DiceRules,
        limits: &DiracLimits,
    ) -> Result<(Vec<Alone<BigUint>>, bool), DiceError> {
        Ok(match play(starts, rules, limits)? {
            Counts::Words(players) => {
                let big = |turn: &Turn<u128>| Turn {
                    reached: BigUint::from(turn.reached),
                    playing: BigUint::from(turn.playing),
                };
                (players.iter().map(|turns| turns.iter().map(big).collect()).collect(), true)
            }
            Counts::Big(players) => (players, false),
        })
    }

    pub(super) fn cells(starts: &[u64], rules: &DiceRules) -> Vec<Alone<BigUint>> {
        by_cells::<BigUint>(starts, rules).unwrap()
    }

    #[test]
    fn every_lane_width_agrees_with_big_integer_cells() {
        // The puzzle's die, by target: two players share a word up to 21,
        // then each has a u64 (30, 50), a u128 (100), big integers (200).
        for (target, fits) in [(21, true), (30, true), (50, true), (100, true), (200, false)] {
            let rules = DiceRules { target, ..DiceRules::dirac() };
            let starts = [4, 8, 1];
            let (words, held) = words(&starts, &rules, &DiracLimits::default()).unwrap();
            assert_eq!(held, fits, "target {target}");
            assert_eq!(words, cells(&starts, &rules), "target {target}");
        }
        let fits = |target: u64, width: &str| {
            let shape = Shape::new(&DiceRules { target, ..DiceRules::dirac() }).unwrap();
            let single = Packing::Single;
            match width {
                "pair" => shape
                    .resume(&mut State::<u64>::new(&shape, &[4, 8], Packing::Pair), Packing::Pair),
                "u64" => shape.resume(&mut State::<u64>::new(&shape, &[4], single), single),
                "u128" => shape.resume(&mut State::<u128>::new(&shape, &[4], single), single),
                _ => shape.resume(&mut State::<Wide<4>>::new(&shape, &[4], single), single),
            }
        };
        assert!(fits(21, "pair") && !fits(30, "pair") && fits(30, "u64"));
        assert!(!fits(100, "u64") && fits(100, "u128"));
        assert!(!fits(200, "u128") && fits(200, "wide") && !fits(300, "wide"));
    }

    #[test]
    fn a_pair_sharing_a_word_matches_each_player_alone() {
        let shape = Shape::new(&DiceRules::dirac()).unwrap();
        let play = |starts: &[u64], packing| {
            let mut state = State::<u64>::new(&shape, starts, packing);
            assert!(shape.resume(&mut state, packing));
            state.players
        };
        let pair = play(&[4, 8], Packing::Pair);
        assert_eq!(pair, [play(&[4], Packing::Single), play(&[8], Packing::Single)].concat());
        // Both on the same space: two seeds in one cell.
        let same = play(&[3, 3], Packing::Pair);
        assert_eq!(same[0], same[1]);
    }

    #[test]
    fn a_pair_split_part_way_finishes_like_players_alone() {
        // Target 30: two players share a word for a few turns, then go on
        // in words of their own, then u128 when the target is 70.
        for target in [30, 70] {
            let rules = DiceRules { target, ..DiceRules::dirac() };
            let shape = Shape::new(&rules).unwrap();
            let mut pair = State::<u64>::new(&shape, &[4, 8], Packing::Pair);
            assert!(!shape.resume(&mut pair, Packing::Pair));
            assert!(!pair.players[0].is_empty());
            let [first, second] = pair.split();
            for (single, start) in [(first, 4), (second, 8)] {
                let Played::Words(turns) = shape.finish(single) else { panic!() };
                let cells = by_cells::<u128>(&[start], &rules).unwrap().remove(0);
                assert_eq!(turns, cells, "target {target}, start {start}");
            }
        }
    }

    /// Players large enough to count at once (a pair split in wide words,
    /// and in big integers past 1024 bits) count what the reference does,
    /// in order.
    #[test]
    fn players_counted_at_once_count_as_one_by_one() {
        let limits = DiracLimits::default();
        for (target, starts) in [(150, &[4, 8][..]), (150, &[4, 8, 1]), (250, &[3, 3, 9, 10])] {
            let rules = DiceRules { target, ..DiceRules::dirac() };
            assert!(rules.spreads(starts.len(), 2, &limits, Counting::Words));
            assert_eq!(words(starts, &rules, &limits).unwrap().0, cells(starts, &rules));
        }
    }

    /// A game whose counts stay within 1024 bits never needs the
    /// big-integer engines, so their estimates must not refuse it.
    #[test]
    fn counts_in_wide_words_are_not_refused_by_the_big_integer_estimates() {
        let unbounded = DiracLimits::unbounded();
        for (target, starts) in [(150, &[4, 8][..]), (300, &[4, 8]), (120, &[1, 2, 3])] {
            let rules = DiceRules { target, ..DiceRules::dirac() };
            let words_work = rules.check_dirac_size(starts, &unbounded, Counting::Words).unwrap();
            let cells_work = rules.check_dirac_size(starts, &unbounded, Counting::Cells).unwrap();
            let live_work = rules.check_live_size(starts.len(), &unbounded).unwrap();
            assert!(words_work < cells_work.min(live_work), "target {target}");
            let limits = DiracLimits { max_work: words_work, ..unbounded };
            let (counts, held) = words(starts, &rules, &limits).unwrap();
            assert!(!held, "target {target}: past 128 bits");
            assert_eq!(counts, cells(starts, &rules), "target {target}");
        }
    }

    #[test]
    fn degenerate_dice_and_boards() {
        for rules in [
            // A one-faced die only turns the board, however many rolls.
            DiceRules { board: 7, target: 40, faces: 1, rolls: u64::MAX },
            DiceRules { board: 7, target: 40, faces: 1, rolls: 14 },
            // A one-space board scores 1 a turn.
            DiceRules { board: 1, target: 9, faces: 5, rolls: 2 },
            // Faces past the board: whole cycles plus a window.
            DiceRules { board: 4, target: 25, faces: 11, rolls: 3 },
            DiceRules { board: 3, target: 25, faces: 6, rolls: 2 },
            // A die too large for any word.
            DiceRules { board: 10, target: 5, faces: u64::MAX, rolls: 3 },
        ] {
            let starts = [1, rules.board, 1];
            assert_eq!(
                words(&starts, &rules, &DiracLimits::default()).unwrap().0,
                cells(&starts, &rules),
                "{rules}"
            );
        }
    }

    /// Past 1024 bits a count goes on in big integers: in big-integer cells
    /// or over live cells, whichever the limits allow (the live cells when
    /// both are allowed and they are estimated far cheaper), and refused
    /// only if they allow neither.
    #[test]
    fn past_1024_bits_the_cheaper_big_integer_engine_counts() {
        let unbounded = DiracLimits::unbounded();
        for (rules, live_is_cheaper) in [
            (DiceRules { board: 12, target: 33, faces: 2073, rolls: 5 }, false),
            (DiceRules { board: 164, target: 43, faces: 38024, rolls: 3 }, true),
        ] {
            let starts = [1, 5];
            let shape = Shape::new(&rules).unwrap();
            let single = Packing::Single;
            assert!(!shape.resume(&mut State::<Wide<16>>::new(&shape, &[1], single), single));
            let cells_work = rules.check_dirac_size(&starts, &unbounded, Counting::Cells).unwrap();
            let live_work = rules.check_live_size(starts.len(), &unbounded).unwrap();
            assert_eq!(OVER_CELLS.prefers_live(cells_work, live_work), live_is_cheaper, "{rules}");
            let expected = (cells(&starts, &rules), false);
            assert_eq!(words(&starts, &rules, &unbounded).unwrap(), expected);
            // Limits that allow the cheaper engine only.
            let cheaper = DiracLimits { max_work: cells_work.min(live_work), ..unbounded };
            assert_eq!(words(&starts, &rules, &cheaper).unwrap(), expected);
            let neither = DiracLimits { max_work: cells_work.min(live_work) - 1, ..unbounded };
            assert!(matches!(
                words(&starts, &rules, &neither),
                Err(DiceError::Rules(RulesError::DiracTooSlow { work, .. })) if work == cells_work
            ));
        }
    }

    /// Rules around every lane's limit: dice up to 12 faces and 5 rolls,
    /// targets up to 70 (per-player counts up to about 2^150).
    pub(super) fn rules() -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
        (1..=12_u64, 1..=70_u64, 1..=12_u64, 1..=5_u64, 2..=5_usize).prop_flat_map(
            |(board, target, faces, rolls, players)| {
                (
                    Just(DiceRules { board, target, faces, rolls }),
                    proptest::collection::vec(1..=board, players),
                )
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn words_agree_with_big_integer_cells((rules, starts) in rules()) {
            prop_assert_eq!(words(&starts, &rules, &DiracLimits::default()).unwrap().0, cells(&starts, &rules));
        }
    }
}
