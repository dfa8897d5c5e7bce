//! Turns and claims (docs/rules/hungarian.md, "Play"): what a player on turn may do (discard,
//! declare a kong from the hand, add a fourth tile from the hand to its pong, Mahjong), what the
//! others may claim on a discard (Mahjong, Pong, Kong; Chow only the next player), the claims'
//! arbitration (Mahjong over Pong and Kong over Chow, the nearer player first), and their effects.

use super::action::Action;
use super::engine::{Discard, Hungarian, Phase};
use super::score::{completes, is_mahjong, Set};
use crate::error::{ErrorCode, Violation};
use crate::mahjong::claim::{Can, Priority, SeveralWins, Window};
use crate::mahjong::{Meld, MeldKind, Tile};
use crate::{Seat, SeatSet};

/// The rank of an answer in a claim window (`None`: a pass).
fn priority(a: &Action) -> Option<Priority> {
    match a {
        Action::Mahjong => Some(Priority::Win),
        Action::Pong | Action::Kong => Some(Priority::Pung),
        Action::Chow(..) => Some(Priority::Chow),
        _ => None,
    }
}

/// The runs a chow of `tile` can make with two hand tiles, as those two tiles.
fn chows(hand: &crate::mahjong::Counts, tile: Tile) -> Vec<(Tile, Tile)> {
    let k = tile.kind();
    if tile.is_honor() {
        return Vec::new();
    }
    let n = (k % 9) as i32;
    let mut out = Vec::new();
    for (da, db) in [(-2i32, -1i32), (-1, 1), (1, 2)] {
        if (0..9).contains(&(n + da)) && (0..9).contains(&(n + db)) {
            let (ka, kb) = ((k as i32 + da) as usize, (k as i32 + db) as usize);
            if hand[ka] > 0 && hand[kb] > 0 {
                out.push((Tile::kind_tile(ka), Tile::kind_tile(kb)));
            }
        }
    }
    out
}

const WINDS: [&str; 4] = ["East", "South", "West", "North"];

impl Hungarian {
    /// The seats that owe a decision.
    pub(super) fn to_act_set(&self) -> SeatSet {
        match &self.phase {
            Phase::Turn { chair, .. } => SeatSet::single(self.seat_of(*chair)),
            Phase::Claims { window, .. } => {
                let mut s = SeatSet::EMPTY;
                for c in window.waiting().iter() {
                    s.insert(self.seat_of(c));
                }
                s
            }
            Phase::Over => SeatSet::EMPTY,
        }
    }

    fn sets_of(&self, chair: u8) -> Vec<Set> {
        self.hand.players[usize::from(chair & 3)].melds.iter().map(Set::laid_out).collect()
    }

    /// What `chair` may claim on `from`'s discard of `tile`.
    fn claim_options(&self, chair: u8, from: u8, tile: Tile) -> Can {
        let p = &self.hand.players[usize::from(chair)];
        let k = tile.kind();
        let mut can = Can::NOTHING;
        if completes(&p.hand, k, &self.sets_of(chair), &self.rules) {
            can |= Can::WIN;
        }
        if p.hand[k] >= 2 {
            can |= Can::PUNG;
        }
        if p.hand[k] >= 3 {
            can |= Can::KONG;
        }
        if chair == (from + 1) % 4 && !chows(&p.hand, tile).is_empty() {
            can |= Can::CHOW;
        }
        can
    }

    /// Every legal action of a chair that owes a decision.
    pub(super) fn legal(&self, chair: u8) -> Vec<Action> {
        let mut out = Vec::with_capacity(16);
        match &self.phase {
            Phase::Turn { chair: c, after_claim, .. } if *c == chair => {
                let p = &self.hand.players[usize::from(chair)];
                if !after_claim {
                    if is_mahjong(&p.hand, p.melds.len(), &self.rules) {
                        out.push(Action::Mahjong);
                    }
                    for k in 0..34 {
                        if p.hand[k] == 4 {
                            out.push(Action::ConcealedKong(Tile::kind_tile(k)));
                        }
                    }
                    for m in &p.melds {
                        if m.kind == MeldKind::Pung && p.hand[m.base()] > 0 {
                            out.push(Action::AddedKong(Tile::kind_tile(m.base())));
                        }
                    }
                }
                for k in 0..34 {
                    if p.hand[k] > 0 {
                        out.push(Action::Discard(Tile::kind_tile(k)));
                    }
                }
            }
            Phase::Claims { tile, window, .. } if window.asks(chair) => {
                let can = window.can(chair);
                if can.contains(Can::WIN) {
                    out.push(Action::Mahjong);
                }
                if can.contains(Can::KONG) {
                    out.push(Action::Kong);
                }
                if can.contains(Can::PUNG) {
                    out.push(Action::Pong);
                }
                if can.contains(Can::CHOW) {
                    for (a, b) in chows(&self.hand.players[usize::from(chair)].hand, *tile) {
                        out.push(Action::Chow(a, b));
                    }
                }
                out.push(Action::Pass);
            }
            _ => {}
        }
        out
    }

    /// Whether `legal(chair)` lists `action`, without making the list (a replay asks it of every
    /// record). The conformance tests compare the two at every step of thousands of games.
    fn allows(&self, chair: u8, action: &Action) -> bool {
        // A tile as `legal` names it: the plain tile of a kind of the 34.
        let plain = |t: Tile| t.kind() < 34 && t == Tile::kind_tile(t.kind());
        match &self.phase {
            Phase::Turn { chair: c, after_claim, .. } if *c == chair => {
                let p = &self.hand.players[usize::from(chair)];
                match *action {
                    Action::Discard(t) => plain(t) && p.hand[t.kind()] > 0,
                    Action::Mahjong => !after_claim && is_mahjong(&p.hand, p.melds.len(), &self.rules),
                    Action::ConcealedKong(t) => !after_claim && plain(t) && p.hand[t.kind()] == 4,
                    Action::AddedKong(t) => {
                        !after_claim
                            && plain(t)
                            && p.hand[t.kind()] > 0
                            && p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.base() == t.kind())
                    }
                    _ => false,
                }
            }
            Phase::Claims { tile, window, .. } if window.asks(chair) => {
                let can = window.can(chair);
                match *action {
                    Action::Mahjong => can.contains(Can::WIN),
                    Action::Kong => can.contains(Can::KONG),
                    Action::Pong => can.contains(Can::PUNG),
                    Action::Chow(a, b) => {
                        can.contains(Can::CHOW)
                            && chows(&self.hand.players[usize::from(chair)].hand, *tile).contains(&(a, b))
                    }
                    Action::Pass => true,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Checks an action of a seat that owes a decision: accepted exactly when `legal` lists it,
    /// refused with the rule it breaks.
    pub(super) fn check_action(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        let chair = self.chair_of(seat);
        if self.allows(chair, action) {
            return Ok(());
        }
        Err(Violation::illegal(self.why_not(chair, action)))
    }

    /// Why an action a seat owes is refused.
    fn why_not(&self, chair: u8, action: &Action) -> String {
        let p = &self.hand.players[usize::from(chair)];
        let seat = self.seat_of(chair);
        let held = |t: Tile| p.hand[t.kind()];
        match (&self.phase, action.clone()) {
            (Phase::Turn { after_claim: true, .. }, a) if !matches!(a, Action::Discard(_)) => {
                format!("seat {seat} has just laid out a claimed set and must discard (\"a figurát kiraké következik dobásra\")")
            }
            (Phase::Turn { .. }, Action::Discard(t)) => format!("seat {seat} holds no {t} to discard"),
            (Phase::Turn { .. }, Action::ConcealedKong(t)) => {
                format!("a kong from the hand needs all four {t}; seat {seat} holds {}", held(t))
            }
            (Phase::Turn { .. }, Action::AddedKong(t)) => {
                if p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.base() == t.kind()) {
                    format!("seat {seat} holds no {t} to add to its pong")
                } else {
                    format!("seat {seat} has no laid-out pong of {t} to add a fourth tile to")
                }
            }
            (Phase::Turn { .. }, Action::Mahjong) => {
                format!("seat {seat}'s hand is not a winning hand (four sets and a pair, or a special hand)")
            }
            (Phase::Turn { .. }, a) => format!(
                "{a} is a claim on a discard; seat {seat} is on turn and draws, discards, declares a kong or Mahjong"
            ),
            (Phase::Claims { from, tile, .. }, a) => self.why_not_claim(chair, *from, *tile, a),
            (Phase::Over, _) => "the match is over".into(),
        }
    }

    /// Why a claim on `from`'s discard of `tile` is refused.
    fn why_not_claim(&self, chair: u8, from: u8, tile: Tile, action: Action) -> String {
        let p = &self.hand.players[usize::from(chair)];
        let seat = self.seat_of(chair);
        let held = p.hand[tile.kind()];
        let on_pong = p.melds.iter().any(|m| m.kind == MeldKind::Pung && m.base() == tile.kind());
        match action {
            Action::Chow(..) if chair != (from + 1) % 4 => format!(
                "only the next player, seat {}, may chow seat {}'s {tile}; seat {seat} sits {} it (\"Chow felkiáltással csak a soron következő veheti fel\")",
                self.seat_of((from + 1) % 4),
                self.seat_of(from),
                if chair == (from + 2) % 4 { "across from" } else { "before" }
            ),
            Action::Chow(a, b) => format!("{a} {b} and {tile} are not a run seat {seat} can make from its hand"),
            Action::Kong | Action::AddedKong(_) if on_pong => format!(
                "a discard cannot be added to a laid-out pong (\"A már kitett Ponghoz nem rabolható negyedik kő, de kézből hozzátehető\"): seat {seat}'s pong of {tile} takes a fourth tile only from its own hand, on its turn"
            ),
            Action::Pong => format!("a pong of seat {}'s {tile} needs two in the hand; seat {seat} holds {held}", self.seat_of(from)),
            Action::Kong => format!("a kong on seat {}'s {tile} needs three in the hand; seat {seat} holds {held}", self.seat_of(from)),
            Action::Mahjong => format!("{tile} does not complete seat {seat}'s hand (or the hand does not lack it)"),
            a => format!("{a} is a move on one's own turn; seat {seat} may now only claim seat {}'s {tile} or pass", self.seat_of(from)),
        }
    }

    /// Why a seat that owes nothing now may not make this move, when the rules say more than
    /// that it is not its turn: a claim made after the next draw, a chow from across the table, a
    /// discard added to a laid-out pong. `None`: nothing more to say.
    pub(super) fn why_not_now(&self, seat: Seat, action: &Action) -> Option<String> {
        let chair = self.chair_of(seat);
        match (&self.phase, action.clone()) {
            (
                Phase::Claims { from, tile, .. },
                a @ (Action::Chow(..) | Action::Kong | Action::AddedKong(_) | Action::Pong | Action::Mahjong),
            ) if chair != *from => Some(self.why_not_claim(chair, *from, *tile, a)),
            (
                Phase::Turn { chair: on, drawn: Some(_), after_claim: false },
                a @ (Action::Mahjong | Action::Pong | Action::Kong | Action::Chow(..) | Action::AddedKong(_)),
            ) if *on != chair => {
                let before = (*on + 3) % 4;
                let last = self.hand.players[usize::from(before)].discards.last()?;
                if last.claimed {
                    return None;
                }
                let on_pong = self.hand.players[usize::from(chair)]
                    .melds
                    .iter()
                    .any(|m| m.kind == MeldKind::Pung && m.base() == last.tile.kind());
                if matches!(a, Action::Kong | Action::AddedKong(_)) && on_pong {
                    return Some(self.why_not_claim(chair, before, last.tile, a));
                }
                if matches!(a, Action::AddedKong(_)) {
                    return None;
                }
                Some(format!(
                    "a discard can be claimed only until the next player draws (\"Mihelyt a következő játékos a falból új követ vett, az előbb letett kő a játék végéig fel nem vehető\"): seat {} ({}) has drawn since seat {} discarded {}",
                    self.seat_of(*on),
                    WINDS[usize::from(self.wind_of(*on))],
                    self.seat_of(before),
                    last.tile
                ))
            }
            _ => None,
        }
    }

    /// Applies an action `check_action` accepted.
    pub(super) fn apply_action(&mut self, seat: Seat, action: &Action) {
        let chair = self.chair_of(seat);
        match self.phase.clone() {
            Phase::Turn { drawn, .. } => self.apply_turn(chair, drawn, action.clone()),
            Phase::Claims { from, tile, mut window } => {
                window.answer(chair, action.clone());
                if window.is_closed() {
                    self.resolve(from, tile, &window);
                } else {
                    self.phase = Phase::Claims { from, tile, window };
                }
            }
            Phase::Over => {}
        }
    }

    fn apply_turn(&mut self, chair: u8, drawn: Option<Tile>, action: Action) {
        let c = usize::from(chair);
        match action {
            Action::Discard(t) => {
                self.hand.fresh = false;
                let p = &mut self.hand.players[c];
                p.hand[t.kind()] -= 1;
                p.discards.push(Discard { tile: t, claimed: false });
                let can: [Can; 4] =
                    std::array::from_fn(|o| if o == c { Can::NOTHING } else { self.claim_options(o as u8, chair, t) });
                let window = Window::new(chair, can);
                if window.is_closed() {
                    self.draw((chair + 1) % 4);
                } else {
                    self.phase = Phase::Claims { from: chair, tile: t, window };
                }
            }
            Action::ConcealedKong(t) => {
                self.hand.fresh = false;
                let p = &mut self.hand.players[c];
                p.hand[t.kind()] = 0;
                if let Some(m) = Meld::new(MeldKind::ConcealedKong, &[t; 4], None, None) {
                    p.melds.push(m);
                }
                self.draw_loose(chair);
            }
            Action::AddedKong(t) => {
                self.hand.fresh = false;
                let p = &mut self.hand.players[c];
                p.hand[t.kind()] -= 1;
                if let Some(m) = p.melds.iter_mut().find(|m| m.kind == MeldKind::Pung && m.base() == t.kind()) {
                    m.kind = MeldKind::AddedKong;
                    m.tiles = [t; 4];
                }
                self.draw_loose(chair);
            }
            Action::Mahjong => {
                let p = &self.hand.players[c];
                // The winning tile is the one drawn; East's dealt hand has none, any of its tiles
                // stands for it (it only matters for a robbed tile).
                let tile = drawn.or_else(|| (0..34).find(|&k| p.hand[k] > 0).map(Tile::kind_tile));
                let heavenly = self.hand.fresh && chair == self.east;
                self.win(chair, None, tile.unwrap_or(Tile::kind_tile(0)), heavenly);
            }
            Action::Pass | Action::Pong | Action::Kong | Action::Chow(..) | Action::Incident(_) => {}
        }
    }

    /// Decides a closed claim window: the nearest Mahjong claim from the discarder, else the
    /// pong, kong or chow that stands, else the next player draws.
    fn resolve(&mut self, from: u8, tile: Tile, window: &Window<Action>) {
        let ruling = window.arbitrate(priority);
        if let Some(&w) = ruling.standing_wins(SeveralWins::Nearest).first() {
            self.claimed(from);
            self.hand.players[usize::from(w)].hand[tile.kind()] += 1;
            return self.win(w, Some(from), tile, false);
        }
        let Some(caller) = ruling.call() else { return self.draw((from + 1) % 4) };
        let Some(answer) = window.answer_of(caller) else { return self.draw((from + 1) % 4) };
        self.claimed(from);
        let from_seat = self.seat_of(from);
        let p = &mut self.hand.players[usize::from(caller)];
        let k = tile.kind();
        match *answer {
            Action::Pong => {
                p.hand[k] -= 2;
                p.melds.extend(Meld::new(MeldKind::Pung, &[tile; 3], Some(tile), Some(from_seat)));
                self.phase = Phase::Turn { chair: caller, drawn: None, after_claim: true };
            }
            Action::Kong => {
                p.hand[k] -= 3;
                p.melds.extend(Meld::new(MeldKind::ClaimedKong, &[tile; 4], Some(tile), Some(from_seat)));
                self.draw_loose(caller);
            }
            Action::Chow(a, b) => {
                p.hand[a.kind()] -= 1;
                p.hand[b.kind()] -= 1;
                let mut run = [a, b, tile];
                run.sort_unstable();
                p.melds.extend(Meld::new(MeldKind::Chow, &run, Some(tile), Some(from_seat)));
                self.phase = Phase::Turn { chair: caller, drawn: None, after_claim: true };
            }
            _ => self.draw((from + 1) % 4),
        }
    }

    /// Marks `from`'s last discard as claimed.
    fn claimed(&mut self, from: u8) {
        if let Some(d) = self.hand.players[usize::from(from)].discards.last_mut() {
            d.claimed = true;
        }
    }

    /// The refusal of a move by a seat that owes nothing now when it breaks a rule of its own
    /// (`illegal_action`); `None` when it is only not the seat's turn.
    pub(super) fn refusal(&self, seat: Seat, action: &Action) -> Option<Violation> {
        self.why_not_now(seat, action).map(|m| Violation::new(ErrorCode::IllegalAction, m))
    }

    /// The refusal of a move by a seat that owes nothing now (`not_your_turn`).
    pub(super) fn not_owed(&self, seat: Seat) -> Violation {
        let who: Vec<String> = self
            .to_act_set()
            .iter()
            .map(|s| format!("seat {s} ({})", WINDS[usize::from(self.wind_of(self.chair_of(s)))]))
            .collect();
        Violation::new(
            ErrorCode::NotYourTurn,
            if who.is_empty() {
                format!("seat {seat} acted after the match was over")
            } else {
                format!("seat {seat} owes no decision now; {} does", who.join(" or "))
            },
        )
    }
}
