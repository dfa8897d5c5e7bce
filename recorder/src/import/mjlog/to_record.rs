//! mjlog game tags gathered into the record model, with the byte offset of every entry.

use super::meld::{Meld, Rel, TileId};
use super::read::{Positioned, Tag};
use crate::import::positions::{Label, Pos, PosMap};
use crate::import::record::{round_name, CalledFrom, Discard, Game, Outcome, Round, Take, Tile, Win};
use crate::import::{yaku, ImportError};

fn from(r: Rel) -> CalledFrom {
    match r {
        Rel::Left => CalledFrom::Left,
        Rel::Across => CalledFrom::Across,
        Rel::Right => CalledFrom::Right,
    }
}

/// Tenhou's rule name for the `<GO type>` bits: lobby (般 上 特 鳳), 東/南, 喰 (open tanyao), 赤.
fn rule_name(rule: u32) -> String {
    let lobby = match rule & 0xA0 {
        0xA0 => "鳳",
        0x80 => "上",
        0x20 => "特",
        _ => "般",
    };
    format!(
        "{lobby}{}{}{}",
        if rule & 0x08 != 0 { "南" } else { "東" },
        if rule & 0x04 == 0 { "喰" } else { "" },
        if rule & 0x02 == 0 { "赤" } else { "" }
    )
}

fn draw_name(kind: Option<&str>) -> &'static str {
    match kind.unwrap_or("") {
        "yao9" => "九種九牌",
        "reach4" => "四家立直",
        "ron3" => "三家和了",
        "kan4" => "四槓散了",
        "kaze4" => "四風連打",
        "nm" => "流し満貫",
        _ => "流局",
    }
}

/// A hand being read: the round, its name, each seat's drawn tile, riichi declared (step 1)
/// and not yet discarded, and whether the hand has ended.
type OpenHand = (Round, String, [Option<TileId>; 4], [bool; 4], bool);

/// Gathers the tags into the record model, with the byte offset of every entry.
pub(crate) fn to_game(tags: &[Positioned], id: &str) -> Result<(Game, PosMap), ImportError> {
    let mut g = Game {
        absent: Vec::new(),
        start_points: Some(25000),
        start_points_given: false,
        id: id.to_owned(),
        rule: String::new(),
        red_fives: true,
        names: vec!["A".into(), "B".into(), "C".into(), "D".into()],
        final_scores: None,
        final_results: None,
        rounds: Vec::new(),
        paifu: None,
    };
    let mut pm = PosMap::default();
    let mut cur: Option<OpenHand> = None;
    let (mut go, mut un) = (false, false);
    for p in tags {
        let at = Label::Byte(p.byte);
        let here = |m: String| ImportError::new(at.to_string(), m);
        let red = g.red_fives;
        let ri = g.rounds.len();
        match &p.tag {
            Tag::Go { rule } => {
                g.rule = rule_name(*rule);
                g.red_fives = rule & 0x02 == 0;
                go = true;
            }
            Tag::Names(n) => {
                g.names.clone_from(n);
                un = true;
            }
            Tag::Init { kyoku, honba, sticks, dora, scores, dealer, hands, .. } => {
                if let Some((r, name, _, _, ended)) = cur.take() {
                    if !ended {
                        return Err(here("a new hand starts before the last one ended".into()).in_round(&name));
                    }
                    g.rounds.push(r);
                }
                let name = round_name(*kyoku, *honba);
                if *dealer != kyoku % 4 {
                    return Err(here(format!("oya={dealer} is not the dealer of {name}")).in_round(&name));
                }
                let mut hs: [Vec<Tile>; 4] = Default::default();
                for (s, h) in hands.iter().enumerate() {
                    if h.len() != 13 {
                        return Err(here(format!("hai{s} has {} tiles, not 13", h.len())).in_round(&name));
                    }
                    hs[s] = h.iter().map(|t| t.to_record(red)).collect();
                    for k in 4..7 {
                        pm.set(Pos::entry(ri, k + 3 * s), at);
                    }
                }
                for p in Pos::round_start(ri) {
                    pm.set(p, at);
                }
                let round = Round {
                    kyoku: *kyoku,
                    honba: *honba,
                    sticks: *sticks,
                    scores: *scores,
                    dora: vec![dora.to_record(red)],
                    ura: Vec::new(),
                    hands: hs,
                    takes: Default::default(),
                    discards: Default::default(),
                    outcome: Outcome::Draw { name: String::new(), deltas: None },
                };
                cur = Some((round, name, [None; 4], [false; 4], false));
            }
            tag => {
                let Some((r, name, drawn, reach, ended)) = cur.as_mut() else {
                    return Err(here("a game tag before the first <INIT>".into()));
                };
                let name = name.clone();
                let here = |m: String| ImportError::new(at.to_string(), m).in_round(&name);
                if *ended && !matches!(tag, Tag::Agari { .. }) {
                    return Err(here("the hand is over (AGARI or RYUUKYOKU), but its tags go on".into()));
                }
                let take = |pm: &mut PosMap, r: &mut Round, s: u8, t: Take| {
                    let su = usize::from(s);
                    pm.set(Pos::item(ri, 5 + 3 * su, r.takes[su].len()), at);
                    r.takes[su].push(t);
                };
                let disc = |pm: &mut PosMap, r: &mut Round, s: u8, d: Discard| {
                    let su = usize::from(s);
                    pm.set(Pos::item(ri, 6 + 3 * su, r.discards[su].len()), at);
                    r.discards[su].push(d);
                };
                let c = |t: TileId| t.to_record(red);
                match tag {
                    Tag::Draw { seat, tile } => {
                        drawn[usize::from(*seat)] = Some(*tile);
                        take(&mut pm, r, *seat, Take::Draw(c(*tile)));
                    }
                    Tag::Discard { seat, tile } => {
                        let su = usize::from(*seat);
                        let tsumogiri = drawn[su] == Some(*tile);
                        let d = match (std::mem::take(&mut reach[su]), tsumogiri) {
                            (true, true) => Discard::Riichi(None),
                            (true, false) => Discard::Riichi(Some(c(*tile))),
                            (false, true) => Discard::Tsumogiri,
                            (false, false) => Discard::Tile(c(*tile)),
                        };
                        drawn[su] = None;
                        disc(&mut pm, r, *seat, d);
                    }
                    Tag::Reach { seat, step } => {
                        if *step == 1 {
                            reach[usize::from(*seat)] = true;
                        }
                    }
                    Tag::Call { seat, meld } => {
                        drawn[usize::from(*seat)] = None;
                        let others = |tiles: &[TileId], called: TileId| -> Vec<Tile> {
                            tiles.iter().filter(|t| **t != called).map(|t| c(*t)).collect()
                        };
                        match meld {
                            Meld::Chi { tiles, called } => {
                                let o = others(tiles, *called);
                                take(&mut pm, r, *seat, Take::Chi { called: c(*called), own: [o[0], o[1]] });
                            }
                            Meld::Pon { tiles, called, from: f } => {
                                let o = others(tiles, *called);
                                let t = Take::Pon { called: c(*called), own: [o[0], o[1]], from: from(*f) };
                                take(&mut pm, r, *seat, t);
                            }
                            Meld::OpenKan { tiles, called, from: f } => {
                                let o = others(tiles, *called);
                                let t = Take::OpenKan { called: c(*called), own: [o[0], o[1], o[2]], from: from(*f) };
                                take(&mut pm, r, *seat, t);
                                disc(&mut pm, r, *seat, Discard::Nothing);
                            }
                            Meld::AddedKan { tiles, added, .. } => {
                                let o = others(tiles, *added);
                                disc(
                                    &mut pm,
                                    r,
                                    *seat,
                                    Discard::AddedKan { added: c(*added), pon: [o[0], o[1], o[2]] },
                                );
                            }
                            Meld::ClosedKan { tiles } => {
                                disc(&mut pm, r, *seat, Discard::ClosedKan { tiles: tiles.map(c) });
                            }
                            Meld::Nuki => {
                                return Err(here(
                                    "a North taken out (nuki): a three-player game, which Paifu does not play yet"
                                        .into(),
                                ))
                            }
                        }
                    }
                    Tag::Dora { tile } => {
                        pm.set(Pos::item(ri, 2, r.dora.len()), at);
                        r.dora.push(c(*tile));
                    }
                    Tag::Agari { who, from: fw, pao, fu, yaku: ys, yakuman, ura, sc, owari, .. } => {
                        let deltas =
                            sc_deltas(sc).ok_or_else(|| here("sc= must hold 4 scores and 4 changes".into()))?;
                        let mut wins = match std::mem::replace(&mut r.outcome, Outcome::Wins(Vec::new())) {
                            Outcome::Wins(w) => w,
                            Outcome::Draw { .. } => Vec::new(),
                        };
                        if wins.is_empty() {
                            pm.set(Pos::entry(ri, 16), at);
                        }
                        // The ura indicators of the first winner that shows them: in a double
                        // ron, a winner not in riichi shows none (no doraHaiUra) and may come first.
                        if r.ura.is_empty() {
                            for (i, u) in ura.iter().enumerate() {
                                pm.set(Pos::item(ri, 3, i), at);
                                r.ura.push(c(*u));
                            }
                        }
                        pm.set(Pos::item(ri, 16, 2 * wins.len() + 2), at);
                        let mut names = Vec::new();
                        for (id, han) in ys {
                            let y = yaku::by_id(*id).ok_or_else(|| here(format!("yaku id {id} is not Tenhou's")))?;
                            names.push((y.japanese.clone(), *han));
                        }
                        for id in yakuman {
                            let y = yaku::by_id(*id).ok_or_else(|| here(format!("yakuman id {id} is not Tenhou's")))?;
                            names.push((y.japanese.clone(), 13));
                        }
                        wins.push(Win {
                            deltas,
                            who: *who,
                            from: *fw,
                            pao: Some(pao.unwrap_or(*who)),
                            text: String::new(),
                            fu: Some(*fu).filter(|f| *f > 0 && yakuman.is_empty()),
                            han: None,
                            yaku: Some(names),
                            computed: Vec::new(),
                        });
                        r.outcome = Outcome::Wins(wins);
                        *ended = true;
                        if let Some(o) = owari {
                            final_results(&mut g, &mut pm, o, at);
                        }
                    }
                    Tag::Ryuukyoku { kind, sc, owari } => {
                        pm.set(Pos::entry(ri, 16), at);
                        let deltas =
                            sc_deltas(sc).ok_or_else(|| here("sc= must hold 4 scores and 4 changes".into()))?;
                        r.outcome = Outcome::Draw { name: draw_name(kind.as_deref()).to_owned(), deltas: Some(deltas) };
                        *ended = true;
                        if let Some(o) = owari {
                            final_results(&mut g, &mut pm, o, at);
                        }
                    }
                    Tag::Go { .. } | Tag::Names(_) | Tag::Init { .. } => {}
                }
            }
        }
    }
    match cur {
        Some((r, _, _, _, true)) => g.rounds.push(r),
        Some((_, name, ..)) => {
            return Err(ImportError::new("end", "the record ends inside a hand: it is cut short").in_round(&name))
        }
        None => return Err(ImportError::new("byte 0", "the record has no hand (<INIT>)")),
    }
    if !go {
        return Err(ImportError::new(
            "byte 0",
            "the record has no <GO type=...> (the rules: red fives, open tanyao, length)",
        ));
    }
    if !un {
        return Err(ImportError::new("byte 0", "the record has no <UN n0=... n3=...> (the players' names)"));
    }
    Ok((g, pm))
}

fn sc_deltas(sc: &[i64]) -> Option<[i64; 4]> {
    (sc.len() == 8).then(|| [sc[1], sc[3], sc[5], sc[7]])
}

/// `owari=` (8 numbers, read.rs checks): each seat's final points in hundreds, and its result after
/// uma and oka; `sc` in the record model's paths (tenhou.net/6's name for them) is the tag.
fn final_results(g: &mut Game, pm: &mut PosMap, o: &[f64], at: Label) {
    g.final_scores = Some((0..4).map(|i| (o[2 * i] * 100.0).round() as i64).collect());
    g.final_results = Some((0..4).map(|i| o[2 * i + 1]).collect());
    pm.set_sc(at);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seat 0 discards tile id 60 and seats 1 and 2 both win on it; `URA1` and `URA2` are each
    /// win's doraHaiUra attribute (empty: none, as Tenhou writes a winner not in riichi).
    fn double_ron(ura1: &str, ura2: &str) -> String {
        format!(
            r#"<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/><TAIKYOKU oya="0"/><INIT seed="0,0,0,2,3,50" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/><T60/><D60/><AGARI ba="0,0" hai="1" ten="30,1000,0" yaku="8,1" doraHai="50" {ura1} who="1" fromWho="0" sc="250,-10,250,10,250,0,250,0"/><AGARI ba="0,0" hai="1" ten="30,2000,0" yaku="1,1,8,1" doraHai="50" {ura2} who="2" fromWho="0" sc="240,-20,260,0,250,20,250,0" owari="220,-18.0,260,36.0,270,7.0,250,-25.0"/></mjloggm>"#
        )
    }

    #[test]
    fn a_double_ron_takes_the_ura_indicators_of_the_winner_that_shows_them() {
        let (g, _) = to_game(&super::super::read::parse(&double_ron("", r#"doraHaiUra="70""#)).unwrap(), "").unwrap();
        assert_eq!(g.rounds[0].ura.len(), 1);
        let (g, _) = to_game(&super::super::read::parse(&double_ron("", "")).unwrap(), "").unwrap();
        assert!(g.rounds[0].ura.is_empty());
    }
}
