//! Reading puzzle input from a file or standard input.

use std::fmt;
use std::io::Read;
use std::path::Path;

use miette::{NamedSource, miette};

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
    /// Reads `path`, or standard input for `-`.
    pub fn read(path: &Path) -> miette::Result<Self> {
        let (path, name, bytes) = if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| miette!("cannot read standard input: {e}"))?;
            ("<stdin>".to_owned(), "<stdin>".to_owned(), bytes)
        } else {
            let given = path.display().to_string();
            let name = crabdice::escape_for_terminal(&given).into_owned();
            let bytes = std::fs::read(path).map_err(|e| miette!("cannot read {name}: {e}"))?;
            (given, name, bytes)
        };
        match String::from_utf8(bytes) {
            // A byte order mark (some Windows editors write one) is not text.
            Ok(text) => {
                let text = match text.strip_prefix('\u{feff}') {
                    Some(rest) => rest.to_owned(),
                    None => text,
                };
                Ok(Self { name, path, text: newlines(text) })
            }
            Err(error) => {
                let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
                let line = valid.split(|&b| b == b'\n').count();
                Err(miette!("{name}: line {line}: the input is not UTF-8 text"))
            }
        }
    }

    /// Attaches this source to a library error, so that the report shows the
    /// file name and the offending line, with the lines around it. Unless
    /// one of those lines is longer than [`SHOWN_LINE`], or holds a
    /// character that acts on the terminal (other than a tab): a snippet of
    /// a million-character line, underlined, would bury the message, and a
    /// stray escape or NUL byte would garble the terminal. The message already names the file, the
    /// line and the column, and quotes the start of the offending text with
    /// its control characters escaped.
    pub fn error(&self, error: impl miette::Diagnostic + Send + Sync + 'static) -> miette::Report {
        let at = error.labels().and_then(|mut labels| labels.next()).map(|label| label.offset());
        let unshowable = at.is_some_and(|at| {
            let lines = self.lines_around(at);
            lines.split('\n').any(|line| line.len() > SHOWN_LINE)
                || lines.contains(|c| c != '\t' && c != '\n' && crabdice::acts_on_terminal(c))
        });
        if unshowable {
            miette::Report::new(Unshown { name: self.name.clone(), error })
        } else {
            miette::Report::new(error)
                .with_source_code(NamedSource::new(&self.name, self.text.clone()))
        }
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

/// The longest line shown under an error message, in bytes.
const SHOWN_LINE: usize = 500;

/// An error whose lines are too long to show: the message names the file
/// instead, and keeps the error's code and help.
#[derive(Debug)]
struct Unshown<E> {
    name: String,
    error: E,
}

impl<E: fmt::Display> fmt::Display for Unshown<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

impl<E: miette::Diagnostic> std::error::Error for Unshown<E> {}

impl<E: miette::Diagnostic> miette::Diagnostic for Unshown<E> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.code()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.help()
    }
}

/// Every line end as `\n`: old Mac files end lines with a lone `\r`, which
/// the parsers would not see as one. Both the parsers and the error
/// snippets read the result, so their lines and columns agree.
fn newlines(text: String) -> String {
    if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n") } else { text }
}
