//! The three readers on any text: none may panic, and every error must
//! point at one place inside the input (its span on character boundaries,
//! on the line and at the column the error names) with a message that
//! shows no character that acts on a terminal. A deal that reads must read
//! the same when written out again in the puzzle's layout.

#![no_main]

use crabdice::{Deal, Game, ParseError, Player, Starts, acts_on_terminal};
use libfuzzer_sys::fuzz_target;

fn check(error: &ParseError, text: &str) {
    let (offset, len) = (error.span().offset(), error.span().len());
    assert!(offset + len <= text.len(), "span past the input: {error}");
    assert!(text.is_char_boundary(offset) && text.is_char_boundary(offset + len), "{error}");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    assert_eq!((error.line(), error.column()), (line, column), "{error}");
    let message = error.to_string();
    assert!(!message.contains(acts_on_terminal), "{message:?}");
    assert!(message.chars().count() < 1000, "{message:?}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Deal::parse(text) {
        Ok(deal) => {
            let deck = |player| {
                let cards: &[u64] = deal.deck(player);
                cards.iter().map(|c| format!("{c}\n")).collect::<String>()
            };
            let written =
                format!("Player 1:\n{}\nPlayer 2:\n{}", deck(Player::One), deck(Player::Two));
            assert_eq!(Deal::parse(&written).as_ref(), Ok(&deal));
            assert_eq!(Game::detect(text).ok(), Some(Game::Combat));
        }
        Err(error) => check(&error, text),
    }
    match Starts::parse(text) {
        Ok(starts) => {
            assert!(starts.players() >= 2);
            assert_eq!(Game::detect(text).ok(), Some(Game::Dice));
        }
        Err(error) => check(&error, text),
    }
    if let Err(error) = Game::detect(text) {
        check(&error, text);
    }
});
