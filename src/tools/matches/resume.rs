//! `--resume FILE`: continue a match from its record file. The games in the file are counted
//! as if just played (their timing excepted: the file keeps the time each move took, not the
//! time it was allowed) and skipped by the schedule, and the new games are appended to the same
//! file, so that a match stopped by a signal, a crash or a batch system's time limit goes on
//! where it stopped and ends with the totals of an uninterrupted one.
//!
//! Every game of the file must be one this run would have played: its number in this slice of
//! the schedule, once, with the variant, opening or dice stream and engine settings that this
//! run gives that game (checked by the runner's `check`); anything else means other settings
//! and is refused, naming the game. A file that does not exist yet is an empty match, so that
//! a batch job can always be started with `--resume`.

use super::driver::MatchTally;
use super::record::{Category, GameRecord, PlayedMove, parse_records};
use super::slice::Slice;
use crate::game::Player;
use std::path::Path;
use std::time::Duration;

/// Counts the games of the record file `path` into `tally` and marks them done in `slice`:
/// `parse` reads the file's text, `number` gives a record's game number in the schedule (from
/// 0), `check` that the record is the game this run would play under that number. A last
/// record cut short (the runner was killed while writing it) is dropped with a warning and
/// cut from the file; a record starts where `record_start` is found at the start of a line.
/// Returns how many games the file held.
pub fn load<T: MatchTally>(
    path: &Path,
    record_start: &str,
    parse: impl Fn(&str) -> Result<Vec<T::Record>, String>,
    number: impl Fn(&T::Record) -> Option<u64>,
    check: impl Fn(&T::Record) -> Result<(), String>,
    slice: &mut Slice,
    tally: &mut T,
) -> Result<u64, String> {
    let shown = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("--resume {shown}: {e}")),
    };
    let records = match parse(&text) {
        Ok(records) => records,
        Err(error) => drop_cut_last_record(path, &text, record_start, &parse)
            .ok_or_else(|| format!("--resume {shown}: {error}"))??,
    };
    for record in &records {
        let number =
            number(record).ok_or_else(|| format!("--resume {shown}: a game without a valid game number"))?;
        let game = number + 1;
        if !slice.holds(number) {
            return Err(format!(
                "--resume {shown}: game {game} is not in this match's schedule (other --games, --rounds or --shard?)"
            ));
        }
        if !slice.done.insert(number) {
            return Err(format!("--resume {shown}: game {game} is in the file twice"));
        }
        check(record).map_err(|e| {
            format!("--resume {shown}: game {game}: {e} (the match was started with other settings)")
        })?;
        tally.add(record);
    }
    Ok(records.len() as u64)
}

/// The records of `text` without its last one, when that one was cut short: the longest
/// prefix that ends at a line start, parses, and leaves a tail that begins like a record
/// (`record_start`, or a cut piece of it). The file is cut to that prefix (so that new games
/// are appended after complete ones) and a warning says so. `None` when the fault is anything
/// else (a file that is not a record file is never touched); `Some(Err)` when it cannot be cut.
fn drop_cut_last_record<R>(
    path: &Path,
    text: &str,
    record_start: &str,
    parse: &impl Fn(&str) -> Result<Vec<R>, String>,
) -> Option<Result<Vec<R>, String>> {
    let begins_a_record = |tail: &str| tail.starts_with(record_start) || record_start.starts_with(tail);
    let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
    let last_record = line_starts.clone().rfind(|&i| text[i..].starts_with(record_start)).unwrap_or(0);
    let mut candidates: Vec<usize> = line_starts.filter(|&i| i >= last_record && i < text.len()).collect();
    candidates.reverse();
    let (cut, records) = candidates
        .into_iter()
        .filter(|&i| begins_a_record(&text[i..]))
        .find_map(|i| parse(&text[..i]).ok().map(|records| (i, records)))?;
    let shown = path.display();
    let truncated =
        std::fs::OpenOptions::new().write(true).open(path).and_then(|file| file.set_len(cut as u64));
    if let Err(e) = truncated {
        return Some(Err(format!("--resume {shown}: cannot drop its cut last game: {e}")));
    }
    eprintln!(
        "steere: warning: --resume {shown}: its last game was cut short ({} bytes: the runner was stopped while writing it); dropped, it will be played again",
        text.len() - cut
    );
    Some(Ok(records))
}

/// Reads a board-game record file into game records (what the tally counts: numbers, result,
/// reason, moves, opening and settings).
pub fn parse_board_records(text: &str, variant: &'static str) -> Result<Vec<GameRecord>, String> {
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
