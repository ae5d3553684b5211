//! # How large a game is: estimates and limits
//!
//! Rules that make sense (the parent module's [`DiceRules::validate`]) are
//! played exactly, but some are too large to finish. Each engine states
//! its own limit:
//!
//! * The deterministic game simulates at most 20 million turns to learn each
//!   pawn's period, unless blocks or a sweep make the period unneeded, and
//!   plays a game none of those apply to for at most a billion turns (see
//!   [`crate::play_deterministic`]).
//! * The Dirac game keeps, for each player, a table of `board × target`
//!   counts, where a board of more than `target + rolls × faces` spaces
//!   counts as that many (see below). A count of one player's universes
//!   after `t` turns has at most `t × rolls × ⌈log₂ faces⌉` bits, and `t`
//!   is at most the longest game a player can play alone, `turns`: at most
//!   `target` (a landing scores at least 1), often far fewer, and computed
//!   exactly from the rules by a sliding maximum over the board
//!   ([`DiceRules::longest_game`], for boards and targets of up to 2²⁴
//!   cells; `target` beyond). The estimates follow the engine that will
//!   count the game:
//!   * while a turn's universes fit in 128 bits and every count in 1024,
//!     the word engine: two tables of `board × (target + 4)` words of 1,
//!     2, 4, 8 or 16 limbs (moving to wider ones holds the narrower copy
//!     too, for a moment, and where two players stop sharing 64-bit words
//!     the other player's table waits its turn), and four rows of the
//!     board for the kernel; a turn costs `rolls + 1` passes over the table, so
//!     the work is `(players × board × target × turns × (rolls + 1) +
//!     turns × players²) × limbs`, plus 64 operations per word of the
//!     tables (zeroed, copied as they widen, read: on a large board, that
//!     is the work);
//!   * otherwise big-integer cells: each cell holding universes (at most
//!     `min(board, target) × target` of them, as a pawn short of the target
//!     stands on a space no higher than its score) adds its count times
//!     each distinct move's, so the work is `((players × turns × cells
//!     held × distinct moves + turns × players²) × words per count +
//!     building the moves × max(words per count, 64)) × √(words of one
//!     turn's count)`, where a count takes at least 32 words (a product
//!     allocates, however short it is). The square root is for
//!     multiplying two large numbers: a turn's counts are 25,000 words with
//!     a million rolls, and the count is then products of large numbers,
//!     not sums of large and small.
//!
//!   The per-player engine is estimated in machine words whenever a
//!   turn's universes fit in 128 bits: the bound `faces^(rolls × t)` on
//!   its counts is far above them once most universes have reached the
//!   target, so the words often hold a game the bound says they cannot.
//!   If a count does outgrow 1024 bits, the engine checks the game's
//!   estimate in big-integer cells before it moves to them, and refuses
//!   the game then (target 5000: after a tenth of a second).
//!
//!   The per-player engine may count over live cells instead (module
//!   `live`): `target × min(target, board)` of them, each turn `target ×
//!   live² / 2` products at most, each of a count by a move's universes;
//!   with moves of several words, it also counts the products score by
//!   score, each word of one times each of the other, and takes the larger
//!   ([`DiceRules::check_live_size`]). It does
//!   when the table is refused, or unless their estimate is at least
//!   twice the table's ([`OVER_TABLE`]: that bound is far looser than the
//!   table's), and, once counts outgrow 1024 bits, when big-integer cells
//!   are refused or estimated at twice their work or more
//!   ([`OVER_CELLS`]); the game is refused only if both are.
//!
//!   The tables may hold at most 2²⁷ 64-bit words (1 GiB) and the count
//!   may take at most 2 × 10¹⁰ word operations (seconds: measured on
//!   random rules, 1.4 to 40 × 10⁹ a second). Both estimates are upper
//!   bounds. `turns` is first taken as `target`, and worked out only if
//!   that refuses the game: the puzzle's rules are estimated at 109,604
//!   operations that way (74,240 of them for the tables), and at 91,080
//!   with the 10 turns its longest game takes. Both
//!   limits are defaults: [`DiracLimits`] moves them (`--max-memory` and
//!   `--max-work` on the command line).
//!
//! Players counted at once on several cores ([`DiceRules::spreads`]) each
//! hold their own tables, so they are spread only if that many tables fit
//! `max_table_words` together; the work limit is the game's, whatever the
//! cores.
//!
//! A Dirac game on a board of more than `target + rolls × faces` spaces is
//! checked and counted as the same game on a board of that many
//! (`DiceRules::dirac_board`, in the parent module; the proof is in the
//! `dirac` module's documentation, "A large board is a small one").

use crate::error::{DiracLimit, RulesError};

use super::DiceRules;

/// The most turns the deterministic game simulates before giving up on a
/// game that neither repeats nor ends.
pub(crate) const MAX_SIMULATED_TURNS: u64 = 20_000_000;

/// The most 64-bit words one player's table may hold in the Dirac game by
/// default (1 GiB): [`DiracLimits::max_table_words`].
pub const DIRAC_TABLE_WORDS: u128 = 1 << 27;

/// The most word operations a Dirac count may be estimated to take by
/// default (up to about ten seconds): [`DiracLimits::max_work`].
pub const DIRAC_WORK: u128 = 20_000_000_000;

/// When live cells are chosen over another engine, from both estimates:
/// when `live × self.live < other × self.other`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Margin {
    pub(crate) live: u128,
    pub(crate) other: u128,
}

/// Live cells against the table in machine words: chosen unless estimated
/// at twice the table's work or more. Both estimates are upper bounds, but
/// the live cells' is far looser (it assumes every cell holds universes
/// on every turn of the longest game it can bound, `target` turns or
/// [`DiceRules::forward_turns`]; it ran 13 to 36,000 times their products,
/// measured before the latter). Timed on 175 random rules whose estimates are
/// within a factor of 4 of each other (boards 10 to 10⁷, dice 2 to 2 ×
/// 10⁵, 1–6 rolls, targets 5–300, 2–4 players), choosing this way took 5.4
/// s in all, against 4.6 s for the faster engine each time and 19.9 s with
/// live cells needing half the table's estimate (the margin before): the
/// live cells were faster in most rules down to a quarter of the table's
/// estimate, by up to 900 times. On 259 earlier rules over the whole
/// range, the table was faster in 161 of the 176 whose live estimate was
/// over twice its own.
pub(crate) const OVER_TABLE: Margin = Margin { live: 1, other: 2 };

/// Live cells against big-integer cells, once counts outgrow 1024 bits:
/// chosen when estimated at less than half the cells' work. Both count in
/// big integers, so the estimates are about as loose (measured: 1.5 to 5
/// × 10⁹ estimated operations a second each); live cells estimated at 1.6
/// to 1.9 times less ran from 1.35 times slower to 3 times faster.
pub(crate) const OVER_CELLS: Margin = Margin { live: 2, other: 1 };

impl Margin {
    /// Whether live cells estimated at `live` beat the other engine's
    /// `other`.
    pub(crate) fn prefers_live(self, other: u128, live: u128) -> bool {
        live.saturating_mul(self.live) < other.saturating_mul(self.other)
    }
}

/// Tables estimated past this many words (64 MiB) are allocated once, and
/// freed, before a count is admitted: the allocation fails at once where
/// the limits were raised past the machine's memory (the count would abort
/// the process at its first table); smaller ones are not worth the system
/// calls.
const PROBED_WORDS: u128 = 1 << 23;

/// Whether `words` 64-bit words can be allocated now (address space, and
/// the kernel's view of memory and swap; the pages are not touched).
fn can_allocate(words: u128) -> bool {
    usize::try_from(words).is_ok_and(|words| Vec::<u64>::new().try_reserve_exact(words).is_ok())
}

/// Which engine a Dirac game's estimates are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counting {
    /// The per-player engine's machine words, tried first: it moves to
    /// big-integer cells (and checks their estimate) only if a count
    /// outgrows 1024 bits.
    Words,
    /// Big-integer cells, one product per distinct move (the per-player
    /// engine past 1024 bits, and the memo and tree engines).
    Cells,
    /// The per-player engine over the cells a pawn short of the target can
    /// stand on (module `live`), when the table is refused or far more work
    /// ([`DiceRules::per_player_counting`]).
    Live,
}

impl Counting {
    /// The estimated work from which players are counted at once on
    /// several cores: a thread costs tens of microseconds to start, about
    /// 10⁶ estimated word operations in machine words; the live cells'
    /// estimate is far looser (see [`OVER_TABLE`]); counts past 1024 bits
    /// are always large enough.
    fn spread_work(self) -> u128 {
        match self {
            Self::Words => 10_000_000,
            Self::Live => 100_000_000,
            Self::Cells => 0,
        }
    }
}

/// Bounds on counting a Dirac game, checked against estimates of its time
/// and memory before the count starts (and by the per-player engine again
/// before it moves from machine words to big integers): a game estimated
/// past either is refused with [`RulesError::DiracTooBig`] or
/// [`RulesError::DiracTooSlow`] at once, instead of running for minutes or
/// filling memory. Both estimates are upper bounds. Fields left out of a
/// literal come from the default:
///
/// ```
/// use crabdice::{DiceRules, DiracEngine, DiracLimits, RulesError, Starts, play_dirac_within};
///
/// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
/// let rules = DiceRules { target: 300, ..DiceRules::dirac() };
/// let strict = DiracLimits { max_work: 1_000_000, ..DiracLimits::default() };
/// let refused = play_dirac_within(&starts, &rules, DiracEngine::PerPlayer, &strict);
/// assert!(matches!(refused, Err(crabdice::DiceError::Rules(RulesError::DiracTooSlow { .. }))));
/// assert!(play_dirac_within(&starts, &rules, DiracEngine::PerPlayer, &DiracLimits::default()).is_ok());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiracLimits {
    /// Most word operations the count may be estimated to take: for each
    /// player, turn and cell of the table, a pass per roll, or, once counts
    /// outgrow 1024 bits, a product per distinct move; times the words a
    /// count takes; in machine words, plus 64 operations for each word of
    /// the tables, zeroed, copied and read (the formulas are in the private
    /// module `dirac::rules::size`, shown by `cargo doc
    /// --document-private-items`). The default, [`DIRAC_WORK`], is up
    /// to about ten seconds of work on the machine of the benchmarks, where
    /// counts of the same estimate run at different speeds: the puzzle's
    /// game at target 2000, estimated at 1.9e10, takes about 3 s; two
    /// players at target 1000 with a 100-faced die rolled once, admitted at
    /// about 1.3e10, take 9 s on one thread (6 s on two).
    pub max_work: u128,
    /// Most 64-bit words one player's tables may be estimated to hold: two
    /// of `board × target` cells, times the words a count takes. The
    /// default is [`DIRAC_TABLE_WORDS`] (1 GiB).
    pub max_table_words: u128,
    /// Most threads a count may use. The per-player engine counts each
    /// player alone before combining them, and counts several players at
    /// once when the count is large and their tables fit
    /// `max_table_words` together. The default, `usize::MAX`, allows as
    /// many as the cores; 1 keeps the count on the calling thread. The
    /// answer is the same either way.
    pub max_threads: usize,
}

impl Default for DiracLimits {
    /// [`DIRAC_WORK`], [`DIRAC_TABLE_WORDS`], and every core.
    fn default() -> Self {
        Self { max_work: DIRAC_WORK, max_table_words: DIRAC_TABLE_WORDS, max_threads: usize::MAX }
    }
}

impl DiracLimits {
    /// No limit on the work or the tables (for tests of the engines past
    /// the defaults).
    #[cfg(test)]
    pub(crate) fn unbounded() -> Self {
        Self { max_work: u128::MAX, max_table_words: u128::MAX, ..Self::default() }
    }

    /// How many of `items` to count at once: no more than the cores, the
    /// threads allowed, or the items.
    pub(crate) fn ways(&self, items: usize) -> usize {
        crate::cores::cores().min(self.max_threads).min(items).max(1)
    }

    /// Refuses a count estimated at `table` words of tables and `work`
    /// word operations past these limits, the tables first, or tables of
    /// more than [`PROBED_WORDS`] that the machine cannot allocate (limits
    /// raised past its memory); else returns `work`.
    fn admit(&self, table: u128, work: u128) -> Result<u128, RulesError> {
        if table > self.max_table_words {
            return Err(RulesError::DiracTooBig { words: table, limit: self.max_table_words });
        }
        if table > PROBED_WORDS && !can_allocate(table) {
            return Err(RulesError::DiracNoMemory { words: table });
        }
        if work > self.max_work {
            return Err(RulesError::DiracTooSlow { work, limit: self.max_work });
        }
        Ok(work)
    }
}

impl DiceRules {
    /// Refuses a Dirac game too large to count (see the module
    /// documentation), for players on `starts`, counted by `counting`.
    /// Assumes valid rules, and starts on the board.
    pub(crate) fn check_dirac_size(
        &self,
        starts: &[u64],
        limits: &DiracLimits,
        counting: Counting,
    ) -> Result<u128, RulesError> {
        self.within_turns(starts, |turns| self.check_turns(starts.len(), turns, limits, counting))
    }

    /// `admit` over the most turns a game on `starts` can last: a game takes
    /// at most one turn a point, so `target` first; only when that is
    /// refused is the longest game worked out (it costs more than counting
    /// the puzzle's game), and admitted if shorter.
    fn within_turns(
        &self,
        starts: &[u64],
        admit: impl Fn(u64) -> Result<u128, RulesError>,
    ) -> Result<u128, RulesError> {
        admit(self.target).or_else(|refused| match self.longest_game(starts) {
            Some(longest) if longest < self.target => admit(longest),
            _ => Err(refused),
        })
    }

    /// Refuses a Dirac game too large to count if players may play alone
    /// for up to `longest` turns.
    fn check_turns(
        &self,
        players: usize,
        longest: u64,
        limits: &DiracLimits,
        counting: Counting,
    ) -> Result<u128, RulesError> {
        let (table, work) = self.estimate_turns(players, longest, counting);
        limits.admit(table, work)
    }

    /// The words of tables and the word operations of counting a Dirac
    /// game whose players may play alone for up to `longest` turns.
    fn estimate_turns(&self, players: usize, longest: u64, counting: Counting) -> (u128, u128) {
        let cells = u128::from(self.board) * u128::from(self.target);
        let players = players as u128;
        // Interleaving: each turn multiplies the players' counts together.
        let interleave = u128::from(longest).saturating_mul(players).saturating_mul(players);
        let words = self.word_limbs(longest).filter(|_| counting == Counting::Words);
        if let Some(limbs) = words {
            // The word engine: a turn is `rolls` passes of a sliding window
            // over the table, and a landing, each a word operation a cell.
            let passes = if self.faces == 1 { 1 } else { u128::from(self.rolls) + 1 };
            let turns = cells
                .saturating_mul(u128::from(longest))
                .saturating_mul(passes)
                .saturating_mul(players);
            // Two tables (before and after a turn) of `board` rows of
            // `target` columns and a kernel's spare ones, a word of `limbs`
            // each at the widest; while they move to wider words, the
            // narrower copy (half as many limbs) and, for two players who
            // shared 64-bit words, the other player's table, waiting its
            // turn; and the kernel's four rows of the board, a few columns
            // wide. Each word is zeroed, copied and read: on a large board
            // that, not the arithmetic, is the work (measured: 2.9 s and
            // 1.2 GB for a die of a million on a board of three million
            // spaces; 1.2 s and 452 MB, estimated 460, for five players on
            // 2048 spaces to 2000 points in 256-bit words).
            let columns = u128::from(self.target) + crate::dirac::alone::MAX_COLUMNS as u128;
            let held = if limbs == 1 { 2 } else { limbs + limbs / 2 + 1 };
            let tables = columns.saturating_mul(2 * held);
            let kernel = 4 * limbs.max(crate::dirac::alone::MAX_COLUMNS as u128);
            let table = u128::from(self.board).saturating_mul(tables.saturating_add(kernel));
            let work = turns.saturating_add(interleave).saturating_mul(limbs);
            (table, work.saturating_add(table.saturating_mul(64)))
        } else {
            // Big-integer cells: each cell that holds universes adds its
            // count times each distinct move's to another (and the table is
            // cleared: less work, unless the board dwarfs the target). A
            // pawn still short of the target stands on a space no higher
            // than its score, so at most `min(board, target) × target`
            // cells hold universes (and the start).
            let words = self.count_words(longest);
            let moves = u128::from(self.distinct_moves());
            let held = (u128::from(self.board.min(self.target)) * u128::from(self.target))
                .saturating_add(1);
            let turns = held
                .saturating_mul(moves)
                .max(cells)
                .saturating_mul(u128::from(longest))
                .saturating_mul(players);
            // Building the moves tally: about 2·log₂(rolls) convolutions of
            // at most `moves` outcomes each.
            let tally = moves
                .saturating_mul(moves)
                .saturating_mul(2 * u128::from(u64::BITS - self.rolls.leading_zeros()));
            // A product of big integers allocates, however short they are:
            // about 32 word operations where a cell's count grows, 64 where
            // the tally's short counts are made (measured: a tally of
            // 10,000 moves took 16 s).
            let work = (turns.saturating_add(interleave).saturating_mul(words.max(32)))
                .saturating_add(tally.saturating_mul(words.max(64)));
            // Counts are multiplied by a turn's counts: large numbers by
            // large numbers once those take many words (`--rolls 400000`:
            // 7 s, where a cost linear in the words was estimated at 0.55 ×
            // 10⁹).
            let work = work.saturating_mul(self.count_words(1).isqrt());
            // Two tables of cells three words each, and the counts held.
            let table = cells.saturating_mul(6).saturating_add(held.saturating_mul(words));
            (table, work)
        }
    }

    /// Refuses a Dirac game too large for the live cells (module `live`),
    /// for `players` players. Its tables hold `target × min(target, board)`
    /// big-integer cells (twice); each of the `(2 + players) × live` moves
    /// it needs sums the roll sequences of a few sums, each by inclusion
    /// and exclusion in `rolls²` products; and each of at most `target`
    /// turns ([`forward_turns`](Self::forward_turns) when no turn can carry
    /// a pawn back) takes at most `target × live² / 2` products of a count
    /// by a move's universes, each of their words multiplied by each other's.
    pub(crate) fn check_live_size(
        &self,
        players: usize,
        limits: &DiracLimits,
    ) -> Result<u128, RulesError> {
        let (table, work) = self.estimate_live(players);
        limits.admit(table, work)
    }

    /// The words of tables and the word operations of counting a Dirac
    /// game over live cells ([`check_live_size`](Self::check_live_size)).
    fn estimate_live(&self, players: usize) -> (u128, u128) {
        let target = u128::from(self.target);
        let live = u128::from(self.live_spaces());
        let most_turns = self.forward_turns().unwrap_or(self.target);
        let words = self.count_words(most_turns);
        let cells = target.saturating_mul(live);
        let table = cells.saturating_mul(2).saturating_mul(words.saturating_add(3));
        let rolls = u128::from(self.rolls);
        // A landing sums `sums` sums of `rolls + 1` terms of `rolls`
        // factors each; or, when it has many, the terms' polynomials
        // (`live::by_polynomial`), about as much work as `2 × rolls` sums.
        let sums = rolls * u128::from(self.faces - 1) / u128::from(self.board) + 1;
        let sums = if crate::dirac::live::by_polynomial(sums, rolls) { 2 * rolls } else { sums };
        let landing = sums.saturating_mul((rolls + 1).saturating_mul(rolls.max(1)));
        let moves = (2 + players as u128).saturating_mul(live);
        let turns = (cells.saturating_mul(live) / 2)
            .saturating_mul(u128::from(most_turns))
            .saturating_mul(players as u128);
        // Every cell multiplied out in every turn, at the most words a
        // count can take, as if a move were one word; with moves of
        // several words, or counted closer with their words (see
        // `live_turns_work`), whichever is more.
        let mut products = turns.saturating_mul(words.max(32));
        if self.count_words(1) > 1 {
            products = products.max(self.live_turns_work(players, most_turns));
        }
        let work = moves
            .saturating_mul(landing)
            .saturating_mul(self.count_words(1).max(32))
            .saturating_add(products);
        (table, work)
    }

    /// The word operations of the live cells' turns for `players` players
    /// over at most `most_turns` turns, counted closer than
    /// [`estimate_live`](Self::estimate_live)'s first bound, but with the
    /// words of a move: a product of a count by a move's universes (up to
    /// a turn's, of `count_words(1)` words) multiplies each word of one by
    /// each of the other. A die of 2^49 faces rolled 30 times makes moves
    /// of 23 words: a game counted as if they were one, estimated at 7.5 ×
    /// 10⁹, took 48 s.
    ///
    /// A count after `t` turns has at least `t` points (a landing scores at
    /// least 1) and at most `count_words(t)` words. So a cell of score `s`,
    /// from whose `min(live − 1, s)` spaces a turn moves to `min(live − 1,
    /// target − s − 1)` others, is multiplied out in at most `min(s,
    /// most_turns)` turns: summed score by score up to a target of
    /// [`SUMMED_TARGET`] (a millisecond), and past it taken as every cell
    /// in every turn at the most words. Each product costs at least 32 (it
    /// allocates), and each turn looks at every cell.
    fn live_turns_work(&self, players: usize, most_turns: u64) -> u128 {
        let live = u128::from(self.live_spaces());
        let target = u128::from(self.target);
        let move_words = self.count_words(1);
        let turns = u128::from(most_turns);
        let (products, words) = if self.target <= SUMMED_TARGET {
            // The words of the counts after 1, 2, …, `t` turns: at most
            // `t + bits × t (t + 1) / 128`, for a turn's `bits`.
            let bits = (move_words - 1) * 64 + 63;
            let words_to = |t: u128| t + bits.saturating_mul(t * (t + 1)) / 128;
            (1..target).fold((0_u128, 0_u128), |(products, words), score| {
                let moves = (live - 1).min(score) * (live - 1).min(target - score - 1);
                let t = turns.min(score);
                (
                    products.saturating_add(moves * t),
                    words.saturating_add(moves.saturating_mul(words_to(t))),
                )
            })
        } else {
            let products =
                (target.saturating_mul(live).saturating_mul(live) / 2).saturating_mul(turns);
            (products, products.saturating_mul(self.count_words(most_turns)))
        };
        let scan = target.saturating_mul(live).saturating_mul(turns);
        products
            .saturating_mul(32)
            .saturating_add(words.saturating_mul(move_words + 1))
            .saturating_add(scan)
            .saturating_mul(players as u128)
    }

    /// How many of `items` players (of the game's `players`) to count
    /// alone at once, by `counting`: as many as [`DiracLimits::ways`]
    /// allows if [`spreads`](Self::spreads) says that pays, else one.
    pub(crate) fn threads(
        &self,
        players: usize,
        items: usize,
        limits: &DiracLimits,
        counting: Counting,
    ) -> usize {
        let ways = limits.ways(items);
        if self.spreads(players, ways, limits, counting) { ways } else { 1 }
    }

    /// Refuses a Dirac game whose players' own counts, for players on
    /// `starts`, would take too long or too much memory to interleave
    /// (module `quantum`): each turn multiplies every player's counts
    /// together, so `P` players hold `P` wins of `P` counts' words each, and
    /// a turn takes about `P² w² log₂ P` word operations for counts of `w`
    /// words. The count itself is checked apart ([`check_dirac_size`](Self::check_dirac_size)):
    /// with two players this is a small part of it; with thousands, nearly
    /// all (the puzzle's rules with 30,000 players: 2.7 GB for the wins).
    /// As there, `turns` is first taken as `target`, and the longest game
    /// is worked out only if that is refused.
    pub(crate) fn check_interleave(
        &self,
        starts: &[u64],
        limits: &DiracLimits,
    ) -> Result<u128, RulesError> {
        self.check_interleaving(starts, limits, false)
    }

    /// [`check_interleave`](Self::check_interleave) for a histogram of the
    /// wins, which keeps every player's wins of every turn, not only their
    /// sums: up front, before the players' own counts are taken.
    pub(crate) fn check_histogram(
        &self,
        starts: &[u64],
        limits: &DiracLimits,
    ) -> Result<u128, RulesError> {
        self.check_interleaving(starts, limits, true)
    }

    /// [`check_interleave`](Self::check_interleave), keeping the wins of
    /// every turn or of one. Taken before anything is counted, so over
    /// [`within_turns`](Self::within_turns): a game whose longest cannot be
    /// worked out (more than
    /// [`MAX_LONGEST_GAME_CELLS`] cells) may be refused here although its
    /// counts would have shown fewer turns.
    fn check_interleaving(
        &self,
        starts: &[u64],
        limits: &DiracLimits,
        every_turn: bool,
    ) -> Result<u128, RulesError> {
        self.within_turns(starts, |turns| {
            let kept = if every_turn { turns } else { 1 };
            self.admit_interleave(starts.len(), turns, kept, limits)
        })
    }

    /// Admits interleaving `players` players' counts over `turns` turns,
    /// keeping the wins of `kept` turns, within `limits`.
    fn admit_interleave(
        &self,
        players: usize,
        turns: u64,
        kept: u64,
        limits: &DiracLimits,
    ) -> Result<u128, RulesError> {
        let (words, work) = self.estimate_interleave(players, turns, kept);
        limits.admit(words, work).map_err(|refused| {
            let too_many = |limit, passed| RulesError::DiracTooManyPlayers {
                players,
                words,
                work,
                limit,
                passed,
            };
            match refused {
                RulesError::DiracTooBig { limit, .. } => too_many(limit, DiracLimit::MaxTableWords),
                RulesError::DiracTooSlow { limit, .. } => too_many(limit, DiracLimit::MaxWork),
                other => other,
            }
        })
    }

    /// The words held and the word operations of interleaving `players`
    /// players' counts over `turns` turns, keeping the wins of `kept` of
    /// them ([`check_interleave`](Self::check_interleave)): the wins, one a
    /// player and kept turn of up to `players` counts' words; the two
    /// product trees, `players` counts' words a level; and, a turn, products
    /// of `a` by `b` words at `a × b` word operations each (no faster
    /// multiplication assumed): the trees about `(P w)²`, each of their
    /// `⌈log₂ P⌉` levels about `(P w)²` on the way down, and the wins
    /// `(P w)²` more. A count grows by the same bits each turn, so `w` is
    /// that of the turn, and the turns' `w²` add up to about a third of
    /// the last turn's times the turns ([`count_words_squared`](Self::count_words_squared)).
    fn estimate_interleave(&self, players: usize, turns: u64, kept: u64) -> (u128, u128) {
        let count = players as u128;
        let levels = u128::from(usize::BITS - players.saturating_sub(1).leading_zeros());
        let product = count.saturating_mul(self.count_words(turns));
        let wins = count.saturating_mul(product.saturating_add(1)).saturating_mul(u128::from(kept));
        let trees = product.saturating_mul(2 * (levels + 2));
        let products = count
            .saturating_mul(count)
            .saturating_mul(self.count_words_squared(turns))
            .saturating_mul(levels + 2);
        let rest = count.saturating_mul(256).saturating_mul(u128::from(turns));
        (wins.saturating_add(trees), products.saturating_add(rest))
    }

    /// The sum of [`count_words`](Self::count_words)`(t)²` over the turns
    /// `t` of `1..=turns`, or at most it: with `w` that of the last turn,
    /// at most `turns × w²`, and, as a count grows by the same bits each
    /// turn, `count_words(t) ≤ 1 + t w / turns`, whose squares add up to
    /// `T + w (T + 1) + w² (T + 1)(2T + 1) / 6T` for `T` turns, with
    /// `(T + 1)(2T + 1) / 6T ≤ ⌈T / 3⌉ + 1`.
    fn count_words_squared(&self, turns: u64) -> u128 {
        let (t, w) = (u128::from(turns), self.count_words(turns));
        let square = w.saturating_mul(w);
        let growing = t
            .saturating_add(w.saturating_mul(t + 1))
            .saturating_add(square.saturating_mul(t.div_ceil(3) + 1));
        growing.min(square.saturating_mul(t))
    }

    /// Whether to count `ways` of the game's `players` alone at once, by
    /// `counting`, on as many cores: only if their tables fit `limits`
    /// together, and the machine can allocate them, and the count is large
    /// enough to gain by it ([`Counting::spread_work`]), by
    /// [`spread_estimate`](Self::spread_estimate).
    pub(crate) fn spreads(
        &self,
        players: usize,
        ways: usize,
        limits: &DiracLimits,
        counting: Counting,
    ) -> bool {
        let (table, work) = self.spread_estimate(players, counting);
        let tables = table.saturating_mul(ways as u128);
        ways >= 2
            && work >= counting.spread_work()
            && tables <= limits.max_table_words
            && (tables <= PROBED_WORDS || can_allocate(tables))
    }

    /// How the per-player engine counts a Dirac game on `starts`: in its
    /// table of machine words, or over the live cells when the table is
    /// refused or not estimated at half their work or less
    /// ([`OVER_TABLE`]). Refused only if both are. The live cells are
    /// taken before the longest game is worked out (on a large board, a
    /// tenth of a second) when they beat the table even over a game of one
    /// turn.
    pub(crate) fn per_player_counting(
        &self,
        starts: &[u64],
        limits: &DiracLimits,
    ) -> Result<Counting, RulesError> {
        let live = self.check_live_size(starts.len(), limits);
        let (_, shortest) = self.estimate_turns(starts.len(), 1, Counting::Words);
        if live.as_ref().is_ok_and(|&live| OVER_TABLE.prefers_live(shortest, live)) {
            return Ok(Counting::Live);
        }
        let table = self.check_dirac_size(starts, limits, Counting::Words);
        Ok(if Self::prefer_live(table, live, OVER_TABLE)? {
            Counting::Live
        } else {
            Counting::Words
        })
    }

    /// Whether to count over live cells rather than as `other`, given both
    /// estimates (work, or refusal): the live cells when `other` is
    /// refused, or when `margin` prefers them. Refused only if both are:
    /// for the live cells' work when `other` needs memory and they only
    /// time (a higher work limit counts the game), else as `other` is.
    pub(crate) fn prefer_live(
        other: Result<u128, RulesError>,
        live: Result<u128, RulesError>,
        margin: Margin,
    ) -> Result<bool, RulesError> {
        match (other, live) {
            (Ok(other), Ok(live)) => Ok(margin.prefers_live(other, live)),
            (Ok(_), Err(_)) => Ok(false),
            (Err(_), Ok(_)) => Ok(true),
            // Both refused: the refusal whose advice counts the game. The
            // live cells refused only for their work are counted with a
            // higher --max-work, where the table needs memory.
            (Err(other), Err(live)) => Err(match (other, live) {
                (
                    RulesError::DiracTooBig { .. } | RulesError::DiracNoMemory { .. },
                    live @ RulesError::DiracTooSlow { .. },
                ) => live,
                (other, _) => other,
            }),
        }
    }

    /// The 64-bit words a count takes in the word engine over `longest`
    /// turns (1, 2, 4, 8 or 16), or `None` when it cannot count the game at
    /// all: a turn's universes (`faces^rolls`) past 128 bits. The engine
    /// moves to wider words when `alive × universes` would not fit, and
    /// after `t` turns `alive × universes ≤ (faces^rolls)^t < 2^(t × bits
    /// of faces^rolls)`. Past 1024 bits that bound says 16 words: most
    /// universes have reached the target long before, so the counts often
    /// stay within them, and the engine checks the big-integer count's own
    /// estimate when they do not.
    fn word_limbs(&self, longest: u64) -> Option<u128> {
        let rolls = u32::try_from(self.rolls).ok()?;
        let universes =
            if self.faces == 1 { 1 } else { u128::from(self.faces).checked_pow(rolls)? };
        let bits = u128::from(longest) * u128::from(u128::BITS - universes.leading_zeros());
        Some(bits.div_ceil(64).clamp(1, 16).next_power_of_two())
    }

    /// The most turns a player can take alone, the one that reaches the
    /// target included, when no turn can carry a pawn from a space below
    /// the target back to an earlier one (the board is longer than a turn's
    /// largest sum by the target or more: always, once a large board has
    /// been shrunk to `target + rolls × faces` spaces); `None` otherwise.
    ///
    /// Then every turn that keeps a pawn short of the target moves it
    /// forward by its sum, at least `rolls`: its landings after the first
    /// (at least 1) climb by `rolls` or more, so after `t` such turns it
    /// has `t + rolls × t(t − 1)/2` points or more. A game of target 516
    /// and 3 rolls lasts at most 19 turns, not 516.
    pub(crate) fn forward_turns(&self) -> Option<u64> {
        let live = u128::from(self.live_spaces());
        let most = u128::from(self.rolls).saturating_mul(u128::from(self.faces));
        // From space p to q ≤ p, both below `live`, takes a sum of at least
        // board − (live − 2).
        if most.saturating_add(live) >= u128::from(self.board) + 2 {
            return None;
        }
        let (target, rolls) = (u128::from(self.target), u128::from(self.rolls));
        let least = |t: u128| {
            t.saturating_add(rolls.saturating_mul(t.saturating_mul(t.saturating_sub(1)) / 2))
        };
        // The most turns `t` still short of the target, by bisection:
        // `least(0) = 0 < target`, and `least(target) ≥ target`.
        let (mut short, mut reached) = (0_u128, target);
        while reached - short > 1 {
            let mid = short + (reached - short) / 2;
            if least(mid) < target {
                short = mid;
            } else {
                reached = mid;
            }
        }
        // Below the target, a u64; one more turn reaches it.
        Some(short as u64 + 1)
    }

    /// The words of one player's tables and the game's word operations
    /// by `counting`, as [`spreads`](Self::spreads) estimates them: over
    /// `target` turns (an upper bound), without working out the longest
    /// game.
    fn spread_estimate(&self, players: usize, counting: Counting) -> (u128, u128) {
        match counting {
            Counting::Live => self.estimate_live(players),
            Counting::Words | Counting::Cells => {
                self.estimate_turns(players, self.target, counting)
            }
        }
    }

    /// 64-bit words for a count of one player's universes over `turns`
    /// turns of `rolls × ⌈log₂ faces⌉` bits each.
    fn count_words(&self, turns: u64) -> u128 {
        let bits_per_roll = u128::from(u64::BITS - self.faces.saturating_sub(1).leading_zeros());
        let bits =
            u128::from(turns).saturating_mul(u128::from(self.rolls)).saturating_mul(bits_per_roll);
        1 + bits / 64
    }
}

/// The largest target whose live cells' work is summed score by score
/// ([`DiceRules::live_turns_work`]).
const SUMMED_TARGET: u64 = 1 << 20;

/// The most `board × target` cells [`DiceRules::longest_game`] works
/// through (a fraction of a second).
const MAX_LONGEST_GAME_CELLS: u64 = 1 << 24;

impl DiceRules {
    /// The most turns any player on `starts` can take alone, the turn that
    /// reaches the target included: a bound on every count's size and on
    /// the turns to count, often far below `target` (each landing scores at
    /// least its space's number). `None` when the board and target hold
    /// more than [`MAX_LONGEST_GAME_CELLS`] cells, or no player.
    ///
    /// `longest[s][i]`, the most turns from space `i + 1` with score `s`, is
    /// one more than the best landing: space `j + 1` with `s + j + 1` still
    /// short of the target, worth `longest[s + j + 1][j]`. A turn's sums run
    /// from `rolls` to `rolls × faces` without a gap, so the landings from
    /// `i` are a window of the circular board, the same length from every
    /// space; a sliding maximum over the board (twice round, at most)
    /// gives each row in `O(board)`, so the whole table in `O(board ×
    /// target)`. Only spaces below the target are ever read back (a pawn on
    /// a higher one has reached it), so only they are kept, with the first
    /// row's starts: memory `O(board + target²)`.
    pub(crate) fn longest_game(&self, starts: &[u64]) -> Option<u64> {
        if self.board.checked_mul(self.target)? > MAX_LONGEST_GAME_CELLS {
            return None;
        }
        // Below 2^24 each, so usize, and turns fit in u32.
        let (board, target) = (self.board as usize, self.target as usize);
        let spread = u128::from(self.rolls) * u128::from(self.faces - 1) + 1;
        let window = spread.min(board as u128) as usize;
        let first = (u128::from(self.rolls) % board as u128) as usize;
        // `kept[s * width + j]` is `longest[s][j]` for the spaces read back.
        let width = board.min(target);
        let mut kept = vec![0u32; width * target];
        let mut row = vec![0u32; board];
        let mut worth = vec![0u32; board];
        let mut deque = std::collections::VecDeque::with_capacity(board);
        for s in (0..target).rev() {
            for (j, worth) in worth.iter_mut().enumerate() {
                let score = s + j + 1;
                // A score short of the target puts `j` below `width`.
                *worth = if score < target { kept[score * width + j] } else { 0 };
            }
            // Windows start at `first + i` for i in 0..board, and hold
            // `window` positions, read modulo the board.
            deque.clear();
            for end in first..first + board + window - 1 {
                let value = worth[end % board];
                while deque.back().is_some_and(|&(_, v)| v <= value) {
                    deque.pop_back();
                }
                deque.push_back((end, value));
                if let Some(start) = (end + 1).checked_sub(window).filter(|&s| s >= first) {
                    while deque.front().is_some_and(|&(at, _)| at < start) {
                        deque.pop_front();
                    }
                    let best = deque.front().map_or(0, |&(_, v)| v);
                    row[start - first] = best + 1;
                }
            }
            kept[s * width..(s + 1) * width].copy_from_slice(&row[..width]);
        }
        // The last row worked out is score 0's, where the pawns start.
        starts.iter().map(|&start| u64::from(row[start as usize - 1])).max()
    }
}

#[cfg(test)]
mod tests {
    use super::super::advance;
    use super::*;

    /// Thousands of players: the wins of 30,000 need about 900 million
    /// words, and are refused at once, naming the players; 1,000 pass. A
    /// strict limit on work refuses 10,000, whose estimate (one turn per
    /// point refused, then the longest game's 10 turns) is 1.6 × 10¹⁰.
    #[test]
    fn interleaving_thousands_of_players_is_bounded() {
        let rules = DiceRules::dirac();
        let starts = |players: usize| vec![4; players];
        let limits = DiracLimits::default();
        assert!(matches!(
            rules.check_interleave(&starts(30_000), &limits),
            Err(RulesError::DiracTooManyPlayers {
                players: 30_000,
                passed: DiracLimit::MaxTableWords,
                ..
            })
        ));
        assert!(rules.check_interleave(&starts(1_000), &limits).is_ok());
        let work = rules.check_interleave(&starts(10_000), &limits).unwrap();
        assert_eq!(work, 16_025_600_000);
        let strict = DiracLimits { max_work: work - 1, ..limits };
        assert!(matches!(
            rules.check_interleave(&starts(10_000), &strict),
            Err(RulesError::DiracTooManyPlayers {
                players: 10_000,
                passed: DiracLimit::MaxWork,
                ..
            })
        ));
    }

    /// A histogram keeps every turn's wins: 10,000 players, which pass
    /// for the answer alone, hold ten turns of them (about 10⁹ words) and
    /// are refused before anything is counted; 1,000 pass.
    #[test]
    fn histograms_of_thousands_of_players_are_refused_up_front() {
        let rules = DiceRules::dirac();
        let starts = |players: usize| vec![4; players];
        let limits = DiracLimits::default();
        assert!(rules.check_interleave(&starts(10_000), &limits).is_ok());
        assert!(matches!(
            rules.check_histogram(&starts(10_000), &limits),
            Err(RulesError::DiracTooManyPlayers {
                players: 10_000,
                passed: DiracLimit::MaxTableWords,
                ..
            })
        ));
        assert!(rules.check_histogram(&starts(1_000), &limits).is_ok());
        assert!(rules.check_histogram(&starts(2), &limits).is_ok());
    }

    #[test]
    fn the_puzzles_rules_are_small_and_huge_rules_are_refused() {
        use Counting::{Cells, Words};
        assert!(
            DiceRules::dirac().check_dirac_size(&[4, 8], &DiracLimits::default(), Words).is_ok()
        );
        let four = [1, 2, 3, 4];
        assert!(
            DiceRules { target: 100, ..DiceRules::dirac() }
                .check_dirac_size(&four, &DiracLimits::default(), Words)
                .is_ok()
        );
        let huge_board = DiceRules { board: 1 << 40, ..DiceRules::dirac() };
        assert!(matches!(
            huge_board.check_dirac_size(&[4, 8], &DiracLimits::default(), Words),
            Err(RulesError::DiracTooBig { .. })
        ));
        // Counted in big-integer cells, as the memo engine and the
        // per-player engine past 1024 bits count it, target 5000 is too
        // slow (the per-player engine tries its machine words first).
        let slow = DiceRules { target: 5_000, ..DiceRules::dirac() };
        assert!(matches!(
            slow.check_dirac_size(&[4, 8], &DiracLimits::default(), Cells),
            Err(RulesError::DiracTooSlow { .. })
        ));
        // Raised limits let it through; the table limit still holds.
        let unbounded = DiracLimits::unbounded();
        assert!(slow.check_dirac_size(&[4, 8], &unbounded, Cells).is_ok());
        let Err(RulesError::DiracTooSlow { work, .. }) =
            slow.check_dirac_size(&[4, 8], &DiracLimits::default(), Cells)
        else {
            unreachable!()
        };
        let at_estimate = DiracLimits { max_work: work, ..unbounded };
        assert!(slow.check_dirac_size(&[4, 8], &at_estimate, Cells).is_ok());
        let below = DiracLimits { max_work: work - 1, ..unbounded };
        assert!(slow.check_dirac_size(&[4, 8], &below, Cells).is_err());
        // A million rolls a turn: a short game, but of products of numbers
        // 25,000 words long (it ran for minutes); a hundred thousand take
        // a second.
        let many_rolls = DiceRules { rolls: 1_000_000, target: 5, ..DiceRules::dirac() };
        assert!(matches!(
            many_rolls.check_dirac_size(&[4, 8], &DiracLimits::default(), Words),
            Err(RulesError::DiracTooSlow { .. })
        ));
        let fewer = DiceRules { rolls: 100_000, ..many_rolls };
        assert!(fewer.check_dirac_size(&[4, 8], &DiracLimits::default(), Words).is_ok());
        let narrow = DiracLimits { max_table_words: 100, ..unbounded };
        assert!(matches!(
            DiceRules::dirac().check_dirac_size(&[4, 8], &narrow, Words),
            Err(RulesError::DiracTooBig { limit: 100, .. })
        ));
        let huge_die = DiceRules { faces: u64::MAX, rolls: u64::MAX, ..DiceRules::dirac() };
        assert!(huge_die.check_dirac_size(&[4, 8], &DiracLimits::default(), Words).is_err());
        // Landing on 100 spaces scores fast: at most 52 turns to 1000, not
        // 1000, so the counts are small and the game is counted.
        let wide = DiceRules { board: 100, target: 1000, faces: 10, rolls: 3 };
        let mut known = std::collections::HashMap::new();
        let longest = longest_by_search(&wide, 4, 0, &mut known)
            .max(longest_by_search(&wide, 8, 0, &mut known));
        assert_eq!((wide.longest_game(&[4, 8]), longest), (Some(52), 52));
        assert!(wide.check_dirac_size(&[4, 8], &DiracLimits::default(), Words).is_ok());
        // Taken as 1000 turns, the counts would need big integers, and the
        // game would be refused.
        assert!(wide.check_turns(2, wide.target, &DiracLimits::default(), Cells).is_err());
        // A die of 1000 on a board of a million: a board of 3050 spaces,
        // where every game from 4 and 8 ends within a few turns.
        let big_die = DiceRules { board: 1_000_000, target: 50, faces: 1000, rolls: 3 };
        let (small, starts) = big_die.dirac_board(&[4, 8]);
        assert_eq!(small.board, 3050);
        let mut known = std::collections::HashMap::new();
        let longest = longest_by_search(&small, 4, 0, &mut known)
            .max(longest_by_search(&small, 8, 0, &mut known));
        assert_eq!(small.longest_game(&starts), Some(longest));
        assert!(longest < 10, "{longest} turns");
        assert!(small.check_dirac_size(&starts, &DiracLimits::default(), Words).is_ok());
    }

    /// Players are counted at once only if their tables fit the limits
    /// together and the count is large enough to gain by it.
    #[test]
    fn players_are_counted_at_once_when_their_tables_fit_together() {
        let limits = DiracLimits::default();
        let rules = DiceRules { target: 200, ..DiceRules::dirac() };
        for counting in [Counting::Words, Counting::Cells, Counting::Live] {
            let (table, work) = rules.spread_estimate(2, counting);
            assert!(work >= counting.spread_work(), "{counting:?}");
            let fits = DiracLimits { max_table_words: 2 * table, ..limits };
            assert!(rules.spreads(2, 2, &fits, counting), "{counting:?}");
            let tight = DiracLimits { max_table_words: 2 * table - 1, ..limits };
            assert!(!rules.spreads(2, 2, &tight, counting), "{counting:?}");
            assert!(!rules.spreads(2, 1, &fits, counting), "{counting:?}");
            assert_eq!(rules.threads(2, 2, &fits, counting), fits.ways(2), "{counting:?}");
            let one = DiracLimits { max_threads: 1, ..fits };
            assert_eq!(rules.threads(2, 2, &one, counting), 1, "{counting:?}");
            assert_eq!(rules.threads(2, 2, &tight, counting), 1, "{counting:?}");
        }
        // No more ways than the threads allowed, the cores or the players.
        let one = DiracLimits { max_threads: 1, ..limits };
        assert_eq!(one.ways(4), 1);
        assert_eq!(limits.ways(4), crate::cores::cores().min(4));
        assert_eq!(limits.ways(0), 1);
        // The puzzle's game is too small for a thread to pay.
        assert!(!DiceRules::dirac().spreads(2, 2, &limits, Counting::Words));
        assert!(!DiceRules { target: 100, ..DiceRules::dirac() }.spreads(
            2,
            2,
            &limits,
            Counting::Words
        ));
    }

    #[test]
    fn the_per_player_engine_counts_live_cells_unless_the_table_is_far_cheaper() {
        use Counting::{Live, Words};
        let limits = DiracLimits::default();
        let counting = |rules: DiceRules, starts: &[u64]| {
            let (small, at) = rules.dirac_board(starts);
            let table = small.check_dirac_size(&at, &limits, Words);
            let live = small.check_live_size(at.len(), &limits);
            (small.per_player_counting(&at, &limits), table, live)
        };
        // The puzzle: a table of 210 cells, and 21 × 10 live cells that
        // cost big integers.
        let (chosen, table, live) = counting(DiceRules::dirac(), &[4, 8]);
        assert_eq!(chosen, Ok(Words));
        assert!(live.unwrap() > table.unwrap());
        // A die of 100,000 on a board of a million: a table of 300,021
        // rows (allowed, 0.4 s) against 21 × 21 live cells (milliseconds).
        let big_die = DiceRules { board: 1_000_000, target: 21, faces: 100_000, rolls: 3 };
        let (chosen, table, live) = counting(big_die, &[4, 8]);
        assert_eq!(chosen, Ok(Live));
        assert!(table.is_ok() && live.is_ok());
        // Live cells estimated above the table, but below twice it: live
        // cells (0.44 s, against 2.5 s for the table).
        let close = DiceRules { board: 1647, target: 99, faces: 2031, rolls: 2 };
        let (chosen, table, live) = counting(close, &[2, 1333, 1017, 701]);
        let (table, live) = (table.unwrap(), live.unwrap());
        assert!(table < live && live < 2 * table, "{live} {table}");
        assert_eq!(chosen, Ok(Live));
        // Live cells estimated at over twice the table: the table (0.2 ms,
        // against 4 ms over live cells).
        let far = DiceRules { board: 56, target: 20, faces: 31_126, rolls: 1 };
        let (chosen, table, live) = counting(far, &[2, 25, 48, 15]);
        let (table, live) = (table.unwrap(), live.unwrap());
        assert!(live > 2 * table && live < 5 * table, "{live} {table}");
        assert_eq!(chosen, Ok(Words));
        // Refused by one, counted by the other; refused by both with the
        // table's refusal.
        let huge_table = DiracLimits { max_table_words: 1 << 20, ..limits };
        let (small, at) = big_die.dirac_board(&[4, 8]);
        assert!(small.check_dirac_size(&at, &huge_table, Words).is_err());
        assert_eq!(small.per_player_counting(&at, &huge_table), Ok(Live));
        let slow_live = DiracLimits { max_work: 1 << 20, ..limits };
        assert!(DiceRules::dirac().check_live_size(2, &slow_live).is_err());
        assert_eq!(DiceRules::dirac().per_player_counting(&[4, 8], &slow_live), Ok(Words));
        // The table needs memory, the live cells only time: the refusal
        // names the work, which --max-work moves.
        let slow = DiracLimits { max_table_words: 1 << 20, max_work: 1, ..DiracLimits::default() };
        assert!(matches!(
            small.per_player_counting(&at, &slow),
            Err(RulesError::DiracTooSlow { .. })
        ));
        let neither = DiracLimits { max_table_words: 1, ..limits };
        assert_eq!(
            small.per_player_counting(&at, &neither),
            small.check_dirac_size(&at, &neither, Words).map(|_| Words)
        );
    }

    #[test]
    fn tables_the_machine_cannot_allocate_are_refused_however_high_the_limits() {
        let unbounded = DiracLimits::unbounded();
        // 2^62 cells: more bytes than an address space holds.
        let rules = DiceRules { board: 1 << 31, target: 1 << 31, faces: 2, rolls: 1 };
        let refused = rules.check_dirac_size(&[1, 2], &unbounded, Counting::Words);
        assert!(
            matches!(refused, Err(RulesError::DiracNoMemory { words }) if words > 1 << 62),
            "{refused:?}"
        );
        assert!(rules.check_live_size(2, &unbounded).is_err());
        assert!(can_allocate(PROBED_WORDS) && !can_allocate(1 << 61));
        // Estimates past 2^128 saturate rather than wrap (debug builds
        // panicked on them), for every engine.
        let max = u64::MAX;
        for (rules, starts) in [
            (DiceRules { board: max, target: max, faces: 1, rolls: 1 }, [1, max]),
            (DiceRules { board: 1 << 63, target: 1 << 40, faces: 1 << 63, rolls: max }, [1, 2]),
        ] {
            for counting in [Counting::Words, Counting::Cells] {
                let refused = rules.check_dirac_size(&starts, &unbounded, counting);
                assert!(refused.is_err(), "{rules} {counting:?}");
            }
            assert!(rules.check_live_size(2, &unbounded).is_err());
        }
        // Within the default limits, the limit refuses first.
        assert!(matches!(
            rules.check_dirac_size(&[1, 2], &DiracLimits::default(), Counting::Words),
            Err(RulesError::DiracTooBig { .. })
        ));
    }

    /// The most turns from space `space` (1-based) with `score`, trying
    /// every sum of the dice (memoized in `known`).
    fn longest_by_search(
        rules: &DiceRules,
        space: u64,
        score: u64,
        known: &mut std::collections::HashMap<(u64, u64), u64>,
    ) -> u64 {
        if let Some(&turns) = known.get(&(space, score)) {
            return turns;
        }
        let mut best = 0;
        for d in rules.rolls..=rules.rolls * rules.faces {
            let q = advance(space - 1, d % rules.board, rules.board) + 1;
            if score + q < rules.target {
                best = best.max(longest_by_search(rules, q, score + q, known));
            }
        }
        known.insert((space, score), best + 1);
        best + 1
    }

    #[test]
    fn the_longest_game_is_what_a_search_of_every_roll_finds() {
        let mut checked = 0;
        for board in 1..=9 {
            for target in 1..=16 {
                for faces in 1..=4 {
                    for rolls in 1..=3 {
                        let rules = DiceRules { board, target, faces, rolls };
                        for start in 1..=board {
                            let mut known = std::collections::HashMap::new();
                            let expected = longest_by_search(&rules, start, 0, &mut known);
                            assert_eq!(
                                rules.longest_game(&[start]),
                                Some(expected),
                                "{rules} from {start}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 5000);
        // The puzzle's player 1 reaches 21 in at most 10 turns, as its
        // counts say (module `dirac`).
        assert_eq!(DiceRules::dirac().longest_game(&[4, 8]), Some(10));
        assert_eq!(DiceRules::dirac().longest_game(&[]), None);
        let huge = DiceRules { board: 1 << 20, target: 1 << 20, ..DiceRules::dirac() };
        assert_eq!(huge.longest_game(&[1]), None);
    }

    #[test]
    fn forward_turns_bound_the_longest_game_when_no_turn_carries_a_pawn_back() {
        let mut bounded = 0;
        let mut tight = 0;
        for board in 1..=60 {
            for target in [1, 2, 5, 13, 30, 47] {
                for faces in 1..=6 {
                    for rolls in 1..=3 {
                        let rules = DiceRules { board, target, faces, rolls };
                        let Some(bound) = rules.forward_turns() else { continue };
                        for start in [1, board.div_ceil(2), board] {
                            let mut known = std::collections::HashMap::new();
                            let longest = longest_by_search(&rules, start, 0, &mut known);
                            assert!(longest <= bound, "{rules} from {start}: {longest} > {bound}");
                            tight += u64::from(longest == bound);
                            bounded += 1;
                        }
                    }
                }
            }
        }
        assert!(bounded > 3000 && tight > 100, "{bounded} games, {tight} at the bound");
        // A turn's largest sum plus the live spaces past the board: pawns
        // can come back, no bound. The puzzle's board is such a board.
        assert_eq!(DiceRules::dirac().forward_turns(), None);
        // Target 516, three rolls, on a board long enough: 19 turns.
        let long = DiceRules { board: 1_000_000, target: 516, faces: 1000, rolls: 3 };
        assert_eq!(long.forward_turns(), Some(19));
        // Targets near 2⁶⁴: about √(2 × target) turns.
        let huge = DiceRules { board: u64::MAX, target: u64::MAX / 2, faces: 2, rolls: 1 };
        assert_eq!(huge.forward_turns(), Some(4_294_967_296));
        let near = DiceRules { target: u64::MAX - 2, ..huge };
        assert_eq!(near.forward_turns(), Some(6_074_001_000));
        // A target past the board but one: a sum of 2 may carry a pawn
        // from the last space to the first.
        assert_eq!(DiceRules { target: u64::MAX, ..huge }.forward_turns(), None);
    }

    /// Live cells are chosen over the table "unless estimated at twice the
    /// table's work or more": at exactly twice, the table.
    #[test]
    fn live_cells_estimated_at_exactly_twice_the_tables_work_are_not_chosen() {
        assert!(OVER_TABLE.prefers_live(1000, 1999));
        assert!(!OVER_TABLE.prefers_live(1000, 2000));
        assert!(!OVER_TABLE.prefers_live(1000, 2001));
        let (table, live) = (Ok(1000), Ok(2000));
        assert_eq!(DiceRules::prefer_live(table, live, OVER_TABLE), Ok(false));
    }

    /// Combining `P` players' counts takes `⌈log₂ P⌉` levels of products
    /// (as `estimate_interleave` documents): one for two players, two for
    /// three or four, three for five to eight, four for nine. Over ten
    /// turns of the puzzle's die (60 bits, one word a count), the estimate
    /// is then the documented sums.
    #[test]
    fn combining_the_players_counts_takes_the_ceiling_of_log2_players_levels() {
        let rules = DiceRules::dirac();
        for (players, levels) in [(2_usize, 1_u128), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4)] {
            let count = players as u128;
            // One word a count: `P` words a product.
            let product = count;
            let wins = count * (product + 1);
            let trees = product * 2 * (levels + 2);
            let turn = product * product * (levels + 2) + count * 256;
            assert_eq!(
                rules.estimate_interleave(players, 10, 1),
                (wins + trees, turn * 10),
                "{players} players"
            );
        }
    }

    /// The turns' squared words are bounded as documented: never above
    /// the last turn's times the turns, and about a third of that for
    /// counts of many words; checked against the sum taken turn by turn.
    #[test]
    fn the_turns_squared_words_are_bounded_by_their_sum_taken_turn_by_turn() {
        for (faces, rolls, turns) in [(3, 3, 10), (3, 3, 1), (1 << 32, 204, 74), (7, 50, 300)] {
            let rules = DiceRules { faces, rolls, ..DiceRules::dirac() };
            let summed: u128 = (1..=turns).map(|t| rules.count_words(t).pow(2)).sum();
            let bound = rules.count_words_squared(turns);
            let last = rules.count_words(turns).pow(2) * u128::from(turns);
            assert!(summed <= bound && bound <= last, "{faces} {rolls} {turns}: {summed} {bound}");
            if rules.count_words(turns) >= 100 {
                assert!(bound * 5 <= last * 2, "{faces} {rolls} {turns}: {bound} of {last}");
            }
        }
    }

    /// The module documentation's measurement: five players on 2048 spaces
    /// to 2000 points in 256-bit words took 452 MB, "estimated 460": the
    /// two tables at the widest, the narrower copy and the other player's
    /// table while they widen, and the kernel's rows. Forty turns of 27
    /// universes (5 bits each) are 200 bits: 256-bit words.
    #[test]
    fn the_word_engines_tables_are_estimated_as_measured() {
        let rules = DiceRules { board: 2048, target: 2000, faces: 3, rolls: 3 };
        assert_eq!(rules.word_limbs(40), Some(4));
        let (words, _) = rules.estimate_turns(5, 40, Counting::Words);
        let megabytes = (words * 8 + 500_000) / 1_000_000;
        assert_eq!(megabytes, 460, "{words} words");
    }

    /// The longest game is worked out for boards and targets of up to 2²⁴
    /// cells, that many included. On a board of one space every landing
    /// scores 1, so a game lasts exactly `target` turns.
    #[test]
    fn the_longest_game_is_worked_out_up_to_exactly_its_cell_limit() {
        let at_limit = DiceRules { board: 1, target: 1 << 24, ..DiceRules::dirac() };
        assert_eq!(at_limit.longest_game(&[1]), Some(1 << 24));
        let past = DiceRules { target: (1 << 24) + 1, ..at_limit };
        assert_eq!(past.longest_game(&[1]), None);
    }
}
