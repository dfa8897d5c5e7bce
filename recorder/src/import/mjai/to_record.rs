//! mjai events gathered into the record model (per hand: hands, each seat's takes and discards,
//! indicators and results), with the line of every entry.

use super::dialect::{self, RubyYaku};
use super::read::{kyoku_index, Event, Line, Pai};
use super::wall::Wall;
use crate::import::positions::{Label, Pos, PosMap};
use crate::import::record::{round_name, CalledFrom, Discard, Game, Outcome, Round, Take, Tile, Win};
use crate::import::ImportError;

/// The tile `p` (`what` names it in a message).
fn tile(p: Pai, line: usize, round: &str, what: std::fmt::Arguments<'_>) -> Result<Tile, ImportError> {
    let err = |m: String| ImportError::new(format!("line {line}"), m).in_round(round);
    match p {
        Pai::Hidden => Err(err(format!(
            "{what} is hidden (\"?\"): Paifu validates every tile, so it needs a full-information log (every hand \
             and draw known, as a game server or `paifu export mjai` writes it)"
        ))),
        Pai::Known(n, s) => {
            let code = match (n, s) {
                (0, 'm') => 51,
                (0, 'p') => 52,
                (0, 's') => 53,
                (n, 'm') => 10 + i64::from(n),
                (n, 'p') => 20 + i64::from(n),
                (n, 's') => 30 + i64::from(n),
                (n, _) => 40 + i64::from(n),
            };
            Tile::from_code(code).ok_or_else(|| err(format!("{} is not a tile", p.notation())))
        }
    }
}

struct Open {
    round: Round,
    name: String,
    reach: [bool; 4],
    last_draw: [Option<Tile>; 4],
    ended: bool,
    /// Each seat's points now: the hand's start, less the riichi deposits, plus the results so
    /// far (for results given as the scores after them); `None` once a result left its changes
    /// out.
    now: Option<[i64; 4]>,
    /// The hand's wall, when the record gives it (akochan's `haiyama`).
    wall: Option<Wall>,
    /// Each seat's concealed tiles and its melds' tiles, as the events leave them.
    concealed: [Vec<Tile>; 4],
    melded: [Vec<Tile>; 4],
}

/// Takes tiles out of seat `s`'s concealed tiles (nothing for one it does not hold: the engine
/// refuses the move).
fn give(concealed: &mut [Vec<Tile>; 4], s: u8, tiles: &[Tile]) {
    let h = &mut concealed[usize::from(s) % 4];
    for t in tiles {
        if let Some(i) = h.iter().position(|x| x == t) {
            h.remove(i);
        }
    }
}

/// Tiles as a sorted list (`1m 1m 5p`), for a message and a comparison.
fn shown(t: &[Tile]) -> String {
    let mut v = t.to_vec();
    v.sort();
    v.iter().map(|t| t.notation()).collect::<Vec<_>>().join(" ")
}

/// The winner's yaku in Paifu's names where the source uses the original mjai's (a `sangenpai`
/// counted as the dragon pungs the winner holds, when their number is its han); names Paifu
/// knows otherwise are kept as they are (to_log compares them).
fn read_yaku(yaku: &[(String, u32)], tiles: &[Tile]) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (name, han) in yaku {
        match dialect::ruby_yaku(name).filter(|_| crate::import::yaku::paifu_name(name).is_none()) {
            Some(RubyYaku::Named(p)) => out.push((p.to_owned(), dialect::yakuman_han(*han))),
            Some(RubyYaku::Dragons) => {
                let pungs: Vec<&str> = [(45, "yakuhai_haku"), (46, "yakuhai_hatsu"), (47, "yakuhai_chun")]
                    .into_iter()
                    .filter(|(c, _)| tiles.iter().filter(|t| t.0 == *c).count() >= 3)
                    .map(|(_, n)| n)
                    .collect();
                if pungs.len() as u32 == *han {
                    out.extend(pungs.into_iter().map(|n| (n.to_owned(), 1)));
                } else {
                    out.push((name.clone(), *han));
                }
            }
            None => out.push((name.clone(), dialect::yakuman_han(*han))),
        }
    }
    out
}

/// Whether a tile is a terminal or an honour (red fives are fives).
fn yaochu(t: Tile) -> bool {
    t.0 > 40 && t.0 < 50 || t.0 < 40 && matches!(t.0 % 10, 1 | 9)
}

/// The draw a `ryukyoku` without `reason` names, when the record shows which (Mortal's libriichi
/// writes none, libriichi/src/arena/board.rs): four seats in riichi; four kans by more than one
/// seat; the same wind as each seat's first discard, no call made; nine kinds of terminals and
/// honours in a seat's first hand of 14 with no call yet (nine terminals); the wall used up (70
/// draws: an exhaustive draw).
fn unnamed_draw(o: &Open) -> Option<&'static str> {
    let r = &o.round;
    if r.discards.iter().all(|d| d.iter().any(|x| matches!(x, Discard::Riichi(_)))) {
        return Some("四家立直");
    }
    let kans: Vec<usize> = (0..4)
        .flat_map(|s| {
            let open = r.takes[s].iter().filter(|t| matches!(t, Take::OpenKan { .. })).count();
            let own =
                r.discards[s].iter().filter(|d| matches!(d, Discard::AddedKan { .. } | Discard::ClosedKan { .. }));
            std::iter::repeat_n(s, open + own.count())
        })
        .collect();
    if kans.len() == 4 && kans.iter().any(|s| *s != kans[0]) {
        return Some("四槓散了");
    }
    let calls = r.takes.iter().flatten().any(|t| !matches!(t, Take::Draw(_)));
    let first_discard = |s: usize| match (r.discards[s].as_slice(), r.takes[s].first()) {
        ([Discard::Tile(t) | Discard::Riichi(Some(t))], _) => Some(*t),
        ([Discard::Tsumogiri | Discard::Riichi(None)], Some(Take::Draw(t))) => Some(*t),
        _ => None,
    };
    let winds: Vec<Option<Tile>> = (0..4).map(first_discard).collect();
    if !calls && winds[0].is_some_and(|w| (41..=44).contains(&w.0)) && winds.iter().all(|w| *w == winds[0]) {
        return Some("四風連打");
    }
    let first = (0..4).find(|&s| o.last_draw[s].is_some() && r.takes[s].len() == 1 && r.discards[s].is_empty());
    if let (Some(s), false) = (first, calls) {
        let mut kinds: Vec<u8> =
            r.hands[s].iter().chain(o.last_draw[s].iter()).filter(|t| yaochu(**t)).map(|t| t.0).collect();
        kinds.sort_unstable();
        kinds.dedup();
        if kinds.len() >= 9 {
            return Some("九種九牌");
        }
    }
    let draws = r.takes.iter().flatten().filter(|t| matches!(t, Take::Draw(_))).count();
    (draws == 70).then_some("流局")
}

/// Checks an exhaustive draw's `tenpais` against its payments (Tenhou's: 3000 from the seats
/// not tenpai to those tenpai; no payment when all or none are), which the engine checks
/// against the hands.
fn tenpais_agree(tenpais: &[bool], d: [i64; 4]) -> Result<(), String> {
    let paid = if d.iter().all(|x| *x == 0) {
        tenpais.iter().all(|t| *t) || tenpais.iter().all(|t| !*t)
    } else {
        tenpais.iter().zip(d).all(|(t, x)| *t == (x > 0))
    };
    if paid {
        return Ok(());
    }
    let seats = |v: Vec<usize>| if v.is_empty() { "none".to_owned() } else { format!("{v:?}") };
    Err(format!(
        "ryukyoku: \"tenpais\" makes {} tenpai, but its score changes {d:?} are paid to {}",
        seats((0..4).filter(|&s| tenpais[s]).collect()),
        seats((0..4).filter(|&s| d[s] > 0).collect())
    ))
}

/// A result's deltas: given, or the scores after it less the scores before (`now`, `None` when an
/// earlier result of the hand left its changes out); `None` when the event gives neither.
fn result_deltas(
    deltas: Option<&Vec<i64>>,
    scores: Option<&Vec<i64>>,
    now: Option<[i64; 4]>,
    event: &str,
) -> Result<Option<[i64; 4]>, String> {
    match (deltas, scores) {
        (Some(d), _) => d.clone().try_into().map(Some).map_err(|_| "\"deltas\" must have 4 numbers".to_owned()),
        (None, Some(sc)) => {
            let sc: [i64; 4] = sc.clone().try_into().map_err(|_| "\"scores\" must have 4 numbers".to_owned())?;
            let now = now.ok_or_else(|| {
                format!(
                    "{event} gives the scores after it but no \"deltas\", and the scores before it are not known \
                     (an earlier result of this hand gave neither)"
                )
            })?;
            Ok(Some(std::array::from_fn(|i| sc[i] - now[i])))
        }
        (None, None) => Ok(None),
    }
}

/// The takes (or discards) a seat makes in most hands at most: 70 draws from the wall shared by
/// four, and a few calls (a list that grows past it is grown as any).
const SEAT_TURNS: usize = 24;

/// Gathers the events into the record model, with the line of every entry.
pub(crate) fn to_game(lines: &[Line]) -> Result<(Game, PosMap), ImportError> {
    let mut g = Game {
        absent: Vec::new(),
        start_points: Some(25000),
        start_points_given: false,
        id: String::new(),
        rule: String::new(),
        red_fives: false,
        names: vec!["A".into(), "B".into(), "C".into(), "D".into()],
        final_scores: None,
        final_results: None,
        rounds: Vec::new(),
        paifu: None,
    };
    let mut red_flag = None;
    let mut length_given = false;
    // The points after the last hand closed, for a start_kyoku without scores.
    let mut after_last: Option<[i64; 4]> = None;
    // A draw whose changes the next hand's scores state: its hand, the points before it, its line.
    let mut pending: Option<(usize, Option<[i64; 4]>, usize)> = None;
    let mut red_seen = false;
    // About one place a line (every take and discard has one), mapped once each.
    let mut pm = PosMap::with_capacity(lines.len());
    let mut cur: Option<Open> = None;
    let mut ended_game = false;
    for l in lines {
        let line = l.line;
        let ri = g.rounds.len();
        let here = |m: String| ImportError::new(format!("line {line}"), m);
        if ended_game {
            return Err(here("events after end_game".into()));
        }
        let close = |g: &mut Game, cur: &mut Option<Open>| -> Result<(), ImportError> {
            if let Some(o) = cur.take() {
                if !o.ended {
                    return Err(here(format!("{} ends without a hora or ryukyoku", o.name)).in_round(&o.name));
                }
                g.rounds.push(o.round);
            }
            Ok(())
        };
        match &l.event {
            Event::StartGame { names, red_fives, east_only, rule, id, paifu } => {
                if !g.rounds.is_empty() || cur.is_some() {
                    return Err(here("a second start_game: one game per file".into()));
                }
                match names {
                    Some(n) => g.names.clone_from(n),
                    None => {
                        g.names = (0..4).map(|s| format!("seat {s}")).collect();
                        g.absent.push("names (the seats are named seat 0 to seat 3)".to_owned());
                    }
                }
                red_flag = *red_fives;
                g.rule = rule.clone().unwrap_or_default();
                // akochan's kyoku_first (mjai_client.cpp: "4 -> tonpu match, 0 -> tonnan
                // match"), unless a rule name says more.
                if let (Some(east), true) = (east_only, g.rule.is_empty()) {
                    length_given = true;
                    if *east {
                        g.rule = "東喰".into();
                    }
                }
                g.id = id.clone().unwrap_or_default();
                g.paifu.clone_from(paifu);
            }
            Event::StartKyoku { bakaze, kyoku, honba, kyotaku, scores, dora_marker, tehais, oya, haiyama } => {
                // The points each seat ends the hand before with (None when a result of it left
                // its changes out), or the start points before the first hand.
                let before = match &cur {
                    Some(o) => o.now,
                    None if g.rounds.is_empty() => Some([25000; 4]),
                    None => after_last,
                };
                close(&mut g, &mut cur)?;
                let k = kyoku_index(*bakaze, *kyoku);
                let name = round_name(k, *honba);
                if usize::from(*oya) != usize::from(k % 4) {
                    return Err(here(format!("oya {oya} is not the dealer of {name}")).in_round(&name));
                }
                // mjx's translator writes no `scores`: the points are those the hand before left
                // (its results given), and the start points in the first hand.
                let sc: [i64; 4] = match scores {
                    Some(s) => s
                        .clone()
                        .try_into()
                        .map_err(|_| here("start_kyoku needs the four scores".into()).in_round(&name))?,
                    None => before.ok_or_else(|| {
                        here(
                            "start_kyoku gives no \"scores\", and the hand before gave no results to count them \
                             from"
                                .into(),
                        )
                        .in_round(&name)
                    })?,
                };
                if let Some((di, before, dl)) = pending.take() {
                    let before = before.ok_or_else(|| {
                        ImportError::new(
                            format!("line {dl}"),
                            "a ryukyoku without \"deltas\" or \"scores\" in a hand whose earlier result gave \
                             neither: its changes cannot be counted",
                        )
                    })?;
                    if let Some(Outcome::Draw { deltas, .. }) = g.rounds.get_mut(di).map(|r| &mut r.outcome) {
                        *deltas = Some(std::array::from_fn(|i| sc[i] - before[i]));
                    }
                }
                let mut hands: [Vec<Tile>; 4] = std::array::from_fn(|_| Vec::with_capacity(13));
                for (s, h) in tehais.iter().enumerate() {
                    for p in h {
                        let t = tile(*p, line, &name, format_args!("a tile of seat {s}'s starting hand"))?;
                        red_seen |= t.0 > 50;
                        hands[s].push(t);
                    }
                    if hands[s].len() != 13 {
                        return Err(
                            here(format!("seat {s} starts with {} tiles, not 13", hands[s].len())).in_round(&name)
                        );
                    }
                    for k in 4..7 {
                        pm.set(Pos::entry(ri, k + 3 * s), Label::Line(line));
                    }
                }
                let dora = tile(*dora_marker, line, &name, format_args!("the dora indicator"))?;
                let wall = match haiyama {
                    None => None,
                    Some(w) => {
                        let tiles = w
                            .iter()
                            .enumerate()
                            .map(|(i, p)| tile(*p, line, &name, format_args!("haiyama[{i}]")))
                            .collect::<Result<Vec<_>, _>>()?;
                        Some(Wall::new(tiles, line, *oya, &hands, dora).map_err(|m| here(m).in_round(&name))?)
                    }
                };
                for p in Pos::round_start(ri) {
                    pm.set(p, Label::Line(line));
                }
                cur = Some(Open {
                    round: Round {
                        kyoku: k,
                        honba: *honba,
                        sticks: *kyotaku,
                        scores: sc,
                        dora: vec![dora],
                        ura: Vec::new(),
                        hands: hands.clone(),
                        takes: std::array::from_fn(|_| Vec::with_capacity(SEAT_TURNS)),
                        discards: std::array::from_fn(|_| Vec::with_capacity(SEAT_TURNS)),
                        outcome: Outcome::Draw { name: String::new(), deltas: None },
                    },
                    name,
                    reach: [false; 4],
                    last_draw: [None; 4],
                    ended: false,
                    now: Some(sc),
                    wall,
                    // Room for the draw and a kan's tiles beside the 13.
                    concealed: hands.map(|h| {
                        let mut c = Vec::with_capacity(18);
                        c.extend(h);
                        c
                    }),
                    melded: Default::default(),
                });
            }
            Event::EndGame { scores } => {
                close(&mut g, &mut cur)?;
                g.final_scores.clone_from(scores);
                ended_game = true;
            }
            Event::EndKyoku => {
                after_last = cur.as_ref().and_then(|o| o.now);
                close(&mut g, &mut cur)?
            }
            ev => {
                let Some(o) = cur.as_mut() else {
                    return Err(here("an event outside a hand (before start_kyoku or after end_kyoku)".into()));
                };
                let name: &str = &o.name;
                let here = |m: String| ImportError::new(format!("line {line}"), m).in_round(name);
                if o.ended && !matches!(ev, Event::Hora { .. }) {
                    return Err(here("the hand has ended (hora or ryukyoku) but its events go on".into()));
                }
                let r = &mut o.round;
                let take = |pm: &mut PosMap, r: &mut Round, s: u8, t: Take| {
                    let su = usize::from(s);
                    pm.set(Pos::item(ri, 5 + 3 * su, r.takes[su].len()), Label::Line(line));
                    r.takes[su].push(t);
                };
                let disc = |pm: &mut PosMap, r: &mut Round, s: u8, d: Discard| {
                    let su = usize::from(s);
                    pm.set(Pos::item(ri, 6 + 3 * su, r.discards[su].len()), Label::Line(line));
                    r.discards[su].push(d);
                };
                let tl = |p: Pai, what: std::fmt::Arguments<'_>| tile(p, line, name, what);
                let from = |actor: u8, target: u8| match (target + 4 - actor) % 4 {
                    3 => Ok(CalledFrom::Left),
                    2 => Ok(CalledFrom::Across),
                    1 => Ok(CalledFrom::Right),
                    _ => Err(here(format!("seat {actor} calls its own discard"))),
                };
                let own = |c: &[Pai]| -> Result<Vec<Tile>, ImportError> {
                    c.iter().map(|p| tl(*p, format_args!("a tile of \"consumed\""))).collect()
                };
                match ev {
                    Event::Tsumo { actor, pai } => {
                        let t = tl(*pai, format_args!("seat {actor}'s draw"))?;
                        red_seen |= t.0 > 50;
                        if let Some(w) = o.wall.as_mut() {
                            w.draw(*actor, t).map_err(here)?;
                        }
                        o.concealed[usize::from(*actor)].push(t);
                        o.last_draw[usize::from(*actor)] = Some(t);
                        take(&mut pm, r, *actor, Take::Draw(t));
                    }
                    Event::Dahai { actor, pai, tsumogiri } => {
                        let a = usize::from(*actor);
                        let t = tl(*pai, format_args!("seat {actor}'s discard"))?;
                        if *tsumogiri && o.last_draw[a] != Some(t) {
                            return Err(here(format!(
                                "seat {actor} discards {} as the tile just drawn (tsumogiri), but it drew {}",
                                pai.notation(),
                                o.last_draw[a].map(|x| x.notation()).unwrap_or_else(|| "nothing".into())
                            )));
                        }
                        let d = match (std::mem::take(&mut o.reach[a]), tsumogiri) {
                            (true, true) => Discard::Riichi(None),
                            (true, false) => Discard::Riichi(Some(t)),
                            (false, true) => Discard::Tsumogiri,
                            (false, false) => Discard::Tile(t),
                        };
                        o.last_draw[a] = None;
                        disc(&mut pm, r, *actor, d);
                        give(&mut o.concealed, *actor, &[t]);
                    }
                    Event::Reach { actor } => o.reach[usize::from(*actor)] = true,
                    Event::ReachAccepted { actor, scores, deltas } => {
                        let a = usize::from(*actor) % 4;
                        if let Some(now) = o.now.as_mut() {
                            now[a] -= 1000;
                        }
                        // The deposit, as the writer states it: 1000 from the seat in riichi.
                        let deposit: Vec<i64> = (0..4).map(|s| if s == a { -1000 } else { 0 }).collect();
                        if let Some(d) = deltas.as_ref().filter(|d| **d != deposit) {
                            return Err(here(format!(
                                "reach_accepted: \"deltas\" {d:?}: a riichi deposit is 1000 points from seat {actor}, \
                                 {deposit:?}"
                            )));
                        }
                        if let (Some(sc), Some(now)) = (scores, o.now) {
                            if sc[..] != now[..] {
                                return Err(here(format!(
                                    "reach_accepted: \"scores\" {sc:?}, but after seat {actor}'s deposit the seats hold \
                                     {now:?}"
                                )));
                            }
                        }
                    }
                    Event::Chi { actor, target, pai, consumed } => {
                        if (actor + 3) % 4 != *target {
                            return Err(here(format!("seat {actor} calls chi from seat {target}, not its left")));
                        }
                        let c = own(consumed)?;
                        let called = tl(*pai, format_args!("the called tile"))?;
                        take(&mut pm, r, *actor, Take::Chi { called, own: [c[0], c[1]] });
                        o.last_draw[usize::from(*actor)] = None;
                        give(&mut o.concealed, *actor, &c);
                        o.melded[usize::from(*actor)].extend(c.iter().copied().chain([called]));
                    }
                    Event::Pon { actor, target, pai, consumed } => {
                        let c = own(consumed)?;
                        let called = tl(*pai, format_args!("the called tile"))?;
                        let t = Take::Pon { called, own: [c[0], c[1]], from: from(*actor, *target)? };
                        take(&mut pm, r, *actor, t);
                        o.last_draw[usize::from(*actor)] = None;
                        give(&mut o.concealed, *actor, &c);
                        o.melded[usize::from(*actor)].extend(c.iter().copied().chain([called]));
                    }
                    Event::Daiminkan { actor, target, pai, consumed } => {
                        let c = own(consumed)?;
                        let called = tl(*pai, format_args!("the called tile"))?;
                        let t = Take::OpenKan { called, own: [c[0], c[1], c[2]], from: from(*actor, *target)? };
                        take(&mut pm, r, *actor, t);
                        disc(&mut pm, r, *actor, Discard::Nothing);
                        give(&mut o.concealed, *actor, &c);
                        o.melded[usize::from(*actor)].extend(c.iter().copied().chain([called]));
                        if let Some(w) = o.wall.as_mut() {
                            w.kan();
                        }
                    }
                    Event::Kakan { actor, pai, consumed } => {
                        let c = own(consumed)?;
                        let [a, b, d] = c.as_slice() else {
                            return Err(here(format!("kakan: \"consumed\" has {} tiles, not the pon's 3", c.len())));
                        };
                        let added = tl(*pai, format_args!("the added tile"))?;
                        disc(&mut pm, r, *actor, Discard::AddedKan { added, pon: [*a, *b, *d] });
                        give(&mut o.concealed, *actor, &[added]);
                        o.melded[usize::from(*actor)].push(added);
                        if let Some(w) = o.wall.as_mut() {
                            w.kan();
                        }
                    }
                    Event::Ankan { actor, consumed } => {
                        let c = own(consumed)?;
                        let [a, b, d, e] = c.as_slice() else {
                            return Err(here(format!("ankan: \"consumed\" has {} tiles, not 4", c.len())));
                        };
                        disc(&mut pm, r, *actor, Discard::ClosedKan { tiles: [*a, *b, *d, *e] });
                        give(&mut o.concealed, *actor, &c);
                        o.melded[usize::from(*actor)].extend(c.iter().copied());
                        if let Some(w) = o.wall.as_mut() {
                            w.kan();
                        }
                    }
                    Event::Dora { dora_marker } => {
                        pm.set(Pos::item(ri, 2, r.dora.len()), Label::Line(line));
                        let t = tl(*dora_marker, format_args!("the dora indicator"))?;
                        if let Some(w) = o.wall.as_mut() {
                            w.indicator(t).map_err(here)?;
                        }
                        r.dora.push(t);
                    }
                    Event::Hora {
                        actor,
                        target,
                        pai,
                        ura_markers,
                        yaku,
                        fu,
                        han,
                        deltas,
                        scores,
                        pao,
                        hand,
                        tsumo,
                    } => {
                        if let Some(t) = tsumo.filter(|t| *t != (actor == target)) {
                            let said = if t { "a win by self-draw" } else { "a win on a discard" };
                            return Err(here(format!(
                                "hora: \"tsumo\" {t} says {said}, but seat {actor} wins from seat {target}"
                            )));
                        }
                        let a = usize::from(*actor);
                        // The winning tile: the one just drawn, or the last discard or added kan.
                        let win = match pai {
                            Some(p) => Some(tl(*p, format_args!("the winning tile"))?),
                            None if actor == target => o.last_draw[a],
                            None => None,
                        };
                        let mut held = o.concealed[a].clone();
                        if let (false, Some(w)) = (actor == target, win) {
                            held.push(w);
                        }
                        // `hora_tehais`: the winner's concealed tiles, with or without the
                        // winning tile (writers differ); anything else contradicts the record.
                        if let Some(h) = hand {
                            let h = h
                                .iter()
                                .map(|p| tl(*p, format_args!("a tile of \"hora_tehais\"")))
                                .collect::<Result<Vec<_>, _>>()?;
                            let mut without = held.clone();
                            if let Some(i) = win.and_then(|w| without.iter().position(|x| *x == w)) {
                                without.remove(i);
                            }
                            if shown(&h) != shown(&held) && shown(&h) != shown(&without) {
                                return Err(here(format!(
                                    "hora_tehais gives seat {actor}'s hand as {}, but its concealed tiles are {} (with \
                                     the winning tile)",
                                    shown(&h),
                                    shown(&held)
                                )));
                            }
                        }
                        let all: Vec<Tile> = held.iter().chain(&o.melded[a]).copied().collect();
                        let yaku = yaku.as_ref().map(|y| read_yaku(y, &all));
                        let han = han.map(dialect::yakuman_han);
                        let fu = fu.map(dialect::rounded_fu);
                        if let Some(w) = &o.wall {
                            let u = ura_markers
                                .iter()
                                .map(|u| tl(*u, format_args!("an ura indicator")))
                                .collect::<Result<Vec<_>, _>>()?;
                            w.ura(&u).map_err(here)?;
                        }
                        let given = result_deltas(deltas.as_ref(), scores.as_ref(), o.now, "hora").map_err(here)?;
                        // A hora that gives neither its changes nor the scores after it: the
                        // changes are computed from the win, not claimed.
                        o.now = o.now.zip(given).map(|(now, d)| std::array::from_fn(|i| now[i] + d[i]));
                        let deltas = given.unwrap_or_default();
                        let mut wins = match std::mem::replace(&mut r.outcome, Outcome::Wins(Vec::new())) {
                            Outcome::Wins(w) => w,
                            Outcome::Draw { .. } if !o.ended => Vec::new(),
                            Outcome::Draw { .. } => return Err(here("a hora after a ryukyoku".into())),
                        };
                        if wins.is_empty() {
                            pm.set(Pos::entry(ri, 16), Label::Line(line));
                        }
                        // The ura indicators of the first winner that shows them: in a double
                        // ron, a winner not in riichi shows none, and may come first.
                        if r.ura.is_empty() {
                            for (i, u) in ura_markers.iter().enumerate() {
                                pm.set(Pos::item(ri, 3, i), Label::Line(line));
                                r.ura.push(tl(*u, format_args!("an ura indicator"))?);
                            }
                        } else if !ura_markers.is_empty() {
                            let again = ura_markers
                                .iter()
                                .map(|u| tl(*u, format_args!("an ura indicator")))
                                .collect::<Result<Vec<_>, _>>()?;
                            if again != r.ura {
                                return Err(here(
                                    "the ura indicators differ from those of the hand's earlier win".into(),
                                ));
                            }
                        }
                        pm.set(Pos::item(ri, 16, 2 * wins.len() + 2), Label::Line(line));
                        // What the event leaves out is computed, not claimed (mjai has no field
                        // for the liable seat: never claimed, not listed).
                        let computed = [
                            ("score changes", given.is_none()),
                            ("fu", fu.is_none()),
                            ("han", han.is_none() && yaku.is_none()),
                            ("yaku", yaku.is_none()),
                        ]
                        .into_iter()
                        .filter_map(|(what, left_out)| left_out.then_some(what))
                        .collect();
                        wins.push(Win {
                            deltas,
                            who: *actor,
                            from: *target,
                            // The original mjai names the liable seat when there is one.
                            pao: *pao,
                            text: String::new(),
                            fu,
                            han,
                            yaku,
                            computed,
                        });
                        r.outcome = Outcome::Wins(wins);
                        o.ended = true;
                    }
                    Event::Ryukyoku { reason, deltas, scores, tenpais } => {
                        let name = match reason {
                            Some(why) => dialect::draw_name(why).map_err(here)?,
                            None => unnamed_draw(o).ok_or_else(|| {
                                here(
                                    "a ryukyoku without \"reason\" before the wall is used up, and not a nine \
                                     terminals draw: name the draw (kyushukyuhai, suufonrenda, suuchariichi, \
                                     suukaikan, sanchaho)"
                                        .into(),
                                )
                            })?,
                        };
                        // An abortive draw moves no points: one that gives neither its changes nor
                        // the scores after it (akochan's kyushukyuhai) claims none.
                        let given = result_deltas(deltas.as_ref(), scores.as_ref(), o.now, "ryukyoku").map_err(here)?;
                        let abortive = name != "流局" && name != "流し満貫";
                        if let (Some(t), Some(d), "流局") = (tenpais, given, name) {
                            tenpais_agree(t, d).map_err(here)?;
                        }
                        // A draw that states neither: an abortive draw moves no points (no changes,
                        // as in a tenhou.net/6 record); an exhaustive draw's (or nagashi
                        // mangan's) are the next hand's scores less the points before it.
                        if let (None, false) = (given, abortive) {
                            pending = Some((ri, o.now, line));
                        }
                        o.now = match given {
                            Some(d) => o.now.map(|now| std::array::from_fn(|i| now[i] + d[i])),
                            None if abortive => o.now,
                            None => None,
                        };
                        let r = &mut o.round;
                        pm.set(Pos::entry(ri, 16), Label::Line(line));
                        r.outcome = Outcome::Draw { name: name.to_owned(), deltas: given };
                        o.ended = true;
                    }
                    Event::StartGame { .. } | Event::StartKyoku { .. } | Event::EndKyoku | Event::EndGame { .. } => {}
                }
            }
        }
    }
    if let Some((_, _, dl)) = pending {
        return Err(ImportError::new(
            format!("line {dl}"),
            "an exhaustive draw without \"deltas\" or \"scores\" ends the game: no hand after it states its \
             score changes (the tenpai payments), so there is nothing to check them against",
        ));
    }
    if let Some(o) = cur {
        if !o.ended {
            let last = lines.last().map_or(0, |l| l.line);
            return Err(ImportError::new(
                format!("line {last}"),
                "the file ends inside a hand (no hora or ryukyoku): it is cut short",
            )
            .in_round(&o.name));
        }
        g.rounds.push(o.round);
    }
    if g.rounds.is_empty() {
        return Err(ImportError::new("line 1", "the log has no hand (start_kyoku)"));
    }
    g.red_fives = red_flag.unwrap_or(red_seen);
    if g.rule.is_empty() && !length_given {
        // No rule name: an East-only game if it ended normally after East 4.
        let east_only = g.rounds.iter().all(|r| r.kyoku < 4) && g.rounds.last().is_some_and(|r| r.kyoku == 3);
        let no_bust = g.final_scores.as_ref().is_some_and(|f| f.iter().all(|&x| x >= 0));
        if east_only && no_bust {
            g.rule = "東喰".into();
        }
    }
    Ok((g, pm))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand ended by a double ron on seat 0's discard: seat 1 (not in riichi, no ura
    /// indicators) and seat 2 (in riichi, `URA2`), as converters of Tenhou's mjlog write it.
    fn double_ron(ura1: &str, ura2: &str) -> String {
        let hand = r#"["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","2p","3p","4p"]"#;
        format!(
            r#"{{"type":"start_game","names":["A","B","C","D"]}}
{{"type":"start_kyoku","bakaze":"E","dora_marker":"2s","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[{hand},{hand},{hand},{hand}]}}
{{"type":"tsumo","actor":0,"pai":"5p"}}
{{"type":"dahai","actor":0,"pai":"5p","tsumogiri":true}}
{{"type":"hora","actor":1,"target":0,"pai":"5p","ura_markers":{ura1},"deltas":[-2000,2000,0,0]}}
{{"type":"hora","actor":2,"target":0,"pai":"5p","ura_markers":{ura2},"deltas":[-3900,0,3900,0]}}
{{"type":"end_kyoku"}}
{{"type":"end_game"}}
"#
        )
    }

    #[test]
    fn a_double_ron_takes_the_ura_indicators_of_the_winner_that_shows_them() {
        let (g, _) = to_game(&super::super::read::parse(&double_ron("[]", r#"["3s"]"#)).unwrap()).unwrap();
        assert_eq!(g.rounds[0].ura, vec![Tile::from_code(33).unwrap()]);
        let (g, _) = to_game(&super::super::read::parse(&double_ron(r#"["3s"]"#, r#"["3s"]"#)).unwrap()).unwrap();
        assert_eq!(g.rounds[0].ura, vec![Tile::from_code(33).unwrap()]);
        let e = to_game(&super::super::read::parse(&double_ron(r#"["3s"]"#, r#"["4s"]"#)).unwrap()).unwrap_err();
        assert_eq!(e.position, "line 6");
        assert!(e.message.contains("differ from those of the hand's earlier win"), "{e}");
    }

    #[test]
    fn results_given_as_scores_after_them_become_deltas() {
        let text = double_ron("[]", "[]")
            .replace(r#""deltas":[-2000,2000,0,0]"#, r#""scores":[23000,27000,25000,25000]"#)
            .replace(r#""deltas":[-3900,0,3900,0]"#, r#""scores":[19100,27000,28900,25000]"#);
        let (g, _) = to_game(&super::super::read::parse(&text).unwrap()).unwrap();
        let Outcome::Wins(w) = &g.rounds[0].outcome else { panic!("{:?}", g.rounds[0].outcome) };
        assert_eq!(w[0].deltas, [-2000, 2000, 0, 0]);
        assert_eq!(w[1].deltas, [-3900, 0, 3900, 0]);
        // A hora with neither: its changes are computed, not claimed (zeros, marked).
        let none = double_ron("[]", "[]").replace(r#","deltas":[-2000,2000,0,0]"#, "");
        let (g, _) = to_game(&super::super::read::parse(&none).unwrap()).unwrap();
        let Outcome::Wins(w) = &g.rounds[0].outcome else { panic!("{:?}", g.rounds[0].outcome) };
        assert_eq!((w[0].deltas, w[0].computed.contains(&"score changes")), ([0; 4], true));
        assert_eq!((w[1].deltas, w[1].computed.contains(&"score changes")), ([-3900, 0, 3900, 0], false));
        // ... after which a result given as the scores after it cannot be read: the scores before
        // it are not known.
        let after = none.replace(r#""deltas":[-3900,0,3900,0]"#, r#""scores":[19100,27000,28900,25000]"#);
        let e = to_game(&super::super::read::parse(&after).unwrap()).unwrap_err();
        assert!(e.message.contains("the scores before it are not known"), "{e}");
    }

    /// Two hands ended by draws that state no results: the first (exhaustive) takes the second
    /// hand's scores, the second (`last`) ends the game.
    fn two_draws(last: &str) -> String {
        let hand = r#"["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","2p","3p","4p"]"#;
        let start = |k: u8, sc: &str| {
            format!(
                r#"{{"type":"start_kyoku","bakaze":"E","dora_marker":"2s","kyoku":{k},"honba":0,"kyotaku":0,"oya":{},"scores":{sc},"tehais":[{hand},{hand},{hand},{hand}]}}"#,
                k - 1
            )
        };
        format!(
            "{{\"type\":\"start_game\"}}\n{}\n{{\"type\":\"ryukyoku\",\"reason\":\"fanpai\"}}\n{{\"type\":\"end_kyoku\"}}\n{}\n{{\"type\":\"ryukyoku\",\"reason\":\"{last}\"}}\n{{\"type\":\"end_kyoku\"}}\n{{\"type\":\"end_game\"}}\n",
            start(1, "[25000,25000,25000,25000]"),
            start(2, "[26500,23500,25000,25000]")
        )
    }

    #[test]
    fn a_draw_that_states_no_results_takes_them_from_the_next_hand() {
        let (g, _) = to_game(&super::super::read::parse(&two_draws("kyushukyuhai")).unwrap()).unwrap();
        assert_eq!(g.names, ["seat 0", "seat 1", "seat 2", "seat 3"]);
        assert!(g.absent[0].starts_with("names"), "{:?}", g.absent);
        let draws: Vec<_> = g.rounds.iter().map(|r| r.outcome.clone()).collect();
        assert_eq!(
            draws,
            [
                Outcome::Draw { name: "流局".into(), deltas: Some([1500, -1500, 0, 0]) },
                // An abortive draw moves no points: no claim, as in a tenhou.net/6 record.
                Outcome::Draw { name: "九種九牌".into(), deltas: None },
            ]
        );
        let e = to_game(&super::super::read::parse(&two_draws("fanpai")).unwrap()).unwrap_err();
        assert_eq!(e.position, "line 6");
        assert!(e.message.contains("no hand after it states its score changes"), "{e}");
    }

    #[test]
    fn yaochu_is_terminals_and_honours() {
        let codes: Vec<i64> = (11..=53).filter(|&c| Tile::from_code(c).is_some_and(yaochu)).collect();
        assert_eq!(codes, [11, 19, 21, 29, 31, 39, 41, 42, 43, 44, 45, 46, 47]);
    }
}
