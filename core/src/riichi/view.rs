//! What a viewer is shown of a riichi position: every hand, meld and river, the wall, the dora
//! indicators, the claim window; every tile as its notation (`5m`, `0p` for a red five). The
//! typed [`View`] (`Game::view`), a seat's view of it (`Game::seat_view`: the other seats'
//! concealed tiles, draws and furiten left out) and the text of `Game::render`.

use super::engine::{Phase, Riichi, WINDS};
use super::facts::Abort;
use crate::mahjong::{tiles_text, Meld, MeldKind, Tile};
use crate::Seat;
use serde::Serialize;
use serde_with::{serde_as, DisplayFromStr};
use std::fmt::Write as _;

/// A riichi position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub scores: Vec<i64>,
    pub to_act: Vec<Seat>,
    /// The hand's name: `East 1`.
    pub hand: String,
    /// The round wind: `E`, `S`, `W` or `N`.
    pub round_wind: char,
    pub dealer: Seat,
    pub honba: u32,
    pub riichi_sticks: u32,
    /// Tiles left in the live wall.
    pub wall: usize,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub dora_indicators: Vec<Tile>,
    pub dice: [u8; 2],
    /// The tile the seat to act has just drawn.
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub drawn: Option<Tile>,
    /// The discard that may be claimed now.
    pub claim: Option<ClaimView>,
    pub players: Vec<PlayerView>,
    pub over: bool,
    /// How the last hand that ended ended (absent before the first hand ends): the viewer's
    /// hand-end screen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_end: Option<HandEnd>,
    /// Whose view it is: none for the full view, every tile visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Seat>,
}

/// The end of a hand, as the engine settled it: how it ended, who paid whom, the new scores.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandEnd {
    /// The hand's name: `E3`.
    pub hand: String,
    pub honba: u32,
    /// How it ended: a win (`"end": "win"`), an exhaustive draw or an abortive draw.
    #[serde(flatten)]
    pub how: HandEndKind,
    /// Every payment of the hand, riichi deposits included; their sum for each seat is the
    /// seat's score change (`deltas`).
    pub payments: Vec<Transfer>,
    /// Each seat's score change over the hand (the round result's `deltas`).
    pub deltas: Vec<i64>,
    /// Each seat's score after the hand.
    pub scores: Vec<i64>,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub dora_indicators: Vec<Tile>,
    /// The ura dora indicators, revealed when a winner had declared riichi (else empty).
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub ura_indicators: Vec<Tile>,
}

/// How a hand ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum HandEndKind {
    /// One win, or several on one discard, in the order the rules settle them.
    Win { wins: Vec<WinView> },
    /// The wall ran out: the tenpai hands, shown, and who made nagashi mangan.
    ExhaustiveDraw { tenpai: Vec<ShownHand>, nagashi: Vec<Seat> },
    /// An abortive draw (`nine_terminals`, `four_winds`, `four_riichi`, `four_kans`, `triple_ron`).
    AbortiveDraw { abort: Abort },
    /// A chombo annulled the hand (`incident chombo`); it is dealt again.
    Chombo { seat: Seat },
}

/// One win at a hand's end.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinView {
    pub seat: Seat,
    /// The discarder for a ron; none for a tsumo.
    pub from: Option<Seat>,
    /// The winning tile.
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
    /// The concealed tiles without the winning tile, sorted.
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    pub melds: Vec<MeldView>,
    /// Each yaku with its han (a yakuman with 13 per count), then `dora`, `aka_dora`, `ura_dora`.
    pub yaku: Vec<YakuLine>,
    pub han: u32,
    pub fu: u32,
    /// The yakuman count (0 for none).
    pub yakuman: u32,
    /// `none`, `mangan`, `haneman`, `baiman`, `sanbaiman`, `yakuman`.
    pub limit: &'static str,
    /// The hand's value before honba and riichi sticks.
    pub points: i64,
}

/// A yaku and its han.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YakuLine {
    pub name: &'static str,
    pub han: u32,
}

/// A hand shown at an exhaustive draw.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownHand {
    pub seat: Seat,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    pub melds: Vec<MeldView>,
}

/// Points passed from one seat to another; `None` is the table (a riichi deposit goes to it,
/// the sticks on it go to a winner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Transfer {
    pub from: Option<Seat>,
    pub to: Option<Seat>,
    pub points: i64,
}

impl std::fmt::Display for HandEnd {
    /// The hand's end in lines of text (`paifu show --at` on the record that ends it): each win
    /// with its hand, the winning tile apart, yaku, fu and points; the tenpai hands or the abort;
    /// the indicators; who paid whom; the new scores.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let melds = |m: &[MeldView]| -> String {
            m.iter().map(|m| format!(" {}:{}", m.kind.name(), tiles_text(&m.tiles))).collect()
        };
        match &self.how {
            HandEndKind::Win { wins } => {
                for w in wins {
                    let how = match w.from {
                        None => "tsumo".to_owned(),
                        Some(s) => format!("ron on seat {s}"),
                    };
                    writeln!(
                        f,
                        "Seat {} wins by {how}: {}{} + {}",
                        w.seat,
                        tiles_text(&w.hand),
                        melds(&w.melds),
                        w.tile
                    )?;
                    let yaku: Vec<String> = w.yaku.iter().map(|y| format!("{} {}", y.name, y.han)).collect();
                    let limit = if w.limit == "none" { String::new() } else { format!(" {}", w.limit) };
                    writeln!(f, "  yaku: {}; {} han {} fu{limit}, {} points", yaku.join(", "), w.han, w.fu, w.points)?;
                }
            }
            HandEndKind::ExhaustiveDraw { tenpai, nagashi } => {
                writeln!(f, "Exhaustive draw{}", if tenpai.is_empty() { ": nobody tenpai" } else { "" })?;
                for t in tenpai {
                    writeln!(f, "  seat {} tenpai: {}{}", t.seat, tiles_text(&t.hand), melds(&t.melds))?;
                }
                for s in nagashi {
                    writeln!(f, "  seat {s}: nagashi mangan")?;
                }
            }
            HandEndKind::AbortiveDraw { abort } => writeln!(f, "Abortive draw: {}", abort.name())?,
            HandEndKind::Chombo { seat } => writeln!(f, "Chombo by seat {seat}: the hand is annulled and dealt again")?,
        }
        write!(f, "Dora indicators: {}", tiles_text(&self.dora_indicators))?;
        if !self.ura_indicators.is_empty() {
            write!(f, "; ura dora indicators: {}", tiles_text(&self.ura_indicators))?;
        }
        writeln!(f)?;
        let party = |s: Option<Seat>| s.map_or_else(|| "the table".to_owned(), |s| format!("seat {s}"));
        let paid: Vec<String> =
            self.payments.iter().map(|p| format!("{} -> {} {}", party(p.from), party(p.to), p.points)).collect();
        writeln!(f, "Payments: {}", if paid.is_empty() { "none".to_owned() } else { paid.join(", ") })?;
        let scores: Vec<String> = self.scores.iter().map(|s| s.to_string()).collect();
        writeln!(f, "Scores after the hand: {}", scores.join(" "))
    }
}

/// A seat's tiles sorted as the viewer shows them: by kind, a red five after its plain fives.
pub(crate) fn sorted(tiles: &[Tile]) -> Vec<Tile> {
    let mut hand = tiles.to_vec();
    hand.sort_by_key(|t| (t.kind(), t.is_aka()));
    hand
}

/// The discard a claim window is open on.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimView {
    pub from: Seat,
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
}

/// One seat of a riichi position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The player's name, when the viewer knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub seat: Seat,
    /// The seat's wind this hand: `E`, `S`, `W` or `N`.
    pub wind: char,
    pub score: i64,
    /// The concealed tiles, sorted.
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    pub melds: Vec<MeldView>,
    pub discards: Vec<DiscardView>,
    pub riichi: bool,
    pub furiten: bool,
    /// In another seat's view: how many concealed tiles the seat holds (`hand` is then empty,
    /// `furiten` false: neither is known at the table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
}

/// A meld as shown.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeldView {
    pub kind: MeldKind,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub tiles: Vec<Tile>,
    /// The tile taken from a discard (none for a closed kan).
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub called: Option<Tile>,
    /// The seat it was taken from.
    pub from: Option<Seat>,
}

impl From<&Meld> for MeldView {
    fn from(m: &Meld) -> MeldView {
        MeldView { kind: m.kind, tiles: m.tiles().to_vec(), called: m.called, from: m.from }
    }
}

/// One tile of a river.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiscardView {
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
    /// The tile was the one just drawn.
    pub tsumogiri: bool,
    /// The riichi declaration tile.
    pub riichi: bool,
    /// Taken by another seat's call.
    pub called: bool,
}

impl View {
    /// Gives the seats their names, in seat order.
    pub fn name_seats(&mut self, names: &[String]) {
        for (p, name) in self.players.iter_mut().zip(names) {
            p.name = Some(name.clone());
        }
    }
}

impl Riichi {
    pub(crate) fn render_text(&self) -> String {
        let mut o = String::new();
        let status = match &self.phase {
            Phase::Over => "the match is over".to_owned(),
            Phase::Turn { seat, drawn: Some(d), rinshan, .. } => {
                format!("seat {seat} drew {d}{} and acts", if *rinshan { " from the dead wall" } else { "" })
            }
            Phase::Turn { seat, drawn: None, .. } => format!("seat {seat} called and discards"),
            Phase::Deal { seat } => format!("seat {seat} is dealt its tiles"),
            Phase::Draw { seat, rinshan } => {
                format!("seat {seat} draws{}", if *rinshan { " from the dead wall" } else { "" })
            }
            Phase::Claims { tile, window, .. } => {
                let who: Vec<String> = self.to_act_set().iter().map(|s| s.to_string()).collect();
                format!("seat {}'s {tile} may be claimed by seat {}", window.from(), who.join(", "))
            }
        };
        let _ = writeln!(o, "{} {} honba, {} riichi sticks: {status}", self.hand_label(), self.honba, self.sticks);
        let _ = writeln!(
            o,
            "Wall: {} tiles left; dora indicators {}",
            self.tiles_left(),
            self.dora_indicators().iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
        );
        for (s, p) in self.players.iter().enumerate() {
            let wind = WINDS[usize::from(self.seat_wind(s as Seat))];
            let melds: Vec<String> =
                p.melds.iter().map(|m| format!("{}:{}", m.kind.name(), tiles_text(m.tiles()))).collect();
            let river: Vec<String> = p
                .river
                .iter()
                .map(|r| format!("{}{}{}", r.tile, if r.riichi { "*" } else { "" }, if r.called { "^" } else { "" }))
                .collect();
            let _ = writeln!(
                o,
                "Seat {s} ({wind}) {}{}: {} [{}] river {}",
                self.scores[s],
                if p.riichi { " riichi" } else { "" },
                tiles_text(p.hand()),
                melds.join(" "),
                river.join(" ")
            );
        }
        o
    }

    pub(crate) fn make_view(&self) -> View {
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(s, p)| {
                let hand = sorted(p.hand());
                PlayerView {
                    name: None,
                    seat: s as Seat,
                    wind: WINDS[usize::from(self.seat_wind(s as Seat))],
                    score: self.scores[s],
                    hand,
                    melds: p.melds.iter().map(MeldView::from).collect(),
                    discards: p
                        .river
                        .iter()
                        .map(|r| DiscardView { tile: r.tile, tsumogiri: r.drawn, riichi: r.riichi, called: r.called })
                        .collect(),
                    riichi: p.riichi,
                    furiten: p.furiten(),
                    hidden: None,
                }
            })
            .collect();
        let (drawn, claim) = match &self.phase {
            Phase::Turn { drawn, .. } => (*drawn, None),
            Phase::Claims { tile, window, .. } => (None, Some(ClaimView { from: window.from(), tile: *tile })),
            Phase::Over | Phase::Deal { .. } | Phase::Draw { .. } => (None, None),
        };
        View {
            round: self.results.len() as u32 + 1,
            scores: self.scores.to_vec(),
            to_act: self.to_act_set().iter().collect(),
            hand: self.hand_label(),
            round_wind: WINDS[usize::from(self.round_wind & 3)],
            dealer: self.dealer(),
            honba: self.honba,
            riichi_sticks: self.sticks,
            wall: self.tiles_left(),
            dora_indicators: self.dora_indicators(),
            dice: [self.table.dice.0, self.table.dice.1],
            drawn,
            claim,
            players,
            over: matches!(self.phase, Phase::Over),
            hand_end: self.last_end.as_deref().cloned(),
            seen_by: None,
        }
    }

    /// What `seat` sees: its own concealed tiles, draw and furiten; of the others, how many
    /// concealed tiles each holds; in a claim window, whether it is asked itself (who else may
    /// claim depends on hidden hands); everything else as the full view shows it (melds, closed
    /// kans included, rivers, revealed indicators, the hand's end as the table reveals it).
    pub(crate) fn make_seat_view(&self, seat: Seat) -> View {
        let mut v = self.make_view();
        v.seen_by = Some(seat);
        for p in v.players.iter_mut().filter(|p| p.seat != seat) {
            p.hidden = Some(p.hand.len());
            p.hand.clear();
            p.furiten = false;
        }
        match &self.phase {
            Phase::Turn { seat: on_turn, .. } if *on_turn != seat => v.drawn = None,
            Phase::Claims { .. } => v.to_act.retain(|&s| s == seat),
            _ => {}
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::riichi::Rules;
    use crate::seat_views::{check, other_seat};
    use crate::{Game, Seed, Stream};

    /// The position with one concealed tile of a seat other than `seat` swapped with a tile of
    /// the live wall (of another kind when one is found, so that the full view changes).
    fn swap_with_wall(g: &Riichi, seat: Seat, stream: &mut Stream) -> Option<Riichi> {
        let o = usize::from(other_seat(seat, 4, stream));
        let mut hand = g.players[o].hand().to_vec();
        if hand.is_empty() || g.table.wall.left() == 0 {
            return None;
        }
        let i = stream.below(hand.len() as u64) as usize;
        let mut p = g.clone();
        let start = stream.below(g.table.wall.left() as u64) as usize;
        let kind = hand[i].kind();
        hand[i] = p.table.wall.swap_live(start, hand[i], |w| w.kind() != kind)?;
        p.players[o].set_hand(&hand);
        Some(p)
    }

    #[test]
    fn a_seat_sees_its_hand_and_the_table_and_only_how_many_tiles_the_others_hold() {
        let start = |seed: &Seed| Riichi::new(Rules::default(), 4, Some(seed)).unwrap();
        let seen = check(start, 2, 1500, swap_with_wall, |full, mine, seat| {
            let me = usize::from(seat);
            assert_eq!((full.seen_by, mine.seen_by), (None, Some(seat)));
            for (s, (a, b)) in full.players.iter().zip(&mine.players).enumerate() {
                if s == me {
                    assert_eq!((&b.hand, b.furiten, b.hidden), (&a.hand, a.furiten, None));
                } else {
                    assert!(b.hand.is_empty() && !b.furiten, "seat {s} in seat {seat}'s view: {b:?}");
                    assert_eq!(b.hidden, Some(a.hand.len()));
                }
                assert_eq!(
                    (b.seat, b.wind, b.score, &b.melds, &b.discards, b.riichi),
                    (a.seat, a.wind, a.score, &a.melds, &a.discards, a.riichi)
                );
            }
            assert_eq!(mine.drawn, if full.claim.is_none() && full.to_act == [seat] { full.drawn } else { None });
            let asked: Vec<Seat> = full.to_act.iter().copied().filter(|&s| s == seat).collect();
            assert_eq!(mine.to_act, if full.claim.is_some() { asked } else { full.to_act.clone() });
            assert_eq!(
                (mine.round, &mine.scores, &mine.hand, mine.round_wind, mine.dealer, mine.honba, mine.riichi_sticks),
                (full.round, &full.scores, &full.hand, full.round_wind, full.dealer, full.honba, full.riichi_sticks)
            );
            assert_eq!(
                (mine.wall, &mine.dora_indicators, mine.dice, &mine.claim, mine.over, &mine.hand_end),
                (full.wall, &full.dora_indicators, full.dice, &full.claim, full.over, &full.hand_end)
            );
        });
        assert!(seen.positions > 2000, "{seen:?}");
        assert!(seen.differed * 10 > seen.perturbed * 9, "{seen:?}");
    }

    #[test]
    fn a_seat_that_does_not_exist_sees_no_concealed_tile() {
        let g = Riichi::new(Rules::default(), 4, Some(&Seed::from_text("nobody"))).unwrap();
        let v = g.seat_view(9);
        assert!(v.players.iter().all(|p| p.hand.is_empty() && p.hidden.is_some_and(|n| n >= 13)));
        assert_eq!((v.drawn, v.seen_by), (None, Some(9)));
        assert!(g.view().drawn.is_some() && g.seat_view(g.dealer()).drawn.is_some());
    }
}
