"""Audit: rule sentences of the rulebook and the reference that the first test suite left unchecked.

Each test names the sentence it checks. Refusals are checked against the whole state (coins, cards,
decks, RNG position, log), not only the views.
"""

import pytest

from tabletown.core.errors import IllegalAction, MalformedAction
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import KEEP, NOSWAP, REROLL1, REROLL2, ROLL1, TV, Roll
from tabletown.games.machikoro.phases import BUILD, BUSINESS, HARBOR, REROLL, TV_PHASE

from .helpers import count, play, script, setup


def fingerprint(state):
    """Everything a refused move must leave alone, hidden parts included."""
    return (
        list(state.coins),
        [list(city) for city in state.cards],
        list(state.lm),
        list(state.supply),
        [list(deck) for deck in state.decks],
        state.current,
        state.phase,
        state.dice,
        state.total,
        state.rerolled,
        state.built,
        state.purple_stage,
        state.turn,
        len(state.log),
        state.rng.getstate(),
    )


def refused(state, move, rule):
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as err:
        play(state, move)
    assert err.value.rule == rule
    assert fingerprint(state) == before


def roll(state, *dice, two=False):
    script(state, *dice)
    play(state, "roll2" if two else "roll")


# --- turn: dice ----------------------------------------------------------------------------------------
def test_stadium_does_not_unlock_two_dice():
    """The Polish text says 'stadion' where it means the Train Station (translation error)."""
    state = setup(2, cards={0: {"stadium": 1}})
    assert state.legal_actions(0) == [ROLL1]
    refused(state, "roll2", "roll.needs_train_station")


def test_radio_tower_without_train_station_rerolls_one_die_only():
    state = setup(2, coins=[0, 0], landmarks={0: ["radio"]})
    script(state, 2, 4)
    play(state, "roll")
    assert state.phase == REROLL
    assert state.legal_actions(0) == [KEEP, REROLL1]
    refused(state, "reroll2", "reroll.needs_train_station")
    play(state, "reroll")
    assert state.dice == (4, 0) and state.total == 4


def test_radio_tower_same_dice_option_refuses_a_different_count():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio"]}, radio_tower_dice="same")
    script(state, 3, 4)
    play(state, "roll2")
    refused(state, "reroll", "reroll.same_dice")


def test_radio_tower_default_lets_one_die_become_two():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio"]})
    script(state, 1, 6, 6)
    play(state, "roll")
    assert set(state.legal_actions(0)) == {KEEP, REROLL1, REROLL2}
    play(state, "reroll2")
    assert state.total == 12


def test_radio_tower_is_offered_again_on_an_amusement_park_extra_turn():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio", "park"]})
    script(state, 1, 2, 4, 4, 2, 5)
    play(state, "roll2", "reroll2", "pass")  # 4+4 doubles after the re-roll: another turn
    assert state.current == 0
    play(state, "roll2")
    assert state.phase == REROLL


def test_keeping_the_roll_keeps_its_doubles():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio", "park"]})
    script(state, 3, 3)
    play(state, "roll2", "keep", "pass")
    assert state.current == 0


# --- Harbor +2 -----------------------------------------------------------------------------------------
def test_harbor_add_two_is_offered_at_exactly_ten_and_only_with_a_built_harbor():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "harbor"]}, harbor=True)
    roll(state, 4, 6, two=True)
    assert state.phase == HARBOR
    state = setup(2, coins=[0, 0], landmarks={0: ["station"]}, harbor=True)
    roll(state, 5, 5, two=True)
    assert state.phase == BUILD and state.total == 10


def test_harbor_comes_after_the_radio_tower_re_roll():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio", "harbor"]}, harbor=True)
    script(state, 1, 1, 5, 6)
    play(state, "roll2")
    assert state.phase == REROLL  # 2 is below 10: no Harbor question yet
    play(state, "reroll2")
    assert state.phase == HARBOR and state.total == 11
    play(state, "add2")
    assert state.total == 13


def test_harbor_plus_two_does_not_change_doubles():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "harbor", "park"]}, harbor=True)
    script(state, 5, 5)
    play(state, "roll2", "add2", "pass")
    assert state.current == 0  # 5+5 are still doubles after the +2


def test_tuna_boat_roll_never_gives_doubles():
    state = setup(
        2,
        coins=[0, 0],
        cards={0: {"tuna": 1}},
        landmarks={0: ["station", "harbor", "park"]},
        harbor=True,
    )
    script(state, 6, 5, 3, 3)
    play(state, "roll2", "add2")
    assert state.total == 13 and state.coins[0] == 6
    play(state, "pass")
    assert state.current == 1


def test_tuna_boat_roll_is_skipped_when_no_owner_has_a_harbor():
    state = setup(2, coins=[5, 0], cards={1: {"tuna": 2}}, landmarks={0: ["station"]}, harbor=True)
    script(state, 6, 6)  # a third die would fail the script
    play(state, "roll2")
    assert state.coins == [5, 0]
    assert not any(event.kind == "tuna_roll" for event in state.log)


def test_tuna_boat_activates_for_owners_on_someone_elses_roll():
    state = setup(
        2, coins=[5, 0], cards={1: {"tuna": 1}}, landmarks={0: ["station"], 1: ["harbor"]}, harbor=True
    )
    script(state, 6, 6, 1, 2)
    play(state, "roll2")
    assert state.coins == [5, 3]


# --- income amounts ------------------------------------------------------------------------------------
def test_family_restaurant_also_on_ten_and_with_mall():
    state = setup(2, coins=[10, 0], cards={1: {"restaurant": 2}}, landmarks={0: ["station"], 1: ["mall"]})
    roll(state, 4, 6, two=True)
    assert state.coins == [10 - 6, 6]


def test_sushi_pizza_burger_with_mall():
    state = setup(2, coins=[20, 0], cards={1: {"sushi": 2}}, landmarks={1: ["harbor", "mall"]}, harbor=True)
    roll(state, 1)
    assert state.coins[1] == 1 + 2 * 4  # wheat field + sushi 3+1 each
    state = setup(
        2,
        coins=[20, 0],
        cards={1: {"pizza": 1, "burger": 1}},
        landmarks={0: ["station"], 1: ["mall"]},
        harbor=True,
    )
    roll(state, 3, 4, two=True)
    assert state.coins == [18, 2]


def test_mall_bonus_is_only_for_cup_and_bread_cards():
    owned = {
        "bakery": 0,
        "wheat": 2,
        "ranch": 1,
        "cheese": 1,
        "furniture": 1,
        "forest": 1,
        "mine": 1,
        "apple": 1,
        "market": 1,
    }
    plain = setup(2, coins=[0, 0], cards={0: owned}, landmarks={0: ["station"]})
    mall = setup(2, coins=[0, 0], cards={0: owned}, landmarks={0: ["station", "mall"]})
    for dice in ((1, 1), (3, 4), (4, 4), (4, 5), (4, 6), (5, 6), (6, 6)):
        for state in (plain, mall):
            script(state, *dice)
            play(state, "roll2", "pass")
            state.current = 0
            state._start_turn()
    assert mall.coins[0] == plain.coins[0] > 0


def test_mall_does_not_raise_food_warehouse_or_blue_harbor_cards():
    owned = {"warehouse": 1, "cafe": 1, "mackerel": 1, "orchard": 1}
    for lms, expected in ((["station", "harbor"], 2 + 3 + 1), (["station", "harbor", "mall"], 2 + 3 + 1)):
        state = setup(2, coins=[0, 0], cards={0: owned}, landmarks={0: lms}, harbor=True)
        script(state, 6, 6)
        play(state, "roll2", "noadd")
        gained_12 = state.coins[0]
        state = setup(2, coins=[0, 0], cards={0: owned}, landmarks={0: lms}, harbor=True)
        roll(state, 4, 4, two=True)
        gained_8 = state.coins[0]
        state = setup(2, coins=[0, 0], cards={0: owned}, landmarks={0: lms}, harbor=True)
        roll(state, 2, 2, two=True)
        assert (gained_12, gained_8, state.coins[0]) == (2, 3, 1), lms
        assert gained_12 + gained_8 + state.coins[0] == expected


def test_food_warehouse_on_thirteen_counts_every_cup_kind():
    cups = {"cafe": 1, "restaurant": 1, "sushi": 1, "pizza": 1, "burger": 1}
    state = setup(
        2,
        coins=[0, 0],
        cards={0: {"warehouse": 2, **cups}},
        landmarks={0: ["station", "harbor"]},
        harbor=True,
    )
    script(state, 5, 6)
    play(state, "roll2", "add2")
    assert state.total == 13
    assert state.coins[0] == 2 * 2 * 5


def test_fruit_market_on_twelve_and_without_harbor_counts_wheat_and_apple():
    state = setup(
        2, coins=[0, 0], cards={0: {"market": 2, "wheat": 2, "apple": 1}}, landmarks={0: ["station"]}
    )
    roll(state, 6, 6, two=True)
    assert state.coins[0] == 2 * 2 * 3


# The set-up of test_cards.py's test_furniture_factory_counts_forests_and_mines on purpose: what
# the factory must not count here, what it counts there.
def test_furniture_factory_does_not_count_ranches_and_cheese_not_gears():
    state = setup(
        2, coins=[0, 0], cards={0: {"furniture": 1, "cheese": 1, "ranch": 2}}, landmarks={0: ["station"]}
    )
    roll(state, 4, 4, two=True)
    assert state.coins[0] == 0
    state = setup(
        2, coins=[0, 0], cards={0: {"cheese": 1, "forest": 2, "mine": 1}}, landmarks={0: ["station"]}
    )
    roll(state, 3, 4, two=True)
    assert state.coins[0] == 0


def test_green_cards_pay_nothing_on_an_opponents_roll():
    state = setup(2, coins=[0, 0], cards={1: {"bakery": 3, "store": 1}})
    roll(state, 2)
    assert state.coins[1] == 0
    state = setup(2, coins=[0, 0], cards={1: {"store": 1}})
    roll(state, 4)
    assert state.coins[1] == 0


def test_purple_cards_do_nothing_on_an_opponents_roll():
    state = setup(2, coins=[5, 5], cards={1: {"stadium": 1, "tv": 1}})
    roll(state, 6)
    assert state.coins == [5, 5] and state.phase == BUILD


def test_tax_office_also_on_nine_after_blue_income():
    # P1 gets 5 from a Mine on the 9 first (blue), so holds 10 when the Tax Office (purple) acts.
    state = setup(
        2, coins=[0, 5], cards={0: {"tax": 1}, 1: {"mine": 1}}, landmarks={0: ["station"]}, harbor=True
    )
    roll(state, 4, 5, two=True)
    assert state.coins == [5, 5]


def test_publisher_counts_flower_shops_and_harbor_cups_but_not_other_cards():
    state = setup(
        2,
        coins=[1, 20],
        cards={0: {"publisher": 1}, 1: {"florist": 1, "sushi": 1, "pizza": 1, "wheat": 3, "mine": 1}},
        landmarks={0: ["station"]},
        harbor=True,
    )
    roll(state, 3, 4, two=True)
    # P1: bakery + florist (bread), sushi + pizza (cup) = 4; P1's pizza takes 1 from P0 first (red).
    assert state.coins == [1 - 1 + 4, 20 + 1 - 4]


def test_red_payments_go_counter_clockwise_from_the_roller_in_four_player_games():
    state = setup(4, coins=[0, 0, 3, 0], cards={0: {"cafe": 2}, 1: {"cafe": 2}, 3: {"cafe": 2}})
    state.current = 2
    state._start_turn()
    roll(state, 3)
    # P2 rolls: P1 (just before) is paid first, then P0, then P3.
    assert state.coins == [1, 2, 1, 0]  # P2's own bakery pays 1 after the red payments
    assert [event.data["to"] for event in state.log if event.kind == "pay"] == [1, 0, 3]


# --- purple choices ------------------------------------------------------------------------------------
def test_tv_station_in_four_player_games_takes_five_or_what_the_target_has():
    state = setup(4, coins=[0, 9, 2, 7], cards={0: {"tv": 1}})
    roll(state, 6)
    assert state.phase == TV_PHASE
    assert state.legal_actions(0) == [TV(1), TV(2), TV(3)]
    play(state, "tv 2")
    assert state.coins == [2, 9, 0, 7]


def test_stadium_then_tv_then_business_center_on_one_six():
    state = setup(3, coins=[0, 4, 8], cards={0: {"stadium": 1, "tv": 1, "office": 1}, 1: {"mine": 1}})
    roll(state, 6)
    assert state.coins == [4, 2, 6] and state.phase == TV_PHASE
    play(state, "tv 2")
    assert state.coins == [9, 2, 1] and state.phase == BUSINESS
    play(state, "swap bakery 1 mine")
    assert state.phase == BUILD and count(state, 0, "mine") == 1 and count(state, 1, "bakery") == 2


def test_business_center_refusals_name_their_rule_and_change_nothing():
    state = setup(3, coins=[0, 0, 0], cards={0: {"office": 1, "forest": 1}, 1: {"mine": 1}})
    roll(state, 6)
    assert state.phase == BUSINESS
    refused(state, "swap wheat 0 bakery", "business_center.self")
    refused(state, "swap wheat 1 wheat", "business_center.same_card")
    refused(state, "swap mine 1 wheat", "business_center.not_owned")
    refused(state, "swap wheat 2 mine", "business_center.not_owned")
    refused(state, "swap office 1 mine", "business_center.tower")
    refused(state, "build cafe", "phase.business_center")
    play(state, "swap forest 2 bakery")
    assert (
        count(state, 0, "forest") == 0 and count(state, 0, "bakery") == 2 and count(state, 2, "forest") == 1
    )


def test_business_center_offers_every_opponent_and_the_starting_cards():
    state = setup(3, coins=[0, 0, 0], cards={0: {"office": 1}, 1: {"mine": 1}, 2: {"apple": 1}})
    roll(state, 6)
    legal = {state.format_action(a) for a in state.legal_actions(0)}
    assert {"swap bakery 1 mine", "swap wheat 2 apple", "swap bakery 2 wheat", "noswap"} <= legal
    assert state.legal_actions(0)[0] == NOSWAP


# --- building -------------------------------------------------------------------------------------------
def test_build_refusals_leave_everything_unchanged():
    state = setup(2, coins=[5, 0], landmarks={0: ["station"]}, harbor=True)
    roll(state, 5, 1, two=True)
    assert state.phase == BUILD
    refused(state, "build mall", "build.cannot_afford")
    refused(state, "build station", "build.landmark_built")
    refused(state, "build cityhall", "build.landmark_built")
    hidden = next(i for i, n in enumerate(state.supply) if not n and state.t.in_play[i])
    refused(state, f"build {state.t.codes[hidden]}", "build.not_in_market")
    refused(state, "roll", "phase.build")


def test_city_hall_cannot_be_built_in_a_base_game():
    state = setup(2, coins=[5, 0])
    roll(state, 5)
    refused(state, "build cityhall", "build.landmark_not_in_game")


def test_only_one_build_per_turn():
    state = setup(2, coins=[10, 0])
    roll(state, 5)
    play(state, "build wheat")
    assert state.current == 1 and state.coins[0] == 9


def test_city_hall_does_not_count_toward_the_six_landmarks():
    state = setup(2, coins=[40, 0], landmarks={0: ["station", "mall", "park", "radio"]}, harbor=True)
    roll(state, 5, 6, two=True)
    play(state, "keep", "build harbor")
    assert not state.is_over
    state.current = 0
    state._start_turn()
    script(state, 1, 2)
    play(state, "roll2", "keep", "build airport")
    assert state.is_over and state.result().winners == (0,)


def test_winning_build_ends_the_game_before_any_extra_turn_or_airport():
    state = setup(
        2, coins=[22, 0], landmarks={0: ["station", "mall", "park", "harbor", "airport"]}, harbor=True
    )
    script(state, 3, 3)
    play(state, "roll2", "build radio")
    assert state.is_over and state.to_act == () and state.coins[0] == 0


# --- City Hall and Airport timing ----------------------------------------------------------------------
def test_city_hall_original_rule_checks_coins_after_income_not_at_turn_start():
    state = setup(2, coins=[0, 0], harbor=True)
    roll(state, 3)  # bakery pays 1 before the build step: no City Hall coin
    assert state.coins[0] == 1
    assert not any(event.kind == "city_hall" for event in state.log)


def test_city_hall_original_rule_after_paying_red_to_zero():
    state = setup(2, coins=[2, 0], cards={1: {"cafe": 2}}, harbor=True)
    roll(state, 3)  # pays 2, bakery +1 -> 1: no City Hall
    assert state.coins[0] == 1
    state = setup(2, coins=[2, 0], cards={0: {"bakery": 0}, 1: {"cafe": 2}}, harbor=True, market="all")
    roll(state, 3)  # pays 2, nothing back -> 0: City Hall gives 1 before building
    assert state.coins[0] == 1 and state.phase == BUILD
    assert "build wheat" in {state.format_action(a) for a in state.legal_actions(0)}


def test_city_hall_gives_nothing_without_harbor():
    state = setup(2, coins=[0, 0])
    roll(state, 5)
    assert state.coins[0] == 0


def test_city_hall_every_turn_also_on_extra_turns():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "park"]}, harbor=True, city_hall="every_turn")
    assert state.coins[0] == 1
    script(state, 2, 2)
    play(state, "roll2", "pass")  # doubles: extra turn, City Hall again
    assert state.current == 0 and state.coins[0] == 2


def test_airport_pays_nothing_on_a_turn_with_a_build():
    state = setup(2, coins=[1, 0], landmarks={0: ["airport"]}, harbor=True, market="all")
    roll(state, 5)
    play(state, "build wheat")
    assert state.coins[0] == 0
    state = setup(2, coins=[30, 0], harbor=True)
    roll(state, 5)
    play(state, "build airport")
    assert state.coins[0] == 0


# --- markets --------------------------------------------------------------------------------------------
def test_ten_market_refills_only_when_a_pile_runs_out():
    state = GAME.new_game(2, {"harbor": True}, seed=6)
    pile = next(i for i, n in enumerate(state.supply) if n >= 2 and state.t.cost[i] <= 3)
    deck_before = len(state.decks[0])
    state.coins[0] = 30
    script(state, 5)
    play(state, "roll", f"build {state.t.codes[pile]}")
    assert len(state.decks[0]) == deck_before
    assert sum(1 for n in state.supply if n) == 10


def test_hybrid_market_refills_each_region_from_its_own_deck():
    state = GAME.new_game(2, {"market": "hybrid"}, seed=2)
    purple = state.t.regions[2][0]
    single = next(i for i in purple if state.supply[i])
    state.supply[single] = 1  # make this pile run out on the next purchase
    sizes = [len(d) for d in state.decks]
    assert sizes[2] > 0
    state.coins[0] = 30
    script(state, 5)
    play(state, "roll", f"build {state.t.codes[single]}")
    assert [len(d) for d in state.decks][:2] == sizes[:2]
    assert len(state.decks[2]) < sizes[2]
    assert sum(1 for i in purple if state.supply[i]) == 2


# --- refusals outside the rules proper ------------------------------------------------------------------
def test_tv_station_refuses_a_seat_that_is_not_at_the_table():
    state = setup(3, coins=[0, 5, 5], cards={0: {"tv": 1}})
    roll(state, 6)
    assert state.phase == TV_PHASE
    refused(state, "tv 3", "tv_station.no_such_seat")
    refused(state, "pass", "phase.tv_station")


def test_a_value_that_is_no_machi_koro_action_is_malformed():
    state = setup(2)
    before = fingerprint(state)
    cases = [
        (None, "action.type"),
        (True, "action.type"),
        (1.0, "action.type"),
        (0, "action.type"),  # the old packed integer of "roll"
        (("roll",), "action.type"),
        ("roll", "action.unknown"),  # notation is parsed by parse_action, not applied
        ("", "action.unknown"),
        (Roll(dice=3), "action.dice"),
        (Roll(dice="2"), "action.dice"),
    ]
    for action, rule in cases:
        with pytest.raises(MalformedAction) as err:
            state.apply(0, action)
        assert err.value.rule == rule, action
    assert fingerprint(state) == before


def test_the_rollers_own_mall_adds_nothing_to_what_they_pay():
    state = setup(2, coins=[10, 0], cards={0: {"bakery": 0}, 1: {"cafe": 2}}, landmarks={0: ["mall"]})
    roll(state, 3)
    assert state.coins == [8, 2]
