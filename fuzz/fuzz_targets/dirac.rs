//! Dirac Dice rules and starts from the fuzzer's bytes. Small rules (board
//! up to 12, die up to 8 faces, 1 to 4 rolls, target up to 30, 2 to 4
//! players): part 1's solver must equal the roll-by-roll engine on every
//! field, and part 2's per-player engine must count the universes the memo
//! engine counts (where it takes the game). Large rules (any
//! 64-bit board, die and target): part 1 must answer or refuse without
//! panicking, and equal the roll-by-roll engine whenever that one fits
//! within its 100 million rolls. Boards of 182 to a million spaces with
//! dice of a million faces or more: part 1 played turn by turn, as the
//! roll-by-roll engine plays it.

#![no_main]

use crabdice::{
    DiceError, DiceRules, DiracEngine, Starts, play_deterministic, play_deterministic_literal,
    play_dirac,
};
use libfuzzer_sys::fuzz_target;

/// Reads the fuzzer's bytes as numbers, zeros once they run out.
struct Bytes<'a>(std::slice::Iter<'a, u8>);

impl Bytes<'_> {
    fn byte(&mut self) -> u64 {
        self.0.next().map_or(0, |&b| u64::from(b))
    }

    /// A number of any size: a 64-bit word cut to a width the input picks.
    fn number(&mut self) -> u64 {
        let width = self.byte() % 65;
        let word = (0..8).fold(0, |word, _| word << 8 | self.byte());
        word.checked_shr(64 - width as u32).unwrap_or(0)
    }
}

fn starts(positions: &[u64]) -> Starts {
    let text: String = positions
        .iter()
        .enumerate()
        .map(|(i, p)| format!("Player {} starting position: {p}\n", i + 1))
        .collect();
    Starts::parse(&text).unwrap()
}

/// Part 1 by the solver and roll by roll: equal, or the literal engine
/// refused a game too long for it.
fn part_one(starts: &Starts, rules: &DiceRules) {
    let literal = play_deterministic_literal(starts, rules);
    let solved = play_deterministic(starts, rules);
    match (&solved, &literal) {
        (Ok(solved), Ok(literal)) => assert_eq!(solved, literal, "{rules}"),
        (_, Err(DiceError::Rules(_))) => {}
        _ => panic!("{rules}: solver {solved:?}, literal {literal:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data.iter());
    let mode = bytes.byte();
    let players = 2 + (mode % 3) as usize;
    if mode & 8 != 0 {
        // Boards too large to sweep and dice too long for blocks: played
        // turn by turn, mostly in stretches, for up to a million turns.
        let board = 182 + bytes.number() % 1_000_000;
        let rules = DiceRules {
            board,
            faces: 1_000_000 + bytes.number() % (1 << 40),
            rolls: 1 + bytes.byte() % 8,
            target: 1 + bytes.number() % (board * 200_000),
        };
        let positions: Vec<u64> = (0..players).map(|_| 1 + bytes.number() % board).collect();
        part_one(&starts(&positions), &rules);
    } else if mode & 4 == 0 {
        let board = 1 + bytes.byte() % 12;
        let rules = DiceRules {
            board,
            faces: 1 + bytes.byte() % 8,
            rolls: 1 + bytes.byte() % 4,
            target: 1 + bytes.byte() % 30,
        };
        let positions: Vec<u64> = (0..players).map(|_| 1 + bytes.byte() % board).collect();
        let starts = starts(&positions);
        part_one(&starts, &rules);
        let fast = play_dirac(&starts, &rules, DiracEngine::PerPlayer).unwrap();
        // The memo engine stops after about two million joint states, at
        // most (board × target)^players: only games well within that. (The
        // universe tree, the third engine, walks every universe: too slow
        // here, the test suite checks it.)
        let states = (rules.board * rules.target).pow(players as u32);
        if states <= 300_000 {
            let memo = play_dirac(&starts, &rules, DiracEngine::Memo).unwrap();
            assert_eq!(fast, memo, "{rules}");
        }
    } else {
        let board = bytes.number().max(1);
        let rules = DiceRules {
            board,
            faces: bytes.number().max(1),
            rolls: bytes.number().max(1),
            target: bytes.number().max(1),
        };
        let positions: Vec<u64> = (0..players).map(|_| 1 + bytes.number() % board).collect();
        part_one(&starts(&positions), &rules);
    }
});
