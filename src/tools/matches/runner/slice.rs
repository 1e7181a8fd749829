//! Which games a run of `steere match` plays: the whole schedule, one shard of it
//! (`--shard K/N`), less the games already in the record file of a resumed match (`--resume`).
//!
//! The schedule is cut into **units** that must stay together: an opening pair (2 games) for
//! board games, a dice stream with all its seat rotations (N games) for dice games, because the
//! statistics treat a unit as one observation. Shard `K` of `N` takes the units `u` with
//! `u mod N = K - 1`: dealt round-robin rather than in blocks, so that every shard samples the
//! whole book (a block of openings could be unbalanced), and so that the slices are disjoint and
//! cover the schedule whatever its length.

use rustc_hash::FxHashSet;

/// `--shard K/N`: the K-th (from 1) of N slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole match: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with 1 <= K <= N (clap's value parser for `--shard`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text.split_once('/').ok_or_else(|| format!("'{text}' is not K/N (e.g. 2/8)"))?;
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| format!("'{text}' is not K/N (e.g. 2/8)"));
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("'{text}': K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }

    /// True for the unit `unit` (from 0) of the schedule.
    pub fn holds(self, unit: u64) -> bool {
        unit % self.count == self.index - 1
    }

    /// How many of `units` units fall in this shard.
    pub fn units_of(self, units: u64) -> u64 {
        let first = self.index - 1;
        if units <= first { 0 } else { (units - first).div_ceil(self.count) }
    }
}

/// The games of this run, by game number (from 0) of the whole schedule.
#[derive(Clone, Debug)]
pub struct Slice {
    /// Games per unit (2 for a pair, N for a dice stream of N players).
    pub unit_games: u64,
    /// Units of the whole schedule.
    pub units: u64,
    /// The shard played.
    pub shard: Shard,
    /// Games already played (resumed from the record file): skipped.
    pub done: FxHashSet<u64>,
}

impl Slice {
    /// The games of `shard` of a schedule of `units` units of `unit_games` games.
    pub fn new(units: u64, unit_games: u64, shard: Shard) -> Slice {
        Slice { unit_games, units, shard, done: FxHashSet::default() }
    }

    /// The `position`-th game of the shard (from 0), as a game number of the whole schedule,
    /// whether already played or not; `None` past the shard's end.
    pub fn game_at(&self, position: u64) -> Option<u64> {
        let (unit_in_shard, offset) = (position / self.unit_games, position % self.unit_games);
        let unit = unit_in_shard.checked_mul(self.shard.count)?.checked_add(self.shard.index - 1)?;
        (unit < self.units).then(|| unit * self.unit_games + offset)
    }

    /// True when game `number` of the whole schedule belongs to this shard.
    pub fn holds(&self, number: u64) -> bool {
        let unit = number / self.unit_games;
        unit < self.units && self.shard.holds(unit)
    }

    /// The games of the shard, played or not.
    pub fn planned_games(&self) -> u64 {
        self.shard.units_of(self.units).saturating_mul(self.unit_games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert!(Shard::parse("0/8").is_err());
        assert!(Shard::parse("9/8").is_err());
        assert!(Shard::parse("1/0").is_err());
        assert!(Shard::parse("3").is_err());
        assert!(Shard::parse("a/b").is_err());
    }

    #[test]
    fn shards_deal_whole_units_round_robin() {
        // 5 pairs in 2 shards: pairs 0, 2, 4 (games 0 1 4 5 8 9) and pairs 1, 3 (2 3 6 7).
        let first = Slice::new(5, 2, Shard { index: 1, count: 2 });
        let second = Slice::new(5, 2, Shard { index: 2, count: 2 });
        let games = |s: &Slice| (0..).map_while(|p| s.game_at(p)).collect::<Vec<_>>();
        assert_eq!(games(&first), vec![0, 1, 4, 5, 8, 9]);
        assert_eq!(games(&second), vec![2, 3, 6, 7]);
        assert_eq!((first.planned_games(), second.planned_games()), (6, 4));
        assert!(first.holds(9) && !first.holds(7) && second.holds(7) && !second.holds(10));
        // Three-game units (dice streams of 3 players), shard 3 of 3 of 2 units: nothing.
        let empty = Slice::new(2, 3, Shard { index: 3, count: 3 });
        assert_eq!((empty.game_at(0), empty.planned_games()), (None, 0));
    }
}
