"""The sheet's fast scans (issue 21) against plain reference versions of the same rules.

The references are the straightforward definitions the rules used before they were optimised: every
free slot tested for every number, a copy of the sheet probed for expansion copies, a street's
chains listed in full. They are checked on sheets from seeded random games and on random sheets
that play could never make (numbers that fall, odd cranes), so that the answers agree on any sheet.
"""

from __future__ import annotations

import random

import pytest

from tabletown.core.record import state_fingerprint
from tabletown.games.newlasvegas.data import (
    AVENUE_SLOTS,
    CRANE_SLOTS,
    NUM_AVENUES,
    NUM_SLOTS,
    SLOT_CRANE,
    STREET_RANGE,
)
from tabletown.games.newlasvegas.sheet import NO_HOTEL, Sheet, project_met, project_test
from tabletown.games.newlasvegas.state import NewLasVegasState

from .helpers import new

PROJECT_IDS = [f"{kind}{k}" for kind, count in (("H", 7), ("S", 7), ("C", 7)) for k in range(1, count + 1)]


def ref_free_slots(sh: Sheet) -> list[tuple[int, int, int]]:
    out = []
    for a, b in STREET_RANGE:
        for s in range(a, b):
            if sh.nums[s] >= 0 or (SLOT_CRANE[s] and not sh.built >> s & 1):
                continue
            left = [sh.nums[t] for t in range(a, s) if sh.nums[t] >= 0]
            right = [sh.nums[t] for t in range(s + 1, b) if sh.nums[t] >= 0]
            lo = left[-1] if left else -1
            hi = right[0] if right else 99
            out.append((s, lo, hi))
    return out


def ref_copy_options(sh: Sheet) -> list[tuple[int, str]]:
    out = []
    for s, lo, hi in ref_free_slots(sh):
        a, b = next((a, b) for a, b in STREET_RANGE if a <= s < b)
        if s > a and sh.nums[s - 1] >= 0 and sh.nums[s - 1] <= hi:
            out.append((s, "l"))
        if s + 1 < b and sh.nums[s + 1] >= 0 and lo <= sh.nums[s + 1]:
            out.append((s, "r"))
    return out


def ref_expansion_slots(sh: Sheet, n: int) -> list[int]:
    out = []
    for s, lo, hi in ref_free_slots(sh):
        if lo < n < hi:
            probe = sh.copy()
            probe.nums[s] = n
            if ref_copy_options(probe):
                out.append(s)
    return out


def ref_runs(sh: Sheet, street: int) -> list[tuple[int, int, bool, bool]]:
    a, b = STREET_RANGE[street]
    seq = [sh.nums[s] for s in range(a, b) if not SLOT_CRANE[s] or sh.built >> s & 1]
    out = []
    i = 0
    while i < len(seq):
        if seq[i] < 0:
            i += 1
            continue
        j = i + 1
        while j < len(seq) and seq[j] >= 0 and seq[j] % 2 == seq[i] % 2:
            j += 1
        out.append((j - i, seq[i] % 2, i == 0, j == len(seq)))
        i = j
    return out


def ref_chain_project(pid: str, sh: Sheet) -> bool:
    runs = [r for st in range(len(STREET_RANGE)) for r in ref_runs(sh, st)]
    if pid == "S1":
        return any(n >= 6 and par == 0 for n, par, _, _ in runs)
    if pid == "S2":
        return any(n >= 7 and par == 1 for n, par, _, _ in runs)
    if pid == "S3":
        return sum(n // 4 for n, par, _, _ in runs if par == 1) >= 2
    return any(n >= 5 and par == 0 and (first or last) for n, par, first, last in runs)


def game_sheets(count: int = 6) -> list[Sheet]:
    """Sheets met along seeded random games (2 and 4 players), copied every few steps."""
    found = []
    rng = random.Random(5)
    for seed in range(count):
        state = new(2 + 2 * (seed % 2), seed)
        while state.to_act:
            for p in state.to_act:
                if p in state.to_act:
                    state.apply(p, rng.choice(state.legal_actions(p)))
            if rng.random() < 0.4:
                found.append(state.sheets[0].copy())
    return found


def odd_sheets(count: int = 150) -> list[Sheet]:
    """Random sheets: any numbers (falling too), cranes built at random, hotels at random."""
    rng = random.Random(9)
    out = []
    for _ in range(count):
        sh = Sheet(1)
        fill = rng.random()
        sh.nums = [rng.randrange(18) if rng.random() < fill else -1 for _ in range(NUM_SLOTS)]
        sh.built = sum(1 << s for s in CRANE_SLOTS if rng.random() < 0.5)
        sh.hotels = [rng.choice([0, 0, 1, 2]) for _ in range(NUM_AVENUES)]
        out.append(sh)
    return out


@pytest.fixture(scope="module")
def sheets() -> list[Sheet]:
    return game_sheets() + odd_sheets()


def test_free_slots_and_copy_options_match_the_reference(sheets: list[Sheet]) -> None:
    for sh in sheets:
        assert sh.free_slots() == ref_free_slots(sh)
        assert sh.copy_options() == ref_copy_options(sh)


def test_numbers_that_fit_match_the_free_slots(sheets: list[Sheet]) -> None:
    for sh in sheets:
        free = ref_free_slots(sh)
        fit = sh.fit_mask()
        for n in range(18):
            assert bool(fit >> n & 1) == any(lo < n < hi for _, lo, hi in free)
            assert sh.slots_for(n) == [s for s, lo, hi in free if lo < n < hi]


def test_expansion_slots_match_probing_a_copy(sheets: list[Sheet]) -> None:
    for sh in sheets:
        free = sh.free_slots()
        for n in (1, 2, 5, 8, 9, 12, 15):
            assert sh.expansion_slots(free, n) == ref_expansion_slots(sh, n)
            assert NewLasVegasState._expansion_slots(sh, free, n) == ref_expansion_slots(sh, n)


def test_chains_avenues_and_projects_match_the_reference(sheets: list[Sheet]) -> None:
    for sh in sheets:
        for st in range(len(STREET_RANGE)):
            assert sh.runs(st) == ref_runs(sh, st)
            assert sh.longest_run(st) == max((n for n, _, _, _ in ref_runs(sh, st)), default=0)
        for pid in ("S1", "S2", "S3", "S4"):
            assert project_met(pid, sh) == ref_chain_project(pid, sh)
        for a in range(NUM_AVENUES):
            assert sh.avenue_done(a) == all(sh.nums[s] >= 0 for s in AVENUE_SLOTS[a])
        assert sh.new_hotels() == [
            a for a in range(NUM_AVENUES) if sh.hotels[a] == NO_HOTEL and sh.avenue_done(a)
        ]
        assert sh.all_opened() == all(
            all(sh.nums[s] >= 0 or (SLOT_CRANE[s] and not sh.built >> s & 1) for s in range(a, b))
            for a, b in STREET_RANGE
        )
        for pid in PROJECT_IDS:
            assert project_test(pid)(sh) == project_met(pid, sh)


def test_a_clone_holds_every_slot_and_shares_nothing_mutable() -> None:
    rng = random.Random(3)
    state = new(3, 4)
    for _ in range(40):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        twin = state.clone()
        assert state_fingerprint(twin) == state_fingerprint(state)
        for name in NewLasVegasState.__slots__:
            value = getattr(state, name)
            if isinstance(value, list) and value:
                assert getattr(twin, name) is not value, name
