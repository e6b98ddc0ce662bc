"""Trading: offers, acceptances, refusals and counter-offers are actions; execution is atomic."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletown.core.errors import ActionError, MalformedAction
from tabletown.core.record import state_digest
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.state import ACTION, MARKET, OFFER, PASS

from .helpers import ScriptedDice, act, blank, check_invariants, lot, mark, put, random_game, refused


def test_notation_round_trip_and_canonical_order() -> None:
    state = blank(3)
    action = state.parse_action("offer 1>0:a3 0>1:$5 0>2:no-reorg-c5 2>0:die-c1 0>1:no-gamble", 0)
    text = state.format_action(action)
    assert text == "offer 0>1:$5 0>1:no-gamble 0>2:no-reorg-c5 1>0:a3 2>0:die-c1"
    assert state.parse_action(text, 0) == action


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("offer 0>1:pts-3", "trade.points"),
        ("offer 0>1:points", "trade.points"),
        ("offer 0>1:tile-a3", "trade.tiles"),
        ("offer", "trade.empty"),
        ("offer 0>1:$5 0>1:$5", "trade.duplicate"),
        ("offer 0-1:$5", "trade.item"),
        ("offer 0>1:no-dance", "trade.item"),
    ],
)
def test_untradeable_things_are_refused(text: str, rule: str) -> None:
    state = blank(3)
    with pytest.raises(MalformedAction) as info:
        state.parse_action(text, 0)
    assert info.value.rule == rule


def test_points_and_tiles_refused_by_apply_too() -> None:
    state = blank(3)
    put(state, "a1", "gold", 1, 3)
    for kind, rule in (("points", "trade.points"), ("tile", "trade.tiles")):
        before = state_digest(state)
        with pytest.raises(ActionError) as info:
            state.apply(0, ("offer", ((1, 0, kind, 3),)))
        assert info.value.rule == rule
        assert state_digest(state) == before


def test_accepted_trade_moves_money_lot_and_die() -> None:
    state = blank(3, money=20)
    mark(state, 1, "a3")
    put(state, "c1", "gold", 1, 5)
    put(state, "c2", "gold", 2, 6)
    act(state, 0, "offer 0>1:$12 1>0:a3 1>0:die-c1")
    assert state.phase == OFFER and state.to_act == (1,)
    refused(state, 0, "end", "turn.not_your_turn")
    act(state, 1, "accept")
    assert state.phase == ACTION and state.to_act == (0,)
    assert state.money[:2] == [8, 32]
    assert state.marker[lot("a3")] == 0
    assert (state.dieo[lot("c1")], state.diev[lot("c1")]) == (0, 5)  # the value stays
    assert state.markers_out[:2] == [1, 0] and state.dice_out[:2] == [1, 0]
    check_invariants(state)


def test_every_giver_must_accept_and_one_refusal_cancels() -> None:
    state = blank(4, money=20)
    mark(state, 2, "b1")
    before = list(state.money)
    act(state, 0, "offer 1>0:$5 2>0:b1 3>0:$2 0>3:$1")
    assert state.to_act == (1, 2, 3)
    act(state, 1, "accept")
    assert state.to_act == (2, 3)
    assert state.money == before  # nothing moves before everyone accepted
    act(state, 2, "refuse")
    assert state.phase == ACTION and state.to_act == (0,)
    assert state.money == before and state.marker[lot("b1")] == 2
    # Offer again: all accept, all at once.
    act(state, 0, "offer 1>0:$5 2>0:b1 3>0:$2 0>3:$1")
    for seat in (1, 2, 3):
        act(state, seat, "accept")
    assert state.money == [20 + 5 + 2 - 1, 15, 20, 19] and state.marker[lot("b1")] == 0


def test_counter_offer() -> None:
    state = blank(2, money=20)
    mark(state, 1, "a3")
    act(state, 0, "offer 0>1:$5 1>0:a3")
    act(state, 1, "offer 0>1:$15 1>0:a3")  # a counter: seat 0 must now answer
    assert state.to_act == (0,)
    assert any(e.kind == "counter" and e.data == {"seat": 1} for e in state.log)
    act(state, 0, "accept")
    assert state.money == [5, 35] and state.marker[lot("a3")] == 0


def test_gift_executes_at_once() -> None:
    state = blank(2, money=20)
    act(state, 0, "offer 0>1:$3")
    assert state.phase == ACTION and state.money == [17, 23]


# Alike by shape to multicity's test_rules.py refusal tests on purpose: each game's tests stand alone (no shared module across tests/games/).
def test_offer_validation() -> None:
    state = blank(3, money=10)
    mark(state, 1, "a3")
    put(state, "c1", "gold", 1, 5)
    refused(state, 0, "offer 0>1:$11", "trade.money")
    refused(state, 0, "offer 2>0:a3", "trade.not_owner")
    refused(state, 0, "offer 2>0:die-c1", "trade.not_owner")
    refused(state, 0, "offer 1>2:$1", "trade.not_party")
    refused(state, 0, "offer 0>0:$1", "trade.seats")
    refused(state, 0, "offer 0>5:$1", "trade.seats")
    refused(state, 0, "offer 1>0:no-gamble", "trade.not_active")
    mark(state, 0, "a1", "a2", "a4", "a5", "a6", "b1", "b2", "b3", "b4", "b5")
    refused(state, 0, "offer 1>0:a3", "trade.markers_full")


def test_dice_full_refused() -> None:
    state = blank(2, money=10)
    names = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"]
    for i, name in enumerate(names):
        put(state, name, ("purple", "silver")[i % 2], 0, 1)
    put(state, "a1", "gold", 1, 4)
    refused(state, 0, "offer 1>0:die-a1", "trade.dice_full")
    act(state, 0, "offer 1>0:die-a1 0>1:die-c1")  # a swap keeps the count
    act(state, 1, "accept")
    assert state.dieo[lot("a1")] == 0 and state.dieo[lot("c1")] == 1


def test_offer_limit_per_turn() -> None:
    state = blank(2, money=20, max_offers=2)
    act(state, 0, "offer 0>1:$1")
    act(state, 0, "offer 0>1:$1")
    refused(state, 0, "offer 0>1:$1", "trade.limit")
    assert not any(a.kind == "offer" for a in state.legal_actions(0))


def test_traded_action_is_enforced_for_the_turn() -> None:
    state = blank(2, money=50)
    put(state, "c1", "gold", 0, 2)
    put(state, "c2", "gold", 1, 6)
    mark(state, 0, "a1")
    act(state, 0, "offer 1>0:$5 0>1:no-reorg-c2 0>1:no-build")
    act(state, 1, "accept")
    refused(state, 0, "reorg c1", "trade.promised")  # C1 and C2 are one casino
    refused(state, 0, "build a1 gold", "trade.promised")
    kinds = {a.kind for a in state.legal_actions(0)}
    assert "reorg" not in kinds and "build" not in kinds
    assert state.view(0)["state"]["promised"] == [
        {"action": "build", "lot": None},
        {"action": "reorg", "lot": "c2"},
    ]
    state.deck.append(lot("b1"))
    act(state, 0, "end")
    act(state, 1, "end")  # back to seat 0: the promise has lapsed
    assert state.bans == ()


def test_trade_that_creates_a_tie_rerolls() -> None:
    state = blank(2, money=20)
    put(state, "c1", "gold", 0, 5)
    put(state, "c2", "gold", 0, 5)
    put(state, "c3", "silver", 1, 3)
    state.rng = ScriptedDice([2, 6])
    act(state, 0, "offer 0>1:die-c2 1>0:$4")
    act(state, 1, "accept")
    assert (state.diev[lot("c1")], state.diev[lot("c2")]) == (2, 6)
    assert state.boss(state.casino_of(lot("c1"))) == 1
    check_invariants(state)


def test_listed_offers_are_bounded_and_legal() -> None:
    state = blank(4, money=30)
    mark(state, 0, "c1", "c5", "d1")
    mark(state, 1, "c2", "d2")
    mark(state, 2, "c4")
    mark(state, 3, "d4")
    offers = [a for a in state.legal_actions(0) if a.kind == "offer"]
    assert 1 <= len(offers) <= 6
    for offer in offers:
        twin = state.clone()
        twin.apply(0, offer)
        assert twin.phase == OFFER


ITEM_WORDS = [
    "$1",
    "$5",
    "$40",
    "a1",
    "c5",
    "d8",
    "die-c5",
    "die-a1",
    "die-d8",
    "no-gamble",
    "no-reorg-c5",
    "no-build",
]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 250), data=st.data())
def test_any_typed_offer_is_atomic(seed: int, steps: int, data) -> None:
    """A typed offer either is refused with the state untouched, or waits / executes in full."""
    players = data.draw(st.sampled_from([2, 3, 4]))
    state = random_game(players, seed, stop=steps)
    if not state.to_act or state.phase not in (ACTION, OFFER):
        return
    seat = state.to_act[0]
    words = data.draw(
        st.lists(
            st.tuples(st.integers(0, players - 1), st.integers(0, players - 1), st.sampled_from(ITEM_WORDS)),
            min_size=1,
            max_size=4,
        )
    )
    text = "offer " + " ".join(f"{g}>{r}:{w}" for g, r, w in words)
    try:
        action = state.parse_action(text, seat)
    except ActionError:
        return
    assert state.parse_action(state.format_action(action), seat) == action
    before = state_digest(state)
    total_money = sum(state.money)
    try:
        state.apply(seat, action)
    except ActionError as exc:
        assert exc.rule.startswith("trade.")
        assert state_digest(state) == before
        return
    # Everyone who gives must accept; then it is done all at once.
    while state.phase == OFFER:
        state.apply(state.to_act[0], ("accept",))
    assert sum(state.money) == total_money
    check_invariants(state)


def test_no_market_by_default() -> None:
    state = blank(3, money=20, deck=["b1", "b2"])
    act(state, 0, "end")
    assert state.active == 1 and state.phase == ACTION
    refused(state, 1, "pass", "phase.action")


def test_open_market_lets_others_trade_after_a_turn() -> None:
    state = blank(3, money=20, deck=["b1", "b2"], open_market=True)
    mark(state, 0, "a3")
    act(state, 0, "end")
    assert state.phase == MARKET and state.to_act == (1,) and state.active == 0
    assert PASS in state.legal_actions(1)
    refused(state, 0, "offer 0>1:$1", "turn.not_your_turn")
    refused(state, 1, "offer 0>1:no-gamble 1>0:$1", "trade.not_active")  # the turn is over
    act(state, 1, "offer 1>0:$9 0>1:a3")
    assert state.to_act == (0,)
    act(state, 0, "accept")
    assert state.marker[lot("a3")] == 1 and state.money[:2] == [29, 11]
    assert state.phase == MARKET and state.to_act == (1,)  # seat 1 may offer again or pass
    act(state, 1, "pass")
    assert state.to_act == (2,)
    act(state, 2, "offer 2>0:$1 0>2:$2")
    act(state, 0, "refuse")
    assert state.phase == MARKET and state.to_act == (2,)
    act(state, 2, "pass")
    assert state.active == 1 and state.phase == ACTION  # seat 1's turn, after its draw
    assert state.marker[lot("b1")] == 1
    check_invariants(state)


def test_open_market_random_games_end() -> None:
    rng = random.Random(9)
    for seed in range(60):
        players = 2 + seed % 3
        state = GAME.new_game(players, {"open_market": True}, seed=seed)
        while state.to_act:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            for action in legal:
                assert state.parse_action(state.format_action(action), seat) == action
            state.apply(seat, rng.choice(legal))
            check_invariants(state)
        assert state.is_over


def test_each_seat_of_the_market_has_its_own_offers() -> None:
    """The market's offer limit is each seat's own: the first seat spending every offer leaves the
    next seat its full allowance (a budget shared by the round left it none)."""
    state = blank(3, money=20, deck=["b1", "b2"], open_market=True, max_offers=2)
    act(state, 0, "end")
    for _ in range(2):
        act(state, 1, "offer 2>1:$1")
        act(state, 2, "refuse")
    refused(state, 1, "offer 2>1:$1", "trade.limit")
    assert state.legal_actions(1) == [PASS]
    act(state, 1, "pass")
    assert state.phase == MARKET and state.to_act == (2,)
    for _ in range(2):
        act(state, 2, "offer 1>2:$1")
        act(state, 1, "refuse")
    refused(state, 2, "offer 1>2:$1", "trade.limit")
    act(state, 2, "pass")
    assert state.active == 1 and state.phase == ACTION and state.offers_made == 0
    check_invariants(state)
