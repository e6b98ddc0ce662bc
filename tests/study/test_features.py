"""Each game's study module: features read from known records, and the same features whether a game
is watched while played or replayed from its record."""

from __future__ import annotations

import pytest

from tabletown.arena.runner import bot_seed
from tabletown.bots import make_bot
from tabletown.core.record import Record
from tabletown.core.registry import all_games, get_game
from tabletown.core.session import bot_agent, play_out
from tabletown.study.features import POINTS, extract, study_module


def test_machikoro_features_of_a_short_record() -> None:
    game = get_game("machikoro")
    actions = [
        (0, "roll"),
        (0, "build ranch"),
        (1, "roll"),
        (1, "build cafe"),
        (0, "roll"),
        (0, "pass"),
        (1, "roll"),
        (1, "build bakery"),
    ]
    study = extract(game, 2, {}, 7, actions)
    assert study["turns"] == 4
    assert study["open"][0]["buy_1"] == "ranch"
    assert study["open"][0]["buys_1_2"] == "none"
    assert study["open"][1]["buy_1"] == "cafe"
    assert study["open"][1]["buys_1_2"] == "cafe+bakery"
    assert study["open"][1]["first_landmark"] == "none"
    assert study["use"] == [{"ranch": 1}, {"bakery": 1, "cafe": 1}]
    coins = study["track"]["coins"]
    assert len(coins) == POINTS and all(len(point) == 2 for point in coins)
    # The last sample is the position after the record: check it against a plain replay.
    state = Record("machikoro", {}, ["a", "b"], 7, actions).replay()
    assert coins[-1] == list(state.coins)


def test_multicity_features_of_a_short_record() -> None:
    game = get_game("multicity")
    state = game.new_game(2, {"first": "0"}, 3)
    # Seat 0 expands on its first turn, seat 1 places its first object where the rules allow one.
    actions: list[tuple[int, str]] = []
    state.apply_text(0, "draw")
    actions.append((0, "draw"))
    lay = state.format_action(state.legal_actions(0)[0])
    state.apply_text(0, lay)
    actions.append((0, lay))
    place = next(a for a in state.legal_actions(1) if state.format_action(a)[0].isdigit())
    text = state.format_action(place)
    actions.append((1, text))
    study = extract(game, 2, {"first": "0"}, 3, actions)
    assert study["turns"] == 2
    assert study["open"][0]["first_turn"] == "expand"
    assert study["open"][1]["first_turn"] == "place"
    assert study["open"][1]["first_object"] == text.split()[0][:-1]
    assert study["use"] == [{"expand": 1}, {f"place:{text.split()[0][:-1]}": 1}]


@pytest.mark.parametrize("name", sorted(all_games()))
def test_watching_a_game_equals_replaying_its_record(name: str) -> None:
    """The watcher sees the same during play as when the record is replayed (extract)."""
    game = get_game(name)
    players = 2
    state = game.new_game(players, {}, 11)
    record = Record.start(state, ["bot:greedy"] * players)
    watcher = study_module(game).Watcher(state)
    agents = [bot_agent(make_bot(game, "greedy", bot_seed(11, s, "greedy")), s + 1) for s in range(players)]
    play_out(state, agents, record, on_action=watcher.see)
    live = watcher.finish(state)["study"]
    assert live == extract(game, players, {}, 11, record.actions)
    assert live["turns"] > 0
    for seat in range(players):
        assert set(study_module(game).Watcher(game.new_game(players, {}, 11)).defaults()) <= set(
            live["open"][seat]
        )
    # Every item a seat used is one the study knows (so "never used" lists are complete).
    catalogue = set(study_module(game).catalogue(game.new_game(players, {}, 11)))
    for uses in live["use"]:
        assert set(uses) <= catalogue, set(uses) - catalogue
