#!/usr/bin/env python3
"""The scale figure of issue 29: GAMES games ingested by WORKERS `paifu worker` processes into one
PostgreSQL database (docs/deploy.md, "How long a million games takes").

The games are web/examples/bench_archive.rs's (200 players, 50 tournaments, "Cup 17" trusting a
key, "Star" in STAR games, 2% invalid), queued as ingest jobs by `bench_archive queue` while the
workers work them (`paifu worker --db URL --key KEY --batch BATCH`). Progress is appended to LOG
every INTERVAL seconds (jobs done and failed, games per second since the start and over the last
interval); the run ends when every game queued is done or failed. Run again, it resumes: the
queue goes on from the jobs already queued, and the workers take what is waiting (a job whose
worker was stopped is taken again when its lease passes).

  python3 bench/pg_scale.py --url postgresql://postgres@localhost/paifu?host=/tmp/pg --games 1000000 \\
      --star 50000 --workers 4 --batch 32 --log /tmp/pg-scale.log

The binaries are target/release/paifu and target/release/examples/bench_archive (build them with
`cargo build --release -p paifu --bin paifu` and `cargo build --release -p paifu-web --example
bench_archive`). psql is found beside --pg-bin's binaries or on PATH.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def psql_cmd(args):
    psql = os.path.join(args.pg_bin, "psql") if args.pg_bin else shutil.which("psql")
    if not psql or not os.path.exists(psql):
        sys.exit("psql not found: give --pg-bin (e.g. /usr/lib/postgresql/15/bin)")
    return [psql, "-Atq", "-d", args.url.replace("postgres://", "postgresql://", 1)]


def query(args, sql):
    r = subprocess.run(psql_cmd(args) + ["-c", sql], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"psql: {sql}: {r.stderr.strip()}")
    return r.stdout.strip()


def job_counts(args):
    out = query(args, "SELECT state, COUNT(*) FROM jobs GROUP BY state")
    counts = {"queued": 0, "running": 0, "done": 0, "failed": 0}
    for line in out.splitlines():
        state, n = line.split("|")
        counts[state] = int(n)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True, help="the PostgreSQL database (postgresql://...)")
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--star", type=int, default=50_000, help="games of the player Star")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--batch", type=int, default=32, help="paifu worker --batch")
    ap.add_argument("--key", default="/tmp/bench-referee.key", help="the key file bench_archive writes")
    ap.add_argument("--log", default="/tmp/pg-scale.log")
    ap.add_argument("--interval", type=float, default=30.0)
    ap.add_argument("--pg-bin", default=None, help="folder of psql")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release"), help="folder of paifu")
    args = ap.parse_args()

    paifu = os.path.join(args.bin, "paifu")
    bench = os.path.join(args.bin, "examples", "bench_archive")
    for b in (paifu, bench):
        if not os.path.exists(b):
            sys.exit(f"{b} is missing: build it first (see --help)")
    log = open(args.log, "a", buffering=1)

    def say(text):
        line = f"{time.strftime('%H:%M:%S')} {text}"
        print(line, flush=True)
        log.write(line + "\n")

    say(f"start: {args.games} games, {args.workers} workers, batch {args.batch}, load {os.getloadavg()}")
    queue_log = open(args.log + ".queue", "a")
    queuer = subprocess.Popen([bench, "queue", str(args.games), args.url, str(args.star), args.key],
                              stdout=queue_log, stderr=subprocess.STDOUT)
    # The key file is written first: wait for it before the workers read it.
    while not os.path.exists(args.key) and queuer.poll() is None:
        time.sleep(0.2)
    time.sleep(1)
    os.chmod(args.key, 0o600)  # paifu refuses a private key others can read
    workers = [
        subprocess.Popen([paifu, "worker", "--db", args.url, "--key", args.key, "--batch", str(args.batch),
                          "--name", f"scale-{i}", "--idle-exit", "3600"],
                         stdout=subprocess.DEVNULL, stderr=open(f"{args.log}.worker{i}", "a"))
        for i in range(args.workers)
    ]
    started = time.time()
    first = job_counts(args)
    base = first["done"] + first["failed"]
    last_t, last_n = started, base
    try:
        while True:
            time.sleep(args.interval)
            c = job_counts(args)
            n = c["done"] + c["failed"]
            now = time.time()
            queued_total = sum(c.values())
            say(f"done {c['done']} failed {c['failed']} queued {c['queued']} running {c['running']} "
                f"(queued so far {queued_total}); {(n - base) / (now - started):.0f} games/s since start, "
                f"{(n - last_n) / (now - last_t):.0f} in the last {now - last_t:.0f} s; load {os.getloadavg()[0]:.1f}")
            last_t, last_n = now, n
            if queuer.poll() is not None and c["queued"] == 0 and c["running"] == 0 and queued_total >= args.games:
                break
            if any(w.poll() is not None for w in workers):
                say("a worker stopped: see " + args.log + ".worker*")
                break
    finally:
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
        for w in workers:
            try:
                w.wait(timeout=60)
            except subprocess.TimeoutExpired:
                w.kill()
        if queuer.poll() is None:
            queuer.terminate()
            queuer.wait()
    secs = time.time() - started
    c = job_counts(args)
    size = int(query(args, "SELECT pg_database_size(current_database())"))
    games = query(args, "SELECT COUNT(*) FROM logs")
    say(f"end: {c['done'] + c['failed'] - base} jobs in {secs:.0f} s ({(c['done'] + c['failed'] - base) / secs:.0f}/s); "
        f"jobs {c}; {games} entries; database {size / 2**30:.2f} GiB; load {os.getloadavg()}")


if __name__ == "__main__":
    main()
