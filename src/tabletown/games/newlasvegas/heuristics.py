"""A cheap heuristic value of one sheet: points already secured plus the promise of the position.

Used by the greedy bot. It only reads the bot's own sheet and public facts (the projects).
"""

from __future__ import annotations

from typing import Any

from .data import (
    AVENUE_SLOTS,
    CRANE_SLOTS,
    NUM_AVENUES,
    NUM_STREETS,
    SHOW_VALUES,
    SLOT_CRANE,
    STREET_RANGE,
    UPGRADE_BOXES,
)
from .scoring import upgraded
from .sheet import Sheet, project_met

# Rough worth of one more yellow box per column (the next value minus the current, times use).
_UPGRADE_WORTH = 2.0


def _fillable(sh: Sheet) -> tuple[float, float]:
    """(slots that can still get a number, slots that never can) over all streets."""
    good = dead = 0.0
    for a, b in STREET_RANGE:
        g, d = fillable_street(sh.nums, sh.built, a, b)
        good += g
        dead += d
    return good, dead


def fillable_street(nums: list[int], built: int, a: int, b: int) -> tuple[int, int]:
    """``_fillable`` for the street of slots ``a`` to ``b - 1``."""
    good = dead = 0
    # Cards run 1-15; 0, 16 and 17 need the easy-opening bonus, so they do not count as room.
    lo, gap = 0, 0
    for s in range(a, b + 1):
        v = nums[s] if s < b else 16
        if s < b and v < 0:
            if not SLOT_CRANE[s] or built >> s & 1:
                gap += 1
            continue
        room = v - lo - 1
        good += min(gap, room)
        dead += max(0, gap - room)
        lo, gap = v, 0
    return good, dead


def evaluate(sh: Sheet, ctx: dict[str, Any]) -> float:
    value = 0.0
    good, dead = _fillable(sh)
    value += 0.8 * good - 3.0 * dead
    for st in range(NUM_STREETS):
        value += 1.2 * sh.longest_run(st)
    value += sum(sh.show_points())
    # Stars still usable for shows are worth a little.
    for c in range(2):
        if sh.shows[c] < len(SHOW_VALUES[c]):
            value += 0.5
    grands, smalls = sh.hotel_counts()
    value += grands * upgraded(sh, "grand") + smalls * upgraded(sh, "small")
    taken = ctx.get("grand_taken", 0)
    for a in range(NUM_AVENUES):
        if sh.hotels[a]:
            continue
        slots = AVENUE_SLOTS[a]
        opened = sum(1 for s in slots if sh.nums[s] >= 0)
        worth = 3.0 if not taken >> a & 1 else 1.0
        value += worth * (opened / len(slots)) ** 2
    if ctx.get("golf", True):
        holes = sh.holes()
        value += sum(upgraded(sh, f"par{p}") for p in holes) * 0.9
    value += 3.0 * (sh.opened_carpets("vip") + sh.opened_carpets("luxury"))
    value += 1.0 * bin(sh.carpets).count("1")
    value += sh.segments_missing() * upgraded(sh, "limo") * 0.5
    if sh.route_done:
        value += 2.0
    value += sum(sh.proj)
    for pid, got in zip(ctx.get("projects", ()), sh.proj, strict=False):
        if not got and project_met(pid, sh):
            value += 6.0
    value += 0.6 * sh.unused_marks()
    value += _UPGRADE_WORTH * sum(min(u, b) for u, b in zip(sh.ups, UPGRADE_BOXES, strict=True))
    loans = sh.open_loans()
    spare = sh.vault + 2 - loans
    if spare < 0:
        value -= 4.0 * -spare
    value += 0.3 * sum(1 for s in CRANE_SLOTS if sh.built >> s & 1)
    return value
