"""The seeded random source every state draws from.

A thin subclass of :class:`random.Random` (C-speed draws) that clones by copying its internal state,
so a cloned game state continues with exactly the same future dice and shuffles.
"""

from __future__ import annotations

import random


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
