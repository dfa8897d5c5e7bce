//! A person in a seat: the host's side and the web's side of one seat, the **desk**.
//!
//! The host publishes what the seat sees ([`SeatNow`]: its view, its legal actions when it owes
//! a decision, the time it has) and the web server shows it (a page, a JSON answer, a stream of
//! updates: [`Desk::watch`]). A decision arrives as an [`Offer`] ([`Desk::offer`], a request's
//! action text); the host checks it as it checks a bot's answer and answers the offer: taken,
//! or refused with the reason (the request then says 409). An offer is only accepted while the
//! host is asking this seat: the desk's inbox holds at most one, and the host closes it (every
//! offer still in it refused) before it goes on, so that no offer waits for a later decision.
//!
//! Nothing here blocks the web server's threads: the host waits on the inbox's condition
//! variable on its own thread; the web side takes a lock for as long as it takes to look.

use paifu_core::games;
use paifu_core::Seat;
use serde::Serialize;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{oneshot, watch};

/// Where a table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The seed is not fixed yet: the people's contributions are awaited.
    Waiting,
    /// A game is being played (or the next is about to begin).
    Playing,
    /// Every game is over (or the table was closed).
    Ended,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Waiting => "waiting",
            Stage::Playing => "playing",
            Stage::Ended => "ended",
        }
    }

    pub fn parse(s: &str) -> Option<Stage> {
        [Stage::Waiting, Stage::Playing, Stage::Ended].into_iter().find(|k| k.as_str() == s)
    }
}

/// A record the seat saw played, in the log's notation, numbered among those it saw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    pub seq: u32,
    pub seat: Seat,
    pub action: String,
}

/// The last events a seat is shown (the page's line of what just happened).
pub const EVENTS_SHOWN: usize = 12;

/// Where the table's fair seed stands, as a seat is shown it (docs/protocol.md, "Fair
/// randomness", "People at a table").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FairNow {
    /// The host's commitment, published when the table opened.
    pub host_commitment: String,
    /// This seat's party name (`seat 2`).
    pub party: String,
    /// Each party's commitment once it is in (the host's included); `None` while awaited.
    pub commitments: std::collections::BTreeMap<String, Option<String>>,
    /// The digest of every commitment, once all are in: from then on the parties reveal.
    pub closed: Option<String>,
    /// What this seat's browser owes now: `"commit"`, `"reveal"`, or nothing.
    pub owed: Option<&'static str>,
    /// Once every commitment is in: when every share must be revealed (ms since the Unix
    /// epoch), or the table is abandoned.
    pub reveal_by_ms: Option<i64>,
}

/// Everything a person's seat is shown now.
#[derive(Clone, Debug, Serialize)]
pub struct SeatNow {
    /// Bumped at every change: a page that has shown version `v` has nothing new until `v + 1`.
    pub version: u64,
    pub table: i64,
    pub game: String,
    pub seat: Seat,
    pub stage: Stage,
    /// The game being played (1-based), or the last one played; 0 before the first.
    pub number: u32,
    pub games_planned: u32,
    /// The seat names, in seat order.
    pub names: Vec<String>,
    /// What the seat sees at the table (`Game::seat_view`): `None` before the first deal.
    pub view: Option<games::View>,
    /// Its legal actions in the log's notation when it owes a decision, else empty.
    pub legal: Vec<String>,
    pub to_act: bool,
    /// When the decision asked for times out (ms since the Unix epoch), while it is asked.
    pub deadline_at_ms: Option<i64>,
    /// What is left of the seat's time for the whole game, in ms.
    pub budget_ms: u64,
    /// The last [`EVENTS_SHOWN`] records the seat saw played.
    pub events: Vec<Event>,
    /// Something the seat should be told (its decision timed out, the game is over).
    pub notice: Option<String>,
    /// The archive's numbers of this table's finished games.
    pub finished: Vec<i64>,
    pub fair: FairNow,
}

impl SeatNow {
    pub fn new(table: i64, game: &str, seat: Seat, names: Vec<String>, games_planned: u32) -> SeatNow {
        SeatNow {
            version: 0,
            table,
            game: game.to_owned(),
            seat,
            stage: Stage::Waiting,
            number: 0,
            games_planned,
            names,
            view: None,
            legal: Vec::new(),
            to_act: false,
            deadline_at_ms: None,
            budget_ms: 0,
            events: Vec::new(),
            notice: None,
            finished: Vec::new(),
            fair: FairNow::default(),
        }
    }
}

/// A decision offered by the person: its text, and where the host's verdict goes.
pub struct Offer {
    pub text: String,
    reply: oneshot::Sender<Result<(), String>>,
}

impl Offer {
    /// Tells the person whether the offer was taken (`Err`: why not).
    pub fn answer(self, verdict: Result<(), String>) {
        // The request may have gone (a closed tab): nobody to tell, nothing lost.
        let _ = self.reply.send(verdict);
    }
}

/// The seat's inbox.
#[derive(Default)]
struct Inbox {
    /// Whether the host is waiting for this seat's decision now.
    asking: bool,
    offer: Option<Offer>,
}

/// One person's seat, shared by the host's thread and the web server.
pub struct Desk {
    now: watch::Sender<SeatNow>,
    inbox: Mutex<Inbox>,
    arrived: Condvar,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Desk {
    pub fn new(first: SeatNow) -> Arc<Desk> {
        let (now, _) = watch::channel(first);
        Arc::new(Desk { now, inbox: Mutex::new(Inbox::default()), arrived: Condvar::new() })
    }

    /// What the seat is shown now.
    pub fn now(&self) -> SeatNow {
        self.now.borrow().clone()
    }

    /// A receiver that wakes at every change (for a stream of updates).
    pub fn watch(&self) -> watch::Receiver<SeatNow> {
        self.now.subscribe()
    }

    /// Changes what the seat is shown (the version is bumped).
    pub fn publish(&self, change: impl FnOnce(&mut SeatNow)) {
        self.now.send_modify(|s| {
            change(s);
            s.version += 1;
        });
    }

    fn inbox(&self) -> MutexGuard<'_, Inbox> {
        self.inbox.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Offers a decision (the web's side). Refused at once, with the reason, when the seat is
    /// not being asked or another offer is being checked; otherwise the answer comes from the
    /// host through the receiver.
    pub fn offer(&self, text: String) -> Result<oneshot::Receiver<Result<(), String>>, String> {
        let mut inbox = self.inbox();
        if !inbox.asking {
            return Err(match self.now.borrow().stage {
                Stage::Waiting => "the game has not begun: the table waits for every seat's contribution".to_owned(),
                Stage::Ended => "the table's games are over".to_owned(),
                Stage::Playing => "it is not this seat's turn".to_owned(),
            });
        }
        if inbox.offer.is_some() {
            return Err("another action of this seat is being checked".to_owned());
        }
        let (reply, rx) = oneshot::channel();
        inbox.offer = Some(Offer { text, reply });
        self.arrived.notify_all();
        Ok(rx)
    }

    /// Opens the inbox for a decision (the host's side).
    pub(crate) fn open(&self) {
        let mut inbox = self.inbox();
        inbox.asking = true;
        if let Some(stale) = inbox.offer.take() {
            stale.answer(Err("that action was sent for an earlier decision".into()));
        }
    }

    /// The next offer, waiting until `until` at most (the host's side).
    pub(crate) fn next_offer(&self, until: Instant) -> Option<Offer> {
        let mut inbox = self.inbox();
        loop {
            if let Some(o) = inbox.offer.take() {
                return Some(o);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            inbox = self.arrived.wait_timeout(inbox, left).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    /// Closes the inbox (the host's side): an offer still in it is refused with `why`.
    pub(crate) fn close(&self, why: &str) {
        let mut inbox = self.inbox();
        inbox.asking = false;
        if let Some(late) = inbox.offer.take() {
            late.answer(Err(why.to_owned()));
        }
    }
}

/// A seat's view with what a claim window open for *other* seats would tell taken out (the
/// discard claimable, which says that somebody may claim it): a person who is not asked sees the
/// discard in the river and waits, as at a table. `Game::seat_view` already keeps only the seat
/// itself among those to act in a window.
pub fn hide_others_window(view: &mut games::View) {
    match view {
        games::View::Riichi(v) => v.claim = None,
        games::View::Mcr(v) => v.claim = None,
        games::View::Hungarian(v) => v.claim = None,
        games::View::Tzq(_) | games::View::Tayu(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn desk() -> Arc<Desk> {
        Desk::new(SeatNow::new(1, "riichi", 0, vec!["A".into(), "B".into()], 1))
    }

    #[test]
    fn an_offer_is_refused_unless_the_seat_is_asked_and_only_one_is_checked_at_a_time() {
        let d = desk();
        d.publish(|s| s.stage = Stage::Playing);
        assert_eq!(d.offer("pass".into()).unwrap_err(), "it is not this seat's turn");
        d.open();
        let mut first = d.offer("discard 1m".into()).unwrap();
        assert!(d.offer("discard 2m".into()).unwrap_err().contains("being checked"));
        let o = d.next_offer(Instant::now() + Duration::from_secs(1)).expect("the offer");
        assert_eq!(o.text, "discard 1m");
        o.answer(Err("not legal".into()));
        assert_eq!(first.try_recv().unwrap(), Err("not legal".into()));
        // Another one while asked, then the host closes before taking it: refused, not kept.
        let mut second = d.offer("discard 3m".into()).unwrap();
        d.close("too late: the decision timed out");
        assert_eq!(second.try_recv().unwrap(), Err("too late: the decision timed out".into()));
        assert!(d.offer("discard 3m".into()).is_err());
    }

    #[test]
    fn the_host_waits_for_an_offer_until_its_deadline_and_wakes_when_one_arrives() {
        let d = desk();
        d.open();
        let t = Instant::now();
        assert!(d.next_offer(t + Duration::from_millis(50)).is_none());
        assert!(t.elapsed() >= Duration::from_millis(50));
        let d2 = d.clone();
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            d2.offer("pass".into()).unwrap()
        });
        let o = d.next_offer(Instant::now() + Duration::from_secs(5)).expect("woken by the offer");
        assert_eq!(o.text, "pass");
        o.answer(Ok(()));
        assert_eq!(sender.join().unwrap().try_recv().unwrap(), Ok(()));
    }

    #[test]
    fn every_change_is_a_new_version_and_wakes_the_watchers() {
        let d = desk();
        let mut w = d.watch();
        let v0 = d.now().version;
        d.publish(|s| s.to_act = true);
        assert!(w.has_changed().unwrap());
        assert_eq!(w.borrow_and_update().version, v0 + 1);
        assert!(d.now().to_act);
    }
}
