"""Reference implementation of Paifu's random stream and seed commitment (docs/log-format.md).

Independent of the Rust code: it exists so that the known-answer vectors in the docs and tests
come from a second implementation. Needs the `blake3` package from PyPI.

    python3 docs/reference/paifu_random.py
"""
import blake3

SEED_FROM_TEXT = "paifu 2026-11 seed from text v1"
SEED_COMMITMENT = "paifu 2026-11 seed commitment v1"


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
