//! # Errors
//!
//! Every input is untrusted, so every way it can be wrong has a typed error.
//! A [`ParseError`] knows *where* the problem is (line, column and a byte
//! [`SourceSpan`] into the text that was parsed) and *what* it is
//! ([`ParseErrorKind`]). It implements [`miette::Diagnostic`], so a program
//! that attaches the source text (a [`miette::NamedSource`], say; the
//! `crabdice` binary attaches a source of its own, which leaves the text out
//! when the lines around the problem are too long to show or hold
//! characters that act on the terminal) gets the offending line underlined,
//! a label, and a hint on how to fix it. Without the source, the plain message still names
//! the line and column.
//!
//! The library never panics on user input and never returns an opaque error:
//! callers can match on the kind.

use std::borrow::Cow;
use std::fmt;

use miette::SourceSpan;

use crate::Game;
use crate::dirac::DiracEngine;
use crate::input::Line;

/// The most characters of the input a message quotes: a line of a million
/// characters is quoted by its start, then `…`, so that the message stays
/// readable and quick to print.
pub(crate) const QUOTED: usize = 60;

/// How a Crab Combat deal is written, for the help of its errors.
const DEAL: &str = "a Crab Combat deal is `Player 1:` and one card a line, a blank line, then \
                    `Player 2:` and one card a line";

/// How a Dirac Dice game is written, for the help of its errors.
const START: &str = "a Dirac Dice game is one line a player, in order: \
                     `Player 1 starting position: 4`, `Player 2 starting position: 8`, ...";

/// What is wrong with a piece of puzzle input. Text `found` in the input is
/// quoted up to its first 60 characters, then `…`, with control and
/// text-reordering characters written as escapes (`\0`, `\u{1b}`,
/// `\u{202e}`), so that a stray byte cannot garble the terminal that shows
/// the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input has no content: it is empty, or holds only whitespace
    /// and line ends.
    #[error("the input is empty or blank")]
    Empty,
    /// The first line matches neither game's format.
    #[error("`{found}` starts neither a Crab Combat deal nor a Dirac Dice game")]
    UnknownGame {
        /// The line that was found.
        found: String,
    },
    /// A player header (`Player 1:`) was expected.
    #[error("expected `{expected}`, found `{found}`")]
    ExpectedHeader {
        /// The header that should be here.
        expected: String,
        /// What is here instead.
        found: String,
    },
    /// Text after a player header, on its line.
    #[error("unexpected `{found}` after `{header}`")]
    AfterHeader {
        /// The header.
        header: String,
        /// The text after it.
        found: String,
    },
    /// The input ended where more was required.
    #[error("expected `{expected}`, found the end of the input")]
    UnexpectedEnd {
        /// What should have come next.
        expected: String,
    },
    /// A line in a deck is not a whole number.
    #[error("`{found}` is not a card: cards are positive whole numbers")]
    NotACard {
        /// The text of the line.
        found: String,
    },
    /// Text after a card, on its line (one card a line).
    #[error("unexpected `{found}` after the card `{card}`")]
    AfterCard {
        /// The card, as written.
        card: String,
        /// The text after it.
        found: String,
    },
    /// A card of value zero (cards must be positive).
    #[error("`{found}` is not a card: cards are positive, so 0 is not allowed")]
    ZeroCard {
        /// The text of the line.
        found: String,
    },
    /// A card value past 64 bits.
    #[error("card `{found}` is too large: cards go up to 18446744073709551615 (2^64 - 1)")]
    CardTooLarge {
        /// The text of the line.
        found: String,
    },
    /// Neither deck holds a card.
    #[error("the deal has no cards at all")]
    NoCards,
    /// So many cards that a score could overflow 128 bits (billions).
    #[error("the deal is too large: a score could overflow 128 bits")]
    DealTooLarge,
    /// The same card appears twice in the deal.
    #[error("card {card} is dealt twice (first on line {first_line})")]
    DuplicateCard {
        /// The repeated card.
        card: u64,
        /// Where it first appeared.
        first_line: usize,
    },
    /// A header after both decks: a third player.
    #[error("`{found}`: Crab Combat has exactly two players")]
    ThirdPlayer {
        /// The header that was found.
        found: String,
    },
    /// Text after the second deck.
    #[error("unexpected `{found}` after the last deck")]
    TrailingText {
        /// The text that was found.
        found: String,
    },
    /// A Dirac Dice line that is not `Player N starting position: P`.
    #[error("expected `{expected}`, found `{found}`")]
    ExpectedStart {
        /// The line that should be here, with `P` for the position.
        expected: String,
        /// What is here instead.
        found: String,
    },
    /// Text after the last player's line and a blank line.
    #[error("unexpected `{found}` after the last player")]
    AfterPlayers {
        /// The text that was found.
        found: String,
    },
    /// A `Player N starting position:` line with no position after it.
    #[error("player {player}'s starting position is missing")]
    MissingPosition {
        /// The player whose line it is, from 1.
        player: usize,
    },
    /// A blank line between two players' starting positions (blank lines
    /// may come before the first player and after the last).
    #[error("expected `{expected}`, found a blank line")]
    BlankBetweenPlayers {
        /// The line that should be here, with `P` for the position.
        expected: String,
    },
    /// A starting position that is not a whole number from 1 up.
    #[error(
        "`{found}` is not a starting position: positions are spaces on the board, numbered from 1"
    )]
    NotAPosition {
        /// The offending text.
        found: String,
    },
    /// Text after the starting position.
    #[error("unexpected `{found}` after the starting position")]
    AfterPosition {
        /// The extra text.
        found: String,
    },
    /// A starting position past any board (2^64 or more).
    #[error(
        "starting position `{found}` is off every board: boards have at most \
         18446744073709551615 spaces"
    )]
    PositionTooLarge {
        /// The offending text.
        found: String,
    },
    /// A starting position beyond the board.
    #[error("starting position {position} is off the board: spaces are numbered 1 to {board}")]
    OffBoard {
        /// The position given.
        position: u64,
        /// The board's size.
        board: u64,
    },
    /// Dirac Dice needs at least two players.
    #[error("Dirac Dice needs at least two players, found {found}")]
    TooFewPlayers {
        /// How many players the input lists.
        found: usize,
    },
}

/// Whether a character would act on a terminal rather than show as itself:
/// a control character (line ends and tabs included); a format character
/// (Unicode's category `Cf`: the bidirectional marks, overrides and
/// isolates of "Trojan Source", zero-width spaces and joiners, invisible
/// operators, a byte order mark inside the text, a soft hyphen, tags,
/// interlinear annotations); a line or paragraph separator; or another
/// character that shows as nothing by itself (the combining grapheme
/// joiner, variation selectors, Hangul fillers, Khmer's inherent vowels),
/// which would make a quote of the input look like text that is fine. A
/// [`ParseError`] escapes these where it quotes the input
/// ([`escape_for_terminal`]); a program that shows the input itself can use
/// this to decide what is safe to show.
///
/// ```
/// use crabdice::acts_on_terminal;
/// assert!(acts_on_terminal('\x1b') && acts_on_terminal('\u{202e}'));
/// assert!(acts_on_terminal('\u{feff}') && acts_on_terminal('\u{200b}'));
/// assert!(acts_on_terminal('\u{2062}') && acts_on_terminal('\u{e0041}'));
/// assert!(!acts_on_terminal('7') && !acts_on_terminal('é') && !acts_on_terminal('🦀'));
/// ```
pub fn acts_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Format characters (Cf), as of Unicode 15, with the unassigned
            // code points Unicode reserves to show as nothing among them
            // (U+2065, U+FFF0–FFF8, U+E0000–E0FFF, which holds the tags
            // and the variation selectors 17 to 256).
            '\u{ad}'
                | '\u{600}'..='\u{605}'
                | '\u{61c}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'..='\u{891}'
                | '\u{8e2}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e0fff}'
                // Line and paragraph separators.
                | '\u{2028}'..='\u{2029}'
                // Nothing to see by themselves.
                | '\u{34f}'
                | '\u{115f}'..='\u{1160}'
                | '\u{17b4}'..='\u{17b5}'
                | '\u{180b}'..='\u{180d}'
                | '\u{180f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{ffa0}'
        )
}

/// Text made safe to show on a terminal: unchanged if no character of it
/// [acts on the terminal](acts_on_terminal); otherwise those characters are
/// escaped (`\0`, `\u{1b}`, `\u{202e}`) and every backslash is doubled, so
/// that an escape cannot be forged by typing one. Parse errors quote the
/// input this way; the command line shows file names this way.
///
/// ```
/// use crabdice::escape_for_terminal;
/// assert_eq!(escape_for_terminal(r"C:\decks\a.txt"), r"C:\decks\a.txt");
/// assert_eq!(escape_for_terminal("a\x1b[2Jb\\"), r"a\u{1b}[2Jb\\");
/// assert_eq!(escape_for_terminal("new\nline"), r"new\nline");
/// ```
pub fn escape_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.contains(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => shown.push_str("\\\\"),
            c if c.is_control() => shown.extend(c.escape_debug()),
            c if acts_on_terminal(c) => shown.extend(c.escape_unicode()),
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

impl ParseErrorKind {
    /// Cuts quoted input down to [`QUOTED`] characters and `…`, and
    /// escapes its control characters.
    fn quote(&mut self) {
        /// Cuts and escapes one quoted piece of input.
        fn quoted(found: &mut String) {
            if let Some((cut, _)) = found.char_indices().nth(QUOTED) {
                found.truncate(cut);
                found.push('…');
            }
            if let Cow::Owned(shown) = escape_for_terminal(found) {
                *found = shown;
            }
        }
        match self {
            Self::AfterCard { card, found } => {
                quoted(card);
                quoted(found);
            }
            Self::UnknownGame { found }
            | Self::ExpectedHeader { found, .. }
            | Self::AfterHeader { found, .. }
            | Self::NotACard { found }
            | Self::ZeroCard { found }
            | Self::CardTooLarge { found }
            | Self::ThirdPlayer { found }
            | Self::TrailingText { found }
            | Self::AfterPlayers { found }
            | Self::ExpectedStart { found, .. }
            | Self::NotAPosition { found }
            | Self::PositionTooLarge { found }
            | Self::AfterPosition { found } => quoted(found),
            Self::Empty
            | Self::UnexpectedEnd { .. }
            | Self::NoCards
            | Self::DealTooLarge
            | Self::DuplicateCard { .. }
            | Self::OffBoard { .. }
            | Self::BlankBetweenPlayers { .. }
            | Self::MissingPosition { .. }
            | Self::TooFewPlayers { .. } => {}
        }
    }

    /// A short label for the underlined text.
    fn label(&self) -> &'static str {
        match self {
            Self::Empty => "no content",
            Self::UnexpectedEnd { .. } => "input ends here",
            Self::UnknownGame { .. } => "unrecognised line",
            Self::ExpectedHeader { .. } | Self::ThirdPlayer { .. } => "not the expected header",
            Self::TrailingText { .. }
            | Self::AfterPosition { .. }
            | Self::AfterPlayers { .. }
            | Self::AfterHeader { .. }
            | Self::AfterCard { .. } => "unexpected text",
            Self::NotACard { .. } | Self::ZeroCard { .. } => "not a card",
            Self::CardTooLarge { .. } => "too large",
            Self::DuplicateCard { .. } => "dealt twice",
            Self::NoCards => "no cards before here",
            Self::DealTooLarge => "the deal ends here",
            Self::ExpectedStart { .. } => "not a starting position line",
            Self::BlankBetweenPlayers { .. } => "blank line",
            Self::MissingPosition { .. } => "no position here",
            Self::NotAPosition { .. } | Self::OffBoard { .. } | Self::PositionTooLarge { .. } => {
                "not a space on the board"
            }
            Self::TooFewPlayers { .. } => "only player",
        }
    }

    /// How to fix it.
    fn help(&self) -> String {
        match self {
            Self::Empty | Self::UnknownGame { .. } => format!("{DEAL}; {START}"),
            Self::ExpectedHeader { .. }
            | Self::UnexpectedEnd { .. }
            | Self::TrailingText { .. }
            | Self::AfterHeader { .. } => DEAL.to_owned(),
            Self::NotACard { .. } | Self::ZeroCard { .. } | Self::AfterCard { .. } => {
                "write one card a line as a positive whole number such as `7`".to_owned()
            }
            Self::CardTooLarge { .. } => "use smaller card values".to_owned(),
            Self::DuplicateCard { .. } => {
                "every card must be distinct: with two equal cards the round has no winner"
                    .to_owned()
            }
            Self::ThirdPlayer { found } if Game::of_line(found) == Some(Game::Dice) => {
                "a file holds one game: give the Dirac Dice game a file of its own".to_owned()
            }
            Self::ThirdPlayer { .. } => "remove the third player's deck".to_owned(),
            Self::NoCards => "give at least one player a card".to_owned(),
            Self::DealTooLarge => "split the deal: scores are exact up to 128 bits".to_owned(),
            Self::ExpectedStart { found, .. } | Self::AfterPlayers { found }
                if Game::of_line(found) == Some(Game::Combat) =>
            {
                format!(
                    "a file holds one game: give the Crab Combat deal a file of its own; {START}"
                )
            }
            Self::ExpectedStart { .. } | Self::TooFewPlayers { .. } => START.to_owned(),
            Self::AfterPlayers { .. } => {
                format!("end the file after the last player; {START}")
            }
            Self::BlankBetweenPlayers { .. } => {
                format!(
                    "blank lines may come only before the first player and after the last: \
                     remove this one, or what follows it; {START}"
                )
            }
            Self::MissingPosition { player } => {
                format!(
                    "write the space after the colon, as in `Player {player} starting position: 8`"
                )
            }
            Self::AfterPosition { .. } => {
                "end the line after the position, as in `Player 1 starting position: 4`".to_owned()
            }
            // Text or 0 is on no board, so a larger one would not help.
            Self::NotAPosition { .. } => {
                "write the space as a whole number from 1, such as `4`".to_owned()
            }
            Self::OffBoard { .. } => {
                "give a space on the board, or play on a larger board".to_owned()
            }
            Self::PositionTooLarge { .. } => {
                "give a space on the board, such as `4` (the puzzle's board has 10)".to_owned()
            }
        }
    }
}

/// Puzzle input that could not be read, with the place it went wrong.
///
/// # Examples
///
/// ```
/// let err = crabdice::Deal::parse("Player 1:\n9\nten\n\nPlayer 2:\n5\n").unwrap_err();
/// assert_eq!(err.line(), 3);
/// assert_eq!(err.to_string(), "line 3, column 1: `ten` is not a card: cards are positive whole numbers");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error(transparent)]
#[diagnostic(transparent)]
pub struct ParseError(Box<Details>);

/// The contents of a [`ParseError`], boxed so that `Result`s stay small.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("line {line}, column {column}: {kind}")]
#[diagnostic(code(crabdice::parse))]
struct Details {
    kind: ParseErrorKind,
    line: usize,
    column: usize,
    #[label("{label}")]
    span: SourceSpan,
    label: &'static str,
    #[help]
    help: Option<String>,
}

impl ParseError {
    /// An error about `part`, a sub-slice of `line`, in `source`.
    pub(crate) fn at(kind: ParseErrorKind, source: &str, line: &Line<'_>, part: &str) -> Self {
        let column = line.column_of(source, part);
        Self::new(kind, line.number, column, line.span_of(source, part))
    }

    /// An error about the whole of `line`.
    pub(crate) fn at_line(kind: ParseErrorKind, source: &str, line: &Line<'_>) -> Self {
        Self::at(kind, source, line, line.text)
    }

    /// The error for a `source` with no content. Its help shows how
    /// `game` is written, or both games when the game is not known yet
    /// (as when a file is recognised).
    ///
    /// It points at the start of the input, line 1, column 1: the end of a
    /// few blank lines would name a line past them.
    pub(crate) fn empty(game: Option<Game>) -> Self {
        let mut error = Self::new(ParseErrorKind::Empty, 1, 1, (0, 0).into());
        error.0.help = match game {
            Some(Game::Combat) => Some(DEAL.to_owned()),
            Some(Game::Dice) => Some(START.to_owned()),
            None => error.0.help,
        };
        error
    }

    /// An error at the very end of `source`.
    pub(crate) fn at_end(kind: ParseErrorKind, source: &str) -> Self {
        let (line, offset) = crate::input::end_of(source);
        Self::new(kind, line, crate::input::column_at(source, offset), (offset, 0).into())
    }

    pub(crate) fn new(
        mut kind: ParseErrorKind,
        line: usize,
        column: usize,
        span: SourceSpan,
    ) -> Self {
        kind.quote();
        let label = kind.label();
        let help = Some(kind.help());
        Self(Box::new(Details { kind, line, column, span, label, help }))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.0.kind
    }

    /// The 1-based line number of the problem.
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The 1-based column (in characters) of the problem.
    pub fn column(&self) -> usize {
        self.0.column
    }

    /// The bytes of the input the problem is about.
    pub fn span(&self) -> SourceSpan {
        self.0.span
    }
}

// ---------------------------------------------------------------------------
// Dirac Dice: rules and counting
// ---------------------------------------------------------------------------

/// Dice rules that make no sense, or that no engine can finish in reasonable
/// time and memory.
///
/// Each message says what is wrong in the rules' own terms, and its
/// [`help`](miette::Diagnostic::help) what would change it, in the library's:
/// the fields of [`DiceRules`](crate::DiceRules) (`board`, `target`, `faces`,
/// `rolls`) and [`DiracLimits`](crate::DiracLimits) (`max_table_words`,
/// `max_work`), and the [`DiracEngine`]. A front end
/// names its own settings instead: the command line's help names its flags.
/// [`DiracLimits`](crate::DiracLimits) documents how each estimate is made.
///
/// # Examples
///
/// ```
/// use crabdice::miette::Diagnostic;
/// use crabdice::{DiceRules, RulesError};
///
/// let rules = DiceRules { board: 0, ..DiceRules::dirac() };
/// assert_eq!(rules.validate(), Err(RulesError::EmptyBoard));
/// assert_eq!(RulesError::EmptyBoard.to_string(), "the board needs at least one space");
/// let help = RulesError::EmptyBoard.help().map(|help| help.to_string());
/// assert_eq!(help.as_deref(), Some("give DiceRules::board a value of 1 or more"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(crabdice::rules))]
#[non_exhaustive]
pub enum RulesError {
    /// A board of zero spaces.
    #[error("the board needs at least one space")]
    #[diagnostic(help("give DiceRules::board a value of 1 or more"))]
    EmptyBoard,
    /// A die of zero faces.
    #[error("the die needs at least one face")]
    #[diagnostic(help("give DiceRules::faces a value of 1 or more"))]
    NoFaces,
    /// A turn of zero rolls.
    #[error("a turn needs at least one roll")]
    #[diagnostic(help("give DiceRules::rolls a value of 1 or more"))]
    NoRolls,
    /// A target of zero points, reached before anyone moves.
    #[error("the target score must be at least 1")]
    #[diagnostic(help("give DiceRules::target a value of 1 or more"))]
    NoTarget,
    /// A Dirac game whose tables would not fit in memory.
    #[error(
        "a player's tables for this Dirac game need about {words} 64-bit words (board × target \
         cells, a board counting as at most target + rolls × die spaces, times the words a count \
         takes, before and after a turn and while counts widen), over the limit of {limit} words"
    )]
    #[diagnostic(help(
        "lower the target or the board (or the die's faces or the rolls, when the board is \
         larger than target + rolls × faces), or raise DiracLimits::max_table_words"
    ))]
    DiracTooBig {
        /// The estimated size.
        words: u128,
        /// The largest size accepted.
        limit: u128,
    },
    /// A Dirac game whose tables are within the limits, but more than the
    /// machine can allocate.
    #[error(
        "a player's tables for this Dirac game need about {words} 64-bit words, more than this \
         machine can allocate"
    )]
    #[diagnostic(help(
        "lower DiracLimits::max_table_words to the memory the machine has, or the target or the \
         board"
    ))]
    DiracNoMemory {
        /// The estimated size.
        words: u128,
    },
    /// A Dirac game that would take too long to count.
    #[error(
        "counting this Dirac game takes about {work} word operations (players × board × target \
         × most turns a game can last × a pass per roll, or, once counts outgrow 1024 bits, a \
         product per distinct move; times the words a count takes; in machine words, plus 64 \
         operations for each word of the tables, zeroed, copied and read), over the limit of \
         {limit} operations"
    )]
    #[diagnostic(help(
        "lower the target, the board, the die's faces or the rolls, or raise \
         DiracLimits::max_work (the default, DIRAC_WORK, is up to about ten seconds of work)"
    ))]
    DiracTooSlow {
        /// The estimated work.
        work: u128,
        /// The most work accepted.
        limit: u128,
    },
    /// A Dirac game with so many players that combining their own counts
    /// (each player's wins multiply every player's counts) would pass the
    /// limit on memory or on work.
    #[error(
        "combining the counts of {players} Dirac players takes about {words} 64-bit words and \
         {work} word operations (each player's wins multiply every player's counts), over the \
         limit of {limit} {passed}"
    )]
    #[diagnostic(help("use fewer players, or raise DiracLimits::{}", passed.field()))]
    DiracTooManyPlayers {
        /// The players.
        players: usize,
        /// The estimated words held.
        words: u128,
        /// The estimated word operations.
        work: u128,
        /// The limit passed.
        limit: u128,
        /// Which limit that is.
        passed: DiracLimit,
    },
    /// The memo engine met more game states than it may store.
    #[error(
        "the memo engine stores one entry per game state and reached its limit of {limit} \
         states"
    )]
    #[diagnostic(help("count with DiracEngine::PerPlayer, or to a lower target"))]
    MemoTooLarge {
        /// The most states stored.
        limit: usize,
    },
    /// The memo engine passed the Dirac limits while it counted: the
    /// counts it stores, or its work, outgrew [`DiracLimits`](crate::DiracLimits).
    #[error(
        "the memo engine stores one entry per game state and stopped after {states} states, \
         holding about {words} 64-bit words (limit {max_words}) after about {work} word \
         operations in all (limit {max_work}; a count that outgrows 64 or 128 bits starts \
         again in wider numbers)"
    )]
    #[diagnostic(help(
        "count with DiracEngine::PerPlayer, or raise DiracLimits::max_table_words or max_work"
    ))]
    MemoPastLimits {
        /// States stored when it stopped, in the try that stopped.
        states: usize,
        /// Words of memory held by the stored states, in the try that
        /// stopped.
        words: u128,
        /// Word operations done, over every try (in u64, u128, then big
        /// integers: a count that overflows starts again wider).
        work: u128,
        /// [`DiracLimits::max_table_words`](crate::DiracLimits::max_table_words).
        max_words: u128,
        /// [`DiracLimits::max_work`](crate::DiracLimits::max_work).
        max_work: u128,
    },
    /// The universe tree engine would visit more roll nodes than it may
    /// (counted beforehand where the players' own counts allow, else met
    /// on the walk).
    #[error(
        "the universe tree engine visits every roll of every universe, more than its limit of \
         {limit} rolls"
    )]
    #[diagnostic(help("count with DiracEngine::PerPlayer, or to a lower target"))]
    TreeTooLarge {
        /// The most roll nodes visited.
        limit: u64,
    },
    /// A game too large for the memo or the tree engine, which the
    /// per-player engine counts within the same limits. Both take more
    /// than a player's table of (space, score) cells would (the memo
    /// engine stores every joint state, the tree visits every universe),
    /// so a game whose table passes the limits (`reason`) is refused before
    /// either starts; the per-player engine counts it over the live cells
    /// alone, which are within the limits, or, for a die of one face, plays
    /// its one universe at any target (as the memo engine does too). (Where
    /// neither holds, the refusal is `reason` itself.)
    #[error(
        "the {engine} engine counts only games whose players fit a table of cells, and {reason}"
    )]
    #[diagnostic(help(
        "count with DiracEngine::PerPlayer, which counts this game within the limits, or {}",
        help_of(reason)
    ))]
    PastTheTable {
        /// The engine asked for: [`DiracEngine::Memo`] or
        /// [`DiracEngine::Tree`].
        engine: DiracEngine,
        /// Why a player's table is too large:
        /// [`DiracTooBig`](Self::DiracTooBig),
        /// [`DiracNoMemory`](Self::DiracNoMemory) or
        /// [`DiracTooSlow`](Self::DiracTooSlow).
        reason: Box<RulesError>,
    },
    /// A deterministic game that neither repeats soon enough to skip ahead
    /// nor ends within the turns it may be played for.
    #[error(
        "the deterministic game is too long to play: nobody reaches the target within {limit} \
         turns, and it does not repeat soon enough to skip ahead"
    )]
    #[diagnostic(help("use a smaller board or die, or a lower target"))]
    PeriodTooLong {
        /// The most turns the game may be played for.
        limit: u64,
    },
    /// The literal engine of the deterministic game rolled the die as often
    /// as it may, and nobody had won.
    #[error(
        "the literal engine rolls the deterministic die one roll at a time and reached its \
         limit of {limit} rolls before anyone won"
    )]
    #[diagnostic(help(
        "lower the target or the rolls: a game lasts at least target ÷ board turns a player"
    ))]
    LiteralTooLong {
        /// The most rolls made.
        limit: u64,
    },
    /// A deterministic game of 2^128 rolls or more, past what
    /// [`DeterministicOutcome::rolls`](crate::DeterministicOutcome::rolls)
    /// holds (up to 2^128 − 1 rolls are answered).
    #[error("the game rolls the die 2^128 times or more")]
    #[diagnostic(help("lower the rolls or the target"))]
    TooManyRolls,
}

/// The help of `error`, for a refusal that wraps it.
fn help_of(error: &RulesError) -> String {
    miette::Diagnostic::help(error).map(|help| help.to_string()).unwrap_or_default()
}

/// Which of the [`DiracLimits`](crate::DiracLimits) a count would pass
/// ([`RulesError::DiracTooManyPlayers`]). Displayed as what the limit
/// counts: `64-bit words` or `word operations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiracLimit {
    /// [`DiracLimits::max_table_words`](crate::DiracLimits::max_table_words):
    /// the 64-bit words held.
    MaxTableWords,
    /// [`DiracLimits::max_work`](crate::DiracLimits::max_work): the word
    /// operations done.
    MaxWork,
}

impl DiracLimit {
    /// The name of the field of [`DiracLimits`](crate::DiracLimits) that
    /// sets this limit.
    pub fn field(self) -> &'static str {
        match self {
            Self::MaxTableWords => "max_table_words",
            Self::MaxWork => "max_work",
        }
    }
}

impl fmt::Display for DiracLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::MaxTableWords => "64-bit words",
            Self::MaxWork => "word operations",
        })
    }
}

/// A universe count that does not fit in the count type it was asked for,
/// or an outcome of a [`crate::Tally`] that does not fit in its `u64`.
///
/// Returned by the generic [`crate::count_wins`] and
/// [`crate::count_wins_within`], and by [`crate::Tally`]'s arithmetic;
/// [`crate::play_dirac`] moves on to a wider type instead.
///
/// ```
/// use crabdice::{CountOverflow, Overflowed, Tally};
///
/// let wide = Tally::<num_bigint::BigUint>::die(2).sum_of(u64::MAX);
/// assert_eq!(wide, Err(CountOverflow { width: "u64", what: Overflowed::Outcome }));
/// assert_eq!(wide.unwrap_err().to_string(), "an outcome does not fit in u64");
/// let narrow = Tally::<u64>::die(3).sum_of(45);
/// assert_eq!(narrow, Err(CountOverflow { width: "u64", what: Overflowed::Universes }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{what} does not fit in {width}")]
pub struct CountOverflow {
    /// The name of the type that overflowed: the count type, or `u64` for
    /// an outcome.
    pub width: &'static str,
    /// What did not fit.
    pub what: Overflowed,
}

/// What a [`CountOverflow`] could not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Overflowed {
    /// A number of universes, in the count type asked for.
    Universes,
    /// An outcome of a [`crate::Tally`] (a sum of draws), always a `u64`.
    Outcome,
}

impl CountOverflow {
    /// A count of universes past the count type `C`.
    pub(crate) fn of<C: crate::count::Count>() -> Self {
        Self { width: C::NAME, what: Overflowed::Universes }
    }

    /// A [`crate::Tally`]'s outcome past its `u64`.
    pub(crate) const OUTCOME: Self = Self { width: "u64", what: Overflowed::Outcome };
}

impl fmt::Display for Overflowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Universes => "a universe count",
            Self::Outcome => "an outcome",
        })
    }
}

impl miette::Diagnostic for CountOverflow {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("crabdice::overflow"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(match self.what {
            Overflowed::Universes => "count with a wider type, such as BigUint",
            Overflowed::Outcome => {
                "outcomes are u64: draw fewer times, or fold the outcomes modulo a number \
                 (`Tally::sum_of_modulo`)"
            }
        }))
    }
}

/// Why a Dirac Dice game could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum DiceError {
    /// A starting position off the board (found when the starts meet the
    /// rules), pointing at its line.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(Box<ParseError>),
    /// Rules that make no sense or are too large.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Rules(#[from] RulesError),
    /// A count too large for the requested count type.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Overflow(#[from] CountOverflow),
}

impl From<ParseError> for DiceError {
    fn from(err: ParseError) -> Self {
        Self::Parse(Box::new(err))
    }
}

#[cfg(test)]
mod tests {
    use miette::Diagnostic;

    use super::{DiracLimit, RulesError};

    /// The library speaks of its own fields, never of the command line's
    /// flags, in the messages of its refusals and in their help: a front
    /// end adds its own help (the command line names its flags).
    #[test]
    fn refusals_of_the_rules_name_no_flag() {
        let players = |passed| RulesError::DiracTooManyPlayers {
            players: 3,
            words: 2,
            work: 2,
            limit: 1,
            passed,
        };
        let errors = [
            RulesError::EmptyBoard,
            RulesError::NoFaces,
            RulesError::NoRolls,
            RulesError::NoTarget,
            RulesError::DiracTooBig { words: 2, limit: 1 },
            RulesError::DiracNoMemory { words: 2 },
            RulesError::DiracTooSlow { work: 2, limit: 1 },
            players(DiracLimit::MaxTableWords),
            players(DiracLimit::MaxWork),
            RulesError::MemoTooLarge { limit: 1 },
            RulesError::MemoPastLimits { states: 1, words: 2, work: 2, max_words: 1, max_work: 1 },
            RulesError::TreeTooLarge { limit: 1 },
            RulesError::PastTheTable {
                engine: super::DiracEngine::Tree,
                reason: Box::new(RulesError::DiracTooSlow { work: 2, limit: 1 }),
            },
            RulesError::PeriodTooLong { limit: 1 },
            RulesError::LiteralTooLong { limit: 1 },
            RulesError::TooManyRolls,
        ];
        let help = |error: &RulesError| error.help().map(|help| help.to_string());
        for error in errors {
            let text = help(&error).unwrap_or_default();
            assert!(!text.is_empty(), "{error}: no help");
            for text in [error.to_string(), text] {
                assert!(!text.contains("--"), "{error}: {text}");
            }
        }
        let expected = "use fewer players, or raise DiracLimits::max_work";
        assert_eq!(help(&players(DiracLimit::MaxWork)).as_deref(), Some(expected));
        assert!(
            players(DiracLimit::MaxTableWords).to_string().ends_with("limit of 1 64-bit words")
        );
    }
}
