//! The review of a whole game, as lichess's "request a computer analysis": an engine of its own,
//! on a thread of its own, scores every position of the game in turn (`position fen FEN`, then
//! `go depth D` or `go movetime T`), and every move is judged by what it lost ([`judge`]).
//!
//! Where the variant can be analysed (board games: [`Capabilities::analysable`]); a dice
//! game's moves are judged by luck as much as by choice, and it is refused. A game has at most
//! one review: a new one stops the old, and a review without an engine is a cancel. The review
//! is of the moves it was started on ([`Review::moves`]): a move played or taken back meanwhile
//! changes nothing in it, and the page compares the moves to tell.
//!
//! The engine thinks without the game's lock, which is taken only to record each position's
//! result, so the game plays on meanwhile. The review's engine lives on the review's thread
//! alone and quits when the review ends (done, cancelled, replaced, failed, or its game left:
//! [`Game::leave`] stops it), so no game keeps a review engine between reviews; a cancelled
//! review's engine first finishes the position it is thinking on (one search of the review's
//! depth or time).

use super::*;
use crate::client::Fault;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The depth of a review given neither a depth nor a time per position.
pub const DEFAULT_DEPTH: u32 = 6;
/// The deepest depth a review may ask for.
pub const MAX_DEPTH: u32 = 30;
/// The longest time per position a review may ask for, in milliseconds.
pub const MAX_MOVETIME: u64 = 10_000;
/// The shortest time per position, in milliseconds (as a game's time per move).
const MIN_MOVETIME: u64 = 10;
/// How long a search to a fixed depth may take before the engine counts as hung.
const DEPTH_TIMEOUT: Duration = Duration::from_secs(120);
/// How much longer than its time per position an engine may take before it counts as hung.
const GRACE: Duration = Duration::from_secs(5);

/// A move that loses at least this much (hundredths of a checker) is a blunder.
pub const BLUNDER: i32 = 300;
/// A move that loses at least this much is a mistake.
pub const MISTAKE: i32 = 150;
/// A move that loses at least this much is an inaccuracy.
pub const INACCURACY: i32 = 60;
/// Estimates are counted up to this much either way: beyond it a position is as won (or lost)
/// as an estimate can say, and only a proven result says more.
pub const CLAMP: i32 = 1000;
/// The value of a proven win at once: a win in N own moves counts `MATE - N`, a loss in N
/// `-MATE + N`, so that every proven result lies beyond every estimate.
pub const MATE: i32 = 100_000;
/// The longest proven distance counted, so that a value stays beyond [`CLAMP`].
const MAX_MATE: i32 = 10_000;

/// The judgement of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// A loss of at least [`BLUNDER`], or a proven result thrown away.
    Blunder,
    /// A loss of at least [`MISTAKE`].
    Mistake,
    /// A loss of at least [`INACCURACY`].
    Inaccuracy,
}

/// What a move cost, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// How much the move lost, in hundredths of a checker (0 for a move as good as the best),
    /// proven results counted as [`CLAMP`].
    pub loss: i32,
    /// Its mark, `None` for a good move.
    pub mark: Option<Mark>,
}

/// The review of a game, as the page reads it (`review` in the game's state).
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The engine reviewing.
    pub engine: String,
    /// The depth of each search (`None` with a time per position alone).
    pub depth: Option<u32>,
    /// The time per position in milliseconds, if one was asked for.
    pub movetime: Option<u64>,
    /// The number of positions reviewed: the moves and the start.
    pub total: usize,
    /// The positions analysed so far (`plies` holds as many).
    pub done: usize,
    /// True until the review has ended (done, cancelled or failed).
    pub running: bool,
    /// Why the review stopped early, if it did.
    pub error: Option<String>,
    /// The moves reviewed: the game's moves when the review started.
    pub moves: Vec<String>,
    /// Each position analysed so far, the start first.
    pub plies: Vec<Reviewed>,
}

/// One position of a review and the move that led to it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Reviewed {
    /// The position's ply (0: the start).
    pub ply: usize,
    /// The engine's score of the position, as it said it (`cp X`, `mate N`), for the side to
    /// move; for the last position of a finished game, its result (see [`final_score`]).
    pub score: Option<String>,
    /// The engine's best move (`None` after the end).
    pub best: Option<String>,
    /// What the move to this position lost ([`Judgement::loss`]; `None` at the start).
    pub loss: Option<i32>,
    /// The mark of the move to this position.
    pub mark: Option<Mark>,
}

/// A score (`cp X`, `mate N`) as a number from the view of the side to move: an estimate
/// `cp X` is X clamped to [`CLAMP`] either way; a proven win `mate N` (N > 0) is `MATE - N`,
/// a proven loss `mate N` (N <= 0: `mate 0` or `mate -0` is a loss at once) is `-MATE - N`,
/// so a quicker win and a slower loss count more. `None` for anything else.
pub fn value(score: &str) -> Option<i32> {
    let mut words = score.split_whitespace();
    let (kind, number) = (words.next()?, words.next()?);
    let number: i64 = number.parse().ok()?;
    let clamped = |bound: i32| number.clamp(-i64::from(bound), i64::from(bound)) as i32;
    match kind {
        "cp" => Some(clamped(CLAMP)),
        "mate" if number > 0 => Some(MATE - clamped(MAX_MATE)),
        "mate" => Some(-MATE - clamped(MAX_MATE)),
        _ => None,
    }
}

/// Judges the move from position k-1 to position k by their scores, each from the view of its
/// own side to move: `before` is position k-1's (the mover's), `after` position k's (the
/// opponent's, so the mover's value after the move is its negation). `None` if either score
/// cannot be read.
///
/// The loss is `max(0, before - after)` in the mover's values, proven results counted as
/// `CLAMP` (a win) and `-CLAMP` (a loss), so that a mate thrown away costs what the largest
/// estimate can say. Exact results are respected first:
/// - a move that turns a proven win into anything but a proven win is a blunder;
/// - a move from a position that is not a proven loss into a proven loss is a blunder;
/// - a proven win kept (even a slower one) is never marked, and inside a proven loss nothing
///   is marked;
/// - otherwise a loss of at least [`BLUNDER`] is a blunder, of [`MISTAKE`] a mistake, of
///   [`INACCURACY`] an inaccuracy, and a smaller one no mark.
pub fn judge(before: &str, after: &str) -> Option<Judgement> {
    let before = value(before)?;
    let after = -value(after)?;
    let won = |v: i32| v > CLAMP;
    let lost = |v: i32| v < -CLAMP;
    let clamp = |v: i32| v.clamp(-CLAMP, CLAMP);
    let loss = (clamp(before) - clamp(after)).max(0);
    let mark = if (won(before) && !won(after)) || (!lost(before) && lost(after)) {
        Some(Mark::Blunder)
    } else if won(before) || lost(before) {
        None
    } else if loss >= BLUNDER {
        Some(Mark::Blunder)
    } else if loss >= MISTAKE {
        Some(Mark::Mistake)
    } else if loss >= INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    };
    Some(Judgement { loss, mark })
}

/// The score of a game's last position when the game is over, taken from its result rather
/// than asked of an engine (an engine answers a finished game with no search): `mate 0` when
/// the side to move has lost, `cp 0` for a draw, and `mate 1` when the side to move has won (a
/// Dipole player who moved his own last checkers off hands his opponent the win: `mate 0`
/// would read as a loss, and `mate 1` is the nearest win the engines' notation writes).
fn final_score(view: &View) -> Option<String> {
    if !view.is_over() {
        return None;
    }
    Some(match view.winner {
        Some(seat) if seat == view.to_move => "mate 1".to_string(),
        Some(_) => "mate 0".to_string(),
        None => "cp 0".to_string(),
    })
}

/// What a review asks the engine for each position, and how long it may take.
struct Ask {
    /// The `go` line.
    go: String,
    /// How long the engine may take before it counts as hung.
    timeout: Duration,
    /// Said when the engine misses its deadline (what to ask for instead).
    advice: &'static str,
}

impl Games {
    /// Has `engine` review game `id` (every position of its moves so far) to `depth` or for
    /// `movetime` milliseconds a position ([`DEFAULT_DEPTH`] when neither is given; both: the
    /// first reached ends each search), stopping the review running; without an engine, stops
    /// the running review (its positions analysed so far are kept).
    pub fn review(
        self: &Arc<Games>,
        id: u64,
        engine: Option<&str>,
        depth: Option<u32>,
        movetime: Option<u64>,
    ) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        if !g.caps.analysable {
            return Err(format!("{} cannot be reviewed: review is for board games", g.variant));
        }
        let Some(name) = engine else {
            g.review_stop.store(true, Ordering::SeqCst);
            if let Some(review) = g.review.as_mut().filter(|r| r.running) {
                review.running = false;
                g.changed();
            }
            return Ok(g.snapshot());
        };
        let (_, spec) = self
            .engines
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| format!("no engine '{name}' (one of: {})", self.engine_names().join(", ")))?;
        let mut spec = spec.clone();
        if g.variant != crate::variants::DEFAULT_VARIANT {
            spec.set_variant(g.variant);
        }
        let movetime = movetime.map(|t| t.clamp(MIN_MOVETIME, MAX_MOVETIME));
        let depth = match (depth, movetime) {
            (Some(d), _) => Some(d.clamp(1, MAX_DEPTH)),
            (None, None) => Some(DEFAULT_DEPTH),
            (None, Some(_)) => None,
        };
        // Both limits apply when both are given: the first reached ends the search.
        let mut go = "go".to_string();
        if let Some(d) = depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(t) = movetime {
            go.push_str(&format!(" movetime {t}"));
        }
        let ask = match movetime {
            Some(t) => Ask { go, timeout: Duration::from_millis(t) + GRACE, advice: "" },
            None => Ask {
                go,
                timeout: DEPTH_TIMEOUT,
                advice: " (too deep a search here: ask for a lower depth or a time per position)",
            },
        };
        let position = g.view();
        let moves = g.texts();
        g.review_stop.store(true, Ordering::SeqCst);
        let stop = Arc::new(AtomicBool::new(false));
        g.review_stop = stop.clone();
        g.review = Some(Review {
            engine: name.to_string(),
            depth,
            movetime,
            total: position.history.len(),
            done: 0,
            running: true,
            error: None,
            moves,
            plies: Vec::new(),
        });
        g.changed();
        let (game_ref, last) = (game.clone(), final_score(&position));
        let fens = position.history;
        let spawned = std::thread::Builder::new()
            .name("gui review".into())
            .spawn(move || run(&game_ref, &spec, &fens, last, &ask, &stop));
        if let Err(e) = spawned {
            finish(&mut g, Some(format!("cannot start the review: {e}")));
        }
        Ok(g.snapshot())
    }
}

/// Reviews the positions `fens` in order while the review is the one asked for (`stop` not
/// raised), recording each in the game's [`Review`]; the last is scored `last` when the game
/// is over. The engine starts at the first position that needs it and quits at the end.
fn run(
    game: &Mutex<Game>,
    spec: &EngineSpec,
    fens: &[String],
    last: Option<String>,
    ask: &Ask,
    stop: &AtomicBool,
) {
    let name = spec.name.clone().unwrap_or_else(|| spec.command.join(" "));
    let mut engine: Option<Engine> = None;
    let mut error = None;
    for (ply, fen) in fens.iter().enumerate() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let finished = last.as_ref().filter(|_| ply + 1 == fens.len());
        let (score, best) = match finished {
            Some(score) => (Some(score.clone()), None),
            None => match search(&mut engine, spec, &name, fen, ask) {
                Ok(answer) => answer,
                Err(e) => {
                    error = Some(format!("position {ply}: {e}"));
                    break;
                }
            },
        };
        let mut g = lock(game);
        // Under the lock: a cancel or a newer review owns the game's review from its store on.
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Some(review) = g.review.as_mut() else { break };
        let judgement = match (review.plies.last().and_then(|p| p.score.as_deref()), score.as_deref()) {
            (Some(before), Some(after)) => judge(before, after),
            _ => None,
        };
        review.plies.push(Reviewed {
            ply,
            score,
            best,
            loss: judgement.map(|j| j.loss),
            mark: judgement.and_then(|j| j.mark),
        });
        review.done = review.plies.len();
        g.changed();
    }
    {
        let mut g = lock(game);
        if !stop.load(Ordering::SeqCst) {
            finish(&mut g, error);
        }
    }
    drop(engine); // quits it, on this thread: the game's lock is not held
}

/// Ends the game's review: not running, with what went wrong if anything did.
fn finish(g: &mut Game, error: Option<String>) {
    if let Some(review) = g.review.as_mut() {
        review.running = false;
        review.error = error;
        g.changed();
    }
}

/// One search of the position `fen`: the engine's score and best move (`None` for none). The
/// engine is started if there is none; one that fails is dropped.
fn search(
    engine: &mut Option<Engine>,
    spec: &EngineSpec,
    name: &str,
    fen: &str,
    ask: &Ask,
) -> Result<(Option<String>, Option<String>), String> {
    if engine.as_ref().is_none_or(|e| !e.is_usable()) {
        *engine = Some(Engine::start(spec).map_err(|e| format!("{name} could not start: {e}"))?);
    }
    let running = engine.as_mut().expect("an engine was started");
    match running.think(&format!("position fen {fen}"), &ask.go, ask.timeout) {
        Ok(reply) => {
            let best = Some(reply.bestmove).filter(|m| !m.is_empty() && m != "(none)");
            Ok((reply.score, best))
        }
        Err(fault) => {
            if let Some(mut failed) = engine.take() {
                failed.kill();
            }
            Err(match fault {
                Fault::Crash(detail) => format!("{name} crashed: {detail}"),
                Fault::Protocol(detail) => format!("{name} broke the protocol: {detail}"),
                Fault::NoAnswer { waited, .. } => {
                    format!("{name} gave no move within {:.1} s{}", waited.as_secs_f64(), ask.advice)
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(before: &str, after: &str) -> Option<Mark> {
        judge(before, after).unwrap().mark
    }

    #[test]
    fn scores_become_numbers_from_the_side_to_moves_view() {
        assert_eq!(value("cp 35"), Some(35));
        assert_eq!(value("cp -4000"), Some(-CLAMP));
        assert_eq!(value("mate 3"), Some(MATE - 3));
        assert_eq!(value("mate -2"), Some(-MATE + 2));
        assert_eq!(value("mate 0"), Some(-MATE));
        assert_eq!(value("mate -0"), Some(-MATE));
        // A quicker win and a slower loss count more.
        assert!(value("mate 1") > value("mate 2") && value("mate -5") > value("mate -1"));
        assert!(value("mate 99999999").unwrap() > CLAMP && value("mate -99999999").unwrap() < -CLAMP);
        for bad in ["", "cp", "cp x", "win 3", "mate 1.5"] {
            assert_eq!(value(bad), None, "{bad}");
        }
        assert_eq!(judge("cp 10", "nonsense"), None);
    }

    #[test]
    fn a_proven_win_kept_is_never_marked_even_if_slower() {
        // The mover wins in 2; after the move the opponent loses in 5 (the mover wins later).
        assert_eq!(judge("mate 2", "mate -5"), Some(Judgement { loss: 0, mark: None }));
        assert_eq!(mark("mate 1", "mate -1"), None);
    }

    #[test]
    fn a_proven_win_thrown_away_is_a_blunder() {
        // Into a balanced position, a lost one, or even a big advantage short of a proof.
        assert_eq!(judge("mate 3", "cp 0"), Some(Judgement { loss: CLAMP, mark: Some(Mark::Blunder) }));
        assert_eq!(judge("mate 3", "mate 2"), Some(Judgement { loss: 2 * CLAMP, mark: Some(Mark::Blunder) }));
        assert_eq!(judge("mate 1", "cp -900"), Some(Judgement { loss: 100, mark: Some(Mark::Blunder) }));
    }

    #[test]
    fn a_move_into_a_proven_loss_is_a_blunder_and_inside_one_nothing_is_marked() {
        // From a balanced or a bad position, the opponent now wins by force.
        assert_eq!(mark("cp 20", "mate 4"), Some(Mark::Blunder));
        assert_eq!(mark("cp -900", "mate 1"), Some(Mark::Blunder));
        // Inside a proven loss, a quicker loss is not marked, nor is a lucky escape.
        assert_eq!(judge("mate -3", "mate 1"), Some(Judgement { loss: 0, mark: None }));
        assert_eq!(mark("mate -3", "cp 0"), None);
        assert_eq!(mark("mate 0", "mate 1"), None);
        // Winning at once (the opponent, to move, has lost) is the best there is.
        assert_eq!(judge("cp 40", "mate 0"), Some(Judgement { loss: 0, mark: None }));
    }

    #[test]
    fn estimates_are_marked_by_the_loss_at_the_thresholds() {
        let cases = [
            ("cp 0", "cp 0", 0, None),
            ("cp 50", "cp -50", 0, None),
            ("cp 59", "cp 0", 59, None),
            ("cp 60", "cp 0", 60, Some(Mark::Inaccuracy)),
            ("cp 0", "cp 149", 149, Some(Mark::Inaccuracy)),
            ("cp 0", "cp 150", 150, Some(Mark::Mistake)),
            ("cp 100", "cp 199", 299, Some(Mark::Mistake)),
            ("cp 100", "cp 200", 300, Some(Mark::Blunder)),
            // Estimates count up to the clamp: 5000 to -5000 loses 2000.
            ("cp 5000", "cp 5000", 2 * CLAMP, Some(Mark::Blunder)),
            ("cp 5000", "cp -1200", 0, None),
        ];
        for (before, after, loss, mark) in cases {
            assert_eq!(judge(before, after), Some(Judgement { loss, mark }), "{before} -> {after}");
        }
    }

    #[test]
    fn a_finished_games_last_position_is_scored_by_its_result() {
        let over = |fen: &str| final_score(&view("dipole", &[], Some(fen), &[]).unwrap());
        // White has captured Black's last stack: Black, to move, has lost.
        assert_eq!(over("8/8/8/8/3,w1,4/8/8/8 b").as_deref(), Some("mate 0"));
        // White has moved his own last checkers off: Black, to move, has won.
        assert_eq!(over("8/8/8/8/8/8/8/b1,7 b").as_deref(), Some("mate 1"));
        assert_eq!(over("3,b12,4/8/8/8/8/8/8/4,w12,3 w"), None);
        let moves: Vec<String> =
            ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"].map(String::from).into();
        let drawn = view("hexdame", &[], Some("W:WKa1:BKi9"), &moves).unwrap();
        assert_eq!(final_score(&drawn).as_deref(), Some("cp 0"));
    }
}
