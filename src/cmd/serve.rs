//! `paifu serve`: the web dashboard over the archive.

use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_or_create_key;
use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Pages for the archive, the games (with a move-by-move viewer), players, tournaments, uploads and \
certificate checks, with a JSON API under /api/ and the server's public key at /api/key (docs/web.md).

No request can starve the others (docs/web.md, \"Threats and what holds\"): a request's head must arrive within \
--head-timeout and its body within --body-timeout (408); a body past its route's cap is refused (413) before it is \
read when its Content-Length says so, and as soon as it goes past otherwise; --max-connections are open at once, \
--connections-per-client from one address (429 past that). Checking a certificate needs no token, so it is bounded \
apart: bodies up to --anonymous-body bytes, --anonymous-jobs at once, --anonymous-queue waiting (up to \
--anonymous-wait, 503 past that), --anonymous-per-client from one address (429). Behind a proxy, every client has \
the proxy's address: set --connections-per-client 0 and --anonymous-per-client 0 and limit clients at the proxy.

Reading needs nothing. Writing needs a token (paifu token create): send it as Authorization: Bearer TOKEN, or log \
in with it at /login. Uploads are refused past --max-upload bytes, other request bodies past --max-form bytes. Use \
the same --key every time: tournaments trust keys, and certificates by a key made for one run are not renewed.

Games in progress (paifu arena --db) are at /live and /api/live, each followed move by move at /live/ID. They are \
shown --live-delay SECS behind (300 by default): only the moves played at least SECS ago (and how many are held \
back), so that no one watching, a bot in the game included, can learn while the hand is played what its table does \
not show. 0 shows every move at once (a private server). The seed is never shown, and nor is a pass on a claim.

People play at the server's tables beside bots (docs/play.md): an organiser opens a table (POST /api/tables), \
each person sits down at the join link it answers (/play/TOKEN), and every game is recorded as it is played, \
journaled in --tables DIR (default: beside the archive, DB-tables/), stored with the server's certificate when it \
ends, and taken up again when the server starts after a stop. The only bots a table may seat are the ones given \
here, --bot NAME=CMD (repeatable; CMD as for paifu arena --bot, {seat} becomes the seat): no command ever comes \
from a request. Each bot runs in the arena's sandbox (bubblewrap; --no-sandbox runs them as the server's own \
processes, which the logs then say); the tables' folders, the archive and the key are hidden from it.

Example:
  paifu token create --db club.db --name alice --role organiser
  paifu serve --db club.db --addr 127.0.0.1:8080 --key referee.key
  paifu serve --db arena.db --addr 0.0.0.0:8080 --live-delay 300   # a public view, five minutes behind
  paifu serve --db club.db --key referee.key --bot greedy='paifu bot riichi --strategy greedy'   # tables with a bot"
)]
/// Serve the web dashboard over the archive.
///
/// Pages for the archive, games (with a move-by-move viewer), players, tournaments, uploads and
/// certificate checks, with a JSON API under /api/. Certificates are signed with --key, or with
/// a key made for this run.
pub struct ServeArgs {
    /// The archive: a SQLite file (created if missing), or a PostgreSQL URL,
    /// postgres://USER@HOST:PORT/DBNAME (the PG* variables fill in what it leaves out).
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// ed25519 private key (PKCS#8 PEM) to sign certificates with; created if the file does not exist.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Largest upload accepted (a log, alone or in the upload form), in bytes; certificate checks: --anonymous-body.
    #[arg(long, value_name = "BYTES", default_value_t = paifu_web::DEFAULT_MAX_UPLOAD)]
    pub max_upload: usize,
    /// Largest other request body accepted (the log-in form, JSON), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = paifu_web::DEFAULT_MAX_FORM)]
    pub max_form: usize,
    /// A request's line and headers must arrive within this time (408 otherwise).
    #[arg(long, value_name = "SECS", default_value_t = paifu_web::Limits::default().head_timeout.as_secs())]
    pub head_timeout: u64,
    /// A request's body must arrive within this time of its head (408 otherwise, the connection closed).
    #[arg(long, value_name = "SECS", default_value_t = paifu_web::Limits::default().body_timeout.as_secs())]
    pub body_timeout: u64,
    /// Connections open at once; further clients wait until one closes.
    #[arg(long, value_name = "N", default_value_t = paifu_web::Limits::default().max_connections)]
    pub max_connections: usize,
    /// Connections one client address may have open at once (429 past that; 0: no limit).
    #[arg(long, value_name = "N", default_value_t = paifu_web::Limits::default().connections_per_client)]
    pub connections_per_client: usize,
    /// Largest body of a certificate check (POST /verify, /api/verify: certificate, log and key), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = paifu_web::Limits::default().anonymous_body)]
    pub anonymous_body: usize,
    /// Certificate checks run at once, at least 1 (they need no token, and replay the log they are given).
    #[arg(long, value_name = "N", default_value_t = paifu_web::Limits::default().anonymous_jobs)]
    pub anonymous_jobs: usize,
    /// Certificate checks that may wait for their turn (503 past that).
    #[arg(long, value_name = "N", default_value_t = paifu_web::Limits::default().anonymous_queue)]
    pub anonymous_queue: usize,
    /// Longest wait of a certificate check for its turn (503 past that).
    #[arg(long, value_name = "SECS", default_value_t = paifu_web::Limits::default().anonymous_wait.as_secs())]
    pub anonymous_wait: u64,
    /// Certificate checks one client address may have running or waiting (429 past that; 0: no limit).
    #[arg(long, value_name = "N", default_value_t = paifu_web::Limits::default().anonymous_per_client)]
    pub anonymous_per_client: usize,
    /// Send the session cookie over HTTPS only (when a proxy serves the dashboard over HTTPS).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Show games in progress this many seconds behind: moves played since are held back
    /// (0 shows every move at once, for a server no player of a game in progress can reach).
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub live_delay: u64,
    /// A bot the server's tables may seat, NAME=CMD (repeatable): CMD is started for each game
    /// it plays, as paifu arena starts a bot ({seat} becomes its seat), in the sandbox.
    #[arg(long = "bot", value_name = "NAME=CMD")]
    pub bots: Vec<String>,
    /// Where the tables' folders are kept (journals, logs, each table's secret share of the
    /// seed until it is over); default: beside the archive, DB-tables/.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Run the tables' bots as the server's own processes, without the sandbox (the logs say so).
    #[arg(long)]
    pub no_sandbox: bool,
    /// A file or folder the sandboxed bots may read besides those their commands name (repeatable).
    #[arg(long, value_name = "PATH")]
    pub allow: Vec<PathBuf>,
    /// Hand each record of a table to the operating system without waiting for the disk (a
    /// killed server loses nothing; a power cut may lose the last records).
    #[arg(long)]
    pub no_sync: bool,
    /// This server's own address, scheme://host[:port], when several servers share one archive
    /// (docs/deploy.md, "Several servers"): the tables it opens are recorded as hosted here,
    /// only those are taken up again when it restarts, and the others send a seat's requests
    /// here (307). Browsers and the other servers must reach it there. Default: none, the
    /// only server.
    #[arg(long, value_name = "URL", value_parser = paifu_web::check_public_url)]
    pub public_url: Option<String>,
}

/// The bots of `--bot NAME=CMD`, by name.
fn bots_of(specs: &[String]) -> Result<std::collections::BTreeMap<String, String>> {
    let mut bots = std::collections::BTreeMap::new();
    for spec in specs {
        let (name, command) =
            spec.split_once('=').filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty()).ok_or_else(|| {
                Error::Usage(format!("--bot {spec:?}: give it as NAME=CMD, for example greedy='paifu bot riichi'"))
            })?;
        let name = name.trim().to_owned();
        paifu_recorder::archive::check_name(paifu_recorder::archive::NameKind::Player, &name)
            .map_err(|e| Error::Usage(format!("--bot {name:?}: {e}")))?;
        if bots.insert(name.clone(), command.trim().to_owned()).is_some() {
            return Err(Error::Usage(format!("--bot {name:?} is given twice")));
        }
    }
    Ok(bots)
}

/// The tables' set-up: the bots, and the sandbox they run in (tried once: a sandbox that cannot
/// start stops the server before it serves, naming the package).
fn tables_of(a: &ServeArgs) -> Result<paifu_web::TablesSetup> {
    use paifu_recorder::arena::sandbox::{Rlimits, Sandbox, Secrets};
    let bots = bots_of(&a.bots)?;
    let root = a.tables.clone().unwrap_or_else(|| paifu_web::TablesSetup::default_root(&a.db));
    // Built whenever --no-sandbox is not given, bots or not: a table opened with bots in the
    // sandbox is then never taken up by this server without one (it is ended instead).
    let sandbox = if a.no_sandbox {
        None
    } else {
        let cwd = std::env::current_dir().map_err(Error::io(std::path::Path::new(".")))?;
        let mut files = Secrets::archive_files(&a.db);
        files.extend(a.key.iter().cloned());
        let secrets = Secrets { folders: vec![root.clone()], files, allow: a.allow.clone() };
        let limits = Rlimits::new(
            paifu_recorder::arena::matches::DEFAULT_BOT_MEMORY_MB,
            paifu_recorder::arena::tables::BOT_GAME_MS,
        );
        let sandbox = Sandbox::new(secrets, limits, &cwd, std::env::current_exe().ok())
            .and_then(|sandbox| sandbox.probe().map(|()| sandbox));
        match sandbox {
            Ok(sandbox) => Some(sandbox),
            // Without bots no table can seat one: the server serves without the sandbox (a
            // table that had bots is refused: this server was not started with them).
            Err(_) if bots.is_empty() => None,
            Err(e) => return Err(Error::Usage(e.to_string())),
        }
    };
    Ok(paifu_web::TablesSetup { root: Some(root), bots, sandbox, no_sync: a.no_sync })
}

/// Serves the dashboard on `addr` (port 0 picks a free one), printing its address, until the
/// process is stopped.
pub fn serve(config: paifu_web::Config, addr: &str) -> Result {
    let db = crate::archive::shown(&config.db);
    paifu_web::serve(config, addr, |addr| {
        // Nothing to stop for if no one reads this line: the dashboard serves all the same.
        let _ = outln!("Paifu dashboard for {db} at http://{addr}/ (Ctrl-C stops it)");
    })?;
    Ok(Status::Fine)
}

/// `paifu serve`.
pub fn run(a: ServeArgs) -> Result {
    let mut config = paifu_web::Config::new(&a.db);
    config.max_upload = a.max_upload;
    config.max_form = a.max_form;
    config.secure_cookies = a.secure_cookies;
    config.live_delay_secs = a.live_delay;
    config.limits = paifu_web::Limits {
        anonymous_body: a.anonymous_body,
        anonymous_jobs: a.anonymous_jobs,
        anonymous_queue: a.anonymous_queue,
        anonymous_per_client: a.anonymous_per_client,
        anonymous_wait: Duration::from_secs(a.anonymous_wait),
        head_timeout: Duration::from_secs(a.head_timeout),
        body_timeout: Duration::from_secs(a.body_timeout),
        max_connections: a.max_connections,
        connections_per_client: a.connections_per_client,
    };
    config.tables = tables_of(&a)?;
    config.public_url = a.public_url.clone();
    if let Some(path) = &a.key {
        let (key, created) = read_or_create_key(path)?;
        if created {
            eprintln!("made a new signing key in {}", path.display());
        }
        config.key = Some(key);
    }
    serve(config, &a.addr)
}
