//! Why a run failed, and how that is shown.
//!
//! Errors go to standard error through [miette], which shows the file, the
//! line and a label under the offending text; standard output stays empty.
//! A closed standard output (`crabdice ... | head`) is not an error: the run
//! simply stops, quietly.

use std::io::{self, Write};
use std::process::ExitCode;

/// What an error of part 2 adds when both parts ran: part 1 was answered,
/// but nothing is printed when a part fails.
pub const PART_ONE_ALONE: &str = "for part 1 alone, add --part 1";

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
