//! `paifu verify`: a certificate against its log and the signer's public key.

use crate::error::{Error, Result, Status};
use clap::Args;
use paifu_core::cert::{self, Certificate};
use paifu_core::replay;
use paifu_recorder::files::{read_log_bytes, read_small_text};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The certificate (.cert.json).
    pub certificate: PathBuf,
    /// The log it certifies.
    pub log: PathBuf,
    /// The signer's public key: a .pub file from `paifu keygen`, or 64 hex digits.
    #[arg(long)]
    pub key: String,
}

/// `paifu verify`: 0 the certificate holds, 1 it does not.
pub fn run(a: VerifyArgs) -> Result {
    let key_text = if Path::new(&a.key).exists() { read_small_text(Path::new(&a.key))? } else { a.key.clone() };
    let key = cert::public_from_text(&key_text).map_err(|source| Error::PublicKey { given: a.key.clone(), source })?;
    let cert_text = read_small_text(&a.certificate)?;
    let c = Certificate::from_json(&cert_text).map_err(|e| Error::unreadable(a.certificate.display(), e))?;
    let report = replay::validate_bytes(&read_log_bytes(&a.log)?);
    match c.verify(&key, &report) {
        Ok(()) => {
            println!(
                "certificate OK: {} is {} (signed {} by {})",
                a.log.display(),
                match &c.certificate.final_scores {
                    Some(s) => format!("valid with final scores {s:?}"),
                    None => "invalid, as certified".to_owned(),
                },
                c.certificate.issued_at,
                c.certificate.signer
            );
            Ok(Status::Fine)
        }
        Err(e) => {
            println!("certificate REJECTED: {e}");
            Ok(Status::Faulty)
        }
    }
}
