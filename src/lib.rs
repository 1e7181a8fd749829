//! `steere`: an engine for Mark Steere's Impasse.
//!
//! The crate is built as separate rooms through which data flows one way:
//! - [`impasse`]: the rules (position, moves, notation, hashing), depending on nothing else;
//! - [`dipole`]: the rules of Dipole, the second game, likewise on its own (not yet reachable
//!   from the tools and the protocol: the variant layer that will make it so is in progress);
//! - [`game`]: the `Game` trait, all the search knows about a game, implemented by Impasse;
//! - [`search`]: parallel iterative-deepening alpha-beta over any `Game`;
//! - [`tools`]: command-line jobs such as perft and bench, built on the rules and the search.
//! - [`protocol`]: the UCI/UGI text protocol and the CodinGame adapter, text in and text out.

pub mod dipole;
pub mod game;
pub mod impasse;
pub mod protocol;
pub mod search;
pub mod tools;
pub mod variants;
