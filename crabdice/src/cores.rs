//! # Work spread over the machine's cores
//!
//! Both games have work that splits into independent pieces: Recursive
//! Combat speculates on sub-games on a second core, and Dirac Dice counts
//! each player alone before the players' counts are combined. This module
//! says how many cores there are (asked once) and maps a function over a
//! list on up to that many threads: each thread takes the next item from
//! the shared list, so a slow item does not hold up the others, and the
//! results come back in the items' order. The calling thread works too;
//! a thread that cannot be started leaves its share to the others, so the
//! map never fails for want of threads.

use std::sync::{Mutex, OnceLock, PoisonError};

/// The cores this process may use (asked once: on Linux, the answer comes
/// from reading the process's control-group limits).
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Whether the machine has a second core.
pub(crate) fn second_core() -> bool {
    cores() >= 2
}

/// `items.into_iter().map(each).collect()`, on up to `threads` threads (no
/// more than the cores or the items). A panic in `each` is passed on.
pub(crate) fn map<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    each: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(cores()).min(items.len());
    if threads < 2 {
        return items.into_iter().map(each).collect();
    }
    // Each thread takes the next item while the lock is held, and works on
    // it without.
    let next = Mutex::new(items.into_iter().enumerate());
    let work = || {
        let mut done = Vec::new();
        loop {
            let item = next.lock().unwrap_or_else(PoisonError::into_inner).next();
            let Some((index, item)) = item else { break };
            done.push((index, each(item)));
        }
        done
    };
    let mut done = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("crabdice-helper".to_owned())
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        let mut done = work();
        for helper in helpers {
            match helper.join() {
                Ok(theirs) => done.extend(theirs),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_unstable_by_key(|&(index, _)| index);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_in_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let expected: Vec<u64> = items.iter().map(|n| n * n).collect();
        for threads in [0, 1, 2, 3, 64] {
            assert_eq!(map(items.clone(), threads, |n| n * n), expected, "{threads} threads");
        }
        assert_eq!(map(vec![(); 5], 2, |()| 7), [7; 5]);
        assert!(map(Vec::<u8>::new(), 2, |n| n).is_empty());
    }

    #[test]
    fn a_slow_item_leaves_the_rest_to_other_threads() {
        let items: Vec<u64> = (0..40).collect();
        let threads: Vec<_> = map(items, 2, |n| {
            if n == 0 {
                // Long enough for the other thread to start, even on a
                // loaded machine.
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            std::thread::current().id()
        });
        if second_core() {
            // The first item's thread is busy while the others take the rest.
            assert!(threads[1..].iter().any(|&id| id != threads[0]));
        }
    }
}
