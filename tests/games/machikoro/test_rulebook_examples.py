"""The rulebook's two payment examples (Bartek, Kasia, Michał) as scenarios.

Turn order is seat order; payments go counter-clockwise from the player who played just before the
roller. In the second example Michał is paid first, so Michał sits just before Bartek: Bartek = P0,
Kasia = P1, Michał = P2.
"""

from .helpers import play, script, setup

BARTEK, KASIA, MICHAL = 0, 1, 2


def test_broke_roller_pays_nothing_then_collects_from_two_bakeries():
    state = setup(3, coins=[0, 0, 0], cards={BARTEK: {"bakery": 2}, KASIA: {"cafe": 1}})
    script(state, 3)
    play(state, "roll")
    assert state.coins[KASIA] == 0
    assert state.coins[BARTEK] == 2
    assert [(e.data["amount"], e.data["due"]) for e in state.log if e.kind == "pay"] == [(0, 1)]


def test_payments_go_counter_clockwise_and_the_shortfall_is_forgiven():
    state = setup(3, coins=[3, 0, 0], cards={KASIA: {"cafe": 3}, MICHAL: {"cafe": 2}, BARTEK: {"bakery": 0}})
    script(state, 3)
    play(state, "roll")
    assert state.coins[MICHAL] == 2
    assert state.coins[KASIA] == 1
    assert state.coins[BARTEK] == 0
    paid = [event.data for event in state.log if event.kind == "pay"]
    assert (paid[0]["seat"], paid[0]["to"], paid[0]["amount"]) == (0, 2, 2)
