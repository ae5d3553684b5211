//! # Playing ahead: the engine's side of speculation
//!
//! Module `speculate` says how two threads share sub-games, and why that
//! is exact; this module is where the engine does it. The main thread
//! plays the deal as it would alone ([`speculating`]) and, every
//! [`LOOK_INTERVAL`](speculate::LOOK_INTERVAL) rounds, looks for a game
//! whose sub-game has run long ([`look_for_long_sub_games`]): the first
//! time, it starts the helper thread ([`help`]); each time the helper is
//! idle, it claims that sub-game and posts the game past it, on a guessed
//! winner ([`guess_past`]), as a job. The helper plays each job as a *frame*
//! ([`play_ahead`]): a top game of its own, over the same engine, whose
//! budget halts it once one of its guesses is refuted.
//!
//! From then on, the sub-games of a shared game go through the table
//! ([`shared_winner`]): a winner is taken from it, or the sub-game is
//! claimed, played and settled, or, while the other thread plays it, a
//! nested frame plays ahead past it on a guess of its winner until it is
//! decided.
//! Every winner either thread puts in the table, or in its own table of
//! long sub-games (module `recall`), comes from a sub-game played to its
//! end.

use std::cell::Cell;
use std::sync::Arc;

use crate::cores;

use super::super::deal::{Label, Labelled};
use super::super::passes::InRhythm;
use super::super::recall::Recall;
use super::super::speculate::{self, Assumption, Claim, Job, Key, Shared, Ticket};
use super::super::{Budget, Exhausted, HALTED, Held};
use super::{
    Answer, Context, Deck, Level, Slots, deal_key, play_deal, play_watched, recalled_or_played,
    stack_ahead, tops,
};

/// A frame's part in speculation (module `speculate`).
pub(super) struct Spec<'a, C> {
    pub(super) shared: &'a Shared<C>,
    /// The guesses this frame's top game follows from: none for the main
    /// thread's, whose top game is the real one.
    assumptions: Vec<Assumption<C>>,
    /// A nested frame plays ahead past this sub-game, and stops at its next
    /// sub-game once this one is decided.
    past: Option<Key<C>>,
    /// Frames this one is nested in.
    nesting: usize,
    /// The main thread's, until the helper is started: starts it (false if
    /// the thread could not be made). A helper that then finds no second
    /// core stops at once, and the main thread plays on alone.
    start: Option<&'a dyn Fn() -> bool>,
    /// The main thread's: when to look next for a long sub-game to play
    /// past (in rounds played).
    pub(super) next_look: u64,
    /// The main thread's: rounds a sub-game must have run for before the
    /// helper is given its game past it ([`speculate::SPECULATE_AFTER`]).
    after: u64,
}

impl<C: Label> Spec<'_, C> {
    /// Whether this is the main thread's frame: the only one that guessed
    /// nothing (every frame playing ahead follows from a guess).
    pub(super) fn main(&self) -> bool {
        self.assumptions.is_empty()
    }

    /// Whether the table is in use: not before the helper has started.
    fn active(&self) -> bool {
        self.start.is_none()
    }

    /// Whether a frame playing ahead should stop.
    fn should_stop(&self) -> bool {
        !self.main() && self.shared.refuted_or_decided(&self.assumptions, self.past.as_ref())
    }
}

/// The game on `decks` past its sub-game `key`, started by the cards `drawn`
/// on top, guessing its winner by [`Key::likely_winner`]: the guess of
/// every frame that plays ahead (module `speculate`).
fn guess_past<S: Slots>(
    decks: &[Deck<S>; 2],
    drawn: [S::Card; 2],
    key: Key<S::Card>,
) -> Job<S::Card> {
    let winner = key.likely_winner();
    // Copied slice by slice, with room for the pair the winner takes.
    let mut decks = decks.each_ref().map(|deck| {
        let mut cards = Vec::with_capacity(deck.len() + 1);
        for part in deck.slots.slices(deck.head + 1, deck.tail) {
            cards.extend_from_slice(part);
        }
        cards
    });
    decks[winner].extend([drawn[winner], drawn[winner ^ 1]]);
    Job { decks, assumption: Assumption { key, winner } }
}

/// The main thread, in a sub-game at `levels[depth + 1]`: if the helper is
/// idle and one of the games in play has been in its current sub-game for
/// long, hands the helper the outermost such game past that sub-game, which
/// the main thread claims (it settles it when done). Starts the helper the
/// first time.
pub(super) fn look_for_long_sub_games<S: Slots>(
    ctx: &mut Context<'_, '_, S>,
    levels: &mut [Level<S>],
    depth: usize,
) {
    let played = ctx.budget.played();
    let Some(spec) = &mut ctx.spec else { return };
    if spec.shared.helper_gone() {
        // No second core: play on alone.
        ctx.spec = None;
        return;
    }
    // (Every sub-game when testing with `after` = 0.)
    spec.next_look = played + speculate::LOOK_INTERVAL.min(spec.after);
    if spec.active() && !spec.shared.helper_idle() {
        return;
    }
    let Some(at) = levels[..depth]
        .iter()
        .position(|level| !level.posted && played - level.since >= spec.after)
    else {
        return;
    };
    if let Some(start) = spec.start.take()
        && !start()
    {
        ctx.spec = None;
        return;
    }
    let level = &mut levels[at];
    let drawn = tops(&level.decks);
    let key = deal_key(ctx.need, &level.decks, drawn);
    spec.shared.claim(&key);
    spec.shared.post(guess_past(&level.decks, drawn, key));
    (level.posted, level.shared) = (true, true);
    #[cfg(test)]
    spec.shared.hold_for_helper();
}

/// The winner of the sub-game dealt into `levels[depth + 1]`, through the
/// table shared with the other thread (module `speculate`): taken from it,
/// played and put in it, or, while the other thread plays it, waited for
/// by playing ahead past it.
pub(super) fn shared_winner<S: Slots, const SUB_GAMES: bool>(
    ctx: &mut Context<'_, '_, S>,
    levels: &mut Vec<Level<S>>,
    depth: usize,
    drawn: [S::Card; 2],
    cards: usize,
    highest: S::Card,
) -> Result<usize, Exhausted> {
    let key = deal_key(ctx.need, &levels[depth].decks, drawn);
    // Whether a nested frame has already played ahead past this sub-game
    // to its own end: then there is nothing left to do but wait.
    let mut ahead = false;
    loop {
        let Some(spec) = &ctx.spec else {
            return recalled_or_played::<S, SUB_GAMES>(ctx, levels, depth, cards, highest);
        };
        if spec.should_stop() {
            return Err(HALTED);
        }
        let (shared, main, nesting) = (spec.shared, spec.main(), spec.nesting);
        match shared.claim(&key) {
            Claim::Won(winner) => {
                #[cfg(test)]
                speculate::Events::count(&shared.events.from_table);
                return Ok(winner);
            }
            Claim::Claimed(ticket) => {
                if main && shared.helper_idle() {
                    shared.post(guess_past(&levels[depth].decks, drawn, key.clone()));
                    levels[depth].posted = true;
                }
                // Given up unless settled, even if a panic unwinds through
                // here, so that no thread waits for it forever.
                let claim = AbandonOnDrop { shared, key: &key, ticket };
                #[cfg(test)]
                shared.panic_if_helper();
                let winner = recalled_or_played::<S, SUB_GAMES>(ctx, levels, depth, cards, highest);
                if let Ok(winner) = winner {
                    shared.settle(&key, winner);
                    std::mem::forget(claim);
                }
                return winner;
            }
            Claim::Playing if nesting < speculate::MAX_NESTING && !ahead => {
                ahead = true;
                #[cfg(test)]
                speculate::Events::count(&shared.events.nested);
                let Job { decks, assumption } =
                    guess_past(&levels[depth].decks, drawn, key.clone());
                let mut assumptions = spec.assumptions.clone();
                assumptions.push(assumption);
                play_ahead::<S, SUB_GAMES>(
                    shared,
                    ctx.need,
                    ctx.recall,
                    &decks,
                    &assumptions,
                    Some(key.clone()),
                    nesting + 1,
                );
            }
            Claim::Playing => std::thread::yield_now(),
        }
    }
}

/// Plays a top game from `decks` in a frame of its own, ahead of the main
/// thread, sharing its sub-games through the table, until it ends or is
/// halted (module `speculate`). The thread's `recall` serves the frame
/// too: a frame on a wrong guess plays real sub-games of another deal,
/// whose winners are right wherever those sub-games come up.
fn play_ahead<S: Slots, const SUB_GAMES: bool>(
    shared: &Shared<S::Card>,
    need: &S::Table,
    recall: &mut Recall<S::Card>,
    decks: &[Vec<S::Card>; 2],
    assumptions: &[Assumption<S::Card>],
    past: Option<Key<S::Card>>,
    nesting: usize,
) {
    let halt = || shared.refuted(assumptions);
    let mut quiet = |_| {};
    let mut budget = Budget::halting(&halt, &mut quiet);
    budget.remember_after = shared.remember_after;
    let spec = Spec {
        shared,
        assumptions: assumptions.to_vec(),
        past,
        nesting,
        start: None,
        next_look: u64::MAX,
        after: u64::MAX,
    };
    let mut ctx = Context {
        need,
        budget: &mut budget,
        scratch: Default::default(),
        spec: Some(spec),
        held: Held::default(),
        recall,
    };
    let cards = decks[0].len() + decks[1].len();
    let mut level = Level::<S>::holding(decks[0].iter().copied(), decks[1].iter().copied(), cards);
    level.shared = true;
    // Whatever happens, the frame's work is in the table.
    let _ = play_watched::<S, SUB_GAMES>(&mut ctx, &mut vec![level], 0);
}

/// The helper thread: plays each job it is given, until the main thread
/// finishes, remembering long sub-games from one job to the next in
/// `recall`.
fn help<S: Slots, const SUB_GAMES: bool>(
    shared: &Shared<S::Card>,
    need: &S::Table,
    mut recall: Recall<S::Card>,
) {
    if !shared.arrive() {
        return;
    }
    // Asked here, not before the spawn: the first time in a process it
    // reads the control-group limits, 45-85 µs the main thread would wait.
    if !cores::second_core() {
        shared.leave();
        return;
    }
    shared.register(std::thread::current());
    while !shared.is_finished() {
        match shared.take_job() {
            Some(Job { decks, assumption }) => {
                let assumptions = [assumption];
                play_ahead::<S, SUB_GAMES>(
                    shared,
                    need,
                    &mut recall,
                    &decks,
                    &assumptions,
                    None,
                    0,
                );
                #[cfg(test)]
                speculate::Events::count(&shared.events.jobs);
                shared.rest();
            }
            None => std::thread::park_timeout(std::time::Duration::from_millis(1)),
        }
    }
}

/// Stops the helper when the main thread is done, however it got there.
struct FinishOnDrop<'a, C: Label>(&'a Shared<C>);

impl<C: Label> Drop for FinishOnDrop<'_, C> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Gives up a claim on a sub-game when dropped, unless it was settled.
struct AbandonOnDrop<'a, C: Label> {
    shared: &'a Shared<C>,
    key: &'a Key<C>,
    ticket: Ticket,
}

impl<C: Label> Drop for AbandonOnDrop<'_, C> {
    fn drop(&mut self) {
        self.shared.abandon(self.key, self.ticket);
    }
}

/// Plays the deal as [`solve_with`](super::solve_with) does, sharing
/// sub-games with a helper thread through `shared`, which starts the first
/// time a sub-game runs long.
///
/// The helper is joined only if it has started to run (see
/// [`Shared::arrive`]), which also passes on any panic of its; one that
/// has not is left to stop on its own. In a fresh process its core can take
/// a millisecond or more to wake: deals just heavy enough to start it were
/// often done first, and waited for it, 50-230 µs, only to stop it.
pub(super) fn speculating<S: Slots, const SUB_GAMES: bool, A: Answer>(
    labelled: &Labelled<'_>,
    budget: &mut Budget<'_>,
    need: &S::Table,
    shared: &Arc<Shared<S::Card>>,
    known: Option<InRhythm>,
) -> Result<A, Exhausted> {
    let (cards, max_memory) = (labelled.cards_in_deal(), budget.max_memory);
    let stack = stack_ahead(cards) + (1 << 20);
    let after = budget.speculate_after;
    let scratch = [Vec::new(), Vec::new()];
    let finish = FinishOnDrop(shared);
    let helper = Cell::new(None);
    let start = || {
        let (shared, need) = (Arc::clone(shared), need.clone());
        // The helper's own table: empty, so it allocates nothing until used.
        let recall = Recall::for_deal(cards, max_memory);
        let spawned = std::thread::Builder::new()
            .name("crabdice-helper".to_owned())
            .stack_size(stack)
            .spawn(move || help::<S, SUB_GAMES>(&shared, &need, recall))
            .ok();
        let made = spawned.is_some();
        helper.set(spawned);
        made
    };
    let spec = Spec {
        shared,
        assumptions: Vec::new(),
        past: None,
        nesting: 0,
        start: Some(&start),
        next_look: after,
        after,
    };
    let recall = &mut Recall::for_deal(cards, max_memory);
    let ctx = Context { need, budget, scratch, spec: Some(spec), held: Held::default(), recall };
    let answer = play_deal::<S, SUB_GAMES, A>(labelled, ctx, known);
    drop(finish);
    if let Some(helper) = helper.take()
        && shared.started()
        && let Err(panic) = helper.join()
    {
        std::panic::resume_unwind(panic);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::super::rings::{ByteRing, Ranked, Values};
    use super::super::tests::{deals, solved};
    use super::*;
    use crate::combat::recall;
    use crate::combat::{Limits, Outcome, Player};
    use proptest::prelude::*;

    /// Plays `labelled` speculating from its first sub-game on, through
    /// `shared`, with the main thread held until the helper has taken its
    /// first job: else, on a loaded machine, the helper may not run before
    /// the game is over, and a test of what it does sees nothing. Both
    /// threads remember sub-games after `shared`'s
    /// [`Shared::remember_after`] rounds.
    fn speculated_from_the_start<S: Slots>(
        labelled: &Labelled<'_>,
        need: &S::Table,
        shared: &Arc<Shared<S::Card>>,
    ) -> Result<Outcome, Exhausted> {
        shared.hold_for_helper.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut quiet = |_| {};
        let mut budget = Budget::new(Limits::default(), &mut quiet);
        budget.speculate_after = 0;
        budget.remember_after = shared.remember_after;
        speculating::<S, true, Outcome>(labelled, &mut budget, need, shared, None)
    }

    /// Plays 64 deals of 22 to 42 cards speculating from the first
    /// sub-game, with the main thread held until the helper has taken its
    /// first job, each thread remembering the winner of every sub-game
    /// that took `remember_after` rounds or more (module `recall`); checks
    /// every outcome against one thread's (itself checked against the
    /// reference engine in `tests/`), and returns the [`Events`] counted
    /// over them all. Deals of fewer than
    /// [`speculate::SPECULATE_FROM_CARDS`] cards never speculate.
    ///
    /// [`Events`]: speculate::Events
    fn speculated_deals(remember_after: u64) -> [u64; 6] {
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(64));
        let events = std::cell::Cell::new([0; 6]);
        runner
            .run(&deals(11..22), |deal| {
                prop_assert!(deal.cards() >= speculate::SPECULATE_FROM_CARDS);
                let _deadline = crate::deadline::Deadline::new(&format!("{deal:?}"));
                // Cards below 256 are their own labels, as the engine plays
                // these deals.
                let labelled = deal.labelled();
                prop_assert!(labelled.labels_are_values());
                let shared = Arc::new(Shared::new(remember_after));
                let speculated =
                    speculated_from_the_start::<ByteRing<Values>>(&labelled, &(), &shared);
                prop_assert_eq!(speculated, Ok(solved(&deal, u64::MAX)));
                let counts = shared.events.counts();
                events.set(std::array::from_fn(|i| events.get()[i] + counts[i]));
                Ok(())
            })
            .unwrap();
        events.get()
    }

    /// Speculating changes no outcome, and, over the 64 deals, the helper
    /// plays jobs and settles sub-games, and winners are taken from the
    /// table. (A frame that plays ahead past a sub-game the other thread is
    /// playing, and one whose guess is refuted, are rarer, and
    /// timing-bound: the tests
    /// `a_frame_on_a_refuted_guess_stops_and_gives_up_its_claims` and
    /// `a_sub_game_the_other_thread_plays_is_waited_for_not_guessed` set
    /// them up.)
    #[test]
    fn speculation_changes_no_outcome() {
        let [jobs, settled, _, from_table, _, _] = speculated_deals(recall::REMEMBER_AFTER);
        if cores::second_core() {
            assert!(
                jobs > 0 && settled > 0 && from_table > 0,
                "jobs {jobs}, settled by the helper {settled}, from the table {from_table}"
            );
        }
    }

    /// Speculating and remembering every sub-game on both threads changes
    /// no outcome: the frames the helper plays remember the sub-games
    /// they finish, and take winners from there. With the threshold of the
    /// engine (`2^15` rounds) no sub-game of these deals is remembered, so
    /// only this test and `frames_playing_ahead_share_their_threads_recall`
    /// check that frames do it.
    #[test]
    fn speculating_and_remembering_everything_changes_no_outcome() {
        let [jobs, .., recalled_ahead] = speculated_deals(0);
        if cores::second_core() {
            assert!(
                jobs > 0 && recalled_ahead > 0,
                "jobs {jobs}, winners frames took from their thread's table {recalled_ahead}"
            );
        }
    }

    /// A frame playing ahead on a guess that the table refutes stops at
    /// its first check and leaves no claim behind, where on a guess the
    /// table confirms it plays the game to its end: the corpus's heavy deal,
    /// played ahead past a sub-game settled for player 2, guessed won by
    /// one player and then the other.
    #[test]
    fn a_frame_on_a_refuted_guess_stops_and_gives_up_its_claims() {
        let text = include_str!("../../../benches/corpus/deal-2951.txt");
        let deal = crate::Deal::parse(text).expect("the corpus parses");
        let decks = [Player::One, Player::Two].map(|player| {
            deal.deck(player).iter().map(|&card| u8::try_from(card).expect("cards 1 to 50"))
        });
        let decks = decks.map(Iterator::collect::<Vec<u8>>);
        // Player 1 draws 3 over 3 more cards, player 2 draws 2 over 3.
        let (one, two) = ([3_u8, 9, 1, 5], [2_u8, 7, 4, 8]);
        let level = Level::<ByteRing<Values>>::holding(one.into_iter(), two.into_iter(), 8);
        let key = deal_key(&(), &level.decks, [3, 2]);
        let played = |guess: usize| {
            let shared = Shared::new(recall::REMEMBER_AFTER);
            shared.settle(&key, 1);
            let assumption = speculate::Assumption { key: key.clone(), winner: guess };
            let mut recall = Recall::for_deal(50, usize::MAX);
            let assumptions = [assumption];
            play_ahead::<ByteRing<Values>, true>(
                &shared,
                &(),
                &mut recall,
                &decks,
                &assumptions,
                None,
                0,
            );
            (shared.events.refuted.load(std::sync::atomic::Ordering::Relaxed), shared.entries())
        };
        // The frame is alone: it plays the same rounds every time.
        let (refuted, [playing, won_wrong]) = played(0);
        assert!(refuted > 0 && playing == 0, "{refuted} refuted, {playing} playing");
        let (refuted, [playing, won_right]) = played(1);
        assert!(refuted == 0 && playing == 0, "{refuted} refuted, {playing} playing");
        // Settled, past the one settled to start with: none before the
        // refuted frame's first check, and 238 to the game's end.
        assert_eq!(won_wrong, 1);
        assert!(won_right > 200, "{won_right}");
    }

    /// A job past a sub-game deals the round to the guessed winner
    /// ([`Key::likely_winner`]: player 1 for an odd number of cards, player
    /// 2 for an even one), its own card first.
    #[test]
    fn a_job_deals_the_round_to_the_guessed_winner() {
        let job = |one: &[u8], two: &[u8]| {
            let cards = one.len() + two.len();
            let (one_cards, two_cards) = (one.iter().copied(), two.iter().copied());
            let level = Level::<ByteRing<Values>>::holding(one_cards, two_cards, cards);
            let drawn = [one[0], two[0]];
            let job = guess_past(&level.decks, drawn, deal_key(&(), &level.decks, drawn));
            (job.assumption.winner, job.decks)
        };
        // A sub-game of 3 + 2 cards: odd, so player 1.
        assert_eq!(job(&[3, 9, 1, 5], &[2, 7, 4, 8]), (0, [vec![9, 1, 5, 3, 2], vec![7, 4, 8]]));
        // A sub-game of 2 + 4 cards: even, so player 2.
        assert_eq!(job(&[2, 9, 1], &[4, 7, 3, 8, 6]), (1, [vec![9, 1], vec![7, 3, 8, 6, 4, 2]]));
    }

    /// The corpus's heavy deal, its 1.1 million rounds shared between two
    /// threads from the first sub-game on, in the most contested way: the
    /// outcome (winner, score, end, rounds and final decks) must not change.
    #[test]
    fn speculation_changes_nothing_on_a_heavy_deal() {
        let text = include_str!("../../../benches/corpus/deal-2951.txt");
        let deal = crate::Deal::parse(text).expect("the corpus parses");
        let alone = solved(&deal, u64::MAX);
        assert_eq!(alone.score, Some(34953));
        for _ in 0..3 {
            assert_eq!(solved(&deal, 0), alone);
        }
    }

    /// A frame playing ahead shares its thread's table of long sub-games
    /// (module `recall`) both ways: it leaves there the winners of the long
    /// sub-games it plays, for the thread's later frames, and it takes
    /// winners from there. Before, each frame started from an empty table,
    /// and on deals built to nest, two threads took up to 14 times as long
    /// as one (`fast.md`, "Remembering long sub-games"). Here a frame plays
    /// a deal nested 16 deep (player 1 holds the odd cards, player 2 the
    /// even ones, larger cards below) from its start, on a guess about
    /// another deal, which is never refuted; then another frame, with the
    /// first sub-game's winner remembered falsely, must take the false one.
    #[test]
    fn frames_playing_ahead_share_their_threads_recall() {
        let k = 16_u8;
        let pad = |first: u8| (0..k + 5).map(move |j| 2 * k + first + 2 * j);
        let one: Vec<u8> = (1..=k).rev().map(|i| 2 * i - 1).chain(pad(1)).collect();
        let two: Vec<u8> = (1..=k).rev().map(|i| 2 * i).chain(pad(2)).collect();
        let cards = one.len() + two.len();
        let level =
            Level::<ByteRing<Values>>::holding(one.iter().copied(), two.iter().copied(), cards);
        let drawn = tops(&level.decks);
        let first = deal_key(&(), &level.decks, drawn);
        let decks = [one, two];
        // A frame always plays on a guess (with none, it would be the main
        // thread's), about a sub-game another thread is playing.
        let key = Key::new([&[1], &[]], [&[2], &[]]);
        let guess = [speculate::Assumption { key: key.clone(), winner: 0 }];
        let playing = || {
            let shared = Shared::new(recall::REMEMBER_AFTER);
            assert!(matches!(shared.claim(&key), Claim::Claimed(_)));
            shared
        };
        let mut recall = Recall::for_deal(cards, usize::MAX);
        let shared = playing();
        play_ahead::<ByteRing<Values>, true>(&shared, &(), &mut recall, &decks, &guess, None, 0);
        let Claim::Won(winner) = shared.claim(&first) else {
            panic!("the first sub-game was played")
        };
        assert_eq!(recall.winner(&first), Some(winner), "long, so remembered");
        let mut recall = Recall::for_deal(cards, usize::MAX);
        recall.remember(first.clone(), 1 - winner);
        let shared = playing();
        play_ahead::<ByteRing<Values>, true>(&shared, &(), &mut recall, &decks, &guess, None, 0);
        assert!(matches!(shared.claim(&first), Claim::Won(w) if w == 1 - winner));
    }

    /// While the other thread plays a sub-game, the main thread may play
    /// ahead past it on a guess, but its answer for that sub-game is the
    /// table's, once the other thread settles it, never the guess: here the
    /// table is settled late, with the player the guess does not name (a
    /// version that answered with the guess gave wrong answers on about one
    /// 25 + 25 deal in 3,000, too rarely for the other tests to see). Both
    /// when the main thread plays ahead first and when it is nested too deep
    /// to, and only waits.
    #[test]
    fn a_sub_game_the_other_thread_plays_is_waited_for_not_guessed() {
        for nesting in [0, speculate::MAX_NESTING] {
            // Player 1 draws 3 over 3 more cards, player 2 draws 2 over 3:
            // a sub-game of 3 + 2 cards, which the guess gives player 1.
            let (one, two) = ([3_u8, 9, 1, 5], [2_u8, 7, 4, 8]);
            let level = Level::<ByteRing<Values>>::holding(one.into_iter(), two.into_iter(), 8);
            let drawn = [3, 2];
            let key = deal_key(&(), &level.decks, drawn);
            let other = 1 - key.likely_winner();
            let shared = Shared::new(recall::REMEMBER_AFTER);
            // The other thread's claim: it is playing the sub-game.
            assert!(matches!(shared.claim(&key), Claim::Claimed(_)));
            let answer = std::thread::scope(|scope| {
                let main = scope.spawn(|| {
                    let mut quiet = |_| {};
                    let mut budget = Budget::new(Limits::default(), &mut quiet);
                    let spec = Spec {
                        shared: &shared,
                        assumptions: Vec::new(),
                        past: None,
                        nesting,
                        start: None,
                        next_look: u64::MAX,
                        after: u64::MAX,
                    };
                    let mut ctx = Context {
                        need: &(),
                        budget: &mut budget,
                        scratch: Default::default(),
                        spec: Some(spec),
                        held: Held::default(),
                        recall: &mut Recall::for_deal(8, usize::MAX),
                    };
                    // The sub-game's 5 cards, player 2's highest 7.
                    let levels = &mut vec![level];
                    shared_winner::<ByteRing<Values>, true>(&mut ctx, levels, 0, drawn, 5, 7)
                });
                std::thread::sleep(std::time::Duration::from_millis(50));
                assert!(!main.is_finished(), "nesting {nesting}: answered before the table had it");
                shared.settle(&key, other);
                main.join().expect("no panic")
            });
            assert_eq!(answer, Ok(other), "nesting {nesting}");
        }
    }

    /// A panic in the helper while it plays a sub-game reaches the caller
    /// once the main thread is done, instead of leaving the main thread
    /// waiting for that sub-game forever: the claim is given up as the
    /// panic unwinds.
    #[test]
    fn a_panic_in_the_helper_is_passed_on_not_waited_for() {
        if !cores::second_core() {
            return; // No helper on one core: nothing to panic.
        }
        let text = include_str!("../../../benches/corpus/deal-2951.txt");
        let deal = crate::Deal::parse(text).expect("the corpus parses");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let labelled = deal.labelled();
            let need = ByteRing::<Ranked>::table(&labelled, true);
            let shared = Arc::new(Shared::new(recall::REMEMBER_AFTER));
            shared.panic_in_helper.store(true, std::sync::atomic::Ordering::Relaxed);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                speculated_from_the_start::<ByteRing<Ranked>>(&labelled, &need, &shared)
            }));
            sender.send(outcome.is_err()).expect("the test is waiting");
        });
        let passed_on = receiver
            .recv_timeout(std::time::Duration::from_mins(2))
            .expect("the main thread waited forever for the helper's sub-game");
        assert!(passed_on, "the helper's panic was lost");
    }
}
