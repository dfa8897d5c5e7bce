//! A source hand ([`SourceHand`]) into a Paifu log, through the MCR engine in imported mode: the
//! deals and draws become records, each step the seat's action, each claim window answered by
//! the claims the source shows (the one taken and those it set aside) and a pass from every
//! other seat the engine asks. The engine checks every record as it does a seeded game's; the
//! first it refuses ends the log, which then does not validate at that record.
//!
//! What the source says the hand was worth is checked too: its score changes become the claim
//! of the record that ends the hand (so the validator compares them with Paifu's settlement),
//! and its fan total and fan list, which a claim has no place for, are compared here and any
//! difference is reported as a [`Mismatch`].

use super::{End, SourceHand, What};
use crate::import::to_log::{embeddable, source_digest, Mismatch, META_KEY};
use crate::import::ImportError;
use crate::import::Place;
use paifu_core::log::{Claim, Header, Log, OptValue, Options, Record, Source, FORMAT_VERSION};
use paifu_core::mahjong::Tile;
use paifu_core::mcr::{Action, Fan, Mcr, Rules};
use paifu_core::{Game, Seat};
use std::collections::BTreeMap;

/// A source hand made into a log: the log, each record's place in the source (`line 17`), the
/// record the engine refused (the log ends with it), and where the source's own account of the
/// hand differs from Paifu's (the fan total or list, the winner, a hand the source ends that
/// Paifu's engine goes on with).
pub type Imported = crate::import::to_log::Imported<Action>;

/// The log of a source hand, with the records the engine accepted (and the first it refused).
pub fn to_log(hand: &SourceHand) -> Result<Imported, ImportError> {
    let ruleset = hand.ruleset;
    let mut options = hand.options.clone();
    if hand.prevalent_wind != 0 {
        options.insert("prevalent_wind".into(), OptValue::Int(i64::from(hand.prevalent_wind)));
    }
    let rules = Rules::from_options(ruleset, &options).map_err(|e| ImportError::new("", e.0))?;
    let header = header(hand, ruleset, options);
    let g = Mcr::new(rules, 4, None).map_err(|e| ImportError::new("", e.0))?;
    let mut b = Builder { g, log: Log { header, records: Vec::new() }, positions: Vec::new(), refused: None };
    play(&mut b, hand)?;
    let mut mismatches = Vec::new();
    if b.refused.is_none() {
        check_end(&mut b, hand, &mut mismatches);
    }
    Ok(Imported { log: b.log, positions: b.positions, refused: b.refused, mismatches, verdict: None })
}

/// The header of an imported MCR hand: no seed, the source block, the hand's text embedded.
fn header(hand: &SourceHand, ruleset: &str, options: Options) -> Header {
    let mut meta = BTreeMap::new();
    if let Some(text) = embeddable(hand.text.as_bytes()) {
        meta.insert(META_KEY.into(), text.to_owned());
    }
    Header {
        paifu: FORMAT_VERSION,
        game: "mcr".into(),
        ruleset: ruleset.into(),
        options,
        engine: paifu_core::ENGINE.into(),
        seats: hand.names.to_vec(),
        seed: None,
        commitment: None,
        source: Some(Source {
            format: hand.format.into(),
            id: hand.id.clone(),
            digest: source_digest(hand.text.as_bytes()),
        }),
        meta,
    }
}

struct Builder {
    g: Mcr,
    log: Log<Action>,
    positions: Vec<Place>,
    refused: Option<(usize, String)>,
}

impl Builder {
    /// Records and plays an action; false once the engine has refused one.
    fn push(&mut self, seat: Seat, action: Action, at: &str) -> bool {
        if self.refused.is_some() {
            return false;
        }
        let seq = self.log.records.len();
        self.log.records.push(Record { seq: seq as u32, seat, action: action.clone(), claim: None });
        self.positions.push(Place::text(at));
        match self.g.play_mut(seat, &action) {
            Ok(()) => true,
            Err(v) => {
                self.refused = Some((seq, v.to_string()));
                false
            }
        }
    }

    /// The claim window open now: its tile.
    fn window(&self) -> Option<Tile> {
        if self.g.is_over() {
            return None;
        }
        self.g.view().claim.map(|c| c.tile)
    }

    /// Every seat the window still asks passes.
    fn pass_the_rest(&mut self, at: &str) -> bool {
        while self.window().is_some() {
            let Some(s) = self.g.to_act().iter().next() else { return true };
            if !self.push(s, Action::Pass, at) {
                return false;
            }
        }
        true
    }
}

/// The tile `d` steps from `t` in its suit.
fn step_tile(t: Tile, d: i8) -> Option<Tile> {
    let s = t.to_string();
    let (n, suit) = s.split_at(1);
    if suit == "z" {
        return None;
    }
    let n = n.parse::<i8>().ok()? + d;
    (1..=9).contains(&n).then(|| format!("{n}{suit}").parse().ok()).flatten()
}

/// The action a claim of the source makes on `tile`; `None` for what is no claim.
fn claim_action(what: What, tile: Tile, at: &str) -> Result<Option<Action>, ImportError> {
    Ok(Some(match what {
        What::Chow(middle) => {
            let three = [step_tile(middle, -1), Some(middle), step_tile(middle, 1)];
            let [Some(a), Some(m), Some(c)] = three else {
                return Err(ImportError::new(at, format!("a chow around {middle}: no such chow")));
            };
            let others: Vec<Tile> = [a, m, c].into_iter().filter(|&x| x != tile).collect();
            if others.len() != 2 {
                return Err(ImportError::new(
                    at,
                    format!("a chow {a}{m}{c} on the discard {tile}: the chow does not hold it"),
                ));
            }
            Action::chow(others[0], others[1])
        }
        What::Pung(t) => Action::Pung(t),
        What::Kong(t) => Action::Kong(t),
        What::Win(t) if t != tile => {
            return Err(ImportError::new(at, format!("a win on {t}, but the tile to claim is {tile}")))
        }
        What::Win(_) => Action::Win,
        _ => return Ok(None),
    }))
}

/// Plays the deals and the steps.
fn play(b: &mut Builder, hand: &SourceHand) -> Result<(), ImportError> {
    for (s, (tiles, at)) in hand.deals.iter().enumerate() {
        let tiles: [Tile; 13] = tiles
            .as_slice()
            .try_into()
            .map_err(|_| ImportError::new(at, format!("a deal of {} tiles; a deal is 13", tiles.len())))?;
        if !b.push(s as Seat, Action::deal(tiles), at) {
            return Ok(());
        }
    }
    let mut steps = hand.steps.iter().peekable();
    while let Some(step) = steps.next() {
        if b.refused.is_some() {
            return Ok(());
        }
        if b.g.is_over() {
            return Err(ImportError::new(
                &step.at,
                "the hand is over by the rules (the wall is empty or it was won), but the source goes on",
            ));
        }
        if let Some(tile) = b.window() {
            // The claims set aside first, so that the one taken is the record that resolves the
            // window (and ends the hand when it is a win).
            let mut answers = Vec::new();
            for &(s, w) in &step.ignored {
                if let Some(a) = claim_action(w, tile, &step.at)? {
                    answers.push((s, a));
                }
            }
            let claimed = claim_action(step.what, tile, &step.at)?;
            if let Some(a) = &claimed {
                answers.push((step.seat, a.clone()));
            }
            // Further wins on the same tile (formats that let several seats win one discard):
            // declared too, and the engine gives the win to the nearest.
            if matches!(step.what, What::Win(_)) {
                while let Some(next) = steps.next_if(|n| matches!(n.what, What::Win(t) if t == tile)) {
                    answers.push((next.seat, Action::Win));
                }
            }
            for (s, a) in answers {
                if !b.push(s, a, &step.at) {
                    return Ok(());
                }
            }
            if !b.pass_the_rest(&step.at) {
                return Ok(());
            }
            if claimed.is_some() {
                continue;
            }
        } else if !step.ignored.is_empty() {
            return Err(ImportError::new(&step.at, "claims set aside, but no discard or kong is open to claim"));
        }
        let action = match step.what {
            What::Draw(p) => Action::Draw(p),
            What::Discard(t) => Action::Discard(t),
            What::ConcealedKong(t) => Action::ConcealedKong(t),
            What::AddedKong(t) => Action::AddedKong(t),
            What::Win(t) => {
                let drawn = b.g.view().drawn;
                if drawn.is_some_and(|d| d != t) {
                    return Err(ImportError::new(
                        &step.at,
                        format!("a self-drawn win on {t}, but seat {} drew {}", step.seat, drawn.unwrap_or(t)),
                    ));
                }
                Action::Win
            }
            What::Pung(t) => Action::Pung(t),
            What::Kong(t) => Action::Kong(t),
            What::Chow(m) => {
                return Err(ImportError::new(&step.at, format!("a chow around {m}, but no discard is open to claim")))
            }
        };
        if !b.push(step.seat, action, &step.at) {
            return Ok(());
        }
    }
    // The last discard of a drawn hand: the seats asked pass.
    if let End::Drawn { at } = &hand.end {
        b.pass_the_rest(at);
    }
    Ok(())
}

/// Compares the end of the hand with the source's: who won, the fan, the scores (a claim on the
/// record that ends the hand).
fn check_end(b: &mut Builder, hand: &SourceHand, out: &mut Vec<Mismatch>) {
    let last = b.log.records.len().saturating_sub(1);
    let (at, won) = match &hand.end {
        End::Won { at, .. } => (at, true),
        End::Drawn { at } => (at, false),
    };
    let mismatch = |message: String| Mismatch { record: last, error: ImportError::new(at, message) };
    let Some(r) = b.g.results().first().cloned() else {
        let who = b.g.to_act().iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
        out.push(mismatch(format!(
            "the source ends the hand {}, but by the rules it goes on: seat {who} is to act ({} tiles left to draw)",
            if won { "won" } else { "drawn" },
            b.g.view().wall
        )));
        return;
    };
    if let Some(s) = &hand.scores {
        if let Some(rec) = b.log.records.last_mut() {
            rec.claim = Some(Claim { round: Some(s.deltas.to_vec()), final_scores: Some(s.deltas.to_vec()) });
        }
    }
    let fact = |key: &str| r.facts.iter().find(|f| f.key == key);
    let End::Won { fan, fans, .. } = &hand.end else {
        if fact("win").is_some() {
            out.push(mismatch(format!("the source has the hand drawn, but Paifu has it won: {}", r.summary)));
        }
        return;
    };
    let Some(winner) = fact("win").and_then(|f| f.seat) else {
        out.push(mismatch(format!("the source has the hand won, but Paifu has it drawn: {}", r.summary)));
        return;
    };
    let winners: Vec<Seat> = {
        let wins = hand.steps.iter().rev().take_while(|s| matches!(s.what, What::Win(_)));
        let mut w: Vec<Seat> = wins.map(|s| s.seat).collect();
        w.reverse();
        w
    };
    if winners != [winner] {
        let list = winners.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" and ");
        out.push(mismatch(format!(
            "the source has seat {list} win, but Paifu gives the win to seat {winner} alone (MCR: one winner, the \
             nearest to the discarder)"
        )));
    }
    let ours: Vec<(Fan, u32)> = r
        .facts
        .iter()
        .filter_map(|f| Some((Fan::from_name(f.key.strip_prefix("fan:")?)?, u32::try_from(f.value).ok()?)))
        .collect();
    let total = fact("fan").map_or(0, |f| f.value);
    if i64::from(*fan) != total {
        out.push(mismatch(format!("the source states {fan} fan, but Paifu counts {total}: {}", r.summary)));
    } else if let Some(why) = fan_lists_differ(fans, &ours) {
        out.push(mismatch(format!("the source's fan ({}) differ from Paifu's: {why}", shown(fans))));
    }
}

fn shown(fans: &[(String, u32)]) -> String {
    fans.iter().map(|(n, c)| format!("{n}*{c}")).collect::<Vec<_>>().join("+")
}

/// How a source's fan list differs from Paifu's, or `None`. Names the source wrote are matched
/// by their Chinese names (`独听・` before a wait allowed; `明暗杠`, one concealed and one
/// melded kong, is Paifu's `concealed_kong` and `melded_kong`). Names the source lost (written
/// as `?`, one a character, as in the public Botzone sample) are matched by their length and
/// count.
fn fan_lists_differ(source: &[(String, u32)], ours: &[(Fan, u32)]) -> Option<String> {
    // Paifu's list as the source's calculator names it: (Chinese name, count).
    let mut names: Vec<(String, u32, bool)> = Vec::new();
    let pair = ours.iter().any(|(f, _)| *f == Fan::ConcealedKong) && ours.iter().any(|(f, _)| *f == Fan::MeldedKong);
    for &(f, n) in ours {
        if pair && matches!(f, Fan::ConcealedKong | Fan::MeldedKong) {
            continue;
        }
        let wait = matches!(f, Fan::EdgeWait | Fan::ClosedWait | Fan::SingleWait);
        names.push((f.info().chinese.to_owned(), n, wait));
    }
    if pair {
        names.push(("明暗杠".to_owned(), 1, false));
    }
    if source.len() != names.len() {
        return Some(format!("{} fan there, {} here", source.len(), names.len()));
    }
    let mut used = vec![false; names.len()];
    for (name, count) in source {
        let lost = name.chars().all(|c| c == '?');
        let len = name.chars().count();
        let fits = |(ours, n, wait): &(String, u32, bool)| {
            let ol = ours.chars().count();
            *n == *count
                && if lost {
                    len == ol || (*wait && len == ol + 3)
                } else {
                    name == ours || name.strip_prefix("独听・") == Some(ours.as_str())
                }
        };
        // An exact length first, so that a wait's longer form is taken only when it must be.
        let pick = (0..names.len())
            .find(|&i| !used[i] && fits(&names[i]) && names[i].0.chars().count() == len)
            .or_else(|| (0..names.len()).find(|&i| !used[i] && fits(&names[i])));
        match pick {
            Some(i) => used[i] = true,
            None => {
                let here: Vec<String> = names.iter().map(|(n, c, _)| format!("{n}*{c}")).collect();
                return Some(format!("{name}*{count} matches none of Paifu's {}", here.join("+")));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fan_lists_match_by_name_or_by_shape() {
        let ours = [(Fan::MixedShiftedChows, 1), (Fan::AllChows, 1), (Fan::NoHonors, 1)];
        let named = |v: &[(&str, u32)]| v.iter().map(|(n, c)| (n.to_string(), *c)).collect::<Vec<_>>();
        assert_eq!(fan_lists_differ(&named(&[("三色三步高", 1), ("平和", 1), ("无字", 1)]), &ours), None);
        assert_eq!(fan_lists_differ(&named(&[("?????", 1), ("??", 1), ("??", 1)]), &ours), None);
        let d = fan_lists_differ(&named(&[("???", 1), ("??", 1), ("??", 1)]), &ours).unwrap();
        assert!(d.contains("???*1 matches none"), "{d}");
        assert!(fan_lists_differ(&named(&[("平和", 1), ("无字", 1)]), &ours).unwrap().contains("2 fan there, 3 here"));
        // A wait written with its prefix, and the pair of kongs as one fan.
        let ours = [(Fan::ConcealedKong, 1), (Fan::MeldedKong, 1), (Fan::EdgeWait, 1)];
        assert_eq!(fan_lists_differ(&named(&[("明暗杠", 1), ("独听・边张", 1)]), &ours), None);
        assert_eq!(fan_lists_differ(&named(&[("???", 1), ("?????", 1)]), &ours), None);
        assert!(fan_lists_differ(&named(&[("明暗杠", 1), ("嵌张", 1)]), &ours).is_some());
    }

    #[test]
    fn chows_are_read_around_their_middle_tile() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert_eq!(claim_action(What::Chow(t("8p")), t("7p"), "x").unwrap(), Some(Action::Chow(t("8p"), t("9p"))));
        assert_eq!(claim_action(What::Chow(t("8p")), t("8p"), "x").unwrap(), Some(Action::Chow(t("7p"), t("9p"))));
        assert!(claim_action(What::Chow(t("8p")), t("6p"), "x").unwrap_err().message.contains("does not hold it"));
        assert!(claim_action(What::Chow(t("9p")), t("9p"), "x").unwrap_err().message.contains("no such chow"));
        assert!(claim_action(What::Chow(t("2z")), t("2z"), "x").is_err());
        assert_eq!(claim_action(What::Discard(t("2z")), t("2z"), "x").unwrap(), None);
    }
}
