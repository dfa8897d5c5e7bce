//! A throwaway PostgreSQL for tests: a cluster made by `initdb` in a temporary folder, its server
//! listening on a Unix socket in that folder only (no TCP), a database per test.
//!
//! [`database`] answers a new, empty database; the cluster is shared by the tests that run at
//! once and stopped, its folder deleted, when the last of their [`TestDb`]s is dropped (a test
//! that panics drops its own as it unwinds). The server's binaries are found in `PAIFU_PG_BIN`,
//! else in `/usr/lib/postgresql/<version>/bin` (Debian's `postgresql` package), else on `PATH`.
//! Without them [`database`] panics, saying how to install them: a test that needs PostgreSQL
//! fails, it never skips. Run as root (CI's containers), the cluster belongs to the `postgres`
//! user, as `initdb` and `postgres` refuse to run as root.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// How to get PostgreSQL's binaries, in every failure that lacks them.
pub const INSTALL_HINT: &str = "PostgreSQL's server binaries (initdb, postgres) were not found: install them \
     (Debian, Ubuntu: `apt-get install -y postgresql`; .ci/run does) or name their folder in PAIFU_PG_BIN";

/// A running cluster in a temporary folder, stopped and deleted when dropped.
pub struct Cluster {
    folder: PathBuf,
    server: Option<Child>,
    /// The superuser the tests connect as.
    user: String,
}

/// A database of its own for one test, dropped with it.
pub struct TestDb {
    cluster: Arc<Cluster>,
    name: String,
}

static SHARED: Mutex<Weak<Cluster>> = Mutex::new(Weak::new());
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A new empty database on the shared cluster (started if none runs). Panics, saying why and
/// how to install PostgreSQL, when there is no cluster to be had.
pub fn database() -> TestDb {
    let cluster = {
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        match shared.upgrade() {
            Some(c) => c,
            None => {
                let c = Arc::new(Cluster::start().unwrap_or_else(|e| panic!("no PostgreSQL for the tests: {e}")));
                *shared = Arc::downgrade(&c);
                c
            }
        }
    };
    let name = format!("paifu_test_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    cluster.admin(&format!("CREATE DATABASE {name}")).unwrap_or_else(|e| panic!("CREATE DATABASE {name}: {e}"));
    TestDb { cluster, name }
}

impl TestDb {
    /// The database's URL, as `--db` takes it.
    pub fn url(&self) -> String {
        self.cluster.url(&self.name)
    }

    /// The URL as a path, as [`super::Archive::open`] takes it.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(self.url())
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The cluster it is on.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// Runs `sql` on this database, as the superuser (a test's own changes behind the archive's
    /// back).
    pub fn execute(&self, sql: &str) -> Result<(), String> {
        run_sql(&self.url(), sql)
    }
}

/// Runs `sql` on the database at `url`.
fn run_sql(url: &str, sql: &str) -> Result<(), String> {
    let mut c = postgres::Client::connect(url, postgres::NoTls).map_err(|e| e.to_string())?;
    c.batch_execute(sql).map_err(|e| super::db::pg_message(&e))
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // Whoever still holds a connection to it is disconnected.
        let _ = self.cluster.admin(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
    }
}

/// The folder holding `initdb` and `postgres`.
fn binaries() -> Result<PathBuf, String> {
    find_binaries(std::env::var_os("PAIFU_PG_BIN"), Path::new("/usr/lib/postgresql"), std::env::var_os("PATH"))
}

/// The folder holding `initdb` and `postgres`: `pg_bin` when set, else the newest version's in
/// `lib` (Debian's layout: `lib/15/bin`), else the first folder on `path` that has both.
fn find_binaries(
    pg_bin: Option<std::ffi::OsString>,
    lib: &Path,
    path: Option<std::ffi::OsString>,
) -> Result<PathBuf, String> {
    let has = |d: &Path| d.join("initdb").is_file() && d.join("postgres").is_file();
    if let Some(d) = pg_bin {
        let d = PathBuf::from(d);
        return if has(&d) {
            Ok(d)
        } else {
            Err(format!("PAIFU_PG_BIN={} holds no initdb and postgres. {INSTALL_HINT}", d.display()))
        };
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(lib)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, d)| has(d))
        .collect();
    versions.sort();
    if let Some((_, d)) = versions.pop() {
        return Ok(d);
    }
    path.into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .find(|d| has(d))
        .ok_or_else(|| INSTALL_HINT.to_owned())
}

/// The user and group numbers the cluster runs as when this process is root (the `postgres`
/// system user's), else `None`.
fn run_as() -> Result<Option<(u32, u32)>, String> {
    if !rustix::process::getuid().is_root() {
        return Ok(None);
    }
    let id = |flag: &str| -> Result<u32, String> {
        let out =
            Command::new("id").args([flag, "postgres"]).output().map_err(|e| format!("id {flag} postgres: {e}"))?;
        String::from_utf8_lossy(&out.stdout).trim().parse().map_err(|_| {
            format!("running as root, and there is no `postgres` user to run the cluster as ({INSTALL_HINT})")
        })
    };
    Ok(Some((id("-u")?, id("-g")?)))
}

impl Cluster {
    /// Makes and starts a cluster in a new temporary folder.
    pub fn start() -> Result<Cluster, String> {
        let bin = binaries()?;
        let owner = run_as()?;
        let folder = std::env::temp_dir().join(format!(
            "paifu-pg-{}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        // From here on, a failure deletes the folder (and stops a server that started).
        let mut cluster = Cluster { folder, server: None, user: "postgres".into() };
        if let Some((uid, gid)) = owner {
            let status = Command::new("chown")
                .arg(format!("{uid}:{gid}"))
                .arg(&cluster.folder)
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !status.success() {
                return Err(format!("chown {} failed", cluster.folder.display()));
            }
        }
        let as_owner = |c: &mut Command| {
            if let Some((uid, gid)) = owner {
                use std::os::unix::process::CommandExt;
                c.uid(uid).gid(gid);
            }
        };
        let data = cluster.folder.join("data");
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .arg("-D")
            .arg(&data)
            .args(["-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        as_owner(&mut initdb);
        let out = initdb.output().map_err(|e| format!("{}: {e}", bin.join("initdb").display()))?;
        if !out.status.success() {
            return Err(format!("initdb failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        let mut server = Command::new(bin.join("postgres"));
        server
            .arg("-D")
            .arg(&data)
            .arg("-k")
            .arg(&cluster.folder)
            // No TCP: the socket in the folder only. Durability is not wanted of a test's data.
            .args(["-c", "listen_addresses=", "-p", "5432", "-F", "-c", "full_page_writes=off"])
            .args(["-c", "synchronous_commit=off", "-c", "max_connections=200"])
            .stdout(Stdio::null())
            .stderr(Stdio::from(
                std::fs::File::create(cluster.folder.join("server.log")).map_err(|e| format!("server.log: {e}"))?,
            ));
        as_owner(&mut server);
        cluster.server = Some(server.spawn().map_err(|e| format!("{}: {e}", bin.join("postgres").display()))?);
        let started = Instant::now();
        loop {
            match cluster.admin("SELECT 1") {
                Ok(()) => return Ok(cluster),
                Err(e) if started.elapsed() > Duration::from_secs(60) => {
                    let log = std::fs::read_to_string(cluster.folder.join("server.log")).unwrap_or_default();
                    return Err(format!("the server did not answer within 60 s ({e}); its log:\n{log}"));
                }
                Err(_) => {
                    if let Some(Ok(Some(status))) = cluster.server.as_mut().map(Child::try_wait) {
                        let log = std::fs::read_to_string(cluster.folder.join("server.log")).unwrap_or_default();
                        return Err(format!("the server stopped ({status}); its log:\n{log}"));
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }

    /// The URL of database `name` on this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgresql://{}@localhost/{name}?host={}&port=5432", self.user, self.folder.display())
    }

    /// The folder that holds the cluster (its data and socket).
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The server's process number.
    pub fn pid(&self) -> Option<u32> {
        self.server.as_ref().map(Child::id)
    }

    /// Runs `sql` on the `postgres` database, as the superuser.
    pub fn admin(&self, sql: &str) -> Result<(), String> {
        run_sql(&self.url("postgres"), sql)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(mut server) = self.server.take() {
            // Fast shutdown (clients disconnected, then a clean stop); killed if it lingers.
            let _ =
                rustix::process::kill_process(rustix::process::Pid::from_child(&server), rustix::process::Signal::INT);
            let started = Instant::now();
            while matches!(server.try_wait(), Ok(None)) && started.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = server.kill();
            let _ = server.wait();
        }
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(pid: u32) -> bool {
        // A zombie is not running; nor is a number reused by a process of another program.
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| s.split(' ').nth(2).is_none_or(|state| state != "Z") && s.contains("postgres"))
    }

    #[test]
    fn a_cluster_serves_a_database_per_test_on_a_socket_only() {
        let one = database();
        let two = database();
        assert_ne!(one.name(), two.name());
        assert!(std::ptr::eq(one.cluster(), two.cluster()), "tests running at once share one cluster");
        let mut c = postgres::Client::connect(&one.url(), postgres::NoTls).expect("connect to the test database");
        let n: i32 = c.query_one("SELECT 40 + 2", &[]).unwrap().get(0);
        assert_eq!(n, 42);
        let listen: String = c.query_one("SHOW listen_addresses", &[]).unwrap().get(0);
        assert_eq!(listen, "", "no TCP address");
        drop(c);
        let name = one.name().to_owned();
        drop(one);
        let left: i64 = postgres::Client::connect(&two.url(), postgres::NoTls)
            .unwrap()
            .query_one("SELECT COUNT(*) FROM pg_database WHERE datname = $1", &[&name])
            .unwrap()
            .get(0);
        assert_eq!(left, 0, "a test's database is dropped with it");
    }

    #[test]
    fn a_dropped_cluster_is_stopped_and_deleted_even_after_a_panic() {
        let seen = Arc::new(Mutex::new(None));
        let inside = seen.clone();
        let result = std::thread::spawn(move || {
            let cluster = Cluster::start().unwrap_or_else(|e| panic!("{e}"));
            assert!(cluster.folder().join("data/PG_VERSION").is_file());
            cluster.admin("CREATE TABLE t(x BIGINT)").unwrap();
            *inside.lock().unwrap() = Some((cluster.folder().to_owned(), cluster.pid().unwrap()));
            panic!("a failing test");
        })
        .join();
        assert!(result.is_err(), "the thread panicked");
        let (folder, pid) = seen.lock().unwrap().clone().expect("the cluster started");
        assert!(!folder.exists(), "{} is left behind", folder.display());
        assert!(!runs(pid), "the server {pid} still runs");
    }

    #[test]
    fn without_binaries_the_failure_says_how_to_install_them() {
        let nowhere = Path::new("/nonexistent/postgresql");
        let e = find_binaries(None, nowhere, Some("/nonexistent/bin".into())).unwrap_err();
        assert_eq!(e, INSTALL_HINT);
        assert!(e.contains("apt-get install -y postgresql"), "{e}");
        let empty = std::env::temp_dir();
        let e = find_binaries(Some(empty.clone().into()), nowhere, None).unwrap_err();
        assert!(e.contains("holds no initdb") && e.contains("apt-get install"), "{e}");
        // And this machine has them (the suite's PostgreSQL tests would fail otherwise).
        assert!(binaries().is_ok(), "{}", INSTALL_HINT);
    }
}
