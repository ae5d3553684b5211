//! Reading untrusted input: the three readers ([`Deal::parse`],
//! [`Starts::parse`] and [`Game::detect`]) checked against readers written
//! here from the formats as the project's specification (the puzzle's own,
//! with the leniencies [`Deal::parse`] lists) and the docs state them, on
//! valid inputs dressed the ways editors dress them and on those inputs
//! broken by random edits (a character inserted, deleted or replaced, a
//! line dropped, doubled or moved), and on random text.
//!
//! Every input must give what the reference reader gives: the same decks or
//! positions, or an error of the same kind on the same line. Every error must
//! also be one a user can act on: its line, column and span point at the same
//! place, inside the input, on character boundaries; its message starts with
//! that line and column, stays short however long the line is, and shows no
//! character that would act on a terminal; and miette renders it with the
//! input attached.

use std::collections::HashSet;

use crabdice::{
    Deal, Game, ParseError, ParseErrorKind, Player, Starts, acts_on_terminal, escape_for_terminal,
};
use miette::{NarratableReportHandler, Report};
use proptest::prelude::*;
use proptest::sample::Index;

/// What a reader makes of an input: its values, or an error's kind and line.
type Read<T> = Result<T, (&'static str, usize)>;

/// The kind of an error, by name, for comparing with the reference readers.
fn kind_name(kind: &ParseErrorKind) -> &'static str {
    match kind {
        ParseErrorKind::Empty => "Empty",
        ParseErrorKind::UnknownGame { .. } => "UnknownGame",
        ParseErrorKind::ExpectedHeader { .. } => "ExpectedHeader",
        ParseErrorKind::AfterHeader { .. } => "AfterHeader",
        ParseErrorKind::AfterCard { .. } => "AfterCard",
        ParseErrorKind::UnexpectedEnd { .. } => "UnexpectedEnd",
        ParseErrorKind::NotACard { .. } => "NotACard",
        ParseErrorKind::ZeroCard { .. } => "ZeroCard",
        ParseErrorKind::CardTooLarge { .. } => "CardTooLarge",
        ParseErrorKind::NoCards => "NoCards",
        ParseErrorKind::DuplicateCard { .. } => "DuplicateCard",
        ParseErrorKind::ThirdPlayer { .. } => "ThirdPlayer",
        ParseErrorKind::TrailingText { .. } => "TrailingText",
        ParseErrorKind::ExpectedStart { .. } => "ExpectedStart",
        ParseErrorKind::BlankBetweenPlayers { .. } => "BlankBetweenPlayers",
        ParseErrorKind::AfterPlayers { .. } => "AfterPlayers",
        ParseErrorKind::MissingPosition { .. } => "MissingPosition",
        ParseErrorKind::NotAPosition { .. } => "NotAPosition",
        ParseErrorKind::AfterPosition { .. } => "AfterPosition",
        ParseErrorKind::PositionTooLarge { .. } => "PositionTooLarge",
        ParseErrorKind::TooFewPlayers { .. } => "TooFewPlayers",
        _ => "other",
    }
}

// ---------------------------------------------------------------------------
// The reference readers
// ---------------------------------------------------------------------------

/// The byte order mark an editor may write before the first line.
const MARK: char = '\u{feff}';

/// The input's lines, numbered from 1, without the whitespace around them
/// (`\r` included). An input ending in a line end has one more, empty, line:
/// the line an error about the end of the input names.
fn numbered(source: &str) -> Vec<(usize, &str)> {
    // A byte order mark before the first line is not part of it.
    let source = source.strip_prefix(MARK).unwrap_or(source);
    source.split('\n').map(str::trim).enumerate().map(|(i, text)| (i + 1, text)).collect()
}

/// The number of the input's last line, where "the end of the input" is.
fn last_line(source: &str) -> usize {
    source.split('\n').count()
}

/// A Crab Combat deal as the specification describes it: `Player 1:` and
/// its cards, then `Player 2:` and its cards, one card a line; blank lines
/// may come anywhere between the decks, and a deck ends at a blank line or
/// at the next `Player` line.
fn reference_deal(source: &str) -> Read<[Vec<u64>; 2]> {
    let filled: Vec<(usize, &str)> =
        numbered(source).into_iter().filter(|(_, text)| !text.is_empty()).collect();
    let end = last_line(source);
    if filled.is_empty() {
        return Err(("Empty", 1));
    }
    let mut decks = [Vec::new(), Vec::new()];
    let mut seen = HashSet::new();
    let mut next = filled.iter().copied().peekable();
    for (player, deck) in decks.iter_mut().enumerate() {
        let header = format!("Player {}:", player + 1);
        let Some((number, text)) = next.next() else {
            return Err(("UnexpectedEnd", end));
        };
        if text != header {
            // The header with more on its line, or misnumbered, whatever
            // the number: a third player is a header after both decks.
            let after = text.starts_with(&header);
            return Err((if after { "AfterHeader" } else { "ExpectedHeader" }, number));
        }
        let mut previous = number;
        while let Some(&(number, text)) = next.peek() {
            if number != previous + 1 || text.starts_with("Player") {
                break;
            }
            next.next();
            previous = number;
            // A card is the digits before any whitespace; more after them
            // is an error once the card itself is found good.
            let (card, rest) = match text.find(char::is_whitespace) {
                Some(space) => (&text[..space], text[space..].trim()),
                None => (text, ""),
            };
            if card.is_empty() || !card.chars().all(|c| c.is_ascii_digit()) {
                return Err(("NotACard", number));
            }
            let Ok(card) = card.parse::<u64>() else {
                return Err(("CardTooLarge", number));
            };
            if card == 0 {
                return Err(("ZeroCard", number));
            }
            if !seen.insert(card) {
                return Err(("DuplicateCard", number));
            }
            if !rest.is_empty() {
                return Err(("AfterCard", number));
            }
            deck.push(card);
        }
    }
    if let Some((number, text)) = next.next() {
        return Err((
            if text.starts_with("Player") { "ThirdPlayer" } else { "TrailingText" },
            number,
        ));
    }
    if seen.is_empty() {
        return Err(("NoCards", end));
    }
    Ok(decks)
}

/// Dirac Dice starting positions as the docs describe them: one line
/// `Player n starting position: p` a player, numbered from 1, each position
/// a whole number from 1 below 2^64; blank lines before the first player
/// and after the last only; at least two players.
fn reference_starts(source: &str) -> Read<Vec<u64>> {
    let mut positions = Vec::new();
    let mut gap = None;
    for (number, text) in numbered(source) {
        if text.is_empty() {
            gap = gap.or(Some(number));
            continue;
        }
        let player = positions.len() + 1;
        let prefix = format!("Player {player} starting position:");
        let rest = text.strip_prefix(&prefix);
        if let Some(blank) = gap.take()
            && player > 1
        {
            // After two players, a blank line may end the game: then text
            // that is not the next player's line is to blame, not the blank.
            return Err(match rest {
                None if player > 2 => ("AfterPlayers", number),
                _ => ("BlankBetweenPlayers", blank),
            });
        }
        let Some(rest) = rest else {
            return Err(("ExpectedStart", number));
        };
        let mut words = rest.split_whitespace();
        let Some(position) = words.next() else {
            return Err(("MissingPosition", number));
        };
        if position.is_empty() || !position.chars().all(|c| c.is_ascii_digit()) {
            return Err(("NotAPosition", number));
        }
        match position.parse::<u64>() {
            Err(_) => return Err(("PositionTooLarge", number)),
            Ok(0) => return Err(("NotAPosition", number)),
            Ok(_) if words.next().is_some() => return Err(("AfterPosition", number)),
            Ok(position) => positions.push(position),
        }
    }
    match positions.len() {
        0 => Err(("Empty", 1)),
        1 => Err(("TooFewPlayers", last_line(source))),
        _ => Ok(positions),
    }
}

/// Which game the input's first non-blank line starts.
fn reference_game(source: &str) -> Read<Game> {
    let Some((number, text)) = numbered(source).into_iter().find(|(_, text)| !text.is_empty())
    else {
        return Err(("Empty", 1));
    };
    match text.strip_prefix("Player") {
        Some(rest) if rest.contains("starting position") => Ok(Game::Dice),
        Some(_) if text.ends_with(':') => Ok(Game::Combat),
        _ => Err(("UnknownGame", number)),
    }
}

// ---------------------------------------------------------------------------
// What every error must be
// ---------------------------------------------------------------------------

/// Whether a message must not hold `c` as it is: a control character, or
/// one that reorders or breaks the text a terminal shows, or shows as
/// nothing (and so would make a quote look like text that is fine).
/// Written out here, apart from the crate's own list, which this checks:
/// the format characters (category `Cf`) as Python's `unicodedata` lists
/// them (Unicode 14, with the Egyptian format controls Unicode 15 added,
/// to U+1343F), the unassigned code points Unicode reserves to show as
/// nothing, the line and paragraph separators, and the characters that
/// show as nothing by themselves. `FORMAT` is the ranges of
/// `[c for c in range(0x110000) if unicodedata.category(chr(c)) == 'Cf']`.
fn must_be_escaped(c: char) -> bool {
    const FORMAT: [(u32, u32); 21] = [
        (0xAD, 0xAD),
        (0x600, 0x605),
        (0x61C, 0x61C),
        (0x6DD, 0x6DD),
        (0x70F, 0x70F),
        (0x890, 0x891),
        (0x8E2, 0x8E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
    ];
    // Unassigned, and default-ignorable (DerivedCoreProperties.txt).
    const RESERVED: [(u32, u32); 6] = [
        (0x2065, 0x2065),
        (0xFFF0, 0xFFF8),
        (0xE0000, 0xE0000),
        (0xE0002, 0xE001F),
        (0xE0080, 0xE00FF),
        (0xE01F0, 0xE0FFF),
    ];
    const SEPARATORS: [(u32, u32); 2] = [(0x2028, 0x2028), (0x2029, 0x2029)];
    // Combining grapheme joiner, Hangul fillers, Khmer inherent vowels,
    // Mongolian free variation selectors, variation selectors.
    const INVISIBLE: [(u32, u32); 9] = [
        (0x34F, 0x34F),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180D),
        (0x180F, 0x180F),
        (0x3164, 0x3164),
        (0xFE00, 0xFE0F),
        (0xFFA0, 0xFFA0),
        (0xE0100, 0xE01EF),
    ];
    let code = u32::from(c);
    // C0, DEL and C1 controls.
    code < 0x20
        || (0x7F..=0x9F).contains(&code)
        || FORMAT
            .iter()
            .chain(&RESERVED)
            .chain(&SEPARATORS)
            .chain(&INVISIBLE)
            .any(|&(low, high)| (low..=high).contains(&code))
}

/// The crate's list of characters to escape is the one written out above,
/// over every character there is.
#[test]
fn the_characters_escaped_are_the_controls_formats_and_invisibles() {
    let differ: Vec<char> = (0..=0x10_FFFF)
        .filter_map(char::from_u32)
        .filter(|&c| acts_on_terminal(c) != must_be_escaped(c))
        .collect();
    assert!(differ.is_empty(), "{differ:?}");
    assert_eq!(escape_for_terminal("7\u{2062}\u{e0041}❤\u{fe0f}"), r"7\u{2062}\u{e0041}❤\u{fe0f}");
}

/// Checks that `error` points at one place inside `source`, and can be shown.
fn check_error(error: &ParseError, source: &str) -> Result<(), TestCaseError> {
    let (offset, len) = (error.span().offset(), error.span().len());
    prop_assert!(offset + len <= source.len(), "span {offset}+{len} past the input");
    prop_assert!(source.is_char_boundary(offset) && source.is_char_boundary(offset + len));
    // The span's line and column are the error's.
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let in_line = before.rsplit('\n').next().unwrap_or("");
    // A byte order mark before the first line is not a column.
    let in_line = if line == 1 { in_line.trim_start_matches(MARK) } else { in_line };
    let column = in_line.chars().count() + 1;
    prop_assert_eq!((error.line(), error.column()), (line, column), "the span's place");
    let message = error.to_string();
    let lead = format!("line {}, column {}: ", error.line(), error.column());
    prop_assert!(message.starts_with(&lead), "{message:?}");
    prop_assert!(!message.contains(must_be_escaped), "unescaped: {message:?}");
    // Quotes are cut to 60 characters of input (each escaped in at most 10):
    // the message stays short however long the line (see `long`).
    prop_assert!(message.chars().count() < 1000, "too long: {message:?}");
    // Rendered with the input attached, as the command line does.
    let report = Report::new(error.clone()).with_source_code(source.to_owned());
    let mut shown = String::new();
    let rendered = NarratableReportHandler::new().render_report(&mut shown, report.as_ref());
    prop_assert!(rendered.is_ok(), "miette could not render {message:?}");
    prop_assert!(shown.contains(&format!("line {}", error.line())), "{shown}");
    Ok(())
}

/// Checks one reader's result on `source` against the reference's: values
/// by `same`, errors by kind and line, and every error by [`check_error`].
fn compare<T: std::fmt::Debug, R: std::fmt::Debug>(
    reader: &str,
    got: &Result<T, ParseError>,
    expected: &Read<R>,
    source: &str,
    same: impl FnOnce(&T, &R) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    match (got, expected) {
        (Ok(got), Ok(expected)) => same(got, expected),
        (Err(error), Err((kind, line))) => {
            prop_assert_eq!((kind_name(error.kind()), error.line()), (*kind, *line), "{}", error);
            check_error(error, source)
        }
        _ => Err(TestCaseError::fail(format!("{reader}: {got:?}, reference: {expected:?}"))),
    }
}

/// Checks all three readers on `source` against the reference readers.
fn check_readers(source: &str) -> Result<(), TestCaseError> {
    let deal = Deal::parse(source);
    compare("deal", &deal, &reference_deal(source), source, |deal, [one, two]| {
        prop_assert_eq!(deal.deck(Player::One), one.as_slice());
        prop_assert_eq!(deal.deck(Player::Two), two.as_slice());
        // What is read is what a clean copy of the deal reads as.
        prop_assert_eq!(&Deal::parse(&written(one, two)).unwrap(), deal);
        Ok(())
    })?;
    let starts = Starts::parse(source);
    compare("starts", &starts, &reference_starts(source), source, |starts, positions| {
        prop_assert_eq!(starts.positions(), positions.as_slice());
        Ok(())
    })?;
    let game = Game::detect(source);
    compare("game", &game, &reference_game(source), source, |game, expected| {
        prop_assert_eq!(game, expected);
        Ok(())
    })?;
    // An input either reader accepts is recognised as its game.
    if deal.is_ok() {
        prop_assert_eq!(game.clone().ok(), Some(Game::Combat));
    }
    if starts.is_ok() {
        prop_assert_eq!(game.ok(), Some(Game::Dice));
    }
    Ok(())
}

/// A deal in the puzzle's own layout.
fn written(one: &[u64], two: &[u64]) -> String {
    let deck = |cards: &[u64]| cards.iter().map(|c| c.to_string() + "\n").collect::<String>();
    format!("Player 1:\n{}\nPlayer 2:\n{}", deck(one), deck(two))
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

/// How an editor may dress a valid input: a byte order mark, line ends,
/// whitespace around lines, blank lines before, between and after, and the
/// final line end.
#[derive(Debug, Clone)]
struct Dress {
    mark: bool,
    crlf: bool,
    pads: Vec<(&'static str, &'static str)>,
    leading_blanks: usize,
    gaps: usize,
    trailing_blanks: usize,
    final_newline: bool,
}

fn dress() -> impl Strategy<Value = Dress> {
    let pad = prop::sample::select(vec!["", "", "", " ", "\t", "  ", "\u{a0}"]);
    (
        prop::bool::weighted(0.2),
        any::<bool>(),
        prop::collection::vec((pad.clone(), pad), 16),
        0..3usize,
        0..4usize,
        0..3usize,
        any::<bool>(),
    )
        .prop_map(
            |(mark, crlf, pads, leading_blanks, gaps, trailing_blanks, final_newline)| Dress {
                mark,
                crlf,
                pads,
                leading_blanks,
                gaps,
                trailing_blanks,
                final_newline,
            },
        )
}

impl Dress {
    /// `blocks` of lines, the blocks apart by `gaps` blank lines.
    fn apply(&self, blocks: &[Vec<String>]) -> String {
        let end = if self.crlf { "\r\n" } else { "\n" };
        let mut lines = vec![String::new(); self.leading_blanks];
        for (i, block) in blocks.iter().enumerate() {
            if i > 0 {
                lines.extend(std::iter::repeat_n(String::new(), self.gaps));
            }
            for (j, line) in block.iter().enumerate() {
                let (before, after) = self.pads[(i * 7 + j) % self.pads.len()];
                lines.push(format!("{before}{line}{after}"));
            }
        }
        lines.extend(std::iter::repeat_n(String::new(), self.trailing_blanks));
        let mut text = lines.join(end);
        if self.final_newline {
            text.push_str(end);
        }
        if self.mark {
            text.insert(0, MARK);
        }
        text
    }
}

/// A valid deal: distinct cards, small or up to 2^64 − 1, 1 to 15 in all
/// (split anyhow, so either deck may be empty).
fn deal_text() -> impl Strategy<Value = String> {
    let card = prop_oneof![4 => 1..60u64, 1 => (u64::MAX - 5)..=u64::MAX, 1 => any::<u64>().prop_map(|c| c.max(1))];
    (prop::collection::hash_set(card, 1..16), any::<Index>(), dress()).prop_map(
        |(cards, split, dress)| {
            let cards: Vec<u64> = cards.into_iter().collect();
            let (one, two) = cards.split_at(split.index(cards.len() + 1));
            let block = |n: usize, deck: &[u64]| -> Vec<String> {
                std::iter::once(format!("Player {n}:"))
                    .chain(deck.iter().map(u64::to_string))
                    .collect()
            };
            dress.apply(&[block(1, one), block(2, two)])
        },
    )
}

/// Valid starting positions: 2 to 5 players, one line each.
fn starts_text() -> impl Strategy<Value = String> {
    let position = prop_oneof![4 => 1..=10u64, 1 => any::<u64>().prop_map(|p| p.max(1))];
    (prop::collection::vec(position, 2..6), dress()).prop_map(|(positions, dress)| {
        let lines = positions
            .iter()
            .enumerate()
            .map(|(i, p)| format!("Player {} starting position: {p}", i + 1))
            .collect();
        Dress { gaps: 0, ..dress }.apply(&[lines])
    })
}

/// Text that breaks inputs: line ends, whitespace, signs, headers, numbers
/// at and past 2^64, characters that act on a terminal, a long line.
const PIECES: &[&str] = &[
    "\n",
    "\r\n",
    "\r",
    " ",
    "\t",
    "\u{a0}",
    "\u{2028}",
    "0",
    "7",
    "-",
    "+",
    ":",
    "Player",
    "Player 1:",
    "Player 2:",
    "Player 3:",
    "Player 1 starting position: 3",
    "Player 3 starting position: 5",
    " starting position: ",
    "x",
    "é",
    "🦀",
    "\u{202e}",
    "\u{feff}",
    "\u{200b}",
    "\u{200d}",
    "\u{2029}",
    "\u{ad}",
    "\u{2066}",
    "\u{2062}",
    "\u{e0041}",
    "\u{3164}",
    "\u{fe0f}",
    "\u{1b}[2J",
    "\0",
    "18446744073709551615",
    "18446744073709551616",
    "000",
    "1234567890123456789012345678901234567890123456789012345678901234567890123456789",
];

/// One edit that may break an input.
#[derive(Debug, Clone)]
enum Edit {
    Insert(Index, &'static str),
    Replace(Index, &'static str),
    Delete(Index, usize),
    DropLine(Index),
    DoubleLine(Index),
    MoveLine(Index, Index),
}

/// 200 characters that each take 8 to quote escaped: a line holding them
/// would make a message of well over 1,000 characters if quotes were not
/// cut short.
fn long() -> &'static str {
    static LONG: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| "\u{202e}".repeat(200));
    &LONG
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop::sample::select([PIECES, &[long()]].concat());
    prop_oneof![
        3 => (any::<Index>(), piece.clone()).prop_map(|(at, p)| Edit::Insert(at, p)),
        2 => (any::<Index>(), piece).prop_map(|(at, p)| Edit::Replace(at, p)),
        2 => (any::<Index>(), 1..4usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        1 => any::<Index>().prop_map(Edit::DropLine),
        1 => any::<Index>().prop_map(Edit::DoubleLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(from, to)| Edit::MoveLine(from, to)),
    ]
}

impl Edit {
    fn apply(&self, text: &str) -> String {
        // Character boundaries, the end included.
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let lines = || text.split_inclusive('\n').map(str::to_owned).collect::<Vec<_>>();
        match self {
            Edit::Insert(at, piece) => {
                let at = bounds[at.index(bounds.len())];
                format!("{}{piece}{}", &text[..at], &text[at..])
            }
            Edit::Replace(at, _) | Edit::Delete(at, _) if bounds.len() > 1 => {
                let start = at.index(bounds.len() - 1);
                let count = if let Edit::Delete(_, n) = self { *n } else { 1 };
                let end = bounds[(start + count).min(bounds.len() - 1)];
                let piece = if let Edit::Replace(_, p) = self { p } else { "" };
                format!("{}{piece}{}", &text[..bounds[start]], &text[end..])
            }
            Edit::DropLine(at) | Edit::DoubleLine(at) if !text.is_empty() => {
                let mut lines = lines();
                let at = at.index(lines.len());
                if matches!(self, Edit::DropLine(_)) {
                    lines.remove(at);
                } else {
                    let line = lines[at].clone();
                    lines.insert(at, line);
                }
                lines.concat()
            }
            Edit::MoveLine(from, to) if !text.is_empty() => {
                let mut lines = lines();
                let line = lines.remove(from.index(lines.len()));
                lines.insert(to.index(lines.len() + 1), line);
                lines.concat()
            }
            _ => text.to_owned(),
        }
    }
}

/// A valid input of either game, broken by up to three edits.
fn broken() -> impl Strategy<Value = String> {
    (prop_oneof![deal_text(), starts_text()], prop::collection::vec(edit(), 0..4))
        .prop_map(|(text, edits)| edits.iter().fold(text, |text, edit| edit.apply(&text)))
}

// ---------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Valid inputs, however dressed, read as the values written.
    #[test]
    fn dressed_inputs_read_as_written(text in prop_oneof![deal_text(), starts_text()]) {
        check_readers(&text)?;
        prop_assert!(Deal::parse(&text).is_ok() || Starts::parse(&text).is_ok(), "{text:?}");
    }

    /// Broken inputs read as the reference reads them, and every error
    /// points at its place.
    #[test]
    fn broken_inputs_read_as_the_reference_reads_them(text in broken()) {
        check_readers(&text)?;
    }

    /// So does random text made of the formats' own characters.
    #[test]
    fn random_text_reads_as_the_reference_reads_it(
        text in "(Player|[ 0-9:\\-+\\n\\r\\t]|starting position|é|\u{202e}|\u{0}){0,40}",
    ) {
        check_readers(&text)?;
    }
}

#[test]
fn the_references_read_the_puzzle_examples_and_refuse_what_the_spec_refuses() {
    let example = "Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n";
    assert_eq!(reference_deal(example), Ok([vec![9, 2, 6, 3, 1], vec![5, 8, 4, 7, 10]]));
    let dice = "Player 1 starting position: 4\nPlayer 2 starting position: 8\n";
    assert_eq!(reference_starts(dice), Ok(vec![4, 8]));
    assert_eq!(reference_game(example), Ok(Game::Combat));
    assert_eq!(reference_game(dice), Ok(Game::Dice));
    // The specification's refusals: a misnumbered header, a non-numeric, a
    // zero and a duplicate card, a third player, an empty file.
    for (text, kind, line) in [
        ("Player 2:\n1\n", "ExpectedHeader", 1),
        ("Player 1:\n1\nx\n\nPlayer 2:\n2\n", "NotACard", 3),
        ("Player 1:\n1\n-4\n\nPlayer 2:\n2\n", "NotACard", 3),
        ("Player 1:\n0\n\nPlayer 2:\n2\n", "ZeroCard", 2),
        ("Player 1:\n2\n\nPlayer 2:\n2\n", "DuplicateCard", 5),
        ("Player 1: 9\n\nPlayer 2:\n2\n", "AfterHeader", 1),
        ("Player 1:\n9 2\n\nPlayer 2:\n3\n", "AfterCard", 2),
        ("Player 1:\n0 2\n\nPlayer 2:\n3\n", "ZeroCard", 2),
        ("Player 1:\n9x 2\n\nPlayer 2:\n3\n", "NotACard", 2),
        ("Player 1:\n1\n\nPlayer 2:\n2\n\nPlayer 3:\n3\n", "ThirdPlayer", 7),
        ("", "Empty", 1),
    ] {
        assert_eq!(reference_deal(text), Err((kind, line)), "{text:?}");
        let error = Deal::parse(text).unwrap_err();
        assert_eq!((kind_name(error.kind()), error.line()), (kind, line), "{text:?}");
    }
    for (text, kind, line) in [
        ("Player 1 starting position: 4\nPlayer 3 starting position: 8\n", "ExpectedStart", 2),
        ("Player 1 starting position: 0\n", "NotAPosition", 1),
        ("Player 1 starting position: 4 x\n", "AfterPosition", 1),
        ("Player 1 starting position: 4\n", "TooFewPlayers", 2),
    ] {
        assert_eq!(reference_starts(text), Err((kind, line)), "{text:?}");
        let error = Starts::parse(text).unwrap_err();
        assert_eq!((kind_name(error.kind()), error.line()), (kind, line), "{text:?}");
    }
}

/// Each game's name in output is the one its docs and the command line
/// use: `combat` for a deal, `dice` for starting positions.
#[test]
fn each_detected_game_has_its_name_in_output() {
    let dice = "Player 1 starting position: 4\nPlayer 2 starting position: 8\n";
    assert_eq!(Game::detect("Player 1:\n9\n\nPlayer 2:\n5\n").unwrap().name(), "combat");
    assert_eq!(Game::detect(dice).unwrap().name(), "dice");
}

/// An error in a starting position line points at the part of the line
/// that is wrong, not merely at the line: a misnumbered player at its
/// number, a bad position at the position, text after the position at that
/// text. Line, column and span all name the same characters, found here by
/// looking for them in the line.
#[test]
fn a_starting_position_error_points_at_the_part_of_the_line_that_is_wrong() {
    let first = "Player 1 starting position: 4\n";
    for (text, line, wrong, kind) in [
        (format!("{first}Player 3 starting position: 8\n"), 2, "3", "ExpectedStart"),
        (format!("{first}  Player 12 starting position: 8\n"), 2, "12", "ExpectedStart"),
        ("Player 1 starting position: 4 please\n".to_owned(), 1, "please", "AfterPosition"),
        (format!("{first}Player 2 starting position: 8  9\n"), 2, "9", "AfterPosition"),
        ("Player 1 starting position:  x4\n".to_owned(), 1, "x4", "NotAPosition"),
        (format!("{first}Player 2 starting position: 0\n"), 2, "0", "NotAPosition"),
    ] {
        let error = Starts::parse(&text).unwrap_err();
        let source_line = text.split('\n').nth(line - 1).unwrap();
        // The wrong part is the last occurrence of its text on its line
        // (the `9` of `8  9`).
        let at = source_line.rfind(wrong).unwrap();
        let offset = text.split('\n').take(line - 1).map(|l| l.len() + 1).sum::<usize>() + at;
        assert_eq!(kind_name(error.kind()), kind, "{text:?}");
        assert_eq!((error.line(), error.column()), (line, at + 1), "{text:?}: {error}");
        assert_eq!((error.span().offset(), error.span().len()), (offset, wrong.len()), "{text:?}");
        // Text, or 0, is on no board: the help asks for a number from 1,
        // not for a larger board.
        if kind == "NotAPosition" {
            let help = miette::Diagnostic::help(&error).unwrap().to_string();
            assert!(help.contains("whole number from 1") && !help.contains("board"), "{help}");
        }
    }
}

/// An error in a deal that has the right header or a good card before
/// more text points at that text, however far along the line it is, and
/// quotes it; the card itself, when it is the error, is pointed at alone.
#[test]
fn text_after_a_header_or_a_card_is_pointed_at() {
    let far = " ".repeat(1 << 20);
    for (text, line, wrong, kind) in [
        ("Player 1: 9 2 6\n1\n\nPlayer 2:\n2\n".to_owned(), 1, "9 2 6", "AfterHeader"),
        ("Player 1:\n1\n\nPlayer 2:x\n2\n".to_owned(), 4, "x", "AfterHeader"),
        (format!("Player 1:{far}z\n1\n\nPlayer 2:\n2\n"), 1, "z", "AfterHeader"),
        ("Player 1:\n1\n7 \t x y\n\nPlayer 2:\n2\n".to_owned(), 3, "x y", "AfterCard"),
        (format!("Player 1:\n1\n\nPlayer 2:\n2{far}z\n"), 5, "z", "AfterCard"),
        ("Player 1:\n0 x\n\nPlayer 2:\n2\n".to_owned(), 2, "0", "ZeroCard"),
        (
            "Player 1:\n99999999999999999999 x\n\nPlayer 2:\n2\n".to_owned(),
            2,
            "99999999999999999999",
            "CardTooLarge",
        ),
    ] {
        let error = Deal::parse(&text).unwrap_err();
        let source_line = text.split('\n').nth(line - 1).unwrap();
        let at = source_line.find(wrong).unwrap();
        let offset = text.split('\n').take(line - 1).map(|l| l.len() + 1).sum::<usize>() + at;
        let shown: String = wrong.chars().take(20).collect();
        assert_eq!(kind_name(error.kind()), kind, "{shown:?}");
        assert_eq!((error.line(), error.column()), (line, at + 1), "{shown:?}");
        assert_eq!((error.span().offset(), error.span().len()), (offset, wrong.len()), "{shown:?}");
        assert!(error.to_string().contains(&format!("`{wrong}`")), "{error}");
    }
}

/// The help of a file holding both games names the other game only where
/// the line that broke the reading is that game's (`Game::of_line`): a
/// Dirac Dice line after a deal, a Crab Combat header after starting
/// positions. Any other line keeps the plain help, whatever game it is
/// not: a misnumbered or malformed header, or text of neither game.
#[test]
fn only_a_line_of_the_other_game_gets_the_one_game_a_file_help() {
    let help = |error: ParseError| miette::Diagnostic::help(&error).unwrap().to_string();
    let deal = "Player 1:\n9\n\nPlayer 2:\n5\n\n";
    for (after, kind, other) in [
        ("Player 1 starting position: 4\n", "ThirdPlayer", true),
        ("Player 3:\n3\n", "ThirdPlayer", false),
        ("Player 3\n3\n", "ThirdPlayer", false),
        ("Players\n", "ThirdPlayer", false),
    ] {
        let text = format!("{deal}{after}");
        let error = Deal::parse(&text).unwrap_err();
        assert_eq!(kind_name(error.kind()), kind, "{text:?}");
        let help = help(error);
        let expected = if other {
            "a file holds one game: give the Dirac Dice game a file of its own"
        } else {
            "remove the third player's deck"
        };
        assert_eq!(help, expected, "{text:?}");
    }
    let start = "Player 1 starting position: 4\n";
    for (after, other) in [
        ("Player 1:\n3\n", true),
        ("Player 2:\n", true),
        ("Player 3 starting position: 8\n", false),
        ("hello\n", false),
        ("Player two starting position 8\n", false),
    ] {
        let text = format!("{start}{after}");
        let error = Starts::parse(&text).unwrap_err();
        assert_eq!((kind_name(error.kind()), error.line()), ("ExpectedStart", 2), "{text:?}");
        let help = help(error);
        let names_combat = help.contains("give the Crab Combat deal a file of its own");
        assert_eq!(names_combat, other, "{text:?}: {help}");
        assert!(!help.contains("Dirac Dice game a file"), "{text:?}: {help}");
    }
}

/// An input with no content gets the help of the format its reader
/// expects: a deal's for [`Deal::parse`], starting positions' for
/// [`Starts::parse`], and both for [`Game::detect`], which does not know
/// the game yet.
#[test]
fn empty_input_gets_the_help_of_the_format_expected() {
    let help = |error: ParseError| {
        assert_eq!(error.kind(), &ParseErrorKind::Empty);
        miette::Diagnostic::help(&error).unwrap().to_string()
    };
    let deal = "`Player 1:` and one card a line";
    let start = "`Player 1 starting position: 4`";
    for text in ["", "\n", " \r\n\t\n"] {
        let combat = help(Deal::parse(text).unwrap_err());
        assert!(combat.contains(deal) && !combat.contains(start), "{text:?}: {combat}");
        let dice = help(Starts::parse(text).unwrap_err());
        assert!(dice.contains(start) && !dice.contains(deal), "{text:?}: {dice}");
        let either = help(Game::detect(text).unwrap_err());
        assert!(either.contains(deal) && either.contains(start), "{text:?}: {either}");
    }
}
