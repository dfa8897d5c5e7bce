//! A game's page: its verdict and the ways to review it, the players with their places (and for
//! riichi the points after uma and oka), the date it was played when its source says, the score
//! chart, every round by the players' names with a link to that hand in the viewer and what
//! happened in words (yaku and fan by name), the details the archive keeps and the
//! certificates. Built with maud (every value escaped).

use crate::auth::{session_caller, Caller};
use crate::hand_end::named;
use crate::html::{layout, stored_verdict, time, url, verdict, Chrome};
use crate::{data, names, PageError, State};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, PreEscaped};
use paifu_analyzer::plot;
use paifu_recorder::archive::{CertificateRow, EntryRow, GameDetail, Role, StoredBy};

/// Where each round starts and ends in the viewer, by round number (from a replay of the log).
#[derive(Clone, Debug, Default)]
pub(crate) struct Rounds {
    /// (round, first step, name) in order.
    starts: Vec<(u32, usize, String)>,
    steps: usize,
}

impl Rounds {
    /// The steps of game `bytes`'s rounds; none when it cannot be replayed.
    pub(crate) fn of(bytes: &[u8]) -> Rounds {
        match crate::viewer::step(bytes, Some(0), None) {
            Ok(s) => Rounds {
                starts: s.round_starts.iter().zip(&s.round_names).map(|((r, st), n)| (*r, *st, n.clone())).collect(),
                steps: s.steps,
            },
            Err(_) => Rounds::default(),
        }
    }

    /// Round `round`'s first step, the step that ends it, and its name.
    fn of_round(&self, round: u32) -> Option<(usize, usize, &str)> {
        let i = self.starts.iter().position(|r| r.0 == round)?;
        let end = self.starts.get(i + 1).map_or(self.steps, |r| r.1);
        Some((self.starts[i].1, end, self.starts[i].2.as_str()))
    }
}

/// An engine's round summary in words for people: seats by their players' names, yaku and fan
/// by their English names (a key followed by its value: `yakuhai_hatsu 1`, `mixed_straight 8`),
/// without the raw list of payments the columns beside it show.
pub(crate) fn summary_text(game: &str, text: &str, players: &[String]) -> String {
    let text = match text.find("; payments [") {
        Some(at) => &text[..at],
        None => text,
    };
    let text = named(text, players);
    let words: Vec<&str> = text.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let next_is_number = words.get(i + 1).is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
        let key = w.trim_end_matches([',', ':', ';']);
        let tail = &w[key.len()..];
        let name = match game {
            "riichi" if next_is_number => Some(names::yaku(key)).filter(|n| !n.original.is_empty()).map(|n| n.english),
            "mcr" if next_is_number => Some(names::fan(key)).filter(|n| !n.original.is_empty()).map(|n| n.english),
            _ => None,
        };
        match name {
            Some(n) => out.push(format!("{n}{tail}")),
            None => out.push((*w).to_owned()),
        }
    }
    out.join(" ")
}

/// When a game was played, from its source: Tenhou's game id begins with the date and hour
/// (Japan time) it was played, `2010081709gm-...`.
pub(crate) fn played(header: &serde_json::Value) -> Option<String> {
    let source = header.get("source")?;
    let id = source.get("id")?.as_str()?;
    let format = source.get("format")?.as_str()?;
    if !matches!(format, "tenhou6" | "mjlog") {
        return None;
    }
    let d = id.get(..10)?;
    if !d.bytes().all(|b| b.is_ascii_digit()) || !id[10..].starts_with("gm") {
        return None;
    }
    let (y, m, day, h) = (&d[..4], &d[4..6], &d[6..8], &d[8..10]);
    let ok = (1..=12).contains(&m.parse::<u8>().ok()?)
        && (1..=31).contains(&day.parse::<u8>().ok()?)
        && h.parse::<u8>().ok()? < 24;
    ok.then(|| format!("{y}-{m}-{day} {h}:00 Japan time (from Tenhou's game id)"))
}

fn stored_by(s: &StoredBy) -> Markup {
    html! {
        @match (s.origin.as_str(), &s.name, s.token) {
            ("web", Some(name), Some(t)) => { (name) " (token " (t) "), through the web" }
            ("cli", _, _) => "the command line (paifu ingest)",
            ("migrated", _, _) => "not recorded (stored before the archive recorded it)",
            (other, _, _) => (other),
        }
    }
}

/// The entries of one game side by side: the one that counts first.
fn entries_table(id: i64, entries: &[EntryRow]) -> Markup {
    html! {
        h2 #entries { "Entries of this game" }
        p { "These logs share the game digest (the same game) but differ in something the validator reads, such as \
             the seed: each is judged and certified on its own, and only a valid one counts." }
        div.scroll { table {
            thead { tr { th { "Entry" } th { "Verdict" } th { "Seed" } th { "Counts" } th.wide { "Added" } } }
            tbody {
                @for e in entries {
                    tr {
                        td { @if e.id == id { b { "#" (e.id) " (this one)" } } @else { a href={ "/games/" (e.id) } { "#" (e.id) } } }
                        td { (PreEscaped(verdict(e.valid, e.fault_code.as_deref()))) }
                        td { @if e.seed_revealed { "revealed" } @else { "secret" } }
                        td { @if e.counted { "✔ counts" } @else { "—" } }
                        td.wide { (time(e.added_at)) }
                    }
                }
            }
        } }
    }
}

/// A game's certificates, oldest first, and for an organiser a button to have it signed.
fn certificates(id: i64, certs: &[CertificateRow], caller: Option<&Caller>, server_key: &str) -> Markup {
    let signed_here = certs.iter().any(|c| c.signer == server_key);
    html! {
        h2 #certificates { "Certificates" }
        @if certs.is_empty() {
            p.note { "No certificate yet." }
        } @else {
            div.scroll { table {
                thead { tr { th { "Signed" } th { "Says" } th { "Signer" } } }
                tbody {
                    @for c in certs {
                        tr {
                            td { (c.issued_at) }
                            td { @if c.valid { "valid" } @else { "invalid" } }
                            td { code { (c.signer) } @if c.signer == server_key { " (this server)" } }
                        }
                    }
                }
            } }
        }
        @if let Some(c) = caller.filter(|c| c.token.may(Role::Organiser) && !signed_here) {
            form method="post" action={ "/games/" (id) "/certificate" } {
                input type="hidden" name="csrf" value=(c.csrf());
                button #sign type="submit" { "Sign with this server's key" }
            }
        }
    }
}

/// The riichi points after uma and oka of each seat, from the last round's facts.
fn final_points(g: &GameDetail) -> Option<Vec<Option<i64>>> {
    let facts = &g.rounds.last()?.facts;
    let points: Vec<Option<i64>> = g
        .seats
        .iter()
        .map(|s| facts.iter().find(|f| f.seat == Some(s.seat) && f.key == "final_points").map(|f| f.value))
        .collect();
    points.iter().any(Option::is_some).then_some(points)
}

/// Each seat's score after each round, from `start`.
fn scores_after(start: i64, seats: usize, rounds: &[paifu_core::RoundResult]) -> Vec<Vec<i64>> {
    let mut totals = vec![start; seats];
    rounds
        .iter()
        .map(|r| {
            for (t, x) in totals.iter_mut().zip(&r.deltas) {
                *t += x;
            }
            totals.clone()
        })
        .collect()
}

/// The game's page body.
pub(crate) fn body(id: i64, g: &GameDetail, rounds: &Rounds, caller: Option<&Caller>, server_key: &str) -> Markup {
    let title = g.game.as_deref().and_then(paifu_core::GameKind::from_name).map_or("Unknown game", |k| k.title());
    let game = g.game.as_deref().unwrap_or("");
    let players: Vec<String> = g.seats.iter().map(|s| s.player.clone()).collect();
    let signed_here = g.certificates.iter().any(|c| c.signer == server_key);
    let points = final_points(g);
    let played = g.header.as_ref().and_then(played);
    html! {
        h1 { "Game #" (id) ": " (title) }
        p.game-links {
            (PreEscaped(stored_verdict(g.valid, g.fault.as_ref().map(|f| f.code.as_str()), g.excerpt.as_deref())))
            @if g.form == "binary" { " · " a.button href={ "/games/" (id) "/view" } { "Step through it" } }
            " · "
            @if signed_here {
                a href={ "/games/" (id) "/certificate" } download { "Certificate" }
            } @else {
                a href="#certificates" { "No certificate by this server yet" }
            }
            " · " a href={ "/games/" (id) "/log" } download { "Log file" }
            " · " a href={ "/api/games/" (id) } { "JSON" }
        }
        @if let Some(p) = &played { p #played { "Played " (p) "." } }
        @if let Some(e) = &g.excerpt { p.note #excerpt { (e) ": no final standings" } }
        @if let Some(f) = &g.fault { div.fault role="alert" { b { "Fault:" } " " (f.describe()) } }
        @if g.entries.len() > 1 {
            (entries_table(id, &g.entries))
        } @else if g.valid && !g.counted {
            p.note { "Another entry of this game counts in statistics and standings." }
        }
        h2 { "Players and result" }
        div.scroll { table.players {
            thead { tr { th { "Seat" } th { "Player" } th.n { "Final score" } th.n { "Place" } @if points.is_some() { th.n { "Points" } } } }
            tbody {
                @for (i, s) in g.seats.iter().enumerate() {
                    tr {
                        td { (s.seat) }
                        td { a href={ "/players/" (url(&s.player)) } { (s.player) } }
                        td.n { (s.final_score.map_or("—".into(), |x| x.to_string())) }
                        td.n { (s.placement.map_or("—".into(), |x| x.to_string())) }
                        @if let Some(p) = &points {
                            td.n { (p.get(i).copied().flatten().map_or("—".into(), |p| format!("{:+.1}", p as f64 / 1000.0))) }
                        }
                    }
                }
            }
        } }
        @if points.is_some() { p.k { "Points: the final score less the return points, plus uma and oka as the game's ruleset sets them, in thousands." } }
        @if !g.rounds.is_empty() {
            @let start = plot::starting_score(g.final_scores.as_deref().unwrap_or(&[]), &g.rounds);
            h2 { "Scores over the rounds" }
            (PreEscaped(plot::score_chart(&players, &g.rounds, start, &format!("Game #{id}: scores after each round"))))
            h2 #rounds { "Rounds" }
            div.scroll { table.rounds {
                thead { tr {
                    th { "Round" } th { "What happened" }
                    @for p in &players { th.n { (p) } }
                } }
                tbody {
                    @for (r, totals) in g.rounds.iter().zip(scores_after(start, players.len(), &g.rounds)) {
                        tr data-round=(r.round) {
                            td {
                                @match rounds.of_round(r.round).filter(|_| g.form == "binary") {
                                    Some((from, to, name)) => {
                                        a.round-link href={ "/games/" (id) "/view?step=" (from) } { (name) }
                                        " " a.end-link href={ "/games/" (id) "/view?step=" (to) } title="The hand's end in the viewer" { "(end)" }
                                    }
                                    None => { "Round " (r.round) }
                                }
                            }
                            td { (summary_text(game, &r.summary, &players)) }
                            @for (d, t) in r.deltas.iter().zip(&totals) {
                                td.n { span.delta { (format!("{d:+}")) } br; span.k { (t) } }
                            }
                        }
                    }
                }
            } }
        }
        h2 { "Details" }
        dl.kv {
            dt { "Digest" } dd { code { (g.digest) } " (" (g.digest_kind) ")" }
            dt { "Ruleset" } dd { (g.ruleset.as_deref().unwrap_or("—")) }
            dt { "Records" } dd { (g.records) }
            dt { "Size uploaded" } dd { (g.size) " bytes" }
            dt { "Stored as" } dd { (g.form) }
            dt { "Source" } dd { (g.source.as_deref().unwrap_or("—")) }
            @if let Some(p) = &played { dt { "Played" } dd { (p) } }
            dt { "Added" } dd { (time(g.added_at)) }
            dt { "Checked by" } dd { (g.engine) }
            // A match whose bots ran unsandboxed (paifu arena --no-sandbox) says so in its header.
            @if let Some(s) = g.header.as_ref().and_then(|h| h["meta"]["sandbox"].as_str()) {
                dt { "Sandbox" } dd { (s) }
            }
            dt { "Tournaments" }
            dd {
                @if g.tournaments.is_empty() { "—" }
                @for (i, t) in g.tournaments.iter().enumerate() {
                    @if i > 0 { ", " }
                    a href={ "/tournaments/" (url(t)) } { (t) }
                }
            }
            dt { "Identity" } dd { code { (g.identity) } " (blake3 of the stored log)" }
            dt { "Stored by" } dd { (stored_by(&g.stored_by)) }
            dt { "Counts" } dd { @if g.counted { "yes: in statistics and standings" } @else { "no" } }
        }
        (certificates(id, &g.certificates, caller, server_key))
    }
}

/// `GET /games/{id}`.
pub(crate) async fn game(
    req: HttpRequest,
    state: web::Data<State>,
    id: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let id = data::parse_id(&id)?;
    let g = data::game(&state, id).await?;
    let rounds = if g.form == "binary" && !g.rounds.is_empty() {
        let (bytes, _) = data::log_bytes(&state, id).await?;
        web::block(move || Rounds::of(&bytes)).await.unwrap_or_default()
    } else {
        Rounds::default()
    };
    let caller = session_caller(&req, &state).await.ok().flatten();
    let b = body(id, &g, &rounds, caller.as_ref(), &state.public_hex);
    let viewer = caller.as_ref().map(Caller::viewer);
    let user = viewer.as_ref();
    let html =
        layout(&Chrome { title: &format!("Game #{id}"), active: "/games", user, scripts: &[] }, &b.into_string());
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_name_players_yaku_and_fan_and_drop_raw_payments() {
        let p = ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec();
        let s = summary_text(
            "riichi",
            "East 1 0 honba: seat 2 wins by ron on seat 0's 5m: riichi 1, yakuhai_hatsu 1: 2 han 40 fu, 2600",
            &p,
        );
        assert_eq!(s, "East 1 0 honba: Cy wins by ron on Ann's 5m: Riichi 1, Green dragon 1: 2 han 40 fu, 2600");
        let s = summary_text("mcr", "seat 1 wins on 5z from seat 0: mixed_straight 8 + last_tile 4 = 12", &p);
        assert_eq!(s, "Bo wins on 5z from Ann: Mixed Straight 8 + Last Tile 4 = 12");
        let s = summary_text("hungarian", "hand 3: seat 2 (S) wins on its own draw, 5m: 40 points x2 = 80; each hand: seat 0 4; payments [-48, -64, 160, -48]", &p);
        assert!(!s.contains("payments") && !s.contains('['), "{s}");
        assert!(s.starts_with("hand 3: Cy (S) wins"), "{s}");
    }

    #[test]
    fn tenhou_ids_carry_the_date_played() {
        let h = serde_json::json!({"source": {"format": "tenhou6", "id": "2010081709gm-00a9-0000-fe3371ad"}});
        assert_eq!(played(&h).as_deref(), Some("2010-08-17 09:00 Japan time (from Tenhou's game id)"));
        let h = serde_json::json!({"source": {"format": "mjai", "id": "2010081709gm-00a9-0000-fe3371ad"}});
        assert_eq!(played(&h), None);
        let h = serde_json::json!({"source": {"format": "tenhou6", "id": "2010991709gm-x"}});
        assert_eq!(played(&h), None);
        assert_eq!(played(&serde_json::json!({})), None);
    }
}
