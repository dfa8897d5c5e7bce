#!/bin/sh
# The whole-process comparison of `paifu score` with the Python calculators (docs/performance.md):
# 50,000 random riichi hands and 100,000 random MCR hands (seed 1), each side run three times,
# interleaved, so that both see the same load.
#
#     PYTHONPATH=DIR bench/score/run.sh [PAIFU]
#
# PAIFU: the command to time (default target/release/paifu). DIR holds python `mahjong` 2.1.0 and
# PyMahjongGB 1.4.0, installed outside the project (see hands.py). Paifu's line: wall and CPU time
# of the whole process (reading and writing every JSON line); Python's: the library's calls only.
set -e
here=$(dirname "$0")
paifu=${1:-target/release/paifu}
dir=$(mktemp -d)
python3 "$here/hands.py" gen riichi 50000 1 >"$dir/riichi.jsonl"
python3 "$here/hands.py" gen mcr 100000 1 >"$dir/mcr.jsonl"
for game in riichi mcr; do
    for _ in 1 2 3; do
        # A refused hand (no yaku) makes the exit status 1: the timing stands.
        /usr/bin/time -f "paifu score $game: %e s wall, %U s user + %S s system" \
            "$paifu" score "$game" <"$dir/$game.jsonl" >/dev/null || true
        python3 "$here/hands.py" py "$game" "$dir/$game.jsonl"
    done
done
rm -r "$dir"
