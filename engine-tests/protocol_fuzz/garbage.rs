//! Garbage: random bytes, invalid UTF-8, control characters, very long tokens, blank lines,
//! unknown commands, numbers out of range, and random misspellings of tokens.
//!
//! The protocol (docs/protocol.md, "Lines") skips unknown words before the command word, so a
//! garbage line that happened to contain a command word (`d`, `go`, `quit`...) as a token would
//! be that command. Garbage is therefore drawn again until no token is a command word, by the
//! documented rule: the line decoded as UTF-8 with U+FFFD for invalid bytes, split at blank
//! space. What is left must give exactly one error (`unknown command`), or none when blank.

use super::common::Rng;
use super::step::Step;

/// The command words of the protocol (docs/protocol.md, "Commands").
pub const COMMAND_WORDS: [&str; 16] = [
    "uci",
    "ugi",
    "isready",
    "debug",
    "setoption",
    "ucinewgame",
    "uginewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "query",
    "d",
    "perft",
    "bench",
    "quit",
];

/// The tokens of a line as the engine reads them.
fn tokens(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).split_whitespace().map(str::to_string).collect()
}

/// Whether the engine would find a command in the line.
pub fn has_command_word(bytes: &[u8]) -> bool {
    tokens(bytes).iter().any(|t| COMMAND_WORDS.contains(&t.as_str()))
}

/// Words that are commands of other protocols, or near misses of ours.
const UNKNOWN_WORDS: [&str; 24] = [
    "register",
    "xboard",
    "protover",
    "usermove",
    "new",
    "eval",
    "flip",
    "help",
    "ucci",
    "ISREADY",
    "Go",
    "Position",
    "QUIT",
    "Stop",
    "D",
    "isready?",
    "go_",
    "quit!",
    "stop.",
    "setoptions",
    "positions",
    "perftt",
    "uciok",
    "readyok",
];

/// Numbers a parser may choke on.
const BAD_NUMBERS: [&str; 10] = [
    "99999999999999999999999",
    "-9223372036854775809",
    "18446744073709551616",
    "-0",
    "1e309",
    "NaN",
    "inf",
    "0x10",
    "+5",
    "1_000",
];

/// A random byte that is not a line end.
fn byte(rng: &mut Rng) -> u8 {
    loop {
        let b = rng.below(256) as u8;
        if b != b'\n' {
            return b;
        }
    }
}

/// One candidate garbage line (it may still contain a command word).
fn candidate(rng: &mut Rng) -> Vec<u8> {
    match rng.below(9) {
        0 => (0..1 + rng.below(120)).map(|_| byte(rng)).collect(),
        1 => {
            let invalid: [&[u8]; 7] = [
                b"\xff",
                b"\xfe\xfd",
                b"\xc3\x28",
                b"\x80\x80",
                b"\xe2\x82",
                b"\xf0\x28\x8c\x28",
                b"\xc0\xaf",
            ];
            let mut line = Vec::new();
            for _ in 0..1 + rng.below(6) {
                line.extend_from_slice(invalid[rng.below(invalid.len())]);
                if rng.below(2) == 0 {
                    line.extend_from_slice(b" x");
                }
            }
            line
        }
        2 => {
            let letter = b"xyzqwk7%"[rng.below(8)];
            vec![letter; 1000 + rng.below(200_000)]
        }
        3 => [&b""[..], b" ", b"   ", b"\t", b"\r", b" \t \r", b"\x0b\x0c"][rng.below(7)].to_vec(),
        4 => {
            let mut words: Vec<&str> = (0..1 + rng.below(3)).map(|_| UNKNOWN_WORDS[rng.below(24)]).collect();
            if rng.below(2) == 0 {
                words.push(BAD_NUMBERS[rng.below(10)]);
            }
            words.join(" ").into_bytes()
        }
        5 => BAD_NUMBERS[rng.below(10)].as_bytes().to_vec(),
        6 => {
            [&b"\0"[..], b"\0\0\0", b"\x07", b"\x1b[2J", b"\x7f", b"\x1b]0;title\x07"][rng.below(6)].to_vec()
        }
        7 => ["\u{1F600}", "\u{feff}isready", "\u{202e}dneppa", "é", "\u{FFFD}", "ｇｏ"][rng.below(6)]
            .as_bytes()
            .to_vec(),
        _ => (0..1 + rng.below(30))
            .map(|_| b"abcdefghijklmnopqrstuvwxyz0123456789-.:,/"[rng.below(41)])
            .collect(),
    }
}

/// A garbage line: no command in it, one `unknown command` error (none if it is blank).
pub fn garbage(rng: &mut Rng) -> Step {
    loop {
        let line = candidate(rng);
        if !has_command_word(&line) {
            let errors = usize::from(!tokens(&line).is_empty());
            return Step::inert(line, errors);
        }
    }
}

/// Up to three unknown leading words, which the engine skips with a warning (not an error).
pub fn junk_prefix(rng: &mut Rng) -> String {
    loop {
        let words: Vec<&str> = (0..1 + rng.below(3)).map(|_| UNKNOWN_WORDS[rng.below(24)]).collect();
        let prefix = words.join(" ");
        if !has_command_word(prefix.as_bytes()) {
            return prefix;
        }
    }
}

/// The characters misspellings are made of: those of every game's notation and a few others.
const NOTATION: &[u8] = b"abcdefghijk0123456789-x.:,/rKWBwbpo+ ";

/// A random misspelling of `token` (which may, by chance, spell another legal move: the
/// reference decides). Never empty, never blank space, never `moves`.
pub fn mutate_token(token: &str, rng: &mut Rng) -> String {
    loop {
        let mut chars: Vec<char> = token.chars().collect();
        let at = rng.below(chars.len().max(1));
        let letter = NOTATION[rng.below(NOTATION.len() - 1)] as char;
        match rng.below(8) {
            0 if !chars.is_empty() => chars[at] = letter,
            1 if chars.len() > 1 => {
                chars.remove(at);
            }
            2 => chars.insert(at, letter),
            3 => chars.extend(token.chars()),
            4 => chars = chars.iter().map(|c| c.to_ascii_uppercase()).collect(),
            5 => chars.reverse(),
            6 => chars.truncate(at.max(1)),
            _ => {
                let foreign = [
                    "e1off5", "a4-a5", "a1xc3", "5.5", "7.11", "r1234", "r7777", "roll", "stop", "pass",
                    "0000", "(none)", "d2e3", "d2f4b6", "b6", "e1e5", "Ka1", "a11a12", "\u{FFFD}",
                ];
                chars = foreign[rng.below(foreign.len())].chars().collect();
            }
        }
        let text: String = chars.into_iter().collect();
        if !text.is_empty() && text != "moves" && !text.chars().any(char::is_whitespace) {
            return text;
        }
    }
}

/// A random misspelling of a FEN: characters changed, dropped, inserted or swapped, a field
/// dropped or added. Whitespace runs are what the engine joins with one space.
pub fn mutate_fen(fen: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    for _ in 0..1 + rng.below(2) {
        let at = rng.below(chars.len());
        let letter = NOTATION[rng.below(NOTATION.len())] as char;
        match rng.below(8) {
            0 => chars[at] = letter,
            1 if chars.len() > 1 => {
                chars.remove(at);
            }
            2 => chars.insert(at, letter),
            3 => {
                let other = rng.below(chars.len());
                chars.swap(at, other);
            }
            4 => chars.truncate(at.max(1)),
            5 => chars.extend(" extra".chars()),
            6 => {
                if let Some(space) = chars.iter().rposition(|c| *c == ' ' || *c == ':') {
                    chars.truncate(space.max(1));
                }
            }
            _ => chars[at] = if chars[at].is_ascii_digit() { '9' } else { '1' },
        }
    }
    let text: String = chars.into_iter().collect();
    let text = text.split_whitespace().filter(|t| *t != "moves").collect::<Vec<_>>().join(" ");
    if text.is_empty() { "x".to_string() } else { text }
}
