//! Dirac Dice: the puzzle's examples, engines against obviously correct
//! references, and every way the input or the rules can be wrong.

mod dirac {
    use std::collections::HashMap;

    use crabdice::{
        CountOverflow, DiceError, DiceRules, DiracEngine, DiracLimits, MAX_LITERAL_ROLLS,
        ParseErrorKind, RulesError, Starts, Universes, count_wins, play_deterministic,
        play_deterministic_literal, play_dirac, play_dirac_within, win_histogram,
        win_histogram_within,
    };
    use num_bigint::BigUint;
    use proptest::prelude::*;

    const EXAMPLE: &str = "Player 1 starting position: 4\nPlayer 2 starting position: 8\n";

    fn starts(positions: &[u64]) -> Starts {
        use std::fmt::Write;
        let mut text = String::new();
        for (i, p) in positions.iter().enumerate() {
            writeln!(text, "Player {} starting position: {p}", i + 1).unwrap();
        }
        Starts::parse(&text).expect("generated starts parse")
    }

    // ---------------------------------------------------------------------------
    // The puzzle's examples
    // ---------------------------------------------------------------------------

    #[test]
    fn deterministic_example() {
        let outcome =
            play_deterministic(&Starts::parse(EXAMPLE).unwrap(), &DiceRules::deterministic())
                .unwrap();
        assert_eq!(outcome.answer, 739_785_u32);
        assert_eq!((outcome.winner, outcome.scores(), outcome.rolls), (0, &[1000, 745][..], 993));
    }

    #[test]
    fn dirac_example_with_every_engine_that_can_finish() {
        let starts = Starts::parse(EXAMPLE).unwrap();
        for engine in [DiracEngine::Memo, DiracEngine::PerPlayer] {
            let outcome = play_dirac(&starts, &DiceRules::dirac(), engine).unwrap();
            assert_eq!(outcome.wins, [444_356_092_776_315_u64, 341_960_390_180_808], "{engine}");
            assert_eq!(
                (outcome.winner, outcome.answer.to_string()),
                (0, "444356092776315".to_owned())
            );
        }
    }

    #[test]
    fn the_universe_tree_refuses_the_puzzle_instead_of_running_for_days() {
        let err =
            play_dirac(&Starts::parse(EXAMPLE).unwrap(), &DiceRules::dirac(), DiracEngine::Tree)
                .unwrap_err();
        assert!(matches!(err, DiceError::Rules(RulesError::TreeTooLarge { .. })), "{err}");
    }

    // ---------------------------------------------------------------------------
    // The deterministic game against references
    // ---------------------------------------------------------------------------

    /// The end of a deterministic game: winner, scores, rolls.
    type End = (usize, Vec<u128>, u128);

    /// Roll by roll, exactly as the puzzle tells it.
    fn roll_by_roll(positions: &[u64], rules: &DiceRules) -> End {
        let (board, faces) = (u128::from(rules.board), u128::from(rules.faces));
        let mut spaces: Vec<u128> = positions.iter().map(|&p| u128::from(p)).collect();
        let mut scores = vec![0_u128; positions.len()];
        let (mut next_value, mut rolls) = (1_u128, 0_u128);
        loop {
            for player in 0..positions.len() {
                let mut sum = 0;
                for _ in 0..rules.rolls {
                    sum += next_value;
                    next_value = next_value % faces + 1;
                    rolls += 1;
                }
                spaces[player] = (spaces[player] - 1 + sum) % board + 1;
                scores[player] += spaces[player];
                if scores[player] >= u128::from(rules.target) {
                    return (player, scores, rolls);
                }
            }
        }
    }

    /// Round by round, remembering the whole state (die offset and every space)
    /// at the start of each round; when it repeats, skips as many whole cycles
    /// as keep everyone below the target, then finishes roll by roll. An
    /// independent route to big targets.
    fn with_cycle_skip(positions: &[u64], rules: &DiceRules) -> End {
        let (board, faces, target) =
            (u128::from(rules.board), u128::from(rules.faces), u128::from(rules.target));
        let players = positions.len();
        let mut spaces: Vec<u128> = positions.iter().map(|&p| u128::from(p)).collect();
        let mut scores = vec![0_u128; players];
        let (mut offset, mut rolls) = (0_u128, 0_u128);
        let mut seen: HashMap<(u128, Vec<u128>), (u128, Vec<u128>)> = HashMap::new();
        let mut skipped = false;
        for round in 0_u128.. {
            if !skipped {
                if let Some((then, old)) = seen.get(&(offset, spaces.clone())) {
                    let gains: Vec<u128> =
                        scores.iter().zip(old).map(|(now, old)| now - old).collect();
                    let cycles =
                        scores.iter().zip(&gains).map(|(s, g)| (target - 1 - s) / g).min().unwrap();
                    for (s, g) in scores.iter_mut().zip(&gains) {
                        *s += cycles * g;
                    }
                    rolls += cycles * (round - then) * players as u128 * u128::from(rules.rolls);
                    skipped = true;
                } else {
                    seen.insert((offset, spaces.clone()), (round, scores.clone()));
                }
            }
            for player in 0..players {
                let mut sum = 0;
                for _ in 0..rules.rolls {
                    sum += offset + 1;
                    offset = (offset + 1) % faces;
                    rolls += 1;
                }
                spaces[player] = (spaces[player] - 1 + sum) % board + 1;
                scores[player] += spaces[player];
                if scores[player] >= target {
                    return (player, scores, rolls);
                }
            }
        }
        unreachable!()
    }

    fn check_deterministic(positions: &[u64], rules: &DiceRules, reference: End) {
        let outcome = play_deterministic(&starts(positions), rules).unwrap();
        let (winner, scores, rolls) = reference;
        assert_eq!(
            (outcome.winner, outcome.scores(), outcome.rolls),
            (winner, &scores[..], rolls),
            "{rules} {positions:?}"
        );
        let lowest =
            scores.iter().enumerate().filter(|&(i, _)| i != winner).map(|(_, &s)| s).min().unwrap();
        assert_eq!(outcome.answer, BigUint::from(lowest) * rolls);
        assert_eq!(outcome.turns * u128::from(rules.rolls), rolls);
        // The library's own literal engine, within its limit, to the last field.
        if rolls <= u128::from(MAX_LITERAL_ROLLS) {
            let literal = play_deterministic_literal(&starts(positions), rules).unwrap();
            assert_eq!(literal, outcome, "{rules} {positions:?}");
        }
    }

    /// Rules and starts for 2 to 5 players on a board of up to 12 spaces.
    fn small_game(max_target: u64) -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
        (1..=12_u64, 1..=max_target, 1..=20_u64, 1..=6_u64, 2..=5_usize).prop_flat_map(
            |(board, target, faces, rolls, players)| {
                (
                    Just(DiceRules { board, target, faces, rolls }),
                    proptest::collection::vec(1..=board, players),
                )
            },
        )
    }

    proptest! {
        #[test]
        fn periodic_solver_matches_rolling_one_by_one((rules, positions) in small_game(3_000)) {
            check_deterministic(&positions, &rules, roll_by_roll(&positions, &rules));
        }

        #[test]
        fn periodic_solver_matches_cycle_skipping_at_huge_targets(
            (rules, positions) in small_game(1),
            target in 1_u64..=u64::MAX,
        ) {
            let rules = DiceRules { target, ..rules };
            check_deterministic(&positions, &rules, with_cycle_skip(&positions, &rules));
        }
    }

    /// Rules and starts for 2 to 4 players on a board of more than 2^62 spaces,
    /// mostly starting near space 1, so that pawns keep small scores and a game
    /// lasts many turns before anyone wraps around the board.
    fn game_on_a_huge_board() -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
        let board = prop_oneof![Just(u64::MAX), Just(u64::MAX - 1), (1_u64 << 62)..=u64::MAX];
        (board, 1..=5_000_u64, 1..=6_u64, 1..=3_u64, 2..=4_usize).prop_flat_map(
            |(board, target, faces, rolls, players)| {
                let start = prop_oneof![4 => 1..=20_u64, 1 => (board - 20)..=board];
                (
                    Just(DiceRules { board, target, faces, rolls }),
                    proptest::collection::vec(start, players),
                )
            },
        )
    }

    proptest! {
        /// A pawn's period on a board this large used to be computed with a sum
        /// that wrapped past 2^64: one step short, so a pawn moving one space a
        /// turn seemed to come back after a single turn.
        #[test]
        fn periodic_solver_matches_rolling_one_by_one_on_huge_boards(
            (rules, positions) in game_on_a_huge_board(),
        ) {
            check_deterministic(&positions, &rules, roll_by_roll(&positions, &rules));
        }
    }

    #[test]
    fn a_pawn_moving_one_space_a_turn_on_the_largest_board_never_comes_back() {
        // A die that always rolls 1, once a turn: from spaces 1 and 2 the pawns
        // score 2, 3, 4, ... and 3, 4, 5, ... Player 2 passes 100 first, on its
        // 12th turn (3 + ... + 14 = 102), when player 1 has 2 + ... + 13 = 90:
        // 90 × 24 rolls.
        let rules = DiceRules { board: u64::MAX, target: 100, faces: 1, rolls: 1 };
        let outcome = play_deterministic(&starts(&[1, 2]), &rules).unwrap();
        assert_eq!(outcome.answer, BigUint::from(2160_u32));
    }

    #[test]
    fn puzzle_starts_at_targets_of_a_trillion_and_beyond() {
        for target in [1_000_u64, 1_000_000_000_000, 1_000_000_000_000_000_000, u64::MAX] {
            let rules = DiceRules { target, ..DiceRules::deterministic() };
            check_deterministic(&[4, 8], &rules, with_cycle_skip(&[4, 8], &rules));
        }
        let trillion = DiceRules { target: 1_000_000_000_000, ..DiceRules::deterministic() };
        let outcome = play_deterministic(&Starts::parse(EXAMPLE).unwrap(), &trillion).unwrap();
        assert!(outcome.answer > u64::MAX);
        // A thousand rolls a turn at the largest target: an answer past 128 bits.
        let huge = DiceRules { target: u64::MAX, rolls: 1000, ..DiceRules::deterministic() };
        check_deterministic(&[4, 8], &huge, with_cycle_skip(&[4, 8], &huge));
        let outcome = play_deterministic(&Starts::parse(EXAMPLE).unwrap(), &huge).unwrap();
        assert_eq!(outcome.answer.to_u128(), None);
        assert_eq!(outcome.answer.to_string(), "42535295865117307932921825928971026432000");
    }

    #[test]
    fn huge_dice_and_boards_with_a_reachable_target_are_simulated_exactly() {
        let rules = DiceRules {
            board: 999_999_999_989,
            target: 50_000_000_000_000,
            faces: 1 << 50,
            rolls: 7,
        };
        check_deterministic(
            &[5, 999_999_999_989, 77],
            &rules,
            roll_by_roll(&[5, 999_999_999_989, 77], &rules),
        );
        let many_rolls = DiceRules { board: 10, target: 1000, faces: 100, rolls: 10_007 };
        check_deterministic(&[4, 8], &many_rolls, roll_by_roll(&[4, 8], &many_rolls));
    }

    /// Rules whose die takes hundreds of thousands of turns to come back to
    /// an offset, on boards of up to 12 spaces, with targets high enough that
    /// the game mostly outlasts the turns a sweep along the line of the die's
    /// wraps costs (so that it is swept rather than simulated), and the die
    /// wraps a few times, yet short enough to roll one by one.
    fn game_with_a_huge_die() -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
        let faces =
            prop_oneof![8 => 300_000_u64..=3_000_000, 1 => Just(999_999_937), 1 => Just(u64::MAX)];
        (1..=12_u64, 100_000..=1_500_000_u64, faces, 1..=6_u64, 2..=5_usize).prop_flat_map(
            |(board, target, faces, rolls, players)| {
                (
                    Just(DiceRules { board, target, faces, rolls }),
                    proptest::collection::vec(1..=board, players),
                )
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn sweeps_along_the_dies_wraps_match_rolling_one_by_one((rules, positions) in game_with_a_huge_die()) {
            check_deterministic(&positions, &rules, roll_by_roll(&positions, &rules));
        }
    }

    /// A die that takes a billion turns to come back to an offset, and a
    /// target of 10^18, used to be refused; now the game is answered at once,
    /// and it ends as a game must: the winner just past the target, everyone
    /// else short of it.
    #[test]
    fn a_die_too_long_to_cycle_is_answered_at_any_target() {
        let rules = DiceRules {
            faces: 999_999_937,
            target: 1_000_000_000_000_000_000,
            ..DiceRules::deterministic()
        };
        let outcome = play_deterministic(&starts(&[4, 8]), &rules).unwrap();
        let target = u128::from(rules.target);
        let (winner, scores) = (outcome.winner, outcome.scores());
        assert!(scores[winner] >= target && scores[winner] < target + 10, "{scores:?}");
        assert!(scores[1 - winner] < target, "{scores:?}");
        // Every turn scores 1 to 10: the turns lie between those bounds.
        let total: u128 = scores.iter().sum();
        assert!(outcome.turns <= total && total <= 10 * outcome.turns);
        assert_eq!(outcome.rolls, 3 * outcome.turns);
    }

    #[test]
    fn a_game_too_long_to_learn_is_played_to_its_end() {
        // A board too large to sweep, a die too long to block, and a game of
        // 24.6 million turns: past the 20 million of learning a period, so it
        // is played turn by turn. The answer is a C simulation's, roll by roll.
        let rules = DiceRules { board: 1000, target: 6_000_000_000, faces: 999_999_937, rolls: 3 };
        let outcome = play_deterministic(&starts(&[4, 8]), &rules).unwrap();
        assert_eq!(outcome.answer, 423_040_077_864_639_774_u64);
        assert_eq!(outcome.rolls, 73_921_947);
        let expected: [u128; 2] = [6_000_000_550, 5_722_794_042];
        assert_eq!(outcome.scores(), expected.map(Into::into));
        // A board of 2^40 spaces reaches 2^64 - 1 points in 67 million turns
        // (this was refused before games were played past 20 million turns).
        let wide = DiceRules { board: 1 << 40, target: u64::MAX, faces: (1 << 40) + 1, rolls: 3 };
        let outcome = play_deterministic(&starts(&[1, 2]), &wide).unwrap();
        assert_eq!(outcome.answer.to_string(), "3729883841403066670137929346");
        // Sixty times longer, 1.46 billion turns, its stretches of 167
        // million turns are leapt over. The answers are an independent
        // Python simulation's, which follows each pawn from one wrap of the
        // die to the next.
        let longer = DiceRules { target: 60 * rules.target, ..rules };
        let outcome = play_deterministic(&starts(&[4, 8]), &longer).unwrap();
        assert_eq!(outcome.answer.to_string(), "1565501486285127577506");
        assert_eq!(outcome.rolls, 4_369_477_953);
        // On 2,000 spaces a game of 2.4 billion turns is leapt over too: a
        // period within a stretch is at most twice the board. The answer is
        // a C simulation's, roll by roll.
        let wider = DiceRules { board: 2000, target: 200 * rules.target, ..rules };
        let outcome = play_deterministic(&starts(&[4, 8]), &wider).unwrap();
        assert_eq!(outcome.answer.to_string(), "8525681548425199917555");
        assert_eq!(outcome.rolls, 7_195_447_761);
        // On 2,000,000 spaces, too many to leap over, a game that long is
        // refused at once, as even one scoring the whole board every turn
        // would be too long.
        let widest = DiceRules { board: 2_000_000, target: 2_000_000 * rules.target, ..rules };
        let err = play_deterministic(&starts(&[4, 8]), &widest).unwrap_err();
        assert!(matches!(err, DiceError::Rules(RulesError::PeriodTooLong { .. })), "{err}");
    }

    /// Stretches of the die long enough to leap over, on boards of up to
    /// 2^20 spaces, where these games used to be refused as too long to
    /// play: the first three answers are an independent Python
    /// simulation's, which follows each pawn from one wrap of the die to
    /// the next (the first game, 5.7 billion turns, took it 17 s).
    #[test]
    fn games_of_billions_of_turns_in_long_stretches_are_leapt_over() {
        let cases: [(&[u64], DiceRules, &str); 5] = [
            (
                &[23, 325, 695, 28],
                DiceRules {
                    board: 833,
                    target: 599_046_298_976,
                    faces: 18_121_848_564_410_928_420,
                    rolls: 3,
                },
                "9835996153599764162118",
            ),
            (
                &[461, 484],
                DiceRules {
                    board: 732,
                    target: 371_089_396_617,
                    faces: 1_164_115_533_906_158_532,
                    rolls: 3,
                },
                "2067404341417169638770",
            ),
            (
                &[147, 90, 137, 150],
                DiceRules { board: 174, target: 314_033_154_469, faces: 1_908_819_083, rolls: 5 },
                "21213921468425343436170",
            ),
            // 600 million turns on 65,536 spaces, and 76 million on the
            // widest board leapt over; these answers are a C simulation's,
            // roll by roll.
            (
                &[3, 60_000],
                DiceRules {
                    board: 65_536,
                    target: 10_000_000_000_000,
                    faces: (1 << 40) + 15,
                    rolls: 3,
                },
                "18172199055809743973280",
            ),
            (
                &[4, 8],
                DiceRules {
                    board: 1 << 20,
                    target: 20_000_000_000_000,
                    faces: 999_999_937,
                    rolls: 3,
                },
                "4564243174243205475666",
            ),
        ];
        let outcomes: Vec<_> = cases
            .iter()
            .map(|(positions, rules, answer)| {
                let outcome = play_deterministic(&starts(positions), rules).unwrap();
                assert_eq!(outcome.answer.to_string(), *answer, "{rules}");
                outcome
            })
            .collect();
        assert_eq!((outcomes[0].winner, outcomes[0].rolls), (1, 17_156_457_162));
    }

    /// On a board of one space every turn scores exactly 1, so a game's
    /// length is known by hand: the winner, player 1, reaches the target on
    /// its turn `target`, after `(target − 1) × players + 1` turns in all.
    #[test]
    fn rolls_up_to_2_to_the_128_minus_1_are_answered_and_more_refused() {
        // 4 players, target 2^62 + 1: 2^64 + 1 turns of 2^64 − 1 rolls,
        // that is 2^128 − 1 rolls.
        let rules = DiceRules { board: 1, target: (1 << 62) + 1, faces: 7, rolls: u64::MAX };
        let outcome = play_deterministic(&starts(&[1; 4]), &rules).unwrap();
        assert_eq!((outcome.winner, outcome.rolls), (0, u128::MAX));
        assert_eq!(outcome.scores(), [(1 << 62) + 1, 1 << 62, 1 << 62, 1 << 62]);
        assert_eq!(outcome.answer, BigUint::from(1_u64 << 62) * BigUint::from(u128::MAX));
        // 31 players: (target − 1) × 31 + 1 = 2^65 turns of 2^63 rolls,
        // exactly 2^128, one more than a u128 holds.
        let rules =
            DiceRules { board: 1, target: 1_190_112_520_884_487_202, faces: 7, rolls: 1 << 63 };
        let err = play_deterministic(&starts(&[1; 31]), &rules).unwrap_err();
        assert!(matches!(err, DiceError::Rules(RulesError::TooManyRolls)), "{err}");
        assert!(err.to_string().contains("2^128 times or more"), "{err}");
    }

    /// A period whose points pass 2^64 − 1 cannot be kept in the tables
    /// of points per period: both shortcuts that keep them (a die that the
    /// board divides, and the tables past it) must see that and play on
    /// another way. A die of `3 × 2^60` (or `3 × 2^62`, past 2^63, where
    /// only the tables are tried) faces on a board of as many spaces, rolled
    /// `2^57` (or `2^59`) times a turn: each pawn's period is 48 turns,
    /// whose points pass 2^64. Without the checks, the points overflowed:
    /// a panic in a test build, and in a release build answers that wrapped
    /// (`124905893228913817863759883404438405120` and
    /// `913678093602656579432155699108456169472`). Against a Python
    /// simulation that sums each turn's rolls in closed form (a mutation
    /// audit's).
    #[test]
    fn periods_whose_points_pass_64_bits_are_played_without_tables() {
        let cases = [
            (3_u64 << 60, 1_u64 << 57, "23303028301104306553642192152070979584"),
            (3 << 62, 1 << 59, "498460498419343466173985702887292928"),
        ];
        let scores = [
            [10_160_120_759_347_839_012_u128, 9_511_602_413_006_487_616],
            [10_088_063_165_309_911_048, 288_230_376_151_711_752],
        ];
        let rolls = [2_449_958_197_289_549_824_u128, 1_729_382_256_910_270_464];
        for (((board, rolls_a_turn, answer), scores), rolls) in
            cases.into_iter().zip(scores).zip(rolls)
        {
            let rules = DiceRules {
                board,
                target: 10_000_000_000_000_000_000,
                faces: board,
                rolls: rolls_a_turn,
            };
            let outcome = play_deterministic(&starts(&[4, 8]), &rules).unwrap();
            assert_eq!(outcome.answer.to_string(), answer, "{rules}");
            assert_eq!((outcome.winner, outcome.rolls), (0, rolls), "{rules}");
            assert_eq!(outcome.scores(), scores, "{rules}");
        }
    }

    /// On a board of 2^21 spaces, one more doubling than stretches are
    /// leapt over on, a game of 3.5 × 10^13 turns.
    #[test]
    fn a_game_too_long_to_repeat_or_finish_is_refused() {
        let rules = DiceRules { board: 1 << 21, target: u64::MAX, faces: (1 << 40) + 1, rolls: 3 };
        let err = play_deterministic(&starts(&[1, 2]), &rules).unwrap_err();
        assert!(matches!(err, DiceError::Rules(RulesError::PeriodTooLong { .. })), "{err}");
    }

    /// A game that neither repeats within 20 million turns nor can be
    /// swept, blocked or leapt over is played for a billion turns, in
    /// stretches or by walkers (the documented limit of
    /// `play_deterministic`); a target of 4 × 10^15 on 2,000,000 spaces
    /// (too many to leap over stretches) needs four billion turns at least,
    /// so it is refused at once, naming the limit, the same on both sides
    /// of the choice between stretches and walkers. On a die of 999,999,937
    /// faces, two players rolling 7,812,499 times move the offset by
    /// 15,624,998, 64 of which are 999,999,872, within the die (stretches);
    /// 7,812,500 rolls move it 15,625,000, 64 of which pass it, and 200
    /// million rolls 40% of it (walkers). (The choice itself changes only
    /// the speed: games on both sides are checked against simulation in
    /// the `stretches` module's tests.)
    #[test]
    fn a_game_too_long_to_play_is_refused_naming_the_turns_it_may_be_played_for() {
        let rules = DiceRules {
            board: 2_000_000,
            target: 4_000_000_000_000_000,
            faces: 999_999_937,
            rolls: 3,
        };
        for rolls in [3, 7_812_499, 7_812_500, 200_000_000] {
            let rules = DiceRules { rolls, ..rules };
            let err = play_deterministic(&starts(&[4, 8]), &rules).unwrap_err();
            let limit = 1_000_000_000;
            assert_eq!(err, RulesError::PeriodTooLong { limit }.into(), "{rules}");
        }
    }

    /// On a board of `(2^64 + 5) / 3` spaces a die of 3 faces rolled once a
    /// turn moves each of two pawns 6 spaces every 3 turns, so each comes
    /// back after `3 × board = 2^64 + 5` turns: a period past 64 bits, far
    /// too long to learn, not one of 5 turns (its length wrapped to 64
    /// bits). No pawn comes round the board before 10^12 points: against
    /// rolling one by one, and a Python simulation's answer (player 2 wins
    /// after 1,999,992 rolls, player 1 at 999,996,666,664).
    #[test]
    fn a_period_of_2_to_the_64_plus_5_turns_is_not_taken_for_5() {
        let rules = DiceRules {
            board: 6_148_914_691_236_517_207,
            target: 1_000_000_000_000,
            faces: 3,
            rolls: 1,
        };
        check_deterministic(&[4, 8], &rules, roll_by_roll(&[4, 8], &rules));
        let outcome = play_deterministic(&starts(&[4, 8]), &rules).unwrap();
        assert_eq!(outcome.answer, 1_999_985_333_354_666_688_u64);
    }

    /// Blocks follow the pawns "as long as the blocks of all players add
    /// up to at most 20 million turns": a die of 20 million faces rolled
    /// once a turn by two players comes back to each player's offset after
    /// 10 million of its turns, exactly 20 million in all. On 997 spaces,
    /// too many to sweep and not a divisor of the die, a target of 10^18 is
    /// too far to play and the periods too long to learn: only blocks
    /// answer it. The answer is from a Python model that jumps whole
    /// cycles of the die (each player's points over a cycle tabled by the
    /// space it starts on), itself checked roll by roll on 300 small games.
    #[test]
    fn blocks_of_exactly_20_million_turns_in_all_are_followed() {
        let rules = DiceRules {
            board: 997,
            target: 1_000_000_000_000_000_000,
            faces: 20_000_000,
            rolls: 1,
        };
        let outcome = play_deterministic(&starts(&[4, 8]), &rules).unwrap();
        assert_eq!(outcome.winner, 1);
        assert_eq!(outcome.scores(), [999_999_999_712_254_430, 1_000_000_000_000_000_342]);
        assert_eq!((outcome.turns, outcome.rolls), (4_008_016_031_318_464, 4_008_016_031_318_464));
        assert_eq!(outcome.answer.to_string(), "4008016030165175142499130724795520");
    }

    // ---------------------------------------------------------------------------
    // The Dirac game: engines and count types agree
    // ---------------------------------------------------------------------------

    /// Boards up to 12, targets up to 25, dice up to 4 faces rolled up to 3 times,
    /// 2 to 4 players. The memo engine's joint states grow as (board × target)
    /// to the power of the players, so more players get lower targets.
    fn dirac_game() -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
        (2..=4_usize)
            .prop_flat_map(|players| {
                (1..=12_u64, 1..=[25_u64, 12, 7][players - 2], 1..=4_u64, 1..=3_u64, Just(players))
            })
            .prop_flat_map(|(board, target, faces, rolls, players)| {
                (
                    Just(DiceRules { board, target, faces, rolls }),
                    proptest::collection::vec(1..=board, players),
                )
            })
    }

    fn wins(
        positions: &[u64],
        rules: &DiceRules,
        engine: DiracEngine,
    ) -> Result<Vec<Universes>, DiceError> {
        play_dirac(&starts(positions), rules, engine).map(|outcome| outcome.wins)
    }

    /// Wins that fit 64 bits each are counted in `u64`, though together
    /// they pass `2^64`: the counts are a memoized Python simulation's.
    #[test]
    fn wins_that_fit_each_are_counted_though_their_sum_does_not() {
        for (board, faces, rolls, target, wins) in [
            (3, 7, 1, 20, [11_049_138_860_078_856_855_u64, 9_529_535_882_929_614_496]),
            (2, 2, 2, 23, [13_469_688_391_188_611_072, 11_456_652_812_818_055_168]),
        ] {
            let rules = DiceRules { board, target, faces, rolls };
            let starts = starts(&[1, board]);
            assert!(wins[0].checked_add(wins[1]).is_none());
            for engine in [DiracEngine::PerPlayer, DiracEngine::Memo] {
                assert_eq!(count_wins::<u64>(&starts, &rules, engine).unwrap(), wins);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn memo_and_per_player_engines_agree((rules, positions) in dirac_game()) {
            let fast = wins(&positions, &rules, DiracEngine::PerPlayer).unwrap();
            match wins(&positions, &rules, DiracEngine::Memo) {
                Ok(memo) => prop_assert_eq!(memo, fast),
                Err(DiceError::Rules(
                    RulesError::MemoTooLarge { .. } | RulesError::MemoPastLimits { .. },
                )) => {}
                Err(other) => panic!("{other}"),
            }
        }

        /// Each count type answers exactly when every player's wins fit it
        /// (a type overflows only where some player's do not, though the
        /// engines' own counts along the way could be wider).
        #[test]
        fn u64_u128_and_big_integer_counts_agree((rules, positions) in dirac_game()) {
            let starts = starts(&positions);
            let big = count_wins::<BigUint>(&starts, &rules, DiracEngine::PerPlayer).unwrap();
            let fits = |bits: u64| big.iter().all(|n| n.bits() <= bits);
            match count_wins::<u128>(&starts, &rules, DiracEngine::PerPlayer) {
                Ok(wide) => prop_assert_eq!(wide.into_iter().map(BigUint::from).collect::<Vec<_>>(), big.clone()),
                Err(DiceError::Overflow(CountOverflow { width: "u128", .. })) => prop_assert!(!fits(128)),
                Err(other) => panic!("{other}"),
            }
            match count_wins::<u64>(&starts, &rules, DiracEngine::PerPlayer) {
                Ok(narrow) => prop_assert_eq!(narrow.into_iter().map(BigUint::from).collect::<Vec<_>>(), big),
                Err(DiceError::Overflow(CountOverflow { width: "u64", .. })) => prop_assert!(!fits(64)),
                Err(other) => panic!("{other}"),
            }
        }

        #[test]
        fn wins_by_turn_add_up_to_the_wins((rules, positions) in dirac_game()) {
            let starts = starts(&positions);
            let histogram = win_histogram(&starts, &rules).unwrap();
            let outcome = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
            let universes_per_turn = BigUint::from(rules.faces).pow(u32::try_from(rules.rolls).unwrap());
            for (player, turns) in histogram.iter().enumerate() {
                let in_game: BigUint = turns.in_game.iter().map(Universes::to_biguint).sum();
                prop_assert_eq!(in_game, outcome.wins[player].to_biguint());
                // Alone, every universe reaches the target eventually: weighting
                // the turn-t arrivals by the turns left gives all the universes.
                let last = u32::try_from(turns.alone.len()).unwrap();
                let alone: BigUint = turns
                    .alone
                    .iter()
                    .zip(1..)
                    .map(|(n, t)| n.to_biguint() * universes_per_turn.pow(last - t))
                    .sum();
                prop_assert_eq!(alone, universes_per_turn.pow(last));
            }
        }
    }

    /// The game played forward, round by round: every universe still
    /// playing (spaces and scores of all players, with its count) moves each
    /// player in turn, by each turn's sum of rolls counted roll by roll.
    /// Returns, per player, the universes it wins on each of its turns, for
    /// every round that starts with a universe still playing (a player whose
    /// turn comes after the last universe ended wins 0 on it).
    fn in_game_played_forward(positions: &[u64], rules: &DiceRules) -> Vec<Vec<BigUint>> {
        let sums = turn_sums(rules);
        let spaces: Vec<u128> = positions.iter().map(|&p| u128::from(p)).collect();
        let mut playing =
            HashMap::from([((spaces, vec![0_u64; positions.len()]), BigUint::from(1_u8))]);
        let mut in_game = vec![Vec::new(); positions.len()];
        while !playing.is_empty() {
            for (player, won) in in_game.iter_mut().enumerate() {
                let mut wins = BigUint::ZERO;
                let mut next = HashMap::new();
                for ((spaces, scores), count) in &playing {
                    for (sum, universes) in &sums {
                        let (mut spaces, mut scores) = (spaces.clone(), scores.clone());
                        spaces[player] = (spaces[player] - 1 + sum) % u128::from(rules.board) + 1;
                        scores[player] +=
                            u64::try_from(spaces[player].min(u128::from(rules.target))).unwrap();
                        if scores[player] >= rules.target {
                            wins += count * universes;
                        } else {
                            *next.entry((spaces, scores)).or_insert(BigUint::ZERO) +=
                                count * universes;
                        }
                    }
                }
                won.push(wins);
                playing = next;
            }
        }
        in_game
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// Every turn's wins, and the turns the histogram runs for, are those
        /// of the game played forward; and each player's arrivals alone are
        /// those of a game it plays by itself, forward, until every universe
        /// has reached the target.
        #[test]
        fn wins_by_turn_are_the_game_played_forward((rules, positions) in dirac_game()) {
            let histogram = win_histogram(&starts(&positions), &rules).unwrap();
            let in_game: Vec<Vec<BigUint>> = histogram
                .iter()
                .map(|player| player.in_game.iter().map(Universes::to_biguint).collect())
                .collect();
            prop_assert_eq!(in_game, in_game_played_forward(&positions, &rules));
            for (player, &start) in histogram.iter().zip(&positions) {
                let alone: Vec<BigUint> = player.alone.iter().map(Universes::to_biguint).collect();
                let [by_itself] = <[_; 1]>::try_from(in_game_played_forward(&[start], &rules)).unwrap();
                prop_assert_eq!(alone, by_itself, "from {}", start);
            }
        }
    }

    /// The histogram runs until some player, alone, has no universe left
    /// playing: after that no game goes on. Past 16 players the turns are
    /// combined down product trees instead of from the ends of the row;
    /// both ways stop there.
    #[test]
    fn wins_by_turn_stop_when_some_player_alone_has_finished() {
        for players in [2, 3, 16, 17, 24] {
            for (first, second) in [(1, 10), (4, 8), (7, 7)] {
                let positions: Vec<u64> =
                    (0..players).map(|i| if i % 2 == 0 { first } else { second }).collect();
                let histogram = win_histogram(&starts(&positions), &DiceRules::dirac()).unwrap();
                let last = histogram.iter().map(|player| player.alone.len()).min().unwrap();
                for (i, player) in histogram.iter().enumerate() {
                    let what =
                        format!("{players} players from {first} and {second}: player {}", i + 1);
                    assert_eq!(player.in_game.len(), last, "{what}");
                }
                let won_last = histogram.iter().any(|player| player.in_game[last - 1] > 0_u64);
                assert!(won_last, "{players} players: nobody wins on the last turn");
            }
        }
    }

    /// Players who tie for the most universes: the answer is their count,
    /// and the winner the earliest of them (three players from 3, 1 and 1
    /// on a board of 3, target 4, a die of 2 faces rolled once: 12, 12 and
    /// 6 universes, by the game read literally).
    #[test]
    fn a_tie_for_the_most_universes_goes_to_the_earliest_player() {
        let rules = DiceRules { board: 3, target: 4, faces: 2, rolls: 1 };
        let positions = [3, 1, 1];
        let literal = literal_dirac(&positions, &rules);
        assert_eq!(literal, [12_u8, 12, 6].map(BigUint::from));
        for engine in [DiracEngine::PerPlayer, DiracEngine::Memo, DiracEngine::Tree] {
            let outcome = play_dirac(&starts(&positions), &rules, engine).unwrap();
            assert_eq!(
                (outcome.winner, outcome.answer.to_biguint()),
                (0, BigUint::from(12_u8)),
                "{engine:?}"
            );
        }
    }

    #[test]
    fn three_and_four_players_agree_across_engines() {
        let cases: [(&[u64], DiceRules); 4] = [
            (&[4, 8, 1], DiceRules { target: 12, ..DiceRules::dirac() }),
            (&[3, 3, 7], DiceRules { target: 15, board: 7, ..DiceRules::dirac() }),
            (&[1, 2, 3, 4], DiceRules { target: 8, ..DiceRules::dirac() }),
            (&[2, 5, 2, 9], DiceRules { target: 10, faces: 2, rolls: 2, ..DiceRules::dirac() }),
        ];
        for (positions, rules) in cases {
            let fast = wins(positions, &rules, DiracEngine::PerPlayer).unwrap();
            assert_eq!(
                wins(positions, &rules, DiracEngine::Memo).unwrap(),
                fast,
                "{rules} {positions:?}"
            );
        }
    }

    #[test]
    fn counts_beyond_128_bits_match_the_big_integer_memo() {
        // A 10-faced die rolled 6 times splits each turn into a million universes.
        let rules = DiceRules { board: 10, target: 30, faces: 10, rolls: 6 };
        let starts = starts(&[4, 8]);
        let fast = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
        assert!(fast.answer.to_biguint() > BigUint::from(u128::MAX));
        let memo = count_wins::<BigUint>(&starts, &rules, DiracEngine::Memo).unwrap();
        assert_eq!(fast.wins.into_iter().map(BigUint::from).collect::<Vec<_>>(), memo);
        assert!(matches!(
            count_wins::<u128>(&starts, &rules, DiracEngine::Memo),
            Err(DiceError::Overflow(_))
        ));
    }

    #[test]
    fn player_alone_from_4_matches_a_published_histogram_at_target_22() {
        // The seed write-up's table for a player starting on 4 (its code tests
        // `score > 21`, that is a target of 22).
        let histogram = win_histogram(
            &Starts::parse(EXAMPLE).unwrap(),
            &DiceRules { target: 22, ..DiceRules::dirac() },
        );
        let alone: Vec<String> =
            histogram.unwrap()[0].alone.iter().map(ToString::to_string).collect();
        let published = [
            "0",
            "0",
            "3427",
            "244332",
            "3784741",
            "34277144",
            "139217660",
            "164170968",
            "44423487",
            "1165428",
        ];
        assert_eq!(alone, published);
    }

    /// The universes each player wins, by the rules read literally on the board
    /// as given: each state (whose turn, every space and score) is solved once,
    /// from the sums of a turn's rolls counted roll by roll. Spaces are `u128`,
    /// so a board of 2^64 − 1 spaces wraps like any other.
    fn literal_dirac(positions: &[u64], rules: &DiceRules) -> Vec<BigUint> {
        type State = (usize, Vec<u128>, Vec<u64>);
        fn solve(
            state: State,
            rules: &DiceRules,
            sums: &HashMap<u128, BigUint>,
            memo: &mut HashMap<State, Vec<BigUint>>,
        ) -> Vec<BigUint> {
            if let Some(wins) = memo.get(&state) {
                return wins.clone();
            }
            let (player, spaces, scores) = &state;
            let mut wins = vec![BigUint::ZERO; spaces.len()];
            for (sum, universes) in sums {
                let (mut spaces, mut scores) = (spaces.clone(), scores.clone());
                spaces[*player] = (spaces[*player] - 1 + sum) % u128::from(rules.board) + 1;
                scores[*player] +=
                    u64::try_from(spaces[*player].min(u128::from(rules.target))).unwrap();
                if scores[*player] >= rules.target {
                    wins[*player] += universes;
                } else {
                    let next = ((player + 1) % spaces.len(), spaces, scores);
                    for (total, won) in wins.iter_mut().zip(solve(next, rules, sums, memo)) {
                        *total += won * universes;
                    }
                }
            }
            memo.insert(state, wins.clone());
            wins
        }
        let spaces = positions.iter().map(|&p| u128::from(p)).collect();
        solve((0, spaces, vec![0; positions.len()]), rules, &turn_sums(rules), &mut HashMap::new())
    }

    /// A turn's sums of rolls, each with its universes, counted roll by
    /// roll, modulo the board (a pawn moved by a sum lands where it would
    /// by that sum modulo the board, so many rolls on a small board make
    /// few sums). Sums are `u128`, as the references' spaces are.
    fn turn_sums(rules: &DiceRules) -> HashMap<u128, BigUint> {
        let board = u128::from(rules.board);
        let mut sums = HashMap::from([(0_u128, BigUint::from(1_u8))]);
        for _ in 0..rules.rolls {
            let mut next = HashMap::new();
            for (sum, universes) in &sums {
                for face in 1..=u128::from(rules.faces) {
                    *next.entry((sum + face) % board).or_insert(BigUint::ZERO) += universes;
                }
            }
            sums = next;
        }
        sums
    }

    /// Boards from one space to 2^64 − 1, with starts near either end of the
    /// board, where a first turn may wrap around it.
    fn any_board() -> impl Strategy<Value = (DiceRules, Vec<u64>)> {
        let board = prop_oneof![1..=40_u64, 1..=u64::MAX, u64::MAX - 40..=u64::MAX];
        (board, 1..=9_u64, 1..=5_u64, 1..=3_u64, 2..=3_usize).prop_flat_map(
            |(board, target, faces, rolls, players)| {
                let near = board.min(40);
                let start = prop_oneof![1..=near, board - near + 1..=board];
                (
                    Just(DiceRules { board, target, faces, rolls }),
                    proptest::collection::vec(start, players),
                )
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The engines play a large board as a small one (`T + rolls × faces`
        /// spaces): the literal game on the board as given agrees.
        #[test]
        fn every_board_size_matches_the_literal_game((rules, positions) in any_board()) {
            let literal = literal_dirac(&positions, &rules);
            for engine in [DiracEngine::PerPlayer, DiracEngine::Memo] {
                let wins = count_wins::<BigUint>(&starts(&positions), &rules, engine).unwrap();
                prop_assert_eq!(&wins, &literal, "{} {:?} {}", rules, positions, engine);
            }
        }
    }

    #[test]
    fn the_puzzle_on_a_board_of_2_to_the_64_matches_the_literal_game() {
        // From the last space, a turn of d wraps around to space d.
        let rules = DiceRules { board: u64::MAX, ..DiceRules::dirac() };
        let positions = [u64::MAX, 8];
        let wins = count_wins::<BigUint>(&starts(&positions), &rules, DiracEngine::PerPlayer);
        assert_eq!(wins.unwrap(), literal_dirac(&positions, &rules));
    }

    /// Turns past 128 bits whose moves each hold more universes than a
    /// machine word: a die of 300 faces rolled 16 times on a board of 3
    /// splits a turn into 300^16 (about 2^131.6) universes, a third of them
    /// or so for each move. Counted in big integers, against the literal
    /// game (whose turn, on a board of 3, is its rolls' sums modulo 3,
    /// counted roll by roll).
    #[test]
    fn moves_past_a_machine_word_are_counted_as_the_literal_game_counts_them() {
        for target in 3..=6 {
            let rules = DiceRules { board: 3, target, faces: 300, rolls: 16 };
            assert!(turn_sums(&rules).values().all(|universes| universes.bits() > 64));
            for positions in [[1, 1], [2, 3], [3, 1]] {
                let wins =
                    count_wins::<BigUint>(&starts(&positions), &rules, DiracEngine::PerPlayer);
                let literal = literal_dirac(&positions, &rules);
                assert_eq!(wins.unwrap(), literal, "target {target}, {positions:?}");
            }
        }
    }

    #[test]
    fn a_large_board_and_a_large_die_are_counted_within_the_default_limits() {
        // A die of 20,000 faces on a board of a million spaces plays on 20,008
        // of them: the estimate once multiplied the table by every distinct
        // move (2.6 × 10^10 operations) and refused it, but the word engine
        // passes over the table once a roll (5 × 10^5).
        let rules = DiceRules { board: 1_000_000, target: 8, faces: 20_000, rolls: 1 };
        let positions = [999_990, 1];
        let wins = count_wins::<BigUint>(&starts(&positions), &rules, DiracEngine::PerPlayer);
        assert_eq!(wins.unwrap(), literal_dirac(&positions, &rules));
    }

    #[test]
    fn a_table_too_large_is_replaced_by_the_live_cells() {
        // Board of a million, die of 1000: 3030 spaces, of which a pawn short
        // of 30 points stands on the 29 lowest. Within a limit that refuses the
        // table of every space, the live cells count the same universes.
        let rules = DiceRules { board: 1_000_000, target: 30, faces: 1000, rolls: 3 };
        let three = starts(&[999_999, 4, 1500]);
        let narrow = DiracLimits { max_table_words: 100_000, ..DiracLimits::default() };
        let table = play_dirac(&three, &rules, DiracEngine::PerPlayer).unwrap();
        let live = play_dirac_within(&three, &rules, DiracEngine::PerPlayer, &narrow).unwrap();
        assert_eq!(live, table);
        let histogram = win_histogram_within(&three, &rules, &narrow).unwrap();
        assert_eq!(histogram, win_histogram(&three, &rules).unwrap());
        // Too narrow for the live cells too: refused.
        let tiny = DiracLimits { max_table_words: 1000, ..DiracLimits::default() };
        let refused = play_dirac_within(&three, &rules, DiracEngine::PerPlayer, &tiny);
        assert!(
            matches!(refused, Err(DiceError::Rules(RulesError::DiracTooBig { limit: 1000, .. }))),
            "{refused:?}"
        );
        // A board of a million and a die of 100,000 to 50 points: the table
        // would take 1.85 GB; the live cells count it at once. (Given 8 GB, the
        // table engine counts the same, in 1.8 s and 1 GB.)
        let wide = DiceRules { board: 1_000_000, target: 50, faces: 100_000, rolls: 3 };
        let outcome = play_dirac(&starts(&[4, 8]), &wide, DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome.answer.to_string(), "44502450176999981774640071");
        // A die of 2^20 on a board of 2^64 − 1 plays on 3 × 2^20 + 21 spaces:
        // refused before, counted now, and the per-turn wins add up to it.
        let huge = DiceRules { board: u64::MAX, faces: 1 << 20, ..DiceRules::dirac() };
        let outcome = play_dirac(&starts(&[4, 8]), &huge, DiracEngine::PerPlayer).unwrap();
        let histogram = win_histogram(&starts(&[4, 8]), &huge).unwrap();
        let first: BigUint = histogram[0].in_game.iter().map(Universes::to_biguint).sum();
        assert_eq!(outcome.wins[0].to_biguint(), first);
    }

    /// A die far larger than the board lands on each space by many sums
    /// (`2^25` of them for two rolls of `2^64 − 1` faces on `2^40`
    /// spaces): the live cells sum them as polynomials, where summing one
    /// by one was refused as `5 × 10^10` operations. Against an
    /// independent count in Python (a black-box audit's).
    #[test]
    fn dice_far_larger_than_the_board_are_counted_at_once() {
        let rules = DiceRules { board: 1 << 40, target: 2, faces: u64::MAX, rolls: 2 };
        let wins = count_wins::<BigUint>(&starts(&[1, 2]), &rules, DiracEngine::PerPlayer).unwrap();
        let expected = [
            "32592575621351777369694048731192036269126048596233068553224634349812518682756424203344281600",
            "105312291668461405703777946887030813642376168341660513521708826625",
        ];
        assert_eq!(wins.iter().map(ToString::to_string).collect::<Vec<_>>(), expected);
    }

    #[test]
    fn huge_dirac_games_are_refused_at_once() {
        let starts = Starts::parse(EXAMPLE).unwrap();
        for rules in [
            DiceRules { target: 1_000_000, ..DiceRules::dirac() },
            // Counts past 1024 bits, so big-integer cells, estimated at 1.5 ×
            // 10^11 operations: refused once the machine words overflow, in a
            // tenth of a second.
            DiceRules { target: 5000, ..DiceRules::dirac() },
            // A large die makes a large board matter (3 × 2^40 + 21 spaces),
            // and a long game makes many cells live.
            DiceRules { board: u64::MAX, target: 1000, faces: 1 << 40, ..DiceRules::dirac() },
            DiceRules { faces: u64::MAX, rolls: u64::MAX, ..DiceRules::dirac() },
            // A turn's moves of 23 words (30 rolls of 2^49 faces): when the
            // live cells' estimate took a product for one count's words,
            // this game was counted, in 48 s.
            DiceRules { board: 10, target: 139, faces: 1 << 49, rolls: 30 },
        ] {
            let err = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap_err();
            assert!(
                matches!(
                    err,
                    DiceError::Rules(
                        RulesError::DiracTooBig { .. } | RulesError::DiracTooSlow { .. }
                    )
                ),
                "{rules}: {err}"
            );
        }
    }

    /// The memo and tree engines take more than a player's table of cells,
    /// so a game whose table passes the limits is refused before either
    /// starts: as their own limit where the per-player engine counts the
    /// game over its live cells (a die of 2^32 faces on a board of
    /// 2^64 − 1, whose wins come from an independent count in Python, a
    /// black-box review's), and as the table's refusal itself where the
    /// live cells are past the limits too.
    #[test]
    fn the_memo_and_tree_engines_refuse_games_past_a_table_of_cells() {
        let rules = DiceRules { board: u64::MAX, target: 6, faces: 1 << 32, rolls: 1 };
        let four = starts(&[3, 3, 8, 9]);
        let outcome = play_dirac(&four, &rules, DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome.wins, [4_294_967_294_u64, 8_589_934_588, 17_179_869_184, 0]);
        for engine in [DiracEngine::Memo, DiracEngine::Tree] {
            let err = play_dirac(&four, &rules, engine).unwrap_err();
            let DiceError::Rules(RulesError::PastTheTable { engine: refused, reason }) = &err
            else {
                panic!("{engine}: {err}");
            };
            assert_eq!(*refused, engine);
            assert!(matches!(**reason, RulesError::DiracTooBig { .. }), "{engine}: {err}");
            assert!(err.to_string().starts_with(&format!("the {engine} engine counts only")));
        }
        let huge = DiceRules { target: 5000, ..DiceRules::dirac() };
        let err = play_dirac(&starts(&[4, 8]), &huge, DiracEngine::Memo).unwrap_err();
        assert!(
            matches!(
                err,
                DiceError::Rules(RulesError::DiracTooBig { .. } | RulesError::DiracTooSlow { .. })
            ),
            "{err}"
        );
    }

    /// A die of one face is one universe, which the per-player and memo
    /// engines play at any target, past their tables; the tree, the
    /// reference, walks its one branch within the tables' limits, and past
    /// them names its own refusal, as for any game the per-player engine
    /// counts. Its winner is the deterministic game's, rolled one roll at
    /// a time.
    #[test]
    fn the_tree_refuses_a_one_faced_game_past_the_tables_as_its_own_limit() {
        let rules = DiceRules { target: 10_000_000, faces: 1, ..DiceRules::dirac() };
        let two = starts(&[4, 8]);
        let rolled = play_deterministic_literal(&two, &rules).unwrap();
        for engine in [DiracEngine::PerPlayer, DiracEngine::Memo] {
            let outcome = play_dirac(&two, &rules, engine).unwrap();
            assert_eq!((outcome.winner, outcome.answer.to_string()), (rolled.winner, "1".into()));
        }
        let err = play_dirac(&two, &rules, DiracEngine::Tree).unwrap_err();
        let DiceError::Rules(RulesError::PastTheTable { engine, reason }) = &err else {
            panic!("{err}");
        };
        assert_eq!(*engine, DiracEngine::Tree);
        assert!(matches!(**reason, RulesError::DiracTooBig { .. }), "{err}");
    }

    /// A memory limit is the most a count may hold, so a game whose tables
    /// are estimated at exactly the limit is counted, and refused one word
    /// below it. Two players on a board of two spaces, whose longest game
    /// is the target itself (no shorter game to fall back on); the boundary
    /// is read from the refusal, so a new estimate moves it with the test.
    #[test]
    fn a_table_exactly_at_the_memory_limit_is_counted() {
        let (two, rules) = (starts(&[1, 2]), DiceRules { board: 2, ..DiceRules::dirac() });
        let within = |words| DiracLimits { max_table_words: words, ..DiracLimits::default() };
        let play = |words| play_dirac_within(&two, &rules, DiracEngine::PerPlayer, &within(words));
        let Err(DiceError::Rules(RulesError::DiracTooBig { words, .. })) = play(1) else {
            panic!("a limit of one word passed");
        };
        let outcome = play(words).unwrap();
        let expected = play_dirac(&two, &rules, DiracEngine::Memo).unwrap();
        assert_eq!((outcome.winner, &outcome.wins), (expected.winner, &expected.wins));
        assert!(
            matches!(play(words - 1), Err(DiceError::Rules(RulesError::DiracTooBig { .. }))),
            "{words} - 1 words"
        );
    }

    /// Combining the players' own counts is bounded by the memory limit
    /// too, for the answer as for the histogram: four players on a board of
    /// one space, each winning in its third turn, need more words to
    /// combine than one player's table takes. Counted at exactly that many,
    /// it is the first player's `27^9` universes (every roll of its three
    /// turns and of the others' two), and refused one word below. (Without
    /// the check, the answer ignored the limit; only the histogram's own
    /// check was tested.)
    #[test]
    fn combining_the_players_counts_is_bounded_by_the_memory_limit() {
        let (four, rules) =
            (starts(&[1; 4]), DiceRules { board: 1, target: 3, ..DiceRules::dirac() });
        let within = |words| DiracLimits { max_table_words: words, ..DiracLimits::default() };
        let play = |words| play_dirac_within(&four, &rules, DiracEngine::PerPlayer, &within(words));
        // Each player's own table first; with room for that, the combining.
        let Err(DiceError::Rules(RulesError::DiracTooBig { words: table, .. })) = play(1) else {
            panic!("a limit of one word passed");
        };
        let Err(DiceError::Rules(RulesError::DiracTooManyPlayers { words, players: 4, .. })) =
            play(table)
        else {
            panic!("four players combined within the {table} words of one player's table");
        };
        let outcome = play(words).unwrap();
        assert_eq!(outcome.wins, [7_625_597_484_987_u64, 0, 0, 0]);
        assert!(
            matches!(
                play(words - 1),
                Err(DiceError::Rules(RulesError::DiracTooManyPlayers { .. }))
            ),
            "{words} - 1 words"
        );
    }

    // ---------------------------------------------------------------------------
    // Bad input and bad rules
    // ---------------------------------------------------------------------------

    #[test]
    fn parse_errors_name_the_line_and_the_problem() {
        use ParseErrorKind as K;
        /// Input, the line to blame, and a test of the error's kind.
        type Case = (&'static str, usize, fn(&K) -> bool);
        let cases: [Case; 16] = [
            ("", 1, |k| matches!(k, K::Empty)),
            ("\n  \n", 1, |k| matches!(k, K::Empty)),
            ("Player 1 starting position: 4\n", 2, |k| matches!(k, K::TooFewPlayers { found: 1 })),
            (
                "Player 1 starting position: 4\nPlayer 3 starting position: 8\n",
                2,
                |k| matches!(k, K::ExpectedStart { expected, .. } if expected == "Player 2 starting position: P"),
            ),
            ("Player 2 starting position: 4\nPlayer 1 starting position: 8\n", 1, |k| {
                matches!(k, K::ExpectedStart { .. })
            }),
            (
                "Player 1 starting position: four\nPlayer 2 starting position: 8\n",
                1,
                |k| matches!(k, K::NotAPosition { found } if found == "four"),
            ),
            (
                "Player 1 starting position: 4\nPlayer 2 starting position: 0\n",
                2,
                |k| matches!(k, K::NotAPosition { found } if found == "0"),
            ),
            (
                "Player 1 starting position: 4\nPlayer 2 starting position: 8 please\n",
                2,
                |k| matches!(k, K::AfterPosition { found } if found == "please"),
            ),
            (
                "Player 1 starting position: 4\n\nPlayer 2 starting position: 8\n",
                2,
                |k| matches!(k, K::BlankBetweenPlayers { expected } if expected == "Player 2 starting position: P"),
            ),
            // Several blank lines: the first is blamed.
            ("Player 1 starting position: 4\n\n \r\n\nPlayer 2 starting position: 8\n", 2, |k| {
                matches!(k, K::BlankBetweenPlayers { .. })
            }),
            (
                "Player 1 starting position: 99999999999999999999999\nPlayer 2 starting position: 8\n",
                1,
                |k| matches!(k, K::PositionTooLarge { .. }),
            ),
            ("Player 1:\n9\n", 1, |k| matches!(k, K::ExpectedStart { .. })),
            ("Player 1 starting position: 4\nPlayer 2 starting position:  \n", 2, |k| {
                matches!(k, K::MissingPosition { player: 2 })
            }),
            // After two players and a blank line, what follows is to blame
            // unless it is the next player's line.
            (
                "Player 1 starting position: 4\nPlayer 2 starting position: 8\n\nPlayer 1:\n9\n",
                4,
                |k| matches!(k, K::AfterPlayers { found } if found == "Player 1:"),
            ),
            (
                "Player 1 starting position: 4\nPlayer 2 starting position: 8\n\nPlayer 3 starting position: 1\n",
                3,
                |k| matches!(k, K::BlankBetweenPlayers { .. }),
            ),
            ("Player 1 starting position: 4\n\njunk\n", 2, |k| {
                matches!(k, K::BlankBetweenPlayers { .. })
            }),
        ];
        for (text, line, is_expected) in cases {
            let err = Starts::parse(text).unwrap_err();
            assert_eq!(err.line(), line, "{text:?}: {err}");
            assert!(is_expected(err.kind()), "{text:?}: {err}");
            assert!(err.to_string().starts_with(&format!("line {line}, column ")), "{err}");
        }
    }

    #[test]
    fn off_board_starts_are_reported_at_their_line_by_both_games() {
        let starts = Starts::parse("Player 1 starting position: 4\nPlayer 2 starting position: 8\nPlayer 3 starting position: 11\n")
            .unwrap();
        let dirac = play_dirac(&starts, &DiceRules::dirac(), DiracEngine::default()).unwrap_err();
        let deterministic = play_deterministic(&starts, &DiceRules::deterministic()).unwrap_err();
        for err in [dirac, deterministic] {
            let DiceError::Parse(parse) = err else { panic!("{err}") };
            assert_eq!(parse.line(), 3);
            assert_eq!(*parse.kind(), ParseErrorKind::OffBoard { position: 11, board: 10 });
            let help = miette::Diagnostic::help(&*parse).unwrap().to_string();
            assert!(help.contains("larger board"), "{help}");
        }
    }

    #[test]
    fn nonsense_rules_are_refused_by_both_games() {
        let starts = Starts::parse(EXAMPLE).unwrap();
        let cases = [
            (DiceRules { board: 0, ..DiceRules::dirac() }, RulesError::EmptyBoard),
            (DiceRules { faces: 0, ..DiceRules::dirac() }, RulesError::NoFaces),
            (DiceRules { rolls: 0, ..DiceRules::dirac() }, RulesError::NoRolls),
            (DiceRules { target: 0, ..DiceRules::dirac() }, RulesError::NoTarget),
        ];
        for (rules, expected) in cases {
            assert_eq!(
                play_dirac(&starts, &rules, DiracEngine::default()).unwrap_err(),
                expected.clone().into()
            );
            assert_eq!(play_deterministic(&starts, &rules).unwrap_err(), expected.clone().into());
            let help = miette::Diagnostic::help(&expected).map(|help| help.to_string());
            assert!(help.is_some_and(|help| help.starts_with("give DiceRules::")), "{expected}");
        }
    }

    // ---------------------------------------------------------------------------
    // The per-player engine's word widths against the memo engine
    // ---------------------------------------------------------------------------

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// The puzzle's die across the targets where two players stop sharing a
        /// 64-bit word (their counts pass 2^32 around a target of 25 to 30) and
        /// where each player's own words outgrow 64 bits (past about 55).
        #[test]
        fn per_player_matches_memo_across_word_widths(
            target in 20_u64..=64,
            positions in proptest::collection::vec(1_u64..=10, 2),
        ) {
            let rules = DiceRules { target, ..DiceRules::dirac() };
            let memo = wins(&positions, &rules, DiracEngine::Memo).unwrap();
            prop_assert_eq!(wins(&positions, &rules, DiracEngine::PerPlayer).unwrap(), memo);
        }
    }

    #[test]
    fn per_player_matches_memo_where_a_player_outgrows_64_bits() {
        // At 60 a player's own counts need 70 bits: its table moves from 64 to
        // 128-bit words mid-game; the answer needs 136 bits.
        let rules = DiceRules { target: 60, ..DiceRules::dirac() };
        let memo = count_wins::<BigUint>(&starts(&[4, 8]), &rules, DiracEngine::Memo).unwrap();
        let fast = wins(&[4, 8], &rules, DiracEngine::PerPlayer).unwrap();
        assert_eq!(fast.into_iter().map(BigUint::from).collect::<Vec<_>>(), memo);
        assert!(memo[0].bits() > 128);
    }
}
