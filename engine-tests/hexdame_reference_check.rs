//! The HexDame reference generator (`engine-tests/hexdame_reference`) against the rules: every
//! worked example of the rules contract (hexdame.md), its FEN and move notations, the perft
//! counts of its perft table, and the invariants the rules state, checked on every position of
//! seeded random games against a second, brute-force reading of the jump rules written here.
//!
//! The reference was written from the contract alone, without reading the engine; the engine's
//! own generator will be checked against it (a differential test) once it exists. Expected
//! values here come from the contract's text and table, never from either generator's output.

#[path = "hexdame_reference/mod.rs"]
mod hexdame_reference;

use hexdame_reference::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

struct Checker {
    checks: u64,
    failures: Vec<String>,
}

impl Checker {
    fn new() -> Checker {
        Checker { checks: 0, failures: Vec::new() }
    }
    fn check(&mut self, ok: bool, what: impl Into<String>) {
        self.checks += 1;
        if !ok {
            self.failures.push(what.into());
        }
    }
    fn eq<T: Debug + PartialEq>(&mut self, got: T, want: T, what: &str) {
        let ok = got == want;
        self.check(ok, format!("{what}: got {got:?}, want {want:?}"));
    }
    /// Fails the test with every failed check.
    fn finish(self) {
        assert!(self.checks > 0, "no check ran");
        assert!(
            self.failures.is_empty(),
            "{} of {} checks failed:\n{}",
            self.failures.len(),
            self.checks,
            self.failures.join("\n")
        );
    }
}

fn texts(fen: &str) -> Vec<String> {
    legal_moves(fen).unwrap().into_iter().map(|(m, _)| m).collect()
}

fn strs(items: &str) -> Vec<String> {
    items.split_whitespace().map(|s| s.to_string()).collect()
}

/// Tiny linear congruential generator (Knuth's MMIX constants); no crates.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------------------------
// A second reading of the move rules, by brute force over target cells: a jump from a to b is
// checked exactly as the notation section states it ("each pair of consecutive cells lies on
// one line; between them stands exactly one piece, an enemy piece not captured earlier; for a
// king the other cells between them are empty"), plus the jump rules (a man jumps an adjacent
// piece; the landing cell is empty; the start cell counts as empty).

/// The piece captured by a jump from `a` to `b`, or `None` if that jump is not allowed.
fn brute_jump(pos: &Position, start: Cell, kind: Kind, captured: &[Cell], a: Cell, b: Cell) -> Option<Cell> {
    let me = pos.to_move;
    let (df, dr) = (b.0 - a.0, b.1 - a.1);
    if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df == dr) {
        return None; // not on one line
    }
    let n = df.abs().max(dr.abs());
    if kind == Kind::Man && n != 2 {
        return None;
    }
    let empty = |c: Cell| c == start || pos.get(c).is_none();
    if !empty(b) {
        return None;
    }
    let d = (df / n, dr / n);
    let mut between = Vec::new();
    for i in 1..n {
        let c = (a.0 + d.0 * i, a.1 + d.1 * i);
        if !empty(c) {
            between.push(c);
        }
    }
    if between.len() != 1 {
        return None;
    }
    let c = between[0];
    match pos.get(c) {
        Some((color, _)) if color != me && !captured.contains(&c) => Some(c),
        _ => None,
    }
}

fn brute_sequences(
    pos: &Position,
    kind: Kind,
    path: &mut Vec<Cell>,
    captured: &mut Vec<Cell>,
    out: &mut Vec<(Vec<Cell>, Vec<Cell>)>,
) {
    let mut extended = false;
    let a = *path.last().unwrap();
    for b in all_cells() {
        if let Some(c) = brute_jump(pos, path[0], kind, captured, a, b) {
            extended = true;
            path.push(b);
            captured.push(c);
            brute_sequences(pos, kind, path, captured, out);
            captured.pop();
            path.pop();
        }
    }
    // Only sequences that cannot go on are kept here (the contract: "a sequence never stops
    // while another jump is possible"); the majority rule is applied by the caller.
    if !extended && !captured.is_empty() {
        out.push((path.clone(), captured.clone()));
    }
}

/// Every legal move by the brute-force reading: (canonical text, FEN after), sorted.
fn brute_moves(pos: &Position) -> Vec<(String, String)> {
    let me = pos.to_move;
    let mut seqs = Vec::new();
    for cell in all_cells() {
        if let Some((c, kind)) = pos.get(cell)
            && c == me
        {
            brute_sequences(pos, kind, &mut vec![cell], &mut Vec::new(), &mut seqs);
        }
    }
    let mut out = Vec::new();
    let finish = |from: Cell, to: Cell, captured: &[Cell]| -> String {
        let mut next = pos.clone();
        let (color, kind) = pos.get(from).unwrap();
        for c in captured {
            next.set(*c, None);
        }
        next.set(from, None);
        let far = if color == Color::White { to.0 == 9 || to.1 == 9 } else { to.0 == 1 || to.1 == 1 };
        next.set(to, Some((color, if far { Kind::King } else { kind })));
        next.to_move = me.opponent();
        next.to_fen()
    };
    if let Some(best) = seqs.iter().map(|(_, c)| c.len()).max() {
        let mut groups: BTreeMap<(Cell, Cell, BTreeSet<Cell>), String> = BTreeMap::new();
        for (path, captured) in seqs.iter().filter(|(_, c)| c.len() == best) {
            let text = path.iter().map(|c| cell_name(*c)).collect::<Vec<_>>().join("x");
            let key = (path[0], *path.last().unwrap(), captured.iter().copied().collect());
            let e = groups.entry(key).or_insert(text.clone());
            if text < *e {
                *e = text;
            }
        }
        for ((from, to, captured), text) in groups {
            let captured: Vec<Cell> = captured.into_iter().collect();
            out.push((text, finish(from, to, &captured)));
        }
    } else {
        for from in all_cells() {
            let Some((c, kind)) = pos.get(from) else { continue };
            if c != me {
                continue;
            }
            for to in all_cells() {
                let (df, dr) = (to.0 - from.0, to.1 - from.1);
                if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df == dr) || pos.get(to).is_some() {
                    continue;
                }
                let n = df.abs().max(dr.abs());
                let d = (df / n, dr / n);
                let ok = match kind {
                    Kind::Man => n == 1 && me.forward_directions().contains(&d),
                    Kind::King => (1..n).all(|i| pos.get((from.0 + d.0 * i, from.1 + d.1 * i)).is_none()),
                };
                if ok {
                    out.push((format!("{}-{}", cell_name(from), cell_name(to)), finish(from, to, &[])));
                }
            }
        }
    }
    out.sort();
    out
}

/// Checks the invariants the contract states on one position; returns its legal moves.
fn check_position(c: &mut Checker, pos: &Position) -> Vec<(Move, Position)> {
    let fen = pos.to_fen();
    match Position::from_fen(&fen) {
        Ok(p) => {
            c.check(p == *pos, format!("FEN {fen} parses to another position"));
            c.eq(p.to_fen(), fen.clone(), "FEN round trip");
        }
        Err(e) => c.check(false, format!("FEN {fen} does not parse back: {e}")),
    }
    let moves = generate(pos);
    let list = legal_moves(&fen).unwrap();
    c.eq(&list, &brute_moves(pos), &format!("{fen}: reference moves equal the brute-force moves"));
    // Sorted by text, texts distinct, positions after distinct (one move, one position).
    let sorted: Vec<String> = list.iter().map(|(m, _)| m.clone()).collect();
    let mut resorted = sorted.clone();
    resorted.sort();
    resorted.dedup();
    c.eq(&sorted, &resorted, &format!("{fen}: move list sorted, no duplicates"));
    let me = pos.to_move;
    let best = moves.iter().map(|(m, _)| m.captured.len()).max().unwrap_or(0);
    for (mv, after) in &moves {
        let text = mv.text();
        let after_fen = after.to_fen();
        // Piece counts: the mover keeps his, the enemy loses exactly the captured ones.
        c.eq(after.count(me), pos.count(me), &format!("{fen} {text}: mover keeps his pieces"));
        c.eq(
            after.count(me.opponent()) + mv.captured.len(),
            pos.count(me.opponent()),
            &format!("{fen} {text}: enemy loses the captured pieces"),
        );
        c.check(
            after.count_kind(me, Kind::King) >= pos.count_kind(me, Kind::King),
            format!("{fen} {text}: kings never change back"),
        );
        c.eq(mv.captured.len(), best, &format!("{fen} {text}: every move captures the maximum"));
        c.eq(after.to_move, me.opponent(), "side switches");
        match Position::from_fen(&after_fen) {
            Ok(p) => c.eq(p.to_fen(), after_fen.clone(), "FEN-after round trip"),
            Err(e) => c.check(false, format!("FEN after {text} from {fen} does not parse: {e}")),
        }
        // Every full path is accepted and plays the same move.
        for spelling in mv.spellings() {
            c.eq(play(&fen, &spelling), Ok(after_fen.clone()), &format!("{fen}: play {spelling}"));
        }
        if mv.is_capture() {
            let dash = format!("{}-{}", cell_name(mv.from), cell_name(mv.to));
            c.check(play(&fen, &dash).is_err(), format!("{fen}: capture {text} written {dash} rejected"));
            if mv.paths[0].len() > 2 {
                let short = format!("{}x{}", cell_name(mv.from), cell_name(mv.to));
                c.check(play(&fen, &short).is_err(), format!("{fen}: shortened {short} rejected"));
            }
        } else {
            let x = format!("{}x{}", cell_name(mv.from), cell_name(mv.to));
            c.check(play(&fen, &x).is_err(), format!("{fen}: step {text} written {x} rejected"));
        }
    }
    c.eq(pos.winner(), if moves.is_empty() { Some(me.opponent()) } else { None }, "winner iff no move");
    moves
}

fn random_games(c: &mut Checker, games: u32, rng: &mut Lcg) -> (u32, u32) {
    // The contract's suggested hard limit for match runners: 400 plies.
    const PLY_CAP: u32 = 400;
    let (mut ended, mut capped) = (0, 0);
    for _ in 0..games {
        let mut pos = Position::start();
        let mut plies = 0;
        loop {
            let moves = check_position(c, &pos);
            if moves.is_empty() {
                ended += 1;
                break;
            }
            if plies == PLY_CAP {
                capped += 1;
                break;
            }
            pos = moves[rng.below(moves.len())].1.clone();
            plies += 1;
        }
    }
    c.eq(ended + capped, games, "every game ends or is stopped at the ply cap");
    (ended, capped)
}

/// Random positions with few pieces and many kings, to exercise long king captures.
fn random_positions(c: &mut Checker, count: u32, max_per_side: usize, rng: &mut Lcg) -> Stats {
    let mut stats = Stats::default();
    let cells = all_cells();
    let mut done = 0;
    while done < count {
        let to_move = if rng.below(2) == 0 { Color::White } else { Color::Black };
        let mut pos = Position::empty(to_move);
        for color in [Color::White, Color::Black] {
            for _ in 0..1 + rng.below(max_per_side) {
                let cell = cells[rng.below(cells.len())];
                let king = rng.below(3) == 0 || color.is_far_edge(cell);
                if pos.get(cell).is_none() {
                    pos.set(cell, Some((color, if king { Kind::King } else { Kind::Man })));
                }
            }
        }
        if pos.count(to_move.opponent()) == 0 {
            continue; // not a legal position (FEN rule 6)
        }
        let moves = check_position(c, &pos);
        for (mv, _) in &moves {
            stats.multi_route += (mv.paths.len() > 1) as u32;
            stats.long_king += (mv.captured.len() >= 3 && pos.get(mv.from).unwrap().1 == Kind::King) as u32;
        }
        stats.lost += moves.is_empty() as u32;
        done += 1;
    }
    stats
}

/// What the random positions exercised, so that a change cannot quietly make them trivial.
#[derive(Default, Debug)]
struct Stats {
    /// Capture moves with more than one full path.
    multi_route: u32,
    /// King captures of three pieces or more.
    long_king: u32,
    /// Positions whose side to move has no legal move.
    lost: u32,
}

fn examples(c: &mut Checker) {
    // ---- Example 1: the start position.
    c.eq(Position::start().to_fen(), START_FEN.to_string(), "start FEN written back");
    c.eq(
        START_FEN,
        "W:Wa1,a2,a3,a4,b1,b2,b3,b4,c1,c2,c3,c4,d1,d2,d3,d4:Bf6,f7,f8,f9,g6,g7,g8,g9,h6,h7,h8,h9,i6,i7,i8,i9",
        "start FEN",
    );
    c.eq(all_cells().len(), 61, "61 cells");
    c.eq(
        texts(START_FEN),
        strs("a4-a5 a4-b5 b4-b5 b4-c5 c4-c5 c4-d5 d1-e1 d1-e2 d2-e2 d2-e3 d3-e3 d3-e4 d4-d5 d4-e4 d4-e5"),
        "ex1: the 15 start moves",
    );
    let after = play(START_FEN, "d4-e5").unwrap();
    c.eq(texts(&after), strs("f6xd4"), "ex1: after d4-e5 only f6xd4");
    c.eq(perft(START_FEN, 2), Ok(211), "ex1: perft 2 = 14 x 15 + 1");
    // ---- Example 2.
    c.eq(legal_moves("W:Wc3:Bd4,i9"), Ok(vec![("c3xe5".into(), "B:We5:Bi9".into())]), "ex2");
    // ---- Example 3.
    c.eq(texts("W:Wc3:Bd4,f5,i9"), strs("c3xe5xg5"), "ex3");
    // ---- Example 4: backward capture by a Black man.
    c.eq(texts("B:Wa1,e6:Be5"), strs("e5xe7"), "ex4");
    // ---- Example 5: one move, two routes.
    let fen5 = "W:Wc3:Bd3,d4,e4,i9";
    c.eq(legal_moves(fen5), Ok(vec![("c3xe3xe5xc3".into(), "B:Wc3:Bi9".into())]), "ex5");
    c.eq(play(fen5, "c3xe5xe3xc3"), Ok("B:Wc3:Bi9".into()), "ex5: the other route is accepted");
    c.eq(play(fen5, "c3xe3xe5xc3"), Ok("B:Wc3:Bi9".into()), "ex5: the canonical route");
    // ---- Example 6: king capture with restricted landings.
    let fen6 = "W:WKa1,d2:Bc3,e3,h6,i9";
    c.eq(texts(fen6), strs("a1xe5xe1 a1xe5xe2 a1xf6xi6 a1xh8xh4 a1xh8xh5"), "ex6");
    for bad in ["a1xd4", "a1xg7", "d2xf4", "a1xe5", "a1xh8"] {
        c.check(play(fen6, bad).is_err(), format!("ex6: {bad} is illegal"));
    }
    // ---- Example 7: the same captured set by two routes.
    let fen7 = "W:WKa1:Bc3,f6";
    c.eq(texts(fen7), strs("a1xd4xg7 a1xd4xh8 a1xd4xi9"), "ex7");
    c.eq(play(fen7, "a1xe5xg7"), play(fen7, "a1xd4xg7"), "ex7: a1xe5xg7 is a1xd4xg7");
    c.check(play(fen7, "a1xe5xh8").is_ok(), "ex7: a1xe5xh8 accepted");
    // ---- Example 8: majority.
    c.eq(texts("W:Wc3,g3:Bd4,f5,h4,i9"), strs("c3xe5xg5"), "ex8");
    c.check(play("W:Wc3,g3:Bd4,f5,h4,i9", "g3xi5").is_err(), "ex8: g3xi5 illegal");
    let fen8b = "W:Wc3,g3:Bd4,h4,i9";
    c.eq(texts(fen8b), strs("c3xe5 g3xi5"), "ex8b");
    c.eq(play(fen8b, "g3xi5"), Ok("B:Wc3,Ki5:Bd4,i9".into()), "ex8b: g3xi5 promotes");
    // ---- Example 9: captured pieces block.
    c.eq(texts("W:WKe5:Be3,e7,i9"), strs("e5xe1 e5xe2 e5xe8 e5xe9"), "ex9");
    c.check(play("W:WKe5:Be3,e7,i9", "e5xe2xe8").is_err(), "ex9: e5xe2xe8 illegal");
    // ---- Example 10: no promotion in mid-capture.
    let fen10 = "W:Wf7,g7:Bc4,g8,h8,i9";
    c.eq(legal_moves(fen10), Ok(vec![("f7xh9xh7".into(), "B:Wg7,h7:Bc4,i9".into())]), "ex10");
    c.check(play(fen10, "g7xg9").is_err(), "ex10: g7xg9 illegal");
    // ---- Example 11: promotion by capture and by step.
    c.eq(legal_moves("W:Wg7:Bb2,h8"), Ok(vec![("g7xi9".into(), "B:WKi9:Bb2".into())]), "ex11 capture");
    c.eq(texts("B:We5:Bb2"), strs("b2-a1 b2-a2 b2-b1"), "ex11 step");
    c.eq(play("B:We5:Bb2", "b2-a1"), Ok("W:We5:BKa1".into()), "ex11: b2-a1 promotes");
    for (mv, fen) in legal_moves("B:We5:Bb2").unwrap() {
        c.check(fen.contains(":BK"), format!("ex11: {mv} promotes"));
    }
    // ---- Example 12: blocked.
    let fen12 = "W:Wc3:Bc4,c5,d3,d4,e3,e5";
    c.eq(texts(fen12), Vec::<String>::new(), "ex12: no move");
    let p12 = Position::from_fen(fen12).unwrap();
    c.eq((p12.is_finished(), p12.winner()), (true, Some(Color::Black)), "ex12: White has lost");
    c.eq(perft(fen12, 3), Ok(0), "ex12: perft of a lost position");
    // ---- Example 13: repetition.
    let seq = ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];
    c.eq(game_outcome("W:WKa1:BKi9", &seq[..7]), Ok(Outcome::Ongoing), "ex13: ply 7 goes on");
    c.eq(game_outcome("W:WKa1:BKi9", &seq), Ok(Outcome::DrawByRepetition), "ex13: ply 8 draws");
    c.check(
        game_outcome("W:WKa1:BKi9", &[&seq[..], &["a1-a2"]].concat()).is_err(),
        "ex13: no move after a draw",
    );
    // Loss ends the game: a side with no pieces to move.
    c.eq(game_outcome("W:WKc3:Bd4", &["c3xe5"]), Ok(Outcome::Win(Color::White)), "Black without pieces lost");
    c.eq(
        Position::from_fen("B:Wa1:B").map(|p| p.winner()),
        Ok(Some(Color::White)),
        "empty side to move lost",
    );
    // Far edges as listed.
    let white_edge: Vec<String> =
        all_cells().into_iter().filter(|c| Color::White.is_far_edge(*c)).map(cell_name).collect();
    c.eq(white_edge, strs("e9 f9 g9 h9 i5 i6 i7 i8 i9"), "White's far edge");
    let black_edge: Vec<String> =
        all_cells().into_iter().filter(|c| Color::Black.is_far_edge(*c)).map(cell_name).collect();
    c.eq(black_edge, strs("a1 a2 a3 a4 a5 b1 c1 d1 e1"), "Black's far edge");
    // Files as listed in "Board and coordinates".
    let files: Vec<usize> = (1..=9).map(|f| all_cells().iter().filter(|c| c.0 == f).count()).collect();
    c.eq(files, vec![5, 6, 7, 8, 9, 8, 7, 6, 5], "file lengths");
}

/// Edge cases that follow from the contract's rules without being worked examples.
fn edge_cases(c: &mut Checker) {
    // Rule 1 of "During the sequence": the start cell counts as empty, so a king, like the man
    // of example 5, may go round d3, d4, e4 and land on its start cell c3 again.
    // Worked out by hand: the king takes all three pieces either round by d3, e4, d4 (landing
    // e3, e5, then anywhere beyond d4 down the column: c3 its start cell, or b2 and a1 past it)
    // or round by d4, e4, d3 (landing e5, e3, then c3, b3 or a3). Other first landings (f3 after
    // d3; f6..h8 after d4) lead nowhere, and e6..e9 after e4 cannot reach the third piece. The
    // two routes ending on c3 are one move; i9 can never be captured (no cell beyond it).
    let fen = "W:WKc3:Bd3,d4,e4,i9";
    c.eq(
        texts(fen),
        strs("c3xe3xe5xa1 c3xe3xe5xb2 c3xe3xe5xc3 c3xe5xe3xa3 c3xe5xe3xb3"),
        "a king passes over and lands on its own start cell",
    );
    c.eq(play(fen, "c3xe5xe3xc3"), play(fen, "c3xe3xe5xc3"), "both round trips are one move");
    c.eq(play(fen, "c3xe3xe5xa1"), Ok("B:WKa1:Bi9".into()), "king passes its start cell");
    // Kings capture kings; men capture kings.
    c.eq(texts("W:Wc3:BKd4,i9"), strs("c3xe5"), "a man captures a king");
    // Man captures are not restricted to forward; a man never steps backward.
    c.eq(texts("W:We5:Bi9"), strs("e5-e6 e5-f5 e5-f6"), "a man steps forward only");
    // A king slide.
    // A king on a1 slides along rank 1 (b1..e1), file a (a2..a5) and the column up to h8 (i9 is
    // occupied and has no cell beyond it, so there is no capture): 4 + 4 + 7 moves.
    c.eq(texts("W:WKa1:Bi9").len(), 15, "king slides from a1");
    // A king cannot pass over its own piece to capture, nor jump two pieces in a row.
    c.eq(texts("W:WKa1,b2:Bd4,i9").contains(&"a1xe5".to_string()), false, "own piece blocks a king");
    c.eq(texts("W:WKa1:Bc3,d4,i9").iter().any(|m| m.contains('x')), false, "two pieces in a row block");
}

fn fen_checks(c: &mut Checker) {
    // Reading: any order, whitespace around.
    c.eq(
        Position::from_fen(" B:WKe9,a1:Bf6,Kb1\n").map(|p| p.to_fen()),
        Ok("B:Wa1,Ke9:BKb1,f6".into()),
        "any order, whitespace around, written sorted",
    );
    c.eq(Position::from_fen("W:W:Bb5").map(|p| p.to_fen()), Ok("W:W:Bb5".into()), "empty White list");
    for (bad, why) in [
        ("W:Wa1:Bi9:", "too many ':'"),
        ("W:Wa1", "too few ':'"),
        ("w:Wa1:Bi9", "lower-case side"),
        ("X:Wa1:Bi9", "bad side"),
        ("W:Bi9:Wa1", "Black list first"),
        ("W:Wa1,,b1:Bi9", "empty item"),
        ("W:Wa1,:Bi9", "trailing empty item"),
        ("W:Wa1, b2:Bi9", "space inside"),
        ("W:Wka1:Bi9", "lower-case k"),
        ("W:Wa1-a4:Bi9", "range"),
        ("W:WA1:Bi9", "upper-case file"),
        ("W:Wa:Bi9", "no rank"),
        ("W:Wa10:Bi9", "two-digit rank"),
        ("W:Wa6:Bi9", "a6 off the board"),
        ("W:Wi1:Bi9", "i1 off the board"),
        ("W:Wj5:Bi9", "file j"),
        ("W:Wa0:Bi9", "rank 0"),
        ("W:Wa1,Ka1:Bi9", "two pieces on a1"),
        ("W:Wa1:Ba1", "two colours on a1"),
        ("W:We9:Bi9", "White man on its far edge"),
        ("W:Wi5:Ba2", "White man on i5"),
        ("W:Wb3:Ba5", "Black man on its far edge"),
        ("W:Wb3:Be1", "Black man on e1"),
        ("W:Wa1:B", "side not to move has no pieces"),
        ("B:W:Bi9", "White not to move, no pieces"),
        ("W:W:B", "nobody"),
        ("W :Wa1:Bi9", "space inside the side"),
        ("", "empty"),
    ] {
        let r = Position::from_fen(bad);
        c.check(r.is_err(), format!("FEN {bad:?} ({why}) rejected, got {r:?}"));
    }
    // Kings are allowed on the far edge, and the side to move may have no pieces.
    c.check(Position::from_fen("W:WKe9:BKa1").is_ok(), "kings on far edges accepted");
    c.check(Position::from_fen("W:W:Bb3").is_ok(), "side to move without pieces accepted");
    // More than 16 pieces.
    let seventeen: Vec<String> =
        all_cells().into_iter().filter(|c| c.1 <= 4).take(17).map(cell_name).collect();
    c.eq(seventeen.len(), 17, "17 cells on ranks 1..4");
    let fen17 = format!("W:W{}:Bi9", seventeen.join(","));
    c.check(Position::from_fen(&fen17).is_err(), "17 White pieces rejected");
    let fen16 = format!("W:W{}:Bi9", seventeen[..16].join(","));
    c.check(Position::from_fen(&fen16).is_ok(), "16 White pieces accepted");
}

fn notation_checks(c: &mut Checker) {
    let s = START_FEN;
    for bad in [
        "", "d4", "d4-", "d4-e5-e6", "d4xe5", "D4-E5", "d4 -e5", " d4-e5", "d4-e5 ", "d4–e5", "d4-e10",
        "d04-e5", "d4e5", "d4-d4", "d4-d6", "a1-a2", "f6-f5", "d4-j5", "d4-a6",
    ] {
        c.check(play(s, bad).is_err(), format!("start: {bad:?} rejected"));
    }
    let fen3 = "W:Wc3:Bd4,f5,i9";
    c.eq(play(fen3, "c3xe5xg5"), Ok("B:Wg5:Bi9".into()), "ex3 played");
    for bad in ["c3xg5", "c3-g5", "c3xe5", "c3-e5", "c3xe5xg5x", "c3xe5-g5", "c3xe5xg5xe5", "c3x", "xc3xe5"] {
        c.check(play(fen3, bad).is_err(), format!("ex3: {bad:?} rejected"));
    }
    c.check(play(fen3, "c3xg5").is_err_and(|e| e.contains("full path")), "ex3: shortened path named");
    c.check(play("W:Wc3:Bd4,i9", "c3-e5").is_err_and(|e| e.contains("'x'")), "capture with '-' named");
    c.check(play(s, "d4xe5").is_err_and(|e| e.contains("'-'")), "step with 'x' named");
    c.eq(parse_move_text("c3xe3xe5xc3"), Ok((vec![(3, 3), (5, 3), (5, 5), (3, 3)], true)), "parse a path");
}

fn perft_table() -> Vec<(String, Vec<(u32, u64)>)> {
    // The perft table beside the contract, copied here (its values are the contract's).
    let table = "\
# fen: W:Wa1,a2,a3,a4,b1,b2,b3,b4,c1,c2,c3,c4,d1,d2,d3,d4:Bf6,f7,f8,f9,g6,g7,g8,g9,h6,h7,h8,h9,i6,i7,i8,i9
1 15
2 211
3 3337
4 51589
5 848774
6 13660774
# fen: W:Wc3,d2,g3:Bd4,e6,f5,g7,h4
1 2
2 2
3 12
4 68
5 321
# fen: W:WKa1,d2:Bc3,e3,h6,i9
1 5
2 15
3 244
4 1806
5 25014
# fen: W:WKa1,c2:Bb4,c3,e3,f6,i9
1 6
2 46
3 584
4 5326
5 59312
# fen: W:Wf7,g7:Bc4,g8,h8,i9
1 1
2 6
3 26
4 87
5 576
6 2901
";
    let mut out: Vec<(String, Vec<(u32, u64)>)> = Vec::new();
    for line in table.lines() {
        if let Some(fen) = line.strip_prefix("# fen: ") {
            out.push((fen.to_string(), Vec::new()));
        } else {
            let (d, n) = line.split_once(' ').unwrap();
            out.last_mut().unwrap().1.push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

fn perft_checks(c: &mut Checker, max_start_depth: u32) {
    for (fen, rows) in perft_table() {
        for (depth, want) in rows {
            if fen == START_FEN && depth > max_start_depth {
                continue;
            }
            let t = std::time::Instant::now();
            let got = perft(&fen, depth);
            eprintln!("perft {depth} of {fen}: {got:?} in {:?}", t.elapsed());
            c.eq(got, Ok(want), &format!("perft {depth} of {fen}"));
        }
    }
}

#[test]
fn worked_examples_and_edge_cases() {
    let mut c = Checker::new();
    examples(&mut c);
    edge_cases(&mut c);
    c.finish();
}

#[test]
fn fen_and_move_notation() {
    let mut c = Checker::new();
    fen_checks(&mut c);
    notation_checks(&mut c);
    c.finish();
}

#[test]
fn invariants_hold_in_random_games_and_positions() {
    let mut c = Checker::new();
    let mut rng = Lcg(0x9e37_79b9_7f4a_7c15);
    let (ended, capped) = random_games(&mut c, 40, &mut rng);
    eprintln!("random games: {ended} ended, {capped} stopped at the ply cap");
    let sparse = random_positions(&mut c, 3000, 8, &mut rng);
    let dense = random_positions(&mut c, 1500, 16, &mut rng);
    eprintln!("random positions: sparse {sparse:?}, dense {dense:?}");
    for (what, n) in [
        ("multi-route captures", sparse.multi_route + dense.multi_route),
        ("long king captures", sparse.long_king + dense.long_king),
        ("lost positions", sparse.lost + dense.lost),
    ] {
        c.check(n >= 10, format!("random positions exercise {what}: only {n}"));
    }
    c.finish();
}

#[test]
fn perft_of_the_contract_table() {
    let mut c = Checker::new();
    perft_checks(&mut c, 5);
    c.finish();
}

#[test]
#[ignore = "about 9 s: perft 6 of the start position (13,660,774)"]
fn deep_perft_of_the_start_position() {
    let mut c = Checker::new();
    perft_checks(&mut c, 6);
    c.finish();
}
