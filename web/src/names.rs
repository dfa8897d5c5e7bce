//! Yaku, fan and scoring lines by the names players use, from data files: riichi's yaku in
//! English with the Japanese beside (`web/data/riichi-yaku.txt`), MCR's fan by their official
//! English and Chinese names (`core/data/mcr-fans.txt`, the fan table of the official rule
//! book, read through the engine), Hungarian lines in English (`web/data/hungarian-lines.txt`).

const RIICHI_YAKU: &str = include_str!("../data/riichi-yaku.txt");
const HUNGARIAN_LINES: &str = include_str!("../data/hungarian-lines.txt");

/// The data lines of a ` | `-separated table, comments and blank lines skipped.
fn rows(table: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    table
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').map(str::trim).collect())
}

/// A name for people, and the original beside it (empty when there is none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Name {
    pub english: String,
    pub original: String,
}

/// A key as words, when no table names it: `last_tile` Last tile.
fn words(key: &str) -> String {
    let spaced = key.replace('_', " ");
    let mut c = spaced.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// A riichi yaku: `yakuhai_hatsu` Green dragon, hatsu 役牌 發.
pub(crate) fn yaku(key: &str) -> Name {
    rows(RIICHI_YAKU).find(|r| r.first() == Some(&key)).map_or_else(
        || Name { english: words(key), original: String::new() },
        |r| Name {
            english: r.get(1).copied().unwrap_or(key).to_owned(),
            original: format!("{} {}", r.get(2).copied().unwrap_or(""), r.get(3).copied().unwrap_or(""))
                .trim()
                .to_owned(),
        },
    )
}

/// An MCR fan by its official names: `mixed_straight` Mixed Straight, 花龙.
pub(crate) fn fan(key: &str) -> Name {
    match paifu_core::mcr::Fan::from_name(key) {
        Some(f) => Name { english: f.info().english.to_owned(), original: f.info().chinese.to_owned() },
        None => Name { english: words(key), original: String::new() },
    }
}

/// A Hungarian scoring line: `exposed_kong_terminals_honours` Exposed kong of terminals or
/// honours; a doubling as the engine writes it (`x2 dragon_set`) with its factor after.
pub(crate) fn hungarian_line(name: &str) -> String {
    let (factor, key) = match name.split_once(' ') {
        Some((f, k)) if f.starts_with('x') => (Some(f), k),
        _ => (None, name),
    };
    let english = rows(HUNGARIAN_LINES)
        .find(|r| r.first() == Some(&key))
        .and_then(|r| r.get(1).map(|s| (*s).to_owned()))
        .unwrap_or_else(|| words(key));
    match factor {
        Some(f) => format!("{english} (×{})", &f[1..]),
        None => english,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_yaku_fan_and_line_has_a_name_for_people() {
        for y in paifu_core::riichi::Yaku::ALL {
            let n = yaku(y.name());
            assert!(!n.original.is_empty(), "{} has no entry in riichi-yaku.txt", y.name());
            assert!(!n.english.contains('_'), "{n:?}");
        }
        for k in ["dora", "aka_dora", "ura_dora"] {
            assert!(!yaku(k).original.is_empty(), "{k}");
        }
        assert_eq!(yaku("yakuhai_hatsu"), Name { english: "Green dragon".into(), original: "hatsu 役牌 發".into() });
        assert_eq!(fan("mixed_straight"), Name { english: "Mixed Straight".into(), original: "花龙".into() });
        assert_eq!(fan("last_tile").english, "Last Tile");
        for f in paifu_core::mcr::Fan::ALL {
            assert!(!fan(f.name()).original.is_empty(), "{}", f.name());
        }
        use paifu_core::hungarian::table::{Doubling, Limit, Line};
        let keys: Vec<&str> = Line::ALL
            .iter()
            .map(|l| l.name())
            .chain(Doubling::ALL.iter().map(|d| d.name()))
            .chain(Limit::ALL.iter().map(|l| l.name()))
            .collect();
        for k in keys {
            assert!(rows(HUNGARIAN_LINES).any(|r| r.first() == Some(&k)), "{k} has no entry in hungarian-lines.txt");
        }
        assert_eq!(hungarian_line("exposed_kong_terminals_honours"), "Exposed kong of terminals or honours");
        assert_eq!(hungarian_line("x2 dragon_set"), "Set of dragons (×2)");
    }
}
