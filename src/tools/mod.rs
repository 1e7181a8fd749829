//! Command-line jobs built on the engine: each is a function that the CLI hands over to.

pub mod book;
pub mod calibrate;
pub mod cantstop_learn;
pub mod epd;
pub mod epd_file;
pub mod matches;
pub mod perft;
pub mod rng;
pub mod searches;
pub mod selfplay;
pub mod solve;
pub mod stdout;
pub mod tablebase;
pub mod tune;
