//! The seat on turn: discards (with riichi declarations and the swap-call ban), closed and
//! added kans, tsumo, and their effects.

use super::player::seat_waits;
use super::{ClaimOn, Phase, Riichi};
use crate::error::Violation;
use crate::mahjong::hand::is_win;
use crate::mahjong::{tiles_text, Meld, MeldKind, Tile};
use crate::riichi::action::Action;
use crate::Seat;

impl Riichi {
    /// Checks an action of `seat` on turn: `drawn` its draw (none after a call, from the dead
    /// wall when `rinshan`), `kuikae` the kinds a call bans from discarding now.
    pub(super) fn check_turn(
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
                self.check_dora_known(seat, self.table.dora_pending)
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
                self.check_dora_known(seat, self.table.dora_pending + 1)?;
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
            Action::Kyuushu => self.check_nine_terminals(seat, drawn),
            Action::Ron | Action::Pass | Action::Chi(..) | Action::Pon(..) | Action::Minkan(_) => {
                Err(Violation::illegal(format!(
                    "seat {seat} must discard (or tsumo, kan) on its turn; {action} answers a discard"
                )))
            }
            Action::Deal(_) | Action::Draw(_) | Action::Dora(_) | Action::Ura(_) => self.check_chance(seat, action),
            Action::Incident(ref i) => Err(Violation::illegal(format!("{i} is checked apart from the moves"))),
        }
    }

    /// A kan needs a tile left to draw after it and fewer than four kans made.
    fn check_kan_possible(&self, seat: Seat) -> Result<(), Violation> {
        if self.tiles_left() == 0 {
            return Err(Violation::illegal(format!("seat {seat} may not kan: the wall is empty")));
        }
        if self.table.kans >= 4 {
            return Err(Violation::illegal(format!("seat {seat} may not kan: four kans have been made")));
        }
        Ok(())
    }

    /// Checks a riichi declared with the discard of `tile`.
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

    /// The legal actions of `seat` on turn. Candidates that `check_action` would refuse are not
    /// tried (a refusal writes its reason): tsumo needs a draw and a winning shape, kans four
    /// tiles or a pon, nine terminals the first draw.
    pub(super) fn legal_turn(&self, seat: Seat, drawn: Option<Tile>, out: &mut Vec<Action>) {
        let p = &self.players[usize::from(seat)];
        let counts = p.counts();
        if drawn.is_some() && is_win(&counts) {
            self.push_legal(seat, Action::Tsumo, out);
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
                if drawn_flag && drawn != Some(t) {
                    continue;
                }
                self.push_legal(seat, Action::Discard { tile: t, drawn: drawn_flag, riichi: false }, out);
                // (check_riichi refuses every riichi of a seat failing these.)
                if may_riichi {
                    self.push_legal(seat, Action::Discard { tile: t, drawn: drawn_flag, riichi: true }, out);
                }
            }
        }
        if drawn.is_some() {
            for &t in &tiles {
                if counts[t.kind()] == 4 {
                    self.push_legal(seat, Action::Ankan(t.deaka()), out);
                }
                if p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.base() == t.kind()) {
                    self.push_legal(seat, Action::Kakan(t.deaka()), out);
                }
            }
            if self.rules.abortive_draws && p.river.is_empty() && self.first_go() {
                self.push_legal(seat, Action::Kyuushu, out);
            }
        }
    }

    /// The effect of `seat`'s checked action on turn.
    pub(super) fn apply_turn(&mut self, seat: Seat, drawn: Option<Tile>, rinshan: bool, action: &Action) {
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
                let can = self.window_options(seat, t, ClaimOn::ClosedKan);
                self.open_window(seat, t, ClaimOn::ClosedKan, can);
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
                self.table.dora_pending += 1;
                let can = self.window_options(seat, added, ClaimOn::AddedKan);
                self.open_window(seat, added, ClaimOn::AddedKan, can);
            }
            Action::Kyuushu => self.nine_terminals(seat),
            _ => {}
        }
    }

    /// What every kan does: one more kan and call, the first go-around over, no ippatsu left.
    fn after_kan(&mut self, seat: Seat) {
        self.table.kans += 1;
        self.players[usize::from(seat)].calls += 1;
        self.table.any_call = true;
        for p in self.players.iter_mut() {
            p.ippatsu = false;
        }
    }

    /// `seat` discards `tile` (declaring riichi with it): the claim window on it opens.
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
            p.river.push(super::River { tile, drawn: drawn_flag, riichi, called: false });
            p.note_discard(tile);
            if !tile.is_yaochu() {
                p.nagashi = false;
            }
            if riichi {
                p.riichi_pending = true;
                p.double_riichi = first && p.river.len() == 1;
            }
            p.update_waits();
        }
        self.table.discards_made += 1;
        // Kan dora earned by an open or added kan is shown once its replacement tile is discarded.
        while self.table.dora_pending > 0 {
            self.table.dora_pending -= 1;
            self.show_dora();
        }
        let can = self.window_options(seat, tile, ClaimOn::Discard);
        self.open_window(seat, tile, ClaimOn::Discard, can);
    }
}
