//! What the server accepts from a request, checked before anything else sees it:
//! - a body of at most [`MAX_BODY`] bytes (a record file of many games fits): a longer one is
//!   refused with status 413, before it is read when its length is announced;
//! - a move (or a dice game's event) of at most [`MAX_MOVE`] characters, trimmed, with no
//!   blank or control character inside: a move's text goes into the `position ... moves ...`
//!   line sent to engines, where a line break would end the line early and a blank would split
//!   one move into two, and the engine would be blamed for the illegal move that follows.
//!
//! - games in progress, at most [`Limits::max_games`], each left when no page has shown it for
//!   [`Limits::idle`] ([`super::upkeep`] keeps to these).
//!
//! A stalled upload holds only its own request's thread (the server answers each request on a
//! thread of its own, [`super::serve`]), so it keeps no one else waiting.

use std::io::Read;
use std::time::Duration;
use tiny_http::Request;

/// The default idle timeout: a game no page has shown for this long is left.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(180);

/// The default cap on games in progress.
pub const MAX_GAMES: usize = 8;

/// How long games may stay unshown, and how many may be in progress.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A game no page has shown for this long is left and its engines stop.
    pub idle: Duration,
    /// The most games in progress at once.
    pub max_games: usize,
}

/// The largest request body read, in bytes.
pub const MAX_BODY: usize = 1 << 20;

/// The longest move text accepted, in characters: a HexDame king taking every man of the
/// other side (`a1xc3x...`, three characters a capture) is under 50.
pub const MAX_MOVE: usize = 100;

/// Why a body was not read: the HTTP status and the message.
pub type BodyError = (u16, String);

/// The body of a `POST`, as text: status 413 when it is longer than [`MAX_BODY`] (told by its
/// announced length, or found while reading a chunked one), 400 when it cannot be read.
pub fn read_body(request: &mut Request) -> Result<String, BodyError> {
    let too_large = |size: &str| (413, format!("request body too large: {size} bytes (at most {MAX_BODY})"));
    if let Some(length) = request.body_length().filter(|&length| length > MAX_BODY) {
        return Err(too_large(&length.to_string()));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| (400, format!("cannot read the request: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large(&format!("over {MAX_BODY}")));
    }
    String::from_utf8(body).map_err(|_| (400, "the request body is not UTF-8 text".to_string()))
}

/// The move `text` trimmed, or why it cannot be a move (a one-line message: the text is
/// quoted with its control characters escaped).
pub fn move_text(text: &str) -> Result<&str, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("no move given".to_string());
    }
    let length = text.chars().count();
    if length > MAX_MOVE {
        return Err(format!("move text too long: {length} characters, at most {MAX_MOVE}"));
    }
    if let Some(bad) = text.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "bad move \"{}\": a move holds no space or control character ({})",
            text.escape_debug(),
            bad.escape_debug()
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_trimmed_and_blanks_controls_and_long_texts_refused() {
        assert_eq!(move_text(" \nc7b6\r\n"), Ok("c7b6"));
        assert_eq!(move_text("c3xe5xg5"), Ok("c3xe5xg5"));
        for bad in ["c7 b6", "c7\nb6", "c7\tb6", "c7b6\u{0}", "\u{7f}c7b6", "c7\u{a0}b6"] {
            let error = move_text(bad).unwrap_err();
            assert!(error.contains("space or control") && !error.contains('\n'), "{bad:?}: {error}");
        }
        assert!(move_text(&"x".repeat(MAX_MOVE + 1)).unwrap_err().contains("too long"));
        assert!(move_text(&"x".repeat(MAX_MOVE)).is_ok());
        assert_eq!(move_text(" \t").unwrap_err(), "no move given");
    }

    #[test]
    fn bodies_over_the_bound_are_refused_with_413() {
        let body = |text: &'static str| -> Request { tiny_http::TestRequest::new().with_body(text).into() };
        assert_eq!(read_body(&mut body("{\"id\": 1}")), Ok("{\"id\": 1}".to_string()));
        let oversize: &'static str = Box::leak("x".repeat(MAX_BODY + 1).into_boxed_str());
        let (status, message) = read_body(&mut body(oversize)).unwrap_err();
        assert_eq!(status, 413);
        assert!(message.contains("too large"), "{message}");
    }
}
