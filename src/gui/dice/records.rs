//! A dice game saved and opened: the GUI's own record ([`dice_record`]), and the records of
//! `steere match` (one JSON object per line, [`parse_dice_records`]), whose dice come from the
//! same generator: a game opened from either rolls on as it would have.

use super::*;
use crate::tools::matches::dice::record::parse_dice_records;

/// Whether a record file holds dice games: a `Variant` tag naming one (the GUI's records), or
/// JSON lines (`steere match`'s dice records; board records are never JSON).
pub fn is_dice_record(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or("");
    first.starts_with('{')
        || dice_record::variant_of(text).is_some_and(|variant| crate::variants::is_dice_game(&variant))
}

impl DiceGames {
    /// The game as a record (see [`dice_record`]).
    pub fn record_text(self: &Arc<DiceGames>, id: u64) -> Result<String, String> {
        let game = self.game(id)?;
        let g = lock(&game);
        let view = g.view();
        // A new line for each turn: where the player changes.
        let breaks =
            (1..view.events.len()).filter(|&i| view.events[i - 1].player != view.events[i].player).collect();
        let comment = |played: &Played| {
            let mut words = Vec::new();
            if let Some(depth) = played.depth {
                words.push(format!("d{depth}"));
            }
            if let Some(score) = &played.score {
                words.push(score.replace(' ', ""));
            }
            (!words.is_empty()).then(|| words.join(" "))
        };
        let record = DiceRecord {
            variant: g.variant.to_string(),
            fen: g.start.clone(),
            seed: Some(g.seed),
            seats: g.seats.iter().map(|s| (s.player.clone(), s.strategy.clone())).collect(),
            events: g.events.iter().map(|e| (e.text.clone(), comment(e))).collect(),
            breaks,
            result: view.winner.map_or("*".to_string(), |w| format!("p{w}win")),
        };
        Ok(record.to_text())
    }

    /// Opens game `index` (from 0) of a record file, the GUI's own or `steere match`'s, as a
    /// new game between people (every seat `human`), with the recorded depths and scores and
    /// the record's seed. Returns it and a title for every game of the file.
    pub fn load(
        self: &Arc<DiceGames>,
        text: &str,
        index: usize,
    ) -> Result<(DiceSnapshot, Vec<String>), String> {
        if text.trim_start().starts_with('{') {
            return self.load_match(text, index);
        }
        let record = dice_record::parse(text)?;
        let info = crate::variants::find(&record.variant)?;
        let texts: Vec<String> = record.events.iter().map(|(e, _)| e.clone()).collect();
        let view = dice_view::view(info.name, &record.fen, &texts)?;
        let replayed = view.winner.map_or("*".to_string(), |w| format!("p{w}win"));
        if replayed != record.result {
            return Err(format!("the record's result is {}, but its events give {replayed}", record.result));
        }
        let title = format!("1: {} players, {} events, {}", view.players, texts.len(), record.result);
        let seed = record.seed.unwrap_or_else(clock_seed);
        let snapshot = self.open(info.name, &record.fen, seed, &record.events)?;
        Ok((snapshot, vec![title]))
    }

    /// Opens game `index` of a `steere match` dice record file, replayed and checked by the
    /// match's own reader (dice included).
    fn load_match(
        self: &Arc<DiceGames>,
        text: &str,
        index: usize,
    ) -> Result<(DiceSnapshot, Vec<String>), String> {
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
        let seed = u64::from_str_radix(&record.dice, 16)
            .map_err(|_| format!("dice '{}' is no seed", record.dice))?;
        let events: Vec<(String, Option<String>)> =
            record.events.split_whitespace().map(|e| (e.to_string(), None)).collect();
        Ok((self.open(&record.variant, &record.start, seed, &events)?, titles))
    }

    /// A new game between people from `fen` with `events` (each with its comment) already
    /// played, its dice generator seeded with `seed` and moved on past their rolls.
    fn open(
        self: &Arc<DiceGames>,
        variant: &str,
        fen: &str,
        seed: u64,
        events: &[(String, Option<String>)],
    ) -> Result<DiceSnapshot, String> {
        let info = crate::variants::find(variant)?;
        let texts: Vec<String> = events.iter().map(|(e, _)| e.clone()).collect();
        let view = dice_view::view(info.name, fen, &texts)?;
        let seats = vec![Seat { player: "human".to_string(), strategy: None }; view.players];
        let new = NewDiceGame {
            variant: info.name.to_string(),
            fen: Some(fen.to_string()),
            seats,
            movetime: 1000,
            seed: Some(0),
        };
        let snapshot = self.create(&new)?;
        let game = self.game(snapshot.id)?;
        let mut g = lock(&game);
        // A record may come with any 64-bit seed (the match runner's are): kept as it is.
        g.seed = seed;
        g.dice = SplitMix64(seed);
        for _ in view.events.iter().filter(|e| e.roll) {
            g.dice.next_u64();
        }
        g.events = events
            .iter()
            .map(|(text, comment)| {
                let (depth, score) = comment.as_deref().map(read_comment).unwrap_or_default();
                Played { text: text.clone(), depth, score }
            })
            .collect();
        g.generation += 1;
        g.changed();
        Ok(g.snapshot())
    }
}
