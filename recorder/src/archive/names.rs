//! The names the archive keeps and shows (players, tournaments, tokens): checked before they are
//! stored, so that no name can hide text from a reader, break a terminal or a page, or grow
//! without bound.

use std::fmt;

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// What a name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Player,
    Tournament,
    Token,
}

impl fmt::Display for NameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NameKind::Player => "player",
            NameKind::Tournament => "tournament",
            NameKind::Token => "token",
        })
    }
}

/// Why a name is refused. The messages never repeat the name itself (it may be anything).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a {kind} name may not be empty")]
    Empty { kind: NameKind },
    #[error("a {kind} name may have at most {MAX_NAME_CHARS} characters; this one has {chars}")]
    TooLong { kind: NameKind, chars: usize },
    #[error(
        "a {kind} name may not hold control or text-direction characters; this one has U+{code:04X} at character {at}"
    )]
    Control { kind: NameKind, code: u32, at: usize },
    #[error("a {kind} name may not begin or end with white space")]
    Space { kind: NameKind },
}

/// Characters that reorder the text around them (bidirectional embeddings, overrides and
/// isolates): a name holding one can show as another.
fn reorders_text(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Checks a name: not empty, at most [`MAX_NAME_CHARS`] characters, no control characters
/// (U+0000 to U+001F, U+007F to U+009F) and no text-direction characters. Tournament and token
/// names may not begin or end with white space either (they are typed in again to find them;
/// player names come from the logs as they are).
pub fn check_name(kind: NameKind, name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty { kind });
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(NameError::TooLong { kind, chars });
    }
    if let Some((at, c)) = name.chars().enumerate().find(|(_, c)| c.is_control() || reorders_text(*c)) {
        return Err(NameError::Control { kind, code: u32::from(c), at: at + 1 });
    }
    if kind != NameKind::Player && name.trim() != name {
        return Err(NameError::Space { kind });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_bounded_and_printable() {
        for ok in ["Ann", "Cy Ré", "東風戦 2026", "ニックネーム", &"x".repeat(MAX_NAME_CHARS)] {
            assert_eq!(check_name(NameKind::Tournament, ok), Ok(()), "{ok}");
        }
        assert_eq!(check_name(NameKind::Tournament, ""), Err(NameError::Empty { kind: NameKind::Tournament }));
        assert_eq!(
            check_name(NameKind::Player, &"é".repeat(MAX_NAME_CHARS + 1)),
            Err(NameError::TooLong { kind: NameKind::Player, chars: MAX_NAME_CHARS + 1 })
        );
        assert_eq!(
            check_name(NameKind::Tournament, "\u{0}"),
            Err(NameError::Control { kind: NameKind::Tournament, code: 0, at: 1 })
        );
        for (bad, code) in [("Ann\nBo", 0x0A), ("A\u{1b}[31m", 0x1B), ("A\u{7f}", 0x7F), ("A\u{85}", 0x85)] {
            assert!(
                matches!(check_name(NameKind::Player, bad), Err(NameError::Control { code: c, .. }) if c == code),
                "{bad:?}"
            );
        }
        // Right-to-left override: "Ann\u{202E}oB" shows as "AnnBo" reversed.
        let e = check_name(NameKind::Player, "Ann\u{202E}oB").unwrap_err();
        assert_eq!(e, NameError::Control { kind: NameKind::Player, code: 0x202E, at: 4 });
        assert!(e.to_string().contains("U+202E at character 4"), "{e}");
        // Players may keep their spaces; tournaments and tokens may not.
        assert_eq!(check_name(NameKind::Player, " Ann"), Ok(()));
        assert_eq!(check_name(NameKind::Token, "ci "), Err(NameError::Space { kind: NameKind::Token }));
        // The message never repeats the name.
        let long = "secret".repeat(20);
        assert!(!check_name(NameKind::Tournament, &long).unwrap_err().to_string().contains("secret"));
    }
}
