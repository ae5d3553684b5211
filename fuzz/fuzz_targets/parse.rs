//! The three readers on any text: none may panic, and every error must
//! point at one place inside the input (its span on character boundaries,
//! on the line and at the column the error names) with a message that
//! shows no character that acts on a terminal (a byte order mark before the
//! first line is not a column). A deal or starts that read must read the
//! same when written out again in the puzzle's layout, and starts must be
//! those built from their positions.

#![no_main]

use crabdice::{Deal, Game, ParseError, Player, Starts, acts_on_terminal};
use libfuzzer_sys::fuzz_target;

fn check(error: &ParseError, text: &str) {
    let (offset, len) = (error.span().offset(), error.span().len());
    assert!(offset + len <= text.len(), "span past the input: {error}");
    assert!(text.is_char_boundary(offset) && text.is_char_boundary(offset + len), "{error}");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let in_line = before.rsplit('\n').next().unwrap_or("");
    // A byte order mark before the first line is not a column.
    let in_line =
        if line == 1 { in_line.strip_prefix('\u{feff}').unwrap_or(in_line) } else { in_line };
    let column = in_line.chars().count() + 1;
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
            assert_eq!(Deal::parse(&deal.to_string()).as_ref(), Ok(&deal));
            assert_eq!(Game::detect(text).ok(), Some(Game::Combat));
        }
        Err(error) => check(&error, text),
    }
    match Starts::parse(text) {
        Ok(starts) => {
            assert!(starts.players() >= 2);
            assert_eq!(Game::detect(text).ok(), Some(Game::Dice));
            assert_eq!(Starts::parse(&starts.to_string()).as_ref(), Ok(&starts));
            assert_eq!(Starts::new(starts.positions().to_vec()).as_ref(), Ok(&starts));
        }
        Err(error) => check(&error, text),
    }
    if let Err(error) = Game::detect(text) {
        check(&error, text);
    }
});
