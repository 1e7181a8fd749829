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

use super::slice::Slice;
use crate::tools::matches::record::MatchRecord;
use crate::tools::matches::report::Tally;
use std::path::Path;

/// Counts the games of the record file `path` of a match of `variant` into `tally` and marks
/// them done in `slice`: `check` says whether the record is the game this run would play under
/// its number ([`MatchRecord::number`]). A last record cut short (the runner was killed while
/// writing it) is dropped with a warning and cut from the file; a record starts where
/// [`MatchRecord::START`] is found at the start of a line. Returns how many games the file held.
pub fn load<R: MatchRecord>(
    path: &Path,
    variant: &'static str,
    check: impl Fn(&R) -> Result<(), String>,
    slice: &mut Slice,
    tally: &mut Tally,
) -> Result<u64, String> {
    let parse = |text: &str| R::read(text, variant);
    let record_start = R::START;
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
            record.number().ok_or_else(|| format!("--resume {shown}: a game without a valid game number"))?;
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
