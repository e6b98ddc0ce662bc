"""Hotels (grand and small races), projects (conditions, first and later points), golf, end triggers."""

from __future__ import annotations

import pytest

from tabletown.games.newlasvegas.data import GOLF_RANGE, SLOT_HOLES
from tabletown.games.newlasvegas.sheet import GRAND, SMALL, Sheet, project_met

from .helpers import do, ended, fill, fill_built, fresh, set_offers, slot


def test_grand_hotel_race_is_decided_at_the_end_of_the_round():
    state = fresh(3, ((14, "op"), (1, "op"), (2, "op")))
    for p in range(3):
        fill(state.sheets[p], **{"2.10": 12, "3.10": 13})
    do(state, 0, "a", "4.10", "skip")
    # seat 1 sees nothing of seat 0's move while the round is open
    assert state.view(1)["state"]["players"][0]["sheet"]["numbers"][slot("4.10")] is None
    do(state, 1, "a", "4.10", "skip")
    do(state, 2, "b", "2.1", "skip")
    assert state.sheets[0].hotels[9] == GRAND and state.sheets[1].hotels[9] == GRAND
    assert state.sheets[2].hotels[9] == 0
    set_offers(state, ((14, "op"), (1, "op"), (2, "op")))
    do(state, 0, "b", "2.1", "skip")
    do(state, 1, "b", "2.1", "skip")
    do(state, 2, "a", "4.10", "skip")
    assert state.sheets[2].hotels[9] == SMALL


def _sheet(**kw) -> Sheet:
    sh = Sheet(1)
    for k, v in kw.items():
        setattr(sh, k, v)
    return sh


def _nums(**values) -> Sheet:
    sh = Sheet(1)
    fill(sh, **values)
    return sh


def _chain(street: int, start: int, values) -> dict[str, int]:
    """Values for consecutive casinos from avenue ``start``, skipping crane casinos."""
    from tabletown.games.newlasvegas.data import SLOT_BY_NAME, SLOT_CRANE

    out, av = {}, start
    for v in values:
        while SLOT_CRANE[SLOT_BY_NAME[f"{street}.{av}"]]:
            av += 1
        out[f"{street}.{av}"] = v
        av += 1
    return out


G, S = GRAND, SMALL
E = 0
CASES = {
    "H1": (_sheet(hotels=[G, E, G, E, G] + [E] * 6), _sheet(hotels=[G, G, S] + [E] * 8)),
    "H2": (_sheet(hotels=[S] * 5 + [E] * 6), _sheet(hotels=[S] * 4 + [G] + [E] * 6)),
    "H3": (_sheet(hotels=[S, G] * 3 + [S] + [E] * 4), _sheet(hotels=[S] * 6 + [E] * 5)),
    "H4": (_sheet(hotels=[E, G, G] + [E] * 8), _sheet(hotels=[G, E, G] + [E] * 8)),
    "H5": (_sheet(hotels=[E, S, G, S, S] + [E] * 6), _sheet(hotels=[S, S, S, E, S] + [E] * 6)),
    "H6": (_sheet(hotels=[S] + [E] * 9 + [G]), _sheet(hotels=[S] + [E] * 9 + [E])),
    "H7": (_sheet(marks=13, spent=0b1), _sheet(marks=12, spent=0b1)),
    "S1": (_nums(**_chain(3, 3, [2, 4, 6, 8, 10, 12])), _nums(**_chain(3, 3, [2, 4, 6, 8, 10, 11]))),
    # 3.6 is an unbuilt crane inside the chain: it does not break it.
    "S2": (
        _nums(**{"3.1": 1, "3.3": 3, "3.4": 5, "3.5": 7, "3.7": 9, "3.8": 11, "3.9": 13}),
        _nums(**{"3.1": 1, "3.3": 3, "3.4": 5, "3.5": 7, "3.7": 9, "3.8": 11, "3.9": 14}),
    ),
    "S3": (
        _nums(**_chain(2, 5, [1, 3, 5, 7]), **_chain(4, 6, [1, 3, 5, 7])),
        _nums(**_chain(2, 5, [1, 3, 5, 7]), **_chain(4, 6, [1, 3, 5, 8])),
    ),
    # Street 4 ends in avenue 11; five even numbers reaching it.
    "S4": (_nums(**_chain(4, 6, [2, 4, 6, 8, 10])), _nums(**_chain(4, 3, [2, 4, 6, 8, 10]))),
    "S5": (
        _nums(**_chain(1, 2, range(1, 8)), **_chain(2, 1, range(1, 9))),
        _nums(**_chain(1, 2, range(1, 8))),
    ),
}


@pytest.mark.parametrize("pid", sorted(CASES))
def test_project_conditions_hotels_and_streets(pid):
    yes, no = CASES[pid]
    assert project_met(pid, yes)
    assert not project_met(pid, no)


def _drive(sh: Sheet, *dirs: str) -> Sheet:
    for d in dirs:
        move = next(m for m in sh.limo_moves() if m[0] == d)
        sh.drive(move[1], move[2])
    return sh


def test_limousine_projects():
    # e: street 4 avenues 1-3 (VIP); n; w... see docs for the lamp graph.
    three_kinds = _drive(Sheet(1), "e", "e", "n", "w", "n", "w")  # VIP 4.3, Mafia 3.5, Luxury 2.2
    assert project_met("S6", three_kinds)
    assert not project_met("S6", _drive(Sheet(1), "e", "e"))
    every_street = _drive(Sheet(1), "e", "n", "n", "n", "e")  # 4.3 VIP, 1.4 VIP... only two streets
    assert not project_met("S7", every_street)
    # VIP 4.3, Mafia 3.5, Luxury 2.2, VIP 1.4 (street 2's only carpet is 2.2 since the VIP moved to 4.7)
    every_street = _drive(Sheet(1), "e", "n", "e", "n", "w", "w", "n", "e", "e")
    assert project_met("S7", every_street)
    assert not project_met("S7", _drive(Sheet(1), "e", "n", "e", "n", "e", "n", "w"))  # 2.7: no carpet


def _built(sh: Sheet, *names: str) -> Sheet:
    for n in names:
        sh.built |= 1 << slot(n)
    return sh


def test_construction_projects():
    sh = _built(Sheet(1), "1.1", "3.11")
    fill(sh, **{"1.1": 1})
    assert not project_met("C1", sh)
    fill(sh, **{"3.11": 15})
    assert project_met("C1", sh)
    two = _built(Sheet(1), "1.1", "1.7", "2.4", "2.9")
    fill(two, **{"1.1": 1, "1.7": 7, "2.4": 4})
    assert not project_met("C2", two)
    fill(two, **{"2.9": 9})
    assert project_met("C2", two)
    every = _built(Sheet(1), "1.1", "1.7", "2.4", "2.9", "3.2", "3.6", "3.11", "4.5")
    assert not project_met("C3", every)
    assert project_met("C3", _built(every, "4.8"))
    street4 = _built(Sheet(1), "4.5", "4.8")
    fill(street4, **{"4.5": 5, "4.8": 8})
    for star in ("4.4", "4.6", "4.9"):
        street4.star_ok |= 1 << slot(star)
    assert not project_met("C4", street4)
    street4.star_ok |= 1 << slot("4.11")
    assert project_met("C4", street4)
    assert project_met("C5", _sheet(shows=[3, 4])) and not project_met("C5", _sheet(shows=[2, 6]))


def test_golf_projects_and_crossing_out():
    sh = Sheet(1)
    a, b = GOLF_RANGE
    sh.open_slot(a + 4, 9)  # course starts at 1.5
    sh.open_slot(a + 6, 11)  # not next to the course: every hole right of 1.5 is crossed out
    assert sh.golf_rb and sh.holes() == list(SLOT_HOLES[a + 4])
    assert sh.holes_crossed() == [p for s in range(a + 5, b) for p in SLOT_HOLES[s]]
    sh.open_slot(a + 5, 10)  # next to it, but that side is closed
    assert sh.holes() == list(SLOT_HOLES[a + 4])
    sh.open_slot(a + 3, 8)  # grows left
    assert sh.holes() == list(SLOT_HOLES[a + 3]) + list(SLOT_HOLES[a + 4])
    assert not project_met("C7", sh)
    full = Sheet(1)
    full.built |= 1 << a  # 1.1 is a crane casino
    for s in range(a, b):
        full.open_slot(s, s - a + 1)
    full.built |= 1 << (a + 6)
    assert project_met("C7", full) and not project_met("C6", full)
    for s in range(a, b):
        full.star_ok |= 1 << s
    assert project_met("C6", full)
    holes_only = Sheet(1)  # avenues 1 and 9 have no hole: the course need not reach them
    holes_only.built |= 1 << (a + 6)
    for s in range(a + 1, a + 8):
        holes_only.open_slot(s, s - a)
    holes_only.star_ok = full.star_ok
    assert project_met("C6", holes_only) and project_met("C7", holes_only)
    holes_only.star_ok &= ~(1 << (a + 4))
    assert not project_met("C6", holes_only)


def test_project_race_first_and_later_points_and_reshuffle_vote():
    state = fresh(3, ((5, "op"), (8, "op"), (11, "op")))
    state.projects = ("H1", "S1", "C5")
    state.sheets[0].shows = [3, 3]
    state.sheets[1].shows = [3, 3]
    for p in range(3):
        do(state, p, "a", "2.2", "skip")
    assert state.sheets[0].proj[2] == 12 and state.sheets[1].proj[2] == 12 and state.sheets[2].proj[2] == 0
    assert state.approved == [False, False, True]
    assert state.phase == "reshuffle" and state.to_act == (0, 1)
    do(state, 0, "keep")
    piles = [p[:] for p in state.piles]
    do(state, 1, "shuffle")
    assert state.phase == "round" and state.top == 1 and state.piles != piles
    set_offers(state, ((5, "op"), (8, "op"), (11, "op")))
    state.sheets[2].shows = [3, 3]
    for p in range(3):
        do(state, p, "b", "2.3", "skip")
    assert state.sheets[2].proj[2] == 6 and state.sheets[0].proj[2] == 12


def test_end_triggers():
    state = fresh(2)
    state.projects = ("H1", "S1", "C5")
    state.sheets[0].proj = [8, 8, 0]
    state.sheets[0].shows = [3, 3]
    do(state, 0, "a", "2.2", "skip")
    do(state, 1, "a", "2.2", "skip")
    assert ended(state, "all_projects")
    state = fresh(2, ((15, "op"), (8, "op"), (11, "op")))
    sh = state.sheets[1]
    fill_built(sh, 1)
    sh.nums[slot("4.11")] = -1
    do(state, 0, "a", "2.2", "skip")
    do(state, 1, "a", "4.11", "skip")
    assert ended(state, "all_casinos_opened")
