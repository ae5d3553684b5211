//! Why a run failed, and how that is shown.
//!
//! Errors go to standard error through [miette], which shows the file, the
//! line and a label under the offending text; standard output stays empty.
//! The message comes first, without the error's code above it.
//! A closed standard output (`crabdice ... | head`) is not an error: the run
//! simply stops, quietly.

use std::io::{self, Write};
use std::process::ExitCode;

use crate::cli::Output;

/// What the error of `part` adds when `output` asks for both parts: how
/// to have the other part alone, as nothing is printed when a part fails.
/// Part 1 was answered before part 2 failed; part 2 is not played once
/// part 1 has failed.
pub fn other_part_alone(part: u8, output: Output) -> Option<&'static str> {
    match part {
        _ if output.part.is_some() => None,
        1 => Some("for part 2 alone, add --part 2"),
        _ => Some("for part 1 alone, add --part 1"),
    }
}

/// A run that did not finish.
#[derive(Debug)]
pub enum Failure {
    /// Something to tell the user.
    Error(miette::Report),
    /// Standard output was closed by its reader.
    ClosedOutput,
}

impl Failure {
    /// Prints the failure and returns the exit status: 1 for errors, 0 for a
    /// closed pipe (the reader asked for no more).
    pub fn report(self) -> ExitCode {
        match self {
            Self::Error(report) => {
                show(&report);
                ExitCode::from(1)
            }
            Self::ClosedOutput => ExitCode::SUCCESS,
        }
    }
}

/// Prints an error on standard error, as miette renders it. Not
/// `eprintln!`, which panics when standard error is closed: the exit status
/// still tells the story.
pub fn show(report: &miette::Report) {
    let _ = writeln!(io::stderr(), "{report:?}");
}

/// miette's report of an error, without the error's code (`crabdice::parse`)
/// on a line of its own above the message: the first line of standard error
/// is then the message, which names the file, the line and the problem, for
/// a script that keeps only that line (`2>&1 | head -1`). The library's
/// errors keep their codes, for programs that match on them.
pub struct Uncoded(pub Box<dyn miette::ReportHandler>);

impl miette::ReportHandler for Uncoded {
    fn debug(
        &self,
        error: &dyn miette::Diagnostic,
        f: &mut std::fmt::Formatter<'_>,
    ) -> std::fmt::Result {
        self.0.debug(&Codeless(error), f)
    }
}

/// An error shown without its code; everything else is its own.
struct Codeless<'a>(&'a dyn miette::Diagnostic);

impl std::fmt::Debug for Codeless<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0, f)
    }
}

impl std::fmt::Display for Codeless<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.0, f)
    }
}

impl std::error::Error for Codeless<'_> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl miette::Diagnostic for Codeless<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.0.help()
    }
    fn url<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.0.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.0.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        self.0.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn miette::Diagnostic> {
        self.0.diagnostic_source()
    }
}

/// Prints `note: {message}` on standard error: something the user should
/// know about a run that still succeeds. Not `eprintln!`, which panics when
/// standard error is closed.
pub fn note(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "note: {message}");
}

impl From<miette::Report> for Failure {
    fn from(report: miette::Report) -> Self {
        Self::Error(report)
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Self::ClosedOutput
        } else {
            Self::Error(miette::miette!("cannot write the output: {error}"))
        }
    }
}

/// A library error shown with the command line's help in place of the
/// library's: the library names what to change by its own fields
/// (`DiceRules::target`, `DiracLimits::max_work`), the command line by its
/// flags (`--target`, `--max-work`). Everything else (message, code,
/// labels, source) is the error's own.
#[derive(Debug)]
pub struct Helped<E> {
    /// The library's error.
    pub error: E,
    /// What to do about it, in the command line's terms.
    pub help: String,
}

impl<E: std::fmt::Display> std::fmt::Display for Helped<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl<E: miette::Diagnostic> std::error::Error for Helped<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

impl<E: miette::Diagnostic> miette::Diagnostic for Helped<E> {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.error.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.error.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }
    fn url<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.error.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.error.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.error.labels()
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        self.error.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn miette::Diagnostic> {
        self.error.diagnostic_source()
    }
}
