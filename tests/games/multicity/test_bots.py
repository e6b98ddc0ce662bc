"""The greedy bot (legal, and clearly better than random) and terminal play through the CLI."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from tabletown.bots import make_bot
from tabletown.cli import app
from tabletown.core.record import Record, state_digest
from tabletown.core.session import play_out
from tabletown.games.multicity import GAME, Place

from .helpers import custom, play


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_only_chooses_legal_actions_and_leaves_the_state_alone(players):
    for seed in range(4):
        state = GAME.new_game(players, {"overlap": "loose" if seed % 2 else "strict"}, seed=seed)
        bots = [make_bot(GAME, "greedy", seed + s) for s in range(players)]
        while not state.is_over:
            (seat,) = state.to_act
            before = state_digest(state)
            action = bots[seat].choose(state, seat)
            assert state_digest(state) == before
            assert action in state.legal_actions(seat)
            state.apply(seat, action)


def test_greedy_places_the_longest_object_that_fits():
    state = custom(2, ["gbg/gog/yby", "bby/yby/byb", "bby/yby/byb"])
    assert make_bot(GAME, "greedy", 1).choose(state, 0) == Place(3, 0, 0, False)


def test_greedy_blocks_a_player_about_to_win():
    # Red needs only its 3 (3v 0,0 down the left column); green can take (0,1) with its 2 first.
    state = custom(2, ["rbb/ggb/rbb", "bby/yby/byb", "bby/yby/byb"])
    state.unplaced[1] = (3,)
    state.cands[1] = {a: s for a, s in state.cands[1].items() if a.length == 3}
    assert set(state.cands[1]) == {Place(3, 0, 0, True)}
    assert make_bot(GAME, "greedy", 1).choose(state, 0) == Place(2, 0, 1, False)
    play(state, "2h 0,1")
    assert state.legal_actions(1) == ["draw"]


def test_greedy_lays_tiles_that_open_its_own_lengths():
    # The drawn tile has a green pair in its top row only once turned the right way up.
    state = custom(2, ["bby/yby/byb", "gbg/byb/byb", "bby/yby/byb"])
    play(state, "draw")
    lay = make_bot(GAME, "greedy", 1).choose(state, 0)
    play(state, state.format_action(lay))
    assert state.cands[0], "after greedy's lay green has a placement"


def win_rate(players: int, games: int) -> float:
    wins = 0
    rng = random.Random(players)
    for number in range(games):
        greedy_seat = number % players
        state = GAME.new_game(players, {}, seed=rng.getrandbits(32))
        agents = [
            make_bot(GAME, "greedy" if s == greedy_seat else "random", number * 7 + s).choose
            for s in range(players)
        ]
        play_out(state, agents)
        wins += state.result().winners == (greedy_seat,)
    return wins / games


def test_greedy_clearly_beats_random_two_players():
    assert win_rate(2, 200) >= 0.8


def test_greedy_beats_three_randoms():
    assert win_rate(4, 60) >= 0.6


runner = CliRunner()


def test_bot_game_on_the_command_line_records_and_verifies(tmp_path):
    path = tmp_path / "g.json"
    args = [
        "play",
        "multicity",
        "--seat",
        "bot:greedy",
        "--seat",
        "bot:random",
        "--seed",
        "1",
        "--record",
        str(path),
    ]
    played = runner.invoke(app, args)
    assert played.exit_code == 0, played.output
    assert "Result" in played.output
    checked = runner.invoke(app, ["replay", str(path), "--verify"])
    assert checked.exit_code == 0, checked.output
    assert "replay identically" in checked.output
    assert Record.load(path).game == "multicity"


def test_a_human_can_play_a_whole_game_by_typing(tmp_path):
    """A human types moves (by number, in notation, and a few mistakes) until the game ends."""
    path = tmp_path / "h.json"
    typed = ["help", "board", "zz", "t 1,1 r0", "draw"] + ["1"] * 300
    result = runner.invoke(
        app,
        [
            "play",
            "multicity",
            "--seat",
            "human",
            "--seat",
            "bot:greedy",
            "--seed",
            "5",
            "--record",
            str(path),
        ],
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "not a Multicity move: 'zz'" in result.output, "a typo is explained"
    assert "multiples of 3" in result.output, "an off-grid tile is explained"
    assert "Result" in result.output
    record = Record.load(path)
    assert record.seats == ["human", "bot:greedy"]
    assert runner.invoke(app, ["replay", str(path), "--verify"]).exit_code == 0
