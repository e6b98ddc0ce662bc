"""Audit: the engine contract checked on the WHOLE state, not only on the views.

``state_digest`` hashes the views, which leave out the deck order, the random source, the
reorganized-dice memory and the pending decisions. A refused action must leave those untouched
too; and legal_actions must list exactly what apply accepts (one listed lot stands for a whole
casino, and only a menu of bets is listed: any other bet within the limits may be typed).
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from tabletown.core.errors import ActionError
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.actions import Gamble, LVAction, Remodel, Reorg, from_tuple
from tabletown.games.lordsofvegas.data import NUM_COLORS, NUM_LOTS
from tabletown.games.lordsofvegas.state import LordsOfVegasState

_SLOTS = [s for s in LordsOfVegasState.__slots__ if s not in ("rng", "_cas")]


def values(state: LordsOfVegasState) -> list:
    """Every field of the state and its generator's state, compared by ``==`` (C-speed on tuples;
    a repr of the named tuples was 85% of this test's time)."""
    return [*(getattr(state, name) for name in _SLOTS), state.rng.getstate()]


def snapshot(state: LordsOfVegasState) -> bytes:
    """A frozen copy of ``values``: the position itself must come out of the audit as it went in."""
    return pickle.dumps(values(state), protocol=5)


def _candidates() -> list[LVAction]:
    out: list[tuple] = [("end",), ("pass",), ("accept",), ("refuse",), ("layoff", True), ("layoff", False)]
    for lot in range(NUM_LOTS):
        for colour in range(NUM_COLORS):
            out += [("build", lot, colour), ("sprawl", lot, colour), ("remodel", lot, colour)]
        out += [("reorg", lot), ("take", lot), ("free", lot), ("put", lot)]
        out += [("gamble", lot, bet) for bet in (1, 3, 5, 10, 15, 45)]
    out += [
        ("offer", ((0, 1, "$", 999),)),
        ("offer", ((1, 0, "lot", 7),)),
        ("offer", ((0, 1, "die", 12), (1, 0, "$", 1))),
        ("offer", ((1, 0, "no-gamble", -1),)),
    ]
    return [from_tuple(move) for move in out]


CANDIDATES = _candidates()


def _canonical(state: LordsOfVegasState, action: LVAction) -> LVAction:
    """Remodel, reorganize and gamble act on a casino; legal_actions names it by its first lot."""
    if isinstance(action, (Reorg, Remodel, Gamble)) and state.tile[action.lot] >= 0:
        return dataclasses.replace(action, lot=state.casino_of(action.lot)[0])
    return action


def _audit_position(state: LordsOfVegasState) -> None:
    for seat in range(state.num_players):
        legal = set(state.legal_actions(seat))
        before = snapshot(state)
        untouched = values(state)
        for action in CANDIDATES:
            twin = state.clone()
            try:
                twin.apply(seat, action)
            except ActionError:
                # (a refusal that changed something shared by the copy and the position is caught
                # by the snapshot of the position below)
                assert values(twin) == untouched, (action, "a refused action changed the state")
                assert action not in legal, (action, "listed but refused")
                continue
            if action.kind not in ("gamble", "offer"):
                assert _canonical(state, action) in legal, (action, "accepted but not listed")
        assert snapshot(state) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_refusals_keep_the_whole_state_and_listing_matches_apply(players: int) -> None:
    for seed in range(2):
        state = GAME.new_game(players, {}, seed=700 + seed)
        rng = random.Random(seed)
        step = 0
        while state.to_act:
            step += 1
            if step % 37 == 0:
                _audit_position(state)
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
