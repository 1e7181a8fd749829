//! Input repeated in messages: every error that quotes what it was given (a token of the
//! protocol, a field of an EPD line, a move) quotes it through [`quote`], so that a 1 MB token
//! never makes a 1 MB error line and a control character never ends a line early, wherever the
//! message is printed.

use crate::game::MoveTextError;

/// The longest part of an input token that messages repeat.
pub const QUOTE_CHARS: usize = 40;

/// A token of the input, in quotes, fit to be printed on one output line: shortened to
/// [`QUOTE_CHARS`] characters (and `...`) and with control characters escaped.
pub fn quote(token: &str) -> String {
    let mut out = String::from("'");
    for (i, c) in token.chars().enumerate() {
        if i == QUOTE_CHARS {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// `message` cut to `max_chars` characters (and `...`): the last guard of a line that quotes
/// what a rule wrote, which may repeat more of the input than [`quote`] would.
pub fn shorten(message: &str, max_chars: usize) -> String {
    match message.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}...", &message[..cut]),
        None => message.to_string(),
    }
}

/// `text` with every verbatim quotation of `token` (`'TOKEN'`, as the rules write it in their
/// messages) replaced by [`quote`]`(token)`.
pub fn requote(text: &str, token: &str) -> String {
    text.replace(&format!("'{token}'"), &quote(token))
}

/// Why a move (or event) text was refused, without the text itself: `malformed: REASON` or
/// `illegal in this position HINT`, any quotation of the text in it shortened by [`quote`]. The
/// caller names the move, with [`quote`].
pub fn move_error_reason(error: &MoveTextError) -> String {
    match error {
        MoveTextError::Malformed { text, reason } => format!("malformed: {}", requote(reason, text)),
        MoveTextError::Illegal { text, hint } => format!("illegal in this position{}", requote(hint, text)),
    }
}

/// [`MoveTextError`]'s own message with the move quoted by [`quote`]: `malformed move 'M':
/// REASON` or `illegal move 'M' in this position HINT`.
pub fn move_error_text(error: &MoveTextError) -> String {
    match error {
        MoveTextError::Malformed { text, reason } => {
            format!("malformed move {}: {}", quote(text), requote(reason, text))
        }
        MoveTextError::Illegal { text, hint } => {
            format!("illegal move {} in this position{}", quote(text), requote(hint, text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_tokens_are_shortened_and_control_characters_escaped() {
        assert_eq!(quote("d2e3"), "'d2e3'");
        let long = "x".repeat(1000);
        assert_eq!(quote(&long), format!("'{}...'", "x".repeat(QUOTE_CHARS)));
        assert_eq!(quote("a\rb"), "'a\\rb'");
    }

    #[test]
    fn long_messages_are_cut_short() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten(&"é".repeat(100), 10), format!("{}...", "é".repeat(10)));
    }

    #[test]
    fn move_errors_never_repeat_a_long_text() {
        let text = "y".repeat(1 << 20);
        let error = MoveTextError::Malformed {
            text: text.clone(),
            reason: format!("'{text}' is no event: expected a roll"),
        };
        let reason = move_error_reason(&error);
        assert!(reason.len() < 100, "{reason}");
        assert!(
            reason.starts_with("malformed: 'yyy") && reason.ends_with("...' is no event: expected a roll")
        );
        let error =
            MoveTextError::Illegal { text: text.clone(), hint: format!(": '{text}' is not legal here") };
        assert!(move_error_text(&error).len() < 150);
        assert!(move_error_reason(&error).starts_with("illegal in this position: 'yyy"));
    }
}
