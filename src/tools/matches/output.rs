//! `--output FILE`: the report of a match (or of a merge) written whole or not at all, and the
//! time of a resumed match's earlier runs.
//!
//! Why not the shell's `> FILE`: the shell truncates FILE before the runner starts, so a run
//! refused at once (a wrong `--shard`), killed, or stopped before its report leaves an empty
//! or partial file where a finished shard's report was. Here the report is written to a
//! temporary file beside FILE and renamed over it: FILE holds a whole report, the old one or
//! the new one, at every moment.

use super::shards::ShardInfo;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Writes `text` to `path` atomically, or to standard output without a path.
pub fn emit(path: Option<&Path>, text: &str) -> Result<(), String> {
    let Some(path) = path else {
        crate::out!("{text}");
        return Ok(());
    };
    let temporary = temporary_path(path);
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        file.sync_all()
    });
    let renamed = written.and_then(|()| std::fs::rename(&temporary, path));
    renamed.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("--output {}: {e}", path.display())
    })
}

/// The temporary file beside `path`: same folder (a rename never crosses file systems), a
/// name of this process's own.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// The time recorded by the earlier runs of a resumed match: the `elapsed_s` of the JSON
/// report at `path`, if it is a report of the same match and shard (`fingerprint`, `index`
/// of `count`); zero otherwise (no such file, another match, a table). A run killed before
/// writing its report (SIGKILL) has no time to give.
pub fn earlier_elapsed(path: &Path, fingerprint: &str, index: u64, count: u64) -> Duration {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Duration::ZERO;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text.trim()) else {
        return Duration::ZERO;
    };
    let Some(info) = value.get("shard").and_then(|m| serde_json::from_value::<ShardInfo>(m.clone()).ok())
    else {
        return Duration::ZERO;
    };
    if info.fingerprint != fingerprint || info.index != index || info.count != count {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(info.elapsed_s).unwrap_or(Duration::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_replaces_the_file_whole_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("steere-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard-1.json");
        std::fs::write(&path, "old report").unwrap();
        emit(Some(&path), "new report\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new report\n");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
        let missing_folder = dir.join("no-such-folder").join("x.json");
        let error = emit(Some(&missing_folder), "x").unwrap_err();
        assert!(error.starts_with("--output "), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_report_of_the_same_shard_gives_its_time() {
        let dir = std::env::temp_dir().join(format!("steere-earlier-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let report = r#"{"games":2,"shard":{"index":2,"count":4,"fingerprint":"abc","settings":[],"kind":"board","variant":"impasse","seed":1,"sprt":null,"planned_games":10,"complete":false,"elapsed_s":12.5,"tally":{}}}"#;
        std::fs::write(&path, report).unwrap();
        assert_eq!(earlier_elapsed(&path, "abc", 2, 4), Duration::from_secs_f64(12.5));
        assert_eq!(earlier_elapsed(&path, "abd", 2, 4), Duration::ZERO, "another match");
        assert_eq!(earlier_elapsed(&path, "abc", 3, 4), Duration::ZERO, "another shard");
        std::fs::write(&path, "a table, not JSON").unwrap();
        assert_eq!(earlier_elapsed(&path, "abc", 2, 4), Duration::ZERO);
        assert_eq!(earlier_elapsed(&dir.join("none.json"), "abc", 2, 4), Duration::ZERO);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
