//! A match: N games between the same bots, seats rotated, each game's log written as it is
//! played into a folder that is enough to resume the match after the host was killed.
//!
//! The folder:
//! - `arena.json`: the plan (game, ruleset, options, bots, protocol, limits, policy, games) and
//!   the digest of the seed commitments it was fixed from;
//! - `arena.seed`: the match seed, the host's secret until the match is over (it is needed to
//!   resume); published (`reveal.json`) once the last game is over;
//! - `live/game-NNNN.paifu.jsonl`: the journal of a game being played (its header carries the
//!   seed's commitment only);
//! - `game-NNNN.paifu.jsonl`: a finished game's log, the seed revealed in its header (the same
//!   digest as its journal: the digest counts the commitment, not the seed);
//! - `bots/game-NNNN-seat-S.stderr`: what each bot wrote to its standard error (the first
//!   `process::STDERR_CAP` bytes, then how many more it wrote).

use super::host::{HostError, Hosted, Limits, Player, Policy, Timing};
use super::journal::{Journal, JournalError};
use super::process::{BotFault, BotProcess, Launch};
use super::protocol::{Protocol, ProtocolKind};
use super::sandbox::Sandbox;
use paifu_core::games::Registered;
use paifu_core::log::{self, Encoding, Header, Options, Record};
use paifu_core::Digest;
use paifu_core::Seed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a match is, as `arena.json` keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub game: String,
    pub ruleset: String,
    #[serde(default)]
    pub options: Options,
    /// One command per bot; bot `b` sits at seat `(b + k - 1) mod seats` in game `k`.
    pub bots: Vec<String>,
    /// One name per bot (the players' names in the logs).
    pub names: Vec<String>,
    /// `paifu` or `mjai`.
    pub protocol: String,
    pub games: u32,
    pub decision_ms: u64,
    pub game_ms: u64,
    /// `safe` or `forfeit`.
    pub policy: String,
    /// The digest of the seed commitments (`fair::commitments_digest`), when the seed was fixed
    /// from contributions; `None` when the host drew it alone.
    #[serde(default)]
    pub commitments: Option<Digest>,
    /// Whether each record is synced to the disk before play goes on (see `Journal::set_sync`).
    #[serde(default = "yes")]
    pub sync: bool,
    /// Whether each bot runs in the sandbox (docs/protocol.md, "The sandbox"); `false` with
    /// `--no-sandbox`, which the logs' headers then say.
    #[serde(default = "yes")]
    pub sandbox: bool,
    /// Files and folders the sandboxed bots may read besides those their commands name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<PathBuf>,
    /// The address space each process of a bot may use, in MiB.
    #[serde(default = "default_memory")]
    pub bot_memory_mb: u64,
    /// The archive finished games are stored in (`--db`), kept so that a resumed match stores
    /// its games as the first run would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<PathBuf>,
    /// The tournament they go into (`--tournament`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The key that certifies them (`--key`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<PathBuf>,
    /// The contributions file its seed was made from (`--seed-from`), kept so that a resumed
    /// match hides it from the bots too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_from: Option<PathBuf>,
    /// The match folder as it was named when the match began: its games' names in the archive's
    /// live rows (`NAME/game-0003`), the same however the folder is named when resuming.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A duplicate match (`--duplicate`): the games come in sets of one game per seat, each set
    /// playing one deal once in every rotation of the seats.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duplicate: bool,
}

fn yes() -> bool {
    true
}

/// The default address space of a bot's process: 2 GiB.
pub const DEFAULT_BOT_MEMORY_MB: u64 = 2048;

fn default_memory() -> u64 {
    DEFAULT_BOT_MEMORY_MB
}

/// What the header's `meta` says of a match played with `--no-sandbox`.
pub const UNSANDBOXED: &str = "none: the bots ran unsandboxed (--no-sandbox)";

impl Plan {
    pub fn protocol_kind(&self) -> Result<ProtocolKind, MatchError> {
        match self.protocol.as_str() {
            "paifu" => Ok(ProtocolKind::Paifu),
            "mjai" => Ok(ProtocolKind::Mjai),
            other => Err(MatchError::Plan(format!("unknown protocol {other:?}: paifu or mjai"))),
        }
    }

    pub fn policy_kind(&self) -> Result<Policy, MatchError> {
        match self.policy.as_str() {
            "safe" => Ok(Policy::SafeAction),
            "forfeit" => Ok(Policy::Forfeit),
            other => Err(MatchError::Plan(format!("unknown policy {other:?}: safe or forfeit"))),
        }
    }

    pub fn limits(&self) -> Limits {
        Limits { decision: Duration::from_millis(self.decision_ms), game: Duration::from_millis(self.game_ms) }
    }

    /// The bot (its index) at `seat` in game `number` (1-based): the seats rotate by one each
    /// game, so over a multiple of the seat count every bot sits at every seat equally often.
    pub fn bot_at(&self, number: u32, seat: usize) -> usize {
        rotated(self.bots.len(), number, seat)
    }

    /// Game `number`'s seed: its own, or in a duplicate match its deal's.
    pub fn game_seed(&self, seed: &Seed, number: u32) -> Seed {
        game_seed(seed, number, self.duplicate.then_some(self.bots.len()))
    }
}

/// The player at `seat` of game `number` when `n` players rotate by one seat each game.
pub fn rotated(n: usize, number: u32, seat: usize) -> usize {
    let n = n.max(1);
    (seat + n - (number as usize - 1) % n) % n
}

/// Game `number`'s seed from a match or table seed: `game/N`, or with `duplicate: Some(n)`
/// (n seats) the seed of its deal, `deal/D` with `D = (N - 1) / n + 1`, shared by the `n`
/// games that play the deal in each rotation.
pub fn game_seed(seed: &Seed, number: u32, duplicate: Option<usize>) -> Seed {
    match duplicate {
        Some(n) => seed.child(&format!("deal/{}", duplicate_deal(number, n))),
        None => seed.child(&format!("game/{number}")),
    }
}

/// The deal game `number` plays at a duplicate table or match of `n` seats (1-based).
pub fn duplicate_deal(number: u32, n: usize) -> u32 {
    (number - 1) / n.max(1) as u32 + 1
}

/// The header meta `duplicate` of game `number` of a duplicate match of `deals` deals at `n`
/// seats: `deal 2 of 3, rotation 1 of 4`.
pub fn duplicate_meta(number: u32, n: usize, deals: u32) -> String {
    let n32 = n.max(1) as u32;
    format!("deal {} of {deals}, rotation {} of {n32}", duplicate_deal(number, n), (number - 1) % n32 + 1)
}

/// A match could not be played or resumed.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("{0}")]
    Plan(String),
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("game {number}: {source}")]
    Host { number: u32, source: HostError },
    #[error("game {number}, seat {seat}: {source}")]
    Bot { number: u32, seat: usize, source: BotFault },
    #[error("{}: {why}", .path.display())]
    Resume { path: PathBuf, why: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Io { path: path.to_owned(), source }
}

/// The name of game `number`'s files: `game-0003`.
pub fn game_key(number: u32) -> String {
    format!("game-{number:04}")
}

/// Where a match's files are.
#[derive(Clone, Debug)]
pub struct Folder {
    pub root: PathBuf,
}

impl Folder {
    pub fn plan(&self) -> PathBuf {
        self.root.join("arena.json")
    }
    pub fn seed(&self) -> PathBuf {
        self.root.join("arena.seed")
    }
    pub fn journal(&self, number: u32) -> PathBuf {
        self.root.join("live").join(format!("{}.paifu.jsonl", game_key(number)))
    }
    pub fn log(&self, number: u32) -> PathBuf {
        self.root.join(format!("{}.paifu.jsonl", game_key(number)))
    }
    pub fn stderr(&self, number: u32, seat: usize) -> PathBuf {
        self.root.join("bots").join(format!("{}-seat-{seat}.stderr", game_key(number)))
    }

    /// Starts a new match folder: refuses one that holds a match already.
    pub fn create(&self, plan: &Plan, seed: &Seed) -> Result<(), MatchError> {
        if self.plan().exists() {
            return Err(MatchError::Plan(format!(
                "{} holds a match already: resume it with --resume {}, or choose another --out",
                self.plan().display(),
                self.root.display()
            )));
        }
        for dir in [self.root.clone(), self.root.join("live"), self.root.join("bots")] {
            std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        }
        let p = self.seed();
        // The host's secret: readable by its user only (and the bots never see the folder).
        write_file(&p, format!("{}\n", seed.to_hex()).as_bytes(), 0o600)?;
        let text = serde_json::to_string_pretty(plan).map_err(|e| MatchError::Plan(e.to_string()))?;
        write_durably(&self.plan(), format!("{text}\n").as_bytes())
    }

    pub fn revealed(&self) -> PathBuf {
        self.root.join("reveal.json")
    }

    /// Publishes the match seed and every game's seed once every game is over.
    fn reveal(&self, plan: &Plan, seed: &Seed) -> Result<(), MatchError> {
        let games: BTreeMap<String, String> =
            (1..=plan.games).map(|n| (game_key(n), plan.game_seed(seed, n).to_hex())).collect();
        let body = serde_json::json!({ "match_seed": seed.to_hex(), "games": games });
        write_durably(&self.revealed(), format!("{body:#}\n").as_bytes())
    }

    /// The plan and seed of a match started before.
    pub fn open(&self) -> Result<(Plan, Seed), MatchError> {
        let p = self.plan();
        let text = std::fs::read_to_string(&p).map_err(io(&p))?;
        let plan: Plan =
            serde_json::from_str(&text).map_err(|e| MatchError::Resume { path: p.clone(), why: e.to_string() })?;
        let s = self.seed();
        let hex = std::fs::read_to_string(&s).map_err(io(&s))?;
        let seed: Seed = hex
            .trim()
            .parse()
            .map_err(|e: paifu_core::BadHex| MatchError::Resume { path: s.clone(), why: e.to_string() })?;
        Ok((plan, seed))
    }
}

/// Writes a file whole and durably: a temporary file beside it, synced, then renamed.
pub(crate) fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), MatchError> {
    write_file(path, bytes, 0o644)
}

/// [`write_durably`] with the file's permissions `mode` (0o600: only the host's user reads it).
pub(crate) fn write_file(path: &Path, bytes: &[u8], mode: u32) -> Result<(), MatchError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let tmp = path.with_extension("tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(mode).open(&tmp).map_err(io(&tmp))?;
    f.write_all(bytes).and_then(|()| f.sync_all()).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// What the match tells whoever watches it (the archive, a progress bar).
pub trait Watch<A> {
    /// A game begins (or resumes): its key, its header (no seed) and the records it has already.
    fn begin(&mut self, number: u32, header: &Header, records: &[Record<A>]) -> Result<(), String>;
    /// A record was played and journaled.
    fn record(&mut self, number: u32, record: &Record<A>) -> Result<(), String>;
    /// A game is over and its log written at `path`.
    fn finished(&mut self, number: u32, path: &Path, timing: &Timing) -> Result<(), String>;
    /// A game found finished when the match (re)started, its log at `path`: whatever the run
    /// that finished it had still to do with it (a host killed between writing the log and
    /// storing it) is done now.
    fn settled(&mut self, number: u32, path: &Path) -> Result<(), String>;
}

/// Watching nothing.
pub struct Unwatched;

impl<A> Watch<A> for Unwatched {
    fn begin(&mut self, _: u32, _: &Header, _: &[Record<A>]) -> Result<(), String> {
        Ok(())
    }
    fn record(&mut self, _: u32, _: &Record<A>) -> Result<(), String> {
        Ok(())
    }
    fn finished(&mut self, _: u32, _: &Path, _: &Timing) -> Result<(), String> {
        Ok(())
    }
    fn settled(&mut self, _: u32, _: &Path) -> Result<(), String> {
        Ok(())
    }
}

/// Makes the protocol a plan names for one seat.
pub type ProtocolMaker<G> = fn(ProtocolKind, paifu_core::Seat) -> Option<Box<dyn Protocol<G>>>;

/// What a match run did.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Games played to their end by this run (resumed ones included).
    pub played: u32,
    /// Games found finished already.
    pub skipped: u32,
    /// Games this run resumed from a journal.
    pub resumed: u32,
    pub timing: Timing,
}

/// One game of a match (or of a table) to play into its folder: begun, or resumed from its
/// journal when the journal is there.
pub struct OneGame<'a> {
    pub folder: &'a Folder,
    pub number: u32,
    /// The header as the journal carries it: the seed's commitment, not the seed.
    pub header: Header,
    /// The game's seed, revealed in the finished log.
    pub seed: Seed,
    /// Whether each record is synced to the disk before play goes on.
    pub sync: bool,
    pub policy: Policy,
}

/// What [`OneGame::play`] did.
#[derive(Clone, Debug)]
pub struct Played {
    /// The finished log's file.
    pub path: PathBuf,
    /// Whether it went on from a journal.
    pub resumed: bool,
}

impl OneGame<'_> {
    /// Plays the game to its end with `players`: its journal created (or reopened, and its
    /// records replayed), each record journaled and shown to `watch` before play goes on, the
    /// finished log written with its seed revealed (durably) and the journal removed.
    pub fn play<G: Registered>(
        self,
        rules: G::Rules,
        players: &mut [Player<G>],
        watch: &mut dyn Watch<G::Action>,
    ) -> Result<(Played, Timing), MatchError> {
        let number = self.number;
        let jpath = self.folder.journal(number);
        let (mut journal, replay, resumed) = if jpath.exists() {
            let (j, text) = Journal::reopen(&jpath)?;
            let (logged, _) = log::decode::<G::Action>(text.as_bytes())
                .map_err(|f| MatchError::Resume { path: jpath.clone(), why: f.describe() })?;
            if logged.header != self.header {
                return Err(MatchError::Resume {
                    path: jpath.clone(),
                    why: "its header is not the one this match's plan and seed make for the game".into(),
                });
            }
            (j, logged.records, true)
        } else {
            if let Some(dir) = jpath.parent() {
                std::fs::create_dir_all(dir).map_err(io(dir))?;
            }
            (Journal::create(&jpath, &self.header)?, Vec::new(), false)
        };
        journal.set_sync(self.sync);
        watch
            .begin(number, &self.header, &replay)
            .map_err(|why| MatchError::Host { number, source: HostError::Sink(why) })?;
        let state = G::new(rules, players.len(), Some(&self.seed)).map_err(|e| MatchError::Plan(e.0))?;
        let hosted = Hosted { header: self.header, state, replay, players, policy: self.policy, number };
        let mut sink = |r: &Record<G::Action>| -> Result<(), HostError> {
            journal.append(r).map_err(|e| HostError::Sink(e.to_string()))?;
            watch.record(number, r).map_err(HostError::Sink)
        };
        let (mut finished, timing) = hosted.play(&mut sink).map_err(|source| MatchError::Host { number, source })?;
        finished.header.seed = Some(self.seed);
        let path = self.folder.log(number);
        write_durably(&path, &log::encode(&finished, Encoding::JsonLines))?;
        std::fs::remove_file(&jpath).map_err(io(&jpath))?;
        watch
            .finished(number, &path, &timing)
            .map_err(|why| MatchError::Host { number, source: HostError::Sink(why) })?;
        Ok((Played { path, resumed }, timing))
    }
}

/// Plays (or resumes) every game of the match in `folder` that is not finished, each bot in
/// `sandbox` (`None`: unsandboxed, as the plan must then say).
pub fn run<G: Registered>(
    folder: &Folder,
    plan: &Plan,
    seed: &Seed,
    make: ProtocolMaker<G>,
    watch: &mut dyn Watch<G::Action>,
    sandbox: Option<&Sandbox>,
) -> Result<MatchSummary, MatchError> {
    let setup = Setup::<G>::of(plan, make, sandbox)?;
    let mut summary = MatchSummary::default();
    for number in 1..=plan.games {
        if folder.log(number).exists() {
            watch
                .settled(number, &folder.log(number))
                .map_err(|why| MatchError::Host { number, source: HostError::Sink(why) })?;
            summary.skipped += 1;
            continue;
        }
        let (played, timing) = setup.play(folder, plan, seed, number, watch, sandbox)?;
        if played.resumed {
            summary.resumed += 1;
        }
        summary.played += 1;
        summary.timing.add(&timing);
    }
    if (1..=plan.games).all(|n| folder.log(n).exists()) {
        folder.reveal(plan, seed)?;
    }
    Ok(summary)
}

/// What every game of a match is played with, checked once: the protocol, the policy, the
/// rules, and the seats against the game's.
pub struct Setup<G: Registered> {
    kind: ProtocolKind,
    policy: Policy,
    rules: G::Rules,
    make: ProtocolMaker<G>,
}

impl<G: Registered> Setup<G> {
    /// Checks `plan` for `G` (and that a sandbox is given exactly when the plan runs the bots in
    /// one).
    pub fn of(plan: &Plan, make: ProtocolMaker<G>, sandbox: Option<&Sandbox>) -> Result<Setup<G>, MatchError> {
        if plan.sandbox != sandbox.is_some() {
            return Err(MatchError::Plan(if plan.sandbox {
                "the plan runs the bots in the sandbox, but none was made".into()
            } else {
                "the plan runs the bots unsandboxed (--no-sandbox), but a sandbox was given".into()
            }));
        }
        let kind = plan.protocol_kind()?;
        let policy = plan.policy_kind()?;
        let rules = G::rules(&plan.ruleset, &plan.options).map_err(|e| MatchError::Plan(e.0))?;
        let seats = plan.bots.len();
        if !G::SEATS.contains(&seats) {
            return Err(MatchError::Plan(format!(
                "{} is played by {} to {} seats; the match has {seats} bots",
                G::KIND.title(),
                G::SEATS.start(),
                G::SEATS.end()
            )));
        }
        if make(kind, 0).is_none() {
            return Err(MatchError::Plan(format!(
                "{} bots cannot be spoken to in the {} protocol",
                G::KIND,
                plan.protocol
            )));
        }
        Ok(Setup { kind, policy, rules, make })
    }

    /// Plays game `number` of the match into `folder` (resumed from its journal if there is
    /// one), its bots started in `sandbox`.
    pub fn play(
        &self,
        folder: &Folder,
        plan: &Plan,
        seed: &Seed,
        number: u32,
        watch: &mut dyn Watch<G::Action>,
        sandbox: Option<&Sandbox>,
    ) -> Result<(Played, Timing), MatchError> {
        let seats = plan.bots.len();
        let game_seed = plan.game_seed(seed, number);
        let names: Vec<String> = (0..seats).map(|s| plan.names[plan.bot_at(number, s)].clone()).collect();
        let mut header = Header::new(G::KIND.name(), &plan.ruleset, G::options(&self.rules), names, game_seed);
        header.seed = None;
        header.meta = BTreeMap::from([
            ("arena".to_owned(), format!("game {number} of {}", plan.games)),
            ("protocol".to_owned(), plan.protocol.clone()),
        ]);
        if let Some(c) = plan.commitments {
            header.meta.insert("commitments".to_owned(), c.to_string());
        }
        if !plan.sandbox {
            header.meta.insert("sandbox".to_owned(), UNSANDBOXED.to_owned());
        }
        if plan.duplicate {
            let deals = plan.games / seats.max(1) as u32;
            header.meta.insert("duplicate".to_owned(), duplicate_meta(number, seats, deals));
        }
        let mut players = Vec::with_capacity(seats);
        for seat in 0..seats {
            let command = &plan.bots[plan.bot_at(number, seat)];
            let err_path = folder.stderr(number, seat);
            if let Some(dir) = err_path.parent() {
                std::fs::create_dir_all(dir).map_err(io(dir))?;
            }
            std::fs::OpenOptions::new().create(true).append(true).open(&err_path).map_err(io(&err_path))?;
            let launch = Launch { sandbox, stderr: Some(&err_path) };
            let bot = BotProcess::spawn(command, seat as u8, launch).map_err(|source| MatchError::Bot {
                number,
                seat,
                source,
            })?;
            let protocol = (self.make)(self.kind, seat as paifu_core::Seat)
                .ok_or_else(|| MatchError::Plan("no protocol".into()))?;
            players.push(Player::new(bot, protocol, plan.limits()));
        }
        let game = OneGame { folder, number, header, seed: game_seed, sync: plan.sync, policy: self.policy };
        game.play::<G>(self.rules.clone(), &mut players, watch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(bots: usize) -> Plan {
        Plan {
            game: "riichi".into(),
            ruleset: "standard".into(),
            options: Options::new(),
            bots: (0..bots).map(|b| format!("bot{b}")).collect(),
            names: (0..bots).map(|b| format!("b{b}")).collect(),
            protocol: "paifu".into(),
            games: 8,
            decision_ms: 1,
            game_ms: 1,
            policy: "safe".into(),
            commitments: None,
            sync: true,
            sandbox: true,
            allow: Vec::new(),
            bot_memory_mb: DEFAULT_BOT_MEMORY_MB,
            db: None,
            tournament: None,
            key: None,
            seed_from: None,
            label: None,
            duplicate: false,
        }
    }

    #[test]
    fn seats_rotate_so_every_bot_sits_at_every_seat_equally() {
        for n in 2..=4 {
            let p = plan(n);
            let mut count = vec![vec![0; n]; n];
            for game in 1..=(2 * n as u32) {
                let mut seated: Vec<usize> = (0..n).map(|s| p.bot_at(game, s)).collect();
                for (s, b) in seated.iter().enumerate() {
                    count[*b][s] += 1;
                }
                seated.sort_unstable();
                assert_eq!(seated, (0..n).collect::<Vec<_>>(), "every bot has one seat in game {game}");
            }
            assert!(count.iter().flatten().all(|c| *c == 2), "{n} bots: {count:?}");
        }
        assert_eq!(plan(4).bot_at(1, 0), 0, "game 1 seats the bots in the order given");
    }

    #[test]
    fn a_folder_keeps_its_plan_and_seed_and_refuses_a_second_match() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder { root: dir.path().join("m") };
        let seed = Seed::from_text("match");
        folder.create(&plan(4), &seed).unwrap();
        assert_eq!(folder.open().unwrap(), (plan(4), seed));
        let e = folder.create(&plan(4), &seed).unwrap_err();
        assert!(e.to_string().contains("--resume"), "{e}");
        std::fs::write(folder.seed(), "beef\n").unwrap();
        assert!(matches!(folder.open(), Err(MatchError::Resume { .. })));
    }
}
