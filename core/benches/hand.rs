//! `hand::waits` on a fixed set of seeded concealed parts: random 13-tile hands, tenpai hands
//! (a complete hand less one tile), hands one tile from tenpai, and parts beside open melds.
//! Run with `cargo bench -p paifu-core --bench hand`.
//!
//! For instruction counts, set `PAIFU_HAND_MIX` to one of `random`, `tenpai`, `one_away`,
//! `melded` or `all`: the binary then calls `waits` once on each hand of that mix (after one
//! warm-up pass) inside `measure` and exits, so that
//!
//! ```text
//! PAIFU_HAND_MIX=all valgrind --tool=callgrind --collect-atstart=no --toggle-collect='hand::measure' \
//!     target/release/deps/hand-<hash>
//! ```
//!
//! counts the instructions of exactly `HANDS` calls (plus a few per call of loop overhead). It
//! also prints how long the very first call took and how much resident memory it added (the
//! lazily built tables).

use criterion::{Criterion, Throughput};
use paifu_core::mahjong::hand::waits;
use paifu_core::mahjong::Counts;
use paifu_core::{Seed, Stream};
use std::hint::black_box;
use std::time::Instant;

/// Hands per mix.
const HANDS: usize = 4096;

/// `n` tiles drawn from a full wall.
fn random_part(s: &mut Stream, n: usize) -> Counts {
    let mut wall: Vec<usize> = (0..136).map(|i| i / 4).collect();
    s.shuffle(&mut wall);
    let mut c = [0u8; 34];
    for &k in &wall[..n] {
        c[k] += 1;
    }
    c
}

/// A complete part of `sets` sets and a pair (no kind above four).
fn complete_part(s: &mut Stream, sets: usize) -> Counts {
    loop {
        let mut c = [0u8; 34];
        for _ in 0..sets {
            if s.below(3) != 0 {
                let k = (s.below(3) * 9 + s.below(7)) as usize;
                for d in 0..3 {
                    c[k + d] += 1;
                }
            } else {
                c[s.below(34) as usize] += 3;
            }
        }
        c[s.below(34) as usize] += 2;
        if c.iter().all(|&x| x <= 4) {
            return c;
        }
    }
}

fn remove_random(s: &mut Stream, c: &mut Counts) {
    let total: u64 = c.iter().map(|&x| u64::from(x)).sum();
    let mut i = s.below(total);
    for x in c.iter_mut() {
        if i < u64::from(*x) {
            *x -= 1;
            return;
        }
        i -= u64::from(*x);
    }
}

fn add_random(s: &mut Stream, c: &mut Counts) {
    loop {
        let k = s.below(34) as usize;
        if c[k] < 4 {
            c[k] += 1;
            return;
        }
    }
}

fn tenpai(s: &mut Stream, sets: usize) -> Counts {
    let mut c = complete_part(s, sets);
    remove_random(s, &mut c);
    c
}

fn mix(name: &str) -> Vec<Counts> {
    let mut s = Seed::from_text("bench waits").stream(name);
    (0..HANDS)
        .map(|i| match name {
            "random" => random_part(&mut s, 13),
            "tenpai" => tenpai(&mut s, 4),
            "one_away" => {
                let mut c = tenpai(&mut s, 4);
                remove_random(&mut s, &mut c);
                add_random(&mut s, &mut c);
                c
            }
            "melded" => {
                let sets = 1 + i % 3;
                if i % 2 == 0 {
                    random_part(&mut s, 3 * sets + 1)
                } else {
                    tenpai(&mut s, sets)
                }
            }
            // Mostly hands on their way to tenpai, as a game sees them.
            _ => match i % 8 {
                0..=3 => random_part(&mut s, 13),
                4 => tenpai(&mut s, 4),
                5 | 6 => {
                    let mut c = tenpai(&mut s, 4);
                    remove_random(&mut s, &mut c);
                    add_random(&mut s, &mut c);
                    c
                }
                _ => random_part(&mut s, 3 * (1 + i % 3) + 1),
            },
        })
        .collect()
}

/// The process's resident memory (Linux), 0 where unknown.
fn resident_kb() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

#[inline(never)]
fn measure(hands: &[Counts]) -> u64 {
    let mut acc = 0u64;
    for h in hands {
        acc ^= waits(black_box(h));
    }
    acc
}

fn main() {
    if let Ok(name) = std::env::var("PAIFU_HAND_MIX") {
        let hands = mix(&name);
        // The first call builds any lazily built table: its time and the memory it makes resident.
        let rss = resident_kb();
        let start = Instant::now();
        black_box(waits(black_box(&hands[0])));
        let first = start.elapsed();
        eprintln!("first waits call: {first:?}, resident memory +{} kB", resident_kb() - rss);
        // Warm up outside `measure`.
        let mut acc = 0u64;
        for h in &hands {
            acc ^= waits(black_box(h));
        }
        black_box(acc);
        black_box(measure(&hands));
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("hand_waits");
    g.throughput(Throughput::Elements(HANDS as u64));
    for name in ["random", "tenpai", "one_away", "melded", "all"] {
        let hands = mix(name);
        g.bench_function(name, |b| b.iter(|| measure(&hands)));
    }
    g.finish();
    c.final_summary();
}
