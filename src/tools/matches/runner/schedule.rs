//! Who sits where, and what is dealt: the one schedule of every match, written for N seats
//! (a board game is the case N = 2).
//!
//! **Entrants.** A match of N players has N entrants, numbered from 0: entrant `i` is engine
//! `min(i, K - 1)` of the K engines given (the last engine fills the remaining seats), and each
//! entrant is its own engine process in every game slot. A board game has two engines, two
//! entrants.
//!
//! **Deals and rotations.** Games are numbered from 0. Game `g` plays deal `k = g / N` in
//! rotation `r = g % N`; in rotation `r`, seat `s` (player `s + 1`) is taken by entrant
//! `(s + r) mod N`. So each deal is played N times, and over its N rotations every entrant sits
//! in every seat once. A deal is a start position and a dice stream
//! ([`crate::tools::matches::referee::dice`]): for a board game, opening `k mod B` of the book
//! (the deal is an opening pair, engine 1 White in game `2k`, Black in game `2k + 1`); for a
//! dice game, the start and dice stream `k`. Duplicate play is a variance reduction: a lucky
//! opening or stream of dice favours every engine in turn rather than only the one that
//! happened to sit in the lucky seat. The deal is the unit that `--shard` deals out and the SPRT
//! counts ([`super::slice`]).

/// The deal (opening pair, dice stream) of game `game` (numbered from 0) with `players` players.
pub fn stream_of(game: u64, players: usize) -> u64 {
    game / players as u64
}

/// The rotation of game `game` (numbered from 0) within its deal.
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

/// The whole deals that hold at least `games` games of `players` players.
pub fn streams_for_games(games: u64, players: usize) -> u64 {
    games.div_ceil(players as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
