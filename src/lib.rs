//! `steere`: an engine for Mark Steere's Impasse.
//!
//! The crate is built as separate rooms through which data flows one way:
//! - [`impasse`]: the rules (position, moves, notation, hashing), depending on nothing else;
//! - [`tools`]: command-line jobs such as perft, built on the rules.

pub mod impasse;
pub mod tools;
