"""One architect's two sheets (city plan + score sheet) and the pure rules that read them.

Everything here works on a single :class:`Sheet`; cross-player rules (races, rankings, the bank)
live in ``rounds.py`` and ``scoring.py``. Sets of slots are int bitmasks so copying a sheet is cheap.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .data import (
    AVENUE_SLOTS,
    CARPET_MASK,
    CRANE_MASK,
    CRANE_SLOTS,
    EDGE_PASSES,
    EDGES,
    GOLF_RANGE,
    GROUP_END,
    GROUP_SIZE,
    LAMP_LINKS,
    NUM_AVENUES,
    NUM_SLOTS,
    PAR_COUNT,
    SHOW_LOANS,
    SHOW_VALUES,
    SLOT_AVENUE,
    SLOT_CRANE,
    SLOT_HOLES,
    START_LAMP,
    STREET_CARPETS,
    STREET_CRANES,
    STREET_RANGE,
    STREET_STARS,
    TRACK_START,
)

EMPTY = -1
NO_HOTEL, GRAND, SMALL = 0, 1, 2


class Sheet:
    """Mutable sheet of one architect. ``copy`` is shallow over small lists (no deepcopy)."""

    __slots__ = (
        "nums",
        "built",
        "star_ok",
        "star_x",
        "shows",
        "ups",
        "marks",
        "spent",
        "exp",
        "golf_l",
        "golf_r",
        "golf_lb",
        "golf_rb",
        "lamp",
        "edges",
        "segs",
        "route_done",
        "carpets",
        "hotels",
        "proj",
        "vault",
    )

    def __init__(self, vault: int) -> None:
        self.nums = [EMPTY] * NUM_SLOTS  # casino numbers, EMPTY when not opened
        self.built = 0  # crane slots whose crane is crossed out (bitmask)
        self.star_ok = 0  # stars circled (show performed)
        self.star_x = 0  # stars crossed out (opened without a show)
        self.shows = [0, 0]  # boxes crossed in each show column
        self.ups = [0] * 10  # yellow boxes crossed per upgrade column (data.UPGRADE_IDS order)
        self.marks = TRACK_START  # opening boxes marked, left to right
        self.spent = 0  # opening groups spent on bonuses (bitmask)
        self.exp = 0  # of those, groups spent on the expansion bonus (loan circled)
        self.golf_l = -1  # golf course = opened street-1 slots golf_l..golf_r
        self.golf_r = -1
        self.golf_lb = False  # course can no longer grow to the left / right
        self.golf_rb = False
        self.lamp = START_LAMP  # limousine's current lamp
        self.edges = 0  # segments drawn (bitmask over data.EDGES)
        self.segs = 0
        self.route_done = False
        self.carpets = 0  # red-carpet slots the route has passed (bitmask)
        self.hotels = [NO_HOTEL] * NUM_AVENUES
        self.proj = [0, 0, 0]  # points scored per project card (0 = not yet)
        self.vault = vault  # bundles circled at the start

    def copy(self) -> Sheet:
        # Spelled out (no loop over the slots): the bots and search copy sheets all the time. Alike
        # on purpose with NewLasVegasState.clone (state.py) and Turn.clone (steps.py), for the same reason.
        twin = _new_sheet(Sheet)
        twin.nums = self.nums[:]
        twin.built = self.built
        twin.star_ok = self.star_ok
        twin.star_x = self.star_x
        twin.shows = self.shows[:]
        twin.ups = self.ups[:]
        twin.marks = self.marks
        twin.spent = self.spent
        # Field by field on purpose, like every clone of ours: the searches' hot path (copy.copy costs more).
        twin.exp = self.exp
        twin.golf_l = self.golf_l
        twin.golf_r = self.golf_r
        twin.golf_lb = self.golf_lb
        twin.golf_rb = self.golf_rb
        twin.lamp = self.lamp
        twin.edges = self.edges
        twin.segs = self.segs
        twin.route_done = self.route_done
        twin.carpets = self.carpets
        twin.hotels = self.hotels[:]
        twin.proj = self.proj[:]
        twin.vault = self.vault
        return twin

    def key(self) -> tuple[Any, ...]:
        """Everything the sheet's worth depends on, hashable: the bots' memo key. (``segs`` and
        ``route_done`` follow from ``edges``.)"""
        return (
            *self.nums,
            self.built,
            self.star_ok,
            self.star_x,
            *self.shows,
            *self.ups,
            self.marks,
            self.spent,
            self.exp,
            self.golf_l,
            self.golf_r,
            self.golf_lb,
            self.golf_rb,
            self.lamp,
            self.edges,
            self.carpets,
            *self.hotels,
            *self.proj,
            self.vault,
        )

    # -- the city plan -------------------------------------------------------------------------
    def is_built(self, s: int) -> bool:
        return not SLOT_CRANE[s] or bool(self.built >> s & 1)

    # free_slots and slots_for scan alike on purpose (slots_for inlines its test: a hot path).
    def free_slots(self) -> list[tuple[int, int, int]]:
        """Every empty built slot with (slot, last number left of it, next number right of it)."""
        nums = self.nums
        unbuilt = CRANE_MASK & ~self.built
        out: list[tuple[int, int, int]] = []
        append = out.append
        for street in _STREET_SLOTS:
            # One pass: the empty built slots since the last number wait for the next one (their hi).
            lo = -1
            waiting: list[int] = []
            for s in street:
                v = nums[s]
                if v >= 0:
                    if waiting:
                        for w in waiting:
                            append((w, lo, v))
                        waiting = []
                    lo = v
                elif not unbuilt >> s & 1:
                    waiting.append(s)
            for w in waiting:
                append((w, lo, 99))
        return out

    def fit_mask(self) -> int:
        """Bit n set when number n fits some empty built casino (``lo < n < hi`` of a free slot).

        The same answer as testing every slot of ``free_slots`` for every number, without listing them.
        """
        nums = self.nums
        unbuilt = CRANE_MASK & ~self.built
        mask = 0
        for street in _STREET_SLOTS:
            lo = -1
            gap = False  # an empty built slot since the last number
            for s in street:
                v = nums[s]
                if v >= 0:
                    if gap and lo + 1 < v:
                        mask |= (1 << v) - (1 << (lo + 1))
                    gap = False
                    lo = v
                elif not gap and not unbuilt >> s & 1:
                    gap = True
            if gap:
                mask |= (1 << 99) - (1 << (lo + 1))
        return mask

    def copy_options(self, free: list[tuple[int, int, int]] | None = None) -> list[tuple[int, str]]:
        """Expansion bonus targets: (empty built slot, 'l' or 'r' = copy the left or right neighbour)."""
        nums = self.nums
        out: list[tuple[int, str]] = []
        for s, lo, hi in free if free is not None else self.free_slots():
            # A numbered neighbour is the slot's lo (left) or hi (right): both tests are lo <= hi.
            if lo > hi:
                continue
            if s != _STREET_START[s] and nums[s - 1] >= 0:
                out.append(_COPY_LEFT[s])
            if s + 1 != _STREET_END[s] and nums[s + 1] >= 0:
                out.append(_COPY_RIGHT[s])
        return out

    def slots_for(self, n: int) -> list[int]:
        """The free slots where number ``n`` fits (``lo < n < hi``), in the order of ``free_slots``.
        Its scan repeats ``free_slots``'s on purpose: one pass with the test inlined (a hot path)."""
        nums = self.nums
        unbuilt = CRANE_MASK & ~self.built
        out: list[int] = []
        for street in _STREET_SLOTS:
            lo = -1
            waiting: list[int] = []
            for s in street:
                v = nums[s]
                if v >= 0:
                    if waiting:
                        if lo < n < v:
                            out += waiting
                        waiting = []
                    lo = v
                elif not unbuilt >> s & 1:
                    waiting.append(s)
            if waiting and lo < n < 99:
                out += waiting
        return out

    def expansion_slots(self, free: list[tuple[int, int, int]], n: int) -> list[int]:
        """The free slots for number ``n`` after which an expansion copy is still possible.

        Writing ``n`` changes only its own street: a copy left in another street keeps every slot,
        otherwise the street is checked with ``n`` written in (the sheet itself is not touched).
        """
        nums = self.nums
        streets = 0  # streets with a copy option now
        for s, lo, hi in free:
            if lo <= hi and (
                (s != _STREET_START[s] and nums[s - 1] >= 0) or (s + 1 != _STREET_END[s] and nums[s + 1] >= 0)
            ):
                streets |= 1 << _STREET_OF[s]
        unbuilt = CRANE_MASK & ~self.built
        out = []
        for s, lo, hi in free:
            if not lo < n < hi:
                continue
            st = _STREET_OF[s]
            if streets & ~(1 << st) or _street_copy_after(nums, unbuilt, _STREET_SLOTS[st], s, n):
                out.append(s)
        return out

    def open_slot(self, s: int, value: int) -> None:
        """Write a number in a casino, growing or cutting the golf course on street 1."""
        self.nums[s] = value
        a, b = GOLF_RANGE
        if a <= s < b:
            if self.golf_l < 0:
                self.golf_l = self.golf_r = s
            elif s == self.golf_l - 1 and not self.golf_lb:
                self.golf_l = s
            elif s == self.golf_r + 1 and not self.golf_rb:
                self.golf_r = s
            elif s < self.golf_l:
                self.golf_lb = True
            elif s > self.golf_r:
                self.golf_rb = True

    def new_hotels(self) -> list[int]:
        """The avenues without a hotel whose casinos are all opened (``avenue_done``), in order."""
        nums, hotels = self.nums, self.hotels
        return [a for a in range(NUM_AVENUES) if hotels[a] == NO_HOTEL and min(_AVENUE_GET[a](nums)) >= 0]

    def street_done(self, street: int) -> bool:
        """Every built casino of the street is opened (unbuilt crane casinos ignored)."""
        a, b = STREET_RANGE[street]
        nums, built = self.nums, self.built
        return all(nums[s] >= 0 or (SLOT_CRANE[s] and not built >> s & 1) for s in range(a, b))

    def all_opened(self) -> bool:
        """Every built casino of every street is opened (``street_done`` of all streets)."""
        unbuilt = CRANE_MASK & ~self.built
        return all(v >= 0 or unbuilt >> s & 1 for s, v in enumerate(self.nums))

    def avenue_done(self, avenue_index: int) -> bool:
        return min(_AVENUE_GET[avenue_index](self.nums)) >= 0

    def cranes_opened(self, mask: int) -> bool:
        """All crane casinos in ``mask`` are built and opened."""
        return (self.built & mask) == mask and all(self.nums[s] >= 0 for s in CRANE_SLOTS if mask >> s & 1)

    def runs(self, street: int) -> list[tuple[int, int, bool, bool]]:
        """Maximal same-parity chains: (length, parity, touches street start, touches street end).

        Unbuilt crane casinos are skipped (they never break a chain); empty built casinos break it.
        """
        nums = self.nums
        unbuilt = CRANE_MASK & ~self.built
        seq = [nums[s] for s in _STREET_SLOTS[street] if not unbuilt >> s & 1]
        out: list[tuple[int, int, bool, bool]] = []
        i, n = 0, len(seq)
        while i < n:
            v = seq[i]
            if v < 0:
                i += 1
                continue
            par = v & 1
            j = i + 1
            while j < n and seq[j] >= 0 and seq[j] & 1 == par:
                j += 1
            out.append((j - i, par, i == 0, j == n))
            i = j
        return out

    def longest_run(self, street: int) -> int:
        even, odd, _, _ = _chain_summary(self, street)
        return max(even, odd)

    # -- score sheet ---------------------------------------------------------------------------
    def groups_ready(self) -> list[int]:
        """Opening-track groups fully marked and not yet spent."""
        return [g for g, end in enumerate(GROUP_END) if self.marks >= end and not self.spent >> g & 1]

    def unused_marks(self) -> int:
        return self.marks - sum(GROUP_SIZE[g] for g in range(len(GROUP_END)) if self.spent >> g & 1)

    def holes(self) -> list[int]:
        """PAR values of the holes built (circled)."""
        if self.golf_l < 0:
            return []
        return [p for s in range(self.golf_l, self.golf_r + 1) for p in SLOT_HOLES[s]]

    def holes_crossed(self) -> list[int]:
        a, b = GOLF_RANGE
        out: list[int] = []
        if self.golf_lb:
            out += [p for s in range(a, self.golf_l) for p in SLOT_HOLES[s]]
        if self.golf_rb:
            out += [p for s in range(self.golf_r + 1, b) for p in SLOT_HOLES[s]]
        return out

    def limo_moves(self) -> list[tuple[str, int, int]]:
        if self.route_done:
            return []
        return [link for link in LAMP_LINKS[self.lamp] if not self.edges >> link[1] & 1]

    def drive(self, edge: int, to: int) -> None:
        self.edges |= 1 << edge
        self.segs += 1
        self.lamp = to
        self.carpets |= EDGE_PASSES[edge]
        if to == START_LAMP:
            self.route_done = True

    def segments_missing(self) -> int:
        """Fewest segments still needed to complete the route (0 once it is back at the start).

        Over unused segments when possible; if the route is boxed in, over any segment. A route
        never started still needs the shortest loop through the start (ruling).
        """
        if self.route_done:
            return 0
        if self.segs == 0:
            return MIN_LOOP
        key = (self.lamp, self.edges)
        hit = _ROUTE_CACHE.get(key)
        if hit is None:
            if len(_ROUTE_CACHE) >= _CHAIN_CACHE_SIZE:
                _ROUTE_CACHE.clear()
            hit = _ROUTE_CACHE[key] = _segments_missing(self.lamp, self.edges)
        return hit

    def open_loans(self) -> int:
        """Loans circled and not repaid on both sheets (the opening-rank loan is added at the end)."""
        loans = sum(1 for s in CRANE_SLOTS if self.built >> s & 1 and self.nums[s] < 0)
        for col, crossed in enumerate(self.shows):
            if crossed:
                loans += sum(1 for box in SHOW_LOANS[col] if box > crossed)
        loans += bin(self.exp).count("1")
        return loans

    def show_points(self) -> list[int]:
        return [SHOW_VALUES[c][k - 1] if k else 0 for c, k in enumerate(self.shows)]

    def hotel_counts(self) -> tuple[int, int]:
        return self.hotels.count(GRAND), self.hotels.count(SMALL)

    def opened_carpets(self, kind: str) -> int:
        mask = self.carpets & CARPET_MASK[kind]
        if not mask:
            return 0
        nums = self.nums
        return sum(1 for s in range(mask.bit_length()) if mask >> s & 1 and nums[s] >= 0)


_new_sheet = object.__new__
_STREET_OF = [0] * NUM_SLOTS
_STREET_START = [0] * NUM_SLOTS  # the first slot of each slot's street
_STREET_END = [0] * NUM_SLOTS  # one past its last slot
for _st, (_a, _b) in enumerate(STREET_RANGE):
    for _s in range(_a, _b):
        _STREET_OF[_s] = _st
        _STREET_START[_s] = _a
        _STREET_END[_s] = _b
_STREET_SLOTS = tuple(range(a, b) for a, b in STREET_RANGE)
# Copy options as shared tuples (the values ``copy_options`` always returned).
_COPY_LEFT = tuple((s, "l") for s in range(NUM_SLOTS))
_COPY_RIGHT = tuple((s, "r") for s in range(NUM_SLOTS))
# An avenue's numbers in one C call (avenues have at least two casinos, so the getter gives a tuple).
_AVENUE_GET = tuple(itemgetter(*slots) for slots in AVENUE_SLOTS)
assert all(len(slots) > 1 for slots in AVENUE_SLOTS)


def _street_copy_after(nums: list[int], unbuilt: int, street: range, at: int, n: int) -> bool:
    """Whether the street has an expansion copy option once ``n`` is written in slot ``at``.

    ``copy_options`` restricted to one street, on the numbers with ``n`` at ``at``: an empty built
    slot with a numbered neighbour, the last number on its left not above the next one on its right.
    """
    lo = -1
    waiting: list[tuple[int, bool]] = []  # empty built slots since the last number, left neighbour numbered
    previous = -1  # the number in the slot just before (or -1)
    for s in street:
        v = n if s == at else nums[s]
        if v >= 0:
            for w, left in waiting:
                if (left or w + 1 == s) and lo <= v:
                    return True
            waiting = []
            lo = v
        elif not unbuilt >> s & 1:
            waiting.append((s, previous >= 0))
        previous = v
    return any(left for _, left in waiting)


def _street_of(s: int) -> int:
    return _STREET_OF[s]


def street_of(s: int) -> int:
    return _STREET_OF[s]


def _min_loop() -> int:
    """Length of the shortest closed route from the start (first segment, then the way back)."""
    return 1 + min(_bfs(nxt, 1 << edge) for _, edge, nxt in LAMP_LINKS[START_LAMP])


def _segments_missing(lamp: int, edges: int) -> int:
    """``Sheet.segments_missing`` of a started, unfinished route (memoised by its caller: the bots ask
    it of every sheet they weigh, and routes repeat)."""
    for avoid in (edges, 0):
        dist = _bfs(lamp, avoid)
        if dist >= 0:
            return dist
    return 0


_ROUTE_CACHE: dict[tuple[int, int], int] = {}


def _bfs(start: int, avoid: int) -> int:
    seen = {start: 0}
    todo = deque([start])
    while todo:
        lamp = todo.popleft()
        for _, edge, nxt in LAMP_LINKS[lamp]:
            if avoid >> edge & 1 or nxt in seen:
                continue
            seen[nxt] = seen[lamp] + 1
            if nxt == START_LAMP:
                return seen[nxt]
            todo.append(nxt)
    return -1


MIN_LOOP = _min_loop()


# --- the 21 project conditions ---------------------------------------------------------------------
def _adjacent_hotels(sh: Sheet, need: int, grand_only: bool) -> bool:
    cur = 0
    for h in sh.hotels:
        if h == GRAND if grand_only else h != NO_HOTEL:
            cur += 1
            if cur >= need:
                return True
        else:
            cur = 0
    return need <= 0


def _chain_summary(sh: Sheet, st: int) -> tuple[int, int, int, int]:
    """What the chain projects (S1-S4) and the street scores ask of a street's ``runs``: (longest
    even chain, longest odd chain, sum of odd chains' length // 4, longest even chain touching an
    end).

    Memoised by the street's numbers and cranes: a round changes one or two streets of a plan, so
    most streets hit."""
    a, b = STREET_RANGE[st]
    hit = _CHAIN_CACHE.get((st, sh.built & STREET_CRANES[st], *sh.nums[a:b]))
    return _summarise(sh, st) if hit is None else hit


def _summarise(sh: Sheet, st: int) -> tuple[int, int, int, int]:
    if len(_CHAIN_CACHE) >= _CHAIN_CACHE_SIZE:
        _CHAIN_CACHE.clear()
    even = odd = quarters = edge = 0
    for n, par, first, last in sh.runs(st):
        if par:
            odd = max(odd, n)
            quarters += n // 4
        else:
            even = max(even, n)
            if first or last:
                edge = max(edge, n)
    a, b = STREET_RANGE[st]
    hit = _CHAIN_CACHE[(st, sh.built & STREET_CRANES[st], *sh.nums[a:b])] = (even, odd, quarters, edge)
    return hit


def _chain_summaries(sh: Sheet) -> list[tuple[int, int, int, int]]:
    """``_chain_summary`` of every street (the loop spelled out: once per seat and round)."""
    nums, built = sh.nums, sh.built
    get = _CHAIN_CACHE.get
    out = []
    for st, a, b, cranes in _STREET_KEYS:
        hit = get((st, built & cranes, *nums[a:b]))
        out.append(_summarise(sh, st) if hit is None else hit)
    return out


_STREET_KEYS = tuple((st, a, b, STREET_CRANES[st]) for st, (a, b) in enumerate(STREET_RANGE))
_CHAIN_CACHE: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
_CHAIN_CACHE_SIZE = 100_000

ALL_HOLES = sum(PAR_COUNT.values())
_AV1 = sum(1 << s for s in CRANE_SLOTS if SLOT_AVENUE[s] == 1)
_AV11 = sum(1 << s for s in CRANE_SLOTS if SLOT_AVENUE[s] == NUM_AVENUES)
_STARS_1 = STREET_STARS[0]
_CARPET_KINDS = tuple(CARPET_MASK.values())
_CRANES_AND_STARS = tuple(zip(STREET_CRANES, STREET_STARS, strict=True))
_CRANE_ALL = sum(1 << s for s in CRANE_SLOTS)


def _h1(sh: Sheet) -> bool:
    return sh.hotels.count(GRAND) >= 3


def _h2(sh: Sheet) -> bool:
    return sh.hotels.count(SMALL) >= 5


def _h3(sh: Sheet) -> bool:
    return sh.hotels.count(GRAND) + sh.hotels.count(SMALL) >= 7


def _h6(sh: Sheet) -> bool:
    return sh.hotels[0] != NO_HOTEL and sh.hotels[-1] != NO_HOTEL


def _s1(sh: Sheet) -> bool:
    return any(even >= 6 for even, _, _, _ in _chain_summaries(sh))


def _s2(sh: Sheet) -> bool:
    return any(odd >= 7 for _, odd, _, _ in _chain_summaries(sh))


def _s3(sh: Sheet) -> bool:
    return sum(quarters for _, _, quarters, _ in _chain_summaries(sh)) >= 2


def _s4(sh: Sheet) -> bool:
    return any(edge >= 5 for _, _, _, edge in _chain_summaries(sh))


def _s5(sh: Sheet) -> bool:
    return sum(sh.street_done(st) for st in range(len(STREET_RANGE))) >= 2


def _c2(sh: Sheet) -> bool:
    return sum(sh.cranes_opened(m) for m in STREET_CRANES) >= 2


def _c4(sh: Sheet) -> bool:
    return any(sh.cranes_opened(cm) and (sh.star_ok & sm) == sm for cm, sm in _CRANES_AND_STARS)


# The 21 project conditions by card id (see docs for our rulings).
_PROJECT_TESTS = {
    "H1": _h1,
    "H2": _h2,
    "H3": _h3,
    "H4": lambda sh: _adjacent_hotels(sh, 2, True),
    "H5": lambda sh: _adjacent_hotels(sh, 4, False),
    "H6": _h6,
    "H7": lambda sh: sh.unused_marks() >= 10,
    "S1": _s1,
    "S2": _s2,
    "S3": _s3,
    "S4": _s4,
    "S5": _s5,
    "S6": lambda sh: all(sh.carpets & m for m in _CARPET_KINDS),
    "S7": lambda sh: all(sh.carpets & m for m in STREET_CARPETS),
    "C1": lambda sh: sh.cranes_opened(_AV1 | _AV11),
    "C2": _c2,
    "C3": lambda sh: (sh.built & _CRANE_ALL) == _CRANE_ALL,
    "C4": _c4,
    "C5": lambda sh: sh.shows[0] >= 3 and sh.shows[1] >= 3,
    "C6": lambda sh: len(sh.holes()) == ALL_HOLES and (sh.star_ok & _STARS_1) == _STARS_1,
    "C7": lambda sh: sh.holes().count(4) == PAR_COUNT[4],
}


def project_test(pid: str) -> Callable[[Sheet], bool]:
    """The condition of project ``pid`` as a function of a sheet (``project_met`` without the lookup)."""
    return _PROJECT_TESTS[pid]


def project_met(pid: str, sh: Sheet) -> bool:
    """Whether ``sh`` meets project ``pid``'s condition now (see docs for our rulings)."""
    return bool(_PROJECT_TESTS[pid](sh))


__all__ = ["EDGES", "EMPTY", "GRAND", "NO_HOTEL", "SMALL", "Sheet", "project_met", "street_of"]
