"""Machi Koro on engine contract 2: typed actions, typed events, data views, the fixed action space,
saved positions, a canonical determinize, and one income formula shared by rules and bots."""

from __future__ import annotations

import json
import random

import pytest

from tabletown.core.errors import IllegalAction, MalformedAction, SnapshotError
from tabletown.core.events import Event
from tabletown.core.record import state_fingerprint
from tabletown.core.words import Names
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import (
    ADD2,
    KEEP,
    NOADD,
    NOSWAP,
    PASS,
    ROLL1,
    ROLL2,
    TV,
    Build,
    Reroll,
    Roll,
    Swap,
)
from tabletown.games.machikoro.data import all_cards
from tabletown.games.machikoro.heuristics import TUNA_MEAN, own_roll_income
from tabletown.games.machikoro.phases import BUSINESS, TV_PHASE
from tabletown.games.machikoro.render import EFFECTS, describe_event, describe_pending

from .helpers import play, script, setup

EVENT_KINDS = {
    "start",
    "market_shuffled",
    "market_reveal",
    "roll",
    "keep",
    "reroll",
    "harbor_add",
    "pay",
    "income",
    "tuna_roll",
    "take",
    "swap_impossible",
    "no_swap",
    "swap",
    "city_hall",
    "pass",
    "build",
    "win",
    "airport",
    "extra_turn",
}


def random_games(count: int, seed: int = 0):
    """Finished seeded random games over every player count, Harbor and market."""
    rng = random.Random(seed)
    for number in range(count):
        players = 2 + number % 3
        options = {
            "harbor": number % 2 == 0,
            "market": ("all", "ten", "hybrid")[number % 3],
            "city_hall": ("broke", "every_turn")[number // 3 % 2],
        }
        state = GAME.new_game(players, options, seed=seed * 1000 + number)
        while state.to_act:
            (seat,) = state.to_act
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state


def test_actions_are_typed_values_that_print_as_what_they_mean():
    assert Roll(dice=2) == ROLL2 and hash(Roll(2)) == hash(ROLL2)
    assert Roll(1) != Reroll(1) and TV(1) != Roll(1)
    assert repr(Build(card="cafe")) == "Build(card='cafe')"
    assert repr(Swap(mine="wheat", seat=1, theirs="mine")) == "Swap(mine='wheat', seat=1, theirs='mine')"
    assert {KEEP, ADD2, NOADD, NOSWAP, PASS} == {"keep", "add2", "noadd", "noswap", "pass"}
    with pytest.raises(AttributeError):
        Build("cafe").card = "mine"  # frozen


def test_hand_built_actions_are_accepted_like_the_shared_ones():
    state = setup(3, coins=[9, 0, 5], cards={0: {"tv": 1, "office": 1}, 1: {"mine": 1}})
    script(state, 6)
    state.apply(0, Roll(dice=1))
    assert state.phase == TV_PHASE
    state.apply(0, TV(target=2))
    assert state.phase == BUSINESS
    state.apply(0, Swap(mine="wheat", seat=1, theirs="mine"))
    state.apply(0, Build(card="cafe"))
    assert state.current == 1 and state.cards[0][3] == 1


def test_every_legal_action_is_one_of_the_five_types_and_in_the_action_space():
    seen = set()
    for state in random_games(9, seed=1):
        space = GAME.action_space(state.num_players, state.options)
        replay = GAME.new_game(state.num_players, state.options, seed=state.seed)
        rng = random.Random(4)
        while replay.to_act:
            (seat,) = replay.to_act
            legal = replay.legal_actions(seat)
            for action in legal:
                assert type(action) in (str, Roll, Reroll, TV, Swap, Build)
                assert action in space
                seen.add(type(action).__name__)
            replay.apply(seat, rng.choice(legal))
    assert {"str", "Roll", "Build"} <= seen


def test_action_space_lists_each_action_once_in_a_fixed_order():
    small = GAME.action_space(2, {})
    assert list(small[:5]) == [Roll(1), Roll(2), KEEP, Reroll(1), Reroll(2)]
    assert ADD2 not in small and TV(1) not in small  # no Harbor; two players never choose a target
    assert small.index(PASS) + 1 + 15 + 4 == len(small)  # then 15 establishments and 4 landmarks
    assert Build("cityhall") not in small and Build("sushi") not in small
    big = GAME.action_space(4, {"harbor": True})
    assert ADD2 in big and TV(3) in big and TV(4) not in big
    assert Swap("wheat", 3, "tuna") in big and Swap("wheat", 3, "wheat") not in big
    assert Swap("tv", 1, "wheat") not in big  # purple cards are never swapped
    assert GAME.action_space(4, {"harbor": True}) is big  # cached
    assert list(GAME.build_action_space(4, GAME.resolve_options(4, {"harbor": True}))) == list(big)


def test_is_legal_never_raises_and_matches_apply():
    state = setup(3, coins=[0, 0, 0], cards={0: {"office": 1}, 1: {"mine": 1}})
    script(state, 6)
    play(state, "roll")
    assert state.phase == BUSINESS
    for action in (Swap("wheat", 1, "mine"), NOSWAP):
        assert state.is_legal(0, action)
    odd = (Swap("wheat", 9, "mine"), Swap(["x"], 1, "mine"), Swap("wheat", "1", "mine"))
    for action in (
        Swap("wheat", 0, "bakery"),
        Swap("wheat", 1, "wheat"),
        Swap("x", 1, "y"),
        PASS,
        "x",
        None,
        *odd,
    ):
        assert not state.is_legal(0, action)
        probe = state.clone()
        with pytest.raises((IllegalAction, MalformedAction)):
            probe.apply(0, action)
    with pytest.raises(IllegalAction) as err:
        state.clone().apply(0, Swap("station", 1, "mine"))
    assert err.value.rule == "business_center.tower"
    assert state.is_legal(0, Swap("wheat", True, "mine"))  # equal to Swap("wheat", 1, "mine")
    state.apply(0, Swap("wheat", True, "mine"))
    assert state.log[-1].data == {"seat": 0, "mine": "wheat", "target": 1, "theirs": "mine"}


def test_values_equal_to_a_legal_action_are_that_action():
    """Roll(dice=True) == Roll(1) in Python, so it is legal and plays exactly as Roll(1) does."""
    state = setup(3, coins=[9, 0, 5], cards={0: {"tv": 1}}, landmarks={0: ["station"]})
    for odd, exact in ((Roll(dice=True), ROLL1), (Roll(dice=2.0), ROLL2)):
        assert state.is_legal(0, odd)
        a, b = state.clone(), state.clone()
        a.apply(0, odd)
        b.apply(0, exact)
        assert state_fingerprint(a) == state_fingerprint(b)
    for junk in (Roll(dice=3), Roll(dice="1"), Roll(dice=[1])):
        assert not state.is_legal(0, junk)
        with pytest.raises(MalformedAction):
            state.clone().apply(0, junk)
    script(state, 6)
    play(state, "roll")
    for junk in (TV(target=[1]), TV(target="1"), TV(target=-1)):
        assert not state.is_legal(0, junk)
        with pytest.raises(MalformedAction):
            state.clone().apply(0, junk)
    assert state.is_legal(0, TV(target=True))
    state.apply(0, TV(target=True))
    assert state.log[-1].kind == "take" and state.log[-1].data["from"] == 1


def test_events_are_typed_public_data_and_every_kind_has_words():
    kinds = set()
    for state in random_games(24, seed=2):
        assert all(type(event) is Event and event.seats is None for event in state.log)
        view = state.view(None)
        for event in view["events"]:
            kinds.add(event["kind"])
            assert event["kind"] in EVENT_KINDS
            json.dumps(event)
            text = describe_event(event)
            assert text and not text.startswith(event["kind"] + ":"), event
    assert kinds >= EVENT_KINDS - {"extra_turn", "airport", "swap_impossible", "harbor_add"}


def test_events_of_a_scripted_turn():
    state = setup(2, coins=[3, 0], cards={0: {"bakery": 2}, 1: {"cafe": 1}})
    script(state, 3)
    play(state, "roll", "build wheat")
    assert [(e.kind, dict(e.data)) for e in state.log] == [
        ("roll", {"seat": 0, "dice": [3], "total": 3}),
        ("pay", {"seat": 0, "to": 1, "amount": 1, "due": 1, "card": "cafe", "copies": 1}),
        ("income", {"seat": 0, "amount": 2, "card": "bakery", "copies": 2}),
        ("build", {"seat": 0, "card": "wheat", "cost": 1}),
    ]
    words = [describe_event(e.to_json(i)) for i, e in enumerate(state.log)]
    # cards by their printed names; seats as P0, P1 for the terminal
    assert words == [
        "P0 rolls 3.",
        "P0 pays P1 1 coin for Cafe.",
        "P0 takes 2 coins from the bank for Bakery ×2.",
        "P0 builds a Wheat Field for 1 coin.",
    ]
    # people's words: players' names, "You" for the reader, verbs that agree
    events = [e.to_json(i) for i, e in enumerate(state.log)]
    as_alice = [describe_event(e, Names(["Alice", "Bob"], viewer=0)) for e in events]
    assert as_alice == [
        "You roll 3.",
        "You pay Bob 1 coin for Cafe.",
        "You take 2 coins from the bank for Bakery ×2.",
        "You build a Wheat Field for 1 coin.",
    ]
    as_bob = [describe_event(e, Names(["Alice", "Bob"], viewer=1)) for e in events]
    assert as_bob[:2] == ["Alice rolls 3.", "Alice pays you 1 coin for Cafe."]


def test_view_carries_the_board_as_data():
    state = GAME.new_game(3, {"harbor": True, "sushi_cost": 2}, seed=4)
    view = state.view(1)
    st = view["state"]
    cards = {card["id"]: card for card in st["cards"]}
    assert len(cards) == 25
    assert cards["sushi"] == {
        "id": "sushi",
        "color": "red",
        "icon": "cup",
        "rolls": [1],
        "cost": 2,
        "copies": 6,
        "expansion": "harbor",
    }
    assert {lm["id"]: (lm["cost"], lm["counts"]) for lm in st["landmarks"]} == {
        "station": (4, True),
        "mall": (10, True),
        "park": (16, True),
        "radio": (22, True),
        "cityhall": (0, False),
        "harbor": (2, True),
        "airport": (30, True),
    }
    assert st["players"][0]["establishments"] == {"wheat": 1, "bakery": 1}
    assert st["pending"] == {"seat": 0, "decision": "roll", "dice": [1]}
    assert st["market_kind"] == "ten" and set(st["market"]) <= set(cards)
    assert describe_pending(view) == "P0 to roll (roll)."
    base = GAME.new_game(2, {}, seed=4).view(None)["state"]
    assert len(base["cards"]) == 15 and [lm["id"] for lm in base["landmarks"]] == [
        "station",
        "mall",
        "park",
        "radio",
    ]


@pytest.mark.parametrize(
    ("moves", "dice", "pending", "words"),
    [
        ((), (), {"decision": "roll", "dice": [1, 2]}, "P0 to roll (roll / roll2)."),
        (
            ("roll2",),
            (5, 6),
            {"decision": "reroll", "dice": [1, 2]},
            "P0 may re-roll with the Radio Tower (keep / reroll / reroll2).",
        ),
        (
            ("roll2", "keep"),
            (5, 6),
            {"decision": "harbor", "roll": 11},
            "P0 may add 2 to the roll of 11 with the Harbor (add2 / noadd).",
        ),
        (
            ("roll2", "keep", "noadd"),
            (5, 6),
            {"decision": "build"},
            "P0 may build one establishment or landmark (build CARD / pass).",
        ),
    ],
)
def test_pending_decision_is_data_and_the_renderer_words_it(moves, dice, pending, words):
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio", "harbor"]}, harbor=True)
    script(state, *dice)
    play(state, *moves)
    view = state.view(0)
    assert view["state"]["pending"] == {"seat": 0, **pending}
    assert describe_pending(view) == words


def test_tv_station_pending_and_game_over():
    state = setup(3, coins=[0, 5, 5], cards={0: {"tv": 1}})
    script(state, 6)
    play(state, "roll")
    assert state.view(None)["state"]["pending"] == {"seat": 0, "decision": "tv_station", "amount": 5}
    finished = next(iter(random_games(1, seed=5)))
    view = finished.view(None)
    assert view["state"]["pending"] is None
    assert describe_pending(view) == f"P{finished.winner} has won."


def test_the_renderer_words_every_card():
    assert set(EFFECTS) == {card.code for card in all_cards()}


def test_terminal_rendering_names_cards_and_shows_the_log():
    from rich.console import Console

    state = setup(2, coins=[3, 0], cards={1: {"cafe": 1}})
    script(state, 3)
    play(state, "roll")
    console = Console(width=200, record=True)
    console.print(GAME.render(state.view(0)))
    text = console.export_text()
    assert "P0 pays P1 1 coin for Cafe." in text
    assert "Convenience Store" in text and "3 on your roll (+1 with Mall)" in text
    assert "P0 may build one establishment or landmark" in text
    assert GAME.describe_event(state.view(0)["events"][0]) == "P0 rolls 3."


def test_determinize_reshuffles_from_a_canonical_order():
    state = GAME.new_game(2, {"market": "hybrid"}, seed=8)
    twin = state.clone()
    for deck in twin.decks:
        deck.reverse()
    assert twin.decks != state.decks
    a, b = state.determinize(0, 5), twin.determinize(0, 5)
    assert a.decks == b.decks and state_fingerprint(a) == state_fingerprint(b)
    assert [sorted(d) for d in a.decks] == [sorted(d) for d in state.decks]
    assert state.determinize(0, 6).decks != a.decks


def test_saved_positions_round_trip_and_refuse_impossible_ones():
    state = GAME.new_game(3, {"harbor": True, "market": "hybrid"}, seed=3)
    rng = random.Random(3)
    for _ in range(80):
        (seat,) = state.to_act
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    document = json.loads(json.dumps(state.to_json()))
    restored = GAME.state_from_json(document)
    assert state_fingerprint(restored) == state_fingerprint(state)
    assert restored.view(0) == state.view(0)
    from tabletown.core.snapshot import checksum

    def forged(field, value):
        doc = json.loads(json.dumps(document))
        doc["fields"][field] = value
        doc["checksum"] = checksum({k: v for k, v in doc.items() if k != "checksum"})
        return doc

    broken = list(document["fields"]["supply"])
    broken[0] += 1  # a Wheat Field out of nowhere
    for doc in (forged("supply", broken), forged("coins", [-1, 0, 0]), forged("current", 7)):
        with pytest.raises(SnapshotError):
            GAME.state_from_json(doc)


def test_game_type():
    kind = GAME.game_type
    assert (kind.dynamics, kind.chance, kind.hidden_information) == ("sequential", True, True)
    assert kind.max_actions >= 10_000


def test_bots_income_estimate_uses_the_rules_payments():
    """own_roll_income (the bots' estimate, built on the rules' red_due / green_gain / blue_gain)
    equals what the rules pay the roller, where no purple card or Tuna Boat makes it an estimate and
    the roller can pay every red card."""
    checked = 0
    for state in random_games(6, seed=9):
        for roll in range(1, 13):
            probe = state.clone()
            probe.phase, probe.current = 0, 0
            for i, card in enumerate(probe.t.cards):
                if card.is_purple or card.code == "tuna":
                    for city in probe.cards:
                        city[i] = 0
            probe.coins[0] = 100
            expected = own_roll_income(probe, 0, roll)
            probe.total = roll
            probe._resolve_income()
            assert probe.coins[0] - 100 == expected, roll
            checked += 1
    assert checked == 72 and TUNA_MEAN == 7
