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

use std::fmt;

use num_bigint::BigUint;

use crate::cores;
use crate::count::sealed::Sealed;
use crate::count::{Count, Universes};
use crate::error::{CountOverflow, DiceError};

use super::quantum::moves;
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
        n.unwrap_or_else(|| Some(C::zero())).ok_or(CountOverflow { width: C::NAME })
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
        n.unwrap_or_else(|| Some(C::zero())).ok_or(CountOverflow { width: C::NAME })
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

/// The rules, as the word engine uses them.
#[derive(Debug, Clone, Copy)]
struct Shape {
    board: usize,
    target: usize,
    /// Faces of the die, and how they fold onto the board: `faces = cycles ×
    /// board + window`.
    faces: u64,
    cycles: u64,
    window: usize,
    /// Passes of the die in a turn: the rolls, except for a one-faced die,
    /// which only turns the board (by `rolls mod board`).
    passes: usize,
    /// `faces^rolls`, the universes one turn splits into.
    universes: u128,
}

impl Shape {
    /// `None` when a turn splits into more than 2¹²⁸ universes: no word
    /// holds even one turn.
    fn new(rules: &DiceRules) -> Option<Self> {
        // The rules' size check admits only tables this machine can
        // allocate (`can_allocate`), whatever the limits, so the tables'
        // `2 × board × (target + MAX_COLUMNS)` words fit in usize.
        let board = usize::try_from(rules.board).ok()?;
        let target = usize::try_from(rules.target).ok()?;
        let (universes, passes) = if rules.faces == 1 {
            // The remainder is below the board, a usize.
            (1, (rules.rolls % rules.board) as usize)
        } else {
            let rolls = u32::try_from(rules.rolls).ok()?;
            (u128::from(rules.faces).checked_pow(rolls)?, rolls as usize)
        };
        Some(Self {
            board,
            target,
            faces: rules.faces,
            cycles: rules.faces / rules.board,
            // The remainder is below the board, a usize.
            window: (rules.faces % rules.board) as usize,
            passes,
            universes,
        })
    }

    /// Plays on until every universe has reached the target (true), or
    /// until a turn's bound does not fit the words `L` (false, with the state
    /// as it was before that turn).
    fn resume<L: Word>(&self, state: &mut State<L>, packing: Packing) -> bool {
        // Columns at a time: as many as fit a few vector registers for
        // 64-bit words, fewer as the words widen (measured).
        let fixed = (self.board, self.faces, self.passes) == (10, 3, 3);
        match (fixed, L::LIMBS) {
            (true, 1) => self.turns::<L, _>(&mut Fixed::<10, 3, 3, 2>, state, packing),
            (true, _) => self.turns::<L, _>(&mut Fixed::<10, 3, 3, 1>, state, packing),
            (false, 1) => self.turns::<L, _>(&mut Sliding::<L, 4>::new(self), state, packing),
            (false, 2) => self.turns::<L, _>(&mut Sliding::<L, 2>::new(self), state, packing),
            (false, _) => self.turns::<L, _>(&mut Sliding::<L, 1>::new(self), state, packing),
        }
    }

    // Kept out of line: one copy a word and die, each compiled on its own
    // (inlined into `finish`, the five copies share registers badly).
    #[inline(never)]
    fn turns<L: Word, D: Die<L>>(
        &self,
        die: &mut D,
        state: &mut State<L>,
        packing: Packing,
    ) -> bool {
        let State { table, band, alive, players, .. } = state;
        while band.0 < band.1 {
            // Every cell, partial sum and W[t] of this turn is a share of
            // N[t − 1] × universes in its lane: if that fits, nothing below
            // can overflow.
            if !alive.iter().all(|alive| L::room(alive, self.universes, packing)) {
                return false;
            }
            let reached = packing.split(die.turn(table, band.0, band.1));
            for ((alive, turns), reached) in alive.iter_mut().zip(players.iter_mut()).zip(reached) {
                if !alive.is_zero() {
                    // The product fits (the bound above), and the difference
                    // is never negative: the universes that reach the target
                    // are some of those the turn split into. Were either
                    // ever false, the count would go to wider lanes rather
                    // than stop the program.
                    let Some(next) = L::Exact::from_u128(self.universes)
                        .and_then(|universes| universes.checked_mul(alive))
                        .and_then(|split| split.checked_sub(&reached))
                    else {
                        return false;
                    };
                    *alive = next;
                    turns.push(Turn { reached, playing: alive.clone() });
                }
            }
            table.flip();
            // Scores grow by 1 to `board` in a turn.
            *band = table.band(band.0 + 1, (band.1 + self.board).min(self.target));
        }
        true
    }

    /// Plays one player to the end, moving its table to wider words
    /// whenever a turn's bound outgrows them: 64, 128, 256, 512 and 1024
    /// bits; past those, the player is left to be counted in big integers
    /// from the start (`Played::Later`), in big-integer cells or over live
    /// cells, as `beyond` chooses for the game now: either is used only if
    /// the whole game's estimate in it is within the limits, as every
    /// player is likely to need it.
    fn finish(&self, state: State<u64>) -> Played {
        let mut state = state;
        if self.resume(&mut state, Packing::Single) {
            return Played::Words(state.into_player());
        }
        let mut state = state.widen::<u128>();
        if self.resume(&mut state, Packing::Single) {
            return Played::Words(state.into_player());
        }
        let mut state = state.widen::<Wide<4>>();
        if self.resume(&mut state, Packing::Single) {
            return Played::Big(state.into_player());
        }
        let mut state = state.widen::<Wide<8>>();
        if self.resume(&mut state, Packing::Single) {
            return Played::Big(state.into_player());
        }
        let mut state = state.widen::<Wide<16>>();
        if self.resume(&mut state, Packing::Single) {
            return Played::Big(state.into_player());
        }
        Played::Later(state.starts[0])
    }
}

/// One or two players part way through their games: the table, the scores
/// that hold universes, and each player's `N` and turns so far.
struct State<L: Word> {
    table: Table<L>,
    band: (usize, usize),
    alive: Vec<L::Exact>,
    players: Vec<Alone<L::Exact>>,
    /// The players' starts, to begin again in big integers.
    starts: [u64; 2],
}

impl<L: Word> State<L> {
    fn new(shape: &Shape, starts: &[u64], packing: Packing) -> Self {
        let mut table = Table::<L>::new(shape.board, shape.target);
        for (slot, &start) in starts.iter().enumerate() {
            // Starts are on the board, whose size is a usize.
            let cell = (start - 1) as usize * table.cols;
            table.cur_mut()[cell].add(packing.seed(slot));
        }
        // Every turn scores, so a player takes at most `target` turns.
        let turns = Vec::with_capacity(shape.target.min(64));
        Self {
            table,
            band: (0, 1),
            alive: vec![L::Exact::from_u64(1); starts.len()],
            players: vec![turns; starts.len()],
            starts: [starts[0], starts.get(1).copied().unwrap_or(0)],
        }
    }

    /// The same counts in wider words.
    fn widen<M: Word + From<L>>(self) -> State<M>
    where
        M::Exact: From<L::Exact>,
    {
        let Table { cells, flipped, cols, target } = self.table;
        let cells = cells.into_iter().map(M::from).collect();
        let wider = <M::Exact as From<L::Exact>>::from;
        let exact = |turn: Turn<L::Exact>| Turn {
            reached: wider(turn.reached),
            playing: wider(turn.playing),
        };
        State {
            table: Table { cells, flipped, cols, target },
            band: self.band,
            alive: self.alive.into_iter().map(wider).collect(),
            players: self
                .players
                .into_iter()
                .map(|turns| turns.into_iter().map(exact).collect())
                .collect(),
            starts: self.starts,
        }
    }

    fn into_player(mut self) -> Alone<L::Exact> {
        self.players.pop().unwrap_or_default()
    }
}

impl State<u64> {
    /// Two players sharing words, each in words of its own.
    fn split(self) -> [State<u64>; 2] {
        let Table { mut cells, flipped, cols, target } = self.table;
        // The second player's half is copied out, the first's kept in
        // place: two tables at once, not three.
        let high = cells.iter().map(|word| word >> 32).collect();
        for word in &mut cells {
            *word &= u64::from(u32::MAX);
        }
        let state = |slot: usize, cells| State {
            table: Table { cells, flipped, cols, target },
            band: self.band,
            alive: vec![self.alive[slot]],
            players: Vec::new(),
            starts: [self.starts[slot], 0],
        };
        let [mut first, mut second] = [state(0, cells), state(1, high)];
        let [one, two]: [Alone<u128>; 2] =
            self.players.try_into().unwrap_or_else(|_| [Vec::new(), Vec::new()]);
        (first.players, second.players) = (vec![one], vec![two]);
        for state in [&mut first, &mut second] {
            state.band = state.table.band(state.band.0, state.band.1);
        }
        [first, second]
    }
}

/// How the players of one table share its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packing {
    /// One player a word.
    Single,
    /// Two players in a 64-bit word, 32 bits each: additions and
    /// multiplications by small numbers act on both halves at once, and a
    /// half never carries into the other while both stay below 2³².
    Pair,
}

impl Packing {
    /// One universe of the player in `slot`.
    fn seed<L: Word>(self, slot: usize) -> L {
        match self {
            Self::Single => L::ONE,
            Self::Pair => L::from_u64(1 << (32 * slot)),
        }
    }

    /// The players' counts in a word.
    fn split<L: Word>(self, word: L) -> [L::Exact; 2] {
        match self {
            Self::Single => [word.exact(), L::Exact::zero()],
            Self::Pair => word.halves(),
        }
    }
}

/// A machine word of counts. Arithmetic does not check for overflow: the
/// engine proves, once a turn, that none happens (debug builds still trap).
trait Word: Copy + PartialEq + fmt::Debug {
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
struct Wide<const N: usize>([u64; N]);

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

fn add_all<L: Word, const W: usize>(to: &mut [L; W], from: &[L; W]) {
    for (to, &from) in to.iter_mut().zip(from) {
        to.add(from);
    }
}

fn sub_all<L: Word, const W: usize>(to: &mut [L; W], from: &[L; W]) {
    for (to, &from) in to.iter_mut().zip(from) {
        to.sub(from);
    }
}

/// One player's universes (or two players', packed) by space and score:
/// `cur[space × cols + score]`, scores below the target, plus zeroed
/// columns past the end so that a few columns can be read at once. The
/// table before the turn and the table after it share one allocation.
struct Table<L> {
    cells: Vec<L>,
    /// Whether the second half holds the table before the turn.
    flipped: bool,
    cols: usize,
    target: usize,
}

/// The most columns a kernel handles at once.
pub(crate) const MAX_COLUMNS: usize = 4;

impl<L: Word> Table<L> {
    fn new(board: usize, target: usize) -> Self {
        let cols = target + MAX_COLUMNS;
        Self { cells: vec![L::ZERO; 2 * board * cols], flipped: false, cols, target }
    }

    /// The table before the turn, and the one after it.
    fn halves(&mut self) -> (&mut [L], &mut [L]) {
        let half = self.cells.len() / 2;
        let (first, second) = self.cells.split_at_mut(half);
        if self.flipped { (second, first) } else { (first, second) }
    }

    fn cur_mut(&mut self) -> &mut [L] {
        self.halves().0
    }

    /// After a turn, the next table becomes the current one.
    fn flip(&mut self) {
        self.flipped = !self.flipped;
    }

    /// The scores in `low..high` that hold universes, trimmed at both ends.
    fn band(&self, mut low: usize, mut high: usize) -> (usize, usize) {
        let half = self.cells.len() / 2;
        let cur = if self.flipped { &self.cells[half..] } else { &self.cells[..half] };
        let empty = |score: usize| cur.chunks_exact(self.cols).all(|row| row[score] == L::ZERO);
        while low < high && empty(low) {
            low += 1;
        }
        while high > low && empty(high - 1) {
            high -= 1;
        }
        (low, high)
    }
}

/// Takes the columns `c..c + W` out of every row of `cur` (leaving zeros).
fn gather<L: Word, const W: usize>(cur: &mut [L], cols: usize, c: usize, block: &mut [[L; W]]) {
    for (chunk, row) in block.iter_mut().zip(cur.chunks_exact_mut(cols)) {
        let cells = &mut row[c..c + W];
        chunk.copy_from_slice(cells);
        cells.fill(L::ZERO);
    }
}

/// Lands a turn: the universes on space `q` at score `c + i` move to score
/// `c + i + q + 1` of `next`, or into `reached` from the target on.
fn land<L: Word, const W: usize>(
    block: &[[L; W]],
    next: &mut [L],
    cols: usize,
    target: usize,
    c: usize,
    reached: &mut L,
) {
    for (q, (chunk, row)) in block.iter().zip(next.chunks_exact_mut(cols)).enumerate() {
        let at = c + q + 1;
        if at + W <= target {
            row[at..at + W].copy_from_slice(chunk);
        } else {
            for (i, &count) in chunk.iter().enumerate() {
                if at + i < target {
                    row[at + i] = count;
                } else {
                    reached.add(count);
                }
            }
        }
    }
}

/// A turn over the table's score band: returns the universes that reach the
/// target and leaves `cur` zeroed.
trait Die<L: Word> {
    fn turn(&mut self, table: &mut Table<L>, low: usize, high: usize) -> L;
}

/// A die of `F` faces rolled `R` times on a board of `B` spaces (`F < B`),
/// known when compiling: the puzzle's. `W` columns at a time (two for
/// 64-bit words, one for wider ones), with every
/// index and loop bound a constant, so the block stays in registers.
struct Fixed<const B: usize, const F: usize, const R: usize, const W: usize>;

impl<L: Word, const B: usize, const F: usize, const R: usize, const W: usize> Die<L>
    for Fixed<B, F, R, W>
{
    fn turn(&mut self, table: &mut Table<L>, low: usize, high: usize) -> L {
        let (cols, target) = (table.cols, table.target);
        let (cur, next) = table.halves();
        let mut reached = L::ZERO;
        for c in (low..high).step_by(W) {
            let mut block = [[L::ZERO; W]; B];
            gather(cur, cols, c, &mut block);
            for _ in 0..R {
                let mut rolled = [[L::ZERO; W]; B];
                for (q, to) in rolled.iter_mut().enumerate() {
                    for face in 1..=F {
                        add_all(to, &block[(q + B - face) % B]);
                    }
                }
                block = rolled;
            }
            land(&block, next, cols, target, c, &mut reached);
        }
        reached
    }
}

/// Any die on any board: a sliding window over a doubled row (so that no
/// index wraps), `W` columns at a time (four for 64-bit words, two for
/// 128-bit ones, one for wider ones).
struct Sliding<L, const W: usize> {
    board: usize,
    window: usize,
    cycles: u64,
    passes: usize,
    /// `rows[q] = rows[q + board]`: the block being rolled, and the next.
    rows: Vec<[L; W]>,
    rolled: Vec<[L; W]>,
}

impl<L: Word, const W: usize> Sliding<L, W> {
    fn new(shape: &Shape) -> Self {
        let rows = vec![[L::ZERO; W]; 2 * shape.board];
        Self {
            board: shape.board,
            window: shape.window,
            cycles: shape.cycles,
            passes: shape.passes,
            rolled: rows.clone(),
            rows,
        }
    }
}

impl<L: Word, const W: usize> Die<L> for Sliding<L, W> {
    fn turn(&mut self, table: &mut Table<L>, low: usize, high: usize) -> L {
        let (board, window) = (self.board, self.window);
        let (cols, target) = (table.cols, table.target);
        let (cur, next) = table.halves();
        let mut reached = L::ZERO;
        for c in (low..high).step_by(W) {
            let (rows, rolled) = (&mut self.rows, &mut self.rolled);
            gather(cur, cols, c, &mut rows[..board]);
            rows.copy_within(..board, board);
            for _ in 0..self.passes {
                // Faces 1..=window: the window of rows q − window ..= q − 1.
                let mut sum = [L::ZERO; W];
                for row in &rows[board - window..board] {
                    add_all(&mut sum, row);
                }
                // Faces past a whole board: `cycles` times every row.
                let mut all = [L::ZERO; W];
                if self.cycles > 0 {
                    for row in &rows[..board] {
                        add_all(&mut all, row);
                    }
                    all = all.map(|n| n.times(self.cycles));
                }
                for q in 0..board {
                    if q > 0 {
                        add_all(&mut sum, &rows[q + board - 1]);
                        sub_all(&mut sum, &rows[q + board - 1 - window]);
                    }
                    let mut to = sum;
                    if self.cycles > 0 {
                        add_all(&mut to, &all);
                    }
                    rolled[q] = to;
                    rolled[q + board] = to;
                }
                std::mem::swap(rows, rolled);
            }
            land(&rows[..board], next, cols, target, c, &mut reached);
        }
        reached
    }
}

/// A turn's moves for the big-integer cells, worked out once a game (with
/// a die of 2⁶⁴ − 1 faces, that takes seconds): the steps modulo the
/// board with their universes, also in machine words when every move's
/// fit one, and the universes of a turn.
pub(crate) struct BigMoves {
    words: Option<Vec<(usize, u64)>>,
    big: Vec<(usize, BigUint)>,
    per_turn: BigUint,
}

impl BigMoves {
    pub(crate) fn new(rules: &DiceRules) -> Result<Self, CountOverflow> {
        let (moves, per_turn) = moves::<BigUint>(rules)?;
        let big: Vec<(usize, BigUint)> = moves
            .into_iter()
            .filter(|(_, n)| !n.is_zero())
            .map(|(steps, n)| (steps as usize, n))
            .collect();
        let words = big.iter().map(|(steps, n)| Some((*steps, u64::try_from(n).ok()?))).collect();
        Ok(Self { words, big, per_turn })
    }

    /// Counts the players on `starts` in big-integer cells: in limbs
    /// ([`Cells::play_in_limbs`]) when the moves' universes fit in words,
    /// else in [`BigUint`] cells ([`Cells::play`]).
    pub(crate) fn count(
        &self,
        starts: &[u64],
        rules: &DiceRules,
    ) -> Result<Vec<Alone<BigUint>>, CountOverflow> {
        let Self { words, big, per_turn } = self;
        if let Some(words) = words {
            let mut tables = Cells::new(rules, Vec::new());
            Ok(starts
                .iter()
                .map(|&start| tables.play_in_limbs(start as usize - 1, words, per_turn))
                .collect())
        } else {
            let mut tables = Cells::new(rules, BigUint::zero());
            starts.iter().map(|&start| tables.play(start as usize - 1, big, per_turn)).collect()
        }
    }
}

/// The same counts cell by cell, in any [`Count`]: a flat table of (space,
/// score) cells a turn, each pushed through the turn's folded moves. Slower
/// than words, but any size: the reference the other engines are tested
/// against (the engine itself counts in [`BigUint`] cells through
/// [`BigMoves`]).
#[cfg(test)]
pub(crate) fn by_cells<C: Count>(
    starts: &[u64],
    rules: &DiceRules,
) -> Result<Vec<Alone<C>>, CountOverflow> {
    let (moves, per_turn) = moves::<C>(rules)?;
    let moves: Vec<(usize, C)> = moves.into_iter().map(|(s, n)| (s as usize, n)).collect();
    let mut tables = Cells::new(rules, C::zero());
    starts.iter().map(|&start| tables.play(start as usize - 1, &moves, &per_turn)).collect()
}

/// A player's two flat tables of (space, score) cells, reused from one
/// player to the next: counts in any [`Count`], or in limbs (`Vec<u64>`,
/// where each cell keeps the capacity it grew to).
struct Cells<T> {
    board: usize,
    target: usize,
    now: Vec<T>,
    next: Vec<T>,
}

/// A cell of [`Cells`]: a count into which a move adds its product.
trait Cell {
    /// A move's universes.
    type Factor;
    fn is_empty(&self) -> bool;
    /// `self += count × factor`, within the turn's bound.
    fn add_product(&mut self, count: &Self, factor: &Self::Factor);
    fn clear(&mut self);
}

impl<C: Count> Cell for C {
    type Factor = C;
    fn is_empty(&self) -> bool {
        self.is_zero()
    }
    fn add_product(&mut self, count: &Self, factor: &C) {
        self.add_product_within(count, factor);
    }
    fn clear(&mut self) {
        *self = C::zero();
    }
}

/// Limbs, least significant first: empty for no universe.
impl Cell for Vec<u64> {
    type Factor = u64;
    fn is_empty(&self) -> bool {
        <[u64]>::is_empty(self)
    }
    fn add_product(&mut self, count: &Self, factor: &u64) {
        mul_add(self, count, *factor);
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

impl<T: Clone> Cells<T> {
    /// Two tables of `board × target` cells under `rules`, every cell
    /// `empty`.
    fn new(rules: &DiceRules, empty: T) -> Self {
        // The rules' size check bounds board × target by the table limit,
        // so both fit in usize.
        let board = usize::try_from(rules.board).unwrap_or(usize::MAX);
        let target = usize::try_from(rules.target).unwrap_or(usize::MAX);
        let now = vec![empty; board * target];
        Self { board, target, next: now.clone(), now }
    }
}

impl<T: Cell> Cells<T> {
    /// One turn over the scores `low..high` of `now`: each cell holding
    /// universes adds its count times each move's into the cell it lands
    /// on, or into `reached` from the target on. Leaves those rows of
    /// `now` cleared and the turn's table in `now`; returns the scores that
    /// may hold universes now.
    fn turn(
        &mut self,
        (low, high): (usize, usize),
        moves: &[(usize, T::Factor)],
        reached: &mut T,
    ) -> (usize, usize) {
        let (board, target) = (self.board, self.target);
        let (mut next_low, mut next_high) = (target, 0);
        for score in low..high {
            let row = &self.now[score * board..(score + 1) * board];
            for (space, count) in row.iter().enumerate() {
                if count.is_empty() {
                    continue;
                }
                for (steps, universes) in moves {
                    let mut landing = space + steps;
                    if landing >= board {
                        landing -= board;
                    }
                    let new_score = score + landing + 1;
                    if new_score >= target {
                        reached.add_product(count, universes);
                    } else {
                        self.next[new_score * board + landing].add_product(count, universes);
                        next_low = next_low.min(new_score);
                        next_high = next_high.max(new_score + 1);
                    }
                }
            }
        }
        for cell in &mut self.now[low * board..high * board] {
            cell.clear();
        }
        std::mem::swap(&mut self.now, &mut self.next);
        (next_low, next_high.max(next_low))
    }
}

impl<C: Count> Cells<C> {
    /// Plays a pawn from `space` (0-based) until every universe has reached
    /// the target. Leaves both tables zeroed.
    fn play(
        &mut self,
        space: usize,
        moves: &[(usize, C)],
        per_turn: &C,
    ) -> Result<Alone<C>, CountOverflow> {
        let overflow = || CountOverflow { width: C::NAME };
        let mut alive = C::from_u64(1);
        self.now[space] = alive.clone();
        // Rows (scores) of `now` that may hold universes.
        let mut band = (0, 1);
        let mut alone = Vec::new();
        while !alive.is_zero() {
            // Every addition below is a share of this bound, so none overflows.
            let bound = alive.checked_mul(per_turn).ok_or_else(overflow)?;
            let mut reached = C::zero();
            band = self.turn(band, moves, &mut reached);
            alive = bound.checked_sub(&reached).ok_or_else(overflow)?;
            alone.push(Turn { reached, playing: alive.clone() });
        }
        Ok(alone)
    }
}

impl Cells<Vec<u64>> {
    /// Plays a pawn from `space` (0-based) in limbs, moves of at most a
    /// word each, until every universe has reached the target, as
    /// [`Cells::play`] does in big integers. Leaves both tables empty.
    fn play_in_limbs(
        &mut self,
        space: usize,
        moves: &[(usize, u64)],
        per_turn: &BigUint,
    ) -> Alone<BigUint> {
        let mut alive = BigUint::from(1_u8);
        self.now[space].push(1);
        let mut band = (0, 1);
        let mut alone = Vec::new();
        let mut reached = Vec::new();
        while !alive.is_zero() {
            band = self.turn(band, moves, &mut reached);
            let turn = from_limbs(&reached);
            reached.clear();
            // The universes that reach the target are some of those the
            // turn split into.
            alive = alive * per_turn - &turn;
            alone.push(Turn { reached: turn, playing: alive.clone() });
        }
        alone
    }
}

/// `to += from × factor`, in limbs, least significant first, with `factor`
/// above zero. Trimmed (no zero limb on top) if both were: `to` grows only
/// as far as the sum needs.
fn mul_add(to: &mut Vec<u64>, from: &[u64], factor: u64) {
    if to.len() < from.len() {
        to.resize(from.len(), 0);
    }
    let (low, high) = to.split_at_mut(from.len());
    let mut carry = 0_u64;
    for (to, &from) in low.iter_mut().zip(from) {
        // At most (2⁶⁴ − 1)² + 2 × (2⁶⁴ − 1) = 2¹²⁸ − 1: no overflow.
        let sum = u128::from(from) * u128::from(factor) + u128::from(*to) + u128::from(carry);
        *to = sum as u64;
        carry = (sum >> 64) as u64;
    }
    for to in high {
        if carry == 0 {
            return;
        }
        let overflowed;
        (*to, overflowed) = to.overflowing_add(carry);
        carry = u64::from(overflowed);
    }
    if carry > 0 {
        to.push(carry);
    }
}

/// The number held in limbs, least significant first.
fn from_limbs(limbs: &[u64]) -> BigUint {
    let bytes: Vec<u8> = limbs.iter().flat_map(|limb| limb.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

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

    fn cells(starts: &[u64], rules: &DiceRules) -> Vec<Alone<BigUint>> {
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

    #[test]
    fn limbs_add_products_with_every_carry() {
        let big = |limbs: &[u64]| from_limbs(limbs);
        for (to, from, factor) in [
            (vec![], vec![u64::MAX, u64::MAX], u64::MAX),
            (vec![u64::MAX, u64::MAX, u64::MAX], vec![1], 1),
            (vec![u64::MAX, u64::MAX, u64::MAX], vec![u64::MAX], u64::MAX),
            (vec![5], vec![0, 0, 7], 3),
            (vec![1, 2, 3, 4], vec![u64::MAX], 2),
        ] {
            let mut sum = to.clone();
            mul_add(&mut sum, &from, factor);
            assert_eq!(big(&sum), big(&to) + big(&from) * factor, "{to:?} + {from:?} × {factor}");
            assert_ne!(sum.last(), Some(&0), "{sum:?} is not trimmed");
        }
    }

    /// The limb cells count as the big-integer cells do, past many limbs
    /// (target 300: counts of about 1500 bits), and leave to them the dice
    /// whose moves outgrow a word.
    #[test]
    fn limb_cells_agree_with_big_integer_cells() {
        for rules in [
            DiceRules { target: 300, ..DiceRules::dirac() },
            DiceRules { board: 7, target: 120, faces: 6, rolls: 6 },
            DiceRules { board: 1, target: 9, faces: 5, rolls: 2 },
            DiceRules { board: 3, target: 40, faces: 1 << 40, rolls: 1 },
        ] {
            let starts = [1, rules.board];
            let moves = BigMoves::new(&rules).unwrap();
            assert!(moves.words.is_some(), "{rules}");
            assert_eq!(moves.count(&starts, &rules).unwrap(), cells(&starts, &rules), "{rules}");
        }
        // A move's universes past 2^64: about 2^80 / 3 each.
        let wide = DiceRules { board: 3, target: 40, faces: 1 << 40, rolls: 2 };
        let moves = BigMoves::new(&wide).unwrap();
        assert!(moves.words.is_none());
        assert_eq!(moves.count(&[1, 2], &wide).unwrap(), cells(&[1, 2], &wide));
    }

    /// Rules around every lane's limit: dice up to 12 faces and 5 rolls,
    /// targets up to 70 (per-player counts up to about 2^150).
    fn rules() -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
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

        #[test]
        fn limbs_agree_with_big_integer_cells((rules, starts) in rules()) {
            let moves = BigMoves::new(&rules).unwrap();
            prop_assert!(moves.words.is_some());
            prop_assert_eq!(moves.count(&starts, &rules).unwrap(), cells(&starts, &rules));
        }
    }
}
