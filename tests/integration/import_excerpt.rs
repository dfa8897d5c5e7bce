//! Excerpts (issue 15): records holding some rounds of a game, cut here out of the real Tenhou
//! games in ../shared/real-logs/tenhou (read in place; the cut is made in the test, never
//! stored), in each format: validated from the state the record states, every action and result
//! checked, and said to be an excerpt of an unknown game, never a valid game.

use crate::util::{paifu, stdout};
use paifu_core::cert::{self, CertificateBody};
use paifu_core::log::{encode, Encoding, OptValue};
use paifu_core::replay::Verdict;
use paifu_core::ErrorCode;
use paifu_recorder::import::to_log::{excerpt_note, Imported};
use paifu_recorder::import::{import_read, import_text, mjai, source};
use serde_json::Value;
use std::path::PathBuf;

/// A real game with South 2, 1 honba followed by South 3 (log[11] and log[12]).
const GAME: &str = "2010081709gm-00a9-0000-fe3371ad.json";

fn real(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou").join(file);
    std::fs::read_to_string(p).unwrap()
}

/// The real game with only its rounds `from..to` (indices into `log`).
fn cut(from: usize, to: usize) -> Value {
    let mut v: Value = serde_json::from_str(&real(GAME)).unwrap();
    let rounds = v["log"].as_array().unwrap()[from..to].to_vec();
    v["log"] = Value::Array(rounds);
    v
}

fn import(v: &Value, excerpt: bool) -> Imported {
    let text = v.to_string();
    import_read("tenhou", &text, text.as_bytes(), excerpt).unwrap_or_else(|e| panic!("{e}"))
}

/// The verdict of `paifu validate` (the core validator and the check against the source).
fn verdict(imp: &Imported) -> Verdict {
    source::validate_bytes(&encode(&imp.log, Encoding::JsonLines)).verdict
}

fn deltas(v: &Verdict) -> Vec<Vec<i64>> {
    v.outcome().unwrap().rounds.iter().map(|r| r.deltas.clone()).collect()
}

#[test]
fn a_cut_out_round_of_a_real_record_validates_as_an_excerpt() {
    let whole = import_text("tenhou", &real(GAME), real(GAME).as_bytes()).unwrap();
    let whole = verdict(&whole);
    assert!(whole.outcome().unwrap().excerpt.is_none(), "a whole game is not an excerpt");
    for (from, to, said) in [
        (11, 13, "excerpt: rounds South 2-1 to South 3-0 of an unknown game"),
        (11, 12, "excerpt: round South 2-1 of an unknown game"),
        (3, 9, "excerpt: rounds East 2-2 to East 4-1 of an unknown game"),
    ] {
        let imp = import(&cut(from, to), false);
        let o = &imp.log.header.options;
        assert_eq!(o.get("excerpt"), Some(&OptValue::Bool(true)), "read as an excerpt without asking");
        assert!(imp.mismatches.is_empty(), "{:?}", imp.mismatches);
        let v = verdict(&imp);
        let out = v.outcome().unwrap_or_else(|| panic!("{said}: {:?}", v.fault()));
        assert_eq!(out.excerpt.as_ref().map(|e| e.to_string()).as_deref(), Some(said));
        assert!(out.placements.is_empty(), "an excerpt has no standings");
        // Every round checked as in the whole game: the same score changes.
        assert_eq!(deltas(&v), deltas(&whole)[from..to].to_vec(), "{said}");
        assert!(excerpt_note(&imp.log.header).unwrap().contains("not at East 1"));
    }
    let imp = import(&cut(11, 13), false);
    let o = &imp.log.header.options;
    assert_eq!(o.get("start_hand"), Some(&OptValue::Text("S2".into())));
    assert_eq!(o.get("start_honba"), Some(&OptValue::Int(1)));
    assert!(excerpt_note(&import(&cut(0, 15), false).log.header).is_none());
}

#[test]
fn an_excerpt_is_checked_as_a_whole_game_is() {
    // A changed score change of a win in the excerpt: the round's claim is refused at its record.
    let mut v = cut(11, 13);
    let r = v["log"][0].as_array_mut().unwrap();
    let result = r.last_mut().unwrap();
    let d = result[1][0].as_i64().unwrap();
    result[1][0] = Value::from(d + 100);
    let imp = import(&v, false);
    let f = verdict(&imp).fault().cloned().expect("an edited result is refused");
    assert_eq!(f.code, ErrorCode::ClaimMismatch, "{f:?}");
    assert_eq!(
        f.index,
        imp.positions.iter().rposition(|p| p.to_string().starts_with("log[0]")),
        "at the round's last record"
    );
    // Copies of a tile seat 0 holds twice put into the other hands and the dora indicator (five
    // or more in all): refused at the record that shows one too many, as in a whole game.
    let mut v = cut(11, 12);
    let hand = v["log"][0][4].as_array().unwrap().clone();
    let tile = hand.iter().find(|t| hand.iter().filter(|u| u == t).count() >= 2).cloned().unwrap();
    for s in 0..4 {
        let h = v["log"][0][4 + 3 * s].as_array_mut().unwrap();
        let n = h.iter().filter(|t| **t == tile).count();
        if s > 0 && n == 0 {
            h[0] = tile.clone();
            if s == 2 {
                break;
            }
        }
    }
    v["log"][0][2][0] = tile;
    let imp = import(&v, false);
    let f = verdict(&imp).fault().cloned().expect("a fifth copy is refused");
    assert_eq!(f.code, ErrorCode::IllegalAction, "{f:?}");
    assert!(f.message.contains("there is no such tile left"), "{f:?}");
    // South 2: seat 1 deals first, seat 0 last.
    assert_eq!(imp.positions[f.index.unwrap()].to_string(), "log[0][4]", "{f:?}");
}

#[test]
fn the_same_round_with_one_changed_score_refuses_at_that_record() {
    // One round: the points on the table no longer add up to four start scores.
    let mut v = cut(11, 12);
    let s = v["log"][0][1][2].as_i64().unwrap();
    v["log"][0][1][2] = Value::from(s + 1000);
    let imp = import(&v, false);
    let m = imp.mismatches.first().expect("the changed score is found");
    assert_eq!((m.record, m.error.position.as_str()), (0, "log[0][1]"));
    assert_eq!(m.error.round.as_deref(), Some("South 2, 1 honba"));
    assert!(m.error.message.contains("hold 101000 points"), "{}", m.error.message);
    let f = verdict(&imp).fault().cloned().unwrap();
    assert_eq!((f.code, f.index), (ErrorCode::ClaimMismatch, Some(0)), "{f:?}");
    // Two rounds, the second's stated scores changed (moved between two seats, so they still add
    // up): refused at the second round's first record, where they are stated.
    let mut v = cut(11, 13);
    let r1 = &mut v["log"][1][1];
    r1[0] = Value::from(r1[0].as_i64().unwrap() + 1000);
    r1[1] = Value::from(r1[1].as_i64().unwrap() - 1000);
    let imp = import(&v, false);
    let m = imp.mismatches.first().expect("the changed score is found");
    assert_eq!(m.error.position, "log[1][1]");
    let first_of_second = imp.positions.iter().position(|p| p.to_string().starts_with("log[1]")).unwrap();
    assert_eq!(m.record, first_of_second);
    let f = verdict(&imp).fault().cloned().unwrap();
    assert_eq!((f.code, f.index), (ErrorCode::ClaimMismatch, Some(first_of_second)), "{f:?}");
}

#[test]
fn a_truncated_whole_game_is_refused_unless_read_as_an_excerpt() {
    let v = cut(0, 5);
    let plain = import(&v, false);
    assert!(!plain.log.header.options.contains_key("excerpt"));
    let f = verdict(&plain).fault().cloned().unwrap();
    assert_eq!(f.code, ErrorCode::Truncated);
    let read = import(&v, true);
    assert_eq!(read.log.header.options.get("excerpt"), Some(&OptValue::Bool(true)));
    assert_eq!(read.log.header.options.len(), plain.log.header.options.len() + 1, "only the flag: it starts at East 1");
    assert!(excerpt_note(&read.log.header).is_none(), "asked for: no note");
    let e = verdict(&read).outcome().unwrap().excerpt.clone().unwrap();
    assert_eq!(e.to_string(), "excerpt: rounds East 1-0 to East 3-0 of an unknown game");
    // The command: refused with a hint, then read as an excerpt with --excerpt; `paifu validate`
    // likewise, of the log imported without it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cut.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let o = paifu(&["import", "tenhou", f, "-o", "out"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("truncated") && stdout(&o).contains("--excerpt"), "{}", stdout(&o));
    let o = paifu(&["validate", "out/cut.paifu.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("truncated"), "{}", stdout(&o));
    let o = paifu(&["validate", "--excerpt", "out/cut.paifu.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("excerpt: rounds East 1-0 to East 3-0 of an unknown game"), "{}", stdout(&o));
    let o = paifu(&["validate", "--excerpt", "--json", "out/cut.paifu.jsonl"], dir.path());
    let j: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j["excerpt"]["first"], "East 1-0");
    assert_eq!(j["final_scores"], Value::Null, "no final standings");
    let o = paifu(&["import", "tenhou", "--excerpt", f, "-o", "out"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("excerpt: rounds East 1-0 to East 3-0 of an unknown game"), "{}", stdout(&o));
    let o = paifu(&["validate", "out/cut.paifu.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("excerpt "), "{}", stdout(&o));
    // A cut round, read without asking: a note says why.
    std::fs::write(&file, cut(11, 13).to_string()).unwrap();
    let o = paifu(&["import", "tenhou", f, "-o", "out"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("note: read as an excerpt of an unknown game"), "{}", stdout(&o));
}

#[test]
fn the_certificate_of_an_excerpt_says_so_and_has_no_standings() {
    let imp = import(&cut(11, 13), false);
    let bytes = encode(&imp.log, Encoding::JsonLines);
    let report = source::validate_bytes(&bytes);
    let key = cert::secret_from_bytes([7; 32]);
    let body = CertificateBody::from_report(&report, "2026-11-23T00:00:00Z".into(), &key.verifying_key()).unwrap();
    assert_eq!(body.verdict, "excerpt: rounds South 2-1 to South 3-0 of an unknown game");
    assert_eq!(body.final_scores, None);
    assert_ne!(body.verdict, "valid");
    let c = cert::sign(body, &key);
    c.verify(&key.verifying_key(), &report).unwrap();
    // Its verdict is signed: turned into "valid" the signature fails.
    let mut forged = c.clone();
    forged.certificate.verdict = "valid".into();
    assert!(forged.check_signature(&key.verifying_key()).is_err());
    // The same log read as the whole game it is not: refused, so the certificate does not verify.
    let mut whole = imp.log.clone();
    whole.header.options.retain(|k, _| k != "excerpt" && !k.starts_with("start_"));
    let other = source::validate_bytes(&encode(&whole, Encoding::JsonLines));
    assert!(!other.verdict.is_valid());
}

/// An mjai log of the real game (the embedded Paifu log taken out of `start_game`, as a
/// converter writes it), cut to the hands whose `start_kyoku` index is in `from..to`.
fn mjai_cut(from: usize, to: usize, end_game: bool) -> String {
    let whole = import_text("tenhou", &real(GAME), real(GAME).as_bytes()).unwrap();
    let text = mjai::export(&whole.log).unwrap();
    let mut out = Vec::new();
    let mut hand = 0usize;
    for l in text.lines() {
        let mut e: Value = serde_json::from_str(l).unwrap();
        match e["type"].as_str().unwrap() {
            "start_game" => {
                e.as_object_mut().unwrap().remove("paifu");
                out.push(e.to_string());
                continue;
            }
            "start_kyoku" => hand += 1,
            "end_game" if end_game => {
                out.push(e.to_string());
                continue;
            }
            _ => {}
        }
        if (from + 1..=to).contains(&hand) {
            out.push(e.to_string());
        }
    }
    out.join("\n")
}

#[test]
fn an_mjai_log_from_mid_game_or_without_end_game_is_an_excerpt() {
    let text = mjai_cut(11, 13, false);
    let imp = mjai::import(&text, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let v = verdict(&imp);
    let e = v.outcome().unwrap_or_else(|| panic!("{:?}", v.fault())).excerpt.clone().unwrap();
    assert_eq!(e.to_string(), "excerpt: rounds South 2-1 to South 3-0 of an unknown game");
    // From the start, stopping before end_game: truncated, unless read as an excerpt.
    let text = mjai_cut(0, 5, false);
    let plain = mjai::import(&text, text.as_bytes()).unwrap();
    assert_eq!(verdict(&plain).fault().map(|f| f.code), Some(ErrorCode::Truncated));
    let read = import_read("mjai", &text, text.as_bytes(), true).unwrap();
    let e = verdict(&read).outcome().unwrap().excerpt.clone().unwrap();
    assert_eq!(e.to_string(), "excerpt: rounds East 1-0 to East 3-0 of an unknown game");
}

#[test]
fn an_mjlog_cut_the_same_way_is_an_excerpt() {
    let whole = import_text("tenhou", &real(GAME), real(GAME).as_bytes()).unwrap();
    let xml = super::mjlog::mjlog_of(&whole);
    // Tags from the 12th INIT to before the 14th: South 2-1 and South 3-0.
    let inits: Vec<usize> = xml.match_indices("<INIT").map(|(i, _)| i).collect();
    let head = &xml[..inits[0]];
    let cut = format!("{head}{}</mjloggm>", &xml[inits[11]..inits[13]]);
    let imp = import_read("tenhou", &cut, cut.as_bytes(), false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imp.log.header.source.as_ref().unwrap().format, "mjlog");
    let v = verdict(&imp);
    let e = v.outcome().unwrap_or_else(|| panic!("{:?}", v.fault())).excerpt.clone().unwrap();
    assert_eq!(e.to_string(), "excerpt: rounds South 2-1 to South 3-0 of an unknown game");
    // The first five hands: cut short without --excerpt, an excerpt with it.
    let cut = format!("{}</mjloggm>", &xml[..inits[5]]);
    let e = import_read("tenhou", &cut, cut.as_bytes(), false).unwrap_err();
    assert!(e.message.contains("no final owari= result") && e.message.contains("--excerpt"), "{e}");
    let imp = import_read("tenhou", &cut, cut.as_bytes(), true).unwrap();
    let e = verdict(&imp).outcome().unwrap().excerpt.clone().unwrap();
    assert_eq!(e.to_string(), "excerpt: rounds East 1-0 to East 3-0 of an unknown game");
}

#[test]
fn the_archive_marks_an_excerpt_and_never_counts_it_as_a_game() {
    use paifu_recorder::archive::{Archive, Filter};
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open(&dir.path().join("a.db")).unwrap();
    let whole = import_text("tenhou", &real(GAME), real(GAME).as_bytes()).unwrap();
    let part = import(&cut(11, 13), false);
    let stored_whole = a.ingest_bytes(&encode(&whole.log, Encoding::JsonLines), None, Some("Cup")).unwrap();
    let stored = a.ingest_bytes(&encode(&part.log, Encoding::JsonLines), None, Some("Cup")).unwrap();
    assert!(stored_whole.counted);
    assert!(stored.valid && !stored.counted, "an excerpt is valid but never counts");
    let said = "excerpt: rounds South 2-1 to South 3-0 of an unknown game";
    let g = a.game(stored.id).unwrap().unwrap();
    assert_eq!(g.excerpt.as_deref(), Some(said));
    assert!(g.seats.iter().all(|s| s.placement.is_none()), "no standings");
    assert_eq!(a.game(stored_whole.id).unwrap().unwrap().excerpt, None);
    let rows = a.all_games(&Filter::default()).unwrap();
    let row = rows.iter().find(|r| r.id == stored.id).unwrap();
    assert_eq!(row.excerpt.as_deref(), Some(said));
    // Statistics see the whole game only.
    let mut played = Vec::new();
    a.for_each_game(&Filter::default(), |p| played.push(p.rounds.len())).unwrap();
    assert_eq!(played, vec![15]);
    // `paifu show` lists it as an excerpt.
    let o = paifu(&["show", "--db", "a.db"], dir.path());
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with(&format!("#{}", stored.id)) && l.contains(" excerpt ")), "{out}");
}
