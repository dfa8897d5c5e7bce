//! `paifu verify tournament`: a signed tournament manifest against the folder of its logs and
//! certificates. Every game is replayed and stored again in an archive in memory, as `paifu
//! ingest` would, so that its verdict, whether it counts and the standings are judged by the
//! same rules as the archive that published them (docs/report.md).

use super::keygen::public_key;
use crate::error::{Error, Result, Status};
use crate::output::{outln, printable, progress_of};
use clap::Args;
use paifu_core::cert::{Certificate, PublicKey};
use paifu_core::manifest::{Manifest, ManifestGame};
use paifu_recorder::archive::{identity_of, prepare, Archive, ArchiveError, Origin};
use paifu_recorder::files::{read_log_bytes, read_small_text, read_text_limited};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "Checks, in order:
  1. the manifest's signature with --key (which must be its signer) and its Merkle root;
  2. that LOGS holds exactly the files it lists: a file it does not list is an added game,
     a listed file that is missing a removed one, one whose blake3 differs a changed one;
  3. each game, replayed now: digest, verdict, final scores, seats, game and ruleset;
  4. each certificate: its blake3, signed by a key the manifest trusts, true of its log now;
  5. which games count and the standings, recomputed from the logs and certificates by the
     archive's rules (docs/web.md, \"Standings\"): of the entries of one game that a key the
     manifest trusts certified valid, the one it says counts must be one of them.

It checks the tournament as it was when the manifest was signed (issued_at): the folder is the
whole evidence. Entries the archive stored since (another copy of a game, certified with more
trust, that now counts in the archive's statistics) are not in it and change nothing here; a
tournament's standings count only its own entries. A newer report has another root: the
dashboard's tournament page shows the current one.

Exit status: 0 the tournament is as signed, 1 it is not (every difference is named), 2 a file \
could not be read or the key is not a key.

Example:
  paifu verify tournament report/manifest.json --key referee.pub --logs report/games")]
pub struct TournamentArgs {
    /// The manifest (manifest.json from paifu report).
    pub manifest: PathBuf,
    /// The signer's public key: a .pub file from `paifu keygen`, or 64 hex digits.
    #[arg(long)]
    pub key: String,
    /// The folder of the tournament's logs and certificates (the report's games/).
    #[arg(long, value_name = "DIR")]
    pub logs: PathBuf,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// A manifest may list many games: it is read up to this size.
const MAX_MANIFEST_BYTES: u64 = 256 << 20;

/// Whether `file` names a file directly inside the folder of logs (no path, no `..`).
fn plain_name(file: &str) -> bool {
    !file.is_empty() && Path::new(file).file_name().and_then(|n| n.to_str()) == Some(file) && file != ".."
}

/// What differs between the game the manifest lists and the game as judged now.
fn differences(listed: &ManifestGame, now: &ManifestGame) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name} {a} in the manifest, {b} now"));
        }
    };
    field("verdict", listed.verdict.to_string(), now.verdict.to_string());
    field("log digest", format!("{:?}", listed.log_digest), format!("{:?}", now.log_digest));
    field("game", listed.game.clone(), now.game.clone());
    field("ruleset", listed.ruleset.clone(), now.ruleset.clone());
    field("seats", format!("{:?}", listed.seats), format!("{:?}", now.seats));
    field("counted", listed.counted.to_string(), now.counted.to_string());
    let files = |g: &ManifestGame| g.certificates.iter().map(|c| c.file.clone()).collect::<Vec<_>>().join(", ");
    field("certificates", files(listed), files(now));
    out
}

/// `paifu verify tournament`: 0 as signed, 1 not.
pub fn run(a: TournamentArgs) -> Result {
    let key = public_key(&a.key)?;
    let text = read_text_limited(&a.manifest, MAX_MANIFEST_BYTES, "manifests")?;
    let manifest = Manifest::from_json(&text).map_err(|e| Error::unreadable(a.manifest.display(), e))?;
    if let Err(e) = manifest.check(&key) {
        outln!("tournament REJECTED: {}: {e}", a.manifest.display())?;
        return Ok(Status::Faulty);
    }
    let m = &manifest.manifest;
    if !a.logs.is_dir() {
        return Err(Error::Usage(format!("--logs {}: no such folder", a.logs.display())));
    }
    let mut problems: Vec<String> = Vec::new();
    let listed: BTreeSet<&str> = m
        .games
        .iter()
        .flat_map(|g| std::iter::once(g.file.as_str()).chain(g.certificates.iter().map(|c| c.file.as_str())))
        .collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(&a.logs)
        .map_err(Error::io(&a.logs))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !listed.contains(n.as_str()))
        .collect();
    on_disk.sort();
    for extra in on_disk {
        problems.push(format!("added: {} is in {} but not in the manifest", printable(&extra), a.logs.display()));
    }

    let trusted: Vec<PublicKey> = m.trusted_keys.iter().filter_map(|k| PublicKey::from_bytes(&k.0).ok()).collect();
    let mut again = Archive::open(Path::new(":memory:")).map_err(Error::archive(":memory:"))?;
    again.ensure_tournament(&m.tournament, None, &trusted).map_err(Error::archive(":memory:"))?;
    // The standings are ranked again with the minimum the manifest signs.
    again.set_min_games(&m.tournament, m.min_games).map_err(Error::archive(":memory:"))?;
    let bar = progress_of(m.games.len() as u64, "replaying games", a.quiet);
    let mut intact: BTreeSet<&str> = BTreeSet::new();
    // The entries the manifest says count go first: among equal entries of one game (each
    // certified by a trusted key) the first stored counts, and the archive that published it
    // stored them in an order the folder does not keep.
    let mut in_order: Vec<&ManifestGame> = m.games.iter().collect();
    in_order.sort_by_key(|g| !g.counted);
    for g in in_order {
        bar.inc(1);
        let file = printable(&g.file);
        if !plain_name(&g.file) {
            problems.push(format!("changed: the manifest lists {file}, which is not a file name inside the folder"));
            continue;
        }
        let path = a.logs.join(&g.file);
        if !path.is_file() {
            problems.push(format!("removed: {file} ({} {}) is not in {}", g.game, g.blake3, a.logs.display()));
            continue;
        }
        let bytes = read_log_bytes(&path)?;
        let blake3 = identity_of(&bytes);
        if blake3 != g.blake3 {
            problems.push(format!("changed: {file}: its blake3 is {blake3}, the manifest lists {}", g.blake3));
            continue;
        }
        // One replay serves both: the entry stored as `paifu ingest` stores it, and the report
        // its certificates are checked against.
        let prepared = prepare(&bytes);
        let stored = match again.store(&prepared, Some(&g.file), Some(&m.tournament), Origin::CommandLine) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("changed: {file}: cannot be read as a log any more: {e}"));
                continue;
            }
        };
        let report = prepared.report();
        let mut certs_ok = true;
        for c in &g.certificates {
            let cfile = printable(&c.file);
            let cpath = a.logs.join(&c.file);
            if !plain_name(&c.file) || !cpath.is_file() {
                problems.push(format!("removed: certificate {cfile} of {file} is not in {}", a.logs.display()));
                certs_ok = false;
                continue;
            }
            let ctext = read_small_text(&cpath)?;
            let cb = identity_of(ctext.as_bytes());
            let checked = if cb != c.blake3 {
                Err(format!("its blake3 is {cb}, the manifest lists {}", c.blake3))
            } else {
                Certificate::from_json(&ctext).map_err(|e| e.to_string()).and_then(|cert| {
                    let signer = PublicKey::from_bytes(&cert.certificate.signer.0).map_err(|e| e.to_string())?;
                    if !m.trusted_keys.contains(&cert.certificate.signer) {
                        return Err(format!(
                            "signed by {}, a key the manifest does not trust",
                            cert.certificate.signer
                        ));
                    }
                    cert.verify(&signer, &report).map_err(|e| e.to_string())?;
                    Ok(cert)
                })
            };
            match checked {
                Ok(cert) => {
                    again.add_certificate(stored.id, &cert).map_err(Error::archive(":memory:"))?;
                }
                Err(e) => {
                    problems.push(format!("changed: certificate {cfile} of {file}: {e}"));
                    certs_ok = false;
                }
            }
        }
        if certs_ok {
            intact.insert(g.file.as_str());
        }
    }
    bar.finish();

    let now = again
        .published(&m.tournament)
        .map_err(Error::archive(":memory:"))?
        .ok_or_else(|| Error::archive(":memory:")(ArchiveError::NoTournament(m.tournament.clone())))?;
    let now_games: BTreeMap<&str, &ManifestGame> =
        now.games.iter().map(|g| (g.entry.file.as_str(), &g.entry)).collect();
    for g in m.games.iter().filter(|g| intact.contains(g.file.as_str())) {
        match now_games.get(g.file.as_str()) {
            Some(n) => {
                let d = differences(g, n);
                if !d.is_empty() {
                    problems.push(format!("changed: {}: {}", printable(&g.file), d.join("; ")));
                }
            }
            None => problems.push(format!(
                "changed: {}: stored now under another name (its game or encoding differs)",
                printable(&g.file)
            )),
        }
    }
    let standings_now = now.standing_lines();
    if problems.is_empty() && standings_now != m.standings {
        let key = |l: &paifu_core::manifest::StandingLine| (l.game.clone(), l.ruleset.clone(), l.player.clone());
        let before: BTreeMap<_, _> = m.standings.iter().map(|l| (key(l), l)).collect();
        let after: BTreeMap<_, _> = standings_now.iter().map(|l| (key(l), l)).collect();
        for k in before.keys().chain(after.keys()).collect::<BTreeSet<_>>() {
            let (b, n) = (before.get(k), after.get(k));
            if b != n {
                problems.push(format!(
                    "standings: {} in {} ({}): {} in the manifest, {} recomputed",
                    printable(&k.2),
                    k.0,
                    k.1,
                    b.map_or("absent".into(), |l| format!("{l:?}")),
                    n.map_or("absent".into(), |l| format!("{l:?}"))
                ));
            }
        }
    }
    if problems.is_empty() {
        let counted = m.games.iter().filter(|g| g.counted).count();
        outln!(
            "tournament OK: {:?}, {} games ({counted} counted), {} standings lines as signed; root {}; signed {} by {}",
            m.tournament,
            m.games.len(),
            m.standings.len(),
            m.root,
            m.issued_at,
            m.signer
        )?;
        return Ok(Status::Fine);
    }
    outln!("tournament REJECTED: {:?}: {} difference(s) from the signed manifest", m.tournament, problems.len())?;
    for p in &problems {
        outln!("  {p}")?;
    }
    if !problems.iter().all(|p| p.starts_with("standings")) {
        outln!("  (standings are recomputed only when every game is as listed)")?;
    }
    Ok(Status::Faulty)
}
