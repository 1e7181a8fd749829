//! A board game's record in the match runner's format (docs/matches.md): written with the
//! runner's own [`GameRecord`], read with its own reader, so that the GUI's records and the
//! runner's read alike.

use super::{Ending, Opened, Saved, played};
use crate::game::Player;
use crate::gui::view::view;
use crate::tools::matches::record::{Category, GameRecord, PlayedMove, parse_records};
use std::time::Duration;

/// The game as a record: `*` while unfinished, `1/2-1/2` with the category `repetition` or
/// `draw cap` when drawn, a loss on time as a time forfeit.
pub(super) fn write(game: &Saved) -> String {
    let position = &game.view;
    let seat_name = |seat: usize| position.seat_name(seat);
    let settings = |seat: usize| {
        if game.seats[seat].is_human() { "human".to_string() } else { format!("movetime={}", game.movetime) }
    };
    let first = view(game.variant, game.options, Some(game.start), &[]).map_or(0, |start| start.to_move);
    let result = position.result.as_deref();
    let record = GameRecord {
        variant: game.variant,
        number: 1,
        pair: 1,
        game_in_pair: 1,
        white: game.seats[0].player.clone(),
        black: game.seats[1].player.clone(),
        white_settings: settings(0),
        black_settings: settings(1),
        fen: game.start.to_string(),
        first_to_move: Player::of_seat(first),
        moves: game
            .steps
            .iter()
            .map(|m| PlayedMove {
                text: m.text.clone(),
                time: Duration::from_millis(m.millis.unwrap_or(0)),
                depth: m.depth,
                score: m.score.clone(),
            })
            .collect(),
        winner: match game.time_loss {
            Some(loser) => Some(Player::of_seat(loser).opponent()),
            None => position.winner.map(Player::of_seat),
        },
        category: match (game.time_loss, position.draw, result) {
            (Some(_), _, _) => Category::TimeForfeit,
            (None, _, _) if matches!(game.ending, Some(Ending::Resignation(_))) => Category::Resignation,
            (None, Some(draw), _) => draw,
            (None, None, Some(_)) => Category::Normal,
            (None, None, None) => Category::Unfinished,
        },
        detail: match (game.time_loss, position.draw, result) {
            (Some(loser), _, _) => format!("{}: lost on time", seat_name(loser)),
            (None, _, _) if let Some(Ending::Resignation(seat)) = game.ending => {
                format!("{} resigned", seat_name(*seat))
            }
            // As the match runner words it, so that records read alike.
            (None, Some(Category::Repetition), _) => format!("{} occurred for the third time", position.fen),
            // `draw by the draw cap...: WHY`: the record's category already says the first part.
            (None, Some(_), Some(result)) => {
                result.split_once(": ").map_or(result, |(_, why)| why).to_string()
            }
            (None, _, result) => result.map_or_else(|| "saved by steere gui".to_string(), str::to_string),
        },
        timings: Vec::new(),
    };
    record.to_text()
}

/// Game `index` of a record file of the match runner's, checked with the rules.
pub(super) fn open(text: &str, index: usize) -> Result<(Opened, Vec<String>), String> {
    let records = parse_records(text)?;
    let titles = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let tag = |key| r.tag(key).unwrap_or("?");
            format!("{}: {} - {} {} ({} moves)", i + 1, tag("White"), tag("Black"), r.result, r.moves.len())
        })
        .collect();
    let record = records.get(index).ok_or_else(|| format!("the file has {} games", records.len()))?;
    let variant = record.tag("Variant").unwrap_or(crate::variants::DEFAULT_VARIANT);
    let fen = record.tag("FEN").map(str::to_string);
    // A board game's record has no rule options: board games have none.
    view(variant, &[], fen.as_deref(), &record.moves).map_err(|e| format!("game {}: {e}", index + 1))?;
    let ending = ending_of(record.tag("Reason").unwrap_or(""), &record.result);
    let steps = record
        .moves
        .iter()
        .zip(&record.comments)
        .map(|(text, comment)| played(text, comment.as_deref()))
        .collect();
    Ok((Opened { variant: variant.to_string(), options: Vec::new(), fen, seed: None, steps, ending }, titles))
}

/// The end a record's `Reason` (and result) gives that no replay can see: a draw by the
/// runner's cap, a draw agreed, a resignation (the loser is the side the result does not name).
fn ending_of(reason: &str, result: &str) -> Option<Ending> {
    let (label, detail) = reason.split_once(':').unwrap_or((reason, ""));
    match Category::from_label(label.trim())? {
        Category::DrawCap => Some(Ending::DrawCap(detail.trim().to_string())),
        Category::Agreement => Some(Ending::Agreement),
        Category::Resignation => match result {
            "1-0" => Some(Ending::Resignation(1)),
            "0-1" => Some(Ending::Resignation(0)),
            _ => None,
        },
        _ => None,
    }
}
