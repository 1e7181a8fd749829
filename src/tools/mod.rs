//! Command-line jobs built on the engine: each is a function that the CLI hands over to.

pub mod perft;
