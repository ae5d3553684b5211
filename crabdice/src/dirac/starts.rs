//! # Reading the players' starting positions
//!
//! The input is one line a player, numbered from 1 in order:
//!
//! ```text
//! Player 1 starting position: 4
//! Player 2 starting position: 8
//! ```
//!
//! Two or more players are allowed. The reader accepts a byte order mark,
//! `\r\n` line ends, whitespace around a line and blank lines before the
//! first player and at the end (as a Combat deal does), and refuses anything
//! else with a [`ParseError`] that names the line: a misnumbered player, a
//! missing position or one that is not a whole number from 1, text after the
//! position, fewer than two players. After two players and a blank line, a
//! line that is not the next player's is blamed as text after the game (such
//! as a Combat deck pasted below it); the next player's line blames the blank
//! line instead. Whether a position is on the board depends on the rules,
//! so [`Starts::check`] does that later and still points at the line.

// `ParseError` is the crate's shared error type; its size is the one it has.
#![allow(clippy::result_large_err)]

use std::fmt;
use std::str::FromStr;

use miette::SourceSpan;

use crate::Game;
use crate::error::{ParseError, ParseErrorKind};
use crate::input::{self, Line};

use super::DiceRules;

/// The players' starting positions, in turn order, with where each was read
/// (for errors: two `Starts` are equal when their positions are, wherever
/// those were written).
///
/// # Examples
///
/// ```
/// use crabdice::Starts;
///
/// let starts = Starts::parse("Player 1 starting position: 4\r\nPlayer 2 starting position: 8\r\n\r\n")?;
/// assert_eq!(starts.positions(), [4, 8]);
/// assert_eq!(starts.players(), 2);
///
/// let err = Starts::parse("Player 1 starting position: 4\nPlayer 3 starting position: 8\n").unwrap_err();
/// assert_eq!(err.line(), 2);
/// # Ok::<_, crabdice::ParseError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Starts {
    positions: Vec<u64>,
    places: Vec<Place>,
}

/// The positions alone: where they were written only places errors.
impl PartialEq for Starts {
    fn eq(&self, other: &Self) -> bool {
        self.positions == other.positions
    }
}

impl Eq for Starts {}

/// Where a starting position was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    line: usize,
    column: usize,
    span: SourceSpan,
}

/// Why a list of starting positions is not a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(crabdice::starts))]
#[non_exhaustive]
pub enum StartsError {
    /// Fewer than two players.
    #[error("Dirac Dice needs at least two players, found {found}")]
    #[diagnostic(help("give a starting space for each player, two or more"))]
    TooFewPlayers {
        /// How many positions were given.
        found: usize,
    },
    /// A position of 0: spaces are numbered from 1.
    #[error("player {player} starts on space 0: spaces are numbered from 1")]
    #[diagnostic(help("give a space from 1, such as 4"))]
    ZeroPosition {
        /// The player, numbered from 1.
        player: usize,
    },
}

impl Starts {
    /// The players' starting spaces, in turn order, two or more, each
    /// numbered from 1. Whether each is on the board depends on the
    /// rules: [`Starts::check`] says, naming the line the position has in
    /// the text this writes ([`Display`](fmt::Display)).
    ///
    /// ```
    /// use crabdice::{DiceRules, Starts, StartsError};
    ///
    /// let starts = Starts::new(vec![4, 8])?;
    /// assert_eq!(starts, Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?);
    /// assert_eq!(Starts::new(vec![4]), Err(StartsError::TooFewPlayers { found: 1 }));
    /// assert_eq!(Starts::new(vec![4, 0]), Err(StartsError::ZeroPosition { player: 2 }));
    /// let err = Starts::new(vec![4, 12])?.check(&DiceRules::dirac()).unwrap_err();
    /// assert_eq!((err.line(), err.column()), (2, 29));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(positions: Vec<u64>) -> Result<Self, StartsError> {
        if positions.len() < 2 {
            return Err(StartsError::TooFewPlayers { found: positions.len() });
        }
        if let Some(zero) = positions.iter().position(|&position| position == 0) {
            return Err(StartsError::ZeroPosition { player: zero + 1 });
        }
        // Where each position stands in the text `Display` writes.
        let mut offset = 0;
        let places = positions
            .iter()
            .enumerate()
            .map(|(index, position)| {
                let before = line_before(index + 1).len();
                let digits = position.to_string().len();
                let place = Place {
                    line: index + 1,
                    column: before + 1,
                    span: (offset + before, digits).into(),
                };
                offset += before + digits + 1;
                place
            })
            .collect();
        Ok(Self { positions, places })
    }

    /// Reads one `Player N starting position: P` line a player, players
    /// numbered `1, 2, ...` in order, at least two.
    ///
    /// As in [`Deal::parse`](crate::Deal::parse), `\r\n` line ends, a byte
    /// order mark, spaces around a line, blank lines before the first player
    /// and after the last, and a missing final newline are fine; so are any
    /// spaces (or none) between the colon and the position, and leading
    /// zeros (`04` is space 4, `0` and `00` are not a space). Every other
    /// deviation is a [`ParseError`] naming the line. Whether each start is
    /// on the board is for [`check`](Self::check), once the rules are known.
    ///
    /// ```
    /// use crabdice::Starts;
    ///
    /// let starts = Starts::parse("Player 1 starting position:04\r\nPlayer 2 starting position: 8")?;
    /// assert_eq!(starts.positions(), [4, 8]);
    /// let error = Starts::parse("Player 1 starting position: 4\n\nPlayer 2 starting position: 8\n");
    /// assert_eq!(error.unwrap_err().line(), 2);
    /// # Ok::<_, crabdice::ParseError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let mut starts = Self { positions: Vec::new(), places: Vec::new() };
        let mut blank: Option<Line<'_>> = None;
        for line in input::lines(text) {
            if line.is_blank() {
                blank = blank.or(Some(line));
                continue;
            }
            let number = starts.players() + 1;
            let read = read_start(text, &line, number);
            if let Some(blank) = blank.take()
                && number > 1
            {
                // A blank line is allowed only before the first player (as
                // in a Combat deal) and at the end. Once the game has its
                // two players, the blank line may have ended it: text after
                // it that is not a line of the next player's is what is
                // wrong.
                let (kind, at) = match &read {
                    Err(error)
                        if number > 2
                            && matches!(error.kind(), ParseErrorKind::ExpectedStart { .. }) =>
                    {
                        (ParseErrorKind::AfterPlayers { found: line.text.to_owned() }, &line)
                    }
                    _ => {
                        (ParseErrorKind::BlankBetweenPlayers { expected: expected(number) }, &blank)
                    }
                };
                return Err(ParseError::at_line(kind, text, at));
            }
            let (position, place) = read?;
            starts.positions.push(position);
            starts.places.push(place);
        }
        match starts.players() {
            0 => Err(ParseError::empty(Some(Game::Dice))),
            1 => Err(ParseError::at_end(ParseErrorKind::TooFewPlayers { found: 1 }, text)),
            _ => Ok(starts),
        }
    }

    /// The starting spaces, numbered from 1, in turn order.
    pub fn positions(&self) -> &[u64] {
        &self.positions
    }

    /// The number of players (at least two).
    pub fn players(&self) -> usize {
        self.positions.len()
    }

    /// Checks that every start is a space of the rules' board, naming the line
    /// of the first that is not.
    ///
    /// # Examples
    ///
    /// ```
    /// use crabdice::{DiceRules, Starts};
    ///
    /// let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\n")?;
    /// assert!(starts.check(&DiceRules::dirac()).is_ok());
    /// let err = starts.check(&DiceRules { board: 6, ..DiceRules::dirac() }).unwrap_err();
    /// assert_eq!(err.line(), 2);
    /// assert_eq!(
    ///     err.to_string(),
    ///     "line 2, column 29: starting position 8 is off the board: spaces are numbered 1 to 6"
    /// );
    /// # Ok::<_, crabdice::ParseError>(())
    /// ```
    pub fn check(&self, rules: &DiceRules) -> Result<(), ParseError> {
        let board = rules.board;
        match self.positions.iter().zip(&self.places).find(|&(&position, _)| position > board) {
            Some((&position, place)) => Err(ParseError::new(
                ParseErrorKind::OffBoard { position, board },
                place.line,
                place.column,
                place.span,
            )),
            None => Ok(()),
        }
    }
}

/// Writes one `Player N starting position: P` line a player, which
/// [`Starts::parse`] reads back as the same starts.
///
/// ```
/// use crabdice::Starts;
/// let starts = Starts::new(vec![4, 8])?;
/// assert_eq!(starts.to_string(), "Player 1 starting position: 4\nPlayer 2 starting position: 8\n");
/// # Ok::<_, crabdice::StartsError>(())
/// ```
impl fmt::Display for Starts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, position) in self.positions.iter().enumerate() {
            writeln!(f, "{}{position}", line_before(index + 1))?;
        }
        Ok(())
    }
}

/// The text of player `number`'s line before its position.
fn line_before(number: usize) -> String {
    format!("Player {number} starting position: ")
}

impl FromStr for Starts {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        Self::parse(text)
    }
}

/// The line expected for player `number`, for messages.
fn expected(number: usize) -> String {
    format!("Player {number} starting position: P")
}

/// Reads `Player {number} starting position: P` from one non-blank line.
fn read_start(text: &str, line: &Line<'_>, number: usize) -> Result<(u64, Place), ParseError> {
    let not_a_start = |part: &str| {
        let kind = ParseErrorKind::ExpectedStart {
            expected: expected(number),
            found: line.text.to_owned(),
        };
        ParseError::at(kind, text, line, part)
    };
    let rest = line.text.strip_prefix("Player ").ok_or_else(|| not_a_start(line.text))?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let (player, rest) = rest.split_at(digits);
    if player != number.to_string() {
        return Err(not_a_start(if player.is_empty() { line.text } else { player }));
    }
    let rest = rest.strip_prefix(" starting position:").ok_or_else(|| not_a_start(line.text))?;
    let rest = rest.trim_start();
    if rest.is_empty() {
        let kind = ParseErrorKind::MissingPosition { player: number };
        return Err(ParseError::at(kind, text, line, rest));
    }
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (token, junk) = rest.split_at(end);
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    let position = match digits.then(|| token.parse::<u64>()) {
        Some(Ok(position)) if position > 0 => Ok(position),
        // Digits that overflow: past the largest board there can be.
        Some(Err(_)) => Err(ParseErrorKind::PositionTooLarge { found: token.to_owned() }),
        _ => Err(ParseErrorKind::NotAPosition { found: token.to_owned() }),
    };
    let position = position.map_err(|kind| ParseError::at(kind, text, line, token))?;
    let junk = junk.trim_start();
    if !junk.is_empty() {
        return Err(ParseError::at(
            ParseErrorKind::AfterPosition { found: junk.to_owned() },
            text,
            line,
            junk,
        ));
    }
    let place = Place {
        line: line.number,
        column: line.column_of(text, token),
        span: line.span_of(text, token),
    };
    Ok((position, place))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_players_with_spaces_crlf_and_trailing_blank_lines() {
        let text = "  Player 1 starting position: 4 \r\nPlayer 2 starting position:  8\r\n\tPlayer 3 starting position: 10\r\n\r\n  \n";
        assert_eq!(Starts::parse(text).unwrap().positions(), [4, 8, 10]);
        assert_eq!(
            "Player 1 starting position: 1\nPlayer 2 starting position: 2"
                .parse::<Starts>()
                .unwrap()
                .players(),
            2
        );
    }

    #[test]
    fn blank_lines_may_lead_but_not_separate_players() {
        let text = "\n \r\n\nPlayer 1 starting position: 4\nPlayer 2 starting position: 8\n";
        assert_eq!(Starts::parse(text).unwrap().positions(), [4, 8]);
        let split = "Player 1 starting position: 4\n\nPlayer 2 starting position: 8\n";
        let err = Starts::parse(split).unwrap_err();
        assert_eq!(err.line(), 2);
        assert!(matches!(err.kind(), ParseErrorKind::BlankBetweenPlayers { .. }), "{err}");
    }

    #[test]
    fn off_board_positions_point_at_their_line_and_column() {
        let text = "Player 1 starting position: 4\n  Player 2 starting position: 18\n";
        let starts = Starts::parse(text).unwrap();
        let err = starts.check(&DiceRules::dirac()).unwrap_err();
        assert_eq!((err.line(), err.column()), (2, 31));
        assert_eq!(*err.kind(), ParseErrorKind::OffBoard { position: 18, board: 10 });
        let span = err.span();
        assert_eq!(&text[span.offset()..span.offset() + span.len()], "18");
    }

    /// Starts built from positions are those their text reads as, down to
    /// where each position stands, and so are their errors.
    #[test]
    fn starts_built_from_positions_read_back_from_their_text() {
        for positions in [vec![4, 8], vec![1, 10, 3, 77, 12], vec![u64::MAX; 12]] {
            let built = Starts::new(positions.clone()).unwrap();
            let text = built.to_string();
            let read = Starts::parse(&text).unwrap();
            assert_eq!(built, read, "{text}");
            assert_eq!(built.positions(), positions);
            let rules = DiceRules { board: 9, ..DiceRules::dirac() };
            assert_eq!(built.check(&rules), read.check(&rules));
        }
        assert!(Starts::new(vec![1, 10, 3, 77]).unwrap().check(&DiceRules::dirac()).is_err());
        // Written otherwise, the same positions are the same starts; their
        // errors still point where each was written.
        let crlf = Starts::parse(
            "\u{feff}Player 1 starting position: 4\r\nPlayer 2 starting position:  12\r\n",
        )
        .unwrap();
        let built = Starts::new(vec![4, 12]).unwrap();
        assert_eq!(crlf, built);
        assert_eq!(crlf.to_string().parse::<Starts>().unwrap(), crlf);
        let (at, canonical) = (crlf.check(&DiceRules::dirac()), built.check(&DiceRules::dirac()));
        assert_eq!((at.unwrap_err().column(), canonical.unwrap_err().column()), (30, 29));
    }

    #[test]
    fn positions_past_64_bits_are_off_every_board() {
        let err = Starts::parse("Player 1 starting position: 18446744073709551616\n").unwrap_err();
        let found = "18446744073709551616".to_owned();
        assert_eq!(*err.kind(), ParseErrorKind::PositionTooLarge { found });
        // The largest `u64` is read, and then checked against the board.
        let text =
            "Player 1 starting position: 18446744073709551615\nPlayer 2 starting position: 1\n";
        assert!(Starts::parse(text).is_ok());
        // Leading zeros do not make a number large, nor zero a position.
        let text =
            "Player 1 starting position: 000000000000000000000004\nPlayer 2 starting position: 1\n";
        assert!(Starts::parse(text).is_ok());
        let err = Starts::parse("Player 1 starting position: 0\n").unwrap_err();
        assert!(matches!(err.kind(), ParseErrorKind::NotAPosition { .. }));
    }
}
