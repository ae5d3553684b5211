//! # Which game is this?
//!
//! `crabdice solve` accepts either game's input and tells them apart by their
//! first non-blank line: a deal starts with a bare header (`Player 1:`), a
//! Dirac Dice game with a starting position (`Player 1 starting position:
//! 4`). Anything else is neither, and the error says what was expected.

use crate::error::{ParseError, ParseErrorKind};
use crate::input::lines;

/// The two games crabdice knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Game {
    /// Crab Combat: a deal of two decks.
    Combat,
    /// Dirac Dice: players' starting positions.
    Dice,
}

impl Game {
    /// Recognizes the game from the input's first non-blank line.
    ///
    /// ```
    /// use crabdice::Game;
    /// assert_eq!(Game::detect("Player 1:\n9\n\nPlayer 2:\n5\n")?, Game::Combat);
    /// assert_eq!(Game::detect("Player 1 starting position: 4\n")?, Game::Dice);
    /// // Dirac Dice, though its position is missing (that error is the dice
    /// // parser's to give).
    /// assert_eq!(Game::detect("Player 1 starting position: \n")?, Game::Dice);
    /// assert!(Game::detect("hello\n").is_err());
    /// # Ok::<_, crabdice::ParseError>(())
    /// ```
    pub fn detect(source: &str) -> Result<Self, ParseError> {
        let Some(line) = lines(source).find(|line| !line.is_blank()) else {
            return Err(ParseError::empty(None));
        };
        Self::of_line(line.text).ok_or_else(|| {
            let found = line.text.to_owned();
            ParseError::at_line(ParseErrorKind::UnknownGame { found }, source, &line)
        })
    }

    /// The game a line belongs to, by itself: a starting position is Dirac
    /// Dice's, a bare header (`Player 1:`) Crab Combat's.
    pub(crate) fn of_line(text: &str) -> Option<Self> {
        // A starting position with its number missing also ends in `:`, and
        // is Dirac Dice's to report.
        if text.starts_with("Player") && text.contains("starting position") {
            Some(Self::Dice)
        } else if text.starts_with("Player") && text.ends_with(':') {
            Some(Self::Combat)
        } else {
            None
        }
    }

    /// The game's name in output: `combat` or `dice`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Combat => "combat",
            Self::Dice => "dice",
        }
    }
}
