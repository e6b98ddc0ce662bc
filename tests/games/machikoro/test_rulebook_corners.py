"""Corners of the rulebook that the other rule tests reach only through random games (found by a
sentence-by-sentence audit against the Polish text, 2026-12-07): set-up by player count, turn order,
doubles, the Amusement Park and Radio Tower options, landmarks in any order, purple cards side by
side, City Hall under both readings, declining the Harbor, the Tax Office, five players, the result;
and City Hall's words following the table's option."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tabletown.core.errors import IllegalAction
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import KEEP, REROLL1, ROLL1
from tabletown.games.machikoro.data import CITYHALL, LANDMARK_CODES, establishments
from tabletown.games.machikoro.phases import BUILD, REROLL, ROLL
from tabletown.games.machikoro.render import render_landmarks, render_view
from tabletown.web.boards import board_words

from .helpers import count, play, script, setup


def roll(state, *dice, two=False):
    script(state, *dice)
    play(state, "roll2" if two else "roll")


def bit(code):
    return 1 << LANDMARK_CODES.index(code)


# --- set-up (rulebook "PRZYGOTOWANIE GRY" A-E; Harbor set-up A-B) -------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("harbor", [False, True])
def test_set_up_coins_cards_landmarks_and_first_player(players, harbor):
    state = GAME.new_game(players, {"harbor": harbor, "market": "all"}, seed=1)
    assert state.coins == [3] * players
    for seat in range(players):
        owned = {c.code: n for c, n in zip(establishments(), state.cards[seat], strict=True) if n}
        assert owned == {"wheat": 1, "bakery": 1}
        # base: every landmark face down; Harbor: City Hall built, Harbor and Airport not
        assert state.lm[seat] == (CITYHALL if harbor else 0)
    assert state.current == 0 and state.phase == ROLL and state.legal_actions(0) == [ROLL1]
    for i, card in enumerate(establishments()):
        in_game = harbor or card.expansion == "base"
        assert state.supply[i] == ((4 if card.is_purple else 6) if in_game else 0), card.code


# --- turn order ("przekazuje kostki graczowi siedzącemu po jego lewej stronie") ----------------------------
def test_turn_passes_to_the_next_seat_and_wraps_around():
    state = setup(4, coins=[0, 0, 0, 0])
    seen = []
    for _ in range(5):
        seen.append(state.current)
        roll(state, 5)
        play(state, "pass")
    assert seen == [0, 1, 2, 3, 0]


def test_doubles_without_an_amusement_park_give_no_extra_turn():
    state = setup(2, coins=[0, 0], landmarks={0: ["station"]})
    roll(state, 3, 3, two=True)
    play(state, "pass")
    assert state.current == 1


def test_park_same_turn_off_still_gives_the_extra_turn_for_a_park_built_earlier():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "park"]}, park_same_turn=False)
    roll(state, 4, 4, two=True)
    play(state, "pass")
    assert state.current == 0


# --- Radio Tower option "same" with one die ------------------------------------------------------------
def test_radio_same_dice_after_a_one_die_roll_rerolls_one_die_even_with_the_station():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "radio"]}, radio_tower_dice="same")
    roll(state, 2)
    assert state.phase == REROLL and state.legal_actions(0) == [KEEP, REROLL1]
    with pytest.raises(IllegalAction) as err:
        play(state, "reroll2")
    assert err.value.rule == "reroll.same_dice"


# --- landmarks in any order -------------------------------------------------------------------------------
def test_landmarks_may_be_built_in_any_order():
    state = setup(2, coins=[22, 0])
    roll(state, 5)
    play(state, "build radio")
    assert state.lm[0] == bit("radio") and state.coins[0] == 0


def test_different_purple_cards_may_share_a_city():
    state = setup(2, coins=[7, 0], cards={0: {"stadium": 1}})
    roll(state, 5)
    play(state, "build tv")
    assert count(state, 0, "stadium") == count(state, 0, "tv") == 1


# --- City Hall timing ---------------------------------------------------------------------------------------
def test_city_hall_original_rule_applies_on_an_amusement_park_extra_turn():
    state = setup(2, coins=[0, 0], landmarks={0: ["station", "park"]}, harbor=True, market="all")
    roll(state, 3, 3, two=True)  # 6: nothing pays; broke -> City Hall 1
    assert state.coins[0] == 1
    play(state, "build wheat")  # back to 0; doubles: another turn
    assert state.current == 0 and state.coins[0] == 0
    roll(state, 2, 3, two=True)  # 5: nothing pays
    assert state.phase == BUILD and state.coins[0] == 1
    assert [e.kind for e in state.log].count("city_hall") == 2


def test_city_hall_every_turn_rule_gives_no_coin_to_a_broke_builder():
    state = setup(
        2, coins=[0, 0], cards={0: {"bakery": 0}, 1: {"cafe": 1}}, harbor=True, city_hall="every_turn"
    )
    assert state.coins[0] == 1  # the turn-start coin
    roll(state, 3)  # pays the Cafe 1 -> 0
    assert state.phase == BUILD and state.coins[0] == 0


# --- Harbor: declining the +2 ---------------------------------------------------------------------------
def test_harbor_declined_keeps_ten_and_pays_the_apple_orchard():
    state = setup(2, coins=[0, 0], cards={0: {"apple": 1}}, landmarks={0: ["station", "harbor"]}, harbor=True)
    roll(state, 4, 6, two=True)
    play(state, "noadd")
    assert state.total == 10 and state.coins[0] == 3


# --- Tax Office with several opponents ----------------------------------------------------------------------
def test_tax_office_takes_half_from_each_rich_opponent_separately():
    state = setup(4, coins=[0, 21, 9, 10], cards={0: {"tax": 1}}, landmarks={0: ["station"]}, harbor=True)
    roll(state, 4, 4, two=True)
    assert state.coins == [15, 11, 9, 5]


# --- five seats (fifth_player option) ----------------------------------------------------------------------
def test_five_players_pay_red_counter_clockwise_and_pass_to_seat_zero():
    state = setup(
        5,
        coins=[0, 0, 0, 0, 3],
        cards={s: {"cafe": 1} for s in range(4)},
        harbor=True,
        fifth_player=True,
        market="all",
    )
    state.current = 4
    state._start_turn()
    roll(state, 3)
    assert [e.data["to"] for e in state.log if e.kind == "pay"] == [3, 2, 1, 0]
    assert state.coins[:4] == [0, 1, 1, 1]
    play(state, "pass")
    assert state.current == 0


# --- result ---------------------------------------------------------------------------------------------------
def test_result_scores_are_landmarks_built_and_losers_share_second():
    state = setup(3, coins=[22, 0, 0], landmarks={0: ["station", "mall", "park"], 1: ["station"]})
    roll(state, 5)
    play(state, "build radio")
    result = state.result()
    assert result.scores == (4, 1, 0) and result.ranks == (1, 2, 2)


def test_city_hall_s_words_follow_the_every_turn_option():
    for rule, words in (
        ("every_turn", "at the start of each of your turns"),
        ("broke", "when you have none"),
    ):
        state = GAME.new_game(2, {"harbor": True, "city_hall": rule}, seed=1)
        view = state.view(0)
        assert words in render_landmarks(view["state"]["landmarks"], options=view["options"]).plain
        console = Console(width=200, file=io.StringIO(), record=True)
        console.print(render_view(view))
        assert words in " ".join(console.export_text().split())  # (wrapped lines joined)
        board = board_words("machikoro", "en")["effects"]
        assert words in board["cityhall/every_turn" if rule == "every_turn" else "cityhall"]
