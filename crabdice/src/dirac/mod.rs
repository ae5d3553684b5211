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
//! assert_eq!(deterministic.answer, 739_785_u32.into());
//! let dirac = play_dirac(&starts, &DiceRules::dirac(), DiracEngine::default())?;
//! assert_eq!(dirac.answer, 444_356_092_776_315_u64);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The board, target, faces and rolls are one value, [`DiceRules`], whatever
//! the die; the players come from the input ([`Starts`]), two or more.
//!
//! ## One turn, two dice
//!
//! Both games share the turn itself: the pawn moves by the turn's sum modulo
//! the board and scores the space it lands on (one function, used by every
//! engine). What a turn's sum *is* differs, and the code says so instead of
//! hiding it behind one abstraction:
//!
//! * the deterministic die has a state (how many rolls were made), so its
//!   turn is one number, computed in closed form from that state;
//! * the Dirac die has no state, so its turn is the same [`Tally`](crate::Tally)
//!   of moves every time (`{3: 1, 4: 3, 5: 6, 6: 7, 7: 6, 8: 3, 9: 1}` for the
//!   puzzle).
//!
//! Treating the deterministic turn as a one-outcome tally would type-check,
//! but the deterministic engine's whole trick is to *not* play turn after
//! turn (it jumps whole periods), and the Dirac engines' trick is to play
//! every outcome of a turn at once; a shared game loop would serve neither.
//!
//! ## Where to read on
//!
//! | module | idea | work |
//! |---|---|---|
//! | `rules` | the four numbers, sense checks, size limits | O(1) |
//! | `starts` | strict line reader with positions for errors | O(input) |
//! | `deterministic` | closed-form turns, per-pawn periods, jumps | O(players × period), period ≤ faces × board |
//! | `quantum` | each player alone on a flat table, then interleaved | O(players × board × target × turns × moves) |
//! | `memo` | memoization over joint states | O((board × target)^players) at worst |
//! | `tree` | every roll of every universe | O(universes) |

mod alone;
mod deterministic;
mod memo;
mod quantum;
mod rules;
mod starts;
mod tree;

pub use deterministic::{DeterministicOutcome, play_deterministic};
pub use quantum::{DiracEngine, DiracOutcome, WinsByTurn, count_wins, play_dirac, win_histogram};
pub use rules::DiceRules;
pub use starts::Starts;
