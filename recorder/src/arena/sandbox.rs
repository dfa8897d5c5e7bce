//! Where a bot runs: a bubblewrap sandbox (docs/protocol.md, "The sandbox"), or, when the
//! operator opts out, the host's own environment.
//!
//! A sandboxed bot gets its own PID, mount, network, IPC and UTS namespaces: it sees the system's
//! folders read-only, the files its command names, an empty `/tmp` of its own, a `/proc` that
//! shows only its own processes, and no network; the host's files (the match folder with its
//! seed, the working folder, homes, `/run` and its sockets, the archive and the key) are not
//! there. Its resources are bounded with rlimits (`prlimit`, set before bubblewrap starts, so
//! they bind every process of the bot), and when the host runs as root the bot runs as an
//! unprivileged user of its own (`setpriv`), as the process count limit never binds root.
//!
//! This module only builds command lines; [`super::process`] runs them.

use std::path::{Path, PathBuf};

/// The Debian package that provides `bwrap`.
pub const BUBBLEWRAP_PACKAGE: &str = "bubblewrap";

/// When the host runs as root, each bot runs as a user of its own, uid and gid in
/// `BOT_UID .. BOT_UID + BOT_USERS`: a range no account uses (systemd's "unused" range,
/// docs/protocol.md). The user is leased ([`BotUser`]) for as long as the bot runs, so that no
/// two bots on the machine share one (the process limit counts a user's processes: a bot sharing
/// its user with a bot of another match or table could be starved by it).
pub const BOT_UID: u32 = 2_100_000_000;

/// How many users bots may run as at once on one machine.
pub const BOT_USERS: u32 = 1 << 20;

/// Where the leases of bot users are held (one lock file per user), when the host runs as root.
pub const BOT_USERS_DIR: &str = "/run/paifu/bot-users";

/// The size of the bot's own `/tmp` (tmpfs, in memory): the most it can write.
pub const TMP_BYTES: u64 = 64 << 20;

/// Resource limits of one bot (each of its processes; the process count for all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rlimits {
    /// Address space of each process, in bytes (`RLIMIT_AS`).
    pub memory: u64,
    /// CPU time of each process, in seconds (`RLIMIT_CPU`).
    pub cpu_secs: u64,
    /// Processes and threads of the bot's user (`RLIMIT_NPROC`; set only when the bot has a user
    /// of its own, that is when the host runs as root).
    pub processes: u64,
    /// Open files of each process (`RLIMIT_NOFILE`).
    pub files: u64,
    /// The largest file it may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size: u64,
}

impl Rlimits {
    /// The default limits: 2 GiB of address space, the game's time budget plus a minute of CPU,
    /// 64 processes, 1024 files, 64 MiB files.
    pub fn new(memory_mb: u64, budget_ms: u64) -> Rlimits {
        Rlimits {
            memory: memory_mb.saturating_mul(1 << 20),
            cpu_secs: budget_ms / 1000 + 60,
            processes: 64,
            files: 1024,
            file_size: 64 << 20,
        }
    }
}

/// The sandbox could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(
        "the bots run in a sandbox made with bubblewrap, but `{0}` is not on the PATH: install the Debian package \
         `{BUBBLEWRAP_PACKAGE}` (apt-get install {BUBBLEWRAP_PACKAGE}), or run the bots unsandboxed with --no-sandbox"
    )]
    Missing(&'static str),
    #[error(
        "the bots run in a sandbox made with bubblewrap (Debian package `{BUBBLEWRAP_PACKAGE}`), which could not \
         start here: {0}. Fix that (user namespaces must be allowed for a user other than root), or run the bots \
         unsandboxed with --no-sandbox"
    )]
    Broken(String),
}

/// What the host hides from its bots and what it shows them besides their own files.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// Folders that must not be seen (the match folder).
    pub folders: Vec<PathBuf>,
    /// Files that must not be seen (the archive, the key, the seed file).
    pub files: Vec<PathBuf>,
    /// Files or folders the bots may read besides those their commands name (`--allow`).
    pub allow: Vec<PathBuf>,
}

impl Secrets {
    /// The archive at `db` as files to hide: the database and every file SQLite keeps beside
    /// it (`-wal`, `-shm`, `-journal`). One list for the arena and the server. Each is hidden
    /// when a bot starts if it exists then (a path that does not exist cannot be covered).
    pub fn archive_files(db: &Path) -> Vec<PathBuf> {
        ["", "-wal", "-shm", "-journal"]
            .iter()
            .map(|suffix| {
                let mut p = db.as_os_str().to_owned();
                p.push(suffix);
                PathBuf::from(p)
            })
            .collect()
    }
}

/// A user a bot runs as, held while the bot runs: no other bot on this machine (of this host or
/// of another `paifu` process) is given it meanwhile. The lease is an exclusive lock on a file of
/// its own, so a host that dies gives its users back with it.
#[derive(Debug)]
pub struct BotUser {
    uid: u32,
    _lock: std::fs::File,
}

impl BotUser {
    /// Leases the first free user of `first .. first + count`, with lock files in `dir` (made if
    /// missing, readable only by its owner).
    pub fn lease_in(dir: &Path, first: u32, count: u32) -> std::io::Result<BotUser> {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
        let meta = std::fs::symlink_metadata(dir)?;
        if !meta.is_dir() {
            return Err(std::io::Error::other(format!("{} is not a folder", dir.display())));
        }
        for n in 0..count {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o600)
                .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
                .open(dir.join(n.to_string()))?;
            match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => return Ok(BotUser { uid: first + n, _lock: file }),
                Err(rustix::io::Errno::WOULDBLOCK) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(std::io::Error::other(format!("all {count} bot users are in use (lock files in {})", dir.display())))
    }

    /// Leases a user for one bot: in [`BOT_USERS_DIR`], of the range at [`BOT_UID`].
    pub fn lease() -> std::io::Result<BotUser> {
        BotUser::lease_in(Path::new(BOT_USERS_DIR), BOT_UID, BOT_USERS)
    }

    /// Its uid (and gid).
    pub fn uid(&self) -> u32 {
        self.uid
    }
}

/// A sandbox for the bots of one match.
#[derive(Clone, Debug)]
pub struct Sandbox {
    bwrap: PathBuf,
    prlimit: PathBuf,
    /// `setpriv`, when the host runs as root (the bot then gets a user of its own).
    setpriv: Option<PathBuf>,
    /// The folders hidden before the bot's own files are shown again.
    hidden: Vec<PathBuf>,
    secrets: Secrets,
    cwd: PathBuf,
    /// The host's own program: `paifu` as a bot's program means it.
    own: Option<PathBuf>,
    path_env: String,
    limits: Rlimits,
}

/// System folders a hidden folder must never cover.
const SYSTEM: [&str; 11] =
    ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/dev", "/proc", "/sys"];

/// Folders hidden from every bot: homes, temporary folders, `/run` (sockets), mounted media.
const ALWAYS_HIDDEN: [&str; 8] = ["/tmp", "/var/tmp", "/run", "/home", "/root", "/mnt", "/media", "/srv"];

/// A program found on `path` (a `PATH` value) by name.
fn find_on(path: &str, name: &str) -> Option<PathBuf> {
    path.split(':').filter(|d| !d.is_empty()).map(|d| Path::new(d).join(name)).find(|p| p.is_file())
}

/// Whether hiding `dir` would hide a system folder (or the root).
fn covers_system(dir: &Path) -> bool {
    dir == Path::new("/") || SYSTEM.iter().any(|s| Path::new(s).starts_with(dir))
}

/// `p` made absolute against `cwd`, with `.` and `..` folded (without touching the disk).
fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    let joined = if p.is_absolute() { p.to_owned() } else { cwd.join(p) };
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}

/// The paths a command's words name: each word, each shell word inside it (`sh -c '...'`), and
/// the value of each `KEY=VALUE` (split at `:`, as `PYTHONPATH` is), made absolute against
/// `cwd`, that exist.
pub fn named_paths(words: &[String], cwd: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let consider = |token: &str, out: &mut Vec<PathBuf>| {
        let mut candidates = vec![token];
        if let Some((_, value)) = token.split_once('=') {
            candidates.extend(value.split(':'));
        }
        for c in candidates.into_iter().filter(|c| !c.is_empty() && !c.starts_with('-')) {
            let p = absolute(cwd, Path::new(c));
            if p.symlink_metadata().is_ok() && !out.contains(&p) {
                out.push(p);
            }
        }
    };
    for w in words {
        consider(w, &mut out);
        for inner in shlex::split(w).unwrap_or_default() {
            if inner != *w {
                consider(&inner, &mut out);
            }
        }
    }
    out
}

impl Sandbox {
    /// Finds the tools (`bwrap`, `prlimit`, and `setpriv` when the host runs as root) on the
    /// host's `PATH`. `cwd` is the host's working folder, `own` its own program.
    pub fn new(secrets: Secrets, limits: Rlimits, cwd: &Path, own: Option<PathBuf>) -> Result<Sandbox, SandboxError> {
        let path_env = std::env::var("PATH").unwrap_or_default();
        let bwrap = find_on(&path_env, "bwrap").ok_or(SandboxError::Missing("bwrap"))?;
        let prlimit = find_on(&path_env, "prlimit")
            .ok_or_else(|| SandboxError::Broken("`prlimit` (Debian package util-linux) is not on the PATH".into()))?;
        let setpriv = if rustix::process::getuid().is_root() {
            Some(find_on(&path_env, "setpriv").ok_or_else(|| {
                SandboxError::Broken("`setpriv` (Debian package util-linux) is not on the PATH".into())
            })?)
        } else {
            None
        };
        let cwd = absolute(Path::new("/"), cwd);
        let mut hidden: Vec<PathBuf> = ALWAYS_HIDDEN.iter().map(PathBuf::from).collect();
        if let Some(home) = std::env::var_os("HOME") {
            hidden.push(absolute(&cwd, Path::new(&home)));
        }
        hidden.push(cwd.clone());
        let mut kept: Vec<PathBuf> = Vec::new();
        hidden.sort();
        for d in hidden {
            // A folder inside one hidden already is hidden with it.
            if d.is_dir() && !covers_system(&d) && !kept.iter().any(|k| d.starts_with(k)) {
                kept.push(d);
            }
        }
        let secrets = Secrets {
            folders: secrets.folders.iter().map(|p| absolute(&cwd, p)).collect(),
            files: secrets.files.iter().map(|p| absolute(&cwd, p)).collect(),
            allow: secrets.allow.iter().map(|p| absolute(&cwd, p)).collect(),
        };
        Ok(Sandbox { bwrap, prlimit, setpriv, hidden: kept, secrets, cwd, own, path_env, limits })
    }

    /// Whether each bot runs as a user of its own (the host runs as root).
    pub fn separate_users(&self) -> bool {
        self.setpriv.is_some()
    }

    /// The limits each bot runs under.
    pub fn limits(&self) -> Rlimits {
        self.limits
    }

    /// The program a bot's first word names, as the sandbox runs it: `paifu` is the host's own
    /// program; a name found on the `PATH` only in a hidden folder is the file the host would
    /// run (shown to the bot); anything else is left to the `PATH` inside the sandbox.
    fn program(&self, first: &str) -> Option<PathBuf> {
        if first.contains('/') {
            return None;
        }
        if first == "paifu" {
            if let Some(own) = &self.own {
                return Some(own.clone());
            }
        }
        let visible = self.path_env.split(':').filter(|d| !d.is_empty()).any(|d| {
            let dir = absolute(&self.cwd, Path::new(d));
            !self.hidden.iter().any(|h| dir.starts_with(h)) && dir.join(first).is_file()
        });
        if visible {
            None
        } else {
            find_on(&self.path_env, first)
        }
    }

    /// The command line that runs `words` (the bot's command, split) in the sandbox, and the user
    /// it runs as when the host is root: the lease must be held until the bot has ended.
    pub fn command(&self, words: &[String]) -> std::io::Result<(Vec<String>, Option<BotUser>)> {
        let user = if self.setpriv.is_some() { Some(BotUser::lease()?) } else { None };
        let argv = self.command_as(words, user.as_ref().map(BotUser::uid));
        Ok((argv, user))
    }

    /// The command line that runs `words` in the sandbox, as `uid` when given.
    fn command_as(&self, words: &[String], uid: Option<u32>) -> Vec<String> {
        let mut words = words.to_vec();
        if let Some(p) = words.first().and_then(|w| self.program(w)) {
            words[0] = p.display().to_string();
        }
        let l = self.limits;
        let mut c: Vec<String> = vec![
            self.prlimit.display().to_string(),
            format!("--as={}", l.memory),
            format!("--cpu={}", l.cpu_secs),
            format!("--nofile={}", l.files),
            format!("--fsize={}", l.file_size),
            "--core=0".into(),
        ];
        if self.setpriv.is_some() {
            c.push(format!("--nproc={}", l.processes));
        }
        c.push("--".into());
        c.push(self.bwrap.display().to_string());
        let mut arg = |items: &[&str]| c.extend(items.iter().map(|s| (*s).to_owned()));
        arg(&["--die-with-parent", "--new-session"]);
        if self.setpriv.is_some() {
            // Run as root, bubblewrap needs no user namespace; `setpriv` below drops to the bot's
            // own user, every capability and any way to gain them back.
            arg(&["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]);
        } else {
            arg(&["--unshare-all"]);
        }
        arg(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
        let s = |p: &Path| p.display().to_string();
        for d in &self.hidden {
            if d == Path::new("/tmp") {
                c.extend(["--perms".into(), "1777".into(), "--size".into(), TMP_BYTES.to_string()]);
            } else {
                c.extend(["--size".into(), "1048576".into()]);
            }
            c.extend(["--tmpfs".into(), s(d)]);
        }
        // The bot's own files, shown again where the hidden folders cover them, each folder on
        // the way made (readable: the bot may run as another user).
        let mut shown: Vec<PathBuf> = named_paths(&words, &self.cwd);
        shown.extend(self.secrets.allow.iter().filter(|p| p.symlink_metadata().is_ok()).cloned());
        let mut made: Vec<PathBuf> = Vec::new();
        let mut make = |p: &Path, with_itself: bool, c: &mut Vec<String>| {
            let Some(h) = self.hidden.iter().find(|h| p.starts_with(h)) else { return };
            let mut ancestors: Vec<&Path> =
                p.ancestors().skip(usize::from(!with_itself)).take_while(|a| a.starts_with(h) && *a != h).collect();
            ancestors.reverse();
            for a in ancestors {
                if !made.iter().any(|m| m == a) {
                    made.push(a.to_owned());
                    c.extend(["--perms".into(), "0755".into(), "--dir".into(), s(a)]);
                }
            }
        };
        // The working folder: inside a hidden one, it is made (empty but for the bot's files).
        make(&self.cwd, true, &mut c);
        for p in &shown {
            if self.hidden.iter().any(|h| p.starts_with(h)) {
                make(p, false, &mut c);
                c.extend(["--ro-bind".into(), s(p), s(p)]);
            }
        }
        // The host's own files, hidden last: no command line shows them again.
        let folders: Vec<&PathBuf> = self.secrets.folders.iter().filter(|d| d.is_dir() && !covers_system(d)).collect();
        for d in &folders {
            c.extend(["--size".into(), "4096".into(), "--tmpfs".into(), s(d)]);
        }
        for f in self.secrets.files.iter().filter(|f| f.is_file() && !folders.iter().any(|d| f.starts_with(d))) {
            c.extend(["--ro-bind".into(), "/dev/null".into(), s(f)]);
        }
        for d in folders.into_iter().chain(self.hidden.iter().filter(|d| *d != Path::new("/tmp"))) {
            c.extend(["--remount-ro".into(), s(d)]);
        }
        c.extend(["--chdir".into(), s(&self.cwd), "--clearenv".into()]);
        c.extend(["--setenv".into(), "PATH".into(), self.path_env.clone()]);
        c.extend(["--setenv".into(), "HOME".into(), "/tmp".into()]);
        for key in ["LANG", "LC_ALL", "TZ"] {
            if let Ok(v) = std::env::var(key) {
                c.extend(["--setenv".into(), key.into(), v]);
            }
        }
        c.push("--".into());
        if let (Some(setpriv), Some(uid)) = (&self.setpriv, uid) {
            c.extend([
                s(setpriv),
                format!("--reuid={uid}"),
                format!("--regid={uid}"),
                "--clear-groups".into(),
                "--inh-caps=-all".into(),
                "--bounding-set=-all".into(),
                "--no-new-privs".into(),
                "--".into(),
            ]);
        }
        c.extend(words);
        c
    }

    /// Starts a sandbox running `true` and waits for it: an error says why the sandbox cannot
    /// start here.
    pub fn probe(&self) -> Result<(), SandboxError> {
        let (argv, _user) = self
            .command(&["true".to_owned()])
            .map_err(|e| SandboxError::Broken(format!("no user to run a bot as: {e}")))?;
        let out = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| SandboxError::Broken(format!("{} could not be run: {e}", argv[0])))?;
        if out.status.success() {
            Ok(())
        } else {
            let text = String::from_utf8_lossy(&out.stderr);
            let why = text.trim();
            Err(SandboxError::Broken(format!(
                "a test sandbox ended with {}{}",
                out.status,
                if why.is_empty() { String::new() } else { format!(": {}", why.chars().take(400).collect::<String>()) }
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paths_a_command_names_are_found_in_its_words() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path();
        std::fs::write(cwd.join("bot.py"), "").unwrap();
        std::fs::create_dir(cwd.join("deps")).unwrap();
        let words: Vec<String> = ["env", "PYTHONPATH=deps:/nonexistent", "python3", "bot.py", "--x=./bot.py", "-c"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let found = named_paths(&words, cwd);
        assert_eq!(found, [cwd.join("deps"), cwd.join("bot.py")], "{found:?}");
        let words = vec!["sh".to_owned(), "-c".to_owned(), "python3 ./bot.py 2>&1".to_owned()];
        assert_eq!(named_paths(&words, cwd), [cwd.join("bot.py")], "a file named inside sh -c's script");
    }

    #[test]
    fn a_bot_user_is_never_leased_twice_at_once_and_comes_back_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("users");
        let a = BotUser::lease_in(&d, 100, 3).unwrap();
        let b = BotUser::lease_in(&d, 100, 3).unwrap();
        let c = BotUser::lease_in(&d, 100, 3).unwrap();
        assert_eq!([a.uid(), b.uid(), c.uid()], [100, 101, 102]);
        let full = BotUser::lease_in(&d, 100, 3).unwrap_err();
        assert!(full.to_string().contains("all 3 bot users are in use"), "{full}");
        drop(b);
        assert_eq!(BotUser::lease_in(&d, 100, 3).unwrap().uid(), 101, "a dropped lease is free again");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&d).unwrap().permissions().mode() & 0o777, 0o700);
    }

    #[test]
    fn a_bot_user_lock_that_is_a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("users");
        std::fs::create_dir(&d).unwrap();
        let target = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&target, d.join("0")).unwrap();
        assert!(BotUser::lease_in(&d, 100, 3).is_err(), "a planted link is refused, not followed");
        assert!(!target.exists(), "nothing was made where the link points");
    }

    #[test]
    fn paths_are_made_absolute_without_the_disk() {
        assert_eq!(absolute(Path::new("/a/b"), Path::new("../c/./d")), PathBuf::from("/a/c/d"));
        assert_eq!(absolute(Path::new("/a"), Path::new("/x/../y")), PathBuf::from("/y"));
        assert!(covers_system(Path::new("/")));
        assert!(covers_system(Path::new("/usr")));
        assert!(!covers_system(Path::new("/usr/src/m")));
        assert!(!covers_system(Path::new("/tmp")));
    }
}
