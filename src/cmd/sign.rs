//! `paifu sign`: a log's verdict as a signed certificate.

use crate::cmd::keygen::read_key;
use crate::error::{Error, Result, Status};
use crate::output::{now_rfc3339, outln, report_line, write_file};
use clap::Args;
use paifu_core::cert::{self, Certificate, CertificateBody};
use paifu_core::replay::Report;
use paifu_recorder::files::read_log_bytes;
use paifu_recorder::import::source::validate_bytes;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SignArgs {
    /// The log to validate and certify.
    pub log: PathBuf,
    /// The private key file (from `paifu keygen`).
    #[arg(long)]
    pub key: PathBuf,
    /// Where to write the certificate (default: LOG.cert.json).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Signs a report with a key; `None` when the log could not be decoded (nothing to certify).
pub fn certify(report: &Report, key: &cert::SecretKey) -> Option<Certificate> {
    CertificateBody::from_report(report, now_rfc3339(), &key.verifying_key()).map(|b| cert::sign(b, key))
}

/// `paifu sign`: 0 a certificate was written (of either verdict), 1 the file is not a log.
pub fn run(a: SignArgs) -> Result {
    let key = read_key(&a.key)?;
    let bytes = read_log_bytes(&a.log)?;
    let report = validate_bytes(&bytes);
    let Some(c) = certify(&report, &key) else {
        let f = report.verdict.fault().map(|f| f.describe()).unwrap_or_default();
        return Err(Error::Faulty(format!("{}: cannot be certified, it is not a readable log: {f}", a.log.display())));
    };
    let out = a.output.unwrap_or_else(|| PathBuf::from(format!("{}.cert.json", a.log.display())));
    write_file(&out, c.to_json().as_bytes())?;
    outln!("{}", report_line(&a.log, &report))?;
    outln!("wrote {}", out.display())?;
    Ok(Status::Fine)
}
