//! The game record: a PGN-like text, one game after another, that any game can be replayed
//! and checked from.
//!
//! ```text
//! [Event "steere match"]
//! [Variant "impasse"]
//! [Game "3"]
//! [Round "2.1"]
//! [White "deep"]
//! [Black "shallow"]
//! [WhiteSettings "depth=4"]
//! [BlackSettings "depth=1 option.Hash=16"]
//! [FEN "1W1b1W1b/b1W1b1W1/8/8/8/2w5/1B3B1w/w1B1w1B1 b"]
//! [Plies "87"]
//! [Result "1-0"]
//! [Reason "normal: white removed all its checkers"]
//!
//! 1... g7c3 {0.004s d4 cp18} 2. a1b2 {0.001s d1 cp-6} g7f6 {0.005s d4 cp25} ...
//! 1-0
//! ```
//!
//! - Tag lines `[Key "Value"]` (`\"` and `\\` escape a quote and a backslash). `Variant` names
//!   the game (`steere variants`; a record without it is Impasse). `Game` numbers
//!   the games of the match from 1; `Round` is `PAIR.N`: the opening pair and the game in it
//!   (the second game has the colours swapped). `FEN` is the opening, `Plies` the number of
//!   moves played, `Result` `1-0` (White, the first player, won), `0-1` (Black won) or
//!   `1/2-1/2` (a draw: games that can repeat a position, such as HexDame).
//! - `Reason` is `CATEGORY: detail`, the category one of [`Category`]'s labels: `normal` (the
//!   winner removed all his checkers), `illegal move`, `garbage` (a `bestmove` that is not a
//!   move), `time forfeit`, `timeout` (no answer where no clock applies), `crash`, `protocol`
//!   (a `bestmove` that answers no `go`, or output flooded faster than it can be read). Apart from
//!   `normal`, the loser is the side to move after the recorded moves (or, for a fault
//!   before the first move, the side named in the detail), and the faulty move is not among the
//!   moves. A draw's reason is `repetition` (the final position occurred for the third time)
//!   or `draw cap` (the runner's cap for endless games, `--draw-reversible-plies` and
//!   `--draw-max-plies`, whose values the detail states).
//! - Then a blank line and the moves, each followed by a comment `{TIME [dDEPTH] [cpX|mateN]}`:
//!   the time the move took in seconds and what the engine's last `info` line said.
//!   Move numbers `N.` (White) and `N...` (Black moves first) count full moves from the
//!   opening. The result token ends the game; a blank line separates games.

use super::{Category, Expected, MatchRecord, Outcome};
use crate::game::{GameHistory, Player, Rules, rules};
use crate::tools::matches::referee::{Log, Refereed, timing::MoveTiming};
use crate::variants::{self, Variant};
use std::fmt::Write as _;
use std::time::Duration;

/// One move as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move text.
    pub text: String,
    /// The time it took.
    pub time: Duration,
    /// The depth the engine reported.
    pub depth: Option<u32>,
    /// The score the engine reported (`cp 18`, `mate -3`).
    pub score: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The variant's name.
    pub variant: &'static str,
    /// The game's number in the match, from 1.
    pub number: u64,
    /// The opening pair, from 1.
    pub pair: u64,
    /// 1 or 2: the game within the pair.
    pub game_in_pair: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's settings (time control, options).
    pub white_settings: String,
    /// Black's settings.
    pub black_settings: String,
    /// The opening position.
    pub fen: String,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// The player who moved first from the opening.
    pub first_to_move: Player,
    /// Who won (`P1`: White); `None` for a draw or an unfinished game (the category tells).
    pub winner: Option<Player>,
    /// How the game ended.
    pub category: Category,
    /// The detail of the ending.
    pub detail: String,
    /// The timing of every move made under a clock or a move time, by the seat that made it
    /// (0: White), the move that lost on time included (not written to the record text).
    pub timings: Vec<(usize, MoveTiming)>,
}

impl GameRecord {
    /// `1-0`, `0-1`, `1/2-1/2` for a draw, or `*` for an unfinished game.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Player::P1) => "1-0",
            Some(Player::P2) => "0-1",
            None if self.category.is_draw() => "1/2-1/2",
            None => "*",
        }
    }

    /// The record text of this game, ending with a blank line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let tags = [
            ("Event", "steere match".to_string()),
            ("Variant", self.variant.to_string()),
            ("Game", self.number.to_string()),
            ("Round", format!("{}.{}", self.pair, self.game_in_pair)),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("WhiteSettings", self.white_settings.clone()),
            ("BlackSettings", self.black_settings.clone()),
            ("FEN", self.fen.clone()),
            ("Plies", self.moves.len().to_string()),
            ("Result", self.result().to_string()),
            ("Reason", format!("{}: {}", self.category.label(), self.detail)),
        ];
        for (key, value) in tags {
            write_tag(&mut out, key, &value);
        }
        out.push('\n');
        let black_first = self.first_to_move == Player::P2;
        let mut line = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + usize::from(black_first);
            let mut token = String::new();
            if ply.is_multiple_of(2) {
                let _ = write!(token, "{}. ", ply / 2 + 1);
            } else if i == 0 {
                let _ = write!(token, "{}... ", ply / 2 + 1);
            }
            let _ = write!(token, "{} {{{:.3}s", mv.text, mv.time.as_secs_f64());
            if let Some(d) = mv.depth {
                let _ = write!(token, " d{d}");
            }
            if let Some(score) = &mv.score {
                let _ = write!(token, " {}", score.replace(' ', ""));
            }
            token.push('}');
            if !line.is_empty() && line.len() + token.len() + 1 > 100 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(self.result());
        out.push_str("\n\n");
        out
    }
}

/// How every record of the file begins (its first tag line), which `--resume` looks for to
/// drop a last record cut short.
pub const RECORD_START: &str = "[Event \"";

// The PGN-like encoding of a game of two seats: seat 0 is White, the first game of a pair
// (rotation 0) has engine 1 White.
impl MatchRecord for GameRecord {
    const START: &'static str = RECORD_START;

    fn from_log<G: Rules>(variant: Variant<G>, log: Log) -> GameRecord {
        // A board game has no rule options (a record of one would need its own tags).
        let variant = variant.name();
        let detail = match log.forfeit {
            Some(seat) => format!("{}: {}", rules::seat_name::<G>(seat), log.detail),
            None => log.detail,
        };
        let [white, black]: [String; 2] = log.names.try_into().expect("two seats");
        let [white_settings, black_settings]: [String; 2] = log.settings.try_into().expect("two seats");
        GameRecord {
            variant,
            number: log.id.number,
            pair: log.id.deal + 1,
            game_in_pair: log.id.rotation as u32 + 1,
            white,
            black,
            white_settings,
            black_settings,
            fen: log.start,
            first_to_move: Player::of_seat(log.first_to_move),
            moves: log
                .steps
                .into_iter()
                .filter_map(|step| step.reply)
                .map(|r| PlayedMove { text: r.bestmove, time: r.elapsed, depth: r.depth, score: r.score })
                .collect(),
            winner: log.winner.map(Player::of_seat),
            category: log.category,
            detail,
            timings: log.timings,
        }
    }

    fn text(&self) -> String {
        self.to_text()
    }

    fn number(&self) -> Option<u64> {
        self.number.checked_sub(1)
    }

    // A fault loses the game for the side that committed it, the loser.
    fn outcome(&self) -> Outcome<'_> {
        Outcome {
            deal: self.pair - 1,
            rotation: self.game_in_pair as usize - 1,
            winner: self.winner.map(Player::index),
            category: Some(self.category),
            forfeit: self.winner.filter(|_| self.category.is_fault()).map(|w| w.opponent().index()),
            steps: self.moves.len() as u64,
            turns: self.moves.len() as u64,
            timings: &self.timings,
        }
    }

    /// Reads the games (what the tally counts: numbers, result, reason, moves, opening and
    /// settings).
    fn read(text: &str, variant: &'static str) -> Result<Vec<GameRecord>, String> {
        let mut records = Vec::new();
        for parsed in parse_records(text)? {
            let tag = |key: &str| parsed.tag(key).unwrap_or("").to_string();
            let number: u64 =
                tag("Game").parse().map_err(|_| format!("a game with Game tag '{}'", tag("Game")))?;
            if number == 0 {
                return Err("a game numbered 0 (games count from 1)".to_string());
            }
            let winner = match parsed.result.as_str() {
                "1-0" => Some(Player::P1),
                "0-1" => Some(Player::P2),
                "1/2-1/2" => None,
                other => return Err(format!("game {number}: result '{other}' is not a finished game")),
            };
            let reason = tag("Reason");
            let label = reason.split(':').next().unwrap_or("").trim();
            let category = Category::from_label(label)
                .filter(|c| c.is_draw() == winner.is_none() && *c != Category::Unfinished)
                .ok_or_else(|| {
                    format!("game {number}: reason '{reason}' does not fit result {}", parsed.result)
                })?;
            let moves = parsed
                .moves
                .iter()
                .map(|m| PlayedMove { text: m.clone(), time: Duration::ZERO, depth: None, score: None })
                .collect();
            records.push(GameRecord {
                variant,
                number,
                pair: (number - 1) / 2 + 1,
                game_in_pair: ((number - 1) % 2 + 1) as u32,
                white: tag("White"),
                black: tag("Black"),
                white_settings: tag("WhiteSettings"),
                black_settings: tag("BlackSettings"),
                fen: tag("FEN"),
                moves,
                first_to_move: Player::P1,
                winner,
                category,
                detail: reason,
                timings: Vec::new(),
            });
            let variant_tag = parsed.tag("Variant").unwrap_or(crate::variants::DEFAULT_VARIANT);
            if variant_tag != variant {
                return Err(format!("game {number} is a game of {variant_tag}, not {variant}"));
            }
        }
        Ok(records)
    }

    /// Checks the opening and the settings of the engine on each side.
    fn check(&self, expected: &Expected) -> Result<(), String> {
        if self.fen != expected.start {
            return Err(format!("its opening is {}, this match's is {}", self.fen, expected.start));
        }
        let sides = [("White", &self.white_settings), ("Black", &self.black_settings)];
        for ((side, settings), given) in sides.into_iter().zip(&expected.settings) {
            if settings != given {
                return Err(format!("{side} played with '{settings}', this match gives '{given}'"));
            }
        }
        Ok(())
    }
}

/// A game read back from a record file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedGame {
    /// The tags in file order.
    pub tags: Vec<(String, String)>,
    /// The moves.
    pub moves: Vec<String>,
    /// The time of each move, from its comment (`None` without one).
    pub times: Vec<Option<Duration>>,
    /// Each move's comment, without its braces (`None` without one).
    pub comments: Vec<Option<String>>,
    /// The result token that ended the game.
    pub result: String,
}

impl ParsedGame {
    /// The value of a tag.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Replays the game with the rules of its `Variant` (Impasse without one) from its `FEN`
    /// tag and checks it against its `Result` and `Reason`: a `normal` game must end with the
    /// recorded winner having won; any other ending must leave a game in progress. Returns the
    /// final position.
    pub fn replay(&self) -> Result<Replayed, String> {
        let variant = self.tag("Variant").unwrap_or(variants::DEFAULT_VARIANT);
        crate::with_variant!(variant, |variant, search| replay(self, variant, search))?
    }
}

/// The end of a replayed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The final position.
    pub fen: String,
    /// The player to move in it.
    pub to_move: Player,
    /// The winner, when the rules have decided.
    pub winner: Option<Player>,
}

/// [`ParsedGame::replay`] with the rules of the game's variant (a board game's: the search
/// `S` tells).
fn replay<G: Rules, S: Refereed<G>>(
    game: &ParsedGame,
    variant: Variant<G>,
    _: S,
) -> Result<Replayed, String> {
    if S::DICE {
        return Err(format!("{} is a dice game, and this works with board games only", variant.name()));
    }
    let fen = game.tag("FEN").ok_or("no FEN tag")?;
    let start = variant.parse_fen(fen).map_err(|e| format!("FEN: {e}"))?;
    let mut history = GameHistory::new(start);
    for (i, text) in game.moves.iter().enumerate() {
        if history.is_threefold() {
            return Err(format!("move {}: the game was already drawn by threefold repetition", i + 1));
        }
        let mv = history.current().parse_step(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        history.play(mv);
    }
    let pos = *history.current();
    let (winner, drawn) = match game.result.as_str() {
        "1-0" => (Some(Player::P1), false),
        "0-1" => (Some(Player::P2), false),
        "1/2-1/2" => (None, true),
        "*" => (None, false),
        other => return Err(format!("result '{other}' is not 1-0, 0-1, 1/2-1/2 or *")),
    };
    if game.tag("Result") != Some(game.result.as_str()) {
        return Err(format!("the Result tag disagrees with the result token {}", game.result));
    }
    let reason = game.tag("Reason").ok_or("no Reason tag")?;
    let label = reason.split(':').next().unwrap_or("");
    let category = Category::from_label(label).ok_or_else(|| format!("unknown reason '{label}'"))?;
    let name = rules::player_name::<G>;
    let decided = rules::winner(&pos).map(Player::of_seat);
    if drawn != category.is_draw() {
        return Err(format!("result '{}' with reason '{}'", game.result, category.label()));
    }
    if category == Category::Repetition && !history.is_threefold() {
        return Err(format!("a draw by repetition, but {} has not occurred three times", pos.fen()));
    }
    match (category, decided) {
        (Category::Normal, Some(w)) if Some(w) == winner => {}
        (Category::Normal, _) => {
            let winner = winner.map_or("nobody", name);
            return Err(format!(
                "a normal ending, but the final position {} is not won by {winner}",
                pos.fen()
            ));
        }
        (Category::Unfinished, None) if winner.is_none() => {}
        (c, None) if c.is_draw() => {}
        (_, None) if winner.is_none() => {
            return Err("result '*' but the reason is not 'unfinished'".to_string());
        }
        (_, None) => {}
        (_, Some(w)) => {
            return Err(format!("a {} ending, but {} had already won", category.label(), name(w)));
        }
    }
    Ok(Replayed { fen: pos.fen(), to_move: Player::of_seat(pos.to_move()), winner: decided })
}

/// Reads every game of a record file.
pub fn parse_records(text: &str) -> Result<Vec<ParsedGame>, String> {
    let mut games = Vec::new();
    let mut game = ParsedGame::default();
    let mut in_moves = false;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = |e: String| format!("line {}: {e}", number + 1);
        if line.is_empty() {
            continue;
        }
        if !in_moves && line.starts_with('[') {
            game.tags.push(parse_tag(line).map_err(at)?);
            continue;
        }
        in_moves = true;
        for piece in movetext(line) {
            let token = match piece.map_err(at)? {
                Movetext::Token(token) => token,
                Movetext::Comment(comment) => {
                    if let Some(last) = game.times.last_mut() {
                        *last = comment.split_whitespace().next().and_then(parse_time);
                    }
                    if let Some(last) = game.comments.last_mut() {
                        *last = Some(comment.to_string());
                    }
                    continue;
                }
            };
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                game.result = token.to_string();
                games.push(std::mem::take(&mut game));
                in_moves = false;
            } else if !token.ends_with('.') {
                game.moves.push(token.to_string());
                game.times.push(None);
                game.comments.push(None);
            }
        }
    }
    if in_moves || !game.tags.is_empty() {
        return Err("the last game has no result".to_string());
    }
    Ok(games)
}

/// A piece of a movetext line: a token (a move, an event, a move number, a result), or a
/// comment without its braces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movetext<'a> {
    /// Text up to the next space or `{`.
    Token(&'a str),
    /// The text between `{` and `}`.
    Comment(&'a str),
}

/// The pieces of one movetext line in order (the movetext of every record, match or GUI); an
/// unterminated comment is an error, and the last piece.
pub fn movetext(line: &str) -> impl Iterator<Item = Result<Movetext<'_>, String>> {
    let mut rest = line;
    std::iter::from_fn(move || {
        rest = rest.trim_start();
        if rest.is_empty() {
            return None;
        }
        if let Some(comment) = rest.strip_prefix('{') {
            let Some(end) = comment.find('}') else {
                rest = "";
                return Some(Err("unterminated comment".to_string()));
            };
            rest = &comment[end + 1..];
            return Some(Ok(Movetext::Comment(&comment[..end])));
        }
        let end = rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
        let (token, after) = rest.split_at(end);
        rest = after;
        Some(Ok(Movetext::Token(token)))
    })
}

/// Writes the tag line `[Key "Value"]`, escaping a quote and a backslash in the value as `\"` and
/// `\\` (the tag lines of every record, match or GUI).
pub fn write_tag(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "[{key} \"{}\"]", value.replace('\\', "\\\\").replace('"', "\\\""));
}

/// Reads a tag line `[Key "Value"]` with `\"` and `\\` escapes (as [`write_tag`] writes it).
pub fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner =
        line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or("a tag must be [Key \"Value\"]")?;
    let (key, value) = inner.split_once(' ').ok_or("a tag must be [Key \"Value\"]")?;
    let quoted = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or("a tag value must be quoted")?;
    let mut text = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        text.push(if c == '\\' { chars.next().unwrap_or('\\') } else { c });
    }
    Ok((key.to_string(), text))
}

/// `0.101s` as a duration.
fn parse_time(text: &str) -> Option<Duration> {
    let seconds: f64 = text.strip_suffix('s')?.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back() {
        let record = GameRecord {
            number: 3,
            pair: 2,
            game_in_pair: 1,
            white: "a \"quoted\" name".to_string(),
            black: "b".to_string(),
            white_settings: "depth=1".to_string(),
            black_settings: "depth=1".to_string(),
            variant: "impasse",
            fen: crate::impasse::START_FEN.to_string(),
            first_to_move: Player::P1,
            moves: vec![
                PlayedMove {
                    text: "d2e3".into(),
                    time: Duration::from_millis(101),
                    depth: Some(4),
                    score: Some("cp 18".into()),
                },
                PlayedMove { text: "b2f6".into(), time: Duration::from_millis(2), depth: None, score: None },
            ],
            winner: Some(Player::P2),
            category: Category::IllegalMove,
            detail: "white sent 'a1a1'".to_string(),
            timings: Vec::new(),
        };
        let text = record.to_text();
        assert!(text.contains("1. d2e3 {0.101s d4 cp18} b2f6 {0.002s}\n0-1\n"), "{text}");
        let games = parse_records(&format!("{text}{text}")).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec!["d2e3", "b2f6"]);
        assert_eq!(games[0].times[0], Some(Duration::from_millis(101)));
        assert_eq!(games[0].tag("White"), Some("a \"quoted\" name"));
        assert!(games[0].replay().is_ok());
        assert!(parse_records("[Event \"x\"]\n\n1. d2e3").is_err());
    }

    #[test]
    fn a_drawn_game_reads_back() {
        // docs/rules/hexdame.md, example 13: drawn by repetition after ply 8.
        let moves = ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];
        let record = GameRecord {
            variant: "hexdame",
            number: 1,
            pair: 1,
            game_in_pair: 1,
            white: "a".to_string(),
            black: "b".to_string(),
            white_settings: String::new(),
            black_settings: String::new(),
            fen: "W:WKa1:BKi9".to_string(),
            first_to_move: Player::P1,
            moves: moves
                .iter()
                .map(|m| PlayedMove { text: m.to_string(), time: Duration::ZERO, depth: None, score: None })
                .collect(),
            winner: None,
            category: Category::Repetition,
            detail: "W:WKa1:BKi9 occurred for the third time".to_string(),
            timings: Vec::new(),
        };
        let games = parse_records(&record.to_text()).unwrap();
        assert_eq!((games.len(), games[0].result.as_str(), games[0].moves.len()), (1, "1/2-1/2", 8));
        assert_eq!(games[0].replay().unwrap().winner, None);
    }
}
