//! Dirac Dice benchmarks: `cargo bench -p crabdice --bench dirac`.
//!
//! Every benchmark asserts its answer: against a value found independently
//! (the puzzle's, a simulation's, another engine's) where one is cheap to
//! have, and otherwise that every timed run gives the answer of a run made
//! before the timing.

use crabdice::{
    DiceError, DiceRules, DiracEngine, RulesError, Starts, play_deterministic,
    play_deterministic_literal, play_dirac,
};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const EXAMPLE: &str = "Player 1 starting position: 4\nPlayer 2 starting position: 8\n";
const THREE: &str =
    "Player 1 starting position: 4\nPlayer 2 starting position: 8\nPlayer 3 starting position: 1\n";
const FOUR: &str = "Player 1 starting position: 4\nPlayer 2 starting position: 8\n\
                    Player 3 starting position: 1\nPlayer 4 starting position: 6\n";

fn starts(text: &str) -> Starts {
    Starts::parse(text).unwrap()
}

/// The deterministic game from starts 4 and 8, by target: the same time
/// whatever the target (the board divides the die, so the fast path).
#[divan::bench(args = [1_000, 1_000_000_000_000, 1_000_000_000_000_000_000, u64::MAX])]
fn deterministic(bencher: Bencher, target: u64) {
    let puzzle = (target == 1_000).then_some("739785");
    deterministic_with(
        bencher,
        EXAMPLE,
        DiceRules { target, ..DiceRules::deterministic() },
        puzzle,
    );
}

/// The puzzle's deterministic game rolled one roll at a time (993 rolls to
/// target 1000, 9,999,993 to 10^7): the reference the solver is
/// checked against, for scale.
#[divan::bench(args = [1_000, 10_000_000])]
fn deterministic_literal(bencher: Bencher, target: u64) {
    let starts = starts(EXAMPLE);
    let rules = DiceRules { target, ..DiceRules::deterministic() };
    let expected = play_deterministic(&starts, &rules).unwrap();
    bencher.bench(|| {
        let outcome = play_deterministic_literal(black_box(&starts), black_box(&rules)).unwrap();
        assert_eq!(outcome, expected);
    });
}

/// Three players on the puzzle's board and die: the fast path builds each
/// pawn's table at run time (two players read tables built at compile time).
#[divan::bench(args = [1_000, 1_000_000_000_000])]
fn deterministic_three_players(bencher: Bencher, target: u64) {
    deterministic_with(bencher, THREE, DiceRules { target, ..DiceRules::deterministic() }, None);
}

/// The same with a 99-faced die, which the board does not divide: the
/// general solver, which tables each pawn's period from one sum per offset
/// of the die (33 of them), played with additions alone.
#[divan::bench(args = [1_000, 1_000_000_000_000])]
fn deterministic_general(bencher: Bencher, target: u64) {
    let rules = DiceRules { target, faces: 99, ..DiceRules::deterministic() };
    deterministic_with(bencher, EXAMPLE, rules, None);
}

/// Periods too long to learn (over 20 million turns): the pawns followed in
/// blocks of the die's offsets, by floor sums. A board of 10⁹ + 7 with a
/// die of 1000 (blocks of 500 turns; the answer is a Python simulation's,
/// 2,189,598 rolls), and a board of 2⁶⁴ − 1 to 2⁶⁴ − 1 points
/// (blocks of 50 turns).
#[divan::bench(args = [1_000_000_007, u64::MAX])]
fn deterministic_blocks(bencher: Bencher, board: u64) {
    let rules = if board == u64::MAX {
        DiceRules { board, target: u64::MAX, faces: 100, rolls: 7 }
    } else {
        DiceRules { board, target: 100_000_000_000_000, faces: 1000, rolls: 3 }
    };
    let simulated = (board != u64::MAX).then_some("218814691856692518180");
    if simulated.is_some() {
        assert_eq!(play_deterministic(&starts(EXAMPLE), &rules).unwrap().rolls, 2_189_598);
    }
    deterministic_with(bencher, EXAMPLE, rules, simulated);
}

/// Dice whose offsets take a million turns (1,000,003 faces) or a billion
/// (999,999,937) to come back: the game swept along the line of the die's
/// wraps (for the first, cheaper than blocks; the second is too long for
/// them). The first to 10⁷ points (the answer is a Python simulation's,
/// 10,357,155 rolls), the second to 10¹⁸.
#[divan::bench(args = [1_000_003, 999_999_937])]
fn deterministic_swept(bencher: Bencher, faces: u64) {
    let target = if faces == 1_000_003 { 10_000_000 } else { 1_000_000_000_000_000_000 };
    let rules = DiceRules { faces, target, ..DiceRules::deterministic() };
    let simulated = (faces == 1_000_003).then_some("91179949400505");
    if simulated.is_some() {
        assert_eq!(play_deterministic(&starts(EXAMPLE), &rules).unwrap().rolls, 10_357_155);
    }
    deterministic_with(bencher, EXAMPLE, rules, simulated);
}

/// A board too large to sweep or to leap over stretches and a die too long
/// for blocks: the game played turn by turn, in stretches, 4.1 million
/// turns to 2 × 10¹² points (the answer is a C simulation's, roll by
/// roll).
#[divan::bench]
fn deterministic_played(bencher: Bencher) {
    let rules = DiceRules {
        board: 2_000_000,
        faces: 999_999_937,
        target: 2_000_000_000_000,
        ..DiceRules::deterministic()
    };
    deterministic_with(bencher, EXAMPLE, rules, Some("23936731387349826735"));
}

/// The same board and die rolled 200 million times a turn, so that the
/// die's offset moves 40% of the die a round: stretches too short to pay,
/// the game played by walkers, 4.0 million turns to 2 × 10¹² points (the
/// answer is an independent C simulation's, one closed-form sum a turn in
/// 128 bits).
#[divan::bench]
fn deterministic_walked(bencher: Bencher) {
    let rules = DiceRules {
        board: 2_000_000,
        faces: 999_999_937,
        rolls: 200_000_000,
        target: 2_000_000_000_000,
    };
    deterministic_with(bencher, EXAMPLE, rules, Some("1596025712431988930400000000"));
}

/// The same die on a board of 1000, whose stretches are leapt over: to
/// 10⁹ points (4.1 million turns; the answer is a C simulation's, roll by
/// roll) and to 10¹² (4 billion turns; an independent Python
/// simulation's).
#[divan::bench(args = [1_000_000_000, 1_000_000_000_000])]
fn deterministic_leapt(bencher: Bencher, target: u64) {
    let rules = DiceRules { board: 1000, faces: 999_999_937, target, ..DiceRules::deterministic() };
    let simulated =
        if target == 1_000_000_000 { "11751094124639550" } else { "11851597989187335159903" };
    deterministic_with(bencher, EXAMPLE, rules, Some(simulated));
}

/// The same die on a board of 2000, whose stretches are leapt over since
/// a period within one is at most twice the board: to 1.2 × 10¹² points
/// (2.4 billion turns; the answer is a C simulation's, roll by roll).
#[divan::bench]
fn deterministic_leapt_wide(bencher: Bencher) {
    let rules = DiceRules {
        board: 2000,
        faces: 999_999_937,
        target: 1_200_000_000_000,
        ..DiceRules::deterministic()
    };
    deterministic_with(bencher, EXAMPLE, rules, Some("8525681548425199917555"));
}

/// Times the deterministic game from `text`'s starts under `rules`, each
/// timed run asserting the answer of a run made before the timing, which
/// must be `known` (the puzzle's, or an independent simulation's) where
/// one is given.
fn deterministic_with(bencher: Bencher, text: &str, rules: DiceRules, known: Option<&str>) {
    let starts = starts(text);
    let expected = play_deterministic(&starts, &rules).unwrap().answer;
    if let Some(known) = known {
        assert_eq!(expected.to_string(), known);
    }
    bencher.bench(|| {
        let outcome = play_deterministic(black_box(&starts), black_box(&rules)).unwrap();
        assert_eq!(outcome.answer, expected);
    });
}

/// The puzzle's Dirac game, by engine (the tree cannot finish it).
#[divan::bench(args = [DiracEngine::PerPlayer, DiracEngine::Memo])]
fn dirac_puzzle(bencher: Bencher, engine: DiracEngine) {
    let starts = starts(EXAMPLE);
    bencher.bench(|| {
        let outcome =
            play_dirac(black_box(&starts), black_box(&DiceRules::dirac()), engine).unwrap();
        assert_eq!(outcome.answer, 444_356_092_776_315_u64);
    });
}

/// How the default engine's cost grows: two players, larger targets. A
/// player's own counts take about 27 bits at 21 (two players share a 64-bit
/// word), 37 at 30, 59 at 50 (a u64 each), 115 at 100 (u128), 226 at 200
/// and 340 at 300 (256 and 512-bit words); the answers about twice as many.
#[divan::bench(args = [21, 30, 40, 50, 60, 100, 150, 200, 300])]
fn dirac_two_players(bencher: Bencher, target: u64) {
    grow(bencher, EXAMPLE, target);
}

/// Three players, by target: each player alone costs the same as with two,
/// only the interleaving's products are wider.
#[divan::bench(args = [21, 30, 50, 100, 200])]
fn dirac_three_players(bencher: Bencher, target: u64) {
    grow(bencher, THREE, target);
}

/// Four players, by target.
#[divan::bench(args = [21, 30, 50, 100, 200])]
fn dirac_four_players(bencher: Bencher, target: u64) {
    grow(bencher, FOUR, target);
}

/// The puzzle's game by board size: a board of more than `target + rolls ×
/// faces` (30) spaces is counted as one of 30, so the cost stops growing
/// there, and from starts 4 and 8 the answer is the 30-space board's.
#[divan::bench(args = [10, 20, 30, 1_000_000, u64::MAX])]
fn dirac_by_board(bencher: Bencher, board: u64) {
    let starts = starts(EXAMPLE);
    let rules = DiceRules { board, ..DiceRules::dirac() };
    let expected = play_dirac(&starts, &rules, DiracEngine::Memo).unwrap();
    if board >= 30 {
        let thirty = DiceRules { board: 30, ..rules };
        assert_eq!(expected, play_dirac(&starts, &thirty, DiracEngine::Memo).unwrap());
    }
    bencher.bench(|| {
        let outcome =
            play_dirac(black_box(&starts), black_box(&rules), DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome, expected);
    });
}

/// A board of a million and a die of 100,000 faces, by target: the table
/// would keep 300,000 spaces (1.85 GB at target 50), so each player is
/// counted over the cells below the target. The answer at target 50 is the
/// table engine's, given 8 GB (the test suite checks it).
#[divan::bench(args = [21, 50, 100])]
fn dirac_live_cells(bencher: Bencher, target: u64) {
    let starts = starts(EXAMPLE);
    let rules = DiceRules { board: 1_000_000, target, faces: 100_000, rolls: 3 };
    let expected = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
    // Target 21 as the table counts it (0.4 s, before live cells were
    // chosen for it); 50 as the table counts it given 8 GB.
    let known = match target {
        21 => "123200999999999992400",
        50 => "44502450176999981774640071",
        _ => "",
    };
    assert!(known.is_empty() || expected.answer.to_string() == known);
    bencher.bench(|| {
        let outcome =
            play_dirac(black_box(&starts), black_box(&rules), DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome, expected);
    });
}

/// A die of `2^64 − 1` faces, rolled three times, by board: a landing on a
/// space gathers every sum with its remainder (about `3 × 2^64 / board`
/// of them: `2^25.6` on `2^40` spaces, far more on 10 and 1000), which the
/// live cells add up as polynomials. On boards
/// of 10 and 1000 the answer is the memo engine's, whose turn is the die's
/// tally modulo the board (58 ms and 1.3 s, outside the timing).
#[divan::bench(args = [10, 1000, 1 << 40])]
fn dirac_huge_die(bencher: Bencher, board: u64) {
    let starts = starts(EXAMPLE);
    let rules = DiceRules { board, target: 21, faces: u64::MAX, rolls: 3 };
    let expected = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
    if board <= 1000 {
        assert_eq!(expected, play_dirac(&starts, &rules, DiracEngine::Memo).unwrap());
    }
    bencher.bench(|| {
        let outcome =
            play_dirac(black_box(&starts), black_box(&rules), DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome, expected);
    });
}

/// The memo engine on the same growing games, while it fits its limit.
#[divan::bench(args = [21, 30, 50])]
fn dirac_two_players_memo(bencher: Bencher, target: u64) {
    let starts = starts(EXAMPLE);
    let rules = DiceRules { target, ..DiceRules::dirac() };
    let expected = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
    bencher.bench(|| {
        let outcome = play_dirac(black_box(&starts), black_box(&rules), DiracEngine::Memo).unwrap();
        assert_eq!(outcome, expected);
    });
}

fn grow(bencher: Bencher, text: &str, target: u64) {
    let starts = starts(text);
    let rules = DiceRules { target, ..DiceRules::dirac() };
    // Cross-checked once, outside the timing, by the memo engine where its
    // joint states, at most (board × target)^players, stay below 10^5 (the
    // test suite checks the larger games; a long check here would also leak
    // into the first sample).
    let expected = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
    let states = (rules.board * rules.target).checked_pow(u32::try_from(starts.players()).unwrap());
    if states.is_some_and(|states| states <= 100_000) {
        match play_dirac(&starts, &rules, DiracEngine::Memo) {
            Ok(memo) => assert_eq!(memo, expected),
            Err(DiceError::Rules(
                RulesError::MemoTooLarge { .. } | RulesError::MemoPastLimits { .. },
            )) => {}
            Err(other) => panic!("{other}"),
        }
    }
    bencher.bench(|| {
        let outcome =
            play_dirac(black_box(&starts), black_box(&rules), DiracEngine::PerPlayer).unwrap();
        assert_eq!(outcome.answer, expected.answer);
    });
}
