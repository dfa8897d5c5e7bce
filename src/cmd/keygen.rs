//! `paifu keygen`, and reading and making the key files other commands sign with.

use crate::error::{Error, Result, Status};
use crate::output::{outln, write_file};
use clap::Args;
use paifu_core::cert::{self, SecretKey};
use paifu_recorder::files::read_small_text;
use paifu_recorder::keys;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct KeygenArgs {
    /// Base name: writes BASE.key (private, mode 0600) and BASE.pub (public).
    #[arg(long, short, default_value = "paifu")]
    pub output: PathBuf,
    /// Overwrite existing key files.
    #[arg(long)]
    pub force: bool,
}

/// BASE.key and BASE.pub for a base name (which may end in .key).
fn key_paths(base: &Path) -> (PathBuf, PathBuf) {
    let s = base.to_string_lossy();
    let stem = s.strip_suffix(".key").unwrap_or(&s);
    (PathBuf::from(format!("{stem}.key")), PathBuf::from(format!("{stem}.pub")))
}

/// Makes a key pair: the private key readable by its owner only, the public key beside it.
pub(crate) fn write_key_pair(private: &Path, public: &Path) -> Result<()> {
    let (secret_pem, public_pem) = keys::generate()?;
    keys::write_private(private, &secret_pem)?;
    write_file(public, public_pem.as_bytes())
}

/// Reads a PEM private key (readable by its owner only, as `paifu keygen` writes it).
pub fn read_key(path: &Path) -> Result<SecretKey> {
    Ok(keys::read_private(path)?)
}

/// Reads a PEM private key, or makes one and writes it there (mode 0600) when the file does not
/// exist. Answers whether it was made.
pub fn read_or_create_key(path: &Path) -> Result<(SecretKey, bool)> {
    if path.exists() {
        return Ok((read_key(path)?, false));
    }
    let (private, _public) = keys::generate()?;
    keys::write_private(path, &private)?;
    Ok((read_key(path)?, true))
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

/// The public key `--key` gives.
pub(crate) fn public_key(given: &str) -> Result<cert::PublicKey> {
    cert::public_from_text(&key_text(given)?).map_err(|source| Error::PublicKey { given: given.to_owned(), source })
}

/// `paifu keygen`.
pub fn run(a: KeygenArgs) -> Result {
    let (private, public) = key_paths(&a.output);
    for p in [&private, &public] {
        if p.exists() && !a.force {
            return Err(Error::Usage(format!("{} exists; use --force to overwrite it", p.display())));
        }
    }
    write_key_pair(&private, &public)?;
    outln!("wrote {} (private, keep it secret) and {} (public)", private.display(), public.display())?;
    Ok(Status::Fine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_paths_take_a_base_or_the_key_file() {
        let both = (PathBuf::from("ref.key"), PathBuf::from("ref.pub"));
        assert_eq!(key_paths(Path::new("ref")), both);
        assert_eq!(key_paths(Path::new("ref.key")), both);
    }
}
