//! # Speculation: a second core plays ahead
//!
//! A heavy Recursive Combat deal spends nearly all of its time in a few long
//! sub-games, one after the other: a game cannot go on until the sub-game in
//! hand has a winner. A second thread (the *helper*) guesses that winner and
//! plays the game on from there, into the sub-games that follow; whatever it
//! finishes, the main thread finds done when it gets there.
//!
//! ## Why it is exact
//!
//! A sub-game's winner depends on its deal alone. The threads share one
//! table from a sub-game's deal (both decks, card for card) to its winner,
//! and a winner is put in it only by playing that sub-game to its end with
//! the ordinary engine. The main thread plays its games round by round as it
//! would alone, and takes a winner from the table only for a deal *exactly*
//! equal to the one it holds. A wrong guess therefore costs only wasted
//! work, never a wrong answer: a sub-game met on a guessed path is a real
//! sub-game of *some* deal, and its winner is right for that deal. The
//! same holds for each thread's table of long sub-games (module `recall`),
//! which every frame the thread plays shares, the helper's from one job to
//! the next: with a table for each frame, deals built to nest were learned
//! again in every frame, and two threads took up to 14 times as long as
//! one.
//!
//! ## Who plays what
//!
//! Work is shared through the table's entries: a deal is `Playing` while one
//! thread plays it, `Won` once it has a winner.
//!
//! * Every [`LOOK_INTERVAL`] rounds, while the helper is idle, the main
//!   thread looks for the outermost of its games whose current sub-game has
//!   run for [`SPECULATE_AFTER`] rounds. It claims that sub-game, and gives
//!   the helper a *job*: the game's state after that round, assuming the
//!   winner [`Key::likely_winner`] guesses. From then on, that game's
//!   sub-games go through the table, and each one the main thread claims
//!   becomes a job too if the helper is idle.
//! * The guess is the sub-game's parity: player 1 if it has an odd number
//!   of cards, player 2 if even. A long sub-game of an odd number of cards
//!   nearly always ends in a see-saw (module `seesaw`, whose shape needs an
//!   odd number), so by repetition, which player 1 wins; one of an even
//!   number nearly always ends with player 1's deck empty. Of the 6,914
//!   sub-games that ran past [`SPECULATE_AFTER`] rounds in 16,000 seeded
//!   25 + 25 deals, the parity was wrong on 2, where always guessing player
//!   1 was wrong on 1,801 (26%). Of the 60,263 that ran past 1,024 rounds
//!   in the first 3,000 of those deals, it was wrong on 258 (0.4%). It
//!   replaced that guess (player 1 always, as long sub-games mostly end by
//!   repetition) and made two threads 5–11% faster on the corpus's three
//!   heaviest deals.
//! * The helper plays the job's game (a *frame*), claiming and playing each
//!   of its sub-games that nobody has claimed.
//! * A thread that meets a sub-game the other is playing does not wait: it
//!   plays ahead past it in a nested frame, again guessing by parity, and
//!   returns at the nested frame's next sub-game once the awaited one is
//!   decided. So the threads leapfrog along the game. Without this, the
//!   thread that catches up would idle while the other finishes (in a
//!   model of the top game's sub-games on the corpus's four heaviest deals,
//!   engine rounds and no overheads, guessing player 1 always, two threads
//!   would then take 73–88% of one's time instead of 53–68%).
//! * A frame stops as soon as one of its guesses is refuted (the sub-game
//!   was won by the other player, or abandoned): its budget asks every
//!   [`HALT_CHECK_INTERVAL`](super::HALT_CHECK_INTERVAL) rounds. A sub-game
//!   abandoned half-way loses its claim, so nobody waits for it; that
//!   includes one abandoned by a panic unwinding through it (the claim is
//!   given up by a drop guard).
//!
//! ## When it runs
//!
//! Only for deals heavy enough to pay for a thread: the helper starts the
//! first time a sub-game has run for [`SPECULATE_AFTER`] rounds, so most
//! deals never see it. Only without limits: the rounds counted against a
//! round limit must not depend on which thread got where first. Only with
//! [`Limits::max_threads`](super::Limits::max_threads) of two or more, and
//! where the machine has a second core: the helper asks that itself, as
//! the first time in a process the answer comes from reading the
//! control-group limits (45-85 µs here), and stops at once on one core.
//!
//! The main thread joins the helper when done only if it has started to
//! run ([`Shared::arrive`]). In a fresh process, this machine's idle
//! second core can take a millisecond or more to wake, and deals just
//! heavy enough to start the helper were often done before it ran.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread::Thread;

use rustc_hash::FxHashMap;

/// Rounds a sub-game must have been played for before the helper is given
/// its game past it: about a tenth of a millisecond, against 35 µs to start
/// a thread here. Most puzzle-shaped deals never get there. (On 3,000 seeded
/// deals, 2^14, 2^13 and 2^12 were 3%, 8% and 17% slower in all: too many
/// deals paid for a thread that had too little left to do.)
pub(super) const SPECULATE_AFTER: u64 = 1 << 15;

/// The fewest cards a deal must have for the helper to be made ready: a
/// smaller deal is played without it, saving the setup (the shared table
/// behind an `Arc`, and the state of the speculation, about 400
/// instructions: a fifth of a 1 + 1 deal's, 6% of the puzzle's example). Its sub-games have at most 18 cards, and
/// none comes near [`SPECULATE_AFTER`]: in 200,000 seeded deals each, the
/// most rounds of all games together were 2,055 for 8 + 8 cards and 6,949
/// for 10 + 10 (19,155 for 12 + 12). Were one to get there, it would only
/// be played without help, as with one thread.
pub(super) const SPECULATE_FROM_CARDS: usize = 21;

/// How often, in rounds, the main thread looks for a long sub-game to
/// play past.
pub(super) const LOOK_INTERVAL: u64 = 1 << 12;

/// Most frames nested in one thread. A frame that would nest deeper waits
/// for the sub-game instead.
pub(super) const MAX_NESTING: usize = 2;

/// Most cards the table's keys may hold together. Past this, the decided
/// sub-games are forgotten (those being played are kept), so memory stays
/// bounded however long the top game runs.
const MAX_TABLE_CARDS: usize = 1 << 20;

/// A sub-game's deal: both decks, card for card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key<C> {
    /// Player 1's cards are `cards[..split]`.
    split: usize,
    cards: Box<[C]>,
}

impl<C: Copy> Key<C> {
    /// The deal of player 1's cards `one` and player 2's `two`, each in
    /// up to two parts (as a ring holds them), copied slice by slice.
    pub(super) fn new(one: [&[C]; 2], two: [&[C]; 2]) -> Self {
        let split = one[0].len() + one[1].len();
        Self { split, cards: [one[0], one[1], two[0], two[1]].concat().into_boxed_slice() }
    }

    /// Player 1's number of cards, and the number of both.
    pub(super) fn sizes(&self) -> [usize; 2] {
        [self.split, self.cards.len()]
    }

    /// The highest card of the deal (of an empty deal, the default card).
    pub(super) fn highest(&self) -> C
    where
        C: Ord + Default,
    {
        self.cards.iter().copied().max().unwrap_or_default()
    }

    /// The guess for a sub-game that has run long: player 1 (index 0) if
    /// it has an odd number of cards, else player 2 (why, and how often it
    /// is right: the module docs).
    pub(super) fn likely_winner(&self) -> usize {
        usize::from(self.cards.len().is_multiple_of(2))
    }
}

/// A sub-game's entry in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A thread is playing it, under this claim.
    Playing(Ticket),
    /// It was played to its end: this player (0 or 1) won.
    Won(usize),
}

/// One claim on a sub-game, told apart from every other claim: only the
/// claim's holder may give it up. (Decided sub-games are forgotten when the
/// table fills, so a deal one thread settled may be claimed again by the
/// other; a late [`Shared::abandon`] of the first claim must not drop the
/// second.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ticket(u64);

/// What [`Shared::claim`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Claim {
    /// Nobody had it: it is now the caller's to play, under this ticket.
    Claimed(Ticket),
    /// Another thread is playing it.
    Playing,
    /// It was played: this player won.
    Won(usize),
}

/// A guess a frame made: that the sub-game with this deal is won by
/// `winner`.
#[derive(Debug, Clone)]
pub(super) struct Assumption<C> {
    pub(super) key: Key<C>,
    pub(super) winner: usize,
}

/// Work for the helper: play the top game on from `decks`, which follow
/// from the assumption.
#[derive(Debug)]
pub(super) struct Job<C> {
    pub(super) decks: [Vec<C>; 2],
    pub(super) assumption: Assumption<C>,
}

#[derive(Debug)]
struct Table<C> {
    entries: FxHashMap<Key<C>, Entry>,
    cards: usize,
    /// The number of claims made so far: the next claim's ticket.
    claims: u64,
}

/// What the threads share.
#[derive(Debug)]
pub(super) struct Shared<C> {
    table: Mutex<Table<C>>,
    job: Mutex<Option<Job<C>>>,
    /// The helper, to wake it when a job is posted.
    helper: Mutex<Option<Thread>>,
    /// Whether the helper is waiting for a job.
    idle: AtomicBool,
    /// Set by a helper that found no second core to run on, and stopped.
    gone: AtomicBool,
    /// Whether a job is waiting for the helper.
    waiting: AtomicBool,
    /// Set when the main thread has its answer (or gave up): everything
    /// stops.
    finished: AtomicBool,
    /// Set by the helper as the first thing it does: from then on the main
    /// thread joins it when done (see [`Shared::arrive`]).
    started: AtomicBool,
    /// Rounds a sub-game must take, its own sub-games' included, for a
    /// frame playing ahead to remember its winner (module `recall`): the
    /// main thread's [`Budget::remember_after`](super::Budget), which only
    /// tests lower (to remember every sub-game on both threads).
    pub(super) remember_after: u64,
    /// Tests set this to make the helper panic at its next claim.
    #[cfg(test)]
    pub(super) panic_in_helper: AtomicBool,
    /// Tests set this to make the main thread wait, once, for the helper
    /// to take the first job it posts ([`Shared::hold_for_helper`]).
    #[cfg(test)]
    pub(super) hold_for_helper: AtomicBool,
    /// What the threads did, for tests that must see it happen.
    #[cfg(test)]
    pub(super) events: Events,
}

/// What the threads did, counted for tests: a test of speculation that
/// never saw the helper play, or a guess refuted, would pass for nothing.
#[cfg(test)]
#[derive(Debug, Default)]
pub(super) struct Events {
    /// Jobs the helper played (to their end, or until halted).
    pub jobs: std::sync::atomic::AtomicU64,
    /// Sub-games the helper played to their end and settled.
    pub settled_by_helper: std::sync::atomic::AtomicU64,
    /// Frames played ahead past a sub-game the other thread was playing.
    pub nested: std::sync::atomic::AtomicU64,
    /// Winners taken from the table, played by the other thread (or
    /// earlier by the same one).
    pub from_table: std::sync::atomic::AtomicU64,
    /// Guesses found wrong, stopping the frames that rested on them.
    pub refuted: std::sync::atomic::AtomicU64,
    /// Winners a frame playing ahead took from its thread's table of long
    /// sub-games (module `recall`).
    pub recalled_ahead: std::sync::atomic::AtomicU64,
}

#[cfg(test)]
impl Events {
    /// Counts one event.
    pub fn count(event: &std::sync::atomic::AtomicU64) {
        event.fetch_add(1, Ordering::Relaxed);
    }

    /// The six counts, in the order of the fields.
    pub fn counts(&self) -> [u64; 6] {
        [
            &self.jobs,
            &self.settled_by_helper,
            &self.nested,
            &self.from_table,
            &self.refuted,
            &self.recalled_ahead,
        ]
        .map(|event| event.load(Ordering::Relaxed))
    }
}

/// A lock, whether or not another thread panicked while holding it: every
/// update below leaves the data consistent at each step.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<C: Copy + Eq + std::hash::Hash> Shared<C> {
    /// Nothing shared yet; frames remember the sub-games that took
    /// `remember_after` rounds or more.
    pub(super) fn new(remember_after: u64) -> Self {
        Self {
            table: Mutex::new(Table { entries: FxHashMap::default(), cards: 0, claims: 0 }),
            job: Mutex::new(None),
            helper: Mutex::new(None),
            idle: AtomicBool::new(true),
            gone: AtomicBool::new(false),
            waiting: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            started: AtomicBool::new(false),
            remember_after,
            #[cfg(test)]
            panic_in_helper: AtomicBool::new(false),
            #[cfg(test)]
            hold_for_helper: AtomicBool::new(false),
            #[cfg(test)]
            events: Events::default(),
        }
    }

    /// If a test asked for it, waits once until the helper has taken the
    /// job just posted (or found no second core). Whether the helper runs
    /// at all before the main thread is done is otherwise a race, which a
    /// loaded machine can lose: then the helper does nothing, rightly, and
    /// a test of what it does sees nothing.
    #[cfg(test)]
    pub(super) fn hold_for_helper(&self) {
        if self.hold_for_helper.swap(false, Ordering::Relaxed) {
            while self.waiting.load(Ordering::Acquire) && !self.helper_gone() {
                std::thread::yield_now();
            }
        }
    }

    /// How many sub-games the table holds as being played, and as won.
    #[cfg(test)]
    pub(super) fn entries(&self) -> [usize; 2] {
        let table = lock(&self.table);
        let playing = table.entries.values().filter(|entry| matches!(entry, Entry::Playing(_)));
        let playing = playing.count();
        [playing, table.entries.len() - playing]
    }

    /// Whether this is the helper thread.
    #[cfg(test)]
    fn on_helper(&self) -> bool {
        lock(&self.helper).as_ref().is_some_and(|helper| helper.id() == std::thread::current().id())
    }

    /// Panics on the helper thread if a test asked for it.
    #[cfg(test)]
    pub(super) fn panic_if_helper(&self) {
        let armed = self.panic_in_helper.load(Ordering::Relaxed);
        assert!(!(self.on_helper() && armed), "a panic injected into the helper");
    }

    /// Claims the sub-game with this deal unless it is taken or decided.
    pub(super) fn claim(&self, key: &Key<C>) -> Claim {
        let mut table = lock(&self.table);
        match table.entries.get(key) {
            Some(Entry::Playing(_)) => Claim::Playing,
            Some(&Entry::Won(winner)) => Claim::Won(winner),
            None => {
                if table.cards + key.cards.len() > MAX_TABLE_CARDS {
                    table.entries.retain(|_, entry| matches!(entry, Entry::Playing(_)));
                    table.cards = table.entries.keys().map(|key| key.cards.len()).sum();
                }
                table.cards += key.cards.len();
                let ticket = Ticket(table.claims);
                table.claims += 1;
                table.entries.insert(key.clone(), Entry::Playing(ticket));
                Claim::Claimed(ticket)
            }
        }
    }

    /// Records the winner of a sub-game played to its end.
    pub(super) fn settle(&self, key: &Key<C>, winner: usize) {
        #[cfg(test)]
        if self.on_helper() {
            Events::count(&self.events.settled_by_helper);
        }
        let mut table = lock(&self.table);
        if let Some(entry) = table.entries.get_mut(key) {
            *entry = Entry::Won(winner);
        } else {
            table.cards += key.cards.len();
            table.entries.insert(key.clone(), Entry::Won(winner));
        }
    }

    /// Gives up the claim `ticket` on a sub-game that was not played to its
    /// end, unless the sub-game was decided or claimed again meanwhile.
    pub(super) fn abandon(&self, key: &Key<C>, ticket: Ticket) {
        let mut table = lock(&self.table);
        if table.entries.get(key) == Some(&Entry::Playing(ticket)) {
            table.entries.remove(key);
            table.cards -= key.cards.len();
        }
    }

    /// Whether a frame that made these guesses should stop: one is wrong
    /// (or its sub-game was abandoned, so it may never be decided), or the
    /// main thread has finished.
    pub(super) fn refuted(&self, assumptions: &[Assumption<C>]) -> bool {
        self.refuted_or_decided(assumptions, None)
    }

    /// Whether [`Shared::refuted`], or the sub-game `past` is no longer
    /// being played: both under one lock.
    pub(super) fn refuted_or_decided(
        &self,
        assumptions: &[Assumption<C>],
        past: Option<&Key<C>>,
    ) -> bool {
        if self.finished.load(Ordering::Relaxed) {
            return true;
        }
        let table = lock(&self.table);
        let wrong = assumptions.iter().any(|guess| match table.entries.get(&guess.key) {
            Some(Entry::Playing(_)) => false,
            Some(&Entry::Won(winner)) => {
                let refuted = winner != guess.winner;
                #[cfg(test)]
                if refuted {
                    Events::count(&self.events.refuted);
                }
                refuted
            }
            None => true,
        });
        wrong || past.is_some_and(|key| !matches!(table.entries.get(key), Some(Entry::Playing(_))))
    }

    /// Whether the helper is waiting for a job.
    pub(super) fn helper_idle(&self) -> bool {
        self.idle.load(Ordering::Acquire)
    }

    /// Gives the helper a job (replacing one it has not taken yet).
    pub(super) fn post(&self, job: Job<C>) {
        let mut slot = lock(&self.job);
        *slot = Some(job);
        self.waiting.store(true, Ordering::Release);
        drop(slot);
        self.wake();
    }

    /// The helper's next job, if one was posted; the helper is busy from
    /// then until [`Shared::rest`].
    pub(super) fn take_job(&self) -> Option<Job<C>> {
        if !self.waiting.load(Ordering::Acquire) {
            return None;
        }
        // Under the lock, so that a job posted meanwhile is not forgotten.
        let mut slot = lock(&self.job);
        let job = slot.take();
        self.waiting.store(false, Ordering::Release);
        drop(slot);
        if job.is_some() {
            self.idle.store(false, Ordering::Release);
        }
        job
    }

    /// The helper is done with its job.
    pub(super) fn rest(&self) {
        self.idle.store(true, Ordering::Release);
    }

    /// The helper has started to run; false if the main thread had
    /// already finished, and the helper must do nothing at all.
    ///
    /// With [`Shared::finish`] and [`Shared::started`], a handshake: the
    /// main thread marks itself finished and then asks whether the helper
    /// started; the helper marks itself started and then asks whether the
    /// main thread finished, both in sequentially consistent order. So
    /// either the main thread sees a started helper, and joins it (which
    /// passes on any panic of its), or the helper sees the main thread
    /// finished, and stops before it has done anything. A helper that has
    /// not started is never waited for (why: the module docs).
    pub(super) fn arrive(&self) -> bool {
        self.started.store(true, Ordering::SeqCst);
        !self.finished.load(Ordering::SeqCst)
    }

    /// Whether the helper has started to run ([`Shared::arrive`]).
    pub(super) fn started(&self) -> bool {
        self.started.load(Ordering::SeqCst)
    }

    /// The helper stops for good: the machine has no second core.
    pub(super) fn leave(&self) {
        self.gone.store(true, Ordering::Release);
    }

    /// Whether the helper has stopped for good ([`Shared::leave`]).
    pub(super) fn helper_gone(&self) -> bool {
        self.gone.load(Ordering::Acquire)
    }

    /// Registers the helper thread, to be woken by [`Shared::post`].
    pub(super) fn register(&self, helper: Thread) {
        *lock(&self.helper) = Some(helper);
    }

    /// Stops every frame and the helper.
    pub(super) fn finish(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.wake();
    }

    pub(super) fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    fn wake(&self) {
        if let Some(helper) = &*lock(&self.helper) {
            helper.unpark();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(cards: usize, first: u8) -> Key<u8> {
        Key::new([&[first], &[]], [&vec![0; cards - 1], &[]])
    }

    /// A deal settled by one thread, forgotten when the table fills, and
    /// claimed again by the other: the first claim's late abandon (a frame
    /// refuted after all) must leave the second claim alone, or a third
    /// claimant would play the deal again beside its holder.
    #[test]
    fn only_a_claims_holder_can_give_it_up() {
        let shared = Shared::new(super::super::recall::REMEMBER_AFTER);
        let deal = key(2, 1);
        let Claim::Claimed(first) = shared.claim(&deal) else { panic!("a fresh deal is free") };
        shared.settle(&deal, 0);
        assert_eq!(shared.claim(&deal), Claim::Won(0));
        // A claim as large as the table makes the next one forget every
        // decided deal.
        let filler = key(MAX_TABLE_CARDS, 2);
        assert!(matches!(shared.claim(&filler), Claim::Claimed(_)));
        let Claim::Claimed(second) = shared.claim(&deal) else {
            panic!("the settled deal was forgotten")
        };
        assert_ne!(first, second);
        shared.abandon(&deal, first);
        assert_eq!(
            shared.claim(&deal),
            Claim::Playing,
            "the second claim survives the first's abandon"
        );
        assert!(!shared.refuted_or_decided(&[], Some(&deal)));
        shared.abandon(&deal, second);
        assert!(shared.refuted_or_decided(&[], Some(&deal)), "its holder gives it up");
        assert!(matches!(shared.claim(&deal), Claim::Claimed(_)));
    }
}
