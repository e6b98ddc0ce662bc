"""Notation round-trips, records replay exactly, and views hide only the market deck order."""

import json
import random

import pytest
from typer.testing import CliRunner

from tabletown.bots import make_bot
from tabletown.cli import app
from tabletown.core.errors import MalformedAction
from tabletown.core.record import Record, state_digest, verify
from tabletown.core.session import play_out
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import TV, Swap


def random_states(games=40, seed=0):
    rng = random.Random(seed)
    for g in range(games):
        state = GAME.new_game(
            2 + g % 3, {"harbor": g % 2 == 0, "market": ("all", "ten", "hybrid")[g % 3]}, seed=g
        )
        while not state.is_over:
            yield state
            (player,) = state.to_act
            state.apply(player, rng.choice(state.legal_actions(player)))


def test_every_legal_action_round_trips_through_notation():
    seen = set()
    for state in random_states():
        (player,) = state.to_act
        for action in state.legal_actions(player):
            text = state.format_action(action)
            assert state.parse_action(text, player) == action, text
            seen.add(text.split()[0])
    assert {
        "roll",
        "roll2",
        "build",
        "pass",
        "keep",
        "reroll2",
        "add2",
        "noadd",
        "swap",
        "noswap",
        "tv",
    } <= seen


def test_business_center_and_tv_notation_round_trip_for_every_seat():
    state = GAME.new_game(4, {"harbor": True}, seed=1)
    for action in (TV(3), Swap("bakery", 3, "forest"), Swap("wheat", 4, "tuna")):
        assert state.parse_action(state.format_action(action), 0) == action


@pytest.mark.parametrize(
    "text",
    ["", "fly", "build", "build nothing", "tv", "tv x", "swap cafe 1", "swap station 1 cafe", "roll 3"],
)
def test_malformed_moves_are_refused_with_a_named_rule(text):
    state = GAME.new_game(2, {}, seed=1)
    with pytest.raises(MalformedAction) as err:
        state.parse_action(text, 0)
    assert err.value.rule.startswith("notation.")


def test_card_ids_are_accepted_as_well_as_short_names():
    state = GAME.new_game(2, {}, seed=1)
    assert state.parse_action("build wheat_field", 0) == state.parse_action("build wheat", 0)
    assert state.parse_action("BUILD Train_Station", 0) == state.parse_action("build station", 0)


def bot_game(seats, options, seed):
    state = GAME.new_game(len(seats), options, seed=seed)
    bots = [make_bot(GAME, name, seed * 10 + i) for i, name in enumerate(seats)]
    record = Record.start(state, [f"bot:{s}" for s in seats])
    play_out(state, [b.choose for b in bots], record)
    return state, record


@pytest.mark.parametrize(
    "options", [{}, {"harbor": True}, {"harbor": True, "market": "hybrid", "city_hall": "every_turn"}]
)
def test_records_replay_to_identical_views(options, tmp_path):
    state, record = bot_game(["greedy", "random", "strategy:bakery"], options, seed=4)
    path = tmp_path / "g.json"
    record.save(path)
    loaded = Record.load(path)
    assert verify(loaded) == []
    assert state_digest(loaded.replay()) == state_digest(state)
    # Tampering is detected.
    data = json.loads(path.read_text())
    data["seed"] += 1
    assert verify(Record.from_json(data)) != []


# Alike to lordsofvegas's test_terminal.py test_cli_bot_game_records_and_replays (and multicity's
# test_bots.py) on purpose: each game's tests stand alone (no shared module across tests/games/).
def test_cli_play_then_replay_verify(tmp_path):
    runner = CliRunner()
    path = tmp_path / "g.json"
    played = runner.invoke(
        app,
        [
            "play",
            "machikoro",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--seed",
            # Set-up alike to lordsofvegas/test_terminal.py on purpose: each test stands alone.
            "1",
            "--record",
            str(path),
            "--quiet",
        ],
    )
    assert played.exit_code == 0, played.output
    assert "Result" in played.output
    checked = runner.invoke(app, ["replay", str(path), "--verify"])
    assert checked.exit_code == 0, checked.output
    data = json.loads(path.read_text())
    data["actions"][3][1] = "build airport"
    path.write_text(json.dumps(data))
    assert runner.invoke(app, ["replay", str(path), "--verify"]).exit_code != 0


def test_views_are_json_and_never_show_the_deck_order():
    state = GAME.new_game(3, {"harbor": True}, seed=2)
    twin = state.clone()
    twin.decks[0].reverse()
    assert twin.decks[0] != state.decks[0]
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        json.dumps(view)
        assert view == twin.view(seat)
        assert "decks" not in json.dumps(view)
    assert state.view(0)["state"]["market_deck_sizes"] == [len(state.decks[0])]


def test_determinize_keeps_every_view_and_reshuffles_the_deck():
    for state in random_states(games=6, seed=3):
        if state.turn % 7:
            continue
        seat = state.current
        twin = state.determinize(seat, seed=99)
        assert twin.view(seat) == state.view(seat)
        if len(state.decks) and len(state.decks[0]) > 5:
            assert sorted(twin.decks[0]) == sorted(state.decks[0])


def test_clone_is_independent():
    state = GAME.new_game(2, {"harbor": True}, seed=5)
    twin = state.clone()
    rng = random.Random(1)
    while not twin.is_over:
        (p,) = twin.to_act
        twin.apply(p, rng.choice(twin.legal_actions(p)))
    fresh = GAME.new_game(2, {"harbor": True}, seed=5)
    assert state_digest(state) == state_digest(fresh)
