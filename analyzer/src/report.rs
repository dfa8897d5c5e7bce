//! A tournament's audit report: one self-contained HTML page (standings, every game with its
//! verdict, certificates and a link to replay it, charts) and CSV tables, from the manifest the
//! report publishes (docs/report.md).

use crate::duplicate::{DuplicateSummary, DuplicateTable};
use crate::plot::{self, escape as esc};
use crate::spreadsheet::{table, Cell};
use paifu_core::manifest::{ManifestBody, ManifestGame, StandingLine};
use std::collections::BTreeMap;
use std::fmt::Write;

/// `placement_sum / games` to two decimals, for reading (ranks compare the exact fractions).
fn average(l: &StandingLine) -> String {
    if l.games == 0 {
        return "-".into();
    }
    format!("{:.2}", l.placement_sum as f64 / l.games as f64)
}

/// Riichi points, 1000 score units to a point, with one decimal and a sign.
fn points(p: Option<i64>) -> String {
    p.map_or_else(String::new, |p| format!("{:+.1}", p as f64 / 1000.0))
}

/// A line's penalties for reading: their count, and what they cost (score units) when the
/// rulesets set a cost: `1 (-8000)`; empty when none.
pub fn penalties(l: &StandingLine) -> String {
    match (l.penalties, l.penalty_points) {
        (0, _) => String::new(),
        (n, Some(p)) => format!("{n} ({})", -p),
        (n, None) => format!("{n} (no cost in the ruleset)"),
    }
}

/// The standings, table by table: `game,ruleset,rank,player,games,firsts,placement_sum,average_place,total_score,points,penalties,penalty_points`
/// (text cells neutralised against formulas, numbers as they are: `spreadsheet.rs`). A line
/// below `min_games` has the rank `unranked (N of M games)`; `penalty_points` is empty when the
/// rulesets set no cost.
pub fn standings_csv(lines: &[StandingLine], min_games: Option<u64>) -> String {
    table(
        &[
            "game",
            "ruleset",
            "rank",
            "player",
            "games",
            "firsts",
            "placement_sum",
            "average_place",
            "total_score",
            "points",
            "penalties",
            "penalty_points",
        ],
        lines.iter().map(|l| {
            vec![
                Cell::Text(&l.game),
                Cell::Text(&l.ruleset),
                // A number, or `unranked (N of M games)`: both written by Paifu, never a name.
                Cell::Number(l.rank_text(min_games)),
                Cell::Text(&l.player),
                Cell::number(l.games),
                Cell::number(l.firsts),
                Cell::number(l.placement_sum),
                Cell::Number(average(l)),
                Cell::number(l.total_score),
                Cell::Number(l.points.map(|p| (p as f64 / 1000.0).to_string()).unwrap_or_default()),
                Cell::number(l.penalties),
                Cell::Number(l.penalty_points.map(|p| p.to_string()).unwrap_or_default()),
            ]
        }),
    )
}

/// Every game: `file,blake3,log_digest,game,ruleset,seats,verdict,fault,final_scores,counted,certificates`
/// (seats and scores separated by `;`, certificates by their files; text cells neutralised).
pub fn games_csv(games: &[ManifestGame]) -> String {
    let rows: Vec<[String; 11]> = games
        .iter()
        .map(|g| {
            let scores =
                g.verdict.final_scores.as_ref().map(|s| s.iter().map(i64::to_string).collect::<Vec<_>>().join(";"));
            let certs: Vec<&str> = g.certificates.iter().map(|c| c.file.as_str()).collect();
            [
                g.file.clone(),
                g.blake3.to_hex(),
                g.log_digest.map(|d| d.to_hex()).unwrap_or_default(),
                g.game.clone(),
                g.ruleset.clone(),
                g.seats.join(";"),
                g.verdict.verdict.clone(),
                g.verdict.fault.clone().unwrap_or_default(),
                scores.unwrap_or_default(),
                g.counted.to_string(),
                certs.join(";"),
            ]
        })
        .collect();
    table(
        &[
            "file",
            "blake3",
            "log_digest",
            "game",
            "ruleset",
            "seats",
            "verdict",
            "fault",
            "final_scores",
            "counted",
            "certificates",
        ],
        rows.iter().map(|r| {
            // The scores list (`-500;500`) is numbers Paifu wrote, not text from a log.
            r.iter().enumerate().map(|(i, c)| if i == 8 { Cell::Number(c.clone()) } else { Cell::Text(c) }).collect()
        }),
    )
}

/// Where each game links to be replayed: the dashboard's viewer when the report knows the
/// dashboard's address, else the log file with the command that steps through it.
#[derive(Clone, Debug)]
pub enum Replay {
    /// `{url}/games/{id}/view`.
    Dashboard { url: String, id: i64 },
    /// The log file, relative to the report (`games/...`).
    File(String),
}

/// How each standings table with points counts them, by (game, ruleset): each distinct setting.
pub type Terms = BTreeMap<(String, String), Vec<String>>;

/// A table's duplicate games (`paifu arena --duplicate`, duplicate tables): each player's mean
/// rank points a game over the complete sets, with its 95% interval.
fn duplicate_html(body: &mut String, d: &DuplicateSummary) {
    let _ = writeln!(
        body,
        "<h4>Duplicate sets</h4>\n<p class=\"terms\">{}.</p>",
        esc(d.heading().trim_start_matches("duplicate: "))
    );
    if d.standings.is_empty() {
        return;
    }
    body.push_str(
        "<table class=\"duplicate\"><thead><tr><th>Player</th><th>Mean rank points</th><th>95% interval</th>\
         <th>Games</th></tr></thead><tbody>\n",
    );
    for s in &d.standings {
        let interval = s.half_width.map(|h| format!("± {h:.3} ({:.3} to {:.3})", s.mean - h, s.mean + h));
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{:.3}</td><td>{}</td><td>{}</td></tr>",
            esc(&s.name),
            s.mean,
            interval.unwrap_or_default(),
            s.games
        );
    }
    body.push_str("</tbody></table>\n");
}

/// The report's page. `replay` holds each game's link, in the order of `m.games`, and `notes` what
/// its log's header says that a reader must know (a match whose bots ran unsandboxed); `logs` is
/// the folder of logs relative to the page (`games`); `terms` how tables with points count them;
/// `duplicate` the duplicate sets' standings of the tournament's games, a table per game and
/// ruleset (`paifu_analyzer::duplicate`).
pub fn tournament_html(
    m: &ManifestBody,
    replay: &[Replay],
    notes: &[Option<String>],
    logs: &str,
    terms: &Terms,
    duplicate: &[DuplicateTable],
) -> String {
    let mut tables: BTreeMap<(&str, &str), Vec<&StandingLine>> = BTreeMap::new();
    for l in &m.standings {
        tables.entry((l.game.as_str(), l.ruleset.as_str())).or_default().push(l);
    }
    let mut body = String::new();
    let counted = m.games.iter().filter(|g| g.counted).count();
    let _ = write!(
        body,
        "<h1>{name}</h1>\n<p>{n} games, {counted} counted in the standings (valid, and certified valid by a key the \
         tournament trusts). Signed {at} by <code>{signer}</code>.</p>\n<p>Merkle root of every game and \
         certificate: <code id=\"root\">{root}</code>. Check the whole tournament with <code>paifu verify \
         tournament manifest.json --key SIGNER.pub --logs {logs}</code> (docs/report.md).</p>\n",
        name = esc(&m.tournament),
        n = m.games.len(),
        at = esc(&m.issued_at),
        signer = m.signer,
        root = m.root,
    );
    let keys: Vec<String> = m.trusted_keys.iter().map(|k| format!("<code>{k}</code>")).collect();
    let _ = writeln!(
        body,
        "<p>Keys trusted: {}.</p>",
        if keys.is_empty() { "none (no game counts)".to_owned() } else { keys.join(", ") }
    );
    body.push_str("<h2>Standings</h2>\n");
    if tables.is_empty() {
        body.push_str("<p>No game counts yet.</p>\n");
    }
    for ((game, ruleset), lines) in &tables {
        let title = paifu_core::GameKind::from_name(game).map_or((*game).to_owned(), |k| k.title().to_owned());
        let riichi = lines.iter().any(|l| l.points.is_some());
        let _ = write!(
            body,
            "<section class=\"table\"><h3>{} ({} rules)</h3>\n<table><thead><tr><th>Rank</th><th>Player</th>\
             <th>Games</th>{}<th>Average place</th><th>Firsts</th><th>Total score</th><th>Penalties</th></tr>\
             </thead><tbody>\n",
            esc(&title),
            esc(ruleset),
            if riichi { "<th>Points</th>" } else { "" }
        );
        for l in lines {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td>{}<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&l.rank_text(m.min_games)),
                esc(&l.player),
                l.games,
                if riichi { format!("<td>{}</td>", points(l.points)) } else { String::new() },
                average(l),
                l.firsts,
                l.total_score,
                esc(&penalties(l))
            );
        }
        if let Some(min) = m.min_games {
            let _ = writeln!(
                body,
                "<p class=\"terms\">A ranked line needs at least {min} counted games; lines with fewer follow, \
                 unranked.</p>"
            );
        }
        if lines.iter().any(|l| l.penalties > 0) {
            body.push_str(
                "<p class=\"terms\">Penalties: the rule incidents recorded against the player (chombo, false \
                 win, talk), and in brackets what they cost as the ruleset charges them at the table, already in \
                 the scores.</p>\n",
            );
        }
        body.push_str("</tbody></table>\n");
        if let Some(t) = terms.get(&((*game).to_owned(), (*ruleset).to_owned())) {
            let _ = writeln!(
                body,
                "<p class=\"terms\">Ranked by points (final score less the return points, \
                 with oka and uma, in thousands), then average place, then firsts. Points here: {}.</p>",
                esc(&t.join("; "))
            );
        }
        if let Some(d) = duplicate.iter().find(|d| d.game == *game && d.ruleset == *ruleset) {
            duplicate_html(&mut body, &d.summary);
        }
        let values: Vec<(String, f64)> =
            lines.iter().map(|l| (l.player.clone(), l.placement_sum as f64 / l.games.max(1) as f64)).collect();
        body.push_str("<figure>");
        body.push_str(&plot::bars(
            &format!("Average place, {title} ({ruleset} rules)"),
            &values,
            "player",
            "average place (1 is best)",
        ));
        body.push_str("</figure></section>\n");
    }
    body.push_str(
        "<h2>Games</h2>\n<table><thead><tr><th>Game</th><th>Players</th><th>Verdict</th><th>Final scores</th>\
         <th>Counted</th><th>Log (blake3)</th><th>Certificates</th><th>Replay</th></tr></thead><tbody>\n",
    );
    // Games in the order they were played when the dashboard's numbers say it (the archive
    // numbers games as they are stored), each game's kind together; else by kind and file.
    let mut order: Vec<(usize, (&ManifestGame, &Replay))> = m.games.iter().zip(replay).enumerate().collect();
    order.sort_by_key(|(_, (g, r))| {
        let id = match r {
            Replay::Dashboard { id, .. } => Some(*id),
            Replay::File(_) => None,
        };
        (g.game.clone(), id, g.file.clone())
    });
    for (i, (g, r)) in order {
        let certs: Vec<String> = g
            .certificates
            .iter()
            .map(|c| {
                format!("<a href=\"{logs}/{f}\">{signer}…</a>", f = esc(&c.file), signer = &c.signer.to_hex()[..12])
            })
            .collect();
        let link = match r {
            Replay::Dashboard { url, id } => {
                format!("<a href=\"{}/games/{id}/view\">step through</a>", esc(url.trim_end_matches('/')))
            }
            Replay::File(f) => format!("<code>paifu show {}</code>", esc(f)),
        };
        let _ = writeln!(
            body,
            "<tr class=\"{cls}\"><td>{game} ({ruleset})</td><td>{players}</td><td>{verdict}</td><td>{scores}</td><td>{counted}</td>\
             <td><a href=\"{logs}/{file}\"><code>{short}</code></a></td><td>{certs}</td><td>{link}</td></tr>",
            cls = if g.verdict.fault.is_some() { "invalid" } else { "ok" },
            game = esc(&g.game),
            ruleset = esc(&g.ruleset),
            players = esc(&g.seats.join(", ")),
            verdict = match notes.get(i).and_then(Option::as_ref) {
                Some(n) => format!("{}<br><small class=\"note\">{}</small>", verdict_text(g), esc(n)),
                None => verdict_text(g),
            },
            scores = final_scores_text(g),
            counted = if g.counted { "yes" } else { "no" },
            file = esc(&g.file),
            short = &g.blake3.to_hex()[..16],
            certs = if certs.is_empty() { "none by a trusted key".to_owned() } else { certs.join(" ") },
        );
    }
    body.push_str("</tbody></table>\n<p>Also as CSV: <a href=\"standings.csv\">standings.csv</a>, <a href=\"games.csv\">games.csv</a>; the signed list: <a href=\"manifest.json\">manifest.json</a>.</p>\n");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>{title} — tournament report</title><style>{STYLE}</style>\
         </head><body><main>\n{body}</main></body></html>\n",
        title = esc(&m.tournament)
    )
}

/// A game's verdict in words: `valid`, `invalid: truncated`, or an excerpt's rounds.
fn verdict_text(g: &ManifestGame) -> String {
    match &g.verdict.fault {
        Some(code) => format!("{}: <code>{}</code>", esc(&g.verdict.verdict), esc(code)),
        None => esc(&g.verdict.verdict),
    }
}

/// Each player's final score, by name: `Aiko 32000, Bence 28000`.
fn final_scores_text(g: &ManifestGame) -> String {
    match &g.verdict.final_scores {
        Some(scores) => {
            esc(&g.seats.iter().zip(scores).map(|(p, s)| format!("{p} {s}")).collect::<Vec<_>>().join(", "))
        }
        None => "—".to_owned(),
    }
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;color:#111;background:#fff}\
main{max-width:72rem;margin:auto;padding:1rem}table{border-collapse:collapse;margin:.5rem 0;display:block;\
overflow-x:auto}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}th{background:#eee}\
tr.invalid td{background:#fde8e8}code{font-size:.9em;word-break:break-all}figure{margin:0;max-width:40rem}\
svg{width:100%;height:auto}";

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::manifest::{ManifestCertificate, ManifestVerdict};
    use paifu_core::Digest;

    fn line(player: &str, rank: u32, games: u64, placement_sum: u64, points: Option<i64>) -> StandingLine {
        StandingLine {
            game: "riichi".into(),
            ruleset: "tenhou".into(),
            rank,
            player: player.into(),
            games,
            firsts: 1,
            placement_sum,
            total_score: 1000,
            points,
            penalties: 0,
            penalty_points: None,
        }
    }

    fn game(file: &str, fault: Option<&str>) -> ManifestGame {
        ManifestGame {
            file: file.into(),
            blake3: Digest([3; 32]),
            log_digest: None,
            game: "riichi".into(),
            ruleset: "tenhou".into(),
            seats: vec!["A,1".into(), "<B>".into()],
            verdict: ManifestVerdict::stored(fault.is_none(), fault.map(str::to_owned), Some(vec![10, -10]), None),
            counted: fault.is_none(),
            certificates: vec![ManifestCertificate {
                file: "x.cert.json".into(),
                blake3: Digest([4; 32]),
                signer: Digest([5; 32]),
            }],
        }
    }

    #[test]
    fn the_csv_tables_neutralise_names_that_begin_as_formulas_and_keep_negative_numbers() {
        let s = standings_csv(&[line("=HYPERLINK(\"http://evil\",\"Aiko\")", 1, 3, 4, Some(-4_000))], None);
        let row = s.lines().nth(1).unwrap();
        assert!(row.contains(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"Aiko\"\")\",3,"), "{row}");
        assert!(row.ends_with(",1000,-4,0,"), "points stay a number: {row}");
        for (name, cell) in [("+1", "'+1"), ("-Bo", "'-Bo"), ("@me", "'@me"), ("\tTab", "'\tTab")] {
            let s = standings_csv(&[line(name, 1, 3, 4, None)], None);
            assert!(s.lines().nth(1).unwrap().contains(&format!(",1,{cell},3,")), "{s}");
        }
        let mut g = game("riichi-03.paifu", None);
        g.seats = vec!["=1+1".into(), "Bo".into()];
        g.verdict.final_scores = Some(vec![-4000, 4000]);
        let row = games_csv(&[g]).lines().nth(1).unwrap().to_owned();
        assert!(row.contains(",'=1+1;Bo,valid,,-4000;4000,true,"), "{row}");
    }

    #[test]
    fn the_csv_tables_quote_names_and_keep_exact_values() {
        let s = standings_csv(&[line("Aiko, the first", 1, 3, 4, Some(-12_300))], None);
        assert_eq!(s.lines().nth(1), Some("riichi,tenhou,1,\"Aiko, the first\",3,1,4,1.33,1000,-12.3,0,"));
        let g = games_csv(&[game("riichi-03.paifu", Some("claim_mismatch"))]);
        let row = g.lines().nth(1).unwrap();
        assert!(row.starts_with("riichi-03.paifu,0303"), "{row}");
        assert!(row.contains(",\"A,1;<B>\",invalid,claim_mismatch,,false,x.cert.json"), "{row}");
    }

    #[test]
    fn the_page_shows_standings_games_root_and_links_escaped() {
        let k = paifu_core::cert::SecretKey::from_bytes(&[9; 32]);
        let m = ManifestBody::new(
            "Cup <1>".into(),
            "2026-11-23T00:00:00Z".into(),
            &k.verifying_key(),
            vec![Digest([5; 32])],
            vec![game("b.paifu", None), game("a.paifu", Some("truncated"))],
            vec![line("Aiko", 1, 2, 2, Some(30_000)), line("Bao", 2, 2, 6, Some(-30_000))],
        );
        let terms: Terms =
            [(("riichi".to_owned(), "tenhou".to_owned()), vec!["uma +20/+10/-10/-20".to_owned()])].into();
        let html = tournament_html(
            &m,
            &[Replay::File("games/a.paifu".into()), Replay::Dashboard { url: "https://club.example/".into(), id: 7 }],
            &[None, Some("bots <unsandboxed>".into())],
            "games",
            &terms,
            &[],
        );
        assert!(html.contains("<small class=\"note\">bots &lt;unsandboxed&gt;</small>"), "a game's note shown");
        assert!(html.contains("Points here: uma +20/+10/-10/-20."), "the options that count points are shown");
        assert!(html.contains("<h1>Cup &lt;1&gt;</h1>"));
        assert!(html.contains(&format!("<code id=\"root\">{}</code>", m.root)));
        assert!(html.contains("<td>Aiko</td><td>2</td><td>+30.0</td><td>1.00</td>"), "points and exact place shown");
        assert!(html.contains("<a href=\"https://club.example/games/7/view\">step through</a>"));
        assert!(html.contains("<code>paifu show games/a.paifu</code>"));
        assert!(html.contains("A,1, &lt;B&gt;"), "seat names escaped");
        assert!(html.contains("<tr class=\"invalid\"><td>riichi (tenhou)</td>"));
        assert!(html.contains("<td>invalid: <code>truncated</code></td>"), "the verdict in words");
        assert!(html.contains("<td>A,1 10, &lt;B&gt; -10</td>"), "final scores by name, not an array");
        assert!(!html.contains("[10, -10]"), "no raw arrays");

        assert!(html.contains("<svg"), "a chart per table");
        assert!(!html.contains("<script"), "no script");
        assert!(!html.contains("src=\"http"), "nothing loaded from elsewhere");
    }

    #[test]
    fn the_games_are_listed_in_the_order_they_were_stored() {
        let k = paifu_core::cert::SecretKey::from_bytes(&[9; 32]);
        let m = ManifestBody::new(
            "Cup".into(),
            "2026-11-23T00:00:00Z".into(),
            &k.verifying_key(),
            vec![],
            vec![game("a.paifu", None), game("b.paifu", None)],
            vec![],
        );
        let replay: Vec<Replay> = m
            .games
            .iter()
            .map(|g| Replay::Dashboard { url: "http://x".into(), id: if g.file == "a.paifu" { 9 } else { 3 } })
            .collect();
        let html = tournament_html(&m, &replay, &[], "games", &Terms::new(), &[]);
        let (a, b) = (html.find("games/a.paifu\"").unwrap(), html.find("games/b.paifu\"").unwrap());
        assert!(b < a, "game 3 (b.paifu) before game 9 (a.paifu), whatever their files' names");
    }
}
