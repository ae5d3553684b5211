//! Progress on standard error for long games.
//!
//! A spinner appears only when standard error is a terminal and a game has
//! been running for a while (the library reports every few million rounds);
//! piped or redirected runs stay silent, so scripts and snapshots see only
//! the answer.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner that shows rounds played, created at the first tick.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
}

impl Progress {
    /// A spinner for `label` (a file and part), not yet shown.
    pub fn new(label: String) -> Self {
        Self { bar: None, label }
    }

    /// Reports that `rounds` rounds have been played. Short games (the
    /// library's final report comes early) show nothing.
    pub fn tick(&mut self, rounds: u64) {
        if rounds < crabdice::PROGRESS_INTERVAL {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        bar.set_message(format!(
            "{}: {rounds} rounds played (bound the work with --max-rounds)",
            self.label
        ));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
