//! # The word engine: one table of counts, rolled in registers
//!
//! A player's (or two packed players') universes after `t` turns sit in a
//! [`Table`], one row per space and one column per score. A turn is the
//! die's passes over the rows, then a landing that moves the value of
//! space `q` `q + 1` columns right, or into `W[t]` from the target on.
//!
//! * [`Shape`] is the rules as the engine uses them: the die folded onto
//!   the board (`faces = cycles × board + window`), the passes a turn, and
//!   the universes a turn splits into.
//! * [`State`] is a game part way: the table, the band of scores that hold
//!   universes, and each player's `N` and turns so far. It moves to wider
//!   words mid-game ([`State::widen`]), and a pair sharing words splits
//!   into two players ([`State::split`]).
//! * The kernels ([`Die`]) take a few columns out of every row, roll them
//!   through all the passes while they stay in registers, and land them:
//!   [`Fixed`] with the puzzle's board and die compiled in, [`Sliding`] for
//!   any die (a sliding window over a doubled row, plus `cycles` times the
//!   row sum when the die is larger than the board).
//!
//! Before each turn, [`Shape::resume`] checks that `N[t − 1] × faces^rolls`
//! fits a lane of the words ([`Word::room`]); every value of the turn is a
//! share of it, so the kernels add without checks.

use crate::count::Count;
use crate::count::sealed::Sealed;
use crate::dirac::DiceRules;

use super::word::{Packing, Wide, Word, add_all, sub_all};
use super::{Alone, Played, Turn};

/// The rules, as the word engine uses them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
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
    pub(super) fn new(rules: &DiceRules) -> Option<Self> {
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
    pub(super) fn resume<L: Word>(&self, state: &mut State<L>, packing: Packing) -> bool {
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
    pub(super) fn finish(&self, state: State<u64>) -> Played {
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
pub(super) struct State<L: Word> {
    table: Table<L>,
    band: (usize, usize),
    alive: Vec<L::Exact>,
    pub(super) players: Vec<Alone<L::Exact>>,
    /// The players' starts, to begin again in big integers.
    starts: [u64; 2],
}

impl<L: Word> State<L> {
    pub(super) fn new(shape: &Shape, starts: &[u64], packing: Packing) -> Self {
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
    pub(super) fn split(self) -> [State<u64>; 2] {
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
