"""Reference implementation of Paifu's random stream, seed commitment, the postcard encoding of
a Tien Zi Que log and its digest chain (docs/log-format.md).

Independent of the Rust code: it exists so that the known-answer vectors in the docs and tests
come from a second implementation, written from the specification. Needs the `blake3` package
from PyPI.

    python3 docs/reference/paifu_reference.py
"""
import blake3

SEED_FROM_TEXT = "paifu 2026-11 seed from text v1"
SEED_COMMITMENT = "paifu 2026-11 seed commitment v1"
HEADER = "paifu 2026-11 log header v1"
RECORD = "paifu 2026-11 log record v1"


def seed_from_text(text: str) -> bytes:
    try:
        b = bytes.fromhex(text)
        if len(b) == 32 and len(text) == 64:
            return b
    except ValueError:
        pass
    return blake3.blake3(text.encode(), derive_key_context=SEED_FROM_TEXT).digest()


def commitment(seed: bytes) -> bytes:
    return blake3.blake3(seed, derive_key_context=SEED_COMMITMENT).digest()


class Stream:
    def __init__(self, seed: bytes, label: str):
        self.hasher = blake3.blake3(label.encode(), key=seed)
        self.pos = 0

    def read(self, n: int) -> bytes:
        out = self.hasher.digest(length=n, seek=self.pos)
        self.pos += n
        return out

    def next_u64(self) -> int:
        return int.from_bytes(self.read(8), "little")

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        zone = 2**64 - (2**64 % n)
        while True:
            x = self.next_u64()
            if x < zone:
                return x % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def child(seed: bytes, label: str) -> bytes:
    return Stream(seed, label).read(32)


# --- postcard, the subset Paifu uses ---------------------------------------------------------

def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n: int) -> bytes:
    return varint((n << 1) ^ (n >> 63) if n < 0 else n << 1)


def string(s: str) -> bytes:
    b = s.encode()
    return varint(len(b)) + b


def option(value, encode) -> bytes:
    return b"\x00" if value is None else b"\x01" + encode(value)


def opt_value(v) -> bytes:
    if isinstance(v, bool):
        return varint(0) + (b"\x01" if v else b"\x00")
    if isinstance(v, int):
        return varint(1) + zigzag(v)
    return varint(2) + string(v)


def header_bytes(h: dict) -> bytes:
    """The canonical header: the seed left out, its commitment in."""
    out = varint(h["paifu"]) + string(h["game"]) + string(h["ruleset"])
    out += varint(len(h["options"])) + b"".join(string(k) + opt_value(v) for k, v in sorted(h["options"].items()))
    out += string(h["engine"])
    out += varint(len(h["seats"])) + b"".join(string(s) for s in h["seats"])
    out += option(None, None)  # seed: never in the digest
    out += option(commitment(h["seed"]), lambda c: c)
    out += option(None, None)  # source
    out += varint(len(h["meta"])) + b"".join(string(k) + string(v) for k, v in sorted(h["meta"].items()))
    return out


KINDS = "123456789ESWNRQ"
COLOURS = "bgrwk"


def card(c: str) -> bytes:
    if c == "Q":
        return bytes([14 * 5 + 4])
    return bytes([KINDS.index(c[0]) * 5 + COLOURS.index(c[1])])


def tzq_action(a: str) -> bytes:
    w = a.split()
    if w[0] == "draw":
        return varint(0)
    if w[0] == "discard":
        return varint(1) + card(w[1])
    if w[0] == "pong":  # pong A B C keep K, cards sorted by their byte
        cs = sorted(w[1:4], key=card)
        return varint(2) + b"".join(card(c) for c in cs) + card(w[5])
    if w[0] == "chow":  # chow A B take T keep K
        cs = sorted(w[1:3], key=card)
        return varint(3) + b"".join(card(c) for c in cs) + card(w[4]) + card(w[6])
    raise ValueError(a)


def record_bytes(r: dict) -> bytes:
    out = varint(r["seq"]) + bytes([r["seat"]]) + tzq_action(r["action"])
    claim = r.get("claim")
    def enc_claim(c):
        ints = lambda xs: varint(len(xs)) + b"".join(zigzag(x) for x in xs)
        return option(c.get("round"), ints) + option(c.get("final"), ints)
    return out + option(claim, enc_claim)


def chain(h: dict, records: list) -> list:
    link = blake3.blake3(header_bytes(h), derive_key_context=HEADER).digest()
    links = []
    for r in records:
        link = blake3.blake3(link + record_bytes(r), derive_key_context=RECORD).digest()
        links.append(link)
    return links


# The worked example of docs/log-format.md.
EXAMPLE_HEADER = {
    "paifu": 1, "game": "tzq", "ruleset": "standard", "options": {}, "engine": "paifu-core 0.1.0",
    "seats": ["Aiko", "Bence"], "seed": seed_from_text("paifu"), "meta": {"event": "worked example"},
}
EXAMPLE_RECORDS = [
    {"seq": 0, "seat": 0, "action": "draw"},
    {"seq": 1, "seat": 0, "action": "discard 9w"},
    {"seq": 2, "seat": 1, "action": "chow 7b 8g take 9w keep 9w", "claim": {"round": [0, 0]}},
]


if __name__ == "__main__":
    seed = seed_from_text("paifu")
    print("seed_from_text('paifu') =", seed.hex())
    print("commitment =", commitment(seed).hex())
    s = Stream(seed, "example")
    print("stream 'example' next_u64 x3 =", [s.next_u64() for _ in range(3)])
    s = Stream(seed, "example/below")
    print("stream 'example/below' below(6) x12 =", [s.below(6) for _ in range(12)])
    s = Stream(seed, "example/shuffle")
    items = list(range(10))
    s.shuffle(items)
    print("stream 'example/shuffle' shuffle(0..10) =", items)
    print("child(seed, 'game/0') =", child(seed, "game/0").hex())
    # The deal of TZQ round 1: the 54 cards in data order shuffled with 'tzq/round/1/deal'.
    deck = []
    for line in open(__file__.rsplit("/", 3)[0] + "/core/data/tzq-deck.txt"):
        line = line.split("#")[0].split()
        if not line:
            continue
        kind, colours = line[0], line[1:]
        deck += ["Q" if kind == "Q" else kind + c for c in colours]
    s = Stream(seed, "tzq/round/1/deal")
    s.shuffle(deck)
    print("tzq round 1 deal, first 10 =", deck[:10])
    print("tzq first starter =", Stream(seed, "tzq/first").below(2))
    print("worked example header bytes =", header_bytes(EXAMPLE_HEADER).hex())
    for r in EXAMPLE_RECORDS:
        print("worked example record", r["seq"], "bytes =", record_bytes(r).hex())
    for i, link in enumerate(chain(EXAMPLE_HEADER, EXAMPLE_RECORDS)):
        print("worked example link", i, "=", link.hex())
