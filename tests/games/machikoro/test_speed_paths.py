"""The rules' fast paths (issue 21) against plain reference versions.

The legal build and swap lists are read from precomputed tables and memos, the market decks are
shuffled by a written-out Fisher-Yates, the dice of a roll are drawn without calling ``die()``, and
common events are shared objects. Each must give exactly what the plain code gives: the same list in
the same order, the same deck order and RNG position, the same log.
"""

from __future__ import annotations

import random

import pytest

from tabletown.core.events import Event
from tabletown.core.rng import SeededRNG, shuffle
from tabletown.core.session import play_out, random_agent
from tabletown.games.machikoro import GAME, income
from tabletown.games.machikoro.actions import BUILD_ESTABLISHMENT, BUILD_LANDMARK, PASS, SWAPS
from tabletown.games.machikoro.phases import BUILD, BUSINESS
from tabletown.games.machikoro.state import MachiKoroState
from tabletown.testing import ScriptedDice

SETUPS = [
    (2, {"harbor": False}),
    (4, {"harbor": False}),
    (2, {"harbor": True}),
    (4, {"harbor": True}),
    (3, {"harbor": True, "market": "hybrid"}),
    (3, {"harbor": False, "market": "ten"}),
    (5, {"harbor": True, "fifth_player": True, "market": "all", "sushi_cost": 2}),
]


def reference_builds(state: MachiKoroState) -> list:
    """The build step's legal list written plainly from the rules."""
    t = state.t
    p = state.current
    coins = state.coins[p]
    city = state.cards[p]
    moves: list = [PASS]
    for i in range(len(t.cards)):
        if t.in_play[i] and state.supply[i] and t.cost[i] <= coins and not (t.purple[i] and city[i]):
            moves.append(BUILD_ESTABLISHMENT[i])
    for j in t.buildable_landmarks:
        if not state.lm[p] >> j & 1 and t.landmark_cost[j] <= coins:
            moves.append(BUILD_LANDMARK[j])
    return moves


def reference_swaps(state: MachiKoroState) -> list:
    p = state.current
    swappable = state.t.swappable
    moves = []
    for target in range(state.num_players):
        if target == p:
            continue
        for a in swappable:
            if not state.cards[p][a]:
                continue
            for b in swappable:
                if b != a and state.cards[target][b]:
                    moves.append(SWAPS[a][target][b])
    return moves


def positions(players: int, options: dict, games: int, seed: int):
    """Every position of a few seeded random games (copies)."""
    rng = random.Random(seed)
    for number in range(games):
        state = GAME.new_game(players, options, seed=seed + number)
        while state.to_act:
            yield state.clone()
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_build_and_swap_lists_match_the_plain_rules(players: int, options: dict) -> None:
    builds = swaps = 0
    for state in positions(players, options, 6, 300):
        p = state.current
        if state.phase == BUILD:
            assert state.legal_actions(p) == reference_builds(state)
            builds += 1
        elif state.phase == BUSINESS:
            assert state.legal_actions(p)[1:] == reference_swaps(state)
            swaps += 1
        # Business Center test on every position: the listing (memo or not) and the quick check
        wanted = reference_swaps(state)
        assert state._swap_actions() == wanted
        assert state._swap_actions() == wanted  # again, now from the memo
        assert state._can_swap() == bool(wanted)
    assert builds > 50


def test_build_list_with_hand_made_counts() -> None:
    """Two copies of a purple card (never in play) and coins past the dearest card still list
    exactly what the rules allow."""
    for players, options in SETUPS:
        for state in positions(players, options, 1, 77):
            if state.phase != BUILD:
                continue
            p = state.current
            stadium = state.t.codes.index("stadium")
            state.cards[p][stadium] = 2
            state.coins[p] = 500
            assert state.legal_actions(p) == reference_builds(state)
            break


def test_swap_list_with_a_huge_hand_made_count() -> None:
    state = GAME.new_game(3, {"harbor": True}, seed=5)
    state.cards[1][0] = 300  # far more than a real game holds
    state.cards[0][2] = 2
    assert state._swap_actions() == reference_swaps(state)


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 84, 140])
def test_written_out_shuffle_draws_like_the_standard_one(length: int) -> None:
    for seed in range(40):
        mine, theirs = SeededRNG(seed), SeededRNG(seed)
        deck_a, deck_b = list(range(length)), list(range(length))
        shuffle(mine, deck_a)
        theirs.shuffle(deck_b)
        assert deck_a == deck_b
        assert mine.getstate() == theirs.getstate()


class _OwnDie(SeededRNG):
    """A generator of another class, so the rules call its die() instead of writing it out."""

    __slots__ = ()

    def clone(self) -> _OwnDie:
        twin = _OwnDie.__new__(_OwnDie)
        twin.setstate(self.getstate())
        return twin


@pytest.mark.parametrize(("players", "options"), SETUPS[:4])
def test_written_out_dice_match_die(players: int, options: dict) -> None:
    """The roll draws the dice as SeededRNG.die would: the same games with either."""
    for seed in range(5):
        fast = GAME.new_game(players, options, seed=seed)
        slow = GAME.new_game(players, options, seed=seed)
        slow.rng = _OwnDie.__new__(_OwnDie)
        slow.rng.setstate(fast.rng.getstate())
        play_out(fast, [random_agent(random.Random(seed))] * players)
        play_out(slow, [random_agent(random.Random(seed))] * players)
        assert fast.log == slow.log
        assert fast.rng.getstate() == slow.rng.getstate()


def test_shared_events_equal_fresh_ones_and_odd_dice_are_logged() -> None:
    state = GAME.new_game(2, {"harbor": False}, seed=3)
    play_out(state, [random_agent(random.Random(3))] * 2)
    for event in state.log:
        assert event == Event(event.kind, dict(event.data), event.seats)
    # a scripted die outside 1-6 has no shared event: it is made afresh
    odd = GAME.new_game(2, {"harbor": False}, seed=3)
    odd.rng = ScriptedDice([9])
    before = len(odd.log)
    odd.apply(0, odd.legal_actions(0)[0])
    assert odd.log[before] == Event("roll", {"seat": 0, "dice": [9], "total": 9})


def test_event_memos_empty_themselves_past_their_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(income, "_MEMO_LIMIT", 3)
    income._INCOME_EVENTS.clear()
    for amount in range(10):
        event = income._remember(income._INCOME_EVENTS, (0, amount, "wheat", 1), income._income_event)
        assert event == Event("income", {"seat": 0, "amount": amount, "card": "wheat", "copies": 1})
        assert len(income._INCOME_EVENTS) <= 3
    income._INCOME_EVENTS.clear()
