//! # Dirac Dice
//!
//! Pawns stand on a circular board of spaces `1..=board`. A turn rolls the
//! die `rolls` times, moves the pawn forward by the sum, and adds the number
//! of the space it lands on to the player's score; players take turns in
//! input order, and the first to reach the target wins. Two dice:
//!
//! * the **deterministic** die counts `1, 2, ..., faces, 1, ...`; the answer
//!   is the lowest losing score times the number of rolls
//!   ([`play_deterministic`]);
//! * the **Dirac** die splits the universe into `faces` copies on every roll;
//!   the answer is the most universes any player wins ([`play_dirac`]).
//!
//! ```
//! use crabdice::{DiceRules, DiracEngine, Starts, play_deterministic, play_dirac};
//!
//! let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
//! let deterministic = play_deterministic(&starts, &DiceRules::deterministic())?;
//! assert_eq!(deterministic.answer, 739_785_u32);
//! let dirac = play_dirac(&starts, &DiceRules::dirac(), DiracEngine::default())?;
//! assert_eq!(dirac.answer, 444_356_092_776_315_u64);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The board, target, faces and rolls are one value, [`DiceRules`], whatever
//! the die; the players come from the input ([`Starts`]), two or more. Both
//! games are exact at any size: the deterministic one at targets up to
//! 2⁶⁴ − 1 in the same time as at 1000, the Dirac one in machine words while
//! the counts fit (proved turn by turn) and in big integers beyond.
//!
//! ## One turn, two dice
//!
//! Both games share the turn itself: the pawn moves by the turn's sum modulo
//! the board and scores the space it lands on. What a turn's sum *is*
//! differs, and the code says so instead of hiding it behind one
//! abstraction:
//!
//! * the deterministic die has a state (how many rolls were made), so its
//!   turn is one number, computed in closed form from that state;
//! * the Dirac die has no state, so its turn is the same [`Tally`](crate::Tally)
//!   of moves every time: `faces^rolls` universes folded into at most
//!   `board` moves, `{3: 1, 4: 3, 5: 6, 6: 7, 7: 6, 8: 3, 9: 1}` for the
//!   puzzle (27 universes, 7 moves).
//!
//! Treating the deterministic turn as a one-outcome tally would type-check,
//! but the deterministic engine's whole trick is to *not* play turn after
//! turn (it jumps whole periods), and the Dirac engines' trick is to play
//! every outcome of a turn at once; a shared game loop would serve neither.
//!
//! # The deterministic game: periods instead of turns
//!
//! The puzzle's game from 4 and 8 lasts 331 turns (993 rolls); at a target
//! of 10¹⁸ it would last 3 × 10¹⁷. Neither is simulated.
//!
//! **A turn's move in closed form.** After `o` rolls the die shows `o + 1`
//! (counting modulo `faces`), so a turn is `rolls` consecutive values and
//! its sum is a difference of triangular numbers: O(1) whatever the number
//! of rolls or faces.
//!
//! **Each pawn repeats on its own.** A pawn's future depends only on its
//! space and the die's offset when its turn comes, and the other players
//! never change either: every round moves the offset by `players × rolls`.
//! So each pawn is periodic, with a period of at most `faces × board` of its
//! turns, and the game can jump whole periods.
//!
//! **When the board divides the die, the moves are an arithmetic
//! progression.** Wrapping the die subtracts `faces`, a multiple of the
//! board, so modulo the board a turn from offset `o` moves `rolls × o +
//! rolls(rolls + 1)/2`, and the offsets of one player's turns grow by
//! `players × rolls`. Its `k`-th move is `first + k × step` with `step =
//! players × rolls²`; the moves repeat every `cycle = board / gcd(board,
//! step)` turns, over which the pawn moves `Δ = cycle × first + step ×
//! cycle(cycle − 1)/2`; pawn and moves are back where they started after
//! `cycle × board / gcd(board, Δ)` turns. For the puzzle, `step = 2 × 9 ≡
//! 8`, `cycle = 5`, and:
//!
//! | player | moves | lands on | points a period | period |
//! |---:|---|---|---:|---:|
//! | 1 (from 4) | 6, 4, 2, 0, 8 | 10, 4, 6, 6, 4 | 30 | 5 |
//! | 2 (from 8) | 5, 3, 1, 9, 7, … | 3, 6, 7, 6, 3, 8, 1, 2, 1, 8 | 45 | 10 |
//!
//! Player 1 needs `⌊999 / 30⌋ = 33` periods and 10 more points, which its
//! next turn brings: it wins on its turn `33 × 5 + 1 = 166`, the game's
//! turn 331. Player 2 has then played 165 turns, 16 periods and 5 turns:
//! `16 × 45 + 25 = 745` points. The work is one period of each pawn, a
//! handful of divisions, and no memory beyond a few hundred bytes on the
//! stack, whatever the target:
//!
//! ```
//! use crabdice::{DiceRules, Starts, play_deterministic};
//!
//! let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
//! let outcome = play_deterministic(&starts, &DiceRules::deterministic())?;
//! assert_eq!((outcome.turns, outcome.scores()), (331, &[1000, 745][..]));
//!
//! // The same arithmetic at 10^18: 33,333,333,333,333,333 periods of
//! // player 1, then one turn.
//! let target = 1_000_000_000_000_000_000_u128;
//! let periods = (target - 1) / 30;
//! let turn = periods * 5 + 1;
//! let rules = DiceRules { target: target as u64, ..DiceRules::deterministic() };
//! let outcome = play_deterministic(&starts, &rules)?;
//! assert_eq!(outcome.scores()[0], periods * 30 + 10);
//! assert_eq!(outcome.scores()[1], (turn - 1) / 10 * 45 + 25);
//! assert_eq!(outcome.rolls, (2 * turn - 1) * 3);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! When the board does not divide the die, or a period is very long, a
//! general solver learns each pawn's period turn by turn (at most 20 million
//! simulated turns), follows the pawns in blocks of the die's offsets, or
//! sweeps the line of the die's wraps on a small board; then plain
//! simulation, then a clear error.
//!
//! # The Dirac game: three engines
//!
//! | engine | what it walks | states for the puzzle |
//! |---|---|---|
//! | [`DiracEngine::Tree`] | every roll of every universe | 7 × 10¹⁴ leaves: refused |
//! | [`DiracEngine::Memo`] | joint game states, each solved once | at most (10 × 21)² = 44,100 |
//! | [`DiracEngine::PerPlayer`] | each player's own (space, score) cells, turn by turn | 2 × 210 cells, 10 turns |
//!
//! **The universe tree** is the rules read literally and the reference the
//! others are tested against; it stops after 100 million rolls.
//!
//! **[Memoization](https://en.wikipedia.org/wiki/Memoization)**: a game's
//! future depends only on its state (every pawn's space and score, and who
//! moves), so the wins from a state are computed once. Listing the pawns
//! from the player to move makes one entry serve every player who reaches
//! that state. At most `(board × target)^players` states: 44,100 for the
//! puzzle, but 1.9 × 10⁹ for four players, so it stops after two million.
//!
//! ## Per player: linear in the players, not exponential
//!
//! A player's pawn and score depend only on its own rolls, so each player
//! can be played **alone**, giving two numbers a turn:
//!
//! * `W[t]`: its universes that first reach the target on its turn `t`;
//! * `N[t]`: its universes still short of the target after `t` turns
//!   (`N[0] = 1`, and `N[t] = faces^rolls × N[t−1] − W[t]`).
//!
//! Player `i` wins on its turn `t` exactly when it first reaches the target
//! then, every player before it has played `t` turns short of it, and every
//! player after it `t − 1`. Their rolls are independent, so the universes
//! multiply:
//!
//! ```text
//! wins_i = Σ_t  W_i[t] × Π_{j<i} N_j[t] × Π_{j>i} N_j[t−1]
//! ```
//!
//! For the puzzle's player 1, starting on 4 (nobody reaches 21 in two turns:
//! 10 + 10 is the best start):
//!
//! | turn t | W\[t\] | N\[t\] |
//! |---:|---:|---:|
//! | 1 | 0 | 27 |
//! | 2 | 0 | 729 |
//! | 3 | 4,608 | 15,075 |
//! | 4 | 249,542 | 157,483 |
//! | 5 | 3,219,454 | 1,032,587 |
//! | 6 | 24,905,476 | 2,974,373 |
//! | 7 | 77,993,473 | 2,314,598 |
//! | 8 | 62,172,638 | 321,508 |
//! | 9 | 8,678,745 | 1,971 |
//! | 10 | 53,217 | 0 |
//!
//! [`win_histogram`] returns each player's `W`; the formula turns them into
//! the answer:
//!
//! ```
//! use crabdice::{DiceRules, Starts, win_histogram};
//!
//! let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
//! let histogram = win_histogram(&starts, &DiceRules::dirac())?;
//! let w: Vec<Vec<u128>> =
//!     histogram.iter().map(|p| p.alone.iter().map(|n| n.to_u128().unwrap()).collect()).collect();
//! assert_eq!(w[0][..4], [0, 0, 4_608, 249_542]);
//! // N[t] = 27 N[t − 1] − W[t], from N[0] = 1.
//! let n: Vec<Vec<u128>> = w
//!     .iter()
//!     .map(|w| w.iter().scan(1, |n, w| { *n = 27 * *n - w; Some(*n) }).collect())
//!     .collect();
//! let before = |t: usize| if t == 0 { 1 } else { n[1].get(t - 1).copied().unwrap_or(0) };
//! let wins: u128 = (1..=w[0].len()).map(|t| w[0][t - 1] * before(t - 1)).sum();
//! assert_eq!(wins, 444_356_092_776_315);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The work is each player alone (`board × target` cells a turn) instead of
//! the joint states: four players on a target of 100 take about a fifth of
//! a millisecond, where the joint states would number (10 × 100)⁴ = 10¹².
//!
//! ## The table: spaces by scores, a turn as passes of the die
//!
//! One player's table holds, after `t` turns, the universes on each space
//! with each score below the target. It is **transposed**: one row per
//! space, one column per score. A roll moves universes from space `p` to
//! `p + 1, …, p + faces` without scoring, so rolling is a sum of *rows*:
//! `new[q] = old[q − 1] + … + old[q − faces]` (indices modulo the board),
//! the same for every score column. A turn is `rolls` such passes, then the
//! landing: the universes on space `q` score `q + 1`, so row `q` moves
//! `q + 1` columns right, and what passes the target is `W[t]`.
//!
//! * Three passes of the puzzle's die cost 2 additions each per cell, 6 in
//!   all, against 7 multiplications and additions for the folded moves `{3:
//!   1, 4: 3, 5: 6, 6: 7, 7: 6, 8: 3, 9: 1}`; and no pass moves a number
//!   within a vector: picking another row is picking another address. A die
//!   larger than the board adds `faces / board` times the whole row sum.
//! * Passes do not mix scores, so the engine takes a few score columns at a
//!   time through all the passes, in registers, then lands them; for the
//!   puzzle's board, die and rolls every index is a constant. Only the band
//!   of scores that still holds universes is visited: 86 columns in 10 turns
//!   for the puzzle's two players.
//!
//! ## Exact by construction, in the narrowest words
//!
//! During turn `t` every cell, every partial sum of a pass and `W[t]` is a
//! share of `N[t−1] × faces^rolls` universes. The engine checks that one
//! product against the words' capacity before the turn, then adds without
//! any check (debug builds still trap an overflow, which would mean the
//! argument is wrong). When it does not fit, the table moves to wider words
//! and the game goes on: 64, 128, 256, 512, then 1024 bits, and big-integer
//! cells beyond. A player's counts take about half the bits of the answer
//! (27 for the puzzle, 115 at a target of 100), so most games stay in
//! machine words.
//!
//! While the bound stays below 2³², **two players share one 64-bit word**,
//! 32 bits each: additions act on both halves at once and a half never
//! carries into the other. For the puzzle the largest bound is 3,520,415 ×
//! 27 ≈ 9.5 × 10⁷, so both players are counted in a single table. Past 2³²
//! the shared table splits into one per player, mid-game.
//!
//! **Players alone are independent**, so a large count spreads them over
//! the cores: the two halves of a split pair go on at once, and so do the
//! players counted in big integers (past 1024 bits, or over live cells).
//! It does so only when their tables fit the memory limit together and
//! the count is estimated large enough to pay for a thread (about 0.4 ms
//! for a pair in words); the puzzle's game never starts one. On two cores,
//! two players to 300 points take 2.9 ms instead of 5.5, four players on a
//! board of 7 with six rolls of a six-sided die to 600 points 1.0 s instead
//! of 2.7 (with the big-integer cells below).
//!
//! Past 1024 bits, the **big-integer cells** are vectors of 64-bit limbs,
//! and each move adds its product into its destination in place, in one
//! pass over the limbs: no temporary number, no allocation once the cells
//! have grown (1.3–2× faster than multiplying big integers, on one core).
//!
//! Only the interleaving multiplies counts of different players; those few
//! products are computed in `u64`, then `u128`, then big integers, with
//! checked arithmetic, whichever first holds the answer. With thousands of
//! players they are no longer few: each player's wins multiply every
//! player's counts, so the wins of `P` players take `P²` counts' words
//! between them. Past 16 players, products of all players but one are
//! taken down two product trees (`P² log P` products of counts' words a
//! turn, instead of `P³` from one end: 10,000 players on the puzzle's
//! rules in 1.9 s instead of 33.6 s; for a few players the ends are
//! faster), and a game whose wins would pass the limits on memory
//! or work is refused before they are combined
//! ([`RulesError::DiracTooManyPlayers`](crate::RulesError::DiracTooManyPlayers)):
//! 30,000 players would need 2.7 GB.
//!
//! ## A large board is a small one
//!
//! In the Dirac game only the board's first spaces matter. A pawn that is
//! still playing, past its first turn, stands on a space below the target
//! `T`: it scored that space's number when it landed there. A turn moves it
//! at most `M = rolls × faces` spaces, so from there it never reaches space
//! `T + M`. On a board of more than `T + M` spaces, such a pawn never wraps
//! around, and the game is the same on a board of exactly `T + M` spaces
//! (`DiceRules::dirac_board`, in module `rules`). Only the first turn can
//! start elsewhere:
//!
//! * a start below `T` is a space of the small board too;
//! * a start `e < M` spaces before the end lands, by a move of `d`, either
//!   on a space of at least `T` (`d ≤ e`: the player wins) or, wrapping,
//!   on space `d − e`. A start `e` spaces before the end of the small board
//!   does exactly the same;
//! * any other start lands on spaces of at least `T` whatever the move, and
//!   wins in its first turn, as it does from space `T` of the small board.
//!
//! So the per-player and memo engines count a game on a board of a million,
//! or 2⁶⁴ − 1, spaces at the cost of a board of `T + M`: 30 spaces for the
//! puzzle's target and die. (The universe tree, the reference, walks the
//! board as given.)
//!
//! A large die keeps the board large: `T + M` is 300,050 spaces for a die
//! of 100,000 rolled three times, gigabytes of table at a target of 50.
//! When the table is too large, or far more work, the per-player engine
//! keeps only the cells a playing pawn can occupy, space below `T` and
//! score below `T`, and moves between them by the number of roll sequences
//! whose sum lands there, counted in closed form (module `live`): that game
//! takes milliseconds. A die larger than the board lands on a space by many
//! sums (`2^25` for two rolls of `2^64 − 1` faces on `2^40` spaces), and
//! those are summed in closed form too, as polynomials.
//!
//! # Where to read on
//!
//! | module | idea | work |
//! |---|---|---|
//! | `rules` | the four numbers, sense checks, a large board played as a small one; `rules::size`: the limits and each engine's estimates | O(1); the longest game O(board × target) |
//! | `starts` | strict line reader with positions for errors | O(input) |
//! | `deterministic` | closed-form turns, per-pawn periods, jumps | O(players × period), period ≤ faces × board |
//! | `literal` | the deterministic game one roll at a time, the solver's reference | O(rolls) |
//! | `alone` | each player alone on a transposed table, in words (`alone::table`, `alone::word`), then in big-integer cells (`alone::cells`) | O(players × board × target × turns × rolls) |
//! | `live` | each player alone over the cells below the target, when the table is too large or far slower | O(players × target⁴) |
//! | `quantum` | the engines' front door, and the interleaving | O(turns × players² × log players) products of counts |
//! | `memo` | memoization over joint states | O((board × target)^players) at worst |
//! | `tree` | every roll of every universe | O(universes) |

mod alone;
mod deterministic;
mod literal;
mod live;
mod memo;
mod quantum;
mod rules;
mod starts;
mod tree;

use deterministic::deterministic_winner;
pub use deterministic::{DeterministicOutcome, play_deterministic};
pub use literal::{MAX_LITERAL_ROLLS, play_deterministic_literal};
pub use quantum::{
    DiracEngine, DiracOutcome, WinsByTurn, check_win_histogram, count_wins, count_wins_within,
    play_dirac, play_dirac_within, win_histogram, win_histogram_within,
};
pub use rules::{DIRAC_TABLE_WORDS, DIRAC_WORK, DiceRules, DiracLimits};
pub use starts::{Starts, StartsError};
