"""Scenario helpers: build Lords of Vegas positions directly, script the dice, check invariants."""

from __future__ import annotations

import random

import pytest

from tabletown.core.errors import ActionError
from tabletown.core.record import state_digest
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.data import (
    COLOR_CODES,
    DICE_PER_PLAYER,
    GAME_END,
    LOT_INDEX,
    MARKERS_PER_PLAYER,
    NUM_CARDS,
    NUM_COLORS,
    NUM_LOTS,
    TILES_PER_COLOR,
)
from tabletown.games.lordsofvegas.state import ACTION, PICK_DIE, PLACE, LordsOfVegasState
from tabletown.testing import ScriptedDice  # noqa: F401  (re-exported for the tests)


def lot(name: str) -> int:
    return LOT_INDEX[name.lower()]


def colour(name: str) -> int:
    return COLOR_CODES[name]


def blank(players: int = 4, money: int = 50, deck: list[str] | None = None, **options) -> LordsOfVegasState:
    """An empty board at the start of seat 0's action phase. ``deck`` lists lot names top first;
    Game End goes at the bottom unless named 'end'."""
    state = GAME.new_game(players, options, seed=1)
    state.marker = [-1] * NUM_LOTS
    state.tile = [-1] * NUM_LOTS
    state.dieo = [-1] * NUM_LOTS
    state.diev = [0] * NUM_LOTS
    state.money = [money] * players
    state.score = [0] * players
    state.active = 0
    state.phase = ACTION
    state.log = []
    state.gambled = False
    state.reorged = 0
    state.bans = ()
    state.offers_made = 0
    names = deck if deck is not None else []
    top_first = [GAME_END if n == "end" else lot(n) for n in names]
    if GAME_END not in top_first:
        top_first.append(GAME_END)
    cards = list(reversed(top_first))  # the list's end is the top
    state.deck = cards
    state.ge_index = cards.index(GAME_END)
    state.discard = [c for c in range(NUM_CARDS) if c not in cards]
    sync(state)
    return state


def sync(state: LordsOfVegasState) -> None:
    """Recount markers, dice and tiles after editing the board by hand."""
    n = state.num_players
    state.markers_out = [sum(1 for m in state.marker if m == s) for s in range(n)]
    state.dice_out = [sum(1 for o in state.dieo if o == s) for s in range(n)]
    state.tiles_left = [TILES_PER_COLOR - sum(1 for t in state.tile if t == c) for c in range(NUM_COLORS)]
    state.drop_caches()


def mark(state: LordsOfVegasState, seat: int, *names: str) -> None:
    for name in names:
        state.marker[lot(name)] = seat
    sync(state)


def put(
    state: LordsOfVegasState, name: str, colour_name: str, seat: int | None = None, value: int = 0
) -> None:
    """A casino tile on ``name``, with ``seat``'s die showing ``value`` (no die if seat is None)."""
    i = lot(name)
    state.tile[i] = colour(colour_name)
    state.dieo[i] = -1 if seat is None else seat
    state.diev[i] = 0 if seat is None else value
    sync(state)


def act(state: LordsOfVegasState, seat: int, text: str) -> None:
    state.apply(seat, state.parse_action(text, seat))


def refused(state: LordsOfVegasState, seat: int, text: str, rule: str) -> None:
    """``text`` by ``seat`` is refused under ``rule`` and leaves the state as it was."""
    before = state_digest(state)
    with pytest.raises(ActionError) as info:
        act(state, seat, text)
    assert info.value.rule == rule, info.value
    assert state_digest(state) == before


def check_invariants(state: LordsOfVegasState) -> None:
    n = state.num_players
    assert all(m >= 0 for m in state.money), state.money
    for c in range(NUM_COLORS):
        on_board = sum(1 for t in state.tile if t == c)
        assert on_board <= TILES_PER_COLOR
        assert on_board + state.tiles_left[c] == TILES_PER_COLOR
    for s in range(n):
        dice = sum(1 for o in state.dieo if o == s)
        markers = sum(1 for m in state.marker if m == s)
        assert dice == state.dice_out[s] <= DICE_PER_PLAYER
        assert markers == state.markers_out[s]
        if state.options["markers_full"] == "free":
            assert markers <= MARKERS_PER_PLAYER
    for i in range(NUM_LOTS):
        if state.tile[i] < 0:
            assert state.dieo[i] == -1 and state.diev[i] == 0
        else:
            assert state.marker[i] == -1
        if n == 2 and i >= lot("f1"):
            assert state.tile[i] < 0 and state.marker[i] < 0
    assert sorted(state.deck + state.discard) == list(range(NUM_CARDS))
    # The incrementally kept casinos equal a fresh flood fill.
    assert state.casinos() == state._flood()
    if state.phase not in (PICK_DIE, PLACE):
        groups, _ = state.casinos()
        for g in groups:
            values = [state.diev[t] for t in g if state.diev[t]]
            if values:
                top = max(values)
                assert len({state.dieo[t] for t in g if state.diev[t] == top}) == 1, (
                    "tie for boss left standing"
                )


def random_game(
    players: int, seed: int, check=None, *, stop: int | None = None, **options
) -> LordsOfVegasState:
    """A seeded random game played to its end, or for ``stop`` actions at most."""
    state = GAME.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while state.to_act and steps != stop:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
        assert steps < 20000
        if check is not None:
            check(state)
    return state
