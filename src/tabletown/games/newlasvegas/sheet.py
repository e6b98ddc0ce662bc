"""One architect's two sheets (city plan + score sheet) and the pure rules that read them.

Everything here works on a single :class:`Sheet`; cross-player rules (races, rankings, the bank)
live in ``rules.py``. Sets of slots are int bitmasks so copying a sheet is cheap.
"""

from __future__ import annotations

from collections import deque

from .data import (
    AVENUE_SLOTS,
    CARPET_MASK,
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
        twin = Sheet.__new__(Sheet)
        for name in Sheet.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.nums = self.nums[:]
        twin.shows = self.shows[:]
        twin.ups = self.ups[:]
        twin.hotels = self.hotels[:]
        twin.proj = self.proj[:]
        return twin

    # -- the city plan -------------------------------------------------------------------------
    def is_built(self, s: int) -> bool:
        return not SLOT_CRANE[s] or bool(self.built >> s & 1)

    def free_slots(self) -> list[tuple[int, int, int]]:
        """Every empty built slot with (slot, last number left of it, next number right of it)."""
        nums, built = self.nums, self.built
        out: list[tuple[int, int, int]] = []
        for a, b in STREET_RANGE:
            his = [99] * (b - a)
            hi = 99
            for s in range(b - 1, a - 1, -1):
                his[s - a] = hi
                if nums[s] >= 0:
                    hi = nums[s]
            lo = -1
            for s in range(a, b):
                v = nums[s]
                if v >= 0:
                    lo = v
                elif not SLOT_CRANE[s] or built >> s & 1:
                    out.append((s, lo, his[s - a]))
        return out

    def copy_options(self, free: list[tuple[int, int, int]] | None = None) -> list[tuple[int, str]]:
        """Expansion bonus targets: (empty built slot, 'l' or 'r' = copy the left or right neighbour)."""
        nums = self.nums
        out: list[tuple[int, str]] = []
        for s, lo, hi in free if free is not None else self.free_slots():
            a, b = STREET_RANGE[_street_of(s)]
            if s > a and nums[s - 1] >= 0 and nums[s - 1] <= hi:
                out.append((s, "l"))
            if s + 1 < b and nums[s + 1] >= 0 and lo <= nums[s + 1]:
                out.append((s, "r"))
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

    def street_done(self, street: int) -> bool:
        """Every built casino of the street is opened (unbuilt crane casinos ignored)."""
        a, b = STREET_RANGE[street]
        nums, built = self.nums, self.built
        return all(nums[s] >= 0 or (SLOT_CRANE[s] and not built >> s & 1) for s in range(a, b))

    def all_opened(self) -> bool:
        return all(self.street_done(st) for st in range(len(STREET_RANGE)))

    def avenue_done(self, avenue_index: int) -> bool:
        nums = self.nums
        return all(nums[s] >= 0 for s in AVENUE_SLOTS[avenue_index])

    def cranes_opened(self, mask: int) -> bool:
        """All crane casinos in ``mask`` are built and opened."""
        return (self.built & mask) == mask and all(self.nums[s] >= 0 for s in CRANE_SLOTS if mask >> s & 1)

    def runs(self, street: int) -> list[tuple[int, int, bool, bool]]:
        """Maximal same-parity chains: (length, parity, touches street start, touches street end).

        Unbuilt crane casinos are skipped (they never break a chain); empty built casinos break it.
        """
        a, b = STREET_RANGE[street]
        nums, built = self.nums, self.built
        seq = [nums[s] for s in range(a, b) if not SLOT_CRANE[s] or built >> s & 1]
        out: list[tuple[int, int, bool, bool]] = []
        i, n = 0, len(seq)
        while i < n:
            v = seq[i]
            if v < 0:
                i += 1
                continue
            j = i + 1
            while j < n and seq[j] >= 0 and seq[j] % 2 == v % 2:
                j += 1
            out.append((j - i, v % 2, i == 0, j == n))
            i = j
        return out

    def longest_run(self, street: int) -> int:
        return max((r[0] for r in self.runs(street)), default=0)

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
        for avoid in (self.edges, 0):
            dist = _bfs(self.lamp, avoid)
            if dist >= 0:
                return dist
        return 0

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
        return sum(1 for s in range(NUM_SLOTS) if mask >> s & 1 and self.nums[s] >= 0)


_STREET_OF = [0] * NUM_SLOTS
for _st, (_a, _b) in enumerate(STREET_RANGE):
    for _s in range(_a, _b):
        _STREET_OF[_s] = _st


def _street_of(s: int) -> int:
    return _STREET_OF[s]


def street_of(s: int) -> int:
    return _STREET_OF[s]


def _min_loop() -> int:
    """Length of the shortest closed route from the start (first segment, then the way back)."""
    return 1 + min(_bfs(nxt, 1 << edge) for _, edge, nxt in LAMP_LINKS[START_LAMP])


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
    best = cur = 0
    for h in sh.hotels:
        ok = h == GRAND if grand_only else h != NO_HOTEL
        cur = cur + 1 if ok else 0
        best = max(best, cur)
    return best >= need


def _all_runs(sh: Sheet) -> list[tuple[int, int, bool, bool]]:
    return [r for st in range(len(STREET_RANGE)) for r in sh.runs(st)]


ALL_HOLES = sum(PAR_COUNT.values())
_AV1 = sum(1 << s for s in CRANE_SLOTS if SLOT_AVENUE[s] == 1)
_AV11 = sum(1 << s for s in CRANE_SLOTS if SLOT_AVENUE[s] == NUM_AVENUES)


def project_met(pid: str, sh: Sheet) -> bool:
    """Whether ``sh`` meets project ``pid``'s condition now (see docs for our rulings)."""
    if pid[0] == "H":
        grands, smalls = sh.hotel_counts()
        if pid == "H1":
            return grands >= 3
        if pid == "H2":
            return smalls >= 5
        if pid == "H3":
            return grands + smalls >= 7
        if pid == "H4":
            return _adjacent_hotels(sh, 2, True)
        if pid == "H5":
            return _adjacent_hotels(sh, 4, False)
        if pid == "H6":
            return sh.hotels[0] != NO_HOTEL and sh.hotels[-1] != NO_HOTEL
        if pid == "H7":
            return sh.unused_marks() >= 10
    if pid[0] == "S":
        if pid == "S1":
            return any(n >= 6 and par == 0 for n, par, _, _ in _all_runs(sh))
        if pid == "S2":
            return any(n >= 7 and par == 1 for n, par, _, _ in _all_runs(sh))
        if pid == "S3":
            return sum(n // 4 for n, par, _, _ in _all_runs(sh) if par == 1) >= 2
        if pid == "S4":
            return any(n >= 5 and par == 0 and (first or last) for n, par, first, last in _all_runs(sh))
        if pid == "S5":
            return sum(sh.street_done(st) for st in range(len(STREET_RANGE))) >= 2
        if pid == "S6":
            return all(sh.carpets & m for m in CARPET_MASK.values())
        if pid == "S7":
            return all(sh.carpets & m for m in STREET_CARPETS)
    if pid == "C1":
        return sh.cranes_opened(_AV1 | _AV11)
    if pid == "C2":
        return sum(sh.cranes_opened(m) for m in STREET_CRANES) >= 2
    if pid == "C3":
        return all(sh.built >> s & 1 for s in CRANE_SLOTS)
    if pid == "C4":
        return any(
            sh.cranes_opened(cm) and (sh.star_ok & sm) == sm
            for cm, sm in zip(STREET_CRANES, STREET_STARS, strict=True)
        )
    if pid == "C5":
        return sh.shows[0] >= 3 and sh.shows[1] >= 3
    if pid == "C6":
        return len(sh.holes()) == ALL_HOLES and (sh.star_ok & STREET_STARS[0]) == STREET_STARS[0]
    if pid == "C7":
        return sh.holes().count(4) == PAR_COUNT[4]
    raise KeyError(pid)


__all__ = ["EDGES", "EMPTY", "GRAND", "NO_HOTEL", "SMALL", "Sheet", "project_met", "street_of"]
