"""Provably fair randomness: a commitment to a game's seed that can be published before the first move.

A server draws the seed (and a secret salt) itself, publishes ``commitment(seed, salt)`` while the game
runs and reveals seed and salt once it is over; anyone can then recompute the hash and confirm that
every die and draw was fixed before the game began. The salt stops a viewer from guessing a small or
chosen seed by hashing candidates.

The hashed text is ``tabletown-seed:<seed in decimal>:<salt>`` in UTF-8, and the commitment is its
SHA-256 in lowercase hex. The browser's replay page computes exactly the same text.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

MAX_SEED = 2**63 - 1
SALT_HEX_CHARS = 32


def new_seed() -> int:
    """A seed nobody can predict (the operating system's CSPRNG), 0..2**63-1."""
    return secrets.randbits(63)


def new_salt() -> str:
    return secrets.token_hex(SALT_HEX_CHARS // 2)


def commitment(seed: int, salt: str) -> str:
    """SHA-256 (hex) of ``tabletown-seed:<seed>:<salt>``."""
    return hashlib.sha256(f"tabletown-seed:{int(seed)}:{salt}".encode()).hexdigest()


def check_commitment(seed: int, salt: str, expected: str) -> bool:
    """Whether ``seed`` and ``salt`` hash to the published ``expected`` commitment."""
    if not isinstance(salt, str) or not isinstance(expected, str):
        return False
    if not (salt.isascii() and expected.isascii()):  # ours are hex; compare_digest raises on the rest
        return False
    return hmac.compare_digest(commitment(seed, salt), expected.lower())
