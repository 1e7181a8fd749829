//! `steere match`'s dice records, one JSON object per line, opened (the GUI saves dice games in
//! its own format, [`super::dice`]). Their dice come from the same generator as the GUI's: a
//! game opened from one rolls on as it would have.

use super::Opened;
use crate::tools::matches::dice::record::parse_dice_records;

/// Game `index` of the file, replayed and checked by the match's own reader (dice included).
pub(super) fn open(text: &str, index: usize) -> Result<(Opened, Vec<String>), String> {
    let records = parse_dice_records(text)?;
    let titles = records
        .iter()
        .map(|r| {
            let events = r.events.split_whitespace().count();
            format!("{}: {} {} ({events} events)", r.game, r.seats.join(" - "), r.result)
        })
        .collect();
    let record = records.get(index).ok_or_else(|| format!("the file has {} games", records.len()))?;
    record.replay().map_err(|e| format!("game {}: {e}", record.game))?;
    let seed =
        u64::from_str_radix(&record.dice, 16).map_err(|_| format!("dice '{}' is no seed", record.dice))?;
    let steps = record.events.split_whitespace().map(super::Played::bare).collect();
    let opened = Opened {
        variant: record.variant.clone(),
        options: record.options.iter().map(|(name, value)| (name.clone(), value.clone())).collect(),
        fen: Some(record.start.clone()),
        seed: Some(seed),
        steps,
        ending: None,
    };
    Ok((opened, titles))
}
