use super::*;
use crate::samples::{tzq_bytes, tzq_log};
use paifu_core::cert::{self, CertificateBody, SecretKey};
use paifu_core::log::Encoding;
use paifu_core::ErrorCode;
use rusqlite::{Connection, OptionalExtension};

/// A referee's key for the tests.
pub(super) fn key(n: u8) -> SecretKey {
    cert::secret_from_bytes([n; 32])
}

/// A certificate of a prepared log's verdict signed with `key`.
pub(super) fn certify(p: &Prepared, key: &SecretKey) -> Certificate {
    let body = CertificateBody::from_report(&p.report(), "2026-01-01T00:00:00Z".into(), &key.verifying_key())
        .expect("a decoded log can be certified");
    cert::sign(body, key)
}

fn key_hex(k: &SecretKey) -> String {
    hex::encode(k.verifying_key().to_bytes())
}

/// The backends the suite runs on: each test written `fn name(b: Backend)` and named in
/// [`on_both_backends!`] runs once on each (`archive::tests::name::sqlite`, `...::postgres`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Backend {
    Sqlite,
    Postgres,
}

/// Where a test's archive lives, removed with it: a temporary folder (SQLite) or a database of
/// its own on the test cluster (PostgreSQL, `pg_test`).
pub(super) enum Place {
    Folder(tempfile::TempDir),
    Database(pg_test::TestDb),
}

impl Place {
    fn new(b: Backend) -> Place {
        match b {
            Backend::Sqlite => Place::Folder(tempfile::tempdir().expect("temp dir")),
            Backend::Postgres => Place::Database(pg_test::database()),
        }
    }

    /// The archive's location: the file `name` in the folder, or the database (one per place).
    pub(super) fn path(&self, name: &str) -> std::path::PathBuf {
        match self {
            Place::Folder(d) => d.path().join(name),
            Place::Database(db) => db.path(),
        }
    }
}

pub(super) fn temp_archive(b: Backend) -> (Place, Archive) {
    let place = Place::new(b);
    let a = Archive::open(&place.path("test.db")).expect("open archive");
    (place, a)
}

/// For each test named, a module of two tests: the test on SQLite and on PostgreSQL (the other
/// modules' suites use it too: `tables.rs`, `live.rs`).
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                super::$name(super::Backend::Sqlite)
            }
            #[test]
            fn postgres() {
                super::$name(super::Backend::Postgres)
            }
        }
    )*};
}
pub(super) use on_both_backends;

on_both_backends!(
    same_log_in_either_encoding_is_stored_once,
    stores_results_seats_and_placements,
    invalid_logs_are_kept_and_non_logs_refused,
    bad_names_are_refused,
    lists_and_filters_games_with_pages,
    filters_games_by_when_they_were_stored,
    a_batch_is_committed_whole,
    placements_are_the_replays_own,
    every_game_is_archived,
    revealing_the_seed_is_a_second_entry_of_the_game,
    a_forged_copy_never_changes_the_genuine_entry,
    a_forged_copy_first_does_not_keep_the_genuine_game_out,
    only_one_valid_entry_counts_for_a_game,
    stored_logs_verdicts_and_certificates_never_change,
    tokens_are_stored_hashed_and_revoked,
    tournaments_belong_to_an_organiser_and_trust_keys,
    writers_on_one_file_all_finish,
    standings_are_kept_per_game_and_riichi_counts_uma_and_oka,
    player_aggregates_equal_the_sums_of_every_game_that_counts,
    keyset_pages_walk_every_game_once_and_say_where_they_are,
    players_are_found_by_the_start_of_their_name_in_any_case,
    tournament_counts_follow_games_certificates_and_trusted_keys,
    a_better_certified_entry_takes_over_counting,
    another_tournaments_copy_never_takes_a_game_out_of_the_standings,
    storing_an_entry_and_its_certificate_is_one_transaction,
    lookalike_names_are_refused_through_the_archive,
    an_invalid_log_is_kept_only_a_little_past_its_fault,
    deep_pages_read_only_their_block_and_say_their_place,
    a_page_finds_its_games_without_the_tables_its_filter_does_not_name,
    a_certificate_of_another_log_is_not_added_to_an_entry,
    pg_refuses_a_newer_schema,
    racing_writers_store_each_game_once_and_keep_exact_counts,
    a_minimum_of_games_ranks_only_the_players_who_played_enough,
    penalties_entered_as_incidents_are_counted_in_the_standings_with_their_cost,
);

#[test]
fn opens_with_wal_and_current_schema() {
    let (dir, a) = temp_archive(Backend::Sqlite);
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    let mode: String = a.db().row("PRAGMA journal_mode", params![], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    drop(a);
    // Reopening applies nothing twice.
    let a = Archive::open(&dir.path("test.db")).unwrap();
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

/// A database of a newer schema than this build knows is refused, on either backend (SQLite's
/// is `refuses_a_newer_schema`).
fn pg_refuses_a_newer_schema(b: Backend) {
    let (place, a) = temp_archive(b);
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    match b {
        Backend::Sqlite => a.db().batch("PRAGMA user_version = 999").unwrap(),
        Backend::Postgres => a.db().batch("UPDATE paifu_schema SET version = 999").unwrap(),
    }
    drop(a);
    match Archive::open(&place.path("test.db")) {
        Err(ArchiveError::TooNew { found: 999, known, .. }) => assert_eq!(known, SCHEMA_VERSION),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a newer schema was accepted"),
    }
}

/// Several writers, each with its own connection (as separate processes and machines have),
/// store the same games at once, entries of a game that differ (a seedless copy beside the
/// genuine log) and certificates, in several tournaments: each log is stored once, each game
/// has one counted entry, and every count kept at ingest equals the rows (no lost update).
fn racing_writers_store_each_game_once_and_keep_exact_counts(b: Backend) {
    let (place, a) = temp_archive(b);
    drop(a);
    let path = place.path("race.db");
    let referee = key(77);
    let games: Vec<(Prepared, Prepared)> = (0..12)
        .map(|i| {
            let log = tzq_log(&format!("archive/race/{i}"), [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"]][i % 3]);
            let mut seedless = log.clone();
            seedless.header.commitment = None;
            (
                prepare(&paifu_core::log::encode(&log, Encoding::Binary)),
                prepare(&paifu_core::log::encode(&seedless, Encoding::Binary)),
            )
        })
        .collect();
    let writers = 6;
    let stored: Vec<Vec<Stored>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..writers)
            .map(|w| {
                let (path, games, referee) = (&path, &games, &referee);
                s.spawn(move || {
                    let mut a = Archive::open(path).expect("open");
                    let mut out = Vec::new();
                    for k in 0..games.len() {
                        // Each writer every game, starting at its own, with or without the certificate.
                        let (genuine, copy) = &games[(k + 5 * w) % games.len()];
                        let tournament = ["Race", "Other"][w % 2];
                        let cert = (w % 3 == 0).then(|| certify(genuine, referee));
                        out.push(
                            a.store_certified(genuine, None, cert.as_ref(), Some(tournament), Origin::CommandLine)
                                .expect("stored"),
                        );
                        out.push(a.store(copy, None, Some(tournament), Origin::CommandLine).expect("stored"));
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a writer")).collect()
    });
    let a = Archive::open(&path).unwrap();
    // Each log stored once: one writer found it new, the others found it stored.
    let new: usize = stored.iter().flatten().filter(|s| s.new).count();
    assert_eq!(new, 24, "12 genuine logs and 12 copies, each new once");
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid), (24, 24));
    // One counted entry per game, the certified genuine one.
    let counted: i64 = a.db().row("SELECT COUNT(*) FROM logs WHERE counted = 1", params![], |r| r.get(0)).unwrap();
    assert_eq!(counted, 12);
    for (genuine, _) in &games {
        let entries = a.entries_of_game_key(&genuine.game_key.to_hex()).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries.iter().filter(|e| e.counted).count(), 1);
        assert!(entries[0].counted && entries[0].trust == 1, "{entries:?}");
    }
    let tournaments = a.tournaments().unwrap();
    assert_eq!(tournaments.iter().map(|t| t.games).sum::<u64>(), 48, "every entry in both tournaments");
    let (stats, seats) = aggregated(&a);
    assert_eq!(stats, recomputed(&a), "the players' aggregates equal the counted games");
    assert!(seats.iter().all(|(_, kept, games)| kept == games), "{seats:?}");
    assert_kept_counts_are_the_rows(&a);
    let (kept, from_rows) = tournament_counts(&a);
    assert_eq!(kept, from_rows);
}

fn same_log_in_either_encoding_is_stored_once(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let log = tzq_log("archive/once", ["Ann", "Bo"]);
    let jsonl = paifu_core::log::encode(&log, Encoding::JsonLines);
    let bin = paifu_core::log::encode(&log, Encoding::Binary);
    let first = a.ingest_bytes(&jsonl, Some("a.paifu.jsonl"), None).unwrap();
    assert!(first.new && first.valid && first.counted);
    assert_eq!(first.digest, log.digest().to_hex());
    assert_eq!(first.identity, blake3::hash(&bin).to_hex().to_string());
    let again = a.ingest_bytes(&bin, Some("a.paifu"), Some("Cup")).unwrap();
    assert!(!again.new && again.added_to_tournament);
    assert_eq!((again.id, &again.identity, again.others), (first.id, &first.identity, 0));
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid, s.players, s.tournaments), (1, 1, 0, 2, 1));
    // The second ingest still put the game in the tournament.
    assert_eq!(a.tournaments().unwrap()[0].games, 1);
    // Stored in binary form, and it decodes back to the same log.
    let (bytes, form) = a.log_bytes(first.id).unwrap().unwrap();
    assert_eq!(form, StoredForm::Binary);
    assert_eq!(bytes, bin);
}

fn stores_results_seats_and_placements(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let log = tzq_log("archive/detail", ["Ann", "Bo"]);
    let st = a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::JsonLines), None, None).unwrap();
    let g = a.game(st.id).unwrap().unwrap();
    let report = paifu_core::replay::validate_bytes(&paifu_core::log::encode(&log, Encoding::Binary));
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

fn invalid_logs_are_kept_and_non_logs_refused(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    // Truncated: drop the last record.
    let mut log = tzq_log("archive/invalid", ["Ann", "Bo"]);
    log.records.pop();
    let st = a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::JsonLines), None, None).unwrap();
    assert!(st.new && !st.valid && !st.counted);
    assert_eq!(st.fault.as_ref().unwrap().code, ErrorCode::Truncated);
    let g = a.game(st.id).unwrap().unwrap();
    assert_eq!(g.fault.unwrap().code, ErrorCode::Truncated);
    assert_eq!(g.form, "binary");
    assert!(g.final_scores.is_none());
    // What is not a readable log is refused and leaves the archive as it was.
    let before = a.summary().unwrap();
    let junk = b"this is not a log\n\xff\xfe";
    let mut undecodable = paifu_core::log::encode(&tzq_log("archive/undecodable", ["Ann", "Bo"]), Encoding::JsonLines);
    undecodable.extend_from_slice(b"{\"seq\": 999, \"seat\": 0, \"action\": \"fly away\"}\n");
    let mut unknown_game = tzq_log("archive/unknown", ["Ann", "Bo"]);
    unknown_game.header.game = "chess".into();
    for bytes in [&junk[..], &undecodable, &paifu_core::log::encode(&unknown_game, Encoding::JsonLines)] {
        match a.ingest_bytes(bytes, Some("junk.paifu"), Some("Cup")) {
            Err(ArchiveError::Refused { index: 0, refusal }) => match *refusal {
                Refusal::NotALog(f) => assert!(!f.describe().is_empty()),
                other => panic!("{other:?}"),
            },
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(&bytes[..20])),
        }
    }
    assert_eq!(a.summary().unwrap(), before);
    assert!(a.tournaments().unwrap().is_empty(), "a refused batch makes no tournament");
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid), (1, 0, 1));
    assert!(s.faults.iter().any(|(c, n)| c == "truncated" && *n == 1));
}

fn bad_names_are_refused(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let mut log = tzq_log("archive/names", ["Ann", "Bo"]);
    log.header.seats[1] = "Bo\u{1b}[2J".into();
    match a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::JsonLines), None, None) {
        Err(ArchiveError::Refused { refusal, .. }) => {
            let Refusal::PlayerName { seat: 1, error } = *refusal else { panic!("{refusal:?}") };
            assert_eq!(error, NameError::Control { kind: NameKind::Player, code: 0x1b, at: 3 });
        }
        other => panic!("{other:?}"),
    }
    let good = tzq_bytes("archive/names", ["Ann", "Bo"], Encoding::Binary);
    for bad in ["\u{0}", "", " Cup", &"x".repeat(MAX_NAME_CHARS + 1)] {
        assert!(matches!(a.ingest_bytes(&good, None, Some(bad)), Err(ArchiveError::Name(_))), "{bad:?}");
        assert!(matches!(a.ensure_tournament(bad, None, &[]), Err(ArchiveError::Name(_))), "{bad:?}");
    }
    assert_eq!(a.summary().unwrap().games, 0);
}

fn lists_and_filters_games_with_pages(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let names = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"]];
    let referee = key(1);
    a.ensure_tournament("Spring Cup", None, &[referee.verifying_key()]).unwrap();
    for i in 0..9 {
        let p = prepare(&tzq_bytes(&format!("archive/list/{i}"), names[i % 3], Encoding::Binary));
        let st = a.store(&p, None, if i < 4 { Some("Spring Cup") } else { None }, Origin::CommandLine).unwrap();
        a.add_certificate(st.id, &certify(&p, &referee)).unwrap();
    }
    let mut bad = tzq_log("archive/list/bad", ["Ann", "Bo"]);
    bad.records.truncate(3);
    a.ingest_bytes(&paifu_core::log::encode(&bad, Encoding::Binary), None, None).unwrap();
    let all = a.list_games(&Filter::default(), 1, 4).unwrap();
    assert_eq!(all.total, 10);
    assert_eq!(all.rows.len(), 4);
    assert!(all.rows.windows(2).all(|w| w[0].id > w[1].id));
    let last = a.list_games(&Filter::default(), 3, 4).unwrap();
    assert_eq!(last.rows.len(), 2);
    let ann = a.list_games(&Filter { player: Some("Ann".into()), ..Filter::default() }, 1, 50).unwrap();
    assert_eq!(ann.total, 7);
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
            assert_eq!(g.placements, paifu_core::placements_by_score(&g.final_scores));
            seen += 1;
        })
        .unwrap();
    assert_eq!((n, seen), (6, 6));
    // Players and standings.
    let players = a.players(None, 10, 0).unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(a.players(Some("an"), 10, 0).unwrap().len(), 1);
    assert_eq!(a.player("Cy").unwrap().unwrap().games, 6);
    let cup = &a.tournaments().unwrap()[0];
    assert_eq!((cup.games, cup.valid, cup.counted), (4, 4, 4));
    let st = a.standings("Spring Cup").unwrap().unwrap();
    assert_eq!(st.iter().map(|s| s.games).sum::<u64>(), 8);
    assert_eq!(st[0].rank, 1);
    assert!(st.windows(2).all(|w| w[0].average_placement <= w[1].average_placement));
    assert!(a.standings("nope").unwrap().is_none());
}

fn filters_games_by_when_they_were_stored(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let names = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"], ["Ann", "Cy"]];
    let mut ids = Vec::new();
    for (i, seats) in names.iter().enumerate() {
        ids.push(
            a.ingest_bytes(&tzq_bytes(&format!("archive/since/{i}"), *seats, Encoding::Binary), None, None).unwrap().id,
        );
    }
    // Stored at 1 000, 2 000, 3 000 and 4 000 seconds after the epoch.
    for (k, id) in ids.iter().enumerate() {
        a.db().exec("UPDATE logs SET added_at = ?1 WHERE id = ?2", params![1000 * (k as i64 + 1), id]).unwrap();
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

fn a_batch_is_committed_whole(b: Backend) {
    let dir = Place::new(b);
    let path = dir.path("b.db");
    let items: Vec<Prepared> =
        (0..5).map(|i| prepare(&tzq_bytes(&format!("archive/batch/{i}"), ["A", "B"], Encoding::Binary))).collect();
    {
        let mut a = Archive::open(&path).unwrap();
        let out = a.store_batch(&items, &[], Some("T"), Origin::CommandLine).unwrap();
        assert!(out.iter().all(|s| s.new && s.valid));
    }
    // A second connection (another process) sees everything committed.
    let b = Archive::open(&path).unwrap();
    assert_eq!(b.summary().unwrap().games, 5);
}

fn placements_are_the_replays_own(b: Backend) {
    // Riichi breaks ties by seat order, the other games share places: the archive stores what
    // the replay computed (`Game::placements`), whatever the game.
    use crate::samples::game_bytes;
    use paifu_core::{riichi::Riichi, tayu::Tayu};
    let (_d, mut a) = temp_archive(b);
    let logs = [
        ("tzq", tzq_bytes("archive/places", ["A", "B"], Encoding::Binary)),
        ("riichi", game_bytes::<Riichi>("tenhou", "archive/places", &["A", "B", "C", "D"], Encoding::Binary).unwrap()),
        ("tayu", game_bytes::<Tayu>("standard", "archive/places", &["A", "B", "C", "D"], Encoding::Binary).unwrap()),
    ];
    for (game, bytes) in logs {
        let report = paifu_core::replay::validate_bytes(&bytes);
        let outcome = report.verdict.outcome().unwrap();
        let st = a.ingest_bytes(&bytes, None, None).unwrap();
        let g = a.game(st.id).unwrap().unwrap();
        assert_eq!(g.seats.iter().map(|s| s.placement.unwrap()).collect::<Vec<_>>(), outcome.placements, "{game}");
    }
}

fn every_game_is_archived(b: Backend) {
    use crate::samples::game_bytes;
    let (_d, mut a) = temp_archive(b);
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

/// The genuine log of a game, the same game with the seed left out (what a forger who copies the
/// records and withholds the seed uploads: the same game digest), and a copy whose seed is not
/// the one committed to.
fn genuine_and_copies(seed: &str) -> [Vec<u8>; 3] {
    let log = tzq_log(seed, ["Ann", "Bo"]);
    let mut seedless = log.clone();
    seedless.header.seed = None;
    let mut wrong_seed = log.clone();
    wrong_seed.header.seed = Some(paifu_core::Seed::from_text("not the committed seed"));
    [
        paifu_core::log::encode(&log, Encoding::Binary),
        paifu_core::log::encode(&seedless, Encoding::JsonLines),
        paifu_core::log::encode(&wrong_seed, Encoding::JsonLines),
    ]
}

fn revealing_the_seed_is_a_second_entry_of_the_game(b: Backend) {
    // Before the archive kept entries apart, the revealed log replaced the seedless one's
    // verdict and dropped its certificates. Now each is an entry with its own verdict and
    // certificates; they share the game digest, and the valid one counts.
    let (_d, mut a) = temp_archive(b);
    let referee = key(2);
    a.ensure_tournament("Cup", None, &[referee.verifying_key()]).unwrap();
    let [genuine, secret, _] = genuine_and_copies("archive/reveal");
    let p_secret = prepare(&secret);
    let first = a.store(&p_secret, None, Some("Cup"), Origin::CommandLine).unwrap();
    assert!(first.new && !first.valid && !first.counted);
    assert_eq!(first.fault.unwrap().code, ErrorCode::MissingSeed);
    a.add_certificate(first.id, &certify(&p_secret, &referee)).unwrap();
    let p_revealed = prepare(&genuine);
    let revealed = a.store(&p_revealed, None, Some("Cup"), Origin::CommandLine).unwrap();
    a.add_certificate(revealed.id, &certify(&p_revealed, &referee)).unwrap();
    assert_ne!(revealed.id, first.id);
    assert!(revealed.valid && revealed.new && revealed.counted);
    assert_eq!((revealed.digest.as_str(), revealed.others), (first.digest.as_str(), 1));
    assert_ne!(revealed.identity, first.identity);
    // The seedless entry is as it was, certificate and all.
    let old = a.game(first.id).unwrap().unwrap();
    assert!(!old.valid && old.rounds.is_empty() && !old.counted);
    assert_eq!(old.certificates.len(), 1);
    assert!(!old.certificates[0].valid);
    // Side by side, the valid one first.
    let g = a.game(revealed.id).unwrap().unwrap();
    assert!(g.valid && !g.rounds.is_empty() && g.seats[0].final_score.is_some());
    assert_eq!(
        g.entries.iter().map(|e| (e.id, e.valid, e.seed_revealed)).collect::<Vec<_>>(),
        [(revealed.id, true, true), (first.id, false, false)]
    );
    assert_eq!(old.entries, g.entries);
    // Statistics and standings count the game once, from the valid entry.
    let mut played = vec![];
    a.for_each_game(&Filter::default(), |g| played.push(g.final_scores)).unwrap();
    assert_eq!(played.len(), 1);
    let standings = a.standings("Cup").unwrap().unwrap();
    assert_eq!(standings.iter().map(|s| s.games).collect::<Vec<_>>(), [1, 1]);
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid), (2, 1, 1));
    // Giving either form again changes nothing, and says so.
    for (bytes, id) in [(&secret, first.id), (&genuine, revealed.id)] {
        let again = a.ingest_bytes(bytes, None, Some("Cup")).unwrap();
        assert!(!again.new && !again.added_to_tournament);
        assert_eq!(again.id, id);
    }
    assert_eq!(a.summary().unwrap(), s);
}

fn a_forged_copy_never_changes_the_genuine_entry(b: Backend) {
    // Issue 12, item 1: a copy of a stored valid game with the same game digest (the seed
    // withheld) or with a seed that does not match the commitment, uploaded after it.
    let (_d, mut a) = temp_archive(b);
    let referee = key(3);
    let [genuine, seedless, wrong_seed] = genuine_and_copies("archive/forged-after");
    let p = prepare(&genuine);
    let st = a.store(&p, None, None, Origin::CommandLine).unwrap();
    a.add_certificate(st.id, &certify(&p, &referee)).unwrap();
    let before = a.game(st.id).unwrap().unwrap();
    for copy in [&seedless, &wrong_seed] {
        let pc = prepare(copy);
        let forged = a.store(&pc, None, None, Origin::CommandLine).unwrap();
        assert!(forged.new && !forged.valid && !forged.counted);
        assert_ne!(forged.id, st.id);
        a.add_certificate(forged.id, &certify(&pc, &referee)).unwrap();
        assert_eq!(a.certificates(forged.id).unwrap().len(), 1);
    }
    let after = a.game(st.id).unwrap().unwrap();
    assert!(after.valid && after.counted);
    assert_eq!(after.certificates, before.certificates);
    assert!(after.certificates[0].valid);
    assert_eq!(a.certificate(st.id, &key_hex(&referee)).unwrap(), Some(before.certificates[0].json.clone()));
    // The seedless copy is beside it on the game's page; the wrong-seed one is another game.
    assert_eq!(after.entries.len(), 2);
    assert_eq!(after.entries[0].id, st.id);
}

fn a_forged_copy_first_does_not_keep_the_genuine_game_out(b: Backend) {
    // Issue 12, item 2: the copy stored first.
    let (_d, mut a) = temp_archive(b);
    let referee = key(4);
    a.ensure_tournament("Open", None, &[referee.verifying_key()]).unwrap();
    let [genuine, seedless, wrong_seed] = genuine_and_copies("archive/forged-first");
    for copy in [&seedless, &wrong_seed] {
        let pc = prepare(copy);
        let st = a.store(&pc, None, Some("Open"), Origin::CommandLine).unwrap();
        a.add_certificate(st.id, &certify(&pc, &referee)).unwrap();
    }
    assert!(a.standings("Open").unwrap().unwrap().is_empty());
    let p = prepare(&genuine);
    let st = a.store(&p, None, Some("Open"), Origin::CommandLine).unwrap();
    assert!(st.new && st.valid && st.counted);
    a.add_certificate(st.id, &certify(&p, &referee)).unwrap();
    let g = a.game(st.id).unwrap().unwrap();
    assert!(g.valid && g.counted);
    assert_eq!(g.entries[0].id, st.id, "the valid entry is shown first");
    assert_eq!(a.standings("Open").unwrap().unwrap().iter().map(|s| s.games).sum::<u64>(), 2);
    assert_eq!(a.tournaments().unwrap()[0].counted, 1);
}

fn only_one_valid_entry_counts_for_a_game(b: Backend) {
    // A seed with its commitment left out makes the same game digest and is valid too: both are
    // kept, and only the first counts.
    let (_d, mut a) = temp_archive(b);
    let log = tzq_log("archive/two-valid", ["Ann", "Bo"]);
    let mut uncommitted = log.clone();
    uncommitted.header.commitment = None;
    let one = a.ingest_bytes(&paifu_core::log::encode(&log, Encoding::Binary), None, None).unwrap();
    let two = a.ingest_bytes(&paifu_core::log::encode(&uncommitted, Encoding::Binary), None, None).unwrap();
    assert!(one.valid && two.valid && two.new);
    assert_eq!(one.digest, two.digest);
    assert!(one.counted && !two.counted);
    assert_eq!(a.for_each_game(&Filter::default(), |_| ()).unwrap(), 1);
    // The database itself refuses a second counted entry of a game.
    let e = a.db().exec("UPDATE logs SET counted = 1 WHERE id = ?1", [two.id]).unwrap_err();
    assert!(e.to_string().to_lowercase().contains("unique"), "{e}");
}

fn stored_logs_verdicts_and_certificates_never_change(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let referee = key(5);
    let p = prepare(&tzq_bytes("archive/history", ["A", "B"], Encoding::Binary));
    let st = a.store(&p, None, None, Origin::CommandLine).unwrap();
    assert!(a.certificate(st.id, &key_hex(&referee)).unwrap().is_none());
    let first = certify(&p, &referee);
    let mut second = first.clone();
    second.certificate.issued_at = "2026-02-01T00:00:00Z".into();
    let second = cert::sign(second.certificate, &referee);
    a.add_certificate(st.id, &first).unwrap();
    a.add_certificate(st.id, &second).unwrap();
    a.add_certificate(st.id, &certify(&p, &key(6))).unwrap();
    // The latest by a signer, and the whole history.
    assert_eq!(a.certificate(st.id, &key_hex(&referee)).unwrap(), Some(second.to_json()));
    let all = a.certificates(st.id).unwrap();
    assert_eq!(
        all.iter().map(|c| c.issued_at.as_str()).collect::<Vec<_>>(),
        ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z"]
    );
    assert_eq!(all[2].signer, key_hex(&key(6)));
    for sql in [
        "UPDATE certificates SET json = '{}'",
        "DELETE FROM certificates",
        "UPDATE verdicts SET valid = 0",
        "DELETE FROM verdicts",
        "UPDATE logs SET bytes = x'00'",
        "UPDATE logs SET header_json = NULL",
        "DELETE FROM logs",
    ] {
        // (PostgreSQL's byte string literal is another.)
        let sql = if b == Backend::Postgres { sql.replace("x'00'", "'\\x00'::bytea") } else { sql.to_owned() };
        let e = a.db().exec(&sql, params![]).unwrap_err();
        assert!(e.to_string().contains("never"), "{sql}: {e}");
    }
    assert_eq!(a.certificates(st.id).unwrap(), all);
}

fn tokens_are_stored_hashed_and_revoked(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let made = a.create_token("alice", Role::Organiser).unwrap();
    assert!(made.secret.starts_with(TOKEN_PREFIX) && made.secret.len() == TOKEN_PREFIX.len() + 64);
    let other = a.create_token("alice", Role::Uploader).unwrap();
    assert_ne!(made.secret, other.secret);
    // Only the hash is stored.
    let stored: Vec<String> = a.db().rows("SELECT hash FROM tokens ORDER BY id", params![], |r| r.get(0)).unwrap();
    assert!(stored.iter().all(|h| !h.contains(&made.secret[TOKEN_PREFIX.len()..])));
    assert_eq!(stored[0], blake3::hash(made.secret.as_bytes()).to_hex().to_string());
    let found = a.token_by_secret(&made.secret).unwrap().unwrap();
    assert_eq!(found, made.token);
    assert!(found.may(Role::Uploader) && found.may(Role::Organiser) && !found.may(Role::Admin));
    assert!(a.token_by_secret("pft_0000").unwrap().is_none());
    let revoked = a.revoke_token(made.token.id).unwrap().unwrap();
    assert!(revoked.is_revoked() && !revoked.may(Role::Uploader));
    let at = revoked.revoked_at;
    assert_eq!(a.revoke_token(made.token.id).unwrap().unwrap().revoked_at, at, "revoked once");
    assert!(a.token_by_secret(&made.secret).unwrap().unwrap().is_revoked());
    assert!(a.revoke_token(99).unwrap().is_none());
    assert_eq!(a.tokens().unwrap().len(), 2);
    assert!(matches!(a.create_token("bad\tname", Role::Admin), Err(ArchiveError::Name(_))));
    assert_eq!("organiser".parse::<Role>(), Ok(Role::Organiser));
    assert_eq!("root".parse::<Role>(), Err(BadRole));
}

fn tournaments_belong_to_an_organiser_and_trust_keys(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let alice = a.create_token("alice", Role::Organiser).unwrap().token;
    let alice_uploader = a.create_token("alice", Role::Uploader).unwrap().token;
    let bob = a.create_token("bob", Role::Organiser).unwrap().token;
    let admin = a.create_token("root", Role::Admin).unwrap().token;
    let referee = key(7);
    let (t, made) = a.ensure_tournament("Alice Cup", Some("alice"), &[referee.verifying_key()]).unwrap();
    assert!(made);
    assert_eq!(t.owner.as_deref(), Some("alice"));
    assert_eq!(t.trusted_keys, [key_hex(&referee)]);
    // Made once: a second call changes nothing.
    let (again, made) = a.ensure_tournament("Alice Cup", Some("bob"), &[]).unwrap();
    assert!(!made);
    assert_eq!(again, t);
    assert!(t.accepts_games_from(&alice) && t.accepts_games_from(&admin));
    assert!(!t.accepts_games_from(&bob) && !t.accepts_games_from(&alice_uploader));
    let alice_revoked = a.revoke_token(alice.id).unwrap().unwrap();
    assert!(!t.accepts_games_from(&alice_revoked));
    // Standings count only valid games certified valid by a trusted key.
    let p = prepare(&tzq_bytes("archive/trust", ["Ann", "Bo"], Encoding::Binary));
    let st = a.store(&p, None, Some("Alice Cup"), Origin::Web { token: alice.id }).unwrap();
    assert!(a.standings("Alice Cup").unwrap().unwrap().is_empty(), "not certified yet");
    let stranger = key(8);
    a.add_certificate(st.id, &certify(&p, &stranger)).unwrap();
    assert!(a.standings("Alice Cup").unwrap().unwrap().is_empty(), "certified by a key it does not trust");
    a.add_certificate(st.id, &certify(&p, &referee)).unwrap();
    assert_eq!(a.standings("Alice Cup").unwrap().unwrap().len(), 2);
    // Trusting another key instead.
    let t = a.set_trusted_keys("Alice Cup", &[stranger.verifying_key()]).unwrap();
    assert_eq!(t.trusted_keys, [key_hex(&stranger)]);
    assert_eq!(a.standings("Alice Cup").unwrap().unwrap().len(), 2);
    a.set_trusted_keys("Alice Cup", &[]).unwrap();
    assert!(a.standings("Alice Cup").unwrap().unwrap().is_empty());
    assert!(matches!(a.set_trusted_keys("Nope", &[]), Err(ArchiveError::NoTournament(_))));
    // Who stored the entry.
    let g = a.game(st.id).unwrap().unwrap();
    assert_eq!(g.stored_by, StoredBy { origin: "web".into(), token: Some(alice.id), name: Some("alice".into()) });
    let cli = a.ingest_bytes(&tzq_bytes("archive/trust/cli", ["Ann", "Bo"], Encoding::Binary), None, None).unwrap();
    assert_eq!(a.game(cli.id).unwrap().unwrap().stored_by.origin, "cli");
}

/// The version-1 archive's way of storing a log (its `store_one`, for a new log), kept here to
/// build the archives that migration 2 must carry over.
fn v1_store(c: &Connection, p: &Prepared, tournament: Option<&str>, certificate: Option<&Certificate>) -> i64 {
    let digest = if p.form == StoredForm::Raw { identity_of(&p.stored) } else { p.digest };
    c.execute(
        "INSERT INTO logs(digest, digest_kind, game, ruleset, seat_count, form, bytes, size, records, header_json,
                          source, added_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        rusqlite::params![
            digest.to_hex(),
            p.digest_kind.as_str(),
            p.header.as_ref().map(|h| h.game.as_str()),
            p.header.as_ref().map(|h| h.ruleset.as_str()),
            p.header.as_ref().map_or(0, |h| h.seats.len() as i64),
            p.form.as_str(),
            p.stored,
            p.size as i64,
            p.records as i64,
            p.header.as_ref().map(json),
            "old.paifu",
            1_700_000_000,
        ],
    )
    .unwrap();
    let id = c.last_insert_rowid();
    let fault = p.verdict.fault();
    let outcome = p.verdict.outcome();
    c.execute(
        "INSERT INTO verdicts(log_id, valid, fault_code, fault_index, fault_message, fault_json, final_scores, rounds,
                              engine, checked_at) VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7, 'paifu-core 0.1.0', 0)",
        rusqlite::params![
            id,
            i64::from(p.verdict.is_valid()),
            fault.map(|f| f.code.as_str()),
            fault.map(|f| f.message.as_str()),
            fault.map(json),
            outcome.map(|o| json(&o.final_scores)),
            outcome.map_or(0, |o| o.rounds.len() as i64),
        ],
    )
    .unwrap();
    if let Some(h) = &p.header {
        for (seat, name) in h.seats.iter().enumerate() {
            c.execute("INSERT INTO players(name) VALUES (?1) ON CONFLICT(name) DO NOTHING", [name]).unwrap();
            c.execute(
                "INSERT INTO seats(log_id, seat, player_id, final_score, placement)
                 VALUES (?1, ?2, (SELECT id FROM players WHERE name = ?3), ?4, ?5)",
                rusqlite::params![
                    id,
                    seat as i64,
                    name,
                    outcome.map(|o| o.final_scores[seat]),
                    outcome.map(|o| i64::from(o.placements[seat]))
                ],
            )
            .unwrap();
        }
    }
    for r in outcome.map_or(&[][..], |o| &o.rounds[..]) {
        c.execute(
            "INSERT INTO rounds(log_id, round, deltas, summary, facts) VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![id, i64::from(r.round), json(&r.deltas), r.summary, json(&r.facts)],
        )
        .unwrap();
    }
    if let Some(t) = tournament {
        c.execute("INSERT INTO tournaments(name, created_at) VALUES (?1, 0) ON CONFLICT(name) DO NOTHING", [t])
            .unwrap();
        c.execute(
            "INSERT INTO tournament_games(tournament_id, log_id) VALUES ((SELECT id FROM tournaments WHERE name = ?1), ?2)",
            rusqlite::params![t, id],
        )
        .unwrap();
    }
    if let Some(cert) = certificate {
        c.execute(
            "INSERT INTO certificates(log_id, signer, issued_at, json) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![id, cert.certificate.signer.to_hex(), cert.certificate.issued_at, cert.to_json()],
        )
        .unwrap();
    }
    id
}

#[test]
fn migration_2_carries_a_version_1_archive_over_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    let referee = key(9);
    let good = prepare(&tzq_bytes("archive/v1/good", ["Ann", "Bo"], Encoding::JsonLines));
    let also_good = prepare(&tzq_bytes("archive/v1/uncertified", ["Ann", "Cy"], Encoding::Binary));
    let mut truncated = tzq_log("archive/v1/bad", ["Bo", "Cy"]);
    truncated.records.truncate(4);
    let bad = prepare(&paifu_core::log::encode(&truncated, Encoding::JsonLines));
    let junk = prepare(b"not a log at all");
    {
        let mut c = Connection::open(&path).unwrap();
        schema::migrate_to(&mut c, "v1.db", 1).unwrap();
        assert_eq!(c.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0)).unwrap(), 1);
        v1_store(&c, &good, Some("Old Cup"), Some(&certify(&good, &referee)));
        v1_store(&c, &also_good, Some("Old Cup"), None);
        v1_store(&c, &bad, Some("Old Cup"), Some(&certify(&bad, &referee)));
        v1_store(&c, &junk, None, None);
    }
    let counts = |a: &Archive| -> Vec<i64> {
        ["logs", "verdicts", "certificates", "players", "seats", "rounds", "tournaments", "tournament_games"]
            .iter()
            .map(|t| a.lite("test").unwrap().query_row(&format!("SELECT COUNT(*) FROM {t}"), [], |r| r.get(0)).unwrap())
            .collect()
    };
    let mut a = Archive::open(&path).unwrap();
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    let expected_rounds = [&good, &also_good].iter().map(|p| p.verdict.outcome().unwrap().rounds.len() as i64).sum();
    assert_eq!(counts(&a), [4, 4, 2, 3, 6, expected_rounds, 1, 3]);
    // Every entry's identity is the one a new store computes: giving the same logs again
    // (in the other encoding too) finds them.
    for (p, id) in [(&good, 1), (&also_good, 2), (&bad, 3)] {
        let g = a.game(id).unwrap().unwrap();
        assert_eq!(
            (g.identity.as_str(), g.digest.as_str()),
            (p.identity.to_hex().as_str(), p.digest.to_hex().as_str())
        );
        assert_eq!(g.stored_by.origin, "migrated");
        assert_eq!((g.valid, g.counted), (p.verdict.is_valid(), p.verdict.is_valid()));
        assert_eq!(g.added_at, 1_700_000_000);
    }
    let again = a.ingest_bytes(&tzq_bytes("archive/v1/good", ["Ann", "Bo"], Encoding::Binary), None, None).unwrap();
    assert!(!again.new && again.id == 1);
    // The undecodable bytes kept in version 1 stay, under the digest of their bytes.
    let j = a.game(4).unwrap().unwrap();
    assert_eq!((j.form.as_str(), j.digest_kind.as_str()), ("raw", "bytes"));
    assert_eq!(j.identity, junk.identity.to_hex());
    assert_eq!(a.log_bytes(4).unwrap().unwrap().0, b"not a log at all");
    // Certificates keep what they said; the tournament trusts the key that signed its games, so
    // its standings still count the certified valid game (not the uncertified one).
    let certs = a.certificates(1).unwrap();
    assert_eq!(certs.len(), 1);
    assert!(certs[0].valid && certs[0].signer == key_hex(&referee));
    assert!(!a.certificates(3).unwrap()[0].valid);
    let t = a.tournament_info("Old Cup").unwrap().unwrap();
    assert_eq!((t.owner, t.trusted_keys), (None, vec![key_hex(&referee)]));
    let st = a.standings("Old Cup").unwrap().unwrap();
    let mut players: Vec<(&str, u64)> = st.iter().map(|s| (s.player.as_str(), s.games)).collect();
    players.sort();
    assert_eq!(players, [("Ann", 1), ("Bo", 1)]);
    assert_eq!(st.iter().map(|s| s.games).sum::<u64>(), 2);
    // The index for --since, and the new tables, are there.
    let index: Option<String> = a
        .lite("test")
        .unwrap()
        .query_row("SELECT sql FROM sqlite_master WHERE name = 'logs_added'", [], |r| r.get(0))
        .optional()
        .unwrap();
    assert!(index.unwrap().contains("added_at"));
    let plan: String = a
        .lite("test")
        .unwrap()
        .query_row("EXPLAIN QUERY PLAN SELECT id FROM logs WHERE added_at >= 5", [], |r| r.get(3))
        .unwrap();
    assert!(plan.contains("logs_added"), "{plan}");
    assert!(a.create_token("admin", Role::Admin).is_ok());
    drop(a);
    // Opening it again applies nothing twice.
    let a = Archive::open(&path).unwrap();
    assert_eq!(counts(&a)[..3], [4, 4, 2]);
}

fn writers_on_one_file_all_finish(b: Backend) {
    // Issue 12, item 4, within one process: each thread has its own connection, as separate
    // processes do, and stores batches that overlap the others'.
    let dir = Place::new(b);
    let path = dir.path("busy.db");
    let logs: Vec<Prepared> =
        (0..48).map(|i| prepare(&tzq_bytes(&format!("archive/busy/{i}"), ["A", "B"], Encoding::Binary))).collect();
    std::thread::scope(|s| {
        for w in 0..4 {
            let (path, logs) = (&path, &logs);
            s.spawn(move || {
                let mut a = Archive::open(path).expect("open");
                for (k, chunk) in logs.chunks(4).enumerate() {
                    // Writer w stores every chunk, in its own order, in small transactions.
                    let chunk = if (k + w) % 2 == 0 { chunk.to_vec() } else { chunk.iter().rev().cloned().collect() };
                    a.store_batch(&chunk, &[], Some("Busy"), Origin::CommandLine).expect("stored");
                    let token = a.create_token(&format!("w{w}-{k}"), Role::Uploader).expect("a token");
                    a.revoke_token(token.token.id).expect("revoked");
                }
            });
        }
    });
    let a = Archive::open(&path).unwrap();
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid), (48, 48));
    assert_eq!(a.tournaments().unwrap()[0].games, 48);
    assert_eq!(a.tokens().unwrap().len(), 4 * 12);
}

fn standings_are_kept_per_game_and_riichi_counts_uma_and_oka(b: Backend) {
    // Issue 16: standings added final scores across games and ranked riichi by raw score.
    let (_d, mut a) = temp_archive(b);
    let referee = key(1);
    a.ensure_tournament("Mixed", None, &[referee.verifying_key()]).unwrap();
    let mut store = |bytes: Vec<u8>| {
        let p = prepare(&bytes);
        let st = a.store(&p, None, Some("Mixed"), Origin::CommandLine).unwrap();
        a.add_certificate(st.id, &certify(&p, &referee)).unwrap();
        p
    };
    let names = ["Ann", "Bo", "Cy", "Dee"];
    let mut expected_points = std::collections::BTreeMap::<String, i64>::new();
    for i in 0..3 {
        let log = crate::samples::game_log::<paifu_core::riichi::Riichi>("standard", &format!("standings/{i}"), &names)
            .unwrap();
        let p = store(paifu_core::log::encode(&log, Encoding::Binary));
        let outcome = p.verdict.outcome().expect("valid");
        for f in &outcome.rounds.last().unwrap().facts {
            if f.key == "final_points" {
                *expected_points.entry(names[usize::from(f.seat.unwrap())].to_owned()).or_default() += f.value;
            }
        }
    }
    store(tzq_bytes("standings/tzq", ["Ann", "Bo"], Encoding::Binary));
    let st = a.standings("Mixed").unwrap().unwrap();
    let riichi: Vec<&Standing> = st.iter().filter(|s| s.game == "riichi").collect();
    let tzq: Vec<&Standing> = st.iter().filter(|s| s.game == "tzq").collect();
    assert_eq!((riichi.len(), tzq.len(), st.len()), (4, 2, 6), "one table per game, a line per player in each");
    assert!(riichi.iter().all(|s| s.games == 3 && s.ruleset == "standard"));
    assert!(tzq.iter().all(|s| s.games == 1 && s.points.is_none()));
    for s in &riichi {
        assert_eq!(s.points, Some(expected_points[&s.player]), "{}", s.player);
    }
    assert_eq!(riichi.iter().map(|s| s.points.unwrap()).sum::<i64>(), 0, "uma and oka add up to nothing");
    assert!(riichi.windows(2).all(|w| w[0].points >= w[1].points), "riichi ranks by points");
    assert_eq!(riichi[0].rank, 1);
    assert_eq!(tzq[0].rank, 1);
    // Stored facts that do not read are a corrupt archive, said so when the kept standings are
    // counted again (trusting a key takes every uncertified game out of them), not a riichi
    // line without points; nothing of that change is kept.
    a.db().exec("UPDATE rounds SET facts = 'not json'", params![]).unwrap();
    let key = paifu_core::cert::SecretKey::from_bytes(&[3; 32]).verifying_key();
    assert!(matches!(a.set_trusted_keys("Mixed", &[key]), Err(ArchiveError::Corrupt(m)) if m.contains("round facts")));
    assert_eq!(a.standings("Mixed").unwrap().unwrap(), st, "the failed change kept nothing");
}

/// Each player's statistics per game kind.
type PlayerStats = BTreeMap<String, BTreeMap<String, paifu_analyzer::Block>>;

/// Every player's statistics as the analyzer adds them up from every game that counts: what the
/// aggregates kept at ingest must equal.
pub(super) fn recomputed(a: &Archive) -> PlayerStats {
    let mut analysis = paifu_analyzer::Analysis::default();
    a.for_each_game(&Filter::default(), |g| analysis.add_game(&g, None)).unwrap();
    analysis.players.into_iter().map(|(name, s)| (name, s.kinds)).collect()
}

/// The aggregates as stored: each player's rows, and their game counts beside a count of the
/// games (game keys) of their entries.
pub(super) fn aggregated(a: &Archive) -> (PlayerStats, Vec<(String, i64, i64)>) {
    let names: Vec<(String, i64, i64)> = a
        .db()
        .rows(
            "SELECT p.name, p.games, (SELECT COUNT(DISTINCT l.game_key) FROM seats s JOIN logs l ON l.id = s.log_id
                                      WHERE s.player_id = p.id)
             FROM players p ORDER BY p.name",
            params![],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    let stats =
        names.iter().map(|(n, _, _)| (n.clone(), a.player_stats(n).unwrap())).filter(|(_, s)| !s.is_empty()).collect();
    (stats, names)
}

/// A real Tenhou game (../shared/real-logs, read in place), whole or only its rounds `cut`.
fn real_tenhou(cut: Option<std::ops::Range<usize>>) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/real-logs/tenhou/2010081709gm-00a9-0000-fe3371ad.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    if let Some(r) = cut {
        v["log"] = serde_json::Value::Array(v["log"].as_array().unwrap()[r].to_vec());
    }
    let text = v.to_string();
    let imp = crate::import::import_text("tenhou", &text, text.as_bytes()).unwrap();
    paifu_core::log::encode(&imp.log, Encoding::Binary)
}

/// An archive after a mixed ingest: valid games (one with a player in both seats), an invalid
/// one, the same logs again, forged copies stored before the genuine game, a second valid entry
/// of a game, a real riichi game and an excerpt cut out of it, some in one batch.
fn mixed_archive(b: Backend) -> (Place, Archive) {
    let (d, mut a) = temp_archive(b);
    let [genuine, seedless, wrong_seed] = genuine_and_copies("aggregates/forged");
    a.ingest_bytes(&seedless, None, None).unwrap();
    a.ingest_bytes(&wrong_seed, None, Some("Cup")).unwrap();
    assert!(a.ingest_bytes(&genuine, None, Some("Cup")).unwrap().counted);
    let mut batch: Vec<Prepared> = (0..6)
        .map(|i| {
            let seats = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"]][i % 3];
            prepare(&tzq_bytes(&format!("aggregates/{i}"), seats, Encoding::Binary))
        })
        .collect();
    let mut truncated = tzq_log("aggregates/bad", ["Ann", "Cy"]);
    truncated.records.truncate(5);
    batch.push(prepare(&paifu_core::log::encode(&truncated, Encoding::Binary)));
    batch.push(prepare(&tzq_bytes("aggregates/self", ["Ann", "Ann"], Encoding::Binary)));
    batch.push(batch[0].clone());
    let stored = a.store_batch(&batch, &[], Some("Cup"), Origin::CommandLine).unwrap();
    assert_eq!(stored.iter().filter(|s| s.new && s.valid).count(), 7);
    assert!(!stored[8].new && !stored[6].valid);
    a.ingest_bytes(&tzq_bytes("aggregates/0", ["Ann", "Bo"], Encoding::JsonLines), None, None).unwrap();
    let mut uncommitted = tzq_log("aggregates/0", ["Ann", "Bo"]);
    uncommitted.header.commitment = None;
    let second = a.ingest_bytes(&paifu_core::log::encode(&uncommitted, Encoding::Binary), None, None).unwrap();
    assert!(second.valid && !second.counted);
    assert!(a.ingest_bytes(&real_tenhou(None), None, None).unwrap().counted);
    let excerpt = a.ingest_bytes(&real_tenhou(Some(11..13)), None, None).unwrap();
    assert!(excerpt.valid && !excerpt.counted);
    (d, a)
}

fn player_aggregates_equal_the_sums_of_every_game_that_counts(b: Backend) {
    let (_d, a) = mixed_archive(b);
    let (stats, seats) = aggregated(&a);
    assert_eq!(stats, recomputed(&a));
    // Not trivially: Ann has 6 TZQ games that count (one in both seats), the real game's players
    // one riichi game (the excerpt of it does not count), and the invalid game adds nothing.
    let ann = &stats["Ann"]["tzq"];
    assert_eq!((ann.games, ann.seat_games), (6, 7));
    let riichi: Vec<u64> = stats.values().filter_map(|k| k.get("riichi")).map(|b| b.games).collect();
    assert_eq!(riichi, [1, 1, 1, 1]);
    // Every game a player sits in is one of their games, counted or not (the players list shows
    // these): Ann sits in 10 entries of 8 games (a seedless copy beside the genuine game, a
    // second valid entry of one), in 11 seats.
    assert!(seats.iter().all(|(_, kept, games)| kept == games && *kept > 0), "{seats:?}");
    assert_eq!(seats.iter().find(|s| s.0 == "Ann").map(|s| s.1), Some(8));
    let entries: i64 = a
        .db()
        .row(
            "SELECT COUNT(DISTINCT s.log_id) FROM seats s JOIN players p ON p.id = s.player_id WHERE p.name = 'Ann'",
            params![],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(entries, 10);
    // The player's list shows one line per game, as many as the count says.
    let page = a.list_games(&Filter { player: Some("Ann".into()), ..Filter::default() }, 1, 50).unwrap();
    assert_eq!((page.total, page.rows.len()), (8, 8));
}

/// Stores a log as the archive did at schemas 2 to 5 (their `store_one` for a new log, without
/// the aggregates, which migrations 4 and 6 build from these rows): counted when valid, not an
/// excerpt, and the first such entry of its log digest. Answers the entry's number, or the one
/// it had when this very log was stored already.
pub(super) fn store_at_schema_5(
    c: &Connection,
    p: &Prepared,
    tournament: Option<&str>,
    certificate: Option<&Certificate>,
) -> i64 {
    let identity = p.identity.to_hex();
    let id = match c.query_row("SELECT id FROM logs WHERE identity = ?1", [&identity], |r| r.get(0)).optional().unwrap()
    {
        Some(id) => id,
        None => {
            let excerpt = p.verdict.outcome().and_then(|o| o.excerpt.as_ref()).map(|e| e.to_string());
            let counted = p.verdict.is_valid()
                && excerpt.is_none()
                && c.query_row("SELECT 1 FROM logs WHERE digest = ?1 AND counted = 1", [p.digest.to_hex()], |_| Ok(()))
                    .optional()
                    .unwrap()
                    .is_none();
            c.execute(
                "INSERT INTO logs(identity, digest, digest_kind, game, ruleset, seat_count, form, bytes, size, records,
                                  header_json, source, added_at, counted, origin)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, NULL, 1700000000, ?12, 'cli')",
                rusqlite::params![
                    identity,
                    p.digest.to_hex(),
                    p.digest_kind.as_str(),
                    p.header.as_ref().map(|h| h.game.as_str()),
                    p.header.as_ref().map(|h| h.ruleset.as_str()),
                    p.header.as_ref().map_or(0, |h| h.seats.len() as i64),
                    p.form.as_str(),
                    p.stored,
                    p.size as i64,
                    p.records as i64,
                    p.header.as_ref().map(json),
                    i64::from(counted),
                ],
            )
            .unwrap();
            let id = c.last_insert_rowid();
            let fault = p.verdict.fault();
            let outcome = p.verdict.outcome();
            c.execute(
                "INSERT INTO verdicts(log_id, valid, fault_code, fault_index, fault_message, fault_json, final_scores,
                                      rounds, engine, checked_at, excerpt)
                 VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7, 'paifu-core 0.1.0', 0, ?8)",
                rusqlite::params![
                    id,
                    i64::from(p.verdict.is_valid()),
                    fault.map(|f| f.code.as_str()),
                    fault.map(|f| f.message.as_str()),
                    fault.map(json),
                    outcome.map(|o| json(&o.final_scores)),
                    outcome.map_or(0, |o| o.rounds.len() as i64),
                    excerpt,
                ],
            )
            .unwrap();
            for (seat, name) in p.header.as_ref().map_or(&[][..], |h| &h.seats[..]).iter().enumerate() {
                c.execute("INSERT INTO players(name) VALUES (?1) ON CONFLICT(name) DO NOTHING", [name]).unwrap();
                c.execute(
                    "INSERT INTO seats(log_id, seat, player_id, final_score, placement)
                     VALUES (?1, ?2, (SELECT id FROM players WHERE name = ?3), ?4, ?5)",
                    rusqlite::params![
                        id,
                        seat as i64,
                        name,
                        outcome.and_then(|o| o.final_scores.get(seat).copied()),
                        outcome.and_then(|o| o.placements.get(seat)).map(|&p| i64::from(p))
                    ],
                )
                .unwrap();
            }
            for r in outcome.map_or(&[][..], |o| &o.rounds[..]) {
                c.execute(
                    "INSERT INTO rounds(log_id, round, deltas, summary, facts) VALUES (?1, ?2, ?3, ?4, ?5)",
                    rusqlite::params![id, i64::from(r.round), json(&r.deltas), r.summary, json(&r.facts)],
                )
                .unwrap();
            }
            id
        }
    };
    if let Some(t) = tournament {
        c.execute("INSERT INTO tournaments(name, created_at) VALUES (?1, 0) ON CONFLICT(name) DO NOTHING", [t])
            .unwrap();
        c.execute(
            "INSERT OR IGNORE INTO tournament_games(tournament_id, log_id)
             VALUES ((SELECT id FROM tournaments WHERE name = ?1), ?2)",
            rusqlite::params![t, id],
        )
        .unwrap();
    }
    if let Some(cert) = certificate {
        c.execute(
            "INSERT INTO certificates(log_id, signer, issued_at, valid, json) VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![
                id,
                cert.certificate.signer.to_hex(),
                cert.certificate.issued_at,
                i64::from(cert.certificate.verdict == "valid"),
                cert.to_json()
            ],
        )
        .unwrap();
    }
    id
}

/// What `mixed_archive` stores, in its order: each log and the tournament it goes in.
fn mixed_items() -> Vec<(Prepared, Option<&'static str>)> {
    let [genuine, seedless, wrong_seed] = genuine_and_copies("aggregates/forged");
    let mut v = vec![(prepare(&seedless), None), (prepare(&wrong_seed), Some("Cup")), (prepare(&genuine), Some("Cup"))];
    for i in 0..6 {
        let seats = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"]][i % 3];
        v.push((prepare(&tzq_bytes(&format!("aggregates/{i}"), seats, Encoding::Binary)), Some("Cup")));
    }
    let mut truncated = tzq_log("aggregates/bad", ["Ann", "Cy"]);
    truncated.records.truncate(5);
    v.push((prepare(&paifu_core::log::encode(&truncated, Encoding::Binary)), Some("Cup")));
    v.push((prepare(&tzq_bytes("aggregates/self", ["Ann", "Ann"], Encoding::Binary)), Some("Cup")));
    let mut uncommitted = tzq_log("aggregates/0", ["Ann", "Bo"]);
    uncommitted.header.commitment = None;
    v.push((prepare(&paifu_core::log::encode(&uncommitted, Encoding::Binary)), None));
    v.push((prepare(&real_tenhou(None)), None));
    v.push((prepare(&real_tenhou(Some(11..13))), None));
    v
}

#[test]
fn migrations_4_and_6_build_the_aggregates_from_the_stored_rows() {
    let (_d, a) = mixed_archive(Backend::Sqlite);
    let fresh = aggregated(&a);
    let (tournaments, recounted) = tournament_counts(&a);
    assert_eq!(tournaments, recounted);
    // The same logs as a schema-3 archive holds them, stored as that Paifu stored them.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v3.db");
    {
        let mut c = Connection::open(&path).unwrap();
        schema::migrate_to(&mut c, "v3.db", 3).unwrap();
        for (p, t) in mixed_items() {
            store_at_schema_5(&c, &p, t, None);
        }
    }
    let a = Archive::open(&path).unwrap();
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(aggregated(&a), fresh);
    assert_eq!(fresh.0, recomputed(&a));
    assert_eq!(tournament_counts(&a), (tournaments.clone(), tournaments));
    // Migration 8 counted what it keeps from those rows.
    assert_kept_counts_are_the_rows(&a);
    // Names are folded for search as a new store folds them.
    let folded: String =
        a.lite("test").unwrap().query_row("SELECT folded FROM players WHERE name = 'Ann'", [], |r| r.get(0)).unwrap();
    assert_eq!(folded, "ann");
}

fn keyset_pages_walk_every_game_once_and_say_where_they_are(b: Backend) {
    assert!(temp_archive(b).1.game_kinds().unwrap().is_empty());
    let (_d, a) = mixed_archive(b);
    // The filter's menu: each kind once, in order.
    assert_eq!(a.game_kinds().unwrap(), ["riichi", "tzq"]);
    for filter in [Filter::default(), Filter { player: Some("Ann".into()), ..Filter::default() }] {
        let all = a.all_games(&filter).unwrap();
        assert!(all.len() > 6, "{}", all.len());
        // Older, from the newest page: every game once, each page's place among all of them.
        let mut seen: Vec<GameRow> = Vec::new();
        let mut cursor = Cursor::Newest;
        let mut firsts = Vec::new();
        loop {
            let page = a.games_page(&filter, cursor, 3).unwrap();
            assert_eq!(page.total, all.len() as u64);
            assert_eq!(page.first, seen.len() as u64 + 1);
            assert_eq!(page.page as u64, seen.len() as u64 / 3 + 1);
            assert_eq!(page.newer, (!seen.is_empty()).then(|| page.rows[0].id));
            firsts.push(page.rows[0].id);
            seen.extend(page.rows.iter().cloned());
            match page.older {
                Some(id) => cursor = Cursor::After(id),
                None => break,
            }
        }
        assert_eq!(seen, all);
        // Newer from the third page is the second; from the second, the newest.
        let third = a.games_page(&filter, Cursor::After(all[5].id), 3).unwrap();
        assert_eq!(third.rows, all[6..all.len().min(9)]);
        let second = a.games_page(&filter, Cursor::Before(third.newer.unwrap()), 3).unwrap();
        assert_eq!((second.rows.as_slice(), second.first), (&all[3..6], 4));
        let newest = a.games_page(&filter, Cursor::Before(all[2].id), 3).unwrap();
        assert_eq!((newest.rows.as_slice(), newest.first, newest.newer), (&all[..3], 1, None));
        // A page number past the end, or a cursor at the oldest game: the oldest page, as placed.
        let oldest = a.list_games(&filter, 99, 3).unwrap();
        assert_eq!(oldest.rows, all[(all.len() - 1) / 3 * 3..]);
        assert_eq!((oldest.first, oldest.older), ((all.len() - 1) as u64 / 3 * 3 + 1, None));
        assert_eq!(a.games_page(&filter, Cursor::After(all[all.len() - 1].id), 3).unwrap(), oldest);
        assert_eq!(*firsts.last().unwrap(), oldest.rows[0].id);
    }
}

fn players_are_found_by_the_start_of_their_name_in_any_case(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let tables = [["Émile", "ÉLODIE"], ["Straße", "Strauss"], ["ΣΟΦΊΑ", "Ann/Bo"], ["émile b", "Kelvin"]];
    for (i, seats) in tables.iter().enumerate() {
        a.ingest_bytes(&tzq_bytes(&format!("search/{i}"), *seats, Encoding::Binary), None, None).unwrap();
    }
    let found = |q: &str| -> Vec<String> {
        let mut v: Vec<String> = a.players(Some(q), 50, 0).unwrap().into_iter().map(|p| p.name).collect();
        v.sort();
        v
    };
    assert_eq!(found("é"), ["ÉLODIE", "Émile", "émile b"]);
    assert_eq!(found("ÉMILE"), ["Émile", "émile b"]);
    assert_eq!(found("émile "), ["émile b"]);
    // Full folding, not ASCII lower-casing: ß is ss, a final sigma is a sigma.
    assert_eq!(found("STRASSE"), ["Straße"]);
    assert_eq!(found("stra"), ["Strauss", "Straße"]);
    assert_eq!(found("σοφία"), ["ΣΟΦΊΑ"]);
    assert_eq!(found("\u{212A}el"), ["Kelvin"], "the Kelvin sign folds to k");
    // A prefix, not a part of the name; "/" is a character like any other.
    assert!(found("mile").is_empty());
    assert_eq!(found("ann/"), ["Ann/Bo"]);
    assert!(found("\u{10FFFF}").is_empty());
    // The folded names' index serves it (SQLite's plan).
    let Ok(c) = a.lite("a query plan") else { return };
    let plan: String = c
        .query_row(
            "EXPLAIN QUERY PLAN SELECT name, games FROM players WHERE folded >= 'a' AND folded < 'b'
             ORDER BY games DESC, name",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("players_folded"), "{plan}");
    assert_eq!(super::aggregates::prefix_end("ab"), Some("ac".to_owned()));
    assert_eq!(super::aggregates::prefix_end("a\u{D7FF}"), Some("a\u{E000}".to_owned()));
    assert_eq!(super::aggregates::prefix_end("a\u{10FFFF}"), Some("b".to_owned()));
}

/// Each tournament's name, games, valid games and games its standings count: as kept, and as the
/// standings' own condition counts them from every row.
type Counts = Vec<(String, u64, u64, u64)>;

pub(super) fn tournament_counts(a: &Archive) -> (Counts, Counts) {
    let kept = a.tournaments().unwrap().into_iter().map(|t| (t.name, t.games, t.valid, t.counted)).collect();
    // Counted: the games with an entry in it that is valid, not an excerpt and certified valid by
    // a key it trusts (one per game).
    let sql = "SELECT t.name, (SELECT COUNT(*) FROM tournament_games tg WHERE tg.tournament_id = t.id),
                (SELECT COUNT(*) FROM tournament_games tg JOIN verdicts v ON v.log_id = tg.log_id
                 WHERE tg.tournament_id = t.id AND v.valid = 1),
                (SELECT COUNT(DISTINCT l.game_key) FROM tournament_games tg JOIN logs l ON l.id = tg.log_id
                 JOIN verdicts v ON v.log_id = l.id
                 WHERE tg.tournament_id = t.id AND v.valid = 1 AND v.excerpt IS NULL
                   AND EXISTS (SELECT 1 FROM certificates c JOIN tournament_keys k ON k.signer = c.signer
                               WHERE c.log_id = l.id AND c.valid = 1 AND k.tournament_id = t.id))
         FROM tournaments t ORDER BY t.id DESC";
    let n = |r: &db::Row<'_>, i: usize| r.get::<_, i64>(i).map(|v| v as u64);
    let counted = a.db().rows(sql, params![], |r| Ok((r.get(0)?, n(r, 1)?, n(r, 2)?, n(r, 3)?))).unwrap();
    (kept, counted)
}

fn tournament_counts_follow_games_certificates_and_trusted_keys(b: Backend) {
    let (_d, mut a) = mixed_archive(b);
    let (one, two) = (key(11), key(12));
    a.ensure_tournament("Trusting", None, &[one.verifying_key()]).unwrap();
    let check = |a: &Archive, counted: &[(&str, u64)]| {
        let (rows, recounted) = tournament_counts(a);
        assert_eq!(rows, recounted);
        for (name, n) in counted {
            assert_eq!(rows.iter().find(|t| t.0 == *name).map(|t| t.3), Some(*n), "{name}: {rows:?}");
        }
    };
    check(&a, &[("Cup", 0), ("Trusting", 0)]);
    // Certified by a key the tournament trusts, by another, or twice; stored before or after.
    let mut ids = Vec::new();
    for i in 0..4 {
        let p = prepare(&tzq_bytes(&format!("aggregates/t/{i}"), ["Ann", "Dee"], Encoding::Binary));
        let st = a.store(&p, None, Some("Trusting"), Origin::CommandLine).unwrap();
        a.add_certificate(st.id, &certify(&p, if i == 3 { &two } else { &one })).unwrap();
        if i == 0 {
            a.add_certificate(st.id, &certify(&p, &two)).unwrap();
        }
        ids.push((st.id, p));
    }
    check(&a, &[("Trusting", 3)]);
    // An entry certified first and put in the tournament after (the same log given again).
    let p = prepare(&tzq_bytes("aggregates/t/late", ["Bo", "Dee"], Encoding::Binary));
    let st = a.store(&p, None, None, Origin::CommandLine).unwrap();
    a.add_certificate(st.id, &certify(&p, &one)).unwrap();
    check(&a, &[("Trusting", 3)]);
    assert!(a.store(&p, None, Some("Trusting"), Origin::CommandLine).unwrap().added_to_tournament);
    check(&a, &[("Trusting", 4)]);
    // Forged copies and an invalid entry certified by a trusted key never count.
    let [genuine, seedless, _] = genuine_and_copies("aggregates/t/forged");
    for bytes in [&seedless, &genuine] {
        let p = prepare(bytes);
        let st = a.store(&p, None, Some("Trusting"), Origin::CommandLine).unwrap();
        a.add_certificate(st.id, &certify(&p, &one)).unwrap();
    }
    check(&a, &[("Trusting", 5)]);
    // Keys taken away and given: what they certified goes and comes back.
    a.set_trusted_keys("Trusting", &[two.verifying_key()]).unwrap();
    check(&a, &[("Trusting", 2)]);
    a.set_trusted_keys("Trusting", &[]).unwrap();
    check(&a, &[("Trusting", 0)]);
    a.set_trusted_keys("Trusting", &[one.verifying_key(), two.verifying_key()]).unwrap();
    check(&a, &[("Trusting", 6)]);
    a.set_trusted_keys("Cup", &[one.verifying_key()]).unwrap();
    check(&a, &[("Cup", 0), ("Trusting", 6)]);
    assert_eq!(a.tournaments().unwrap().iter().find(|t| t.name == "Trusting").map(|t| t.games), Some(7));
}

/// The logs of issue 24's first attack: the organiser's log and a copy of it with the
/// `commitment` deleted (valid: the seed is there).
fn genuine_and_uncommitted(seed: &str, players: [&str; 2]) -> (Prepared, Prepared) {
    let log = tzq_log(seed, players);
    let mut copy = log.clone();
    copy.header.commitment = None;
    (
        prepare(&paifu_core::log::encode(&log, Encoding::Binary)),
        prepare(&paifu_core::log::encode(&copy, Encoding::JsonLines)),
    )
}

fn a_better_certified_entry_takes_over_counting(b: Backend) {
    // Issue 24: the copy stored first (by an uploader: the server's key signs it) counted, and
    // the organiser's log, certified by the tournament's key, did not: its standings were empty.
    let (_d, mut a) = temp_archive(b);
    let (server, referee) = (key(21), key(22));
    a.ensure_tournament("Cup", None, &[referee.verifying_key()]).unwrap();
    let (genuine, copy) = genuine_and_uncommitted("archive/takeover", ["Ann", "Bo"]);
    let c = a.store_certified(&copy, None, Some(&certify(&copy, &server)), None, Origin::Web { token: 0 });
    // (No token 0 exists: the copy is stored from the command line instead.)
    let c = c.or_else(|_| a.store_certified(&copy, None, Some(&certify(&copy, &server)), None, Origin::CommandLine));
    let c = c.unwrap();
    assert!(c.new && c.valid && c.counted && c.certified_now);
    let g = a
        .store_certified(&genuine, None, Some(&certify(&genuine, &referee)), Some("Cup"), Origin::CommandLine)
        .unwrap();
    assert!(g.new && g.valid && g.counted, "the organiser's entry takes over");
    assert_eq!((g.game.as_str(), g.others), (c.game.as_str(), 1));
    let detail = a.game(c.id).unwrap().unwrap();
    assert!(!detail.counted, "the copy stays, not counted");
    assert_eq!(
        detail.entries.iter().map(|e| (e.id, e.counted, e.trust)).collect::<Vec<_>>(),
        [(g.id, true, 2), (c.id, false, 1)],
        "side by side, the one that counts first"
    );
    assert_eq!(a.standings("Cup").unwrap().unwrap().iter().map(|s| s.games).sum::<u64>(), 2);
    assert_eq!(a.for_each_game(&Filter::default(), |_| ()).unwrap(), 1);
    // A takeover changes no statistic: the game was counted once before and after.
    let (stats, _) = aggregated(&a);
    assert_eq!(stats, recomputed(&a));
    assert_eq!(stats["Ann"]["tzq"].games, 1);
    // Among equals the one that counts stays: another entry certified by the referee too.
    let mut third = tzq_log("archive/takeover", ["Ann", "Bo"]);
    third.header.meta.insert("table".into(), "3".into());
    let third = prepare(&paifu_core::log::encode(&third, Encoding::Binary));
    let t =
        a.store_certified(&third, None, Some(&certify(&third, &referee)), Some("Cup"), Origin::CommandLine).unwrap();
    assert!(t.new && t.valid && !t.counted);
    assert!(a.game(g.id).unwrap().unwrap().counted);
    assert_eq!(a.tournaments().unwrap()[0].counted, 1);
    // An uncertified copy stored after never takes over either.
    let mut fourth = tzq_log("archive/takeover", ["Ann", "Bo"]);
    fourth.header.meta.insert("table".into(), "4".into());
    let f = a.ingest_bytes(&paifu_core::log::encode(&fourth, Encoding::Binary), None, None).unwrap();
    assert!(f.new && !f.counted && a.game(g.id).unwrap().unwrap().counted);
}

fn another_tournaments_copy_never_takes_a_game_out_of_the_standings(b: Backend) {
    // An organiser of another tournament, trusting the server's key, stores the copy there first:
    // equal trust, so it keeps counting in the archive, but the first tournament's standings count
    // its own entry.
    let (_d, mut a) = temp_archive(b);
    let (server, referee) = (key(23), key(24));
    a.ensure_tournament("Evil", None, &[server.verifying_key()]).unwrap();
    a.ensure_tournament("Cup", None, &[referee.verifying_key()]).unwrap();
    let (genuine, copy) = genuine_and_uncommitted("archive/evil", ["Ann", "Bo"]);
    let c = a.store_certified(&copy, None, Some(&certify(&copy, &server)), Some("Evil"), Origin::CommandLine).unwrap();
    let g = a
        .store_certified(&genuine, None, Some(&certify(&genuine, &referee)), Some("Cup"), Origin::CommandLine)
        .unwrap();
    assert!(c.counted && !g.counted, "equal trust: the first stays in the archive");
    let cup = a.published("Cup").unwrap().unwrap();
    assert_eq!(cup.games.len(), 1);
    assert!(cup.games[0].entry.counted);
    assert_eq!(cup.standings.iter().map(|s| s.games).sum::<u64>(), 2);
    assert_eq!(
        a.tournaments().unwrap().iter().map(|t| (t.name.as_str(), t.counted)).collect::<Vec<_>>(),
        [("Cup", 1), ("Evil", 1)]
    );
}

fn storing_an_entry_and_its_certificate_is_one_transaction(b: Backend) {
    // A batch refused after its first item (a refused name) stores neither entries nor
    // certificates; an entry stored without its certificate gets it when stored again with it.
    let (_d, mut a) = temp_archive(b);
    let referee = key(25);
    a.ingest_bytes(&tzq_bytes("archive/tx/0", ["Cup", "Bo"], Encoding::Binary), None, None).unwrap();
    let ok = prepare(&tzq_bytes("archive/tx/1", ["Ann", "Bo"], Encoding::Binary));
    let bad = prepare(&tzq_bytes("archive/tx/2", ["\u{421}up", "Bo"], Encoding::Binary));
    let certs = [certify(&ok, &referee), certify(&bad, &referee)];
    let e = a
        .store_batch_certified(
            &[ok.clone(), bad.clone()],
            &[],
            &[Some(&certs[0]), Some(&certs[1])],
            None,
            Origin::CommandLine,
        )
        .unwrap_err();
    assert!(matches!(e, ArchiveError::Refused { index: 1, .. }), "{e}");
    assert_eq!(a.summary().unwrap().games, 1);
    let n: i64 = a.db().row("SELECT COUNT(*) FROM certificates", params![], |r| r.get(0)).unwrap();
    assert_eq!(n, 0);
    let st = a.store(&ok, None, None, Origin::CommandLine).unwrap();
    assert!(a.certificates(st.id).unwrap().is_empty());
    let again = a.store_certified(&ok, None, Some(&certs[0]), None, Origin::CommandLine).unwrap();
    assert!(!again.new && again.certified_now);
    assert_eq!(a.certificates(st.id).unwrap().len(), 1);
    let third = a.store_certified(&ok, None, Some(&certify(&ok, &referee)), None, Origin::CommandLine).unwrap();
    assert!(!third.certified_now, "one certificate per key is enough");
    // A certificate of another log is refused.
    let e = a.store_certified(&ok, None, Some(&certs[1]), None, Origin::CommandLine).unwrap_err();
    assert!(e.to_string().contains("names the log"), "{e}");
}

fn lookalike_names_are_refused_through_the_archive(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    a.ensure_tournament("Cup", None, &[]).unwrap();
    a.ingest_bytes(&tzq_bytes("archive/names/0", ["Aiko", "Bo"], Encoding::Binary), None, None).unwrap();
    for name in ["Cup\u{200B}", "\u{421}up"] {
        let e = a.ensure_tournament(name, None, &[]).unwrap_err();
        assert!(
            matches!(&e, ArchiveError::Name(NameError::Confusable { existing, .. }) if existing == "Cup"),
            "{name:?}: {e}"
        );
        assert!(e.to_string().contains("\"Cup\""), "{e}");
        let e = a.ingest_bytes(&tzq_bytes("archive/names/1", ["Ann", "Bo"], Encoding::Binary), None, Some(name));
        assert!(matches!(e, Err(ArchiveError::Name(NameError::Confusable { .. }))), "{e:?}");
    }
    let e = a.ingest_bytes(&tzq_bytes("archive/names/2", ["Aiko\u{200B}", "Bo"], Encoding::Binary), None, None);
    match e {
        Err(ArchiveError::Refused { refusal, .. }) => {
            assert_eq!(
                *refusal,
                Refusal::PlayerName {
                    seat: 0,
                    error: NameError::Confusable { kind: NameKind::Player, existing: "Aiko".into() }
                }
            );
            assert!(refusal.to_string().contains("\"Aiko\""), "{refusal}");
        }
        other => panic!("{other:?}"),
    }
    // Invisible in a name that reads as no stored one: refused as invisible.
    let e = a.ingest_bytes(&tzq_bytes("archive/names/3", ["Zed\u{2060}", "Bo"], Encoding::Binary), None, None);
    assert!(
        matches!(&e, Err(ArchiveError::Refused { refusal, .. })
            if matches!(**refusal, Refusal::PlayerName { error: NameError::Invisible { code: 0x2060, .. }, .. })),
        "{e:?}"
    );
    // Two new lookalikes in one log: the second is refused naming the first.
    let e = a.ingest_bytes(&tzq_bytes("archive/names/4", ["Bob", "B\u{43E}b"], Encoding::Binary), None, None);
    assert!(
        matches!(&e, Err(ArchiveError::Refused { refusal, .. }) if refusal.to_string().contains("\"Bob\"")),
        "{e:?}"
    );
    assert_eq!(a.players(None, 10, 0).unwrap().len(), 2, "nothing refused was stored");
}

#[test]
fn migration_7_keeps_old_lookalike_names_working() {
    // A schema-6 archive holding `Cup` and `Cup` + U+200B, `Aiko` and `Aiko` + U+200B (stored
    // before names were checked): both keep working; a new lookalike of either is refused.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v6.db");
    {
        let mut c = Connection::open(&path).unwrap();
        schema::migrate_to(&mut c, "v6.db", 5).unwrap();
        for (i, (p, t)) in [(["Aiko", "Bo"], "Cup"), (["Aiko\u{200B}", "Bo"], "Cup\u{200B}")].iter().enumerate() {
            store_at_schema_5(
                &c,
                &prepare(&tzq_bytes(&format!("archive/m7/{i}"), *p, Encoding::Binary)),
                Some(t),
                None,
            );
        }
        schema::migrate_to(&mut c, "v6.db", 6).unwrap();
    }
    let mut a = Archive::open(&path).unwrap();
    let sk: Vec<String> = a
        .lite("test")
        .unwrap()
        .prepare("SELECT skeleton FROM players WHERE name LIKE 'Aiko%' ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(sk[0], sk[1], "the old pair share a skeleton");
    let plan: String = a
        .lite("test")
        .unwrap()
        .query_row("EXPLAIN QUERY PLAN SELECT name FROM players WHERE skeleton = 'x'", [], |r| r.get(3))
        .unwrap();
    assert!(plan.contains("players_skeleton"), "{plan}");
    // Old names keep working: more games with them, in their tournaments.
    for (i, (p, t)) in [(["Aiko", "Cy"], "Cup"), (["Aiko\u{200B}", "Cy"], "Cup\u{200B}")].iter().enumerate() {
        let st =
            a.ingest_bytes(&tzq_bytes(&format!("archive/m7/new/{i}"), *p, Encoding::Binary), None, Some(t)).unwrap();
        assert!(st.new && st.valid);
    }
    assert_eq!(a.player("Aiko\u{200B}").unwrap().unwrap().games, 2);
    assert!(a.ingest_bytes(&tzq_bytes("archive/m7/x", ["A\u{131}ko", "Cy"], Encoding::Binary), None, None).is_err());
    assert!(a.ensure_tournament("\u{421}up", None, &[]).is_err());
}

#[test]
fn migration_6_counts_by_trust_and_merges_games() {
    // A schema-5 archive as e7c92f0 left it after the attacks: the copy stored first counted and
    // the organiser's certified entry did not (standings empty); two uploads of one game with
    // another `meta` counted as two games.
    let referee = key(26);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v5.db");
    let (genuine, copy) = genuine_and_uncommitted("archive/m6", ["Ann", "Bo"]);
    let mut other = tzq_log("archive/m6/meta", ["Ann", "Cy"]);
    let plain = prepare(&paifu_core::log::encode(&other, Encoding::Binary));
    other.header.meta.insert("table".into(), "2".into());
    let with_meta = prepare(&paifu_core::log::encode(&other, Encoding::Binary));
    {
        let mut c = Connection::open(&path).unwrap();
        schema::migrate_to(&mut c, "v5.db", 5).unwrap();
        store_at_schema_5(&c, &copy, None, None);
        store_at_schema_5(&c, &genuine, Some("Cup"), Some(&certify(&genuine, &referee)));
        c.execute(
            "INSERT INTO tournament_keys(tournament_id, signer) VALUES ((SELECT id FROM tournaments), ?1)",
            [key_hex(&referee)],
        )
        .unwrap();
        store_at_schema_5(&c, &plain, None, None);
        store_at_schema_5(&c, &with_meta, None, None);
        let counted: i64 = c.query_row("SELECT COUNT(*) FROM logs WHERE counted = 1", [], |r| r.get(0)).unwrap();
        let in_cup: i64 = c.query_row("SELECT counted FROM tournaments", [], |r| r.get(0)).unwrap();
        assert_eq!((counted, in_cup), (3, 0), "the state the attacks left");
    }
    let a = Archive::open(&path).unwrap();
    let counted: Vec<i64> = a
        .lite("test")
        .unwrap()
        .prepare("SELECT id FROM logs WHERE counted = 1 ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(counted, [2, 3], "the organiser's entry counts, and one entry of the other game");
    assert_eq!(a.tournaments().unwrap()[0].counted, 1);
    assert_eq!(a.standings("Cup").unwrap().unwrap().iter().map(|s| s.games).sum::<u64>(), 2);
    assert_eq!(a.player("Ann").unwrap().unwrap().games, 2, "two games, four entries");
    let (stats, _) = aggregated(&a);
    assert_eq!(stats, recomputed(&a));
    assert_eq!(stats["Ann"]["tzq"].games, 2);
    assert_eq!(a.game(1).unwrap().unwrap().entries.len(), 2);
}

fn an_invalid_log_is_kept_only_a_little_past_its_fault(b: Backend) {
    // Issue 24: a log of 188 870 records after a fault at record 0 was kept whole.
    let (_d, mut a) = temp_archive(b);
    let game = tzq_log("archive/long", ["Ann", "Bo"]);
    let mut long = game.clone();
    long.records.clear();
    while long.records.len() < 190_000 {
        for r in &game.records {
            let mut r = r.clone();
            r.seq = long.records.len() as u32;
            long.records.push(r);
        }
    }
    long.records.truncate(190_000);
    long.records[0].seat ^= 1;
    let bytes = paifu_core::log::encode(&long, Encoding::Binary);
    let p = prepare(&bytes);
    let fault = p.verdict.fault().cloned().unwrap();
    assert_eq!(fault.index, Some(0), "{fault:?}");
    assert_eq!(p.records + p.dropped, 190_000);
    assert!(p.stored.len() <= KEEP_AFTER_FAULT_BYTES + 1024, "{} of {} bytes kept", p.stored.len(), bytes.len());
    assert_eq!(p.size, bytes.len());
    // What is kept is judged again, to the same fault; a certificate of it holds.
    let again = crate::import::source::validate_bytes(&p.stored);
    assert_eq!(again.verdict.fault(), Some(&fault));
    assert_eq!(again.records, p.records);
    let referee = key(27);
    let st = a.store_certified(&p, None, Some(&certify(&p, &referee)), None, Origin::CommandLine).unwrap();
    let g = a.game(st.id).unwrap().unwrap();
    assert_eq!((g.records as usize, g.dropped as usize), (p.records, p.dropped));
    let c = Certificate::from_json(&a.certificates(st.id).unwrap()[0].json).unwrap();
    c.verify(&referee.verifying_key(), &again).unwrap();
    // A log whose fault is near its end, or a real game waiting for its seed, is kept whole.
    let mut late = game.clone();
    let last = late.records.len() - 1;
    late.records[last].seat ^= 1;
    let p = prepare(&paifu_core::log::encode(&late, Encoding::Binary));
    assert!(!p.verdict.is_valid() && p.dropped == 0);
    let mut seedless = game.clone();
    seedless.header.seed = None;
    let p = prepare(&paifu_core::log::encode(&seedless, Encoding::Binary));
    assert_eq!(
        (p.verdict.fault().map(|f| f.code), p.dropped, p.records),
        (Some(ErrorCode::MissingSeed), 0, game.records.len())
    );
}

/// Every filter the games list can show over `a`'s players, tournaments, kinds and verdicts.
fn every_filter(a: &Archive) -> Vec<Filter> {
    let names = |sql: &str| -> Vec<Option<String>> {
        let v: Vec<String> = a.db().rows(sql, params![], |r| r.get(0)).unwrap();
        std::iter::once(None).chain(v.into_iter().map(Some)).collect()
    };
    let mut out = Vec::new();
    for player in names("SELECT name FROM players ORDER BY id") {
        for tournament in names("SELECT name FROM tournaments ORDER BY id") {
            for game in names("SELECT DISTINCT game FROM logs WHERE game IS NOT NULL ORDER BY game") {
                for valid in [None, Some(true), Some(false)] {
                    out.push(Filter {
                        player: player.clone(),
                        tournament: tournament.clone(),
                        game: game.clone(),
                        valid,
                        since: None,
                    });
                }
            }
        }
    }
    out
}

/// The counts kept at ingest equal the same counts taken from the stored rows: every games
/// list's total and the place of each of its pages (against the statement that counts rows,
/// which a filter by the time stored uses), the overview's totals, each tournament's standings
/// (against the counted seats) and Merkle root (against its manifest, read from every entry),
/// and every kept row against the rows migration 8 adds up from scratch.
pub(super) fn assert_kept_counts_are_the_rows(a: &Archive) {
    let db = a.db();
    for filter in every_filter(a) {
        let all = a.all_games(&filter).unwrap();
        let counted = Filter { since: Some(0), ..filter.clone() };
        let newest = a.games_page(&filter, Cursor::Newest, 3).unwrap();
        assert_eq!(newest.total, all.len() as u64, "{filter:?}");
        assert_eq!(newest.total, a.games_page(&counted, Cursor::Newest, 3).unwrap().total, "{filter:?}");
        // Each page by number and by cursor: its rows, and its place among all of them.
        let mut seen = Vec::new();
        let mut cursor = Cursor::Newest;
        for n in 1u32.. {
            let page = a.games_page(&filter, cursor, 3).unwrap();
            let by_number = a.list_games(&filter, n, 3).unwrap();
            assert_eq!((&page.rows, page.first), (&by_number.rows, by_number.first), "{filter:?} page {n}");
            assert_eq!(page.first, if all.is_empty() { 0 } else { seen.len() as u64 + 1 }, "{filter:?} page {n}");
            seen.extend(page.rows.iter().map(|r| r.id));
            match page.older {
                Some(id) => cursor = Cursor::After(id),
                None => break,
            }
        }
        assert_eq!(seen, all.iter().map(|r| r.id).collect::<Vec<_>>(), "{filter:?}: every game once, in order");
    }
    let one = |sql: &str| -> u64 { db.row(sql, params![], |r| r.get::<_, i64>(0)).unwrap() as u64 };
    let s = a.summary().unwrap();
    assert_eq!(
        (s.games, s.valid, s.invalid, s.players, s.tournaments, s.rounds),
        (
            one("SELECT COUNT(*) FROM logs"),
            one("SELECT COUNT(*) FROM verdicts WHERE valid = 1"),
            one("SELECT COUNT(*) FROM verdicts WHERE valid = 0"),
            one("SELECT COUNT(*) FROM players"),
            one("SELECT COUNT(*) FROM tournaments"),
            one("SELECT CAST(COALESCE(SUM(rounds), 0) AS BIGINT) FROM verdicts"),
        )
    );
    let rows = |sql: &str| -> Vec<(String, u64)> {
        db.rows(sql, params![], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64))).unwrap()
    };
    let per_game =
        rows("SELECT COALESCE(game, '?'), COUNT(*) AS n FROM logs GROUP BY game ORDER BY n DESC, COALESCE(game, '?')");
    let kept: Vec<(String, u64)> =
        s.per_game.iter().map(|(g, n)| (g.clone().unwrap_or_else(|| "?".into()), *n)).collect();
    assert_eq!(kept, per_game);
    let faults = rows(
        "SELECT COALESCE(fault_code, ''), COUNT(*) AS n FROM verdicts WHERE valid = 0 GROUP BY fault_code
         ORDER BY n DESC, fault_code",
    );
    assert_eq!(s.faults, faults);
    let names: Vec<String> = db.rows("SELECT name FROM tournaments", params![], |r| r.get(0)).unwrap();
    for name in &names {
        // Each counted entry's seats, as the standings add them up.
        let from_rows: Vec<(String, String, String, u64, u64, u64, i64)> = db
            .rows(
                "SELECT COALESCE(l.game, ''), COALESCE(l.ruleset, ''), p.name, COUNT(*),
                        CAST(SUM(CASE WHEN s.placement = 1 THEN 1 ELSE 0 END) AS BIGINT),
                        CAST(SUM(COALESCE(s.placement, 0)) AS BIGINT), CAST(SUM(COALESCE(s.final_score, 0)) AS BIGINT)
                 FROM tournament_counted tc JOIN tournaments t ON t.id = tc.tournament_id
                 JOIN logs l ON l.id = tc.log_id JOIN seats s ON s.log_id = l.id JOIN players p ON p.id = s.player_id
                 WHERE t.name = ?1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
                [name],
                |r| {
                    let n = |i: usize| r.get::<_, i64>(i).map(|v| v as u64);
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, n(3)?, n(4)?, n(5)?, r.get(6)?))
                },
            )
            .unwrap();
        let mut kept: Vec<_> = a
            .standings(name)
            .unwrap()
            .unwrap()
            .into_iter()
            .map(|s| (s.game, s.ruleset, s.player, s.games, s.firsts, s.placement_sum, s.total_score))
            .collect();
        kept.sort();
        assert_eq!(kept, from_rows, "{name}'s standings");
        let (summary, published) = (a.tournament_summary(name).unwrap().unwrap(), a.published(name).unwrap().unwrap());
        assert_eq!(summary.root, published.root, "{name}'s Merkle root");
        assert_eq!(summary.terms, published.terms, "{name}'s final points terms");
        assert_eq!(summary.counted, published.games.iter().filter(|g| g.entry.counted).count() as u64);
        assert_eq!(summary.games, published.games.len() as u64);
    }
    // Every kept row, against the same rows added up from scratch by migration 8's own count
    // (SQLite's: PostgreSQL's archives begin past migration 8).
    let Ok(c) = a.lite("the count from scratch") else { return };
    let dump = |sql: &str| -> Vec<Vec<String>> {
        let mut st = c.prepare(sql).unwrap();
        let n = st.column_count();
        let v = st
            .query_map([], |r| (0..n).map(|i| Ok(format!("{:?}", r.get_ref(i)?))).collect::<rusqlite::Result<_>>())
            .unwrap();
        v.collect::<rusqlite::Result<_>>().unwrap()
    };
    let tables = [
        "SELECT * FROM list_counts ORDER BY 1, 2, 3, 4, 5",
        "SELECT * FROM kept_totals ORDER BY 1",
        "SELECT * FROM fault_counts ORDER BY 1",
        "SELECT * FROM tournament_standings ORDER BY 1, 2, 3, 4",
        "SELECT * FROM tournament_terms ORDER BY 1, 2, 3",
        "SELECT * FROM tournament_penalties ORDER BY 1, 2, 3, 4",
        "SELECT tournament_id, log_id, file, leaf FROM tournament_games ORDER BY 1, 2",
        "SELECT id, root FROM tournaments ORDER BY 1",
    ];
    let incremental: Vec<_> = tables.iter().map(|t| dump(t)).collect();
    c.execute_batch("SAVEPOINT scratch").unwrap();
    c.execute_batch(
        "DELETE FROM list_counts; DELETE FROM fault_counts; UPDATE kept_totals SET n = 0 WHERE name = 'rounds';
         DELETE FROM tournament_standings; DELETE FROM tournament_terms; DELETE FROM tournament_penalties;
         UPDATE tournament_games SET file = NULL, leaf = NULL; UPDATE tournaments SET root = NULL;",
    )
    .unwrap();
    kept::count_stored(Db::Lite(c)).unwrap();
    let counted = schema::every_counted(Db::Lite(c)).unwrap();
    tournaments::keep_standings(Db::Lite(c), &counted).unwrap();
    tournaments::keep_penalties(Db::Lite(c), &counted).unwrap();
    let all: std::collections::BTreeSet<i64> = c
        .prepare("SELECT id FROM tournaments")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    publish::keep_roots(Db::Lite(c), &Default::default(), &all).unwrap();
    let scratch: Vec<_> = tables.iter().map(|t| dump(t)).collect();
    c.execute_batch("ROLLBACK TO scratch; RELEASE scratch").unwrap();
    for ((t, kept), scratch) in tables.iter().zip(&incremental).zip(&scratch) {
        assert_eq!(kept, scratch, "{t}: kept as stored, and counted from scratch");
    }
}

/// TZQ games of five players over two tournaments and none, a few invalid, enough that every
/// list spans several of the unit tests' blocks.
fn many_games(a: &mut Archive, from: usize, n: usize) {
    let names = ["Ann", "Bo", "Cy", "Di", "Ed"];
    let items: Vec<Prepared> = (from..from + n)
        .map(|i| {
            let mut l = tzq_log(&format!("kept/{i}"), [names[i % 5], names[(i / 5 + i + 1) % 5]]);
            if i % 7 == 3 {
                l.records.truncate(l.records.len() / 2);
            }
            prepare(&paifu_core::log::encode(&l, Encoding::Binary))
        })
        .collect();
    for (k, chunk) in items.chunks(9).enumerate() {
        let t = [Some("Cup"), None, Some("Open")][k % 3];
        a.store_batch(chunk, &[], t, Origin::CommandLine).unwrap();
    }
}

#[test]
fn kept_counts_equal_the_rows_after_ingests_takeovers_certificates_and_keys() {
    let (_d, mut a) = mixed_archive(Backend::Sqlite);
    assert_kept_counts_are_the_rows(&a);
    many_games(&mut a, 0, 60);
    assert_kept_counts_are_the_rows(&a);
    // A takeover: an uncommitted copy counts and leads, then the genuine log certified by the
    // key the tournament trusts takes both over; the copy leaves the players' lists.
    let (server, referee) = (key(31), key(32));
    a.ensure_tournament("Trusting", None, &[referee.verifying_key()]).unwrap();
    let (genuine, copy) = genuine_and_uncommitted("kept/takeover", ["Ann", "Fay"]);
    let c = a.store_certified(&copy, None, Some(&certify(&copy, &server)), Some("Open"), Origin::CommandLine).unwrap();
    let fay = Filter { player: Some("Fay".into()), ..Filter::default() };
    assert_eq!(a.all_games(&fay).unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), [c.id]);
    assert_kept_counts_are_the_rows(&a);
    let g = a
        .store_certified(&genuine, None, Some(&certify(&genuine, &referee)), Some("Trusting"), Origin::CommandLine)
        .unwrap();
    assert!(g.counted && !a.game(c.id).unwrap().unwrap().counted);
    assert_eq!(a.all_games(&fay).unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), [g.id], "the lead moved");
    assert_eq!(a.games_page(&fay, Cursor::Newest, 5).unwrap().total, 1);
    assert_kept_counts_are_the_rows(&a);
    // The copy joins the trusting tournament; a certificate added later makes entries count in
    // it; the keys it trusts change (every entry recounted, every manifest leaf again).
    a.store(&copy, None, Some("Trusting"), Origin::CommandLine).unwrap();
    let some = a.all_games(&Filter { tournament: Some("Cup".into()), ..Filter::default() }).unwrap();
    let p = prepare(&a.log_bytes(some[0].id).unwrap().unwrap().0);
    a.store(&p, None, Some("Trusting"), Origin::CommandLine).unwrap();
    a.add_certificate(some[0].id, &certify(&p, &referee)).unwrap();
    assert_kept_counts_are_the_rows(&a);
    a.set_trusted_keys("Trusting", &[server.verifying_key()]).unwrap();
    assert_kept_counts_are_the_rows(&a);
    a.set_trusted_keys("Cup", &[referee.verifying_key()]).unwrap();
    a.set_trusted_keys("Trusting", &[]).unwrap();
    assert_kept_counts_are_the_rows(&a);
    many_games(&mut a, 60, 20);
    assert_kept_counts_are_the_rows(&a);
}

/// The statement that finds a page's games reads only the tables its filter names: the verdicts
/// and logs joined to a tournament's entries were merged from the newest game down to the page on
/// PostgreSQL, however deep (docs/performance.md). Each backend's own plan is read.
fn a_page_finds_its_games_without_the_tables_its_filter_does_not_name(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    many_games(&mut a, 0, 20);
    let t = Some("Cup".to_owned());
    for (filter, absent, present) in [
        (Filter { tournament: t.clone(), ..Filter::default() }, &["verdicts", "logs"][..], &[][..]),
        (Filter::default(), &["verdicts"][..], &[][..]),
        (Filter { player: Some("Ann".into()), ..Filter::default() }, &["verdicts"][..], &["logs"][..]),
        (Filter { tournament: t, valid: Some(true), ..Filter::default() }, &["logs"][..], &["verdicts"][..]),
    ] {
        let q = where_clause(&filter);
        let db = a.db();
        let explain = db.pick("EXPLAIN QUERY PLAN", "EXPLAIN");
        let sql = format!(
            "{explain} SELECT {} FROM {} WHERE {} AND {} < 50 ORDER BY {} DESC LIMIT 5",
            q.key, q.ids_from, q.cond, q.key, q.key
        );
        let column = if explain == "EXPLAIN" { 0 } else { 3 };
        let plan: Vec<String> = db.rows(&sql, q.values.clone(), |r| r.get(column)).unwrap();
        let plan = plan.join("\n");
        // A table is in the plan when it is scanned (SQLite: `SCAN v`, `SEARCH v USING ...`;
        // PostgreSQL: `Scan ... on verdicts v`).
        let read = |table: &str, alias: &str| {
            plan.contains(&format!(" on {table} "))
                || plan.lines().any(|l| l.contains(&format!(" {alias} ")) || l.ends_with(&format!(" {alias}")))
        };
        for table in absent {
            let alias = &table[..1];
            assert!(!read(table, alias), "{b:?}, {filter:?}: {table} read:\n{plan}");
        }
        for table in present {
            let alias = &table[..1];
            assert!(read(table, alias), "{b:?}, {filter:?}: {table} not read:\n{plan}");
        }
    }
}

fn deep_pages_read_only_their_block_and_say_their_place(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    many_games(&mut a, 0, 100);
    let filter = Filter::default();
    let all = a.all_games(&filter).unwrap();
    assert_eq!(all.len(), 100);
    // Blocks of 8 in the tests: a page deep in the list, by cursor and by number, from the
    // counts of the blocks above it and the rows of its own.
    for per in [1u32, 3, 7, 50] {
        for start in [0usize, 1, 7, 8, 9, 50, 63, 64, 98, 99] {
            let page = if start == 0 {
                a.games_page(&filter, Cursor::Newest, per).unwrap()
            } else {
                a.games_page(&filter, Cursor::After(all[start - 1].id), per).unwrap()
            };
            let end = (start + per as usize).min(all.len());
            assert_eq!(page.rows, all[start..end], "per {per}, from {start}");
            assert_eq!((page.first, page.total), (start as u64 + 1, 100), "per {per}, from {start}");
            let n = start as u32 / per + 1;
            let by_number = a.list_games(&filter, n, per).unwrap();
            let from = (n - 1) as usize * per as usize;
            assert_eq!(by_number.rows, all[from..(from + per as usize).min(100)], "page {n} of {per}");
        }
    }
    // The statement behind a deep page reads the index from its cursor, not the rows before it
    // (SQLite's plan).
    let q = where_clause(&filter);
    let Ok(c) = a.lite("a query plan") else { return };
    let plan: Vec<String> = c
        .prepare(&format!(
            "EXPLAIN QUERY PLAN SELECT {} FROM {} WHERE {} AND {} < 50 ORDER BY {} DESC LIMIT 5",
            q.key, q.ids_from, q.cond, q.key, q.key
        ))
        .unwrap()
        .query_map([], |r| r.get(3))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(plan.iter().any(|p| p.contains("USING INTEGER PRIMARY KEY") || p.contains("USING INDEX")), "{plan:?}");
}

#[test]
fn duplicate_standings_read_the_index_of_duplicate_games_not_every_header() {
    // SQLite's plan of the statement (PostgreSQL's is chosen by its statistics: on the scale
    // database it starts at the same index, docs/performance.md).
    let (_d, a) = temp_archive(Backend::Sqlite);
    let c = a.lite("a query plan").unwrap();
    let plan: Vec<String> = c
        .prepare(&format!("EXPLAIN QUERY PLAN {}", super::duplicate::games_sql()))
        .unwrap()
        .query_map([1], |r| r.get(3))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(plan.first().is_some_and(|p| p.contains("USING INDEX logs_duplicate")), "{plan:?}");
}

#[test]
fn migration_8_fills_the_kept_counts_from_a_version_7_archive() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v7.db");
    {
        let mut a = Archive::open(&path).unwrap();
        many_games(&mut a, 0, 40);
        let (genuine, copy) = genuine_and_uncommitted("kept/migration", ["Ann", "Fay"]);
        a.store(&copy, None, Some("Open"), Origin::CommandLine).unwrap();
        a.store(&genuine, None, Some("Cup"), Origin::CommandLine).unwrap();
        a.ensure_tournament("Trusting", None, &[key(41).verifying_key()]).unwrap();
        a.store_certified(&genuine, None, Some(&certify(&genuine, &key(41))), Some("Trusting"), Origin::CommandLine)
            .unwrap();
        assert_kept_counts_are_the_rows(&a);
        // Back to version 7: what migrations 8 to 14 added taken away.
        a.lite("test")
            .unwrap()
            .execute_batch(
                "DROP TABLE play_games; DROP TABLE play_joins; DROP TABLE play_seats; DROP TABLE play_tables;
                 DROP TRIGGER players_kept_total; DROP TRIGGER tournaments_kept_total;
                 DROP TABLE list_counts; DROP TABLE kept_totals; DROP TABLE fault_counts;
                 DROP TABLE tournament_standings; DROP TABLE tournament_terms;
                 DROP INDEX tournament_games_leaves;
                 ALTER TABLE tournament_games DROP COLUMN file; ALTER TABLE tournament_games DROP COLUMN leaf;
                 ALTER TABLE tournaments DROP COLUMN root;
                 DROP TABLE tournament_penalties; ALTER TABLE tournaments DROP COLUMN min_games;
                 DROP TABLE jobs; DROP TABLE sessions; DROP INDEX logs_duplicate;
                 PRAGMA user_version = 7;",
            )
            .unwrap();
    }
    let a = Archive::open(&path).unwrap();
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(a.summary().unwrap().games, 42);
    assert!(!a.standings("Trusting").unwrap().unwrap().is_empty());
    assert_kept_counts_are_the_rows(&a);
}

fn a_certificate_of_another_log_is_not_added_to_an_entry(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let one = prepare(&tzq_bytes("one", ["Ann", "Bo"], Encoding::JsonLines));
    let two = prepare(&tzq_bytes("two", ["Ann", "Bo"], Encoding::JsonLines));
    let first = a.store(&one, None, None, Origin::CommandLine).unwrap();
    let second = a.store(&two, None, None, Origin::CommandLine).unwrap();
    let err = a.add_certificate(first.id, &certify(&two, &key(1))).unwrap_err();
    assert!(err.to_string().contains("names the log"), "{err}");
    assert!(a.certificates(first.id).unwrap().is_empty(), "the other log's certificate is not the entry's");
    // Its own log's certificate is added.
    a.add_certificate(second.id, &certify(&two, &key(1))).unwrap();
    assert_eq!(a.certificates(second.id).unwrap().len(), 1);
}

/// A tournament of TZQ games certified by a key it trusts: `(seed, players)` each.
fn certified_cup(a: &mut Archive, name: &str, games: &[(&str, [&str; 2])]) {
    let referee = key(7);
    a.ensure_tournament(name, None, &[referee.verifying_key()]).unwrap();
    for (seed, players) in games {
        let p = prepare(&tzq_bytes(seed, *players, Encoding::Binary));
        let st = a.store(&p, None, Some(name), Origin::CommandLine).unwrap();
        a.add_certificate(st.id, &certify(&p, &referee)).unwrap();
    }
}

fn a_minimum_of_games_ranks_only_the_players_who_played_enough(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    // Ann plays 3 games, Bo 2, Cy 1.
    certified_cup(&mut a, "Min Cup", &[("min/1", ["Ann", "Bo"]), ("min/2", ["Ann", "Bo"]), ("min/3", ["Ann", "Cy"])]);
    // No minimum (the default): every line ranked, as before.
    assert_eq!(a.tournament_info("Min Cup").unwrap().unwrap().min_games, None);
    let all = a.standings("Min Cup").unwrap().unwrap();
    assert!(all.iter().all(|s| s.rank >= 1 && s.unranked.is_none()), "{all:?}");
    // A minimum of 2: Cy (1 game) is listed last, unranked.
    let t = a.set_min_games("Min Cup", Some(2)).unwrap();
    assert_eq!(t.min_games, Some(2));
    let st = a.standings("Min Cup").unwrap().unwrap();
    assert_eq!(st.len(), 3);
    let last = st.last().unwrap();
    assert_eq!((last.player.as_str(), last.rank, last.unranked.as_deref()), ("Cy", 0, Some("unranked (1 of 2 games)")));
    assert!(st[..2].iter().all(|s| s.rank >= 1 && s.unranked.is_none()), "{st:?}");
    assert_eq!(st[0].rank, 1);
    // 3: only Ann is ranked; Bo (2 games) before Cy (1).
    a.set_min_games("Min Cup", Some(3)).unwrap();
    let st = a.standings("Min Cup").unwrap().unwrap();
    let order: Vec<(&str, u32)> = st.iter().map(|s| (s.player.as_str(), s.rank)).collect();
    assert_eq!(order, [("Ann", 1), ("Bo", 0), ("Cy", 0)]);
    assert_eq!(st[1].unranked.as_deref(), Some("unranked (2 of 3 games)"));
    // The page's summary and the published tournament rank alike.
    assert_eq!(a.tournament_summary("Min Cup").unwrap().unwrap().standings, st);
    assert_eq!(a.published("Min Cup").unwrap().unwrap().standings, st);
    // 0 or none: no minimum again.
    assert_eq!(a.set_min_games("Min Cup", Some(0)).unwrap().min_games, None);
    assert_eq!(a.standings("Min Cup").unwrap().unwrap(), all);
    assert!(matches!(a.set_min_games("Nope", Some(2)), Err(ArchiveError::NoTournament(_))));
}

/// A riichi game (seed `seed`) with a referee's `incident chombo` of seat 1 at its third
/// decision, prepared; and an MCR game with a `false_win` of seat 2 at its second.
fn games_with_penalties(seed: &str) -> (Prepared, Prepared) {
    use crate::samples::game_log_with_incident;
    use paifu_core::{mcr::Mcr, riichi::Riichi, IncidentKind};
    let names = ["Ann", "Bo", "Cy", "Di"];
    let riichi =
        game_log_with_incident::<Riichi>("tenhou", seed, &names, (1, 3), IncidentKind::Chombo, "a wrong ron").unwrap();
    let mcr =
        game_log_with_incident::<Mcr>("standard", seed, &names, (2, 2), IncidentKind::FalseWin, "false hu").unwrap();
    (
        prepare(&paifu_core::log::encode(&riichi, Encoding::Binary)),
        prepare(&paifu_core::log::encode(&mcr, Encoding::Binary)),
    )
}

/// The penalty lines of `tournament`: `(game, player, penalties, penalty_points)`, those with any.
fn penalty_lines(a: &Archive, tournament: &str) -> Vec<(String, String, u64, Option<i64>)> {
    let lines = a.standings(tournament).unwrap().unwrap();
    lines.into_iter().filter(|s| s.penalties > 0).map(|s| (s.game, s.player, s.penalties, s.penalty_points)).collect()
}

fn penalties_entered_as_incidents_are_counted_in_the_standings_with_their_cost(b: Backend) {
    let (_d, mut a) = temp_archive(b);
    let referee = key(7);
    a.ensure_tournament("Penalty Cup", None, &[referee.verifying_key()]).unwrap();
    let (riichi, mcr) = games_with_penalties("penalties/1");
    let ids: Vec<i64> = [&riichi, &mcr]
        .iter()
        .map(|p| {
            assert!(p.verdict.is_valid(), "{:?}", p.verdict);
            a.store(p, None, Some("Penalty Cup"), Origin::CommandLine).unwrap().id
        })
        .collect();
    // Not counted yet (no certificate by a trusted key): no penalty listed.
    assert!(penalty_lines(&a, "Penalty Cup").is_empty());
    for (id, p) in ids.into_iter().zip([&riichi, &mcr]) {
        a.add_certificate(id, &certify(p, &referee)).unwrap();
    }
    // Bo's chombo: a non-dealer's reverse mangan (4000 + 2000 + 2000) under tenhou's default
    // `chombo=mangan`; Cy's false win: MCR's default `false_win` 10 to each of three players.
    assert_eq!(
        penalty_lines(&a, "Penalty Cup"),
        [("mcr".into(), "Cy".into(), 1, Some(30)), ("riichi".into(), "Bo".into(), 1, Some(8000))]
    );
    // Kept as from scratch (migration 10's way): the same lines.
    let db = a.db();
    db.batch("BEGIN; DELETE FROM tournament_penalties;").unwrap();
    assert!(penalty_lines(&a, "Penalty Cup").is_empty());
    let counted = schema::every_counted(db).unwrap();
    tournaments::keep_penalties(db, &counted).unwrap();
    assert_eq!(penalty_lines(&a, "Penalty Cup").len(), 2);
    db.batch("ROLLBACK").unwrap();
    // The published line signs them.
    let lines = a.standings("Penalty Cup").unwrap().unwrap();
    let bo = lines.iter().find(|s| s.game == "riichi" && s.player == "Bo").unwrap();
    assert_eq!((bo.line().penalties, bo.line().penalty_points), (1, Some(8000)));
}

#[test]
fn an_archive_at_version_9_migrates_to_10_with_its_penalties_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v9.db");
    let referee = key(7);
    let expected = {
        let mut a = Archive::open(&path).unwrap();
        a.ensure_tournament("Cup", None, &[referee.verifying_key()]).unwrap();
        let (riichi, mcr) = games_with_penalties("penalties/9");
        for p in [&riichi, &mcr] {
            a.store_certified(p, None, Some(&certify(p, &referee)), Some("Cup"), Origin::CommandLine).unwrap();
        }
        a.set_min_games("Cup", Some(1)).unwrap();
        let expected = a.standings("Cup").unwrap().unwrap();
        assert_eq!(penalty_lines(&a, "Cup").len(), 2);
        // Back to version 9, main's schema before issue 28: what migrations 10 to 14 added taken away.
        a.lite("test")
            .unwrap()
            .execute_batch(
                "DROP TABLE tournament_penalties; ALTER TABLE tournaments DROP COLUMN min_games;
                 DROP TABLE jobs; DROP TABLE sessions; DROP INDEX logs_duplicate; ALTER TABLE play_tables DROP COLUMN host;
                 PRAGMA user_version = 9;",
            )
            .unwrap();
        expected
    };
    let mut a = Archive::open(&path).unwrap();
    assert_eq!(a.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(a.tournament_info("Cup").unwrap().unwrap().min_games, None, "no minimum before");
    a.set_min_games("Cup", Some(1)).unwrap();
    assert_eq!(a.standings("Cup").unwrap().unwrap(), expected, "the penalties counted again from the rounds");
    assert_kept_counts_are_the_rows(&a);
}
