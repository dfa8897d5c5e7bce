//! Import benchmarks on the real Tenhou games of ../shared/real-logs/tenhou (read in place, issue
//! 25): importing a tenhou.net/6 record and its mjai form, and validating the imported logs with
//! the check against the source they embed, in JSON Lines and in binary, beside the core
//! validator alone on the same logs. Figures in docs/performance.md.
//!
//! cargo bench -p paifu-recorder --bench import

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use paifu_core::log::{encode, Encoding};
use paifu_recorder::import::{import_text, mjai, source};
use std::hint::black_box;
use std::path::PathBuf;

/// The real games (tenhou.net/6 JSON), each with its mjai form (as converters write it: without
/// an embedded Paifu log) and its imported log in both encodings.
struct Games {
    tenhou: Vec<String>,
    mjai: Vec<String>,
    jsonl: Vec<Vec<u8>>,
    binary: Vec<Vec<u8>>,
}

fn games() -> Games {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-logs/tenhou");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.map(|e| e.path()).unwrap_or_default())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".json") && n != "manifest.json")
        })
        .collect();
    files.sort();
    let mut g = Games { tenhou: Vec::new(), mjai: Vec::new(), jsonl: Vec::new(), binary: Vec::new() };
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let imp = import_text("tenhou", &text, text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let export = mjai::export(&imp.log).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // As converters write it: the first line without the embedded Paifu log.
        let mut lines: Vec<String> = export.lines().map(str::to_owned).collect();
        let mut start: serde_json::Value = serde_json::from_str(&lines[0]).unwrap_or_default();
        if let Some(o) = start.as_object_mut() {
            o.remove("paifu");
        }
        lines[0] = start.to_string();
        g.mjai.push(lines.join("\n") + "\n");
        g.jsonl.push(encode(&imp.log, Encoding::JsonLines));
        g.binary.push(encode(&imp.log, Encoding::Binary));
        g.tenhou.push(text);
    }
    assert!(g.tenhou.len() >= 31, "the real games are read from {}", dir.display());
    g
}

fn bench(c: &mut Criterion) {
    let g = games();
    let n = g.tenhou.len() as u64;
    let mut group = c.benchmark_group("real Tenhou games");
    group.throughput(Throughput::Elements(n));
    group.sample_size(20);
    group.bench_function("import tenhou.net/6", |b| {
        b.iter(|| {
            for t in &g.tenhou {
                black_box(import_text("tenhou", t, t.as_bytes()).map(|i| i.log.records.len()).unwrap_or(0));
            }
        })
    });
    group.bench_function("import mjai", |b| {
        b.iter(|| {
            for t in &g.mjai {
                black_box(import_text("mjai", t, t.as_bytes()).map(|i| i.log.records.len()).unwrap_or(0));
            }
        })
    });
    let validate = |logs: &[Vec<u8>], with_source: bool| {
        let mut valid = 0;
        for l in logs {
            let r = if with_source { source::validate_bytes(l) } else { paifu_core::replay::validate_bytes(l) };
            valid += usize::from(r.verdict.is_valid());
        }
        assert_eq!(valid, logs.len());
        valid
    };
    group.bench_function("validate JSON Lines, with the source", |b| b.iter(|| black_box(validate(&g.jsonl, true))));
    group.bench_function("validate binary, with the source", |b| b.iter(|| black_box(validate(&g.binary, true))));
    group.bench_function("validate JSON Lines, core alone", |b| b.iter(|| black_box(validate(&g.jsonl, false))));
    group.bench_function("validate binary, core alone", |b| b.iter(|| black_box(validate(&g.binary, false))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
