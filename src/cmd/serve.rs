//! `paifu serve`: the web dashboard over the archive.

use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_or_create_key;
use crate::error::{Result, Status};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Pages for the archive, the games (with a move-by-move viewer), players, tournaments, uploads and \
certificate checks, with a JSON API under /api/ and the server's public key at /api/key (docs/web.md).

Example:
  paifu serve --db club.db --addr 127.0.0.1:8080 --key referee.key"
)]
/// Serve the web dashboard over the archive.
///
/// Pages for the archive, games (with a move-by-move viewer), players, tournaments, uploads and
/// certificate checks, with a JSON API under /api/. Certificates are signed with --key, or with
/// a key made for this run.
pub struct ServeArgs {
    /// The archive's database file (created if missing).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// ed25519 private key (PKCS#8 PEM) to sign certificates with; created if the file does not exist.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Largest upload accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = paifu_web::DEFAULT_MAX_UPLOAD)]
    pub max_upload: usize,
}

/// Serves the dashboard on `addr` (port 0 picks a free one), printing its address, until the
/// process is stopped.
pub fn serve(config: paifu_web::Config, addr: &str) -> Result {
    let db = config.db.display().to_string();
    paifu_web::serve(config, addr, |addr| {
        println!("Paifu dashboard for {db} at http://{addr}/ (Ctrl-C stops it)");
    })?;
    Ok(Status::Fine)
}

/// `paifu serve`.
pub fn run(a: ServeArgs) -> Result {
    let mut config = paifu_web::Config::new(&a.db);
    config.max_upload = a.max_upload;
    if let Some(path) = &a.key {
        let (key, created) = read_or_create_key(path)?;
        if created {
            eprintln!("made a new signing key in {}", path.display());
        }
        config.key = Some(key);
    }
    serve(config, &a.addr)
}
