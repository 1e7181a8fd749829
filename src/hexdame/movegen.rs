//! Legal move generation: steps and king slides, capture sequences under the majority rule, and
//! the bulk count of perft's last ply.
//!
//! Captures are compulsory, so a position's moves are either all captures or all non-captures.
//! Capture sequences are found by a depth-first search from each piece that can jump, over the
//! position as it stands during a sequence (docs/rules/hexdame.md): the capturing piece's start
//! cell counts as empty, captured pieces stay on the board as blockers and cannot be jumped
//! again. A sequence ends only where no further jump exists; of all sequences of all pieces only
//! those with the largest number of captures are kept (the majority rule), and sequences that
//! agree on the start cell, the final cell and the captured set are one move, kept with the
//! smallest path in the order of names (its canonical text).

use super::board::{ALL, Cell, Cells, bit, neighbour, opposite, shift};
use super::{MAX_LANDINGS, Move, Position};
use arrayvec::ArrayVec;

/// The moves kept on the stack; a position with more (a contrived one with many kings) spills
/// to the heap rather than fail.
pub const INLINE_MOVES: usize = 128;

/// A list of moves: on the stack up to [`INLINE_MOVES`], on the heap beyond. No legal position
/// can overflow it, and ordinary ones never allocate.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // the point is the stack array: boxing it would allocate
pub enum MoveList {
    /// The usual case.
    Inline(ArrayVec<Move, INLINE_MOVES>),
    /// A list that outgrew the stack.
    Heap(Vec<Move>),
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList::Inline(ArrayVec::new())
    }

    /// Appends `mv`, moving the list to the heap when the stack part is full.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        match self {
            MoveList::Inline(moves) => {
                if let Err(overflow) = moves.try_push(mv) {
                    let mut heap = moves.to_vec();
                    heap.push(overflow.element());
                    *self = MoveList::Heap(heap);
                }
            }
            MoveList::Heap(moves) => moves.push(mv),
        }
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        match self {
            MoveList::Inline(moves) => moves.clear(),
            MoveList::Heap(moves) => moves.clear(),
        }
    }

    /// The number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.as_ref().len()
    }

    /// True when there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_ref().iter()
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl AsRef<[Move]> for MoveList {
    #[inline(always)]
    fn as_ref(&self) -> &[Move] {
        match self {
            MoveList::Inline(moves) => moves,
            MoveList::Heap(moves) => moves,
        }
    }
}

impl AsMut<[Move]> for MoveList {
    #[inline(always)]
    fn as_mut(&mut self) -> &mut [Move] {
        match self {
            MoveList::Inline(moves) => moves,
            MoveList::Heap(moves) => moves,
        }
    }
}

/// Every legal move of `pos`.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_captures(pos, &mut list);
    if list.is_empty() {
        generate_steps(pos, &mut list);
    }
    list
}

/// The number of legal moves, counting non-captures without making them (perft's last ply).
pub fn count_moves(pos: &Position) -> u64 {
    if must_capture(pos) {
        let mut list = MoveList::new();
        generate_captures(pos, &mut list);
        if !list.is_empty() {
            return list.len() as u64;
        }
    }
    let us = pos.side_to_move();
    let empty = !pos.occupied() & ALL;
    let men = pos.pieces(us, super::Kind::Man);
    let mut count = 0;
    for dir in us.forward() {
        count += (shift(men, dir) & empty).count_ones();
    }
    // The slides of all kings in one direction never overlap (a king stops before the next
    // piece), so flooding them together counts each slide once.
    let kings = pos.pieces(us, super::Kind::King);
    if kings != 0 {
        for dir in 0..6 {
            let mut frontier = shift(kings, dir) & empty;
            while frontier != 0 {
                count += frontier.count_ones();
                frontier = shift(frontier, dir) & empty;
            }
        }
    }
    u64::from(count)
}

/// Perft: the number of move sequences of length `depth` (repetition ignored), with the bulk
/// count at the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos),
        _ => legal_moves(pos).iter().map(|&mv| perft(&pos.make_move(mv), depth - 1)).sum(),
    }
}

/// True when the side to move has a legal move.
pub fn has_moves(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let empty = !pos.occupied() & ALL;
    let men = pos.pieces(us, super::Kind::Man);
    let kings = pos.pieces(us, super::Kind::King);
    us.forward().into_iter().any(|dir| shift(men, dir) & empty != 0)
        || (0..6).any(|dir| shift(kings, dir) & empty != 0)
        || must_capture(pos)
}

/// The men of the side to move with a jump available (an enemy piece next to them and an
/// empty cell beyond it).
#[inline]
fn jumping_men(pos: &Position) -> u64 {
    let us = pos.side_to_move();
    let enemy = pos.all(us.opponent());
    let empty = !pos.occupied() & ALL;
    let men = pos.pieces(us, super::Kind::Man);
    let mut jumpers = 0;
    for dir in 0..6 {
        let back = opposite(dir);
        jumpers |= men & shift(shift(empty, back) & enemy, back);
    }
    jumpers
}

/// True when some piece of the side to move can make a first jump, so that captures, and only
/// captures, are legal.
pub fn must_capture(pos: &Position) -> bool {
    if jumping_men(pos) != 0 {
        return true;
    }
    let us = pos.side_to_move();
    let enemy = pos.all(us.opponent());
    let empty = !pos.occupied() & ALL;
    Cells(pos.pieces(us, super::Kind::King)).any(|king| {
        (0..6).any(|dir| {
            let mut c = neighbour(king, dir);
            while bit(c) & empty != 0 {
                c = neighbour(c, dir);
            }
            bit(c) & enemy != 0 && bit(neighbour(c, dir)) & empty != 0
        })
    })
}

/// Appends the non-capturing moves: men's steps forward, kings' slides.
fn generate_steps(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let empty = !pos.occupied() & ALL;
    let men = pos.pieces(us, super::Kind::Man);
    for dir in us.forward() {
        let back = opposite(dir);
        for to in Cells(shift(men, dir) & empty) {
            list.push(Move::step(neighbour(to, back), to));
        }
    }
    for king in Cells(pos.pieces(us, super::Kind::King)) {
        for dir in 0..6 {
            let mut to = neighbour(king, dir);
            while bit(to) & empty != 0 {
                list.push(Move::step(king, to));
                to = neighbour(to, dir);
            }
        }
    }
}

/// Appends the legal captures (none when no capture exists): the longest sequences of all
/// pieces, one per move.
fn generate_captures(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let men = jumping_men(pos);
    let kings = pos.pieces(us, super::Kind::King);
    if men == 0 && kings == 0 {
        return;
    }
    let mut search = CaptureSearch {
        enemy: pos.all(us.opponent()),
        empty: 0,
        from: 0,
        path: [0; MAX_LANDINGS],
        best: 1,
        list,
    };
    let occupied = pos.occupied();
    for from in Cells(men) {
        search.start(from, occupied);
        search.man(from, 0, 0);
    }
    for from in Cells(kings) {
        search.start(from, occupied);
        search.king(from, 0, 0);
    }
    number_ordinals(search.list);
}

/// Gives each capture its ordinal among the captures with the same start and final cells.
fn number_ordinals(list: &mut MoveList) {
    let moves = list.as_mut();
    for i in 1..moves.len() {
        let (before, rest) = moves.split_at_mut(i);
        let mv = &mut rest[0];
        let ordinal = before.iter().filter(|m| m.from() == mv.from() && m.to() == mv.to()).count();
        mv.set_ordinal(ordinal.min(u8::MAX as usize) as u8);
    }
}

/// The depth-first search of capture sequences from one piece at a time.
struct CaptureSearch<'a> {
    /// The enemy pieces (captured ones included: the search masks those out).
    enemy: u64,
    /// The empty cells during the current piece's sequences (its start cell included).
    empty: u64,
    /// The current piece's start cell.
    from: Cell,
    /// The landings so far.
    path: [Cell; MAX_LANDINGS],
    /// The most captures of a sequence kept so far (at least 1).
    best: usize,
    /// The sequences kept: those with `best` captures, one per move.
    list: &'a mut MoveList,
}

impl CaptureSearch<'_> {
    /// Prepares the search from the piece on `from`.
    #[inline]
    fn start(&mut self, from: Cell, occupied: u64) {
        self.from = from;
        self.empty = !occupied & ALL | bit(from);
    }

    /// A man on `at` after `depth` jumps taking `captured`: every next jump, or the end.
    fn man(&mut self, at: Cell, captured: u64, depth: usize) {
        let mut extended = false;
        for dir in 0..6 {
            let over = neighbour(at, dir);
            if bit(over) & self.enemy & !captured == 0 {
                continue;
            }
            let land = neighbour(over, dir);
            if bit(land) & self.empty == 0 {
                continue;
            }
            extended = true;
            self.path[depth] = land;
            self.man(land, captured | bit(over), depth + 1);
        }
        if !extended && depth > 0 {
            self.record(captured, depth);
        }
    }

    /// A king on `at` after `depth` jumps taking `captured`: every next jump with every
    /// landing beyond the piece, or the end.
    fn king(&mut self, at: Cell, captured: u64, depth: usize) {
        let mut extended = false;
        for dir in 0..6 {
            let mut over = neighbour(at, dir);
            while bit(over) & self.empty != 0 {
                over = neighbour(over, dir);
            }
            if bit(over) & self.enemy & !captured == 0 {
                continue;
            }
            let mut land = neighbour(over, dir);
            while bit(land) & self.empty != 0 {
                extended = true;
                self.path[depth] = land;
                self.king(land, captured | bit(over), depth + 1);
                land = neighbour(land, dir);
            }
        }
        if !extended && depth > 0 {
            self.record(captured, depth);
        }
    }

    /// A finished sequence of `depth` captures along `path[..depth]`: kept if no longer one is
    /// known, merged with an equivalent one (keeping the smaller path) if there is one.
    fn record(&mut self, captured: u64, depth: usize) {
        if depth < self.best {
            return;
        }
        if depth > self.best {
            self.best = depth;
            self.list.clear();
        }
        let candidate = Move::capture(self.from, &self.path[..depth], captured);
        for existing in self.list.as_mut() {
            if existing.same_move(&candidate) {
                if path_order(&candidate) < path_order(existing) {
                    *existing = candidate;
                }
                return;
            }
        }
        self.list.push(candidate);
    }
}

/// The key that orders equivalent paths as their texts do: landing by landing, by name.
fn path_order(mv: &Move) -> ArrayVec<u8, MAX_LANDINGS> {
    mv.landings().iter().map(|&c| super::board::name_order(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        moves.sort();
        assert_eq!(count_moves(&pos), moves.len() as u64, "{fen}");
        assert_eq!(has_moves(&pos), !moves.is_empty(), "{fen}");
        moves
    }

    #[test]
    fn the_start_position_has_the_fifteen_moves_of_the_rules() {
        let expected =
            "a4-a5 a4-b5 b4-b5 b4-c5 c4-c5 c4-d5 d1-e1 d1-e2 d2-e2 d2-e3 d3-e3 d3-e4 d4-d5 d4-e4 d4-e5";
        assert_eq!(texts(super::super::START_FEN).join(" "), expected);
    }

    #[test]
    fn worked_examples_of_the_rules() {
        let cases: [(&str, &str); 12] = [
            ("W:Wc3:Bd4,i9", "c3xe5"),
            ("W:Wc3:Bd4,f5,i9", "c3xe5xg5"),
            ("B:Wa1,e6:Be5", "e5xe7"),
            ("W:Wc3:Bd3,d4,e4,i9", "c3xe3xe5xc3"),
            ("W:WKa1,d2:Bc3,e3,h6,i9", "a1xe5xe1 a1xe5xe2 a1xf6xi6 a1xh8xh4 a1xh8xh5"),
            ("W:WKa1:Bc3,f6", "a1xd4xg7 a1xd4xh8 a1xd4xi9"),
            ("W:Wc3,g3:Bd4,f5,h4,i9", "c3xe5xg5"),
            ("W:Wc3,g3:Bd4,h4,i9", "c3xe5 g3xi5"),
            ("W:WKe5:Be3,e7,i9", "e5xe1 e5xe2 e5xe8 e5xe9"),
            ("W:Wf7,g7:Bc4,g8,h8,i9", "f7xh9xh7"),
            ("B:We5:Bb2", "b2-a1 b2-a2 b2-b1"),
            ("W:Wc3:Bc4,c5,d3,d4,e3,e5", ""),
        ];
        for (fen, expected) in cases {
            assert_eq!(texts(fen).join(" "), expected, "{fen}");
        }
    }

    #[test]
    fn move_lists_spill_to_the_heap_instead_of_failing() {
        let mut list = MoveList::new();
        for i in 0..INLINE_MOVES + 5 {
            list.push(Move::step(0, (i % 61) as Cell));
        }
        assert_eq!(list.len(), INLINE_MOVES + 5);
        assert!(matches!(list, MoveList::Heap(_)));
        assert_eq!(list.as_ref()[INLINE_MOVES + 4].to(), ((INLINE_MOVES + 4) % 61) as Cell);
    }

    #[test]
    fn equivalent_captures_get_distinct_codes_only_when_sets_differ() {
        // Example 7: three moves, one code each.
        let pos = Position::from_fen("W:WKa1:Bc3,f6").unwrap();
        let mut codes: Vec<u16> = pos.legal_moves().iter().map(|m| m.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 3);
    }
}
