//! The riichi match: walls, turns, claim windows, furiten, round ends, the match and its end.

use super::action::Action;
use super::facts::{Abort, FactKind};
use super::rules::Rules;
use super::score::{payment, score, Payment, Score, Situation, WinHand, Yaku};
use super::view::{ClaimView, DiscardView, MeldView, PlayerView, View};
use crate::error::Violation;
use crate::game::{Fact, RoundResult, Seat, SeatSet, SetupError};
use crate::mahjong::hand::{is_win, waits as hand_waits, YAOCHU};
use crate::mahjong::{counts_of, tiles_text, Counts, Meld, MeldKind, Tile};
use crate::random::Seed;
use std::fmt::Write as _;

const WINDS: [char; 4] = ['E', 'S', 'W', 'N'];

/// One discard in a river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct River {
    pub tile: Tile,
    /// The tile was the one just drawn (tsumogiri).
    pub drawn: bool,
    /// The riichi declaration tile (turned sideways).
    pub riichi: bool,
    /// Taken by another seat's call.
    pub called: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Player {
    /// The concealed tiles, changed only through the methods below, which keep `counts`.
    tiles: Vec<Tile>,
    /// `counts_of(&tiles)`, kept as the tiles change (counting them again for every waits
    /// check was a chain of byte increments the processor could not run ahead of).
    counts: Kinds,
    pub melds: Vec<Meld>,
    pub river: Vec<River>,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    /// Declared with the discard now in a claim window, not yet established.
    pub riichi_pending: bool,
    pub furiten_temp: bool,
    pub furiten_riichi: bool,
    /// Kinds this seat has discarded (bit mask).
    pub discarded: u64,
    /// The kinds that complete the hand as it was after the last discard (bit mask).
    pub waits: u64,
    /// The hand's counts by kind when `waits` was last computed: the hand of every seat but
    /// the one on turn (claims are checked against it).
    pub kinds: Kinds,
    /// `hand::waits(&kinds)`: the waits of the concealed part alone, kept to skip recomputing
    /// them when a discard leaves the counts as they were (tsumogiri, or a tile of the kind
    /// drawn).
    pub concealed_waits: u64,
    /// Every discard a terminal or honour and none called (nagashi mangan).
    pub nagashi: bool,
    /// The seat liable for a big three dragons / big four winds (pao), with which yakuman.
    pub pao: Option<(Yaku, Seat)>,
    /// The seat whose discard made this seat's last open kan (for rinshan liability).
    pub minkan_from: Option<Seat>,
    pub calls: u32,
}

/// Tile counts by kind (a newtype for `Default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kinds(pub Counts);

impl Default for Kinds {
    fn default() -> Self {
        Kinds([0; 34])
    }
}

impl Player {
    /// The concealed tiles.
    pub(crate) fn hand(&self) -> &[Tile] {
        &self.tiles
    }
    /// The concealed tiles' counts by kind.
    pub(crate) fn counts(&self) -> Counts {
        debug_assert_eq!(self.counts.0, counts_of(&self.tiles));
        self.counts.0
    }
    pub(crate) fn push(&mut self, t: Tile) {
        self.tiles.push(t);
        self.counts.0[t.kind()] += 1;
    }
    pub(crate) fn extend(&mut self, ts: &[Tile]) {
        for &t in ts {
            self.push(t);
        }
    }
    /// Replaces the concealed tiles.
    pub(crate) fn set_hand(&mut self, ts: &[Tile]) {
        self.tiles.clear();
        self.counts = Kinds::default();
        self.extend(ts);
    }
    /// Removes and answers the tile at `i`.
    fn take_at(&mut self, i: usize) -> Tile {
        let t = self.tiles.swap_remove(i);
        self.counts.0[t.kind()] -= 1;
        t
    }
    /// Removes every tile of kind `k` and answers them.
    fn take_kind(&mut self, k: usize) -> Vec<Tile> {
        let taken: Vec<Tile> = self.tiles.iter().copied().filter(|x| x.kind() == k).collect();
        self.tiles.retain(|x| x.kind() != k);
        self.counts.0[k] = 0;
        taken
    }
    fn count_tile(&self, t: Tile) -> usize {
        self.tiles.iter().filter(|&&x| x == t).count()
    }
    fn count_kind(&self, k: usize) -> usize {
        usize::from(self.counts.0[k])
    }
    fn closed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }
    pub(crate) fn remove(&mut self, t: Tile) -> bool {
        match self.tiles.iter().position(|&x| x == t) {
            Some(i) => {
                self.take_at(i);
                true
            }
            None => false,
        }
    }
    /// A new hand: no tiles, melds or discards (the vectors keep their room), every flag as
    /// `Default` gives, and nagashi mangan still possible.
    fn reset(&mut self) {
        let (mut tiles, mut melds, mut river) =
            (std::mem::take(&mut self.tiles), std::mem::take(&mut self.melds), std::mem::take(&mut self.river));
        tiles.clear();
        melds.clear();
        river.clear();
        *self = Player { tiles, melds, river, nagashi: true, ..Player::default() };
    }
    fn furiten(&self) -> bool {
        self.furiten_temp || self.furiten_riichi || self.waits & self.discarded != 0
    }
    pub(crate) fn update_waits(&mut self) {
        let kinds = Kinds(self.counts());
        // (The default counts are all zero, and so are their waits.)
        // (A branch-free comparison: a call to memcmp costs more than the 34 bytes.)
        if kinds.0.iter().zip(&self.kinds.0).fold(0u8, |acc, (a, b)| acc | (a ^ b)) != 0 {
            self.kinds = kinds;
            self.concealed_waits = hand_waits(&kinds.0);
        }
        debug_assert_eq!(self.concealed_waits, hand_waits(&self.kinds.0));
        self.waits = held_out(self.concealed_waits, &self.kinds.0, &self.melds, None);
    }
}

/// What a claim window is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Window {
    Discard,
    /// Robbing an added kan.
    Kakan,
    /// Robbing a closed kan (thirteen orphans only).
    Ankan,
}

pub(crate) const CAN_RON: u8 = 1;
pub(crate) const CAN_PON: u8 = 2;
pub(crate) const CAN_KAN: u8 = 4;
pub(crate) const CAN_CHI: u8 = 8;

#[derive(Clone, Debug)]
pub(crate) enum Phase {
    /// `seat` holds 14 tiles (counting kans as 3) and must act: `drawn` is the tile just drawn
    /// (none after a chi or pon), `rinshan` when it came from the dead wall.
    Turn {
        seat: Seat,
        drawn: Option<Tile>,
        rinshan: bool,
        kuikae: u64,
    },
    /// Seats may claim `tile` discarded (or added to a kan) by `from`.
    Claims {
        from: Seat,
        tile: Tile,
        window: Window,
        can: [u8; 4],
        answers: [Option<Action>; 4],
    },
    /// Imported games: `seat` records its 13 starting tiles (the dealer first, then in turn).
    Deal {
        seat: Seat,
    },
    /// Imported games: `seat` records the tile it draws (from the dead wall when `rinshan`); it
    /// may first record dora and ura indicators.
    Draw {
        seat: Seat,
        rinshan: bool,
    },
    Over,
}

/// A whole riichi match.
#[derive(Clone, Debug)]
pub struct Riichi {
    pub(crate) rules: Rules,
    pub(crate) seed: Option<Seed>,
    pub(crate) scores: [i64; 4],
    pub(crate) results: Vec<RoundResult>,
    /// 0 East, 1 South, ...
    pub(crate) round_wind: u8,
    /// 0-3: the dealer is seat `kyoku` (seat 0 is the first dealer).
    pub(crate) kyoku: u8,
    pub(crate) honba: u32,
    pub(crate) sticks: u32,
    pub(crate) players: [Player; 4],
    /// The live wall in draw order.
    pub(crate) live: Vec<Tile>,
    pub(crate) next: usize,
    /// One past the last drawable live tile (shrinks by one per kan).
    pub(crate) live_end: usize,
    /// The dead wall: d0-d3 replacement tiles, d4/d6/d8/d10/d12 dora indicators, d5/d7/.. ura.
    pub(crate) dead: [Tile; 14],
    pub(crate) rinshan_used: usize,
    /// Dora indicators shown (1 + kan dora shown).
    pub(crate) dora_shown: usize,
    /// Kan dora earned by an open or added kan, shown after the next discard.
    pub(crate) dora_pending: usize,
    pub(crate) kans: u8,
    /// Any call (chi, pon, kan) this hand: ends the first go-around.
    pub(crate) any_call: bool,
    pub(crate) discards_made: u32,
    pub(crate) phase: Phase,
    pub(crate) round_deltas: [i64; 4],
    pub(crate) dice: (u8, u8),
    /// Imported games (no seed): copies of each tile id the records have shown this hand (hands
    /// dealt, draws, indicators), and how many dora and ura indicators they gave.
    pub(crate) seen: [u8; 37],
    pub(crate) dora_known: usize,
    pub(crate) ura_known: usize,
    /// The wins of the last round that ended in wins, with their scores.
    pub(crate) last_wins: Vec<(Seat, Score)>,
}

/// The outcome of a round, before it is written down.
struct Ending {
    summary: String,
    facts: Vec<Fact>,
    /// The dealer keeps the seat.
    renchan: bool,
    /// The round ended in a win by the dealer (for agari-yame).
    dealer_won: bool,
    /// Honba counter after the round.
    next_honba: u32,
}

impl Riichi {
    /// A new match. Without a seed, an imported game: the deals, draws and indicators are records.
    pub(crate) fn new_game(rules: Rules, seed: Option<&Seed>) -> Result<Riichi, SetupError> {
        let start = rules.start_points;
        let mut g = Riichi {
            rules,
            seed: seed.copied(),
            scores: [start; 4],
            results: Vec::new(),
            round_wind: 0,
            kyoku: 0,
            honba: 0,
            sticks: 0,
            players: Default::default(),
            live: Vec::new(),
            next: 0,
            live_end: 0,
            dead: [Tile::kind_tile(0); 14],
            rinshan_used: 0,
            dora_shown: 1,
            dora_pending: 0,
            kans: 0,
            any_call: false,
            discards_made: 0,
            phase: Phase::Over,
            round_deltas: [0; 4],
            dice: (1, 1),
            seen: [0; 37],
            dora_known: 0,
            ura_known: 0,
            last_wins: Vec::new(),
        };
        g.start_round();
        Ok(g)
    }

    /// The label of the current hand in stream names: `E1`, `S4`, `W2`...
    pub fn hand_label(&self) -> String {
        self.hand_name().to_string()
    }

    /// The current hand's name, to write without allocating: `E1`, `S4`, `W2`...
    fn hand_name(&self) -> impl std::fmt::Display {
        struct Name(char, u8);
        impl std::fmt::Display for Name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", self.0, self.1)
            }
        }
        Name(WINDS[usize::from(self.round_wind & 3)], self.kyoku + 1)
    }

    /// The dora indicators (`ura`: the ura indicators under them) in the order kans reveal
    /// them: every other tile of the dead wall from d4 (dora) or d5 (ura).
    pub(crate) fn indicator_row(&self, ura: bool) -> [Tile; 5] {
        std::array::from_fn(|i| self.dead[4 + usize::from(ura) + 2 * i])
    }

    pub fn dealer(&self) -> Seat {
        self.kyoku
    }

    /// The 136 tiles with the configured red fives.
    pub fn tile_set(rules: &Rules) -> Vec<Tile> {
        Riichi::tile_array(rules).to_vec()
    }

    /// The 136 tiles in kind order, four of each; the first copies of the configured red fives
    /// (of 5m, 5p, 5s; the second 5p too when there are four) are red.
    fn tile_array(rules: &Rules) -> [Tile; 136] {
        let mut tiles = Tile::set();
        let reds: &[usize] = match rules.red_fives {
            0 => &[],
            3 => &[4 * 4, 4 * 13, 4 * 22],
            _ => &[4 * 4, 4 * 13, 4 * 13 + 1, 4 * 22],
        };
        for &i in reds {
            tiles[i] = tiles[i].akaize();
        }
        tiles
    }

    /// The name of this hand's streams after `what`: `E1/0` (East 1, no honba), `S3/2`...
    fn stream_label(&self, what: &str) -> String {
        let mut label = String::with_capacity(what.len() + 16);
        let _ = write!(label, "{what}{}/{}", self.hand_name(), self.honba);
        label
    }

    fn start_round(&mut self) {
        let Some(seed) = self.seed else { return self.start_imported_round() };
        let mut ring = Riichi::tile_array(&self.rules);
        seed.stream(&self.stream_label("riichi/wall/")).shuffle(&mut ring);
        let mut dice = seed.stream(&self.stream_label("riichi/dice/"));
        let d1 = dice.die(6) as u8;
        let d2 = dice.die(6) as u8;
        self.dice = (d1, d2);
        let sum = usize::from(d1 + d2);
        let dealer = usize::from(self.dealer());
        let wall = (dealer + sum - 1) % 4;
        let brk = 34 * wall + 2 * sum;
        self.live.clear();
        self.live.extend((0..122).map(|i| ring[(brk + i) % 136]));
        for k in 1..=7usize {
            self.dead[2 * k - 2] = ring[(brk + 136 - 2 * k) % 136];
            self.dead[2 * k - 1] = ring[(brk + 136 - 2 * k + 1) % 136];
        }
        for p in self.players.iter_mut() {
            p.reset();
        }
        // Three rounds of four tiles each, dealer first; then the dealer takes the 49th and the
        // 53rd tile (the latter counts as its first draw), the others the 50th to 52nd.
        let mut i = 0;
        for _ in 0..3 {
            for s in 0..4 {
                let seat = (dealer + s) % 4;
                self.players[seat].extend(&self.live[i..i + 4]);
                i += 4;
            }
        }
        self.players[dealer].push(self.live[48]);
        for s in 1..4 {
            self.players[(dealer + s) % 4].push(self.live[48 + s]);
        }
        let first = self.live[52];
        self.players[dealer].push(first);
        self.next = 53;
        self.reset_hand_counters();
        for s in 1..4 {
            self.players[(dealer + s) % 4].update_waits();
        }
        self.phase = Phase::Turn { seat: self.dealer(), drawn: Some(first), rinshan: false, kuikae: 0 };
    }

    /// The per-hand counters every new hand starts from, seeded or imported: 122 tiles before the
    /// dead wall, one dora indicator shown, no kans, calls, discards or score changes yet.
    fn reset_hand_counters(&mut self) {
        self.live_end = 122;
        self.rinshan_used = 0;
        self.dora_shown = 1;
        self.dora_pending = 0;
        self.kans = 0;
        self.any_call = false;
        self.discards_made = 0;
        self.round_deltas = [0; 4];
    }

    /// An imported hand: the same counters as a dealt one (52 tiles dealt), the tiles to come as
    /// records.
    fn start_imported_round(&mut self) {
        for p in self.players.iter_mut() {
            p.reset();
        }
        self.seen = [0; 37];
        self.dora_known = 0;
        self.ura_known = 0;
        self.next = 52;
        self.reset_hand_counters();
        self.phase = Phase::Deal { seat: self.dealer() };
    }

    /// Whether a game is imported (its chance events are records).
    pub fn is_imported(&self) -> bool {
        self.seed.is_none()
    }

    /// How many copies of tile id `id` the set has.
    fn copies(&self, id: usize) -> u8 {
        let reds = match self.rules.red_fives {
            0 => [0, 0, 0],
            3 => [1, 1, 1],
            _ => [1, 2, 1],
        };
        match id {
            34..=36 => reds[id - 34],
            4 | 13 | 22 => 4 - reds[[4, 13, 22].iter().position(|&k| k == id).unwrap_or(0)],
            _ => 4,
        }
    }

    /// Checks that `tiles` can still come out of the wall (imported games).
    fn check_possible(&self, seat: Seat, what: &str, tiles: &[Tile]) -> Result<(), Violation> {
        let mut seen = self.seen;
        for t in tiles {
            let id = usize::from(t.id());
            seen[id] += 1;
            if seen[id] > self.copies(id) {
                let n = self.copies(id);
                return Err(Violation::illegal(format!(
                    "seat {seat} {what} {t}, but all {n} {} of {t} are already accounted for (hands, melds, rivers, \
                     indicators): there is no such tile left",
                    if n == 1 { "copy" } else { "copies" }
                )));
            }
        }
        Ok(())
    }

    fn note_seen(&mut self, tiles: &[Tile]) {
        for t in tiles {
            self.seen[usize::from(t.id())] += 1;
        }
    }

    /// The ura indicators a riichi win of `seat` needs that the records have not given.
    fn check_ura_known(&self, seat: Seat) -> Result<(), Violation> {
        let p = &self.players[usize::from(seat)];
        if self.seed.is_some() || !p.riichi || !self.rules.ura_dora {
            return Ok(());
        }
        let need = if self.rules.kan_ura_dora { self.dora_shown } else { 1 };
        if self.ura_known < need {
            return Err(Violation::illegal(format!(
                "seat {seat} wins in riichi, but the records give {} of the {need} ura indicators",
                self.ura_known
            )));
        }
        Ok(())
    }

    /// Kan dora that showing `more` indicators would need and the records have not given.
    fn check_dora_known(&self, seat: Seat, more: usize) -> Result<(), Violation> {
        if self.seed.is_some() || !self.rules.kan_dora || more == 0 {
            return Ok(());
        }
        let need = (self.dora_shown + more).min(5);
        if self.dora_known < need {
            return Err(Violation::illegal(format!(
                "seat {seat}'s kan reveals dora indicator {need}, but the records give only {}",
                self.dora_known
            )));
        }
        Ok(())
    }

    fn check_chance(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        let phase_seat = match self.phase {
            Phase::Deal { seat } | Phase::Draw { seat, .. } => Some(seat),
            _ => None,
        };
        if self.seed.is_some() || phase_seat.is_none() {
            return Err(Violation::illegal(if self.seed.is_some() {
                format!("{action}: deals, draws and indicators are records only in imported games (without a seed)")
            } else {
                format!("seat {seat} records {action}, but no tile is drawn or dealt now")
            }));
        }
        if phase_seat != Some(seat) {
            return Err(Violation::new(
                crate::ErrorCode::NotYourTurn,
                format!("it is seat {}'s turn", phase_seat.unwrap_or(0)),
            ));
        }
        match (&self.phase, action) {
            (Phase::Deal { .. }, Action::Deal(tiles)) => {
                if !Action::deal_is_canonical(tiles) {
                    return Err(Violation::illegal("a deal's tiles must be in canonical order"));
                }
                self.check_possible(seat, "is dealt", tiles)
            }
            (Phase::Deal { .. }, other) => {
                Err(Violation::illegal(format!("seat {seat} must record its starting tiles (deal), not {other}")))
            }
            (Phase::Draw { .. }, Action::Draw(t)) => {
                if self.dora_known == 0 {
                    return Err(Violation::illegal("the first dora indicator must be recorded before the first draw"));
                }
                self.check_possible(seat, "draws", &[*t])
            }
            (Phase::Draw { .. }, Action::Dora(t)) => {
                if self.dora_known >= 5 {
                    return Err(Violation::illegal("the dead wall has only 5 dora indicators"));
                }
                self.check_possible(seat, "shows the dora indicator", &[*t])
            }
            (Phase::Draw { .. }, Action::Ura(t)) => {
                if self.ura_known >= 5 {
                    return Err(Violation::illegal("the dead wall has only 5 ura indicators"));
                }
                self.check_possible(seat, "shows the ura indicator", &[*t])
            }
            (_, other) => Err(Violation::illegal(format!("seat {seat} must record the tile it draws, not {other}"))),
        }
    }

    fn apply_chance(&mut self, seat: Seat, action: &Action) {
        let s = usize::from(seat);
        match (self.phase.clone(), *action) {
            (Phase::Deal { .. }, Action::Deal(tiles)) => {
                self.note_seen(&tiles);
                self.players[s].set_hand(&tiles);
                self.players[s].update_waits();
                let next = (seat + 1) % 4;
                self.phase = if next == self.dealer() {
                    Phase::Draw { seat: next, rinshan: false }
                } else {
                    Phase::Deal { seat: next }
                };
            }
            (Phase::Draw { rinshan, .. }, Action::Draw(t)) => {
                self.note_seen(&[t]);
                if !rinshan {
                    self.next += 1;
                }
                self.players[s].push(t);
                self.phase = Phase::Turn { seat, drawn: Some(t), rinshan, kuikae: 0 };
            }
            (Phase::Draw { .. }, Action::Dora(t)) => {
                self.note_seen(&[t]);
                self.dead[(4 + 2 * self.dora_known).min(13)] = t;
                self.dora_known += 1;
            }
            (Phase::Draw { .. }, Action::Ura(t)) => {
                self.note_seen(&[t]);
                self.dead[(5 + 2 * self.ura_known).min(13)] = t;
                self.ura_known += 1;
            }
            _ => {}
        }
    }

    /// The tiles a seat may draw now (imported games; for `legal_actions`).
    fn possible_tiles(&self, seat: Seat) -> Vec<Tile> {
        (0..37u8).filter_map(Tile::new).filter(|t| self.check_possible(seat, "draws", &[*t]).is_ok()).collect()
    }

    pub fn tiles_left(&self) -> usize {
        self.live_end.saturating_sub(self.next)
    }

    pub fn dora_indicators(&self) -> Vec<Tile> {
        self.indicator_row(false)[..self.dora_shown.min(5)].to_vec()
    }

    fn seat_wind(&self, seat: Seat) -> u8 {
        (seat + 4 - self.dealer()) % 4
    }

    /// Whether nobody has called and every discard so far is part of the first go-around.
    fn first_go(&self) -> bool {
        !self.any_call && self.discards_made < 4
    }

    /// The score if `seat` wins with `tile` (drawn for a tsumo, otherwise claimed).
    fn win_score(&self, seat: Seat, tile: Tile, tsumo: bool, rinshan: bool, chankan: bool) -> Option<Score> {
        let p = &self.players[usize::from(seat)];
        // The concealed tiles with the claimed one, on the stack (a hand holds at most 14).
        let mut buf = [tile; 14];
        let n = p.hand().len().min(14);
        buf[..n].copy_from_slice(&p.hand()[..n]);
        let concealed = &buf[..(n + usize::from(!tsumo)).min(14)];
        let dealer = seat == self.dealer();
        let first = self.first_go() && p.river.is_empty();
        let last = self.tiles_left() == 0;
        let sit = Situation {
            tsumo,
            riichi: p.riichi && !p.double_riichi,
            double_riichi: p.double_riichi,
            ippatsu: p.ippatsu,
            rinshan,
            chankan,
            haitei: tsumo && !rinshan && last,
            houtei: !tsumo && !chankan && last,
            tenhou: tsumo && dealer && first,
            chiihou: tsumo && !dealer && first,
            renhou: !tsumo && !dealer && first && !chankan,
            seat_wind: self.seat_wind(seat),
            round_wind: self.round_wind & 3,
        };
        // Indicators are every other tile of the dead wall from d4 (dora) and d5 (ura).
        let (dora_all, ura_all) = (self.indicator_row(false), self.indicator_row(true));
        let shown = self.dora_shown.min(5);
        let dora = &dora_all[..if self.rules.kan_dora { shown } else { 1 }];
        let ura_n = if !(p.riichi && self.rules.ura_dora) {
            0
        } else if self.rules.kan_ura_dora {
            shown
        } else {
            1
        };
        let wh = WinHand { concealed, melds: &p.melds, win: tile, dora, ura: &ura_all[..ura_n] };
        score(&wh, &sit, &self.rules).ok()
    }

    fn can_ron(&self, seat: Seat, tile: Tile, window: Window) -> bool {
        let p = &self.players[usize::from(seat)];
        if p.waits & (1 << tile.kind()) == 0 || p.furiten() {
            return false;
        }
        if window == Window::Ankan {
            // Only thirteen orphans may rob a closed kan.
            let mut c = p.counts();
            c[tile.kind()] += 1;
            if !crate::mahjong::hand::is_thirteen_orphans(&c) {
                return false;
            }
        }
        self.win_score(seat, tile, false, false, window != Window::Discard).is_some()
    }

    /// Whether a hand without `removed` still has a tile it may discard after a call.
    fn has_discard_after_call(&self, seat: Seat, removed: &[Tile], kuikae: u64) -> bool {
        // Each removed tile takes away one copy from the hand (no copy of the hand is made).
        let mut taken = 0u8;
        self.players[usize::from(seat)].hand().iter().any(|t| {
            if let Some(j) = removed.iter().enumerate().position(|(j, r)| r == t && taken & (1 << j) == 0) {
                taken |= 1 << j;
                return false;
            }
            kuikae & (1 << t.kind()) == 0
        })
    }

    /// Kinds a chi with `a` and `b` on `tile` forbids discarding right after (kuikae).
    pub(crate) fn chi_kuikae(tile: Tile, a: Tile, b: Tile) -> u64 {
        let k = tile.kind();
        let mut ban = 1u64 << k;
        let lo = a.kind().min(b.kind());
        let hi = a.kind().max(b.kind());
        if k < lo && k % 9 <= 5 {
            // Called the low end of k, k+1, k+2: k+3 is a swap too.
            ban |= 1 << (k + 3);
        } else if k > hi && k % 9 >= 3 {
            ban |= 1 << (k - 3);
        }
        ban
    }

    fn claim_options(&self, seat: Seat, from: Seat, tile: Tile, window: Window) -> u8 {
        let mut can = 0;
        if self.can_ron(seat, tile, window) {
            can |= CAN_RON;
        }
        if window != Window::Discard || self.tiles_left() == 0 {
            return can;
        }
        let p = &self.players[usize::from(seat)];
        if p.riichi {
            return can;
        }
        let k = tile.kind();
        // A seat that is not on turn holds the hand its waits were computed for.
        debug_assert_eq!(p.kinds.0, p.counts());
        let c = &p.kinds.0;
        let n = usize::from(c[k]);
        // Pon needs a legal discard afterwards: a tile of another kind (kuikae bans this one).
        if n >= 2 && p.hand().len() > n {
            can |= CAN_PON;
        }
        if n >= 3 && self.kans < 4 {
            can |= CAN_KAN;
        }
        if seat == (from + 1) % 4 && !tile.is_honor() {
            // Chi with some two tiles of the hand, leaving a tile that the swap-call rule allows
            // (which tiles of a kind are used does not change the kinds left).
            let num = k % 9;
            for (da, db) in [(-2i32, -1i32), (-1, 1), (1, 2)] {
                let (na, nb) = (num as i32 + da, num as i32 + db);
                if !(0..9).contains(&na) || !(0..9).contains(&nb) {
                    continue;
                }
                let (ka, kb) = ((k as i32 + da) as usize, (k as i32 + db) as usize);
                if c[ka] == 0 || c[kb] == 0 {
                    continue;
                }
                // The hand keeps len - 2 tiles; the chi is possible when they are not all of the
                // (at most two) banned kinds.
                let mut ban = Riichi::chi_kuikae(tile, Tile::kind_tile(ka), Tile::kind_tile(kb));
                let mut banned = 0;
                while ban != 0 {
                    let x = ban.trailing_zeros() as usize;
                    ban &= ban - 1;
                    banned += usize::from(c[x]) - usize::from(x == ka) - usize::from(x == kb);
                }
                if p.hand().len() - 2 > banned {
                    can |= CAN_CHI;
                    break;
                }
            }
        }
        can
    }

    /// Candidate chi tile pairs (distinct by red-ness) for `tile`.
    fn chi_pairs(&self, seat: Seat, tile: Tile) -> Vec<(Tile, Tile)> {
        let p = &self.players[usize::from(seat)];
        let k = tile.kind();
        let mut out = Vec::new();
        if tile.is_honor() {
            return out;
        }
        let n = k % 9;
        let shapes: [(i32, i32); 3] = [(-2, -1), (-1, 1), (1, 2)];
        for (da, db) in shapes {
            let (na, nb) = (n as i32 + da, n as i32 + db);
            if !(0..9).contains(&na) || !(0..9).contains(&nb) {
                continue;
            }
            let ka = (k as i32 + da) as usize;
            let kb = (k as i32 + db) as usize;
            let va: Vec<Tile> = variants(p.hand(), ka);
            let vb: Vec<Tile> = variants(p.hand(), kb);
            for &a in &va {
                for &b in &vb {
                    out.push((a, b));
                }
            }
        }
        out
    }

    fn check_call(&self, seat: Seat, tile: Tile, action: &Action) -> Result<(), Violation> {
        let p = &self.players[usize::from(seat)];
        match *action {
            Action::Chi(a, b) => {
                let (ka, kb, k) = (a.kind(), b.kind(), tile.kind());
                let mut ks = [ka, kb, k];
                ks.sort_unstable();
                if tile.is_honor()
                    || a.is_honor()
                    || b.is_honor()
                    || ks[0] / 9 != ks[2] / 9
                    || ks[1] != ks[0] + 1
                    || ks[2] != ks[1] + 1
                {
                    return Err(Violation::illegal(format!(
                        "chi {a} {b} does not make a run with the discarded {tile}"
                    )));
                }
                let need_two = a == b;
                if p.count_tile(a) < 1 + usize::from(need_two) || p.count_tile(b) < 1 {
                    return Err(Violation::illegal(format!(
                        "seat {seat} calls chi with {a} {b}, but holds {}",
                        tiles_text(p.hand())
                    )));
                }
                if !self.has_discard_after_call(seat, &[a, b], Riichi::chi_kuikae(tile, a, b)) {
                    return Err(Violation::illegal(format!(
                        "after chi {a} {b} on {tile}, seat {seat} would have only swap-call tiles to discard (kuikae)"
                    )));
                }
                Ok(())
            }
            Action::Pon(a, b) => {
                if a.kind() != tile.kind() || b.kind() != tile.kind() {
                    return Err(Violation::illegal(format!("pon {a} {b} does not match the discarded {tile}")));
                }
                let need = if a == b { 2 } else { 1 };
                if p.count_tile(a) < need || p.count_tile(b) < 1 {
                    return Err(Violation::illegal(format!(
                        "seat {seat} calls pon with {a} {b}, but holds {}",
                        tiles_text(p.hand())
                    )));
                }
                if !self.has_discard_after_call(seat, &[a, b], 1 << tile.kind()) {
                    return Err(Violation::illegal(format!(
                        "after pon on {tile}, seat {seat} would have only {tile} to discard (kuikae)"
                    )));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn check_turn(
        &self,
        seat: Seat,
        drawn: Option<Tile>,
        rinshan: bool,
        kuikae: u64,
        action: &Action,
    ) -> Result<(), Violation> {
        let p = &self.players[usize::from(seat)];
        match *action {
            Action::Discard { tile, drawn: from_draw, riichi } => {
                if from_draw {
                    if drawn != Some(tile) {
                        return Err(Violation::illegal(match drawn {
                            Some(d) => format!("seat {seat} discards {tile} as the drawn tile, but drew {d}"),
                            None => format!(
                                "seat {seat} has drawn nothing this turn (it called); discard {tile} from the hand"
                            ),
                        }));
                    }
                } else {
                    let in_hand = p.count_tile(tile) - usize::from(drawn == Some(tile));
                    if in_hand == 0 {
                        return Err(Violation::illegal(if p.count_tile(tile) > 0 {
                            format!("seat {seat}'s only {tile} is the tile just drawn: write tsumogiri {tile}")
                        } else {
                            format!("seat {seat} discards {tile}, but holds {}", tiles_text(p.hand()))
                        }));
                    }
                    if p.riichi {
                        return Err(Violation::illegal(format!(
                            "seat {seat} is in riichi and may only discard the tile it drew"
                        )));
                    }
                }
                if kuikae & (1 << tile.kind()) != 0 {
                    return Err(Violation::illegal(format!(
                        "seat {seat} may not discard {tile} right after calling for it (swap call, kuikae)"
                    )));
                }
                if riichi {
                    self.check_riichi(seat, tile, drawn)?;
                }
                self.check_dora_known(seat, self.dora_pending)
            }
            Action::Tsumo => {
                let Some(d) = drawn else {
                    return Err(Violation::illegal(format!("seat {seat} declares tsumo without having drawn")));
                };
                if !is_win(&p.counts()) {
                    return Err(Violation::illegal(format!(
                        "seat {seat} declares tsumo, but {} is not a winning hand",
                        tiles_text(p.hand())
                    )));
                }
                if self.win_score(seat, d, true, rinshan, false).is_none() {
                    return Err(Violation::illegal(format!("seat {seat} declares tsumo with a hand that has no yaku")));
                }
                self.check_ura_known(seat)
            }
            Action::Ankan(t) => {
                let k = t.kind();
                if drawn.is_none() {
                    return Err(Violation::illegal(format!("seat {seat} may not kan right after a call")));
                }
                if p.count_kind(k) < 4 {
                    return Err(Violation::illegal(format!(
                        "seat {seat} declares a closed kan of {t} without four of them"
                    )));
                }
                self.check_kan_possible(seat)?;
                self.check_dora_known(seat, self.dora_pending + 1)?;
                if p.riichi {
                    if drawn.map(|d| d.kind()) != Some(k) {
                        return Err(Violation::illegal(format!(
                            "seat {seat} is in riichi: a closed kan must use the tile just drawn"
                        )));
                    }
                    let mut c = p.counts();
                    c[k] = 0;
                    if seat_waits(&c, &p.melds, Some(k)) != p.waits {
                        return Err(Violation::illegal(format!(
                            "seat {seat} is in riichi: a closed kan of {t} would change its waits"
                        )));
                    }
                }
                Ok(())
            }
            Action::Kakan(t) => {
                let k = t.kind();
                if drawn.is_none() {
                    return Err(Violation::illegal(format!("seat {seat} may not kan right after a call")));
                }
                if !p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.base() == k) || p.count_kind(k) == 0 {
                    return Err(Violation::illegal(format!(
                        "seat {seat} adds {t} to a kan, but has no pon of {t} and the fourth tile"
                    )));
                }
                self.check_kan_possible(seat)
            }
            Action::Kyuushu => {
                if !self.rules.abortive_draws {
                    return Err(Violation::illegal("abortive draws are off in these rules"));
                }
                if drawn.is_none() || !self.first_go() || !p.river.is_empty() {
                    return Err(Violation::illegal(format!(
                        "seat {seat} may only abort with nine terminals on its first, uninterrupted draw"
                    )));
                }
                let c = p.counts();
                let kinds = YAOCHU.iter().filter(|&&k| c[k] > 0).count();
                if kinds < 9 {
                    return Err(Violation::illegal(format!(
                        "seat {seat} has {kinds} different terminals and honours; nine terminals needs nine"
                    )));
                }
                Ok(())
            }
            Action::Ron | Action::Pass | Action::Chi(..) | Action::Pon(..) | Action::Minkan(_) => {
                Err(Violation::illegal(format!(
                    "seat {seat} must discard (or tsumo, kan) on its turn; {action} answers a discard"
                )))
            }
            Action::Deal(_) | Action::Draw(_) | Action::Dora(_) | Action::Ura(_) => self.check_chance(seat, action),
        }
    }

    fn check_kan_possible(&self, seat: Seat) -> Result<(), Violation> {
        if self.tiles_left() == 0 {
            return Err(Violation::illegal(format!("seat {seat} may not kan: the wall is empty")));
        }
        if self.kans >= 4 {
            return Err(Violation::illegal(format!("seat {seat} may not kan: four kans have been made")));
        }
        Ok(())
    }

    fn check_riichi(&self, seat: Seat, tile: Tile, drawn: Option<Tile>) -> Result<(), Violation> {
        let p = &self.players[usize::from(seat)];
        if p.riichi {
            return Err(Violation::illegal(format!("seat {seat} is already in riichi")));
        }
        if !p.closed() {
            return Err(Violation::illegal(format!("seat {seat} may not declare riichi with an open hand")));
        }
        if drawn.is_none() {
            return Err(Violation::illegal(format!("seat {seat} may not declare riichi right after a call")));
        }
        if self.scores[usize::from(seat)] < 1000 {
            return Err(Violation::illegal(format!(
                "seat {seat} declares riichi with {} points; the deposit is 1000",
                self.scores[usize::from(seat)]
            )));
        }
        if self.tiles_left() < 4 {
            return Err(Violation::illegal(format!(
                "seat {seat} declares riichi with {} tiles left in the wall; riichi needs at least 4",
                self.tiles_left()
            )));
        }
        let mut c = p.counts();
        c[tile.kind()] = c[tile.kind()].saturating_sub(1);
        if seat_waits(&c, &p.melds, None) == 0 {
            let mut rest = p.hand().to_vec();
            if let Some(i) = rest.iter().position(|&x| x == tile) {
                rest.remove(i);
            }
            return Err(Violation::illegal(format!(
                "seat {seat} declares riichi discarding {tile}, but {} is not tenpai",
                tiles_text(&rest)
            )));
        }
        Ok(())
    }

    pub(crate) fn check_action(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        match &self.phase {
            Phase::Over => Err(Violation::illegal("the match is over")),
            Phase::Deal { .. } | Phase::Draw { .. } => self.check_chance(seat, action),
            Phase::Turn { seat: s, drawn, rinshan, kuikae } => {
                if *s != seat {
                    return Err(Violation::new(crate::ErrorCode::NotYourTurn, format!("it is seat {s}'s turn")));
                }
                self.check_turn(seat, *drawn, *rinshan, *kuikae, action)
            }
            Phase::Claims { from, tile, can, answers, .. } => {
                let i = usize::from(seat & 3);
                if can[i] == 0 || answers[i].is_some() {
                    return Err(Violation::new(
                        crate::ErrorCode::NotYourTurn,
                        format!("seat {seat} has no claim to make"),
                    ));
                }
                let c = can[i];
                let missing = |what: &str| {
                    Err(Violation::illegal(format!("seat {seat} may not {what} the {tile} of seat {from}")))
                };
                match action {
                    Action::Pass => Ok(()),
                    Action::Ron => {
                        if c & CAN_RON != 0 {
                            self.check_ura_known(seat)
                        } else if self.players[i].waits & (1 << tile.kind()) != 0 && self.players[i].furiten() {
                            Err(Violation::illegal(format!(
                                "seat {seat} may not ron on {tile}: it is furiten (it discarded a winning tile, or passed one)"
                            )))
                        } else {
                            missing("ron on")
                        }
                    }
                    Action::Pon(..) => {
                        if c & CAN_PON == 0 {
                            return missing("pon");
                        }
                        self.check_call(seat, *tile, action)
                    }
                    Action::Minkan(t) => {
                        if c & CAN_KAN == 0 || t.kind() != tile.kind() {
                            return missing("kan");
                        }
                        Ok(())
                    }
                    Action::Chi(..) => {
                        if c & CAN_CHI == 0 {
                            return if seat != (from + 1) % 4 {
                                Err(Violation::illegal(format!(
                                    "seat {seat} may not chi the {tile} of seat {from}: chi is only from the player on the left"
                                )))
                            } else {
                                missing("chi")
                            };
                        }
                        self.check_call(seat, *tile, action)
                    }
                    other => Err(Violation::illegal(format!(
                        "seat {seat} must answer seat {from}'s {tile} with a claim or pass, not {other}"
                    ))),
                }
            }
        }
    }

    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if let Phase::Draw { seat: s, .. } = self.phase {
            // Imported games: any tile that can still come out of the wall. (A deal is not listed:
            // the possible deals are too many.)
            if s == seat {
                for t in self.possible_tiles(seat) {
                    for a in [Action::Draw(t), Action::Dora(t), Action::Ura(t)] {
                        if self.check_action(seat, &a).is_ok() {
                            out.push(a);
                        }
                    }
                }
            }
            return out;
        }
        let push = |a: Action, out: &mut Vec<Action>| {
            if !out.contains(&a) && self.check_action(seat, &a).is_ok() {
                out.push(a);
            }
        };
        match &self.phase {
            Phase::Over | Phase::Deal { .. } | Phase::Draw { .. } => {}
            Phase::Turn { seat: s, drawn, .. } => {
                if *s != seat {
                    return out;
                }
                let p = &self.players[usize::from(seat)];
                // Candidates that `check_action` would refuse are not tried (a refusal writes its
                // reason): tsumo needs a draw and a winning shape, kans four tiles or a pon,
                // nine terminals the first draw.
                let counts = p.counts();
                if drawn.is_some() && is_win(&counts) {
                    push(Action::Tsumo, &mut out);
                }
                let mut tiles = p.hand().to_vec();
                tiles.sort();
                tiles.dedup();
                let may_riichi = !p.riichi
                    && p.closed()
                    && drawn.is_some()
                    && self.scores[usize::from(seat)] >= 1000
                    && self.tiles_left() >= 4;
                for &t in &tiles {
                    for drawn_flag in [false, true] {
                        if drawn_flag && *drawn != Some(t) {
                            continue;
                        }
                        push(Action::Discard { tile: t, drawn: drawn_flag, riichi: false }, &mut out);
                        // (check_riichi refuses every riichi of a seat failing these.)
                        if may_riichi {
                            push(Action::Discard { tile: t, drawn: drawn_flag, riichi: true }, &mut out);
                        }
                    }
                }
                if drawn.is_some() {
                    for &t in &tiles {
                        if counts[t.kind()] == 4 {
                            push(Action::Ankan(t.deaka()), &mut out);
                        }
                        if p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.base() == t.kind()) {
                            push(Action::Kakan(t.deaka()), &mut out);
                        }
                    }
                    if self.rules.abortive_draws && p.river.is_empty() && self.first_go() {
                        push(Action::Kyuushu, &mut out);
                    }
                }
            }
            Phase::Claims { tile, can, answers, .. } => {
                let i = usize::from(seat & 3);
                if can[i] == 0 || answers[i].is_some() {
                    return out;
                }
                let p = &self.players[i];
                push(Action::Pass, &mut out);
                push(Action::Ron, &mut out);
                let vs = variants(p.hand(), tile.kind());
                for &a in &vs {
                    for &b in &vs {
                        push(Action::pon(a, b), &mut out);
                    }
                }
                push(Action::Minkan(tile.deaka()), &mut out);
                for (a, b) in self.chi_pairs(seat, *tile) {
                    push(Action::chi(a, b), &mut out);
                }
            }
        }
        out
    }

    pub(crate) fn to_act_set(&self) -> SeatSet {
        match &self.phase {
            Phase::Over => SeatSet::EMPTY,
            Phase::Turn { seat, .. } | Phase::Deal { seat } | Phase::Draw { seat, .. } => SeatSet::single(*seat),
            Phase::Claims { can, answers, .. } => {
                let mut s = SeatSet::EMPTY;
                for i in 0..4 {
                    if can[i] != 0 && answers[i].is_none() {
                        s.insert(i as Seat);
                    }
                }
                s
            }
        }
    }

    pub(crate) fn apply_action(&mut self, seat: Seat, action: &Action) {
        let phase = self.phase.clone();
        match phase {
            Phase::Over => {}
            Phase::Deal { .. } | Phase::Draw { .. } => self.apply_chance(seat, action),
            Phase::Turn { drawn, rinshan, .. } => self.apply_turn(seat, drawn, rinshan, action),
            Phase::Claims { from, tile, window, can, mut answers } => {
                answers[usize::from(seat & 3)] = Some(*action);
                let done = (0..4).all(|i| can[i] == 0 || answers[i].is_some());
                self.phase = Phase::Claims { from, tile, window, can, answers };
                if done {
                    self.resolve_claims(from, tile, window, can, answers);
                }
            }
        }
    }

    fn apply_turn(&mut self, seat: Seat, drawn: Option<Tile>, rinshan: bool, action: &Action) {
        let s = usize::from(seat);
        match *action {
            Action::Discard { tile, drawn: _, riichi } => self.discard(seat, tile, riichi),
            Action::Tsumo => {
                let tile = drawn.unwrap_or(self.players[s].hand()[0]);
                self.win_tsumo(seat, tile, rinshan);
            }
            Action::Ankan(t) => {
                let k = t.kind();
                let tiles = self.players[s].take_kind(k);
                if let Some(m) = Meld::new(MeldKind::ConcealedKong, &tiles, None, None) {
                    self.players[s].melds.push(m);
                }
                self.after_kan(seat);
                // Closed kan dora is shown at once.
                self.show_dora();
                let can = self.window_options(seat, t, Window::Ankan);
                self.open_window(seat, t, Window::Ankan, can);
            }
            Action::Kakan(t) => {
                let k = t.kind();
                let p = &mut self.players[s];
                let Some(pos) = p.hand().iter().position(|x| x.kind() == k) else { return };
                let added = p.take_at(pos);
                if let Some(m) = p.melds.iter_mut().find(|m| m.kind == MeldKind::Pung && m.base() == k) {
                    m.kind = MeldKind::AddedKong;
                    m.tiles[3] = added;
                }
                // A win robbing the added tile keeps ippatsu (Tenhou): the kan is made only once
                // the tile passes (then ippatsu ends, in resolve_claims).
                let ippatsu: [bool; 4] = std::array::from_fn(|i| self.players[i].ippatsu);
                self.after_kan(seat);
                for (p, i) in self.players.iter_mut().zip(ippatsu) {
                    p.ippatsu = i;
                }
                self.dora_pending += 1;
                let can = self.window_options(seat, added, Window::Kakan);
                self.open_window(seat, added, Window::Kakan, can);
            }
            Action::Kyuushu => {
                self.abort(Abort::NineTerminals, format!("seat {seat} declares nine terminals: abortive draw"));
            }
            _ => {}
        }
    }

    fn after_kan(&mut self, seat: Seat) {
        self.kans += 1;
        self.players[usize::from(seat)].calls += 1;
        self.any_call = true;
        for p in self.players.iter_mut() {
            p.ippatsu = false;
        }
    }

    fn show_dora(&mut self) {
        if self.rules.kan_dora {
            self.dora_shown = (self.dora_shown + 1).min(5);
        }
    }

    pub(crate) fn window_options(&self, from: Seat, tile: Tile, window: Window) -> [u8; 4] {
        // The four answers are put together in a register: written byte by byte to memory and
        // read back as one word, they stalled the processor on every discard.
        let mut can = 0u32;
        for i in 0..4u8 {
            if i != from {
                can |= u32::from(self.claim_options(i, from, tile, window)) << (8 * i);
            }
        }
        can.to_le_bytes()
    }

    pub(crate) fn open_window(&mut self, from: Seat, tile: Tile, window: Window, can: [u8; 4]) {
        if can.iter().all(|&c| c == 0) {
            self.resolve_claims(from, tile, window, can, [None; 4]);
        } else {
            self.phase = Phase::Claims { from, tile, window, can, answers: [None; 4] };
        }
    }

    fn discard(&mut self, seat: Seat, tile: Tile, riichi: bool) {
        let s = usize::from(seat);
        let first = self.first_go();
        let drawn_flag = matches!(self.phase, Phase::Turn { drawn: Some(d), .. } if d == tile);
        {
            let p = &mut self.players[s];
            if p.riichi {
                p.ippatsu = false;
            }
            p.remove(tile);
            p.river.push(River { tile, drawn: drawn_flag, riichi, called: false });
            p.discarded |= 1 << tile.kind();
            if !tile.is_yaochu() {
                p.nagashi = false;
            }
            p.furiten_temp = false;
            if riichi {
                p.riichi_pending = true;
                p.double_riichi = first && p.river.len() == 1;
            }
            p.update_waits();
        }
        self.discards_made += 1;
        // Kan dora earned by an open or added kan is shown once its replacement tile is discarded.
        while self.dora_pending > 0 {
            self.dora_pending -= 1;
            self.show_dora();
        }
        let can = self.window_options(seat, tile, Window::Discard);
        self.open_window(seat, tile, Window::Discard, can);
    }

    fn resolve_claims(&mut self, from: Seat, tile: Tile, window: Window, can: [u8; 4], answers: [Option<Action>; 4]) {
        let order: [Seat; 3] = [(from + 1) % 4, (from + 2) % 4, (from + 3) % 4];
        let mut ron_seats = [0 as Seat; 3];
        let mut n_rons = 0;
        for s in order {
            if answers[usize::from(s)] == Some(Action::Ron) {
                ron_seats[n_rons] = s;
                n_rons += 1;
            }
        }
        let rons = &ron_seats[..n_rons];
        // Missed wins: temporary furiten, and for good in riichi.
        for &s in &order {
            let p = &mut self.players[usize::from(s)];
            if p.waits & (1 << tile.kind()) != 0 && !rons.contains(&s) {
                p.furiten_temp = true;
                if p.riichi {
                    p.furiten_riichi = true;
                }
            }
        }
        let _ = can;
        if !rons.is_empty() {
            if rons.len() == 3 && self.rules.triple_ron_abort {
                self.abort(Abort::TripleRon, format!("three players ron on seat {from}'s {tile}: abortive draw"));
                return;
            }
            let winners = if self.rules.double_ron { rons } else { &rons[..1] };
            self.win_ron(winners, from, tile, window != Window::Discard);
            return;
        }
        match window {
            Window::Kakan | Window::Ankan => {
                for p in self.players.iter_mut() {
                    p.ippatsu = false;
                }
                self.draw_rinshan(from);
                return;
            }
            Window::Discard => {}
        }
        // The riichi stands once its tile passes.
        let f = usize::from(from);
        if self.players[f].riichi_pending {
            let p = &mut self.players[f];
            p.riichi_pending = false;
            p.riichi = true;
            p.ippatsu = true;
            self.scores[f] -= 1000;
            self.round_deltas[f] -= 1000;
            self.sticks += 1;
            if self.rules.abortive_draws && self.players.iter().all(|p| p.riichi) {
                self.abort(Abort::FourRiichi, "all four players declared riichi: abortive draw".into());
                return;
            }
        }
        if self.rules.abortive_draws && self.discards_made == 4 && !self.any_call {
            let firsts: Vec<Tile> = self.players.iter().filter_map(|p| p.river.first().map(|r| r.tile)).collect();
            if firsts.len() == 4 && firsts[0].is_wind() && firsts.iter().all(|t| t.kind() == firsts[0].kind()) {
                self.abort(Abort::FourWinds, format!("all four players discarded {} first: abortive draw", firsts[0]));
                return;
            }
        }
        if self.rules.abortive_draws && self.kans == 4 {
            let by_one = self.players.iter().any(|p| p.melds.iter().filter(|m| m.is_kong()).count() == 4);
            if !by_one {
                self.abort(Abort::FourKans, "four kans by more than one player: abortive draw".into());
                return;
            }
        }
        let call = order.iter().copied().find_map(|s| match answers[usize::from(s)] {
            Some(a @ (Action::Pon(..) | Action::Minkan(_))) => Some((s, a)),
            _ => None,
        });
        let call = call.or_else(|| {
            order.iter().copied().find_map(|s| match answers[usize::from(s)] {
                Some(a @ Action::Chi(..)) => Some((s, a)),
                _ => None,
            })
        });
        if let Some((s, a)) = call {
            self.make_call(s, from, tile, a);
            return;
        }
        if self.tiles_left() == 0 {
            self.exhaustive_draw();
            return;
        }
        let next = (from + 1) % 4;
        if self.seed.is_none() {
            self.phase = Phase::Draw { seat: next, rinshan: false };
            return;
        }
        let t = self.live[self.next];
        self.next += 1;
        self.players[usize::from(next)].push(t);
        self.phase = Phase::Turn { seat: next, drawn: Some(t), rinshan: false, kuikae: 0 };
    }

    fn draw_rinshan(&mut self, seat: Seat) {
        let t = self.dead[self.rinshan_used.min(3)];
        self.rinshan_used += 1;
        self.live_end -= 1;
        if self.seed.is_none() {
            self.phase = Phase::Draw { seat, rinshan: true };
            return;
        }
        self.players[usize::from(seat)].push(t);
        self.phase = Phase::Turn { seat, drawn: Some(t), rinshan: true, kuikae: 0 };
    }

    fn make_call(&mut self, seat: Seat, from: Seat, tile: Tile, action: Action) {
        let s = usize::from(seat);
        if let Some(r) = self.players[usize::from(from)].river.last_mut() {
            r.called = true;
        }
        self.players[usize::from(from)].nagashi = false;
        self.any_call = true;
        for p in self.players.iter_mut() {
            p.ippatsu = false;
        }
        let p = &mut self.players[s];
        p.calls += 1;
        let (kind, used, kuikae): (MeldKind, Vec<Tile>, u64) = match action {
            Action::Chi(a, b) => (MeldKind::Chow, vec![a, b], Riichi::chi_kuikae(tile, a, b)),
            Action::Pon(a, b) => (MeldKind::Pung, vec![a, b], 1 << tile.kind()),
            _ => {
                let k = tile.kind();
                (MeldKind::ClaimedKong, p.hand().iter().copied().filter(|x| x.kind() == k).take(3).collect(), 0)
            }
        };
        for t in &used {
            p.remove(*t);
        }
        let mut tiles = used.clone();
        tiles.push(tile);
        if let Some(m) = Meld::new(kind, &tiles, Some(tile), Some(from)) {
            p.melds.push(m);
        }
        // Liability: the discarder who fed the third dragon set or the fourth wind set.
        if matches!(kind, MeldKind::Pung | MeldKind::ClaimedKong) {
            let dragons = p.melds.iter().filter(|m| m.kind != MeldKind::Chow && m.base() >= 31).count();
            let winds = p.melds.iter().filter(|m| m.kind != MeldKind::Chow && (27..31).contains(&m.base())).count();
            if tile.is_dragon() && dragons == 3 && self.rules.pao_daisangen {
                p.pao = Some((Yaku::Daisangen, from));
            }
            if tile.is_wind() && winds == 4 && self.rules.pao_daisuushii {
                p.pao = Some((Yaku::Daisuushii, from));
            }
        }
        if kind == MeldKind::ClaimedKong {
            p.minkan_from = Some(from);
            self.kans += 1;
            self.dora_pending += 1;
            self.draw_rinshan(seat);
        } else {
            self.phase = Phase::Turn { seat, drawn: None, rinshan: false, kuikae };
        }
    }

    fn win_tsumo(&mut self, seat: Seat, tile: Tile, rinshan: bool) {
        let Some(sc) = self.win_score(seat, tile, true, rinshan, false) else { return };
        let s = usize::from(seat);
        let dealer = seat == self.dealer();
        let mut d = [0i64; 4];
        let honba = i64::from(self.honba);
        let pao = self.players[s].pao.filter(|(y, _)| sc.has(*y));
        let rinshan_liable = if rinshan && self.rules.rinshan_pao { self.players[s].minkan_from } else { None };
        if let Some(liable) = rinshan_liable {
            // The whole win is paid by the seat whose discard made the open kan, as for a ron.
            let p = payment(sc.basic, dealer, false).total() + 300 * honba;
            d[usize::from(liable)] -= p;
            d[s] += p;
        } else {
            let pao_count = pao.map_or(0, |(y, _)| sc.yakuman_of(y)) as i64;
            let rest_basic = if pao_count > 0 { 8000 * (i64::from(sc.yakuman) - pao_count) } else { sc.basic };
            if rest_basic > 0 {
                let pay = payment(rest_basic, dealer, true);
                for o in 0..4 {
                    if o == s {
                        continue;
                    }
                    let amount = match pay {
                        Payment::TsumoDealer(a) => a,
                        Payment::Tsumo { dealer: dp, non_dealer } => {
                            if o == usize::from(self.dealer()) {
                                dp
                            } else {
                                non_dealer
                            }
                        }
                        Payment::Ron(p) => p,
                    };
                    d[o] -= amount;
                    d[s] += amount;
                }
            }
            if let Some((_, liable)) = pao {
                let full = payment(8000 * pao_count, dealer, false).total();
                d[usize::from(liable)] -= full;
                d[s] += full;
            }
            // Honba: 100 from each payer, all from the liable seat under pao.
            if let Some((_, liable)) = pao.filter(|_| rest_basic == 0) {
                d[usize::from(liable)] -= 300 * honba;
            } else {
                for o in 0..4 {
                    if o != s {
                        d[o] -= 100 * honba;
                    }
                }
            }
            d[s] += 300 * honba;
        }
        d[s] += 1000 * i64::from(self.sticks);
        self.sticks = 0;
        let mut facts = vec![Fact::seat(seat, FactKind::Tsumo, 1)];
        if let Some(l) = rinshan_liable.or(pao.map(|p| p.1)) {
            facts.push(Fact::seat(l, FactKind::Liable, 1));
        }
        self.win_facts(seat, &sc, &mut facts);
        let summary = format!("seat {seat} wins by tsumo on {tile}: {sc}");
        self.last_wins = vec![(seat, sc)];
        self.end_round(
            d,
            Ending {
                summary,
                facts,
                renchan: dealer,
                dealer_won: dealer,
                next_honba: if dealer { self.honba + 1 } else { 0 },
            },
        );
    }

    fn win_ron(&mut self, winners: &[Seat], from: Seat, tile: Tile, chankan: bool) {
        let mut d = [0i64; 4];
        let mut facts = vec![Fact::seat(from, FactKind::DealIn, 1)];
        let mut lines = Vec::new();
        let honba = i64::from(self.honba);
        let f = usize::from(from);
        // The discarder's riichi did not stand.
        self.players[f].riichi_pending = false;
        self.last_wins.clear();
        for (i, &w) in winners.iter().enumerate() {
            let Some(sc) = self.win_score(w, tile, false, false, chankan) else { continue };
            let s = usize::from(w);
            let dealer = w == self.dealer();
            let pao = self.players[s].pao.filter(|(y, l)| sc.has(*y) && *l != from);
            let h = if i == 0 { 300 * honba } else { 0 };
            if let Some((y, liable)) = pao {
                let n = i64::from(sc.yakuman_of(y));
                let pao_part = payment(8000 * n, dealer, false).total();
                let rest = payment(8000 * (i64::from(sc.yakuman) - n), dealer, false).total();
                d[usize::from(liable)] -= pao_part / 2;
                d[f] -= pao_part / 2 + rest + h;
                d[s] += pao_part + rest + h;
                facts.push(Fact::seat(liable, FactKind::Liable, 1));
            } else {
                let p = sc.payment.total() + h;
                d[f] -= p;
                d[s] += p;
            }
            if i == 0 {
                d[s] += 1000 * i64::from(self.sticks);
            }
            facts.push(Fact::seat(w, FactKind::Ron, 1));
            self.win_facts(w, &sc, &mut facts);
            self.last_wins.push((w, sc.clone()));
            lines.push(format!(
                "seat {w} wins by ron on seat {from}'s {tile}{}: {sc}",
                if chankan { " (robbing the kan)" } else { "" }
            ));
        }
        self.sticks = 0;
        let dealer_won = winners.contains(&self.dealer());
        self.end_round(
            d,
            Ending {
                summary: lines.join("; "),
                facts,
                renchan: dealer_won,
                dealer_won,
                next_honba: if dealer_won { self.honba + 1 } else { 0 },
            },
        );
    }

    fn win_facts(&self, seat: Seat, sc: &Score, facts: &mut Vec<Fact>) {
        facts.push(Fact::seat(seat, FactKind::Win, 1));
        facts.push(Fact::seat(seat, FactKind::Han, i64::from(sc.han)));
        facts.push(Fact::seat(seat, FactKind::Fu, i64::from(sc.fu)));
        // The hand's value, before honba and riichi sticks (and as a plain win under pao).
        facts.push(Fact::seat(seat, FactKind::Points, sc.payment.total()));
        if sc.yakuman > 0 {
            facts.push(Fact::seat(seat, FactKind::Yakuman, i64::from(sc.yakuman)));
        }
        for (y, h) in &sc.yaku {
            facts.push(Fact::seat(seat, FactKind::Yaku(*y), i64::from(*h)));
        }
    }

    fn tenpai(&self, seat: Seat) -> bool {
        let p = &self.players[usize::from(seat)];
        if p.waits == 0 {
            return false;
        }
        if self.rules.keishiki_tenpai || p.riichi {
            return true;
        }
        (0..34).filter(|k| p.waits & (1u64 << k) != 0).any(|k| {
            let t = Tile::kind_tile(k);
            self.win_score(seat, t, false, false, false).is_some()
        })
    }

    fn exhaustive_draw(&mut self) {
        let tenpai: Vec<bool> = (0..4).map(|s| self.tenpai(s)).collect();
        let mut d = [0i64; 4];
        let mut facts = vec![Fact::table(FactKind::ExhaustiveDraw, 1)];
        for s in 0..4u8 {
            if tenpai[usize::from(s)] {
                facts.push(Fact::seat(s, FactKind::Tenpai, 1));
            }
        }
        let nagashi: Vec<Seat> = if self.rules.nagashi_mangan {
            (0..4u8)
                .filter(|&s| self.players[usize::from(s)].nagashi && !self.players[usize::from(s)].river.is_empty())
                .collect()
        } else {
            Vec::new()
        };
        let mut summary = String::from("exhaustive draw");
        if !nagashi.is_empty() {
            for &w in &nagashi {
                let dealer = w == self.dealer();
                for o in 0..4u8 {
                    if o == w {
                        continue;
                    }
                    let a = if dealer || o == self.dealer() { 4000 } else { 2000 };
                    d[usize::from(o)] -= a;
                    d[usize::from(w)] += a;
                }
                facts.push(Fact::seat(w, FactKind::NagashiMangan, 1));
            }
            let names: Vec<String> = nagashi.iter().map(|s| s.to_string()).collect();
            summary.push_str(&format!(": nagashi mangan for seat {}", names.join(", ")));
        } else if self.rules.noten_penalty {
            let n = tenpai.iter().filter(|&&t| t).count() as i64;
            if n > 0 && n < 4 {
                for s in 0..4 {
                    d[s] += if tenpai[s] { 3000 / n } else { -3000 / (4 - n) };
                }
            }
        }
        let t: Vec<String> = (0..4).filter(|&s| tenpai[s]).map(|s| s.to_string()).collect();
        summary.push_str(&if t.is_empty() {
            ", nobody tenpai".to_owned()
        } else {
            format!(", tenpai: seat {}", t.join(", "))
        });
        let dealer_tenpai = tenpai[usize::from(self.dealer())];
        let renchan = self.rules.noten_oyanagare && dealer_tenpai;
        self.end_round(d, Ending { summary, facts, renchan, dealer_won: false, next_honba: self.honba + 1 });
    }

    fn abort(&mut self, kind: Abort, summary: String) {
        // A riichi declared on the discard that ends the hand does not stand (triple ron).
        for p in self.players.iter_mut() {
            p.riichi_pending = false;
        }
        let facts = vec![Fact::table(FactKind::AbortiveDraw, 1), Fact::table(FactKind::Abort(kind), 1)];
        self.end_round([0; 4], Ending { summary, facts, renchan: true, dealer_won: false, next_honba: self.honba + 1 });
    }

    fn end_round(&mut self, d: [i64; 4], e: Ending) {
        for s in 0..4 {
            self.scores[s] += d[s];
            self.round_deltas[s] += d[s];
        }
        let mut facts = e.facts;
        for (s, p) in self.players.iter().enumerate() {
            if p.riichi {
                facts.push(Fact::seat(s as Seat, FactKind::Riichi, 1));
            }
            if p.calls > 0 {
                facts.push(Fact::seat(s as Seat, FactKind::Calls, i64::from(p.calls)));
            }
        }
        let round = self.results.len() as u32 + 1;
        self.results.push(RoundResult {
            round,
            deltas: self.round_deltas.to_vec(),
            summary: format!("{} {} honba: {}", self.hand_name(), self.honba, e.summary),
            facts,
        });
        // What comes next.
        let length = self.rules.length.clamp(1, 4);
        let in_extension = self.round_wind >= length;
        let all_last = (self.round_wind + 1 == length && self.kyoku == 3) || in_extension;
        let dealer = usize::from(self.dealer());
        let top = self.ranking()[0];
        let someone_reached = self.scores.iter().any(|&s| s >= self.rules.return_points);
        let over = if self.rules.bust && self.scores.iter().any(|&s| s < 0) {
            true
        } else if all_last {
            if e.renchan {
                self.rules.agari_yame
                    && e.dealer_won
                    && top == dealer
                    && self.scores[dealer] >= self.rules.return_points
            } else {
                someone_reached || !self.rules.extension || (in_extension && self.kyoku == 3) || self.round_wind >= 3
            }
        } else {
            false
        };
        self.honba = e.next_honba;
        if over {
            self.finish();
            return;
        }
        if !e.renchan {
            self.kyoku += 1;
            if self.kyoku == 4 {
                self.kyoku = 0;
                self.round_wind += 1;
            }
        }
        self.start_round();
    }

    /// Seats from first to last: by score, ties to the seat nearer the first dealer.
    pub fn ranking(&self) -> [usize; 4] {
        let mut r = [0, 1, 2, 3];
        r.sort_by_key(|&s| (std::cmp::Reverse(self.scores[s]), s));
        r
    }

    fn finish(&mut self) {
        let rank = self.ranking();
        // Leftover riichi sticks go to the top.
        self.scores[rank[0]] += 1000 * i64::from(self.sticks);
        let leftover = self.sticks;
        self.sticks = 0;
        let standing = self.final_points();
        if let Some(last) = self.results.last_mut() {
            if leftover > 0 {
                last.facts.push(Fact::seat(rank[0] as Seat, FactKind::LeftoverSticks, i64::from(leftover)));
            }
            for (place, &s) in rank.iter().enumerate() {
                last.facts.push(Fact::seat(s as Seat, FactKind::Rank, place as i64 + 1));
                last.facts.push(Fact::seat(s as Seat, FactKind::FinalPoints, standing[s]));
            }
        }
        self.phase = Phase::Over;
    }

    /// Each seat's result after uma and oka (or sanmanten), in points: score - return points
    /// + uma x 1000, and the oka ((return - start) x 4) to the top.
    pub fn final_points(&self) -> [i64; 4] {
        let rank = self.ranking();
        let mut out = [0i64; 4];
        let r = &self.rules;
        for (place, &s) in rank.iter().enumerate() {
            out[s] = self.scores[s] - r.return_points;
            if !r.sanmanten {
                out[s] += r.uma[place] * 1000;
            }
        }
        out[rank[0]] += (r.return_points - r.start_points) * 4;
        if r.sanmanten {
            let diff1 = self.scores[rank[0]] - self.scores[rank[3]];
            let diff2 = self.scores[rank[1]] - self.scores[rank[2]];
            out[rank[0]] += diff1;
            out[rank[3]] -= diff1;
            out[rank[1]] += diff2;
            out[rank[2]] -= diff2;
        }
        out
    }

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
            Phase::Claims { from, tile, .. } => {
                let who: Vec<String> = self.to_act_set().iter().map(|s| s.to_string()).collect();
                format!("seat {from}'s {tile} may be claimed by seat {}", who.join(", "))
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
                let mut hand = p.hand().to_vec();
                hand.sort_by_key(|t| (t.kind(), t.is_aka()));
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
                }
            })
            .collect();
        let (drawn, claim) = match &self.phase {
            Phase::Turn { drawn, .. } => (*drawn, None),
            Phase::Claims { from, tile, .. } => (None, Some(ClaimView { from: *from, tile: *tile })),
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
            dice: [self.dice.0, self.dice.1],
            drawn,
            claim,
            players,
            over: matches!(self.phase, Phase::Over),
        }
    }
}

/// The waits of a concealed part `c` with `melds` (and a closed kan of kind `extra_kan` about to
/// be made): a kind the seat holds all four of (concealed and melded) is no wait.
fn seat_waits(c: &Counts, melds: &[Meld], extra_kan: Option<usize>) -> u64 {
    held_out(hand_waits(c), c, melds, extra_kan)
}

/// `w`, the waits of the concealed part `c`, without the kinds the seat holds all four of.
fn held_out(mut w: u64, c: &Counts, melds: &[Meld], extra_kan: Option<usize>) -> u64 {
    if w == 0 {
        return 0;
    }
    let mut held = *c;
    for m in melds {
        for t in m.tiles() {
            held[t.kind()] += 1;
        }
    }
    if let Some(k) = extra_kan {
        held[k] = 4;
    }
    for (k, &n) in held.iter().enumerate() {
        if n >= 4 {
            w &= !(1u64 << k);
        }
    }
    w
}

/// The distinct tiles (plain and red) of kind `k` in a hand.
fn variants(hand: &[Tile], k: usize) -> Vec<Tile> {
    let mut v: Vec<Tile> = hand.iter().copied().filter(|t| t.kind() == k).collect();
    v.sort();
    v.dedup();
    v
}
