#!/bin/sh
# The inputs of docs/performance.md's import figures: the 31 real Tenhou games of
# ../shared/real-logs/tenhou twenty times (620 games), as tenhou.net/6 JSON (t620), imported
# (i620: JSON Lines with the source embedded; b620: the same logs in binary) and as plain mjai
# (m620: paifu export mjai without the embedded Paifu log, as converters write it; what
# libriichi's validate_logs and paifu import mjai read).
# usage: bench/make_inputs.sh PAIFU OUT    (PAIFU: a release build of paifu; OUT: a folder)
set -eu
PAIFU=$1; OUT=$2
SRC=$(dirname "$0")/../../shared/real-logs/tenhou
mkdir -p "$OUT/t620" "$OUT/i31" "$OUT/b620" "$OUT/m620"
for f in "$SRC"/*.json; do
  b=$(basename "$f" .json); [ "$b" = manifest ] && continue
  for k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do cp "$f" "$OUT/t620/$b-$k.json"; done
done
RAYON_NUM_THREADS=1 "$PAIFU" import tenhou "$OUT/t620" -o "$OUT/i620" -q
"$PAIFU" import tenhou "$SRC" -o "$OUT/i31" -q
for f in "$OUT"/i620/*.paifu.jsonl; do "$PAIFU" convert "$f" -o "$OUT/b620/$(basename "$f" .jsonl)" >/dev/null; done
for f in "$OUT"/i31/*.paifu.jsonl; do
  b=$(basename "$f" .paifu.jsonl)
  "$PAIFU" export mjai "$f" -o "$OUT/m31.tmp" >/dev/null
  python3 - "$OUT/m31.tmp" "$OUT/m620/$b" <<'PY'
import json, sys
out = []
for line in open(sys.argv[1], encoding="utf-8").read().splitlines():
    e = json.loads(line)
    if e.get("type") == "start_game":
        e.pop("paifu", None)
    out.append(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
text = "\n".join(out) + "\n"
for k in range(1, 21):
    open(f"{sys.argv[2]}-{k:02}.json", "w", encoding="utf-8").write(text)
PY
done
rm -f "$OUT/m31.tmp"
# i620ns, b620ns: the same logs without the embedded source (meta.source removed from the
# header; the source's digest stays), checked by the core validator alone.
mkdir -p "$OUT/i620ns" "$OUT/b620ns"
python3 - "$OUT/i620" "$OUT/i620ns" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    lines = open(os.path.join(src, name), encoding="utf-8").read().split("\n")
    header = json.loads(lines[0])
    header.get("meta", {}).pop("source", None)
    lines[0] = json.dumps(header, ensure_ascii=False, separators=(",", ":"))
    open(os.path.join(dst, name), "w", encoding="utf-8").write("\n".join(lines))
PY
for f in "$OUT"/i620ns/*.paifu.jsonl; do "$PAIFU" convert "$f" -o "$OUT/b620ns/$(basename "$f" .jsonl)" >/dev/null; done
# b31, m31: the first copy of each game of b620 and m620; sim199: games 1-199 of
# `paifu simulate riichi --seed 1` (the same files as the first 199 of a 2,000-game series).
mkdir -p "$OUT/b31" "$OUT/m31"
for f in "$OUT"/b620/*-01.paifu; do cp "$f" "$OUT/b31/"; done
for f in "$OUT"/m620/*-01.json; do cp "$f" "$OUT/m31/"; done
"$PAIFU" simulate riichi --games 199 --seed 1 --format binary -o "$OUT/sim199" >/dev/null
