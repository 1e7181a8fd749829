//! The dice of a game: its stream, from which the referee draws every chance event, and the
//! seed of each stream of a match.
//!
//! Stream `k` is a [`SplitMix64`] seeded with [`stream_seed`]`(seed, k)`, and every game of
//! the stream starts its own copy of it: the i-th roll of the game is drawn from the i-th value
//! of the stream, as `chance_step(value % chance_total())` (how
//! [`crate::game::Rules::chance_step`] says a referee draws). The seat rotations of a stream
//! (see [`crate::tools::matches::runner::schedule`]) therefore roll the same dice for as long as
//! their games take the same course (a game whose engines stop earlier or later shifts the
//! later rolls to other turns, but never to other values). A game without chance never draws.

use crate::game::Rules;
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
    pub fn roll<G: Rules>(&mut self, position: &G) -> G::Step {
        let total = u64::from(position.chance_total().max(1));
        position.chance_step((self.0.next_u64() % total) as u32).expect("a chance node has chance steps")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cantstop::Position;
    use crate::game::Node;

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
