//! # Counting every game in constant memory
//!
//! `--json` reports how many games a Recursive Combat deal plays and how
//! deeply they nest. Those counts include the sub-games the fast engine
//! skips (player 1 holding the highest card) and every sub-game started
//! before a game repeats, so they need a literal walk through the games.
//! The literal engine ([`play_observed`](super::play_observed)) stores
//! every state of every game in progress to see a repeat; a game that goes
//! round a see-saw of millions of rounds then holds millions of states.
//! [`count_games`] walks the same games with the fast engine's constant-memory
//! tools instead, and stops each game as soon as no later round of it can
//! start a sub-game. Its memory is the decks of the games in progress.
//!
//! ## When a game may stop early
//!
//! Say a game's states first repeat when the state after `μ + λ` rounds
//! equals the one after `μ`: the rules play exactly rounds `1..=μ + λ`, and
//! the sub-games those rounds start are the ones to count. A walk that has
//! played `r ≥ μ + λ` rounds has counted exactly those, *if no round of the
//! cycle starts a sub-game*: its extra rounds `μ + λ + 1..=r` are all rounds
//! of the cycle. Two facts give that guarantee without knowing `μ`:
//!
//! * **A see-saw** ([`seesaw`]), or in the top game (and in a sub-game that
//!   has played [`RHYTHMS_IN_SUB_GAMES`] rounds) any rhythm of winners
//!   ([`periodic`]): the state is proved to repeat forever with no sub-game
//!   in any later round. It lies on its own cycle, so every round of the
//!   cycle is such a round.
//! * **A repeat seen by Nivasch's stacks** ([`stacks`](super::stacks)): the
//!   state after `r` rounds equals the one after `e < r`, so the rounds
//!   `e + 1..=r` go round the cycle a whole number of times. If none of them
//!   started a sub-game, no round of the cycle does.
//!
//! Both are checked only at *anchors*, before a round that draws the game's
//! highest card, as in the fast engine (every cycle holds one). When a
//! repeat is seen and a sub-game was started since `e`, the cycle itself
//! starts sub-games: the fast engine, playing the game as a top game, gives
//! its exact length `μ + λ`, and the walk plays the game again from its deal,
//! counting afresh, for exactly that many rounds. On the benchmark corpus
//! that happens to fewer than one game in 150.
//!
//! ## Remembering long games
//!
//! A game's winner and counts depend on its deal alone, and the sub-games
//! the fast engine skips can be long: on some 50 + 50 card deals the same
//! sub-game of 70 cards, with tens of thousands of games below it, comes up
//! again and again. Games that took at least 2^15 rounds, their sub-games'
//! included, are remembered by deal, and a sub-game dealt the same cards
//! again takes its counts from there. The keys hold at most as many cards
//! as the fast engine's table of long sub-games does
//! ([`recall::most_cards`]: 2^18, 1 MiB of `u32`, on a deal of up to 1,024
//! cards, and room for one deal at every level of the deepest nesting on a
//! larger one).
//!
//! Sub-games are frames on an explicit stack, so deep nesting cannot
//! overflow the thread's stack; frames and their buffers are reused.

use rustc_hash::FxHashMap;

use super::deal::Labelled;
use super::periodic::{self, RHYTHMS_IN_SUB_GAMES};
use super::recall::{self, REMEMBER_AFTER};
use super::seesaw;
use super::stacks::Stacks;
use super::{Budget, Deal, Exhausted, Held, Limits, Player, Variant};
use crate::Natural;

/// How many games a deal of Recursive Combat plays, and how deeply they nest.
///
/// The same figures as [`Report::games`](super::Report::games) and
/// [`Report::max_depth`](super::Report::max_depth) from the literal engine,
/// but the games are counted exactly at any size: the walk counts a game it
/// remembers in one step each time it comes back, so a deal built to nest
/// reaches 2⁶⁴ games in moments, where the literal engine would play them
/// one by one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameCount {
    /// Games played, the top game included.
    pub games: Natural,
    /// How deeply sub-games nested: 0 when no sub-game was played, 1 when
    /// sub-games were played but none of them started another, and so on.
    pub max_depth: u32,
}

/// Counts the games a deal of Recursive Combat plays under the rules, and
/// how deeply they nest, in memory that does not grow with the length of the
/// games; within `limits` on rounds, time and memory (the decks of the
/// games in progress: [`Exhausted::Nesting`]), calling
/// `progress` like [`play_with`](super::play_with). The rounds counted are
/// the rounds this walk plays, the fast engine's included when it must learn
/// where a game repeats.
///
/// The figures are those of the literal engine's [`Report`](super::Report),
/// which stores every state of every game in progress; this walks the same
/// games with the fast engine's constant-memory tools instead. It stops a
/// game as soon as no later round of it can start a sub-game: at a see-saw,
/// or at a repeat found by Nivasch's stacks when no round since the earlier
/// occurrence started one (those rounds go round the cycle, so no round of
/// the cycle does). Otherwise the fast engine gives the game's exact length
/// and the walk plays it again for exactly that many rounds. Games that
/// took long are remembered by deal, as their counts depend on the deal
/// alone. The proof is in the `census` module (`crabdice/src/combat/census.rs`).
///
/// ```
/// use crabdice::{Deal, GameCount, Limits, count_games};
///
/// let deal = Deal::parse("Player 1:\n9\n2\n6\n3\n1\n\nPlayer 2:\n5\n8\n4\n7\n10\n")?;
/// let count = count_games(&deal, Limits::default(), &mut |_| {})?;
/// assert_eq!(count, GameCount { games: 5_u8.into(), max_depth: 2 });
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn count_games(
    deal: &Deal,
    limits: Limits,
    progress: &mut (dyn FnMut(u64) + Send),
) -> Result<GameCount, Exhausted> {
    let labelled = deal.labelled();
    let mut budget = Budget::new(limits, progress);
    let count = Walk::new(&labelled, Tuning::DEFAULT).run(&mut budget)?;
    let played = budget.played();
    (budget.progress)(played);
    Ok(count)
}

/// A deck as the cards `cards[head..]`, top first: a draw moves `head`, and
/// the cards drawn are dropped once they take more room than the deck.
#[derive(Debug, Default)]
struct Deck {
    cards: Vec<u32>,
    head: usize,
}

impl Deck {
    fn cards(&self) -> &[u32] {
        &self.cards[self.head..]
    }

    fn len(&self) -> usize {
        self.cards.len() - self.head
    }

    fn top(&self) -> Option<u32> {
        self.cards.get(self.head).copied()
    }

    fn deal(&mut self, cards: &[u32]) {
        self.cards.clear();
        self.cards.extend_from_slice(cards);
        self.head = 0;
    }

    /// Draws the top card of a deck known not to be empty.
    fn draw(&mut self) -> u32 {
        let card = self.cards[self.head];
        self.head += 1;
        card
    }

    fn put_under(&mut self, won: u32, lost: u32) {
        if self.head > 2 * self.len() + 256 {
            self.cards.drain(..self.head);
            self.head = 0;
        }
        self.cards.extend([won, lost]);
    }
}

/// One game in progress.
#[derive(Debug, Default)]
struct Frame {
    decks: [Deck; 2],
    /// The game's deal, to play it again when its cycle starts sub-games.
    dealt: [Vec<u32>; 2],
    /// The game's highest card.
    highest: u32,
    /// Rounds played.
    round: u64,
    /// The round that started the latest sub-game.
    last_sub_game: u64,
    /// The round from which the next look for a see-saw may come.
    next_look: u64,
    /// Rounds the game plays, once they had to be learned.
    length: Option<u64>,
    /// The cards drawn in the current round, while a sub-game decides it.
    drawn: [u32; 2],
    /// Games played so far in this game and below it, itself included.
    games: Natural,
    /// The deepest game so far in this game and below it.
    deepest: u32,
    /// Rounds played so far in this game and below it.
    work: u64,
    /// Repeats, watched once the game has gone on for a while.
    stacks: Stacks<u32>,
    /// The bytes [`Walk::held`] last counted for this frame.
    counted: usize,
}

impl Frame {
    /// Sets the frame up for a new game with these decks, at `depth`.
    fn start(&mut self, one: &[u32], two: &[u32], depth: u32) {
        for (deal, cards) in self.dealt.iter_mut().zip([one, two]) {
            deal.clear();
            deal.extend_from_slice(cards);
        }
        self.length = None;
        self.work = 0;
        self.replay(depth);
    }

    /// Deals the frame's game again, with nothing counted.
    fn replay(&mut self, depth: u32) {
        let [one, two] = &self.dealt;
        self.decks[0].deal(one);
        self.decks[1].deal(two);
        self.highest = one.iter().chain(two).copied().max().unwrap_or(0);
        self.round = 0;
        self.last_sub_game = 0;
        self.next_look = 0;
        self.games = 1_u8.into();
        self.deepest = depth;
        self.stacks.reset(one.len() + two.len());
    }

    fn cards(&self) -> usize {
        self.dealt[0].len() + self.dealt[1].len()
    }

    /// Bytes the frame holds: itself, its decks, its deal and its stored
    /// states.
    fn bytes(&self) -> usize {
        let vectors = self.decks.iter().map(|deck| &deck.cards).chain(&self.dealt);
        size_of::<Self>()
            + vectors.map(|cards| cards.capacity() * size_of::<u32>()).sum::<usize>()
            + self.stacks.bytes()
    }

    fn slices(&self) -> [&[u32]; 2] {
        [self.decks[0].cards(), self.decks[1].cards()]
    }
}

/// What a check at an anchor found.
enum Repeat {
    /// Nothing yet.
    Unknown,
    /// No later round can start a sub-game: the game is over for counting,
    /// won by player 1.
    Done,
    /// The game's cycle starts sub-games: it must be played again for its
    /// exact length.
    Replay,
}

/// When the walk looks for an early end, and which games it remembers.
#[derive(Debug, Clone, Copy)]
struct Tuning {
    /// Rounds per card of a game before a see-saw is looked for.
    look: u64,
    /// Rounds per two cards of a game from one look to the next.
    space: u64,
    /// Rounds per card of a game before the stacks watch for a repeat. As
    /// in the fast engine, 16: most games end or reach their cycle later.
    watch: u64,
    /// Rounds a game must take, its sub-games' included, to be remembered.
    remember: u64,
}

impl Tuning {
    /// Games are remembered past as many rounds as the fast engine's
    /// sub-games are ([`REMEMBER_AFTER`]), and within as many cards of keys
    /// ([`recall::most_cards`]: 1 MiB of `u32` on a puzzle-sized deal).
    const DEFAULT: Self = Self { look: 1, space: 1, watch: 16, remember: REMEMBER_AFTER };
}

/// A game's deal as one key, in `buffer`: player 1's cards, a separator no
/// label reaches, player 2's cards.
fn key<'k>(buffer: &'k mut Vec<u32>, one: &[u32], two: &[u32]) -> &'k [u32] {
    buffer.clear();
    buffer.extend_from_slice(one);
    buffer.push(u32::MAX);
    buffer.extend_from_slice(two);
    buffer
}

/// Whether a round in which these cards are drawn, leaving the players
/// `left` cards, is decided by a sub-game: each must hold at least as many
/// cards as the value it drew (`need`, see `Labelled::need`).
fn starts_sub_game(need: &[u32], drawn: [u32; 2], left: [usize; 2]) -> bool {
    drawn.iter().zip(left).all(|(&card, left)| need[card as usize] as usize <= left)
}

/// The walk through every game of one deal.
struct Walk<'a, 'b> {
    labelled: &'a Labelled<'b>,
    tuning: Tuning,
    need: Vec<u32>,
    /// Games in progress, the top game first.
    stack: Vec<Frame>,
    /// Frames of games that ended, for the next ones.
    spare: Vec<Frame>,
    /// Games that took long, by deal: who won, the games they played and
    /// how deeply those nested below them.
    remembered: FxHashMap<Box<[u32]>, (Player, Natural, u32)>,
    /// Cards held by the keys of `remembered` (at most
    /// [`recall::most_cards`]).
    remembered_cards: usize,
    /// Room to build a key.
    key: Vec<u32>,
    /// Games played again for their exact length, and games recalled.
    replayed: u64,
    recalled: u64,
    /// Bytes the frames hold, in progress and spare.
    held: Held,
}

impl<'a, 'b> Walk<'a, 'b> {
    fn new(labelled: &'a Labelled<'b>, tuning: Tuning) -> Self {
        Self {
            labelled,
            tuning,
            need: labelled.need(),
            stack: Vec::new(),
            spare: Vec::new(),
            remembered: FxHashMap::default(),
            remembered_cards: 0,
            key: Vec::new(),
            replayed: 0,
            recalled: 0,
            held: Held::default(),
        }
    }

    /// Starts a game on these decks, below the games in progress.
    fn push(&mut self, one: &[u32], two: &[u32], budget: &Budget<'_>) -> Result<(), Exhausted> {
        let depth = self.stack.len() as u32;
        let mut frame = self.spare.pop().unwrap_or_default();
        frame.start(one, two, depth);
        self.stack.push(frame);
        // The game that started this one may have grown since it was
        // counted; frames only grow.
        for frame in self.stack.iter_mut().rev().take(2) {
            let now = frame.bytes();
            self.held.recount(&mut frame.counted, now);
        }
        self.held.check(budget)
    }

    fn run(&mut self, budget: &mut Budget<'_>) -> Result<GameCount, Exhausted> {
        let decks = [Player::One, Player::Two].map(|p| self.labelled.deck(p).collect::<Vec<_>>());
        self.push(&decks[0], &decks[1], budget)?;
        let mut scratch: [Vec<u32>; 2] = Default::default();
        loop {
            self.ordinary_rounds(budget)?;
            // Each state is checked once, before the round played from it.
            if let Some(winner) = self.ended(budget)? {
                // The game's counts go to the game that started it, whose
                // round it settles.
                let mut frame = self.stack.pop().unwrap_or_default();
                let games = std::mem::take(&mut frame.games);
                let depth = self.stack.len() as u32;
                let most = || recall::most_cards(self.labelled.cards_in_deal(), budget.max_memory);
                if frame.work >= self.tuning.remember && self.remembered_cards < most() {
                    let [one, two] = &frame.dealt;
                    self.remembered_cards += frame.cards() + 1;
                    let below = frame.deepest - depth;
                    let key = key(&mut self.key, one, two).into();
                    self.remembered.insert(key, (winner, games.clone(), below));
                }
                let (work, deepest) = (frame.work, frame.deepest);
                self.spare.push(frame);
                let Some(parent) = self.stack.last_mut() else {
                    return Ok(GameCount { games, max_depth: deepest });
                };
                // Exact at any size: a remembered game counted again in one
                // step doubles the count at every level of a nested deal.
                parent.games += &games;
                parent.deepest = parent.deepest.max(deepest);
                parent.work += work;
                self.settle(winner);
            } else if let Some(winner) = self.round(budget, &mut scratch)? {
                self.settle(winner);
            }
        }
    }

    /// Plays the current game's rounds up to the next state that needs a
    /// look: an empty deck, the game's known end, an anchor, or a round that
    /// starts a sub-game. The rounds in between only compare cards.
    fn ordinary_rounds(&mut self, budget: &mut Budget<'_>) -> Result<(), Exhausted> {
        let Some(frame) = self.stack.last_mut() else { return Ok(()) };
        let most = frame.length.map_or(u64::MAX, |length| length - frame.round).min(budget.room());
        let (highest, need) = (frame.highest, &self.need);
        let [one, two] = &mut frame.decks;
        let mut played = 0;
        while played < most {
            let (Some(a), Some(b)) = (one.top(), two.top()) else { break };
            // After the draw each deck holds one card fewer.
            let left = [one.len() - 1, two.len() - 1];
            if a == highest || b == highest || starts_sub_game(need, [a, b], left) {
                break;
            }
            one.head += 1;
            two.head += 1;
            if a > b {
                one.put_under(a, b);
            } else {
                two.put_under(b, a);
            }
            played += 1;
        }
        frame.round += played;
        frame.work += played;
        budget.spend(played)
    }

    /// Whether the current game is over (for counting), and its winner.
    fn ended(&mut self, budget: &mut Budget<'_>) -> Result<Option<Player>, Exhausted> {
        let Some(frame) = self.stack.last() else { return Ok(None) };
        Ok(match (frame.decks[0].len(), frame.decks[1].len()) {
            (0, _) => Some(Player::Two),
            (_, 0) => Some(Player::One),
            _ if frame.length == Some(frame.round) => Some(Player::One),
            _ => match self.check(budget)? {
                Repeat::Done => Some(Player::One),
                Repeat::Unknown => None,
                // Dealt again: its first state is checked as any other.
                Repeat::Replay => return self.ended(budget),
            },
        })
    }

    /// Plays a round of the current game: its winner, or `None` when a
    /// sub-game must decide it (the sub-game is then the current game).
    fn round(
        &mut self,
        budget: &mut Budget<'_>,
        scratch: &mut [Vec<u32>; 2],
    ) -> Result<Option<Player>, Exhausted> {
        let Some(frame) = self.stack.last_mut() else { return Ok(None) };
        let drawn = [frame.decks[0].draw(), frame.decks[1].draw()];
        frame.drawn = drawn;
        frame.round += 1;
        frame.work += 1;
        budget.spend(1)?;
        let left = [frame.decks[0].len(), frame.decks[1].len()];
        if !starts_sub_game(&self.need, drawn, left) {
            return Ok(Some(Player::higher(drawn[0], drawn[1])));
        }
        let sizes = drawn.map(|card| self.need[card as usize] as usize);
        frame.last_sub_game = frame.round;
        for ((copy, deck), size) in scratch.iter_mut().zip(&frame.decks).zip(sizes) {
            copy.clear();
            copy.extend_from_slice(&deck.cards()[..size]);
        }
        budget.charge((sizes[0] + sizes[1]) as u64)?;
        if !self.remembered.is_empty()
            && let Some((winner, games, below)) =
                self.remembered.get(key(&mut self.key, &scratch[0], &scratch[1]))
        {
            self.recalled += 1;
            let depth = self.stack.len() as u32;
            let Some(frame) = self.stack.last_mut() else { return Ok(None) };
            frame.games += games;
            frame.deepest = frame.deepest.max(depth + below);
            return Ok(Some(*winner));
        }
        self.push(&scratch[0], &scratch[1], budget)?;
        Ok(None)
    }

    /// The current game's round goes to `winner`.
    fn settle(&mut self, winner: Player) {
        let Some(frame) = self.stack.last_mut() else { return };
        let [one, two] = frame.drawn;
        match winner {
            Player::One => frame.decks[0].put_under(one, two),
            Player::Two => frame.decks[1].put_under(two, one),
        }
    }

    /// Checks the state of the current game, both decks holding cards, for
    /// an early end; plays a game whose cycle starts sub-games again.
    fn check(&mut self, budget: &mut Budget<'_>) -> Result<Repeat, Exhausted> {
        let depth = self.stack.len() as u32 - 1;
        let Some(frame) = self.stack.last_mut() else { return Ok(Repeat::Unknown) };
        let anchor = frame.decks.iter().any(|deck| deck.top() == Some(frame.highest));
        if !anchor || frame.length.is_some() {
            return Ok(Repeat::Unknown);
        }
        let cards = frame.cards() as u64;
        if frame.round >= (self.tuning.look * cards).max(frame.next_look) {
            let need = |card: u32| self.need[card as usize] as usize;
            // The top game looks for any rhythm (module `periodic`), as the
            // fast engine's does; sub-games for see-saws, nearly all theirs,
            // until they have run long.
            let endless = if depth == 0 || frame.round >= RHYTHMS_IN_SUB_GAMES {
                periodic::cycle(frame.slices(), need, frame.round).is_some()
            } else {
                seesaw::cycle_length(frame.slices(), need).is_some()
            };
            if endless {
                return Ok(Repeat::Done);
            }
            frame.next_look = frame.round + self.tuning.space * cards / 2;
        }
        if frame.round < self.tuning.watch * cards {
            return Ok(Repeat::Unknown);
        }
        // Both decks borrowed field by field, apart from the stacks.
        let [one, two] = [frame.decks[0].cards(), frame.decks[1].cards()];
        let Some(earlier) = frame.stacks.observe([one, two], frame.round) else {
            return Ok(Repeat::Unknown);
        };
        if frame.last_sub_game <= earlier {
            return Ok(Repeat::Done);
        }
        // The cycle starts sub-games: learn the game's exact length from the
        // fast engine, and play it again from its deal.
        let values = frame.dealt.each_ref().map(|deck| self.labelled.cards(deck.iter().copied()));
        let [one, two] = values;
        let game = Deal::new(one, two).expect("a sub-game deals some of a valid deal's cards");
        let length = super::bulk::solve(&game.labelled(), Variant::Recursive, budget)?.rounds;
        frame.replay(depth);
        frame.length = Some(length);
        self.replayed += 1;
        Ok(Repeat::Replay)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::trace::NoTrace;

    /// Looks for early ends from the first round and remembers every game:
    /// every path of the walk, as often as possible.
    const EAGER: Tuning = Tuning { look: 0, space: 0, watch: 0, remember: 0 };

    /// The walk's count with `tuning`, and how many games it played again
    /// and recalled.
    fn walk(deal: &Deal, tuning: Tuning) -> (GameCount, u64, u64) {
        let _deadline = crate::deadline::Deadline::new(&format!("{deal:?}"));
        let mut quiet = |_| {};
        let mut budget = Budget::new(Limits::default(), &mut quiet);
        let labelled = deal.labelled();
        let mut walk = Walk::new(&labelled, tuning);
        let count = walk.run(&mut budget).unwrap();
        (count, walk.replayed, walk.recalled)
    }

    /// The literal engine's count, which stores every state.
    fn literal(deal: &Deal) -> GameCount {
        let _deadline = crate::deadline::Deadline::new(&format!("{deal:?}"));
        let report = super::super::play_observed(deal, Variant::Recursive, &mut NoTrace).unwrap();
        GameCount { games: report.games.into(), max_depth: report.max_depth }
    }

    /// The cards `1..=2n` shuffled by a seeded xorshift and split `n + n`.
    pub(in crate::combat) fn shuffled(n: u64, seed: u64) -> Deal {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut cards: Vec<u64> = (1..=2 * n).collect();
        for i in (1..cards.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            cards.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let two = cards.split_off(n as usize);
        Deal::new(cards, two).unwrap()
    }

    #[test]
    fn eager_and_default_walks_count_what_the_literal_engine_counts() {
        let (mut replayed, mut recalled) = (0, 0);
        for n in 2..=13 {
            for seed in 0..150 {
                let deal = shuffled(n, seed);
                let expected = literal(&deal);
                let (count, again, recall) = walk(&deal, EAGER);
                assert_eq!(count, expected, "eager walk of {:?}", deal.decks());
                assert_eq!(walk(&deal, Tuning::DEFAULT).0, expected, "{:?}", deal.decks());
                replayed += again;
                recalled += recall;
            }
        }
        // The sweep must take the rarer paths: games whose cycle starts
        // sub-games, played again, and games recalled.
        assert!(replayed > 0 && recalled > 0, "replayed {replayed}, recalled {recalled}");
    }

    #[test]
    fn heavy_corpus_deals_are_counted_as_the_literal_engine_counts_them() {
        for text in [
            include_str!("../../benches/corpus/deal-2774.txt"),
            include_str!("../../benches/corpus/deal-1762.txt"),
        ] {
            let deal = Deal::parse(text).unwrap();
            let expected = literal(&deal);
            let (count, replayed, _) = walk(&deal, Tuning::DEFAULT);
            assert_eq!(count, expected);
            assert!(replayed > 0);
        }
    }

    /// A game that grew while it was played is counted again, as it is
    /// now, when it starts a sub-game: its decks stay held below it.
    #[test]
    fn a_game_that_grew_is_counted_again_when_it_starts_a_sub_game() {
        let deal = shuffled(3, 1);
        let labelled = deal.labelled();
        let mut quiet = |_| {};
        let budget = Budget::new(Limits::default(), &mut quiet);
        let mut walk = Walk::new(&labelled, Tuning::DEFAULT);
        walk.push(&[1, 2, 3], &[4, 5, 6], &budget).unwrap();
        walk.stack[0].decks[0].cards.reserve(4096);
        walk.push(&[1], &[4], &budget).unwrap();
        let frames: usize = walk.stack.iter().map(Frame::bytes).sum();
        assert_eq!(walk.held.bytes, frames);
    }
}
