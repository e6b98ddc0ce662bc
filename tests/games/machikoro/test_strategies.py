"""The published strategy bots play exactly as the reference's "Fixed strategies" describes them.

The buy orders below are copied from the reference's wording (card names as printed there) and
parsed here, so a change to the bots' lists that drifts from the reference fails these tests.
"""

from __future__ import annotations

import pytest

from tabletown.bots import make_bot
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import KEEP, PASS, REROLL1, REROLL2, ROLL1, ROLL2, Build
from tabletown.games.machikoro.data import LANDMARK_CODES, establishment_index
from tabletown.games.machikoro.phases import BUILD, REROLL
from tabletown.games.machikoro.strategies import PUBLISHED

from .helpers import play, script, setup

# The reference, "Published buy orders", word for word.
REFERENCE = {
    "cheese-factory": "Ranch ×6, Train Station, Cheese Factory ×2, Radio Tower",
    "bakery": "Bakery ×6, Shopping Mall, Radio Tower",
    "convenience-store": "Bakery ×3, Shopping Mall, Convenience Store ×6",
    "one-die-spread": "Bakery ×2, Ranch ×2, Wheat Field ×2, Forest, Convenience Store ×2, Cafe ×2, "
    "Family Restaurant, Stadium",
    "fruit-and-vegetable": "Wheat Field ×6, Train Station, Fruit and Vegetable Market ×6",
    "furniture-factory": "Forest ×3, Mine ×3, Train Station, Furniture Factory ×2, Radio Tower",
    "mine-spread": "Wheat Field, Ranch, Forest, Mine ×3, Train Station, Mine, Apple Orchard",
}
NAMES = {
    "Wheat Field": "wheat",
    "Ranch": "ranch",
    "Bakery": "bakery",
    "Cafe": "cafe",
    "Convenience Store": "store",
    "Forest": "forest",
    "Stadium": "stadium",
    "Cheese Factory": "cheese",
    "Furniture Factory": "furniture",
    "Mine": "mine",
    "Family Restaurant": "restaurant",
    "Apple Orchard": "apple",
    "Fruit and Vegetable Market": "market",
    "Train Station": "station",
    "Shopping Mall": "mall",
    "Amusement Park": "park",
    "Radio Tower": "radio",
}
# "When the list is done, it buys the missing landmarks in the order Train Station, Shopping Mall,
# Amusement Park, Radio Tower".
LANDMARK_ORDER = ["station", "mall", "park", "radio"]
LANDMARK_COST = {"station": 4, "mall": 10, "park": 16, "radio": 22}


def purchases(name: str) -> list[str]:
    """The reference's list as single purchases: 'Ranch ×6' is six Ranches."""
    out = []
    for item in REFERENCE[name].split(", "):
        card, _, copies = item.partition(" ×")
        out += [NAMES[card]] * int(copies or 1)
    return out


def full_sequence(name: str) -> list[str]:
    bought = purchases(name)
    return bought + [code for code in LANDMARK_ORDER if code not in bought]


def cost(state, code: str) -> int:
    if code in LANDMARK_COST:
        return LANDMARK_COST[code]
    return state.t.cost[establishment_index(code)]


def give(state, seat: int, code: str) -> None:
    if code in LANDMARK_COST:
        state.lm[seat] |= 1 << LANDMARK_CODES.index(code)
    else:
        state.cards[seat][establishment_index(code)] += 1
        state.supply[establishment_index(code)] -= 1


def bot(name: str):
    return make_bot(GAME, f"strategy:{name}", 1)


def build_choice(player, state, coins: int):
    state.coins[0] = coins
    state.phase = BUILD
    return player.choose(state, 0)


def test_the_set_is_the_reference_set():
    assert set(PUBLISHED) == set(REFERENCE)
    registered = {n.removeprefix("strategy:") for n in GAME.bots() if n.startswith("strategy:")}
    assert {n for n in registered if not n.startswith("legacy-")} == set(REFERENCE)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_buys_in_the_published_order_and_waits_when_the_next_item_is_dear(name):
    player = bot(name)
    state = setup(2, coins=[0, 0])
    for step, code in enumerate(full_sequence(name)):
        price = cost(state, code)
        if price > 1:
            # One coin short: something cheaper is affordable, yet the strategy waits.
            assert build_choice(player, state, price - 1) == PASS, (name, step, code)
            assert any(type(action) is Build for action in state.legal_actions(0))
        assert build_choice(player, state, price) == Build(code), (name, step, code)
        # With plenty of coins (but not all the missing landmarks' price) it still buys the same item.
        missing = sum(
            LANDMARK_COST[c] for c in LANDMARK_ORDER if not state.lm[0] >> LANDMARK_CODES.index(c) & 1
        )
        if price + 5 < missing:
            assert build_choice(player, state, price + 5) == Build(code), (name, step, code)
        give(state, 0, code)
    assert state.lm[0] & 0b1111 == 0b1111


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_goes_straight_for_the_landmarks_once_coins_cover_them_all(name):
    player = bot(name)
    state = setup(2, coins=[0, 0])
    assert build_choice(player, state, 52) == Build("station")
    assert build_choice(player, state, 51) == Build(full_sequence(name)[0])
    give(state, 0, "station")
    assert build_choice(player, state, 48) == Build("mall")
    give(state, 0, "mall")
    give(state, 0, "radio")
    assert build_choice(player, state, 16) == Build("park")


def test_a_sold_out_pile_is_skipped_not_waited_for():
    player = bot("bakery")
    state = setup(2, coins=[0, 0], cards={1: {"bakery": 4}})
    state.supply[establishment_index("bakery")] = 0
    assert build_choice(player, state, 10) == Build("mall")
    assert build_choice(player, state, 9) == PASS


def test_cards_owned_from_the_start_are_not_purchases():
    # "Bakery ×6": the starting Bakery plus six bought ones.
    player = bot("bakery")
    state = setup(2, coins=[0, 0], cards={0: {"bakery": 6}})
    assert build_choice(player, state, 5) == Build("bakery")
    state.cards[0][establishment_index("bakery")] = 7
    assert build_choice(player, state, 9) == PASS
    assert build_choice(player, state, 10) == Build("mall")


# --- dice: two dice only with the Train Station and a best-paying own roll of 7 or more -------------------


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_no_two_dice_without_the_train_station(name):
    cards = {}
    for code in purchases(name):
        if code not in LANDMARK_COST:
            cards[code] = cards.get(code, 0) + 1
    state = setup(2, coins=[0, 0], cards={0: cards})
    assert bot(name).choose(state, 0) == ROLL1


@pytest.mark.parametrize(
    ("name", "cards", "two_dice"),
    [
        # "a Cheese Factory player keeps rolling one die until it owns a factory"
        ("cheese-factory", {"ranch": 6}, False),
        ("cheese-factory", {"ranch": 6, "cheese": 1}, True),
        ("bakery", {"bakery": 7}, False),
        ("convenience-store", {"bakery": 4, "store": 6}, False),
        ("one-die-spread", {"bakery": 3, "ranch": 2, "wheat": 3, "forest": 1, "store": 2, "cafe": 2}, False),
        ("fruit-and-vegetable", {"wheat": 7}, False),
        ("fruit-and-vegetable", {"wheat": 7, "market": 1}, True),
        ("furniture-factory", {"forest": 3}, False),
        ("furniture-factory", {"forest": 3, "mine": 3}, True),  # three Mines pay 15 on a 9
        ("mine-spread", {"wheat": 2, "ranch": 1, "forest": 1}, False),
        ("mine-spread", {"wheat": 2, "ranch": 1, "forest": 1, "mine": 3}, True),
    ],
)
def test_dice_rule(name, cards, two_dice):
    state = setup(2, coins=[0, 0], cards={0: cards}, landmarks={0: ["station"]})
    assert bot(name).choose(state, 0) == (ROLL2 if two_dice else ROLL1)


def test_a_tie_for_the_best_roll_keeps_one_die():
    # A city that earns nothing on any roll: every total ties at 0, the lowest (1) counts: one die.
    state = setup(2, coins=[0, 0], cards={0: {"wheat": 0, "bakery": 0}}, landmarks={0: ["station"]})
    assert bot("cheese-factory").choose(state, 0) == ROLL1


# --- Radio Tower: re-roll when the roll paid 2 coins or less -------------------------------------------


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_radio_tower_rerolls_a_roll_that_paid_two_or_less(name):
    player = bot(name)
    # Three Bakeries: a 2 pays 3 (keep), a 1 pays the Wheat Field's 1 (re-roll), a 6 pays nothing.
    for die, paid in ((2, 3), (1, 1), (6, 0)):
        state = setup(2, coins=[0, 0], cards={0: {"bakery": 3}}, landmarks={0: ["radio"]})
        script(state, die)
        play(state, "roll")
        assert state.phase == REROLL
        assert player.choose(state, 0) == (KEEP if paid > 2 else REROLL1), (name, die)


def test_radio_tower_threshold_is_two_coins():
    player = bot("bakery")
    for bakeries, expected in ((2, REROLL1), (3, KEEP)):  # a 3 pays 2, then 3
        state = setup(2, coins=[0, 0], cards={0: {"bakery": bakeries}}, landmarks={0: ["radio"]})
        script(state, 3)
        play(state, "roll")
        assert player.choose(state, 0) == expected


def test_radio_tower_reroll_uses_the_dice_rule():
    # Cheese Factory city with the station: two dice; a 5 pays nothing, so it re-rolls with two dice.
    state = setup(2, coins=[0, 0], cards={0: {"ranch": 6, "cheese": 2}}, landmarks={0: ["station", "radio"]})
    script(state, 2, 3)
    play(state, "roll2")
    assert bot("cheese-factory").choose(state, 0) == REROLL2
    # Without a factory the best roll is a 2: a bad two-dice roll is re-rolled with one die.
    state = setup(2, coins=[0, 0], cards={0: {"ranch": 6}}, landmarks={0: ["station", "radio"]})
    script(state, 2, 3)
    play(state, "roll2")
    assert bot("cheese-factory").choose(state, 0) == REROLL1
    # A 7 with two factories pays 36: kept.
    state = setup(2, coins=[0, 0], cards={0: {"ranch": 6, "cheese": 2}}, landmarks={0: ["station", "radio"]})
    script(state, 3, 4)
    play(state, "roll2")
    assert bot("cheese-factory").choose(state, 0) == KEEP


def test_red_payments_do_not_count_against_what_a_roll_paid():
    # A 3 pays 3 Bakery coins even though the rival's Cafes take them: kept.
    state = setup(2, coins=[0, 0], cards={0: {"bakery": 3}, 1: {"cafe": 6}}, landmarks={0: ["radio"]})
    script(state, 3)
    play(state, "roll")
    assert bot("bakery").choose(state, 0) == KEEP


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_plays_whole_games_legally(name):
    from tabletown.core.session import play_out
    from tabletown.testing import legal_checked

    for seed in range(3):
        state = GAME.new_game(2, {}, seed=seed)
        play_out(state, [legal_checked(bot(name), 1), legal_checked(make_bot(GAME, "greedy", 2), 2)])
        assert state.is_over
