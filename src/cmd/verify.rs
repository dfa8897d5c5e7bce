//! `paifu verify`: a certificate against its log and the signer's public key.

use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::{Args, Subcommand};
use paifu_core::cert::Certificate;
use paifu_recorder::files::{read_log_bytes, read_small_text};
use paifu_recorder::import::source::validate_bytes;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
#[command(after_help = "Checks the certificate's signature with --key, that the key is its signer, that it is about \
this log (its digest, game and seats; for version 2 certificates also its ruleset, options and source), and \
that replaying the log now (an imported log also against the source it embeds) gives the certified verdict \
and final scores. Certificates of version 1 and 2 are read.

Exit status: 0 the certificate holds, 1 it does not, 2 a file could not be read.

A whole tournament, as paifu report published it: paifu verify tournament MANIFEST --key PUB \
--logs DIR (see paifu verify tournament --help).

Examples:
  paifu verify game.paifu.jsonl.cert.json game.paifu.jsonl --key referee.pub
  paifu verify tournament report/manifest.json --key referee.pub --logs report/games")]
pub struct VerifyArgs {
    #[command(subcommand)]
    pub what: Option<Verify>,
    /// The certificate (.cert.json).
    #[arg(required = true)]
    pub certificate: Option<PathBuf>,
    /// The log it certifies.
    #[arg(required = true)]
    pub log: Option<PathBuf>,
    /// The signer's public key: a .pub file from `paifu keygen`, or 64 hex digits.
    #[arg(long, required = true)]
    pub key: Option<String>,
}

/// What else `paifu verify` checks.
#[derive(Subcommand, Debug)]
pub enum Verify {
    /// A tournament's signed manifest against its logs and certificates (from paifu report).
    Tournament(super::verify_tournament::TournamentArgs),
}

/// `paifu verify`: 0 the certificate holds, 1 it does not.
pub fn run(a: VerifyArgs) -> Result {
    let (certificate, log, key) = match (a.what, a.certificate, a.log, a.key) {
        (Some(Verify::Tournament(t)), ..) => return super::verify_tournament::run(t),
        (None, Some(c), Some(l), Some(k)) => (c, l, k),
        _ => return Err(Error::Usage("paifu verify CERTIFICATE LOG --key KEY, or paifu verify tournament ...".into())),
    };
    let key = crate::cmd::keygen::public_key(&key)?;
    let cert_text = read_small_text(&certificate)?;
    let c = Certificate::from_json(&cert_text).map_err(|e| Error::unreadable(certificate.display(), e))?;
    let report = validate_bytes(&read_log_bytes(&log)?);
    match c.verify(&key, &report) {
        Ok(()) => {
            outln!(
                "certificate OK: {} is {} (signed {} by {})",
                log.display(),
                match &c.certificate.final_scores {
                    Some(s) => format!("valid with final scores {s:?}"),
                    None => "invalid, as certified".to_owned(),
                },
                c.certificate.issued_at,
                c.certificate.signer
            )?;
            Ok(Status::Fine)
        }
        Err(e) => {
            outln!("certificate REJECTED: {e}")?;
            Ok(Status::Faulty)
        }
    }
}
