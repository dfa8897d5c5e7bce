//! `paifu verify`: a certificate against its log and the signer's public key.

use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::Args;
use paifu_core::cert::{self, Certificate};
use paifu_recorder::files::{read_log_bytes, read_small_text};
use paifu_recorder::import::source::validate_bytes;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "Checks the certificate's signature with --key, that the key is its signer, that it is about \
this log (its digest, game and seats; for version 2 certificates also its ruleset, options and source), and \
that replaying the log now (an imported log also against the source it embeds) gives the certified verdict \
and final scores. Certificates of version 1 and 2 are read.

Exit status: 0 the certificate holds, 1 it does not, 2 a file could not be read.

Example:
  paifu verify game.paifu.jsonl.cert.json game.paifu.jsonl --key referee.pub")]
pub struct VerifyArgs {
    /// The certificate (.cert.json).
    pub certificate: PathBuf,
    /// The log it certifies.
    pub log: PathBuf,
    /// The signer's public key: a .pub file from `paifu keygen`, or 64 hex digits.
    #[arg(long)]
    pub key: String,
}

/// The text of `--key`: the key itself (64 hex digits, or a PEM block), or the file it names.
fn key_text(key: &str) -> Result<String> {
    let t = key.trim();
    if t.starts_with("-----BEGIN") || (t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())) {
        return Ok(key.to_owned());
    }
    let path = Path::new(key);
    if !path.exists() {
        return Err(Error::Unreadable {
            what: format!("--key {key}"),
            message: "no such file: give the signer's public key file (NAME.pub from paifu keygen) or its 64 hex \
                      digits"
                .into(),
        });
    }
    Ok(read_small_text(path)?)
}

/// `paifu verify`: 0 the certificate holds, 1 it does not.
pub fn run(a: VerifyArgs) -> Result {
    let key = cert::public_from_text(&key_text(&a.key)?)
        .map_err(|source| Error::PublicKey { given: a.key.clone(), source })?;
    let cert_text = read_small_text(&a.certificate)?;
    let c = Certificate::from_json(&cert_text).map_err(|e| Error::unreadable(a.certificate.display(), e))?;
    let report = validate_bytes(&read_log_bytes(&a.log)?);
    match c.verify(&key, &report) {
        Ok(()) => {
            outln!(
                "certificate OK: {} is {} (signed {} by {})",
                a.log.display(),
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
