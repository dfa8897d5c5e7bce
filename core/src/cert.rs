//! Signed certificates: a verdict on one log, signed with ed25519 over a blake3 digest.
//!
//! The signature covers `blake3(derive_key("paifu 2026-11 certificate v1", postcard(body)))`,
//! where `body` is the [`CertificateBody`]. Key files are PEM (PKCS#8 for the private key,
//! SubjectPublicKeyInfo for the public key), the forms `openssl pkey` reads.

use crate::digest::{context, Digest};
use crate::error::Fault;
use crate::replay::{Report, Verdict};
use ed25519_dalek::pkcs8::{
    spki::der::pem::LineEnding, DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey,
};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

pub use ed25519_dalek::{SigningKey as SecretKey, VerifyingKey as PublicKey};

/// The version of the certificate format.
pub const CERT_VERSION: u32 = 1;

/// The fault part of a certificate for an invalid log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertFault {
    pub code: String,
    pub index: Option<u64>,
    pub message: String,
}

/// What a certificate states.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertificateBody {
    pub version: u32,
    pub game: String,
    pub seats: Vec<String>,
    /// The digest of the log this certificate is about.
    pub log_digest: Digest,
    /// `valid` or `invalid`.
    pub verdict: String,
    pub fault: Option<CertFault>,
    /// Computed final score of each seat (valid logs only).
    pub final_scores: Option<Vec<i64>>,
    /// The engine that replayed the log.
    pub engine: String,
    /// When it was signed, RFC 3339 UTC.
    pub issued_at: String,
    /// The signer's public key, 64 hex digits.
    pub signer: Digest,
}

/// A signed certificate, as written to a `.cert.json` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    pub certificate: CertificateBody,
    /// ed25519 signature, 128 hex digits.
    pub signature: String,
}

/// Why a certificate does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(clippy::large_enum_variant)]
pub enum CertError {
    #[error("the certificate could not be read: {0}")]
    Malformed(String),
    #[error("the certificate was signed by {signer}, not by the key given ({given})")]
    WrongSigner { signer: String, given: String },
    #[error("the signature does not match the certificate's contents (it was altered after signing, or forged)")]
    BadSignature,
    #[error("the certificate is for the log {certified}, but this log's digest is {actual}")]
    OtherLog { certified: String, actual: String },
    #[error("the certificate says {certified}, but replaying the log now says {actual}")]
    VerdictChanged { certified: String, actual: String },
    #[error("the log could not be read: {0}")]
    Log(Fault),
    #[error("the public key is a weak (small-order) ed25519 key, which can verify forged signatures")]
    WeakKey,
    #[error("certificate version {0} is not one this Paifu reads (it reads {CERT_VERSION})")]
    Version(u32),
    #[error("the certificate is for a {certified} game with seats {seats:?}, but the log is {actual}")]
    OtherGame { certified: String, seats: Vec<String>, actual: String },
}

impl CertificateBody {
    /// The digest the signature is made over.
    pub fn signing_digest(&self) -> Digest {
        let bytes = postcard::to_stdvec(self).unwrap_or_default();
        Digest::derive(context::CERTIFICATE, &[&bytes])
    }

    /// The body stating a validator's report. `None` when the log could not be decoded at all
    /// (there is no digest to certify).
    pub fn from_report(report: &Report, issued_at: String, signer: &VerifyingKey) -> Option<CertificateBody> {
        let digest = report.digest?;
        let header = report.header.as_ref()?;
        let (verdict, fault, final_scores) = match &report.verdict {
            Verdict::Valid(o) => ("valid", None, Some(o.final_scores.clone())),
            Verdict::Invalid(f) => (
                "invalid",
                Some(CertFault {
                    code: f.code.as_str().to_owned(),
                    index: f.index.map(|i| i as u64),
                    message: f.message.clone(),
                }),
                None,
            ),
        };
        Some(CertificateBody {
            version: CERT_VERSION,
            game: header.game.clone(),
            seats: header.seats.clone(),
            log_digest: digest,
            verdict: verdict.to_owned(),
            fault,
            final_scores,
            engine: crate::ENGINE.to_owned(),
            issued_at,
            signer: Digest(signer.to_bytes()),
        })
    }

    fn verdict_text(&self) -> String {
        match (&self.fault, &self.final_scores) {
            (Some(f), _) => format!("invalid ({} at record {})", f.code, f.index.map_or("-".into(), |i| i.to_string())),
            (None, Some(s)) => format!("valid with final scores {s:?}"),
            (None, None) => self.verdict.clone(),
        }
    }
}

/// Signs a body.
pub fn sign(body: CertificateBody, key: &SigningKey) -> Certificate {
    let sig = key.sign(&body.signing_digest().0);
    Certificate { certificate: body, signature: hex::encode(sig.to_bytes()) }
}

impl Certificate {
    /// Checks the signature with `key`, and that the signer named inside is that key.
    pub fn check_signature(&self, key: &VerifyingKey) -> Result<(), CertError> {
        if self.certificate.signer.0 != key.to_bytes() {
            return Err(CertError::WrongSigner {
                signer: self.certificate.signer.to_hex(),
                given: hex::encode(key.to_bytes()),
            });
        }
        let mut sig = [0u8; 64];
        hex::decode_to_slice(&self.signature, &mut sig)
            .map_err(|_| CertError::Malformed("the signature is not 128 hex digits".into()))?;
        if key.is_weak() {
            return Err(CertError::WeakKey);
        }
        key.verify_strict(&self.certificate.signing_digest().0, &Signature::from_bytes(&sig))
            .map_err(|_| CertError::BadSignature)
    }

    /// Full check against a log's fresh report: signature, digest, and the verdict and scores.
    pub fn verify(&self, key: &VerifyingKey, report: &Report) -> Result<(), CertError> {
        if self.certificate.version != CERT_VERSION {
            return Err(CertError::Version(self.certificate.version));
        }
        self.check_signature(key)?;
        if let Some(h) = &report.header {
            if h.game != self.certificate.game || h.seats != self.certificate.seats {
                return Err(CertError::OtherGame {
                    certified: self.certificate.game.clone(),
                    seats: self.certificate.seats.clone(),
                    actual: format!("a {} game with seats {:?}", h.game, h.seats),
                });
            }
        }
        let actual = report.digest.ok_or_else(|| {
            CertError::Log(
                report
                    .verdict
                    .fault()
                    .cloned()
                    .unwrap_or_else(|| Fault::new(crate::ErrorCode::BadEncoding, "no digest")),
            )
        })?;
        if actual != self.certificate.log_digest {
            return Err(CertError::OtherLog {
                certified: self.certificate.log_digest.to_hex(),
                actual: actual.to_hex(),
            });
        }
        let fresh = report
            .header
            .as_ref()
            .and_then(|_| CertificateBody::from_report(report, String::new(), key))
            .ok_or_else(|| CertError::Malformed("the log has no header".into()))?;
        if fresh.verdict != self.certificate.verdict
            || fresh.final_scores != self.certificate.final_scores
            || fresh.fault.as_ref().map(|f| (&f.code, f.index))
                != self.certificate.fault.as_ref().map(|f| (&f.code, f.index))
        {
            return Err(CertError::VerdictChanged {
                certified: self.certificate.verdict_text(),
                actual: fresh.verdict_text(),
            });
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    pub fn from_json(text: &str) -> Result<Certificate, CertError> {
        serde_json::from_str(text).map_err(|e| CertError::Malformed(e.to_string()))
    }
}

/// A key file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// The private key from its 32 secret bytes.
pub fn secret_from_bytes(bytes: [u8; 32]) -> SigningKey {
    SigningKey::from_bytes(&bytes)
}

pub fn secret_to_pem(key: &SigningKey) -> Result<String, KeyError> {
    key.to_pkcs8_pem(LineEnding::LF).map(|z| z.to_string()).map_err(|e| KeyError(e.to_string()))
}

pub fn secret_from_pem(pem: &str) -> Result<SigningKey, KeyError> {
    SigningKey::from_pkcs8_pem(pem).map_err(|e| KeyError(format!("not an ed25519 private key in PKCS#8 PEM: {e}")))
}

pub fn public_to_pem(key: &VerifyingKey) -> Result<String, KeyError> {
    key.to_public_key_pem(LineEnding::LF).map_err(|e| KeyError(e.to_string()))
}

/// A public key from PEM, or from 64 hex digits.
pub fn public_from_text(text: &str) -> Result<VerifyingKey, KeyError> {
    let t = text.trim();
    let key = if let Ok(b) = crate::digest::parse_hex32(t) {
        VerifyingKey::from_bytes(&b).map_err(|e| KeyError(format!("not a valid ed25519 public key: {e}")))?
    } else {
        VerifyingKey::from_public_key_pem(t).map_err(|e| {
            KeyError(format!("not an ed25519 public key (PEM SubjectPublicKeyInfo or 64 hex digits): {e}"))
        })?
    };
    if key.is_weak() {
        return Err(KeyError("a weak (small-order) ed25519 key cannot be trusted to verify anything".into()));
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_keys_are_refused() {
        let weak = format!("01{}", "00".repeat(31));
        assert!(public_from_text(&weak).unwrap_err().0.contains("weak"));
        let good = secret_from_bytes([7; 32]).verifying_key();
        assert_eq!(public_from_text(&hex::encode(good.to_bytes())).unwrap(), good);
        assert_eq!(public_from_text(&public_to_pem(&good).unwrap()).unwrap(), good);
        assert!(public_from_text("not a key").is_err());
    }

    fn body(signer: &VerifyingKey) -> CertificateBody {
        CertificateBody {
            version: CERT_VERSION,
            game: "tzq".into(),
            seats: vec!["a".into(), "b".into()],
            log_digest: Digest([1; 32]),
            verdict: "valid".into(),
            fault: None,
            final_scores: Some(vec![1, 2]),
            engine: crate::ENGINE.into(),
            issued_at: "2026-11-22T00:00:00Z".into(),
            signer: Digest(signer.to_bytes()),
        }
    }

    #[test]
    fn a_weak_key_with_a_trivial_signature_does_not_verify() {
        // The identity point as key and (R = identity, s = 0) as signature verify any message
        // under a lax check.
        let mut weak = [0u8; 32];
        weak[0] = 1;
        let key = VerifyingKey::from_bytes(&weak).unwrap();
        let mut sig = [0u8; 64];
        sig[0] = 1;
        let c = Certificate { certificate: body(&key), signature: hex::encode(sig) };
        assert_eq!(c.check_signature(&key), Err(CertError::WeakKey));
    }

    #[test]
    fn signatures_cover_every_field() {
        let k = secret_from_bytes([9; 32]);
        let c = sign(body(&k.verifying_key()), &k);
        assert_eq!(c.check_signature(&k.verifying_key()), Ok(()));
        let mut changed = c.clone();
        changed.certificate.final_scores = Some(vec![2, 1]);
        assert_eq!(changed.check_signature(&k.verifying_key()), Err(CertError::BadSignature));
        let mut changed = c.clone();
        changed.certificate.seats[0] = "z".into();
        assert_eq!(changed.check_signature(&k.verifying_key()), Err(CertError::BadSignature));
        let other = secret_from_bytes([8; 32]).verifying_key();
        assert!(matches!(c.check_signature(&other), Err(CertError::WrongSigner { .. })));
    }
}
