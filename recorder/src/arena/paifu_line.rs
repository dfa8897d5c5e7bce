//! Paifu's own line protocol, for every game (docs/protocol.md, "The Paifu line protocol").

use super::protocol::{Answer, Protocol, Table};
use paifu_core::log::Options;
use paifu_core::{Game, Seat};
use serde::Serialize;

/// The Paifu line protocol's version, sent in its `start` message.
pub const PAIFU_PROTOCOL: &str = "paifu/1";

/// Paifu's own line protocol (docs/protocol.md): JSON objects in, action notation out.
///
/// - `{"type":"start","protocol":"paifu/1","game":…,"ruleset":…,"options":{…},"seat":S,
///   "names":[…],"number":K}`, answered with anything (`ok`);
/// - `{"type":"ask","seat":S,"events":[{"seq":N,"seat":T,"action":"…"},…],"view":{…},
///   "legal":["…",…]}`: the decisions played since this seat was last asked that it sees at the
///   table (every seat's, in order, but another seat's pass on a claim and its incidents while a
///   claim window is open: `Game::hidden_from_others`), numbered by `seq` among the events this
///   seat was told, the seat's view (what it sees at the table, nothing hidden from it shown),
///   and its legal actions; answered with one of `legal`, as written;
/// - `{"type":"end","scores":[…],"placements":[…]}`, answered with anything.
pub struct PaifuLine {
    /// Decisions since this seat's last question that it sees: (seq, seat, notation).
    events: Vec<Event>,
    /// Events told to this seat so far (the next one's `seq`).
    seq: u32,
}

#[derive(Serialize)]
struct Event {
    seq: u32,
    seat: Seat,
    action: String,
}

#[derive(Serialize)]
struct Start<'a> {
    r#type: &'static str,
    protocol: &'static str,
    game: &'a str,
    ruleset: &'a str,
    options: &'a Options,
    seat: Seat,
    names: &'a [String],
    number: u32,
}

#[derive(Serialize)]
struct Ask<'a, V> {
    r#type: &'static str,
    seat: Seat,
    events: &'a [Event],
    view: V,
    legal: Vec<String>,
}

#[derive(Serialize)]
struct End {
    r#type: &'static str,
    scores: Vec<i64>,
    placements: Vec<u32>,
}

impl PaifuLine {
    pub fn new() -> PaifuLine {
        PaifuLine { events: Vec::new(), seq: 0 }
    }
}

impl Default for PaifuLine {
    fn default() -> Self {
        PaifuLine::new()
    }
}

/// A message as one JSON line; the messages are plain data, so this cannot fail in practice,
/// and a failure is sent as an object that says so rather than a panic.
fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":{:?}}}", e.to_string()))
}

impl<G: Game> Protocol<G> for PaifuLine {
    fn begin(&mut self, table: &Table<'_>, _game: &G) -> Vec<String> {
        vec![line(&Start {
            r#type: "start",
            protocol: PAIFU_PROTOCOL,
            game: table.game,
            ruleset: table.ruleset,
            options: table.options,
            seat: table.seat,
            names: table.names,
            number: table.number,
        })]
    }

    fn observe(&mut self, seat: Seat, action: &G::Action, _game: &G, seen: bool) {
        if seen {
            self.events.push(Event { seq: self.seq, seat, action: action.to_string() });
            self.seq += 1;
        }
    }

    fn ask(&mut self, game: &G, seat: Seat) -> String {
        let legal = game.legal_actions(seat).iter().map(ToString::to_string).collect();
        let text = line(&Ask { r#type: "ask", seat, events: &self.events, view: game.seat_view(seat), legal });
        self.events.clear();
        text
    }

    fn read(&mut self, _game: &G, _seat: Seat, line: &str) -> Answer<G::Action> {
        let text = line.trim();
        match text.parse::<G::Action>() {
            Ok(a) => Answer::Action(a),
            Err(e) => Answer::Unreadable(format!("{text:?} is not an action: {e}")),
        }
    }

    fn end(&mut self, game: &G) -> Vec<String> {
        vec![line(&End { r#type: "end", scores: game.scores(), placements: game.placements() })]
    }
}
