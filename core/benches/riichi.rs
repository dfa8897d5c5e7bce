//! Riichi benchmarks: scoring random winning hands (the scorer, and `paifu score riichi`'s line
//! protocol: a JSON line in, a JSON line out), and replaying simulated East+South games from
//! binary and JSON Lines logs. Run with `cargo bench -p paifu-core --bench riichi`
//! (docs/log-format.md, "Speed", has the figures).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use paifu_core::log::{encode, Encoding};
use paifu_core::mahjong::hand::shanten;
use paifu_core::mahjong::{counts_of, tiles_text, Meld, MeldKind, Tile};
use paifu_core::riichi::{score, score_line, Action, Riichi, Rules, Situation, WinHand};
use paifu_core::{log::Claim, log::Header, log::Log, log::Record, replay::validate_bytes, Game, Seed, Stream};
use std::hint::black_box;

struct RandomHand {
    concealed: Vec<Tile>,
    melds: Vec<Meld>,
    win: Tile,
    sit: Situation,
    dora: Vec<Tile>,
    ura: Vec<Tile>,
}

/// A random winning hand: four sets and a pair (sometimes seven pairs), some sets called.
fn random_hand(s: &mut Stream) -> RandomHand {
    loop {
        let mut counts = [0u8; 34];
        let mut concealed = Vec::new();
        let mut melds = Vec::new();
        let seven_pairs = s.below(10) == 0;
        let mut ok = true;
        if seven_pairs {
            let mut kinds: Vec<usize> = (0..34).collect();
            s.shuffle(&mut kinds);
            for &k in &kinds[..7] {
                concealed.extend([Tile::kind_tile(k); 2]);
            }
        } else {
            for _ in 0..4 {
                let run = s.below(3) != 0;
                let k = if run { (s.below(3) * 9 + s.below(7)) as usize } else { s.below(34) as usize };
                let tiles: Vec<Tile> =
                    if run { (0..3).map(|d| Tile::kind_tile(k + d)).collect() } else { vec![Tile::kind_tile(k); 3] };
                for t in &tiles {
                    counts[t.kind()] += 1;
                }
                if s.below(4) == 0 {
                    let kind = if run { MeldKind::Chow } else { MeldKind::Pung };
                    melds.push(Meld::new(kind, &tiles, None, None).unwrap());
                } else {
                    concealed.extend(tiles);
                }
            }
            let p = s.below(34) as usize;
            counts[p] += 2;
            concealed.extend([Tile::kind_tile(p); 2]);
            ok = counts.iter().all(|&c| c <= 4);
        }
        if !ok {
            continue;
        }
        let win = concealed[s.below(concealed.len() as u64) as usize];
        let closed = melds.is_empty();
        let sit = Situation {
            tsumo: s.below(2) == 0,
            riichi: closed && s.below(2) == 0,
            seat_wind: s.below(4) as u8,
            round_wind: s.below(2) as u8,
            ..Situation::default()
        };
        let dora = vec![Tile::kind_tile(s.below(34) as usize)];
        let ura = vec![Tile::kind_tile(s.below(34) as usize)];
        return RandomHand { concealed, melds, win, sit, dora, ura };
    }
}

fn bench_scoring(c: &mut Criterion) {
    let mut s = Seed::from_text("bench hands").stream("hands");
    let hands: Vec<RandomHand> = (0..4096).map(|_| random_hand(&mut s)).collect();
    let rules = Rules::default();
    let mut g = c.benchmark_group("riichi_scoring");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("score_4096_random_winning_hands", |b| {
        b.iter(|| {
            let mut total = 0i64;
            for h in &hands {
                let wh = WinHand { concealed: &h.concealed, melds: &h.melds, win: h.win, dora: &h.dora, ura: &h.ura };
                if let Ok(sc) = score(&wh, &h.sit, &rules) {
                    total += sc.basic;
                }
            }
            black_box(total)
        })
    });
    // The same hands as `paifu score riichi` reads them: a JSON object a line.
    let lines: Vec<String> = hands.iter().map(hand_line).collect();
    g.bench_function("score_line_4096_random_winning_hands", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for l in &lines {
                bytes += score_line(black_box(l)).len();
            }
            black_box(bytes)
        })
    });
    g.finish();
}

/// A hand as a line of `paifu score riichi`'s input.
fn hand_line(h: &RandomHand) -> String {
    let wind = |w: u8| ["E", "S", "W", "N"][usize::from(w)];
    let melds: Vec<String> = h.melds.iter().map(|m| format!("{}:{}", m.kind.name(), tiles_text(m.tiles()))).collect();
    let text = |t: &[Tile]| t.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    serde_json::json!({
        "hand": tiles_text(&h.concealed),
        "melds": melds,
        "win": h.win.to_string(),
        "tsumo": h.sit.tsumo,
        "riichi": h.sit.riichi,
        "seat_wind": wind(h.sit.seat_wind),
        "round_wind": wind(h.sit.round_wind),
        "dora": text(&h.dora),
        "ura": if h.sit.riichi { text(&h.ura) } else { Vec::new() },
    })
    .to_string()
}

/// A small bot for making logs: wins when it can, otherwise discards toward the lowest shanten,
/// riichi when it may, passes on calls.
fn choose(game: &Riichi, seat: u8) -> Action {
    let legal = game.legal_actions(seat);
    for w in [Action::Tsumo, Action::Ron] {
        if legal.contains(&w) {
            return w;
        }
    }
    let hand = game.hand(seat);
    let melds = game.melds(seat).len();
    let mut best: Option<(i8, Action)> = None;
    for a in &legal {
        if let Action::Discard { tile, riichi: false, .. } = *a {
            let mut rest = hand.to_vec();
            if let Some(i) = rest.iter().position(|&x| x == tile) {
                rest.swap_remove(i);
            }
            let sh = shanten(&counts_of(&rest), melds) * 4 - i8::from(tile.is_yaochu());
            if best.as_ref().is_none_or(|b| sh < b.0) {
                best = Some((sh, a.clone()));
            }
        }
    }
    match best {
        Some((_, Action::Discard { tile, drawn, .. })) => {
            let r = Action::Discard { tile, drawn, riichi: true };
            if legal.contains(&r) {
                r
            } else {
                Action::Discard { tile, drawn, riichi: false }
            }
        }
        _ => {
            if legal.contains(&Action::Pass) {
                Action::Pass
            } else {
                legal[0].clone()
            }
        }
    }
}

fn simulate(seed: Seed) -> Log<Action> {
    let rules = Rules::default();
    let mut game = Riichi::new(rules.clone(), 4, Some(&seed)).unwrap();
    let header =
        Header::new("riichi", "standard", Riichi::options(&rules), (1..=4).map(|i| format!("bot {i}")).collect(), seed);
    let mut records = Vec::new();
    while !game.is_over() {
        let seat = game.to_act().iter().next().unwrap();
        let a = choose(&game, seat);
        let before = game.results().len();
        game.play_mut(seat, &a).unwrap();
        let mut claim = None;
        if let Some(r) = game.results()[before..].last() {
            claim = Some(Claim { round: Some(r.deltas.clone()), final_scores: None });
        }
        if game.is_over() {
            claim.get_or_insert_with(Claim::default).final_scores = Some(game.scores());
        }
        records.push(Record { seq: records.len() as u32, seat, action: a, claim });
    }
    Log { header, records }
}

fn bench_replay(c: &mut Criterion) {
    let base = Seed::from_text("bench games");
    let games: Vec<Log<Action>> = (0..32).map(|i| simulate(base.child(&format!("g{i}")))).collect();
    let records: usize = games.iter().map(|l| l.records.len()).sum();
    eprintln!("riichi_replay: 32 games, {records} records");
    let mut g = c.benchmark_group("riichi_replay");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.sample_size(10);
    for (name, enc) in [
        ("validate_32_east_south_games_binary", Encoding::Binary),
        ("validate_32_east_south_games_jsonl", Encoding::JsonLines),
    ] {
        let logs: Vec<Vec<u8>> = games.iter().map(|l| encode(l, enc)).collect();
        g.bench_function(name, |b| {
            b.iter(|| {
                for l in &logs {
                    let r = validate_bytes(l);
                    assert!(r.verdict.is_valid());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_scoring, bench_replay);
criterion_main!(benches);
