//! Progress on standard error for long games.
//!
//! A status line appears only when standard error is a terminal and a game
//! has been running for a while (the library reports every few million
//! rounds); piped or redirected runs stay silent, so scripts and snapshots
//! see only the answer. The line is redrawn in place and erased at the end.
//!
//! This is a few dozen lines rather than a progress-bar crate on purpose: the
//! crates tried pull in floating-point formatting from `libm`, a second
//! shared library whose loading alone costs about 70 µs at every start, a
//! tenth of a whole `crabdice solve` on a puzzle input.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use crabdice::Limits;

/// A status line that shows rounds played, drawn from the first report on.
pub struct Progress {
    label: String,
    /// The limits in force, or how to set them.
    bounds: String,
    started: Instant,
    shown: bool,
}

impl Progress {
    /// A status line for `label` (a file and part) played within `limits`,
    /// not yet shown.
    pub fn new(label: String, limits: &Limits) -> Self {
        Self { label, bounds: bounds(limits), started: Instant::now(), shown: false }
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
            "\r\x1b[2K{}: {rounds} rounds played in {seconds} s ({})",
            self.label,
            self.bounds
        );
    }
}

/// What the status line says of the limits: those in force, else how to
/// set one.
fn bounds(limits: &Limits) -> String {
    let rounds =
        (limits.max_rounds != u64::MAX).then(|| format!("past {} rounds", limits.max_rounds));
    let time = limits.max_time.map(|time| format!("after {time:?}"));
    match (rounds, time) {
        (None, None) => "bound the work with --max-rounds or --max-time".to_owned(),
        (Some(rounds), Some(time)) => format!("gives up {rounds} or {time}"),
        (Some(limit), None) | (None, Some(limit)) => format!("gives up {limit}"),
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_status_line_names_the_limits_in_force_or_how_to_set_them() {
        let none = Limits::default();
        assert_eq!(bounds(&none), "bound the work with --max-rounds or --max-time");
        let rounds = Limits { max_rounds: 5_000_000, ..none };
        assert_eq!(bounds(&rounds), "gives up past 5000000 rounds");
        let time = Limits { max_time: Some(Duration::from_millis(2500)), ..none };
        assert_eq!(bounds(&time), "gives up after 2.5s");
        let both = Limits { max_time: Some(Duration::from_secs(30)), ..rounds };
        assert_eq!(bounds(&both), "gives up past 5000000 rounds or after 30s");
    }
}
