//! The contract's "Optional variants", written from its text alone: columns to win (W = 3, 4 or
//! 5, as offered per player count), variant A (skip) and variant B (must roll). A position carries
//! its options; the FEN does not record them, so a FEN is checked under the options given.
//!
//! Where the contract is silent, the choice made is marked *(silent)* with the reason.

use super::{Position, column_length, start_fen};

/// The rulebook's variants A and B, never combined ("A and B are never combined").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The base game's landing and stopping.
    None,
    /// Variant A: "When a neutral marker would land on a space holding another player's coloured
    /// marker, it goes on to the next space up that holds none."
    Skip,
    /// Variant B: "While any neutral marker stands on a space holding another player's coloured
    /// marker, `stop` is not allowed, and `roll` is the only event."
    MustRoll,
}

/// The options in force: the columns a player must win, and the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub columns_to_win: u32,
    pub variant: Variant,
}

impl Options {
    /// The base game: 3 columns to win, no variant.
    pub fn base() -> Options {
        Options { columns_to_win: 3, variant: Variant::None }
    }

    /// The options as the contract offers them for `players` players; `Err(text)` (starting with
    /// `options:`) for a combination it does not offer: "offered for 2 players (4 or 5) and for 3
    /// players (4 only)"; 3 is the base game, offered always; a variant goes with any offered W.
    pub fn new(players: usize, columns_to_win: u32, variant: Variant) -> Result<Options, String> {
        let options = Options { columns_to_win, variant };
        options.offered_for(players)?;
        Ok(options)
    }

    /// Whether these options are offered for `players` players (the table of `new`).
    pub(super) fn offered_for(&self, players: usize) -> Result<(), String> {
        let offered: &[u32] = match players {
            2 => &[3, 4, 5],
            3 => &[3, 4],
            4 => &[3],
            _ => return Err(format!("options: Can't Stop has 2 to 4 players, not {players}")),
        };
        if !offered.contains(&self.columns_to_win) {
            return Err(format!(
                "options: {} columns to win is not offered for {players} players (offered: {offered:?})",
                self.columns_to_win
            ));
        }
        Ok(())
    }

    /// W, the columns a player must have won to win the game.
    pub(super) fn win(&self) -> usize {
        self.columns_to_win as usize
    }
}

impl Position {
    /// The start position with `players` players under `options`, or why those options are not
    /// offered for that many players.
    pub fn start_with(players: usize, options: &Options) -> Result<Position, String> {
        options.offered_for(players)?;
        Position::parse_with(&start_fen(players), options)
    }

    /// The options the position was parsed (or started) with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Whether a player other than the one to move has his coloured marker on `space` of `column`.
    fn held_by_other(&self, column: u8, space: u8) -> bool {
        space > 0 && (1..=self.players).any(|p| p != self.to_move && self.marker(p, column) == space)
    }

    /// The space a neutral marker lands on in `column` when it would land on `space` (placed or
    /// moved up). Under skip it goes on up while the space holds another player's coloured marker,
    /// so over two or three such spaces in a row as well ("the next space up that holds none").
    /// *(silent)* The mover's own coloured marker never matters: a neutral marker is always placed
    /// above it and only moves up, and the rule names only "another player's coloured marker".
    pub(super) fn landing(&self, column: u8, space: u8) -> u8 {
        if self.options.variant != Variant::Skip {
            return space;
        }
        let mut space = space;
        while self.held_by_other(column, space) {
            space += 1;
        }
        // "The top space of an open column never holds another player's marker, so the marker
        // always lands": advancing is only done in an open column.
        assert!(space <= column_length(column), "skip went past the top of column {column}");
        space
    }

    /// The first neutral marker (column, space) standing on a space that holds another player's
    /// coloured marker, and that player.
    fn neutral_on_other(&self) -> Option<(u8, u8, usize)> {
        self.neutral.iter().find_map(|&(column, space)| {
            (1..=self.players)
                .find(|&p| p != self.to_move && self.marker(p, column) == space)
                .map(|p| (column, space, p))
        })
    }

    /// Under must-roll, why `stop` is not allowed now (`None` when it is). The rule reads the
    /// neutral markers where they stand in phase s, after the last choice: "While any neutral
    /// marker stands on ..." is a state, so a marker moved off such a space frees `stop` again and
    /// a marker moved onto one forbids it, whatever happened earlier in the turn. *(silent)* It
    /// restricts only `roll`/`stop`; the choice set of a roll is the base game's, and a choice may
    /// put a neutral marker on another player's space (then the player must roll).
    pub(super) fn stop_refused(&self) -> Option<String> {
        if self.options.variant != Variant::MustRoll {
            return None;
        }
        self.neutral_on_other().map(|(column, space, p)| {
            format!(
                "must roll: the neutral marker {column}:{space} stands on player {p}'s coloured marker, so `stop` is not allowed"
            )
        })
    }

    /// The options section's own rejections, each starting with `options:`: "Under either,
    /// coloured markers of two players never share a space. Under A, no neutral marker stands on
    /// another player's coloured marker either."
    pub(super) fn check_variant_rules(&self) -> Result<(), String> {
        let name = match self.options.variant {
            Variant::None => return Ok(()),
            Variant::Skip => "skip",
            Variant::MustRoll => "must roll",
        };
        for column in 2..=12u8 {
            for p in 1..=self.players {
                for q in p + 1..=self.players {
                    let space = self.marker(p, column);
                    if space != 0 && self.marker(q, column) == space {
                        return Err(format!(
                            "options: under {name}, players {p} and {q} have coloured markers on the same space {column}:{space}"
                        ));
                    }
                }
            }
        }
        if self.options.variant == Variant::Skip
            && let Some((column, space, p)) = self.neutral_on_other()
        {
            return Err(format!(
                "options: under skip, the neutral marker {column}:{space} stands on player {p}'s coloured marker"
            ));
        }
        Ok(())
    }
}
