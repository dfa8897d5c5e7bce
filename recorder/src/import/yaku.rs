//! Tenhou's yaku table (data/tenhou-yaku.txt): ids, Japanese names, Paifu names, English names.

use std::sync::OnceLock;

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yaku {
    pub id: u32,
    pub japanese: String,
    pub paifu: String,
    pub english: String,
}

/// A line of data/tenhou-yaku.txt that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum YakuTableError {
    #[error("data/tenhou-yaku.txt line {line}: expected 4 tab-separated fields")]
    Fields { line: usize },
    #[error("data/tenhou-yaku.txt line {line}: bad id {id:?}")]
    Id { line: usize, id: String },
}

/// The table, or the line that spoils it.
pub fn table() -> Result<&'static [Yaku], YakuTableError> {
    static T: OnceLock<Result<Vec<Yaku>, YakuTableError>> = OnceLock::new();
    T.get_or_init(|| parse(include_str!("../../data/tenhou-yaku.txt")))
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

fn parse(text: &str) -> Result<Vec<Yaku>, YakuTableError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let [id, ja, paifu, en] = f.as_slice() else {
            return Err(YakuTableError::Fields { line: i + 1 });
        };
        let id = id.parse().map_err(|_| YakuTableError::Id { line: i + 1, id: id.to_string() })?;
        out.push(Yaku { id, japanese: ja.to_string(), paifu: paifu.to_string(), english: en.to_string() });
    }
    Ok(out)
}

const WINDS_JA: [&str; 4] = ["東", "南", "西", "北"];

/// Tenhou's Japanese name for a yaku named in Paifu's form; the wind yaku name their wind
/// (`自風 南`, `場風 東`) from the seat wind and round wind (0 East to 3 North).
pub(crate) fn japanese(name: &str, seat_wind: u8, round_wind: u8) -> String {
    let t = table().unwrap_or(&[]);
    let want = match name {
        "seat_wind" => Some(format!("自風 {}", WINDS_JA[usize::from(seat_wind & 3)])),
        "round_wind" => Some(format!("場風 {}", WINDS_JA[usize::from(round_wind & 3)])),
        _ => None,
    };
    if let Some(w) = want {
        return w;
    }
    t.iter().find(|y| y.paifu == name).map(|y| y.japanese.clone()).unwrap_or_else(|| name.to_owned())
}

/// Paifu's name for a yaku named in Japanese, in English (Mahjong Soul), or already in Paifu's
/// form (mjai logs written by Paifu-compatible tools).
pub(crate) fn paifu_name(name: &str) -> Option<&'static str> {
    let t = table().ok()?;
    // Paifu's names are lower case: one in any case is read as that name.
    t.iter()
        .find(|y| y.japanese == name || y.english.eq_ignore_ascii_case(name) || y.paifu.eq_ignore_ascii_case(name))
        .map(|y| y.paifu.as_str())
}

/// The row of a Tenhou yaku id.
pub(crate) fn by_id(id: u32) -> Option<&'static Yaku> {
    table().ok()?.iter().find(|y| y.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_tenhous_55_yaku_with_unique_ids() {
        let t = table().unwrap();
        assert_eq!(t.len(), 55);
        assert!(t.iter().enumerate().all(|(i, y)| y.id == i as u32));
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = parse("# comment\n0\ta\tb\tc\n1\tx\ty\n").unwrap_err();
        assert_eq!(e, YakuTableError::Fields { line: 3 });
        assert_eq!(e.to_string(), "data/tenhou-yaku.txt line 3: expected 4 tab-separated fields");
        let e = parse("x1\ta\tb\tc\n").unwrap_err();
        assert_eq!(e.to_string(), "data/tenhou-yaku.txt line 1: bad id \"x1\"");
    }

    #[test]
    fn names_in_every_language_map_to_paifus() {
        assert_eq!(paifu_name("門前清自摸和"), Some("menzen_tsumo"));
        assert_eq!(paifu_name("役牌 中"), Some("yakuhai_chun"));
        assert_eq!(paifu_name("All Simples"), Some("tanyao"));
        assert_eq!(paifu_name("all simples"), Some("tanyao"));
        assert_eq!(paifu_name("pinfu"), Some("pinfu"));
        assert_eq!(paifu_name("nothing"), None);
        assert_eq!(paifu_name("PINFU"), Some("pinfu"));
        assert!(
            table().unwrap().iter().all(|y| y.paifu == y.paifu.to_ascii_lowercase()),
            "Paifu's names are lower case"
        );
        assert_eq!(by_id(47).unwrap().paifu, "kokushi");
        assert_eq!(japanese("tanyao", 0, 0), "断幺九");
        assert_eq!(japanese("seat_wind", 1, 0), "自風 南");
        assert_eq!(japanese("round_wind", 1, 0), "場風 東");
    }
}
