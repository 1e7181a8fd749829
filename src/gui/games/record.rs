//! The board games' records: a game saved in the match runner's record format, and a record
//! file's game opened as a new game (between people, with the engines' recorded depths and
//! scores).

use super::*;

impl Games {
    /// The game in the match runner's record format (docs/matches.md), `*` while unfinished,
    /// `1/2-1/2` with the category `repetition` or `draw cap` when drawn.
    pub fn record_text(self: &Arc<Games>, id: u64) -> Result<String, String> {
        use crate::game::Player;
        use crate::tools::matches::record::{GameRecord, PlayedMove};
        let game = self.game(id)?;
        let g = lock(&game);
        let position = g.view();
        let start = view(g.variant, Some(&g.start), &[])?;
        let side = |name: &str| if name == "white" { Player::P1 } else { Player::P2 };
        let settings = |player: &str| {
            if player == "human" { "human".to_string() } else { format!("movetime={}", g.movetime) }
        };
        let record = GameRecord {
            variant: g.variant,
            number: 1,
            pair: 1,
            game_in_pair: 1,
            white: g.players[0].clone(),
            black: g.players[1].clone(),
            white_settings: settings(&g.players[0]),
            black_settings: settings(&g.players[1]),
            fen: g.start.clone(),
            first_to_move: side(start.to_move),
            moves: g
                .moves
                .iter()
                .map(|m| PlayedMove {
                    text: m.text.clone(),
                    time: Duration::ZERO,
                    depth: m.depth,
                    score: m.score.clone(),
                })
                .collect(),
            winner: match g.time_loss {
                Some(loser) => Some([Player::P2, Player::P1][loser]),
                None => position.winner.map(side),
            },
            category: match (g.time_loss, position.draw, &position.result) {
                (Some(_), _, _) => Category::TimeForfeit,
                (None, Some(draw), _) => Category::from_label(draw).expect("a draw's label is a category"),
                (None, None, Some(_)) => Category::Normal,
                (None, None, None) => Category::Unfinished,
            },
            detail: match (g.time_loss, position.draw, &position.result) {
                (Some(loser), _, _) => format!("{}: lost on time", ["white", "black"][loser]),
                // As the match runner words it, so that records read alike.
                (None, Some("repetition"), _) => format!("{} occurred for the third time", position.fen),
                // `draw by the draw cap...: WHY`: the record's category already says the first part.
                (None, Some(_), Some(result)) => {
                    result.split_once(": ").map_or(result.as_str(), |(_, why)| why).to_string()
                }
                (None, _, result) => result.clone().unwrap_or_else(|| "saved by steere gui".to_string()),
            },
            timings: Vec::new(),
        };
        Ok(record.to_text())
    }

    /// Opens game `index` (from 0) of a record file as a new game between two people, with
    /// the recorded depths and scores; returns it and a title for every game of the file.
    pub fn load(self: &Arc<Games>, text: &str, index: usize) -> Result<(Snapshot, Vec<String>), String> {
        use crate::tools::matches::record::parse_records;
        let records = parse_records(text)?;
        let titles: Vec<String> = records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let tag = |key| r.tag(key).unwrap_or("?");
                format!(
                    "{}: {} - {} {} ({} moves)",
                    i + 1,
                    tag("White"),
                    tag("Black"),
                    r.result,
                    r.moves.len()
                )
            })
            .collect();
        let record = records.get(index).ok_or_else(|| format!("the file has {} games", records.len()))?;
        let variant = record.tag("Variant").unwrap_or(variants::DEFAULT_VARIANT);
        let new = NewGame {
            variant: variant.to_string(),
            fen: record.tag("FEN").map(str::to_string),
            players: ["human".to_string(), "human".to_string()],
            movetime: 1000,
            clock: None,
        };
        let snapshot = self.create(&new)?;
        view(variant, new.fen.as_deref(), &record.moves).map_err(|e| format!("game {}: {e}", index + 1))?;
        let game = self.game(snapshot.id)?;
        let mut g = lock(&game);
        g.moves = record
            .moves
            .iter()
            .zip(&record.comments)
            .map(|(text, comment)| {
                let (depth, score) = comment.as_deref().map(read_comment).unwrap_or_default();
                Played { text: text.clone(), depth, score }
            })
            .collect();
        // A draw by the runner's cap is no rule the replay can see: the game keeps it.
        let reason = record.tag("Reason").unwrap_or("");
        g.adjudicated = reason
            .strip_prefix(Category::DrawCap.label())
            .and_then(|rest| rest.strip_prefix(':'))
            .map(|detail| detail.trim().to_string());
        g.generation += 1;
        g.changed();
        Ok((g.snapshot(), titles))
    }
}

/// The depth and score of a record's move comment, `{0.004s d4 cp18}` (scores as `cp 18`,
/// `mate -3`).
pub(in crate::gui) fn read_comment(comment: &str) -> (Option<u32>, Option<String>) {
    let (mut depth, mut score) = (None, None);
    for word in comment.split_whitespace() {
        if let Some(d) = word.strip_prefix('d').and_then(|d| d.parse().ok()) {
            depth = Some(d);
        } else if let Some(v) = word.strip_prefix("cp").filter(|v| v.parse::<i64>().is_ok()) {
            score = Some(format!("cp {v}"));
        } else if let Some(v) = word.strip_prefix("mate").filter(|v| v.parse::<i64>().is_ok()) {
            score = Some(format!("mate {v}"));
        }
    }
    (depth, score)
}
