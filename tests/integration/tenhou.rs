//! Tenhou records from ../shared/real-logs/tenhou (read in place, never copied).

use paifu_recorder::import::record::{Discard, Outcome};
use paifu_recorder::import::tenhou6;
use std::path::PathBuf;

fn real_logs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou")
}

#[test]
fn all_real_tenhou_games_parse_with_their_manifest_scores() {
    let dir = real_logs();
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("manifest.json")).expect("../shared/real-logs/tenhou/manifest.json"),
    )
    .unwrap();
    let entries = manifest.as_array().unwrap();
    assert_eq!(entries.len(), 31);
    for e in entries {
        let file = e["file"].as_str().unwrap();
        let g = tenhou6::parse(&std::fs::read_to_string(dir.join(file)).unwrap())
            .unwrap_or_else(|err| panic!("{file}: {err}"));
        assert_eq!(g.rounds.len() as u64, e["rounds"].as_u64().unwrap(), "{file}");
        let want: Vec<i64> = e["final_scores"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
        assert_eq!(g.final_scores.as_ref(), Some(&want), "{file}");
        for r in &g.rounds {
            // Points are conserved: the four scores and the riichi sticks on the table make 100 000.
            assert_eq!(r.scores.iter().sum::<i64>() + 1000 * i64::from(r.sticks), 100_000, "{file} {}", r.name());
            // Round score changes sum to zero, apart from riichi sticks going to a winner.
            let deltas: Vec<[i64; 4]> = match &r.outcome {
                Outcome::Wins(w) => w.iter().map(|w| w.deltas).collect(),
                Outcome::Draw { deltas, .. } => deltas.iter().copied().collect(),
            };
            let sum: i64 = deltas.iter().flat_map(|d| d.iter()).sum();
            let riichi = r.discards.iter().flatten().filter(|d| matches!(d, Discard::Riichi(_))).count() as i64;
            assert!(
                sum == 0 || sum % 1000 == 0 && sum <= 1000 * (i64::from(r.sticks) + riichi),
                "{file} {}: {sum}",
                r.name()
            );
        }
    }
}
