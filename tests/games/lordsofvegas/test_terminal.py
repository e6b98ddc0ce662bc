"""Rendering and the terminal: the board, players, cards and log show up; CLI games record and replay."""

from __future__ import annotations

import random

from rich.console import Console
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.events import Event
from tabletown.games.lordsofvegas import GAME

from .helpers import blank, mark, put


def rendered(view, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(GAME.render(view))
    return console.export_text()


def test_render_shows_board_players_cards_and_log() -> None:
    state = blank(3, money=17, deck=["b1", "c1"])
    mark(state, 1, "a2")
    put(state, "c5", "gold", 2, 6)
    state.log.append(Event("build", {"seat": 2, "lot": "c5", "color": "gold", "cost": 12}))
    text = rendered(state.view(0))
    for needle in (
        "A1  $9",
        "C12 $15",
        "Strip",
        "go6P2*",
        "A2  $6  P1",
        "$17",
        "gold 8",
        "silver 1",
        "P2 builds a gold casino on C5 for $12",
        "Game End after 2 more",
    ):
        assert needle in text, needle


def test_render_fits_80_columns_and_every_phase() -> None:
    rng = random.Random(3)
    phases = set()
    for seed in range(12):
        state = GAME.new_game(2 + seed % 3, {}, seed=seed)
        while state.to_act:
            view = state.view(state.to_act[0])
            if view["state"]["phase"] not in phases or rng.random() < 0.02:
                phases.add(view["state"]["phase"])
                text = rendered(view, width=80)
                board = text.split("Players")[0]
                assert max(len(line.rstrip()) for line in board.splitlines()) <= 80
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert "game over" in rendered(state.view(None))
    assert {"action", "offer", "layoff", "place"} <= phases


# Alike to machikoro's test_notation_records_views.py test_cli_play_then_replay_verify on purpose:
# each game's tests stand alone (no shared module across tests/games/).
def test_cli_bot_game_records_and_replays(tmp_path) -> None:
    runner = CliRunner()
    record = tmp_path / "g.json"
    result = runner.invoke(
        app,
        [
            "play",
            "lordsofvegas",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--seed",
            # Set-up alike to machikoro/test_notation_records_views.py on purpose: each test stands alone.
            "3",
            "--record",
            str(record),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Result" in result.output
    result = runner.invoke(app, ["replay", str(record), "--verify"])
    assert result.exit_code == 0 and "replay identically" in result.output


# Alike to multicity's test_bots.py CLI test on purpose: each game's tests stand alone (no shared module across tests/games/).
def test_cli_human_game_with_typed_moves(tmp_path) -> None:
    runner = CliRunner()
    record = tmp_path / "h.json"
    # A few typed moves (one refused), then "1" (the first listed move) until the end.
    typed = ["sprawl a1 gold", "offer 0>1:$1", "accept"] + ["1"] * 3000
    result = runner.invoke(
        app,
        [
            "play",
            "lordsofvegas",
            "--seat",
            "human",
            "--seat",
            "bot:greedy",
            "--seed",
            "5",
            "--record",
            str(record),
        ],
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Result" in result.output and "sprawl" in result.output
    assert runner.invoke(app, ["replay", str(record), "--verify"]).exit_code == 0
