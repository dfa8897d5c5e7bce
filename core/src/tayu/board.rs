//! The Ta Yü board: placed pieces, placement legality, open channel ends, mouths and scoring.

use super::pieces::{has_side, BoardSpec, Dir, Exit, Placement};
use std::fmt::Write as _;

/// Why a piece cannot lie where it was put (RULINGS.md, Ta Yü, "Placement").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error("it would lie partly outside the board (square {row},{col})")]
    OutsideBoard { row: i16, col: i16 },
    #[error("square {row},{col} is already covered")]
    Occupied { row: i16, col: i16 },
    #[error("the first piece must cover the centre {row},{col}")]
    FirstOffCentre { row: u8, col: u8 },
    #[error("none of its exits meets an open channel end of the network")]
    NotConnected,
    #[error("its exit on the {side} side of {row},{col} faces a blank side of a placed piece")]
    ExitAgainstBlank { row: i16, col: i16, side: Dir },
    #[error("it blocks the open channel end on the {side} side of {row},{col}")]
    BlocksOpenEnd { row: i16, col: i16, side: Dir },
}

/// A mouth: an exit on the board's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mouth {
    pub coast: Dir,
    /// Position along the coast: the column on North and South, the row on East and West.
    pub pos: u8,
    pub value: u32,
}

/// The board with the pieces placed on it, in order.
#[derive(Clone, Debug)]
pub struct Board {
    spec: BoardSpec,
    /// Per square (row-major): 0 empty, else 1 + the index of the piece covering it.
    cover: Vec<u8>,
    /// Per square: the sides that carry an exit (bit `Dir::index`).
    exits: Vec<u8>,
    pieces: Vec<Placement>,
}

impl Board {
    pub fn new(spec: BoardSpec) -> Board {
        let n = usize::from(spec.size) * usize::from(spec.size);
        Board { spec, cover: vec![0; n], exits: vec![0; n], pieces: Vec::new() }
    }

    pub(crate) fn spec(&self) -> &BoardSpec {
        &self.spec
    }

    pub fn size(&self) -> u8 {
        self.spec.size
    }

    /// The pieces in the order they were placed.
    pub fn pieces(&self) -> &[Placement] {
        &self.pieces
    }

    fn index(&self, (r, c): (i16, i16)) -> Option<usize> {
        let n = i16::from(self.spec.size);
        if (0..n).contains(&r) && (0..n).contains(&c) {
            Some(r as usize * usize::from(self.spec.size) + c as usize)
        } else {
            None
        }
    }

    /// Which piece (index in placing order) covers a square, if any.
    pub(crate) fn piece_at(&self, row: i16, col: i16) -> Option<usize> {
        let i = self.index((row, col))?;
        self.cover.get(i).copied().filter(|&v| v > 0).map(|v| usize::from(v) - 1)
    }

    /// The exit sides of a square (empty or outside: 0).
    fn exits_at(&self, sq: (i16, i16)) -> u8 {
        self.index(sq).and_then(|i| self.exits.get(i).copied()).unwrap_or(0)
    }

    fn occupied(&self, sq: (i16, i16)) -> bool {
        self.index(sq).and_then(|i| self.cover.get(i)).is_some_and(|&v| v > 0)
    }

    /// Checks a placement against every rule, in this order: inside the board, on empty
    /// squares, the first piece over the centre; then each outer side of the piece against
    /// its neighbour (exit against blank side, blocked open end); then that some exit meets
    /// an open end.
    pub fn check(&self, p: &Placement) -> Result<(), PlaceError> {
        let sq = p.squares();
        for &(row, col) in &sq {
            if self.index((row, col)).is_none() {
                return Err(PlaceError::OutsideBoard { row, col });
            }
        }
        for &(row, col) in &sq {
            if self.occupied((row, col)) {
                return Err(PlaceError::Occupied { row, col });
            }
        }
        if self.pieces.is_empty() {
            let (cr, cc) = self.spec.centre;
            if !sq.contains(&(i16::from(cr), i16::from(cc))) {
                return Err(PlaceError::FirstOffCentre { row: cr, col: cc });
            }
            return Ok(());
        }
        let masks = p.exit_masks();
        let mut met = false;
        for (k, &(r, c)) in sq.iter().enumerate() {
            for d in Dir::ALL {
                let (dr, dc) = d.delta();
                let n = (r + dr, c + dc);
                if sq.contains(&n) || !self.occupied(n) {
                    continue;
                }
                let mine = has_side(masks[k], d);
                let theirs = has_side(self.exits_at(n), d.opposite());
                match (mine, theirs) {
                    (true, true) => met = true,
                    (true, false) => return Err(PlaceError::ExitAgainstBlank { row: r, col: c, side: d }),
                    (false, true) => return Err(PlaceError::BlocksOpenEnd { row: n.0, col: n.1, side: d.opposite() }),
                    (false, false) => {}
                }
            }
        }
        if met {
            Ok(())
        } else {
            Err(PlaceError::NotConnected)
        }
    }

    /// Puts a piece down without checking the rules (only that its squares are inside the
    /// board and empty, so that the board stays a board).
    pub fn put(&mut self, p: Placement) -> Result<(), PlaceError> {
        let sq = p.squares();
        let mut idx = [0usize; 3];
        for (k, &(row, col)) in sq.iter().enumerate() {
            let i = self.index((row, col)).ok_or(PlaceError::OutsideBoard { row, col })?;
            if self.cover.get(i).is_some_and(|&v| v > 0) {
                return Err(PlaceError::Occupied { row, col });
            }
            idx[k] = i;
        }
        let id =
            u8::try_from(self.pieces.len() + 1).map_err(|_| PlaceError::Occupied { row: sq[0].0, col: sq[0].1 })?;
        let masks = p.exit_masks();
        for (k, &i) in idx.iter().enumerate() {
            self.cover[i] = id;
            self.exits[i] = masks[k];
        }
        self.pieces.push(p);
        Ok(())
    }

    /// Checks, then places.
    pub fn place(&mut self, p: Placement) -> Result<(), PlaceError> {
        self.check(&p)?;
        self.put(p)
    }

    /// Every exit of every placed piece.
    pub(crate) fn all_exits(&self) -> impl Iterator<Item = Exit> + '_ {
        self.pieces.iter().flat_map(|p| p.exits())
    }

    /// The open channel ends: exits that face an empty square of the board.
    pub fn open_ends(&self) -> Vec<Exit> {
        self.all_exits()
            .filter(|e| {
                let (dr, dc) = e.side.delta();
                let n = (e.row + dr, e.col + dc);
                self.index(n).is_some() && !self.occupied(n)
            })
            .collect()
    }

    /// The mouths: exits that face the board's edge, with their coast, position and value.
    pub fn mouths(&self) -> Vec<Mouth> {
        let mut out: Vec<Mouth> = self
            .all_exits()
            .filter_map(|e| {
                let (dr, dc) = e.side.delta();
                if self.index((e.row + dr, e.col + dc)).is_some() {
                    return None;
                }
                let pos = match e.side {
                    Dir::N | Dir::S => e.col,
                    Dir::E | Dir::W => e.row,
                };
                let pos = u8::try_from(pos).ok()?;
                Some(Mouth { coast: e.side, pos, value: self.spec.mouth_value(e.side, pos) })
            })
            .collect();
        out.sort_by_key(|m| (m.coast, m.pos));
        out
    }

    /// Each coast's points (by `Dir::index`): 1 per mouth, 2 on a special space.
    pub fn coast_points(&self) -> [u32; 4] {
        let mut p = [0u32; 4];
        for m in self.mouths() {
            p[m.coast.index()] += m.value;
        }
        p
    }

    /// Every legal placement of `piece`. Only squares that can matter are tried: with an empty
    /// board those covering the centre, else those covering a square an open end faces.
    pub(crate) fn legal_placements(&self, piece: super::pieces::Pattern) -> Vec<Placement> {
        self.candidates(piece).into_iter().filter(|p| self.check(p).is_ok()).collect()
    }

    /// Whether `piece` has any legal placement.
    pub(crate) fn can_place(&self, piece: super::pieces::Pattern) -> bool {
        self.candidates(piece).iter().any(|p| self.check(p).is_ok())
    }

    fn candidates(&self, piece: super::pieces::Pattern) -> Vec<Placement> {
        let n = self.spec.size;
        // The squares one of which a legal placement must cover.
        let targets: Vec<(i16, i16)> = if self.pieces.is_empty() {
            vec![(i16::from(self.spec.centre.0), i16::from(self.spec.centre.1))]
        } else {
            self.open_ends()
                .iter()
                .map(|e| {
                    let (dr, dc) = e.side.delta();
                    (e.row + dr, e.col + dc)
                })
                .collect()
        };
        let size = usize::from(n);
        let mut seen = vec![false; size * size * 2];
        let mut out = Vec::new();
        for (r, c) in targets {
            for k in 0..3i16 {
                for (ar, ac, vertical) in [(r, c - k, 0usize), (r - k, c, 1usize)] {
                    let (Ok(ar), Ok(ac)) = (u8::try_from(ar), u8::try_from(ac)) else { continue };
                    if ar >= n || ac >= n {
                        continue;
                    }
                    let key = (usize::from(ar) * size + usize::from(ac)) * 2 + vertical;
                    if seen.get(key).copied().unwrap_or(true) {
                        continue;
                    }
                    seen[key] = true;
                    let facings = if vertical == 0 { [Dir::N, Dir::S] } else { [Dir::E, Dir::W] };
                    for facing in facings {
                        out.push(Placement::new(piece, ar, ac, facing));
                    }
                }
            }
        }
        out
    }

    /// The board as text: two characters per square and edge. `#` covers a square, pieces
    /// are bars of `#`; `|` and `-` are exits (on an outer edge: a mouth); `*` marks a special
    /// coast space without a mouth; `+` the centre while it is empty.
    pub fn draw(&self) -> String {
        let n = i16::from(self.spec.size);
        let mut o = String::new();
        // Column numbers, tens then units.
        let _ = write!(o, "    ");
        for c in 0..n {
            let _ = write!(o, " {}", if c >= 10 { char::from(b'0' + (c / 10) as u8) } else { ' ' });
        }
        o.push('\n');
        let _ = write!(o, "    ");
        for c in 0..n {
            let _ = write!(o, " {}", char::from(b'0' + (c % 10) as u8));
        }
        o.push('\n');
        let coast_char = |coast: Dir, pos: i16, exit: bool| -> char {
            if exit {
                if matches!(coast, Dir::N | Dir::S) {
                    '|'
                } else {
                    '-'
                }
            } else if u8::try_from(pos).is_ok_and(|p| self.spec.special[coast.index()].contains(&p)) {
                '*'
            } else {
                ' '
            }
        };
        // The North coast line.
        let _ = write!(o, "    ");
        for c in 0..n {
            let _ = write!(o, " {}", coast_char(Dir::N, c, has_side(self.exits_at((0, c)), Dir::N)));
        }
        o.push('\n');
        for r in 0..n {
            let _ = write!(o, "{r:>3} {}", coast_char(Dir::W, r, has_side(self.exits_at((r, 0)), Dir::W)));
            for c in 0..n {
                let here = self.piece_at(r, c);
                let sq = match here {
                    Some(_) => '#',
                    None if (r, c) == (i16::from(self.spec.centre.0), i16::from(self.spec.centre.1)) => '+',
                    None => '.',
                };
                o.push(sq);
                if c + 1 < n {
                    let right = self.piece_at(r, c + 1);
                    let e = if here.is_some() && here == right {
                        '#'
                    } else if has_side(self.exits_at((r, c)), Dir::E) || has_side(self.exits_at((r, c + 1)), Dir::W) {
                        '-'
                    } else {
                        ' '
                    };
                    o.push(e);
                }
            }
            let _ = writeln!(o, "{}", coast_char(Dir::E, r, has_side(self.exits_at((r, n - 1)), Dir::E)));
            if r + 1 < n {
                o.push_str("     ");
                for c in 0..n {
                    let here = self.piece_at(r, c);
                    let below = self.piece_at(r + 1, c);
                    let e = if here.is_some() && here == below {
                        '#'
                    } else if has_side(self.exits_at((r, c)), Dir::S) || has_side(self.exits_at((r + 1, c)), Dir::N) {
                        '|'
                    } else {
                        ' '
                    };
                    o.push(e);
                    if c + 1 < n {
                        o.push(' ');
                    }
                }
                let trimmed = o.trim_end_matches(' ').len();
                o.truncate(trimmed);
                o.push('\n');
            }
        }
        let _ = write!(o, "    ");
        for c in 0..n {
            let _ = write!(o, " {}", coast_char(Dir::S, c, has_side(self.exits_at((n - 1, c)), Dir::S)));
        }
        let trimmed = o.trim_end_matches(' ').len();
        o.truncate(trimmed);
        o.push('\n');
        o
    }
}
