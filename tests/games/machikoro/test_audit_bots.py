"""Audit: the legacy strategy bots (``strategy:legacy-*``) keep their old dice rule (two dice once the
Train Station is built, one die for those marked 'one die'), whatever their expected income says. The
published strategies' dice rule is tested in test_strategies.py."""

import pytest

from tabletown.bots import make_bot
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import KEEP, REROLL1, ROLL1, ROLL2
from tabletown.games.machikoro.bots import LEGACY

from .helpers import play, script, setup


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_strategy_dice_follow_the_reference(name):
    one_die = LEGACY[name][1]
    bot = make_bot(GAME, f"strategy:{name}", 1)
    # Only Ranches: one die would pay on a 2 far more often, yet two-dice strategies still roll two.
    state = setup(
        2, coins=[0, 0], cards={0: {"ranch": 6, "bakery": 0, "wheat": 0}}, landmarks={0: ["station"]}
    )
    assert bot.choose(state, 0) == (ROLL1 if one_die else ROLL2)
    bare = setup(2)
    assert bot.choose(bare, 0) == ROLL1


@pytest.mark.parametrize("name", sorted(n for n, (_, one_die) in LEGACY.items() if not one_die))
def test_two_dice_strategies_never_re_roll_with_one_die(name):
    bot = make_bot(GAME, f"strategy:{name}", 1)
    state = setup(
        2, coins=[0, 0], cards={0: {"ranch": 6, "bakery": 0, "wheat": 0}}, landmarks={0: ["station", "radio"]}
    )
    script(state, 6, 6)
    play(state, "roll2")
    assert bot.choose(state, 0) != REROLL1
    assert bot.choose(state, 0) in (KEEP, *state.legal_actions(0))
