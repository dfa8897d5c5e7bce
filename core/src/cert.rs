//! Signed certificates: a verdict on one log, signed with ed25519 over a blake3 digest.
//!
//! The signature covers `blake3(derive_key("paifu 2026-11 certificate v1", postcard(body)))`,
//! where `body` is the [`CertificateBody`] in the layout of its version (version 1: the fields up
//! to `signer`; version 2 adds `ruleset`, `options_digest`, `source` and `paifu_version`, then
//! `incidents` and `wall_checked` when a log has them, each signed only then). Key
//! files are PEM (PKCS#8 for the private key, SubjectPublicKeyInfo for the public key), the forms
//! `openssl pkey` reads.

use crate::digest::{context, Digest};
use crate::error::Fault;
use crate::log::{Header, Options};
use crate::replay::{Report, Verdict};
use ed25519_dalek::pkcs8::{
    spki::der::pem::LineEnding, DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey,
};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

pub use ed25519_dalek::{SigningKey as SecretKey, VerifyingKey as PublicKey};

/// The version of the certificate format this Paifu writes. Version 2 names the ruleset, a
/// digest of the options, the source of an imported game and the Paifu version that judged the
/// game; certificates of version 1 (without them) are still read and verified.
pub(crate) const CERT_VERSION: u32 = 2;

/// The Paifu version written into certificates (`paifu_version`): every Paifu crate has this one
/// version.
pub(crate) const PAIFU_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The fault part of a certificate for an invalid log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertFault {
    pub code: String,
    pub index: Option<u64>,
    pub message: String,
}

/// Where an imported game came from, as a certificate names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertSource {
    /// The source format: `tenhou6`, `mjlog` or `mjai`.
    pub format: String,
    /// blake3 of the source file (the log header's `source.digest`).
    pub digest: Digest,
}

/// An incident of the certified log (core/src/incident/mod.rs): the record, the seat, the kind
/// (`timeout`, ..., `false_win`) and the detail (empty when there is none).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertIncident {
    pub index: u64,
    pub seat: u8,
    pub kind: String,
    pub detail: String,
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
    /// `valid` or `invalid`; for an excerpt of an unknown game `excerpt: rounds South 2-1 to
    /// South 3-0 of an unknown game` (and no `final_scores`).
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
    /// Version 2: the log's ruleset (absent in version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// Version 2: [`options_digest`] of the log's options (absent in version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options_digest: Option<Digest>,
    /// Version 2: the source of an imported game (absent for a seeded game, and in version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<CertSource>,
    /// Version 2: the Paifu version that judged the game (absent in version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paifu_version: Option<String>,
    /// Version 2: the incidents of a valid log, in record order. Absent when there are none,
    /// so that every certificate of a log without incidents keeps its bytes and its signature.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incidents: Vec<CertIncident>,
    /// Version 2: the log is an imported game whose every deal, draw, dead-wall draw, indicator and
    /// die was rebuilt from its platform's own seed and matched ([`wall_checked`]). Absent when
    /// false, so that every other certificate keeps its bytes and its signature.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wall_checked: bool,
}

/// The header `meta` key in which `paifu import` states that an imported game's deals were
/// rebuilt from its platform's own seed and matched (a Tenhou mjlog's `<SHUFFLE seed>`); its value
/// names the algorithm (`mt19937ar-sha512-n288-base64`).
pub const WALL_KEY: &str = "wall";

/// The header `meta` key of the source an imported log embeds (`paifu_recorder::import`).
const EMBEDDED_SOURCE_KEY: &str = "source";

/// Whether a report is of a valid imported log whose deals were rebuilt from its source's own seed
/// and matched: its header names its source, embeds it and states the check ([`WALL_KEY`]). That
/// holds for the report of the validator that checks an imported log against the source it embeds
/// (`paifu_recorder::import::source::validate_bytes`, which every command uses): it imports the
/// source again, the wall check included, and requires the very header. The core validator alone
/// does not read the source, and its report says nothing of the wall.
pub fn wall_checked(report: &Report) -> bool {
    report.verdict.is_valid()
        && report.header.as_ref().is_some_and(|h| {
            h.source.is_some() && h.meta.contains_key(EMBEDDED_SOURCE_KEY) && h.meta.contains_key(WALL_KEY)
        })
}

/// The digest a certificate names for a header's options: blake3 in key-derivation mode with
/// the context `paifu 2026-11 options v1` over the postcard encoding of the options map (as in
/// the header: keys in ascending order, each value an enum 0 bool, 1 integer, 2 string).
pub fn options_digest(options: &Options) -> Digest {
    let bytes = postcard::to_stdvec(options).unwrap_or_default();
    Digest::derive(context::OPTIONS, &[&bytes])
}

/// A signed certificate, as written to a `.cert.json` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    pub certificate: CertificateBody,
    /// ed25519 signature, 128 hex digits.
    pub signature: String,
}

/// The fields of a version 1 body, in their signed order.
#[derive(Serialize)]
struct SignedV1<'a> {
    version: u32,
    game: &'a str,
    seats: &'a [String],
    log_digest: &'a Digest,
    verdict: &'a str,
    fault: &'a Option<CertFault>,
    final_scores: &'a Option<Vec<i64>>,
    engine: &'a str,
    issued_at: &'a str,
    signer: &'a Digest,
}

/// The fields of a version 2 body, in their signed order: version 1's, then the four it adds
/// (each as an optional value, so a missing one cannot be mistaken for another).
#[derive(Serialize)]
struct SignedV2<'a> {
    v1: SignedV1<'a>,
    ruleset: &'a Option<String>,
    options_digest: &'a Option<Digest>,
    source: &'a Option<CertSource>,
    paifu_version: &'a Option<String>,
}

/// A version 2 body with incidents: the version 2 fields, then the incidents (a body without
/// incidents is signed as [`SignedV2`] alone, as before incidents existed).
#[derive(Serialize)]
struct SignedV2Incidents<'a> {
    v2: SignedV2<'a>,
    incidents: &'a [CertIncident],
}

/// A version 2 body whose wall was checked: the version 2 fields, the incidents (none or some),
/// then `wall_checked` (a body without it is signed as before it existed).
#[derive(Serialize)]
struct SignedV2Wall<'a> {
    v2: SignedV2<'a>,
    incidents: &'a [CertIncident],
    wall_checked: bool,
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
    #[error("certificate version {0} is not one this Paifu reads (it reads 1 to {CERT_VERSION})")]
    Version(u32),
    /// A field the certificate states differs from the log's.
    #[error("the certificate's {field} is {certified}, but the log's is {actual}")]
    Differs { field: &'static str, certified: String, actual: String },
    #[error("the certificate is for a {certified} game with seats {seats:?}, but the log is {actual}")]
    OtherGame { certified: String, seats: Vec<String>, actual: String },
}

impl CertificateBody {
    /// The digest the signature is made over: of the fields its version has.
    pub(crate) fn signing_digest(&self) -> Digest {
        let v1 = SignedV1 {
            version: self.version,
            game: &self.game,
            seats: &self.seats,
            log_digest: &self.log_digest,
            verdict: &self.verdict,
            fault: &self.fault,
            final_scores: &self.final_scores,
            engine: &self.engine,
            issued_at: &self.issued_at,
            signer: &self.signer,
        };
        let bytes = if self.version == 1 {
            postcard::to_stdvec(&v1)
        } else {
            let v2 = SignedV2 {
                v1,
                ruleset: &self.ruleset,
                options_digest: &self.options_digest,
                source: &self.source,
                paifu_version: &self.paifu_version,
            };
            if self.wall_checked {
                postcard::to_stdvec(&SignedV2Wall { v2, incidents: &self.incidents, wall_checked: true })
            } else if self.incidents.is_empty() {
                postcard::to_stdvec(&v2)
            } else {
                postcard::to_stdvec(&SignedV2Incidents { v2, incidents: &self.incidents })
            }
        };
        Digest::derive(context::CERTIFICATE, &[&bytes.unwrap_or_default()])
    }

    /// The body stating a validator's report. `None` when the log could not be decoded at all
    /// (there is no digest to certify).
    pub fn from_report(report: &Report, issued_at: String, signer: &VerifyingKey) -> Option<CertificateBody> {
        let digest = report.digest?;
        let header = report.header.as_ref()?;
        let incidents = report
            .verdict
            .outcome()
            .map(|o| {
                o.incidents
                    .iter()
                    .map(|i| CertIncident {
                        index: i.index as u64,
                        seat: i.seat,
                        kind: i.kind.name().to_owned(),
                        detail: i.detail.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let (verdict, fault, final_scores) = match &report.verdict {
            // An excerpt is never "valid" (a whole game's word) and has no final standings: its
            // verdict names the rounds it covers, signed as every verdict is (so a verifier of
            // any version reads it as what it is, and one that does not know excerpts refuses it).
            Verdict::Valid(o) if o.excerpt.is_some() => {
                (o.excerpt.as_ref().map(|e| e.to_string()).unwrap_or_default(), None, None)
            }
            Verdict::Valid(o) => ("valid".to_owned(), None, Some(o.final_scores.clone())),
            Verdict::Invalid(f) => (
                "invalid".to_owned(),
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
            verdict,
            fault,
            final_scores,
            engine: crate::ENGINE.to_owned(),
            issued_at,
            signer: Digest(signer.to_bytes()),
            ruleset: Some(header.ruleset.clone()),
            options_digest: Some(options_digest(&header.options)),
            source: cert_source(header),
            paifu_version: Some(PAIFU_VERSION.to_owned()),
            incidents,
            wall_checked: wall_checked(report),
        })
    }

    /// Checks that the body has the fields of its version and no others: a version 1 body's
    /// signature does not cover version 2's fields, so one that carries them is refused.
    fn check_layout(&self) -> Result<(), CertError> {
        let v2 = [self.ruleset.is_some(), self.options_digest.is_some(), self.paifu_version.is_some()];
        match self.version {
            1 if v2.contains(&true) || self.source.is_some() || !self.incidents.is_empty() || self.wall_checked => {
                Err(CertError::Malformed(
                    "a version 1 certificate has no ruleset, options_digest, source, paifu_version, incidents or \
                     wall_checked (its signature does not cover them)"
                        .into(),
                ))
            }
            1 => Ok(()),
            CERT_VERSION if v2.contains(&false) => Err(CertError::Malformed(format!(
                "a version {CERT_VERSION} certificate names its ruleset, options_digest and paifu_version"
            ))),
            CERT_VERSION => Ok(()),
            v => Err(CertError::Version(v)),
        }
    }

    fn verdict_text(&self) -> String {
        match (&self.fault, &self.final_scores) {
            (Some(f), _) => format!("invalid ({} at record {})", f.code, f.index.map_or("-".into(), |i| i.to_string())),
            (None, Some(s)) => format!("valid with final scores {s:?}"),
            (None, None) => self.verdict.clone(),
        }
    }
}

/// The source of an imported game's header, as a certificate names it.
fn cert_source(h: &Header) -> Option<CertSource> {
    h.source.as_ref().map(|s| CertSource { format: s.format.clone(), digest: s.digest })
}

/// Checks an ed25519 signature (128 hex digits) over a digest, strictly, refusing weak keys:
/// the one check certificates and tournament manifests share.
pub(crate) fn check_ed25519(key: &VerifyingKey, digest: &Digest, signature: &str) -> Result<(), CertError> {
    let mut sig = [0u8; 64];
    hex::decode_to_slice(signature, &mut sig)
        .map_err(|_| CertError::Malformed("the signature is not 128 hex digits".into()))?;
    if key.is_weak() {
        return Err(CertError::WeakKey);
    }
    key.verify_strict(&digest.0, &Signature::from_bytes(&sig)).map_err(|_| CertError::BadSignature)
}

/// Signs a body.
pub fn sign(body: CertificateBody, key: &SigningKey) -> Certificate {
    let sig = key.sign(&body.signing_digest().0);
    Certificate { certificate: body, signature: hex::encode(sig.to_bytes()) }
}

impl Certificate {
    /// Checks the signature with `key`, and that the signer named inside is that key.
    pub fn check_signature(&self, key: &VerifyingKey) -> Result<(), CertError> {
        self.certificate.check_layout()?;
        if self.certificate.signer.0 != key.to_bytes() {
            return Err(CertError::WrongSigner {
                signer: self.certificate.signer.to_hex(),
                given: hex::encode(key.to_bytes()),
            });
        }
        check_ed25519(key, &self.certificate.signing_digest(), &self.signature)
    }

    /// Full check against a log's fresh report: signature, digest, and the verdict and scores.
    pub fn verify(&self, key: &VerifyingKey, report: &Report) -> Result<(), CertError> {
        let c = &self.certificate;
        c.check_layout()?;
        self.check_signature(key)?;
        if let Some(h) = &report.header {
            if h.game != c.game || h.seats != c.seats {
                return Err(CertError::OtherGame {
                    certified: c.game.clone(),
                    seats: c.seats.clone(),
                    actual: format!("a {} game with seats {:?}", h.game, h.seats),
                });
            }
            if c.version >= 2 {
                let differs = |field: &'static str, certified: String, actual: String| {
                    if certified == actual {
                        Ok(())
                    } else {
                        Err(CertError::Differs { field, certified, actual })
                    }
                };
                let show = |s: &Option<CertSource>| match s {
                    Some(s) => format!("{} {}", s.format, s.digest),
                    None => "none (a seeded game)".to_owned(),
                };
                differs("ruleset", c.ruleset.clone().unwrap_or_default(), h.ruleset.clone())?;
                differs(
                    "options_digest",
                    c.options_digest.map(|d| d.to_hex()).unwrap_or_default(),
                    options_digest(&h.options).to_hex(),
                )?;
                differs("source", show(&c.source), show(&cert_source(h)))?;
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
        if fresh.incidents != self.certificate.incidents {
            let list = |l: &[CertIncident]| {
                let v: Vec<String> =
                    l.iter().map(|i| format!("record {} seat {} {}", i.index, i.seat, i.kind)).collect();
                if v.is_empty() {
                    "none".to_owned()
                } else {
                    v.join(", ")
                }
            };
            return Err(CertError::Differs {
                field: "incidents",
                certified: list(&self.certificate.incidents),
                actual: list(&fresh.incidents),
            });
        }
        if fresh.wall_checked != self.certificate.wall_checked {
            return Err(CertError::Differs {
                field: "wall_checked",
                certified: self.certificate.wall_checked.to_string(),
                actual: fresh.wall_checked.to_string(),
            });
        }
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
            ruleset: Some("standard".into()),
            options_digest: Some(options_digest(&Options::new())),
            source: Some(CertSource { format: "tenhou6".into(), digest: Digest([2; 32]) }),
            paifu_version: Some(PAIFU_VERSION.into()),
            incidents: Vec::new(),
            wall_checked: false,
        }
    }

    /// A version 1 body: the fields before version 2.
    fn body_v1(signer: &VerifyingKey) -> CertificateBody {
        CertificateBody {
            version: 1,
            ruleset: None,
            options_digest: None,
            source: None,
            paifu_version: None,
            incidents: Vec::new(),
            ..body(signer)
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
        // Version 2's fields are signed too.
        type Edit = (&'static str, fn(&mut CertificateBody));
        let edits: [Edit; 5] = [
            ("ruleset", |b| b.ruleset = Some("tonpuu".into())),
            ("options_digest", |b| b.options_digest = Some(Digest([3; 32]))),
            ("source", |b| b.source = None),
            ("source digest", |b| b.source.as_mut().unwrap().digest = Digest([4; 32])),
            ("paifu_version", |b| b.paifu_version = Some("9.9.9".into())),
        ];
        for (what, edit) in edits {
            let mut changed = c.clone();
            edit(&mut changed.certificate);
            assert_eq!(changed.check_signature(&k.verifying_key()), Err(CertError::BadSignature), "{what}");
        }
    }

    #[test]
    fn incidents_are_signed_and_a_body_without_them_signs_as_before() {
        let k = secret_from_bytes([9; 32]);
        let plain = body(&k.verifying_key());
        // Without incidents the signed bytes are version 2's as they were before incidents.
        let before = SignedV2 {
            v1: SignedV1 {
                version: plain.version,
                game: &plain.game,
                seats: &plain.seats,
                log_digest: &plain.log_digest,
                verdict: &plain.verdict,
                fault: &plain.fault,
                final_scores: &plain.final_scores,
                engine: &plain.engine,
                issued_at: &plain.issued_at,
                signer: &plain.signer,
            },
            ruleset: &plain.ruleset,
            options_digest: &plain.options_digest,
            source: &plain.source,
            paifu_version: &plain.paifu_version,
        };
        let bytes = postcard::to_stdvec(&before).unwrap();
        assert_eq!(plain.signing_digest(), Digest::derive(context::CERTIFICATE, &[&bytes]));
        assert!(!sign(plain.clone(), &k).to_json().contains("incidents"));
        let incident = CertIncident { index: 7, seat: 1, kind: "timeout".into(), detail: "no answer".into() };
        let c = sign(CertificateBody { incidents: vec![incident.clone()], ..plain }, &k);
        assert_eq!(c.check_signature(&k.verifying_key()), Ok(()));
        assert!(c.to_json().contains("\"kind\": \"timeout\""));
        assert_eq!(Certificate::from_json(&c.to_json()).unwrap(), c);
        type Edit = (&'static str, fn(&mut CertificateBody));
        let edits: [Edit; 3] = [
            ("removed", |b| b.incidents.clear()),
            ("kind", |b| b.incidents[0].kind = "budget".into()),
            ("added", |b| b.incidents.push(b.incidents[0].clone())),
        ];
        for (what, edit) in edits {
            let mut changed = c.clone();
            edit(&mut changed.certificate);
            assert_eq!(changed.check_signature(&k.verifying_key()), Err(CertError::BadSignature), "{what}");
        }
        // A version 1 certificate cannot carry them.
        let mut v1 = sign(body_v1(&k.verifying_key()), &k);
        v1.certificate.incidents.push(incident);
        assert!(matches!(v1.check_signature(&k.verifying_key()), Err(CertError::Malformed(_))));
    }

    #[test]
    fn a_checked_wall_is_signed_and_a_body_without_it_signs_as_before() {
        let k = secret_from_bytes([9; 32]);
        let plain = body(&k.verifying_key());
        let incident = CertIncident { index: 7, seat: 1, kind: "timeout".into(), detail: String::new() };
        let with_incident = CertificateBody { incidents: vec![incident], ..plain.clone() };
        // Without it, the JSON is what it was before it existed (and the signed bytes:
        // incidents_are_signed_and_a_body_without_them_signs_as_before).
        assert!(!sign(plain.clone(), &k).to_json().contains("wall_checked"));
        for b in [&plain, &with_incident] {
            let walled = CertificateBody { wall_checked: true, ..b.clone() };
            assert_ne!(b.signing_digest(), walled.signing_digest());
            let c = sign(walled, &k);
            assert_eq!(c.check_signature(&k.verifying_key()), Ok(()));
            assert!(c.to_json().contains("\"wall_checked\": true"), "{}", c.to_json());
            assert_eq!(Certificate::from_json(&c.to_json()).unwrap(), c);
            // Dropping the claim (or adding it to a body signed without it) breaks the signature.
            let mut dropped = c.clone();
            dropped.certificate.wall_checked = false;
            assert_eq!(dropped.check_signature(&k.verifying_key()), Err(CertError::BadSignature));
            let mut added = sign(b.clone(), &k);
            added.certificate.wall_checked = true;
            assert_eq!(added.check_signature(&k.verifying_key()), Err(CertError::BadSignature));
        }
        // A version 1 certificate cannot carry it.
        let mut v1 = sign(body_v1(&k.verifying_key()), &k);
        v1.certificate.wall_checked = true;
        assert!(matches!(v1.check_signature(&k.verifying_key()), Err(CertError::Malformed(_))));
    }

    #[test]
    fn each_version_has_its_own_fields_and_no_others() {
        let k = secret_from_bytes([9; 32]);
        let v1 = sign(body_v1(&k.verifying_key()), &k);
        assert_eq!(v1.check_signature(&k.verifying_key()), Ok(()));
        // Version 2's fields on a version 1 certificate are not covered by its signature: refused
        // as malformed rather than shown as if signed.
        let mut added = v1.clone();
        added.certificate.ruleset = Some("tonpuu".into());
        let e = added.check_signature(&k.verifying_key()).unwrap_err();
        assert!(matches!(&e, CertError::Malformed(m) if m.contains("version 1")), "{e}");
        let mut added = v1.clone();
        added.certificate.source = Some(CertSource { format: "mjai".into(), digest: Digest([5; 32]) });
        assert!(matches!(added.check_signature(&k.verifying_key()), Err(CertError::Malformed(_))));
        let mut v2 = body(&k.verifying_key());
        v2.paifu_version = None;
        let e = sign(v2, &k).check_signature(&k.verifying_key()).unwrap_err();
        assert!(matches!(&e, CertError::Malformed(m) if m.contains("paifu_version")), "{e}");
        let v3 = sign(CertificateBody { version: 3, ..body(&k.verifying_key()) }, &k);
        assert_eq!(v3.check_signature(&k.verifying_key()), Err(CertError::Version(3)));
        // A version 1 body's JSON has none of version 2's keys, and reads back as it was.
        let json = v1.to_json();
        for key in ["ruleset", "options_digest", "source", "paifu_version"] {
            assert!(!json.contains(key), "{key} in {json}");
        }
        assert_eq!(Certificate::from_json(&json).unwrap(), v1);
        let v2 = sign(body(&k.verifying_key()), &k);
        assert_eq!(Certificate::from_json(&v2.to_json()).unwrap(), v2);
    }

    #[test]
    fn the_options_digest_depends_on_every_option_and_not_on_their_order() {
        use crate::log::OptValue;
        let mut a = Options::new();
        a.insert("red_fives".into(), OptValue::Int(0));
        a.insert("kuitan".into(), OptValue::Bool(false));
        let mut b = Options::new();
        b.insert("kuitan".into(), OptValue::Bool(false));
        b.insert("red_fives".into(), OptValue::Int(0));
        assert_eq!(options_digest(&a), options_digest(&b));
        b.insert("red_fives".into(), OptValue::Int(3));
        assert_ne!(options_digest(&a), options_digest(&b));
        b.insert("red_fives".into(), OptValue::Text("0".into()));
        assert_ne!(options_digest(&a), options_digest(&b));
        assert_ne!(options_digest(&a), options_digest(&Options::new()));
    }
}
