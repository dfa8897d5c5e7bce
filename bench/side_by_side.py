#!/usr/bin/env python3
"""Side-by-side timing for docs/performance.md.

usage: ROUNDS=N python3 bench/side_by_side.py '{"name": "shell command", ...}'

Each command runs ROUNDS times (default 5), the commands interleaved (a round runs each once, in
order, so that both sides of a comparison see the same load), with RAYON_NUM_THREADS=1 (one
thread). /tmp/bench-out is removed before each run (the folder the import commands write).
Prints, per command, the wall time and the CPU time (user + system, of the command and its
children) in seconds: min and median. On a busy machine compare CPU times; wall times wait for
the CPU too."""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

rounds = int(os.environ.get("ROUNDS", "5"))
cmds = json.loads(sys.argv[1])
env = dict(os.environ, RAYON_NUM_THREADS="1")
wall = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
for _ in range(rounds):
    for name, cmd in cmds.items():
        shutil.rmtree("/tmp/bench-out", ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run(cmd, shell=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        dt = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            print(name, "exit", p.returncode, p.stderr[-300:].decode(errors="replace"))
        wall[name].append(dt)
        cpu[name].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
for name in cmds:
    w, c = wall[name], cpu[name]
    print(f"{name:34s} wall min {min(w):.3f} med {statistics.median(w):.3f} | "
          f"cpu min {min(c):.3f} med {statistics.median(c):.3f}")
