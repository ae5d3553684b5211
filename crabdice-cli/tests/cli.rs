//! The command line as a user meets it: answers, JSON, traces, errors and
//! exit codes. Each test is one behaviour, named as a sentence.

use std::io::{Read, Write};
use std::process::Stdio;

use assert_cmd::Command;
use predicates::prelude::*;

/// `crabdice`, run from the workspace's root, killed if it runs past two
/// minutes (every test's command takes well under a second): a run that
/// would never end fails its test, as a killed process has no exit code to
/// match, instead of hanging the test run.
fn crabdice() -> Command {
    let mut cmd = Command::cargo_bin("crabdice").unwrap();
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd.env("NO_COLOR", "1");
    cmd.timeout(std::time::Duration::from_mins(2));
    cmd
}

/// `crabdice` as a plain process, set up as [`crabdice`] is, for tests that
/// hold its pipes themselves.
fn process() -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("crabdice"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd.env("NO_COLOR", "1");
    cmd
}

/// `crabdice solve -` running, its standard input and error piped.
fn solving_standard_input() -> std::process::Child {
    process()
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The bundled Combat example, `examples/combat.txt`, as text.
fn combat_example() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/combat.txt")).unwrap()
}

/// Asserts that clap refuses `args` as a usage error (exit 2, nothing on
/// standard output), with every one of `messages` on standard error.
fn refused(args: &[&str], messages: &[&str]) {
    let stderr = messages
        .iter()
        .fold(predicate::always().boxed(), |all, m| all.and(predicate::str::contains(*m)).boxed());
    crabdice().args(args).assert().code(2).stdout("").stderr(stderr);
}

/// Asserts that `command -` refuses `input` on standard input as a user
/// error (exit 1, nothing on standard output), naming `<stdin>` and saying
/// `message`.
fn refused_input(command: &str, input: &str, message: &str) {
    crabdice()
        .args([command, "-"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(message).and(predicate::str::contains("<stdin>")));
}

/// What `crabdice` prints for `args`, which must succeed.
fn stdout_of(args: &[&str]) -> String {
    let output = crabdice().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    json_from(args, "")
}

/// The JSON `crabdice` prints for `args` with `input` on standard input.
fn json_from(args: &[&str], input: &str) -> serde_json::Value {
    let output = crabdice().args(args).write_stdin(input).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn solve_recognizes_each_game_in_the_bundled_examples() {
    crabdice()
        .args(["solve", "examples/combat.txt", "examples/dice.txt"])
        .assert()
        .success()
        .stdout(
            "examples/combat.txt: part 1: 306\nexamples/combat.txt: part 2: 291\n\
             examples/dice.txt: part 1: 739785\nexamples/dice.txt: part 2: 444356092776315\n",
        );
}

// The expected values below were computed independently, by a direct
// simulation that skips whole cycles of the joint game state (part 1) and a
// memoized recursion over joint game states (part 2), both in Python.

#[test]
fn a_negative_number_is_an_invalid_value_not_an_unknown_flag() {
    for (command, file, flag, reason) in [
        ("dice", "examples/dice.txt", "--board", "a count cannot be negative"),
        ("dice", "examples/dice.txt", "--target", "a count cannot be negative"),
        ("dice", "examples/dice.txt", "--die", "a count cannot be negative"),
        ("dice", "examples/dice.txt", "--rolls", "a count cannot be negative"),
        ("dice", "examples/dice.txt", "--part", "`-5` is not a part: give 1 or 2"),
        ("combat", "examples/combat.txt", "--max-rounds", "a count cannot be negative"),
        ("combat", "examples/combat.txt", "--threads", "a count cannot be negative"),
        ("dice", "examples/dice.txt", "--threads", "a count cannot be negative"),
        ("combat", "examples/combat.txt", "--max-memory", "an amount of memory cannot be negative"),
    ] {
        refused(
            &[command, file, flag, "-5"],
            &[&format!("invalid value '-5' for '{flag} <"), reason],
        );
    }
    for (value, reason) in [
        ("x", "`x` is not a whole number"),
        ("1.25e1", "`1.25e1` is not a whole number"),
        ("2.5", "`2.5` is not a whole number"),
        (".5", "`.5` is not a whole number"),
        ("1.0.0", "`1.0.0` is not a whole number"),
        ("1__000", "`1__000` is not a whole number"),
        ("_1", "`_1` is not a whole number"),
        ("2^", "`2^` is not a whole number"),
        ("2^3-10", "`2^3-10` is below zero: a count cannot be negative"),
        ("2^3-1-1", "`2^3-1-1` is not a whole number"),
        ("5^2e8", "`5^2e8` is not a whole number"),
        ("-1e3", "a count cannot be negative"),
        ("18446744073709551616", "`18446744073709551616` is more than 2^64 - 1"),
        ("2^64", "`2^64` is more than 2^64 - 1"),
        ("1.8446744073709551616e19", "`1.8446744073709551616e19` is more than 2^64 - 1"),
        ("7^99999999999", "`7^99999999999` is more than 2^64 - 1"),
        ("1e99999999999999999999999999999999", "is more than 2^64 - 1"),
    ] {
        refused(&["dice", "examples/dice.txt", "--target", value], &[reason]);
    }
    for (value, reason) in [
        ("4X", "`4X` is not an amount of memory"),
        ("1.3K", "`1.3K` is not a whole number of bytes"),
        ("1.5", "`1.5` is not an amount of memory"),
        ("1.5.0G", "`1.5.0G` is not an amount of memory"),
        ("G", "`G` is not an amount of memory"),
        ("99999999999T", "`99999999999T` is more memory than this machine can address"),
    ] {
        refused(&["combat", "examples/combat.txt", "--max-memory", value], &[reason]);
    }
}

#[test]
fn counts_may_be_written_as_powers_or_in_scientific_notation() {
    let part_1 = |target: &str| {
        stdout_of(&[
            "dice",
            "examples/dice.txt",
            "--part",
            "1",
            "--board",
            "17",
            "--target",
            target,
        ])
    };
    for (digits, spellings) in [
        (
            "1000",
            &["1e3", "1E3", "10^3", "1_000", "0.1e4", "1000e0", "2^10-24", "3^6+271", "1000.00"][..],
        ),
        ("2500000000", &["2.5e9", "2_500_000_000", "25e8", "2.500e9"][..]),
        ("18446744073709551615", &["2^64-1", "18_446_744_073_709_551_615"][..]),
        ("1", &["0^0", "1^99999999999", "1e0", "1.0", "1."][..]),
    ] {
        let expected = part_1(digits);
        for spelling in spellings {
            assert_eq!(part_1(spelling), expected, "{spelling} against {digits}");
        }
    }
    // The limits take the same spellings.
    assert_eq!(
        stdout_of(&["dice", "examples/dice.txt", "--part", "2", "--max-work", "2e10"]),
        "444356092776315\n"
    );
    assert_eq!(
        stdout_of(&["combat", "examples/combat.txt", "--part", "2", "--max-rounds", "1e2"]),
        "291\n"
    );
}

/// The number that follows `before` in the error `args` end with.
fn estimate(args: &[&str], before: &str) -> u128 {
    let output = crabdice().args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    let after = &stderr[stderr.find(before).unwrap_or_else(|| panic!("{stderr}")) + before.len()..];
    after.split(' ').next().unwrap().parse().unwrap()
}

/// A deal whose games nest `k` deep at once, with player 1 holding the
/// highest card of every game: the even cards from `2k` down over `k + 5`
/// even cards from `2k + 2`, against the odd ones from `2k − 1` over odd
/// ones from `2k + 1`. The fast engine skips every sub-game; `--json` must
/// count them all.
fn nested_deal(k: u64) -> String {
    let deck = |first: u64| {
        let high = (0..k + 5).map(|j| 2 * k + first + 2 * j);
        let low = (1..=k).rev().map(|i| 2 * i + first - 2);
        low.chain(high).map(|card| card.to_string() + "\n").collect::<String>()
    };
    format!("Player 1:\n{}\nPlayer 2:\n{}", deck(2), deck(1))
}

#[test]
fn time_adds_a_median_to_text_and_json() {
    crabdice()
        .args(["combat", "examples/combat.txt", "--part", "2", "--time"])
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"^291 \([0-9.]+ (ns|µs|ms)\)\n$").unwrap());
    let value = json(&["combat", "examples/combat.txt", "--json", "--time"]);
    assert!(value["part1"]["time_ns"].as_u64().is_some());
    assert!(value["part2"]["time_ns"].as_u64().is_some());
    assert!(value["parse_ns"].as_u64().is_some_and(|ns| ns > 0), "{value}");
    let value = json(&["solve", "examples/dice.txt", "examples/combat.txt", "--json", "--time"]);
    for file in value["files"].as_array().unwrap() {
        assert!(file["parse_ns"].as_u64().is_some_and(|ns| ns > 0), "{file}");
    }
    // Not asked for, not given.
    assert!(json(&["combat", "examples/combat.txt", "--json"]).get("parse_ns").is_none());
    // The text output stays the parts' lines.
    let text = stdout_of(&["combat", "examples/combat.txt", "--time"]);
    assert!(text.lines().all(|line| line.starts_with("part ")), "{text}");
}

/// Broken copies of the bundled examples: each a few random edits away
/// (a piece of text that breaks inputs inserted or put in place of a
/// character, characters deleted), from a fixed seed.
fn broken_examples(count: usize) -> Vec<String> {
    const PIECES: &[&str] = &[
        "\n",
        "\r\n",
        " ",
        "\u{a0}",
        "0",
        "7",
        "-",
        "+",
        ":",
        "Player 3:",
        "Player 2:",
        "x",
        "é",
        "\u{202e}",
        "\u{1b}[2J",
        "\0",
        "18446744073709551616",
        "Player 2 starting position: 4",
    ];
    let examples = ["combat.txt", "dice.txt", "combat-loop.txt"].map(|name| {
        let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    });
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |below: usize| {
        // splitmix64
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        usize::try_from((z ^ (z >> 31)) % below as u64).unwrap()
    };
    (0..count)
        .map(|i| {
            let mut text = examples[i % examples.len()].clone();
            for _ in 0..=next(3) {
                let bounds: Vec<usize> =
                    text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
                let at = bounds[next(bounds.len())];
                let end = bounds[bounds.partition_point(|&b| b <= at).min(bounds.len() - 1)];
                let piece = PIECES[next(PIECES.len())];
                text = match next(3) {
                    0 => format!("{}{piece}{}", &text[..at], &text[at..]),
                    1 => format!("{}{piece}{}", &text[..at], &text[end..]),
                    _ => format!("{}{}", &text[..at], &text[end..]),
                };
            }
            text
        })
        .collect()
}

/// The error the library gives for `input` under the puzzle's rules, if
/// any, once its line ends are `\n` (as the command line makes them).
fn library_error(input: &str) -> Option<crabdice::ParseError> {
    let input = &input.replace("\r\n", "\n").replace('\r', "\n");
    match crabdice::Game::detect(input) {
        Err(error) => Some(error),
        Ok(crabdice::Game::Combat) => crabdice::Deal::parse(input).err(),
        Ok(crabdice::Game::Dice) => crabdice::Starts::parse(input)
            .and_then(|starts| starts.check(&crabdice::DiceRules::dirac()))
            .err(),
    }
}

#[test]
fn broken_examples_are_refused_at_the_line_the_library_names() {
    let (mut refused, mut solved) = (0, 0);
    for input in broken_examples(150) {
        let output = crabdice().args(["solve", "-"]).write_stdin(input.clone()).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        if let Some(error) = library_error(&input) {
            refused += 1;
            assert_eq!(output.status.code(), Some(1), "{input:?}: {stderr}");
            assert!(output.stdout.is_empty(), "{input:?}");
            // The first line is the message, naming the file and the place
            // (no code above it), for a script that keeps only that line.
            let place = format!("<stdin>: line {}, column {}: ", error.line(), error.column());
            let first = stderr.lines().next().unwrap_or_default();
            assert!(first.starts_with(&format!("  × {place}")), "{input:?}: {place} in {stderr}");
            // The snippet's heading, when there is one, names the same place.
            if stderr.contains("[<stdin>:") {
                let heading = format!("[<stdin>:{}:{}]", error.line(), error.column());
                assert!(stderr.contains(&heading), "{input:?}: {heading} in {stderr}");
            }
            assert!(!stderr.contains(|c: char| c.is_control() && c != '\n'), "{stderr:?}");
        } else {
            solved += 1;
            assert_eq!(output.status.code(), Some(0), "{input:?}: {stderr}");
            let stdout = String::from_utf8(output.stdout).unwrap();
            assert!(stdout.starts_with("part 1: ") && stdout.contains("\npart 2: "), "{stdout}");
        }
    }
    // Both kinds of input were tried.
    assert!(refused >= 50 && solved >= 5, "{refused} refused, {solved} solved");
}

#[test]
fn solve_names_every_bad_file_and_solves_none() {
    let output = crabdice()
        .args(["solve", "examples/combat.txt", "no/such/file.txt", "-", "examples/dice.txt"])
        .write_stdin("Player 1:\n9\nx\n\nPlayer 2:\n5\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    // In the order given.
    let missing = stderr.find("cannot read no/such/file.txt").expect(&stderr);
    let bad = stderr.find("line 3, column 1: `x` is not a card").expect(&stderr);
    assert!(missing < bad && stderr.contains("[<stdin>:3:1]"), "{stderr}");
    assert!(!stderr.contains("examples/"), "{stderr}");
    // Standard input named twice is read and reported once, whether it
    // cannot be read or cannot be parsed.
    for (input, message) in
        [(&b"\xff\n"[..], "the input is not UTF-8 text"), (&b"Player 1:\nx\n"[..], "is not a card")]
    {
        let output = crabdice().args(["solve", "-", "-"]).write_stdin(input).output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.matches(message).count(), 1, "{stderr}");
        assert!(!stderr.contains("the input is empty"), "{stderr}");
    }
}

#[test]
fn a_file_of_neither_game_is_refused() {
    crabdice().args(["solve", "-"]).write_stdin("hello\n").assert().code(1).stderr(
        predicate::str::contains("starts neither a Crab Combat deal nor a Dirac Dice game"),
    );
}

/// A file that holds both games names the line where the second begins,
/// and says that a file holds one game; a third deck is still a third deck.
#[test]
fn a_file_holding_both_games_is_refused_where_the_second_begins() {
    let combat_then_dice = "Player 1:\n9\n2\n\nPlayer 2:\n5\n8\n\nPlayer 1 starting position: 4\n";
    let dice_then_combat =
        "Player 1 starting position: 4\nPlayer 2 starting position: 8\nPlayer 1:\n3\n";
    let third_deck = "Player 1:\n9\n\nPlayer 2:\n5\n\nPlayer 3:\n3\n";
    for (text, line, help) in [
        (
            combat_then_dice,
            "line 9",
            "help: a file holds one game: give the Dirac Dice game a file of its own",
        ),
        (
            dice_then_combat,
            "line 3",
            "help: a file holds one game: give the Crab Combat deal a file of its own",
        ),
        (third_deck, "line 7", "help: remove the third player's deck"),
    ] {
        crabdice()
            .args(["solve", "-"])
            .write_stdin(text)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(line).and(predicate::str::contains(help)));
    }
}

#[test]
fn a_missing_file_is_reported() {
    crabdice()
        .args(["solve", "no/such/file.txt"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("cannot read no/such/file.txt"));
}

/// A plain game too long for the fast engine's first look at it is logged
/// from its first round, before its end is known: a time limit that stops
/// it leaves the rounds played so far on standard output (there were none
/// when the fast engine played the whole game first).
#[test]
fn a_long_plain_game_is_logged_up_to_its_time_limit() {
    // 3,000 + 3,000 cards shuffled by a fixed generator: 13.6 million
    // rounds, ended with player 2's deck empty.
    let mut cards: Vec<u64> = (1..=6_000).collect();
    let mut state = 1_u64;
    for i in (1..cards.len()).rev() {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        cards.swap(i, ((state >> 33) % (i as u64 + 1)) as usize);
    }
    let deck = |cards: &[u64]| cards.iter().map(|c| c.to_string() + "\n").collect::<String>();
    let deal =
        format!("Player 1:\n{}\nPlayer 2:\n{}", deck(&cards[..3_000]), deck(&cards[3_000..]));
    let output = crabdice()
        .args(["combat", "-", "--part", "1", "--trace", "--max-time", "0"])
        .write_stdin(deal)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let log = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(log.starts_with("-- Round 1 --\nPlayer 1's deck: "), "{stderr}");
    assert!(log.contains("\n-- Round 2 --\n"), "{stderr}");
    assert!(stderr.contains("the time limit of 0ns has passed"), "{stderr}");
}

#[test]
fn max_time_bounds_the_work_with_a_clear_message() {
    // About a million rounds: far more than are played before the clock is
    // first read.
    let heavy = "crabdice/benches/corpus/deal-2951.txt";
    for engine in ["fast", "literal"] {
        crabdice()
            .args(["combat", heavy, "--part", "2", "--max-time", "0", "--engine", engine])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains("the time limit of 0ns has passed")
                    .and(predicate::str::contains("raise the limit with --max-time")),
            );
    }
    // With both parts asked for, part 1 was answered, but nothing is
    // printed when part 2 stops: the help says how to have part 1 alone,
    // and says it only then.
    crabdice().args(["combat", heavy, "--max-time", "0"]).assert().code(1).stdout("").stderr(
        predicate::str::contains("part 2: gave up after")
            .and(predicate::str::contains("; for part 1 alone, add --part 1")),
    );
    crabdice()
        .args(["combat", heavy, "--part", "2", "--max-time", "0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("part 1 alone").not());
    // When part 1 stops, part 2 is not played: the help says how to have
    // it alone, which this deal answers within the same limit.
    let deal = "Player 1:\n1\n4\n6\n7\n10\n\nPlayer 2:\n8\n9\n3\n2\n5\n";
    let within = ["combat", "-", "--max-rounds", "30"];
    crabdice().args(within).write_stdin(deal).assert().code(1).stdout("").stderr(
        predicate::str::contains("part 1: gave up at round")
            .and(predicate::str::contains("; for part 2 alone, add --part 2")),
    );
    crabdice()
        .args(within)
        .args(["--part", "2"])
        .write_stdin(deal)
        .assert()
        .success()
        .stdout("306\n");
    crabdice()
        .args(within)
        .args(["--part", "1"])
        .write_stdin(deal)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("part 2 alone").not());
    // `solve` takes the same limits, for its Combat files.
    crabdice()
        .args(["solve", heavy, "examples/dice.txt", "--max-time", "0"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("part 2: gave up after"));
    // A limit that is not reached changes nothing, and Dirac Dice ignores it.
    assert_eq!(stdout_of(&["combat", heavy, "--part", "2", "--max-time", "3600"]), "34953\n");
    assert_eq!(
        stdout_of(&["solve", "examples/dice.txt", "--max-time", "0", "--max-rounds", "0"]),
        "part 1: 739785\npart 2: 444356092776315\n"
    );
    for bad in ["-1", "-1e-300", "-1e-400", "-inf", "ten", "1e30", "NaN", "--json"] {
        refused(
            &["combat", heavy, "--max-time", bad],
            &[&format!("invalid value '{bad}' for '--max-time")],
        );
    }
    // A limit the clock cannot count is refused, not reported as `0ns`.
    for tiny in ["1e-10", "1e-400", "0.001e-5000001"] {
        refused(
            &["combat", heavy, "--max-time", tiny],
            &[&format!("`{tiny}` seconds is less than a nanosecond")],
        );
    }
    // Zero however written is zero.
    for zero in ["0.0", "0e-400", "-0"] {
        crabdice()
            .args(["combat", heavy, "--part", "2", "--max-time", zero])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("the time limit of 0ns has passed"));
    }
    crabdice()
        .args(["combat", heavy, "--part", "2", "--max-time", "1e-9"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the time limit of 1ns has passed"));
}

#[test]
fn every_subcommand_is_described_in_its_help_and_the_top_level_one() {
    // Each subcommand's arguments are built only when it runs; its
    // description must not be taken from the argument groups' docs.
    let top = stdout_of(&["--help"]);
    for (command, about) in [
        ("solve", "Recognize the game in each file and print both parts' answers"),
        ("combat", "Crab Combat: plain (part 1) and recursive (part 2)"),
        ("dice", "Dirac Dice: the deterministic die (part 1) and the Dirac die (part 2)"),
    ] {
        assert!(top.contains(&format!("  {command}  ")) && top.contains(about), "{top}");
        for help in ["--help", "-h"] {
            let own = stdout_of(&[command, help]);
            assert!(own.starts_with(&format!("{about}\n\nUsage: crabdice {command}")), "{own}");
        }
    }
}

#[test]
fn every_command_has_help_with_an_example() {
    for command in
        [&["--help"][..], &["solve", "--help"], &["combat", "--help"], &["dice", "--help"]]
    {
        crabdice().args(command).assert().success().stdout(predicate::str::contains("Examples:"));
    }
}

#[test]
fn an_error_with_standard_error_closed_exits_with_1_not_a_panic() {
    let mut child = solving_standard_input();
    // Close the reading end of standard error before the error is written.
    drop(child.stderr.take());
    child.stdin.take().unwrap().write_all(b"hello\n").unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn a_huge_line_is_quoted_by_its_start_and_not_shown() {
    let line = "x".repeat(1_000_000);
    let output = crabdice().args(["solve", "-"]).write_stdin(format!("{line}\n")).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.len() < 1000, "a short message: {} bytes", stderr.len());
    assert!(
        stderr.contains(&format!("<stdin>: line 1, column 1: `{}…`", "x".repeat(60))),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn an_endless_or_binary_input_is_refused_without_reading_it_all() {
    // 64 MiB and a byte of spaces: too large, refused with the limit.
    let huge = vec![b' '; (64 << 20) + 1];
    crabdice()
        .args(["solve", "-"])
        .write_stdin(huge)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("<stdin>: the input is larger than 64 MiB"));
    // Exactly the limit is read (and found to hold no deal).
    crabdice()
        .args(["combat", "-"])
        .write_stdin(vec![b'\n'; 64 << 20])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("larger than").not());
    // Bytes that are not UTF-8, past the first chunk read, on line 70,001,
    // and a character cut by the end of the input.
    let mut text = "1\n".repeat(70_000).into_bytes();
    text.extend(b"\xff\n2\n");
    crabdice().args(["solve", "-"]).write_stdin(text).assert().code(1).stderr(
        predicate::str::contains("<stdin>: line 70001, column 1: the input is not UTF-8 text"),
    );
    crabdice()
        .args(["solve", "-"])
        .write_stdin(format!("{}\u{e9}", combat_example()).into_bytes().split_last().unwrap().1)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line 14, column 1: the input is not UTF-8 text"));
    // Lines end as the parser ends them, lone carriage returns included.
    crabdice()
        .args(["solve", "-"])
        .write_stdin(&b"Player 1 starting position: 4\rPlayer 2 starting position: \xff8\r"[..])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("<stdin>: line 2, column 29: the input is not UTF-8 text")
                .and(predicate::str::contains("help: save the input as UTF-8")),
        );
    #[cfg(target_os = "linux")]
    crabdice().args(["solve", "/dev/zero"]).assert().code(1).stdout("").stderr(
        predicate::str::contains("/dev/zero: the input is larger than 64 MiB")
            .and(predicate::str::contains("help: give one puzzle input")),
    );
}

#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_an_error_for_help_too() {
    for args in [&["solve", "examples/combat.txt"][..], &["--help"], &["dice", "--help"]] {
        let full = std::fs::File::create("/dev/full").unwrap();
        let output = process().args(args).stdout(full).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("cannot write the output"), "{args:?}: {stderr}");
    }
    // A usage error keeps its status.
    crabdice().arg("--bogus").assert().code(2).stdout("");
}

#[test]
fn a_bad_byte_on_a_pipe_is_refused_before_the_pipe_closes() {
    let mut child = solving_standard_input();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"Player 1:\n\xff").unwrap();
    stdin.flush().unwrap();
    // The pipe stays open: crabdice must not wait for more input.
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(1);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(std::time::Instant::now() < deadline, "still reading a pipe that holds a bad byte");
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    drop(stdin);
    assert_eq!(status.code(), Some(1));
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert!(stderr.contains("<stdin>: line 2, column 1: the input is not UTF-8 text"), "{stderr}");
}

/// A file of the other game, given to `combat` or `dice`, is named as what
/// it is, with the command to run it (the file's name quoted for a shell
/// where it needs to be, `-` for standard input); a file of the right game
/// that is wrong keeps the reader's own error.
#[test]
fn a_file_of_the_other_game_names_the_command_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let spaced = dir.path().join("my deal's.txt");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/combat.txt"), &spaced).unwrap();
    let spaced = spaced.to_str().unwrap();
    let quoted = format!("'{}'", spaced.replace('\'', r"'\''"));
    for (args, stdin, said) in [
        (
            vec!["dice", "examples/combat.txt"],
            "",
            "examples/combat.txt: line 1: the input holds a Crab Combat deal, not a Dirac Dice \
             game\n  help: use `crabdice combat examples/combat.txt`, or `crabdice solve`"
                .to_owned(),
        ),
        (
            vec!["combat", "-"],
            "\n\nPlayer 1 starting position: 4\nPlayer 2 starting position: 8\n",
            "<stdin>: line 3: the input holds a Dirac Dice game, not a Crab Combat deal\n  help: \
             use `crabdice dice -`"
                .to_owned(),
        ),
        (vec!["dice", spaced], "", format!("use `crabdice combat {quoted}`")),
    ] {
        crabdice()
            .args(&args)
            .write_stdin(stdin)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(said));
    }
    refused_input("combat", "Player 1:\n3\n\nPlayer 2:\n3\n", "card 3 is dealt twice");
    refused_input("dice", "Player 1 starting position: 4\nPlayer 1:\n", "line 2, column 8");
}

/// `solve` has none of the Dirac rules' flags: where a refusal's help names
/// them, it says they are `crabdice dice`'s, which `dice` itself does not.
#[test]
fn solve_sends_dirac_flags_to_dice() {
    use std::fmt::Write as _;
    let mut players = String::new();
    for player in 1..=30_000 {
        writeln!(players, "Player {player} starting position: {}", player % 10 + 1).unwrap();
    }
    let off_board = "Player 1 starting position: 4\nPlayer 2 starting position: 12\n";
    for (input, help) in [
        (players.as_str(), "use fewer players, or raise the limit with --max-memory"),
        (off_board, "give a space on the board"),
    ] {
        refused_input("solve", input, help);
        refused_input("solve", input, "`crabdice dice");
        let dice = crabdice().args(["dice", "-"]).write_stdin(input).output().unwrap();
        let stderr = String::from_utf8(dice.stderr).unwrap();
        assert!(stderr.contains(help) && !stderr.contains("`crabdice dice"), "{stderr}");
    }
}

#[test]
fn expect_passes_when_every_answer_is_the_one_expected() {
    // The puzzle's answers, written with a leading zero and a group.
    let out = stdout_of(&["combat", "examples/combat.txt", "--expect", "306,0_291"]);
    assert_eq!(out, "part 1: 306\npart 2: 291\n");
    assert_eq!(
        stdout_of(&["solve", "examples/combat.txt", "--part", "2", "--expect", "291"]),
        "291\n"
    );
    let out = stdout_of(&["dice", "examples/dice.txt", "--expect", "739785, 444356092776315"]);
    assert_eq!(out, "part 1: 739785\npart 2: 444356092776315\n");
    let big = "14184066373435447858820392124021831333178373619955";
    let args = ["dice", "examples/dice.txt", "--part", "2", "--target", "30", "--die", "4"];
    assert_eq!(stdout_of(&[&args[..], &["--expect", big]].concat()), format!("{big}\n"));
}

#[test]
fn expect_names_each_wrong_answer_and_exits_with_1() {
    crabdice()
        .args(["combat", "examples/combat.txt", "--expect", "306,290"])
        .assert()
        .code(1)
        .stdout("part 1: 306\npart 2: 291\n")
        .stderr(
            predicate::str::contains("examples/combat.txt: part 2: 291, where 290 was expected")
                .and(predicate::str::contains("part 1").not()),
        );
    crabdice()
        .args(["dice", "examples/dice.txt", "--json", "--expect", "739784,444356092776316"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"answer\": \"444356092776315\""))
        .stderr(predicate::str::contains(
            "part 1: 739785, where 739784 was expected; \
             part 2: 444356092776315, where 444356092776316 was expected",
        ));
    // An answer is matched whole, not by its first digits.
    crabdice()
        .args(["combat", "examples/combat.txt", "--part", "2", "--expect", "29"])
        .assert()
        .code(1)
        .stdout("291\n")
        .stderr(predicate::str::contains("part 2: 291, where 29 was expected"));
    // A game with no winner gives no answer that a number could match:
    // `cycle` expects it, and only it.
    crabdice()
        .args(["combat", "examples/combat-loop.txt", "--part", "1", "--expect", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("part 1: no winner: the decks repeat forever"));
    crabdice()
        .args(["combat", "examples/combat-loop.txt", "--expect", "cycle,105"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("part 1: no winner"));
    crabdice()
        .args(["solve", "examples/combat.txt", "--part", "1", "--expect", "cycle"])
        .assert()
        .code(1)
        .stdout("306\n")
        .stderr(predicate::str::contains("part 1: 306, where cycle was expected"));
}

#[test]
fn expect_needs_one_answer_a_part_of_one_file() {
    // With the subcommand's usage, as clap's own usage errors give it.
    refused(
        &["combat", "examples/combat.txt", "--expect", "306"],
        &["gives 1 answer, but 2 parts", "Usage: crabdice combat [OPTIONS] <FILE>\n"],
    );
    refused(
        &["dice", "examples/dice.txt", "--part", "1", "--expect", "739785,1"],
        &["gives 2 answers, but 1 part is run", "Usage: crabdice dice [OPTIONS] <FILE>\n"],
    );
    // Each command's example is an answer of its own game.
    refused(
        &["dice", "examples/dice.txt", "--expect", "739785"],
        &["gives 1 answer, but 2 parts", "(`--expect 739785,444356092776315`)"],
    );
    refused(
        &["combat", "examples/combat.txt", "--part", "2", "--expect", "1,2"],
        &["gives 2 answers, but 1 part is run: give its answer alone (`--part 2 --expect 291`)"],
    );
    refused(
        &["dice", "examples/dice.txt", "--expect", "cycle,5"],
        &["`cycle` is a Crab Combat answer: every Dirac Dice game ends"],
    );
    let help = stdout_of(&["dice", "--help"]);
    assert!(help.contains("`--part 1 --expect 739785`") && !help.contains("cycle"), "{help}");
    refused(
        &["solve", "examples/combat.txt", "examples/dice.txt", "--expect", "1,2"],
        &["one file", "Usage: crabdice solve [OPTIONS] <FILE>...\n"],
    );
    for bad in ["x", "3.5", "-1", "_1", "1_", "1e3", "2^10", "1 2", "Cycle", "none"] {
        refused(&["combat", "examples/combat.txt", "--expect", bad], &["is not an answer"]);
    }
    for missing in ["", "1,,2", "306,"] {
        refused(&["combat", "examples/combat.txt", "--expect", missing], &["an answer is missing"]);
    }
}

/// A byte that is not UTF-8 is reported at its line, whatever ends the
/// lines before it: `\r\n` is one line end, as is a lone `\r`.
#[test]
fn a_bad_byte_is_reported_at_its_line_after_crlf_or_lone_cr_line_ends() {
    for input in [
        &b"Player 1 starting position: 4\r\nPlayer 2 starting position: 8\r\n\xff\r\n"[..],
        &b"Player 1 starting position: 4\rPlayer 2 starting position: 8\r\xff\r"[..],
    ] {
        crabdice().args(["dice", "-"]).write_stdin(input).assert().code(1).stdout("").stderr(
            predicate::str::contains("<stdin>: line 3, column 1: the input is not UTF-8 text"),
        );
    }
}

/// With `--part`, the JSON object holds that part alone: the other one is
/// not there at all (not `null`), for Dirac Dice as for Crab Combat.
#[test]
fn json_with_part_holds_that_part_and_not_the_other() {
    for (command, file) in [("dice", "examples/dice.txt"), ("combat", "examples/combat.txt")] {
        for (part, other) in [("1", "part2"), ("2", "part1")] {
            let value = json(&[command, file, "--part", part, "--json"]);
            assert!(value[format!("part{part}")].is_object(), "{value}");
            assert!(value.get(other).is_none(), "{command} --part {part}: {value}");
        }
    }
}

/// A tab is whitespace, not a character that acts on the terminal: an
/// error beside a line holding one is still drawn under its message.
#[test]
fn a_tab_beside_the_offending_line_still_shows_the_snippet() {
    crabdice()
        .args(["dice", "-"])
        .write_stdin("Player 1 starting position:\t4\nPlayer 2 starting position: x\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            predicate::str::contains("line 2, column 29: `x` is not a starting position")
                .and(predicate::str::contains("[<stdin>:2:29]")),
        );
}

/// Crab Combat: `cargo test combat` runs these.
mod combat {
    use super::*;

    #[test]
    fn solve_prints_both_parts_of_the_combat_example() {
        assert_eq!(stdout_of(&["solve", "examples/combat.txt"]), "part 1: 306\npart 2: 291\n");
    }

    #[test]
    fn max_memory_bounds_the_literal_engine_with_a_clear_message() {
        // Room enough for the example's games, in any spelling of a size.
        for size in ["1M", "1m", "1MiB", "1048576", "2g", "1.5M", "0.25G", "1.0M"] {
            crabdice()
                .args(["combat", "examples/combat.txt", "--part", "2", "--engine", "literal"])
                .args(["--max-memory", size])
                .assert()
                .success()
                .stdout("291\n");
        }
        // Not enough: the game's first state does not fit.
        crabdice()
            .args(["combat", "examples/combat.txt", "--part", "2", "--engine", "literal"])
            .args(["--max-memory", "100"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains(
                    "examples/combat.txt: part 2: gave up after 0 rounds: the states the literal \
                     engine keeps need more than 100 bytes",
                )
                .and(predicate::str::contains("raise the limit with --max-memory")),
            );
    }

    #[test]
    fn json_counts_the_games_without_storing_states_and_within_the_round_limit() {
        // The count keeps a few states a game, not every one, so a memory
        // limit that stops the literal engine early does not stop it.
        let heavy = "crabdice/benches/corpus/deal-2951.txt";
        let value = json(&["combat", heavy, "--part", "2", "--json", "--max-memory", "1M"]);
        assert_eq!(
            (value["part2"]["games"].as_u64(), value["part2"]["max_depth"].as_u64()),
            (Some(29_692), Some(8))
        );
        crabdice()
            .args(["combat", heavy, "--part", "2", "--engine", "literal", "--max-memory", "1M"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains(
                "the states the literal engine keeps need more than 1 MiB",
            ));
        // Corpus deal 1188: the fast engine answers in 39 rounds; counting the
        // games walks through the sub-games it skips, and says so when it must
        // stop.
        let deal = "crabdice/benches/corpus/deal-1188.txt";
        assert_eq!(stdout_of(&["combat", deal, "--part", "2", "--max-rounds", "60"]), "30540\n");
        crabdice()
            .args(["combat", deal, "--part", "2", "--json", "--max-rounds", "60"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "{deal}: part 2 (counting the games for --json): gave up at round 61, past the \
                 limit of 60 rounds"
            )));
        // Part 1 (39 rounds) is answered within the limit; the count of
        // part 2's games is not.
        crabdice()
            .args(["combat", deal, "--json", "--max-rounds", "60"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains("gave up at round 61").and(predicate::str::contains(
                    "play to the end; for part 1 alone, add --part 1",
                )),
            );
    }

    /// A random 50 + 50 deal whose answer takes milliseconds and whose games
    /// take hours to count: with no `--max-time`, `--json` stops counting
    /// after ten seconds and says so, and still gives the answer.
    #[test]
    fn json_gives_up_counting_endless_games_but_not_the_answer() {
        let deck = |cards: &str| cards.split(' ').collect::<Vec<_>>().join("\n");
        let deal = format!(
            "Player 1:\n{}\n\nPlayer 2:\n{}\n",
            deck(
                "1 77 62 64 2 72 3 7 17 20 14 25 50 13 76 10 84 73 6 42 100 46 90 54 80 19 53 93 15 \
                  43 69 45 39 85 37 18 32 16 71 89 26 98 52 74 67 38 79 34 81 27"
            ),
            deck(
                "83 29 61 36 44 58 24 59 92 9 63 94 99 87 30 31 23 96 68 55 49 41 60 97 4 88 35 65 \
                  57 70 48 66 51 82 56 21 75 5 91 28 78 33 40 86 95 22 47 11 12 8"
            )
        );
        let answer =
            crabdice().args(["combat", "-", "--part", "2"]).write_stdin(deal.as_str()).output();
        let answer = String::from_utf8(answer.unwrap().stdout).unwrap();
        let output = crabdice()
            .args(["combat", "-", "--part", "2", "--json"])
            .write_stdin(deal.as_str())
            .output()
            .unwrap();
        assert!(output.status.success());
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["part2"]["score"].to_string(), answer.trim());
        assert_eq!(json["part2"]["end"], "empty-deck");
        assert!(json["part2"]["games"].is_null() && json["part2"]["max_depth"].is_null());
        let note = String::from_utf8(output.stderr).unwrap();
        assert!(
            note.contains("<stdin>: part 2 (counting the games for --json): stopped after 10 s")
        );
        assert!(note.contains("give --max-time SECONDS to count for longer"), "{note}");
        // A time limit of the user's own stops the run, and says how to have
        // the answer with the games left out.
        crabdice()
            .args(["combat", "-", "--part", "2", "--json", "--max-time", "0.2"])
            .write_stdin(deal)
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains("(counting the games for --json): gave up after").and(
                    predicate::str::contains("leave it out to have the count stop after 10 s"),
                ),
            );
    }

    #[test]
    fn part_prints_the_bare_answer() {
        assert_eq!(stdout_of(&["combat", "examples/combat.txt", "--part", "2"]), "291\n");
        assert_eq!(stdout_of(&["solve", "examples/combat.txt", "--part", "1"]), "306\n");
    }

    #[test]
    fn several_files_are_prefixed_by_their_names() {
        assert_eq!(
            stdout_of(&["solve", "examples/combat.txt", "examples/combat-loop.txt", "--part", "2"]),
            "examples/combat.txt: part 2: 291\nexamples/combat-loop.txt: part 2: 105\n"
        );
    }

    #[test]
    fn standard_input_named_twice_is_solved_twice() {
        crabdice()
            .args(["solve", "-", "examples/combat.txt", "-"])
            .write_stdin(combat_example())
            .assert()
            .success()
            .stdout("<stdin>: part 1: 306\n<stdin>: part 2: 291\nexamples/combat.txt: part 1: 306\nexamples/combat.txt: part 2: 291\n<stdin>: part 1: 306\n<stdin>: part 2: 291\n");
    }

    #[test]
    fn standard_input_is_read_for_a_dash() {
        crabdice()
            .args(["combat", "-", "--part", "1"])
            .write_stdin(
                "Player 1:\r\n9\r\n2\r\n6\r\n3\r\n1\r\n\r\nPlayer 2:\r\n5\r\n8\r\n4\r\n7\r\n10",
            )
            .assert()
            .success()
            .stdout("306\n");
    }

    /// Files saved by editors that write a byte order mark first are read
    /// as if it were not there, and errors count columns after it (the
    /// command line drops the mark before the library reads the text; the
    /// library's own readers skip it too, checked in `crabdice`'s tests).
    #[test]
    fn a_byte_order_mark_is_not_part_of_the_input() {
        let marked = |text: String| format!("\u{feff}{text}");
        crabdice()
            .args(["solve", "-"])
            .write_stdin(marked(combat_example()))
            .assert()
            .success()
            .stdout("part 1: 306\npart 2: 291\n");
        crabdice()
            .args(["dice", "-", "--part", "1"])
            .write_stdin(marked(
                "Player 1 starting position: 4\nPlayer 2 starting position: 8\n".into(),
            ))
            .assert()
            .success()
            .stdout("739785\n");
        crabdice()
            .args(["solve", "-"])
            .write_stdin(marked("Player 1 starting position: x\n".into()))
            .assert()
            .code(1)
            .stderr(predicate::str::contains("line 1, column 29: `x` is not a starting position"));
    }

    /// `games` and `max_depth` are part 2's alone (the spec's JSON fields):
    /// part 1 has no sub-games, and has neither key even when the literal
    /// engine, which counts the games it plays, is the one that played it.
    #[test]
    fn json_gives_games_and_max_depth_for_part_2_only_whatever_the_engine() {
        for engine in ["fast", "literal", "all"] {
            let args = ["combat", "examples/combat.txt", "--json", "--engine", engine];
            let value = json(&args);
            let (one, two) = (&value["part1"], &value["part2"]);
            assert_eq!((one.get("games"), one.get("max_depth")), (None, None), "{engine}: {one}");
            assert_eq!((two["games"].as_u64(), two["max_depth"].as_u64()), (Some(5), Some(2)));
            let alone = json(&[&args[..], &["--part", "1"]].concat());
            assert_eq!(alone["part1"].get("games"), None, "{engine}: {alone}");
        }
    }

    #[test]
    fn json_reports_every_combat_field() {
        let value = json(&["combat", "examples/combat.txt", "--json"]);
        assert_eq!(value["game"], "combat");
        let one = &value["part1"];
        assert_eq!(
            (one["winner"].as_u64(), one["score"].as_u64(), one["rounds"].as_u64()),
            (Some(2), Some(306), Some(29))
        );
        assert_eq!(one["end"], "empty-deck");
        // A game that ends has no cycle: the key is there, and null.
        assert_eq!(one.get("cycle"), Some(&serde_json::Value::Null));
        let two = &value["part2"];
        assert_eq!(
            (two["winner"].as_u64(), two["score"].as_u64(), two["rounds"].as_u64()),
            (Some(2), Some(291), Some(17))
        );
        assert_eq!(two.get("cycle"), None, "part 2 has no cycle field");
        assert_eq!((two["games"].as_u64(), two["max_depth"].as_u64()), (Some(5), Some(2)));
        assert_eq!(two["end"], "empty-deck");
    }

    #[test]
    fn json_counts_the_one_game_of_a_large_deal_that_cannot_recurse_at_once() {
        // 1000 + 1000 cards above a million: no sub-game can start, and the
        // literal engine would have to store every state of a long game.
        let deck = |range: std::ops::Range<u64>| {
            range
                .map(|i| (1_000_001 + (i * 7919 % 2000) * 1000).to_string() + "\n")
                .collect::<String>()
        };
        let deal = format!("Player 1:\n{}\nPlayer 2:\n{}", deck(0..1000), deck(1000..2000));
        let value = json_from(&["combat", "-", "--json", "--part", "2"], &deal);
        let two = &value["part2"];
        assert_eq!((two["games"].as_u64(), two["max_depth"].as_u64()), (Some(1), Some(0)));
        assert!(two["rounds"].as_u64().unwrap() > 10_000, "{two}");
        let answer =
            crabdice().args(["combat", "-", "--part", "2"]).write_stdin(deal).output().unwrap();
        let answer = String::from_utf8(answer.stdout).unwrap();
        assert_eq!(two["score"].to_string(), answer.trim());
    }

    #[test]
    fn huge_cards_score_exactly_past_64_bits() {
        // Scored by hand: player 1 ends with 2^64 − 1, 3, 5, 2 (top first).
        let deal = "Player 1:\n18446744073709551615\n2\n\nPlayer 2:\n5\n3\n";
        let expected = "73786976294838206481";
        assert_eq!(expected.parse::<u128>().unwrap(), u128::from(u64::MAX) * 4 + 3 * 3 + 5 * 2 + 2);
        crabdice()
            .args(["solve", "-"])
            .write_stdin(deal)
            .assert()
            .success()
            .stdout(format!("part 1: {expected}\npart 2: {expected}\n"));
        let value = json_from(&["solve", "-", "--json"], deal);
        assert_eq!(value["part1"]["score"], expected);
        assert_eq!(value["part2"]["score"], expected);
        // A deal that could score past 2^64 − 1 gives a string even when this
        // score fits: c = 3 × 2^61 beats 1, then 2, so player 1 ends with 1, c, 2
        // (scoring 2c + 5), where all in one deck, c on top, would score 3c + 5.
        let deal = "Player 1:\n6917529027641081856\n\nPlayer 2:\n1\n2\n";
        let value = json_from(&["combat", "-", "--json", "--part", "1"], deal);
        assert_eq!(value["part1"]["score"], (3 * (1u64 << 62) + 5).to_string());
    }

    #[test]
    fn json_counts_games_past_64_bits_exactly_as_a_string() {
        // The literal engine plays every game: from 4 deep, 2^k of them.
        for k in 4..=10 {
            let args = ["combat", "-", "--json", "--part", "2", "--engine", "literal"];
            let value = json_from(&args, &nested_deal(k));
            assert_eq!(value["part2"]["games"], 1_u64 << k, "nested {k}");
            assert_eq!(value["part2"]["max_depth"], k, "nested {k}");
        }
        // Counting remembers games by deal, so it reaches counts no engine
        // could play one by one: a number while it fits in 64 bits, then a
        // string of decimal digits.
        for (k, games) in [
            (63, serde_json::json!(1_u64 << 63)),
            (64, serde_json::json!("18446744073709551616")),
            (100, serde_json::json!("1267650600228229401496703205376")),
            (130, serde_json::json!("1361129467683753853853498429727072845824")),
        ] {
            let value = json_from(&["combat", "-", "--json", "--part", "2"], &nested_deal(k));
            assert_eq!(value["part2"]["games"], games, "nested {k}");
            assert_eq!(value["part2"]["max_depth"], k, "nested {k}");
        }
    }

    #[test]
    fn json_reports_a_cycle_and_a_repetition() {
        let value = json(&["combat", "examples/combat-loop.txt", "--json"]);
        let one = &value["part1"];
        assert!(one["winner"].is_null() && one["score"].is_null());
        assert_eq!(one["end"], "cycle");
        assert_eq!(one["cycle"], serde_json::json!({ "start": 1, "length": 6 }));
        assert_eq!(value["part2"]["end"], "repetition");
        assert_eq!(value["part2"]["winner"], 1);
    }

    #[test]
    fn trace_follows_the_puzzle_log() {
        let output = crabdice()
            .args(["combat", "examples/combat.txt", "--part", "2", "--trace"])
            .output()
            .unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.starts_with(
            "=== Game 1 ===\n\n-- Round 1 (Game 1) --\nPlayer 1's deck: 9, 2, 6, 3, 1\n"
        ));
        assert!(text.contains(
            "Player 1 plays: 4\nPlayer 2 plays: 3\nPlaying a sub-game to determine the winner...\n\n=== Game 2 ===\n"
        ));
        assert!(text.contains("The winner of game 2 is player 2!\n\n...anyway, back to game 1.\nPlayer 2 wins round 9 of game 1!\n\n-- Round 10 (Game 1) --\n"));
        assert_eq!(text.matches("=== Game ").count(), 5);
        assert!(text.ends_with(
            "Player 2 wins round 17 of game 1!\nThe winner of game 1 is player 2!\n\n\n== Post-game results ==\n\
             Player 1's deck: \nPlayer 2's deck: 7, 5, 6, 2, 4, 1, 10, 8, 9, 3\n291\n"
        ));
    }

    #[test]
    fn plain_trace_uses_part_one_wording() {
        let output = crabdice()
            .args(["combat", "examples/combat.txt", "--part", "1", "--trace"])
            .output()
            .unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.starts_with("-- Round 1 --\nPlayer 1's deck: 9, 2, 6, 3, 1\nPlayer 2's deck: 5, 8, 4, 7, 10\nPlayer 1 plays: 9\nPlayer 2 plays: 5\nPlayer 1 wins the round!\n\n-- Round 2 --\n"));
        assert!(text.ends_with("Player 2 wins the round!\n\n\n== Post-game results ==\nPlayer 1's deck: \nPlayer 2's deck: 3, 2, 10, 6, 8, 5, 9, 4, 7, 1\n306\n"));
    }

    #[test]
    fn a_trace_with_no_rounds_starts_with_the_results() {
        // Player 1 holds no cards, so no round is played in either part.
        let deal = "Player 1:\n\nPlayer 2:\n5\n8\n";
        let log = |part: &str| {
            let args = ["combat", "-", "--part", part, "--trace"];
            let output = crabdice().args(args).write_stdin(deal).output().unwrap();
            assert!(output.status.success());
            String::from_utf8(output.stdout).unwrap()
        };
        let results = "== Post-game results ==\nPlayer 1's deck: \nPlayer 2's deck: 5, 8\n18\n";
        assert_eq!(log("1"), results);
        assert_eq!(
            log("2"),
            format!("=== Game 1 ===\n\nThe winner of game 1 is player 2!\n\n\n{results}")
        );
    }

    #[test]
    fn trace_into_a_closed_pipe_ends_quietly() {
        // A long game, so the log is far larger than a pipe's buffer.
        let mut child = process()
            .args(["combat", "-", "--part", "1", "--trace"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = |cards: std::iter::StepBy<std::ops::RangeInclusive<u64>>| {
            cards.map(|c| c.to_string()).collect::<Vec<_>>().join("\n")
        };
        let deal = format!(
            "Player 1:\n{}\n\nPlayer 2:\n{}\n",
            lines((1..=500).step_by(2)),
            lines((2..=500).step_by(2))
        );
        child.stdin.take().unwrap().write_all(deal.as_bytes()).unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 100];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(output.status.code(), Some(0), "{stderr}");
    }

    #[test]
    fn bad_input_names_the_file_and_line_and_prints_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bad deck.txt");
        std::fs::write(&file, "Player 1:\n9\nten\n\nPlayer 2:\n5\n").unwrap();
        crabdice()
            .args(["solve"])
            .arg(&file)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("bad deck.txt:3:1"))
            .stderr(predicate::str::contains("line 3, column 1: `ten` is not a card"));
    }

    #[test]
    fn a_file_name_that_would_act_on_the_terminal_is_shown_escaped_and_given_raw_in_json() {
        let dir = tempfile::tempdir().unwrap();
        let deal = dir.path().join("red\x1b[31m\nline.txt");
        std::fs::write(&deal, combat_example()).unwrap();
        let bad = dir.path().join("bad\x1b[2J.txt");
        std::fs::write(&bad, "Player 1:\nten\n").unwrap();
        let shown = |file: &std::path::Path| {
            file.display().to_string().replace('\x1b', "\\u{1b}").replace('\n', "\\n")
        };

        let output =
            crabdice().arg("solve").arg(&deal).arg("examples/combat.txt").output().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 4, "{stdout}");
        assert!(stdout.starts_with(&format!("{}: part 1: 306\n", shown(&deal))), "{stdout}");

        let value = json(&["solve", deal.to_str().unwrap(), "--json"]);
        assert_eq!(value["file"], deal.to_str().unwrap());

        let output = crabdice().arg("solve").arg(&bad).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert!(!stderr.contains('\x1b'), "{stderr:?}");
        assert!(stderr.contains(&shown(&bad)), "{stderr:?}");
        let missing = dir.path().join("gone\x1b[2J.txt");
        let output = crabdice().arg("combat").arg(&missing).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert!(stderr.contains(&format!("cannot read {}", shown(&missing))), "{stderr:?}");
    }

    #[test]
    fn every_malformed_deal_is_an_error_not_a_panic() {
        let cases = [
            ("", "the input is empty or blank"),
            (" \r\n\r\n", "line 1, column 1: the input is empty or blank"),
            ("Player 2:\n1\n", "expected `Player 1:`"),
            ("Player 1:\n0\n\nPlayer 2:\n2\n", "0 is not allowed"),
            ("Player 1:\n-3\n\nPlayer 2:\n2\n", "is not a card"),
            ("Player 1:\n3\n\nPlayer 2:\n3\n", "dealt twice"),
            ("Player 1:\n1\n\nPlayer 2:\n2\n\nPlayer 3:\n4\n", "exactly two players"),
            ("Player 1:\n1\n", "found the end of the input"),
            ("Player 1:\n99999999999999999999\n\nPlayer 2:\n2\n", "too large"),
        ];
        for (input, message) in cases {
            refused_input("combat", input, message);
        }
    }

    #[test]
    fn a_snippets_heading_counts_columns_in_characters_as_the_message_does() {
        // Two spaces of two bytes each before the card: column 3, not 5.
        let input = "Player 1:\n9\n\u{a0}\u{a0}x\n\nPlayer 2:\n5\n";
        let output = crabdice().args(["combat", "-"]).write_stdin(input).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("line 3, column 3: `x` is not a card"), "{stderr}");
        assert!(stderr.contains("[<stdin>:3:3]"), "{stderr}");
    }

    #[test]
    fn max_rounds_bounds_the_work_with_a_clear_message() {
        for engine in ["fast", "literal"] {
            crabdice()
                .args([
                    "combat",
                    "examples/combat.txt",
                    "--part",
                    "2",
                    "--max-rounds",
                    "5",
                    "--engine",
                    engine,
                ])
                .assert()
                .code(1)
                .stdout("")
                .stderr(
                    predicate::str::contains("past the limit of 5 rounds")
                        .and(predicate::str::contains("--max-rounds")),
                );
        }
    }

    #[test]
    fn threads_change_the_work_not_the_answer() {
        // Heavy enough for part 2 to start a second thread by default.
        let heavy = "crabdice/benches/corpus/deal-2951.txt";
        let answers: Vec<_> = ["1", "2", "64"]
            .iter()
            .map(|threads| json(&["combat", heavy, "--json", "--threads", threads]))
            .collect();
        assert_eq!(answers[0]["part2"]["score"], 34953);
        assert!(answers.iter().all(|answer| *answer == answers[0]));
        assert_eq!(stdout_of(&["solve", heavy, "--part", "2", "--threads", "1"]), "34953\n");
        refused(&["combat", heavy, "--threads", "0"], &["invalid value '0' for '--threads"]);
    }

    #[test]
    fn the_literal_engine_gives_the_same_answers() {
        assert_eq!(
            stdout_of(&["combat", "examples/combat.txt", "--engine", "literal"]),
            "part 1: 306\npart 2: 291\n"
        );
    }

    #[test]
    fn trace_and_json_cannot_be_combined() {
        crabdice().args(["combat", "examples/combat.txt", "--trace", "--json"]).assert().code(2);
    }

    #[test]
    fn control_bytes_in_the_input_are_escaped_not_sent_to_the_terminal() {
        for input in
            ["Player 1:\n9\0\x1b[31m\n\nPlayer 2:\n5\n", "Player 1:\n9\n\x1a\nPlayer 2:\n5\n"]
        {
            let output = crabdice().args(["solve", "-"]).write_stdin(input).output().unwrap();
            assert_eq!(output.status.code(), Some(1));
            let stderr = String::from_utf8(output.stderr).unwrap();
            assert!(!stderr.contains(|c: char| c.is_control() && c != '\n'), "{stderr:?}");
            assert!(stderr.contains("<stdin>: line "), "{stderr}");
            assert!(
                stderr.contains(r"`9\0\u{1b}[31m`") || stderr.contains(r"`\u{1a}`"),
                "{stderr}"
            );
        }
        // A right-to-left override would reorder the message; a typed `\0`
        // must not pass for a NUL byte.
        let input = "Player 1:\n9\\0\u{202e}21\n\nPlayer 2:\n5\n";
        let output = crabdice().args(["solve", "-"]).write_stdin(input).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!stderr.contains('\u{202e}'), "{stderr:?}");
        assert!(stderr.contains(r"`9\\0\u{202e}21`"), "{stderr}");
        // Characters that show as nothing would make the quote look like
        // the line that was expected.
        let input = "Player 1 starting position: 4\n\u{feff}Player 2 starting position: 8\n";
        let output = crabdice().args(["dice", "-"]).write_stdin(input).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!stderr.contains('\u{feff}'), "{stderr:?}");
        assert!(stderr.contains(r"found `\u{feff}Player 2 starting position: 8`"), "{stderr}");
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        crabdice()
            .args(["solve", "-"])
            .write_stdin(combat_example().replace('\n', "\r"))
            .assert()
            .success()
            .stdout("part 1: 306\npart 2: 291\n");
        // Errors count those lines, in the message and in the snippet.
        crabdice()
            .args(["solve", "-"])
            .write_stdin("Player 1:\r9\r\rPlayer 2:\rx\r")
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("line 5, column 1: `x` is not a card")
                    .and(predicate::str::contains(" 5 │ x")),
            );
    }

    #[test]
    fn both_parts_traced_are_separated_by_a_blank_line() {
        let output =
            crabdice().args(["combat", "examples/combat.txt", "--trace"]).output().unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(
            text.contains("Player 2's deck: 3, 2, 10, 6, 8, 5, 9, 4, 7, 1\n\n=== Game 1 ===\n"),
            "{text}"
        );
        assert!(text.ends_with("part 1: 306\npart 2: 291\n"));
    }

    #[test]
    fn engine_all_plays_both_combat_engines_side_by_side() {
        crabdice()
            .args(["combat", "examples/combat.txt", "--engine", "all"])
            .assert()
            .success()
            .stdout("part 1: 306 (fast, literal: agree)\npart 2: 291 (fast, literal: agree)\n")
            .stderr("");
        // With --time, each engine's median; with --part, the answer stays first.
        let timed = stdout_of(&[
            "combat",
            "examples/combat.txt",
            "--engine",
            "all",
            "--part",
            "2",
            "--time",
        ]);
        let time = r"[0-9.]+ (ns|µs|ms|s)";
        let pattern = format!(r"^291 \(fast {time}, literal {time}: agree\)\n$");
        assert!(predicate::str::is_match(pattern).unwrap().eval(&timed), "{timed}");
        // --expect checks the answer the engines agree on.
        crabdice()
            .args(["combat", "examples/combat.txt", "--engine", "all", "--expect", "306,290"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("part 2: 291, where 290 was expected"));
    }

    #[test]
    fn engine_all_agrees_on_cycles_and_on_corpus_deals() {
        // The puzzle's endless deal cycles in plain Combat: both engines find
        // the same cycle.
        let endless = "Player 1:\n43\n19\n\nPlayer 2:\n2\n29\n14\n";
        let value = json_from(&["combat", "-", "--engine", "all", "--json"], endless);
        let engines = value["part1"]["engines"].as_array().unwrap();
        assert_eq!(engines.len(), 2);
        for (run, name) in engines.iter().zip(["fast", "literal"]) {
            assert_eq!(run["engine"], name);
            assert_eq!(run["end"], "cycle");
            assert_eq!(run["cycle"], serde_json::json!({ "start": 1, "length": 6 }));
        }
        assert_eq!(value["part2"]["engines"][1]["score"], 105);
        // The literal engine plays every game, so it counts them for --json,
        // as the walk that counts them for the fast engine does.
        let counted = json_from(&["combat", "-", "--json"], endless);
        assert_eq!(value["part2"]["games"], counted["part2"]["games"]);
        let example = json(&["combat", "examples/combat.txt", "--engine", "all", "--json"]);
        assert_eq!(
            (&example["part2"]["games"], &example["part2"]["max_depth"]),
            (&5.into(), &2.into())
        );
        // Two corpus deals, of 147 and 8,235 games (the literal engine plays
        // them all; the fast one skips most).
        for (deal, answers) in [("deal-992", "31543,34264"), ("deal-2774", "31395,34834")] {
            let path = format!("crabdice/benches/corpus/{deal}.txt");
            crabdice()
                .args(["combat", &path, "--engine", "all", "--expect", answers])
                .assert()
                .success()
                .stdout(predicate::str::contains("(fast, literal: agree)").count(2));
        }
    }

    #[test]
    fn engine_all_leaves_out_an_engine_a_limit_stops() {
        // The literal engine keeps every state: a megabyte stops it on corpus
        // deal 2951, which the fast engine answers in a few states.
        let args = ["combat", "crabdice/benches/corpus/deal-2951.txt", "--part", "2"];
        let limited = [&args[..], &["--engine", "all", "--max-memory", "1M"]].concat();
        crabdice()
            .args(&limited)
            .assert()
            .success()
            .stdout("34953 (fast; literal left out)\n")
            .stderr(predicate::str::contains(
                "part 2: --engine all leaves out the literal engine: gave up after",
            ));
        let value = json(&[&limited[..], &["--json"]].concat());
        let engines = value["part2"]["engines"].as_array().unwrap();
        assert_eq!(engines[0]["score"], 34953);
        assert_eq!(engines[1]["engine"], "literal");
        let why = engines[1]["left_out"].as_str().unwrap();
        assert!(why.ends_with("the states the literal engine keeps need more than 1 MiB"), "{why}");
        // The games are then counted by the walk, as for the fast engine alone.
        assert_eq!(value["part2"]["games"], 29692);
        // The answering engine's limit is still the run's error, naming it.
        crabdice()
            .args([&args[..], &["--engine", "all", "--max-rounds", "5000"]].concat())
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(
                "part 2 (the fast engine): gave up at round 5001, past the limit of 5000 rounds",
            ));
        // The fast engine plays about a million rounds, the literal one more
        // than two million, and the walk that counts the games for --json
        // (which the literal engine would have counted) as many: the games are
        // then unknown, and the answer stands.
        let rounds = [&args[..], &["--engine", "all", "--max-rounds", "2000000"]].concat();
        let output = crabdice().args([&rounds[..], &["--json"]].concat()).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(value["part2"]["score"], 34953);
        assert_eq!(value["part2"]["games"], serde_json::Value::Null);
        assert_eq!(value["part2"]["agree"], true);
        assert!(value["part2"]["engines"][1]["left_out"].as_str().unwrap().contains("2000000"));
        let notes = String::from_utf8_lossy(&output.stderr);
        assert!(notes.contains("`games` and `max_depth` are null"), "{notes}");
        // A limit that cuts the literal engine's log short is the run's error:
        // the log on standard output is incomplete.
        crabdice()
            .args([&rounds[..], &["--trace"]].concat())
            .assert()
            .code(1)
            .stderr(predicate::str::contains("part 2 (the literal engine): gave up at round"));
    }

    #[test]
    fn engine_all_with_trace_logs_the_literal_game_and_checks_it_against_the_fast_one() {
        let traced = stdout_of(&[
            "combat",
            "examples/combat.txt",
            "--part",
            "2",
            "--trace",
            "--engine",
            "all",
        ]);
        assert!(traced.starts_with("=== Game 1 ===\n"), "{traced}");
        assert!(traced.ends_with("\n291 (fast, literal: agree)\n"), "{traced}");
    }

    /// A score is a JSON number while every score the deal can reach fits
    /// in 64 bits, and a string of digits only past that.
    #[test]
    fn a_deal_that_scores_at_most_2_to_the_64_minus_1_gives_a_number() {
        // One card, u64::MAX: the largest score of the deal fits in 64 bits.
        let deal = "Player 1:\n18446744073709551615\n\nPlayer 2:\n";
        let value = json_from(&["combat", "-", "--json"], deal);
        assert_eq!(value["part1"]["score"], serde_json::json!(u64::MAX));
        assert_eq!(value["part2"]["score"], serde_json::json!(u64::MAX));
    }

    /// A line of up to 500 bytes is shown under the message; a longer one
    /// would bury it, and only the message names the place.
    #[test]
    fn a_line_of_500_bytes_is_shown_and_one_of_501_is_not() {
        for (len, shown) in [(500, true), (501, false)] {
            let deal = format!("Player 1:\n9\n{}\n\nPlayer 2:\n5\n", "x".repeat(len));
            let output = crabdice().args(["combat", "-"]).write_stdin(deal).output().unwrap();
            assert_eq!(output.status.code(), Some(1));
            let stderr = String::from_utf8(output.stderr).unwrap();
            assert_eq!(stderr.contains("[<stdin>:3:1]"), shown, "{len}: {stderr}");
        }
    }

    /// The literal engine is given what is left of the time limit since
    /// the part started, but the message names the limit the user gave.
    #[test]
    fn the_literal_engine_names_the_time_limit_given_not_what_was_left() {
        crabdice()
            .args(["combat", "crabdice/benches/corpus/deal-2951.txt", "--part", "2"])
            .args(["--engine", "literal", "--max-time", "0.05"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("the time limit of 50ms has passed"));
    }

    #[test]
    fn engine_all_times_every_engine_in_json() {
        let args = ["combat", "examples/combat.txt", "--part", "2", "--engine", "all"];
        let value = json(&[&args[..], &["--time", "--json"]].concat());
        let engines = value["part2"]["engines"].as_array().unwrap();
        assert_eq!(engines.len(), 2);
        for run in engines {
            assert!(run["time_ns"].as_u64().is_some(), "{run}");
        }
    }

    /// A trace to a full disk stops with an error and exit status 1 (a
    /// closed pipe is the only write error that ends quietly).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_trace_that_cannot_be_written_is_an_error() {
        let full = std::fs::File::create("/dev/full").unwrap();
        let output = process()
            .args(["combat", "examples/combat.txt", "--part", "2", "--trace"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("cannot write the output"), "{stderr}");
    }
}

/// Dirac Dice: `cargo test dirac` runs these.
mod dirac {
    use super::*;

    #[test]
    fn dice_prints_both_parts_of_the_example() {
        assert_eq!(
            stdout_of(&["dice", "examples/dice.txt"]),
            "part 1: 739785\npart 2: 444356092776315\n"
        );
    }

    #[test]
    fn json_reports_every_dice_field_with_counts_as_strings() {
        let value = json(&["dice", "examples/dice.txt", "--json"]);
        assert_eq!(value["game"], "dice");
        assert_eq!(value["players"], serde_json::json!([4, 8]));
        let one = &value["part1"];
        assert_eq!(
            one["rules"],
            serde_json::json!({"board": 10, "target": 1000, "die": 100, "rolls": 3})
        );
        assert_eq!(
            (one["answer"].as_str(), one["winner"].as_u64(), one["rolls"].as_str()),
            (Some("739785"), Some(1), Some("993"))
        );
        assert_eq!(one["scores"], serde_json::json!(["1000", "745"]));
        let two = &value["part2"];
        assert_eq!(
            two["rules"],
            serde_json::json!({"board": 10, "target": 21, "die": 3, "rolls": 3})
        );
        assert_eq!(two["answer"], "444356092776315");
        assert_eq!(two["winner"], 1);
        assert_eq!(two["wins"], serde_json::json!(["444356092776315", "341960390180808"]));
    }

    #[test]
    fn a_huge_target_is_answered_exactly() {
        assert_eq!(
            stdout_of(&[
                "dice",
                "examples/dice.txt",
                "--part",
                "1",
                "--target",
                "1000000000000000000"
            ]),
            "749999999999999989750000000000000035\n"
        );
    }

    /// A die that takes a million turns (or a billion) to come back to an
    /// offset: the game is swept along the line of the die's wraps. The first
    /// answer is a roll-by-roll Python simulation's (10.4 million rolls); the
    /// second game used to be refused.
    #[test]
    fn a_die_too_long_to_cycle_is_answered() {
        assert_eq!(
            stdout_of(&[
                "dice",
                "examples/dice.txt",
                "--part",
                "1",
                "--die",
                "1000003",
                "--target",
                "1e7",
            ]),
            "91179949400505\n"
        );
        let huge =
            ["dice", "examples/dice.txt", "--part", "1", "--die", "999999937", "--target", "10^18"];
        let answer = stdout_of(&huge);
        assert!(
            answer.trim().len() > 30 && answer.trim().bytes().all(|b| b.is_ascii_digit()),
            "{answer}"
        );
    }

    #[test]
    fn dirac_counts_beyond_128_bits_are_exact() {
        assert_eq!(
            stdout_of(&[
                "dice",
                "examples/dice.txt",
                "--part",
                "2",
                "--target",
                "30",
                "--die",
                "4"
            ]),
            "14184066373435447858820392124021831333178373619955\n"
        );
    }

    #[test]
    fn three_players_are_read_from_the_input() {
        let value = {
            let output = crabdice()
                .args(["dice", "-", "--part", "2", "--target", "15", "--json"])
                .write_stdin("Player 1 starting position: 4\nPlayer 2 starting position: 8\nPlayer 3 starting position: 1\n")
                .output()
                .unwrap();
            serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
        };
        assert_eq!(
            value["part2"]["wins"],
            serde_json::json!(["289473284112279", "356649188477409", "311097988479003"])
        );
        assert_eq!(value["part2"]["winner"], 2);
    }

    /// The puzzle's answer, and to 8 points (which the universe tree can
    /// walk) player 2's 1048978 universes to player 1's 655661, as a
    /// memoized Python simulation counts them.
    #[test]
    fn every_dice_engine_gives_the_same_counts() {
        let part_2 = ["dice", "examples/dice.txt", "--part", "2", "--engine"];
        for engine in ["per-player", "memo"] {
            assert_eq!(stdout_of(&[&part_2[..], &[engine]].concat()), "444356092776315\n");
        }
        for engine in ["per-player", "memo", "tree"] {
            let value = json(&[&part_2[..], &[engine, "--target", "8", "--json"]].concat());
            assert_eq!(
                value["part2"]["wins"],
                serde_json::json!(["655661", "1048978"]),
                "{engine}"
            );
        }
    }

    #[test]
    fn a_board_of_2_to_the_64_spaces_is_counted_like_the_universe_tree_walks_it() {
        // The universe tree walks the board as given; the other engines play
        // it as a board of target + rolls × faces spaces.
        let wins = |engine: &str| {
            let board = ["--board", "18446744073709551615", "--target", "9"];
            let args = ["dice", "examples/dice.txt", "--part", "2", "--json", "--engine", engine];
            json(&[&args[..], &board[..]].concat())["part2"]["wins"].clone()
        };
        let tree = wins("tree");
        assert_eq!(wins("per-player"), tree);
        assert_eq!(wins("memo"), tree);
        // To the puzzle's 21 points, player 2 wins 21141 universes to player
        // 1's 18900 (a memoized Python simulation's counts).
        assert_eq!(
            stdout_of(&[
                "dice",
                "examples/dice.txt",
                "--part",
                "2",
                "--board",
                "18446744073709551615"
            ]),
            "21141\n"
        );
    }

    #[test]
    fn histogram_prints_a_table_per_turn() {
        crabdice()
            .args(["dice", "examples/dice.txt", "--part", "2", "--histogram", "--target", "10"])
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "turn  player 1 alone  player 1 wins  player 2 alone  player 2 wins",
            ))
            .stdout(predicate::str::contains(
                "\n   1               7              7               0              0\n",
            ));
    }

    /// A histogram keeps every turn's wins of every player: for 10,000
    /// players that is refused, naming them and the flag, before the
    /// answer is counted (the universe tree, asked for the answer, would
    /// refuse it with a message of its own); with part 1 answered, the
    /// error says how to get it alone.
    #[test]
    fn a_histogram_of_too_many_players_is_refused() {
        use std::fmt::Write as _;
        let mut players = String::new();
        for i in 1..=10_000 {
            writeln!(players, "Player {i} starting position: 4").unwrap();
        }
        crabdice()
            .args(["dice", "-", "--part", "2", "--histogram", "--engine", "tree"])
            .write_stdin(players.clone())
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("combining the counts of 10000 Dirac players"))
            .stderr(predicate::str::contains("--max-memory"));
        crabdice()
            .args(["dice", "-", "--histogram"])
            .write_stdin(players)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("part 2 (for part 1 alone, add --part 1)"));
    }

    /// A refused part 1 stops the run before part 2 is played: its error
    /// says how to have part 2 alone. Here part 1 would roll the die 2^128
    /// times or more (2^64 − 1 rolls a turn, for about 2^65 turns), while
    /// part 2, with a die of one face, is one universe, in which each
    /// pawn scores 1 a turn and player 1 reaches the target first.
    #[test]
    fn a_refused_part_one_says_how_to_have_part_two_alone() {
        let starts = "Player 1 starting position: 1\nPlayer 2 starting position: 1\n";
        let rules = ["--board", "1", "--die", "1", "--rolls", "2^64-1", "--target", "2^64-1"];
        let dice = |part: &[&'static str]| {
            let mut command = crabdice();
            command.args(["dice", "-"]).args(rules).args(part).write_stdin(starts);
            command
        };
        dice(&[]).assert().code(1).stdout("").stderr(
            predicate::str::contains("part 1 (for part 2 alone, add --part 2)")
                .and(predicate::str::contains("2^128 times or more")),
        );
        dice(&["--part", "2"]).assert().success().stdout("1\n");
        dice(&["--part", "1"]).assert().code(1).stderr(predicate::str::contains("alone").not());
    }

    /// A Dirac count large enough to count its players two at a time gives
    /// the same answer on one thread, through `dice` and `solve`.
    #[test]
    fn threads_cap_a_dirac_count_without_changing_it() {
        let rules = ["--part", "2", "--target", "300", "--json"];
        let spread = json(&[&["dice", "examples/dice.txt"][..], &rules].concat());
        let one = json(&[&["dice", "examples/dice.txt", "--threads", "1"][..], &rules].concat());
        assert_eq!(spread, one);
        assert_eq!(
            spread["part2"]["answer"],
            "53298400706678193375769327789205641691635035531404205718234620024447405798043367633477239571358202177967063744061778565372714871005589413132007719957699648886804039638781946043644290852572621623101257056"
        );
        let solved = stdout_of(&["solve", "examples/dice.txt", "--part", "2", "--threads", "1"]);
        assert_eq!(solved, "444356092776315\n");
        refused(
            &["dice", "examples/dice.txt", "--threads", "0"],
            &["a part needs 1 thread or more"],
        );
        // Threads are counts, written as counts are; parts are 1 or 2.
        assert_eq!(
            stdout_of(&["dice", "examples/dice.txt", "--part", "1", "--threads", "1e1"]),
            "739785\n"
        );
        refused(
            &["dice", "examples/dice.txt", "--threads", "2^16"],
            &["`2^16` threads are more than 65535"],
        );
        refused(
            &["dice", "examples/dice.txt", "--part", "1,2"],
            &["`1,2` is not a part: give 1 or 2 (leave --part out for both)"],
        );
    }

    #[test]
    fn nonsense_rules_and_bad_positions_are_errors() {
        // A rule of 0 is a bad value, a usage error (status 2) as any other.
        for flag in ["--board", "--target", "--die", "--rolls"] {
            for part in ["1", "2"] {
                crabdice()
                    .args(["dice", "examples/dice.txt", "--part", part, flag, "0"])
                    .assert()
                    .code(2)
                    .stdout("")
                    .stderr(
                        predicate::str::contains(format!("invalid value '0' for '{flag}"))
                            .and(predicate::str::contains("the rules need 1 or more")),
                    );
            }
        }
        crabdice()
            .args(["dice", "examples/dice.txt", "--board", "5"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains("examples/dice.txt:2:29")
                    .and(predicate::str::contains("off the board")),
            );
        // A game too large because of the die names the die among the fixes:
        // its table needs too much memory, and its live cells, too much work,
        // which is what the message names (--max-work would count it, in 2 s;
        // at target 200 the live cells count it in 0.03 s by default).
        crabdice()
            .args(["dice", "examples/dice.txt", "--part", "2", "--board", "1000000000"])
            .args(["--target", "600", "--die", "1000000"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains("word operations")
                    .and(predicate::str::contains("--die"))
                    .and(predicate::str::contains("--max-work")),
            );
        for (input, message) in [
            ("Player 1 starting position: 4\n", "at least two players"),
            (
                "Player 1 starting position: 4\nPlayer 3 starting position: 8\n",
                "expected `Player 2 starting position: P`",
            ),
            (
                "Player 1 starting position: x\nPlayer 2 starting position: 8\n",
                "is not a starting position",
            ),
            ("Player 1 starting position: 4 please\nPlayer 2 starting position: 8\n", "unexpected"),
            ("Player 1 starting position: 0\nPlayer 2 starting position: 8\n", "starting position"),
            (
                "Player 1 starting position: 4\nPlayer 2 starting position: 8\n\njunk\n",
                "<stdin>: line 4, column 1: unexpected `junk` after the last player",
            ),
            (
                "Player 1 starting position: 4\nPlayer 2 starting position: 8\n\nPlayer 3 starting position: 1\n",
                "<stdin>: line 3, column 1: expected `Player 3 starting position: P`, found a blank line",
            ),
        ] {
            refused_input("dice", input, message);
        }
    }

    #[test]
    fn max_work_and_max_memory_move_the_bounds_on_counting_a_dirac_game() {
        let part2 = ["dice", "examples/dice.txt", "--part", "2"];
        // The puzzle's own estimates, read from the refusals of tiny limits.
        let work = estimate(&[&part2[..], &["--max-work", "1"]].concat(), "takes about ");
        let words = estimate(&[&part2[..], &["--max-memory", "1"]].concat(), "need about ");
        assert!(work > 1000 && words > 100, "{work} operations, {words} words");
        // At the estimate the game is counted, one below it is refused, naming
        // the flag that moves the bound.
        for (flag, at, refusal) in [
            ("--max-work", work, "raise the limit with --max-work"),
            ("--max-memory", words * 8, "raise the limit with --max-memory"),
        ] {
            crabdice()
                .args(part2)
                .args([flag, &at.to_string()])
                .assert()
                .success()
                .stdout("444356092776315\n");
            crabdice()
                .args(part2)
                .args([flag, &(at - 1).to_string()])
                .assert()
                .code(1)
                .stdout("")
                .stderr(predicate::str::contains(refusal));
        }
        // The default refuses a larger game, and says how to count it anyway.
        crabdice().args(part2).args(["--target", "2500"]).assert().code(1).stderr(
            predicate::str::contains("over the limit of 20000000000 operations")
                .and(predicate::str::contains("raise the limit with --max-work")),
        );
    }

    #[test]
    fn a_refused_part_2_says_how_to_get_part_1_alone() {
        let both = ["dice", "examples/dice.txt", "--target", "1e12"];
        crabdice().args(both).assert().code(1).stdout("").stderr(
            predicate::str::contains("part 2 (for part 1 alone, add --part 1)")
                .and(predicate::str::contains("raise the limit with --max-memory")),
        );
        // As it says, part 1 alone is answered.
        let part1 = stdout_of(&[&both[..], &["--part", "1"]].concat());
        assert!(part1.trim().parse::<u128>().unwrap() > u128::from(u64::MAX), "{part1}");
        // Asked for part 2 alone, the error says nothing of part 1.
        crabdice().args(both).args(["--part", "2"]).assert().code(1).stderr(
            predicate::str::contains("part 2: ").and(predicate::str::contains("part 1").not()),
        );
    }

    #[test]
    fn a_die_of_one_face_is_one_universe_at_any_target() {
        // The tables for this target would be refused; one face splits
        // nothing, so the game is the deterministic die's with one face.
        let args = ["dice", "examples/dice.txt", "--die", "1", "--target", "2^64-1", "--json"];
        let value = json(&args);
        let part1_winner = &value["part1"]["winner"];
        assert_eq!(value["part2"]["answer"], "1");
        assert_eq!(&value["part2"]["winner"], part1_winner);
        let mut wins = vec!["0"; 2];
        wins[part1_winner.as_u64().unwrap() as usize - 1] = "1";
        assert_eq!(value["part2"]["wins"], serde_json::json!(wins));
    }

    #[test]
    fn solve_reports_a_missing_starting_position_as_dirac_dice_does() {
        let input = "Player 1 starting position: \nPlayer 2 starting position: 8\n";
        let expected = crabdice().args(["dice", "-"]).write_stdin(input).output().unwrap();
        assert_eq!(expected.status.code(), Some(1));
        let stderr = String::from_utf8(expected.stderr).unwrap();
        assert!(
            stderr.contains("<stdin>: line 1, column 28: player 1's starting position is missing"),
            "{stderr}"
        );
        crabdice()
            .args(["solve", "-"])
            .write_stdin(input)
            .assert()
            .code(1)
            .stdout("")
            .stderr(stderr);
    }

    #[test]
    fn dice_figures_that_can_outgrow_64_bits_are_always_strings() {
        // Small at the puzzle's target, past 2^64 at this one: strings both times.
        for target in ["1000", "18446744073709551615"] {
            let value =
                json(&["dice", "examples/dice.txt", "--part", "1", "--json", "--target", target]);
            let one = &value["part1"];
            assert!(one["answer"].is_string() && one["rolls"].is_string(), "{one}");
            assert!(
                one["scores"].as_array().unwrap().iter().all(serde_json::Value::is_string),
                "{one}"
            );
        }
    }

    #[test]
    fn a_histogram_with_only_part_one_is_a_usage_error() {
        refused(
            &["dice", "examples/dice.txt", "--part", "1", "--histogram"],
            &["--histogram", "Usage: crabdice dice [OPTIONS] <FILE>\n"],
        );
    }

    #[test]
    fn engine_all_plays_the_deterministic_game_also_roll_by_roll() {
        let value =
            json(&["dice", "examples/dice.txt", "--part", "1", "--engine", "all", "--json"]);
        let engines = value["part1"]["engines"].as_array().unwrap();
        assert_eq!(engines.len(), 2);
        assert_eq!(engines[1]["engine"], "literal");
        for field in ["answer", "winner", "rolls", "scores"] {
            assert_eq!(engines[1][field], value["part1"][field], "{field}");
        }
        assert_eq!(engines[1]["rolls"], "993");
        // A game of about 10^12 rolls is too long to roll: the solver
        // answers alone, with a note.
        crabdice()
            .args(["dice", "examples/dice.txt", "--part", "1", "--target", "1e12", "--engine", "all"])
            .assert()
            .success()
            .stdout("749999999989750000000035 (fast; literal left out)\n")
            .stderr(predicate::str::contains(
                "note: examples/dice.txt: part 1: --engine all leaves out the literal engine: the \
                 literal engine rolls the deterministic die one roll at a time and reached its limit \
                 of 100000000 rolls",
            ));
    }

    #[test]
    fn engine_all_counts_the_dirac_game_with_every_engine_that_takes_it() {
        // The universe tree refuses the puzzle's game (over 10^14 universes):
        // it is left out, with a note, and the other two agree.
        crabdice()
            .args(["dice", "examples/dice.txt", "--engine", "all"])
            .assert()
            .success()
            .stdout(
                "part 1: 739785 (fast, literal: agree)\n\
                 part 2: 444356092776315 (per-player, memo: agree; tree left out)\n",
            )
            .stderr(predicate::str::contains(
                "note: examples/dice.txt: part 2: --engine all leaves out the tree engine: the \
                 universe tree engine visits every roll",
            ));
        // At target 10 all three count it.
        let args =
            ["dice", "examples/dice.txt", "--part", "2", "--target", "10", "--engine", "all"];
        crabdice()
            .args(args)
            .assert()
            .success()
            .stdout("18973591 (per-player, memo, tree: agree)\n")
            .stderr("");
        let value = json(&[&args[..], &["--json"]].concat());
        let engines = value["part2"]["engines"].as_array().unwrap();
        let names: Vec<_> = engines.iter().map(|run| run["engine"].as_str().unwrap()).collect();
        assert_eq!(names, ["per-player", "memo", "tree"]);
        for run in engines {
            assert_eq!(run["wins"], serde_json::json!(["18973591", "12657100"]));
        }
        // A refusal is in the JSON too.
        let value =
            json(&["dice", "examples/dice.txt", "--part", "2", "--engine", "all", "--json"]);
        let tree = &value["part2"]["engines"][2];
        assert_eq!(tree["engine"], "tree");
        assert!(tree["left_out"].as_str().unwrap().contains("100000000 rolls"), "{tree}");
        assert!(tree.get("answer").is_none());
    }

    #[test]
    fn json_histogram_gives_alone_and_in_game_counts_apart() {
        let args = ["dice", "examples/dice.txt", "--part", "2", "--histogram", "--json"];
        let one = &json(&args)["part2"]["histogram"][0];
        // Player 1 alone first reaches 21 at turn 3 in 4608 universes; in the
        // game, times player 2's 27^2 universes of two turns (none reaches 21).
        assert_eq!((&one["alone"][2], &one["in_game"][2]), (&"4608".into(), &"3359232".into()));
    }

    #[test]
    fn expect_takes_an_answer_of_zero() {
        // Target 1: player 1 wins on its first turn, player 2 scored nothing.
        for zero in ["0", "000"] {
            let args = ["dice", "examples/dice.txt", "--part", "1", "--target", "1"];
            assert_eq!(stdout_of(&[&args[..], &["--expect", zero]].concat()), "0\n");
        }
    }

    // The tests below come from an eighth round of mutation testing, of the
    // `dice` command line; their expected counts are a Python game played
    // forward, every universe of every turn, as the comments say.

    /// Each engine `--engine` names counts part 2, and JSON names it: at
    /// target 10 all three count the example, 18973591 and 12657100
    /// universes. The universe tree keeps its own limit (the puzzle's
    /// game is past it), and the memo engine its own (target 300).
    #[test]
    fn the_engine_asked_for_counts_part_2_within_its_own_limits() {
        for engine in ["per-player", "memo", "tree"] {
            let args = ["dice", "examples/dice.txt", "--part", "2", "--target", "10", "--json"];
            let value = json(&[&args[..], &["--engine", engine]].concat());
            assert_eq!(value["part2"]["engine"], engine);
            assert_eq!(value["part2"]["wins"], serde_json::json!(["18973591", "12657100"]));
        }
        crabdice()
            .args(["dice", "examples/dice.txt", "--part", "2", "--engine", "tree"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("limit of 100000000 rolls"));
        crabdice()
            .args([
                "dice",
                "examples/dice.txt",
                "--part",
                "2",
                "--engine",
                "memo",
                "--target",
                "300",
            ])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("use --engine per-player"));
    }

    /// `--rolls` changes both parts: one roll a turn, part 1 is won by
    /// player 2 after 250 rolls, 815 to 1000 (815 × 250 = 203750), and in
    /// part 2 player 1 wins 3157 universes to player 2's 866.
    #[test]
    fn rolls_set_the_rolls_of_a_turn_in_both_parts() {
        let value = json(&["dice", "examples/dice.txt", "--rolls", "1", "--json"]);
        let one = &value["part1"];
        assert_eq!(
            one["rules"],
            serde_json::json!({"board": 10, "target": 1000, "die": 100, "rolls": 1})
        );
        assert_eq!(
            (one["answer"].as_str(), one["winner"].as_u64(), one["rolls"].as_str()),
            (Some("203750"), Some(2), Some("250"))
        );
        assert_eq!(one["scores"], serde_json::json!(["815", "1000"]));
        let two = &value["part2"];
        assert_eq!(
            two["rules"],
            serde_json::json!({"board": 10, "target": 21, "die": 3, "rolls": 1})
        );
        assert_eq!((two["answer"].as_str(), two["winner"].as_u64()), (Some("3157"), Some(1)));
        assert_eq!(two["wins"], serde_json::json!(["3157", "866"]));
    }

    /// The histogram runs until every player alone has reached the target:
    /// from 4 and 1 to 10 points, player 2 alone has finished after 4 turns
    /// (so the game ends there, and nobody wins on turn 5), player 1 only
    /// after 5. Player 2 wins 7760588 universes to player 1's 3870071.
    #[test]
    fn histogram_rows_go_on_until_every_player_alone_has_reached_the_target() {
        crabdice()
            .args(["dice", "-", "--part", "2", "--target", "10", "--histogram"])
            .write_stdin("Player 1 starting position: 4\nPlayer 2 starting position: 1\n")
            .assert()
            .success()
            .stdout(
                "7760588\n\n\
                 turn  player 1 alone  player 1 wins  player 2 alone  player 2 wins\n   \
                 1               7              7               1             20\n   \
                 2             352           9152             458          86104\n   \
                 3            3998         975512            6488        6994064\n   \
                 4           28854        2885400            2700         680400\n   \
                 5            6804              0               0              0\n",
            );
    }

    /// `--time` times each dice part, in text and JSON, and with `--engine
    /// all` every engine that ran.
    #[test]
    fn time_adds_a_median_to_each_dice_part_and_engine() {
        let time = r"\([0-9.]+ (ns|µs|ms|s)\)";
        crabdice().args(["dice", "examples/dice.txt", "--time"]).assert().success().stdout(
            predicate::str::is_match(format!(
                r"^part 1: 739785 {time}\npart 2: 444356092776315 {time}\n$"
            ))
            .unwrap(),
        );
        let value = json(&["dice", "examples/dice.txt", "--json", "--time"]);
        for part in ["part1", "part2"] {
            assert!(value[part]["time_ns"].as_u64().is_some(), "{value}");
        }
        let args =
            ["dice", "examples/dice.txt", "--part", "2", "--target", "10", "--engine", "all"];
        let value = json(&[&args[..], &["--json", "--time"]].concat());
        let engines = value["part2"]["engines"].as_array().unwrap();
        assert_eq!(engines.len(), 3, "{value}");
        for run in engines {
            assert!(run["time_ns"].as_u64().is_some(), "{run}");
        }
    }

    /// A refusal of the rules names the file and the part, as every error
    /// names its file, on the first line, with the refusal itself.
    #[test]
    fn a_refusal_of_the_rules_names_the_file() {
        let output = crabdice()
            .args(["dice", "examples/dice.txt", "--part", "2", "--target", "1e12"])
            .output()
            .unwrap();
        assert_eq!((output.status.code(), &output.stdout[..]), (Some(1), &b""[..]));
        let stderr = String::from_utf8(output.stderr).unwrap();
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.starts_with("  × examples/dice.txt: part 2: a player's tables"), "{stderr}");
        assert!(first.ends_with("over the limit of 134217728 words"), "{stderr}");
    }

    /// A start past the board says which flag makes the board larger.
    #[test]
    fn a_start_off_the_board_is_helped_with_the_board_flag() {
        crabdice()
            .args(["dice", "examples/dice.txt", "--board", "5"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("starting position 8 is off the board").and(
                predicate::str::contains(
                    "help: give a space on the board, or change the board's size with --board",
                ),
            ));
    }

    /// Starts off the board are found when the files are read, before any
    /// is solved: every such file is named, and a Combat deal before them
    /// is not played (here it would fail on its round limit).
    #[test]
    fn solve_names_every_file_with_a_start_off_the_board_and_plays_none() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("first.txt"), dir.path().join("second.txt"));
        std::fs::write(&first, "Player 1 starting position: 11\nPlayer 2 starting position: 8\n")
            .unwrap();
        std::fs::write(&second, "Player 1 starting position: 4\nPlayer 2 starting position: 12\n")
            .unwrap();
        let output = crabdice()
            .args(["solve", "examples/combat.txt", "--max-rounds", "1"])
            .arg(&first)
            .arg(&second)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        let one = stderr.find("starting position 11 is off the board").expect(&stderr);
        let two = stderr.find("starting position 12 is off the board").expect(&stderr);
        assert!(one < two, "{stderr}");
        assert!(!stderr.contains("examples/combat.txt"), "{stderr}");
    }

    /// `agree` and `engines` are `--engine all`'s: one engine gives neither.
    #[test]
    fn one_engine_gives_no_agreement_and_no_list_of_engines() {
        let value = json(&["dice", "examples/dice.txt", "--json"]);
        for part in ["part1", "part2"] {
            assert!(value[part].get("agree").is_none(), "{value}");
            assert!(value[part].get("engines").is_none(), "{value}");
        }
        let value = json(&["dice", "examples/dice.txt", "--json", "--engine", "all"]);
        assert_eq!(
            (&value["part1"]["agree"], &value["part2"]["agree"]),
            (&true.into(), &true.into())
        );
    }

    /// A byte order mark is not counted in the snippet's heading either:
    /// the `x` is the 29th character of its line, in the message and under it.
    #[test]
    fn a_byte_order_mark_is_not_counted_in_the_snippets_column() {
        crabdice()
            .args(["dice", "-"])
            .write_stdin("\u{feff}Player 1 starting position: x\nPlayer 2 starting position: 8\n")
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains("line 1, column 29: `x` is not a starting position")
                    .and(predicate::str::contains("[<stdin>:1:29]")),
            );
    }

    /// `--max-work` and `--max-memory` bound every engine's count, refused
    /// on the estimate before it starts, not only the per-player engine's.
    #[test]
    fn max_work_and_max_memory_bound_the_memo_and_tree_engines_too() {
        for engine in ["memo", "tree"] {
            let args = ["dice", "examples/dice.txt", "--part", "2", "--target", "8"];
            for (flag, refusal) in [
                ("--max-work", "raise the limit with --max-work"),
                ("--max-memory", "raise the limit with --max-memory"),
            ] {
                crabdice()
                    .args(args)
                    .args(["--engine", engine, flag, "1"])
                    .assert()
                    .code(1)
                    .stdout("")
                    .stderr(predicate::str::contains(refusal));
            }
            // Within the default limits the game is counted.
            crabdice().args(args).args(["--engine", engine]).assert().success();
        }
    }

    /// A die of one face is one universe, won as the deterministic game
    /// is. On a board of one space with 2^64 - 1 rolls a turn that game
    /// has no part 1 answer (its rolls pass 2^128), but part 2 does: each
    /// pawn scores 1 a turn, so player 1 wins the one universe on its turn
    /// 2^64 - 1.
    #[test]
    fn a_one_faced_game_past_2_to_the_128_rolls_is_answered() {
        let rules = ["--die", "1", "--board", "1", "--rolls", "2^64-1", "--target", "2^64-1"];
        let input = "Player 1 starting position: 1\nPlayer 2 starting position: 1\n";
        crabdice()
            .args(["dice", "-", "--part", "2"])
            .args(rules)
            .write_stdin(input)
            .assert()
            .success()
            .stdout("1\n");
        crabdice()
            .args(["dice", "-", "--part", "1"])
            .args(rules)
            .write_stdin(input)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("<stdin>: part 1"));
    }

    /// `--board` applies to part 1 too: on 20 spaces player 1 wins after
    /// 537 rolls, 1000 to 847 (847 × 537 = 454839).
    #[test]
    fn board_sets_the_board_of_the_deterministic_game_too() {
        let value = json(&["dice", "examples/dice.txt", "--part", "1", "--board", "20", "--json"]);
        let one = &value["part1"];
        assert_eq!(one["rules"]["board"], 20);
        assert_eq!(
            (one["answer"].as_str(), one["winner"].as_u64(), one["rolls"].as_str()),
            (Some("454839"), Some(1), Some("537"))
        );
        assert_eq!(one["scores"], serde_json::json!(["1000", "847"]));
    }
}
