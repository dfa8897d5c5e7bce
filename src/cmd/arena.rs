//! `paifu arena`: host a match between bot programs, record each game as it is played.

use crate::archive::open;
use crate::cmd::ingest::{ingest_files, prepare_tournament};
use crate::cmd::keygen::read_key;
use crate::cmd::simulate::parse_options;
use crate::error::{Error, Result, Status};
use crate::output::{outln, progress, Progress};
use clap::Args;
use paifu_core::cert::SecretKey;
use paifu_core::fair::{self, Contribution};
use paifu_core::log::{header_line, record_line, Action, Header, Record};
use paifu_core::{Digest, Seed};
use paifu_recorder::archive::{Archive, JobKind, NameKind, NewMatchJob};
use paifu_recorder::arena::host::Timing;
use paifu_recorder::arena::matches::{self, Folder, MatchSummary, Plan, Watch};
use paifu_recorder::arena::queued::MatchJob;
use paifu_recorder::arena::sandbox::{Rlimits, Sandbox, Secrets};
use paifu_recorder::bots::{self, Bots};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const AFTER_HELP: &str = "\
Each bot is a program started once per game with its seat ({seat} in the command becomes 0-3). \
It reads one line per message on its standard input and answers each with one line (docs/protocol.md):
  paifu (every game): {\"type\":\"ask\",\"view\":…,\"legal\":[…],…} in, one of the legal actions out;
  mjai (riichi): mjai.app's protocol, so that bots written for mjai.app run unchanged.
Seats rotate each game, so over a multiple of the seat count every bot sits at every seat equally.

Every answer is checked as it arrives. A bot that answers too late (--timeout-ms per decision,
--budget-ms per game), illegally, with garbage, or that ends: with --policy safe (the default)
the host records the incident and plays the seat's safe action (the drawn tile discarded, a
claim passed); with --policy forfeit the seat forfeits and is played safely to the end.

Each bot runs in a sandbox made with bubblewrap (Debian package bubblewrap): its own PID,
mount and network namespaces, the system's folders read-only, the files its command names, an
empty /tmp of its own, no network, and limits on memory (--bot-memory-mb), CPU time (the
game's budget and a minute), processes and files. The match folder, the working folder, homes,
/run, the archive and the key are not there; give --allow PATH for anything else a bot reads.
If the sandbox cannot start, the match does not either; --no-sandbox runs the bots as the host's
own processes (the logs' headers then say so). Whatever a bot does, the host goes on: input it
does not read, output it floods and standard error past 1 MiB a game are incidents or are not
kept, and every process a bot started is killed when its game ends.

The match folder holds each game's journal as it is played (live/), each finished log with its
seed revealed, and arena.seed, the host's secret until the match is over. A host killed
mid-game resumes with --resume DIR: every unfinished game continues from its journal, the bots
restarted and told the game so far; the result is the game an uninterrupted run plays. The
plan keeps --db, --tournament and --key: a resumed match stores its games as the first run
would, without giving them again.

Examples:
  paifu arena riichi --bot 'paifu bot riichi' --games 8 --out match/
  paifu arena riichi --protocol mjai --games 4 --out mjai-match/ \\
      --bot 'python3 -c \"from mjai.bot.rulebase import RulebaseBot; RulebaseBot(player_id={seat}).start()\"'
  paifu arena tzq --bot './mine {seat}' --bot 'paifu bot tzq --strategy random' --games 10 --out duel/ \\
      --db paifu.db --tournament \"Bot cup\" --key referee.key
  paifu arena --resume match/

With --queue the match is not played here: it is queued in the archive (--db) as jobs for paifu worker \
(docs/archive.md, \"Arena matches as jobs\"), one job per game, or with --duplicate one per deal holding all its \
rotations (stored together or not at all). The match seed is drawn (or fixed by --seed-from) now and kept in the \
database, which the bots never see; each game's seed is derived from it as above and revealed in its stored log. \
With --queue each --bot is a bot's NAME, not a command: every worker runs the command it was given itself for that \
name (paifu worker --bot NAME=CMD), in its own sandbox (--no-sandbox, --allow and --bot-memory-mb are the \
worker's); a worker without the bot leaves the job to another. The workers sign with their own --key.
  paifu arena tzq --queue --db postgres://paifu@db.example/paifu --match cup-r1 \\
      --bot greedy --name Ann --bot mine --name Bo --games 8 --tournament \"Bot cup\"
  paifu arena riichi --queue --duplicate --db club.db --bot greedy --games 4 --seed-from seeds.json
  paifu worker --db club.db --bot greedy='paifu bot riichi --strategy first' --idle-exit 10";

#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct ArenaArgs {
    /// The game: tzq, riichi, mcr, hungarian, tayu (not with --resume).
    #[arg(required_unless_present = "resume")]
    pub game: Option<String>,
    /// A bot's command, once per seat (or once for every seat); {seat} becomes its seat number.
    #[arg(long = "bot", value_name = "CMD")]
    pub bots: Vec<String>,
    /// The bots' names in the logs, one per --bot (default: "bot 1", "bot 2", ...).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// How many games (with --duplicate: how many deals, each played once per seat).
    #[arg(long, default_value_t = 4)]
    pub games: u32,
    /// A duplicate match: every deal is played once in each rotation of the seats (four games
    /// for four seats on one deal), so that the luck of the deal cancels. Each log's header says
    /// its deal and rotation (meta "duplicate").
    #[arg(long)]
    pub duplicate: bool,
    /// The match folder (created; must not hold a match already).
    #[arg(long, short, required_unless_present_any = ["resume", "queue"])]
    pub out: Option<PathBuf>,
    /// Queue the match in the archive (--db) as jobs for paifu worker instead of playing it:
    /// each --bot is then the NAME of a bot the workers were given (paifu worker --bot NAME=CMD).
    #[arg(
        long,
        requires = "db",
        conflicts_with_all = ["resume", "out", "key", "no_sandbox", "allow", "bot_memory_mb", "no_sync"]
    )]
    pub queue: bool,
    /// With --queue: the match's name; its games are stored as NAME/game-0001.paifu.jsonl
    /// (default: arena-SECONDS, the time it was queued).
    #[arg(long = "match", value_name = "NAME", requires = "queue")]
    pub match_name: Option<String>,
    /// Resume the match in this folder (after the host was stopped or killed). Its plan keeps
    /// everything else, --db, --tournament and --key included.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with_all = ["game", "out", "seed_from", "no_sandbox", "allow", "bot_memory_mb", "duplicate"]
    )]
    pub resume: Option<PathBuf>,
    /// The protocol the bots speak: paifu (every game) or mjai (riichi).
    #[arg(long, default_value = "paifu")]
    pub protocol: String,
    /// The ruleset, as for paifu simulate.
    #[arg(long, default_value = "standard")]
    pub ruleset: String,
    /// A rules option, KEY=VALUE (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The time a bot has for one decision, in milliseconds.
    #[arg(long, default_value_t = 5_000)]
    pub timeout_ms: u64,
    /// The time a bot has for all its decisions in one game, in milliseconds.
    #[arg(long, default_value_t = 600_000)]
    pub budget_ms: u64,
    /// What happens when an answer is late, illegal or garbage, or the bot ends: safe (its safe
    /// action is played, the incident recorded) or forfeit (the seat forfeits the game).
    #[arg(long, default_value = "safe")]
    pub policy: String,
    /// Fix the seed from the parties' committed contributions: a JSON file
    /// {"commitments": {NAME: HEX, ...}, "contributions": {NAME: HEX, ...}} (docs/protocol.md,
    /// "Fair randomness"). Without it the host draws the seed from the system's random source.
    #[arg(long, value_name = "FILE")]
    pub seed_from: Option<PathBuf>,
    /// Hand each record to the operating system without waiting for the disk: a killed host
    /// still loses nothing, a power cut may lose the last records (default: synced, fdatasync).
    #[arg(long)]
    pub no_sync: bool,
    /// Run the bots as the host's own processes, without the sandbox: they can then read what
    /// the host's user reads (the match seed among it) and reach the network. The logs' headers
    /// say so (meta "sandbox").
    #[arg(long)]
    pub no_sandbox: bool,
    /// A file or folder the sandboxed bots may read besides those their commands name
    /// (repeatable): a model, a library, an interpreter in a home folder.
    #[arg(long, value_name = "PATH")]
    pub allow: Vec<PathBuf>,
    /// The address space each process of a sandboxed bot may use, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = matches::DEFAULT_BOT_MEMORY_MB)]
    pub bot_memory_mb: u64,
    /// Store each finished game in this archive, and show the games in progress to its dashboard
    /// (kept in the plan: a resumed match stores into it too): a SQLite file, or a PostgreSQL URL,
    /// postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
    /// With --db: the tournament the games go into (made if missing, trusting --key).
    #[arg(long, requires = "db")]
    pub tournament: Option<String>,
    /// With --db: sign a certificate for each finished game with this private key.
    #[arg(long, requires = "db")]
    pub key: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The seed file of `--seed-from`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedFile {
    commitments: BTreeMap<String, Digest>,
    contributions: BTreeMap<String, String>,
}

/// The match seed and the digest of its commitments, from `--seed-from`.
fn fair_seed(path: &Path) -> Result<(Seed, Digest)> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    let file: SeedFile = serde_json::from_str(&text)
        .map_err(|e| Error::Unreadable { what: path.display().to_string(), message: e.to_string() })?;
    let mut reveals = BTreeMap::new();
    for (name, hex) in &file.contributions {
        let d: Digest = hex.parse().map_err(|e| Error::Unreadable {
            what: format!("{}: contribution of {name:?}", path.display()),
            message: format!("{e}"),
        })?;
        reveals.insert(name.clone(), Contribution::from(d.0));
    }
    let seed = fair::seed_of(&file.commitments, &reveals)
        .map_err(|e| Error::Unreadable { what: path.display().to_string(), message: e.to_string() })?;
    Ok((seed, fair::commitments_digest(&file.commitments)))
}

/// A seed from the system's random source.
fn drawn_seed() -> Result<Seed> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| Error::Usage(format!("no random source for the match seed: {e}")))?;
    Ok(Seed(bytes))
}

/// The new match's plan from the arguments.
fn plan_of(a: &ArenaArgs, game: &str, commitments: Option<Digest>) -> Result<Plan> {
    if a.bots.is_empty() {
        return Err(Error::Usage("give each seat's bot with --bot CMD (or one --bot for every seat)".into()));
    }
    let kind = paifu_core::games::engine_kind(game).map_err(|f| Error::Usage(f.message))?;
    let seats = if a.bots.len() == 1 { seats_for_one(kind) } else { a.bots.len() };
    let bots: Vec<String> = if a.bots.len() == 1 { vec![a.bots[0].clone(); seats] } else { a.bots.clone() };
    if !a.names.is_empty() && a.names.len() != bots.len() {
        return Err(Error::Usage(format!(
            "{} --name for {} bots: give one name per bot, or none",
            a.names.len(),
            bots.len()
        )));
    }
    let names =
        if a.names.is_empty() { (1..=bots.len()).map(|i| format!("bot {i}")).collect() } else { a.names.clone() };
    if a.games == 0 {
        return Err(Error::Usage("--games 0: a match has at least one game".into()));
    }
    let cwd = std::env::current_dir().map_err(Error::io(Path::new(".")))?;
    let absolute = |p: &PathBuf| if p.is_absolute() { p.clone() } else { cwd.join(p) };
    Ok(Plan {
        game: kind.name().to_owned(),
        ruleset: a.ruleset.clone(),
        options: parse_options(&a.options)?,
        bots,
        names,
        protocol: a.protocol.clone(),
        games: if a.duplicate { a.games.saturating_mul(seats as u32) } else { a.games },
        decision_ms: a.timeout_ms,
        game_ms: a.budget_ms,
        policy: a.policy.clone(),
        commitments,
        sync: !a.no_sync,
        sandbox: !a.no_sandbox,
        allow: a.allow.iter().map(absolute).collect(),
        bot_memory_mb: a.bot_memory_mb,
        db: a.db.as_ref().map(absolute),
        tournament: a.tournament.clone(),
        key: a.key.as_ref().map(absolute),
        seed_from: a.seed_from.as_ref().map(absolute),
        label: a.out.as_ref().map(|o| o.display().to_string()),
        duplicate: a.duplicate,
    })
}

/// The seats one --bot fills: four where the game seats four, else its largest table.
fn seats_for_one(kind: paifu_core::GameKind) -> usize {
    struct S;
    impl bots::Visitor for S {
        type Output = std::ops::RangeInclusive<usize>;
        fn visit<G: Bots>(self) -> Self::Output {
            G::SEATS
        }
    }
    let range = bots::visit(kind, S).unwrap_or(2..=2);
    if range.contains(&4) {
        4
    } else {
        *range.end()
    }
}

/// The archive side of a match: games in progress shown live (each record in the archive's
/// live rows as it is played), finished games stored with their certificates.
struct Stored<'a> {
    archive: Archive,
    db: PathBuf,
    /// The match folder, which names its games in the live rows (`match/game-0003`).
    root: String,
    tournament: Option<String>,
    key: Option<SecretKey>,
    progress: &'a Progress,
    /// Each game's live row.
    live: BTreeMap<u32, i64>,
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Stored<'_> {
    fn failed(&self) -> impl Fn(paifu_recorder::archive::ArchiveError) -> String + '_ {
        |e| format!("{}: {e}", crate::archive::shown(&self.db))
    }
}

impl<A: Action> Watch<A> for Stored<'_> {
    fn begin(&mut self, number: u32, header: &Header, records: &[Record<A>]) -> std::result::Result<(), String> {
        let key = format!("{}/{}", self.root, matches::game_key(number));
        let at = now_ms();
        let id = self.archive.live_begin(&key, header_line(header).trim_end(), at).map_err(self.failed())?;
        for r in records {
            self.archive.live_record(id, r.seq, record_line(r).trim_end(), at).map_err(self.failed())?;
        }
        self.live.insert(number, id);
        Ok(())
    }
    fn record(&mut self, number: u32, r: &Record<A>) -> std::result::Result<(), String> {
        let Some(&id) = self.live.get(&number) else { return Ok(()) };
        self.archive.live_record(id, r.seq, record_line(r).trim_end(), now_ms()).map_err(self.failed())
    }
    fn finished(&mut self, number: u32, path: &Path, _timing: &Timing) -> std::result::Result<(), String> {
        self.store(number, path)?;
        self.progress.inc(1);
        Ok(())
    }
    /// A game finished before: stored (again: storing the same log twice keeps one entry) and
    /// taken off the live rows, in case the host that finished it was killed before it could.
    fn settled(&mut self, number: u32, path: &Path) -> std::result::Result<(), String> {
        self.store(number, path)
    }
}

impl Stored<'_> {
    /// Stores the finished game `number`'s log and ends its live row.
    fn store(&mut self, number: u32, path: &Path) -> std::result::Result<(), String> {
        let hidden = Progress::hidden();
        let s =
            ingest_files(&mut self.archive, &[path.to_owned()], self.tournament.as_deref(), self.key.as_ref(), &hidden)
                .map_err(self.failed())?;
        if let Some(why) = s.invalid.first().or(s.refused.first()).or(s.unreadable.first()) {
            return Err(format!("the finished game did not store as valid: {why}"));
        }
        let key = format!("{}/{}", self.root, matches::game_key(number));
        self.live.remove(&number);
        self.archive.live_end_key(&key).map_err(self.failed())?;
        Ok(())
    }
}

/// Progress only.
struct Counted<'a>(&'a Progress);

impl<A> Watch<A> for Counted<'_> {
    fn begin(&mut self, _: u32, _: &Header, _: &[Record<A>]) -> std::result::Result<(), String> {
        Ok(())
    }
    fn record(&mut self, _: u32, _: &Record<A>) -> std::result::Result<(), String> {
        Ok(())
    }
    fn finished(&mut self, _: u32, _: &Path, _: &Timing) -> std::result::Result<(), String> {
        self.0.inc(1);
        Ok(())
    }
    fn settled(&mut self, _: u32, _: &Path) -> std::result::Result<(), String> {
        Ok(())
    }
}

/// The watcher the arguments ask for.
enum Watcher<'a> {
    Count(Counted<'a>),
    Store(Box<Stored<'a>>),
}

impl<A: Action> Watch<A> for Watcher<'_> {
    fn begin(&mut self, n: u32, h: &Header, r: &[Record<A>]) -> std::result::Result<(), String> {
        match self {
            Watcher::Count(w) => Watch::<A>::begin(w, n, h, r),
            Watcher::Store(w) => Watch::<A>::begin(&mut **w, n, h, r),
        }
    }
    fn record(&mut self, n: u32, r: &Record<A>) -> std::result::Result<(), String> {
        match self {
            Watcher::Count(w) => Watch::<A>::record(w, n, r),
            Watcher::Store(w) => Watch::<A>::record(&mut **w, n, r),
        }
    }
    fn finished(&mut self, n: u32, p: &Path, t: &Timing) -> std::result::Result<(), String> {
        match self {
            Watcher::Count(w) => Watch::<A>::finished(w, n, p, t),
            Watcher::Store(w) => Watch::<A>::finished(&mut **w, n, p, t),
        }
    }
    fn settled(&mut self, n: u32, p: &Path) -> std::result::Result<(), String> {
        match self {
            Watcher::Count(w) => Watch::<A>::settled(w, n, p),
            Watcher::Store(w) => Watch::<A>::settled(&mut **w, n, p),
        }
    }
}

struct RunMatch<'a> {
    folder: &'a Folder,
    plan: &'a Plan,
    seed: &'a Seed,
    watch: Watcher<'a>,
    sandbox: Option<&'a Sandbox>,
}

impl bots::Visitor for RunMatch<'_> {
    type Output = std::result::Result<MatchSummary, matches::MatchError>;
    fn visit<G: Bots>(mut self) -> Self::Output {
        matches::run::<G>(self.folder, self.plan, self.seed, G::protocol, &mut self.watch, self.sandbox)
    }
}

fn play(
    folder: &Folder,
    plan: &Plan,
    seed: &Seed,
    watch: Watcher<'_>,
    sandbox: Option<&Sandbox>,
) -> Result<MatchSummary> {
    let r = bots::by_name(&plan.game, RunMatch { folder, plan, seed, watch, sandbox })
        .map_err(|f| Error::Usage(f.message))?;
    r.map_err(Error::Arena)
}

/// The host's files a match's bots must not see.
struct Hidden<'a> {
    dbs: Vec<Option<&'a Path>>,
    files: Vec<Option<&'a Path>>,
}

/// The sandbox the plan's bots run in (`None` with `--no-sandbox`), tried once: a sandbox that
/// cannot start stops the match before any game, with a message naming the package.
///
/// Hidden from the bots: the match folder, and `secrets`: every archive (with the files SQLite
/// keeps beside it), key and contributions file the match uses or its plan names.
fn sandbox_of(plan: &Plan, folder: &Folder, secrets: &Hidden<'_>) -> Result<Option<Sandbox>> {
    if !plan.sandbox {
        return Ok(None);
    }
    let cwd = std::env::current_dir().map_err(Error::io(Path::new(".")))?;
    let mut files: Vec<PathBuf> = Vec::new();
    for db in secrets.dbs.iter().flatten() {
        files.extend(Secrets::archive_files(db));
    }
    files.extend(secrets.files.iter().flatten().map(|p| p.to_path_buf()));
    let secrets = Secrets { folders: vec![folder.root.clone()], files, allow: plan.allow.clone() };
    let limits = Rlimits::new(plan.bot_memory_mb, plan.game_ms);
    let own = std::env::current_exe().ok();
    let sandbox = Sandbox::new(secrets, limits, &cwd, own).map_err(|e| Error::Usage(e.to_string()))?;
    sandbox.probe().map_err(|e| Error::Usage(e.to_string()))?;
    Ok(Some(sandbox))
}

/// The match seed (drawn, or from --seed-from) and the digest of the commitments it was made from.
fn match_seed(a: &ArenaArgs) -> Result<(Seed, Option<Digest>)> {
    Ok(match &a.seed_from {
        Some(p) => {
            let (s, c) = fair_seed(p)?;
            (s, Some(c))
        }
        None => (drawn_seed()?, None),
    })
}

/// Checks a plan against its game's engine as a match would before its first game.
struct CheckPlan<'a>(&'a Plan);

impl bots::Visitor for CheckPlan<'_> {
    type Output = std::result::Result<(), matches::MatchError>;
    fn visit<G: Bots>(self) -> Self::Output {
        matches::Setup::<G>::of(self.0, G::protocol, None).map(|_| ())
    }
}

/// `paifu arena --queue`: the match as jobs in the archive, nothing played here.
fn enqueue(a: &ArenaArgs) -> Result {
    let game = a.game.as_deref().unwrap_or_default();
    let db = a.db.clone().ok_or_else(|| Error::Usage("--queue queues the match in an archive: give --db".into()))?;
    let label = match &a.match_name {
        Some(l) => l.clone(),
        None => format!("arena-{}", now_ms() / 1000),
    };
    if label.trim().is_empty() || label.chars().any(char::is_control) {
        return Err(Error::Usage("--match: a match's name may not be empty or hold control characters".into()));
    }
    let (seed, commitments) = match_seed(a)?;
    let mut plan = plan_of(a, game, commitments)?;
    // The workers' sandbox is theirs; the plan is checked here as the game's engine reads it.
    plan.sandbox = false;
    bots::by_name(&plan.game, CheckPlan(&plan)).map_err(|f| Error::Usage(f.message))?.map_err(Error::Arena)?;
    let jobs = MatchJob::split(&plan, &label).map_err(|e| Error::Usage(format!("--bot: {e}")))?;
    let kind = if plan.duplicate { JobKind::Duplicate } else { JobKind::Match };
    let new: Vec<NewMatchJob> = jobs
        .iter()
        .map(|j| NewMatchJob {
            kind,
            title: j.title(),
            bots: j.needs(),
            spec: serde_json::to_string(j).expect("a match job is JSON"),
        })
        .collect();
    let mut archive = open(&db)?;
    // The players' names as the archive will take them when a worker stores the first game (a
    // lookalike of a name it holds, an invisible character): refused now, not after the games
    // are played (as a table's seats are: `arena::tables`).
    for n in &plan.names {
        let refused = archive.new_name_refusal(NameKind::Player, n).map_err(Error::archive(&db))?;
        if let Some(e) = refused {
            return Err(Error::Usage(format!("--name {n:?}: {e}")));
        }
    }
    let ids = archive.enqueue_match(&new, &seed.to_hex(), a.tournament.as_deref()).map_err(Error::archive(&db))?;
    if let Some(c) = commitments {
        outln!("seed commitments: {c} (the match seed is made from every party's contribution)")?;
    }
    let (first, last) = (ids.first().copied().unwrap_or(0), ids.last().copied().unwrap_or(0));
    let per =
        if plan.duplicate { format!("one per deal, {} games each", plan.bots.len()) } else { "one per game".into() };
    let which = if first == last { format!("id {first}") } else { format!("ids {first}-{last}") };
    outln!(
        "queued match {label}: {} as {} ({which}, {per}) in {}",
        counted(plan.games as usize, "game"),
        counted(ids.len(), &format!("{} job", kind.as_str())),
        crate::archive::shown(&db)
    )?;
    let bots: Vec<String> = jobs.first().map(MatchJob::needs).unwrap_or_default();
    outln!(
        "the workers play them with their own bots: paifu worker --db {} {}",
        crate::archive::shown(&db),
        bots.iter().map(|b| format!("--bot {b}=CMD")).collect::<Vec<_>>().join(" ")
    )?;
    Ok(Status::Fine)
}

/// `paifu arena`: 0 every game played to its end and recorded (or queued), 2 the match could
/// not go on.
pub fn run(a: ArenaArgs) -> Result {
    if a.queue {
        return enqueue(&a);
    }
    let (folder, plan, seed) = match &a.resume {
        Some(dir) => {
            let folder = Folder { root: dir.clone() };
            let (plan, seed) = folder.open()?;
            (folder, plan, seed)
        }
        None => {
            let game = a.game.as_deref().unwrap_or_default();
            let out = a.out.clone().unwrap_or_default();
            let (seed, commitments) = match_seed(&a)?;
            let plan = plan_of(&a, game, commitments)?;
            plan.protocol_kind()?;
            plan.policy_kind()?;
            let folder = Folder { root: out };
            folder.create(&plan, &seed)?;
            if let Some(c) = commitments {
                outln!("seed commitments: {c} (the match seed is made from every party's contribution)")?;
            }
            (folder, plan, seed)
        }
    };
    // A resumed match keeps its plan's archive, tournament and key unless they are given again.
    let db = a.db.clone().or_else(|| plan.db.clone());
    let tournament = a.tournament.clone().or_else(|| plan.tournament.clone());
    let key_path = a.key.clone().or_else(|| plan.key.clone());
    // Hidden: what this run uses (given again or kept) and what the plan names besides.
    let hidden = Hidden {
        dbs: vec![db.as_deref(), plan.db.as_deref()],
        files: vec![key_path.as_deref(), plan.key.as_deref(), a.seed_from.as_deref(), plan.seed_from.as_deref()],
    };
    let sandbox = sandbox_of(&plan, &folder, &hidden)?;
    let pb = progress(u64::from(plan.games), "{msg} {bar:40} {pos}/{len} games ({eta} left)", "playing", a.quiet);
    let summary = match &db {
        Some(db) => {
            let key = key_path.as_deref().map(read_key).transpose()?;
            let mut archive = open(db)?;
            if let Some(t) = &tournament {
                prepare_tournament(&mut archive, db, t, key.as_ref())?;
            }
            let root = plan.label.clone().unwrap_or_else(|| folder.root.display().to_string());
            let w = Stored { archive, db: db.clone(), root, tournament, key, progress: &pb, live: BTreeMap::new() };
            play(&folder, &plan, &seed, Watcher::Store(Box::new(w)), sandbox.as_ref())?
        }
        None => play(&folder, &plan, &seed, Watcher::Count(Counted(&pb)), sandbox.as_ref())?,
    };
    pb.finish();
    let t = summary.timing;
    let secs = t.total.as_secs_f64();
    outln!(
        "{}: {} games played ({} resumed), {} finished before",
        folder.root.display(),
        summary.played,
        summary.resumed,
        summary.skipped
    )?;
    if summary.played > 0 && secs > 0.0 {
        let share = |d: std::time::Duration| 100.0 * d.as_secs_f64() / secs;
        outln!(
            "{:.2} games/s, {} decisions asked, {} records; of the time: bots {:.1}%, recording {:.1}% (the journal{}), \
             the host's own work {:.1}%",
            f64::from(summary.played) / secs,
            t.decisions,
            t.records,
            share(t.waiting),
            share(t.recording),
            if plan.sync { " synced per record" } else { "" },
            (100.0 - share(t.waiting) - share(t.recording)).max(0.0)
        )?;
    }
    if plan.duplicate {
        outln!("{}", paifu_recorder::arena::duplicate::of_folder(&folder, &plan)?)?;
    }
    Ok(Status::Fine)
}

/// `n` of `noun`, in the plural but for one ("1 game", "4 games").
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
