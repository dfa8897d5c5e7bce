//! Hand-built positions: an unchecked [`Setup`], validated by [`Riichi::from_setup`] (for tests,
//! tools and teaching positions; the model is `tzq::Setup`).

use super::engine::{ClaimOn, Imported, Phase, Player, Riichi, River, Table, WALL_END};
use super::rules::Rules;
use super::score::Yaku;
use crate::mahjong::{Meld, MeldKind, Tile, Wall};
use crate::random::Seed;
use crate::{Seat, SetupError};

/// Who acts in a hand-built position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupPhase {
    /// `seat` is on turn with 14 tiles (kans count 3). `drawn` is the tile it just drew (in its
    /// hand); `None` right after its chi or pon (the last meld), whose swap-call ban applies.
    /// `rinshan` when the drawn tile came from the dead wall.
    Turn { seat: Seat, drawn: Option<Tile>, rinshan: bool },
    /// The last tile of `from`'s river was just discarded: the claim window on it opens (seats
    /// without a claim are not asked; with none, the next seat draws at once).
    Discarded { from: Seat },
}

/// One seat of a hand-built position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatSetup {
    /// Concealed tiles.
    pub hand: Vec<Tile>,
    /// Melds in call order (a called tile is in its meld, and marked `called` in the river).
    pub melds: Vec<Meld>,
    pub river: Vec<River>,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    /// Passed a winning tile since its last discard.
    pub furiten_temp: bool,
    /// Passed a winning tile after declaring riichi (furiten for the rest of the hand).
    pub furiten_riichi: bool,
}

/// An unchecked riichi position.
///
/// Tiles: the hands, the melds, the rivers' uncalled tiles, `live` and `dead` together are the
/// 136 tiles of the rules' tile set (with its red fives), each exactly once.
#[derive(Clone, Debug)]
pub struct Setup {
    pub seats: [SeatSetup; 4],
    /// The live wall still to draw, next draw first (its last tile is the last tile, haitei).
    pub live: Vec<Tile>,
    /// The dead wall, 14 tiles: the replacement tiles not yet drawn (4 minus the kans made, in
    /// draw order), then the ten indicator tiles (dora indicator, its ura indicator, the first
    /// kan dora indicator, its ura, ...), then one tile per kan made (moved from the live wall's
    /// end).
    pub dead: Vec<Tile>,
    /// Dora indicators showing, 1 + kan dora shown (at most 1 + kans).
    pub dora_shown: usize,
    /// Kan dora earned by an open or added kan, shown after the next discard.
    pub dora_pending: usize,
    pub scores: [i64; 4],
    /// 0 East, 1 South, 2 West, 3 North.
    pub round_wind: u8,
    /// The dealer's seat (0-3): East 1 is seat 0 dealing.
    pub kyoku: u8,
    pub honba: u32,
    /// Riichi sticks on the table (deposits of earlier hands and of this one).
    pub sticks: u32,
    pub phase: SetupPhase,
    /// Later hands are dealt from this seed (as in a game started from it).
    pub seed: Seed,
}

fn err<T>(msg: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError(msg.into()))
}

impl Riichi {
    /// A validated position from a [`Setup`]: the 136 tiles exactly once (red fives as the rules
    /// say), 13 tiles in each hand (kans counting 3) and 14 for the seat on turn, well-formed melds
    /// called from other seats (chi from the left), the dead wall's 14 tiles, riichi only with a
    /// closed hand. Waits, furiten from discards, nagashi and liability are derived.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Riichi, SetupError> {
        if setup.round_wind > 3 || setup.kyoku > 3 {
            return err("round_wind and kyoku are 0-3");
        }
        let (turn, from) = match setup.phase {
            SetupPhase::Turn { seat, .. } => (Some(seat), None),
            SetupPhase::Discarded { from } => (None, Some(from)),
        };
        if turn.or(from).is_some_and(|s| s > 3) {
            return err("seats are 0-3");
        }
        // Every tile exactly once.
        let mut all: Vec<Tile> = Vec::with_capacity(136);
        let mut kans = 0usize;
        for (s, st) in setup.seats.iter().enumerate() {
            all.extend(&st.hand);
            for m in &st.melds {
                all.extend(m.tiles());
                let Some(checked) = Meld::new(m.kind, m.tiles(), m.called, m.from) else {
                    return err(format!("seat {s} has a malformed {} meld", m.kind.name()));
                };
                if checked.tiles != m.tiles {
                    return err(format!("seat {s} has a malformed {} meld", m.kind.name()));
                }
                if m.is_kong() {
                    kans += 1;
                }
                match m.kind {
                    MeldKind::ConcealedKong => {
                        if m.called.is_some() || m.from.is_some() {
                            return err(format!("seat {s}'s closed kan names a called tile or a seat"));
                        }
                    }
                    _ => {
                        let (Some(c), Some(f)) = (m.called, m.from) else {
                            return err(format!("seat {s}'s {} meld needs the called tile and seat", m.kind.name()));
                        };
                        if f > 3 || usize::from(f) == s || !m.tiles().contains(&c) {
                            return err(format!("seat {s}'s {} meld: bad called tile or seat", m.kind.name()));
                        }
                        if m.kind == MeldKind::Chow && usize::from((f + 1) % 4) != s {
                            return err(format!("seat {s}'s chi must come from the seat on its left"));
                        }
                    }
                }
            }
            all.extend(st.river.iter().filter(|r| !r.called).map(|r| r.tile));
            if (st.riichi || st.double_riichi) && st.melds.iter().any(|m| m.is_open()) {
                return err(format!("seat {s} is in riichi with an open hand"));
            }
            if st.double_riichi && !st.riichi {
                return err(format!("seat {s}: double riichi is also riichi (set both)"));
            }
            if (st.ippatsu || st.furiten_riichi) && !st.riichi {
                return err(format!("seat {s}: ippatsu and riichi furiten need riichi"));
            }
            let want = if turn == Some(s as Seat) { 14 } else { 13 };
            let have = st.hand.len() + 3 * st.melds.len();
            if have != want {
                return err(format!("seat {s} holds {have} tiles (kans count 3); it should hold {want}"));
            }
        }
        if kans > 4 {
            return err("more than four kans");
        }
        if setup.dead.len() != 14 {
            return err(format!("the dead wall holds 14 tiles, not {}", setup.dead.len()));
        }
        if setup.dora_shown == 0 || setup.dora_shown > 1 + kans || setup.dora_shown + setup.dora_pending > 1 + kans {
            return err("dora indicators shown: 1 plus at most one per kan");
        }
        all.extend(&setup.live);
        all.extend(&setup.dead);
        let mut want = Riichi::tile_set(&rules);
        want.sort();
        all.sort();
        if all != want {
            return err(format!(
                "the position holds {} tiles; it must hold the 136 tiles of the set (with {} red fives) exactly once",
                all.len(),
                rules.red_fives
            ));
        }
        if setup.live.len() + kans > 122 {
            return err("the live wall is too long");
        }
        let mut phase = Phase::Over;
        if let SetupPhase::Turn { seat, drawn, rinshan } = setup.phase {
            let st = &setup.seats[usize::from(seat)];
            let mut kuikae = 0;
            match drawn {
                Some(d) => {
                    if !st.hand.contains(&d) {
                        return err(format!("seat {seat}'s drawn tile {d} is not in its hand"));
                    }
                }
                None => {
                    let Some(m) = st.melds.last().filter(|m| matches!(m.kind, MeldKind::Chow | MeldKind::Pung)) else {
                        return err(format!(
                            "seat {seat} has not drawn, so its last meld must be the chi or pon it made"
                        ));
                    };
                    let called = m.called.unwrap_or(m.tiles[0]);
                    kuikae = match m.kind {
                        MeldKind::Chow => {
                            let mut others = m.tiles[..3].iter().copied().filter(|t| *t != called);
                            let (a, b) = (others.next().unwrap_or(called), others.next().unwrap_or(called));
                            Riichi::chi_kuikae(called, a, b)
                        }
                        _ => 1 << called.kind(),
                    };
                }
            }
            phase = Phase::Turn { seat, drawn, rinshan: rinshan && drawn.is_some(), kuikae };
        }
        if let Some(f) = from {
            let river = &setup.seats[usize::from(f)].river;
            if river.last().is_none_or(|r| r.called) {
                return err(format!("seat {f} has no discard on the table to claim"));
            }
        }

        // The wall: the live tiles, then the tiles the kans moved from its end into the dead wall,
        // then the dead wall, read from the end: d0-d3 the replacement tiles (the first `kans`
        // drawn), d4.. the indicator pairs.
        let left = 4 - kans;
        let live_len = setup.live.len();
        let mut wall = Wall::new(WALL_END);
        wall.lay(live_len + kans + 14, setup.dead[0]);
        for (i, &t) in setup.live.iter().chain(&setup.dead[left + 10..]).enumerate() {
            wall.set(i, t);
        }
        for (j, &t) in setup.dead[..left].iter().enumerate() {
            wall.set_at_end(kans + j, t);
        }
        for (j, &t) in setup.dead[left..left + 10].iter().enumerate() {
            wall.set_at_end(4 + j, t);
        }
        wall.skip_replacements(kans);

        let mut players: [Player; 4] = Default::default();
        let mut any_call = false;
        let mut discards = 0u32;
        for (s, st) in setup.seats.into_iter().enumerate() {
            let p = &mut players[s];
            any_call |= !st.melds.is_empty();
            discards += st.river.len() as u32;
            p.nagashi = st.river.iter().all(|r| r.tile.is_yaochu() && !r.called);
            p.discarded = st.river.iter().fold(0, |m, r| m | 1 << r.tile.kind());
            p.riichi = st.riichi;
            p.double_riichi = st.double_riichi;
            p.ippatsu = st.ippatsu;
            p.furiten_temp = st.furiten_temp;
            p.furiten_riichi = st.furiten_riichi;
            p.calls = st.melds.iter().map(|m| if m.kind == MeldKind::AddedKong { 2 } else { 1 }).sum();
            p.minkan_from = st.melds.iter().rev().find(|m| m.kind == MeldKind::ClaimedKong).and_then(|m| m.from);
            // Liability: the discard that completed the third dragon set or the fourth wind set.
            let sets = |dragons: bool| {
                st.melds.iter().filter(move |m| {
                    m.kind != MeldKind::Chow && if dragons { m.base() >= 31 } else { (27..31).contains(&m.base()) }
                })
            };
            if rules.pao_daisangen {
                if let Some(m) = sets(true).nth(2).filter(|m| m.kind != MeldKind::ConcealedKong) {
                    p.pao = m.from.map(|f| (Yaku::Daisangen, f));
                }
            }
            if rules.pao_daisuushii {
                if let Some(m) = sets(false).nth(3).filter(|m| m.kind != MeldKind::ConcealedKong) {
                    p.pao = m.from.map(|f| (Yaku::Daisuushii, f));
                }
            }
            p.set_hand(&st.hand);
            p.melds = st.melds;
            p.river = st.river;
        }
        let mut g = Riichi {
            rules,
            seed: Some(setup.seed),
            scores: setup.scores,
            results: Vec::new(),
            round_wind: setup.round_wind,
            kyoku: setup.kyoku,
            honba: setup.honba,
            sticks: setup.sticks,
            last_wins: Vec::new(),
            players,
            table: Table {
                wall,
                dice: (1, 1),
                dora_shown: setup.dora_shown,
                dora_pending: setup.dora_pending,
                kans: kans as u8,
                any_call,
                discards_made: discards,
                deltas: [0; 4],
            },
            phase,
            // Hand-built positions are seeded games: nothing is imported.
            imported: Imported::default(),
            last_hand: None,
            last_end: None,
            incidents: Default::default(),
            length: Default::default(),
            chombos: 0,
        };
        for p in g.players.iter_mut() {
            p.update_waits();
        }
        // The seat on turn waits as it did before its draw.
        if let Phase::Turn { seat, drawn: Some(d), .. } = g.phase {
            let p = &mut g.players[usize::from(seat)];
            if let Some(i) = p.hand().iter().position(|&x| x == d) {
                let full = p.hand().to_vec();
                let mut before = full.clone();
                before.remove(i);
                p.set_hand(&before);
                p.update_waits();
                p.set_hand(&full);
            }
        }
        if let Some(f) = from {
            let Some(tile) = g.players[usize::from(f)].river.last().map(|r| r.tile) else {
                return err("no discard to claim");
            };
            // The discarder's own waits were computed without the tile: no furiten change here.
            let can = g.window_options(f, tile, ClaimOn::Discard);
            g.open_window(f, tile, ClaimOn::Discard, can);
        }
        Ok(g)
    }
}
