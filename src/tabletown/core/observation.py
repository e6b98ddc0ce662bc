"""Shared helpers for the games' ``observe.py`` encoders (numbers for learning agents).

An encoder that gathers small integers from the state into bytes can turn them into its float
observation with one NumPy ``take`` through a look-up table: :func:`byte_tables` builds that table.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def byte_tables(functions: list[Callable[[int], float]]) -> tuple[np.ndarray, np.ndarray]:
    """The look-up table and each output's row start in it: ``table[base[j] + v]`` is output ``j``'s
    number for byte ``v``. Outputs that compute the same numbers share a row, which keeps the table
    small enough to stay in the processor's cache."""
    rows: dict[bytes, int] = {}
    base = []
    for function in functions:
        row = np.array([function(v) for v in range(256)], dtype=np.float32).tobytes()
        base.append(256 * rows.setdefault(row, len(rows)))
    table = np.frombuffer(b"".join(rows), dtype=np.float32).copy()
    return table, np.array(base, dtype=np.intp)
