//! Bad input never panics: it gets a clear error with the line number.

use crate::util::{paifu, stderr, stdout, tzq_game};
use paifu_core::log::{self, Encoding};
use paifu_core::{replay::validate_bytes, ErrorCode, Seed};

fn fault(bytes: &[u8]) -> paifu_core::Fault {
    validate_bytes(bytes).verdict.fault().cloned().expect("should be invalid")
}

#[test]
fn malformed_inputs_get_clear_errors() {
    let cases: &[(&[u8], ErrorCode, &str)] = &[
        (b"", ErrorCode::Truncated, "empty"),
        (b"\n\n", ErrorCode::Truncated, "empty"),
        (b"hello", ErrorCode::BadEncoding, "not valid JSON"),
        (b"[1,2]", ErrorCode::BadEncoding, "first line must be the header"),
        (b"{\"paifu\":1}", ErrorCode::BadEncoding, "missing field"),
        (b"{\"paifu\":99,\"game\":\"tzq\"}", ErrorCode::UnsupportedVersion, "99"),
        (b"\xff\xfe\x00garbage", ErrorCode::BadEncoding, "UTF-8"),
        (b"PAIFULOG", ErrorCode::Truncated, "before the header"),
        (b"PAIFULOG\xff\xff\xff\xff\xff\xff", ErrorCode::BadEncoding, "varint"),
        (b"PAIFULOG\x05ab", ErrorCode::Truncated, "ends inside"),
    ];
    for (bytes, code, words) in cases {
        let f = fault(bytes);
        assert_eq!(f.code, *code, "{:?}: {}", String::from_utf8_lossy(bytes), f.describe());
        assert!(f.describe().contains(words), "{:?}: {}", String::from_utf8_lossy(bytes), f.describe());
    }
}

#[test]
fn errors_name_the_line() {
    let log = tzq_game("lines", ["greedy", "greedy"]);
    let text = String::from_utf8(log::encode(&log, Encoding::JsonLines)).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[9] = "{\"seq\":8,\"seat\":0,\"action\":\"discard\"}";
    let f = fault(lines.join("\n").as_bytes());
    assert_eq!((f.code, f.line, f.index), (ErrorCode::BadEncoding, Some(10), Some(8)), "{}", f.describe());
    lines[9] = "{\"seq\":8,\"seat\":\"zero\",\"action\":\"draw\"}";
    let f = fault(lines.join("\n").as_bytes());
    assert_eq!(f.line, Some(10), "{}", f.describe());
    lines[9] = "{\"seq\":8,\"seat\":300,\"action\":\"draw\"}";
    let f = fault(lines.join("\n").as_bytes());
    assert_eq!(f.line, Some(10), "{}", f.describe());
    // A seat that does not exist at the table.
    let mut l = log.clone();
    l.records[4].seat = 7;
    let f = fault(&log::encode(&l, Encoding::JsonLines));
    assert_eq!((f.code, f.line), (ErrorCode::NotYourTurn, Some(6)));
    assert!(f.message.contains("does not exist"));
    // Records after the end of the game.
    let mut l = log.clone();
    let mut extra = l.records[0].clone();
    extra.seq = l.records.len() as u32;
    extra.claim = None;
    l.records.push(extra);
    assert_eq!(fault(&log::encode(&l, Encoding::JsonLines)).code, ErrorCode::AfterGameEnd);
}

#[test]
fn header_problems_are_bad_headers() {
    let log = tzq_game("header", ["greedy", "greedy"]);
    let mut l = log.clone();
    l.header.seats.push("third".into());
    let f = fault(&log::encode(&l, Encoding::JsonLines));
    assert_eq!(f.code, ErrorCode::BadHeader);
    assert!(f.message.contains("2 to 2 seats"), "{}", f.message);
    let mut l = log.clone();
    l.header.options.insert("jokers".into(), paifu_core::log::OptValue::Bool(true));
    let f = fault(&log::encode(&l, Encoding::JsonLines));
    assert_eq!(f.code, ErrorCode::BadHeader);
    assert!(f.message.contains("jokers"));
    let mut l = log.clone();
    l.header.seed = None;
    l.header.commitment = None;
    assert_eq!(fault(&log::encode(&l, Encoding::JsonLines)).code, ErrorCode::MissingSeed);
}

#[test]
fn an_overlong_line_is_refused_not_read() {
    let log = tzq_game("long", ["greedy", "greedy"]);
    let mut text = String::from_utf8(log::encode(&log, Encoding::JsonLines)).unwrap();
    text.push_str(&format!("{{\"seq\":1,\"seat\":0,\"action\":\"{}\"}}\n", "x".repeat(2 << 20)));
    let f = fault(text.as_bytes());
    assert_eq!(f.code, ErrorCode::BadEncoding);
    assert!(f.message.contains("longer than 1 MiB"));
}

#[test]
fn a_huge_file_is_refused_by_the_command() {
    let t = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(t.path().join("huge.paifu.jsonl")).unwrap();
    f.set_len(paifu_recorder::files::MAX_FILE_BYTES + 1).unwrap();
    let o = paifu(&["validate", "huge.paifu.jsonl"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Paifu reads logs of at most"), "{}{}", stdout(&o), stderr(&o));
}

/// Deterministic byte-level mutations of real logs in both encodings: no input may panic (a
/// panic fails the test), and a refusal always says something.
#[test]
fn mutated_logs_never_panic() {
    let log = tzq_game("mutate", ["random", "greedy"]);
    let mut s = Seed::from_text("mutations").stream("bytes");
    for enc in [Encoding::JsonLines, Encoding::Binary] {
        let bytes = log::encode(&log, enc);
        for _ in 0..400 {
            let mut b = bytes.clone();
            match s.below(4) {
                0 => {
                    let i = s.below(b.len() as u64) as usize;
                    b[i] = s.below(256) as u8;
                }
                1 => {
                    let i = s.below(b.len() as u64) as usize;
                    b.truncate(i);
                }
                2 => {
                    let i = s.below(b.len() as u64) as usize;
                    b.remove(i);
                }
                _ => {
                    let i = s.below(b.len() as u64) as usize;
                    b.insert(i, s.below(256) as u8);
                }
            }
            let r = validate_bytes(&b);
            if let Some(f) = r.verdict.fault() {
                assert!(!f.message.is_empty());
            }
        }
        // Every prefix of the binary encoding.
        if enc == Encoding::Binary {
            for n in 0..bytes.len() {
                assert!(!validate_bytes(&bytes[..n]).verdict.is_valid());
            }
        }
    }
}

#[test]
fn only_the_canonical_binary_form_is_read() {
    use paifu_core::tzq::{Action, Card};
    let log = tzq_game("canonical", ["greedy", "greedy"]);
    let k = log.records.iter().position(|r| matches!(r.action, Action::Pong { .. })).unwrap();
    let bin = log::encode(&log, Encoding::Binary);
    // The same record with its Pong cards in descending order.
    let mut rec = postcard::to_stdvec(&log.records[k]).unwrap();
    // seq varint, seat byte, then the action: variant 2, three cards, the kept card.
    let pos = 1 + 1 + (log.records[k].seq >= 128) as usize;
    assert_eq!(rec[pos], 2);
    let cards: Vec<u8> = rec[pos + 1..pos + 4].to_vec();
    assert!(cards.iter().all(|&b| Card::try_from(b).is_ok()));
    assert!(cards[0] < cards[2], "a set of three identical cards cannot be reordered: pick another seed");
    rec[pos + 1..pos + 4].copy_from_slice(&[cards[2], cards[1], cards[0]]);
    let mut frames = bin.clone();
    let orig = postcard::to_stdvec(&log.records[k]).unwrap();
    let at = frames.windows(orig.len()).position(|w| w == orig.as_slice()).unwrap();
    frames[at..at + orig.len()].copy_from_slice(&rec);
    let f = fault(&frames);
    assert_eq!((f.code, f.index), (ErrorCode::BadEncoding, Some(k)), "{}", f.describe());
    assert!(f.message.contains("does not allow"), "{}", f.message);

    // A non-minimal varint (seq 0 written as 0x80 0x00) in the first record's frame.
    let first = postcard::to_stdvec(&log.records[0]).unwrap();
    let at = bin.windows(first.len() + 1).position(|w| w[0] as usize == first.len() && w[1..] == first[..]).unwrap();
    let mut long = bin[..at].to_vec();
    long.push(first.len() as u8 + 1);
    long.extend([0x80, 0x00]);
    long.extend(&first[1..]);
    long.extend(&bin[at + 1 + first.len()..]);
    let f = fault(&long);
    assert_eq!((f.code, f.index), (ErrorCode::BadEncoding, Some(0)), "{}", f.describe());
    assert!(f.message.contains("canonical"));

    // A card code that is not in the deck (a white wind).
    let mut odd = bin.clone();
    let d = log.records.iter().position(|r| matches!(r.action, Action::Discard(_))).unwrap();
    let orig = postcard::to_stdvec(&log.records[d]).unwrap();
    let at = odd.windows(orig.len()).position(|w| w == orig.as_slice()).unwrap();
    let card_at = at + orig.len() - 2; // the card byte, before the claim's none
    odd[card_at] = 9 * 5 + 3;
    assert_eq!(fault(&odd).code, ErrorCode::BadEncoding);
}

#[test]
fn duplicate_header_keys_and_oversized_claims_are_refused() {
    let mut log = tzq_game("dups", ["greedy", "greedy"]);
    log.header.meta.insert("game_number".into(), "1".into());
    let text = String::from_utf8(log::encode(&log, Encoding::JsonLines)).unwrap();
    let dup = text.replacen("{\"paifu\":1,", "{\"paifu\":1,\"seats\":[\"Mallory\",\"Eve\"],", 1);
    let f = fault(dup.as_bytes());
    assert_eq!((f.code, f.line), (ErrorCode::BadEncoding, Some(1)), "{}", f.describe());
    assert!(f.message.contains("duplicate"), "{}", f.message);
    let dup_meta = text.replacen("\"meta\":{", "\"meta\":{\"game_number\":\"9\",", 1);
    assert!(fault(dup_meta.as_bytes()).message.contains("duplicate key"));
    // null options and meta read as empty.
    let lines: Vec<&str> = text.lines().collect();
    let mut h: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    h["options"] = serde_json::Value::Null;
    h["meta"] = serde_json::Value::Null;
    let nulls = format!("{h}\n{}", lines[1..].join("\n"));
    let (read, _) = log::decode::<paifu_core::tzq::Action>(nulls.as_bytes()).unwrap();
    assert!(read.header.options.is_empty() && read.header.meta.is_empty());
    let mut l = log.clone();
    l.records.last_mut().unwrap().claim.as_mut().unwrap().final_scores = Some(vec![0; 9]);
    for enc in [Encoding::JsonLines, Encoding::Binary] {
        let f = fault(&log::encode(&l, enc));
        assert_eq!(f.code, ErrorCode::BadEncoding, "{enc:?}: {}", f.describe());
        assert!(f.message.contains("more than 8"));
    }
}

#[test]
fn replaying_to_the_largest_index_is_the_whole_log() {
    let log = tzq_game("upto", ["greedy", "greedy"]);
    let (_, n) =
        paifu_core::replay::replay::<paifu_core::tzq::Tzq>(&log, &Default::default(), Some(usize::MAX)).unwrap();
    assert_eq!(n, log.records.len());
}

#[cfg(unix)]
#[test]
fn devices_and_pipes_are_not_read() {
    let t = tempfile::tempdir().unwrap();
    let o = paifu(&["validate", "/dev/zero"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

/// The frames of a binary log (header first), and a binary log made of frames.
fn split_frames(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut pos = log::MAGIC.len();
    while pos < bytes.len() {
        let (mut len, mut shift) = (0usize, 0);
        loop {
            let b = bytes[pos];
            pos += 1;
            len |= usize::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        out.push(bytes[pos..pos + len].to_vec());
        pos += len;
    }
    out
}

fn join_frames(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut out = log::MAGIC.to_vec();
    for f in frames {
        let mut n = f.len();
        while n >= 0x80 {
            out.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
        out.extend_from_slice(f);
    }
    out
}

/// Record frames of bot games changed byte by byte (and with numbers lengthened: a varint's last
/// byte given the continuation bit and a 00 after it): the reader accepts exactly the frames that
/// decode and encode back to the same bytes, and refuses the others that decode as not
/// canonical, at their record.
fn canonical_check_matches_encoding_again<A: paifu_core::log::Action>(log: &paifu_core::log::Log<A>, label: &str) {
    let bytes = log::encode(log, Encoding::Binary);
    let frames = split_frames(&bytes);
    assert_eq!(frames.len(), log.records.len() + 1);
    let mut s = Seed::from_text(label).stream("frames");
    let mut refused = 0;
    for _ in 0..3000 {
        let k = s.below(log.records.len() as u64) as usize;
        let mut f = frames[k + 1].clone();
        let at = s.below(f.len() as u64) as usize;
        match s.below(3) {
            0 => f[at] = s.below(256) as u8,
            1 => f.insert(at, s.below(256) as u8),
            _ => {
                if let Some(end) = f[at..].iter().position(|&b| b < 0x80) {
                    f[at + end] |= 0x80;
                    f.insert(at + end + 1, 0);
                }
            }
        }
        let decoded = postcard::take_from_bytes::<paifu_core::log::Record<A>>(&f);
        let canonical = matches!(&decoded, Ok((r, [])) if postcard::to_stdvec(r).unwrap() == f);
        let mut fs = frames.clone();
        fs[k + 1] = f.clone();
        let got = log::decode::<A>(&join_frames(&fs));
        assert_eq!(got.is_ok(), canonical, "{label}: record {k}: {f:02x?}");
        if let (Ok((_, [])), false) = (&decoded, canonical) {
            let e = got.unwrap_err();
            assert_eq!((e.code, e.index), (ErrorCode::BadEncoding, Some(k)), "{}", e.describe());
            assert!(e.message.contains("not in canonical form"), "{}", e.message);
            refused += 1;
        }
    }
    assert!(refused > 100, "{label}: {refused}");
}

#[test]
fn the_canonical_check_matches_encoding_again_on_bot_games() {
    canonical_check_matches_encoding_again(&tzq_game("frames", ["greedy", "random"]), "tzq");
    for i in 0..2 {
        canonical_check_matches_encoding_again(&crate::util::riichi_game("frames", i), "riichi");
    }
    let hungarian = crate::hungarian::game("game", &["greedy", "random", "greedy", "random"], "frames");
    canonical_check_matches_encoding_again(&hungarian, "hungarian");
}
