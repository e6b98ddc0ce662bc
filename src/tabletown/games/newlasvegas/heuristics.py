"""A cheap heuristic value of one sheet: points already secured plus the promise of the position.

Used by the greedy bot. It only reads the bot's own sheet and public facts (the projects).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from .data import (
    AVENUE_SLOTS,
    CRANE_MASK,
    NUM_AVENUES,
    SHOW_VALUES,
    SLOT_CRANE,
    STREET_CRANES,
    STREET_RANGE,
    UPGRADE_BOXES,
)
from .scoring import upgraded
from .sheet import EMPTY, Sheet, project_met

# Each avenue's size and a getter of its slots' numbers; the column of each PAR value.
_AVENUES = tuple((len(slots), itemgetter(*slots)) for slots in AVENUE_SLOTS)
_PAR_COLUMN = {p: f"par{p}" for p in (3, 4, 5)}
# Rough worth of one more yellow box per column (the next value minus the current, times use).
_UPGRADE_WORTH = 2.0


def _streets(sh: Sheet) -> tuple[int, int, list[int]]:
    """(slots that can still get a number, slots that never can, longest chain of each street).

    Memoised by each street's numbers and cranes: a round changes one or two streets, and the greedy
    bot evaluates thousands of sheets a game that differ elsewhere."""
    nums, built = sh.nums, sh.built
    good = dead = 0
    runs = []
    get = _STREET_CACHE.get
    for st, a, b, cranes in _STREET_KEYS:
        key = (st, built & cranes, *nums[a:b])
        hit = get(key)
        if hit is None:
            if len(_STREET_CACHE) >= _STREET_CACHE_SIZE:
                _STREET_CACHE.clear()
            g, d = fillable_street(nums, built, a, b)
            hit = _STREET_CACHE[key] = (g, d, sh.longest_run(st))
        good += hit[0]
        dead += hit[1]
        runs.append(hit[2])
    return good, dead, runs


_STREET_KEYS = tuple((st, a, b, STREET_CRANES[st]) for st, (a, b) in enumerate(STREET_RANGE))
_STREET_CACHE: dict[tuple[int, ...], tuple[int, int, int]] = {}
_STREET_CACHE_SIZE = 100_000


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
    good, dead, runs = _streets(sh)
    # Floats added in the same order as ever: the greedy bot's choices (and so every recorded game
    # and study) stay exactly as they were.
    value += 0.8 * good - 3.0 * dead
    for run in runs:
        value += 1.2 * run
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
        size, numbers = _AVENUES[a]
        opened = size - numbers(sh.nums).count(EMPTY)
        worth = 3.0 if not taken >> a & 1 else 1.0
        value += worth * (opened / size) ** 2
    if ctx.get("golf", True):
        holes = sh.holes()
        value += sum(upgraded(sh, _PAR_COLUMN[p]) for p in holes) * 0.9
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
    value += _UPGRADE_WORTH * sum(map(min, sh.ups, UPGRADE_BOXES))
    loans = sh.open_loans()
    spare = sh.vault + 2 - loans
    if spare < 0:
        value -= 4.0 * -spare
    value += 0.3 * (sh.built & CRANE_MASK).bit_count()
    return value
