//! How a round ends: a win by tsumo or ron (with the liability of pao and of a rinshan after an
//! open kan, honba and riichi sticks), an exhaustive draw (tenpai and noten payments, nagashi
//! mangan), and the round's result with its facts.

use super::Riichi;
use crate::mahjong::Tile;
use crate::riichi::facts::FactKind;
use crate::riichi::score::{payment, score, Payment, Score, Situation, WinHand};
use crate::riichi::view::{sorted, HandEnd, HandEndKind, MeldView, ShownHand, Transfer, WinView, YakuLine};
use crate::{Fact, RoundResult, Seat};

/// The outcome of a round, before it is written down.
pub(super) struct Ending {
    pub(super) summary: String,
    pub(super) facts: Vec<Fact>,
    /// The dealer keeps the seat.
    pub(super) renchan: bool,
    /// The round ended in a win by the dealer (for agari-yame).
    pub(super) dealer_won: bool,
    /// Honba counter after the round.
    pub(super) next_honba: u32,
    /// How the hand ended, for the view.
    pub(super) how: HandEndKind,
    /// Who paid whom at the end (riichi deposits made during the hand are added to them).
    pub(super) payments: Vec<Transfer>,
}

/// The score changes of a hand's end, each as a payment from one seat (or the table) to another.
#[derive(Default)]
struct Ledger {
    d: [i64; 4],
    payments: Vec<Transfer>,
}

impl Ledger {
    /// `from` (the table when `None`) pays `points` to `to`.
    fn pay(&mut self, from: Option<usize>, to: usize, points: i64) {
        if points == 0 {
            return;
        }
        if let Some(f) = from {
            self.d[f] -= points;
        }
        self.d[to] += points;
        self.payments.push(Transfer { from: from.map(|f| f as Seat), to: Some(to as Seat), points });
    }
}

impl Riichi {
    /// The score if `seat` wins with `tile` (drawn for a tsumo, otherwise claimed).
    pub(super) fn win_score(&self, seat: Seat, tile: Tile, tsumo: bool, rinshan: bool, chankan: bool) -> Option<Score> {
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
        let shown = self.table.dora_shown.min(5);
        let dora = &dora_all[..if self.rules.kan_dora { shown } else { 1 }];
        let ura_n = if p.riichi { self.ura_revealed() } else { 0 };
        let wh = WinHand { concealed, melds: &p.melds, win: tile, dora, ura: &ura_all[..ura_n] };
        score(&wh, &sit, &self.rules).ok()
    }

    /// How many ura indicators a winner in riichi reveals.
    fn ura_revealed(&self) -> usize {
        match (self.rules.ura_dora, self.rules.kan_ura_dora) {
            (false, _) => 0,
            (true, true) => self.table.dora_shown.min(5),
            (true, false) => 1,
        }
    }

    /// What the viewer shows of `seat`'s win on `tile` (its hand before `end_round` deals anew).
    fn win_view(&self, seat: Seat, from: Option<Seat>, tile: Tile, sc: &Score) -> WinView {
        let p = &self.players[usize::from(seat)];
        let mut hand = sorted(p.hand());
        if from.is_none() {
            // A tsumo's winning tile is in the hand: shown apart.
            if let Some(i) = hand.iter().rposition(|&t| t == tile) {
                hand.remove(i);
            }
        }
        WinView {
            seat,
            from,
            tile,
            hand,
            melds: p.melds.iter().map(MeldView::from).collect(),
            yaku: sc.yaku.iter().map(|&(y, han)| YakuLine { name: y.name(), han }).collect(),
            han: sc.han,
            fu: sc.fu,
            yakuman: sc.yakuman,
            limit: sc.limit.name(),
            points: sc.payment.total(),
        }
    }

    /// `seat` wins by tsumo on `tile`.
    pub(super) fn win_tsumo(&mut self, seat: Seat, tile: Tile, rinshan: bool) {
        let Some(sc) = self.win_score(seat, tile, true, rinshan, false) else { return };
        let s = usize::from(seat);
        let dealer = seat == self.dealer();
        let mut l = Ledger::default();
        let honba = i64::from(self.honba);
        let pao = self.players[s].pao.filter(|(y, _)| sc.has(*y));
        let rinshan_liable = if rinshan && self.rules.rinshan_pao { self.players[s].minkan_from } else { None };
        if let Some(liable) = rinshan_liable {
            // The whole win is paid by the seat whose discard made the open kan, as for a ron.
            l.pay(Some(usize::from(liable)), s, payment(sc.basic, dealer, false).total() + 300 * honba);
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
                    l.pay(Some(o), s, amount);
                }
            }
            if let Some((_, liable)) = pao {
                l.pay(Some(usize::from(liable)), s, payment(8000 * pao_count, dealer, false).total());
            }
            // Honba: 100 from each payer, all from the liable seat under pao.
            if let Some((_, liable)) = pao.filter(|_| rest_basic == 0) {
                l.pay(Some(usize::from(liable)), s, 300 * honba);
            } else {
                for o in (0..4).filter(|&o| o != s) {
                    l.pay(Some(o), s, 100 * honba);
                }
            }
        }
        l.pay(None, s, 1000 * i64::from(self.sticks));
        self.sticks = 0;
        let mut facts = vec![Fact::seat(seat, FactKind::Tsumo, 1)];
        if let Some(l) = rinshan_liable.or(pao.map(|p| p.1)) {
            facts.push(Fact::seat(l, FactKind::Liable, 1));
        }
        self.win_facts(seat, &sc, &mut facts);
        let summary = format!("seat {seat} wins by tsumo on {tile}: {sc}");
        let wins = vec![self.win_view(seat, None, tile, &sc)];
        self.last_wins = vec![(seat, sc)];
        self.end_round(
            l.d,
            Ending {
                summary,
                facts,
                renchan: dealer,
                dealer_won: dealer,
                next_honba: if dealer { self.honba + 1 } else { 0 },
                how: HandEndKind::Win { wins },
                payments: l.payments,
            },
        );
    }

    /// `winners` win by ron on `from`'s `tile` (robbing a kan when `chankan`).
    pub(super) fn win_ron(&mut self, winners: &[Seat], from: Seat, tile: Tile, chankan: bool) {
        let mut l = Ledger::default();
        let mut facts = vec![Fact::seat(from, FactKind::DealIn, 1)];
        let mut lines = Vec::new();
        let mut wins = Vec::new();
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
                l.pay(Some(usize::from(liable)), s, pao_part / 2);
                l.pay(Some(f), s, pao_part / 2 + rest + h);
                facts.push(Fact::seat(liable, FactKind::Liable, 1));
            } else {
                l.pay(Some(f), s, sc.payment.total() + h);
            }
            if i == 0 {
                l.pay(None, s, 1000 * i64::from(self.sticks));
            }
            facts.push(Fact::seat(w, FactKind::Ron, 1));
            self.win_facts(w, &sc, &mut facts);
            wins.push(self.win_view(w, Some(from), tile, &sc));
            self.last_wins.push((w, sc.clone()));
            lines.push(format!(
                "seat {w} wins by ron on seat {from}'s {tile}{}: {sc}",
                if chankan { " (robbing the kan)" } else { "" }
            ));
        }
        self.sticks = 0;
        let dealer_won = winners.contains(&self.dealer());
        self.end_round(
            l.d,
            Ending {
                summary: lines.join("; "),
                facts,
                renchan: dealer_won,
                dealer_won,
                next_honba: if dealer_won { self.honba + 1 } else { 0 },
                how: HandEndKind::Win { wins },
                payments: l.payments,
            },
        );
    }

    /// The facts of `seat`'s win: han, fu, points, yakuman, each yaku.
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

    /// Whether `seat` is tenpai at an exhaustive draw (formal tenpai under `keishiki_tenpai` or
    /// in riichi; else a wait with a yaku).
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

    /// The live wall is empty and the last discard passed.
    pub(super) fn exhaustive_draw(&mut self) {
        let tenpai: Vec<bool> = (0..4).map(|s| self.tenpai(s)).collect();
        let mut l = Ledger::default();
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
                    l.pay(Some(usize::from(o)), usize::from(w), a);
                }
                facts.push(Fact::seat(w, FactKind::NagashiMangan, 1));
            }
            let names: Vec<String> = nagashi.iter().map(|s| s.to_string()).collect();
            summary.push_str(&format!(": nagashi mangan for seat {}", names.join(", ")));
        } else if self.rules.noten_penalty {
            // 3000 from the noten seats to the tenpai ones: each noten seat pays each tenpai
            // seat an equal share (1000, 750 or 1000 as 1, 2 or 3 are tenpai).
            let n = tenpai.iter().filter(|&&t| t).count() as i64;
            if n > 0 && n < 4 {
                for (noten, ten) in (0..4).filter(|&a| !tenpai[a]).flat_map(|a| (0..4).map(move |b| (a, b))) {
                    if tenpai[ten] {
                        l.pay(Some(noten), ten, 3000 / ((4 - n) * n));
                    }
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
        let shown = (0..4u8)
            .filter(|&s| tenpai[usize::from(s)])
            .map(|s| {
                let p = &self.players[usize::from(s)];
                ShownHand { seat: s, hand: sorted(p.hand()), melds: p.melds.iter().map(MeldView::from).collect() }
            })
            .collect();
        let how = HandEndKind::ExhaustiveDraw { tenpai: shown, nagashi };
        let ending = Ending {
            summary,
            facts,
            renchan,
            dealer_won: false,
            next_honba: self.honba + 1,
            how,
            payments: l.payments,
        };
        self.end_round(l.d, ending);
    }

    /// Writes down the round's result (`d`, each seat's score change) and goes on to what
    /// follows.
    pub(super) fn end_round(&mut self, d: [i64; 4], mut e: Ending) {
        // Until now the hand's score changes are its riichi deposits.
        let deposits = self.table.deltas;
        for s in 0..4 {
            self.scores[s] += d[s];
            self.table.deltas[s] += d[s];
        }
        let mut facts = std::mem::take(&mut e.facts);
        for (s, p) in self.players.iter().enumerate() {
            if p.riichi {
                facts.push(Fact::seat(s as Seat, FactKind::Riichi, 1));
            }
            if p.calls > 0 {
                facts.push(Fact::seat(s as Seat, FactKind::Calls, i64::from(p.calls)));
            }
        }
        let round = self.results.len() as u32 + 1;
        self.last_end = Some(std::sync::Arc::new(self.hand_end(&mut e, deposits)));
        self.results.push(RoundResult {
            round,
            deltas: self.table.deltas.to_vec(),
            summary: format!("{} {} honba: {}", self.hand_name(), self.honba, e.summary),
            facts,
        });
        self.next_hand(&e);
    }

    /// The hand's end as the view shows it, once the round's score changes are counted: the
    /// riichi `deposits` made during the hand first, then the ending's payments.
    fn hand_end(&self, e: &mut Ending, deposits: [i64; 4]) -> HandEnd {
        let mut payments: Vec<Transfer> = (0..4u8)
            .filter(|&s| deposits[usize::from(s)] < 0)
            .map(|s| Transfer { from: Some(s), to: None, points: -deposits[usize::from(s)] })
            .collect();
        payments.append(&mut e.payments);
        let riichi_winner = match &e.how {
            HandEndKind::Win { wins } => wins.iter().any(|w| self.players[usize::from(w.seat)].riichi),
            _ => false,
        };
        let ura_n = if riichi_winner { self.ura_revealed() } else { 0 };
        HandEnd {
            hand: self.hand_label(),
            honba: self.honba,
            how: std::mem::replace(&mut e.how, HandEndKind::Win { wins: Vec::new() }),
            payments,
            deltas: self.table.deltas.to_vec(),
            scores: self.scores.to_vec(),
            dora_indicators: self.dora_indicators(),
            ura_indicators: self.indicator_row(true)[..ura_n].to_vec(),
        }
    }
}
