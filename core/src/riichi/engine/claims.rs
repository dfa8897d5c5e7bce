//! Claim windows: what each seat may claim on a discard (or on a tile added to a kan, or a
//! closed kan thirteen orphans may rob), the checks of chi and pon with the swap-call ban
//! (kuikae), which claims stand (by the shared arbitration: ron over pon and kan over chi, turn
//! order from the discarder, double ron as the rules say), and the calls' effects.

use super::player::variants;
use super::{Phase, Riichi};
use crate::error::Violation;
use crate::mahjong::claim::{self, seats_after, Can, Priority, SeveralWins};
use crate::mahjong::hand::is_thirteen_orphans;
use crate::mahjong::{tiles_text, Meld, MeldKind, Tile};
use crate::riichi::action::Action;
use crate::riichi::score::Yaku;
use crate::Seat;

/// What a claim window is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClaimOn {
    Discard,
    /// Robbing an added kan.
    AddedKan,
    /// Robbing a closed kan (thirteen orphans only).
    ClosedKan,
}

/// The rank of an answer in a claim window (`None`: a pass).
fn priority(a: &Action) -> Option<Priority> {
    match a {
        Action::Ron => Some(Priority::Win),
        Action::Pon(..) | Action::Minkan(_) => Some(Priority::Pung),
        Action::Chi(..) => Some(Priority::Chow),
        _ => None,
    }
}

impl Riichi {
    /// Whether `seat` may win on `tile`: a winning tile, not furiten, a yaku, and on a closed
    /// kan only with thirteen orphans.
    fn can_ron(&self, seat: Seat, tile: Tile, on: ClaimOn) -> bool {
        let p = &self.players[usize::from(seat)];
        if p.waits & (1 << tile.kind()) == 0 || p.furiten() {
            return false;
        }
        if on == ClaimOn::ClosedKan {
            // Only thirteen orphans may rob a closed kan.
            let mut c = p.counts();
            c[tile.kind()] += 1;
            if !is_thirteen_orphans(&c) {
                return false;
            }
        }
        self.win_score(seat, tile, false, false, on != ClaimOn::Discard).is_some()
    }

    /// What `seat` may claim on `from`'s `tile` (no calls in riichi, on a kan's tile or with the
    /// wall empty).
    fn claim_options(&self, seat: Seat, from: Seat, tile: Tile, on: ClaimOn) -> Can {
        let mut can = Can::NOTHING;
        if self.can_ron(seat, tile, on) {
            can |= Can::WIN;
        }
        if on != ClaimOn::Discard || self.tiles_left() == 0 {
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
            can |= Can::PUNG;
        }
        if n >= 3 && self.table.kans < 4 {
            can |= Can::KONG;
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
                    can |= Can::CHOW;
                    break;
                }
            }
        }
        can
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

    /// Checks a chi or pon on `tile`: a run or a set with two of the hand's tiles, and a tile left
    /// to discard that the swap-call ban allows.
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

    /// Checks `seat`'s answer to the claim window on `tile`.
    pub(super) fn check_claim(
        &self,
        seat: Seat,
        tile: Tile,
        window: &claim::Window<Action>,
        action: &Action,
    ) -> Result<(), Violation> {
        let from = window.from();
        if !window.asks(seat) {
            return Err(Violation::new(crate::ErrorCode::NotYourTurn, format!("seat {seat} has no claim to make")));
        }
        let c = window.can(seat);
        let missing =
            |what: &str| Err(Violation::illegal(format!("seat {seat} may not {what} the {tile} of seat {from}")));
        match action {
            Action::Pass => self.check_ura_of_rons(seat, window, false),
            Action::Ron => {
                if c.contains(Can::WIN) {
                    self.check_ura_of_rons(seat, window, true)
                } else if let Some(furiten) = self.furiten_refusal(seat, tile) {
                    Err(furiten)
                } else {
                    missing("ron on")
                }
            }
            Action::Pon(..) => {
                if !c.contains(Can::PUNG) {
                    return missing("pon");
                }
                self.check_call(seat, tile, action)
            }
            Action::Minkan(t) => {
                if !c.contains(Can::KONG) || t.kind() != tile.kind() {
                    return missing("kan");
                }
                Ok(())
            }
            Action::Chi(..) => {
                if !c.contains(Can::CHOW) {
                    return if seat != (from + 1) % 4 {
                        Err(Violation::illegal(format!(
                            "seat {seat} may not chi the {tile} of seat {from}: chi is only from the player on the left"
                        )))
                    } else {
                        missing("chi")
                    };
                }
                self.check_call(seat, tile, action)
            }
            other => Err(Violation::illegal(format!(
                "seat {seat} must answer seat {from}'s {tile} with a claim or pass, not {other}"
            ))),
        }
    }

    /// The ura indicators the riichi winners on this window need (imported games): checked as
    /// `seat` answers (`ron`: with a ron), for every ron given so far, once the rons are known to
    /// stand. Under `triple_ron_abort` three rons on one tile are an abortive draw (Tenhou's
    /// 三家和了, docs/rules/riichi.md), which pays nobody and shows no ura indicator: so while a
    /// third ron may still come, no winner needs them yet, and the check waits for the answer
    /// that settles it (a pass that leaves two rons standing is refused when they lack them).
    fn check_ura_of_rons(&self, seat: Seat, window: &claim::Window<Action>, ron: bool) -> Result<(), Violation> {
        if self.seed.is_some() {
            return Ok(());
        }
        let rons = |s: Seat| (s == seat && ron) || matches!(window.answer_of(s), Some(Action::Ron));
        if self.rules.triple_ron_abort {
            let may_ron = |s: Seat| s != seat && window.asks(s) && window.can(s).contains(Can::WIN);
            if (0..4).filter(|&s| rons(s) || may_ron(s)).count() >= 3 {
                return Ok(());
            }
        }
        (0..4).filter(|&s| rons(s)).try_for_each(|s| self.check_ura_known(s))
    }

    /// The answers `seat` may give to the claim window on `tile`.
    pub(super) fn legal_claims(&self, seat: Seat, tile: Tile, out: &mut Vec<Action>) {
        let p = &self.players[usize::from(seat & 3)];
        self.push_legal(seat, Action::Pass, out);
        self.push_legal(seat, Action::Ron, out);
        let vs = variants(p.hand(), tile.kind());
        for &a in &vs {
            for &b in &vs {
                self.push_legal(seat, Action::pon(a, b), out);
            }
        }
        self.push_legal(seat, Action::Minkan(tile.deaka()), out);
        for (a, b) in self.chi_pairs(seat, tile) {
            self.push_legal(seat, Action::chi(a, b), out);
        }
    }

    /// What each seat may claim on `from`'s `tile`.
    pub(crate) fn window_options(&self, from: Seat, tile: Tile, on: ClaimOn) -> [Can; 4] {
        // The four answers are put together in a register: written byte by byte to memory and
        // read back as one word, they stalled the processor on every discard.
        let mut can = 0u32;
        for i in 0..4u8 {
            if i != from {
                can |= u32::from(self.claim_options(i, from, tile, on).bits()) << (8 * i);
            }
        }
        can.to_le_bytes().map(Can::from_bits)
    }

    /// Opens the claim window on `from`'s `tile`; with nobody to ask, it closes at once.
    pub(crate) fn open_window(&mut self, from: Seat, tile: Tile, on: ClaimOn, can: [Can; 4]) {
        let window = claim::Window::new(from, can);
        if window.is_closed() {
            self.resolve_claims(tile, on, window);
        } else {
            self.phase = Phase::Claims { tile, on, window };
        }
    }

    /// The window on `tile` has every answer: a win, an abortive draw, the kan made (when its
    /// tile was not robbed), a call, or the next draw.
    pub(super) fn resolve_claims(&mut self, tile: Tile, on: ClaimOn, window: claim::Window<Action>) {
        let from = window.from();
        let ruling = window.arbitrate(priority);
        let rons = ruling.wins();
        self.miss_wins(from, tile, rons);
        if !rons.is_empty() {
            if self.triple_ron(from, tile, rons.len()) {
                return;
            }
            let several = if self.rules.double_ron { SeveralWins::All } else { SeveralWins::Nearest };
            self.win_ron(ruling.standing_wins(several), from, tile, on != ClaimOn::Discard);
            return;
        }
        match on {
            ClaimOn::AddedKan | ClaimOn::ClosedKan => {
                for p in self.players.iter_mut() {
                    p.ippatsu = false;
                }
                self.draw_rinshan(from);
                return;
            }
            ClaimOn::Discard => {}
        }
        // The riichi stands once its tile passes.
        let f = usize::from(from);
        if self.players[f].riichi_pending {
            let p = &mut self.players[f];
            p.riichi_pending = false;
            p.riichi = true;
            p.ippatsu = true;
            self.scores[f] -= 1000;
            self.table.deltas[f] -= 1000;
            self.sticks += 1;
            if self.four_riichi() {
                return;
            }
        }
        if self.four_winds() || self.four_kans() {
            return;
        }
        if let Some((s, a)) = ruling.call().and_then(|s| window.answer_of(s).map(|a| (s, a.clone()))) {
            self.make_call(s, from, tile, a);
            return;
        }
        if self.tiles_left() == 0 {
            self.exhaustive_draw();
            return;
        }
        let next = seats_after(from)[0];
        if self.seed.is_none() {
            self.phase = Phase::Draw { seat: next, rinshan: false };
            return;
        }
        let Some(t) = self.table.wall.draw() else { return self.exhaustive_draw() };
        self.players[usize::from(next)].push(t);
        self.phase = Phase::Turn { seat: next, drawn: Some(t), rinshan: false, kuikae: 0 };
    }

    /// `seat` calls `from`'s `tile` with `action` (chi, pon or an open kan).
    fn make_call(&mut self, seat: Seat, from: Seat, tile: Tile, action: Action) {
        let s = usize::from(seat);
        if let Some(r) = self.players[usize::from(from)].river.last_mut() {
            r.called = true;
        }
        self.players[usize::from(from)].nagashi = false;
        self.table.any_call = true;
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
            self.table.kans += 1;
            self.table.dora_pending += 1;
            self.draw_rinshan(seat);
        } else {
            self.phase = Phase::Turn { seat, drawn: None, rinshan: false, kuikae };
        }
    }
}
