//! The engine-spec grammar of `steere match --engine1 ... --engine2 ... --each ...`.
//!
//! An engine is given as a list of words: one **command** and any number of `KEY=VALUE`
//! **settings**, in any order, in the spirit of cutechess-cli's `-engine cmd=... name=...`:
//!
//! ```text
//! --engine1 ./target/release/steere name=deep depth=4 option.Hash=16
//! --engine2 "./other-engine --uci" name=other tc=10+0.1
//! --each tc=10+0.1 option.Threads=1
//! ```
//!
//! A word is a setting when it has the form `KEY=VALUE` with a known KEY (below) or a KEY
//! starting with `option.`; any other word is the command (so `cmd=` is needed only when the
//! command itself looks like a setting). Settings of `--each` apply to both engines and are
//! overridden by an engine's own. The keys:
//!
//! | key | meaning |
//! |---|---|
//! | `cmd=COMMAND` | the command (may also come from `--each`) |
//! | `name=NAME` | the name in tables and records (default: the engine's `id name`) |
//! | `dir=PATH` | working directory of the engine process |
//! | `stderr=PATH` | append the engine's stderr to this file (default: discarded) |
//! | `proto=uci\|ugi` | handshake words: `uci`/`ucinewgame`/`wtime` or `ugi`/`uginewgame`/`p1time` |
//! | `option.NAME=VALUE` | sent as `setoption name NAME value VALUE` after the handshake |
//! | `tc=[MOVES/]BASE[+INC]` | clock in seconds (`10+0.1`, `40/60`); `tc=none` removes one set by `--each` |
//! | `st=SECONDS` | fixed time per move, in seconds (cutechess-cli's `st`) |
//! | `movetime=MS` | fixed time per move, in milliseconds (the UCI unit) |
//! | `depth=N` | fixed search depth (`go depth N`) |
//! | `nodes=N` | fixed node count (`go nodes N`) |
//!
//! The command is split into words as a shell would (blanks separate words, `'...'` and
//! `"..."` quote, `\` escapes) and run directly, without a shell: no pipes, variables or
//! redirections, so that killing a hung engine kills the engine itself. For shell features, run
//! a shell explicitly: `"sh -c 'exec ./engine 2>>log'"`.

use super::clock::{TimeControl, parse_seconds};
use std::path::PathBuf;
use std::time::Duration;

/// The handshake vocabulary an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// `uci`/`uciok`, `ucinewgame`, `go wtime btime winc binc`.
    Uci,
    /// `ugi`/`ugiok`, `uginewgame`, `go p1time p2time p1inc p2inc` (the cutegames runner's).
    Ugi,
}

/// One engine of a match, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The name in tables and records (`None`: the engine's `id name`).
    pub name: Option<String>,
    /// The working directory of the process.
    pub dir: Option<PathBuf>,
    /// A file the engine's stderr is appended to.
    pub stderr: Option<PathBuf>,
    /// The handshake vocabulary.
    pub proto: Proto,
    /// `setoption` name/value pairs, in order.
    pub options: Vec<(String, String)>,
    /// The time control.
    pub control: TimeControl,
}

/// The keys a setting may have (besides `option.NAME`).
const KEYS: [&str; 11] =
    ["cmd", "name", "dir", "stderr", "proto", "tc", "st", "movetime", "depth", "nodes", "option"];

/// True when `word` is a `KEY=VALUE` setting rather than (part of) a command.
fn is_setting(word: &str) -> bool {
    match word.split_once('=') {
        Some((key, _)) => KEYS.contains(&key) || key.starts_with("option."),
        None => false,
    }
}

impl EngineSpec {
    /// Builds an engine from the `--each` words and its own words (which override them).
    /// `label` (`engine1`) prefixes error messages.
    pub fn parse(label: &str, each: &[String], own: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            command: Vec::new(),
            name: None,
            dir: None,
            stderr: None,
            proto: Proto::Uci,
            options: Vec::new(),
            control: TimeControl::default(),
        };
        let mut command: Option<String> = None;
        for (source, words) in [("--each", each), (label, own)] {
            let mut own_command: Option<&str> = None;
            for word in words {
                let result = if is_setting(word) {
                    let (key, value) = word.split_once('=').expect("a setting has '='");
                    if key == "cmd" {
                        own_command = Some(value);
                        Ok(())
                    } else {
                        spec.apply(key, value)
                    }
                } else if let Some(previous) = own_command {
                    Err(format!(
                        "two commands: '{previous}' and '{word}' (settings are KEY=VALUE with KEY one of {}, \
                         option.NAME)",
                        KEYS[..10].join(", ")
                    ))
                } else {
                    own_command = Some(word);
                    Ok(())
                };
                result.map_err(|e| format!("{source}: {e}"))?;
            }
            if let Some(c) = own_command {
                command = Some(c.to_string());
            }
        }
        let command = command.ok_or_else(|| format!("{label}: no engine command given"))?;
        spec.command = split_words(&command).map_err(|e| format!("{label}: command '{command}': {e}"))?;
        if spec.command.is_empty() {
            return Err(format!("{label}: the engine command is empty"));
        }
        if spec.control.is_unlimited() {
            return Err(format!(
                "{label}: no time control: give tc=, st=, movetime=, depth= or nodes= (or set one with --each)"
            ));
        }
        Ok(spec)
    }

    /// Applies one setting (not `cmd`).
    fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        let number = |what: &str| -> Result<u64, String> {
            value.parse::<u64>().map_err(|_| format!("{key}='{value}': expected {what}"))
        };
        match key {
            "name" if !value.trim().is_empty() => self.name = Some(value.to_string()),
            "name" => return Err("name= is empty".to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "stderr" => self.stderr = Some(PathBuf::from(value)),
            "proto" => {
                self.proto = match value {
                    "uci" => Proto::Uci,
                    "ugi" => Proto::Ugi,
                    _ => return Err(format!("proto='{value}': expected uci or ugi")),
                }
            }
            "tc" if value == "none" || value == "inf" => {
                (self.control.moves, self.control.base, self.control.increment) = (None, None, Duration::ZERO)
            }
            "tc" => {
                let (moves, base, inc) = TimeControl::parse_clock(value)?;
                (self.control.moves, self.control.base, self.control.increment) = (moves, Some(base), inc);
            }
            "st" => {
                let t = parse_seconds(value).map_err(|e| format!("st: {e}"))?;
                self.control.movetime = Some(t);
            }
            "movetime" => self.control.movetime = Some(Duration::from_millis(number("milliseconds")?)),
            "depth" => match number("a depth of 1 to 120")? {
                d @ 1..=120 => self.control.depth = Some(d as u32),
                _ => return Err(format!("depth='{value}': expected a depth of 1 to 120")),
            },
            "nodes" => match number("a node count")? {
                0 => return Err("nodes=0: expected at least 1".to_string()),
                n => self.control.nodes = Some(n),
            },
            _ => {
                let name = key.strip_prefix("option.").unwrap_or("");
                if name.trim().is_empty() {
                    return Err(format!("'{key}={value}': expected option.NAME=VALUE"));
                }
                // A later setting of the same option replaces the earlier one (--each first).
                self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                self.options.push((name.to_string(), value.to_string()));
            }
        }
        Ok(())
    }

    /// Makes the engine play `variant`: `UCI_Variant` is sent first (changing the variant resets
    /// an engine's game), replacing any `option.UCI_Variant` given.
    pub fn set_variant(&mut self, variant: &str) {
        self.options.retain(|(n, _)| !n.eq_ignore_ascii_case("UCI_Variant"));
        self.options.insert(0, ("UCI_Variant".to_string(), variant.to_string()));
    }

    /// Tells the engine the rule options of `params` that are not their defaults, after the
    /// variant and the number of players (set those first: an engine checks an option against
    /// the players it seats), replacing any `option.NAME` given for them. Defaults are not sent,
    /// so that an engine which offers no options still plays the base game.
    pub fn set_rule_options<P: crate::game::Params>(&mut self, params: &P) {
        for (option, (name, value)) in P::RULE_OPTIONS.iter().zip(params.option_values()) {
            self.options.retain(|(n, _)| !option.is_named(n));
            if value != option.default_value() {
                self.options.push((name.to_string(), value.to_string()));
            }
        }
    }

    /// The settings as one line, for records: `tc=10+0.1 option.Hash=16`.
    pub fn settings_text(&self) -> String {
        let mut text = self.control.to_string();
        for (name, value) in &self.options {
            text.push_str(&format!(" option.{name}={value}"));
        }
        text
    }
}

/// Splits a command line into words like a POSIX shell does for quoting (no expansions).
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unterminated ' quote".to_string()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("unterminated \" quote".to_string()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("unterminated \" quote".to_string()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a trailing backslash".to_string()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_words("a  b\t'c d' \"e \\\"f\\\"\" g\\ h").unwrap(),
            words(&["a", "b", "c d", "e \"f\"", "g h"])
        );
        assert_eq!(split_words("''").unwrap(), words(&[""]));
        assert!(split_words("'open").is_err());
    }

    #[test]
    fn parses_specs_with_each() {
        let each = words(&["tc=10+0.1", "option.Hash=16"]);
        let own = words(&["./steere --x", "name=deep", "depth=4", "option.hash=8"]);
        let spec = EngineSpec::parse("engine1", &each, &own).unwrap();
        assert_eq!(spec.command, words(&["./steere", "--x"]));
        assert_eq!(spec.name.as_deref(), Some("deep"));
        assert_eq!(spec.control.depth, Some(4));
        assert_eq!(spec.control.base, Some(Duration::from_secs(10)));
        assert_eq!(spec.options, vec![("hash".to_string(), "8".to_string())]);
        assert_eq!(spec.settings_text(), "tc=10+0.1 depth=4 option.hash=8");

        let spec =
            EngineSpec::parse("engine2", &words(&["cmd=./e", "st=0.1"]), &words(&["tc=none", "depth=2"]));
        let spec = spec.unwrap();
        assert_eq!(spec.command, words(&["./e"]));
        assert_eq!(spec.control.to_string(), "movetime=100 depth=2");
    }

    #[test]
    fn rejects_bad_specs() {
        assert!(EngineSpec::parse("engine1", &[], &words(&["a", "b"])).unwrap_err().contains("two commands"));
        assert!(
            EngineSpec::parse("engine1", &[], &words(&["depth=2"]))
                .unwrap_err()
                .contains("no engine command")
        );
        assert!(EngineSpec::parse("engine1", &[], &words(&["./e"])).unwrap_err().contains("no time control"));
        assert!(EngineSpec::parse("engine1", &[], &words(&["./e", "depth=0"])).is_err());
        assert!(EngineSpec::parse("engine1", &[], &words(&["./e", "tc=abc"])).is_err());
        assert!(EngineSpec::parse("engine1", &[], &words(&["./e", "option.=3", "depth=1"])).is_err());
        assert!(EngineSpec::parse("engine1", &[], &words(&["./e", "proto=xboard", "depth=1"])).is_err());
    }
}
