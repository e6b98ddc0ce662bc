"""Audit: every completed draw of many random games checked against an independent payout oracle.

The oracle is written from the reference (board file and rulebook), not from the package: its own
casino flood fill over the reference neighbours, its own boss rule, its own score track walk from the
reference's break table. For each draw it predicts every player's money and score from the position
before the draw and the board after the take-over (tie re-rolls happen before the payout).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.data import GAME_END
from tabletown.games.lordsofvegas.state import FREE_LOT, PICK_DIE

REFERENCE = Path(__file__).parents[4] / "shared" / "reference" / "lords-of-vegas-board.json"
pytestmark = pytest.mark.skipif(not REFERENCE.exists(), reason="reference file not available")


def _load() -> dict:
    ref = json.loads(REFERENCE.read_text())
    ids = [lot["id"] for lot in ref["lots"]]
    index = {name: i for i, name in enumerate(ids)}
    colours = ref["constants"]["casino_colors"]
    return {
        "neighbours": [[index[n] for n in lot["neighbors"]] for lot in ref["lots"]],
        "strip": [lot["touches_strip"] for lot in ref["lots"]],
        "pays": [lot["card_color"] for lot in ref["lots"]],
        "colours": colours,
        "f_lots": {i for i, lot in enumerate(ref["lots"]) if lot["block"] == "F"},
        "breaks": {b["from_space"]: (b["enter"], b["points_needed"]) for b in ref["score_track"]["breaks"]},
        "last": ref["score_track"]["spaces"][-1],
        "dice": [lot["die"] for lot in ref["lots"]],
    }


REF = _load() if REFERENCE.exists() else {}


def _step(square: int) -> tuple[int, int] | None:
    if square >= REF["last"]:
        return None
    return REF["breaks"].get(square, (square + 1, 1))


def _walk(square: int, points: int) -> int:
    step = _step(square)
    while step is not None and points >= step[1]:
        points -= step[1]
        square = step[0]
        step = _step(square)
    return square


def _casinos(tile: list[int]) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for start, colour in enumerate(tile):
        if colour < 0 or start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            lot = todo.pop()
            group.append(lot)
            for nb in REF["neighbours"][lot]:
                if nb not in seen and tile[nb] == colour:
                    seen.add(nb)
                    todo.append(nb)
        out.append(group)
    return out


def _pay(card: int, markers: list[int], tile, dieo, diev, money: list[int], score: list[int]) -> None:
    for owner in markers:
        if owner >= 0:
            money[owner] += 1
    pays = "strip" if card == GAME_END else REF["pays"][card]
    sizes: dict[int, list[int]] = {}
    for group in _casinos(tile):
        if pays == "strip":
            if not any(REF["strip"][lot] for lot in group):
                continue
        elif REF["colours"][tile[group[0]]] != pays:
            continue
        dice = [(diev[lot], dieo[lot]) for lot in group if dieo[lot] >= 0]
        for value, owner in dice:
            money[owner] += value
        if dice:
            top = max(v for v, _ in dice)
            bosses = {o for v, o in dice if v == top}
            assert len(bosses) == 1, "a tie for boss was left standing at a payout"
            sizes.setdefault(bosses.pop(), []).append(len(group))
    for seat, found in sizes.items():
        for size in sorted(found):
            score[seat] = _walk(score[seat], size)


def _check_draw(before, after) -> None:
    drawn = after.discard[len(before.discard) :]
    money, score = list(before.money), list(before.score)
    for card in drawn:
        placed = card != GAME_END and not (before.num_players == 2 and card in REF["f_lots"])
        board = after if placed else before  # F cards (2 players) and Game End place nothing
        _pay(card, board.marker, board.tile, board.dieo, board.diev, money, score)
        if max(score) >= REF["last"]:
            break
    assert after.money == money, (drawn, before.money, after.money, money)
    assert after.score == score, (drawn, before.score, after.score, score)


def _random_steps(players: int, games: int, first_seed: int) -> Iterator[tuple[Any, int, Any, Any]]:
    """Every step of ``games`` seeded random games: (a copy of the state before, seat, action, after)."""
    for seed in range(games):
        state = GAME.new_game(players, {}, seed=first_seed + seed)
        rng = random.Random(seed)
        while state.to_act:
            seat = state.to_act[0]
            action = rng.choice(state.legal_actions(seat))
            before = state.clone()
            state.apply(seat, action)
            yield before, seat, action, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_draw_pays_as_the_oracle_says(players: int) -> None:
    draws = 0
    for before, _seat, _action, state in _random_steps(players, 60, 3000):
        drew = len(state.discard) > len(before.discard)
        if drew and state.phase not in (PICK_DIE, FREE_LOT) and before.phase not in (PICK_DIE, FREE_LOT):
            _check_draw(before, state)
            draws += 1
    assert draws > 60 * 10


# ---------------------------------------------------------------- actions
COST = {1: 8, 2: 6, 3: 9, 4: 12, 5: 15, 6: 20}
MULTIPLIER = {2: 2, 12: 2, 3: 1, 4: 1, 9: 1, 10: 1, 11: 1, 5: -1, 6: -1, 7: -1, 8: -1}


def _group(state, lot: int) -> list[int]:
    return next(g for g in _casinos(state.tile) if lot in g)


def _boss(state, group: list[int]) -> int:
    dice = [(state.diev[t], state.dieo[t]) for t in group if state.dieo[t] >= 0]
    if not dice:
        return -1
    top = max(v for v, _ in dice)
    owners = {o for v, o in dice if v == top}
    return owners.pop() if len(owners) == 1 else -1


def _check_action(before, p: int, action, after) -> None:
    kind = action.kind
    spent = before.money[p] - after.money[p]
    if kind == "build":
        lot = action.lot
        assert before.marker[lot] == p and spent == COST[REF["dice"][lot]]
        assert after.tile[lot] == action.color and after.marker[lot] == -1
    elif kind == "sprawl":
        lot = action.lot
        assert before.tile[lot] < 0 and before.marker[lot] < 0
        assert spent == 2 * COST[REF["dice"][lot]]
        touching = [_group(before, nb) for nb in REF["neighbours"][lot] if before.tile[nb] == action.color]
        assert any(_boss(before, g) == p for g in touching)
        if before.num_players == 2:
            assert lot not in REF["f_lots"]
    elif kind == "remodel":
        group = _group(before, action.lot)
        assert _boss(before, group) == p and before.tile[group[0]] != action.color
        assert spent == 5 * len(group)
        assert all(after.tile[t] == action.color for t in group)
    elif kind == "reorg":
        group = _group(before, action.lot)
        assert any(before.dieo[t] == p for t in group)
        assert spent == sum(before.diev[t] for t in group if before.dieo[t] >= 0)
    elif kind == "gamble":
        group = _group(before, action.lot)
        boss = _boss(before, group)
        assert boss >= 0 and boss != p and 1 <= action.bet <= min(5 * len(group), before.money[p])
        assert spent == 0 and not before.gambled
    elif kind == "layoff":
        boss, gambler, bet = before.pending
        event = next(e for e in reversed(after.log) if e.kind == "gamble_roll")
        assert event.data["seat"] == gambler and event.data["boss"] == boss and event.data["bet"] == bet
        total = event.data["total"]
        assert total == sum(event.data["dice"])
        mult = MULTIPLIER[total]
        stake = bet * abs(mult)
        boss_share = stake // 2 if action.half else stake
        if mult > 0:
            paid = min(boss_share, before.money[boss])
            assert after.money[boss] == before.money[boss] - paid
            assert after.money[gambler] == before.money[gambler] + paid + stake - boss_share
        else:
            assert after.money[boss] == before.money[boss] + boss_share
            assert after.money[gambler] == before.money[gambler] - bet


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_action_costs_and_requires_what_the_oracle_says(players: int) -> None:
    seen: set[str] = set()
    for before, seat, action, state in _random_steps(players, 40, 5000):
        _check_action(before, seat, action, state)
        seen.add(action.kind)
    assert {"build", "sprawl", "remodel", "reorg", "gamble", "layoff"} <= seen
