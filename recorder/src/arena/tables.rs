//! Tables where people play beside bots (issue 27, docs/play.md): the arena's host run inside
//! the web server, a thread per table, each person's seat a [`Desk`] the web shows and answers
//! through, each bot a program the server was started with, sandboxed as the arena runs it.
//!
//! A table is opened with its plan ([`TableRequest`], checked field by field), stored in the
//! archive with a join link per person, and waits until its seed is fixed: the host committed
//! to its own contribution when the table opened, each person's browser commits to one of its
//! own, and once every commitment is in (their digest published), each reveals its contribution
//! to the host, which checks it against its commitment (`paifu_core::fair`). Then the games are
//! played as the arena plays them (`matches::OneGame`): every record journaled (synced) and in
//! the archive's live rows before play goes on, each finished game stored with the server's
//! certificate (and in the tournament). After the last game the contributions and seeds are
//! published. A server started again resumes every table it hosts that is not over (several
//! servers on one archive: each its own, `TablesConfig::host`) from the archive and
//! the table's folder: a waiting table waits on, a game in progress goes on from its journal.
//!
//! The table's folder (`ROOT/table-N`, readable by the server's user only) holds its secrets
//! until the end: `host.secret` (the host's contribution), `contributions.json` (the people's,
//! as revealed), `arena.seed` (the table's seed), and the games' journals, logs and the bots'
//! standard error as a match folder holds them.

use super::host::{Limits, Player, Policy, Timing};
use super::matches::{
    self, duplicate_meta, game_seed, rotated, write_durably, write_file, Folder, MatchError, OneGame, Watch,
};
use super::person::{now_ms, Desk, FairNow, SeatNow, Stage};
use super::process::{BotProcess, Launch};
use super::protocol::ProtocolKind;
use super::sandbox::Sandbox;
use crate::archive::{prepare, Archive, ArchiveError, NameKind, NewSeat, NewTable, Origin, TableRow};
use crate::bots::{self, Bots};
use paifu_core::cert::Certificate;
use paifu_core::fair::{self, Contribution};
use paifu_core::log::{header_line, record_line, Action, Header, Options, Record};
use paifu_core::replay::Report;
use paifu_core::{Digest, Seat, Seed};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The party name of the host's contribution.
pub const HOST_PARTY: &str = "host";

/// The party name of the person in plan seat `k`'s contribution (`seat 2`).
pub fn party(k: usize) -> String {
    format!("seat {k}")
}

/// A person's clock by default: 30 s a decision, 30 min a game.
pub const PERSON_DECISION_MS: u64 = 30_000;
pub const PERSON_GAME_MS: u64 = 1_800_000;
/// A bot's clock at a table: as `paifu arena`'s defaults.
pub const BOT_DECISION_MS: u64 = 5_000;
pub const BOT_GAME_MS: u64 = 600_000;
/// The most games one table plays.
pub const MAX_GAMES: u32 = 64;
/// How long the people have, once every commitment is in, to reveal their contributions by
/// default (10 minutes): a table whose shares are not all in by then is abandoned, no game
/// played on it (a browser that lost its contribution cannot reveal it).
pub const REVEAL_MS: u64 = 600_000;

fn reveal_default() -> u64 {
    REVEAL_MS
}

/// A seat of a table's plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatPlan {
    pub name: String,
    /// The bot's name (one the server was started with), for a bot's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// The bot's command, as the server's configuration named it when the table opened (never
    /// from a request). Never run from here: a resumed table runs the command its server's
    /// `--bot` names, and is refused when it is not this one (`TablesConfig::refusal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// What a table plays, as the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablePlan {
    pub game: String,
    pub ruleset: String,
    #[serde(default)]
    pub options: Options,
    /// Games played (a duplicate table: deals, each played once in every seat rotation).
    pub games: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The players, in the seats of the first game.
    pub seats: Vec<SeatPlan>,
    /// A person's time for one decision and for a game, in ms.
    pub decision_ms: u64,
    pub game_ms: u64,
    /// A bot's.
    pub bot_decision_ms: u64,
    pub bot_game_ms: u64,
    /// `safe` or `forfeit` (docs/protocol.md, "Answers the host cannot use").
    pub policy: String,
    /// Every deal played once in each seat rotation (docs/play.md, "Duplicate").
    #[serde(default)]
    pub duplicate: bool,
    /// Whether the bots run in the sandbox.
    pub sandbox: bool,
    /// Time for every person's reveal once every commitment is in, in ms.
    #[serde(default = "reveal_default")]
    pub reveal_ms: u64,
}

impl TablePlan {
    /// Games the table plays in all.
    pub fn total_games(&self) -> u32 {
        if self.duplicate {
            self.games * self.seats.len() as u32
        } else {
            self.games
        }
    }

    /// The player (plan seat) at `seat` in game `number` (1-based): fixed, but at a duplicate
    /// table, where the seats rotate by one each game as `paifu arena`'s do.
    pub fn player_at(&self, number: u32, seat: usize) -> usize {
        if self.duplicate {
            rotated(self.seats.len(), number, seat)
        } else {
            seat
        }
    }

    /// Game `number`'s seed from the table's: its own, or at a duplicate table its deal's.
    pub fn game_seed(&self, seed: &Seed, number: u32) -> Seed {
        game_seed(seed, number, self.duplicate.then_some(self.seats.len()))
    }

    fn policy_kind(&self) -> Policy {
        if self.policy == "forfeit" {
            Policy::Forfeit
        } else {
            Policy::SafeAction
        }
    }

    fn person_limits(&self) -> Limits {
        Limits { decision: Duration::from_millis(self.decision_ms), game: Duration::from_millis(self.game_ms) }
    }

    fn bot_limits(&self) -> Limits {
        Limits { decision: Duration::from_millis(self.bot_decision_ms), game: Duration::from_millis(self.bot_game_ms) }
    }
}

/// A table's clock as a request gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    pub decision_ms: Option<u64>,
    pub game_ms: Option<u64>,
    /// Time for the reveals once every commitment is in.
    #[serde(default)]
    pub reveal_ms: Option<u64>,
}

/// A seat as a request gives it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub name: String,
    #[serde(default)]
    pub bot: Option<String>,
}

/// A table as a request asks for it (`POST /api/tables`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRequest {
    pub game: String,
    #[serde(default = "standard")]
    pub ruleset: String,
    #[serde(default)]
    pub options: Options,
    #[serde(default = "one")]
    pub games: u32,
    #[serde(default)]
    pub tournament: Option<String>,
    pub seats: Vec<SeatRequest>,
    #[serde(default)]
    pub clock: ClockRequest,
    #[serde(default)]
    pub policy: Option<String>,
    #[serde(default)]
    pub duplicate: bool,
}

fn standard() -> String {
    "standard".into()
}

fn one() -> u32 {
    1
}

/// A table could not be opened, or a step of it was refused.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A field of the request is wrong (the answer names it: 422).
    #[error("{field}: {message}")]
    Field { field: String, message: String },
    /// Not now (it is not the time for this step, or the step was taken already: 409).
    #[error("{0}")]
    NotNow(String),
    /// There is no such table or seat (404).
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

fn field(field: impl Into<String>, message: impl Into<String>) -> TableError {
    TableError::Field { field: field.into(), message: message.into() }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TableError + '_ {
    move |source| TableError::Io { path: path.to_owned(), source }
}

/// Signs a finished game's verdict (the server's key), or says nothing without one.
pub type Certify = Arc<dyn Fn(&Report) -> Option<Certificate> + Send + Sync>;

/// How the server hosts its tables.
#[derive(Clone)]
pub struct TablesConfig {
    /// The archive.
    pub db: PathBuf,
    /// Where the tables' folders are made (`ROOT/table-N`).
    pub root: PathBuf,
    /// The bots the server was started with: name -> command.
    pub bots: BTreeMap<String, String>,
    /// The sandbox the bots run in; `None`: unsandboxed (the logs say so).
    pub sandbox: Option<Sandbox>,
    /// Signs a finished game's verdict with the server's key.
    pub certify: Certify,
    /// Whether each record is synced to the disk before play goes on.
    pub sync: bool,
    /// This server's public URL when several share the archive (`paifu serve --public-url`):
    /// recorded as the host of each table it opens, and only the tables recorded so are taken
    /// up again when it starts. `None`: the only server (its tables are recorded without one).
    pub host: Option<String>,
}

impl TablesConfig {
    /// Why this server may not play `plan`'s bots, if it may not: a table whose bots were to
    /// run in the sandbox is not played by a server without one, nor the other way round (its
    /// logs would say what did not happen).
    /// Each bot is looked up by its name in what this server was started with (`--bot`), never
    /// run from the archive's plan: a name this server lacks, or whose command is not the one
    /// the table opened with (an archive written to since), is refused.
    pub fn refusal(&self, plan: &TablePlan) -> Option<String> {
        for (k, s) in plan.seats.iter().enumerate() {
            let Some(bot) = &s.bot else { continue };
            match self.bots.get(bot) {
                None => {
                    return Some(format!(
                        "seat {k}'s bot {bot:?} is not one this server was started with (paifu serve --bot {bot}=CMD)"
                    ))
                }
                Some(command) if s.command.as_ref() != Some(command) => {
                    return Some(format!(
                        "seat {k}'s bot {bot:?} is not the command the table was opened with (this server's --bot {bot}=... differs from the table's plan)"
                    ))
                }
                Some(_) => {}
            }
        }
        let bots = plan.seats.iter().any(|s| s.bot.is_some());
        if bots && plan.sandbox != self.sandbox.is_some() {
            return Some(if plan.sandbox {
                "the table was opened to run its bots in the sandbox and this server runs them without (paifu serve --no-sandbox)".to_owned()
            } else {
                "the table was opened to run its bots without the sandbox (paifu serve --no-sandbox) and this server runs them in it".to_owned()
            });
        }
        None
    }
}

/// One table the server hosts.
pub struct TableRun {
    pub id: i64,
    pub plan: TablePlan,
    folder: Folder,
    /// One desk per person in the plan (`None` for a bot).
    desks: Vec<Option<Arc<Desk>>>,
    host_commitment: Digest,
    /// Held while a seed step (a commitment, a reveal) is taken: one at a time.
    steps: Mutex<()>,
}

impl TableRun {
    /// The desk of plan seat `k`, if a person sits there.
    pub fn desk(&self, k: usize) -> Option<Arc<Desk>> {
        self.desks.get(k).cloned().flatten()
    }

    fn host_secret(&self) -> PathBuf {
        self.folder.root.join("host.secret")
    }

    fn contributions_file(&self) -> PathBuf {
        self.folder.root.join("contributions.json")
    }

    fn deadline_file(&self) -> PathBuf {
        self.folder.root.join("reveal.deadline")
    }

    /// When the reveals are due (ms since the Unix epoch), once every commitment is in.
    fn reveal_deadline(&self) -> Option<i64> {
        std::fs::read_to_string(self.deadline_file()).ok()?.trim().parse().ok()
    }

    /// The people's contributions revealed so far.
    fn revealed(&self) -> Result<BTreeMap<String, String>, TableError> {
        let p = self.contributions_file();
        if !p.exists() {
            return Ok(BTreeMap::new());
        }
        let text = std::fs::read_to_string(&p).map_err(io(&p))?;
        serde_json::from_str(&text).map_err(|e| TableError::NotNow(format!("{}: {e}", p.display())))
    }

    fn host_contribution(&self) -> Result<Contribution, TableError> {
        let p = self.host_secret();
        let text = std::fs::read_to_string(&p).map_err(io(&p))?;
        let d: Digest = text.trim().parse().map_err(|e| TableError::NotNow(format!("{}: {e}", p.display())))?;
        Ok(d.0)
    }

    /// Every party's commitment, the host's first, from the table's row.
    fn commitments(&self, row: &TableRow) -> BTreeMap<String, Option<Digest>> {
        let mut out = BTreeMap::from([(HOST_PARTY.to_owned(), Some(self.host_commitment))]);
        for s in row.seats.iter().filter(|s| s.bot.is_none()) {
            out.insert(party(usize::from(s.seat)), s.commitment.as_deref().and_then(|c| c.parse().ok()));
        }
        out
    }

    /// Shows each person where the seed stands.
    fn publish_fair(&self, row: &TableRow) -> Result<(), TableError> {
        let commitments = self.commitments(row);
        let revealed = self.revealed()?;
        for (k, desk) in self.desks.iter().enumerate() {
            let Some(desk) = desk else { continue };
            let me = party(k);
            let owed = if row.stage != "waiting" {
                None
            } else if row.commitments_digest.is_none() {
                commitments.get(&me).and_then(|c| c.is_none().then_some("commit"))
            } else {
                (!revealed.contains_key(&me)).then_some("reveal")
            };
            let fair = FairNow {
                host_commitment: self.host_commitment.to_hex(),
                party: me,
                commitments: commitments.iter().map(|(n, c)| (n.clone(), c.map(|d| d.to_hex()))).collect(),
                closed: row.commitments_digest.clone(),
                owed,
                reveal_by_ms: (row.stage == "waiting").then(|| self.reveal_deadline()).flatten(),
            };
            let finished: Vec<i64> = row.games.iter().map(|(_, id)| *id).collect();
            let stage = Stage::parse(&row.stage).unwrap_or(Stage::Waiting);
            desk.publish(|s| {
                s.fair = fair;
                s.finished = finished;
                if s.stage != Stage::Playing || stage == Stage::Ended {
                    s.stage = stage;
                }
            });
        }
        Ok(())
    }
}

/// A seed step a person's browser takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedStep {
    /// Its commitment to its contribution.
    Commit(Digest),
    /// Its contribution, once every commitment is in.
    Reveal(Contribution),
}

/// A table just opened: its number and, in seat order, each seat's name and join secret
/// (people only; shown once).
#[derive(Clone, Debug)]
pub struct Opened {
    pub id: i64,
    pub seats: Vec<(String, Option<String>)>,
    pub host_commitment: Digest,
}

/// Every table this server hosts.
pub struct Tables {
    config: TablesConfig,
    open: Mutex<BTreeMap<i64, Arc<TableRun>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// 32 bytes from the system's random source.
fn random32() -> Result<[u8; 32], TableError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| TableError::NotNow(format!("no random source: {e}")))?;
    Ok(b)
}

impl Tables {
    /// Starts hosting: every table of the archive that is not over is taken up again (a
    /// waiting one waits on; one that was playing goes on from its games' journals).
    pub fn start(config: TablesConfig) -> Result<Arc<Tables>, TableError> {
        std::fs::create_dir_all(&config.root).map_err(io(&config.root))?;
        restrict(&config.root)?;
        let tables = Arc::new(Tables { config, open: Mutex::new(BTreeMap::new()) });
        let archive = Archive::open(&tables.config.db)?;
        for id in archive.open_tables(tables.config.host.as_deref())? {
            let Some(row) = archive.table(id)? else { continue };
            match tables.take_up(&row) {
                Ok(run) => {
                    if let Some(why) = tables.config.refusal(&run.plan) {
                        if let Err(e) = tables.stop(&run, &why) {
                            eprintln!("table {id} could not be ended ({why}): {e}");
                        }
                    } else if row.stage == "playing" {
                        tables.launch(run);
                    } else if row.commitments_digest.is_some() {
                        tables.watch_reveals(run);
                    }
                }
                Err(e) => eprintln!("table {id} could not be taken up again: {e}"),
            }
        }
        Ok(tables)
    }

    /// Ends a table this server may not play, the reason kept as its reveal (`{"stopped": ..}`)
    /// and shown at each person's seat.
    fn stop(&self, run: &TableRun, why: &str) -> Result<(), TableError> {
        eprintln!("table {} is ended, not taken up again: {why}", run.id);
        let mut archive = Archive::open(&self.config.db)?;
        let reveal = serde_json::json!({ "stopped": why });
        archive.set_table_stage(run.id, "ended", Some(&reveal.to_string()))?;
        let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
        run.publish_fair(&row)?;
        for d in run.desks.iter().flatten() {
            d.publish(|s| s.notice = Some(format!("the table was stopped: {why}")));
        }
        Ok(())
    }

    /// The bots this server plays with, by name.
    pub fn bots(&self) -> &BTreeMap<String, String> {
        &self.config.bots
    }

    /// A table this server hosts now (not over, or over since it started).
    pub fn get(&self, id: i64) -> Option<Arc<TableRun>> {
        lock(&self.open).get(&id).cloned()
    }

    /// A table of the archive made ready to host: its plan read, its desks set up.
    fn take_up(&self, row: &TableRow) -> Result<Arc<TableRun>, TableError> {
        let plan: TablePlan = serde_json::from_str(&row.plan)
            .map_err(|e| TableError::NotNow(format!("table {}: its plan does not read: {e}", row.id)))?;
        let names: Vec<String> = plan.seats.iter().map(|s| s.name.clone()).collect();
        let total = plan.total_games();
        let desks = plan
            .seats
            .iter()
            .enumerate()
            .map(|(k, s)| {
                s.bot.is_none().then(|| Desk::new(SeatNow::new(row.id, &plan.game, k as Seat, names.clone(), total)))
            })
            .collect();
        let host_commitment =
            row.host_commitment.parse().map_err(|e| TableError::NotNow(format!("table {}: {e}", row.id)))?;
        let run = Arc::new(TableRun {
            id: row.id,
            plan,
            folder: Folder { root: PathBuf::from(&row.folder) },
            desks,
            host_commitment,
            steps: Mutex::new(()),
        });
        run.publish_fair(row)?;
        lock(&self.open).insert(row.id, run.clone());
        Ok(run)
    }

    /// Checks a request field by field and makes its plan.
    pub fn plan_of(&self, r: &TableRequest) -> Result<TablePlan, TableError> {
        struct Check<'a>(&'a TableRequest);
        impl bots::Visitor for Check<'_> {
            type Output = Result<(), TableError>;
            fn visit<G: Bots>(self) -> Self::Output {
                let r = self.0;
                G::rules(&r.ruleset, &Options::new()).map_err(|e| field("ruleset", e.0))?;
                G::rules(&r.ruleset, &r.options).map_err(|e| field("options", e.0))?;
                if !G::SEATS.contains(&r.seats.len()) {
                    return Err(field(
                        "seats",
                        format!(
                            "{} is played by {} to {} seats; {} given",
                            G::KIND.title(),
                            G::SEATS.start(),
                            G::SEATS.end(),
                            r.seats.len()
                        ),
                    ));
                }
                Ok(())
            }
        }
        let kind = paifu_core::games::engine_kind(&r.game).map_err(|f| field("game", f.message))?;
        bots::visit(kind, Check(r)).unwrap_or_else(|| Err(field("game", "this build has no engine for it")))?;
        // Names as the archive will take them when the first game is stored (a lookalike of a
        // name it holds, an invisible character: refused now, not when the table is under way).
        let archive = Archive::open(&self.config.db)?;
        let mut seats = Vec::with_capacity(r.seats.len());
        for (i, s) in r.seats.iter().enumerate() {
            if let Some(e) = archive.new_name_refusal(NameKind::Player, &s.name)? {
                return Err(field(format!("seats[{i}].name"), e.to_string()));
            }
            if r.seats[..i].iter().any(|o| o.name == s.name) {
                return Err(field(format!("seats[{i}].name"), format!("{:?} sits at the table already", s.name)));
            }
            let command = match &s.bot {
                None => None,
                Some(b) => Some(self.config.bots.get(b).cloned().ok_or_else(|| {
                    let known: Vec<&str> = self.config.bots.keys().map(String::as_str).collect();
                    field(
                        format!("seats[{i}].bot"),
                        if known.is_empty() {
                            format!(
                                "there is no bot {b:?}: this server was started with none (paifu serve --bot NAME=CMD)"
                            )
                        } else {
                            format!("there is no bot {b:?}; this server's bots: {}", known.join(", "))
                        },
                    )
                })?),
            };
            seats.push(SeatPlan { name: s.name.clone(), bot: s.bot.clone(), command });
        }
        if r.games == 0 || r.games > MAX_GAMES {
            return Err(field("games", format!("from 1 to {MAX_GAMES} games")));
        }
        if let Some(t) = &r.tournament {
            if let Some(e) = archive.new_name_refusal(NameKind::Tournament, t)? {
                return Err(field("tournament", e.to_string()));
            }
        }
        let decision_ms = r.clock.decision_ms.unwrap_or(PERSON_DECISION_MS);
        if !(1_000..=3_600_000).contains(&decision_ms) {
            return Err(field("clock.decision_ms", "from 1000 ms to one hour"));
        }
        let game_ms = r.clock.game_ms.unwrap_or(PERSON_GAME_MS);
        if !(decision_ms..=86_400_000).contains(&game_ms) {
            return Err(field("clock.game_ms", "from the time of one decision to a day"));
        }
        let reveal_ms = r.clock.reveal_ms.unwrap_or(REVEAL_MS);
        if !(1_000..=86_400_000).contains(&reveal_ms) {
            return Err(field("clock.reveal_ms", "from 1000 ms to a day"));
        }
        let policy = r.policy.clone().unwrap_or_else(|| "safe".into());
        if policy != "safe" && policy != "forfeit" {
            return Err(field("policy", "safe or forfeit"));
        }
        Ok(TablePlan {
            game: kind.name().to_owned(),
            ruleset: r.ruleset.clone(),
            options: r.options.clone(),
            games: r.games,
            tournament: r.tournament.clone(),
            seats,
            decision_ms,
            game_ms,
            bot_decision_ms: BOT_DECISION_MS,
            bot_game_ms: BOT_GAME_MS,
            policy,
            duplicate: r.duplicate,
            sandbox: self.config.sandbox.is_some(),
            reveal_ms,
        })
    }

    /// Opens a table: stored with its join links, its folder made with the host's secret
    /// contribution, its desks ready. A table without people fixes its seed at once (the host
    /// is then its only party) and begins.
    pub fn open_table(&self, plan: TablePlan, opened_by: Option<i64>) -> Result<Opened, TableError> {
        let host = random32()?;
        let host_commitment = fair::commit(HOST_PARTY, &host);
        let plan_json = serde_json::to_string(&plan).map_err(|e| TableError::NotNow(e.to_string()))?;
        let mut archive = Archive::open(&self.config.db)?;
        let new = NewTable {
            game: plan.game.clone(),
            ruleset: plan.ruleset.clone(),
            plan: plan_json,
            folder: String::new(),
            host_commitment: host_commitment.to_hex(),
            opened_by,
            host: self.config.host.clone(),
            seats: plan.seats.iter().map(|s| NewSeat { name: s.name.clone(), bot: s.bot.clone() }).collect(),
        };
        let (id, secrets) = archive.create_table(&new)?;
        let root = self.config.root.join(format!("table-{id}"));
        for dir in [root.clone(), root.join("live"), root.join("bots")] {
            std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        }
        restrict(&root)?;
        write_file(&root.join("host.secret"), format!("{}\n", hex::encode(host)).as_bytes(), 0o600)?;
        archive.set_table_folder(id, &root.display().to_string())?;
        let row = archive.table(id)?.ok_or_else(|| TableError::NotFound(format!("table {id} vanished")))?;
        let run = self.take_up(&row)?;
        if plan.seats.iter().all(|s| s.bot.is_some()) {
            self.fix_seed(&run, &mut archive)?;
        }
        let seats = plan.seats.iter().map(|s| s.name.clone()).zip(secrets).collect();
        Ok(Opened { id, seats, host_commitment })
    }

    /// The table and plan seat a join secret opens; `None` when it opens nothing (unknown or
    /// revoked), or its table is not hosted here.
    pub fn seat_of(&self, secret: &str) -> Result<Option<(Arc<TableRun>, usize)>, TableError> {
        let archive = Archive::open(&self.config.db)?;
        let Some((id, seat)) = archive.join_seat(secret)? else { return Ok(None) };
        Ok(self.get(id).map(|t| (t, usize::from(seat))))
    }

    /// Revokes a person's join links; with `reissue`, answers a new one.
    pub fn revoke(&self, id: i64, seat: usize, reissue: bool) -> Result<Option<String>, TableError> {
        let mut archive = Archive::open(&self.config.db)?;
        let seat = u8::try_from(seat).map_err(|_| TableError::NotFound(format!("table {id} has no seat {seat}")))?;
        archive
            .revoke_joins(id, seat, reissue)?
            .ok_or_else(|| TableError::NotFound(format!("seat {seat} of table {id} is not a person's seat")))
    }

    /// A seed step of the person in plan seat `k` of `run`.
    pub fn seed_step(&self, run: &Arc<TableRun>, k: usize, step: SeedStep) -> Result<(), TableError> {
        let _one = lock(&run.steps);
        let mut archive = Archive::open(&self.config.db)?;
        let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
        if row.stage == "ended" {
            return Err(TableError::NotNow("the table is over (abandoned, or stopped): it takes no share".into()));
        }
        if row.stage != "waiting" {
            return Err(TableError::NotNow("the table's seed is fixed already: its games have begun".into()));
        }
        let me = party(k);
        match step {
            SeedStep::Commit(c) => {
                if let Err(why) = archive.set_seat_commitment(run.id, k as u8, &c.to_hex())? {
                    return Err(TableError::NotNow(why.to_string()));
                }
                let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
                let all: Option<BTreeMap<String, Digest>> =
                    run.commitments(&row).into_iter().map(|(n, c)| c.map(|c| (n, c))).collect();
                if let Some(all) = all {
                    archive.close_commitments(run.id, &fair::commitments_digest(&all).to_hex())?;
                    let due = now_ms().saturating_add(i64::try_from(run.plan.reveal_ms).unwrap_or(i64::MAX));
                    write_durably(&run.deadline_file(), format!("{due}\n").as_bytes())?;
                    self.watch_reveals(run.clone());
                }
            }
            SeedStep::Reveal(value) => {
                if row.commitments_digest.is_none() {
                    return Err(TableError::NotNow(
                        "not every seat has committed yet: a contribution is revealed once every commitment is in"
                            .into(),
                    ));
                }
                let committed = run.commitments(&row).get(&me).copied().flatten();
                if committed != Some(fair::commit(&me, &value)) {
                    return Err(field(
                        "contribution",
                        format!("it is not the contribution {me} committed to (its commitment does not match)"),
                    ));
                }
                let mut revealed = run.revealed()?;
                if revealed.contains_key(&me) {
                    return Err(TableError::NotNow(format!("{me} revealed its contribution already")));
                }
                revealed.insert(me, hex::encode(value));
                let text = serde_json::to_string(&revealed).map_err(|e| TableError::NotNow(e.to_string()))?;
                write_file(&run.contributions_file(), text.as_bytes(), 0o600)?;
                let people = row.seats.iter().filter(|s| s.bot.is_none()).count();
                if revealed.len() == people {
                    self.fix_seed(run, &mut archive)?;
                    return Ok(());
                }
            }
        }
        let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
        run.publish_fair(&row)
    }

    /// Every contribution is in: the seed is made (each checked against its commitment), kept
    /// in the folder, and the games begin.
    fn fix_seed(&self, run: &Arc<TableRun>, archive: &mut Archive) -> Result<(), TableError> {
        let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
        let commitments: BTreeMap<String, Digest> =
            run.commitments(&row).into_iter().filter_map(|(n, c)| c.map(|c| (n, c))).collect();
        if row.commitments_digest.is_none() {
            archive.close_commitments(run.id, &fair::commitments_digest(&commitments).to_hex())?;
        }
        let mut reveals: BTreeMap<String, Contribution> = BTreeMap::new();
        reveals.insert(HOST_PARTY.to_owned(), run.host_contribution()?);
        for (name, hexed) in run.revealed()? {
            let d: Digest = hexed.parse().map_err(|e| TableError::NotNow(format!("{name}: {e}")))?;
            reveals.insert(name, d.0);
        }
        let seed = fair::seed_of(&commitments, &reveals).map_err(|e| TableError::NotNow(e.to_string()))?;
        write_file(&run.folder.seed(), format!("{}\n", seed.to_hex()).as_bytes(), 0o600)?;
        archive.set_table_stage(run.id, "playing", None)?;
        let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
        run.publish_fair(&row)?;
        self.launch(run.clone());
        Ok(())
    }

    /// Abandons the table when its reveals are not all in by their deadline (on a thread of its
    /// own, asleep until then): ended, no game played, the seats that did not reveal named.
    fn watch_reveals(&self, run: Arc<TableRun>) {
        let config = self.config.clone();
        std::thread::spawn(move || {
            let Some(due) = run.reveal_deadline().or_else(|| {
                // A table whose commitments closed before deadlines were kept: from now.
                let due = now_ms().saturating_add(i64::try_from(run.plan.reveal_ms).unwrap_or(i64::MAX));
                write_durably(&run.deadline_file(), format!("{due}\n").as_bytes()).ok().map(|()| due)
            }) else {
                return;
            };
            let wait = u64::try_from(due.saturating_sub(now_ms())).unwrap_or(0);
            std::thread::sleep(Duration::from_millis(wait));
            if let Err(e) = abandon_unrevealed(&config, &run) {
                eprintln!("table {}: its reveals' deadline passed, and it could not be abandoned: {e}", run.id);
            }
        });
    }

    /// Plays the table's games on a thread of their own.
    fn launch(&self, run: Arc<TableRun>) {
        let config = self.config.clone();
        std::thread::spawn(move || {
            if let Err(e) = play_table(&config, &run) {
                eprintln!("table {}: {e}", run.id);
                for d in run.desks.iter().flatten() {
                    d.publish(|s| s.notice = Some(format!("the table stopped: {e}")));
                }
            }
        });
    }
}

/// A waiting table whose reveals are not all in (its deadline passed): ended with the reason
/// and the parties awaited, shown at every seat. Nothing when its seed was fixed meanwhile.
fn abandon_unrevealed(config: &TablesConfig, run: &TableRun) -> Result<(), TableError> {
    let _one = lock(&run.steps);
    let mut archive = Archive::open(&config.db)?;
    let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
    if row.stage != "waiting" {
        return Ok(());
    }
    let revealed = run.revealed()?;
    let awaited: Vec<String> =
        run.commitments(&row).into_keys().filter(|p| p != HOST_PARTY && !revealed.contains_key(p)).collect();
    let why = format!(
        "abandoned: {} did not reveal {} share of the seed within {} s of the last commitment; no game is played on \
         a seed a party could not complete",
        awaited.join(", "),
        if awaited.len() == 1 { "its" } else { "their" },
        run.plan.reveal_ms / 1000
    );
    eprintln!("table {}: {why}", run.id);
    let reveal = serde_json::json!({ "abandoned": why, "awaited": awaited });
    archive.set_table_stage(run.id, "ended", Some(&reveal.to_string()))?;
    let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
    run.publish_fair(&row)?;
    for d in run.desks.iter().flatten() {
        d.publish(|s| s.notice = Some(format!("the table was {why}")));
    }
    Ok(())
}

/// Makes a folder readable by the server's user only.
fn restrict(dir: &Path) -> Result<(), TableError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io(dir))
}

/// Plays every game of a table that is not finished, then publishes its seeds.
fn play_table(config: &TablesConfig, run: &Arc<TableRun>) -> Result<(), TableError> {
    struct Play<'a> {
        config: &'a TablesConfig,
        run: &'a Arc<TableRun>,
        seed: Seed,
    }
    impl bots::Visitor for Play<'_> {
        type Output = Result<(), TableError>;
        fn visit<G: Bots>(self) -> Self::Output {
            play_games::<G>(self.config, self.run, &self.seed)
        }
    }
    let text = std::fs::read_to_string(run.folder.seed()).map_err(io(&run.folder.seed()))?;
    let seed: Seed = text.trim().parse().map_err(|e: paifu_core::BadHex| TableError::NotNow(e.to_string()))?;
    bots::by_name(&run.plan.game, Play { config, run, seed }).map_err(|f| TableError::NotNow(f.message))??;
    // Every game is over: publish everything anyone needs to recompute the seeds.
    let mut archive = Archive::open(&config.db)?;
    let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
    let mut contributions: BTreeMap<String, String> = run.revealed()?;
    contributions.insert(HOST_PARTY.to_owned(), hex::encode(run.host_contribution()?));
    let commitments: BTreeMap<String, Option<String>> =
        run.commitments(&row).into_iter().map(|(n, c)| (n, c.map(|d| d.to_hex()))).collect();
    let games: BTreeMap<String, String> =
        (1..=run.plan.total_games()).map(|n| (matches::game_key(n), run.plan.game_seed(&seed, n).to_hex())).collect();
    let reveal = serde_json::json!({
        "commitments": commitments,
        "commitments_digest": row.commitments_digest,
        "contributions": contributions,
        "match_seed": seed.to_hex(),
        "games": games,
    });
    write_durably(&run.folder.revealed(), format!("{reveal:#}\n").as_bytes())?;
    archive.set_table_stage(run.id, "ended", Some(&reveal.to_string()))?;
    let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
    run.publish_fair(&row)
}

/// What the header's `meta` says of a table's game.
fn table_meta(run: &TableRun, row: &TableRow, number: u32) -> BTreeMap<String, String> {
    let plan = &run.plan;
    let mut meta =
        BTreeMap::from([("table".to_owned(), format!("table {}, game {number} of {}", run.id, plan.total_games()))]);
    if let Some(c) = &row.commitments_digest {
        meta.insert("commitments".to_owned(), c.clone());
    }
    if plan.duplicate {
        meta.insert("duplicate".to_owned(), duplicate_meta(number, plan.seats.len(), plan.games));
    }
    if !plan.sandbox && plan.seats.iter().any(|s| s.bot.is_some()) {
        meta.insert("sandbox".to_owned(), "none: the bots ran unsandboxed (paifu serve --no-sandbox)".to_owned());
    }
    meta
}

fn play_games<G: Bots>(config: &TablesConfig, run: &Arc<TableRun>, seed: &Seed) -> Result<(), TableError> {
    let plan = &run.plan;
    if let Some(why) = config.refusal(plan) {
        return Err(TableError::NotNow(why));
    }
    let rules = G::rules(&plan.ruleset, &plan.options).map_err(|e| field("options", e.0))?;
    let mut archive = Archive::open(&config.db)?;
    let origin = match archive.table(run.id)?.and_then(|r| r.opened_by) {
        Some(token) => Origin::Web { token },
        None => Origin::CommandLine,
    };
    let n = plan.seats.len();
    for number in 1..=plan.total_games() {
        let row = archive.table(run.id)?.ok_or_else(|| TableError::NotFound(format!("no table {}", run.id)))?;
        let mut watch = TableWatch { config, run, archive: &mut archive, origin, live: None };
        if run.folder.log(number).exists() {
            Watch::<G::Action>::settled(&mut watch, number, &run.folder.log(number)).map_err(TableError::NotNow)?;
            continue;
        }
        let game_seed = plan.game_seed(seed, number);
        let names: Vec<String> = (0..n).map(|s| plan.seats[plan.player_at(number, s)].name.clone()).collect();
        let mut header = Header::new(G::KIND.name(), &plan.ruleset, G::options(&rules), names, game_seed);
        header.seed = None;
        header.meta = table_meta(run, &row, number);
        let mut players: Vec<Player<G>> = Vec::with_capacity(n);
        for seat in 0..n {
            let k = plan.player_at(number, seat);
            let s = &plan.seats[k];
            match (s.bot.as_ref().and_then(|b| config.bots.get(b)), run.desk(k)) {
                (_, Some(desk)) => {
                    desk.publish(|now| now.seat = seat as Seat);
                    players.push(Player::person(desk, plan.person_limits()));
                }
                (Some(command), None) => {
                    let err_path = run.folder.stderr(number, seat);
                    let launch = Launch { sandbox: config.sandbox.as_ref(), stderr: Some(&err_path) };
                    let bot = BotProcess::spawn(command, seat as u8, launch).map_err(|source| MatchError::Bot {
                        number,
                        seat,
                        source,
                    })?;
                    let protocol = G::protocol(ProtocolKind::Paifu, seat as Seat)
                        .ok_or_else(|| TableError::NotNow("no protocol".into()))?;
                    players.push(Player::new(bot, protocol, plan.bot_limits()));
                }
                (None, None) => return Err(TableError::NotNow(format!("seat {k} has neither a person nor a bot"))),
            }
        }
        let game = OneGame {
            folder: &run.folder,
            number,
            header,
            seed: game_seed,
            sync: config.sync,
            policy: plan.policy_kind(),
        };
        game.play::<G>(rules.clone(), &mut players, &mut watch)?;
    }
    Ok(())
}

/// The archive's side of a table's games: each record in the live rows as it is played, each
/// finished game stored with the server's certificate and noted as the table's.
struct TableWatch<'a> {
    config: &'a TablesConfig,
    run: &'a Arc<TableRun>,
    archive: &'a mut Archive,
    origin: Origin,
    live: Option<i64>,
}

impl TableWatch<'_> {
    fn key(&self, number: u32) -> String {
        format!("table-{}/{}", self.run.id, matches::game_key(number))
    }

    /// Stores the finished game `number` (again: storing the same log twice keeps one entry),
    /// certified, in the table's tournament; ends its live row; shows the people its number.
    fn store(&mut self, number: u32, path: &Path) -> Result<(), String> {
        let failed =
            |e: ArchiveError| format!("{}: {e}", crate::archive::shown_location(&self.config.db.to_string_lossy()));
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let p = prepare(&bytes);
        if let Some(why) = p.refusal() {
            return Err(format!("the finished game {} is refused: {why}", path.display()));
        }
        let source = path.display().to_string();
        // The entry and the server's certificate in one transaction (an entry stored already,
        // by a server stopped before or by anyone else, gets it when it has none by this key).
        let certificate = (self.config.certify)(&p.report());
        let tournament = self.run.plan.tournament.as_deref();
        let stored = self
            .archive
            .store_certified(&p, Some(&source), certificate.as_ref(), tournament, self.origin)
            .map_err(failed)?;
        if !stored.valid {
            return Err(format!("the finished game {} did not store as valid", path.display()));
        }
        self.archive.add_table_game(self.run.id, number, stored.id).map_err(failed)?;
        self.archive.live_end_key(&self.key(number)).map_err(failed)?;
        let row = self.archive.table(self.run.id).map_err(failed)?;
        if let Some(row) = row {
            self.run.publish_fair(&row).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

impl<A: Action> Watch<A> for TableWatch<'_> {
    fn begin(&mut self, number: u32, header: &Header, records: &[Record<A>]) -> Result<(), String> {
        let failed = |e: ArchiveError| e.to_string();
        let at = now_ms();
        let id = self.archive.live_begin(&self.key(number), header_line(header).trim_end(), at).map_err(failed)?;
        for r in records {
            self.archive.live_record(id, r.seq, record_line(r).trim_end(), at).map_err(failed)?;
        }
        self.live = Some(id);
        Ok(())
    }
    fn record(&mut self, _number: u32, r: &Record<A>) -> Result<(), String> {
        let Some(id) = self.live else { return Ok(()) };
        self.archive.live_record(id, r.seq, record_line(r).trim_end(), now_ms()).map_err(|e| e.to_string())
    }
    fn finished(&mut self, number: u32, path: &Path, _timing: &Timing) -> Result<(), String> {
        self.live = None;
        self.store(number, path)
    }
    fn settled(&mut self, number: u32, path: &Path) -> Result<(), String> {
        self.store(number, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::matches::duplicate_deal;

    #[test]
    fn a_duplicate_table_plays_each_deal_once_in_every_rotation() {
        let seed = Seed::from_text("dup");
        let n = 4;
        let mut seen: BTreeMap<u32, Vec<Vec<usize>>> = BTreeMap::new();
        for number in 1..=8u32 {
            let deal = duplicate_deal(number, n);
            assert_eq!(game_seed(&seed, number, Some(n)), seed.child(&format!("deal/{deal}")));
            seen.entry(deal).or_default().push((0..n).map(|s| rotated(n, number, s)).collect());
        }
        assert_eq!(seen.len(), 2, "two deals in eight games");
        for (deal, seatings) in seen {
            // Each player sits at each seat once per deal.
            for player in 0..n {
                let mut seats: Vec<usize> =
                    seatings.iter().map(|s| s.iter().position(|p| *p == player).unwrap()).collect();
                seats.sort_unstable();
                assert_eq!(seats, vec![0, 1, 2, 3], "deal {deal}, player {player}");
            }
        }
        assert_ne!(game_seed(&seed, 1, None), game_seed(&seed, 2, None));
        assert_eq!(duplicate_meta(6, 4, 2), "deal 2 of 2, rotation 2 of 4");
    }

    #[test]
    fn a_finished_game_stored_already_under_another_key_still_gets_the_servers_certificate() {
        use paifu_core::cert::{self, CertificateBody, SecretKey};
        let sign = |key: &SecretKey, r: &Report| {
            let body = CertificateBody::from_report(r, "2026-01-01T00:00:00Z".into(), &key.verifying_key()).unwrap();
            cert::sign(body, key)
        };
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let bytes = crate::samples::tzq_bytes("table", ["Ann", "Bo"], paifu_core::log::Encoding::JsonLines);
        let path = dir.path().join("game-0001.paifu.jsonl");
        std::fs::write(&path, &bytes).unwrap();
        // Someone else stored the same log first, with a certificate by another key.
        let other = cert::secret_from_bytes([1; 32]);
        let mut archive = Archive::open(&db).unwrap();
        let p = prepare(&bytes);
        archive.store_certified(&p, None, Some(&sign(&other, &p.report())), None, Origin::CommandLine).unwrap();
        let plan = TablePlan {
            game: "tzq".into(),
            ruleset: "standard".into(),
            options: Options::new(),
            games: 1,
            tournament: None,
            seats: vec![SeatPlan { name: "Ann".into(), bot: None, command: None }; 2],
            decision_ms: PERSON_DECISION_MS,
            game_ms: PERSON_GAME_MS,
            bot_decision_ms: BOT_DECISION_MS,
            bot_game_ms: BOT_GAME_MS,
            policy: "safe".into(),
            duplicate: false,
            sandbox: false,
            reveal_ms: REVEAL_MS,
        };
        let new = NewTable {
            game: "tzq".into(),
            ruleset: "standard".into(),
            plan: serde_json::to_string(&plan).unwrap(),
            folder: dir.path().display().to_string(),
            host_commitment: Digest([0; 32]).to_hex(),
            opened_by: None,
            host: None,
            seats: vec![NewSeat { name: "Ann".into(), bot: None }, NewSeat { name: "Bo".into(), bot: None }],
        };
        let (id, _) = archive.create_table(&new).unwrap();
        let server = cert::secret_from_bytes([2; 32]);
        let server_key = hex::encode(server.verifying_key().to_bytes());
        let config = TablesConfig {
            db: db.clone(),
            root: dir.path().to_owned(),
            bots: BTreeMap::new(),
            sandbox: None,
            certify: Arc::new(move |r| Some(sign(&server, r))),
            sync: false,
            host: None,
        };
        let run = Arc::new(TableRun {
            id,
            plan,
            folder: Folder { root: dir.path().to_owned() },
            desks: Vec::new(),
            host_commitment: Digest([0; 32]),
            steps: Mutex::new(()),
        });
        let mut watch =
            TableWatch { config: &config, run: &run, archive: &mut archive, origin: Origin::CommandLine, live: None };
        watch.store(1, &path).unwrap();
        let entry = archive.table(id).unwrap().unwrap().games[0].1;
        let signers: Vec<String> = archive.certificates(entry).unwrap().into_iter().map(|c| c.signer).collect();
        assert!(signers.contains(&server_key), "the server's certificate is stored: {signers:?}");
    }
}
