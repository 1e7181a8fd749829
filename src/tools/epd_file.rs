//! An EPD file as `steere solve` reads it: at most [`MAX_FILE_BYTES`], decoded leniently, its
//! lines at most [`MAX_LINE_BYTES`] each, split into runs of lines of one game ([`sections`])
//! before any line is parsed ([`super::epd::parse_line`]).
//!
//! Why the bounds: a file without end (`/dev/zero`) or a line of megabytes must be refused
//! with a short message, not read until the memory runs out or echoed whole. Why lenient
//! decoding: a stray byte of another encoding should spoil its own line only (which is then
//! malformed, or keeps U+FFFD in a string), not the whole file.

use crate::variants::{self, VariantInfo};
use std::path::Path;

/// The largest file read, in bytes: a position line is about 100 bytes, so this is hundreds of
/// thousands of positions.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The longest line read, in bytes: far above any position line (a Dipole 10x10 start with
/// every operation is about 200 bytes); a longer one is malformed, reported without its text.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// The text of the file at `path`: at most [`MAX_FILE_BYTES`] (a larger one is an error),
/// invalid UTF-8 read as U+FFFD.
pub fn read(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_FILE_BYTES + 1), &mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "the file is larger than {} MiB, the most solve reads; split it",
            MAX_FILE_BYTES >> 20
        ));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A run of consecutive position lines of one game.
#[derive(Clone, Debug)]
pub struct Section<'a> {
    /// The game of the lines.
    pub variant: &'static VariantInfo,
    /// The lines: their 1-based numbers and text.
    pub lines: Vec<(usize, &'a str)>,
}

/// Splits `text` into runs of position lines of one game (see the module docs), the first
/// game being `default`, in file order. A line whose game cannot be told (an unknown name), or
/// longer than [`MAX_LINE_BYTES`], is returned apart, with its number and the reason, for the
/// caller to report as malformed.
pub fn sections<'a>(
    text: &'a str,
    default: &'static VariantInfo,
) -> (Vec<Section<'a>>, Vec<(usize, String)>) {
    let (mut sections, mut malformed) = (Vec::<Section>::new(), Vec::new());
    let mut current = default;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if line.len() > MAX_LINE_BYTES {
            malformed.push((
                number,
                format!(
                    "the line is {} bytes long, more than the {MAX_LINE_BYTES} of a position line",
                    line.len()
                ),
            ));
            continue;
        }
        let trimmed = line.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            if let Some(name) = comment.trim().strip_prefix("variant:") {
                match variants::find(name) {
                    Ok(info) => current = info,
                    Err(e) => malformed.push((number, e)),
                }
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let variant = match line_variant(trimmed) {
            None => current,
            Some(name) => match variants::find(name) {
                Ok(info) => info,
                Err(e) => {
                    malformed.push((number, format!("variant: {e}")));
                    continue;
                }
            },
        };
        match sections.last_mut() {
            Some(section) if std::ptr::eq(section.variant, variant) => section.lines.push((number, line)),
            _ => sections.push(Section { variant, lines: vec![(number, line)] }),
        }
    }
    (sections, malformed)
}

/// The operand of a line's `variant` operation, if it has one: the word after the first
/// unquoted word `variant` past the first field (no FEN field is spelt `variant`).
fn line_variant(line: &str) -> Option<&str> {
    let mut words = Vec::new();
    let mut quoted = false;
    for part in line.split('"') {
        if !quoted {
            words.extend(part.split(|c: char| c.is_whitespace() || c == ';').filter(|w| !w.is_empty()));
        }
        quoted = !quoted;
    }
    let at = words.iter().skip(1).position(|w| *w == "variant")? + 1;
    words.get(at + 1).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_follow_headers_and_variant_operations() {
        let text = "8/8/8/8/8/8/8/w7 w\n# variant: dipole\n8/8 w; id x\n8/8 w variant dipole10\n\
                    8/8 w id \"variant chess\"\n# variant: chess\n8/8 w; variant go\n";
        let (sections, malformed) = sections(text, variants::find("impasse").unwrap());
        let shape: Vec<(&str, Vec<usize>)> =
            sections.iter().map(|s| (s.variant.name, s.lines.iter().map(|l| l.0).collect())).collect();
        assert_eq!(
            shape,
            [("impasse", vec![1]), ("dipole", vec![3]), ("dipole10", vec![4]), ("dipole", vec![5])]
        );
        assert_eq!(malformed.iter().map(|m| m.0).collect::<Vec<_>>(), [6, 7]);
    }

    #[test]
    fn long_lines_are_set_apart_without_their_text() {
        let text = format!("{}\n8/8/8/8/8/8/8/w7 w\n", "x".repeat(MAX_LINE_BYTES + 1));
        let (sections, malformed) = sections(&text, variants::find("impasse").unwrap());
        assert_eq!(sections.len(), 1);
        assert_eq!(malformed.len(), 1);
        assert_eq!(malformed[0].0, 1);
        assert!(malformed[0].1.starts_with("the line is 65537 bytes long"), "{}", malformed[0].1);
    }

    #[test]
    fn a_stray_byte_spoils_only_its_line() {
        let path = std::env::temp_dir().join(format!("steere-epd-file-{}", std::process::id()));
        std::fs::write(&path, b"a\n\xe9\nb\n").unwrap();
        assert_eq!(read(&path).unwrap(), "a\n\u{fffd}\nb\n");
        let _ = std::fs::remove_file(&path);
    }
}
