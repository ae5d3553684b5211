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
}
