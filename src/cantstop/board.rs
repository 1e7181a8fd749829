//! The board's geometry: eleven columns named 2 to 12, kept in arrays indexed 0 to 10.

/// The number of columns.
pub const COLUMNS: usize = 11;

/// The smallest column name.
pub const FIRST_COLUMN: u8 = 2;

/// The number of spaces of each column, by index (column 2 first): 3, 5, ..., 13, ..., 3.
pub const HEIGHTS: [u8; COLUMNS] = [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3];

/// The index (0 to 10) of column `name` (2 to 12).
#[inline(always)]
pub const fn index(name: u8) -> usize {
    (name - FIRST_COLUMN) as usize
}

/// The name (2 to 12) of the column of index `index` (0 to 10).
#[inline(always)]
pub const fn name(index: usize) -> u8 {
    index as u8 + FIRST_COLUMN
}

/// The number of spaces of column `name` (2 to 12).
#[inline(always)]
pub const fn height(name: u8) -> u8 {
    HEIGHTS[index(name)]
}

/// The columns a player must win to win the game (the base game).
pub const COLUMNS_TO_WIN: u32 = 3;

/// The most players a game has.
pub const MAX_PLAYERS: usize = 4;

/// The number of neutral markers.
pub const NEUTRAL_MARKERS: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_hold_83_spaces() {
        assert_eq!(HEIGHTS.iter().map(|&h| h as u32).sum::<u32>(), 83);
        assert_eq!((height(2), height(7), height(12)), (3, 13, 3));
        assert_eq!((index(2), name(10)), (0, 12));
    }
}
