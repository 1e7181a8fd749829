//! The fingerprint of a match: every setting that must agree between the shards of one match
//! (and between a match and its resumption), as named text values and their hash.
//!
//! In it: the kind of runner and the variant; each engine's command, name, working directory,
//! dialect, limits and options (its `stderr=` log is not: each shard may log elsewhere); the
//! opening book's text (its hash; the built-in book's when none is given); the seed; the
//! schedule's length in units (pairs or dice streams); the draw caps or turn limit, the players,
//! the time margin and move timeout; the SPRT's parameters. Not in it: the shard itself,
//! `--concurrency`, `--pgn`, `--json` and `--progress`, which change how a match runs but not
//! which games it plays.

use crate::client::spec::{EngineSpec, Proto};
use crate::tools::matches::report::stats::Sprt;

/// The settings, in a fixed order, as `(name, value)` text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    /// The settings, in order.
    pub settings: Vec<(String, String)>,
}

impl Fingerprint {
    /// Adds a setting.
    pub fn push(&mut self, name: &str, value: impl ToString) {
        self.settings.push((name.to_string(), value.to_string()));
    }

    /// Adds an engine's settings under `label` (`engine1`).
    pub fn push_engine(&mut self, label: &str, spec: &EngineSpec) {
        self.push(&format!("{label}.command"), spec.command.join(" "));
        self.push(&format!("{label}.name"), spec.name.as_deref().unwrap_or("(id name)"));
        let dir = spec.dir.as_ref().map_or("(current)".to_string(), |d| d.display().to_string());
        self.push(&format!("{label}.dir"), dir);
        self.push(&format!("{label}.proto"), if spec.proto == Proto::Ugi { "ugi" } else { "uci" });
        self.push(&format!("{label}.settings"), spec.settings_text());
    }

    /// Adds the SPRT's parameters, or that there is no test.
    pub fn push_sprt(&mut self, sprt: Option<&Sprt>) {
        let text = sprt.map_or("none".to_string(), |s| {
            format!("elo0={} elo1={} alpha={} beta={}", s.elo0, s.elo1, s.alpha, s.beta)
        });
        self.push("sprt", text);
    }

    /// The hash of every setting, 16 hex digits.
    pub fn hash(&self) -> String {
        let mut text = String::new();
        for (name, value) in &self.settings {
            text.push_str(name);
            text.push('=');
            text.push_str(value);
            text.push('\n');
        }
        format!("{:016x}", fnv1a(text.as_bytes()))
    }
}

/// The 64-bit FNV-1a hash: stable across builds and platforms (std's hashers are not).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference (isthe.com/chongo/tech/comp/fnv): "" and "a".
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn any_setting_changes_the_hash() {
        let mut a = Fingerprint::default();
        a.push("seed", 1);
        let mut b = Fingerprint::default();
        b.push("seed", 2);
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.hash(), a.clone().hash());
    }
}
