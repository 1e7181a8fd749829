//! What the page needs to know of a game's position, computed with the rules of its variant
//! over the one tool-facing trait [`Rules`], whichever the game: the FEN, the seat to move,
//! what comes next (a decision, the dice, nothing), the legal steps' texts, the result, and
//! for every step who made it and whether it was a roll that bust. The page never judges a
//! step itself: it offers exactly the steps listed here, and the server checks again.
//!
//! A position carries no history, so the steps are replayed from the start on every view,
//! through a [`GameHistory`]: in a game that can repeat a position (HexDame) the third
//! occurrence of a position draws the game at once, and no move may follow it. Games between
//! two engines may also end by the match runner's draw cap ([`DrawCap::default_for`]), which
//! is not a rule: [`view_capped`] applies it only when asked. A replay costs well under a
//! millisecond even for a dice game of a thousand events, and it checks every step each time.
//!
//! What differs between the families is asked of the search that plays the variant (the
//! marker bound by [`crate::with_variant`]) through [`Plays`]: the draw cap, the order of the
//! legal steps, the dice games' strategies, and the capabilities ([`Capabilities`]). The JSON
//! the page reads keeps each family's own field names ([`View::page`]).

use crate::game::{BoardRules, ChanceRules, GameHistory, Node, Params, RuleOption, Rules, rules};
use crate::tools::matches::game::DrawCap;
use crate::tools::matches::record::Category;
use crate::variants::{AlphaBeta, Expectimax, Family, Variant};
use serde::Serialize;
use serde_json::{Value, json};

/// The engines' own strategy, their default: the GUI sends no `Strategy` option for it, so
/// that an engine without the option can play too.
pub const SEARCH: &str = "search";

/// What one step of a game was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EventInfo {
    /// The player (from 1) to move when it came: the roller of the dice, or the decider.
    pub player: usize,
    /// Whether it was a roll of the dice (a chance step) rather than a decision.
    pub roll: bool,
    /// Whether it was a roll that bust: no choice, the turn passed with it.
    pub bust: bool,
}

/// A position as the page sees it (serialised as [`View::page`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The variant's family: it says which field names the page reads.
    pub family: Family,
    /// The position's FEN.
    pub fen: String,
    /// The names of the seats, seat 0 first.
    pub seat_names: &'static [&'static str],
    /// The number of players.
    pub players: usize,
    /// The seat (from 0) to move; after the game, the one the FEN names.
    pub to_move: usize,
    /// What comes next.
    pub node: Node,
    /// The legal steps' texts (board games sorted, dice games in the rules' order); empty
    /// once the game is over (a draw included) and at a chance node.
    pub legal: Vec<String>,
    /// The winner's seat, when the game has ended with one.
    pub winner: Option<usize>,
    /// How the game ended, when it has (`white has won: ...`, `draw by threefold repetition`).
    pub result: Option<String>,
    /// How a drawn game was drawn; `None` while the game goes on or after a win.
    pub draw: Option<Category>,
    /// The FEN of every position of the game, the start first and this one last.
    pub history: Vec<String>,
    /// What each step was, in order.
    pub events: Vec<EventInfo>,
}

impl View {
    /// The name of seat `seat` (`white`, `player 2`).
    pub fn seat_name(&self, seat: usize) -> &'static str {
        self.seat_names.get(seat).copied().unwrap_or("a player")
    }

    /// Whether the game has ended (a draw included).
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The position as the page's JSON: a board game names its seats (`to_move: "white"`,
    /// `legal`, `draw`), a dice game numbers them from 1 (`to_move: 2`, `next`, `decisions`,
    /// `events`), as the page's drawing code of each family reads them.
    pub fn page(&self) -> Value {
        match self.family {
            Family::Board => json!({
                "fen": self.fen,
                "to_move": self.seat_name(self.to_move),
                "legal": self.legal,
                "result": self.result,
                "winner": self.winner.map(|seat| self.seat_name(seat)),
                "draw": self.draw.map(Category::label),
                "history": self.history,
            }),
            Family::Dice => json!({
                "fen": self.fen,
                "players": self.players,
                "to_move": self.to_move + 1,
                "next": match self.node {
                    Node::Chance => "dice",
                    Node::Decision => "decision",
                    Node::Over => "over",
                },
                "decisions": self.legal,
                "winner": self.winner.map(|seat| seat + 1),
                "result": self.result,
                "history": self.history,
                "events": self.events,
            }),
        }
    }
}

impl Serialize for View {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.page().serialize(serializer)
    }
}

/// What a variant offers the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The family.
    pub family: Family,
    /// The fewest and the most players.
    pub players: (usize, usize),
    /// The strategies an engine seat may be given: `search`, then the game's fixed players
    /// (none for a board game).
    pub strategies: Vec<&'static str>,
    /// Whether an engine may analyse a position (`go infinite`).
    pub analysable: bool,
    /// Whether the game may go back to an earlier position: a game with dice may not, since
    /// its rolls cannot be rolled again.
    pub rewinds: bool,
    /// Whether engine play is paced, so that a person can follow the engines' turns.
    pub paced: bool,
    /// Whether the rules know drawn games (HexDame's repetition), so that the players may
    /// also agree one; a game whose rules have no draw (Impasse, Dipole) is played out.
    pub draws: bool,
    /// The start position's FEN for the fewest players.
    pub start: String,
    /// The rule options the game offers (the new-game form's choices).
    pub options: &'static [RuleOption],
}

/// What the GUI asks of the search that plays a variant: one answer per family.
pub trait Plays<G: Rules>: Copy {
    /// Whether an engine may analyse a position of the game.
    const ANALYSABLE: bool;
    /// Whether the game may go back to an earlier position.
    const REWINDS: bool;
    /// Whether engine play is paced (dice games: a turn is many quick steps).
    const PACED: bool;
    /// The match runner's draw cap for games between two engines.
    fn draw_cap(self) -> DrawCap;
    /// The legal steps' texts, in the order the page lists them.
    fn legal(self, pos: &G) -> Vec<String>;
    /// The strategies an engine seat may be given.
    fn strategies(self) -> Vec<&'static str>;
}

impl<G: BoardRules> Plays<G> for AlphaBeta {
    const ANALYSABLE: bool = true;
    const REWINDS: bool = true;
    const PACED: bool = false;
    fn draw_cap(self) -> DrawCap {
        DrawCap::default_for::<G>()
    }
    fn legal(self, pos: &G) -> Vec<String> {
        rules::sorted_step_texts(pos)
    }
    fn strategies(self) -> Vec<&'static str> {
        Vec::new()
    }
}

impl<G: ChanceRules> Plays<G> for Expectimax {
    const ANALYSABLE: bool = false;
    // A roll cannot be rolled again.
    const REWINDS: bool = false;
    const PACED: bool = true;
    fn draw_cap(self) -> DrawCap {
        DrawCap::default()
    }
    fn legal(self, pos: &G) -> Vec<String> {
        pos.decisions().iter().map(ToString::to_string).collect()
    }
    fn strategies(self) -> Vec<&'static str> {
        std::iter::once(SEARCH).chain(G::FIXED_PLAYERS.iter().copied()).collect()
    }
}

/// The rule options of a game, as the GUI keeps them: the canonical name and value of each
/// option that differs from its default (none: the base game).
pub type RuleSettings = Vec<(String, String)>;

/// The position of variant `variant` under the rule options `options`, reached from `start`
/// (a FEN, or the start position when `None`) by `steps`, or why there is none (the FEN's
/// error, or the first illegal step: a move after a draw by repetition is one). No draw cap
/// applies.
pub fn view(
    variant: &str,
    options: &[(String, String)],
    start: Option<&str>,
    steps: &[String],
) -> Result<View, String> {
    view_capped(variant, options, start, steps, false)
}

/// [`view`], with the match runner's draw cap for endless games when `cap` is true: the GUI's
/// games between engines, which could shuffle kings for ever. A move after the cap is reached
/// is refused like a move after a draw.
pub fn view_capped(
    variant: &str,
    options: &[(String, String)],
    start: Option<&str>,
    steps: &[String],
    cap: bool,
) -> Result<View, String> {
    crate::with_variant!(variant, |variant, search| {
        replay(under(variant, options)?, search, start, steps, cap)
    })?
}

/// What variant `variant` offers.
pub fn capabilities(variant: &str) -> Result<Capabilities, String> {
    crate::with_variant!(variant, |variant, search| capabilities_of(variant, search))?
}

/// The canonical form of the rule options `given` (names and values in any case) for
/// `variant`: each checked, the defaults left out; the error names the option. Whether they
/// suit a number of players is [`start_fen`]'s to check.
pub fn rule_settings(variant: &str, given: &[(String, String)]) -> Result<RuleSettings, String> {
    crate::with_variant!(variant, |variant, _search| canonical(variant, given))?
}

/// The start of `variant` under `options` for `players` players (refused outside the game's
/// range or where the options are not offered for that many) or, when `fen` is given, that
/// position (whose player count must be `players`); returns its FEN.
pub fn start_fen(
    variant: &str,
    options: &[(String, String)],
    players: usize,
    fen: Option<&str>,
) -> Result<String, String> {
    crate::with_variant!(variant, |variant, _search| start_of(under(variant, options)?, players, fen))?
}

/// The roll of the dice (the step's text) in the position `fen` for the random number
/// `value`: the `value % total`-th of the game's equally likely elementary outcomes.
pub fn roll(variant: &str, options: &[(String, String)], fen: &str, value: u64) -> Result<String, String> {
    crate::with_variant!(variant, |variant, _search| roll_in(under(variant, options)?, fen, value))?
}

/// `variant` under the rule options `options`.
fn under<G: Rules>(variant: Variant<G>, options: &[(String, String)]) -> Result<Variant<G>, String> {
    Ok(Variant { params: rules::with_settings(variant.params, options)?, ..variant })
}

fn canonical<G: Rules>(variant: Variant<G>, given: &[(String, String)]) -> Result<RuleSettings, String> {
    let params = rules::with_settings(variant.params, given)?;
    let defaults = variant.params.option_values();
    let values = params.option_values().into_iter().filter(|pair| !defaults.contains(pair));
    Ok(values.map(|(name, value)| (name.to_string(), value.to_string())).collect())
}

fn replay<G: Rules, S: Plays<G>>(
    variant: Variant<G>,
    search: S,
    start: Option<&str>,
    steps: &[String],
    cap: bool,
) -> Result<View, String> {
    let family = variant.info.family;
    let start = match start {
        Some(fen) => variant.parse_fen(fen)?,
        None => variant.start(),
    };
    let cap = if cap { search.draw_cap() } else { DrawCap::default() };
    let mut game = GameHistory::new(start);
    let mut history = vec![start.fen()];
    let mut events = Vec::with_capacity(steps.len());
    let (mut reversible, mut drawn) = (0, None);
    for (i, text) in steps.iter().enumerate() {
        // Board games number their moves, dice games their events (and quote them).
        let at = |e: &str| match family {
            Family::Board => format!("move {}: {e}", i + 1),
            Family::Dice => format!("event {} ({text}): {e}", i + 1),
        };
        drawn = draw(&game, &cap, i, reversible);
        if let Some((_, why)) = &drawn {
            return Err(at(&format!("the game is already over: {why}")));
        }
        let pos = *game.current();
        let step = pos.parse_step(text).map_err(|e| at(&e.to_string()))?;
        reversible = if pos.may_recur_after(step) { reversible + 1 } else { 0 };
        let roll = pos.node() == Node::Chance;
        game.play(step);
        // A roll that leaves no decision passed the turn: the roll bust.
        let bust = roll && game.current().node() != Node::Decision;
        events.push(EventInfo { player: pos.to_move() + 1, roll, bust });
        history.push(game.current().fen());
    }
    if drawn.is_none() {
        drawn = draw(&game, &cap, steps.len(), reversible);
    }
    let pos = *game.current();
    Ok(View {
        family,
        fen: pos.fen(),
        seat_names: G::SEAT_NAMES,
        players: pos.players(),
        to_move: pos.to_move(),
        node: pos.node(),
        // A decided game has no steps anyway; a drawn one keeps its pieces' moves, which may
        // no longer be played.
        legal: if drawn.is_some() { Vec::new() } else { search.legal(&pos) },
        winner: rules::winner(&pos),
        result: pos.ending().or_else(|| drawn.as_ref().map(|(_, why)| why.clone())),
        draw: drawn.map(|(category, _)| category),
        history,
        events,
    })
}

/// Whether the game of `history` (after `plies` steps, the last `reversible` of them
/// reversible) is drawn, how (the record's category) and why (the page's result line). A won
/// position is never drawn: it ends the game the first time it occurs.
fn draw<G: Rules>(
    history: &GameHistory<G>,
    cap: &DrawCap,
    plies: usize,
    reversible: u32,
) -> Option<(Category, String)> {
    if history.current().result().is_some() {
        return None;
    }
    if history.is_threefold() {
        return Some((Category::Repetition, "draw by threefold repetition".to_string()));
    }
    // The cap's fields are public; its own test (`DrawCap::reached`) is private to the match
    // runner, so the same two comparisons are made here.
    if let Some(n) = cap.reversible_plies.filter(|&n| reversible >= n) {
        return Some((
            Category::DrawCap,
            format!("draw by the draw cap of engine games: {n} plies in a row without an irreversible move"),
        ));
    }
    let n = cap.max_plies.filter(|&n| plies as u32 >= n)?;
    Some((Category::DrawCap, format!("draw by the draw cap of engine games: {n} plies played")))
}

fn capabilities_of<G: Rules, S: Plays<G>>(variant: Variant<G>, search: S) -> Result<Capabilities, String> {
    let (fewest, most) = (*G::PLAYERS.start(), *G::PLAYERS.end());
    Ok(Capabilities {
        family: variant.info.family,
        players: (fewest, most),
        strategies: search.strategies(),
        analysable: S::ANALYSABLE,
        rewinds: S::REWINDS,
        paced: S::PACED,
        draws: G::DRAWS_BY_REPETITION,
        start: start_of(variant, fewest, None)?,
        options: G::Params::RULE_OPTIONS,
    })
}

fn start_of<G: Rules>(variant: Variant<G>, players: usize, fen: Option<&str>) -> Result<String, String> {
    let range = G::PLAYERS;
    if !range.contains(&players) {
        return Err(format!(
            "{} is played by {} to {} players, not {players}",
            variant.name(),
            range.start(),
            range.end()
        ));
    }
    let Some(fen) = fen else { return Ok(G::start(variant.params.with_players(players)?).fen()) };
    let pos = variant.parse_fen(fen)?;
    if pos.players() != players {
        return Err(format!(
            "the FEN is a game of {} players, and {players} seats were chosen",
            pos.players()
        ));
    }
    Ok(pos.fen())
}

fn roll_in<G: Rules>(variant: Variant<G>, fen: &str, value: u64) -> Result<String, String> {
    let pos = variant.parse_fen(fen)?;
    if pos.node() != Node::Chance {
        return Err("no roll is due here".to_string());
    }
    let total = u64::from(pos.chance_total().max(1));
    Ok(pos.chance_step((value % total) as u32).ok_or("no roll is due")?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(steps: &[&str]) -> Vec<String> {
        steps.iter().map(|m| m.to_string()).collect()
    }

    /// The seat to move and the winner by their names, and the draw by its label.
    fn names(view: &View) -> (&'static str, Option<&'static str>, Option<&'static str>) {
        (view.seat_name(view.to_move), view.winner.map(|w| view.seat_name(w)), view.draw.map(Category::label))
    }

    #[test]
    fn rule_options_are_made_canonical_and_checked_for_the_seats() {
        let given = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
        };
        let settings =
            rule_settings("cantstop", &given(&[("columns_to_win", "4"), ("CantStopVariant", "none")]));
        assert_eq!(settings, Ok(given(&[("ColumnsToWin", "4")])), "names canonical, defaults left out");
        assert!(
            rule_settings("impasse", &given(&[("ColumnsToWin", "4")]))
                .unwrap_err()
                .contains("no rule options")
        );
        let four = given(&[("ColumnsToWin", "4")]);
        assert_eq!(
            start_fen("cantstop", &four, 3, None),
            Ok("p3 00000000000/00000000000/00000000000 - 1 r".into())
        );
        assert!(start_fen("cantstop", &four, 4, None).unwrap_err().contains("not offered for 4 players"));
        // Under skip, two players' markers never share a space (the contract's rejection).
        let skip = given(&[("CantStopVariant", "skip")]);
        assert!(view("cantstop", &skip, Some("p2 00030000000/00030000000 - 1 r"), &[]).is_err());
        assert!(view("cantstop", &[], Some("p2 00030000000/00030000000 - 1 r"), &[]).is_ok());
    }

    #[test]
    fn views_follow_the_rules_of_each_variant() {
        let start = view("dipole", &[], None, &[]).unwrap();
        assert_eq!(start.fen, "3,b12,4/8/8/8/8/8/8/4,w12,3 w");
        assert_eq!((names(&start).0, start.legal.len(), start.result), ("white", 19, None));
        let after = view("impasse", &[], None, &["d2f4".to_string()]).unwrap();
        assert_eq!(names(&after).0, "black");
        let error = view("impasse", &[], None, &["d2f4".to_string(), "d2f4".to_string()]).unwrap_err();
        assert!(error.starts_with("move 2: illegal move 'd2f4'"), "{error}");
        assert!(view("impasse", &[], Some("8/8 w"), &[]).unwrap_err().contains("ranks"));
        let over = view("dipole", &[], Some("8/8/8/8/8/8/8/b1,7 b"), &[]).unwrap();
        assert_eq!((names(&over).1, over.legal.len(), over.draw), (Some("black"), 0, None));
        assert!(over.result.unwrap().contains("black has won"));
    }

    #[test]
    fn hexdame_captures_are_compulsory_and_a_won_game_names_its_winner() {
        let start = view("hexdame", &[], None, &[]).unwrap();
        assert_eq!(start.legal.len(), 15);
        let after = view("hexdame", &[], None, &texts(&["d4-e5"])).unwrap();
        assert_eq!(after.legal, ["f6xd4"]);
        let won = view("hexdame", &[], Some("W:Wg7:Bh8"), &texts(&["g7xi9"])).unwrap();
        assert_eq!((names(&won).1, won.draw, won.legal.len()), (Some("white"), None, 0));
    }

    #[test]
    fn the_third_occurrence_draws_and_nothing_may_follow() {
        // docs/rules/hexdame.md, example 13: drawn after ply 8, not 7.
        let moves = texts(&["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"]);
        let seven = view("hexdame", &[], Some("W:WKa1:BKi9"), &moves[..7]).unwrap();
        assert_eq!((seven.result.as_deref(), seven.draw), (None, None));
        let drawn = view("hexdame", &[], Some("W:WKa1:BKi9"), &moves).unwrap();
        assert_eq!(drawn.result.as_deref(), Some("draw by threefold repetition"));
        assert_eq!((names(&drawn).1, names(&drawn).2, drawn.legal.len()), (None, Some("repetition"), 0));
        assert_eq!(drawn.history.len(), 9);
        let mut more = moves.clone();
        more.push("a1-a2".to_string());
        let error = view("hexdame", &[], Some("W:WKa1:BKi9"), &more).unwrap_err();
        assert!(error.starts_with("move 9: the game is already over: draw by threefold"), "{error}");
    }

    #[test]
    fn the_draw_cap_applies_only_when_asked() {
        // Kings wander without any position occurring three times: 50 reversible plies.
        use crate::hexdame::Position;
        let mut game = GameHistory::new(Position::from_fen("W:WKa1:BKi9").unwrap());
        let mut moves = Vec::new();
        while moves.len() < 50 {
            let pos = *game.current();
            let mv = *pos
                .legal_moves()
                .as_ref()
                .iter()
                .find(|&&mv| {
                    // A fresh position in which the other king has nothing to capture.
                    let mut next = game.clone();
                    next.play(mv);
                    let replies = next.current().legal_moves();
                    let quiet = replies.as_ref().iter().all(|reply| !reply.is_capture());
                    next.occurrences() == 1 && quiet && !replies.as_ref().is_empty()
                })
                .expect("a fresh position");
            moves.push(mv.to_string());
            game.play(mv);
        }
        let open = view("hexdame", &[], Some("W:WKa1:BKi9"), &moves).unwrap();
        assert_eq!((open.result, open.draw), (None, None));
        let capped = view_capped("hexdame", &[], Some("W:WKa1:BKi9"), &moves, true).unwrap();
        assert_eq!((names(&capped).2, capped.legal.len()), (Some("draw cap"), 0));
        assert!(capped.result.unwrap().contains("50 plies in a row"));
        let before = view_capped("hexdame", &[], Some("W:WKa1:BKi9"), &moves[..49], true).unwrap();
        assert_eq!(before.draw, None);
        // Games that always end have no cap.
        assert_eq!(view_capped("impasse", &[], None, &[], true).unwrap().draw, None);
    }

    const START: &str = "p2 00000000000/00000000000 - 1 r";

    #[test]
    fn a_turn_is_replayed_with_its_choices_and_its_stop() {
        // docs/rules/cantstop.md, example 1.
        let start = view("cantstop", &[], Some(START), &[]).unwrap();
        assert_eq!((start.node, start.to_move + 1, start.legal.len()), (Node::Chance, 1, 0));
        let rolled = view("cantstop", &[], Some(START), &texts(&["r1546"])).unwrap();
        assert_eq!((rolled.node, rolled.legal.clone()), (Node::Decision, texts(&["5.11", "6.10", "7.9"])));
        let turn = texts(&["r1546", "6.10", "roll", "r2435", "6.8", "stop"]);
        let after = view("cantstop", &[], Some(START), &turn).unwrap();
        assert_eq!(after.fen, "p2 00002010100/00000000000 - 2 r");
        assert!(after.events.iter().all(|e| e.player == 1 && !e.bust));
        let rolls: Vec<bool> = after.events.iter().map(|e| e.roll).collect();
        assert_eq!(rolls, [true, false, false, true, false, false]);
        assert_eq!(after.history.len(), 7);
    }

    #[test]
    fn a_bust_is_marked_on_its_roll_and_a_win_ends_the_game() {
        // Example 2: 2-4-5-5 busts; the turn passes with the roll.
        let fen = "p2 01002030000/00000000000 3:2,6:11,8:4 1 r";
        let bust = view("cantstop", &[], Some(fen), &texts(&["r2455"])).unwrap();
        assert_eq!(bust.events, [EventInfo { player: 1, roll: true, bust: true }]);
        assert_eq!((bust.to_move + 1, bust.node), (2, Node::Chance));
        // Example 5: the stop wins the game; nothing may follow.
        let won = "p3 30000500003/00000500000/00000000000 7:13 1 s";
        let over = view("cantstop", &[], Some(won), &texts(&["stop"])).unwrap();
        assert_eq!(
            (over.winner.map(|w| w + 1), over.node, over.result.as_deref()),
            (Some(1), Node::Over, Some("player 1 has won"))
        );
        let error = view("cantstop", &[], Some(won), &texts(&["stop", "r1111"])).unwrap_err();
        assert!(error.starts_with("event 2 (r1111): "), "{error}");
    }

    #[test]
    fn starts_rolls_and_strategies_come_from_the_rules() {
        assert_eq!(start_fen("cantstop", &[], 2, None).unwrap(), START);
        assert!(start_fen("cantstop", &[], 4, None).unwrap().starts_with("p4 "));
        assert!(start_fen("cantstop", &[], 5, None).unwrap_err().contains("2 to 4 players"));
        assert!(start_fen("cantstop", &[], 3, Some(START)).unwrap_err().contains("2 players"));
        assert!(start_fen("cantstop", &[], 2, Some("p2 nonsense")).is_err());
        // A board game has two seats.
        assert!(start_fen("impasse", &[], 3, None).unwrap_err().contains("2 to 2 players"));
        // Value 0 is the first elementary outcome, all ones; the dice follow the value.
        assert_eq!(roll("cantstop", &[], START, 0).unwrap(), "r1111");
        assert_eq!(roll("cantstop", &[], START, 1295).unwrap(), "r6666");
        assert_eq!(roll("cantstop", &[], START, 1296).unwrap(), "r1111");
        assert!(roll("cantstop", &[], "p2 00000000000/00000000000 6:1 1 s", 0).is_err());
        assert!(roll("impasse", &[], &start_fen("impasse", &[], 2, None).unwrap(), 0).is_err());
        let dice = capabilities("cantstop").unwrap();
        assert_eq!(dice.strategies[0], "search");
        assert!(dice.strategies.contains(&"greedy"));
        assert_eq!(dice.players, (2, 4));
        assert!(!dice.analysable && !dice.rewinds && dice.paced);
        let board = capabilities("hexdame").unwrap();
        assert!(board.analysable && board.rewinds && !board.paced && board.strategies.is_empty());
    }

    #[test]
    fn the_page_reads_each_familys_own_fields() {
        let board = view("dipole", &[], None, &[]).unwrap().page();
        assert_eq!(
            (&board["to_move"], &board["winner"], &board["draw"]),
            (&json!("white"), &Value::Null, &Value::Null)
        );
        assert!(board["legal"].is_array() && board.get("next").is_none());
        let dice = view("cantstop", &[], Some(START), &texts(&["r1546"])).unwrap().page();
        assert_eq!(
            (&dice["to_move"], &dice["next"], &dice["players"]),
            (&json!(1), &json!("decision"), &json!(2))
        );
        assert!(
            dice["decisions"].is_array() && dice["events"][0]["roll"] == true && dice.get("legal").is_none()
        );
    }
}
