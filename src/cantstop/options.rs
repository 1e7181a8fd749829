//! The rulebook's optional rules (docs/rules/cantstop.md, "Optional variants"): more columns
//! to win, and one of two variants for a marker meeting another player's. The FEN does not
//! record them: a position carries the options it is played under, and is checked under them.

use std::fmt;

/// The columns a player must win in the base game.
pub const BASE_COLUMNS_TO_WIN: u8 = super::board::COLUMNS_TO_WIN as u8;

/// The rulebook's variant in force (A and B are never combined).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The base game: neutral markers may stand on other players' markers, and `stop` is
    /// always allowed.
    #[default]
    None,
    /// Variant A: a neutral marker that would land on another player's coloured marker goes on
    /// to the next space up that holds none.
    Skip,
    /// Variant B: while a neutral marker stands on another player's coloured marker, the
    /// player may not stop.
    MustRoll,
}

impl Variant {
    /// Every variant, by its option value.
    pub const ALL: [Variant; 3] = [Variant::None, Variant::Skip, Variant::MustRoll];

    /// The option value: `none`, `skip` or `mustroll`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::None => "none",
            Variant::Skip => "skip",
            Variant::MustRoll => "mustroll",
        }
    }

    /// The variant of option value `text` (ignoring case), or an error listing the values.
    pub fn parse(text: &str) -> Result<Variant, String> {
        Variant::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(text.trim())).ok_or_else(|| {
            format!("the variant is none, skip or mustroll, not {}", crate::quote::quote(text))
        })
    }
}

/// The options a game is played under: the columns to win and the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    columns_to_win: u8,
    variant: Variant,
}

impl Default for Options {
    fn default() -> Options {
        Options::BASE
    }
}

impl Options {
    /// The base game: 3 columns to win, no variant.
    pub const BASE: Options = Options { columns_to_win: BASE_COLUMNS_TO_WIN, variant: Variant::None };

    /// The options for a game of `players` players, or why they are not offered: 4 or 5 columns
    /// to win only for two players, 4 for three (the other combinations can deadlock: every
    /// column won while nobody has enough). One player (solitaire) may play to 3, 4 or 5: alone,
    /// every column is his and no game deadlocks.
    pub fn new(players: usize, columns_to_win: u8, variant: Variant) -> Result<Options, String> {
        let most = match players {
            1 | 2 => 5,
            3 => 4,
            _ => BASE_COLUMNS_TO_WIN,
        };
        if !(BASE_COLUMNS_TO_WIN..=most).contains(&columns_to_win) {
            return Err(format!(
                "{columns_to_win} columns to win is not offered for {players} players (3{})",
                match most {
                    5 => " to 5",
                    4 => " or 4",
                    _ => " only",
                }
            ));
        }
        Ok(Options { columns_to_win, variant })
    }

    /// The same options for `players` players, or why they are not offered for that many.
    pub fn for_players(self, players: usize) -> Result<Options, String> {
        Options::new(players, self.columns_to_win, self.variant)
    }

    /// The columns a player must win.
    pub fn columns_to_win(self) -> u8 {
        self.columns_to_win
    }

    /// The variant in force.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// Whether these are the base game's options.
    pub fn is_base(self) -> bool {
        self == Options::BASE
    }
}

/// `3 columns` or `4 columns, skip`: how a report names the options.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} columns to win", self.columns_to_win)?;
        match self.variant {
            Variant::None => Ok(()),
            variant => write!(f, ", variant {}", variant.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offered_combinations_are_the_contracts() {
        for variant in Variant::ALL {
            for (players, allowed) in [(1, 3..=5), (2, 3..=5), (3, 3..=4), (4, 3..=3)] {
                for w in 2..=6 {
                    assert_eq!(
                        Options::new(players, w, variant).is_ok(),
                        allowed.contains(&w),
                        "{players} {w}"
                    );
                }
            }
        }
        assert_eq!(
            Options::new(3, 5, Variant::None).unwrap_err(),
            "5 columns to win is not offered for 3 players (3 or 4)"
        );
    }

    #[test]
    fn variants_read_their_names() {
        for variant in Variant::ALL {
            assert_eq!(Variant::parse(&variant.name().to_uppercase()), Ok(variant));
        }
        assert!(Variant::parse("both").unwrap_err().contains("none, skip or mustroll"));
        assert_eq!(Options::new(2, 4, Variant::Skip).unwrap().to_string(), "4 columns to win, variant skip");
    }
}
