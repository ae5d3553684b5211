//! # Playing turn by turn, in stretches, and leaping over them
//!
//! When neither tables, learned periods, blocks nor the sweep answer a
//! game (the [parent module](super), "A die too long to cycle"), it is
//! played turn by turn, up to a limit of turns ([`played`]). While a
//! pawn's die offset neither wraps nor crosses the point past which a
//! turn's rolls wrap (or, for a step of more than half the die, wraps on
//! every turn but stays on one side of that point), its turn sums grow by
//! a constant modulo the board from one of its turns to the next: a
//! [`Stretch`], played with two modular additions a turn ([`stretched`]).
//! Stretches of fewer than [`STRETCHES`] turns do not pay: unless they are
//! leapt over (below), such a game is played by
//! [`Walker`](super::Walker)s instead.
//! A pawn's period within a stretch is at most `2B` turns on a board of
//! `B` spaces (parent module, "Leaping over stretches"). On boards of up
//! to [`LEAP_BOARD`] spaces, a stretch long enough for four such periods
//! ([`worth_a_leap`]) is leapt over: one period of each pawn is played
//! into a table of running points, which says who reaches the target
//! within the stretch and every pawn's score after any number of its
//! turns ([`leap`]).

use crate::arith::gcd;

use super::super::rules::advance;
use super::walk::{Turns, block, last_round, walked};
use super::{Arrival, Die, End, Pawn, Scores, add_mod, arrival, score_after, shortest, sub_mod};

/// How many times further than learning periods the game is played turn
/// by turn when nothing else applies: learning keeps a table of every
/// turn, plain play keeps nothing, so it can afford to go further. For the
/// default budget, a billion turns: about 2 s in [`Stretch`]es of 256
/// turns or more (1.7 ns a turn), about 3 s in stretches of 64 to 255
/// turns, 3.5 to 5 s by [`Walker`](super::Walker)s (3 to 5 ns a turn; a
/// review measured their refusals at 3.4–5.0 s, another job busy on the
/// other core).
pub(super) const PLAY_FURTHER: u64 = 50;

/// The fewest turns a pawn's stretches may last, at most, for the game to
/// be played in [`Stretch`]es rather than by [`Walker`](super::Walker)s:
/// the die's offset moves by at most a 64th of the die a turn, forward or
/// back (a step of `faces − k` is `k` back). Measured on a board of
/// 2,000,000 spaces, a die of 999,999,937 faces and two players, games of
/// about 40 million turns (medians of `--time`, two runs each) took, by
/// walkers and in stretches of at most 4 turns, 157–199 ms and 1.00–1.02
/// s; 16 turns, 148–155 and 278–321 ms; 32 turns, 131–157 and 208–212 ms;
/// 48 turns, 157–163 and 163–171 ms; 64 turns, 153–156 and 122–144 ms; 128
/// turns, 136–156 and 110–114 ms; 256 turns, 149–184 and 97–100 ms.
const STRETCHES: u64 = 64;

/// Whether the game is played in [`Stretch`]es ([`STRETCHES`]).
const fn in_stretches(die: &Die) -> bool {
    stretch_turns(die) >= STRETCHES
}

/// The end of the game played turn by turn, if it comes within `limit`
/// turns; `None` at once when even the [`shortest`] game would take
/// longer. When stretches may be leapt over ([`leaps`]) and learning
/// the periods of those it begins would not pass `limit` (by a lower
/// bound), `limit` bounds the turns played one by one instead.
pub(super) fn played(pawns: &[Pawn<'_>], target: u64, limit: u64) -> Option<End> {
    let die = pawns.first()?.die;
    let shortest = shortest(pawns, target);
    if leaps(die) {
        // Each pawn learns a period in every stretch it leaps over, two
        // turns of the limit a turn, of at least `least_period` turns.
        let stretches = shortest / u128::from(stretch_turns(die)) * pawns.len() as u128;
        let work = stretches * u128::from(least_period(die)) * 2;
        if work <= u128::from(limit) {
            return stretched(pawns, target, limit, true);
        }
    }
    if shortest > u128::from(limit) {
        return None;
    }
    if in_stretches(die) {
        stretched(pawns, target, limit, false)
    } else {
        walked(pawns, target, limit)
    }
}

/// The most turns a pawn's stretch lasts: the die's offset moves by
/// `round_step` a turn (or `faces − round_step` back), and its sides are
/// at most `faces` long. `u64::MAX` when it does not move.
const fn stretch_turns(die: &Die) -> u64 {
    let step = die.round_step;
    let shortest = if step <= die.faces - step { step } else { die.faces - step };
    match die.faces.checked_div(shortest) {
        Some(turns) => turns,
        None => u64::MAX,
    }
}

/// The largest board on which stretches are leapt over: a pawn's period
/// within a stretch is at most `2 × board` turns, so its table takes up to
/// 16 MiB.
const LEAP_BOARD: u64 = 1 << 20;

/// Whether stretches are leapt over ([`leap`]): on a board of at most
/// [`LEAP_BOARD`] spaces, when a stretch can be [`worth_a_leap`].
const fn leaps(die: &Die) -> bool {
    die.board <= LEAP_BOARD && worth_a_leap(stretch_turns(die), die.board)
}

/// Whether `turns` turns of a stretch hold four periods of the longest
/// kind (`2 × board` turns), so that leaping over them pays.
const fn worth_a_leap(turns: u64, board: u64) -> bool {
    turns / 8 >= board
}

/// The fewest turns of a period [`leap`] learns: a pawn's state comes
/// back only once its sum does, which grows by the stretch's step, so
/// after `board / gcd(board, step)` turns at least. The step is the same
/// in every stretch of a side of the die (rolls that wrap or not) and a
/// direction; the least over the sides is taken.
fn least_period(die: &Die) -> u64 {
    if die.round_step == 0 {
        // One stretch, the whole game: a period of one turn at least.
        return 1;
    }
    let forward = die.round_step <= die.faces - die.round_step;
    // The start of each side's longest stretch: up from its bottom, or
    // down from its top.
    let sides =
        if forward { [0, die.faces - die.rest + 1] } else { [die.faces - die.rest, die.faces - 1] };
    sides
        .into_iter()
        .filter(|&offset| offset < die.faces)
        .filter_map(|offset| {
            let mut stretch = Stretch::new(Pawn { die, position: 0, offset });
            stretch.begin();
            (stretch.left > 1).then(|| die.board / gcd(die.board, stretch.step))
        })
        .min()
        .unwrap_or(1)
}

/// [`played`] in [`Stretch`]es: the rounds every pawn can play within its
/// stretch are played with no test but the target's, or, if `leap` and
/// they are [`worth_a_leap`], leapt over whole ([`leap`]). `limit` bounds
/// the turns played one by one, periods included, and without leaps the
/// game's turns.
fn stretched(pawns: &[Pawn<'_>], target: u64, limit: u64, leap: bool) -> Option<End> {
    if pawns.is_empty() {
        return None;
    }
    let players = pawns.len() as u64;
    let mut stretches: Vec<Stretch<'_>> = pawns.iter().cloned().map(Stretch::new).collect();
    let mut scores = Scores::from_elem(0, pawns.len());
    let mut start = (stretches.clone(), scores.to_vec());
    let (target, mut turns, mut round) = (u128::from(target), 0, 0_u128);
    loop {
        // Whole rounds within every pawn's stretch and the limit, played
        // with no other test than the target's.
        for stretch in stretches.iter_mut().filter(|s| s.left == 0) {
            stretch.begin();
        }
        let whole = stretches.iter().map(|s| s.left).min().unwrap_or(0);
        if leap && whole != u64::MAX && worth_a_leap(whole, pawns[0].die.board) {
            // A turn learning a period costs about two played (it keeps its
            // points and compares its state).
            let left = (limit - turns) / 2;
            match self::leap(&mut stretches, &mut scores, round, whole, target, left) {
                Leap::Ended(end) => return Some(end),
                Leap::Over { searched } => {
                    round += u128::from(whole);
                    for stretch in &mut stretches {
                        stretch.left -= whole;
                    }
                    turns += 2 * searched;
                    continue;
                }
                Leap::Refused => {}
            }
        }
        let whole = whole.min((limit - turns) / players);
        if whole == 0 {
            // Fewer turns than a round are left before the limit.
            break;
        }
        if let Some((winner, rounds)) =
            block(&mut stretches, &mut scores, &mut start, whole, target)
        {
            return Some(End { winner, winning_turn: round + u128::from(rounds), scores });
        }
        round += u128::from(whole);
        for stretch in &mut stretches {
            stretch.left -= whole;
        }
        turns += whole * players;
    }
    // The round the limit falls in, turn by turn.
    last_round(&mut stretches, scores, round, limit - turns, target, Stretch::turn)
}

/// What [`leap`] did.
enum Leap {
    /// The game ends within the rounds leapt over.
    Ended(End),
    /// It does not: every pawn was moved over them, at the cost of
    /// `searched` turns played to learn the periods.
    Over { searched: u64 },
    /// Learning the periods would pass the limit: nothing was moved.
    Refused,
}

/// Leaps over `rounds` rounds (after `round` rounds played) of
/// `stretches`, within each of which a pawn's sum grows by a constant step
/// modulo the board: the pawn's space and sum `(p, s)` become `(p + s, s +
/// step)`, a bijection on at most `board²` states, so they come back to
/// where they are, within `2 × board` turns (see "Leaping over stretches"
/// in the [parent module](super)): its period, over which it gains the
/// same points every time. One period of each pawn, played into a table of
/// running points, tells when it would reach the target and its score
/// after any number of turns, as [`tabled`](super::tabled) does for whole
/// games; the pawns are then moved over the rounds, unless someone wins in
/// them. The tables are kept for the
/// scores if someone wins, up to [`KEPT_PERIODS`] turns in all; past that
/// (on wide boards with many players: a table takes up to 16 MiB) the
/// others' periods are learned again. `limit` bounds the turns played to
/// learn the periods the first time.
fn leap(
    stretches: &mut [Stretch<'_>],
    scores: &mut Scores,
    round: u128,
    rounds: u64,
    target: u128,
    limit: u64,
) -> Leap {
    let mut searched = 0_u64;
    let mut learned = Vec::with_capacity(stretches.len());
    for (stretch, &score) in stretches.iter().zip(scores.iter()) {
        let Some(table) = period(stretch, limit - searched) else { return Leap::Refused };
        searched += table.len() as u64;
        // Nobody has reached the target yet, so what each still needs fits.
        let need = u64::try_from(target - score).unwrap_or(u64::MAX);
        learned.push(Learned {
            arrival: arrival(&table, need),
            gained: score_after(&table, u128::from(rounds)),
            period: table.len() as u64,
            table: (searched <= KEPT_PERIODS).then_some(table),
        });
    }
    if learned.iter().any(|pawn| pawn.arrival.turn <= u128::from(rounds)) {
        return Leap::Ended(End::first_to_arrive(
            stretches.len(),
            |i| {
                let Arrival { turn, score } = learned[i].arrival;
                Arrival { turn: round + turn, score: scores[i] + score }
            },
            |i, played| {
                let learned_again;
                let table = if let Some(table) = &learned[i].table {
                    table
                } else {
                    learned_again = period(&stretches[i], u64::MAX)
                        .unwrap_or_else(|| unreachable!("a period learned once comes back again"));
                    &learned_again
                };
                scores[i] + score_after(table, played - round)
            },
        ));
    }
    for ((stretch, score), pawn) in stretches.iter_mut().zip(scores.iter_mut()).zip(learned) {
        *score += pawn.gained;
        for _ in 0..rounds % pawn.period {
            stretch.play();
        }
    }
    Leap::Over { searched }
}

/// What [`leap`] learned of a pawn's period.
struct Learned {
    /// When it would reach the target, counted from the leap.
    arrival: Arrival,
    /// Its points over the rounds leapt.
    gained: u128,
    /// The period's length in turns.
    period: u64,
    /// Its running points over the period, unless past [`KEPT_PERIODS`].
    table: Option<Vec<u64>>,
}

/// The most turns of periods [`leap`] keeps in tables at once: 8 MiB.
const KEPT_PERIODS: u64 = 1 << 20;

/// The running points of `stretch`'s pawn over one period within its
/// stretch (see [`leap`]), or `None` if it takes more than `limit` turns.
fn period(stretch: &Stretch<'_>, limit: u64) -> Option<Vec<u64>> {
    let board = stretch.pawn.die.board;
    let (start, step) = ((stretch.pawn.position, stretch.sum), stretch.step);
    let (mut position, mut sum, mut total) = (start.0, start.1, 0);
    let mut table = Vec::new();
    for _ in 0..limit {
        (position, sum) = Stretch::next(position, sum, step, board);
        total += position + 1;
        table.push(total);
        if (position, sum) == start {
            return Some(table);
        }
    }
    None
}

/// A pawn played a stretch of turns at a time (see "Simulating in
/// stretches" in the [parent module](super)): a turn's sum is a constant plus `rest × offset` up
/// to `faces − rest`, or minus `(faces − rest) × offset` past it, modulo
/// the board, so within a stretch it grows by a constant step. A stretch
/// lasts up to `faces / round_step` turns.
#[derive(Clone)]
struct Stretch<'a> {
    pawn: Pawn<'a>,
    /// The sum of the next turn, modulo the board.
    sum: u64,
    /// How the sum grows from turn to turn in this stretch.
    step: u64,
    /// Turns left in this stretch.
    left: u64,
}

impl<'a> Stretch<'a> {
    /// `pawn`, its first stretch not yet begun.
    fn new(pawn: Pawn<'a>) -> Self {
        Self { pawn, sum: 0, step: 0, left: 0 }
    }

    /// Plays one turn, beginning the next stretch if need be, and returns
    /// the points scored.
    fn turn(&mut self) -> u64 {
        if self.left == 0 {
            self.begin();
        }
        self.left -= 1;
        self.play()
    }

    /// A turn within a stretch: the pawn moves by the sum, which grows by
    /// the step, both modulo the board.
    #[inline]
    const fn next(position: u64, sum: u64, step: u64, board: u64) -> (u64, u64) {
        (advance(position, sum, board), add_mod(sum, step, board))
    }

    /// Begins the stretch at the pawn's offset, and moves the offset to
    /// the one after it.
    fn begin(&mut self) {
        let die = self.pawn.die;
        let (offset, faces, rest, step) = (self.pawn.offset, die.faces, die.rest, die.round_step);
        self.sum = die.turn_sum(offset);
        if step == 0 {
            // Every turn starts at the same offset.
            (self.left, self.step) = (u64::MAX, 0);
            return;
        }
        // The offsets `0..=faces − rest` and `faces − rest + 1..faces`
        // (offsets are below `faces`) are the two sides.
        let (low, high) = if offset <= faces - rest {
            // `rest` is not 0 here (that makes the step 0), so `faces −
            // rest` is an offset.
            (0, faces - rest)
        } else {
            (faces - rest + 1, faces - 1)
        };
        // The stretch goes up to `high` before the die wraps, or, when a
        // step of more than half the die is a smaller step back, down to
        // `low`: wrapping every turn, the offset still moves along a line.
        let back = faces - step;
        let (left, end) = if step <= back {
            let left = (high - offset) / step + 1;
            // Below `faces`, so no overflow.
            (left, offset + (left - 1) * step)
        } else {
            let left = (offset - low) / back + 1;
            (left, offset - (left - 1) * back)
        };
        self.left = left;
        self.step = if left > 1 {
            sub_mod(die.turn_sum(advance(offset, step, faces)), self.sum, die.board)
        } else {
            0
        };
        self.pawn.offset = advance(end, step, faces);
    }
}

impl Turns for Stretch<'_> {
    /// Plays one turn of the stretch, leaving `left` to the caller.
    #[inline]
    fn play(&mut self) -> u64 {
        (self.pawn.position, self.sum) =
            Self::next(self.pawn.position, self.sum, self.step, self.pawn.die.board);
        self.pawn.position + 1
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::generator;
    use super::super::*;
    use super::*;

    /// A stretch started from `pawn` scores as the pawn does, turn by turn,
    /// for `turns` turns.
    fn stretch_follows(mut pawn: Pawn<'_>, turns: u32, what: &str) {
        let mut stretch = Stretch::new(pawn.clone());
        for turn in 0..turns {
            assert_eq!(stretch.turn(), pawn.turn(), "{what}, turn {turn}");
        }
    }

    #[test]
    fn stretches_score_every_turn_as_the_closed_form_does() {
        // Dice of every shape: rolls below, at and past the faces (the
        // stretch's two sides of `faces − rest`), steps forward and back,
        // steps that divide the faces or not, a step of 0, and 64-bit boards
        // and dice.
        let mut random = generator(0x5eed_1e55);
        let mut rules = Vec::new();
        for _ in 0..400 {
            let board =
                [1 + random(12), 1 + random(1000), u64::MAX - random(1000)][random(3) as usize];
            let faces =
                [1 + random(40), 1 + random(5000), u64::MAX - random(1000)][random(3) as usize];
            // A roll or three short of the die steps back.
            let rolls = [
                1 + random(90),
                faces,
                faces.saturating_mul(2).saturating_add(1 + random(7)),
                faces.saturating_sub(1 + random(3)).max(1),
            ][random(4) as usize];
            rules.push((1 + random(4) as usize, DiceRules { board, target: 1, faces, rolls }));
        }
        // One step of 0: two players rolling half the faces each turn.
        rules.push((2, DiceRules { board: 17, target: 1, faces: 10, rolls: 5 }));
        for (players, rules) in rules {
            let die = Die::new(&rules, players);
            let pawn = die.pawn(random(players as u64) as usize, 1 + random(rules.board));
            // Past several wraps of a small die's offsets.
            stretch_follows(pawn, 3_000, &format!("{rules}, {players} players"));
        }
    }

    #[test]
    fn stretches_cross_the_wraps_of_64_bit_dice_as_the_closed_form_does() {
        // Pawns started just before the die wraps or just before
        // `faces − rest`, on dice and boards of up to 2^64 − 1, with rolls
        // below and past the faces (2^62 faces leave room for two cycles).
        let mut random = generator(0xface_0ff5);
        for _ in 0..600 {
            let faces = [u64::MAX - random(1000), (1 << 62) + random(1000), 1 + random(1 << 40)]
                [random(3) as usize];
            let rolls =
                [1 + random(20), faces - 1 - random(3).min(faces - 1), faces + 1 + random(9)]
                    [random(3) as usize];
            let Some(rolls) = (rolls <= faces.saturating_mul(3)).then_some(rolls) else { continue };
            let board = [u64::MAX - random(1000), 1 + random(1 << 40)][random(2) as usize];
            let rules = DiceRules { board, target: 1, faces, rolls };
            let players = 1 + random(4) as usize;
            let die = Die::new(&rules, players);
            // A few steps before a wrap or `faces − rest`, forward or back.
            let (step, back) = (die.round_step, faces - die.round_step);
            let (rest, steps) = (die.rest.max(1), random(40));
            let offset = [
                (faces - 1).saturating_sub(steps.saturating_mul(step)),
                (faces - rest).saturating_sub(steps.saturating_mul(step)),
                (faces - rest + 1).saturating_add(steps.saturating_mul(back)),
                steps.saturating_mul(back),
            ][random(4) as usize]
                .min(faces - 1);
            let pawn = Pawn { die: &die, position: random(board), offset };
            stretch_follows(pawn, 200, &format!("{rules}, offset {offset}"));
        }
    }

    #[test]
    fn games_played_in_stretches_end_as_simulated_within_the_same_limit() {
        let mut random = generator(0x0dd_ba11);
        for _ in 0..300 {
            let players = 1 + random(4) as usize;
            let board =
                [1 + random(10), 1 + random(300), u64::MAX - random(100)][random(3) as usize];
            let faces = [1 + random(50), 100 + random(5000)][random(2) as usize];
            let rolls = [1 + random(4), faces, faces * 3 + 1, faces - random(3).min(faces - 1)]
                [random(4) as usize];
            let target =
                [1 + random(100), 1 + random(100_000), u64::MAX - random(100)][random(3) as usize];
            let rules = DiceRules { board, target, faces, rolls };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let Some(end) = simulate(&pawns, target, 2_000_000) else { continue };
            assert_eq!(stretched(&pawns, target, u64::MAX, false).as_ref(), Some(&end), "{rules}");
            // The same limit: the game's own length, not one turn less.
            let turns = (end.winning_turn - 1) * players as u128 + end.winner as u128 + 1;
            let turns = u64::try_from(turns).unwrap();
            assert_eq!(stretched(&pawns, target, turns, false).as_ref(), Some(&end), "{rules}");
            assert_eq!(stretched(&pawns, target, turns - 1, false), None, "{rules}");
        }
    }

    /// [`block`], pawn by pawn, ends where the rounds played in turn end
    /// (the first pawn to reach the target, the earlier player on a tie in
    /// a round), with every pawn where it stands then, or moves every pawn
    /// as far: 2 to 8 players, many of them starting on the same space
    /// (so that they reach the target in the same round), blocks across
    /// [`CHUNK`]s, on boards of up to 64 bits.
    #[test]
    fn blocks_played_pawn_by_pawn_end_as_rounds_played_in_turn_do() {
        fn state(stretches: &[Stretch<'_>]) -> Vec<(u64, u64, u64)> {
            stretches.iter().map(|s| (s.pawn.position, s.pawn.offset, s.sum)).collect()
        }
        let mut random = generator(0xb10c_ca5e);
        let (mut won, mut ties) = (0, 0);
        for _ in 0..600 {
            let players = 2 + random(7) as usize;
            let board =
                [1 + random(10), 1 + random(1_000), u64::MAX - random(100)][random(3) as usize];
            let faces = 1 << 40;
            let rules = DiceRules { board, target: u64::MAX, faces, rolls: 1 + random(3) };
            let die = Die::new(&rules, players);
            let start = 1 + random(board);
            let pawns = (0..players).map(|i| {
                let space = if random(3) == 0 { 1 + random(board) } else { start };
                die.pawn(i, space)
            });
            let mut stretches: Vec<_> = pawns.map(Stretch::new).collect();
            stretches.iter_mut().for_each(Stretch::begin);
            let rounds = [1 + random(5), walk::CHUNK - 1 + random(3), 1 + random(3 * walk::CHUNK)]
                [random(3) as usize]
                .min(stretches.iter().map(|s| s.left).min().unwrap());
            // In turn, to the end of the block, with no target: the most
            // points anyone has then, and the target somewhere up to it.
            let (mut turned, mut scores) = (stretches.clone(), vec![0_u128; players]);
            for _ in 0..rounds {
                for (stretch, score) in turned.iter_mut().zip(&mut scores) {
                    *score += u128::from(stretch.play());
                }
            }
            let most = scores.iter().max().copied().unwrap().min(u128::from(u64::MAX));
            let target = [most, most + 1, 1 + u128::from(random(u64::MAX)) % most.max(1)]
                [random(3) as usize]
                .min(u128::from(u64::MAX));
            // In turn, with the target.
            let (mut turned, mut expected) = (stretches.clone(), vec![0_u128; players]);
            let mut end = None;
            'rounds: for round in 1..=rounds {
                for (i, (stretch, score)) in turned.iter_mut().zip(&mut expected).enumerate() {
                    *score += u128::from(stretch.play());
                    if *score >= target {
                        end = Some((i, round));
                        break 'rounds;
                    }
                }
            }
            let mut scores = vec![0_u128; players];
            let mut start = (stretches.clone(), scores.clone());
            let got = block(&mut stretches, &mut scores, &mut start, rounds, target);
            let what = format!("{rules}, {players} players, {rounds} rounds, target {target}");
            assert_eq!(got, end, "{what}");
            assert_eq!((state(&stretches), &scores), (state(&turned), &expected), "{what}");
            if let Some((winner, _)) = end {
                won += 1;
                // Was any later player at the target in the same round?
                let mut after = turned.clone();
                ties += usize::from(
                    after
                        .iter_mut()
                        .zip(&expected)
                        .skip(winner + 1)
                        .any(|(stretch, &score)| score + u128::from(stretch.play()) >= target),
                );
            }
        }
        assert!(won > 300 && ties > 100, "{won} won, {ties} ties");
    }

    /// Games whose stretches are leapt over end as simulated, on small
    /// boards with dice long enough for stretches of four periods or more
    /// (steps forward and back, rolls past the die), across several
    /// stretches and the die's wraps.
    #[test]
    fn games_leapt_over_end_as_simulated() {
        let mut random = generator(0x1ea9_0e55);
        let mut leapt = 0;
        for _ in 0..400 {
            let players = 1 + random(4) as usize;
            let board = 1 + random(12);
            let faces = 20_000 + random(200_000);
            let rolls =
                [1 + random(4), faces + 1 + random(3), faces - 1 - random(2)][random(3) as usize];
            let target = [1 + random(1_000), 1 + random(2_000_000)][random(2) as usize];
            let rules = DiceRules { board, target, faces, rolls };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let Some(end) = simulate(&pawns, target, 20_000_000) else { continue };
            leapt += usize::from(leaps(&die));
            assert_eq!(stretched(&pawns, target, u64::MAX, true).as_ref(), Some(&end), "{rules}");
            assert_eq!(played(&pawns, target, 1 << 30).as_ref(), Some(&end), "{rules}");
        }
        assert!(leapt > 200, "{leapt}");
    }

    /// Games of 40 to 47 players on boards of 45,000 to 50,000 spaces that
    /// end in their first leap: their periods add up to more than
    /// [`KEPT_PERIODS`] turns, so the scores of some are learned again.
    #[test]
    fn leaps_of_many_players_learn_again_the_periods_they_do_not_keep() {
        let mut random = generator(0x0b16_ba5d);
        for _ in 0..4 {
            let players = 40 + random(8) as usize;
            let board = 45_000 + random(5_000);
            let rules = DiceRules {
                board,
                target: 2_000_000_000 + random(10_000_000),
                faces: 1 << 30,
                rolls: 1 + random(3),
            };
            let die = Die::new(&rules, players);
            assert!(leaps(&die), "{rules}");
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let mut stretches: Vec<_> = pawns.iter().cloned().map(Stretch::new).collect();
            let periods: usize = stretches
                .iter_mut()
                .map(|stretch| {
                    stretch.begin();
                    period(stretch, u64::MAX).map_or(0, |table| table.len())
                })
                .sum();
            assert!(periods as u64 > KEPT_PERIODS, "{rules}: {periods}");
            let end = simulate(&pawns, rules.target, 20_000_000).unwrap();
            assert!(end.winning_turn < u128::from(stretches[0].left), "{rules}");
            assert_eq!(stretched(&pawns, rules.target, u64::MAX, true), Some(end), "{rules}");
        }
    }

    /// The bound on periods within a stretch that decides when a leap pays
    /// ([`worth_a_leap`]): every state `(p, s)` of every step on boards of
    /// up to 48 spaces comes back within `2 × board` turns, and some take
    /// more than `board`, so the factor 2 is needed.
    #[test]
    fn periods_within_a_stretch_are_at_most_twice_the_board() {
        for board in 1..=48_u64 {
            let mut longest = 0;
            for step in 0..board {
                for (p, s) in (0..board).flat_map(|p| (0..board).map(move |s| (p, s))) {
                    let (mut q, mut t, mut period) = (p, s, 0_u64);
                    loop {
                        (q, t) = ((q + t) % board, (t + step) % board);
                        period += 1;
                        if (q, t) == (p, s) {
                            break;
                        }
                    }
                    longest = longest.max(period);
                }
            }
            assert!(longest <= 2 * board, "board {board}: a period of {longest}");
            if board % 2 == 0 {
                assert!(longest > board, "board {board}: periods up to {longest}");
            }
        }
    }

    /// Games whose pawns' stretches last at most 2 to 133 turns, played by
    /// walkers or in stretches (either side of [`STRETCHES`]), forward and
    /// back, on boards too wide to leap over, end as simulated, within the
    /// same limit and not one turn less.
    #[test]
    fn games_of_every_stretch_length_end_as_simulated() {
        let mut random = generator(0x5707_1e55);
        let faces = 1_000_003;
        let mut classes = [0; 3];
        for _ in 0..240 {
            let players = 1 + random(4);
            let turns = [2 + random(30), 32 + random(32), 64 + random(70)][random(3) as usize];
            let rolls = (faces / (players * turns) + random(3)).max(1);
            let rolls = if random(2) == 0 { rolls } else { faces - rolls };
            let board = LEAP_BOARD + 1 + random(1 << 40);
            let target = 1 + random(board) * (1 + random(2_000));
            let rules = DiceRules { board, target, faces, rolls };
            let die = Die::new(&rules, players as usize);
            let stretch = stretch_turns(&die);
            classes[usize::from(stretch >= 32) + usize::from(stretch >= STRETCHES)] += 1;
            let pawns: Vec<_> =
                (0..players).map(|i| die.pawn(i as usize, 1 + random(board))).collect();
            let end = simulate(&pawns, target, u64::MAX).unwrap();
            let length = (end.winning_turn - 1) * u128::from(players) + end.winner as u128 + 1;
            let length = u64::try_from(length).unwrap();
            assert_eq!(played(&pawns, target, u64::MAX).as_ref(), Some(&end), "{rules}");
            assert_eq!(played(&pawns, target, length).as_ref(), Some(&end), "{rules}");
            assert_eq!(played(&pawns, target, length - 1), None, "{rules}");
        }
        assert!(classes.iter().all(|&n| n > 60), "{classes:?}");
    }

    #[test]
    fn play_turn_by_turn_refuses_at_once_only_games_longer_than_its_limit() {
        // On a board of one space every turn scores 1: the game lasts
        // exactly as long as the shortest game the bound allows, so the
        // bound is tight. (Played by walkers, a die of 42 faces whose
        // offset moves 6 a turn making stretches of at most 7 turns, too
        // short to leap over; a die of one face never moves its offset, so
        // its one stretch is leapt over.)
        for (players, target, faces) in [(2, 1000, 7), (3, 12_345, 42), (5, 1, 3), (2, 2, 1)] {
            let rules = DiceRules { board: 1, target, faces, rolls: 2 };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1)).collect();
            let length = (target - 1) * players as u64 + 1;
            let end = played(&pawns, target, length).unwrap();
            assert_eq!((end.winner, end.winning_turn), (0, u128::from(target)));
            assert_eq!(Some(end), simulate(&pawns, target, u64::MAX));
            assert!(played(&pawns, target, length - 1).is_none());
        }
        // On larger boards it plays what `simulate` plays, within the limit.
        let rules = DiceRules { board: 97, target: 50_000, faces: 1009, rolls: 3 };
        let die = Die::new(&rules, 3);
        let pawns = [die.pawn(0, 5), die.pawn(1, 50), die.pawn(2, 97)];
        let end = simulate(&pawns, rules.target, u64::MAX).unwrap();
        let turns = (end.winning_turn - 1) * 3 + end.winner as u128 + 1;
        let turns = u64::try_from(turns).unwrap();
        assert_eq!(played(&pawns, rules.target, turns), Some(end));
        assert!(played(&pawns, rules.target, turns - 1).is_none());
        // A limit below the shortest game is refused without playing.
        assert!(played(&pawns, rules.target, (rules.target / 97 - 1) * 3).is_none());
    }
}
