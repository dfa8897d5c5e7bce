//! Hungarian benchmarks: scoring random winning hands (the winner's every reading), and
//! replaying simulated games from binary and JSON Lines logs. Run with `cargo bench -p paifu-core --bench
//! hungarian`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use paifu_core::hungarian::score::{score_winner, Hand, Set, Win};
use paifu_core::hungarian::table::table;
use paifu_core::hungarian::{Action, Hungarian, Rules};
use paifu_core::log::{encode, Claim, Encoding, Header, Log, Record};
use paifu_core::mahjong::hand::shanten;
use paifu_core::replay::validate_bytes;
use paifu_core::{Game, Seed, Stream};
use std::hint::black_box;

struct RandomHand {
    concealed: [u8; 34],
    melds: Vec<Set>,
    flowers: Vec<u8>,
    wind: u8,
    win: Win,
}

/// A random winning hand: four sets (some laid out) and a pair, or seven pairs.
fn random_hand(s: &mut Stream) -> RandomHand {
    loop {
        let mut all = [0u8; 34];
        let mut concealed = [0u8; 34];
        let mut melds = Vec::new();
        if s.below(10) == 0 {
            let mut kinds: Vec<usize> = (0..34).collect();
            s.shuffle(&mut kinds);
            for &k in &kinds[..7] {
                concealed[k] = 2;
            }
            all = concealed;
        } else {
            for _ in 0..4 {
                let run = s.below(3) != 0;
                let k = if run { (s.below(3) * 9 + s.below(7)) as usize } else { s.below(34) as usize };
                let kinds: Vec<usize> = if run { vec![k, k + 1, k + 2] } else { vec![k; 3] };
                for &x in &kinds {
                    all[x] += 1;
                }
                if s.below(4) == 0 {
                    melds.push(if run {
                        Set::Chow { base: k as u8 }
                    } else {
                        Set::Pong { kind: k as u8, exposed: true }
                    });
                } else {
                    for &x in &kinds {
                        concealed[x] += 1;
                    }
                }
            }
            let p = s.below(34) as usize;
            all[p] += 2;
            concealed[p] += 2;
        }
        if all.iter().any(|&c| c > 4) {
            continue;
        }
        let held: Vec<usize> = (0..34).filter(|&k| concealed[k] > 0).collect();
        let tile = held[s.below(held.len() as u64) as usize] as u8;
        let flowers: Vec<u8> = (1..=8).filter(|_| s.below(4) == 0).collect();
        let win = Win { tile, self_drawn: s.below(2) == 0, heavenly: false };
        return RandomHand { concealed, melds, flowers, wind: s.below(4) as u8, win };
    }
}

fn bench_scoring(c: &mut Criterion) {
    let mut s = Seed::from_text("bench hungarian hands").stream("hands");
    let hands: Vec<RandomHand> = (0..4096).map(|_| random_hand(&mut s)).collect();
    let rules = Rules::default();
    let t = table().unwrap();
    let mut g = c.benchmark_group("hungarian_scoring");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("score_4096_random_winning_hands", |b| {
        b.iter(|| {
            let mut total = 0i64;
            for h in &hands {
                let hand = Hand { concealed: &h.concealed, melds: &h.melds, flowers: &h.flowers, wind: h.wind };
                if let Ok(sc) = score_winner(&hand, &h.win, h.wind == 0, &rules, t) {
                    total += sc.score;
                }
            }
            black_box(total)
        })
    });
    g.finish();
}

/// A small bot for making logs: Mahjong when it can, otherwise discards toward the fewest tiles
/// from a winning hand, passes on claims.
fn choose(game: &Hungarian, seat: u8) -> Action {
    let legal = game.legal_actions(seat);
    if legal.contains(&Action::Mahjong) {
        return Action::Mahjong;
    }
    let hand = game.hand(seat);
    let sets = game.melds(seat).len();
    let mut best: Option<(i8, Action)> = None;
    for a in &legal {
        if let Action::Discard(t) = *a {
            let mut rest = *hand;
            rest[t.kind()] -= 1;
            let sh = shanten(&rest, sets);
            if best.as_ref().is_none_or(|b| sh < b.0) {
                best = Some((sh, a.clone()));
            }
        }
    }
    best.map_or(Action::Pass, |(_, a)| a)
}

/// One game (the deal going round the table once) between four copies of `choose`.
fn simulate(seed: Seed) -> Log<Action> {
    let rules = Hungarian::rules("game", &Default::default()).unwrap();
    let mut game = Hungarian::new(rules.clone(), 4, Some(&seed)).unwrap();
    let names = (1..=4).map(|i| format!("bot {i}")).collect();
    let header = Header::new("hungarian", "game", Hungarian::options(&rules), names, seed);
    let mut records = Vec::new();
    while !game.is_over() {
        let seat = game.to_act().iter().next().unwrap();
        let a = choose(&game, seat);
        let before = game.results().len();
        game.play_mut(seat, &a).unwrap();
        let mut claim =
            game.results()[before..].last().map(|r| Claim { round: Some(r.deltas.clone()), final_scores: None });
        if game.is_over() {
            claim.get_or_insert_with(Claim::default).final_scores = Some(game.scores());
        }
        records.push(Record { seq: records.len() as u32, seat, action: a, claim });
    }
    Log { header, records }
}

fn bench_replay(c: &mut Criterion) {
    let base = Seed::from_text("bench hungarian games");
    let games: Vec<Log<Action>> = (0..16).map(|i| simulate(base.child(&format!("g{i}")))).collect();
    let records: usize = games.iter().map(|l| l.records.len()).sum();
    eprintln!("hungarian_replay: 16 games, {records} records");
    let mut g = c.benchmark_group("hungarian_replay");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.sample_size(10);
    for (name, enc) in
        [("validate_16_games_binary", Encoding::Binary), ("validate_16_games_jsonl", Encoding::JsonLines)]
    {
        let logs: Vec<Vec<u8>> = games.iter().map(|l| encode(l, enc)).collect();
        g.bench_function(name, |b| {
            b.iter(|| {
                for l in &logs {
                    assert!(validate_bytes(l).verdict.is_valid());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_scoring, bench_replay);
criterion_main!(benches);
