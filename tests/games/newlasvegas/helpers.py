"""Shared helpers for the New Las Vegas tests."""

from __future__ import annotations

import random

from tabletown.games.newlasvegas import GAME
from tabletown.games.newlasvegas.actions import Loan
from tabletown.games.newlasvegas.data import STREET_RANGE
from tabletown.games.newlasvegas.sheet import Sheet
from tabletown.games.newlasvegas.state import NewLasVegasState


def new(players: int = 2, seed: int = 1, **options) -> NewLasVegasState:
    return GAME.new_game(players, options, seed)


def numbers_rise(sh: Sheet) -> bool:
    """Numbers rise left to right in every street; equal neighbours only (expansion copies)."""
    for a, b in STREET_RANGE:
        seq = [(s, v) for s, v in enumerate(sh.nums[a:b], a) if v >= 0]
        for (s1, v1), (s2, v2) in zip(seq, seq[1:], strict=False):
            if v2 < v1 or (v2 == v1 and s2 != s1 + 1):
                return False
    return True


def play_random(state: NewLasVegasState, rng: random.Random, check=None) -> NewLasVegasState:
    while state.to_act:
        for p in state.to_act:
            if p not in state.to_act:
                continue
            action = rng.choice(state.legal_actions(p))
            state.apply(p, action)
            if check:
                check(state, p, action)
    return state


def fill_built(sh: Sheet, value: int) -> None:
    """Write ``value`` in every built casino of ``sh`` (opened ones too)."""
    for s in range(len(sh.nums)):
        if sh.is_built(s):
            sh.nums[s] = value


def skip_loans(state: NewLasVegasState, loan: int = 0) -> None:
    while state.phase == "loan":
        for p in state.to_act:
            state.apply(p, Loan(bool(loan)))


def fresh(players: int = 2, offers=((5, "op"), (8, "con"), (11, "show")), seed: int = 1, **options):
    """A game in its first round (bank choices made) with the given combinations on offer."""
    state = new(players, seed, **options)
    skip_loans(state)
    set_offers(state, offers)
    return state


def set_offers(state: NewLasVegasState, offers) -> None:
    state.offers = [tuple(o) for o in offers]
    state._cache = None


def slot(name: str) -> int:
    from tabletown.games.newlasvegas.data import SLOT_BY_NAME

    return SLOT_BY_NAME[name]


def fill(sh: Sheet, **values) -> None:
    """Open casinos by name: fill(sh, **{"2.5": 7})."""
    for name, v in values.items():
        sh.nums[slot(name)] = v


def ended(state: NewLasVegasState, reason: str) -> bool:
    """The game is over and its ``game_over`` event gives this reason id."""
    return state.is_over and any(e.kind == "game_over" and e.data["reason"] == reason for e in state.log)


def logged(state: NewLasVegasState, kind: str) -> bool:
    return any(e.kind == kind for e in state.log)


def do(state: NewLasVegasState, player: int, *texts: str) -> None:
    for t in texts:
        state.apply_text(player, t)
