"""The seeded random source every state draws from.

A thin subclass of :class:`random.Random` (C-speed draws) that clones by copying its internal state,
so a cloned game state continues with exactly the same future dice and shuffles.
"""

from __future__ import annotations

import random
from typing import Any


class SeededRNG(random.Random):
    __slots__ = ()

    def clone(self) -> SeededRNG:
        twin = SeededRNG.__new__(SeededRNG)
        twin.setstate(self.getstate())
        return twin

    def die(self) -> int:
        """One six-sided die (faster than randint and identical across platforms)."""
        return int(self.random() * 6) + 1


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (no use of hash(), which is salted per process)."""
    import hashlib

    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def standard_draws(rng: random.Random) -> bool:
    """Whether ``rng``'s ``choice`` and ``shuffle`` are the standard library's, drawing with
    ``_randbelow_with_getrandbits`` (``getrandbits(n.bit_length())`` until below ``n``). Only then may
    hot code write those draws out (:func:`shuffle`, the driver's random agent) and still make the
    same games; any other generator is simply asked."""
    kind = type(rng)
    return (
        kind.choice is random.Random.choice
        and kind.shuffle is random.Random.shuffle
        and kind._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
    )


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)`` written out: the same Fisher-Yates swaps from the same random bits,
    without two Python calls per item (decks are shuffled in every search determinization)."""
    if not standard_draws(rng):
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
