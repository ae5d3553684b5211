//! # Reading puzzle input line by line
//!
//! Both games use tiny line-based formats, so a hand-written reader is shorter
//! and clearer than a parser combinator. It does one thing: walk the text line
//! by line and remember, for every line, its 1-based number and the byte
//! offset where its content starts. Parsers then report errors as
//! [`SourceSpan`]s into the original text, which is what lets the binary point
//! at the offending characters (`deck.txt:4:1`).
//!
//! The reader tolerates what editors and operating systems add without asking:
//! a byte order mark (U+FEFF) before the first line, `\r\n` line ends, spaces
//! or tabs around a line, and a missing final newline. It never changes the
//! text itself; spans always index the input as given.

use miette::SourceSpan;

/// One line of input with its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// Byte offset of `text` within the whole input.
    pub offset: usize,
    /// The line's content without surrounding whitespace or `\r`.
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// Span of `part`, which must be a sub-slice of `self.text`, in
    /// `source`. An empty part (a blank line's text) spans the one
    /// character where it stands, whole (a line end, or a space such as
    /// U+00A0 of two bytes), so that a span never ends inside a character;
    /// at the very end of the input it is empty.
    pub fn span_of(&self, source: &str, part: &'a str) -> SourceSpan {
        let start = self.offset + (part.as_ptr() as usize - self.text.as_ptr() as usize);
        let len = if part.is_empty() {
            source[start..].chars().next().map_or(0, char::len_utf8)
        } else {
            part.len()
        };
        (start, len).into()
    }

    /// 1-based column of `part`, a sub-slice of `self.text`, counted in
    /// characters of the original line (leading whitespace included).
    pub fn column_of(&self, source: &str, part: &'a str) -> usize {
        column_at(source, self.offset + (part.as_ptr() as usize - self.text.as_ptr() as usize))
    }

    /// True when the line holds nothing but whitespace.
    pub fn is_blank(&self) -> bool {
        self.text.is_empty()
    }
}

/// The byte order mark some editors write first, which is not content.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// The bytes of a byte order mark at the start of `source`, if any.
fn mark(source: &str) -> usize {
    if source.starts_with(BYTE_ORDER_MARK) { BYTE_ORDER_MARK.len_utf8() } else { 0 }
}

/// 1-based column of byte `offset` of `source`, counted in characters of
/// its line (a byte order mark before the first line not counted).
pub(crate) fn column_at(source: &str, offset: usize) -> usize {
    let line_start = source[..offset].rfind('\n').map_or(mark(source), |i| i + 1);
    source[line_start.min(offset)..offset].chars().count() + 1
}

/// Splits `source` into [`Line`]s, after a byte order mark if it has one.
pub(crate) fn lines(source: &str) -> impl Iterator<Item = Line<'_>> {
    let mut offset = mark(source);
    source[offset..].split_inclusive('\n').enumerate().map(move |(index, raw)| {
        let start = offset;
        offset += raw.len();
        let text = raw.trim();
        let leading = if text.is_empty() { 0 } else { raw.len() - raw.trim_start().len() };
        Line { number: index + 1, offset: start + leading, text }
    })
}

/// Position just past the end of the input, for "found the end of the input"
/// errors: the number of the line where the text ends (the line after the
/// last newline, or the last line when the text does not end with one) and
/// the text's length.
pub(crate) fn end_of(source: &str) -> (usize, usize) {
    let lines = source.split_inclusive('\n').count();
    let number = if source.ends_with('\n') || source.is_empty() { lines + 1 } else { lines };
    (number.max(1), source.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_line() {
        let source = "\u{feff}Player 1:\n9";
        let got: Vec<_> = lines(source).map(|l| (l.number, l.offset, l.text)).collect();
        assert_eq!(got, vec![(1, 3, "Player 1:"), (2, 13, "9")]);
        let first = lines(source).next().unwrap();
        assert_eq!(first.column_of(source, &first.text[7..]), 8);
        // Only at the very start: elsewhere it is text like any other.
        assert_eq!(lines("9\n\u{feff}8").nth(1).unwrap().text, "\u{feff}8");
    }

    #[test]
    fn lines_keep_numbers_and_offsets_through_crlf_and_spaces() {
        let source = "Player 1:\r\n  9 \r\n\r\n10";
        let got: Vec<_> = lines(source).map(|l| (l.number, l.offset, l.text)).collect();
        assert_eq!(got, vec![(1, 0, "Player 1:"), (2, 13, "9"), (3, 17, ""), (4, 19, "10")]);
        assert_eq!(&source[13..14], "9");
        assert_eq!(&source[19..21], "10");
    }

    #[test]
    fn a_blank_line_spans_its_first_character_whole() {
        let source = "a\n\u{a0}\nb\n\r\n";
        let spans: Vec<_> = lines(source).map(|l| l.span_of(source, l.text)).collect();
        // U+00A0 takes two bytes; `\r` one; past the end, nothing.
        assert_eq!(spans[1], (2, 2).into());
        assert_eq!(spans[3], (7, 1).into());
        let end = "a\n  ";
        let last = lines(end).nth(1).unwrap();
        assert_eq!(last.span_of(end, last.text), (2, 1).into());
    }

    #[test]
    fn columns_count_leading_whitespace() {
        let source = "a\n   xy\n";
        let line = lines(source).nth(1).unwrap();
        assert_eq!(line.column_of(source, &line.text[1..]), 5);
    }

    #[test]
    fn end_of_input_is_the_line_after_a_final_newline() {
        assert_eq!(end_of("a\nb\n"), (3, 4));
        assert_eq!(end_of("a\nb"), (2, 3));
        assert_eq!(end_of(""), (1, 0));
    }
}
