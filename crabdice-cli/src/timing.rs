//! `--time`: how long a part's solver takes, input already parsed.
//!
//! The solver runs at least [`MIN_RUNS`] times and until [`MIN_TOTAL`] has
//! passed; the median run is reported, which shrugs off the odd slow run
//! on a noisy machine.

use std::time::{Duration, Instant};

const MIN_RUNS: usize = 11;
const MIN_TOTAL: Duration = Duration::from_millis(300);

/// The median time of `solve`.
pub fn median(mut solve: impl FnMut()) -> Duration {
    let mut runs = Vec::with_capacity(MIN_RUNS);
    let start = Instant::now();
    while runs.len() < MIN_RUNS || start.elapsed() < MIN_TOTAL {
        let run = Instant::now();
        solve();
        runs.push(run.elapsed());
    }
    middle(&mut runs)
}

/// The middle of `runs` in order (the later of the two middle ones for an
/// even count). `runs` is not empty.
fn middle(runs: &mut [Duration]) -> Duration {
    runs.sort_unstable();
    runs[runs.len() / 2]
}

/// A duration with three significant digits: `850 ns`, `12.3 µs`, `1.05 ms`.
pub fn format(duration: Duration) -> String {
    let nanos = duration.as_secs_f64() * 1e9;
    let (value, unit) = if nanos < 1e3 {
        (nanos, "ns")
    } else if nanos < 1e6 {
        (nanos / 1e3, "µs")
    } else if nanos < 1e9 {
        (nanos / 1e6, "ms")
    } else {
        (nanos / 1e9, "s")
    };
    let decimals = if value >= 100.0 || unit == "ns" {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_three_significant_digits() {
        assert_eq!(format(Duration::from_nanos(850)), "850 ns");
        assert_eq!(format(Duration::from_nanos(12_345)), "12.3 µs");
        assert_eq!(format(Duration::from_micros(1_049)), "1.05 ms");
        assert_eq!(format(Duration::from_millis(2_500)), "2.50 s");
    }

    /// The solver runs at least 11 times and for at least 0.3 s in all
    /// (both lower bounds, whatever the machine: the loop stops at neither
    /// alone).
    #[test]
    fn the_solver_runs_11_times_and_for_300_ms_at_least() {
        let (mut calls, started) = (0, Instant::now());
        median(|| calls += 1);
        assert!(calls >= MIN_RUNS, "{calls} runs");
        assert!(started.elapsed() >= MIN_TOTAL, "{:?}", started.elapsed());
    }

    /// The run reported is the middle one in order, whatever order the
    /// runs came in: one slow run (the first, on a cold cache) does not
    /// move it.
    #[test]
    fn the_middle_run_is_reported() {
        let ms = Duration::from_millis;
        let mut runs = [ms(50), ms(3), ms(1), ms(4), ms(2)];
        assert_eq!(middle(&mut runs), ms(3));
        let mut runs = [ms(9), ms(1), ms(8), ms(2)];
        assert_eq!(middle(&mut runs), ms(8));
        assert_eq!(middle(&mut [ms(7)]), ms(7));
    }
}
