"""Each card's effect, in small scripted positions."""

import pytest

from tabletown.core.errors import IllegalAction
from tabletown.games.machikoro.actions import ADD2, KEEP, NOADD, REROLL1, REROLL2, TV
from tabletown.games.machikoro.phases import BUILD

from .helpers import count, digest, play, script, setup


def roll(state, *dice, two=False):
    script(state, *dice)
    play(state, "roll2" if two else "roll")


# --- blue: anyone's roll, from the bank ---------------------------------------------------------
def test_wheat_field_pays_every_owner_on_any_roll():
    state = setup(3, coins=[0, 0, 0], cards={1: {"wheat": 3}})
    roll(state, 1)
    assert state.coins == [1, 3, 1]


def test_ranch_forest_mine_apple_orchard():
    state = setup(
        2,
        coins=[0, 0],
        cards={1: {"ranch": 2, "forest": 1, "mine": 1, "apple": 2}},
        landmarks={0: ["station"]},
    )
    roll(state, 1, 1, two=True)  # 2
    assert state.coins[1] == 2
    play(state, "pass")
    state.current = 0
    state._start_turn()
    roll(state, 4, 5, two=True)  # 9
    assert state.coins[1] == 2 + 5
    play(state, "pass")
    state.current = 0
    state._start_turn()
    roll(state, 4, 6, two=True)  # 10
    assert state.coins[1] == 7 + 6


# --- green: own roll only ------------------------------------------------------------------------
def test_bakery_pays_only_its_owner_on_their_own_roll():
    state = setup(2, coins=[0, 0])
    roll(state, 2)
    assert state.coins == [1, 0]


def test_convenience_store_and_mall_bonus():
    state = setup(2, coins=[0, 0], cards={0: {"store": 2}})
    roll(state, 4)
    assert state.coins[0] == 6
    state = setup(2, coins=[0, 0], cards={0: {"store": 2, "bakery": 2}}, landmarks={0: ["mall"]})
    roll(state, 4)
    assert state.coins[0] == 8
    state = setup(2, coins=[0, 0], cards={0: {"bakery": 2}}, landmarks={0: ["mall"]})
    roll(state, 3)
    assert state.coins[0] == 4


def test_cheese_factory_counts_ranches():
    state = setup(2, coins=[0, 0], cards={0: {"cheese": 2, "ranch": 3}}, landmarks={0: ["station"]})
    roll(state, 3, 4, two=True)
    assert state.coins[0] == 2 * 3 * 3


# The set-up of test_audit_rules.py's test_furniture_factory_does_not_count_ranches_and_cheese_not_gears
# on purpose: what the factory counts here, what it must not count there.
def test_furniture_factory_counts_forests_and_mines():
    state = setup(
        2, coins=[0, 0], cards={0: {"furniture": 1, "forest": 2, "mine": 1}}, landmarks={0: ["station"]}
    )
    roll(state, 4, 4, two=True)
    assert state.coins[0] == 9


def test_fruit_market_counts_every_wheat_icon_including_flower_orchards():
    state = setup(
        2,
        coins=[0, 0],
        cards={0: {"market": 1, "wheat": 1, "apple": 1, "orchard": 2}},
        landmarks={0: ["station"]},
        harbor=True,
    )
    roll(state, 5, 6, two=True)
    assert state.coins[0] == 2 * 4


def test_flower_shop_pays_per_orchard_and_two_each_with_mall():
    state = setup(2, coins=[0, 0], cards={0: {"florist": 1, "orchard": 3}}, harbor=True)
    roll(state, 6)
    assert state.coins[0] == 3
    state = setup(
        2, coins=[0, 0], cards={0: {"florist": 2, "orchard": 3}}, landmarks={0: ["mall"]}, harbor=True
    )
    roll(state, 6)
    assert state.coins[0] == 2 * 3 * 2


def test_food_warehouse_pays_two_per_cup():
    state = setup(
        2,
        coins=[0, 0],
        cards={0: {"warehouse": 1, "cafe": 2, "sushi": 1}},
        landmarks={0: ["station"]},
        harbor=True,
    )
    roll(state, 6, 6, two=True)
    assert state.coins[0] == 2 * 3


# --- red: paid by the roller -----------------------------------------------------------------------
def test_cafe_takes_from_roller_with_mall_bonus():
    state = setup(2, coins=[5, 0], cards={1: {"cafe": 2}}, landmarks={1: ["mall"]})
    roll(state, 3)
    assert state.coins == [5 - 4 + 1, 4]  # roller pays 4, then its bakery pays 1


def test_family_restaurant_pays_two_not_three():
    state = setup(2, coins=[10, 0], cards={1: {"restaurant": 1}}, landmarks={0: ["station"]})
    roll(state, 4, 5, two=True)
    assert state.coins == [8, 2]


def test_red_cards_of_the_roller_do_nothing_on_own_roll():
    state = setup(2, coins=[5, 5], cards={0: {"cafe": 3}})
    roll(state, 3)
    assert state.coins == [6, 5]


def test_sushi_bar_needs_the_owners_harbor():
    state = setup(2, coins=[10, 0], cards={1: {"sushi": 1}}, harbor=True)
    roll(state, 1)
    assert state.coins[1] == 1  # only the wheat field
    state = setup(2, coins=[10, 0], cards={1: {"sushi": 1}}, landmarks={1: ["harbor"]}, harbor=True)
    roll(state, 1)
    assert state.coins[1] == 1 + 3


def test_pizza_and_burger():
    state = setup(
        2, coins=[10, 0], cards={1: {"pizza": 2, "burger": 1}}, landmarks={0: ["station"]}, harbor=True
    )
    roll(state, 3, 4, two=True)
    assert state.coins == [8, 2]
    play(state, "pass")
    state.current = 0
    state._start_turn()
    roll(state, 4, 4, two=True)
    assert state.coins == [7, 3]


# --- Harbor landmark and boats ------------------------------------------------------------------------
def test_harbor_may_add_two_to_ten_or_more():
    state = setup(2, coins=[0, 0], cards={0: {"tuna": 1}}, landmarks={0: ["station", "harbor"]}, harbor=True)
    script(state, 5, 5, 3, 4)
    play(state, "roll2")
    assert state.legal_actions(0) == [ADD2, NOADD]
    play(state, "add2")
    assert state.total == 12
    assert state.coins[0] == 7  # tuna: 3+4


def test_harbor_is_not_offered_below_ten():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "harbor"]}, harbor=True)
    roll(state, 4, 5, two=True)
    assert state.phase == BUILD


@pytest.mark.parametrize("total", [12, 13, 14])
def test_tuna_boat_on_twelve_to_fourteen_one_shared_roll(total):
    first = 6 if total > 12 else 6
    second = total - 2 - first if total > 12 else 6
    dice = (first, second) if total > 12 else (6, 6)
    state = setup(
        3,
        coins=[0, 0, 0],
        cards={0: {"tuna": 1}, 1: {"tuna": 2}, 2: {"tuna": 3}},
        landmarks={0: ["station", "harbor"], 1: ["harbor"]},
        harbor=True,
    )
    script(state, *dice, 2, 3)
    play(state, "roll2")
    play(state, "add2" if total > 12 else "noadd")
    assert state.total == total
    assert state.coins == [5, 10, 0]  # P2 has no Harbor


def test_mackerel_boat_needs_harbor():
    state = setup(
        2,
        coins=[5, 0],
        cards={0: {"mackerel": 1}, 1: {"mackerel": 2}},
        landmarks={0: ["station"], 1: ["harbor"]},
        harbor=True,
    )
    roll(state, 4, 4, two=True)
    assert state.coins == [5, 6]


# --- purple ------------------------------------------------------------------------------------------
def test_stadium_takes_two_from_each_opponent():
    state = setup(3, coins=[0, 5, 1], cards={0: {"stadium": 1}})
    roll(state, 6)
    assert state.coins == [3, 3, 0]


def test_tv_station_target_is_a_choice_with_three_players():
    state = setup(3, coins=[0, 3, 9], cards={0: {"tv": 1}})
    roll(state, 6)
    assert state.legal_actions(0) == [TV(1), TV(2)]
    with pytest.raises(IllegalAction) as err:
        state.apply(0, TV(0))
    assert err.value.rule == "tv_station.self"
    play(state, "tv 2")
    assert state.coins == [5, 3, 4]


def test_tv_station_with_two_players_needs_no_choice():
    state = setup(2, coins=[0, 3], cards={0: {"tv": 1}})
    roll(state, 6)
    assert state.coins == [3, 0]


def test_business_center_swaps_and_may_decline():
    state = setup(2, coins=[0, 0], cards={0: {"office": 1}, 1: {"mine": 1}})
    roll(state, 6)
    legal = {state.format_action(a) for a in state.legal_actions(0)}
    assert "noswap" in legal and "swap wheat 1 mine" in legal
    assert not any("office" in move for move in legal)
    play(state, "swap wheat 1 mine")
    assert (
        count(state, 0, "mine"),
        count(state, 0, "wheat"),
        count(state, 1, "wheat"),
        count(state, 1, "mine"),
    ) == (1, 0, 2, 0)
    state = setup(2, coins=[0, 0], cards={0: {"office": 1}})
    roll(state, 6)
    play(state, "noswap")
    assert state.phase == 5


# Alike by shape to test_one_purple_of_each_kind_per_city (below): the same set-up on purpose, each test checks its own rule.
def test_business_center_refuses_purple_cards():
    state = setup(2, coins=[0, 0], cards={0: {"office": 1}, 1: {"stadium": 1}})
    roll(state, 6)
    before = digest(state)
    with pytest.raises(IllegalAction) as err:
        play(state, "swap wheat 1 stadium")
    assert err.value.rule == "business_center.tower"
    assert digest(state) == before


@pytest.mark.parametrize(("coins", "paid"), [(21, 10), (10, 5), (9, 0), (35, 17)])
def test_tax_office_takes_half_rounded_down_from_ten_or_more(coins, paid):
    state = setup(2, coins=[3, coins], cards={0: {"tax": 1}}, landmarks={0: ["station"]}, harbor=True)
    roll(state, 4, 4, two=True)
    assert state.coins == [3 + paid, coins - paid]


def test_publisher_charges_per_cup_and_bread_card():
    state = setup(
        3,
        coins=[0, 10, 1],
        cards={0: {"publisher": 1}, 1: {"cafe": 2, "store": 1}},
        landmarks={0: ["station"]},
        harbor=True,
    )
    roll(state, 3, 4, two=True)
    # P1: bakery + store + 2 cafes = 4; P2: bakery = 1 but has only 1 coin.
    assert state.coins == [5, 6, 0]


# Alike by shape to test_business_center_refuses_purple_cards (above): the same set-up on purpose, each test checks its own rule.
def test_one_purple_of_each_kind_per_city():
    state = setup(2, coins=[20, 0], cards={0: {"stadium": 1}})
    roll(state, 1)
    before = digest(state)
    with pytest.raises(IllegalAction) as err:
        play(state, "build stadium")
    assert err.value.rule == "build.one_purple_each"
    assert digest(state) == before


# --- resolution order ----------------------------------------------------------------------------------
def test_red_before_green_roller_pays_before_collecting():
    state = setup(2, coins=[0, 0], cards={0: {"bakery": 2}, 1: {"cafe": 1}})
    roll(state, 3)
    assert state.coins == [2, 0]


def test_purple_after_red_tax_counts_coins_received_from_red():
    state = setup(
        2, coins=[1, 19], cards={0: {"tax": 1}, 1: {"burger": 1}}, landmarks={0: ["station"]}, harbor=True
    )
    roll(state, 4, 4, two=True)
    assert state.coins == [10, 10]


# --- landmarks -----------------------------------------------------------------------------------------
def test_train_station_unlocks_two_dice():
    state = setup(2)
    with pytest.raises(IllegalAction) as err:
        play(state, "roll2")
    assert err.value.rule == "roll.needs_train_station"


def test_radio_tower_reroll_replaces_roll_and_its_doubles():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio", "park"]})
    script(state, 3, 3, 2, 5)
    play(state, "roll2", "reroll2")
    assert state.dice == (2, 5)
    play(state, "pass")
    assert state.current == 1  # the first roll's doubles do not count


def test_radio_tower_only_once_per_turn_and_choice_of_dice():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio"]})
    script(state, 3, 4, 2)
    play(state, "roll2")
    assert set(state.legal_actions(0)) == {KEEP, REROLL1, REROLL2}
    play(state, "reroll")
    assert state.dice == (2, 0) and state.phase == BUILD
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio"]}, radio_tower_dice="same")
    script(state, 3, 4)
    play(state, "roll2")
    assert set(state.legal_actions(0)) == {KEEP, REROLL2}


def test_amusement_park_chains_extra_turns_and_airport_pays_each():
    state = setup(2, coins=[5, 0], landmarks={0: ["station", "park", "airport"]}, harbor=True)
    script(state, 2, 2, 5, 5, 1, 2)
    play(state, "roll2", "pass")
    assert (state.current, state.coins[0]) == (0, 15)
    play(state, "roll2", "pass")
    assert (state.current, state.coins[0]) == (0, 25)
    play(state, "roll2", "pass")  # 1+2: bakery pays 1, no doubles
    assert (state.current, state.coins[0]) == (1, 36)


def test_park_built_on_a_doubles_turn_gives_the_extra_turn_by_default():
    for same_turn, expected in ((True, 0), (False, 1)):
        state = setup(2, coins=[16, 0], landmarks={0: ["station"]}, park_same_turn=same_turn)
        script(state, 1, 1)
        play(state, "roll2", "build park")
        assert state.current == expected


def test_city_hall_original_rule_gives_a_coin_when_broke_before_building():
    state = setup(2, coins=[0, 0], harbor=True)
    roll(state, 5)
    assert state.coins[0] == 1
    state = setup(2, coins=[2, 0], harbor=True)
    roll(state, 5)
    assert state.coins[0] == 2


def test_city_hall_polish_rule_gives_a_coin_every_turn():
    state = setup(2, coins=[4, 4], harbor=True, city_hall="every_turn")
    assert state.coins == [5, 4]
    roll(state, 5)
    play(state, "pass")
    assert state.coins == [5, 5]


def test_winning_needs_every_landmark_and_ends_the_game_at_once():
    state = setup(2, coins=[30, 0], landmarks={0: ["station", "mall", "park"]})
    roll(state, 5)
    play(state, "build radio")
    assert state.is_over and state.result().winners == (0,)
    assert state.to_act == () and state.legal_actions(0) == []
    harbor = setup(2, coins=[30, 0], landmarks={0: ["station", "mall", "park"]}, harbor=True)
    roll(harbor, 5)
    play(harbor, "build radio")
    assert not harbor.is_over
