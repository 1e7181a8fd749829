//! The Dipole reference generator (`engine-tests/dipole_reference`) against the rules: every
//! worked example and decided edge case of docs/rules/dipole.md, the FEN and move notations, the
//! perft counts of the start positions, and the invariants the rules state, checked on every
//! position of seeded random games and on random positions.
//!
//! The reference was written from the rules alone, by an engineer who had not read the engine;
//! the engine's own generator will be checked against it (a differential test) once it exists.
//! Expected values here come from the rules text, never from either generator's output.

#[path = "dipole_reference/mod.rs"]
mod dipole_reference;

use dipole_reference::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Debug;

const D: Variant = Variant::Dipole;
const D10: Variant = Variant::Dipole10;

struct Checker {
    checks: u64,
    failures: Vec<String>,
}

impl Checker {
    fn check(&mut self, ok: bool, what: impl Into<String>) {
        self.checks += 1;
        if !ok {
            let what = what.into();
            self.failures.push(what);
        }
    }
    fn eq<T: Debug + PartialEq>(&mut self, got: T, want: T, what: &str) {
        let ok = got == want;
        self.check(ok, format!("{what}: got {got:?}, want {want:?}"));
    }
}

fn texts(v: Variant, fen: &str) -> BTreeSet<String> {
    legal_moves(v, fen).unwrap().into_iter().map(|(m, _)| m).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn with_exits(items: &[&str], from: &str, ks: std::ops::RangeInclusive<u32>) -> BTreeSet<String> {
    let mut s = set(items);
    for k in ks {
        s.insert(format!("{from}off{k}"));
    }
    s
}

fn finished(v: Variant, fen: &str) -> (bool, Option<Color>) {
    let p = Position::from_fen(v, fen).unwrap();
    (p.is_finished(), p.winner())
}

/// Tiny xorshift generator (no crates).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn distance_sum(p: &Position) -> u64 {
    // D of the contract: White on rank q counts size + 1 - q, Black on rank q counts q.
    let size = p.size() as u64;
    let mut d = 0;
    for (f, r) in p.squares() {
        if let Some((c, h)) = p.get((f, r)) {
            let q = r as u64 + 1;
            d += h as u64 * if c == Color::White { size + 1 - q } else { q };
        }
    }
    d
}

/// The contract's characterisation of a stuck player: every stack of his has both
/// diagonally-forward neighbours on the board, each holding an enemy stack of height >= 2.
fn stuck_by_characterisation(p: &Position, me: Color) -> bool {
    let size = p.size() as isize;
    for (f, r) in p.squares() {
        if let Some((c, _)) = p.get((f, r)) {
            if c != me {
                continue;
            }
            for df in [-1isize, 1] {
                let nf = f as isize + df;
                let nr = r as isize + me.forward();
                if nf < 0 || nf >= size || nr < 0 || nr >= size {
                    return false;
                }
                match p.get((nf as usize, nr as usize)) {
                    Some((c2, e)) if c2 != me && e >= 2 => {}
                    _ => return false,
                }
            }
        }
    }
    true
}

/// Checks every invariant the contract states on one position (independently of the
/// generator's loops where possible).
fn check_position(c: &mut Checker, pos: &Position) {
    let v = pos.variant;
    let fen = pos.to_fen();
    let size = pos.size();
    let me = pos.to_move;
    // FEN round trip.
    match Position::from_fen(v, &fen) {
        Ok(p) => {
            c.check(p == *pos, format!("FEN {fen} parses to another position"));
            c.eq(p.to_fen(), fen.clone(), "FEN round trip");
        }
        Err(e) => c.check(false, format!("FEN {fen} does not parse back: {e}")),
    }
    let moves = generate(pos);
    let list = legal_moves(v, &fen).unwrap();
    c.eq(list.len(), moves.len(), "legal_moves length equals generate length");
    if pos.is_finished() {
        c.check(moves.is_empty(), format!("finished {fen} has moves"));
        c.check(pos.winner().is_some(), format!("finished {fen} has no winner"));
        return;
    }
    c.check(pos.winner().is_none(), format!("running {fen} has a winner"));
    c.check(!moves.is_empty(), format!("running {fen} has no move, not even pass"));
    let has_pass = moves.iter().any(|(m, _)| *m == Move::Pass);
    if has_pass {
        c.check(moves.len() == 1, format!("{fen}: pass beside other moves"));
    }
    // The contract's argument: a stuck player has enemy stacks of height >= 2 on both of the
    // diagonally-forward neighbours of each of his stacks (a necessary condition only).
    if has_pass {
        c.check(stuck_by_characterisation(pos, me), format!("{fen}: stuck without the characterisation"));
    }
    // Not both stuck.
    let mut other = pos.clone();
    other.to_move = me.opponent();
    let other_passes = generate(&other).iter().any(|(m, _)| *m == Move::Pass);
    c.check(!(has_pass && other_passes), format!("{fen}: both sides stuck"));
    // Distinct texts and distinct positions (edge case 11).
    let text_set: HashSet<String> = list.iter().map(|(m, _)| m.clone()).collect();
    let fen_set: HashSet<String> = list.iter().map(|(_, f)| f.clone()).collect();
    c.eq(text_set.len(), list.len(), &format!("{fen}: distinct move texts"));
    c.eq(fen_set.len(), list.len(), &format!("{fen}: distinct positions after moves"));
    // Exits by the contract's formula.
    let mut exits_seen: BTreeMap<Square, BTreeSet<u32>> = BTreeMap::new();
    let own_before = pos.checkers(me);
    let enemy_before = pos.checkers(me.opponent());
    let d_before = distance_sum(pos);
    for (mv, after) in &moves {
        let text = mv.text();
        let after_fen = after.to_fen();
        // Parser and play agree with the generator.
        c.eq(parse_move(v, &text), Ok(*mv), &format!("{fen}: parse of {text}"));
        c.eq(play(v, &fen, &text), Ok(after_fen.clone()), &format!("{fen}: play {text}"));
        match Position::from_fen(v, &after_fen) {
            Ok(p) => c.eq(p.to_fen(), after_fen.clone(), "FEN-after round trip"),
            Err(e) => c.check(false, format!("FEN after {text} from {fen} does not parse: {e}")),
        }
        c.eq(after.to_move, me.opponent(), "side switches");
        match *mv {
            Move::Pass => {
                c.eq(&after.board, &pos.board, "pass keeps the board");
                // Two passes never follow each other.
                let next = generate(after);
                c.check(!next.iter().any(|(m, _)| *m == Move::Pass), format!("{fen}: pass then pass"));
            }
            Move::Exit { from, k } => {
                exits_seen.entry(from).or_default().insert(k);
                c.eq(after.checkers(me), own_before - k as u64, "exit removes k own checkers");
                c.eq(after.checkers(me.opponent()), enemy_before, "exit keeps enemy checkers");
            }
            Move::Step { from, to } => {
                let df = to.0 as isize - from.0 as isize;
                let dr = to.1 as isize - from.1 as isize;
                let k = df.unsigned_abs().max(dr.unsigned_abs()) as u32;
                c.check(df == 0 || dr == 0 || df.abs() == dr.abs(), format!("{text}: on a line"));
                if df == 0 || dr == 0 {
                    c.check(k.is_multiple_of(2), format!("{fen} {text}: orthogonal with odd k"));
                }
                let (fc, h) = pos.get(from).unwrap();
                c.check(fc == me && k <= h, format!("{fen} {text}: portion fits"));
                c.eq(after.get(from), if h == k { None } else { Some((me, h - k)) }, "rest stays");
                let forward = dr * me.forward() > 0;
                match pos.get(to) {
                    None => {
                        c.check(forward, format!("{fen} {text}: non-forward plain move"));
                        c.eq(after.get(to), Some((me, k)), "plain move result");
                    }
                    Some((tc, g)) if tc == me => {
                        c.check(forward, format!("{fen} {text}: non-forward merge"));
                        c.eq(after.get(to), Some((me, g + k)), "merge result");
                    }
                    Some((_, e)) => {
                        c.check(e <= k, format!("{fen} {text}: capture of a taller stack"));
                        c.eq(after.get(to), Some((me, k)), "capture result");
                        c.eq(after.checkers(me.opponent()), enemy_before - e as u64, "capture removes e");
                    }
                }
                if pos.get(to).is_none_or(|(tc, _)| tc == me) {
                    c.eq(distance_sum(after), d_before - (k * k) as u64, "D falls by k*k");
                }
                c.eq(after.checkers(me), own_before, "step keeps own checkers");
            }
        }
    }
    for (f, r) in pos.squares() {
        if let Some((sc, h)) = pos.get((f, r)) {
            if sc != me {
                continue;
            }
            let a = if me == Color::White { size - 1 - r } else { r };
            let m = 1 + f.min(size - 1 - f).min(a) as u32;
            let want: BTreeSet<u32> = (m..=h).collect();
            let got = exits_seen.get(&(f, r)).cloned().unwrap_or_default();
            c.eq(got, want, &format!("{fen}: exits from {} by formula m", square_name((f, r))));
        }
    }
}

fn random_games(c: &mut Checker, v: Variant, games: u32, rng: &mut Rng) {
    let bound = if v == D { 4246 } else { 14838 };
    for _ in 0..games {
        let mut pos = Position::start(v);
        let mut plies = 0;
        loop {
            check_position(c, &pos);
            let moves = generate(&pos);
            if moves.is_empty() {
                break;
            }
            pos = moves[rng.below(moves.len() as u64) as usize].1.clone();
            plies += 1;
            if plies > bound {
                c.check(false, format!("{} game longer than {bound}", v.name()));
                break;
            }
        }
    }
}

fn random_positions(c: &mut Checker, v: Variant, count: u32, rng: &mut Rng) {
    let size = v.size();
    let cap = v.checkers_per_side();
    let mut stuck = 0;
    let mut done = 0;
    while done < count {
        // Every other position favours forced passes: the side to move has singles only and
        // the enemy has stacks of 2 or more.
        let biased = done % 2 == 1;
        let density =
            if biased { [0, 5, 15][rng.below(3) as usize] } else { [10, 30, 60, 90][rng.below(4) as usize] };
        let max_h = 1 + rng.below(4) as u32;
        let to_move = if rng.below(2) == 0 { Color::White } else { Color::Black };
        let mut pos = Position::start(v);
        pos.board = vec![None; size * size];
        let mut used = [0u64; 2];
        let index = |c: Color| if c == Color::White { 0 } else { 1 };
        if biased {
            // A few singles of the mover away from the side edges and his far rank, each with
            // enemy 2-stacks on its diagonally-forward neighbours: often a forced pass.
            for _ in 0..1 + rng.below(3) {
                let f = 1 + rng.below(size as u64 - 2) as usize;
                let r = rng.below(size as u64) as usize;
                let nr = r as isize + to_move.forward();
                if !(f + r).is_multiple_of(2) || nr < 0 || nr >= size as isize || pos.get((f, r)).is_some() {
                    continue;
                }
                if used[index(to_move)] + 1 > cap {
                    continue;
                }
                used[index(to_move)] += 1;
                pos.set((f, r), Some((to_move, 1)));
                for nf in [f - 1, f + 1] {
                    let e = 2 + rng.below(2) as u32;
                    let en = to_move.opponent();
                    if pos.get((nf, nr as usize)).is_none() && used[index(en)] + e as u64 <= cap {
                        used[index(en)] += e as u64;
                        pos.set((nf, nr as usize), Some((en, e)));
                    }
                }
            }
        }
        for r in 0..size {
            for f in 0..size {
                if (f + r) % 2 != 0 || rng.below(100) >= density || pos.get((f, r)).is_some() {
                    continue;
                }
                let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
                let mut h = 1 + rng.below(max_h as u64) as u32;
                if biased {
                    h = if color == to_move { 1 } else { 2 + rng.below(2) as u32 };
                }
                if used[index(color)] + h as u64 > cap {
                    continue;
                }
                used[index(color)] += h as u64;
                pos.set((f, r), Some((color, h)));
            }
        }
        if used == [0, 0] {
            continue;
        }
        pos.to_move = to_move;
        if generate(&pos).first().is_some_and(|(m, _)| *m == Move::Pass) {
            stuck += 1;
        }
        check_position(c, &pos);
        done += 1;
    }
    // The biased half must really exercise the pass rule (about one position in five does).
    c.check(
        stuck >= count / 20,
        format!("{}: only {stuck} of {count} random positions force a pass", v.name()),
    );
}

fn examples(c: &mut Checker) {
    // ---- Worked example 1: the start position.
    let start = D.start_fen();
    c.eq(start, "3,b12,4/8/8/8/8/8/8/4,w12,3 w", "dipole start FEN");
    c.eq(D10.start_fen(), "5,b20,4/10/10/10/10/10/10/10/10/4,w20,5 w", "dipole10 start FEN");
    let want = with_exits(
        &["e1d2", "e1c3", "e1b4", "e1a5", "e1f2", "e1g3", "e1h4", "e1e3", "e1e5", "e1e7"],
        "e1",
        4..=12,
    );
    c.eq(texts(D, start), want, "ex1: the 19 start moves");
    c.check(play(D, start, "e1d8").is_err(), "ex1: no capture of d8");
    c.eq(play(D, start, "e1e5"), Ok("3,b12,4/8/8/4,w4,3/8/8/8/4,w8,3 b".into()), "ex1: after e1e5");
    c.eq(play(D, start, "e1off5"), Ok("3,b12,4/8/8/8/8/8/8/4,w7,3 b".into()), "ex1: after e1off5");
    let lost = play(D, start, "e1off12").unwrap();
    c.eq(lost.as_str(), "3,b12,4/8/8/8/8/8/8/8 b", "ex1: after e1off12");
    c.eq(finished(D, &lost), (true, Some(Color::Black)), "ex1: e1off12 loses at once");
    c.eq(legal_moves(D, &lost).unwrap().len(), 0, "ex1: no Black answer after e1off12");
    for (mv, after) in legal_moves(D, start).unwrap() {
        let n = legal_moves(D, &after).unwrap().len();
        let want = match mv.as_str() {
            "e1a5" | "e1e7" => 18,
            "e1off12" => 0,
            _ => 19,
        };
        c.eq(n, want, &format!("ex1: Black answers after {mv}"));
    }
    let after_a5 = play(D, start, "e1a5").unwrap();
    c.check(play(D, &after_a5, "d8a5").is_err(), "ex1: no d8a5 after e1a5");
    let after_e7 = play(D, start, "e1e7").unwrap();
    c.check(play(D, &after_e7, "d8e7").is_err(), "ex1: no d8e7 after e1e7");
    let after_f2 = play(D, start, "e1f2").unwrap();
    let black = with_exits(
        &["d8c7", "d8b6", "d8a5", "d8e7", "d8f6", "d8g5", "d8h4", "d8d6", "d8d4", "d8d2"],
        "d8",
        4..=12,
    );
    c.eq(texts(D, &after_f2), black, "ex1: Black's 19 moves after e1f2 (Black moves down)");
    c.eq(perft(D, start, 2), Ok(340), "ex1: perft(2)");
    let order: Vec<String> = legal_moves(D, start).unwrap().into_iter().map(|(m, _)| m).collect();
    let i10 = order.iter().position(|m| m == "e1off10").unwrap();
    let i4 = order.iter().position(|m| m == "e1off4").unwrap();
    c.check(i10 < i4, "notation: e1off10 sorts before e1off4");
    let div = divide(D, start, 2).unwrap();
    c.eq(div.iter().map(|(_, n)| n).sum::<u64>(), 340, "divide(2) sums to perft(2)");

    // ---- Worked example 2: captures.
    let f2 = "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w";
    c.eq(texts(D, f2), set(&["d4c5", "d4e5", "d4b6", "d4d6", "d4f6", "d4b4", "d4f2"]), "ex2: 7 moves");
    c.check(play(D, f2, "d4d2").is_err(), "ex2: no d4d2");
    c.check(play(D, f2, "d4f4").is_err(), "ex2: no d4f4");
    c.check(play(D, f2, "d4off2").is_err(), "ex2: no exit");
    c.eq(play(D, f2, "d4b4"), Ok("8/8/8/8/1,w2,6/8/3,b3,1,b1,2/8 b".into()), "ex2: after d4b4");

    // ---- Worked example 3: merges and exits of several k.
    let f3 = "7,b1/8/8/8/8/2,w1,5/1,w3,6/8 w";
    c.eq(
        texts(D, f3),
        set(&["b2a3", "b2c3", "b2b4", "b2d4", "b2e5", "b2off2", "b2off3", "c3b4", "c3d4"]),
        "ex3: 9 moves",
    );
    c.eq(play(D, f3, "b2c3"), Ok("7,b1/8/8/8/8/2,w2,5/1,w2,6/8 b".into()), "ex3: after b2c3");
    c.eq(play(D, f3, "b2off3"), Ok("7,b1/8/8/8/8/2,w1,5/8/8 b".into()), "ex3: b2off3 takes it all");
    c.check(play(D, f3, "b2off1").is_err(), "ex3: no b2off1 (m = 2)");
    c.check(play(D, f3, "c3b2").is_err(), "ex3: no backward merge c3b2");

    // ---- Worked example 4: an exit next to on-board moves.
    let f4 = "8/8/1,w5,6/8/8/8/7,b1/8 w";
    c.eq(texts(D, f4), with_exits(&["b6a7", "b6c7", "b6b8", "b6d8"], "b6", 2..=5), "ex4: 8 moves");

    // ---- Worked example 5: forced pass.
    let f5 = "8/8/8/2,b2,1,b2,3/3,w1,4/8/8/8 w";
    c.eq(
        legal_moves(D, f5).unwrap(),
        vec![("pass".to_string(), "8/8/8/2,b2,1,b2,3/3,w1,4/8/8/8 b".to_string())],
        "ex5: only pass",
    );
    let f5b = play(D, f5, "pass").unwrap();
    let black5 = texts(D, &f5b);
    c.check(
        black5.contains("c5d4") && !black5.contains("pass"),
        "ex5: Black then has moves, c5d4 among them",
    );
    let won = play(D, &f5b, "c5d4").unwrap();
    c.eq(won.as_str(), "8/8/8/2,b1,1,b2,3/3,b1,4/8/8/8 w", "ex5: after c5d4");
    c.eq(finished(D, &won), (true, Some(Color::Black)), "ex5: c5d4 wins");
    c.eq(perft(D, f5, 1), Ok(1), "edge 12: pass counts as one move");
    c.eq(perft(D, f5, 2), Ok(black5.len() as u64), "edge 12: perft(2) through a pass");

    // ---- Worked example 6: last stack captured.
    let f6 = "8/8/8/8/3,b1,4/2,w1,5/8/8 w";
    c.eq(texts(D, f6), set(&["c3b4", "c3d4"]), "ex6: moves");
    let won = play(D, f6, "c3d4").unwrap();
    c.eq(won.as_str(), "8/8/8/8/3,w1,4/8/8/8 b", "ex6: after c3d4");
    c.eq(finished(D, &won), (true, Some(Color::White)), "ex6: White wins at once");
    c.eq(legal_moves(D, &won).unwrap().len(), 0, "ex6: finished, Black to move, no moves (not even pass)");
    c.eq(perft(D, &won, 1), Ok(0), "edge 12: finished position has 0 moves");

    // ---- Worked example 7: own last checker off.
    let f7 = "7,w1/8/8/8/8/8/8/b1,7 w";
    c.eq(
        legal_moves(D, f7).unwrap(),
        vec![("h8off1".to_string(), "8/8/8/8/8/8/8/b1,7 b".to_string())],
        "ex7: only h8off1",
    );
    c.check(play(D, f7, "h8g7").is_err(), "ex7: no backward move to g7");
    c.eq(finished(D, "8/8/8/8/8/8/8/b1,7 b"), (true, Some(Color::Black)), "ex7: Black has won");

    // ---- Reference counts: dipole10 start.
    let want10 = with_exits(
        &[
            "e1d2", "e1c3", "e1b4", "e1a5", "e1f2", "e1g3", "e1h4", "e1i5", "e1j6", "e1e3", "e1e5", "e1e7",
            "e1e9",
        ],
        "e1",
        5..=20,
    );
    c.eq(texts(D10, D10.start_fen()), want10, "dipole10: the 29 start moves");

    // ---- Decided edge cases with constructed positions.
    // 5. Parity, captures included: straight-backward and sideways captures with even k.
    let p5 = "7,b1/8/8/8/1,b1,1,w3,4/8/3,b2,4/8 w";
    let m5 = texts(D, p5);
    c.check(m5.contains("d4d2") && m5.contains("d4b4"), "edge 5: orthogonal captures with k = 2");
    c.eq(play(D, p5, "d4d2"), Ok("7,b1/8/8/8/1,b1,1,w1,4/8/3,w2,4/8 b".into()), "edge 5: after d4d2");
    // 6. Forward only, except captures: a lone stack never moves sideways or backward.
    let p6 = "7,b1/8/8/8/3,w4,4/8/8/8 w";
    c.eq(
        texts(D, p6),
        with_exits(&["d4c5", "d4e5", "d4b6", "d4d6", "d4f6", "d4a7", "d4g7", "d4d8", "d4h8"], "d4", 4..=4),
        "edge 6: forward only",
    );
    // 7. Size test: a 2-stack next to an enemy single takes it only with its top checker.
    let p7 = "8/8/8/4,b1,3/3,w2,4/8/8/8 w";
    c.eq(play(D, p7, "d4e5"), Ok("8/8/8/4,w1,3/3,w1,4/8/8/8 b".into()), "edge 7: top checker captures");
    c.eq(finished(D, "8/8/8/4,w1,3/3,w1,4/8/8/8 b"), (true, Some(Color::White)), "edge 4/7: capture wins");
    let p7b = "7,b1/8/5,b3,2/8/3,w2,4/8/8/8 w";
    c.check(play(D, p7b, "d4f6").is_err(), "edge 7: k = 2 cannot take a 3-stack");
    let p7c = "7,b1/8/5,b2,2/8/3,w2,4/8/8/8 w";
    c.check(play(D, p7c, "d4f6").is_ok(), "edge 7: k = 2 takes a 2-stack 2 squares away");
    // 8. Whole stacks only: the capturing portion stands alone.
    let p8 = "7,b1/8/5,b2,2/8/3,w3,4/8/8/8 w";
    c.eq(play(D, p8, "d4f6"), Ok("7,b1/8/5,w2,2/8/3,w1,4/8/8/8 b".into()), "edge 8: whole stack captured");
    // 9. No blocking: stacks in between never matter.
    let p9 = "8/8/3,b4,4/2,b4,1,b4,3/3,w4,4/8/8/8 w";
    c.eq(
        texts(D, p9),
        with_exits(&["d4b6", "d4f6", "d4a7", "d4g7", "d4d8", "d4h8"], "d4", 4..=4),
        "edge 9: jumps over stacks of any height",
    );
    // 10. A stack may return to its nearest row by a capture only.
    let p10 = "7,b1/8/8/8/8/2,w2,5/8/b1,7 w";
    c.check(texts(D, p10).contains("c3a1"), "edge 10: capture back onto the nearest row");
    let p10b = "7,b1/8/8/8/8/2,w2,5/8/8 w";
    c.check(!texts(D, p10b).contains("c3a1"), "edge 10: no plain move back onto the nearest row");
    // 10. Black side: backward capture upward, and a tall stack.
    let p10c = "7,b1/8/8/8/8/2,w2,5/8/4,b10,3 b";
    c.check(texts(D, p10c).contains("e1c3"), "Black captures backward (up) with k = 2");
    // 12. Finished FENs are valid whoever is to move.
    for fen in [
        "3,b12,4/8/8/8/8/8/8/8 b",
        "3,b12,4/8/8/8/8/8/8/8 w",
        "8/8/8/8/8/8/8/4,w1,3 w",
        "8/8/8/8/8/8/8/4,w1,3 b",
    ] {
        let p = Position::from_fen(D, fen);
        c.check(
            p.as_ref().is_ok_and(|p| p.is_finished()),
            format!("one-sided FEN {fen} is valid and finished"),
        );
        c.eq(legal_moves(D, fen).map(|l| l.len()), Ok(0), &format!("{fen}: no moves"));
    }
    c.eq(
        Position::from_fen(D, "8/8/8/8/8/8/8/4,w1,3 b").unwrap().winner(),
        Some(Color::White),
        "winner White",
    );
}

fn fen_checks(c: &mut Checker) {
    let bad_d = [
        ("3,b12,4/8/8/8/8/8/8/4,w12,3", "field"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3  w", "field"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3 w ", "field"),
        (" 3,b12,4/8/8/8/8/8/8/4,w12,3 w", "field"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3 w x", "field"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3\tw", "field"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3 W", "side to move"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3 x", "side to move"),
        ("3,b12,4/8/8/8/8/8/8/4,w12,3 ", "side to move"),
        ("3,b12,4/8/8/8/8/8/4,w12,3 w", "ranks"),
        ("3,b12,4/8/8/8/8/8/8/8/4,w12,3 w", "ranks"),
        ("3,b12,3/8/8/8/8/8/8/4,w12,3 w", "squares"),
        ("3,b12,5/8/8/8/8/8/8/4,w12,3 w", "squares"),
        ("3,B12,4/8/8/8/8/8/8/4,w12,3 w", "upper"),
        ("3,b12,4/8/8/8/8/8/8/4,W12,3 w", "upper"),
        ("3,b12,4/0,8/8/8/8/8/8/4,w12,3 w", "zero"),
        ("3,b12,4/8/8/8/8/8/1,w0,6/4,w12,3 w", "zero"),
        ("3,b12,4/08/8/8/8/8/8/4,w12,3 w", "leading zero"),
        ("3,b12,4/8/8/8/8/8/8/4,w012,3 w", "leading zero"),
        ("3,b12,4/+8/8/8/8/8/8/4,w12,3 w", "sign"),
        ("3,b12,4/-8/8/8/8/8/8/4,w12,3 w", "sign"),
        ("3,b12,4/8/8/8/8/8/8/4,w+12,3 w", "digits"),
        ("3,b12,4/8/8/8/8/8/8/4,w-1,3 w", "digits"),
        ("3,,b12,4/8/8/8/8/8/8/4,w12,3 w", "empty"),
        ("3,b12,4//8/8/8/8/8/4,w12,3 w", "empty"),
        ("3,b12,4,/8/8/8/8/8/8/4,w12,3 w", "empty"),
        ("3,b12,1,3/8/8/8/8/8/8/4,w12,3 w", "two numbers"),
        ("3,b12,4/4,4/8/8/8/8/8/4,w12,3 w", "two numbers"),
        ("3,b12,4/9/8/8/8/8/8/4,w12,3 w", "larger than the board"),
        ("3,b12,4/8/8/8/8/8/8/3,w12,4 w", "light square"),
        ("3,b12,4/8/8/8/8/8/8/4,w13,3 w", "more than"),
        ("3,b12,4/8/8/8/8/8/1,w1,6/4,w12,3 w", "more than"),
        ("3,b12,4/8/8/8/8/8/8/4,w99999999999999999999999,3 w", "too large"),
        ("8/8/8/8/8/8/8/8 w", "no checkers"),
        ("3,c12,4/8/8/8/8/8/8/4,w12,3 w", "neither"),
        ("3,b,4/8/8/8/8/8/8/4,w12,3 w", "missing"),
        ("3,b12,4/8/8/8/8/8/8/4;w12;3 w", "digits"),
        ("5,b20,4/10/10/10/10/10/10/10/10/4,w20,5 w", "ranks"),
    ];
    for (fen, keyword) in bad_d {
        match Position::from_fen(D, fen) {
            Ok(_) => c.check(false, format!("bad FEN accepted: {fen:?}")),
            Err(e) => {
                c.check(e.contains(keyword), format!("error for {fen:?} should mention {keyword:?}: {e}"));
            }
        }
    }
    let bad_d10 = [
        ("3,b12,4/8/8/8/8/8/8/4,w12,3 w", "ranks"),
        ("5,b20,4/11/10/10/10/10/10/10/10/4,w20,5 w", "larger than the board"),
        ("5,b20,4/010/10/10/10/10/10/10/10/4,w20,5 w", "leading zero"),
        ("5,b21,4/10/10/10/10/10/10/10/10/4,w20,5 w", "more than"),
        ("5,b20,4/1,9/10/10/10/10/10/10/10/4,w20,5 w", "two numbers"),
        ("4,b20,5/10/10/10/10/10/10/10/10/4,w20,5 w", "light square"),
    ];
    for (fen, keyword) in bad_d10 {
        match Position::from_fen(D10, fen) {
            Ok(_) => c.check(false, format!("bad dipole10 FEN accepted: {fen:?}")),
            Err(e) => {
                c.check(e.contains(keyword), format!("error for {fen:?} should mention {keyword:?}: {e}"));
            }
        }
    }
    c.check(legal_moves(D, "8/8/8/8/8/8/8/8 w").is_err(), "legal_moves rejects a bad FEN");
    c.check(perft(D10, D.start_fen(), 1).is_err(), "perft rejects a FEN of the wrong size");
    // Good FENs round trip.
    let good_d = [
        D.start_fen(),
        "3,b12,4/8/8/4,w4,3/8/8/8/4,w8,3 b",
        "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w",
        "7,b1/8/8/8/8/2,w1,5/1,w3,6/8 w",
        "8/8/1,w5,6/8/8/8/7,b1/8 w",
        "8/8/8/2,b2,1,b2,3/3,w1,4/8/8/8 w",
        "7,w1/8/8/8/8/8/8/b1,7 w",
        "8/8/8/8/8/8/8/4,w1,3 b",
        "1,b1,1,b1,1,b1,1,b1/w1,1,w1,1,w1,1,w1,1/8/8/8/8/8/8 b",
    ];
    for fen in good_d {
        c.eq(Position::from_fen(D, fen).map(|p| p.to_fen()), Ok(fen.to_string()), "FEN round trip");
    }
    let good_d10 = [D10.start_fen(), "9,b1/10/10/10/10/10/10/10/10/w20,9 w"];
    for fen in good_d10 {
        c.eq(
            Position::from_fen(D10, fen).map(|p| p.to_fen()),
            Ok(fen.to_string()),
            "dipole10 FEN round trip",
        );
    }
    c.eq(Variant::from_name("dipole"), Some(D), "from_name dipole");
    c.eq(Variant::from_name("dipole10"), Some(D10), "from_name dipole10");
    c.eq(Variant::from_name("Dipole"), None, "from_name is exact");
    c.eq((D.size(), D10.size()), (8, 10), "sizes");
}

fn notation_checks(c: &mut Checker) {
    let start = D.start_fen();
    for bad in [
        "E1E5", "e1E5", "e1e05", "e01e5", "e1 e5", "e1off", "e1off0", "e1off05", "e1off+5", "e1OFF5",
        "e1of5", "Pass", "pass ", " pass", "", "i1i3", "e9e7", "e0e2", "e1e5e7", "e1", "e1off5x", "1e5",
        "e1-e5",
    ] {
        c.check(parse_move(D, bad).is_err(), format!("parse_move rejects {bad:?}"));
        c.check(play(D, start, bad).is_err(), format!("play rejects {bad:?}"));
    }
    c.eq(
        parse_move(D10, "i1i3"),
        Ok(Move::Step { from: (8, 0), to: (8, 2) }),
        "i1i3 spelled right in dipole10",
    );
    c.eq(parse_move(D10, "f10f8"), Ok(Move::Step { from: (5, 9), to: (5, 7) }), "f10f8 parses");
    c.eq(parse_move(D, "a5off12"), Ok(Move::Exit { from: (0, 4), k: 12 }), "a5off12 parses");
    c.eq(parse_move(D, "pass"), Ok(Move::Pass), "pass parses");
    for illegal in ["e1e4", "e1off3", "e1off13", "pass", "d8d6", "e1e2", "e1f1", "e1d1", "e1g1"] {
        c.check(play(D, start, illegal).is_err(), format!("play rejects the illegal {illegal}"));
    }
    c.eq(play(D10, D10.start_fen(), "e1j6").map(|_| ()), Ok(()), "dipole10: e1j6 legal");
    c.eq(
        play(D10, &play(D10, D10.start_fen(), "e1e3").unwrap(), "f10f8"),
        Ok("5,b18,4/10/5,b2,4/10/10/10/10/4,w2,5/10/4,w18,5 w".into()),
        "dipole10: f10f8 after e1e3",
    );
}

fn perft_checks(c: &mut Checker, deep: bool) {
    let d_counts = [19u64, 340, 5185, 81107, 1321125, 21733653];
    let d10_counts = [29u64, 810, 18120, 410024, 9597852];
    for (v, counts) in [(D, &d_counts[..]), (D10, &d10_counts[..])] {
        let max = if deep { counts.len() } else { counts.len() - 1 };
        for depth in 1..=max {
            let n = perft(v, v.start_fen(), depth as u32).unwrap();
            c.eq(n, counts[depth - 1], &format!("perft {} depth {depth}", v.name()));
        }
    }
}

impl Checker {
    fn new() -> Checker {
        Checker { checks: 0, failures: Vec::new() }
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

#[test]
fn worked_examples_and_edge_cases() {
    let mut c = Checker::new();
    examples(&mut c);
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
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    random_games(&mut c, D, 1000, &mut rng);
    random_games(&mut c, D10, 300, &mut rng);
    random_positions(&mut c, D, 5000, &mut rng);
    random_positions(&mut c, D10, 2000, &mut rng);
    c.finish();
}

#[test]
fn perft_of_the_start_positions() {
    let mut c = Checker::new();
    perft_checks(&mut c, false);
    c.finish();
}

#[test]
#[ignore = "a few seconds: dipole perft 6 and dipole10 perft 5"]
fn deep_perft_of_the_start_positions() {
    let mut c = Checker::new();
    perft_checks(&mut c, true);
    c.finish();
}
