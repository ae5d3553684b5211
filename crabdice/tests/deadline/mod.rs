//! A watchdog for tests that play games to their end. An engine that misses
//! a repeated state plays a repeating game forever, and a test that plays it
//! without a round limit would hang the whole run (until CI's own timeout,
//! naming nothing). A round limit is no cure: it changes what is tested (a
//! limited game never speculates on a second thread). So a check holds a
//! [`Deadline`] instead: a thread that waits on a channel for the check to
//! end, and if [`LIMIT`] passes first, writes which check ran long to the
//! real stderr (past the harness's capture) and ends the process with a
//! failure. Dropping the deadline closes the channel, which wakes the thread,
//! and it exits.

#![allow(dead_code)]

use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long one check may run. The largest take a second or two in a debug
/// build; the margin is for a busy CI machine.
pub const LIMIT: Duration = Duration::from_mins(2);

/// Ends the process with a failure unless dropped within its time.
#[must_use = "the deadline watches only while it is held"]
pub struct Deadline {
    _held: Sender<()>,
}

impl Deadline {
    /// Watches a check named `what` for [`LIMIT`].
    pub fn new(what: &str) -> Self {
        Self::within(what, LIMIT)
    }

    /// Watches a check named `what` for `limit`.
    pub fn within(what: &str, limit: Duration) -> Self {
        let (held, dropped) = mpsc::channel::<()>();
        let what = what.to_owned();
        std::thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = dropped.recv_timeout(limit) {
                // `eprintln!` would go to the harness's capture, which a
                // process that exits never prints.
                let _ = writeln!(
                    std::io::stderr(),
                    "{what}: still playing after {limit:?}; an engine that misses a \
                     repeated state plays forever, so the test run stops here"
                );
                std::process::exit(1);
            }
        });
        Deadline { _held: held }
    }
}

#[cfg(test)]
mod tests {
    use super::Deadline;
    use std::process::{Command, Output};
    use std::time::Duration;

    /// Set in the environment of the child processes below, so that a run
    /// of every ignored test (`cargo test -- --ignored`, to include the
    /// slow ones) does not run the overrunning check in its own process,
    /// which it would end.
    const CHILD: &str = "CRABDICE_DEADLINE_CHILD";

    /// Runs one of the ignored tests below in a child process: this test
    /// binary, asked for that test alone.
    fn child(test: &str) -> Output {
        let exe = std::env::current_exe().expect("the test binary");
        // This module's path without the crate's name, as the harness names
        // tests: it is included by more than one test crate.
        let module = module_path!().split_once("::").expect("inside a crate").1;
        let name = format!("{module}::{test}");
        Command::new(exe)
            .args(["--ignored", "--exact", &name])
            .env(CHILD, "1")
            .output()
            .expect("runs")
    }

    /// Whether this process is one of `child`'s; the tests below do their
    /// part only there, as the test above checks what they do.
    fn in_child() -> bool {
        std::env::var_os(CHILD).is_some()
    }

    #[test]
    fn a_check_that_overruns_its_deadline_ends_the_run_with_a_failure_naming_it() {
        let overrun = child("overrunning_check");
        let stderr = String::from_utf8_lossy(&overrun.stderr);
        assert_eq!(overrun.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("an overrunning check: still playing after 200ms"), "{stderr}");
        let in_time = child("check_that_ends_in_time");
        assert!(in_time.status.success(), "{}", String::from_utf8_lossy(&in_time.stderr));
    }

    #[test]
    #[ignore = "a child process of the test above"]
    fn overrunning_check() {
        if !in_child() {
            return;
        }
        let _deadline = Deadline::within("an overrunning check", Duration::from_millis(200));
        std::thread::sleep(Duration::from_secs(20));
    }

    #[test]
    #[ignore = "a child process of the test above"]
    fn check_that_ends_in_time() {
        if !in_child() {
            return;
        }
        drop(Deadline::within("a quick check", Duration::from_millis(200)));
        std::thread::sleep(Duration::from_secs(1));
    }
}
