"""The three markets: every pile open, Harbor's ten kinds, and the 5-5-2 hybrid."""

import pytest

from tabletown.core.errors import IllegalAction, OptionError
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.data import establishments

from .helpers import digest, play, script


def showing(state, members=None):
    return {i for i, n in enumerate(state.supply) if n and (members is None or i in members)}


def test_base_market_shows_every_pile():
    state = GAME.new_game(2, {}, seed=1)
    assert sum(state.supply) == 84
    assert len(showing(state)) == 15
    assert state.decks == []


@pytest.mark.parametrize("seed", range(20))
def test_harbor_market_reveals_ten_distinct_kinds(seed):
    state = GAME.new_game(2, {"harbor": True}, seed=seed)
    assert len(showing(state)) == 10
    assert sum(state.supply) + len(state.decks[0]) == 84 + 56


def test_buying_out_a_pile_refills_to_ten_kinds():
    state = GAME.new_game(2, {"harbor": True}, seed=3)
    single = next(i for i, n in enumerate(state.supply) if n == 1 and state.t.cost[i] <= 3)
    state.coins[0] = 30
    script(state, 5)
    play(state, "roll")
    before_deck = len(state.decks[0])
    play(state, f"build {state.t.codes[single]}")
    assert len(showing(state)) == 10
    assert len(state.decks[0]) < before_deck
    assert any(event.kind == "market_reveal" for event in state.log[-3:])


def test_market_stops_refilling_when_the_deck_is_empty():
    state = GAME.new_game(2, {"harbor": True}, seed=4)
    state.decks[0].clear()
    single = next(i for i, n in enumerate(state.supply) if n == 1 and state.t.cost[i] <= 3)
    state.coins[0] = 30
    script(state, 5)
    play(state, "roll", f"build {state.t.codes[single]}")
    assert len(showing(state)) == 9


def test_cards_not_on_display_cannot_be_bought():
    state = GAME.new_game(2, {"harbor": True}, seed=5)
    hidden = next(i for i, n in enumerate(state.supply) if not n and state.t.in_play[i])
    state.coins[0] = 30
    script(state, 5)
    play(state, "roll")
    before = digest(state)
    with pytest.raises(IllegalAction) as err:
        play(state, f"build {state.t.codes[hidden]}")
    assert err.value.rule == "build.not_in_market"
    assert digest(state) == before


def test_sold_out_pile_is_refused():
    state = GAME.new_game(2, {}, seed=5)
    wheat = [c.code for c in establishments()].index("ranch")
    state.supply[wheat] = 0
    script(state, 5)
    play(state, "roll")
    with pytest.raises(IllegalAction) as err:
        play(state, "build ranch")
    assert err.value.rule == "build.sold_out"


@pytest.mark.parametrize("harbor", [False, True])
def test_hybrid_market_shows_five_low_five_high_two_purple(harbor):
    state = GAME.new_game(3, {"harbor": harbor, "market": "hybrid"}, seed=9)
    (low, _), (high, _), (purple, _) = state.t.regions
    assert len(showing(state, set(low))) == 5
    assert len(showing(state, set(high))) == 5
    assert len(showing(state, set(purple))) == 2
    assert all(min(state.t.cards[i].rolls) <= 6 for i in low)
    assert all(min(state.t.cards[i].rolls) >= 7 for i in high)


def test_harbor_cards_are_absent_without_harbor():
    state = GAME.new_game(2, {}, seed=1)
    assert all(c.expansion == "base" for i, c in enumerate(establishments()) if state.supply[i])
    script(state, 5)
    play(state, "roll")
    with pytest.raises(IllegalAction) as err:
        play(state, "build sushi")
    assert err.value.rule == "build.not_in_game"
    with pytest.raises(IllegalAction) as err:
        play(state, "build airport")
    assert err.value.rule == "build.landmark_not_in_game"


def test_sushi_cost_option():
    assert (
        GAME.new_game(2, {"harbor": True}, seed=1).t.cost[[c.code for c in establishments()].index("sushi")]
        == 4
    )
    assert (
        GAME.new_game(2, {"harbor": True, "sushi_cost": 2}, seed=1).t.cost[
            [c.code for c in establishments()].index("sushi")
        ]
        == 2
    )


def test_fifth_player_set():
    with pytest.raises(OptionError):
        GAME.new_game(5, {"harbor": True}, seed=1)
    state = GAME.new_game(5, {"harbor": True, "fifth_player": True, "market": "all"}, seed=1)
    purple = [i for i, c in enumerate(establishments()) if c.is_purple]
    assert all(state.supply[i] == 5 for i in purple)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {}),
        (5, {}),
        (2, {"market": "tiny"}),
        (2, {"harbour": True}),
        (2, {"sushi_cost": 3}),
        (2, {"harbor": "maybe"}),
    ],
)
def test_bad_set_up_is_refused_up_front(players, options):
    with pytest.raises(OptionError):
        GAME.new_game(players, options, seed=1)
