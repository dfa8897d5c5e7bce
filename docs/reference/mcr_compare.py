"""Compares Paifu's MCR fan calculator with another one over seeded random winning hands.

Generates random winning hands (four sets and a pair with 0-4 melds, a quarter of them of one
suit and half with honours; seven pairs, thirteen orphans, the knitted shapes; random
situations), scores each with `paifu score mcr` and with the calculator of
ChineseOfficialMahjongHelper as packaged in `pymahjonggb` (PyPI), and prints how many totals and
fan lists agree and an example of each kind of difference (docs/rules/mcr.md, "Checked against
another calculator").

    pip install pymahjonggb
    python3 docs/reference/mcr_compare.py 50000 11 -- cargo run --release --quiet -- score mcr

Arguments: the number of hands, the seed, then the command that reads Paifu's JSON lines.
"""
import collections
import json
import random
import re
import subprocess
import sys

from MahjongGB import MahjongFanCalculator


def name(k):
    return "%d%s" % (k % 9 + 1, "mps"[k // 9]) if k < 27 else "%dz" % (k - 26)


def text(kinds):
    out = ""
    for s, ch in ((0, "m"), (1, "p"), (2, "s")):
        d = "".join(str(k % 9 + 1) for k in sorted(kinds) if k < 27 and k // 9 == s)
        out += d + ch if d else ""
    d = "".join(str(k - 26) for k in sorted(kinds) if k >= 27)
    return out + (d + "z" if d else "")


def kinds_of(t):
    out, digits = [], []
    for ch in t:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = {"m": -1, "p": 8, "s": 17, "z": 26}[ch]
            out += [base + x for x in digits]
            digits = []
    return out


class Hands:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def suits(self):
        mode = self.r.random()
        suits = [self.r.randrange(3)] if mode < 0.25 else self.r.sample(range(3), 2) if mode < 0.5 else [0, 1, 2]
        return suits, self.r.random() < 0.5

    def kind(self, suits, honours, p=0.35):
        if honours and self.r.random() < p:
            return 27 + self.r.randrange(7)
        return self.r.choice(suits) * 9 + self.r.randrange(9)

    def set_(self, count, suits, honours):
        for _ in range(50):
            if self.r.random() < 0.5:
                b = self.r.choice(suits) * 9 + self.r.randrange(7)
                ks, kind = [b, b + 1, b + 2], "chow"
            else:
                ks, kind = [self.kind(suits, honours)] * 3, "pung"
            if all(count[k] + ks.count(k) <= 4 for k in ks):
                for k in ks:
                    count[k] += 1
                return kind, ks
        return None

    def pair(self, count, suits, honours):
        for _ in range(30):
            k = self.kind(suits, honours, 0.3)
            if count[k] + 2 <= 4:
                count[k] += 2
                return k
        return None

    def standard(self):
        suits, honours = self.suits()
        count = [0] * 34
        sets = [self.set_(count, suits, honours) for _ in range(4)]
        if None in sets:
            return None
        pair = self.pair(count, suits, honours)
        if pair is None:
            return None
        melds, concealed = [], [pair, pair]
        melded = self.r.choice([0, 0, 1, 1, 2, 3, 4])
        for i, (kind, ks) in enumerate(sets):
            four = kind == "pung" and count[ks[0]] == 3
            if i < melded and kind == "chow":
                melds.append("chi:" + text(ks))
            elif i < melded:
                if four and self.r.random() < 0.3:
                    count[ks[0]] += 1
                    melds.append(self.r.choice(["minkan", "ankan", "kakan"]) + ":" + text([ks[0]] * 4))
                else:
                    melds.append("pon:" + text(ks))
            elif four and self.r.random() < 0.15:
                count[ks[0]] += 1
                melds.append("ankan:" + text([ks[0]] * 4))
            else:
                concealed += ks
        return concealed, melds

    def special(self):
        r = self.r.random()
        if r < 0.4:
            if self.r.random() < 0.1:
                s, start = self.r.randrange(3), self.r.randrange(3)
                return [s * 9 + start + i for i in range(7) for _ in (0, 1)], []
            suits, honours = self.suits()
            count, ks = [0] * 34, []
            while len(ks) < 14:
                k = self.kind(suits, honours, 0.3)
                if count[k] + 2 <= 4:
                    count[k] += 2
                    ks += [k, k]
            return ks, []
        yaochu = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
        if r < 0.55:
            return yaochu + [self.r.choice(yaochu)], []
        rows = self.r.choice([(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)])
        knitted = [rows[i] * 9 + i + 3 * j for i in range(3) for j in range(3)]
        if r < 0.8:
            return self.r.sample(knitted + list(range(27, 34)), 14), []
        count = [0] * 34
        for k in knitted:
            count[k] += 1
        s = self.set_(count, [0, 1, 2], True)
        pair = self.pair(count, [0, 1, 2], True)
        if s is None or pair is None:
            return None
        if self.r.random() < 0.3:
            return knitted + [pair, pair], [("chi:" if s[0] == "chow" else "pon:") + text(s[1])]
        return knitted + [pair, pair] + s[1], []

    def hand(self, i):
        while True:
            h = self.special() if self.r.random() < 0.15 else self.standard()
            if not h:
                continue
            concealed, melds = h
            win = self.r.choice(concealed)
            tsumo = self.r.random() < 0.4
            kongs = any(m.split(":")[0] in ("minkan", "ankan", "kakan") for m in melds)
            kong = self.r.random() < 0.1 and (kongs or not tsumo)
            copies = concealed.count(win) + sum(kinds_of(m.split(":")[1]).count(win) for m in melds)
            if kong and not tsumo and copies > 1:
                continue
            return {
                "id": i, "hand": text(concealed), "melds": melds, "win": name(win), "tsumo": tsumo,
                "flowers": self.r.choice([0, 0, 0, 1, 2]),
                "last_tile": self.r.random() < 0.1 and concealed.count(win) == 1,
                "kong_related": kong, "wall_last": self.r.random() < 0.05 and not kong,
                "seat_wind": self.r.choice("ESWN"), "round_wind": self.r.choice("ESWN"),
            }


def reference_tile(t):
    n, s = t[0], t[1]
    if s == "z":
        return "F" + n if int(n) <= 4 else {5: "J3", 6: "J2", 7: "J1"}[int(n)]
    return {"m": "W", "p": "B", "s": "T"}[s] + n


def reference(h):
    """The other calculator's fan of a hand: [(name, value, count)]."""
    tiles = [reference_tile(name(k)) for k in kinds_of(h["hand"])]
    win = reference_tile(h["win"])
    tiles.remove(win)
    packs = []
    for m in h["melds"]:
        kind, ts = m.split(":")
        first = reference_tile(name(sorted(kinds_of(ts))[1]))
        packs.append({"chi": ("CHI", first, 1), "pon": ("PENG", first, 1), "ankan": ("GANG", first, 0)}.get(kind, ("GANG", first, 1)))
    fans = MahjongFanCalculator(
        tuple(packs), tuple(tiles), win, h["flowers"], h["tsumo"], h["last_tile"], h["kong_related"], h["wall_last"],
        "ESWN".index(h["seat_wind"]), "ESWN".index(h["round_wind"]), verbose=True)
    snake = lambda n: {"two_dragons_pungs": "two_dragon_pungs", "all_five": "all_fives"}.get(
        re.sub(r"[^a-z]+", "_", n.lower()).strip("_"), re.sub(r"[^a-z]+", "_", n.lower()).strip("_"))
    return [(snake(f[3]), f[0], f[1]) for f in fans]


def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else ["paifu", "score", "mcr"]
    gen = Hands(seed)
    hands = [gen.hand(i) for i in range(n)]
    out = subprocess.run(command, input="".join(json.dumps(h) + "\n" for h in hands), capture_output=True, text=True)
    ours = [json.loads(l) for l in out.stdout.splitlines()]
    totals, lists, kong_pair = 0, 0, 0
    kinds, examples = collections.Counter(), {}
    for h, o in zip(hands, ours):
        ref = reference(h)
        ref_total = sum(v * c for _, v, c in ref)
        mixed = any(name == "concealed_kong_and_melded_kong" for name, _, _ in ref)
        kong_pair += mixed
        if not o["ok"]:
            key = ("refused", o["error"])
        elif o["fan"] == ref_total or (mixed and ref_total - o["fan"] == 2):
            totals += 1
            mine = sorted((f["name"], f["count"]) for f in o["fans"])
            theirs = sorted((name, c) for name, _, c in ref)
            if mine == theirs:
                lists += 1
                continue
            key = ("list", tuple(sorted(set(mine) - set(theirs))), tuple(sorted(set(theirs) - set(mine))))
        else:
            key = ("total", o["fan"] - ref_total)
        kinds[key] += 1
        examples.setdefault(key, h)
    print(f"{n} hands (seed {seed}): totals agree on {totals} ({kong_pair} with one concealed and one melded kong, "
          f"3 fan here and 5 there), fan lists on {lists}")
    for key, count in kinds.most_common(20):
        print(count, key, json.dumps(examples[key]))


if __name__ == "__main__":
    main()
