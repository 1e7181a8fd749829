//! What the command line asks of the search that plays a variant, whichever it is: analyse one
//! position, run the bench, and the studies only a dice game has (odds, solitaire).
//!
//! The registry says which search plays each variant ([`crate::variants::AlphaBeta`] or
//! [`crate::variants::Expectimax`], bound by [`crate::with_variant`]); [`Searches`] is what the
//! command line asks of either, so that the command line is written once for every game. Each
//! search answers in a file of its own: [`alpha_beta`], [`expectimax`].

pub mod alpha_beta;
pub mod expectimax;

use crate::game::Rules;
use crate::search::SearchControl;
use crate::variants::Variant;
use std::time::Duration;

/// The thinking time of `steere analyse` when no limit is given, in milliseconds.
pub const DEFAULT_ANALYSE_MS: u64 = 3000;

/// The search depth of `steere solitaire` when no limit is given, in rolls: unlimited, every
/// decision would solve its turn exactly, seconds each.
pub const SOLITAIRE_DEPTH: u32 = 2;

/// The limits of one search as the command line gives them (at most one of them, by clap).
#[derive(Clone, Copy, Debug, Default)]
pub struct Request {
    /// Plies (a board game) or rolls (a dice game).
    pub depth: Option<u32>,
    /// Milliseconds.
    pub movetime: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Search threads (alpha-beta: Lazy SMP; the chance search: each depth's first rolls'
    /// outcomes shared among them, with the values and moves of one thread).
    pub threads: usize,
    /// The hash table in MiB (the alpha-beta search's).
    pub hash_mib: usize,
    /// The lines to search and show (`--multipv`; 0 or 1: the best one).
    pub multipv: usize,
}

impl Request {
    /// The movetime, or `default` when no limit at all is given.
    pub(crate) fn movetime_or(&self, default: u64) -> Option<Duration> {
        let movetime = match (self.depth, self.movetime, self.nodes) {
            (None, None, None) => Some(default),
            _ => self.movetime,
        };
        movetime.map(Duration::from_millis)
    }
}

/// A solitaire study as `steere solitaire` asks for it.
#[derive(Clone, Debug)]
pub struct SolitaireRequest {
    /// Games to play.
    pub games: usize,
    /// `search` or a fixed player of the game.
    pub strategy: String,
    /// The seed of the dice.
    pub seed: u64,
    /// The search of each decision.
    pub limits: Request,
    /// Games played at once.
    pub jobs: usize,
}

/// What the command line asks of the search that plays a variant. Every output line goes
/// through `out` as it comes.
pub trait Searches<G: Rules>: Copy {
    /// `steere analyse`: the progress of a search of `pos`, then its best step.
    fn analyse(self, pos: &G, request: &Request, out: &mut dyn FnMut(&str)) -> Result<(), String>;

    /// `steere bench` and the protocol's `bench`: every bench position of `variant` searched
    /// to `request.depth` (the variant's bench depth when `None`), one line each, then the
    /// summary line. Stopped by `control.stop` (the protocol's `stop`): then there is no
    /// summary, and the answer is `Ok(false)`.
    fn bench(
        self,
        variant: Variant<G>,
        request: &Request,
        control: &SearchControl,
        out: &mut dyn FnMut(&str),
    ) -> Result<bool, String>;

    /// `steere odds`: the exact odds of `pos`, a position of `variant`, one line each (a dice
    /// game's).
    fn odds(self, variant: Variant<G>, pos: &G) -> Result<Vec<String>, String>;

    /// `steere solitaire`: plays the study and gives its summary line (a dice game's);
    /// `progress` is called after each game with the number finished.
    fn solitaire(
        self,
        variant: Variant<G>,
        request: &SolitaireRequest,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<String, String>;
}

/// The end of a bench: the `summary` line through `out` and `true`, unless `control` was
/// stopped (then no summary, `false`), for every search alike.
fn end_bench(control: &SearchControl, summary: String, out: &mut dyn FnMut(&str)) -> bool {
    if control.stop.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    out(&summary);
    true
}
