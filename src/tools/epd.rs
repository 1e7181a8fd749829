//! EPD-style test positions: one position per line with the expectations a solver checks.
//!
//! A line is a FEN (the board and the side to move, as in each game's rules document) followed
//! by operations, each an opcode and its operands, separated by `;`:
//!
//! ```text
//! 8/8/5b2/8/8/8/3w4/B7 w bm d2c3 d2e3; win 3; id "eg-001"; c0 "two pieces each"
//! ```
//!
//! | opcode        | operands            | meaning                                                |
//! |---------------|---------------------|--------------------------------------------------------|
//! | `bm`          | one or more moves   | best moves: the move found must be one of them         |
//! | `am`          | one or more moves   | moves to avoid: the move found must be none of them    |
//! | `win`         | N >= 1              | the side to move wins in exactly N of its own moves     |
//! | `loss`        | N >= 0              | the side to move loses in exactly N of its own moves    |
//! | `draw`        | none                | neither side can force a win (games with draws)         |
//! | `id`          | a string            | the position's name                                    |
//! | `variant`     | a variant name      | the game of this line (default: the file's, see below) |
//! | `c0` .. `c9`  | a string            | comments                                               |
//!
//! N counts the side to move's own moves with best play (shortest win, longest resistance), as
//! UCI's `score mate N` does: in Impasse a win in N own moves takes `2N - 1` plies, a loss in N
//! own moves `2N` plies (the opponent's winning move is the last). In Dipole a player can also
//! lose on his own move (by moving his last checkers off the board), so a win in N own moves
//! takes `2N - 1` or `2N` plies and a loss `2N - 1` or `2N`: N is the plies halved, rounded up.
//! `loss 0` is a finished game. `draw` (HexDame) says that with best play the game never ends
//! in a win: the loser of a `win N` line is the one who cannot avoid it, so a drawn position is
//! one where each side can avoid losing for ever (and the game ends by repetition).
//!
//! **Variants.** A file is Impasse unless it says otherwise: a comment line `# variant: NAME`
//! switches the game of the lines that follow it, and a `variant NAME` operation sets the game
//! of its own line. [`super::epd_file::sections`] splits a file into runs of lines of one game,
//! without parsing the positions; [`parse_line`] then reads a line with the rules of its game.
//!
//! Moves are in the game's notation and are read in the context of the position, so an
//! illegal move is an error. Strings are written in double quotes (a quoted string may hold
//! `;`); a one-word string may go without them. A `;` before the first operation (as in
//! `positions/impasse-perft.epd`) and after the last are allowed. Lines that are blank or start with `#`
//! hold no position. Unknown opcodes are errors rather than silently ignored: a misspelt
//! expectation must not turn into a test that always passes.
//!
//! [`parse_line`] is a pure function that never panics (a proptest below feeds it arbitrary
//! strings); its error messages name the opcode or operand at fault but not the line number,
//! which the caller ([`parse_text`]) adds.

use crate::game::BoardRules;
use crate::quote::{move_error_text, quote};
use crate::search::Score;
use crate::variants::Variant;
use std::fmt;

/// The largest N accepted in `win N` / `loss N` (a game lasts at most about 1,740 plies).
pub const MAX_MOVES_TO_END: u32 = 1_000;

/// An exact game value in the side to move's own moves, as written in `win N` / `loss N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expectation {
    /// The side to move wins with its N-th move at the earliest (N >= 1).
    Win(u32),
    /// The opponent wins with his N-th move at the latest, whatever the side to move does.
    Loss(u32),
    /// Neither side can force a win (games with draws: HexDame).
    Draw,
}

impl Expectation {
    /// The length of the game to its end in plies (moves of either side): `2N - 1` for a win,
    /// `2N` for a loss; a drawn game has no end (0).
    pub const fn plies(self) -> u32 {
        match self {
            Expectation::Win(n) => 2 * n - 1,
            Expectation::Loss(n) => 2 * n,
            Expectation::Draw => 0,
        }
    }

    /// The exact value a proven search score stands for (`None` for a heuristic score).
    pub fn from_score(score: Score) -> Option<Expectation> {
        let mate = score.uci_mate()?;
        Some(match score {
            Score::Win(_) => Expectation::Win(mate.unsigned_abs()),
            _ => Expectation::Loss(mate.unsigned_abs()),
        })
    }
}

impl fmt::Display for Expectation {
    /// `win N`, `loss N` or `draw`, as in the EPD line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expectation::Win(n) => write!(f, "win {n}"),
            Expectation::Loss(n) => write!(f, "loss {n}"),
            Expectation::Draw => f.write_str("draw"),
        }
    }
}

/// One test position and its expectations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry<G: BoardRules> {
    /// The position.
    pub position: G,
    /// `bm`: the move found must be one of these (empty: no such expectation).
    pub best_moves: Vec<G::Move>,
    /// `am`: the move found must be none of these.
    pub avoid_moves: Vec<G::Move>,
    /// `win N` / `loss N` / `draw`: the exact value.
    pub value: Option<Expectation>,
    /// `id`: the name of the position.
    pub id: Option<String>,
    /// `c0` .. `c9`: comments, by number, in the order given.
    pub comments: Vec<(u8, String)>,
}

impl<G: BoardRules> EpdEntry<G> {
    /// An entry with no expectation.
    pub fn new(position: G) -> EpdEntry<G> {
        EpdEntry {
            position,
            best_moves: Vec::new(),
            avoid_moves: Vec::new(),
            value: None,
            id: None,
            comments: Vec::new(),
        }
    }
}

impl<G: BoardRules> fmt::Display for EpdEntry<G> {
    /// The canonical line: `FEN bm ..; am ..; win N; id "..."; c0 "..."` (only the operations
    /// present), which [`parse_line`] reads back to an equal entry.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = |list: &[G::Move]| list.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        let mut ops = Vec::new();
        if !self.best_moves.is_empty() {
            ops.push(format!("bm {}", moves(&self.best_moves)));
        }
        if !self.avoid_moves.is_empty() {
            ops.push(format!("am {}", moves(&self.avoid_moves)));
        }
        if let Some(value) = self.value {
            ops.push(value.to_string());
        }
        if let Some(id) = &self.id {
            ops.push(format!("id \"{id}\""));
        }
        for (n, text) in &self.comments {
            ops.push(format!("c{n} \"{text}\""));
        }
        write!(f, "{}", self.position.fen())?;
        if !ops.is_empty() {
            write!(f, " {};", ops.join("; "))?;
        }
        Ok(())
    }
}

/// Parses one line with the rules of `variant`. `Ok(None)` for a blank line or a `#` comment;
/// an error message (without the line number) for a malformed line. Never panics.
pub fn parse_line<G: BoardRules>(variant: Variant<G>, line: &str) -> Result<Option<EpdEntry<G>>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    // The FEN is the game's number of fields; the last may be followed directly by a `;`.
    let mut fields = Vec::with_capacity(G::FEN_FIELDS);
    let mut rest = line;
    for i in 0..G::FEN_FIELDS {
        let last = i + 1 == G::FEN_FIELDS;
        let (field, after) = split_word(rest.trim_start(), |c| c.is_whitespace() || (last && c == ';'));
        if field.is_empty() {
            return Err(format!(
                "{} is not a FEN of {}: expected {} fields",
                quote(&fields.join(" ")),
                variant.name(),
                G::FEN_FIELDS
            ));
        }
        fields.push(field);
        rest = after;
    }
    let position = variant.parse_fen(&fields.join(" "))?;
    let mut entry = EpdEntry::new(position);
    for op in split_operations(rest)? {
        apply_operation(variant, &mut entry, &op)?;
    }
    check_consistency(&entry)?;
    Ok(Some(entry))
}

/// Parses every line of `text` with the rules of `variant`; returns the 1-based line number
/// and the result of each line that is not blank or a comment.
pub fn parse_text<G: BoardRules>(
    variant: Variant<G>,
    text: &str,
) -> Vec<(usize, Result<EpdEntry<G>, String>)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| match parse_line(variant, line) {
            Ok(None) => None,
            Ok(Some(entry)) => Some((i + 1, Ok(entry))),
            Err(e) => Some((i + 1, Err(e))),
        })
        .collect()
}

/// Splits `text` at the first character matching `end`: the word before it and the rest.
fn split_word(text: &str, end: impl Fn(char) -> bool) -> (&str, &str) {
    match text.char_indices().find(|&(_, c)| end(c)) {
        Some((i, _)) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

/// One operation: the opcode and its operands (quotes removed; `quoted` says which were quoted).
struct Operation {
    opcode: String,
    operands: Vec<(String, bool)>,
}

/// Splits the operations part of a line at the `;` outside quotes and tokenises each one.
fn split_operations(text: &str) -> Result<Vec<Operation>, String> {
    let mut ops = Vec::new();
    let mut tokens: Vec<(String, bool)> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut finish = |tokens: &mut Vec<(String, bool)>| {
        let mut it = std::mem::take(tokens).into_iter();
        if let Some((opcode, quoted)) = it.next() {
            if quoted {
                return Err(format!(
                    "an operation starts with the string {}; expected an opcode",
                    quote(&opcode)
                ));
            }
            ops.push(Operation { opcode, operands: it.collect() });
        }
        Ok(())
    };
    while let Some(c) = chars.next() {
        if c == ';' {
            finish(&mut tokens)?;
        } else if c == '"' {
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => s.push(c),
                    None => {
                        return Err(format!("unterminated string {}: a closing '\"' is missing", quote(&s)));
                    }
                }
            }
            tokens.push((s, true));
        } else if !c.is_whitespace() {
            let mut word = String::from(c);
            while let Some(&next) = chars.peek() {
                if next.is_whitespace() || next == ';' || next == '"' {
                    break;
                }
                word.push(next);
                chars.next();
            }
            tokens.push((word, false));
        }
    }
    finish(&mut tokens)?;
    Ok(ops)
}

/// Records one operation in `entry`, checking its operands.
fn apply_operation<G: BoardRules>(
    variant: Variant<G>,
    entry: &mut EpdEntry<G>,
    op: &Operation,
) -> Result<(), String> {
    let code = op.opcode.as_str();
    let single = || match op.operands.as_slice() {
        [(text, _)] => Ok(text.clone()),
        [] => Err(format!("{code}: missing operand")),
        _ => Err(format!(
            "{code}: expected one operand, got {} (quote a string with spaces)",
            op.operands.len()
        )),
    };
    match code {
        "bm" | "am" => {
            let list = if code == "bm" { &entry.best_moves } else { &entry.avoid_moves };
            if !list.is_empty() {
                return Err(format!("{code} is given twice"));
            }
            if op.operands.is_empty() {
                return Err(format!("{code}: expected at least one move"));
            }
            let mut moves = Vec::with_capacity(op.operands.len());
            for (text, quoted) in &op.operands {
                if *quoted {
                    return Err(format!(
                        "{code}: {} is a string; moves are written without quotes",
                        quote(text)
                    ));
                }
                let mv = entry
                    .position
                    .parse_step(text)
                    .map_err(|e| format!("{code}: {}", move_error_text(&e)))?;
                if !moves.contains(&mv) {
                    moves.push(mv);
                }
            }
            if code == "bm" { entry.best_moves = moves } else { entry.avoid_moves = moves }
        }
        "draw" => {
            if entry.value.is_some() {
                return Err("draw: the value is already given (one of win N, loss N or draw)".to_string());
            }
            if !op.operands.is_empty() {
                return Err("draw takes no operand".to_string());
            }
            entry.value = Some(Expectation::Draw);
        }
        "win" | "loss" => {
            if entry.value.is_some() {
                return Err(format!("{code}: the value is already given (one of win N, loss N or draw)"));
            }
            let text = single()?;
            let n: u32 = text.parse().ok().filter(|&n| n <= MAX_MOVES_TO_END).ok_or_else(|| {
                format!("{code}: {} is not a number of moves (0 to {MAX_MOVES_TO_END})", quote(&text))
            })?;
            entry.value = Some(if code == "win" { Expectation::Win(n) } else { Expectation::Loss(n) });
        }
        "variant" => {
            // The line's game was chosen from this operation (see `sections`); it must agree.
            let name = single()?;
            if !name.eq_ignore_ascii_case(variant.name()) {
                return Err(format!("variant {}: this line is read as {}", quote(&name), variant.name()));
            }
        }
        "id" => {
            if entry.id.is_some() {
                return Err("id is given twice".to_string());
            }
            entry.id = Some(single()?);
        }
        _ => match comment_number(code) {
            Some(n) => {
                if entry.comments.iter().any(|(m, _)| *m == n) {
                    return Err(format!("{code} is given twice"));
                }
                entry.comments.push((n, single()?));
            }
            None => {
                return Err(format!(
                    "unknown opcode {} (known: bm, am, win, loss, draw, id, variant, c0 to c9)",
                    quote(code)
                ));
            }
        },
    }
    Ok(())
}

/// `Some(n)` for the comment opcodes `c0` .. `c9`.
fn comment_number(code: &str) -> Option<u8> {
    match code.as_bytes() {
        [b'c', d @ b'0'..=b'9'] => Some(d - b'0'),
        _ => None,
    }
}

/// Rejects expectations that the rules alone show impossible, so that a typo in a suite is
/// reported instead of turning into a position that can never pass.
fn check_consistency<G: BoardRules>(entry: &EpdEntry<G>) -> Result<(), String> {
    let outcome = entry.position.outcome();
    let over = outcome.is_some();
    if outcome == Some(crate::game::Outcome::Win) && entry.value.is_some() {
        return Err("the game is over and the side to move has won: no value applies".to_string());
    }
    match entry.value {
        Some(Expectation::Win(0)) => return Err("win 0: a win takes at least one move".to_string()),
        Some(Expectation::Win(n)) if over => {
            return Err(format!("win {n}: the game is over and the side to move has lost"));
        }
        Some(Expectation::Loss(n)) if over && n != 0 => {
            return Err(format!("loss {n}: the game is over (loss 0)"));
        }
        Some(Expectation::Loss(0)) if !over => {
            return Err("loss 0: the game is not over (loss 0 is a finished game)".to_string());
        }
        Some(Expectation::Draw) if over => {
            return Err("draw: the game is over and the side to move has lost".to_string());
        }
        _ => {}
    }
    if let Some(mv) = entry.best_moves.iter().find(|m| entry.avoid_moves.contains(m)) {
        return Err(format!("{mv} is both a best move (bm) and a move to avoid (am)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impasse::{Move, Position};
    use crate::variants;
    use proptest::prelude::*;

    const FEN: &str = "8/8/5b2/8/8/8/3w4/B7 w";

    fn impasse() -> Variant<Position> {
        Variant { info: variants::find("impasse").unwrap(), params: () }
    }

    fn parse(line: &str) -> Result<EpdEntry<Position>, String> {
        parse_line(impasse(), line).map(|e| e.expect("a position"))
    }

    #[test]
    fn reads_every_operation() {
        let e = parse(&format!("{FEN} bm d2c3 d2e3; am d2h6; win 3; id \"eg 1; x\"; c0 \"a comment\"; c7 x"))
            .unwrap();
        assert_eq!(e.position, Position::from_fen(FEN).unwrap());
        let names: Vec<String> = e.best_moves.iter().map(Move::to_string).collect();
        assert_eq!(names, ["d2c3", "d2e3"]);
        assert_eq!(e.avoid_moves.iter().map(Move::to_string).collect::<Vec<_>>(), ["d2h6"]);
        assert_eq!(e.value, Some(Expectation::Win(3)));
        assert_eq!(e.id.as_deref(), Some("eg 1; x"));
        assert_eq!(e.comments, [(0, "a comment".to_string()), (7, "x".to_string())]);
    }

    #[test]
    fn accepts_the_separator_styles() {
        for line in [
            format!("{FEN} ;bm d2c3 ;loss 2"),
            format!("{FEN};bm d2c3;loss 2;"),
            format!("  {FEN}   bm  d2c3 ;  loss 2 ; ;"),
        ] {
            let e = parse(&line).unwrap();
            assert_eq!((e.best_moves.len(), e.value), (1, Some(Expectation::Loss(2))), "{line}");
        }
        assert_eq!(parse(FEN).unwrap(), EpdEntry::new(Position::from_fen(FEN).unwrap()));
    }

    #[test]
    fn reads_draws_and_writes_them_back() {
        let hexdame =
            Variant::<crate::hexdame::Position> { info: variants::find("hexdame").unwrap(), params: () };
        let line = "W:WKa1:BKi9 bm a1-a2 a1-b1; draw; id \"kk\"";
        let entry = parse_line(hexdame, line).unwrap().unwrap();
        assert_eq!((entry.value, entry.best_moves.len()), (Some(Expectation::Draw), 2));
        assert_eq!(parse_line(hexdame, &entry.to_string()).unwrap().unwrap(), entry);
        assert!(entry.to_string().contains("; draw;"), "{entry}");
        let over = parse_line(hexdame, "W:Wc3:Bc4,c5,d3,d4,e3,e5 draw").unwrap_err();
        assert!(over.contains("the game is over"), "{over}");
    }

    #[test]
    fn skips_blank_lines_and_comments() {
        for line in ["", "   ", "# a comment", "  # bm d2c3"] {
            assert_eq!(parse_line(impasse(), line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn rejects_malformed_lines_with_a_reason() {
        let cases = [
            ("8/8/8 w", "ranks"),
            ("8/8/5b2/8/8/8/3w4/B7", "expected 2 fields"),
            (&format!("{FEN} bm"), "at least one move"),
            (&format!("{FEN} bm d2d4"), "illegal move 'd2d4'"),
            (&format!("{FEN} bm z9"), "malformed move"),
            (&format!("{FEN} bm \"d2c3\""), "without quotes"),
            (&format!("{FEN} bm d2c3; bm d2e3"), "twice"),
            (&format!("{FEN} win 3; loss 2"), "already given"),
            (&format!("{FEN} win 3; draw"), "already given"),
            (&format!("{FEN} draw; loss 2"), "already given"),
            (&format!("{FEN} draw 3"), "no operand"),
            (&format!("{FEN} win x"), "not a number"),
            (&format!("{FEN} win -1"), "not a number"),
            (&format!("{FEN} win 99999999999"), "not a number"),
            (&format!("{FEN} win 0"), "at least one move"),
            (&format!("{FEN} loss 0"), "not over"),
            (&format!("{FEN} win 2 3"), "one operand"),
            (&format!("{FEN} id \"unterminated"), "unterminated"),
            (&format!("{FEN} id"), "missing operand"),
            (&format!("{FEN} \"x\" y"), "expected an opcode"),
            (&format!("{FEN} mb d2c3"), "unknown opcode 'mb'"),
            (&format!("{FEN} bm d2c3; am d2c3"), "both"),
            ("8/8/8/8/8/8/8/b7 b win 1", "game is over"),
            ("8/8/8/8/8/8/8/b7 b loss 1", "loss 0"),
        ];
        for (line, reason) in cases {
            let err = parse(line).expect_err(line);
            assert!(err.contains(reason), "{line}: {err}");
        }
        assert!(parse("8/8/8/8/8/8/8/b7 b loss 0").is_ok());
    }

    #[test]
    fn expectations_count_own_moves() {
        assert_eq!(Expectation::Win(3).plies(), 5);
        assert_eq!(Expectation::Loss(2).plies(), 4);
        assert_eq!(Expectation::from_score(Score::Win(5)), Some(Expectation::Win(3)));
        assert_eq!(Expectation::from_score(Score::Win(1)), Some(Expectation::Win(1)));
        assert_eq!(Expectation::from_score(Score::Loss(4)), Some(Expectation::Loss(2)));
        assert_eq!(Expectation::from_score(Score::Loss(0)), Some(Expectation::Loss(0)));
        assert_eq!(Expectation::from_score(Score::Heuristic(40)), None);
        for e in [Expectation::Win(1), Expectation::Win(7), Expectation::Loss(0), Expectation::Loss(6)] {
            let score = match e {
                Expectation::Win(_) => Score::Win(e.plies()),
                Expectation::Loss(_) | Expectation::Draw => Score::Loss(e.plies()),
            };
            assert_eq!(Expectation::from_score(score), Some(e));
        }
    }

    #[test]
    fn line_numbers_count_every_line() {
        let text = format!("# header\n\n{FEN} win 3\n{FEN} bm x\n{FEN}; id y\n");
        let parsed = parse_text(impasse(), &text);
        assert_eq!(parsed.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [3, 4, 5]);
        assert!(parsed[0].1.is_ok() && parsed[1].1.is_err() && parsed[2].1.is_ok());
    }

    #[test]
    fn a_variant_operation_must_agree_with_the_line_s_game() {
        let dipole = Variant::<crate::dipole::Position> {
            info: variants::find("dipole").unwrap(),
            params: crate::dipole::Variant::Dipole,
        };
        let line = "3,b12,4/8/8/8/8/8/8/4,w12,3 w; variant dipole; am e1e2";
        assert!(parse_line(dipole, line).unwrap_err().contains("am: illegal"));
        let line = "3,b12,4/8/8/8/8/8/8/4,w12,3 w variant dipole10";
        assert!(parse_line(dipole, line).unwrap_err().contains("read as dipole"));
    }

    proptest! {
        #[test]
        fn never_panics_on_arbitrary_text(line in any::<String>()) {
            let _ = parse_line(impasse(), &line);
        }

        #[test]
        fn never_panics_on_near_miss_lines(ops in "[ ;\"a-h1-9bmwinlosdc#-]{0,40}") {
            let _ = parse_line(impasse(), &format!("{FEN} {ops}"));
            let _ = parse_line(impasse(), &format!("{FEN}{ops}"));
        }

        #[test]
        fn a_displayed_entry_reads_back_equal(
            bm in proptest::collection::vec(0usize..8, 0..3),
            value in proptest::option::of((any::<bool>(), 1u32..50)),
            id in proptest::option::of("[a-z0-9 ;-]{0,12}"),
            comment in proptest::option::of("[A-Za-z ;.]{0,20}"),
        ) {
            let pos = Position::from_fen(FEN).unwrap();
            let legal = pos.legal_moves();
            let mut entry = EpdEntry::new(pos);
            for i in bm {
                let mv = legal[i % legal.len()];
                if !entry.best_moves.contains(&mv) {
                    entry.best_moves.push(mv);
                }
            }
            entry.value = value.map(|(win, n)| if win { Expectation::Win(n) } else { Expectation::Loss(n) });
            entry.id = id;
            entry.comments = comment.into_iter().map(|c| (0, c)).collect();
            prop_assert_eq!(parse(&entry.to_string()), Ok(entry));
        }
    }
}
