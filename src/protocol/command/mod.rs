//! Parsing one input line into a [`Command`]: a pure function, no I/O, no engine state.
//!
//! [`parse_bytes`] takes the raw bytes of a line (as read from stdin, possibly invalid UTF-8),
//! decodes them lossily and strips the line end; [`parse_line`] does the rest. Neither panics
//! on any input (a proptest below feeds them arbitrary bytes), and every rejection is an
//! [`ParseError`] value whose `Display` is one line.
//!
//! The grammar is the one of `docs/protocol.md`. Following the UCI specification ("if the
//! engine receives an unknown command or token it should just ignore it and try to parse the
//! rest of the line"), unknown tokens before the command word and unknown tokens inside a
//! command are skipped and listed in [`Parsed::warnings`]; a malformed *value* (`go depth x`,
//! `perft -1`) rejects the whole line instead, because acting on half of a command (a `go`
//! without its intended limit could search forever) is worse than not acting.
//!
//! Only the syntax is checked here. Whether a FEN describes a reachable position, a move is
//! legal or an option value in range is the engine state's business (the rules and the option
//! table know), so this module never depends on them.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

/// Which dialect the GUI spoke in its handshake: the engine answers in the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `uci`, answered by `uciok`.
    Uci,
    /// `ugi`, answered by `ugiok`.
    Ugi,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`: the start position of the game.
    StartPos,
    /// `fen F`: the FEN text, its fields joined by single spaces.
    Fen(String),
}

/// The parameters of a `go` command, as given (times in milliseconds, negative times as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `wtime` or `p1time`: White's (the first player's) clock.
    pub wtime: Option<Duration>,
    /// `btime` or `p2time`: Black's clock.
    pub btime: Option<Duration>,
    /// `winc` or `p1inc`: White's increment per move.
    pub winc: Option<Duration>,
    /// `binc` or `p2inc`: Black's increment per move.
    pub binc: Option<Duration>,
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `movetime`: think exactly this long.
    pub movetime: Option<Duration>,
    /// `depth`: iterations (plies) to complete.
    pub depth: Option<u32>,
    /// `nodes`: nodes to search.
    pub nodes: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search in the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `mate N`: stop once a win in at most N own moves is proven.
    pub mate: Option<u32>,
    /// `searchmoves M...`: search only these moves (as written; read in the position at `go`).
    pub searchmoves: Vec<String>,
}

/// A `query` question (UGI, plus `fen` and `islegal`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover`: has the game ended?
    GameOver,
    /// `query p1turn`: is it the first player's (White's) turn?
    P1Turn,
    /// `query turn`: whose turn it is, `p1` to `p4`.
    Turn,
    /// `query result`: `p1win`, `p2win` or `none`.
    Result,
    /// `query fen`: the FEN of the current position.
    Fen,
    /// `query islegal M`: is the move text legal in the current position?
    IsLegal(String),
}

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci` or `ugi`: identify the engine and list its options.
    Hello(Dialect),
    /// `isready`: answer `readyok` once every earlier command is processed.
    IsReady,
    /// `debug on|off`.
    Debug(bool),
    /// `setoption name N [value V]`; the name and value may contain spaces.
    SetOption {
        /// The option name, its words joined by single spaces.
        name: String,
        /// The value, its words joined by single spaces; `None` for a button.
        value: Option<String>,
    },
    /// `ucinewgame` or `uginewgame`: forget everything learnt.
    NewGame,
    /// `position startpos|fen F [moves M...]`.
    Position {
        /// The position the moves start from.
        start: StartPosition,
        /// The moves to play from it, as text.
        moves: Vec<String>,
    },
    /// `go ...`: search the current position.
    Go(GoParams),
    /// `stop`: end the search and answer `bestmove` now.
    Stop,
    /// `ponderhit`: the expected move was played; the pondering search goes on as a normal one.
    PonderHit,
    /// `query Q`: answer `response ...`.
    Query(Query),
    /// `d`: draw the board, FEN, side to move and legal moves.
    Display,
    /// `perft N`: count the move sequences of length N (per root move, then the total).
    Perft(u32),
    /// `bench [D]`: search the bench positions to depth D (default: `steere bench`'s).
    Bench(Option<u32>),
    /// `quit`: end the engine.
    Quit,
}

/// A successfully parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The command.
    pub command: Command,
    /// One message per skipped token (reported with `info string`, otherwise ignored).
    pub warnings: Vec<String>,
}

/// Why a line was not turned into a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line is blank (ignored silently, as UCI engines do).
    Empty,
    /// No token of the line is a command.
    UnknownCommand(String),
    /// A keyword that needs a value is the last token.
    MissingValue {
        /// The command (`go`, `perft`, ...).
        command: &'static str,
        /// The keyword missing its value.
        keyword: String,
    },
    /// A value that cannot be read.
    BadValue {
        /// The command.
        command: &'static str,
        /// The keyword the value belongs to.
        keyword: String,
        /// The value as given (shortened for display).
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// Any other malformed command, with a description.
    Syntax {
        /// The command.
        command: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::UnknownCommand(token) => write!(f, "unknown command {}", quote(token)),
            ParseError::MissingValue { command, keyword } => {
                write!(f, "{command}: {} needs a value", quote(keyword))
            }
            ParseError::BadValue { command, keyword, value, expected } => {
                write!(f, "{command}: {} {}: expected {expected}", quote(keyword), quote(value))
            }
            ParseError::Syntax { command, message } => write!(f, "{command}: {message}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Every token quoted in a message goes through the crate's one quoting rule.
pub use crate::quote::quote;

/// Decodes the raw bytes of one line (invalid UTF-8 becomes U+FFFD), strips the line end
/// (`\n`, `\r\n` or a lone `\r`) and parses it.
pub fn parse_bytes(bytes: &[u8]) -> Result<Parsed, ParseError> {
    let text: Cow<'_, str> = String::from_utf8_lossy(bytes);
    parse_line(text.trim_end_matches(['\n', '\r']))
}

/// Parses one line (without its line end).
pub fn parse_line(line: &str) -> Result<Parsed, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Err(ParseError::Empty);
    }
    // UCI: skip unknown leading tokens and parse the rest of the line ("joho debug on").
    let Some(start) = tokens.iter().position(|t| is_command_word(t)) else {
        return Err(ParseError::UnknownCommand(tokens[0].to_string()));
    };
    let mut warnings: Vec<String> =
        tokens[..start].iter().map(|t| format!("unknown token {} ignored", quote(t))).collect();
    let (word, args) = (tokens[start], &tokens[start + 1..]);
    let command = match word {
        "uci" => Command::Hello(Dialect::Uci),
        "ugi" => Command::Hello(Dialect::Ugi),
        "isready" => Command::IsReady,
        "ucinewgame" | "uginewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "debug" => parse_debug(args)?,
        "setoption" => parse_setoption(args)?,
        "position" => parse_position(args, &mut warnings)?,
        "go" => Command::Go(parse_go(args, &mut warnings)?),
        "query" => parse_query(args)?,
        "perft" => Command::Perft(parse_single_number("perft", args, "depth")?),
        "bench" => Command::Bench(parse_optional_number("bench", args)?),
        _ => unreachable!("is_command_word lists every command word"),
    };
    // Commands without arguments ignore (and report) whatever follows them.
    if matches!(
        command,
        Command::Hello(_)
            | Command::IsReady
            | Command::NewGame
            | Command::Stop
            | Command::PonderHit
            | Command::Quit
            | Command::Display
    ) {
        warnings.extend(args.iter().map(|t| format!("unknown token {} ignored", quote(t))));
    }
    Ok(Parsed { command, warnings })
}

/// True for the first word of a command.
fn is_command_word(token: &str) -> bool {
    matches!(
        token,
        "uci"
            | "ugi"
            | "isready"
            | "debug"
            | "setoption"
            | "ucinewgame"
            | "uginewgame"
            | "position"
            | "go"
            | "stop"
            | "ponderhit"
            | "query"
            | "d"
            | "perft"
            | "bench"
            | "quit"
    )
}

fn parse_debug(args: &[&str]) -> Result<Command, ParseError> {
    match args {
        ["on"] => Ok(Command::Debug(true)),
        ["off"] => Ok(Command::Debug(false)),
        [] => Err(ParseError::Syntax { command: "debug", message: "expected 'on' or 'off'".into() }),
        [value, ..] => Err(ParseError::BadValue {
            command: "debug",
            keyword: "debug".into(),
            value: value.to_string(),
            expected: "'on' or 'off' and nothing after it",
        }),
    }
}

/// `setoption name N... [value V...]`: the words between `name` and `value` are the name.
fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let syntax = |message: &str| ParseError::Syntax { command: "setoption", message: message.to_string() };
    match args.first() {
        Some(&"name") => {}
        Some(other) => return Err(syntax(&format!("expected 'name', found {}", quote(other)))),
        None => return Err(syntax("expected 'name N [value V]'")),
    }
    let rest = &args[1..];
    let (name, value) = match rest.iter().position(|&t| t == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(syntax("the option name is missing"));
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

/// `position startpos|fen F... [moves M...]`: the FEN is every word up to `moves`.
fn parse_position(args: &[&str], warnings: &mut Vec<String>) -> Result<Command, ParseError> {
    let syntax = |message: String| ParseError::Syntax { command: "position", message };
    let moves_at = args.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], args[i + 1..].iter().map(|m| m.to_string()).collect()),
        None => (args, Vec::new()),
    };
    let start = match head.first() {
        Some(&"startpos") => {
            warnings.extend(head[1..].iter().map(|t| format!("unknown token {} ignored", quote(t))));
            StartPosition::StartPos
        }
        Some(&"fen") if head.len() > 1 => StartPosition::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err(syntax("'fen' needs a FEN".into())),
        Some(other) => return Err(syntax(format!("expected 'startpos' or 'fen', found {}", quote(other)))),
        None => return Err(syntax("expected 'startpos' or 'fen FEN'".into())),
    };
    Ok(Command::Position { start, moves })
}

/// The keywords of `go` and their values; unknown tokens are skipped with a warning.
fn parse_go(args: &[&str], warnings: &mut Vec<String>) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        let value = args.get(i + 1).copied();
        let needs_value = || ParseError::MissingValue { command: "go", keyword: keyword.to_string() };
        match keyword {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "wtime" | "p1time" | "btime" | "p2time" | "winc" | "p1inc" | "binc" | "p2inc" | "movetime" => {
                let ms = parse_millis(keyword, value.ok_or_else(needs_value)?)?;
                let slot = match keyword {
                    "wtime" | "p1time" => &mut go.wtime,
                    "btime" | "p2time" => &mut go.btime,
                    "winc" | "p1inc" => &mut go.winc,
                    "binc" | "p2inc" => &mut go.binc,
                    _ => &mut go.movetime,
                };
                *slot = Some(ms);
                i += 1;
            }
            "movestogo" | "depth" => {
                let n = parse_number::<u32>("go", keyword, value.ok_or_else(needs_value)?)?;
                if keyword == "depth" {
                    go.depth = Some(n)
                } else {
                    go.movestogo = Some(n)
                }
                i += 1;
            }
            "nodes" => {
                go.nodes = Some(parse_number::<u64>("go", keyword, value.ok_or_else(needs_value)?)?);
                i += 1;
            }
            "mate" => {
                let n = parse_number::<u32>("go", keyword, value.ok_or_else(needs_value)?)?;
                if n == 0 {
                    return Err(ParseError::BadValue {
                        command: "go",
                        keyword: keyword.to_string(),
                        value: "0".to_string(),
                        expected: "a number of moves, at least 1",
                    });
                }
                go.mate = Some(n);
                i += 1;
            }
            // The moves run to the next keyword (a move is never spelt like one).
            "searchmoves" => {
                while let Some(&mv) = args.get(i + 1).filter(|t| !is_go_keyword(t)) {
                    go.searchmoves.push(mv.to_string());
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    warnings.push("go: 'searchmoves' without moves is ignored".to_string());
                }
            }
            other => warnings.push(format!("go: unknown token {} ignored", quote(other))),
        }
        i += 1;
    }
    Ok(go)
}

/// True for the keywords that may follow `go`.
fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "infinite"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "p1time"
            | "p2time"
            | "p1inc"
            | "p2inc"
            | "movetime"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "searchmoves"
    )
}

/// A time in milliseconds. Negative values are read as 0: some GUIs send a negative clock once
/// the time is used up, and the engine should then move at once rather than refuse to move.
fn parse_millis(keyword: &str, value: &str) -> Result<Duration, ParseError> {
    let ms = parse_number::<i64>("go", keyword, value)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

/// A number of type `T`, or a [`ParseError::BadValue`] naming the command and keyword.
fn parse_number<T: std::str::FromStr>(
    command: &'static str,
    keyword: &str,
    value: &str,
) -> Result<T, ParseError> {
    value.parse::<T>().map_err(|_| ParseError::BadValue {
        command,
        keyword: keyword.to_string(),
        value: value.to_string(),
        expected: "a whole number in range",
    })
}

/// The one number argument of `perft N` (required).
fn parse_single_number(command: &'static str, args: &[&str], what: &'static str) -> Result<u32, ParseError> {
    match args {
        [] => Err(ParseError::MissingValue { command, keyword: what.to_string() }),
        [value] => parse_number(command, what, value),
        [_, extra, ..] => Err(ParseError::Syntax {
            command,
            message: format!("unexpected {} after the {what}", quote(extra)),
        }),
    }
}

/// The optional number argument of `bench [D]`.
fn parse_optional_number(command: &'static str, args: &[&str]) -> Result<Option<u32>, ParseError> {
    if args.is_empty() { Ok(None) } else { parse_single_number(command, args, "depth").map(Some) }
}

fn parse_query(args: &[&str]) -> Result<Command, ParseError> {
    let syntax = |message: String| ParseError::Syntax { command: "query", message };
    let query = match args {
        [] => return Err(syntax("expected gameover, p1turn, result, fen or islegal M".into())),
        ["gameover"] => Query::GameOver,
        ["p1turn"] => Query::P1Turn,
        ["turn"] => Query::Turn,
        ["result"] => Query::Result,
        ["fen"] => Query::Fen,
        ["islegal", mv] => Query::IsLegal(mv.to_string()),
        ["islegal"] => return Err(syntax("islegal needs a move".into())),
        [other] => return Err(syntax(format!("unknown query {}", quote(other)))),
        [first, extra, ..] => {
            return Err(syntax(format!("unexpected {} after {}", quote(extra), quote(first))));
        }
    };
    Ok(Command::Query(query))
}

#[cfg(test)]
mod tests;
