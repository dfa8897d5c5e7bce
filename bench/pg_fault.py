#!/usr/bin/env python3
"""The load and fault test of issue 29: several `paifu serve` and `paifu worker` processes on one
PostgreSQL database, clients uploading and reading while a server and a worker are killed with
SIGKILL, then checks that nothing was lost or stored twice (docs/web.md, "Several servers and
workers on PostgreSQL: load and fault test").

What it does, in order:

 1. Starts a throwaway PostgreSQL cluster as the tests do (recorder/src/archive/pg_test.rs):
    initdb in a temporary folder, the server on a Unix socket in that folder only (no TCP), run
    as the `postgres` user when this script runs as root; one database, `paifu`.
 2. Makes an uploader token (`paifu token create`) and M distinct game files (`paifu simulate`,
    five games: TZQ, Ta Yu, riichi, Hungarian, MCR), kept in --games-dir for the next run. Half of
    them go to the queue (`paifu ingest --queue`), in --waves waves spread over the first part of
    the run, so that the workers are busy when one is killed; the other half is uploaded.
 3. Starts --servers `paifu serve --db URL` processes (ports of their own, no per-client limits)
    and --workers `paifu worker --db URL --lease L --idle-exit I` processes.
 4. Runs --clients client threads for --duration seconds. Each takes the next upload that is due
    (the uploads are spread over 85% of the run; some files are sent twice, to random servers,
    some to two servers at the same moment) and otherwise reads `/`, `/games`, `/api/games`, a
    game's page or its `/api/games/{id}` from a random server. Every answer is recorded: its
    status (or the connection error), which server, its latency, and for each acknowledged
    upload (2xx) the entry id and digest it names. An upload that got no answer or a 5xx is sent
    again to another server (at most 5 times).
 5. At --kill-at of the run, kills the last server and the second worker with SIGKILL; at
    --restart-at starts them again (the server on the same port).
 6. When the run is over, waits for the workers to drain the queue and exit (--idle-exit), then
    checks, and prints each check's outcome:
      - every acknowledged upload is stored exactly once: its file's digest is one entry of the
        `logs` table, the entry every acknowledgement of that file named; every queued file too;
        no file of the run is stored twice;
      - every queued job is done exactly once (`paifu jobs`: done = queued, none queued, running
        or failed; the `jobs` table: each done job's entry is its file's);
      - the counts the archive keeps at ingest (`list_counts`, `kept_totals`, `fault_counts`)
        equal a fresh recount from the stored rows (recomputed here, by the rules of
        recorder/src/archive/kept.rs), and `/api/overview` of every live server shows the
        recounted numbers of entries;
      - no 5xx answer from a server that was never killed (the killed server's answers, and the
        requests lost with it, are counted apart).
    It exits 1 if a check fails, 2 if the run could not be set up.
 7. Prints the figures: uploads sent and acknowledged, reads, answers per second, p50/p99
    latency (all, reads, uploads), jobs per second, jobs taken again after the kill, the
    machine's load average before, during and after.

With --sqlite the same runs on a SQLite file with one server and one worker and no kills (the
figures to compare with). Standard library only; PostgreSQL 15's binaries are looked for in
/usr/lib/postgresql/*/bin (Debian's `postgresql` package) or --pg-bin.
"""
import argparse
import collections
import glob
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

EPILOG = """examples:
  cargo build --release
  python3 bench/pg_fault.py --duration 15 --files 120           # a short run
  python3 bench/pg_fault.py                                     # the full run: 60 s, 60 clients
  python3 bench/pg_fault.py --sqlite                            # the same on SQLite, 1 server, 1 worker, no kills
  python3 bench/pg_fault.py --keep --workdir /tmp/pgf           # keep the cluster's folder and the logs

Each process's output is written to WORKDIR/logs/ (server-N.log, worker-N.log); the cluster's to
WORKDIR/pg/server.log. Exit status: 0 every check held, 1 a check failed, 2 the run could not be
set up (no PostgreSQL, no paifu binary, a server that did not start)."""


class SetupError(Exception):
    pass


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


# ---------------------------------------------------------------------------------------------
# The database: a throwaway PostgreSQL cluster, or a SQLite file.


class Postgres:
    def __init__(self, bin_dir, folder):
        self.bin = bin_dir
        self.folder = folder
        self.proc = None
        self.owner = None
        if os.geteuid() == 0:
            import pwd

            try:
                p = pwd.getpwnam("postgres")
            except KeyError:
                raise SetupError("running as root and there is no `postgres` user to run the cluster as")
            self.owner = (p.pw_uid, p.pw_gid)

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        if self.owner:
            os.chown(self.folder, *self.owner)
        data = os.path.join(self.folder, "data")
        kw = {"user": self.owner[0], "group": self.owner[1]} if self.owner else {}
        out = subprocess.run(
            [os.path.join(self.bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
             "--locale=C", "--no-sync"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
        if out.returncode != 0:
            raise SetupError(f"initdb failed: {out.stderr.decode(errors='replace').strip()}")
        # Durable commits as in production (fsync on): the test is about what is acknowledged.
        self.log = open(os.path.join(self.folder, "server.log"), "wb")
        self.proc = subprocess.Popen(
            [os.path.join(self.bin, "postgres"), "-D", data, "-k", self.folder, "-c", "listen_addresses=",
             "-p", "5432", "-c", "max_connections=500"],
            stdout=subprocess.DEVNULL, stderr=self.log, **kw)
        started = time.time()
        while True:
            r = subprocess.run([os.path.join(self.bin, "psql"), *self.conn("postgres"), "-Atc", "SELECT 1"],
                               capture_output=True)
            if r.returncode == 0:
                break
            if self.proc.poll() is not None or time.time() - started > 60:
                raise SetupError(f"the PostgreSQL server did not start; see {self.folder}/server.log")
            time.sleep(0.1)
        self.admin("CREATE DATABASE paifu")

    def conn(self, db):
        return ["-h", self.folder, "-p", "5432", "-U", "postgres", "-d", db]

    def url(self):
        return f"postgresql://postgres@localhost/paifu?host={self.folder}&port=5432"

    def admin(self, sql):
        r = subprocess.run([os.path.join(self.bin, "psql"), *self.conn("postgres"), "-v", "ON_ERROR_STOP=1",
                            "-Atc", sql], capture_output=True, text=True)
        if r.returncode != 0:
            raise SetupError(f"psql: {sql}: {r.stderr.strip()}")

    def query(self, sql):
        r = subprocess.run([os.path.join(self.bin, "psql"), *self.conn("paifu"), "-v", "ON_ERROR_STOP=1",
                            "-AtF", "\t", "-c", sql], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"psql: {sql}: {r.stderr.strip()}")
        return [line.split("\t") for line in r.stdout.splitlines()]

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Sqlite:
    def __init__(self, path):
        self.path = path

    def start(self):
        pass

    def url(self):
        return self.path

    def query(self, sql):
        c = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)
        try:
            return [["" if v is None else str(v) for v in row] for row in c.execute(sql)]
        finally:
            c.close()

    def stop(self):
        pass


def find_pg_bin(given):
    if given:
        return given
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3]))
    if not found:
        raise SetupError("PostgreSQL's binaries were not found (apt-get install -y postgresql, or --pg-bin DIR)")
    return os.path.dirname(found[-1])


# ---------------------------------------------------------------------------------------------
# Paifu's processes.


class Procs:
    """The servers and workers started, each with its log file."""

    def __init__(self, paifu, db_url, workdir, args):
        self.paifu = paifu
        self.db = db_url
        self.logs = os.path.join(workdir, "logs")
        self.workdir = workdir
        self.args = args
        os.makedirs(self.logs, exist_ok=True)
        self.servers = []  # [{port, proc, n}]
        self.workers = []  # [{name, proc}]

    def start_server(self, i, port, n=0):
        out = open(os.path.join(self.logs, f"server-{i}.{n}.log"), "wb")
        cmd = [self.paifu, "serve", "--db", self.db, "--addr", f"127.0.0.1:{port}",
               "--connections-per-client", "0", "--anonymous-per-client", "0",
               "--key", os.path.join(self.workdir, f"server-{i}.pem"),
               "--tables", os.path.join(self.workdir, f"tables-{i}")]
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        started = time.time()
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", "/api/overview")
                if c.getresponse().status == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.time() - started > 60:
                raise SetupError(f"server {i} did not start; see {out.name}")
            time.sleep(0.1)
        return proc

    def start_worker(self, name):
        out = open(os.path.join(self.logs, f"worker-{name}.log"), "wb")
        return subprocess.Popen(
            [self.paifu, "worker", "--db", self.db, "--name", name, "--lease", str(self.args.lease),
             "--idle-exit", str(self.args.idle_exit)],
            stdout=out, stderr=subprocess.STDOUT)

    def run(self, *argv):
        r = subprocess.run([self.paifu, *argv], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            raise SetupError(f"paifu {' '.join(argv)}: exit {r.returncode}: {r.stderr.strip()[-500:]}")
        return r


def prepare_games(paifu, folder, m, seed):
    """M distinct game files over five games, made once per (M, seed) and kept."""
    done = os.path.join(folder, "done")
    if os.path.exists(done):
        return sorted(glob.glob(os.path.join(folder, "*", "*.paifu.jsonl")))
    shutil.rmtree(folder, ignore_errors=True)
    shares = [("tzq", 0.40), ("tayu", 0.25), ("riichi", 0.15), ("hungarian", 0.13), ("mcr", 0.07)]
    left = m
    for k, (game, share) in enumerate(shares):
        n = left if k == len(shares) - 1 else max(1, int(m * share))
        left -= n
        log(f"simulating {n} {game} games")
        r = subprocess.run([paifu, "simulate", game, "--games", str(n), "--seed", f"{seed}-{game}", "--out",
                            os.path.join(folder, game)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            raise SetupError(f"paifu simulate {game}: {r.stderr.decode(errors='replace')[-500:]}")
    open(done, "w").close()
    return sorted(glob.glob(os.path.join(folder, "*", "*.paifu.jsonl")))


def digests(paifu, files):
    out = {}
    for i in range(0, len(files), 200):
        r = subprocess.run([paifu, "digest", *files[i:i + 200]], capture_output=True, text=True)
        if r.returncode != 0:
            raise SetupError(f"paifu digest: {r.stderr.strip()[-500:]}")
        for line in r.stdout.splitlines():
            d, _, f = line.partition("  ")
            out[f] = d
    return out


# ---------------------------------------------------------------------------------------------
# The clients.


class Load:
    def __init__(self, args, ports, token, upload_files, start, end):
        self.args = args
        self.ports = ports  # server index -> port
        self.token = token
        self.start = start
        self.end = end
        self.lock = threading.Lock()
        self.answers = []  # (t, kind, server, status or None, latency s, error)
        self.acks = collections.defaultdict(list)  # file -> [(id, digest, new, server)]
        self.known_ids = []
        self.down = set()  # servers known to be down (only to know which answers were lost; clients do not avoid them)
        rng = random.Random(args.seed)
        span = 0.85 * (end - start)
        # (due, sequence, file, mode, attempt, avoid-server)
        items = []
        for k, f in enumerate(upload_files):
            due = start + span * k / max(1, len(upload_files))
            r = rng.random()
            if r < 0.15:
                items.append((due, f, "pair", 1, None))
            elif r < 0.30:
                items.append((due, f, "once", 1, None))
                items.append((min(end - 1, due + rng.uniform(1, 0.3 * span)), f, "once", 1, None))
            else:
                items.append((due, f, "once", 1, None))
        items.sort(key=lambda x: x[0])
        self.queue = collections.deque(items)
        self.retries = []
        self.sent_files = set()
        self.bytes = {}
        for f in upload_files:
            with open(f, "rb") as fh:
                self.bytes[f] = fh.read()

    def record(self, kind, server, status, latency, error=None):
        with self.lock:
            self.answers.append((time.time() - self.start, kind, server, status, latency, error))

    def request(self, server, method, path, body=None, headers=None):
        port = self.ports[server]
        t0 = time.perf_counter()
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            data = r.read()
            c.close()
            return r.status, data, time.perf_counter() - t0, None
        except (OSError, http.client.HTTPException) as e:
            return None, b"", time.perf_counter() - t0, type(e).__name__

    def upload(self, f, server, attempt):
        name = os.path.basename(f)
        status, data, dt, err = self.request(
            server, "POST", f"/api/upload?name={name}", body=self.bytes[f],
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/octet-stream"})
        self.record("upload", server, status, dt, err)
        if status is not None and 200 <= status < 300:
            s = json.loads(data)["stored"]
            with self.lock:
                self.acks[f].append((s["id"], s["digest"], s["new"], server))
                self.known_ids.append(s["id"])
            return
        if (status is None or status >= 500) and attempt < 5:
            # Not acknowledged: sent again, to another server, as a client would.
            with self.lock:
                self.retries.append((time.time(), f, "once", attempt + 1, server))

    def take(self):
        now = time.time()
        with self.lock:
            if self.retries:
                return self.retries.pop(0)
            if self.queue and self.queue[0][0] <= now:
                return self.queue.popleft()
        return None

    def read(self, rng):
        server = rng.randrange(len(self.ports))
        with self.lock:
            gid = rng.choice(self.known_ids) if self.known_ids else None
        kind = rng.choice(["/", "/games", "/api/games", "game", "api-game"])
        if kind == "game" and gid is not None:
            path = f"/games/{gid}"
        elif kind == "api-game" and gid is not None:
            path = f"/api/games/{gid}"
        elif kind in ("game", "api-game"):
            path = "/api/games"
        else:
            path = kind
        status, _, dt, err = self.request(server, "GET", path)
        self.record("read", server, status, dt, err)

    def client(self, k):
        rng = random.Random(self.args.seed * 1000 + k)
        while time.time() < self.end:
            item = self.take()
            if item is None:
                self.read(rng)
                continue
            _, f, mode, attempt, avoid = item
            servers = [s for s in range(len(self.ports)) if s != avoid] or [0]
            if mode == "pair" and len(self.ports) > 1:
                a, b = rng.sample(range(len(self.ports)), 2)
                other = threading.Thread(target=self.upload, args=(f, b, attempt))
                other.start()
                self.upload(f, a, attempt)
                other.join()
            else:
                self.upload(f, rng.choice(servers), attempt)


# ---------------------------------------------------------------------------------------------
# The checks.


def recount(db):
    """The kept counts, recomputed from the stored rows by the rules of kept.rs."""
    players = collections.defaultdict(set)
    for log_id, pid in db.query("SELECT DISTINCT log_id, player_id FROM seats"):
        players[int(log_id)].add(int(pid))
    tours = collections.defaultdict(set)
    for log_id, tid in db.query("SELECT log_id, tournament_id FROM tournament_games"):
        tours[int(log_id)].add(int(tid))
    lists = collections.Counter()
    rounds = 0
    faults = collections.Counter()
    rows = db.query("SELECT l.id, COALESCE(l.game, ''), v.valid, l.lead, v.rounds, COALESCE(v.fault_code, '') "
                    "FROM logs l JOIN verdicts v ON v.log_id = l.id")
    for i, game, valid, lead, r, fault in rows:
        i, valid, lead = int(i), int(valid) != 0, int(lead) != 0
        rounds += int(r)
        if not valid:
            faults[fault] += 1
        ps = [0] + (sorted(players[i]) if lead else [])
        ts = [0] + sorted(tours[i])
        for g in (["", game] if game else [""]):
            for v in (-1, int(valid)):
                for p in ps:
                    for t in ts:
                        shift = 10 if (p, t) == (0, 0) else 12 if 0 in (p, t) else None
                        if shift is not None:
                            lists[(p, t, g, v, i >> shift)] += 1
                        lists[(p, t, g, v, -1)] += 1
    totals = {"rounds": rounds,
              "players": int(db.query("SELECT COUNT(*) FROM players")[0][0]),
              "tournaments": int(db.query("SELECT COUNT(*) FROM tournaments")[0][0])}
    return {k: n for k, n in lists.items() if n}, totals, dict(faults), len(rows)


def kept(db):
    lists = {(int(p), int(t), g, int(v), int(b)): int(n)
             for p, t, g, v, b, n in db.query("SELECT player_id, tournament_id, game, valid, block, n FROM list_counts")}
    totals = {k: int(n) for k, n in db.query("SELECT name, n FROM kept_totals")}
    faults = {k: int(n) for k, n in db.query("SELECT code, n FROM fault_counts")}
    return {k: n for k, n in lists.items() if n}, totals, faults


def describe_diff(a, b, limit=5):
    keys = sorted(set(a) | set(b), key=repr)
    diff = [(k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]
    return diff[:limit], len(diff)


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--paifu", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target",
                                                   "release", "paifu"), help="the paifu binary (default: this tree's release build)")
    ap.add_argument("--sqlite", action="store_true", help="a SQLite file, one server, one worker, no kills (the comparison)")
    ap.add_argument("--duration", type=float, default=60, help="seconds the clients run (default 60)")
    ap.add_argument("--clients", type=int, default=60, help="client threads (default 60)")
    ap.add_argument("--servers", type=int, default=3, help="paifu serve processes on PostgreSQL (default 3)")
    ap.add_argument("--workers", type=int, default=4, help="paifu worker processes on PostgreSQL (default 4)")
    ap.add_argument("--files", type=int, default=600, help="distinct game files M; half queued, half uploaded (default 600)")
    ap.add_argument("--waves", type=int, default=5, help="the queued half is enqueued in this many waves over the run's first 2/3 (default 5)")
    ap.add_argument("--lease", type=int, default=5, help="the workers' --lease, seconds (default 5)")
    ap.add_argument("--idle-exit", type=int, default=20, help="the workers' --idle-exit, seconds (default 20)")
    ap.add_argument("--kill-at", type=float, default=1 / 3, help="when to SIGKILL a server and a worker, as a part of the run (default 1/3)")
    ap.add_argument("--restart-at", type=float, default=1 / 2, help="when to start them again (default 1/2)")
    ap.add_argument("--no-kill", action="store_true", help="kill nothing (implied by --sqlite)")
    ap.add_argument("--seed", type=int, default=29, help="seed of the clients' choices (default 29)")
    ap.add_argument("--workdir", help="folder for the cluster, the logs and the archive (default: a new temporary one)")
    ap.add_argument("--games-dir", default="/tmp/paifu-pg-fault-games", help="where the game files are kept between runs")
    ap.add_argument("--pg-bin", help="folder of PostgreSQL's initdb, postgres and psql")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (the cluster is stopped in any case)")
    args = ap.parse_args()
    if args.sqlite:
        args.servers, args.workers, args.no_kill = 1, 1, True
    paifu = os.path.abspath(args.paifu)
    if not os.access(paifu, os.X_OK):
        print(f"no paifu binary at {paifu}: run cargo build --release, or give --paifu", file=sys.stderr)
        return 2
    workdir = args.workdir or tempfile.mkdtemp(prefix="paifu-pg-fault-")
    os.makedirs(workdir, exist_ok=True)
    os.chmod(workdir, 0o755)  # the cluster's user reaches its folder inside
    try:
        db = Sqlite(os.path.join(workdir, "archive.db")) if args.sqlite else \
            Postgres(find_pg_bin(args.pg_bin), os.path.join(workdir, "pg"))
    except SetupError as e:
        print(f"setup: {e}", file=sys.stderr)
        return 2
    try:
        return run(args, paifu, workdir, db)
    except SetupError as e:
        print(f"setup: {e}", file=sys.stderr)
        return 2
    finally:
        db.stop()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"work folder kept: {workdir}")


def kill_all(procs):
    for s in procs.servers:
        if s["proc"].poll() is None:
            s["proc"].terminate()
    for w in procs.workers:
        if w["proc"].poll() is None:
            w["proc"].terminate()
    for p in [s["proc"] for s in procs.servers] + [w["proc"] for w in procs.workers]:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def run(args, paifu, workdir, db):
    loads = [os.getloadavg()[0]]
    log(f"load average before: {os.getloadavg()}")
    log(f"starting the database ({'SQLite' if args.sqlite else 'PostgreSQL'})")
    db.start()
    url = db.url()
    procs = Procs(paifu, url, workdir, args)
    try:
        return body(args, paifu, workdir, db, url, procs, loads)
    finally:
        kill_all(procs)


def body(args, paifu, workdir, db, url, procs, loads):
    files = prepare_games(paifu, os.path.join(args.games_dir, f"{args.files}-{args.seed}"), args.files, args.seed)
    if len(files) != args.files:
        raise SetupError(f"{len(files)} game files made, {args.files} asked")
    digest = digests(paifu, files)
    if len(set(digest.values())) != len(files):
        raise SetupError("the game files are not distinct")
    rng = random.Random(args.seed)
    shuffled = files[:]
    rng.shuffle(shuffled)
    queued, uploaded = shuffled[: len(files) // 2], shuffled[len(files) // 2:]
    token = procs.run("token", "create", "--db", url, "--name", "loadtest").stdout.strip().splitlines()[-1]
    waves = [queued[i::args.waves] for i in range(args.waves)]
    wave_dirs = []
    link_of = {}  # the name a queued file has in its wave's folder -> the file
    for i, wave in enumerate(waves):
        d = os.path.join(workdir, f"wave-{i}")
        os.makedirs(d)
        for f in wave:
            link = f"{os.path.basename(os.path.dirname(f))}-{os.path.basename(f)}"
            link_of[link] = f
            shutil.copy(f, os.path.join(d, link))
        wave_dirs.append(d)

    ports = [free_port() for _ in range(args.servers)]
    for i, port in enumerate(ports):
        procs.servers.append({"port": port, "proc": procs.start_server(i, port), "n": 0})
    log(f"{args.servers} servers on ports {ports}")
    for i in range(args.workers):
        procs.workers.append({"name": f"w{i}", "proc": procs.start_worker(f"w{i}")})
    log(f"{args.workers} workers (lease {args.lease} s, idle-exit {args.idle_exit} s)")

    start = time.time()
    end = start + args.duration
    load = Load(args, ports, token, uploaded, start, end)
    events = []  # (t, text)
    enqueued = []

    def enqueue(i):
        r = procs.run("ingest", "--queue", wave_dirs[i], "--db", url)
        enqueued.append(len(waves[i]))
        events.append((time.time() - start, f"wave {i}: {len(waves[i])} files queued"))

    wave_times = [i * (2 / 3) * args.duration / args.waves for i in range(args.waves)]
    killed_server = args.servers - 1
    killed_worker = 1 % args.workers
    killed_window = [None, None]
    killed_job = [None]
    wave_threads = []

    def director():
        plan = [(t, "wave", i) for i, t in enumerate(wave_times)]
        if not args.no_kill:
            plan += [(args.kill_at * args.duration, "kill", None), (args.restart_at * args.duration, "restart", None)]
        plan.sort(key=lambda x: x[0])
        for t, what, i in plan:
            delay = start + t - time.time()
            if delay > 0:
                time.sleep(delay)
            if what == "wave":
                t = threading.Thread(target=enqueue, args=(i,))
                t.start()
                wave_threads.append(t)
            elif what == "kill":
                s, w = procs.servers[killed_server], procs.workers[killed_worker]
                # The worker is killed while it holds a job, when it gets one within a while.
                wait_until = time.time() + 0.15 * args.duration
                while time.time() < wait_until:
                    held = db.query(f"SELECT id FROM jobs WHERE state = 'running' AND worker = '{w['name']}'")
                    if held:
                        killed_job[0] = int(held[0][0])
                        break
                    time.sleep(0.02)
                s["proc"].send_signal(signal.SIGKILL)
                w["proc"].send_signal(signal.SIGKILL)
                s["proc"].wait()
                w["proc"].wait()
                killed_window[0] = time.time() - start
                events.append((killed_window[0], f"SIGKILL server {killed_server} (port {s['port']}) and worker {w['name']}"
                                                 + (f" (holding job {killed_job[0]})" if killed_job[0] else " (idle)")))
            else:
                s = procs.servers[killed_server]
                s["n"] += 1
                s["proc"] = procs.start_server(killed_server, s["port"], s["n"])
                killed_window[1] = time.time() - start
                name = f"w{killed_worker}-restarted"
                procs.workers.append({"name": name, "proc": procs.start_worker(name)})
                events.append((killed_window[1], f"server {killed_server} answering again; worker {name} started"))

    queue_samples = []  # (t, jobs queued or running)
    sampling = [True]

    def sampler():
        last_load = time.time()
        while sampling[0]:
            time.sleep(0.5)
            try:
                n = int(db.query("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')")[0][0])
                queue_samples.append((time.time() - start, n))
            except (RuntimeError, sqlite3.Error):
                pass
            if time.time() < end and time.time() - last_load >= 5:
                loads.append(os.getloadavg()[0])
                last_load = time.time()

    d = threading.Thread(target=director)
    d.start()
    threading.Thread(target=sampler, daemon=True).start()
    log(f"{args.clients} clients for {args.duration:.0f} s; {len(uploaded)} files to upload, {len(queued)} to queue in {args.waves} waves")
    clients = [threading.Thread(target=load.client, args=(k,)) for k in range(args.clients)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    elapsed = time.time() - start
    d.join()
    for t in wave_threads:
        t.join()
    log(f"clients done after {elapsed:.1f} s; waiting for the workers to drain the queue and exit")
    for t, e in sorted(events):
        log(f"  at {t:5.1f} s: {e}")
    # Uploads still waiting (the run ended first) are reported, not sent.
    unsent = len(load.queue) + len(load.retries)
    deadline = time.time() + args.idle_exit + 10 * args.lease + 300
    for w in procs.workers:
        if w["proc"].poll() is None:
            try:
                w["proc"].wait(max(1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                log(f"worker {w['name']} still running after the deadline")
    drained = time.time() - start
    sampling[0] = False
    loads.append(os.getloadavg()[0])

    # -------------------------------------------------------------------------------- checks
    checks = []

    def check(name, ok, detail):
        checks.append((name, ok, detail))

    by_digest = collections.defaultdict(list)
    for i, dg in db.query("SELECT id, digest FROM logs"):
        by_digest[dg].append(int(i))
    acked = {f: a for f, a in load.acks.items() if a}
    bad = []
    for f, a in acked.items():
        ids = {x[0] for x in a}
        dgs = {x[1] for x in a}
        stored = by_digest.get(digest[f], [])
        if dgs != {digest[f]} or len(stored) != 1 or ids != set(stored):
            bad.append(f"{os.path.basename(f)}: acknowledged as {sorted(ids)} ({len(a)} answers), stored as {stored}")
    check("every acknowledged upload stored exactly once", not bad and acked,
          f"{len(acked)} files acknowledged ({sum(len(a) for a in acked.values())} acknowledgements, "
          f"{sum(1 for a in acked.values() for x in a if x[2])} of them new)"
          + (f"; wrong: {bad[:5]} ({len(bad)})" if bad else ""))
    twice = [(os.path.basename(f), by_digest[digest[f]]) for f in files if len(by_digest.get(digest[f], [])) > 1]
    missing_q = [os.path.basename(f) for f in queued if len(by_digest.get(digest[f], [])) != 1]
    check("no file stored twice; every queued file stored once", not twice and not missing_q,
          f"{sum(len(v) for v in by_digest.values())} entries for {len(by_digest)} digests"
          + (f"; twice: {twice[:5]}" if twice else "") + (f"; queued not stored once: {missing_q[:5]} ({len(missing_q)})" if missing_q else ""))
    jobs_out = procs.run("jobs", "--db", url).stdout.strip()
    first = jobs_out.splitlines()[0] if jobs_out else ""
    m = re.search(r"(\d+) queued, (\d+) running \((\d+) under a lease that passed\), (\d+) done, (\d+) failed$", first)
    nums = dict(zip(["queued", "running", "expired", "done", "failed"], map(int, m.groups()))) if m else {}
    job_rows = db.query("SELECT id, state, attempts, COALESCE(name, ''), COALESCE(result, ''), "
                        "COALESCE(done_at, 0), created_at FROM jobs WHERE kind = 'ingest'")
    total_q = sum(enqueued)
    wrong_jobs = []
    for jid, state, attempts, name, result, done_at, created in job_rows:
        if state != "done":
            wrong_jobs.append(f"job {jid} {state}")
            continue
        f = link_of.get(os.path.basename(name))
        entry = json.loads(result).get("entry") if result else None
        if f is None or by_digest.get(digest[f]) != [entry]:
            wrong_jobs.append(f"job {jid} ({name}) done as entry {entry}, its file stored as "
                              f"{by_digest.get(digest[f]) if f else '?'}")
    check("every queued job done exactly once, as its file's one entry",
          nums.get("done") == total_q == len(queued) == len(job_rows) and nums.get("queued") == 0
          and nums.get("running") == 0 and nums.get("failed") == 0 and not wrong_jobs,
          f"`paifu jobs`: {m.group(0) if m else repr(first)}; {total_q} enqueued" + (f"; {wrong_jobs[:5]}" if wrong_jobs else ""))
    retaken = sum(1 for r in job_rows if int(r[2]) > 1)
    if killed_job[0]:
        row = [r for r in job_rows if int(r[0]) == killed_job[0]]
        check("the job held by the killed worker was taken again and done once",
              bool(row) and row[0][1] == "done" and int(row[0][2]) >= 2,
              f"job {killed_job[0]}: " + (f"{row[0][1]}, {row[0][2]} attempts, result {row[0][4]}" if row else "missing"))

    r_lists, r_totals, r_faults, n_entries = recount(db)
    k_lists, k_totals, k_faults = kept(db)
    dl, nl = describe_diff(k_lists, r_lists)
    dt_, nt = describe_diff(k_totals, r_totals)
    df, nf = describe_diff(k_faults, r_faults)
    check("kept counts equal a fresh recount", nl == nt == nf == 0,
          f"{len(k_lists)} list counts, totals {k_totals}, faults {k_faults}"
          + (f"; differ: lists {dl} ({nl}), totals {dt_}, faults {df}" if nl or nt or nf else ""))
    overview = []
    for i, s in enumerate(procs.servers):
        st, data, _, err = load.request(i, "GET", "/api/overview")
        overview.append((i, st, data))
    ov_bad = []
    fresh = {
        "games": n_entries,
        "valid": int(db.query("SELECT COUNT(*) FROM verdicts WHERE valid <> 0")[0][0]),
        "players": int(db.query("SELECT COUNT(*) FROM players")[0][0]),
        "tournaments": int(db.query("SELECT COUNT(*) FROM tournaments")[0][0]),
        "rounds": int(db.query("SELECT COALESCE(SUM(rounds), 0) FROM verdicts")[0][0]),
        "per_game": sorted((g, int(n)) for g, n in db.query("SELECT COALESCE(game, ''), COUNT(*) FROM logs GROUP BY 1")),
    }
    fresh["invalid"] = fresh["games"] - fresh["valid"]
    for i, st, data in overview:
        if st != 200:
            ov_bad.append(f"server {i}: {st}")
            continue
        s = json.loads(data)["summary"]
        shown = {k: s[k] for k in ("games", "valid", "invalid", "players", "tournaments", "rounds")}
        shown["per_game"] = sorted((g or "", n) for g, n in s["per_game"])
        for k, v in fresh.items():
            if shown[k] != v:
                ov_bad.append(f"server {i}: {k} {shown[k]} shown, {v} counted")
    check("/api/overview of every server equals SELECT COUNT(*)", not ov_bad,
          f"{fresh['games']} entries, {fresh['valid']} valid, {fresh['players']} players, {fresh['rounds']} rounds, "
          f"per game {dict(fresh['per_game'])}" + (f"; {ov_bad}" if ov_bad else ""))

    survivors = [i for i in range(args.servers) if args.no_kill or i != killed_server]
    a = load.answers
    five = [x for x in a if x[2] in survivors and x[3] is not None and x[3] >= 500]
    lost_surv = [x for x in a if x[2] in survivors and x[3] is None]
    check("no 5xx answer from the servers never killed", not five,
          f"{len(five)} 5xx, {len(lost_surv)} requests without an answer, from servers {survivors}"
          + (f"; e.g. {five[:3]}" if five else ""))
    if lost_surv:
        check("every request to a server never killed was answered", False, f"{len(lost_surv)} without answer: {lost_surv[:3]}")

    # -------------------------------------------------------------------------------- figures
    answered = [x for x in a if x[3] is not None]
    reads = [x for x in answered if x[1] == "read"]
    ups = [x for x in answered if x[1] == "upload"]
    lat = lambda xs: f"p50 {pct([x[4] for x in xs], 50) * 1000:.1f} ms, p99 {pct([x[4] for x in xs], 99) * 1000:.1f} ms"
    statuses = collections.Counter((x[1], x[3]) for x in answered)
    print()
    print(f"== {'SQLite' if args.sqlite else 'PostgreSQL'}: {args.servers} server(s), {args.workers} worker(s), "
          f"{args.clients} clients, {args.duration:.0f} s, {args.files} files ==")
    print(f"answers: {len(answered)} in {elapsed:.1f} s = {len(answered) / elapsed:.0f}/s; all {lat(answered)}")
    print(f"reads: {len(reads)} ({len(reads) / elapsed:.0f}/s), {lat(reads)}")
    print(f"uploads: {len(ups)} answered ({lat(ups)}), {sum(len(v) for v in acked.values())} acknowledged "
          f"for {len(acked)} of {len(uploaded)} files; {unsent} not sent before the end")
    print(f"statuses: {dict(sorted(statuses.items(), key=repr))}")
    if not args.no_kill:
        ks = [x for x in a if x[2] == killed_server]
        lost = [x for x in ks if x[3] is None]
        k5 = [x for x in ks if x[3] is not None and x[3] >= 500]
        print(f"killed server {killed_server} (down {killed_window[0]:.1f}-{killed_window[1]:.1f} s): "
              f"{len(ks)} requests, {len(lost)} lost (no answer: "
              f"{dict(collections.Counter(x[5] for x in lost))}), {len(k5)} 5xx")
    done_jobs = sum(1 for r in job_rows if r[1] == "done")
    if done_jobs:
        # The time there was work in the queue, from the samples every 0.5 s.
        busy = sum(t1 - t0 for (t0, n0), (t1, _) in zip(queue_samples, queue_samples[1:]) if n0 > 0)
        last = max((t for t, n in queue_samples if n > 0), default=0)
        print(f"jobs: {done_jobs} done; {done_jobs / busy if busy else float('nan'):.1f}/s while the queue held some "
              f"({busy:.1f} s); the last left the queue at about {last:.0f} s; {retaken} taken more than once "
              f"(a worker killed, or a lease that passed); workers stopped at {drained:.0f} s")
    print(f"load average (1 min): before {loads[0]:.1f}, during {statistics.mean(loads[1:-1] or loads):.1f} "
          f"(max {max(loads):.1f}), after {loads[-1]:.1f}; {os.cpu_count()} cores")
    print()
    failed = 0
    for name, ok, detail in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
