"""Pairs each `paifu score GAME` process with a `hands.py py GAME` run right after it, so that
both sides of each pair see the same load (docs/performance.md, "Where issue 25's targets
stand"), and prints the medians, the minimums and the median of the pairs' ratios.

    PYTHONPATH=DIR python3 bench/score/pairs.py GAME PAIFU HANDS ROUNDS

GAME riichi or mcr; PAIFU the binary; HANDS a file of `hands.py gen` lines; DIR as for hands.py.
Paifu's figure is the whole process's CPU time, Python's the library's calls only.
"""
import json
import os
import resource
import statistics
import subprocess
import sys

game, paifu, hands, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
hands_py = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hands.py")


def cpu_of(cmd, stdin):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin) as f:
        # A refused hand (no yaku) makes the exit status 1: the timing stands.
        subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


ps, ys, ratios = [], [], []
for _ in range(rounds):
    p = cpu_of([paifu, "score", game], hands)
    out = subprocess.run(["python3", hands_py, "py", game, hands], capture_output=True, text=True, check=True).stdout
    y = json.loads(out.strip().splitlines()[-1])["cpu_seconds"]
    ps.append(p)
    ys.append(y)
    ratios.append(y / p)
med_p, med_y = statistics.median(ps), statistics.median(ys)
print(
    f"{game} {paifu}: paifu cpu med {med_p:.3f} min {min(ps):.3f}; python med {med_y:.3f} min {min(ys):.3f}; "
    f"ratio of medians {med_y / med_p:.1f}x, of mins {min(ys) / min(ps):.1f}x, "
    f"median of pair ratios {statistics.median(ratios):.1f}x"
)
