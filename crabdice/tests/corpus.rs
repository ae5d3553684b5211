//! The benchmark corpus (`benches/corpus/`) as a regression table: every
//! engine must reproduce the expected values, which the reference engine
//! confirms (on the light deals in every run; on all of them with
//! `cargo test --release -- --ignored`).

mod reference;
mod seeded;

mod combat {
    use super::{reference, seeded};

    use crabdice::{
        Deal, Limits, NoTrace, Variant, count_games, play, play_observed, winning_score,
    };

    struct Case {
        file: String,
        deal: Deal,
        one: (u128, u64),
        two: (u128, u64, u64, u32),
    }

    fn corpus() -> Vec<Case> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/corpus");
        let table = std::fs::read_to_string(format!("{dir}/expected.txt")).unwrap();
        table
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let n = |i: usize| fields[i].parse::<u64>().unwrap();
                let text = std::fs::read_to_string(format!("{dir}/{}", fields[0])).unwrap();
                Case {
                    file: fields[0].to_owned(),
                    deal: Deal::parse(&text).unwrap(),
                    one: (n(1).into(), n(2)),
                    two: (n(3).into(), n(4), n(5), n(6) as u32),
                }
            })
            .collect()
    }

    #[test]
    fn the_fast_engine_reproduces_the_corpus() {
        for case in corpus() {
            let plain = play(&case.deal, Variant::Plain).unwrap();
            assert_eq!((plain.score.unwrap(), plain.rounds), case.one, "{}", case.file);
            let recursive = play(&case.deal, Variant::Recursive).unwrap();
            assert_eq!(
                (recursive.score.unwrap(), recursive.rounds),
                (case.two.0, case.two.1),
                "{}",
                case.file
            );
        }
    }

    #[test]
    fn the_literal_engine_reproduces_the_corpus_counts() {
        for case in corpus().into_iter().take(4) {
            let report = play_observed(&case.deal, Variant::Recursive, &mut NoTrace).unwrap();
            let got = (
                report.outcome.score.unwrap(),
                report.outcome.rounds,
                report.games,
                report.max_depth,
            );
            assert_eq!(got, case.two, "{}", case.file);
        }
    }

    #[test]
    fn counting_the_games_reproduces_every_corpus_count() {
        for case in corpus() {
            let count = count_games(&case.deal, Limits::default(), &mut |_| {}).unwrap();
            let count = (count.games.to_u128(), count.max_depth);
            assert_eq!(count, (Some(case.two.2.into()), case.two.3), "{}", case.file);
        }
    }

    fn check_reference(case: &Case) {
        let (one, two) = (&case.deal.decks().one, &case.deal.decks().two);
        let plain = reference::plain(one, two);
        assert_eq!((plain.score.unwrap(), plain.rounds), case.one, "{}", case.file);
        let recursive = reference::recursive(one, two);
        let got =
            (recursive.score.unwrap(), recursive.rounds, recursive.games, recursive.max_depth);
        assert_eq!(got, case.two, "{}", case.file);
    }

    #[test]
    fn the_reference_engine_confirms_the_light_deals() {
        for case in corpus().iter().take(3) {
            check_reference(case);
        }
    }

    #[test]
    #[ignore = "slow: the reference engine plays millions of rounds"]
    fn the_reference_engine_confirms_every_deal() {
        for case in corpus() {
            check_reference(&case);
        }
    }

    /// Plays the seeded `n + n` deal of `seed` and checks its whole outcome
    /// (score, rounds, final decks) against the reference engine's; returns
    /// the deal and the reference's outcome, for further checks.
    fn seeded_matches_the_reference(n: u64, seed: u64) -> (Deal, reference::RefOutcome) {
        let (one, two) = seeded::decks(n, seed);
        let deal = Deal::new(one.clone(), two.clone()).unwrap();
        let expected = reference::recursive(&one, &two);
        let got = play(&deal, Variant::Recursive).unwrap();
        assert_eq!(
            (got.score, got.rounds, &got.decks.one[..], &got.decks.two[..]),
            (expected.score, expected.rounds, &expected.decks.0[..], &expected.decks.1[..]),
            "{n} + {n}, seed {seed}"
        );
        (deal, expected)
    }

    #[test]
    fn the_first_seeded_deals_match_the_reference() {
        for seed in 0..20 {
            seeded_matches_the_reference(25, seed);
        }
    }

    /// The light deals of the README's benchmark table and the design
    /// notes (`examples/versus.rs`, `light N`): every seeded 1 + 1, 2 + 2,
    /// 3 + 3, 5 + 5 and 8 + 8 deal it times, played whole and scored alone.
    #[test]
    fn the_light_seeded_deals_match_the_reference() {
        for n in [1, 2, 3, 5, 8] {
            for seed in 0..3000 {
                let (deal, expected) = seeded_matches_the_reference(n, seed);
                let score = winning_score(&deal, Variant::Recursive).unwrap();
                assert_eq!(score, expected.score, "{n} + {n}, seed {seed}");
            }
        }
    }

    #[test]
    #[ignore = "slow: the reference engine plays about 300 million rounds"]
    fn three_thousand_seeded_deals_match_the_reference() {
        for seed in 0..3000 {
            let (deal, expected) = seeded_matches_the_reference(25, seed);
            let count = count_games(&deal, Limits::default(), &mut |_| {}).unwrap();
            assert_eq!(count.games, expected.games, "seed {seed}");
            assert_eq!(count.max_depth, expected.max_depth, "seed {seed}");
        }
    }
}
