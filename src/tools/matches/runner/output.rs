//! `--output FILE`: the report of a match (or of a merge) written whole or not at all.
//!
//! Why not the shell's `> FILE`: the shell truncates FILE before the runner starts, so a run
//! refused at once (a wrong `--shard`), killed, or stopped before its report leaves an empty
//! or partial file where a finished shard's report was. Here the report is written to a
//! temporary file beside FILE and renamed over it: FILE holds a whole report, the old one or
//! the new one, at every moment.

use std::io::Write;
use std::path::{Path, PathBuf};

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
}
