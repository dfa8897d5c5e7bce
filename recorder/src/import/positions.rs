//! Places in the record model (tenhou.net/6 paths such as `log[2][5][7]`, record.rs), kept as
//! numbers and written out only when a message names them, and their map to a source's own
//! positions (`line 12` in mjai, `byte 1234` in mjlog).

use super::ImportError;
use std::collections::HashMap;
use std::fmt;

/// The map's hasher: foldhash (hashbrown's own default), seeded per map. Its keys are small
/// numbers bounded by the size of a source file, which SipHash would hash ten times slower, once
/// for every line of the file.
type Hasher = foldhash::fast::RandomState;

/// A place in the record model: `log[round]`, `log[round][entry]` or
/// `log[round][entry][item]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    pub(crate) round: u32,
    pub(crate) entry: Option<u8>,
    pub(crate) item: Option<u32>,
}

impl Pos {
    /// `log[round]`.
    pub(crate) fn round(round: usize) -> Pos {
        Pos { round: round as u32, entry: None, item: None }
    }

    /// `log[round][entry]`.
    pub(crate) fn entry(round: usize, entry: usize) -> Pos {
        Pos { round: round as u32, entry: Some(entry as u8), item: None }
    }

    /// `log[round][entry][item]`.
    pub(crate) fn item(round: usize, entry: usize, item: usize) -> Pos {
        Pos { round: round as u32, entry: Some(entry as u8), item: Some(item as u32) }
    }

    /// The places of a round's start that one line (mjai's `start_kyoku`) or tag (mjlog's
    /// `<INIT>`) gives: the round, its kyoku, points, dora and first indicator, and its result.
    pub(crate) fn round_start(round: usize) -> [Pos; 6] {
        [
            Pos::round(round),
            Pos::entry(round, 0),
            Pos::entry(round, 1),
            Pos::entry(round, 2),
            Pos::item(round, 2, 0),
            Pos::entry(round, 16),
        ]
    }

    /// The place a path names (`log[3]`, `log[3][5]`, `log[3][5][7]`, deeper steps left out);
    /// `None` for any other text.
    fn of_path(path: &str) -> Option<Pos> {
        let mut rest = path.strip_prefix("log")?;
        let mut steps = [None::<u32>; 3];
        let mut k = 0;
        while !rest.is_empty() {
            let inner = rest.strip_prefix('[')?;
            let end = inner.find(']')?;
            let n: u32 = inner[..end].parse().ok()?;
            if let Some(step) = steps.get_mut(k) {
                *step = Some(n);
            }
            k += 1;
            rest = &inner[end + 1..];
        }
        let round = steps[0]?;
        let entry = steps[1].map(|e| u8::try_from(e).ok()).map_or(Some(None), |e| e.map(Some))?;
        Some(Pos { round, entry, item: steps[2].filter(|_| entry.is_some()) })
    }

    /// The enclosing place: the entry of an item, the round of an entry.
    fn up(self) -> Option<Pos> {
        match (self.entry, self.item) {
            (_, Some(_)) => Some(Pos { item: None, ..self }),
            (Some(_), None) => Some(Pos { entry: None, ..self }),
            (None, None) => None,
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "log[{}]", self.round)?;
        if let Some(e) = self.entry {
            write!(f, "[{e}]")?;
        }
        if let Some(i) = self.item {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// A position in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Label {
    /// `line 12` (mjai).
    Line(usize),
    /// `byte 1234` (mjlog: the tag's offset).
    Byte(u64),
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Line(n) => write!(f, "line {n}"),
            Label::Byte(n) => write!(f, "byte {n}"),
        }
    }
}

/// Where a record of an import comes from: a position in its source file, a place in the record
/// model, or (the formats that name their places themselves) a text; written out only when a
/// message names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place(At);

#[derive(Clone, Debug, PartialEq, Eq)]
enum At {
    Source(Label),
    Model(Pos),
    Text(Box<str>),
}

impl Place {
    /// A place named by a text (a path such as `log[2][5]`, or `hand 3, line 7`).
    pub(crate) fn text(t: impl Into<Box<str>>) -> Place {
        Place(At::Text(t.into()))
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            At::Source(l) => l.fmt(f),
            At::Model(p) => p.fmt(f),
            At::Text(t) => f.write_str(t),
        }
    }
}

/// Record-model places mapped to source positions; empty for tenhou.net/6, whose positions are
/// the model's own.
#[derive(Clone, Debug, Default)]
pub(crate) struct PosMap {
    places: HashMap<Pos, Label, Hasher>,
    /// `sc`, the final results (mjlog's `owari`).
    sc: Option<Label>,
}

impl PosMap {
    /// An empty map with room for `n` places.
    pub(crate) fn with_capacity(n: usize) -> PosMap {
        PosMap { places: HashMap::with_capacity_and_hasher(n, Hasher::default()), sc: None }
    }

    pub(crate) fn set(&mut self, pos: Pos, label: Label) {
        self.places.insert(pos, label);
    }

    /// Sets `sc`, the final results' position.
    pub(crate) fn set_sc(&mut self, label: Label) {
        self.sc = Some(label);
    }

    /// The label of a place, or of its nearest enclosing place.
    fn lookup(&self, pos: Pos) -> Option<Label> {
        let mut p = Some(pos);
        while let Some(q) = p {
            if let Some(l) = self.places.get(&q) {
                return Some(*l);
            }
            p = q.up();
        }
        None
    }

    /// The source position of a place, or of its nearest enclosing place; the place itself when
    /// none is mapped.
    pub(crate) fn map_pos(&self, pos: Pos) -> String {
        self.place(pos).to_string()
    }

    /// [`PosMap::map_pos`], kept as numbers: written out only when a message names it.
    pub(crate) fn place(&self, pos: Pos) -> Place {
        Place(match self.lookup(pos) {
            Some(l) => At::Source(l),
            None => At::Model(pos),
        })
    }

    /// A record's place mapped to the source's positions: a model place as [`PosMap::place`], a
    /// path as [`PosMap::map`].
    pub(crate) fn locate(&self, p: Place) -> Place {
        match p.0 {
            At::Model(pos) => self.place(pos),
            At::Text(path) => Place::text(self.map(&path)),
            At::Source(_) => p,
        }
    }

    /// [`PosMap::map_pos`] of a path (`log[3][5][7]`, deeper steps read as their item's); `sc`
    /// and any other text as they are mapped, or themselves.
    pub(crate) fn map(&self, path: &str) -> String {
        let label = match Pos::of_path(path) {
            Some(p) => self.lookup(p),
            None if path == "sc" => self.sc,
            None => None,
        };
        label.map_or_else(|| path.to_owned(), |l| l.to_string())
    }

    /// The error with its position in the source.
    pub(crate) fn error(&self, mut e: ImportError) -> ImportError {
        e.position = self.map(&e.position);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_maps_to_its_own_or_its_nearest_enclosing_position() {
        let mut pm = PosMap::default();
        pm.set(Pos::entry(0, 5), Label::Line(7));
        pm.set(Pos::round(1), Label::Byte(90));
        pm.set(Pos::item(1, 16, 2), Label::Line(40));
        pm.set_sc(Label::Byte(12));
        assert_eq!(pm.map("log[0][5][3]"), "line 7");
        assert_eq!(pm.map("log[1][16][3]"), "byte 90");
        assert_eq!(pm.map("log[1][16][2][2]"), "line 40", "deeper steps read as their item's");
        assert_eq!(pm.map("log[2][4]"), "log[2][4]");
        assert_eq!(pm.map("sc"), "byte 12");
        assert_eq!(pm.map("line 3"), "line 3");
        assert_eq!(pm.map("paifu.order"), "paifu.order");
        assert_eq!(pm.map_pos(Pos::item(0, 5, 3)), "line 7");
        assert_eq!(pm.map_pos(Pos::item(3, 6, 1)), "log[3][6][1]");
        assert_eq!(pm.error(ImportError::new("log[0][5]", "x")).position, "line 7");
        assert_eq!(PosMap::default().map("sc"), "sc");
    }

    #[test]
    fn places_read_back_from_their_paths() {
        for p in [Pos::round(3), Pos::entry(3, 16), Pos::item(12, 5, 30)] {
            assert_eq!(Pos::of_path(&p.to_string()), Some(p));
        }
        assert_eq!(Pos::of_path("log[1][2][3][4]"), Some(Pos::item(1, 2, 3)));
        assert_eq!(Pos::of_path("log[1], line 2, column 3"), None);
        assert_eq!(Pos::of_path("log"), None);
        assert_eq!(Pos::of_path("log[x]"), None);
        assert_eq!(Pos::of_path("log[0][999]"), None);
    }
}
