#!/usr/bin/env python3
"""Random winning hands for `paifu score`, and the Python calculators scoring the same hands.

    hands.py gen riichi N SEED > riichi.jsonl   # one `paifu score riichi` input line per hand
    hands.py gen mcr N SEED > mcr.jsonl         # one `paifu score mcr` input line per hand
    hands.py py riichi riichi.jsonl             # python `mahjong` (2.1.0) scores them in-process
    hands.py py mcr mcr.jsonl                   # PyMahjongGB (1.4.0) scores them in-process

`py` converts every line to the library's own input first, then times only the library's calls
(in-process: no process start, no JSON), and prints one JSON object: hands, seconds (wall),
cpu_seconds (this process's CPU time: steadier on a busy machine), hands/s, and how many the
library refused. The libraries are not part of Paifu: install them outside the
project (`pip install --target DIR mahjong==2.1.0 PyMahjongGB==1.4.0`, then PYTHONPATH=DIR).
bench/score/run.sh runs the whole comparison; docs/performance.md has the figures.
"""

import json
import random
import sys
import time

SUITS = "mpsz"


def tile_text(kind):
    """A tile kind 0..33 in Paifu's notation: 0-8 man 1m-9m, 9-17 pin, 18-26 sou, 27-33 1z-7z."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def tiles_text(kinds):
    """Tile kinds in compact notation grouped by suit: 123m456p."""
    out = []
    for s in range(4):
        nums = sorted(k % 9 + 1 for k in kinds if k // 9 == s)
        if nums:
            out.append("".join(map(str, nums)) + SUITS[s])
    return "".join(out)


def winning_shape(rng, suits, honours, seven_pairs, meld_chance, kongs):
    """Four sets and a pair (or seven pairs); some sets melded. Returns (concealed kinds,
    melds as (kind name, kinds)), or None when a kind would be used five times."""
    counts = [0] * 34
    concealed, melds = [], []

    def kind_of():
        if honours and rng.random() < 0.25:
            return 27 + rng.randrange(7)
        return rng.choice(suits) * 9 + rng.randrange(9)

    if seven_pairs:
        kinds = rng.sample([k for k in range(34) if k < 27 and k // 9 in suits or k >= 27 and honours], 7)
        for k in kinds:
            concealed += [k, k]
        return concealed, melds
    for _ in range(4):
        if rng.random() < 0.6:
            b = rng.choice(suits) * 9 + rng.randrange(7)
            kinds, name = [b, b + 1, b + 2], "chi"
        else:
            k = kind_of()
            kinds, name = [k, k, k], "pon"
        for k in kinds:
            counts[k] += 1
        if rng.random() < meld_chance:
            if name == "pon" and kongs and counts[kinds[0]] == 3 and rng.random() < 0.25:
                name = rng.choice(["minkan", "ankan"])
                kinds = kinds + [kinds[0]]
                counts[kinds[0]] += 1
            melds.append((name, kinds))
        else:
            concealed += kinds
    p = kind_of()
    counts[p] += 2
    concealed += [p, p]
    if max(counts) > 4:
        return None
    return concealed, melds


def gen_riichi(rng, i):
    while True:
        shape = winning_shape(rng, [0, 1, 2], True, rng.random() < 0.1, 0.25, False)
        if shape is None:
            continue
        concealed, melds = shape
        used = [0] * 34
        for k in concealed + [k for _, ks in melds for k in ks]:
            used[k] += 1
        closed = not melds
        riichi = closed and rng.random() < 0.5
        dora = rng.randrange(34)
        ura = rng.randrange(34)
        used[dora] += 1
        if riichi:
            used[ura] += 1
        if max(used) > 4:
            continue
        hand = {
            "id": i,
            "hand": tiles_text(concealed),
            "melds": [f"{name}:{tiles_text(ks)}" for name, ks in melds],
            "win": tile_text(rng.choice(concealed)),
            "tsumo": rng.random() < 0.5,
            "riichi": riichi,
            "seat_wind": "ESWN"[rng.randrange(4)],
            "round_wind": "ES"[rng.randrange(2)],
            "dora": [tile_text(dora)],
        }
        if riichi:
            hand["ura"] = [tile_text(ura)]
        return hand


def gen_mcr(rng, i):
    while True:
        suits = rng.choice([[rng.randrange(3)], [0, 1], [0, 1, 2]])
        shape = winning_shape(rng, suits, rng.random() < 0.5, rng.random() < 0.05, 0.3, True)
        if shape is None:
            continue
        concealed, melds = shape
        return {
            "id": i,
            "hand": tiles_text(concealed),
            "melds": [f"{name}:{tiles_text(ks)}" for name, ks in melds],
            "win": tile_text(rng.choice(concealed)),
            "tsumo": rng.random() < 0.33,
            "flowers": rng.randrange(3),
            "wall_last": rng.random() < 0.05,
            "seat_wind": "ESWN"[rng.randrange(4)],
            "round_wind": "ESWN"[rng.randrange(4)],
        }


def kinds_of(text):
    """Tile kinds of compact notation (no red fives: the generator writes none)."""
    out, digits = [], []
    for c in text:
        if c.isdigit():
            digits.append(int(c))
        else:
            out += [SUITS.index(c) * 9 + d - 1 for d in digits]
            digits = []
    return out


def riichi_inputs(hands):
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld

    rules = OptionalRules(has_open_tanyao=True, has_aka_dora=False)
    out = []
    for h in hands:
        copies = [0] * 34

        def take(k):
            copies[k] += 1
            return k * 4 + copies[k] - 1

        concealed = [take(k) for k in kinds_of(h["hand"])]
        win_kind = kinds_of(h["win"])[0]
        win = next(t for t in concealed if t // 4 == win_kind)
        melds, tiles = [], list(concealed)
        for m in h["melds"]:
            name, text = m.split(":")
            ts = [take(k) for k in kinds_of(text)]
            tiles += ts
            melds.append(Meld(meld_type=Meld.CHI if name == "chi" else Meld.PON, tiles=ts, opened=True))
        dora = [take(kinds_of(d)[0]) for d in h["dora"]]
        ura = [take(kinds_of(d)[0]) for d in h.get("ura", [])]
        config = HandConfig(
            is_tsumo=h["tsumo"],
            is_riichi=h["riichi"],
            player_wind=EAST + "ESWN".index(h["seat_wind"]),
            round_wind=EAST + "ESWN".index(h["round_wind"]),
            options=rules,
        )
        out.append((tiles, win, melds, dora, config, ura))
    return out


def py_riichi(hands):
    from mahjong.hand_calculating.hand import HandCalculator

    inputs = riichi_inputs(hands)
    refused = 0
    start, cpu = time.perf_counter(), time.process_time()
    for tiles, win, melds, dora, config, ura in inputs:
        r = HandCalculator.estimate_hand_value(
            tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
        )
        refused += r.error is not None
    return time.perf_counter() - start, time.process_time() - cpu, refused


GB_SUITS = {"m": "W", "p": "B", "s": "T"}
GB_HONOURS = ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]  # 1z-4z winds, 5z white, 6z green, 7z red


def gb_tile(kind):
    if kind >= 27:
        return GB_HONOURS[kind - 27]
    return GB_SUITS["mps"[kind // 9]] + str(kind % 9 + 1)


def mcr_inputs(hands):
    out = []
    for h in hands:
        concealed = kinds_of(h["hand"])
        win = kinds_of(h["win"])[0]
        concealed.remove(win)
        packs = []
        for m in h["melds"]:
            name, text = m.split(":")
            ks = kinds_of(text)
            if name == "chi":
                packs.append(("CHI", gb_tile(ks[1]), 1 + (ks[0] % 3)))
            elif name == "pon":
                packs.append(("PENG", gb_tile(ks[0]), 1 + (ks[0] % 3)))
            else:
                packs.append(("GANG", gb_tile(ks[0]), 0 if name == "ankan" else 1 + (ks[0] % 3)))
        out.append(
            (
                tuple(packs),
                tuple(gb_tile(k) for k in concealed),
                gb_tile(win),
                h["flowers"],
                h["tsumo"],
                False,
                False,
                h["wall_last"],
                "ESWN".index(h["seat_wind"]),
                "ESWN".index(h["round_wind"]),
            )
        )
    return out


def py_mcr(hands):
    from MahjongGB import MahjongFanCalculator

    inputs = mcr_inputs(hands)
    refused = 0
    start, cpu = time.perf_counter(), time.process_time()
    for args in inputs:
        try:
            MahjongFanCalculator(*args)
        except Exception:
            refused += 1
    return time.perf_counter() - start, time.process_time() - cpu, refused


def main(argv):
    if len(argv) == 5 and argv[1] == "gen" and argv[2] in ("riichi", "mcr"):
        rng = random.Random(argv[4])
        gen = gen_riichi if argv[2] == "riichi" else gen_mcr
        out = sys.stdout
        for i in range(int(argv[3])):
            out.write(json.dumps(gen(rng, i), separators=(",", ":")) + "\n")
        return 0
    if len(argv) == 4 and argv[1] == "py" and argv[2] in ("riichi", "mcr"):
        with open(argv[3]) as f:
            hands = [json.loads(line) for line in f if line.strip()]
        seconds, cpu, refused = (py_riichi if argv[2] == "riichi" else py_mcr)(hands)
        print(
            json.dumps(
                {
                    "hands": len(hands),
                    "seconds": round(seconds, 4),
                    "cpu_seconds": round(cpu, 4),
                    "hands_per_s": round(len(hands) / seconds),
                    "refused": refused,
                }
            )
        )
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
