//! Reading puzzle input from a file or standard input, and pointing into it.
//!
//! Input is untrusted: at most [`MAX_INPUT`] bytes are read (so `/dev/zero`
//! or an endless pipe is refused, not held), bytes that are not UTF-8 are
//! refused at their line and column, line ends become `\n` and a byte order
//! mark is dropped, so that the parsers and the error snippets count the
//! same lines and columns. [`Source::error`] attaches the text to a library
//! error, which miette then shows under the message, unless the lines
//! around the error are too long to show or hold characters that would act
//! on the terminal. Names are escaped the same way before they are shown.

use std::fmt;
use std::io::Read;
use std::path::Path;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents, miette};

/// A puzzle input and its name.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name to show on a terminal (messages and plain output): the path
    /// with any character that would act on the terminal escaped.
    pub name: String,
    /// The path as given (lossily, if it is not UTF-8), for JSON, which
    /// escapes it itself.
    pub path: String,
    pub text: String,
}

impl Source {
    /// Reads `path`, or standard input for `-`: at most [`MAX_INPUT`]
    /// bytes, stopping at the first bytes that are not UTF-8, so an endless
    /// input (`/dev/zero`, a pipe that never closes) is refused instead of
    /// filling the memory.
    pub fn read(path: &Path) -> miette::Result<Self> {
        let (path, name, bytes) = if path.as_os_str() == "-" {
            let name = "<stdin>".to_owned();
            let bytes = read_text(std::io::stdin().lock())
                .map_err(|e| miette!("cannot read standard input: {e}"))?;
            (name.clone(), name, bytes)
        } else {
            let given = path.display().to_string();
            let name = crabdice::escape_for_terminal(&given).into_owned();
            let bytes = std::fs::File::open(path)
                .and_then(read_text)
                .map_err(|e| miette!("cannot read {name}: {e}"))?;
            (given, name, bytes)
        };
        let bytes = bytes.map_err(|refused| miette!(help = refused.help(), "{name}: {refused}"))?;
        // `read_text` has checked the bytes.
        let text = String::from_utf8(bytes).map_err(|_| miette!("{name}: not UTF-8 text"))?;
        // A byte order mark (some Windows editors write one) is not text.
        // The library's readers skip it too; it is dropped here as well so
        // that the snippets miette draws from this text do not count it.
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_owned(),
            None => text,
        };
        Ok(Self { name, path, text: newlines(text) })
    }

    /// Attaches this source to a library error: the message starts with
    /// the file name, as every other error's does, and the report shows the
    /// offending line with the lines around it. Unless one of those lines is
    /// longer than [`SHOWN_LINE`], or holds a character that acts on the
    /// terminal (other than a tab): a snippet of a million-character line,
    /// underlined, would bury the message, and a stray escape or NUL byte
    /// would garble the terminal. The message already names the line and
    /// the column, and quotes the start of the offending text with its
    /// control characters escaped.
    pub fn error(&self, error: impl miette::Diagnostic + Send + Sync + 'static) -> miette::Report {
        let at = error.labels().and_then(|mut labels| labels.next()).map(|label| label.offset());
        let unshowable = at.is_some_and(|at| {
            let lines = self.lines_around(at);
            lines.split('\n').any(|line| line.len() > SHOWN_LINE)
                || lines.contains(|c| c != '\t' && c != '\n' && crabdice::acts_on_terminal(c))
        });
        let snippet =
            (!unshowable).then(|| Snippet { name: self.name.clone(), text: self.text.clone() });
        miette::Report::new(Named { name: self.name.clone(), error, snippet })
    }

    /// The line holding byte `at` and the lines just before and after it.
    fn lines_around(&self, at: usize) -> &str {
        let bytes = self.text.as_bytes();
        let at = at.min(bytes.len());
        let newline = |b: &u8| *b == b'\n';
        // From the start of the line before to the end of the line after.
        let start = bytes[..at]
            .iter()
            .rposition(newline)
            .map_or(0, |nl| bytes[..nl].iter().rposition(newline).map_or(0, |before| before + 1));
        let end = bytes[at..].iter().position(newline).map_or(bytes.len(), |nl| {
            let after = at + nl + 1;
            bytes[after..].iter().position(newline).map_or(bytes.len(), |next| after + next)
        });
        // Both ends are just past a newline or at an end of the text, so
        // on character boundaries.
        &self.text[start..end]
    }
}

/// The input as miette shows it under a message, named, with the column of
/// the snippet's heading (`[deal.txt:3:3]`) counted in characters, as the
/// message's own column is: miette counts bytes, so a line that starts with
/// a two-byte space such as U+00A0 would get two columns for the message's
/// one.
#[derive(Debug)]
struct Snippet {
    name: String,
    text: String,
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let contents = self.text.read_span(span, before, after)?;
        // miette gives a column only without lines before the span's.
        let bytes = self.text.as_bytes();
        let before_span = bytes.get(..span.offset()).unwrap_or(bytes);
        let line_start = before_span.iter().rposition(|&b| b == b'\n').map_or(0, |nl| nl + 1);
        let column = match self.text.get(line_start..span.offset()) {
            Some(prefix) if contents.column() > 0 => prefix.chars().count(),
            _ => contents.column(),
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            *contents.span(),
            contents.line(),
            column,
            contents.line_count(),
        )))
    }
}

/// The longest line shown under an error message, in bytes.
const SHOWN_LINE: usize = 500;

/// A library error named by its file, with the input it points into when
/// that can be shown (see [`Source::error`]); its code and help are the
/// error's own.
#[derive(Debug)]
struct Named<E> {
    name: String,
    error: E,
    snippet: Option<Snippet>,
}

impl<E: fmt::Display> fmt::Display for Named<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

impl<E: miette::Diagnostic> std::error::Error for Named<E> {}

impl<E: miette::Diagnostic> miette::Diagnostic for Named<E> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.code()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.help()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.as_ref().map(|snippet| snippet as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.snippet.as_ref().and(self.error.labels())
    }
}

/// Every line end as `\n`: old Mac files end lines with a lone `\r`, which
/// the parsers would not see as one. Both the parsers and the error
/// snippets read the result, so their lines and columns agree.
fn newlines(text: String) -> String {
    if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n") } else { text }
}

/// The largest input read, in bytes: a deal of three million 20-digit
/// cards. Puzzle inputs are a few hundred bytes.
pub const MAX_INPUT: usize = 64 << 20;

/// Why an input is refused before it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refused {
    /// Bytes that are not UTF-8, at this line and column (in characters,
    /// from 1).
    NotUtf8 { line: usize, column: usize },
    /// More than [`MAX_INPUT`] bytes.
    TooLarge,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotUtf8 { line, column } => {
                write!(f, "line {line}, column {column}: the input is not UTF-8 text")
            }
            Self::TooLarge => write!(
                f,
                "the input is larger than {} MiB, more than any deal or game crabdice reads",
                MAX_INPUT >> 20
            ),
        }
    }
}

impl Refused {
    /// What to do about it.
    fn help(self) -> &'static str {
        match self {
            Self::NotUtf8 { .. } => {
                "save the input as UTF-8 (or ASCII) text: a puzzle input is `Player` lines \
                 and numbers"
            }
            Self::TooLarge => "give one puzzle input: a deal or a game is a few hundred bytes",
        }
    }
}

/// Reads `input` to its end as UTF-8 bytes: the outer error is the
/// reader's; the inner one refuses the input (past [`MAX_INPUT`] bytes, or
/// bytes that are not UTF-8, found as they come).
fn read_text(input: impl Read) -> std::io::Result<Result<Vec<u8>, Refused>> {
    let mut input = input.take(MAX_INPUT as u64 + 1);
    let (mut bytes, mut checked) = (Vec::new(), 0);
    // Each read lands in the buffer's own tail, zeroed just before: a
    // separate chunk of 64 KiB, zeroed for a puzzle input of 42 bytes,
    // was 16 of the process's 130 page faults. The tail doubles from 4 KiB
    // up to 1 MiB, so a large input still takes few reads.
    let mut tail = 1 << 12;
    loop {
        let start = bytes.len();
        bytes.resize(start + tail, 0);
        // Whatever has arrived: a pipe's first bad byte is refused at once,
        // not when 64 KiB have come or the writer closes it.
        let read = match input.read(&mut bytes[start..]) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {
                bytes.truncate(start);
                continue;
            }
            Err(error) => return Err(error),
        };
        bytes.truncate(start + read);
        if read == tail {
            tail = (tail * 2).min(1 << 20);
        }
        match std::str::from_utf8(&bytes[checked..]) {
            Ok(_) => checked = bytes.len(),
            // A character cut at the end of what has been read so far.
            Err(error) if error.error_len().is_none() && read > 0 => {
                checked += error.valid_up_to();
            }
            Err(error) => {
                let (line, column) = place_after(&bytes[..checked + error.valid_up_to()]);
                return Ok(Err(Refused::NotUtf8 { line, column }));
            }
        }
        if bytes.len() > MAX_INPUT {
            return Ok(Err(Refused::TooLarge));
        }
        if read == 0 {
            return Ok(Ok(bytes));
        }
    }
}

/// The line and column (from 1, the column in characters) just after
/// `before`, UTF-8 text, counting line ends as the parser does: `\r\n`,
/// `\n` or a lone `\r`.
fn place_after(before: &[u8]) -> (usize, usize) {
    let ends = before.iter().enumerate().filter(|&(i, &byte)| {
        byte == b'\n' || (byte == b'\r' && before.get(i + 1) != Some(&b'\n'))
    });
    let line = ends.count() + 1;
    // A byte order mark before the first line is not content, as the
    // parser reads it.
    let mark = "\u{feff}";
    let mark = if before.starts_with(mark.as_bytes()) { mark.len() } else { 0 };
    let start =
        before.iter().rposition(|&byte| byte == b'\n' || byte == b'\r').map_or(mark, |i| i + 1);
    // Every byte of a character but its first is `10xxxxxx`.
    let column = before[start..].iter().filter(|&&byte| byte & 0xC0 != 0x80).count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::{MAX_INPUT, Refused, read_text};
    use std::io::{self, Read};

    /// A reader that hands out its text a few bytes at a time, as a pipe
    /// might, and is interrupted before every other read.
    struct Trickle {
        text: Vec<u8>,
        at: usize,
        step: usize,
        interrupt: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = self.step.min(into.len()).min(self.text.len() - self.at);
            into[..n].copy_from_slice(&self.text[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn trickle(text: &[u8], step: usize) -> Trickle {
        Trickle { text: text.to_vec(), at: 0, step, interrupt: false }
    }

    #[test]
    fn every_byte_arrives_whatever_the_reads() {
        // Characters of 2 to 4 bytes cut by reads of every size, and a text
        // long enough to take many growing tails.
        let small = "é\n€\n𝄞 x\n".repeat(40);
        let large = "Player 1:\n12345678901234567890\n".repeat(200_000);
        for text in [small.as_bytes(), large.as_bytes(), b""] {
            for step in [1, 2, 3, 5, 4096, 1 << 20, usize::MAX] {
                let read = read_text(trickle(text, step)).unwrap().unwrap();
                assert!(read == text, "step {step}: {} of {} bytes", read.len(), text.len());
            }
        }
    }

    #[test]
    fn bad_bytes_and_oversized_input_are_refused() {
        let mut text = "ok\n".repeat(5000).into_bytes();
        text.extend_from_slice(b"\xff\n");
        for step in [1, 7, usize::MAX] {
            let refused = read_text(trickle(&text, step)).unwrap().unwrap_err();
            assert_eq!(refused, Refused::NotUtf8 { line: 5001, column: 1 });
            assert_eq!(refused.to_string(), "line 5001, column 1: the input is not UTF-8 text");
        }
        // A character cut by the end of the input is not UTF-8 either.
        let refused = read_text(trickle("a\né".as_bytes().split_last().unwrap().1, 1));
        assert_eq!(refused.unwrap().unwrap_err(), Refused::NotUtf8 { line: 2, column: 1 });
        // The column counts characters, after any kind of line end.
        for (text, line, column) in [
            (&b"Player 1:\r\n9\xfe"[..], 2, 2),
            (b"x\ry \xc3\xa9\xe2\x82\xac\x80", 2, 5),
            (b"\xf0\x9d\x84\x9e7\xc0", 1, 3),
            // A byte order mark is not a column, before the first line only.
            (b"\xef\xbb\xbf9\xff", 1, 2),
            (b"\xef\xbb\xbf\n\xef\xbb\xbf9\xff", 2, 3),
        ] {
            let refused = read_text(trickle(text, 2)).unwrap().unwrap_err();
            assert_eq!(refused, Refused::NotUtf8 { line, column }, "{text:?}");
        }
        let exact = vec![b'7'; MAX_INPUT];
        assert_eq!(read_text(&exact[..]).unwrap().unwrap().len(), MAX_INPUT);
        let over = vec![b'7'; MAX_INPUT + 1];
        let refused = read_text(&over[..]).unwrap().unwrap_err();
        assert_eq!(refused, Refused::TooLarge);
        assert!(refused.to_string().contains("larger than 64 MiB"), "{refused}");
    }
}
