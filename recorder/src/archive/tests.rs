use super::*;
use crate::samples::{tzq_bytes, tzq_log};
use paifu_core::log::Encoding;

fn temp_archive() -> (tempfile::TempDir, Archive) {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = Archive::open(&dir.path().join("test.db")).expect("open archive");
    (dir, a)
}

#[test]
fn opens_with_wal_and_current_schema() {
    let (dir, a) = temp_archive();
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    let mode: String = a.conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    drop(a);
    // Reopening applies nothing twice.
    let a = Archive::open(&dir.path().join("test.db")).unwrap();
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
}

#[test]
fn refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    {
        let c = Connection::open(&path).unwrap();
        c.execute_batch("PRAGMA user_version = 999").unwrap();
    }
    match Archive::open(&path) {
        Err(ArchiveError::TooNew { found: 999, .. }) => {}
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a newer schema was accepted"),
    }
}

#[test]
fn same_log_in_either_encoding_is_stored_once() {
    let (_d, mut a) = temp_archive();
    let log = tzq_log("archive/once", ["Ann", "Bo"]);
    let jsonl = paifu_core::log::encode(&log, Encoding::JsonLines);
    let bin = paifu_core::log::encode(&log, Encoding::Binary);
    let first = a.ingest_bytes(&jsonl, Some("a.paifu.jsonl"), None).unwrap();
    assert!(first.new && first.valid);
    assert_eq!(first.digest, log.digest().to_hex());
    let again = a.ingest_bytes(&bin, Some("a.paifu"), Some("Cup")).unwrap();
    assert!(!again.new);
    assert_eq!(again.id, first.id);
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid, s.players, s.tournaments), (1, 1, 0, 2, 1));
    // The second ingest still put the game in the tournament.
    assert_eq!(a.tournaments().unwrap()[0].games, 1);
    // Stored in binary form, and it decodes back to the same log.
    let (bytes, form) = a.log_bytes(first.id).unwrap().unwrap();
    assert_eq!(form, StoredForm::Binary);
    assert_eq!(bytes, bin);
}

#[test]
fn stores_results_seats_and_placements() {
    let (_d, mut a) = temp_archive();
    let log = tzq_log("archive/detail", ["Ann", "Bo"]);
    let st = a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::JsonLines), None, None).unwrap();
    let g = a.game(st.id).unwrap().unwrap();
    let report = paifu_core::validate_bytes(&paifu_core::log::encode(&log, Encoding::Binary));
    let outcome = report.verdict.outcome().unwrap();
    assert_eq!(g.final_scores.as_ref(), Some(&outcome.final_scores));
    assert_eq!(g.rounds, outcome.rounds);
    assert_eq!(g.seats.len(), 2);
    assert_eq!(g.seats[0].player, "Ann");
    assert_eq!(g.seats.iter().map(|s| s.placement.unwrap()).collect::<Vec<_>>(), outcome.placements);
    assert_eq!(g.game.as_deref(), Some("tzq"));
    assert!(g.valid && g.fault.is_none());
    assert!(a.game(st.id + 100).unwrap().is_none());
}

#[test]
fn invalid_and_undecodable_logs_are_kept_with_their_fault() {
    let (_d, mut a) = temp_archive();
    // Truncated: drop the last record.
    let mut log = tzq_log("archive/invalid", ["Ann", "Bo"]);
    log.records.pop();
    let st = a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::JsonLines), None, None).unwrap();
    assert!(st.new && !st.valid);
    assert_eq!(st.fault.as_ref().unwrap().code, ErrorCode::Truncated);
    let g = a.game(st.id).unwrap().unwrap();
    assert_eq!(g.fault.unwrap().code, ErrorCode::Truncated);
    assert_eq!(g.form, "binary");
    assert!(g.final_scores.is_none());
    // Garbage is kept raw, keyed by its bytes.
    let junk = b"this is not a log\n\xff\xfe";
    let st2 = a.ingest_bytes(junk, Some("junk.paifu"), None).unwrap();
    assert!(!st2.valid);
    let g2 = a.game(st2.id).unwrap().unwrap();
    assert_eq!(g2.digest_kind, "bytes");
    assert_eq!(g2.form, "raw");
    assert_eq!(a.log_bytes(st2.id).unwrap().unwrap().0, junk.to_vec());
    assert!(!a.ingest_bytes(junk, None, None).unwrap().new);
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid), (2, 0, 2));
    assert!(s.faults.iter().any(|(c, n)| c == "truncated" && *n == 1));
}

#[test]
fn lists_and_filters_games_with_pages() {
    let (_d, mut a) = temp_archive();
    let names = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"]];
    for i in 0..9 {
        let bytes = tzq_bytes(&format!("archive/list/{i}"), names[i % 3], Encoding::Binary);
        a.ingest_bytes(&bytes, None, if i < 4 { Some("Spring Cup") } else { None }).unwrap();
    }
    a.ingest_bytes(b"junk", None, None).unwrap();
    let all = a.list_games(&Filter::default(), 1, 4).unwrap();
    assert_eq!(all.total, 10);
    assert_eq!(all.rows.len(), 4);
    assert!(all.rows.windows(2).all(|w| w[0].id > w[1].id));
    let last = a.list_games(&Filter::default(), 3, 4).unwrap();
    assert_eq!(last.rows.len(), 2);
    let ann = a.list_games(&Filter { player: Some("Ann".into()), ..Filter::default() }, 1, 50).unwrap();
    assert_eq!(ann.total, 6);
    assert!(ann.rows.iter().all(|r| r.players.iter().any(|p| p == "Ann")));
    let cup = a.list_games(&Filter { tournament: Some("Spring Cup".into()), ..Filter::default() }, 1, 50).unwrap();
    assert_eq!(cup.total, 4);
    let bad = a.list_games(&Filter { valid: Some(false), ..Filter::default() }, 1, 50).unwrap();
    assert_eq!(bad.total, 1);
    let tzq = a.list_games(&Filter { game: Some("tzq".into()), valid: Some(true), ..Filter::default() }, 1, 50);
    assert_eq!(tzq.unwrap().total, 9);
    // All at once: the pages one after the other.
    let pages: Vec<GameRow> = (1..=3).flat_map(|p| a.list_games(&Filter::default(), p, 4).unwrap().rows).collect();
    assert_eq!(a.all_games(&Filter::default()).unwrap(), pages);
    let all_ann = a.all_games(&Filter { player: Some("Ann".into()), ..Filter::default() }).unwrap();
    assert_eq!(all_ann, ann.rows);
    // Input that looks like SQL is just a name.
    let inj = Filter { player: Some("x' OR '1'='1".into()), ..Filter::default() };
    assert_eq!(a.list_games(&inj, 1, 50).unwrap().total, 0);
    // Statistics input: every valid game matching.
    let mut seen = 0;
    let n = a
        .for_each_game(&Filter { player: Some("Bo".into()), ..Filter::default() }, |g| {
            assert!(g.players.iter().any(|p| p == "Bo"));
            assert_eq!(g.placements, paifu_core::game::placements_by_score(&g.final_scores));
            seen += 1;
        })
        .unwrap();
    assert_eq!((n, seen), (6, 6));
    // Players and standings.
    let players = a.players(None, 10, 0).unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(a.players(Some("an"), 10, 0).unwrap().len(), 1);
    assert_eq!(a.player("Cy").unwrap().unwrap().games, 6);
    let st = a.standings("Spring Cup").unwrap().unwrap();
    assert_eq!(st.iter().map(|s| s.games).sum::<u64>(), 8);
    assert_eq!(st[0].rank, 1);
    assert!(st.windows(2).all(|w| w[0].average_placement <= w[1].average_placement));
    assert!(a.standings("nope").unwrap().is_none());
}

#[test]
fn filters_games_by_when_they_were_stored() {
    let (_d, mut a) = temp_archive();
    let names = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"], ["Ann", "Cy"]];
    let mut ids = Vec::new();
    for (i, seats) in names.iter().enumerate() {
        ids.push(
            a.ingest_bytes(&tzq_bytes(&format!("archive/since/{i}"), *seats, Encoding::Binary), None, None).unwrap().id,
        );
    }
    // Stored at 1 000, 2 000, 3 000 and 4 000 seconds after the epoch.
    for (k, id) in ids.iter().enumerate() {
        a.conn.execute("UPDATE logs SET added_at = ?1 WHERE id = ?2", params![1000 * (k as i64 + 1), id]).unwrap();
    }
    let since = |t: i64, player: Option<&str>| Filter {
        since: Some(t),
        player: player.map(str::to_owned),
        ..Filter::default()
    };
    // At or after: the boundary is included.
    let page = a.list_games(&since(2000, None), 1, 50).unwrap();
    assert_eq!(page.total, 3);
    assert!(page.rows.iter().all(|r| r.added_at >= 2000));
    assert_eq!(a.list_games(&since(2001, None), 1, 50).unwrap().total, 2);
    assert_eq!(a.list_games(&since(4001, None), 1, 50).unwrap().total, 0);
    assert_eq!(a.list_games(&since(i64::MIN, None), 1, 50).unwrap().total, 4);
    // With another filter, both hold.
    let ann = a.list_games(&since(2000, Some("Ann")), 1, 50).unwrap();
    assert_eq!(ann.rows.iter().map(|r| r.id).collect::<Vec<_>>(), vec![ids[3], ids[2]]);
    // Statistics input sees the same games.
    let mut seen = Vec::new();
    assert_eq!(a.for_each_game(&since(3000, None), |g| seen.push(g.players)).unwrap(), 2);
    assert_eq!(seen, vec![vec!["Cy", "Ann"], vec!["Ann", "Cy"]]);
    // A filter without a time says nothing about one (the web API's JSON is unchanged).
    let json = serde_json::to_value(Filter::default()).unwrap();
    assert!(json.get("since").is_none(), "{json}");
    assert_eq!(serde_json::to_value(since(5, None)).unwrap()["since"], 5);
}

#[test]
fn certificates_are_kept_per_signer() {
    let (_d, mut a) = temp_archive();
    let st = a.ingest_bytes(&tzq_bytes("archive/cert", ["A", "B"], Encoding::Binary), None, None).unwrap();
    assert!(a.certificate(st.id, "k1").unwrap().is_none());
    a.put_certificate(st.id, "k1", "2026-01-01T00:00:00Z", "{}").unwrap();
    a.put_certificate(st.id, "k1", "2026-01-02T00:00:00Z", "{\"x\":1}").unwrap();
    assert_eq!(a.certificate(st.id, "k1").unwrap().as_deref(), Some("{\"x\":1}"));
    assert!(a.certificate(st.id, "k2").unwrap().is_none());
}

#[test]
fn a_batch_is_committed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.db");
    let items: Vec<Prepared> =
        (0..5).map(|i| prepare(&tzq_bytes(&format!("archive/batch/{i}"), ["A", "B"], Encoding::Binary))).collect();
    {
        let mut a = Archive::open(&path).unwrap();
        let out = a.store_batch(&items, &[], Some("T")).unwrap();
        assert!(out.iter().all(|s| s.new && s.valid));
    }
    // A second connection (another process) sees everything committed.
    let b = Archive::open(&path).unwrap();
    assert_eq!(b.summary().unwrap().games, 5);
}

#[test]
fn placements_are_the_replays_own() {
    // Riichi breaks ties by seat order, the other games share places: the archive stores what
    // the replay computed (`Game::placements`), whatever the game.
    use crate::samples::game_bytes;
    use paifu_core::{riichi::Riichi, tayu::Tayu};
    let (_d, mut a) = temp_archive();
    let logs = [
        ("tzq", tzq_bytes("archive/places", ["A", "B"], Encoding::Binary)),
        ("riichi", game_bytes::<Riichi>("tenhou", "archive/places", &["A", "B", "C", "D"], Encoding::Binary).unwrap()),
        ("tayu", game_bytes::<Tayu>("standard", "archive/places", &["A", "B", "C", "D"], Encoding::Binary).unwrap()),
    ];
    for (game, bytes) in logs {
        let report = paifu_core::validate_bytes(&bytes);
        let outcome = report.verdict.outcome().unwrap();
        let st = a.ingest_bytes(&bytes, None, None).unwrap();
        let g = a.game(st.id).unwrap().unwrap();
        assert_eq!(g.seats.iter().map(|s| s.placement.unwrap()).collect::<Vec<_>>(), outcome.placements, "{game}");
    }
}

#[test]
fn every_game_is_archived() {
    use crate::samples::game_bytes;
    let (_d, mut a) = temp_archive();
    let r =
        game_bytes::<paifu_core::riichi::Riichi>("tenhou", "archive/riichi", &["A", "B", "C", "D"], Encoding::Binary)
            .unwrap();
    let t = game_bytes::<paifu_core::tayu::Tayu>("standard", "archive/tayu", &["A", "B", "C"], Encoding::JsonLines)
        .unwrap();
    for bytes in [r, t] {
        let st = a.ingest_bytes(&bytes, None, None).unwrap();
        assert!(st.valid, "{:?}", st.fault);
        let g = a.game(st.id).unwrap().unwrap();
        let mut places: Vec<u32> = g.seats.iter().map(|s| s.placement.unwrap()).collect();
        places.sort();
        assert_eq!(places[0], 1);
    }
    assert_eq!(a.game_kinds().unwrap(), vec!["riichi".to_owned(), "tayu".to_owned()]);
}

#[test]
fn revealing_the_seed_replaces_the_missing_seed_verdict() {
    let (_d, mut a) = temp_archive();
    let log = tzq_log("archive/reveal", ["Ann", "Bo"]);
    let mut secret = log.clone();
    secret.header.seed = None;
    let first = a.ingest_bytes(&paifu_core::log::encode(&secret, Encoding::JsonLines), None, Some("Cup")).unwrap();
    assert!(first.new && !first.valid);
    assert_eq!(first.fault.unwrap().code, ErrorCode::MissingSeed);
    a.put_certificate(first.id, "k", "t", "{}").unwrap();
    let revealed = a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::Binary), None, None).unwrap();
    assert_eq!(revealed.id, first.id);
    assert!(revealed.valid && revealed.new);
    let g = a.game(first.id).unwrap().unwrap();
    assert!(g.valid && !g.rounds.is_empty() && g.seats[0].final_score.is_some());
    assert_eq!(g.tournaments, vec!["Cup".to_owned()]);
    // The certificate of the old verdict is gone; the game is stored once.
    assert!(a.certificate(first.id, "k").unwrap().is_none());
    assert_eq!(a.summary().unwrap().games, 1);
    // Giving the secret form again changes nothing.
    let again = a.ingest_bytes(&paifu_core::log::encode(&secret, Encoding::JsonLines), None, None).unwrap();
    assert!(!again.new && again.valid);
}
