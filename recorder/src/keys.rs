//! Key files: generating a key pair, writing the private key readable by its owner only.

use paifu_core::cert;
use std::path::Path;

/// A key could not be made, read or written.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {message}")]
    Bad { path: String, message: String },
    #[error("the system's random source failed: {0}")]
    Random(String),
}

/// A fresh key pair as (private PKCS#8 PEM, public SPKI PEM).
pub fn generate() -> Result<(String, String), KeyFileError> {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| KeyFileError::Random(e.to_string()))?;
    let key = cert::secret_from_bytes(secret);
    let bad = |e: cert::KeyError| KeyFileError::Bad { path: "<new key>".into(), message: e.0 };
    Ok((cert::secret_to_pem(&key).map_err(bad)?, cert::public_to_pem(&key.verifying_key()).map_err(bad)?))
}

/// Writes a private key file with mode 0600 (on Unix), created fresh.
pub fn write_private(path: &Path, pem: &str) -> Result<(), KeyFileError> {
    use std::io::Write;
    let io = |source| KeyFileError::Io { path: path.display().to_string(), source };
    let _ = std::fs::remove_file(path);
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path).map_err(io)?;
    f.write_all(pem.as_bytes()).map_err(io)
}

/// Reads a private key file; on Unix it must not be readable by group or others.
pub fn read_private(path: &Path) -> Result<cert::SecretKey, KeyFileError> {
    let text = crate::files::read_small_text(path)
        .map_err(|e| KeyFileError::Bad { path: path.display().to_string(), message: e.to_string() })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0);
        if mode & 0o077 != 0 {
            return Err(KeyFileError::Bad {
                path: path.display().to_string(),
                message: format!(
                    "the private key is readable by others (mode {:o}); run chmod 600 on it",
                    mode & 0o777
                ),
            });
        }
    }
    cert::secret_from_pem(&text).map_err(|e| KeyFileError::Bad { path: path.display().to_string(), message: e.0 })
}
