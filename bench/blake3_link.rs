//! One chain link (blake3 in derive-key mode over the last link and a 20-byte record, as
//! `log::Chain::push_bytes` does) and one 10 KiB hash (an imported game's source), timed alone:
//! the figures of docs/performance.md, "The machine", that decided how blake3 is built.
//!
//! Not part of the workspace. To run it, in a scratch crate (`cargo new b3link`) with
//! `blake3 = "=1.8.7"` and a feature `portable = ["blake3/no_avx512", "blake3/no_avx2",
//! "blake3/no_sse41", "blake3/no_sse2"]`, copy this file to `src/main.rs`, then build it twice
//! (`cargo build --release`, and with `--features portable`) and run the two binaries in turn a
//! few times. Each figure is the best of 200 timings (a shared machine only ever adds time).
use std::time::Instant;

fn main() {
    use blake3::hazmat::HasherExt;
    let key = blake3::hazmat::hash_derive_key_context("paifu 2026-11 log record v1");
    let mut h = blake3::Hasher::new_from_context_key(&key);
    let mut link = [0u8; 32];
    let record = [7u8; 20];
    let n = 50_000;
    let mut best = f64::MAX;
    for _ in 0..200 {
        let t = Instant::now();
        for _ in 0..n {
            let hh = h.reset();
            let mut small = [0u8; 64];
            small[..32].copy_from_slice(&link);
            small[32..52].copy_from_slice(&record);
            hh.update(&small[..52]);
            link = *hh.finalize().as_bytes();
        }
        best = best.min(t.elapsed().as_secs_f64() / n as f64 * 1e9);
    }
    let big = vec![3u8; 10_000];
    let mut big_best = f64::MAX;
    for _ in 0..200 {
        let t = Instant::now();
        for _ in 0..20 {
            link[0] ^= blake3::hash(&big).as_bytes()[0];
        }
        big_best = big_best.min(t.elapsed().as_secs_f64() / 20.0 * 1e6);
    }
    println!("chain link {best:.1} ns; 10 KB hash {big_best:.1} us ({})", link[0]);
}
