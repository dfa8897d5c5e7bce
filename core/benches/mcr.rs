//! The MCR fan calculator on seeded random winning hands: four sets and a pair with 0-4 melds
//! (a third of them of one suit, to reach the flushes and the combinations of chows), and the
//! special shapes, each with a random situation. The target (issue 13): at least 200,000 hands
//! scored a second on one core. Run with `cargo bench -p paifu-core --bench mcr`; criterion
//! prints the throughput in hands a second (`elem/s`). `score line` scores the same hands as
//! `paifu score mcr` reads them, a JSON line in and a JSON line out.

use criterion::{Criterion, Throughput};
use paifu_core::mahjong::{tiles_text, Meld, MeldKind, Tile};
use paifu_core::mcr::{score, score_line, ScoreRules, Situation, WinHand};
use paifu_core::{Seed, Stream};
use std::hint::black_box;

/// Hands in the set scored.
const HANDS: usize = 4096;

struct Hand {
    concealed: Vec<Tile>,
    melds: Vec<Meld>,
    win: Tile,
    sit: Situation,
}

fn kind_of(s: &mut Stream, suits: &[usize], honors: bool) -> usize {
    if honors && s.below(4) == 0 {
        27 + s.below(7) as usize
    } else {
        suits[s.below(suits.len() as u64) as usize] * 9 + s.below(9) as usize
    }
}

/// A winning hand of four sets and a pair.
fn standard(s: &mut Stream) -> Option<Hand> {
    let suits: Vec<usize> = match s.below(3) {
        0 => vec![s.below(3) as usize],
        1 => vec![0, 1],
        _ => vec![0, 1, 2],
    };
    let honors = s.below(2) == 0;
    let mut count = [0u8; 34];
    let mut sets = Vec::new();
    for _ in 0..4 {
        let set: Vec<usize> = if s.below(2) == 0 {
            let b = suits[s.below(suits.len() as u64) as usize] * 9 + s.below(7) as usize;
            vec![b, b + 1, b + 2]
        } else {
            vec![kind_of(s, &suits, honors); 3]
        };
        for &k in &set {
            count[k] += 1;
        }
        sets.push(set);
    }
    let pair = kind_of(s, &suits, honors);
    count[pair] += 2;
    if count.iter().any(|&c| c > 4) {
        return None;
    }
    let melded = s.below(5) as usize;
    let mut concealed = vec![Tile::kind_tile(pair); 2];
    let mut melds = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let tiles: Vec<Tile> = set.iter().map(|&k| Tile::kind_tile(k)).collect();
        if i < melded {
            let kind = if set[0] != set[1] {
                MeldKind::Chow
            } else if count[set[0]] == 3 && s.below(4) == 0 {
                [MeldKind::ClaimedKong, MeldKind::ConcealedKong, MeldKind::AddedKong][s.below(3) as usize]
            } else {
                MeldKind::Pung
            };
            let mut t = tiles.clone();
            if kind.is_kong() {
                t.push(t[0]);
            }
            melds.push(Meld::new(kind, &t, None, None)?);
        } else {
            concealed.extend(tiles);
        }
    }
    let win = concealed[s.below(concealed.len() as u64) as usize];
    Some(Hand { concealed, melds, win, sit: situation(s, false) })
}

/// Seven pairs, thirteen orphans or a knitted straight with a set and a pair.
fn special(s: &mut Stream) -> Option<Hand> {
    let kinds: Vec<usize> = match s.below(3) {
        0 => {
            let mut k = Vec::new();
            for _ in 0..7 {
                let x = s.below(34) as usize;
                k.extend([x, x]);
            }
            k
        }
        1 => {
            let mut k = vec![0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
            k.push(k[s.below(13) as usize]);
            k
        }
        _ => {
            let mut rows = [0usize, 1, 2];
            s.shuffle(&mut rows);
            let mut k: Vec<usize> = (0..9).map(|i| rows[i / 3] * 9 + i / 3 + 3 * (i % 3)).collect();
            let b = s.below(3) as usize * 9 + s.below(7) as usize;
            k.extend([b, b + 1, b + 2]);
            let p = s.below(34) as usize;
            k.extend([p, p]);
            k
        }
    };
    let mut count = [0u8; 34];
    for &k in &kinds {
        count[k] += 1;
    }
    if count.iter().any(|&c| c > 4) {
        return None;
    }
    let concealed: Vec<Tile> = kinds.iter().map(|&k| Tile::kind_tile(k)).collect();
    let win = concealed[s.below(14) as usize];
    Some(Hand { concealed, melds: Vec::new(), win, sit: situation(s, true) })
}

fn situation(s: &mut Stream, special: bool) -> Situation {
    Situation {
        self_drawn: s.below(3) == 0,
        last_tile: false,
        kong_related: false,
        wall_last: !special && s.below(20) == 0,
        seat_wind: s.below(4) as u8,
        round_wind: s.below(4) as u8,
        flowers: s.below(3) as u8,
    }
}

fn hands() -> Vec<Hand> {
    let mut s = Seed::from_text("mcr bench").stream("hands");
    let mut out = Vec::with_capacity(HANDS);
    while out.len() < HANDS {
        let h = if s.below(7) == 0 { special(&mut s) } else { standard(&mut s) };
        // Only hands the calculator accepts (a random pair may make a fifth tile or no win).
        if let Some(h) = h {
            let wh = WinHand { concealed: &h.concealed, melds: &h.melds, win: h.win };
            if score(&wh, &h.sit, &ScoreRules::default()).is_ok() {
                out.push(h);
            }
        }
    }
    out
}

/// A hand as a line of `paifu score mcr`'s input.
fn hand_line(h: &Hand) -> String {
    let wind = |w: u8| ["E", "S", "W", "N"][usize::from(w)];
    let melds: Vec<String> = h.melds.iter().map(|m| format!("{}:{}", m.kind.name(), tiles_text(m.tiles()))).collect();
    serde_json::json!({
        "hand": tiles_text(&h.concealed),
        "melds": melds,
        "win": h.win.to_string(),
        "tsumo": h.sit.self_drawn,
        "flowers": h.sit.flowers,
        "wall_last": h.sit.wall_last,
        "seat_wind": wind(h.sit.seat_wind),
        "round_wind": wind(h.sit.round_wind),
    })
    .to_string()
}

fn main() {
    let hands = hands();
    let rules = ScoreRules::default();
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("mcr");
    g.throughput(Throughput::Elements(HANDS as u64));
    g.bench_function("score 4096 random winning hands", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for h in &hands {
                let wh = WinHand { concealed: &h.concealed, melds: &h.melds, win: h.win };
                if let Ok(sc) = score(black_box(&wh), black_box(&h.sit), &rules) {
                    total += sc.total();
                }
            }
            total
        })
    });
    let lines: Vec<String> = hands.iter().map(hand_line).collect();
    g.bench_function("score line 4096 random winning hands", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for l in &lines {
                bytes += score_line(black_box(l)).len();
            }
            bytes
        })
    });
    g.finish();
    c.final_summary();
}
