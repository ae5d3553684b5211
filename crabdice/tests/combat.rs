//! Crab Combat: the puzzle's examples, then the library's engines checked
//! against the literal reference engine in `reference/` on exhaustive and
//! random deals.

mod deadline;
mod reference;
mod rhythms;
mod seeded;

mod combat {
    use super::{deadline, reference, rhythms, seeded};

    use crabdice::{
        Deal, End, Limits, NoTrace, Player, Report, Variant, count_games, play, play_observed,
        play_with, winning_score,
    };
    use num_bigint::BigUint;
    use proptest::prelude::*;
    use reference::{RefOutcome, assert_matches};

    const EXAMPLE: &str = "Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n";
    const LOOP: &str = "Player 1:\n43\n19\n\nPlayer 2:\n2\n29\n14\n";

    fn deal(one: &[u64], two: &[u64]) -> Deal {
        Deal::new(one.to_vec(), two.to_vec()).unwrap()
    }

    fn assert_report(report: &Report, expected: &RefOutcome, what: &str) {
        assert_matches(&report.outcome, expected, what);
        assert_eq!(report.games, expected.games, "{what}: games");
        assert_eq!(report.max_depth, expected.max_depth, "{what}: max_depth");
    }

    /// Checks every engine on one deal against the reference.
    fn check(one: &[u64], two: &[u64]) {
        check_with(one, two, &reference::recursive(one, two));
    }

    /// [`check`], given the reference's recursive outcome already played.
    fn check_with(one: &[u64], two: &[u64], recursive: &RefOutcome) {
        let what = format!("{one:?} / {two:?}");
        let _deadline = deadline::Deadline::new(&what);
        let d = deal(one, two);
        let plain = reference::plain(one, two);
        assert_plain(one, two, &plain, &format!("plain {what}"));
        assert_report(
            &play_observed(&d, Variant::Plain, &mut NoTrace).unwrap(),
            &plain,
            &format!("observed plain {what}"),
        );
        assert_matches(
            &play(&d, Variant::Recursive).unwrap(),
            recursive,
            &format!("recursive {what}"),
        );
        assert_report(
            &play_observed(&d, Variant::Recursive, &mut NoTrace).unwrap(),
            recursive,
            &format!("observed recursive {what}"),
        );
        assert_eq!(winning_score(&d, Variant::Recursive).unwrap(), recursive.score, "score {what}");
        let count = count_games(&d, Limits::default(), &mut |_| {}).unwrap();
        assert_eq!(count.games, recursive.games, "{what}");
        assert_eq!(count.max_depth, recursive.max_depth, "{what}");
    }

    #[test]
    fn puzzle_example_part_one_is_306() {
        let outcome = play(&Deal::parse(EXAMPLE).unwrap(), Variant::Plain).unwrap();
        assert_eq!(
            (outcome.winner, outcome.score, outcome.rounds),
            (Some(Player::Two), Some(306), 29)
        );
    }

    #[test]
    fn puzzle_example_part_two_is_291() {
        let deal = Deal::parse(EXAMPLE).unwrap();
        let outcome = play(&deal, Variant::Recursive).unwrap();
        assert_eq!(
            (outcome.winner, outcome.score, outcome.end),
            (Some(Player::Two), Some(291), End::EmptyDeck)
        );
        assert_eq!(outcome.decks.two, vec![7, 5, 6, 2, 4, 1, 10, 8, 9, 3]);
        // The puzzle's log shows 17 rounds of game 1 and five games, three deep.
        let report = play_observed(&deal, Variant::Recursive, &mut NoTrace).unwrap();
        assert_eq!((report.outcome.rounds, report.games, report.max_depth), (17, 5, 2));
    }

    /// Plays a game that never ends, within a round limit far past where
    /// its cycle shows: a cycle or repetition the engine failed to notice
    /// fails the test instead of hanging it.
    fn endless(deal: &Deal, variant: Variant) -> crabdice::Outcome {
        let limits = Limits { max_rounds: 10_000_000, ..Limits::default() };
        play_with(deal, variant, limits, &mut |_| {}).expect("the repeat is noticed")
    }

    #[test]
    fn the_loop_example_ends_by_repetition_in_part_two_and_cycles_in_part_one() {
        let deal = Deal::parse(LOOP).unwrap();
        let recursive = endless(&deal, Variant::Recursive);
        assert_eq!((recursive.winner, recursive.end), (Some(Player::One), End::Repetition));
        assert_matches(&recursive, &reference::recursive(&[43, 19], &[2, 29, 14]), "loop");
        let plain = endless(&deal, Variant::Plain);
        assert!(matches!(plain.end, End::Cycle { .. }), "{plain:?}");
        assert_matches(&plain, &reference::plain(&[43, 19], &[2, 29, 14]), "loop");
    }

    #[test]
    fn a_top_game_that_see_saws_ends_exactly_where_the_reference_says() {
        // The first deal is a see-saw from its first round (high cards 16-19
        // against low cards 1-5, winners alternating forever); the others are
        // its cards in other orders. Where the engine recognises the shape it
        // takes the cycle's length from the formula, and must still find the
        // exact round where the game repeats.
        for (one, two) in [
            (&[16, 2, 18, 3][..], &[1, 17, 5, 19, 4][..]),
            (&[5, 16, 2, 18, 3], &[1, 17, 4, 19]),
            (&[3, 1, 16, 2, 18], &[19, 5, 17, 4]),
        ] {
            let d = deal(one, two);
            let what = format!("{one:?} / {two:?}");
            let _deadline = deadline::Deadline::new(&what);
            assert_matches(
                &play(&d, Variant::Recursive).unwrap(),
                &reference::recursive(one, two),
                &what,
            );
            assert_matches(&play(&d, Variant::Plain).unwrap(), &reference::plain(one, two), &what);
        }
    }

    /// Deals on which an engine whose repetition stacks compared player 2's
    /// decks by length alone (a mutation of `stacks.rs` that the rest of
    /// this file let through) gave other answers: 89216 for the first, and
    /// 9846 after 15,929 rounds for the second. Found among 39,700 random
    /// deals of 17 to 40 cards a side; both play sub-games whose anchor
    /// states agree on everything the stacks' hash reads.
    #[test]
    fn deals_whose_states_tie_on_the_stacks_hash_match_the_reference() {
        let first = (
            vec![
                19, 7, 15, 40, 17, 49, 58, 26, 67, 64, 13, 39, 5, 57, 33, 8, 3, 36, 60, 65, 9, 51,
                14, 59, 25, 11, 53, 31, 10, 2, 23, 45, 44, 24,
            ],
            vec![
                43, 32, 47, 35, 30, 21, 50, 34, 42, 62, 16, 27, 18, 69, 28, 48, 56, 22, 29, 6, 38,
                63, 4, 41, 37, 68, 1, 20, 61, 54, 12, 52, 70, 46, 66, 55,
            ],
        );
        let second = (
            vec![
                3, 8, 14, 21, 56, 20, 1, 9, 46, 6, 32, 10, 39, 44, 36, 2, 23, 38, 45, 5, 28, 12,
                22, 33, 31, 30, 47, 17, 25, 13, 27,
            ],
            vec![
                51, 42, 16, 41, 18, 24, 19, 40, 48, 37, 26, 7, 15, 35, 52, 4, 29, 50, 34, 55, 43,
                54, 57, 11, 53, 49,
            ],
        );
        for ((one, two), score, rounds) in [(first, 89492, 368), (second, 8828, 26335)] {
            let _deadline = deadline::Deadline::new(&format!("{one:?} / {two:?}"));
            let outcome = play(&deal(&one, &two), Variant::Recursive).unwrap();
            assert_eq!((outcome.score, outcome.rounds), (Some(score), rounds));
            check(&one, &two);
        }
    }

    /// The log's games, read back from its lines alone: each `=== Game N ===`
    /// starts game N inside the game in progress, games are numbered in the
    /// order they start, each `The winner of game N` ends the innermost game,
    /// and `...anyway, back to game M.` names the game it returns to. Checked
    /// on random deals whose sub-games nest up to several deep (a version
    /// that named the depth instead of the game passed every other test).
    #[test]
    fn the_logs_games_nest_and_return_to_the_game_that_started_them() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut nested = 0;
        for _ in 0..300 {
            let (one, two) = puzzle_deals(8).new_tree(&mut runner).unwrap().current();
            let _deadline = deadline::Deadline::new(&format!("{one:?} / {two:?}"));
            let d = deal(&one, &two);
            let mut log = crabdice::PuzzleLog::new(Vec::new(), Variant::Recursive);
            play_observed(&d, Variant::Recursive, &mut log).unwrap();
            let text = String::from_utf8(log.into_inner()).unwrap();
            let (mut games, mut stack, mut started) = (0_u64, Vec::new(), 0);
            for line in text.lines() {
                if let Some(n) = line.strip_prefix("=== Game ").and_then(|l| l.strip_suffix(" ==="))
                {
                    games += 1;
                    assert_eq!(n.parse::<u64>().unwrap(), games, "{one:?} / {two:?}: {line}");
                    stack.push(games);
                    started = started.max(stack.len());
                } else if let Some(rest) = line.strip_prefix("The winner of game ") {
                    let n: u64 = rest.split(' ').next().unwrap().parse().unwrap();
                    assert_eq!(stack.pop(), Some(n), "{one:?} / {two:?}: {line}");
                } else if let Some(m) = line.strip_prefix("...anyway, back to game ") {
                    let m: u64 = m.trim_end_matches('.').parse().unwrap();
                    assert_eq!(stack.last(), Some(&m), "{one:?} / {two:?}: {line}");
                }
            }
            assert!(stack.is_empty(), "{one:?} / {two:?}: games left open");
            let count = count_games(&d, Limits::default(), &mut |_| {}).unwrap();
            assert_eq!(count.games, games, "{one:?} / {two:?}");
            nested += usize::from(started >= 3);
        }
        assert!(nested >= 30, "only {nested} deals nest two deep");
    }

    /// The log, line for line, against the reference's, which writes the
    /// puzzle's wording as it plays (`reference::Log`): both variants, on
    /// 1,500 random deals of up to 9 cards a side, of which some end in a
    /// cycle, some by repetition, some in an empty deck from the start, and
    /// some nest sub-games two deep or more, each counted so that the test
    /// cannot pass without them.
    #[test]
    fn the_log_is_the_references_line_for_line() {
        use proptest::strategy::ValueTree;
        use reference::library_log as logged;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut cycles, mut repetitions, mut empty, mut nested) = (0, 0, 0, 0);
        for _ in 0..1_500 {
            let (one, two) = deals(9).new_tree(&mut runner).unwrap().current();
            let d = deal(&one, &two);
            let (plain, expected) = reference::plain_log(&one, &two);
            assert_eq!(logged(&d, Variant::Plain), expected, "plain {one:?} / {two:?}");
            let Some((recursive, expected)) = reference::recursive_log(&one, &two, 100_000) else {
                continue;
            };
            assert_eq!(logged(&d, Variant::Recursive), expected, "recursive {one:?} / {two:?}");
            cycles += usize::from(plain.end == "cycle");
            repetitions += usize::from(recursive.end == "repetition");
            empty += usize::from(one.is_empty() || two.is_empty());
            nested += usize::from(recursive.max_depth >= 2);
        }
        assert!(
            cycles >= 100 && repetitions >= 100 && empty >= 100 && nested >= 40,
            "{cycles} cycles, {repetitions} repetitions, {empty} empty decks, {nested} nested"
        );
    }

    /// A log whose writer failed stops the game and stays stopped: a game
    /// played again with it stops at once and writes nothing, even though
    /// the writer would now accept the text, and the error kept is the
    /// first.
    #[test]
    fn a_log_whose_writer_failed_stays_stopped() {
        /// Refuses its first write, then accepts everything.
        struct FailsOnce {
            failed: bool,
            text: Vec<u8>,
        }
        impl std::io::Write for FailsOnce {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                if !self.failed {
                    self.failed = true;
                    return Err(std::io::Error::other("disk full"));
                }
                self.text.extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let d = Deal::parse(EXAMPLE).unwrap();
        for variant in [Variant::Plain, Variant::Recursive] {
            let writer = FailsOnce { failed: false, text: Vec::new() };
            let mut log = crabdice::PuzzleLog::new(writer, variant);
            assert!(play_observed(&d, variant, &mut log).is_none(), "{variant:?}");
            assert!(play_observed(&d, variant, &mut log).is_none(), "{variant:?} again");
            assert_eq!(log.error().map(ToString::to_string).as_deref(), Some("disk full"));
            assert!(log.into_inner().text.is_empty(), "{variant:?}: written after the failure");
        }
    }

    /// The log is flushed when the top game ends, so a writer that holds
    /// the text back and fails to pass it on is a failed log too: the game
    /// is reported stopped and the error kept, not left for a later flush.
    #[test]
    fn a_log_that_cannot_be_flushed_at_the_end_of_the_game_has_failed() {
        /// Takes every write, fails every flush.
        struct NeverFlushes(usize);
        impl std::io::Write for NeverFlushes {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0 += bytes.len();
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Err(std::io::Error::other("no space left"))
            }
        }
        let d = Deal::parse(EXAMPLE).unwrap();
        for variant in [Variant::Plain, Variant::Recursive] {
            let mut log = crabdice::PuzzleLog::new(NeverFlushes(0), variant);
            assert!(play_observed(&d, variant, &mut log).is_none(), "{variant:?}");
            assert_eq!(log.error().map(ToString::to_string).as_deref(), Some("no space left"));
            assert!(log.into_inner().0 > 0, "{variant:?}: the rounds were written");
        }
    }

    #[test]
    fn a_puzzle_sized_plain_deal_can_cycle_forever() {
        // Found by searching random 25 + 25 deals; the reference engine, which
        // stores all 9,645 states, confirms the cycle.
        let one = [
            19, 1, 37, 25, 3, 2, 17, 18, 16, 14, 46, 12, 50, 47, 26, 33, 21, 11, 32, 38, 24, 27,
            42, 4, 31,
        ];
        let two = [
            9, 29, 7, 35, 6, 8, 5, 13, 41, 22, 48, 20, 10, 45, 36, 44, 28, 15, 49, 34, 40, 23, 30,
            43, 39,
        ];
        let outcome = endless(&deal(&one, &two), Variant::Plain);
        assert_eq!(outcome.end, End::Cycle { start: 546, length: 9100 });
        assert_matches(&outcome, &reference::plain(&one, &two), "25 + 25 cycle");
    }

    /// The plain engine's buffers by deal size: 42 + 42 and 85 + 85 cards take
    /// the small byte buffers (85 + 85 to their bound), 128 + 128 the most
    /// cards byte labels hold (ranked, as the card 256 does not fit a byte),
    /// 150 + 150 16-bit labels in heap buffers; half the deals have huge card
    /// values, ranked first.
    #[test]
    fn plain_deals_of_every_buffer_size_match_the_reference() {
        for (seed, n) in (0..16).zip([42, 85, 128, 150].into_iter().cycle()) {
            let (one, two) = plain_seeded(n, seed);
            let expected = reference::plain(&one, &two);
            assert_plain(&one, &two, &expected, &format!("{n} + {n} #{seed}"));
        }
    }

    /// The seeded `n + n` deal; for odd seeds, every card times a large
    /// prime, so that the engine must rank huge card values first.
    fn plain_seeded(n: u64, seed: u64) -> (Vec<u64>, Vec<u64>) {
        let (one, two) = seeded::decks(n, seed);
        if seed.is_multiple_of(2) {
            return (one, two);
        }
        let spread = |deck: Vec<u64>| deck.iter().map(|c| c * 1_000_000_007).collect::<Vec<_>>();
        (spread(one), spread(two))
    }

    /// Checks the plain engine, with its final decks and by its score alone,
    /// against the reference's `expected` outcome.
    fn assert_plain(one: &[u64], two: &[u64], expected: &RefOutcome, what: &str) {
        let _deadline = deadline::Deadline::new(what);
        let d = deal(one, two);
        assert_matches(&play(&d, Variant::Plain).unwrap(), expected, what);
        assert_eq!(winning_score(&d, Variant::Plain).unwrap(), expected.score, "{what}");
    }

    /// The plain engine's buffers must hold one and a half times the deal's
    /// cards (a first pass on `n/2 + n/2` cards writes `n` more), and every
    /// size is sized from the deal: just past the small byte buffers (172
    /// cards), just short of the most byte labels (254), the first deal of
    /// 16-bit labels (258), and 700 to 2,000 cards, where a buffer of only
    /// the deal's size rounded up to a power of two would be too small.
    /// These are too long to remember every state of, so the reference plays
    /// them to their end storing nothing (each seed is one that ends). Each
    /// size is also dealt with every high card to one player, who wins the
    /// whole first pass: the one deck needing all that room.
    #[test]
    fn plain_deals_near_every_buffer_bound_match_a_game_played_to_the_end() {
        for (n, seed) in
            [(86, 0), (86, 1), (127, 0), (127, 1), (129, 0), (350, 0), (500, 0), (1000, 0)]
        {
            let (one, two) = plain_seeded(n, seed);
            let what = format!("{n} + {n} #{seed}");
            let expected = reference::plain_to_the_end(&one, &two, 4 * (2 * n) * (2 * n))
                .unwrap_or_else(|| panic!("{what} ends"));
            assert!(expected.rounds > 2 * n, "{what}: a long game");
            assert_plain(&one, &two, &expected, &what);
            // The cards are `1..=2n` times the lowest card: the upper half.
            let unit = *one.iter().chain(&two).min().unwrap();
            let (high, low): (Vec<u64>, Vec<u64>) =
                one.iter().chain(&two).partition(|&&card| card > unit * n);
            for (one, two) in [(&high, &low), (&low, &high)] {
                let expected = reference::plain_to_the_end(one, two, u64::MAX).unwrap();
                assert_eq!(expected.rounds, n, "{what}: one pass");
                let what = format!("{what}, the high cards dealt to player {}", expected.winner);
                assert_plain(one, two, &expected, &what);
            }
        }
    }

    #[test]
    fn a_player_without_cards_loses_at_once() {
        let outcome = play(&deal(&[], &[3, 1]), Variant::Recursive).unwrap();
        assert_eq!(
            (outcome.winner, outcome.score, outcome.rounds),
            (Some(Player::Two), Some(7), 0)
        );
        let outcome = play(&deal(&[5], &[]), Variant::Plain).unwrap();
        assert_eq!(
            (outcome.winner, outcome.score, outcome.rounds),
            (Some(Player::One), Some(5), 0)
        );
    }

    #[test]
    fn a_round_limit_stops_an_endless_search() {
        let deal = Deal::parse(LOOP).unwrap();
        let mut calls = 0;
        let result = play_with(
            &deal,
            Variant::Recursive,
            Limits { max_rounds: 2, ..Limits::default() },
            &mut |_| calls += 1,
        );
        // No sub-game can start, so the game is played in passes (of 2 and
        // then 2 rounds), and the limit is checked at the end of each.
        assert_eq!(result, Err(crabdice::Exhausted::Rounds { limit: 2, played: 4 }));
    }

    /// The general engine stops exactly one round past any round limit, as
    /// the limit is counted. This deal can start sub-games and its top game
    /// ends by repetition, so the engine plays it past `16 n` rounds, where
    /// the stacks watch its anchors (each anchor's round played on the spot),
    /// and then replays it; every limit up to the last round it plays stops
    /// it at the limit's next round. (A version that played one round past
    /// the budget's room after an anchor stopped a round later still, and
    /// passed every other test.)
    #[test]
    fn a_round_limit_stops_the_general_engine_one_round_past_it_anchors_included() {
        let (one, two) = ([10, 1, 8, 5, 7], [6, 3, 4, 9, 2]);
        let d = deal(&one, &two);
        assert!(d.can_recurse());
        let expected = reference::recursive(&one, &two);
        assert_eq!(expected.end, "repetition");
        let mut stopped = 0;
        for max_rounds in 1.. {
            let limits = Limits { max_rounds, ..Limits::default() };
            match play_with(&d, Variant::Recursive, limits, &mut |_| {}) {
                Err(error) => {
                    let played = max_rounds + 1;
                    assert_eq!(error, crabdice::Exhausted::Rounds { limit: max_rounds, played });
                    stopped += 1;
                }
                Ok(outcome) => {
                    assert_matches(&outcome, &expected, "past every limit");
                    break;
                }
            }
        }
        // Past the 160 rounds before the stacks watch a game of 10 cards.
        assert!(stopped > 16 * 10, "stopped by {stopped} limits");
    }

    /// The heaviest benchmark deal: about a million rounds in bulk.
    fn heavy_deal() -> Deal {
        Deal::parse(include_str!("../benches/corpus/deal-2951.txt")).unwrap()
    }

    /// The rounds played before a time limit stopped the game; fails the test
    /// if anything else happened.
    fn stopped_by_the_clock<T: std::fmt::Debug>(result: Result<T, crabdice::Exhausted>) -> u64 {
        match result {
            Err(crabdice::Exhausted::Time { played, .. }) => played,
            other => panic!("expected the time limit to stop the game, got {other:?}"),
        }
    }

    #[test]
    fn a_time_limit_stops_a_long_game_and_a_generous_one_changes_nothing() {
        use std::time::Duration;

        let deal = heavy_deal();
        let run = |max_time| {
            let mut reports = Vec::new();
            // One thread: without a limit, two may share the rounds (a limit
            // keeps the engine on one).
            let limits = Limits { max_time, max_threads: 1, ..Limits::default() };
            let result = play_with(&deal, Variant::Recursive, limits, &mut |r| reports.push(r));
            (result, reports)
        };
        let (unlimited, reports) = run(None);
        let unlimited = unlimited.unwrap();
        let total = reports[0];
        assert_eq!(reports.len(), 1, "a game this short hears from progress only at its end");
        assert!(total > crabdice::TIME_CHECK_INTERVAL, "the test needs the clock to be read");
        // The clock is first read within TIME_CHECK_INTERVAL rounds, and by then
        // any time at all has passed.
        let stopped = run(Some(Duration::ZERO)).0;
        assert!(
            matches!(stopped, Err(crabdice::Exhausted::Time { limit: Duration::ZERO, .. })),
            "{stopped:?}"
        );
        let played = stopped_by_the_clock(stopped);
        assert!(played > 0 && played <= crabdice::TIME_CHECK_INTERVAL, "stopped at {played}");
        // Reading the clock changes neither the answer, nor the rounds the
        // engine plays to find it, nor how often progress is reported.
        let (timed, timed_reports) = run(Some(Duration::from_hours(1)));
        assert_eq!(timed.unwrap(), unlimited);
        assert_eq!(unlimited.score, Some(34953));
        assert_eq!(timed_reports, reports);
    }

    /// What the fast engine counts against the memory limit is what the
    /// games in progress hold, however many games were played before: each
    /// game's repetition stacks start empty, whichever game used them
    /// before at its level. The heaviest corpus deal deals 23,400 sub-games
    /// and holds under 50 KB at once; within 100 KB it plays as without a
    /// limit. (A version whose stacks kept the states of the games played
    /// before, under the new game's, needed 155 KB, and passed every other
    /// test.)
    #[test]
    fn the_memory_counted_does_not_grow_with_the_games_played() {
        let deal = heavy_deal();
        let limits = Limits { max_state_memory: 100_000, max_threads: 1, ..Limits::default() };
        let limited = play_with(&deal, Variant::Recursive, limits, &mut |_| {});
        assert_eq!(limited, play(&deal, Variant::Recursive));
    }

    /// A game on huge decks in which nearly every round deals a sub-game that
    /// player 1 wins at once, as it holds the sub-game's highest card: each
    /// such round copies thousands of cards but counts as one round.
    fn copying_deal(n: u64) -> Deal {
        // Player 1: 1, big, 3, big, 5, …; player 2: 2, 4, 6, …
        let one: Vec<u64> = (0..n).flat_map(|i| [2 * i + 1, 3 * n + i]).collect();
        let two: Vec<u64> = (0..n).map(|i| 2 * i + 2).collect();
        deal(&one, &two)
    }

    #[test]
    fn the_clock_counts_cards_dealt_into_sub_games() {
        use std::time::Duration;

        let deal = copying_deal(20_000);
        let limits = Limits { max_time: Some(Duration::ZERO), ..Limits::default() };
        // Each sub-game deals thousands of cards, so the clock is read long
        // before TIME_CHECK_INTERVAL rounds.
        let played =
            stopped_by_the_clock(play_with(&deal, Variant::Recursive, limits, &mut |_| {}));
        assert!(played < crabdice::TIME_CHECK_INTERVAL / 100, "stopped at {played}");
    }

    /// A limit on rounds cuts the literal log short and changes nothing
    /// else. On random deals of 2 to 12 cards, plain and recursive, under
    /// limits just below, at and around the draws the whole log shows (every
    /// game's), the game is answered as without a limit when the limit
    /// covers those draws, and otherwise stops at the first draw past it,
    /// having logged a prefix of the whole log. A plain game that cycles is
    /// answered at a limit of its own rounds too, though the fast engine,
    /// which finds where its cycle starts, plays more than that.
    #[test]
    fn a_limit_on_rounds_cuts_the_literal_log_where_the_game_reaches_it() {
        let mut random = rhythms::xorshift(0x6C07_8965_D5D3_1B3F);
        let log_of = |d: &Deal, variant: Variant, max_rounds: u64| {
            let mut log = crabdice::PuzzleLog::new(Vec::new(), variant);
            let limits = Limits { max_rounds, ..Limits::default() };
            let result = crabdice::play_observed_with(d, variant, limits, &mut log);
            (result, String::from_utf8(log.into_inner()).unwrap())
        };
        let mut cycles_at_their_length = 0;
        for _ in 0..1_500 {
            let n = 2 + random(11);
            let mut cards: Vec<u64> = (1..=n as u64).collect();
            for i in (1..n).rev() {
                cards.swap(i, random(i + 1));
            }
            let split = random(n + 1);
            let d = deal(&cards[..split], &cards[split..]);
            for variant in [Variant::Plain, Variant::Recursive] {
                let (whole, whole_log) = log_of(&d, variant, u64::MAX);
                let whole = whole.unwrap().unwrap();
                let draws = whole_log.matches("Player 1 plays: ").count() as u64;
                for limit in [draws.saturating_sub(1), draws, random(draws as usize + 2) as u64] {
                    let what = format!("{cards:?} split at {split}, {variant:?}, limit {limit}");
                    let (cut, cut_log) = log_of(&d, variant, limit);
                    if limit >= draws {
                        assert_eq!(cut, Ok(Some(whole.clone())), "{what}");
                        assert_eq!(cut_log, whole_log, "{what}");
                        let cycles = matches!(whole.outcome.end, End::Cycle { .. });
                        cycles_at_their_length += usize::from(cycles && limit == draws);
                    } else {
                        let stopped = crabdice::Exhausted::Rounds { limit, played: limit + 1 };
                        assert_eq!(cut, Err(stopped), "{what}");
                        assert!(whole_log.starts_with(&cut_log), "{what}: {cut_log}");
                        let cut_draws = cut_log.matches("Player 1 plays: ").count() as u64;
                        assert_eq!(cut_draws, limit, "{what}");
                    }
                }
            }
        }
        assert!(cycles_at_their_length > 20, "{cycles_at_their_length}");
    }

    #[test]
    fn the_literal_engine_keeps_both_limits() {
        use std::time::Duration;

        let heavy = heavy_deal();
        // Rounds: exactly one draw past the limit, as the limit is counted.
        let limits = Limits { max_rounds: 1000, ..Limits::default() };
        for variant in [Variant::Plain, Variant::Recursive] {
            let result =
                crabdice::play_observed_with(&heavy, variant, limits, &mut crabdice::NoTrace);
            match variant {
                // The plain game ends in 299 rounds, well within the limit,
                // with the corpus's answer (`expected.txt`).
                Variant::Plain => {
                    let report = result.expect("within the limit").expect("played to its end");
                    assert_eq!((report.outcome.score, report.outcome.rounds), (Some(32926), 299));
                }
                Variant::Recursive => {
                    let stopped = crabdice::Exhausted::Rounds { limit: 1000, played: 1001 };
                    assert_eq!(result, Err(stopped));
                }
            }
        }
        // A plain game that never ends, on a cycle of about 10^15 rounds: the
        // fast engine that looks for where the cycle starts is bounded too.
        // The literal loop then plays it keeping every state (of 200,000
        // cards), under the same limits: here rounds, memory or the clock
        // stops it first.
        let (a, b) = (49_998, 50_001);
        let lows = 1..=a + b + 1;
        let mut lows = lows.rev();
        let highs = (a + b + 2..).take((a + b) as usize).collect::<Vec<u64>>();
        let even: Vec<u64> =
            highs[..a as usize].iter().flat_map(|&h| [h, lows.next().unwrap()]).collect();
        let mut odd = vec![lows.next().unwrap()];
        odd.extend(highs[a as usize..].iter().flat_map(|&g| [g, lows.next().unwrap()]));
        let endless = deal(&even, &odd);
        let memory = 64 << 20;
        for (max_rounds, max_time) in
            [(5, None), (2_000_000, None), (2_000_000, Some(Duration::ZERO))]
        {
            let limits =
                Limits { max_rounds, max_time, max_state_memory: memory, ..Limits::default() };
            let result = crabdice::play_observed_with(
                &endless,
                Variant::Plain,
                limits,
                &mut crabdice::NoTrace,
            );
            match (result, max_rounds, max_time) {
                (Err(crabdice::Exhausted::Rounds { limit: 5, played: 6 }), 5, None)
                | (Err(crabdice::Exhausted::Memory { .. }), 2_000_000, None)
                | (Err(crabdice::Exhausted::Time { .. }), _, Some(_)) => {}
                (other, ..) => panic!("expected a limit to stop the endless game, got {other:?}"),
            }
        }
        // Time: the clock is read more often on larger decks.
        let limits = Limits { max_time: Some(Duration::ZERO), ..Limits::default() };
        let big = copying_deal(20_000);
        let result =
            crabdice::play_observed_with(&big, Variant::Recursive, limits, &mut crabdice::NoTrace);
        let played = stopped_by_the_clock(result);
        assert!(played <= 10, "stopped at {played}");
    }

    #[test]
    fn the_literal_engine_gives_up_when_its_states_outgrow_the_memory_limit() {
        // 200 + 200 cards above 1000: no sub-game can start, and the one game
        // runs for thousands of rounds, each storing a state of 400 cards (8
        // bytes each, as the cards do not fit in a byte).
        let (one, two) = seeded::decks(200, 7);
        let lift = |deck: Vec<u64>| deck.into_iter().map(|c| c + 1000).collect::<Vec<u64>>();
        let big = deal(&lift(one), &lift(two));
        let _deadline = deadline::Deadline::new("200 + 200 cards above 1000");
        let fast = play(&big, Variant::Recursive).unwrap();
        assert!(fast.rounds > 2000, "{} rounds", fast.rounds);
        let state = 400 * 8;
        let limit = 1 << 20;
        let limits = Limits { max_state_memory: limit, ..Limits::default() };
        let played =
            match crabdice::play_observed_with(&big, Variant::Recursive, limits, &mut NoTrace) {
                Err(crabdice::Exhausted::Memory { limit: 1_048_576, played }) => played,
                other => panic!("expected the memory limit to stop the game, got {other:?}"),
            };
        // It stops when the store of states, full, would have to grow past the
        // limit: doubled, beside the old one, it would need three times its
        // size. So it holds between a third and two thirds of the limit.
        let stored = played as usize * state;
        assert!((limit / 4..=limit * 2 / 3).contains(&stored), "{played} rounds");
        // With room for every state, the same game ends as the fast engine says.
        let roomy =
            Limits { max_state_memory: 64 * fast.rounds as usize * state, ..Limits::default() };
        let report = crabdice::play_observed_with(&big, Variant::Recursive, roomy, &mut NoTrace);
        assert_eq!(report.unwrap().unwrap().outcome, fast);
        // The decks of the games in progress count too: a deal larger than the
        // limit stops before its first round, also in plain Combat, which
        // stores no states.
        let tiny = Limits { max_state_memory: 1000, ..Limits::default() };
        for variant in [Variant::Plain, Variant::Recursive] {
            let result = crabdice::play_observed_with(&big, variant, tiny, &mut NoTrace);
            assert_eq!(result, Err(crabdice::Exhausted::Memory { limit: 1000, played: 0 }));
        }
    }

    /// A deal whose games nest `k` deep at once: player 1 holds the odd cards
    /// from `2k − 1` down, player 2 the even ones from `2k`, each over `k + 5`
    /// cards of `lift` and more, so every game's first round starts a sub-game
    /// on all but a few of its cards. It plays `2^k` games when `k ≥ 4`.
    fn nested(k: u64, lift: u64) -> (Vec<u64>, Vec<u64>) {
        let pad = |first: u64| (0..k + 5).map(move |j| 2 * k + lift + first + 2 * j);
        let one = (1..=k).rev().map(|i| 2 * i - 1).chain(pad(1)).collect();
        let two = (1..=k).rev().map(|i| 2 * i).chain(pad(2)).collect();
        (one, two)
    }

    #[test]
    fn games_nested_thousands_deep_stop_at_the_memory_limit() {
        // Each game in progress keeps its decks while its sub-game is played:
        // nested 3,000 deep, on 3,000 to 6,000 cards a game, they would need
        // about 100 MB; the limit stops both walks long before.
        let (one, two) = nested(3000, 10_000);
        let deep = deal(&one, &two);
        // (A round limit makes a walk that ignored the memory fail, not hang.)
        let limits =
            Limits { max_state_memory: 8 << 20, max_rounds: 10_000_000, ..Limits::default() };
        for result in [
            play_with(&deep, Variant::Recursive, limits, &mut |_| {}).map(|_| ()),
            count_games(&deep, limits, &mut |_| {}).map(|_| ()),
        ] {
            assert!(
                matches!(result, Err(crabdice::Exhausted::Nesting { limit: 8_388_608, .. })),
                "{result:?}"
            );
        }
        // The same kind of deal, 12 deep, within a limit that fits it: the
        // answer and the count of games are the reference's. Cards of 1000 and
        // more take wide rings; small ones, byte rings.
        for lift in [0, 1000] {
            let (one, two) = nested(12, lift);
            let shallow = deal(&one, &two);
            let expected = reference::recursive(&one, &two);
            assert_eq!((expected.games, expected.max_depth), (4096, 12));
            let roomy = Limits { max_state_memory: 1 << 20, ..Limits::default() };
            let outcome = play_with(&shallow, Variant::Recursive, roomy, &mut |_| {});
            assert_matches(&outcome.unwrap(), &expected, "nested 12");
            let count = count_games(&shallow, roomy, &mut |_| {}).unwrap();
            assert_eq!((count.games.to_u128(), count.max_depth), (Some(4096), 12));
            // A few kilobytes are less than twelve games' decks.
            let tight = Limits { max_state_memory: 4096, ..Limits::default() };
            let result = play_with(&shallow, Variant::Recursive, tight, &mut |_| {});
            assert!(matches!(result, Err(crabdice::Exhausted::Nesting { limit: 4096, .. })));
            let result = count_games(&shallow, tight, &mut |_| {});
            assert!(matches!(result, Err(crabdice::Exhausted::Nesting { limit: 4096, .. })));
        }
    }

    #[test]
    fn games_are_counted_exactly_past_64_and_128_bits() {
        // The reference engine, which plays every game, sets the pattern: a
        // deal nested k deep plays 2^k games, k deep (from k = 4: 3, 5 and 9
        // games below that).
        for k in 4..=11 {
            let (one, two) = nested(k, 0);
            let expected = reference::recursive(&one, &two);
            assert_eq!((expected.games, expected.max_depth), (1 << k, k as u32), "nested {k}");
            let count = count_games(&deal(&one, &two), Limits::default(), &mut |_| {}).unwrap();
            assert_eq!((count.games.to_u128(), count.max_depth), (Some(1 << k), k as u32));
        }
        // The walk remembers long games by deal and counts each again in one
        // step, so it reaches counts no engine could play one by one. They stay
        // exact past a u64 (which used to be an error) and past a u128.
        for k in [63, 64, 65, 127, 128, 129, 200] {
            let (one, two) = nested(k, 0);
            let count = count_games(&deal(&one, &two), Limits::default(), &mut |_| {}).unwrap();
            assert_eq!(count.games.to_biguint(), BigUint::from(1_u8) << k, "nested {k}");
            assert_eq!(count.max_depth, k as u32, "nested {k}");
        }
    }

    /// Nested 400 deep, on 1,610 cards, the sub-games that took long hold
    /// 320,000 cards between them, more than the `2^18` the table of long
    /// sub-games once held whatever the deal: each level that did not fit
    /// doubled the work again, and the deal passed a billion rounds. The
    /// table now holds `n² / 4` cards on a deal of `n`, one deal at every
    /// level of the deepest nesting, and the deal takes tens of millions.
    /// The score is an independent Python simulation's: the literal rules,
    /// with every sub-game's winner memoized by deal (`memo.py`, in the
    /// closing note of issue 4), which also gives 1,522,121,225 at 500
    /// deep, as the engine does.
    #[test]
    fn a_deal_nested_400_deep_remembers_a_sub_game_at_every_level() {
        let (one, two) = nested(400, 0);
        let d = deal(&one, &two);
        let _deadline = deadline::Deadline::new("nested 400");
        let limits = Limits { max_rounds: 100_000_000, max_threads: 1, ..Limits::default() };
        let expected = (Some(Player::Two), Some(782_177_025), End::EmptyDeck);
        let outcome = play_with(&d, Variant::Recursive, limits, &mut |_| {}).unwrap();
        assert_eq!((outcome.winner, outcome.score, outcome.end), expected);
        // And without limits. (A deal this large never plays on a second
        // thread: its games nest too deep for the helper's stack.)
        let outcome = play(&d, Variant::Recursive).unwrap();
        assert_eq!((outcome.winner, outcome.score, outcome.end), expected);
        let count = count_games(&d, limits, &mut |_| {}).unwrap();
        assert_eq!(count.games.to_biguint(), BigUint::from(1_u8) << 400);
        assert_eq!(count.max_depth, 400);
    }

    #[test]
    fn deals_nested_deep_are_answered_in_rounds_that_grow_with_the_depth() {
        // A deal nested k deep plays 2^k games, most of them the same few
        // deals again and again. The fast engine remembers the winner of
        // each sub-game that took long, so that its rounds grow with k
        // instead: a limit of 10 million rounds (2^40 games would pass it
        // many times over) stops neither, with one thread, so that no table
        // shared with a helper thread can do the remembering. The scores
        // are an independent Python simulation's: the literal rules, with
        // each sub-game's winner remembered by deal (`nested_ref.py`, in
        // the closing note of issue 4).
        let limits = Limits { max_rounds: 10_000_000, max_threads: 1, ..Limits::default() };
        for (k, lift, score) in
            [(40, 0, 918_705), (40, 1000, 5_013_705), (60, 0, 2_923_545), (60, 1000, 11_438_545)]
        {
            let (one, two) = nested(k, lift);
            let outcome = play_with(&deal(&one, &two), Variant::Recursive, limits, &mut |_| {})
                .unwrap_or_else(|error| panic!("nested {k}, lift {lift}: {error}"));
            assert_eq!(
                (outcome.winner, outcome.score, outcome.end),
                (Some(Player::Two), Some(score), End::EmptyDeck),
                "nested {k}, lift {lift}"
            );
        }
        // Where the reference plays every game: the same answer, from both
        // engines.
        for k in [13, 14] {
            let (one, two) = nested(k, 0);
            let expected = reference::recursive(&one, &two);
            let outcome = play_with(&deal(&one, &two), Variant::Recursive, limits, &mut |_| {});
            assert_matches(&outcome.unwrap(), &expected, "nested {k}");
        }
    }

    /// Every permutation of `values`, split between the players every way.
    fn all_deals(values: &[u64], visit: &mut impl FnMut(&[u64], &[u64])) {
        fn permute(items: &mut Vec<u64>, k: usize, visit: &mut impl FnMut(&[u64])) {
            if k == items.len() {
                visit(items);
                return;
            }
            for i in k..items.len() {
                items.swap(k, i);
                permute(items, k + 1, visit);
                items.swap(k, i);
            }
        }
        let mut items = values.to_vec();
        permute(&mut items, 0, &mut |perm| {
            for split in 0..=perm.len() {
                visit(&perm[..split], &perm[split..]);
            }
        });
    }

    #[test]
    fn every_small_deal_matches_the_reference() {
        let (mut deals, mut repetitions, mut cycles) = (0, 0, 0);
        // Recursive games that can never start a sub-game, by how they end.
        let mut flat = [0; 2];
        let sets = [&[1, 2, 3, 4, 5, 6][..], &[1, 2, 3, 5, 8, 13, 21], &[2, 3, 4, 6, 7, 9]];
        // The cards of the loop example, whose plain game cycles.
        for values in sets.into_iter().chain([&[2, 14, 19, 29, 43][..]]) {
            all_deals(values, &mut |one, two| {
                check(one, two);
                let _deadline = deadline::Deadline::new(&format!("{one:?} / {two:?}"));
                deals += 1;
                let d = deal(one, two);
                let repeated = play(&d, Variant::Recursive).unwrap().end == End::Repetition;
                repetitions += u32::from(repeated);
                cycles +=
                    u32::from(matches!(play(&d, Variant::Plain).unwrap().end, End::Cycle { .. }));
                if !d.can_recurse() {
                    flat[usize::from(repeated)] += 1;
                }
            });
        }
        assert!(deals > 10_000);
        // The exhaustive sweep must exercise the rarer paths too: among them
        // recursive games without sub-games (played in passes) that end by
        // repetition, which only the general engine can place.
        assert!(repetitions > 0 && cycles > 0, "repetitions {repetitions}, cycles {cycles}");
        assert!(flat[0] > 0 && flat[1] > 0, "without sub-games: {flat:?}");
    }

    /// The cards `1..=2n` dealt in orders a shuffle rarely makes: the low
    /// half against the high half, odd against even cards (the shape of the
    /// deals that nest deepest), and dealt in turn from either end of a
    /// sorted pack; each deck either way up, and each deal in both seats. Such deals meet the
    /// shortcuts' edge cases at once: one player holding every high card,
    /// see-saws from the first round, sub-games on every round.
    fn ordered_deals(n: u64) -> Vec<(Vec<u64>, Vec<u64>)> {
        let turned = |mut cards: Vec<u64>, over: bool| {
            if over {
                cards.reverse();
            }
            cards
        };
        let halves = ((1..=n).collect::<Vec<_>>(), (n + 1..=2 * n).collect::<Vec<_>>());
        let parity = (
            (1..=2 * n).filter(|c| c % 2 == 1).collect::<Vec<_>>(),
            (1..=2 * n).filter(|c| c % 2 == 0).collect::<Vec<_>>(),
        );
        let cut = |cards: Vec<u64>| {
            let mut one: Vec<u64> = cards.iter().copied().step_by(2).collect();
            let two: Vec<u64> = cards.iter().copied().skip(1).step_by(2).collect();
            let third = one.len() / 3;
            one.rotate_left(third);
            (one, two)
        };
        let mut deals = Vec::new();
        // Low against high cards, odd against even, and dealt in turn from
        // the bottom or the top of a sorted pack (player 1's hand cut).
        for (a, b) in [halves, parity, cut((1..=2 * n).collect()), cut((1..=2 * n).rev().collect())]
        {
            for over in [(false, false), (false, true), (true, false), (true, true)] {
                let (one, two) = (turned(a.clone(), over.0), turned(b.clone(), over.1));
                deals.push((two.clone(), one.clone()));
                deals.push((one, two));
            }
        }
        deals
    }

    #[test]
    fn ordered_deals_match_the_reference() {
        let (mut checked, mut nested) = (0, 0);
        for n in 1..=24 {
            for (one, two) in ordered_deals(n) {
                // A few of the larger ones take the reference too long.
                if let Some(expected) = reference::recursive_within(&one, &two, 100_000) {
                    check_with(&one, &two, &expected);
                    checked += 1;
                    nested += u32::from(expected.max_depth > 1);
                }
            }
        }
        assert!(checked > 700 && nested > 200, "{checked} deals checked, {nested} nested");
    }

    /// Deals of `one + two` cards, either `1..=n` (the puzzle's shape) or
    /// distinct values up to `3n`.
    fn deals(max_cards: usize) -> impl Strategy<Value = (Vec<u64>, Vec<u64>)> {
        (0..=max_cards, 0..=max_cards, any::<bool>())
            .prop_filter("at least one card", |(a, b, _)| a + b > 0)
            .prop_flat_map(|(a, b, puzzle_shaped)| {
                let n = a + b;
                let pool: Vec<u64> = if puzzle_shaped {
                    (1..=n as u64).collect()
                } else {
                    (1..=3 * n as u64).collect()
                };
                proptest::sample::subsequence(pool, n).prop_shuffle().prop_map(move |cards| {
                    let (one, two) = cards.split_at(a);
                    (one.to_vec(), two.to_vec())
                })
            })
    }

    /// Puzzle-shaped deals of `n + n` cards.
    fn puzzle_deals(n: u64) -> impl Strategy<Value = (Vec<u64>, Vec<u64>)> {
        Just((1..=2 * n).collect::<Vec<u64>>()).prop_shuffle().prop_map(move |cards| {
            let (one, two) = cards.split_at(n as usize);
            (one.to_vec(), two.to_vec())
        })
    }

    /// Checks the deal unless the reference would take too long on it (more
    /// than `max_rounds` literal rounds: the fast engine plays fewer, so its
    /// count cannot tell).
    fn check_bounded(one: &[u64], two: &[u64], max_rounds: u64) -> Result<(), TestCaseError> {
        let recursive = reference::recursive_within(one, two, max_rounds);
        prop_assume!(recursive.is_some());
        check_with(one, two, &recursive.unwrap());
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn random_deals_up_to_ten_cards_each_match_the_reference((one, two) in deals(10)) {
            check_bounded(&one, &two, 20_000)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn random_deals_up_to_twenty_five_cards_each_match_the_reference((one, two) in deals(25)) {
            check_bounded(&one, &two, 20_000)?;
        }
    }

    /// A generator of `random(below)` below `below`, from `seed`.
    fn seeded_random(seed: u64) -> impl FnMut(usize) -> usize {
        use proptest::prelude::Rng;
        use proptest::test_runner::{RngAlgorithm, TestRng};
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
        move |below| (rng.next_u64() % below as u64) as usize
    }

    /// A deal whose plain game falls into a rhythm of winners of period
    /// `2^(level + 1)` (the library's module `periodic`) after `back`
    /// rounds or fewer: the see-saw's shape on units of `2^level` cards
    /// ([`rhythms::rhythmic`], `2a` and `2b + 1` units), cards from `1 +
    /// lift` on, shuffled by `seed`, whose parity says who holds which
    /// deck: that is the state `S`. Then rounds are undone (see
    /// [`undone_from`]), the first won by the deck of `2a` units, where the
    /// rhythm's round before `S` was won by the other (the even deck wins
    /// the first half of each period). Returns the deal, the rounds undone
    /// (the cycle starts the round after) and `S`.
    fn rhythm_reached(
        level: usize,
        (a, b): (usize, usize),
        back: usize,
        lift: u64,
        seed: u64,
    ) -> ([Vec<u64>; 2], u64, [Vec<u64>; 2]) {
        let mut random = seeded_random(seed);
        let [even, odd] = rhythms::rhythmic(level, (a, b), 1 + lift, &mut random);
        let (even_at, state) =
            if seed.is_multiple_of(2) { (0, [even, odd]) } else { (1, [odd, even]) };
        undone_from(state, even_at, back, &mut random)
    }

    /// The same for a rhythm of any `winners` (`true` for player 1), on
    /// decks of `lengths` cards ([`rhythms::built`]); the first round
    /// undone is won by the player who did not win the rhythm's last.
    fn built_reached(
        winners: &[bool],
        lengths: [usize; 2],
        back: usize,
        lift: u64,
        seed: u64,
    ) -> ([Vec<u64>; 2], u64, [Vec<u64>; 2]) {
        let mut random = seeded_random(seed);
        let state = rhythms::built(winners, lengths, 1 + lift, &mut random).expect("a rhythm");
        let last = usize::from(!winners[winners.len() - 1]);
        undone_from(state, 1 - last, back, &mut random)
    }

    /// Undoes up to `back` rounds of plain Combat before `state`, each by
    /// one whose winner's deck ends with its card over a lower one, the
    /// first won by player `first` (0 or 1), the others drawn by `random`.
    /// If the round that led to `state` on its cycle was won by the other
    /// player, the state this reaches is off the cycle (a state on it has
    /// one predecessor there), and so is every state before it. Returns the
    /// deal, the rounds undone and `state`.
    fn undone_from(
        state: [Vec<u64>; 2],
        first: usize,
        back: usize,
        random: &mut impl FnMut(usize) -> usize,
    ) -> ([Vec<u64>; 2], u64, [Vec<u64>; 2]) {
        let mut decks = state.clone();
        let mut undone = 0;
        while undone < back {
            let can =
                |deck: &Vec<u64>| deck.len() >= 2 && deck[deck.len() - 2] > deck[deck.len() - 1];
            let winner = match (undone, can(&decks[0]), can(&decks[1])) {
                (0, _, _) if can(&decks[first]) => first,
                (0, _, _) | (_, false, false) => break,
                (_, true, true) => random(2),
                (_, true, false) => 0,
                (_, false, true) => 1,
            };
            let lost = decks[winner].pop().unwrap();
            let won = decks[winner].pop().unwrap();
            decks[winner].insert(0, won);
            decks[1 - winner].insert(0, lost);
            undone += 1;
        }
        (decks, undone as u64, state)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// Deals that fall into a see-saw, or a see-saw of see-saws (of
        /// see-saws), after up to 30 rounds: the engine takes the cycle's
        /// length from the rhythm of its winners, and must find the round
        /// it starts by looking for the first state in the rhythm. Raised
        /// past the deal's size they start no sub-game, and the reference
        /// confirms where the cycle starts; raised by nothing, the
        /// recursive game may go elsewhere, and all engines still agree with
        /// the reference.
        #[test]
        fn deals_that_fall_into_a_rhythm_match_the_reference(
            level in 0..=2_usize,
            a in 1..=6_usize,
            b in 1..=6_usize,
            back in 0..=30_usize,
            lift in prop_oneof![Just(0_u64), Just(1000)],
            seed in any::<u64>(),
        ) {
            // Cycles of level 2 grow fast: keep them to 33,000 rounds.
            let units = if level == 2 { (a.min(3), b.min(3)) } else { (a, b) };
            let ([one, two], undone, state) = rhythm_reached(level, units, back, lift, seed);
            if lift > 0 {
                let plain = reference::plain(&one, &two);
                prop_assert_eq!(plain.cycle.map(|(start, _)| start), Some(undone + 1));
                prop_assert_eq!(plain.decks, (state[0].clone(), state[1].clone()));
            }
            check_bounded(&one, &two, 40_000)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]
        /// Deals that fall into the rhythms of periods 12, 24 and 16 of
        /// [`rhythms::built_shapes`] after up to 30 rounds, checked as
        /// `deals_that_fall_into_a_rhythm_match_the_reference` checks the
        /// nested see-saws.
        #[test]
        fn deals_that_fall_into_rarer_rhythms_match_the_reference(
            shape in 0..3_usize,
            back in 0..=30_usize,
            lift in prop_oneof![Just(0_u64), Just(1000)],
            seed in any::<u64>(),
        ) {
            let (winners, lengths, length) = rhythms::built_shapes()[shape].clone();
            let ([one, two], undone, state) = built_reached(&winners, lengths, back, lift, seed);
            if lift > 0 {
                let plain = reference::plain(&one, &two);
                prop_assert_eq!(plain.cycle, Some((undone + 1, length)));
                prop_assert_eq!(plain.decks, (state[0].clone(), state[1].clone()));
            }
            check_bounded(&one, &two, 40_000)?;
        }
    }

    /// Rhythms of periods 32 to 256, whose cycles take from 192,192 to
    /// 13,179,640,320 rounds, are answered without going round them, as
    /// the nested see-saws above are: within a million rounds up to period
    /// 64, and `2^15` rounds a round of the period past it (a game looks
    /// for periods over 64 only once it has played 4,096 rounds for each
    /// round of the period, and then at the next state Brent's algorithm
    /// saves; the last took minutes before).
    #[test]
    fn long_rhythms_are_answered_without_going_round_them() {
        for (winners, lengths, length) in rhythms::built_shapes().into_iter().skip(3) {
            let max_rounds = (winners.len() as u64 * (1 << 15)).max(1_000_000);
            let reached = built_reached(&winners, lengths, 300, 10_000, 7);
            answered_without_going_round(reached, length, max_rounds);
        }
    }

    /// A sub-game can ride a long rhythm too: here the first round of the
    /// top game deals, whole, a deal that falls into a nested see-saw
    /// (cards raised past any deck's size, so it starts no sub-game of its
    /// own), whose cycle takes 14,883,840 or 13,179,640,320 rounds. Such a
    /// sub-game never ends, so player 1 wins it, and the round; the rest of
    /// the top game is then checked literally, card by card, with no round
    /// that could start a sub-game. Within a limit of `2^23` rounds: the
    /// stacks alone would have to go round the sub-game's cycle (the nested
    /// see-saw of period 256 took 39 s that way).
    #[test]
    fn a_sub_game_that_rides_a_long_rhythm_is_decided_without_going_round_it() {
        for (winners, lengths, length) in rhythms::built_shapes().into_iter().skip(5) {
            let ([one, two], _, _) = built_reached(&winners, lengths, 300, 10_000, 7);
            let (a, b) = (one.len() as u64, two.len() as u64);
            assert!(length > 1 << 23 && a != b, "{a} + {b} cards");
            let deal_decks = [[vec![a], one.clone()].concat(), [vec![b], two.clone()].concat()];
            let what = format!("{a} + {b} cards dealt as a sub-game");
            let _deadline = deadline::Deadline::new(&what);
            // Player 1 wins the first round; then plain rounds, none of
            // which may deal a sub-game, to the end.
            let mut decks = [[one, vec![a, b]].concat(), two].map(std::collections::VecDeque::from);
            let mut rounds = 1;
            while !decks[0].is_empty() && !decks[1].is_empty() {
                let [x, y] = [decks[0][0], decks[1][0]];
                assert!(x >= decks[0].len() as u64 || y >= decks[1].len() as u64, "{what}");
                let [one, two] = &mut decks;
                reference::plain_round(one, two);
                rounds += 1;
                assert!(rounds < 10_000_000, "{what}: the top game does not end");
            }
            let (winner, won) = if decks[1].is_empty() {
                (Player::One, &decks[0])
            } else {
                (Player::Two, &decks[1])
            };
            let score = reference::score(&won.iter().copied().collect::<Vec<_>>());
            let d = deal(&deal_decks[0], &deal_decks[1]);
            let limits = Limits { max_rounds: 1 << 23, ..Limits::default() };
            let outcome = play_with(&d, Variant::Recursive, limits, &mut |_| {}).unwrap();
            assert_eq!(
                (outcome.winner, outcome.end, outcome.rounds, outcome.score),
                (Some(winner), End::EmptyDeck, rounds, Some(score)),
                "{what}"
            );
            assert_eq!(winning_score(&d, Variant::Recursive).unwrap(), Some(score), "{what}");
            let count = count_games(&d, limits, &mut |_| {}).unwrap();
            assert_eq!((count.games.to_u128(), count.max_depth), (Some(2), 1), "{what}");
        }
    }

    /// Plays plain Combat `rounds` rounds from `decks`, literally.
    fn played(decks: &[Vec<u64>; 2], rounds: u64) -> [Vec<u64>; 2] {
        let [mut one, mut two] = decks.clone().map(std::collections::VecDeque::from);
        for _ in 0..rounds {
            reference::plain_round(&mut one, &mut two);
        }
        [one.into(), two.into()]
    }

    /// A see-saw's cycle can take far more rounds than the game takes to
    /// fall into it: `2 × lcm(a, b, a + b + 1)`, here half a billion for a
    /// deal of 2,001 cards that falls in after a few hundred rounds. The engine takes
    /// the length from the shape and finds where the cycle starts by
    /// looking for the first state in it, within a limit of a million
    /// rounds (it once went round the cycle twice first, and took 3.4 s).
    /// The expected figures are the construction's (`rhythm_reached`),
    /// and on a smaller such deal, whose cycle takes 504,798 rounds, they
    /// are checked by playing it literally.
    #[test]
    fn a_see_saw_of_half_a_billion_rounds_is_answered_without_going_round_it() {
        answered_within_a_million_rounds(rhythm_reached(0, (49, 51), 300, 10_000, 7), 504_798);
        answered_within_a_million_rounds(
            rhythm_reached(0, (499, 501), 300, 10_000, 7),
            500_497_998,
        );
    }

    /// The same for see-saws of see-saws, which only games of an even
    /// number of cards play: winners `1122` repeating, on units of two
    /// cards. A card's tier (`T`, `M` or `B`, see `rhythm_reached`) decides
    /// how it travels: `T` cards turn as a see-saw's high cards do, `B`
    /// cards as its low ones, and the `M` cards, which swap between high
    /// and low units, once round all `2a + 2b + 1` units, so the cycle takes
    /// `4 × lcm(a, b, a + b + 1, 2a + 2b + 1)` rounds: 1,069,280 on 326
    /// cards, checked by playing them literally, and 30,938,000 on 998
    /// (the engine took 0.33 s to go round such a cycle, and 2.0 s on
    /// 1,998 cards, 165,834,000 rounds). And a see-saw of those, period 8,
    /// whose 2,106,720 rounds on 148 cards are checked literally.
    #[test]
    fn see_saws_of_see_saws_are_answered_without_going_round_them() {
        answered_within_a_million_rounds(rhythm_reached(1, (40, 41), 300, 10_000, 7), 1_069_280);
        answered_within_a_million_rounds(rhythm_reached(1, (125, 124), 300, 10_000, 7), 30_938_000);
        answered_within_a_million_rounds(rhythm_reached(2, (9, 9), 300, 10_000, 7), 2_106_720);
    }

    /// [`answered_without_going_round`] within a million rounds.
    fn answered_within_a_million_rounds(reached: ([Vec<u64>; 2], u64, [Vec<u64>; 2]), length: u64) {
        answered_without_going_round(reached, length, 1_000_000);
    }

    /// Plays a deal `reached` as by [`rhythm_reached`] (up to 300 rounds
    /// back, cards raised past the deal's size) under a limit of
    /// `max_rounds` rounds, and checks that it cycles from where it was
    /// built to, every `length` rounds: literally too, for cycles of up to
    /// three million rounds.
    fn answered_without_going_round(
        reached: ([Vec<u64>; 2], u64, [Vec<u64>; 2]),
        length: u64,
        max_rounds: u64,
    ) {
        let limits = Limits { max_rounds, ..Limits::default() };
        let (deal_decks, undone, state) = reached;
        // Undoing stops where neither deck ends with a card over a lower one.
        assert!(undone >= 30, "{undone} rounds undone");
        let [one, two] = &deal_decks;
        let what = format!("{} + {} cards", one.len(), two.len());
        let _deadline = deadline::Deadline::new(&what);
        if length <= 3_000_000 {
            // From round 300 on the states repeat every `length` rounds;
            // the state before is not repeated `length` rounds later.
            let before = played(&deal_decks, undone - 1);
            assert_eq!(played(&before, 1), state, "{what}");
            assert_eq!(played(&state, length), state, "{what}");
            assert_ne!(played(&before, length), before, "{what}");
        }
        let d = deal(one, two);
        let plain = play_with(&d, Variant::Plain, limits, &mut |_| {}).unwrap();
        assert_eq!(plain.end, End::Cycle { start: undone + 1, length }, "{what}");
        assert_eq!((plain.winner, plain.score, plain.rounds), (None, None, undone + length));
        assert_eq!([plain.decks.one, plain.decks.two], state, "{what}");
        // No card can start a sub-game, so the recursive game is the
        // plain one until its first state comes back.
        let recursive = play_with(&d, Variant::Recursive, limits, &mut |_| {}).unwrap();
        let score = reference::score(&state[0]);
        assert_eq!(
            (recursive.winner, recursive.end, recursive.rounds, recursive.score),
            (Some(Player::One), End::Repetition, undone + length, Some(score)),
            "{what}"
        );
        assert_eq!([recursive.decks.one, recursive.decks.two], state, "{what}");
        assert_eq!(winning_score(&d, Variant::Recursive).unwrap(), Some(score), "{what}");
        assert_eq!(winning_score(&d, Variant::Plain).unwrap(), None, "{what}");
        let count = count_games(&d, limits, &mut |_| {}).unwrap();
        assert_eq!((count.games.to_u128(), count.max_depth), (Some(1), 0), "{what}");
    }

    /// One of the ordered deals of `1 + 1` to `20 + 20` cards with up to
    /// three pairs of cards swapped (across the decks or within one): the
    /// neighbourhood of the orders a shuffle rarely makes.
    fn nearly_ordered_deals() -> impl Strategy<Value = (Vec<u64>, Vec<u64>)> {
        (1..=20_u64)
            .prop_flat_map(|n| {
                let deals = ordered_deals(n);
                let cards = 2 * n as usize;
                (
                    proptest::sample::select(deals),
                    proptest::collection::vec((0..cards, 0..cards), 0..=3),
                )
            })
            .prop_map(|((one, two), swaps)| {
                let split = one.len();
                let mut cards: Vec<u64> = one.into_iter().chain(two).collect();
                for (i, j) in swaps {
                    cards.swap(i, j);
                }
                let two = cards.split_off(split);
                (cards, two)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        #[test]
        fn nearly_ordered_deals_match_the_reference((one, two) in nearly_ordered_deals()) {
            check_bounded(&one, &two, 40_000)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, max_global_rejects: 10_000, ..ProptestConfig::default() })]
        /// Puzzle-shaped 25 + 25 deals light enough for the reference to
        /// play in 40,000 rounds of all games (about 3 in 10, some 200 games
        /// each): the heavy ones are checked by the seeded tests of
        /// `tests/corpus.rs`.
        #[test]
        fn light_puzzle_shaped_deals_match_the_reference((one, two) in puzzle_deals(25)) {
            check_bounded(&one, &two, 40_000)?;
        }

        #[test]
        fn cards_are_conserved_and_plain_equals_recursive_without_sub_games((one, two) in deals(12)) {
            let _deadline = deadline::Deadline::new(&format!("{one:?} / {two:?}"));
            let d = deal(&one, &two);
            let mut all: Vec<u64> = one.iter().chain(&two).copied().collect();
            all.sort_unstable();
            for variant in [Variant::Plain, Variant::Recursive] {
                let outcome = play(&d, variant).unwrap();
                let mut end: Vec<u64> = outcome.decks.one.iter().chain(&outcome.decks.two).copied().collect();
                end.sort_unstable();
                prop_assert_eq!(&end, &all);
            }
            // With every card larger than the deal, no sub-game can start, so the
            // variants differ only by the repetition rule.
            let n = all.len() as u64;
            let shift = |deck: &[u64]| deck.iter().map(|c| c + n).collect::<Vec<_>>();
            let big = deal(&shift(&one), &shift(&two));
            let plain = play(&big, Variant::Plain).unwrap();
            let recursive = play(&big, Variant::Recursive).unwrap();
            if plain.end == End::EmptyDeck {
                prop_assert_eq!(plain, recursive);
            } else {
                prop_assert_eq!(recursive.end, End::Repetition);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// A deal that [`Deal::can_recurse`] says cannot start a sub-game plays
        /// one game, as the reference counts; cards raised by up to the deal's
        /// size make both answers common.
        #[test]
        fn a_deal_that_cannot_recurse_plays_one_game(
            (one, two) in deals(10),
            raise in 0..=20u64,
        ) {
            let lift = |deck: &[u64]| deck.iter().map(|c| c + raise).collect::<Vec<u64>>();
            let (one, two) = (lift(&one), lift(&two));
            prop_assume!(reference::recursive_within(&one, &two, 20_000).is_some());
            let expected = reference::recursive(&one, &two);
            if !deal(&one, &two).can_recurse() {
                prop_assert_eq!((expected.games, expected.max_depth), (1, 0));
            }
            check(&one, &two);
        }
    }

    /// The fast engine counts the decks of every game in progress against
    /// the memory limit, the top game's included: with sub-games one deep,
    /// two games' decks are held at once, each pair in rings of 257 bytes
    /// a deck, so a limit of 1,000 bytes stops the deal at its first
    /// sub-game. (A version that counted only the games below the top one
    /// passed every other test: the deeper deals there stop either way.)
    #[test]
    fn the_top_games_decks_count_against_the_memory_limit() {
        let (one, two) = ([1, 5], [3, 6, 7, 8]);
        let d = deal(&one, &two);
        let expected = reference::recursive(&one, &two);
        assert_eq!((expected.games, expected.max_depth), (2, 1));
        let roomy = Limits { max_state_memory: 1 << 20, ..Limits::default() };
        let outcome = play_with(&d, Variant::Recursive, roomy, &mut |_| {});
        assert_matches(&outcome.unwrap(), &expected, "roomy");
        let tight = Limits { max_state_memory: 1000, ..Limits::default() };
        let result = play_with(&d, Variant::Recursive, tight, &mut |_| {});
        assert!(
            matches!(result, Err(crabdice::Exhausted::Nesting { limit: 1000, .. })),
            "{result:?}"
        );
    }

    #[test]
    fn can_recurse_is_tight() {
        // After round 1's draw, player 1 holds 1 card and player 2 holds 3:
        // exactly enough for the drawn 1 and 3, the two lowest cards.
        let tight = deal(&[1, 5], &[3, 6, 7, 8]);
        assert!(tight.can_recurse());
        let games = play_observed(&tight, Variant::Recursive, &mut NoTrace).unwrap().games;
        assert_eq!(games, reference::recursive(&[1, 5], &[3, 6, 7, 8]).games);
        assert!(games >= 2);
        // One more than the cards left after a draw.
        assert!(!deal(&[2, 5], &[3, 6, 7, 8]).can_recurse());
        assert!(!deal(&[1], &[]).can_recurse());
        assert!(!deal(&[u64::MAX], &[u64::MAX - 1]).can_recurse());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// One card too large for a byte makes the engine rank the cards (its
        /// labels are no longer the values, so needs come from a table), while
        /// the small cards still start sub-games. Half the time the card is
        /// near 2^64, so the winner's score often passes 64 bits.
        #[test]
        fn deals_with_a_card_above_255_match_the_reference(
            (one, two) in deals(12),
            big in prop_oneof![256..100_000u64, (u64::MAX - (1 << 40))..=u64::MAX],
            to_one in any::<bool>(),
            at in any::<prop::sample::Index>(),
        ) {
            let (mut one, mut two) = (one, two);
            let deck = if to_one { &mut one } else { &mut two };
            deck.insert(at.index(deck.len() + 1), big);
            check_bounded(&one, &two, 20_000)?;
        }
    }

    /// More than 256 cards take the engine's wide rings (16-bit labels), which
    /// deal sub-games card by card: 300 cards, of which only `1..=12` are small
    /// enough to start sub-games (6 to 57 games a deal).
    #[test]
    fn recursive_deals_of_wide_labels_match_the_reference() {
        for seed in 0..16 {
            let (one, two) = seeded::decks(150, seed);
            let lift = |deck: Vec<u64>| -> Vec<u64> {
                deck.into_iter().map(|c| if c <= 12 { c } else { c + 1000 }).collect()
            };
            let (one, two) = (lift(one), lift(two));
            let _deadline = deadline::Deadline::new(&format!("wide #{seed}"));
            let expected = reference::recursive(&one, &two);
            assert!(expected.games > 1, "seed {seed} starts sub-games");
            let d = deal(&one, &two);
            assert_matches(
                &play(&d, Variant::Recursive).unwrap(),
                &expected,
                &format!("wide #{seed}"),
            );
            assert_eq!(
                winning_score(&d, Variant::Recursive).unwrap(),
                expected.score,
                "wide #{seed}"
            );
        }
    }
}
