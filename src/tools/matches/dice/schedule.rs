//! Who sits where, and which dice fall: the duplicate-play schedule of a dice match.
//!
//! **Entrants.** A match of N players has N entrants, numbered from 0: entrant `i` is engine
//! `min(i, K - 1)` of the K engines given (the last engine fills the remaining seats), and each
//! entrant is its own engine process in every game slot.
//!
//! **Streams and rotations.** Games are numbered from 0. Game `g` plays dice stream
//! `k = g / N` in rotation `r = g % N`; in rotation `r`, seat `s` (player `s + 1`) is taken by
//! entrant `(s + r) mod N`. So each stream is played N times, and over its N rotations every
//! entrant sits in every seat once.
//!
//! **Dice.** Stream `k` is a [`SplitMix64`] seeded with [`stream_seed`]`(seed, k)`, and every
//! game of the stream starts its own copy of it: the i-th roll of the game is drawn from the
//! i-th value of the stream, as `chance_step(value % chance_total())` (how
//! [`crate::game::Rules::chance_step`] says a referee draws). The rotations of a stream
//! therefore roll the same dice for as long as their games take the same course (a game whose
//! engines stop earlier or later shifts the later rolls to other turns, but never to other
//! values). Duplicate play is a variance reduction: a lucky stream of dice favours every engine
//! in turn rather than only the one that happened to sit in the lucky seat.

use crate::game::ChanceGame;
use crate::tools::rng::SplitMix64;

/// An odd multiplier with well-mixed bits (any such would do) to spread stream numbers before
/// they meet the seed: multiplying by an odd number is a bijection modulo 2^64, so distinct
/// streams always give distinct generator states.
const STREAM_MIX: u64 = 0xD1B5_4A32_D192_ED03;

/// The seed of dice stream `stream` of a match seeded with `seed`: SplitMix64's output
/// function of `seed ^ stream * STREAM_MIX`. Hashed rather than `seed + stream`, because
/// SplitMix64's states step by a fixed constant: consecutive raw seeds would give streams that
/// are the same sequence shifted by one value.
pub fn stream_seed(seed: u64, stream: u64) -> u64 {
    SplitMix64(seed ^ stream.wrapping_mul(STREAM_MIX)).next_u64()
}

/// The dice of one game: a copy of its stream, drawn from in order.
#[derive(Clone, Debug)]
pub struct DiceStream(SplitMix64);

impl DiceStream {
    /// The start of the stream whose seed is `seed` (see [`stream_seed`]).
    pub fn new(seed: u64) -> DiceStream {
        DiceStream(SplitMix64(seed))
    }

    /// The next chance event in `position` (a chance node), from the next value of the stream.
    pub fn roll<G: ChanceGame>(&mut self, position: &G) -> G::Step {
        let total = u64::from(position.chance_total().max(1));
        position.chance_step((self.0.next_u64() % total) as u32).expect("a chance node has chance steps")
    }
}

/// The dice stream of game `game` (numbered from 0) with `players` players.
pub fn stream_of(game: u64, players: usize) -> u64 {
    game / players as u64
}

/// The rotation of game `game` (numbered from 0) within its stream.
pub fn rotation_of(game: u64, players: usize) -> usize {
    (game % players as u64) as usize
}

/// The entrant in each seat in `rotation`: seat `s` is taken by entrant `(s + rotation) mod N`.
pub fn seating(players: usize, rotation: usize) -> Vec<usize> {
    (0..players).map(|seat| (seat + rotation) % players).collect()
}

/// The engine (index into the engines given, `engines` of them) of each of `players` entrants:
/// the last engine fills the seats beyond the others.
pub fn entrant_engines(players: usize, engines: usize) -> Vec<usize> {
    (0..players).map(|entrant| entrant.min(engines.saturating_sub(1))).collect()
}

/// The whole streams that hold at least `games` games of `players` players.
pub fn streams_for_games(games: u64, players: usize) -> u64 {
    games.div_ceil(players as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cantstop::Position;
    use crate::game::{Node, Rules};

    #[test]
    fn every_entrant_sits_in_every_seat_once_per_stream() {
        // Written out by hand: three players, rotations 0, 1, 2.
        assert_eq!(seating(3, 0), vec![0, 1, 2]);
        assert_eq!(seating(3, 1), vec![1, 2, 0]);
        assert_eq!(seating(3, 2), vec![2, 0, 1]);
        assert_eq!(seating(2, 1), vec![1, 0]);
        for players in 2..=4 {
            let mut seen = vec![vec![0; players]; players];
            for rotation in 0..players {
                for (seat, entrant) in seating(players, rotation).into_iter().enumerate() {
                    seen[entrant][seat] += 1;
                }
            }
            assert!(seen.iter().flatten().all(|&n| n == 1), "{players} players: {seen:?}");
        }
        // Game 7 of a 3-player match: stream 2, rotation 1.
        assert_eq!((stream_of(7, 3), rotation_of(7, 3)), (2, 1));
        assert_eq!((stream_of(3, 4), rotation_of(3, 4)), (0, 3));
    }

    #[test]
    fn the_last_engine_fills_the_seats() {
        assert_eq!(entrant_engines(4, 2), vec![0, 1, 1, 1]);
        assert_eq!(entrant_engines(3, 3), vec![0, 1, 2]);
        assert_eq!(entrant_engines(2, 2), vec![0, 1]);
        // Games round up to whole streams.
        assert_eq!(streams_for_games(10, 4), 3);
        assert_eq!(streams_for_games(12, 4), 3);
        assert_eq!(streams_for_games(2, 2), 1);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        // SplitMix64's published first output for state 0 (Vigna's reference splitmix64.c):
        // 0xE220A8397B1DCDAF. Stream 0 of seed 0 starts from that state.
        assert_eq!(stream_seed(0, 0), 0xE220_A839_7B1D_CDAF);
        let seeds: std::collections::HashSet<u64> = (0..10_000).map(|k| stream_seed(42, k)).collect();
        assert_eq!(seeds.len(), 10_000, "distinct streams have distinct seeds");
        assert_ne!(stream_seed(1, 5), stream_seed(2, 5), "the match seed matters");
        // Neighbouring streams are not the same sequence shifted by one value.
        let mut first = SplitMix64(stream_seed(7, 0));
        let mut second = SplitMix64(stream_seed(7, 1));
        let a: Vec<u64> = (0..50).map(|_| first.next_u64()).collect();
        let b: Vec<u64> = (0..50).map(|_| second.next_u64()).collect();
        assert!(a.iter().all(|x| !b.contains(x)));
    }

    #[test]
    fn rolls_come_from_the_stream_in_order() {
        // Two copies of a stream roll the same dice; the roll of value v is the
        // (v mod 1296)-th ordered outcome of four dice.
        let start = Position::start(2);
        assert_eq!(start.node(), Node::Chance);
        let (mut one, mut two) = (DiceStream::new(99), DiceStream::new(99));
        let rolls: Vec<String> = (0..20).map(|_| one.roll(&start).to_string()).collect();
        let again: Vec<String> = (0..20).map(|_| two.roll(&start).to_string()).collect();
        assert_eq!(rolls, again);
        let mut raw = SplitMix64(99);
        for roll in &rolls {
            let index = (raw.next_u64() % 1296) as u32;
            assert_eq!(roll, &start.chance_step(index).unwrap().to_string());
        }
        // Index 0 is four ones, 1295 four sixes, 7 = 1 + 1 * 6 is dice 2, 2, 1, 1 (the four
        // base-6 digits of the index, the lowest first).
        assert_eq!(start.chance_step(0).unwrap().to_string(), "r1111");
        assert_eq!(start.chance_step(1295).unwrap().to_string(), "r6666");
        assert_eq!(start.chance_step(7).unwrap().to_string(), "r1122");
        assert!(start.parse_step("r2211").is_ok());
    }
}
