//! The names the archive keeps and shows (players, tournaments, tokens): checked before they are
//! stored, so that no name can hide text from a reader, break a terminal or a page, or grow
//! without bound; and a new player or tournament name, also so that it cannot pass for one the
//! archive holds already (see [`check_new_name`] and [`skeleton`]).

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
    /// A character Unicode says to show as nothing (Default_Ignorable_Code_Point: zero-width
    /// spaces and joiners, Hangul fillers, variation selectors, tags, ...).
    #[error("a new {kind} name may not hold invisible characters; this one has U+{code:04X} at character {at}")]
    Invisible { kind: NameKind, code: u32, at: usize },
    /// A new name that reads as one the archive holds (the same TR39 skeleton); `existing` is
    /// that one, as stored.
    #[error("a new {kind} name may not look like an existing one: this one can be read as {existing:?}, which the archive holds already (use that name, or one that does not look like it)")]
    Confusable { kind: NameKind, existing: String },
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

/// Whether Unicode says to show `c` as nothing where it is not supported: the
/// Default_Ignorable_Code_Point property (DerivedCoreProperties.txt; ICU4X's data), which holds
/// the zero-width space, joiners and non-joiner (U+200B-U+200D), the text-direction marks,
/// embeddings and isolates, the word joiner and invisible operators (U+2060-U+206F), the byte
/// order mark (U+FEFF), the soft hyphen, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
/// variation selectors and tags.
pub(super) fn invisible(c: char) -> bool {
    use icu_properties::props::{BinaryProperty, DefaultIgnorableCodePoint};
    DefaultIgnorableCodePoint::for_char(c)
}

/// A name's skeleton (Unicode Technical Standard #39, section 4): two names that look alike
/// (`Cup` and Cyrillic `Сup`, `Aiko` and `Aiko` with a zero-width space) have the same one.
pub fn skeleton(name: &str) -> String {
    unicode_security::skeleton(name).collect()
}

/// Checks a name the archive does not hold yet: [`check_name`], and no invisible character
/// ([`NameError::Invisible`]). Whether it looks like one the archive holds is the archive's
/// check, by [`skeleton`], when it stores it. Names stored before these checks keep working:
/// they are not new.
pub fn check_new_name(kind: NameKind, name: &str) -> Result<(), NameError> {
    check_name(kind, name)?;
    if let Some((at, c)) = name.chars().enumerate().find(|(_, c)| invisible(*c)) {
        return Err(NameError::Invisible { kind, code: u32::from(c), at: at + 1 });
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

    #[test]
    fn new_names_hold_nothing_invisible() {
        // Zero-width space, joiner, word joiner, byte order mark, Hangul filler, variation
        // selector, tag: each Default_Ignorable_Code_Point.
        for (bad, code, at) in [
            ("Aiko\u{200B}", 0x200B, 5),
            ("Cup\u{200D}", 0x200D, 4),
            ("A\u{2060}B", 0x2060, 2),
            ("\u{FEFF}Ann", 0xFEFF, 1),
            ("\u{3164}", 0x3164, 1),
            ("Ann\u{FE0F}", 0xFE0F, 4),
            ("Ann\u{E0041}", 0xE0041, 4),
            ("So\u{AD}ft", 0xAD, 3),
        ] {
            assert_eq!(
                check_new_name(NameKind::Player, bad),
                Err(NameError::Invisible { kind: NameKind::Player, code, at }),
                "{bad:?}"
            );
            // An old name holding one is not refused by the checks every name passes.
            assert_eq!(check_name(NameKind::Player, bad), Ok(()), "{bad:?}");
        }
        for ok in ["Aiko", "東風戦 2026", "Émile", "Сup", "ニックネーム"] {
            assert_eq!(check_new_name(NameKind::Tournament, ok), Ok(()), "{ok}");
        }
        // The text-direction characters stay refused as before, by every name.
        assert!(matches!(check_new_name(NameKind::Player, "A\u{202E}B"), Err(NameError::Control { .. })));
    }

    #[test]
    fn lookalike_names_share_a_skeleton() {
        assert_eq!(skeleton("Cup"), skeleton("\u{421}up"), "Cyrillic Es");
        assert_eq!(skeleton("Cup"), skeleton("Cup\u{200B}"));
        assert_eq!(skeleton("Aiko"), skeleton("Aiko\u{200B}"));
        assert_eq!(skeleton("paypal"), skeleton("\u{440}ay\u{440}al"));
        assert_ne!(skeleton("Cup"), skeleton("Cap"));
        assert_ne!(skeleton("Aiko"), skeleton("Aika"));
    }
}
