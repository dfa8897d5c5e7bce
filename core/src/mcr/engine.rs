//! The MCR table: the match's seats and rounds, the wall, the deal and the flowers, turns,
//! claims and kongs, the end of a hand and its settlement (docs/rules/mcr.md).

use super::action::Action;
use super::facts::FactKind;
use super::rules::{Rules, WallKind};
use super::score::{score, Score, ScoreError, Situation, WinHand};
use crate::error::{ErrorCode, Violation};
use crate::mahjong::claim::{Can, Priority, SeveralWins, Window};
use crate::mahjong::{dice_break, Flower, Meld, MeldKind, Piece, Tile, Wall, WallEnd};
use crate::random::Seed;
use crate::{Fact, RoundResult, Seat, SeatSet, SetupError};

/// The seats of the four rounds: the player (by the letter of the place drawn at the start, A
/// East ... D North) at each place East, South, West, North (MCR's seat changes).
const ROUND_SEATS: [[usize; 4]; 4] = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1]];
#[cfg(test)]
pub(super) const ROUND_SEATS_FOR_TESTS: [[usize; 4]; 4] = ROUND_SEATS;

/// Tiles each seat draws from its own wall in the per-seat model: 34 less the 13 dealt.
const PER_SEAT_DRAWS: u8 = 21;

/// One seat's tiles.
#[derive(Clone, Debug, Default)]
pub(super) struct Player {
    /// Concealed tiles, sorted.
    pub(super) hand: Vec<Tile>,
    pub(super) melds: Vec<Meld>,
    pub(super) flowers: Vec<Flower>,
    /// Discards still on the table (a claimed discard moves into the claimer's meld).
    pub(super) river: Vec<Tile>,
}

impl Player {
    fn count(&self, t: Tile) -> usize {
        self.hand.iter().filter(|&&x| x == t).count()
    }
    fn add(&mut self, t: Tile) {
        let i = self.hand.partition_point(|&x| x <= t);
        self.hand.insert(i, t);
    }
    fn remove(&mut self, t: Tile, n: usize) {
        for _ in 0..n {
            if let Some(i) = self.hand.iter().position(|&x| x == t) {
                self.hand.remove(i);
            }
        }
    }
}

#[derive(Clone, Debug)]
pub(super) enum Phase {
    /// Imported games: the seat records its 13 starting tiles.
    Deal {
        seat: Seat,
    },
    /// Imported games: the seat records its draw.
    Draw {
        seat: Seat,
        after_kong: bool,
    },
    /// The seat discards, or declares a kong or a self-drawn win (`drawn`: the tile it drew;
    /// none after claiming a chow or a pung).
    Turn {
        seat: Seat,
        drawn: Option<Tile>,
        after_kong: bool,
    },
    /// Seats may claim `tile`, discarded by the window's seat.
    Claims {
        window: Window<Action>,
        tile: Tile,
    },
    /// Seats may rob the kong `tile` is being added to.
    Rob {
        window: Window<Action>,
        tile: Tile,
    },
    Over,
}

/// How a hand was won, for views and statistics.
#[derive(Clone, Debug)]
pub(super) struct Win {
    pub(super) seat: Seat,
    pub(super) tile: Tile,
    /// The seat that discarded the tile (or whose kong was robbed); none when self-drawn.
    pub(super) from: Option<Seat>,
    pub(super) robbed: bool,
    pub(super) score: Score,
}

/// An MCR match.
#[derive(Clone, Debug)]
pub struct Mcr {
    pub(super) rules: Rules,
    seed: Option<Seed>,
    /// 0-based hand of the match.
    pub(super) hand_no: u32,
    /// Each player's place this round (0 East .. 3 North).
    pub(super) place: [u8; 4],
    /// The player at each place.
    pub(super) at: [Seat; 4],
    pub(super) scores: [i64; 4],
    pub(super) results: Vec<RoundResult>,
    pub(super) wall: Wall<Piece>,
    /// Per-seat walls: the draws each seat has made.
    seat_draws: [u8; 4],
    pub(super) players: [Player; 4],
    pub(super) phase: Phase,
    pub(super) last_win: Option<Win>,
    pub(super) dice: [u8; 4],
    /// Imported games: how many of each piece (by code) have been dealt or drawn this hand.
    seen: [u8; 45],
    turns: u32,
    /// Forfeits, host incidents owed a safe action, the hand's incidents (core/src/incident.rs).
    pub(super) incidents: crate::incident::Incidents,
    /// Records played, against the bound (docs/rules/mcr.md, "Length").
    pub(super) length: crate::game::Length,
}

fn tiles_of(n: usize) -> Vec<Piece> {
    Piece::set().into_iter().take(n).collect()
}

impl Mcr {
    pub(super) fn new_game(rules: Rules, seed: Option<&Seed>) -> Result<Mcr, SetupError> {
        if seed.is_some() && rules.wall == WallKind::PerSeat {
            return Err(SetupError("mcr: walls per seat are for imported records; a seeded game has one wall".into()));
        }
        let mut g = Mcr {
            rules,
            seed: seed.copied(),
            hand_no: 0,
            place: [0, 1, 2, 3],
            at: [0, 1, 2, 3],
            scores: [0; 4],
            results: Vec::new(),
            wall: Wall::new(WallEnd { dead: 0, loose: 0 }),
            seat_draws: [0; 4],
            players: Default::default(),
            phase: Phase::Over,
            last_win: None,
            dice: [0; 4],
            seen: [0; 45],
            turns: 0,
            incidents: Default::default(),
            length: Default::default(),
        };
        g.start_hand();
        Ok(g)
    }

    fn wall_size(&self) -> usize {
        if self.rules.flowers {
            144
        } else {
            136
        }
    }

    /// The round (0 East .. 3 North, the prevalent wind) of the current hand.
    pub(super) fn round_wind(&self) -> u8 {
        ((self.hand_no / 4 + u32::from(self.rules.prevalent_wind)) % 4) as u8
    }

    /// The place of the current hand's dealer.
    fn dealer_place(&self) -> u8 {
        (self.hand_no % 4) as u8
    }

    pub(super) fn dealer(&self) -> Seat {
        self.at[usize::from(self.dealer_place())]
    }

    /// A player's wind this hand (0 East .. 3 North).
    pub(super) fn seat_wind(&self, seat: Seat) -> u8 {
        (self.place[usize::from(seat & 3)] + 4 - self.dealer_place()) % 4
    }

    /// The next player in turn order.
    fn next(&self, seat: Seat) -> Seat {
        self.at[usize::from((self.place[usize::from(seat & 3)] + 1) % 4)]
    }

    fn start_hand(&mut self) {
        // Seats: the places drawn at the start (the seed's wind draw), changed each round.
        let letters: [Seat; 4] = match &self.seed {
            Some(seed) => {
                let mut order = [0u8, 1, 2, 3];
                seed.stream("mcr/seating").shuffle(&mut order);
                order
            }
            None => [0, 1, 2, 3],
        };
        let round = (self.hand_no / 4 % 4) as usize;
        for p in 0..4 {
            let player = letters[ROUND_SEATS[round][p]];
            self.at[p] = player;
            self.place[usize::from(player)] = p as u8;
        }
        self.players = Default::default();
        self.seat_draws = [0; 4];
        self.seen = [0; 45];
        self.turns = 0;
        let dealer = self.dealer();
        let size = self.wall_size();
        let Some(seed) = self.seed else {
            self.wall.lay(size, Piece::Tile(Tile::kind_tile(0)));
            self.phase = Phase::Deal { seat: dealer };
            return;
        };
        let mut ring = tiles_of(size);
        seed.stream(&format!("mcr/hand/{}/wall", self.hand_no + 1)).shuffle(&mut ring);
        let mut dice = seed.stream(&format!("mcr/hand/{}/dice", self.hand_no + 1));
        for d in self.dice.iter_mut() {
            *d = dice.die(6) as u8;
        }
        let first = usize::from(self.dice[0] + self.dice[1]);
        let stacks = first + usize::from(self.dice[2] + self.dice[3]);
        self.wall.build(&ring, dice_break(self.dealer_place(), first, stacks, size / 4));
        // The deal: four tiles each three times from the dealer, one each, one more for the dealer.
        let order: Vec<Seat> = (0..4).map(|i| self.at[usize::from((self.dealer_place() + i) % 4)]).collect();
        let mut last = Tile::kind_tile(0);
        for n in [4, 4, 4, 1] {
            for &s in &order {
                for _ in 0..n {
                    if let Some(p) = self.wall.draw() {
                        self.receive(s, p);
                    }
                }
            }
        }
        if let Some(p) = self.wall.draw() {
            if let Piece::Tile(t) = p {
                last = t;
            }
            self.receive(dealer, p);
        }
        // Flowers replaced from the end, the dealer first; a replacement that is a flower too is
        // replaced in turn.
        for &s in &order {
            let mut need = self.players[usize::from(s)].flowers.len();
            while need > 0 {
                let Some(p) = self.wall.draw_replacement() else { break };
                need -= 1;
                match p {
                    Piece::Flower(_) => need += 1,
                    Piece::Tile(t) if s == dealer => last = t,
                    Piece::Tile(_) => {}
                }
                self.receive(s, p);
            }
        }
        self.phase = Phase::Turn { seat: dealer, drawn: Some(last), after_kong: false };
    }

    /// A piece into a seat's hand, or its flowers.
    fn receive(&mut self, s: Seat, p: Piece) {
        let pl = &mut self.players[usize::from(s & 3)];
        match p {
            Piece::Tile(t) => pl.add(t),
            Piece::Flower(f) => pl.flowers.push(f),
        }
    }

    /// Tiles the seat could still draw (its own wall's in the per-seat model).
    pub(super) fn left_for(&self, seat: Seat) -> usize {
        match self.rules.wall {
            WallKind::Shared => self.wall.left(),
            WallKind::PerSeat => usize::from(PER_SEAT_DRAWS.saturating_sub(self.seat_draws[usize::from(seat & 3)])),
        }
    }

    /// Tiles left in the wall (the per-seat model: all seats' together).
    pub(super) fn wall_left(&self) -> usize {
        match self.rules.wall {
            WallKind::Shared => self.wall.left(),
            WallKind::PerSeat => (0..4).map(|s| self.left_for(s)).sum(),
        }
    }

    /// Whether the tile just drawn by `seat` (or its discard) is the wall's last: the next seat
    /// has nothing to draw.
    fn is_wall_last(&self, seat: Seat) -> bool {
        match self.rules.wall {
            WallKind::Shared => self.wall.left() == 0,
            WallKind::PerSeat => self.left_for(self.next(seat)) == 0,
        }
    }

    /// The seat draws (a replacement after a kong or a flower from the end), setting flowers
    /// aside; the hand is drawn when the wall is empty.
    fn draw_for(&mut self, seat: Seat, after_kong: bool) {
        if self.left_for(seat) == 0 {
            self.end_drawn();
            return;
        }
        if self.seed.is_none() {
            self.phase = Phase::Draw { seat, after_kong };
            return;
        }
        let mut replacement = after_kong;
        loop {
            let p = if replacement { self.wall.draw_replacement() } else { self.wall.draw() };
            let Some(p) = p else {
                self.end_drawn();
                return;
            };
            self.receive(seat, p);
            match p {
                Piece::Flower(_) => replacement = true,
                Piece::Tile(t) => {
                    self.phase = Phase::Turn { seat, drawn: Some(t), after_kong };
                    return;
                }
            }
        }
    }

    /// The copies of `t` every seat can see: discards on the table and melds (a concealed
    /// kong's tiles are face down).
    fn visible(&self, t: Tile) -> usize {
        self.players
            .iter()
            .map(|p| {
                p.river.iter().filter(|&&x| x == t).count()
                    + p.melds.iter().filter(|m| m.is_open()).flat_map(|m| m.tiles()).filter(|&&x| x == t).count()
            })
            .sum()
    }

    /// The score of `seat` winning on `tile`: self-drawn (`from` none; the tile already in its
    /// hand), or on `from`'s discard or added kong.
    pub(super) fn win_score(
        &self,
        seat: Seat,
        tile: Tile,
        from: Option<Seat>,
        kong_related: bool,
    ) -> Result<Score, ScoreError> {
        let self_drawn = from.is_none();
        let p = &self.players[usize::from(seat & 3)];
        let mut concealed = p.hand.clone();
        if !self_drawn {
            concealed.push(tile);
        }
        let seen = self.visible(tile) - usize::from(!self_drawn && !kong_related);
        let sit = Situation {
            self_drawn,
            // The other three visible; robbing a kong excludes it anyway.
            last_tile: !kong_related && seen == 3 && p.count(tile) == usize::from(self_drawn),
            kong_related,
            // A robbed kong's tile is no discard; a replacement that is the wall's last tile is
            // both (docs/rules/mcr.md, "Decisions").
            wall_last: (self_drawn || !kong_related) && self.is_wall_last(from.unwrap_or(seat)),
            seat_wind: self.seat_wind(seat),
            round_wind: self.round_wind(),
            flowers: p.flowers.len() as u8,
        };
        score(&WinHand { concealed: &concealed, melds: &p.melds, win: tile }, &sit, &self.rules.score)
    }

    /// Whether `seat` may declare a win now with that score: a winning shape of 8 fan or more.
    fn can_win(&self, seat: Seat, tile: Tile, from: Option<Seat>, kong_related: bool) -> bool {
        self.win_score(seat, tile, from, kong_related).is_ok_and(|s| s.meets_minimum())
    }

    /// The chows `seat` can make on `tile`: its two hand tiles, in order.
    fn chows(&self, seat: Seat, tile: Tile) -> Vec<(Tile, Tile)> {
        let k = tile.kind();
        if k >= 27 {
            return Vec::new();
        }
        let p = &self.players[usize::from(seat & 3)];
        let n = k % 9;
        let mut out = Vec::new();
        for start in n.saturating_sub(2)..=n.min(6) {
            let others: Vec<Tile> =
                (start..start + 3).filter(|&x| x != n).map(|x| Tile::kind_tile(k - n + x)).collect();
            if others.iter().all(|&t| p.count(t) > 0) {
                out.push((others[0], others[1]));
            }
        }
        out
    }

    /// What each seat may claim on `from`'s `tile` (after the wall's last tile, only a win).
    fn claims_on(&self, from: Seat, tile: Tile) -> [Can; 4] {
        let mut can = [Can::NOTHING; 4];
        let last = self.left_for(self.next(from)) == 0;
        for s in 0..4u8 {
            if s == from {
                continue;
            }
            let c = &mut can[usize::from(s)];
            if self.can_win(s, tile, Some(from), false) {
                *c |= Can::WIN;
            }
            if last {
                continue;
            }
            let n = self.players[usize::from(s)].count(tile);
            if n >= 2 {
                *c |= Can::PUNG;
            }
            // A claimed kong draws a replacement: the claimer must have one to draw.
            if n >= 3 && self.left_for(s) > 0 {
                *c |= Can::KONG;
            }
            if s == self.next(from) && !self.chows(s, tile).is_empty() {
                *c |= Can::CHOW;
            }
        }
        can
    }

    /// Seats that owe a decision now.
    pub(super) fn to_act_set(&self) -> SeatSet {
        match &self.phase {
            Phase::Deal { seat } | Phase::Draw { seat, .. } | Phase::Turn { seat, .. } => SeatSet::single(*seat),
            Phase::Claims { window, .. } | Phase::Rob { window, .. } => window.waiting(),
            Phase::Over => SeatSet::EMPTY,
        }
    }

    /// Every legal action of a seat that owes a decision.
    pub(super) fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        match &self.phase {
            Phase::Deal { .. } | Phase::Draw { .. } | Phase::Over => {}
            Phase::Turn { seat: s, drawn, after_kong } if *s == seat => {
                let p = &self.players[usize::from(seat)];
                let mut last = None;
                for &t in &p.hand {
                    if last != Some(t) {
                        out.push(Action::Discard(t));
                        last = Some(t);
                    }
                }
                if let Some(d) = drawn {
                    if self.can_win(seat, *d, None, *after_kong) {
                        out.push(Action::Win);
                    }
                    if self.left_for(seat) > 0 {
                        let mut last = None;
                        for &t in &p.hand {
                            if last != Some(t) && p.count(t) == 4 {
                                out.push(Action::ConcealedKong(t));
                            }
                            last = Some(t);
                        }
                        for m in &p.melds {
                            if m.kind == MeldKind::Pung && p.count(m.tiles[0]) > 0 {
                                out.push(Action::AddedKong(m.tiles[0]));
                            }
                        }
                    }
                }
            }
            Phase::Turn { .. } => {}
            Phase::Claims { window, tile } => {
                if window.asks(seat) {
                    let can = window.can(seat);
                    out.push(Action::Pass);
                    if can.contains(Can::WIN) {
                        out.push(Action::Win);
                    }
                    if can.contains(Can::PUNG) {
                        out.push(Action::Pung(*tile));
                    }
                    if can.contains(Can::KONG) {
                        out.push(Action::Kong(*tile));
                    }
                    if can.contains(Can::CHOW) {
                        out.extend(self.chows(seat, *tile).into_iter().map(|(a, b)| Action::Chow(a, b)));
                    }
                }
            }
            Phase::Rob { window, .. } => {
                if window.asks(seat) {
                    out.extend([Action::Pass, Action::Win]);
                }
            }
        }
        out
    }

    /// Checks an action of a seat that owes a decision; the refusal says why in a referee's words.
    pub(super) fn check_action(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        match (&self.phase, action) {
            (Phase::Deal { .. }, Action::Deal(tiles)) => return self.check_deal(tiles),
            (Phase::Draw { .. }, Action::Draw(p)) => return self.check_draw(*p),
            (_, Action::Deal(_) | Action::Draw(_)) if self.seed.is_some() => {
                return Err(Violation::illegal(format!(
                    "{action}: deals and draws come from the seed in a seeded game; they are records only in imported games"
                )))
            }
            (Phase::Deal { .. }, _) => return Err(Violation::illegal(format!("seat {seat} must record its deal, not {action}"))),
            (Phase::Draw { .. }, _) => return Err(Violation::illegal(format!("seat {seat} must record its draw, not {action}"))),
            _ => {}
        }
        if self.legal(seat).contains(action) {
            return Ok(());
        }
        Err(self.why_not(seat, action))
    }

    /// Why an action that is not legal is refused.
    fn why_not(&self, seat: Seat, action: &Action) -> Violation {
        let p = &self.players[usize::from(seat & 3)];
        let win_refusal = |tile: Tile, from: Option<Seat>, kong: bool| match self.win_score(seat, tile, from, kong) {
            Ok(s) if !s.meets_minimum() => Violation::new(
                ErrorCode::BelowMinimum,
                format!(
                    "seat {seat} declares a win worth {} fan without flowers ({}); a win needs 8",
                    s.fan,
                    s.summary()
                ),
            ),
            Ok(_) => Violation::illegal(format!("seat {seat} cannot declare a win now")),
            Err(e) => Violation::illegal(format!("seat {seat} declares a win on {tile}, but {e}")),
        };
        match (&self.phase, action) {
            (Phase::Turn { drawn: Some(d), after_kong, .. }, Action::Win) => win_refusal(*d, None, *after_kong),
            (Phase::Turn { drawn: None, .. }, Action::Win) => {
                Violation::illegal(format!("seat {seat} has claimed a set and must discard; it cannot win on its own tile now"))
            }
            (Phase::Claims { tile, window } | Phase::Rob { tile, window }, Action::Win) => {
                win_refusal(*tile, Some(window.from()), matches!(self.phase, Phase::Rob { .. }))
            }
            (_, Action::Discard(t)) if p.count(*t) == 0 => {
                Violation::illegal(format!("seat {seat} discards {t}, which is not in its hand"))
            }
            (Phase::Claims { window, tile }, Action::Chow(a, b)) if seat != self.next(window.from()) => Violation::illegal(format!(
                "seat {seat} chows {a} {b} on {tile} from seat {}: a chow may be made only on the discard of the player before",
                window.from()
            )),
            (Phase::Claims { tile, .. }, Action::Pung(t) | Action::Kong(t)) if t != tile => {
                Violation::illegal(format!("{action}: the tile to claim is {tile}"))
            }
            (Phase::Claims { tile, .. }, Action::Kong(_)) if p.count(*tile) < 3 => Violation::illegal(format!(
                "seat {seat} declares a kong of {tile} with {} in its hand: a kong on a discard needs three",
                p.count(*tile)
            )),
            (Phase::Claims { tile, .. }, Action::Pung(_)) if p.count(*tile) < 2 => Violation::illegal(format!(
                "seat {seat} declares a pung of {tile} with {} in its hand: a pung needs two",
                p.count(*tile)
            )),
            (_, Action::ConcealedKong(t)) if p.count(*t) < 4 => Violation::illegal(format!(
                "seat {seat} declares a concealed kong of {t} with {} in its hand: a kong is four tiles",
                p.count(*t)
            )),
            (_, Action::AddedKong(t)) if !p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.tiles[0] == *t) => {
                Violation::illegal(format!("seat {seat} adds {t} to a kong, but has no melded pung of {t}"))
            }
            (Phase::Claims { .. } | Phase::Rob { .. }, _) => Violation::illegal(format!(
                "{action} is not a claim seat {seat} can make now; it can: {}",
                self.legal(seat).iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
            )),
            _ => Violation::illegal(format!(
                "{action} is not legal now; seat {seat} can: {}",
                self.legal(seat).iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    /// Imported games: a deal is 13 tiles of a possible set.
    fn check_deal(&self, tiles: &[Tile; 13]) -> Result<(), Violation> {
        if !Action::deal(*tiles).eq(&Action::Deal(*tiles)) {
            return Err(Violation::illegal("a deal's tiles must be in tile order".to_string()));
        }
        let mut seen = self.seen;
        for t in tiles {
            seen[usize::from(t.id())] += 1;
            if seen[usize::from(t.id())] > 4 {
                return Err(Violation::illegal(format!("a fifth {t}: the set has four")));
            }
        }
        Ok(())
    }

    /// Imported games: a draw of a piece still in the wall.
    fn check_draw(&self, p: Piece) -> Result<(), Violation> {
        let (limit, what) = match p {
            Piece::Tile(_) => (4, "four"),
            Piece::Flower(_) if self.rules.flowers => (1, "one"),
            Piece::Flower(f) => return Err(Violation::illegal(format!("draw {f}: these rules play without flowers"))),
        };
        if self.seen[usize::from(p.code())] >= limit {
            return Err(Violation::illegal(format!("draw {p}: all of them are already out (the set has {what})")));
        }
        Ok(())
    }

    /// Applies a checked action.
    pub(super) fn apply_action(&mut self, seat: Seat, action: &Action) {
        self.turns += 1;
        match (self.phase.clone(), action.clone()) {
            (Phase::Deal { .. }, Action::Deal(tiles)) => {
                for t in tiles {
                    self.seen[usize::from(t.id())] += 1;
                    self.receive(seat, Piece::Tile(t));
                }
                self.wall.skip(13);
                let next = self.next(seat);
                self.phase = if next == self.dealer() {
                    Phase::Draw { seat: next, after_kong: false }
                } else {
                    Phase::Deal { seat: next }
                };
            }
            (Phase::Draw { after_kong, .. }, Action::Draw(p)) => {
                self.seen[usize::from(p.code())] += 1;
                self.seat_draws[usize::from(seat)] += 1;
                if after_kong || p.flower().is_some() {
                    self.wall.skip_replacements(1);
                } else {
                    self.wall.skip(1);
                }
                self.receive(seat, p);
                self.phase = match p {
                    Piece::Flower(_) => Phase::Draw { seat, after_kong },
                    Piece::Tile(t) => Phase::Turn { seat, drawn: Some(t), after_kong },
                };
                if p.flower().is_some() && self.left_for(seat) == 0 {
                    self.end_drawn();
                }
            }
            (Phase::Turn { drawn, after_kong, .. }, Action::Win) => {
                let tile = drawn.unwrap_or(Tile::kind_tile(0));
                if let Ok(sc) = self.win_score(seat, tile, None, after_kong) {
                    self.end_won(Win { seat, tile, from: None, robbed: false, score: sc });
                }
            }
            (Phase::Turn { .. }, Action::Discard(t)) => {
                let p = &mut self.players[usize::from(seat)];
                p.remove(t, 1);
                p.river.push(t);
                let can = self.claims_on(seat, t);
                let window = Window::new(seat, can);
                self.phase = Phase::Claims { window, tile: t };
                self.close_window_if_done();
            }
            (Phase::Turn { .. }, Action::ConcealedKong(t)) => {
                let p = &mut self.players[usize::from(seat)];
                p.remove(t, 4);
                if let Some(m) = Meld::new(MeldKind::ConcealedKong, &[t; 4], None, None) {
                    p.melds.push(m);
                }
                self.draw_for(seat, true);
            }
            (Phase::Turn { .. }, Action::AddedKong(t)) => {
                let mut can = [Can::NOTHING; 4];
                for s in 0..4u8 {
                    if s != seat && self.can_win(s, t, Some(seat), true) {
                        can[usize::from(s)] = Can::WIN;
                    }
                }
                self.players[usize::from(seat)].remove(t, 1);
                self.phase = Phase::Rob { window: Window::new(seat, can), tile: t };
                self.close_window_if_done();
            }
            (Phase::Claims { mut window, tile }, a) => {
                window.answer(seat, a);
                self.phase = Phase::Claims { window, tile };
                self.close_window_if_done();
            }
            (Phase::Rob { mut window, tile }, a) => {
                window.answer(seat, a);
                self.phase = Phase::Rob { window, tile };
                self.close_window_if_done();
            }
            _ => {}
        }
    }

    /// Resolves a claim window once every seat asked has answered.
    fn close_window_if_done(&mut self) {
        let rank = |a: &Action| match a {
            Action::Win => Some(Priority::Win),
            Action::Pung(_) | Action::Kong(_) => Some(Priority::Pung),
            Action::Chow(..) => Some(Priority::Chow),
            _ => None,
        };
        match self.phase.clone() {
            Phase::Claims { window, tile } if window.is_closed() => {
                let from = window.from();
                let ruling = window.arbitrate(rank);
                if let Some(&w) = ruling.standing_wins(SeveralWins::Nearest).first() {
                    if let Ok(sc) = self.win_score(w, tile, Some(from), false) {
                        self.players[usize::from(from)].river.pop();
                        self.end_won(Win { seat: w, tile, from: Some(from), robbed: false, score: sc });
                    }
                    return;
                }
                let Some(c) = ruling.call() else {
                    let next = self.next(from);
                    self.draw_for(next, false);
                    return;
                };
                self.players[usize::from(from)].river.pop();
                let p = &mut self.players[usize::from(c)];
                match window.answer_of(c) {
                    Some(&Action::Chow(a, b)) => {
                        p.remove(a, 1);
                        p.remove(b, 1);
                        if let Some(m) = Meld::new(MeldKind::Chow, &[a, tile, b], Some(tile), Some(from)) {
                            p.melds.push(m);
                        }
                        self.phase = Phase::Turn { seat: c, drawn: None, after_kong: false };
                    }
                    Some(Action::Pung(_)) => {
                        p.remove(tile, 2);
                        if let Some(m) = Meld::new(MeldKind::Pung, &[tile; 3], Some(tile), Some(from)) {
                            p.melds.push(m);
                        }
                        self.phase = Phase::Turn { seat: c, drawn: None, after_kong: false };
                    }
                    Some(Action::Kong(_)) => {
                        p.remove(tile, 3);
                        if let Some(m) = Meld::new(MeldKind::ClaimedKong, &[tile; 4], Some(tile), Some(from)) {
                            p.melds.push(m);
                        }
                        self.draw_for(c, true);
                    }
                    _ => {}
                }
            }
            Phase::Rob { window, tile } if window.is_closed() => {
                let from = window.from();
                let ruling = window.arbitrate(rank);
                if let Some(&w) = ruling.standing_wins(SeveralWins::Nearest).first() {
                    if let Ok(sc) = self.win_score(w, tile, Some(from), true) {
                        self.end_won(Win { seat: w, tile, from: Some(from), robbed: true, score: sc });
                    }
                    return;
                }
                let p = &mut self.players[usize::from(from)];
                if let Some(m) = p.melds.iter_mut().find(|m| m.kind == MeldKind::Pung && m.tiles[0] == tile) {
                    *m = Meld { kind: MeldKind::AddedKong, tiles: [tile; 4], called: m.called, from: m.from };
                }
                self.draw_for(from, true);
            }
            _ => {}
        }
    }

    /// A hand won: settlement, the result, the next hand.
    fn end_won(&mut self, win: Win) {
        let fan = i64::from(win.score.total());
        let mut deltas = vec![0i64; 4];
        let w = usize::from(win.seat);
        for s in 0..4 {
            if s == w {
                continue;
            }
            let pay = match win.from {
                None => 8 + fan,
                Some(f) if usize::from(f) == s => 8 + fan,
                Some(_) => 8,
            };
            deltas[s] -= pay;
            deltas[w] += pay;
        }
        let how = match (win.from, win.robbed) {
            (None, _) => "self-drawn".to_string(),
            (Some(f), false) => format!("on seat {f}'s discard"),
            (Some(f), true) => format!("robbing seat {f}'s kong"),
        };
        let summary = format!("seat {} wins on {} {how}: {}", win.seat, win.tile, win.score.summary());
        let mut facts = vec![
            Fact::seat(win.seat, FactKind::Win, 1),
            Fact::seat(win.seat, FactKind::Fan, fan),
            Fact::seat(win.seat, if win.from.is_none() { FactKind::SelfDrawn } else { FactKind::OnDiscard }, 1),
        ];
        if win.robbed {
            facts.push(Fact::seat(win.seat, FactKind::RobbedKong, 1));
        }
        if let Some(f) = win.from {
            facts.push(Fact::seat(f, FactKind::DealIn, 1));
        }
        for (f, n) in win.score.fans() {
            facts.push(Fact::seat(win.seat, FactKind::FanKind(f), i64::from(n)));
        }
        self.last_win = Some(win);
        self.finish_hand(deltas, summary, facts);
    }

    /// A hand drawn: the wall is empty and nobody won.
    fn end_drawn(&mut self) {
        self.last_win = None;
        let facts = vec![Fact::table(FactKind::Drawn, 1)];
        self.finish_hand(vec![0; 4], "drawn: the wall is empty".into(), facts);
    }

    fn finish_hand(&mut self, deltas: Vec<i64>, summary: String, mut facts: Vec<Fact>) {
        for s in 0..4 {
            self.scores[s] += deltas[s];
        }
        facts.push(Fact::table(FactKind::Turns, i64::from(self.turns)));
        let last = self.hand_no + 1 >= self.rules.hands;
        if last {
            for (s, tp) in self.table_points().into_iter().enumerate() {
                facts.push(Fact::seat(s as Seat, FactKind::TablePoints, tp));
            }
        }
        self.results.push(RoundResult { round: self.hand_no + 1, deltas, summary, facts });
        if last {
            self.phase = Phase::Over;
        } else {
            self.hand_no += 1;
            self.start_hand();
        }
    }

    /// Table points by score: 4, 2, 1, 0, players tied sharing the points of the places they
    /// tie for, the mean rounded down (two tied first: 3 each; three tied first: 2 each).
    pub fn table_points(&self) -> [i64; 4] {
        const POINTS: [i64; 4] = [4, 2, 1, 0];
        let mut out = [0; 4];
        for s in 0..4 {
            let above = (0..4).filter(|&o| self.scores[o] > self.scores[s]).count();
            let tied = (0..4).filter(|&o| self.scores[o] == self.scores[s]).count();
            out[s] = POINTS[above..above + tied].iter().sum::<i64>() / tied as i64;
        }
        out
    }

    /// The whole state as text.
    pub(super) fn render_text(&self) -> String {
        let winds = ['E', 'S', 'W', 'N'];
        let mut out = format!(
            "hand {} of {} ({} round), dealer seat {}, wall {}\n",
            self.hand_no + 1,
            self.rules.hands,
            winds[usize::from(self.round_wind())],
            self.dealer(),
            self.wall_left()
        );
        for s in 0..4u8 {
            let p = &self.players[usize::from(s)];
            let melds: Vec<String> = p
                .melds
                .iter()
                .map(|m| format!("{}:{}", m.kind.name(), crate::mahjong::tiles_text(m.tiles())))
                .collect();
            let flowers: Vec<String> = p.flowers.iter().map(|f| f.to_string()).collect();
            out.push_str(&format!(
                "seat {s} ({}) {:>5}: {} [{}] flowers {} | discards {}\n",
                winds[usize::from(self.seat_wind(s))],
                self.scores[usize::from(s)],
                crate::mahjong::tiles_text(&p.hand),
                melds.join(" "),
                flowers.join(""),
                p.river.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
            ));
        }
        out.push_str(&match &self.phase {
            Phase::Deal { seat } => format!("seat {seat} to record its deal\n"),
            Phase::Draw { seat, .. } => format!("seat {seat} to record its draw\n"),
            Phase::Turn { seat, drawn, .. } => match drawn {
                Some(t) => format!("seat {seat} drew {t} and is to act\n"),
                None => format!("seat {seat} is to discard\n"),
            },
            Phase::Claims { window, tile } => format!("claims on seat {}'s {tile}\n", window.from()),
            Phase::Rob { window, tile } => format!("seat {} adds {tile} to a kong; it may be robbed\n", window.from()),
            Phase::Over => "the match is over\n".to_string(),
        });
        out
    }
}
