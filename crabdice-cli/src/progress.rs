//! Progress on standard error for long games.
//!
//! A status line appears only when standard error is a terminal and a game
//! has been running for a while (the library reports every few million
//! rounds); piped or redirected runs stay silent, so scripts and snapshots
//! see only the answer. The line is redrawn in place and erased at the end.
//!
//! This is a dozen lines rather than a progress-bar crate on purpose: the
//! crates tried pull in floating-point formatting from `libm`, a second
//! shared library whose loading alone costs about 70 µs at every start, a
//! tenth of a whole `crabdice solve` on a puzzle input.

use std::io::{IsTerminal, Write};
use std::time::Instant;

/// A status line that shows rounds played, drawn from the first report on.
pub struct Progress {
    label: String,
    started: Instant,
    shown: bool,
}

impl Progress {
    /// A status line for `label` (a file and part), not yet shown.
    pub fn new(label: String) -> Self {
        Self { label, started: Instant::now(), shown: false }
    }

    /// Reports that `rounds` rounds have been played. Short games (the
    /// library's final report comes early) show nothing.
    pub fn tick(&mut self, rounds: u64) {
        if rounds < crabdice::PROGRESS_INTERVAL || !std::io::stderr().is_terminal() {
            return;
        }
        self.shown = true;
        let seconds = self.started.elapsed().as_secs();
        let _ = write!(
            std::io::stderr(),
            "\r\x1b[2K{}: {rounds} rounds played in {seconds} s (bound the work with --max-rounds or --max-time)",
            self.label
        );
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}
