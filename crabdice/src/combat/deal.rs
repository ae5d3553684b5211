//! # Deals: the two starting decks
//!
//! A [`Deal`] is validated once, when it is built, so every engine can rely
//! on it: cards are positive and distinct (a tie would leave a round without
//! a winner), every card fits in 64 bits, and no score can overflow 128 bits.
//!
//! ## Why the score bound is enough
//! Cards are conserved, so a scored deck holds some of the deal's `n` cards,
//! each multiplied by its place from the bottom. By the rearrangement
//! inequality no deck scores more than all `n` cards in one deck, highest on
//! top: `Σ cᵢ × (n + 1 − i)` with `c₁ > c₂ > …` ([`Deal::max_score`]). The
//! deal is checked against that bound once (first by the cheaper
//! `n × Σ cards`, which is larger), so every later score computation, and
//! every partial sum in it, fits in a `u128` without checks. Cards below
//! 2^64 pass for any deal that fits in memory (it would take 2^32 cards to
//! fail), so every score is exact, including those past 64 bits.
//!
//! ## Labels
//! The engines never look at card values except to compare them, to test
//! "does this player hold at least as many cards as the value drawn", and to
//! score the end. [`Deal::labelled`] therefore gives each card a small label
//! that keeps the cards' order: the card itself when every card is below 256
//! (every puzzle input), else its rank `0..n`. Beside the labels it keeps
//! each label's *need*: its value, capped at `n` because no deck can ever
//! hold more than `n - 1` cards after a draw. Deals of up to 256 cards then
//! fit in one byte per card, whatever the card values were.

use std::collections::hash_map::Entry;
use std::fmt::{self, Debug};
use std::hash::Hash;
use std::str::FromStr;

use rustc_hash::FxHashMap;

use crate::Game;
use crate::error::{ParseError, ParseErrorKind};
use crate::input::{Line, lines};

use super::{Card, PerPlayer, Player};

/// Why a pair of decks is not a valid deal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(crabdice::deal))]
#[non_exhaustive]
pub enum DealError {
    /// A card of value 0.
    #[error("card 0 is not allowed: cards are positive")]
    #[diagnostic(help("number the cards from 1"))]
    ZeroCard,
    /// The same card twice.
    #[error("card {0} is dealt twice: every card must be distinct")]
    #[diagnostic(help("deal each card once: with two equal cards the round has no winner"))]
    Duplicate(Card),
    /// Neither player holds a card.
    #[error("the deal has no cards: at least one player needs a card")]
    #[diagnostic(help("give a card to at least one player"))]
    NoCards,
    /// Scores could overflow 128 bits (it takes billions of cards).
    #[error(
        "the deal is too large: every score must fit in 128 bits, even that of all the cards in \
         one deck, highest on top"
    )]
    #[diagnostic(help("deal fewer cards, or smaller ones"))]
    TooLarge,
}

/// The two starting decks of a game of Crab Combat, top card first.
///
/// # Examples
///
/// ```
/// use crabdice::{Deal, Player};
///
/// let deal = Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")?;
/// assert_eq!(deal.deck(Player::One), &[9, 2, 6, 3, 1]);
/// assert_eq!(deal.cards(), 10);
/// # Ok::<_, crabdice::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    decks: PerPlayer<Vec<Card>>,
    /// The highest card, which decides how the engines label cards.
    highest: Card,
    /// The two lowest cards (`Card::MAX` for a card that is not there),
    /// which decide whether a sub-game can ever start.
    lowest: [Card; 2],
}

impl Deal {
    /// Builds a deal from two decks, top card first.
    ///
    /// ```
    /// use crabdice::{Deal, DealError};
    /// assert!(Deal::new(vec![1, 3], vec![2]).is_ok());
    /// assert_eq!(Deal::new(vec![1, 3], vec![3]), Err(DealError::Duplicate(3)));
    /// ```
    pub fn new(one: Vec<Card>, two: Vec<Card>) -> Result<Self, DealError> {
        let mut cards = Cards::default();
        for (index, &card) in one.iter().chain(&two).enumerate() {
            cards.add(card, index).map_err(|refused| match refused {
                Refused::Zero => DealError::ZeroCard,
                Refused::Duplicate { .. } => DealError::Duplicate(card),
            })?;
        }
        if one.is_empty() && two.is_empty() {
            return Err(DealError::NoCards);
        }
        if !cards.scores_fit() {
            return Err(DealError::TooLarge);
        }
        Ok(Self { decks: PerPlayer::new(one, two), highest: cards.highest, lowest: cards.lowest })
    }

    /// Reads a deal in the puzzle's format: `Player 1:` and one card a line,
    /// a blank line, `Player 2:` and one card a line.
    ///
    /// Line ends may be `\n` or `\r\n` (the `crabdice` binary turns a lone
    /// `\r`, as old Mac files end lines, into `\n` first); a byte order
    /// mark, spaces around a line, blank lines before the first header or
    /// after the last card, no blank line or several between the decks, a
    /// card written with leading zeros (`05` is card 5, so a duplicate of a
    /// `5`, and `00` is a zero, refused), and a missing final newline are fine. Every
    /// other deviation is a [`ParseError`] naming the line.
    ///
    /// ```
    /// use crabdice::Deal;
    ///
    /// let tight = Deal::parse("Player 1:\r\n9\r\n2\r\nPlayer 2:\r\n5\r\n8")?;
    /// assert_eq!(tight, Deal::new(vec![9, 2], vec![5, 8])?);
    /// assert_eq!(Deal::parse("Player 1:\n09\n2\n\nPlayer 2:\n005\n8\n")?, tight);
    /// let error = Deal::parse("Player 1:\n9\n2\n\nPlayer 2:\n5\n9\n").unwrap_err();
    /// assert_eq!((error.line(), error.column()), (7, 1));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(source: &str) -> Result<Self, ParseError> {
        Parser { source, decks: PerPlayer::default(), cards: Cards::default() }.run()
    }

    /// A player's starting deck, top card first.
    pub fn deck(&self, player: Player) -> &[Card] {
        &self.decks[player]
    }

    /// Both starting decks.
    pub fn decks(&self) -> &PerPlayer<Vec<Card>> {
        &self.decks
    }

    /// The number of cards in the deal.
    pub fn cards(&self) -> usize {
        self.decks.one.len() + self.decks.two.len()
    }

    /// Whether a game of Recursive Combat on this deal can ever start a
    /// sub-game. It cannot when the two lowest cards add up to more than
    /// `cards() - 2`: a sub-game needs each player to hold at least the
    /// value of the card it drew, and after a draw the two decks hold
    /// `cards() - 2` cards together. A game without sub-games is the only
    /// game played, at depth 0. `true` says a sub-game may start, not that
    /// one will.
    ///
    /// ```
    /// use crabdice::Deal;
    /// // After a draw 4 cards are left, and the two lowest cards need 3.
    /// assert!(Deal::new(vec![1, 2, 3], vec![4, 5, 6])?.can_recurse());
    /// // Here the two lowest cards need 6 cards after the draw.
    /// assert!(!Deal::new(vec![2, 40, 41], vec![4, 50, 51])?.can_recurse());
    /// # Ok::<_, crabdice::DealError>(())
    /// ```
    pub fn can_recurse(&self) -> bool {
        let left = self.cards().saturating_sub(2) as u128;
        u128::from(self.lowest[0]) + u128::from(self.lowest[1]) <= left
    }

    /// The largest score any deck of this deal can reach: all its cards in
    /// one deck, highest on top (the rearrangement inequality). Below
    /// 2^64 for every deal of cards up to about 10^16 per card in a
    /// 50-card deal; scores past 64 bits are still exact.
    ///
    /// ```
    /// use crabdice::Deal;
    /// let deal = Deal::new(vec![9, 2], vec![5])?;
    /// assert_eq!(deal.max_score(), 9 * 3 + 5 * 2 + 2);
    /// # Ok::<_, crabdice::DealError>(())
    /// ```
    pub fn max_score(&self) -> u128 {
        let cards = self.decks.one.iter().chain(&self.decks.two).copied().collect();
        // Checked when the deal was built.
        max_score(cards).unwrap_or(u128::MAX)
    }

    /// The deal's cards as small labels, for the engines (see the module
    /// docs).
    pub(crate) fn labelled(&self) -> Labelled<'_> {
        if self.highest <= 255 {
            // Every card fits in a byte: label each card by itself.
            let labels = PerPlayer::new(Vec::new(), Vec::new());
            return Labelled {
                deal: self,
                ranked: Vec::new(),
                labels,
                largest: self.highest as u32,
            };
        }
        // One sort of the cards with their places gives both directions:
        // each label's value, and each place's label. (A binary search per
        // card took 3.5 s on a deal of 7 million cards; this takes 0.5 s.)
        let mut placed: Vec<(Card, u32)> =
            self.decks.one.iter().chain(&self.decks.two).copied().zip(0..).collect();
        placed.sort_unstable_by_key(|&(card, _)| card);
        let mut labels = vec![0; placed.len()];
        let ranked = placed
            .into_iter()
            .zip(0..)
            .map(|((card, place), label)| {
                labels[place as usize] = label;
                card
            })
            .collect::<Vec<_>>();
        let two = labels.split_off(self.decks.one.len());
        let largest = ranked.len().saturating_sub(1) as u32;
        Labelled { deal: self, ranked, labels: PerPlayer::new(labels, two), largest }
    }
}

/// Reads a deal in the puzzle's format, as [`Deal::parse`] does.
///
/// ```
/// use crabdice::Deal;
/// let deal: Deal = "Player 1:\n9\n2\n\nPlayer 2:\n5\n".parse()?;
/// assert_eq!(deal.cards(), 3);
/// # Ok::<_, crabdice::ParseError>(())
/// ```
impl FromStr for Deal {
    type Err = ParseError;

    fn from_str(source: &str) -> Result<Self, ParseError> {
        Self::parse(source)
    }
}

/// Writes the deal in the puzzle's format, which [`Deal::parse`] reads
/// back as the same deal.
///
/// ```
/// use crabdice::Deal;
/// let deal = Deal::new(vec![9, 2], vec![5])?;
/// assert_eq!(deal.to_string(), "Player 1:\n9\n2\n\nPlayer 2:\n5\n");
/// assert_eq!(Deal::parse(&deal.to_string()), Ok(deal));
/// # Ok::<_, crabdice::DealError>(())
/// ```
impl fmt::Display for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for player in Player::ALL {
            if player == Player::Two {
                writeln!(f)?;
            }
            writeln!(f, "Player {}:", player.number())?;
            for card in self.deck(player) {
                writeln!(f, "{card}")?;
            }
        }
        Ok(())
    }
}

/// A card label: the card itself for small values, else its rank.
pub(crate) trait Label:
    Copy + Ord + Eq + Hash + Default + Debug + Send + Sync + 'static
{
    /// Converts a label known to fit.
    fn from_u32(label: u32) -> Self;
    /// The label as an index.
    fn index(self) -> usize;
}

macro_rules! impl_label {
    ($($t:ty),*) => {$(
        impl Label for $t {
            #[inline]
            fn from_u32(label: u32) -> Self {
                label as $t
            }
            #[inline]
            fn index(self) -> usize {
                self as usize
            }
        }
    )*};
}
impl_label!(u8, u16, u32);

/// A deal's cards relabelled with small numbers that keep their order: the
/// card itself when every card is below 256, else its rank.
#[derive(Debug, Clone)]
pub(crate) struct Labelled<'a> {
    deal: &'a Deal,
    /// The value of each label when the cards were ranked; empty when every
    /// card is its own label.
    ranked: Vec<Card>,
    /// Each player's deck as labels, top first; empty when every card is
    /// its own label.
    labels: PerPlayer<Vec<u32>>,
    /// The largest label in use.
    pub largest: u32,
}

impl Labelled<'_> {
    /// The number of cards in the deal.
    pub fn cards_in_deal(&self) -> usize {
        self.deal.cards()
    }

    /// Whether a game of Recursive Combat on the deal can ever start a
    /// sub-game ([`Deal::can_recurse`]).
    pub fn can_recurse(&self) -> bool {
        self.deal.can_recurse()
    }

    /// Whether every card is its own label.
    pub fn labels_are_values(&self) -> bool {
        self.ranked.is_empty()
    }

    /// A player's deck as labels, top first.
    pub fn deck(&self, player: Player) -> impl ExactSizeIterator<Item = u32> + '_ {
        let labels = &self.labels[player];
        let by_value = self.ranked.is_empty();
        self.deal.decks[player]
            .iter()
            .enumerate()
            .map(move |(at, &card)| if by_value { card as u32 } else { labels[at] })
    }

    /// The card a label stands for.
    fn value(&self, label: u32) -> Card {
        self.ranked.get(label as usize).copied().unwrap_or(Card::from(label))
    }

    /// Cards a player must still hold after drawing each label to recurse on
    /// it: its value capped at `n` (at least 256 entries, the rest out of
    /// reach).
    pub fn need(&self) -> Vec<u32> {
        let mut need = vec![u32::MAX; (self.largest as usize + 1).max(256)];
        self.fill_need(&mut need);
        need
    }

    /// Writes [`need`](Self::need) into `table`, which has room for every
    /// label, leaving the entries past the largest label as they are.
    pub fn fill_need(&self, table: &mut [u32]) {
        let cap = self.deal.cards() as u64;
        for (label, need) in table[..=self.largest as usize].iter_mut().enumerate() {
            // Labels are u32.
            *need = self.value(label as u32).min(cap) as u32;
        }
    }

    /// The score of a deck of labels (see [`deck_score`](super::deck_score)).
    pub fn score<C: Label>(&self, deck: &[C]) -> u128 {
        let labels = deck.iter().map(|card| card.index());
        if self.ranked.is_empty() {
            // Every card is its own label, so every card is at most 255 and
            // a deck holds at most 255 cards: the score is below
            // 255 × (255 · 256 / 2) < 2^32. A 32-bit loop, which the compiler
            // vectorises (about a fifth of a 39-round game's time went into
            // the 64-bit one).
            debug_assert!(self.largest <= 255 && deck.len() <= 255);
            let len = deck.len() as u32;
            let places = (0..len).map(|i| len - i);
            labels.zip(places).map(|(label, place)| label as u32 * place).sum::<u32>().into()
        } else {
            super::deck_score(labels.map(|label| self.value(label as u32)))
        }
    }

    /// Card values of a deck of labels.
    pub fn cards(&self, deck: impl Iterator<Item = u32>) -> Vec<Card> {
        deck.map(|label| self.value(label)).collect()
    }
}

/// True for lines that look like a player header (`Player ...`), right or
/// wrong: they end a deck.
fn is_header(text: &str) -> bool {
    text.starts_with("Player")
}

/// Why a card cannot join a deal.
enum Refused {
    /// Cards are positive.
    Zero,
    /// The card was dealt already, at this place.
    Duplicate { first: usize },
}

/// The cards of a deal so far, checked one at a time: the one place both
/// [`Deal::new`] and the parser decide what a valid deal is.
struct Cards {
    /// Each card and where it was dealt (an index, or a line).
    first: FxHashMap<Card, usize>,
    /// The sum of the cards, saturating (it only decides whether the exact
    /// bound needs to be computed).
    sum: u128,
    highest: Card,
    /// The two lowest cards so far, lowest first; `Card::MAX` until there
    /// are two.
    lowest: [Card; 2],
}

impl Default for Cards {
    fn default() -> Self {
        Self { first: FxHashMap::default(), sum: 0, highest: 0, lowest: [Card::MAX; 2] }
    }
}

/// The largest score of any deck of these cards: all of them in one deck,
/// highest on top (the rearrangement inequality); `None` past 128 bits.
fn max_score(mut cards: Vec<Card>) -> Option<u128> {
    cards.sort_unstable_by(|a, b| b.cmp(a));
    let n = cards.len() as u128;
    cards.iter().zip((1..=n).rev()).try_fold(0u128, |score, (&card, place)| {
        score.checked_add(u128::from(card).checked_mul(place)?)
    })
}

impl Cards {
    /// Adds `card`, dealt at `place`.
    fn add(&mut self, card: Card, place: usize) -> Result<(), Refused> {
        if card == 0 {
            return Err(Refused::Zero);
        }
        match self.first.entry(card) {
            Entry::Occupied(first) => return Err(Refused::Duplicate { first: *first.get() }),
            Entry::Vacant(slot) => slot.insert(place),
        };
        self.sum = self.sum.saturating_add(u128::from(card));
        self.highest = self.highest.max(card);
        if card < self.lowest[0] {
            self.lowest = [card, self.lowest[0]];
        } else if card < self.lowest[1] {
            self.lowest[1] = card;
        }
        Ok(())
    }

    /// Whether every score fits in 128 bits: that of all the cards in one
    /// deck, highest on top, does (see the module docs). Every deal of
    /// fewer than 2^32 cards passes on `n × Σ cards` alone, without sorting.
    fn scores_fit(&self) -> bool {
        let n = self.first.len() as u128;
        self.sum.checked_mul(n).is_some()
            || max_score(self.first.keys().copied().collect()).is_some()
    }

    fn is_empty(&self) -> bool {
        self.first.is_empty()
    }
}

struct Parser<'a> {
    source: &'a str,
    decks: PerPlayer<Vec<Card>>,
    cards: Cards,
}

impl Parser<'_> {
    fn run(mut self) -> Result<Deal, ParseError> {
        let mut lines = lines(self.source).filter(|line| !line.is_blank()).peekable();
        if lines.peek().is_none() {
            return Err(ParseError::empty(Some(Game::Combat)));
        }
        for player in Player::ALL {
            let header = format!("Player {}:", player.number());
            let Some(line) = lines.next() else {
                return Err(ParseError::at_end(
                    ParseErrorKind::UnexpectedEnd { expected: header },
                    self.source,
                ));
            };
            if line.text != header {
                return Err(self.wrong_header(&line, header));
            }
            // A deck runs until the next blank line or header.
            let mut last = line.number;
            while let Some(line) = lines.next_if(|l| l.number == last + 1 && !is_header(l.text)) {
                let card = self.card(&line)?;
                self.decks[player].push(card);
                last = line.number;
            }
        }
        if let Some(line) = lines.next() {
            let found = line.text.to_owned();
            let kind = if is_header(line.text) {
                ParseErrorKind::ThirdPlayer { found }
            } else {
                ParseErrorKind::TrailingText { found }
            };
            return Err(ParseError::at_line(kind, self.source, &line));
        }
        if self.cards.is_empty() {
            return Err(ParseError::at_end(ParseErrorKind::NoCards, self.source));
        }
        // Checked once the deal is whole: the bound depends on every card
        // (it takes billions of them to fail).
        if !self.cards.scores_fit() {
            return Err(ParseError::at_end(ParseErrorKind::DealTooLarge, self.source));
        }
        let Cards { highest, lowest, .. } = self.cards;
        Ok(Deal { decks: self.decks, highest, lowest })
    }

    /// A header that is not the one expected: misnumbered, even when its
    /// number is past 2 (`Player 3:` where `Player 2:` belongs has no third
    /// deck to remove; a third player is a header after both decks).
    /// The right header with more after it on its line is pointed at
    /// where that begins, so that a long line's message still quotes it.
    fn wrong_header(&self, line: &Line<'_>, expected: String) -> ParseError {
        if let Some(after) = line.text.strip_prefix(expected.as_str()) {
            let found = after.trim_start();
            let kind = ParseErrorKind::AfterHeader { header: expected, found: found.to_owned() };
            return ParseError::at(kind, self.source, line, found);
        }
        let found = line.text.to_owned();
        ParseError::at_line(ParseErrorKind::ExpectedHeader { expected, found }, self.source, line)
    }

    /// The card on `line`. A line of digits with more after a space is a
    /// card followed by text, pointed at where that begins, once the card
    /// itself is checked.
    fn card(&mut self, line: &Line<'_>) -> Result<Card, ParseError> {
        let (text, after) = line.text.split_once(char::is_whitespace).unwrap_or((line.text, ""));
        let after = after.trim_start();
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        let text = if digits { text } else { line.text };
        let fail = |kind| ParseError::at(kind, self.source, line, text);
        if !digits {
            return Err(fail(ParseErrorKind::NotACard { found: text.to_owned() }));
        }
        let Ok(card) = text.parse::<Card>() else {
            return Err(fail(ParseErrorKind::CardTooLarge { found: text.to_owned() }));
        };
        self.cards.add(card, line.number).map_err(|refused| match refused {
            Refused::Zero => fail(ParseErrorKind::ZeroCard { found: text.to_owned() }),
            Refused::Duplicate { first } => {
                fail(ParseErrorKind::DuplicateCard { card, first_line: first })
            }
        })?;
        if !after.is_empty() {
            let kind = ParseErrorKind::AfterCard { card: text.to_owned(), found: after.to_owned() };
            return Err(ParseError::at(kind, self.source, line, after));
        }
        Ok(card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(source: &str) -> (ParseErrorKind, usize) {
        let err = Deal::parse(source).unwrap_err();
        (err.kind().clone(), err.line())
    }

    #[test]
    fn parses_the_puzzle_example_with_crlf_and_no_final_newline() {
        let deal = Deal::parse("Player 1:\r\n9\r\n2\r\n\r\nPlayer 2:  \r\n5 \r\n8").unwrap();
        assert_eq!(deal.deck(Player::One), &[9, 2]);
        assert_eq!(deal.deck(Player::Two), &[5, 8]);
    }

    #[test]
    fn an_empty_deck_is_valid() {
        let deal = Deal::parse("Player 1:\n\nPlayer 2:\n3\n1\n").unwrap();
        assert!(deal.deck(Player::One).is_empty());
        let deal = Deal::parse("Player 1:\n1\n\nPlayer 2:\n").unwrap();
        assert!(deal.deck(Player::Two).is_empty());
    }

    /// A deal written out is read back as the same deal: the example,
    /// either deck empty, the largest cards, and string parsing.
    #[test]
    fn deals_written_out_read_back_the_same() {
        let deals = [
            (vec![9, 2, 6, 3, 1], vec![5, 8, 4, 7, 10]),
            (vec![], vec![3, 1]),
            (vec![4], vec![]),
            (vec![u64::MAX, 1], vec![u64::MAX - 1]),
        ];
        for (one, two) in deals {
            let deal = Deal::new(one, two).unwrap();
            let text = deal.to_string();
            assert_eq!(Deal::parse(&text).as_ref(), Ok(&deal), "{text}");
            assert_eq!(text.parse::<Deal>(), Ok(deal));
        }
    }

    #[test]
    fn rejects_each_malformed_input_at_its_line() {
        assert_eq!(kind(""), (ParseErrorKind::Empty, 1));
        assert_eq!(kind(" \n\n"), (ParseErrorKind::Empty, 1));
        assert!(matches!(kind("Player 2:\n1\n"), (ParseErrorKind::ExpectedHeader { .. }, 1)));
        assert!(matches!(
            kind("Player 1:\n1\n\nPlayer 1:\n2\n"),
            (ParseErrorKind::ExpectedHeader { .. }, 4)
        ));
        assert!(matches!(
            kind("Player 1:\n1\nx\n\nPlayer 2:\n2\n"),
            (ParseErrorKind::NotACard { .. }, 3)
        ));
        assert!(matches!(
            kind("Player 1:\n1\n-4\n\nPlayer 2:\n2\n"),
            (ParseErrorKind::NotACard { .. }, 3)
        ));
        assert!(matches!(
            kind("Player 1:\n1\n2.5\n\nPlayer 2:\n2\n"),
            (ParseErrorKind::NotACard { .. }, 3)
        ));
        assert!(matches!(
            kind("Player 1:\n0\n\nPlayer 2:\n2\n"),
            (ParseErrorKind::ZeroCard { .. }, 2)
        ));
        assert_eq!(
            kind("Player 1:\n7\n\nPlayer 2:\n2\n7\n"),
            (ParseErrorKind::DuplicateCard { card: 7, first_line: 2 }, 6)
        );
        assert!(matches!(
            kind("Player 1:\n1\n\nPlayer 2:\n2\n\nPlayer 3:\n4\n"),
            (ParseErrorKind::ThirdPlayer { .. }, 7)
        ));
        assert!(matches!(kind("Player 1:\n1\n2\n"), (ParseErrorKind::UnexpectedEnd { .. }, 4)));
        assert_eq!(kind("Player 1:\n\nPlayer 2:\n"), (ParseErrorKind::NoCards, 4));
        assert!(matches!(kind("Player 1:\n1\n\n2\n"), (ParseErrorKind::ExpectedHeader { .. }, 4)));
        assert!(matches!(
            kind("Player 1:\n1\n\nPlayer 2:\n2\n\njunk\n"),
            (ParseErrorKind::TrailingText { .. }, 7)
        ));
        assert_eq!(
            kind("Player 1:\n1\n\nPlayer 3:\n2\n"),
            (
                ParseErrorKind::ExpectedHeader {
                    expected: "Player 2:".to_owned(),
                    found: "Player 3:".to_owned()
                },
                4
            )
        );
        assert!(matches!(kind("player 1:\n1\n"), (ParseErrorKind::ExpectedHeader { .. }, 1)));
        assert!(matches!(
            kind("Player 1:\n2\n\nPlayer 2:\n99999999999999999999\n"),
            (ParseErrorKind::CardTooLarge { .. }, 5)
        ));
    }

    #[test]
    fn scores_past_64_bits_are_exact() {
        use crate::combat::{Variant, play, winning_score};
        // Scores past 64 bits, computed by hand in 128 bits.
        let top = u64::MAX;
        let deal = Deal::new(vec![top, top - 1], vec![1]).unwrap();
        // Round 1: top beats 1; player 1 holds top − 1, top, 1.
        let expected = u128::from(top - 1) * 3 + u128::from(top) * 2 + 1;
        assert!(expected > u128::from(u64::MAX));
        for variant in [Variant::Plain, Variant::Recursive] {
            let outcome = play(&deal, variant).unwrap();
            assert_eq!(outcome.score, Some(expected));
            assert_eq!(outcome.decks.one, [top - 1, top, 1]);
            assert_eq!(winning_score(&deal, variant).unwrap(), Some(expected));
        }
        assert_eq!(deal.max_score(), u128::from(top) * 3 + u128::from(top - 1) * 2 + 1);
        // The parser takes the largest 64-bit card and refuses the next.
        assert!(Deal::parse("Player 1:\n18446744073709551615\n\nPlayer 2:\n1\n").is_ok());
        assert!(Deal::parse("Player 1:\n18446744073709551616\n\nPlayer 2:\n1\n").is_err());
    }

    #[test]
    fn the_largest_score_puts_every_card_in_one_deck_highest_on_top() {
        // Checked against every order of every split of a few cards.
        let cards = [7u64, 1, 30, 4, 12];
        let deal = Deal::new(cards[..2].to_vec(), cards[2..].to_vec()).unwrap();
        let mut best = 0u128;
        let mut order = cards.to_vec();
        permute(&mut order, 0, &mut |deck| {
            for len in 0..=deck.len() {
                best = best.max(crate::combat::deck_score(deck[..len].iter().copied()));
            }
        });
        assert_eq!(deal.max_score(), best);
        assert_eq!(best, 30 * 5 + 12 * 4 + 7 * 3 + 4 * 2 + 1);
    }

    /// Calls `visit` with every order of `cards[from..]`.
    fn permute(cards: &mut [u64], from: usize, visit: &mut impl FnMut(&[u64])) {
        if from == cards.len() {
            return visit(cards);
        }
        for i in from..cards.len() {
            cards.swap(from, i);
            permute(cards, from + 1, visit);
            cards.swap(from, i);
        }
    }

    #[test]
    fn errors_point_at_the_column_of_the_text() {
        let err = Deal::parse("Player 1:\n  abc\n\nPlayer 2:\n1\n").unwrap_err();
        assert_eq!((err.line(), err.column()), (2, 3));
        assert_eq!(err.span(), (12, 3).into());
    }

    #[test]
    fn small_cards_label_themselves_and_large_ones_are_ranked() {
        let deal = Deal::new(vec![100, 3], vec![7, 1]).unwrap();
        let small = deal.labelled();
        let deck = |player| small.deck(player).collect::<Vec<_>>();
        assert_eq!((deck(Player::One), deck(Player::Two)), (vec![100, 3], vec![7, 1]));
        let need = small.need();
        assert_eq!((need[1], need[3], need[7], need[100], need[101]), (1, 3, 4, 4, u32::MAX));
        let deal = Deal::new(vec![1000, 3], vec![7, 1]).unwrap();
        let large = deal.labelled();
        let deck = |player| large.deck(player).collect::<Vec<_>>();
        assert_eq!((deck(Player::One), deck(Player::Two)), (vec![3, 1], vec![2, 0]));
        assert_eq!(&large.need()[..5], &[1, 3, 4, 4, u32::MAX]);
        assert_eq!(large.largest, 3);
        assert_eq!(large.cards([3, 1].into_iter()), vec![1000, 3]);
        let deal = Deal::new(vec![1000, 3, 500], vec![7]).unwrap();
        let uneven = deal.labelled();
        let deck = |player| uneven.deck(player).collect::<Vec<_>>();
        assert_eq!((deck(Player::One), deck(Player::Two)), (vec![3, 0, 2], vec![1]));
    }

    /// Past 256 labels the need table still has an entry for every label:
    /// 300 cards, ranked (300 > 255), need their own values at labels 0 to
    /// 299, the highest capped at the 300 cards of the deal.
    #[test]
    fn the_need_table_covers_every_label_past_256() {
        let deal = Deal::new((1..=150).collect(), (151..=300).collect()).unwrap();
        let labelled = deal.labelled();
        assert!(!labelled.labels_are_values());
        assert_eq!(labelled.largest, 299);
        let need = labelled.need();
        assert_eq!(need.len(), 300);
        assert_eq!((need[0], need[255], need[298], need[299]), (1, 256, 299, 300));
    }
}
