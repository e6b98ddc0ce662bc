"""The memos the rules keep up to date as they go (each seat's lots, the listed trades' candidates,
the casinos and their dice summaries) always equal what a fresh computation gives: at every step of
random games, including typed trades of dice, lots and promises, a copy that forgot its memos lists
the same actions and rebuilds the same memos."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletown.core.errors import ActionError
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.actions import BAN_KINDS, Item, Offer
from tabletown.games.lordsofvegas.state import ACTION, LordsOfVegasState


def _check_memos(state: LordsOfVegasState) -> None:
    fresh = state.clone()
    fresh.drop_caches()
    for seat in state.to_act:
        assert state.legal_actions(seat) == fresh.legal_actions(seat)
    assert state.casinos() == fresh.casinos()
    if state._cache_own is not None:
        assert state._cache_own == fresh._owned()
    if state._cache_plan is not None:
        seat = state._cache_plan[0]
        assert state._cache_plan == fresh._offer_plan(seat)
    for group, stats in state._cache_stats.items():
        assert group in state.casinos()[0]
        assert stats == fresh._dice_stats(group)


def _typed_offer(state: LordsOfVegasState, rng: random.Random) -> Offer | None:
    """A random trade of a die, a lot and/or a promise with another seat (often not legal)."""
    p = state.active
    q = rng.choice([s for s in range(state.num_players) if s != p])
    items = []
    dice = [lot for lot, owner in enumerate(state.dieo) if owner in (p, q)]
    lots = [lot for lot, owner in enumerate(state.marker) if owner in (p, q)]
    if dice and rng.random() < 0.6:
        lot = rng.choice(dice)
        owner = state.dieo[lot]
        items.append(Item(owner, q if owner == p else p, "die", lot))
    if lots and rng.random() < 0.5:
        lot = rng.choice(lots)
        owner = state.marker[lot]
        items.append(Item(owner, q if owner == p else p, "lot", lot))
    if rng.random() < 0.5:
        kind = "no-" + rng.choice(BAN_KINDS)
        items.append(Item(p, q, kind, rng.choice([-1, *range(len(state.tile))])))
    if not items:
        return None
    return Offer(tuple(sorted(set(items))))


def _play(
    players: int, options: dict[str, Any], seed: int, check: bool = True
) -> tuple[LordsOfVegasState, bool]:
    """A random game with typed trades now and then; returns it and whether a promise was made."""
    state = GAME.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    promised = False
    steps = 0
    while state.to_act:
        if check:
            _check_memos(state)
        seat = state.to_act[0]
        action = None
        if state.phase == ACTION and state.offers_made < state.options["max_offers"] and rng.random() < 0.15:
            action = _typed_offer(state, rng)
        if action is not None:
            try:
                state.apply(seat, action)
            except ActionError:
                action = None
        if action is None:
            legal = state.legal_actions(seat)
            # Accept more often than not, so that trades (and promises) happen.
            accept = [a for a in legal if a.kind == "accept"]
            state.apply(seat, accept[0] if accept and rng.random() < 0.7 else rng.choice(legal))
        promised = promised or bool(state.bans)
        steps += 1
        assert steps < 20000
    if check:
        _check_memos(state)
    return state, promised


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (2, {}, 1),
        (3, {}, 2),
        (4, {}, 3),
        (3, {"open_market": True}, 4),
        (4, {"markers_full": "hold", "max_offers": 6}, 5),
        (2, {"markers_full": "hold", "open_market": True}, 6),
    ],
)
def test_memos_match_a_fresh_computation(players: int, options: dict[str, Any], seed: int) -> None:
    _play(players, options, seed)


def test_the_games_trade_dice_lots_and_promises() -> None:
    """What the check above relies on: its games move dice and markers by trade, and promise."""
    seen: set[str] = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state, promised = _play(players, {}, seed, check=False)
        if promised:
            seen.add("promise")
        for event in state.log:
            if event.kind == "offer":
                seen.update(item["kind"] for item in event.data["items"])
            elif event.kind == "trade_done":
                seen.add("trade_done")
    assert {"promise", "die", "lot", "trade_done"} <= seen
