//! # Walking the pawns turn by turn, with additions alone
//!
//! Wherever a pawn is played turn by turn (the moves that table its
//! period, learning its period and the rest of one after whole periods,
//! the first block of its turns, a short game played out before anything
//! cleverer, or a game nothing else answers when the die's stretches are
//! short), a turn's closed-form sum (the [parent module](super)) would
//! cost products and remainders: 16 to 27 ns on a large board. But that
//! sum is linear in the die's offset `o` on each side of `faces − rest`.
//! With `T(n) = n(n − 1)/2` as in the parent module, `rolls = q·faces +
//! rest`, `c = rolls + q·T(faces)` and `k = faces − rest`, since `T(o + j)
//! − T(o) = j·o + T(j)` for any integer `j`:
//!
//! ```text
//! sum(o) = c + T(rest)                 + rest·o   if o ≤ faces − rest
//! sum(o) = c + T(faces) + T(k + 1)     − k·o      otherwise
//! ```
//!
//! From one of a pawn's turns to its next the offset moves by the round's
//! step `s`, or by `s − faces` when it wraps, so `rest·o` and `k·o` modulo
//! the board each grow by one of two constants. A [`Walker`] keeps them
//! beside its space and offset, as the sums its turn would have on either
//! line: a turn is a comparison to choose the line, one to see whether
//! the offset wraps, and three modular additions (the space and both
//! lines), with no product nor division and no branch to mispredict:
//! 3 to 4 ns, against 16 to 27 ns for the closed form. (At `o = faces −
//! rest` both lines give the same sum, as the high line at `faces` and
//! the low one at 0 do.)
//!
//! ## Rounds in blocks, pawn by pawn
//!
//! Walkers and stretches (module [`stretches`](super::stretches)) are
//! played in [`block`]s of whole rounds: each pawn's turns in a loop of
//! its own ([`play_for`]), its state in registers and the points it still
//! needs counted down in 64 bits, up to the round in which it reaches the
//! target, or, once a pawn has, up to the round before (a later player
//! wins only sooner). The pawns before the winner, which played further,
//! play again from a copy. Played round by round, each pawn in turn
//! adding to a 128-bit score, a turn took 4 to 5 ns on two players and
//! large boards.

use std::hint::select_unpredictable;

use super::{Die, End, Pawn, Scores, add_mod, mul_mod, sub_mod, sum_to_mod, triangle_mod};

/// A pawn that plays one turn at a time: a [`Walker`], or a pawn within a
/// stretch of the die.
pub(super) trait Turns: Clone {
    /// Plays one turn and returns the points scored. A stretch plays
    /// within the stretch it is in: its caller keeps count of the turns
    /// the stretch has left, and plays no further ([`block`] is given
    /// only rounds within every pawn's stretch).
    fn play(&mut self) -> u64;
}

/// Plays up to `turns` of `pawn`'s turns, adding their points to `score`;
/// stops at the turn (from 1) at which `score` reaches `target`, returned.
/// The pawn is copied into registers for the loop, and `score`, below the
/// target, counted down as the points still needed in 64 bits.
#[inline]
pub(super) fn play_for<T: Turns>(
    pawn: &mut T,
    score: &mut u128,
    turns: u64,
    target: u128,
) -> Option<u64> {
    let mut local = pawn.clone();
    // The points still needed: the target is a `u64`, and the score is
    // below it, so they fit in one.
    let Ok(mut need) = u64::try_from(target - *score) else {
        unreachable!("a score below a target of 64 bits is at most 2^64 - 1 short of it")
    };
    for turn in 0..turns {
        let points = local.play();
        if points >= need {
            *pawn = local;
            *score = target - u128::from(need) + u128::from(points);
            return Some(turn + 1);
        }
        need -= points;
    }
    *pawn = local;
    *score = target - u128::from(need);
    None
}

/// Plays `rounds` rounds of `pawns`, pawn by pawn: each pawn's turns in a
/// loop of their own ([`play_for`]), up to the round in which it reaches
/// `target` or, once some pawn has, up to the round before that one's (a
/// later player wins only sooner). If someone wins, returns the winner and
/// the round it wins in (counted from the block's start), every pawn moved
/// to where the game ends: the players before the winner, which played
/// further, play again from a copy up to the winning round, the players
/// after it are there already. Otherwise every pawn is `rounds` turns on.
/// `start` keeps a copy of the pawns for that, as long as `pawns`.
///
/// Rounds are played in chunks of at most [`CHUNK`], so the pawns before
/// the winner play at most that many turns again, once a game.
pub(super) fn block<T: Turns>(
    pawns: &mut [T],
    scores: &mut [u128],
    start: &mut (Vec<T>, Vec<u128>),
    rounds: u64,
    target: u128,
) -> Option<(usize, u64)> {
    let mut done = 0;
    while done < rounds {
        let chunk = (rounds - done).min(CHUNK);
        start.0.clone_from_slice(pawns);
        start.1.copy_from_slice(scores);
        let mut best: Option<(usize, u64)> = None;
        for (i, (pawn, score)) in pawns.iter_mut().zip(scores.iter_mut()).enumerate() {
            let turns = best.map_or(chunk, |(_, round)| round - 1);
            if let Some(round) = play_for(pawn, score, turns, target) {
                best = Some((i, round));
            }
        }
        if let Some((winner, round)) = best {
            let copies = start.0.iter().zip(&start.1);
            let again = pawns.iter_mut().zip(scores.iter_mut()).zip(copies);
            for (i, ((pawn, score), (from, points))) in again.enumerate().take(winner) {
                (*pawn, *score) = (from.clone(), *points);
                let arrived = play_for(pawn, score, round, target);
                debug_assert_eq!(
                    arrived, None,
                    "pawn {i} played further without reaching the target"
                );
            }
            return Some((winner, done + round));
        }
        done += chunk;
    }
    None
}

/// The most rounds [`block`] plays pawn by pawn before it looks for a
/// winner: a pawn before the winner plays at most this many turns again.
pub(super) const CHUNK: u64 = 1 << 16;

/// Plays the turns of the round after `round` rounds (the round the
/// limit falls in), `turns` of them at most; the end if someone reaches
/// `target` in them.
pub(super) fn last_round<T>(
    pawns: &mut [T],
    mut scores: Scores,
    round: u128,
    turns: u64,
    target: u128,
    mut turn: impl FnMut(&mut T) -> u64,
) -> Option<End> {
    for (i, pawn) in pawns.iter_mut().enumerate().take(usize::try_from(turns).unwrap_or(usize::MAX))
    {
        scores[i] += u128::from(turn(pawn));
        if scores[i] >= target {
            return Some(End { winner: i, winning_turn: round + 1, scores });
        }
    }
    None
}

/// The end of the game played turn by turn by [`Walker`]s, if it comes
/// within `limit` turns.
pub(super) fn walked(pawns: &[Pawn<'_>], target: u64, limit: u64) -> Option<End> {
    if pawns.is_empty() {
        return None;
    }
    let players = pawns.len() as u64;
    let mut walkers: Vec<Walker<'_>> = pawns.iter().map(Walker::new).collect();
    let mut scores = Scores::from_elem(0, pawns.len());
    let mut start = (walkers.clone(), scores.to_vec());
    let (target, rounds) = (u128::from(target), limit / players);
    if let Some((winner, round)) = block(&mut walkers, &mut scores, &mut start, rounds, target) {
        return Some(End { winner, winning_turn: u128::from(round), scores });
    }
    last_round(&mut walkers, scores, u128::from(rounds), limit % players, target, Walker::play)
}

/// What a [`Walker`] adds, for a die and a number of players: see the
/// [module](self)'s formulas.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lines {
    /// The last offset whose turn does not wrap the die: `faces − rest`.
    side: u64,
    /// The first offset at which the next turn's offset wraps (it does at
    /// and past it): `faces − round_step` (`faces` when the step is 0: it
    /// never does).
    wrap: u64,
    /// How far the offset moves from one of a pawn's turns to its next.
    step: u64,
    /// `c + T(rest)` and `c + T(faces) + T(k + 1)`, modulo the board: the
    /// sums at offset 0 of the lines below and past `side`.
    bases: [u64; 2],
    /// How the line below `side` grows modulo the board, `rest` times
    /// the offset's move: without, and with a wrap.
    low_steps: [u64; 2],
    /// How the line past `side` grows modulo the board, `−k` times the
    /// offset's move: without, and with a wrap.
    high_steps: [u64; 2],
}

impl Lines {
    /// The lines of a die of `faces` faces rolled `q·faces + rest` times
    /// a turn on `board` spaces, whose offset moves `step` from one of a
    /// pawn's turns to its next, from the closed form's `constant` (`c`,
    /// modulo the board) and `cycle` (`T(faces)`, modulo the board).
    pub(super) fn new(
        board: u64,
        faces: u64,
        rest: u64,
        step: u64,
        constant: u64,
        cycle: u64,
    ) -> Self {
        let k = faces - rest;
        let low = add_mod(constant, triangle_mod(rest, board), board);
        let high = add_mod(add_mod(constant, cycle, board), sum_to_mod(k, board), board);
        // A move of `step`, or of `step − faces` with a wrap, times a slope.
        let moves = |slope: u64| {
            let forward = mul_mod(slope, step, board);
            [forward, sub_mod(forward, mul_mod(slope, faces, board), board)]
        };
        let negated = |[a, b]: [u64; 2]| [sub_mod(0, a, board), sub_mod(0, b, board)];
        Self {
            side: k,
            wrap: faces - step,
            step,
            bases: [low, high],
            low_steps: moves(rest),
            high_steps: negated(moves(k)),
        }
    }
}

/// `a + b mod m` for `a, b < m`, choosing without a branch: the sums of
/// a walk wrap the board at random.
#[inline]
fn add_mod_unpredictable(a: u64, b: u64, m: u64) -> u64 {
    let gap = m - b;
    select_unpredictable(a >= gap, a.wrapping_sub(gap), a.wrapping_add(b))
}

/// A pawn that plays each turn with additions alone (see the
/// [module](self)): besides its space and the die's offset at its turn,
/// it keeps the sum its turn would have on either line, below and past
/// `faces − rest`, modulo the board.
#[derive(Clone)]
pub(super) struct Walker<'a> {
    die: &'a Die,
    /// Space minus one.
    position: u64,
    offset: u64,
    /// The turn's sum if the offset is at most `faces − rest`.
    low: u64,
    /// The turn's sum if it is past.
    high: u64,
}

impl<'a> Walker<'a> {
    /// Walks `pawn`.
    pub(super) fn new(pawn: &Pawn<'a>) -> Self {
        let die = pawn.die;
        let (board, offset, [low, high]) = (die.board, pawn.offset, die.lines.bases);
        Self {
            die,
            position: pawn.position,
            offset,
            low: add_mod(low, mul_mod(die.rest, offset, board), board),
            high: sub_mod(high, mul_mod(die.faces - die.rest, offset, board), board),
        }
    }
}

impl Walker<'_> {
    /// The pawn's space minus one.
    pub(super) const fn position(&self) -> u64 {
        self.position
    }

    /// The sum of the pawn's next turn, modulo the board, moving the die's
    /// offset (and both lines) on to its turn after, but not the pawn.
    #[inline]
    pub(super) fn next_sum(&mut self) -> u64 {
        let (lines, board) = (&self.die.lines, self.die.board);
        let sum = select_unpredictable(self.offset <= lines.side, self.low, self.high);
        let wraps = self.offset >= lines.wrap;
        // Within `0..faces` either way: the other is computed and dropped.
        self.offset = select_unpredictable(
            wraps,
            self.offset.wrapping_sub(lines.wrap),
            self.offset.wrapping_add(lines.step),
        );
        let [low, high] = [lines.low_steps, lines.high_steps]
            .map(|[forward, wrapped]| select_unpredictable(wraps, wrapped, forward));
        self.low = add_mod_unpredictable(self.low, low, board);
        self.high = add_mod_unpredictable(self.high, high, board);
        sum
    }
}

impl Turns for Walker<'_> {
    #[inline]
    fn play(&mut self) -> u64 {
        let sum = self.next_sum();
        self.position = add_mod_unpredictable(self.position, sum, self.die.board);
        self.position + 1
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::generator;
    use super::super::*;
    use super::*;

    /// A walker scores as the closed-form pawn does, turn by turn.
    #[test]
    fn walkers_score_every_turn_as_the_closed_form_does() {
        // Dice of every shape: rolls below, at and past the faces, steps
        // forward and back, of 0, dividing the faces or not, one face, and
        // 64-bit boards and dice.
        let mut random = generator(0x3a1c_e5ee);
        for case in 0..3_000 {
            let board =
                [1 + random(12), 1 + random(1000), u64::MAX - random(1000), 1 + random(1 << 40)]
                    [random(4) as usize];
            let faces =
                [1 + random(40), 1 + random(5000), u64::MAX - random(1000), 1 + random(1 << 40)]
                    [random(4) as usize];
            let rolls = [
                1 + random(90),
                faces,
                faces.saturating_mul(2).saturating_add(1 + random(7)),
                faces.saturating_sub(1 + random(3)).max(1),
                1 + random(faces),
            ][random(5) as usize];
            let players = 1 + random(5) as usize;
            let rules = DiceRules { board, target: 1, faces, rolls };
            let die = Die::new(&rules, players);
            let mut pawn = die.pawn(random(players as u64) as usize, 1 + random(board));
            let mut walker = Walker::new(&pawn);
            for turn in 0..2_000 {
                assert_eq!(
                    walker.play(),
                    pawn.turn(),
                    "case {case}: {rules}, {players} players, turn {turn}"
                );
            }
        }
    }

    /// Games played by walkers end as simulated one closed-form sum a
    /// turn, within the game's own length and not one turn less: one to
    /// nine players (ties within a round on small boards), dice of every
    /// shape, 64-bit boards, and games across several chunks of rounds.
    #[test]
    fn walked_games_end_as_simulated_within_their_own_length() {
        let mut random = generator(0x9a1e_d0ff);
        let mut long = 0;
        for case in 0..300 {
            let players = 1 + random(9) as usize;
            let board =
                [1 + random(10), 1 + random(3000), u64::MAX - random(100), 1 + random(1 << 40)]
                    [random(4) as usize];
            let faces =
                [1 + random(50), 1 + random(1_000_000), u64::MAX - random(100)][random(3) as usize];
            let rolls = [
                1 + random(5),
                1 + random(faces),
                faces.saturating_mul(3).saturating_sub(random(3)),
            ][random(3) as usize];
            // A turn scores half the board on average: some 2.5 chunks of
            // rounds to the last target.
            let target = [
                1 + random(100),
                1 + random(1_500_000),
                u64::MAX - random(100),
                board.saturating_mul(5 * CHUNK / 4 + random(CHUNK / 2)),
            ][random(4) as usize];
            let rules = DiceRules { board, target, faces, rolls };
            let die = Die::new(&rules, players);
            let pawns: Vec<_> = (0..players).map(|i| die.pawn(i, 1 + random(board))).collect();
            let Some(end) = simulate(&pawns, target, 1_000_000) else { continue };
            let length = (end.winning_turn - 1) * players as u128 + end.winner as u128 + 1;
            let length = u64::try_from(length).unwrap();
            long += usize::from(end.winning_turn > 2 * u128::from(CHUNK));
            let what = format!("case {case}: {rules}, {players} players");
            assert_eq!(walked(&pawns, target, u64::MAX).as_ref(), Some(&end), "{what}");
            assert_eq!(walked(&pawns, target, length).as_ref(), Some(&end), "{what}");
            assert_eq!(walked(&pawns, target, length - 1), None, "{what}");
        }
        assert!(long > 10, "{long} games across two chunks");
    }
}
