//! Positions in the record model (tenhou.net/6 paths such as `log[2][5][7]`, record.rs) mapped to
//! a source's own positions (`line 12` in mjai, `byte 1234` in mjlog).

use super::to_log::Imported;
use super::ImportError;
use std::collections::HashMap;

/// Record paths mapped to source positions.
#[derive(Clone, Debug, Default)]
pub(crate) struct PosMap(HashMap<String, String>);

impl PosMap {
    /// Maps a path to a line of the source (`line 12`).
    pub(crate) fn set(&mut self, path: String, line: usize) {
        self.0.insert(path, format!("line {line}"));
    }

    /// Maps a path to any position text (`byte 1234`).
    pub(crate) fn set_label(&mut self, path: String, label: String) {
        self.0.insert(path, label);
    }

    /// The source position of a path, or of its nearest enclosing path.
    pub(crate) fn map(&self, path: &str) -> String {
        let mut p = path;
        loop {
            if let Some(l) = self.0.get(p) {
                return l.clone();
            }
            match p.rfind('[') {
                Some(i) if i > 0 => p = &p[..i],
                _ => return path.to_owned(),
            }
        }
    }

    /// The error with its position in the source.
    pub(crate) fn error(&self, mut e: ImportError) -> ImportError {
        e.position = self.map(&e.position);
        e
    }

    /// The import with its records' and mismatches' positions in the source.
    pub(crate) fn imported(&self, mut imp: Imported) -> Imported {
        for p in &mut imp.positions {
            *p = self.map(p);
        }
        for m in &mut imp.mismatches {
            m.error.position = self.map(&m.error.position);
        }
        imp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_maps_to_its_own_or_its_nearest_enclosing_position() {
        let mut pm = PosMap::default();
        pm.set("log[0][5]".into(), 7);
        pm.set_label("log[1]".into(), "byte 90".into());
        assert_eq!(pm.map("log[0][5][3]"), "line 7");
        assert_eq!(pm.map("log[1][16][2]"), "byte 90");
        assert_eq!(pm.map("log[2][4]"), "log[2][4]");
        assert_eq!(pm.error(ImportError::new("log[0][5]", "x")).position, "line 7");
    }
}
