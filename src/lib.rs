//! `steere`: an engine for a family of abstract games (Impasse, Dipole, HexDame, Can't Stop).
//!
//! The crate is built as separate rooms through which data flows one way:
//! - [`impasse`], [`dipole`], [`hexdame`], [`cantstop`]: the rules of each game (position, moves, notation, hashing,
//!   evaluation), each depending on nothing else and on no other game;
//! - [`game`]: the one tool-facing trait, `Rules` (decision, chance and final nodes; steps with
//!   one text form; a result per player), and the two search traits, `Game` (all the
//!   alpha-beta search knows of a board game) and `ChanceGame` (all the chance-node search knows
//!   of a dice game), with each game's adapter;
//! - [`variants`]: the registry, the one list of games and the one place that turns a variant's
//!   name into code for its rules;
//! - [`search`]: parallel iterative-deepening alpha-beta over any `Game`; [`chance`]: the
//!   chance-node search over any `ChanceGame`;
//! - [`realtime`]: prompt wakeups for the threads that keep deadlines and stamp answers;
//! - [`quote`]: the one rule for repeating input in messages (shortened, escaped);
//! - [`tools`]: command-line jobs such as perft, bench, solve and match (perft, divide and
//!   moves once over `Rules` for every game);
//! - [`protocol`]: the UCI/UGI text protocol (one session for every variant) and the CodinGame
//!   adapter (Impasse);
//! - [`client`]: the other end of that protocol: an engine process driven over pipes, with its
//!   specs and clocks, used by the match runner and the GUI;
//! - [`gui`]: `steere gui`, a local web page that plays engines over that protocol;
//! - [`cli`]: the command line's arguments, every subcommand's flags in one place.

#![deny(missing_docs)]

pub mod cantstop;
pub mod chance;
pub mod cli;
pub mod client;
pub mod dipole;
pub mod game;
pub mod gui;
pub mod hexdame;
pub mod impasse;
pub mod levels;
pub mod protocol;
pub mod quote;
pub mod realtime;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod variants;
