"""Issue 16, Multicity on screen: a tall city is cropped to a window around the last move that fits
an 80×24 terminal, with a header giving the coordinates shown and the free slots left outside."""

from __future__ import annotations

import random

from rich.console import Console
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.games.multicity import GAME
from tabletown.games.multicity.render import render_city


def screen(view, width: int = 80, height: int = 24) -> str:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(GAME.render(view))
    return console.export_text()


def tall_city():
    rng = random.Random(1)
    state = GAME.new_game(2, {}, seed=0)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(0)
        if len({t["y"] for t in view["state"]["tiles"]}) >= 6 and view["state"]["drawn"]:
            return state
    raise AssertionError("no tall city")


def test_a_tall_city_is_cropped_around_the_last_move() -> None:
    state = tall_city()
    view = state.view(0, since=max(0, state.view(0)["event_count"] - 3))
    text = screen(view)
    city = text.split("drawn tile")[0]
    assert "city window: x " in city
    rows = [line for line in city.splitlines() if line[:4].strip().lstrip("-").isdigit()]
    assert len(rows) <= 12  # four tiles high
    assert max(len(line.rstrip()) for line in city.splitlines()) <= 80
    # Every free slot can still be typed: inside the window it is drawn, outside it is listed.
    slots = view["state"]["free_slots"]
    flat = " ".join(city.split())
    for x, y in slots:
        assert f"{x},{y}" in flat, (x, y)
    # The newest move is inside the window.
    last = [e for e in view["events"] if e["kind"] in ("lay", "place")][-1]
    assert f"around the last move, at {last['x']},{last['y']}" in flat
    assert any(line.startswith(f"{last['y']:>4} ") for line in rows) or any(
        line.startswith(f"{y:>4} ") for line in rows for y in range(last["y"] - 2, last["y"] + 3)
    )
    # A taller terminal shows more; uncropped the whole city is there.
    assert "city window" not in render_city(view["state"]).plain
    assert len(screen(view, height=80).split("drawn tile")[0].splitlines()) > len(city.splitlines())


def test_cli_status_line_at_the_prompt_on_80x24() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "multicity", "--seat", "human", "--seat", "bot:greedy", "--seed", "3"],
        input="quit\ny\n",
        env={"COLUMNS": "80", "LINES": "24"},
        catch_exceptions=False,
    )
    lines = result.output.splitlines()
    status = max(i for i, line in enumerate(lines) if line.startswith("P0 (you, green)"))
    prompt = max(i for i, line in enumerate(lines) if line.startswith("seat 0>"))
    assert prompt - status < 24


# The same check in every game's test_render_terminal.py (the screens: conftest's prompt_screens).
def test_the_prompt_words_every_unseen_event_and_board_redraws_the_newest(prompt_screens) -> None:
    """At a prompt every event the seat has not been shown yet is printed, however many (here more
    than the board's log holds); ``board`` redraws the board with the newest few."""
    from tabletown.games.multicity.render import LOG_LINES, describe_event

    rng = random.Random(2)
    state = GAME.new_game(2, {}, seed=2)
    for _ in range(30):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act[0]
    seen = len(state.log) - (LOG_LINES + 5)
    unseen = [describe_event(event) for event in state.events(seat, seen)]
    assert len(unseen) > LOG_LINES
    text, redrawn = prompt_screens(GAME, state, seat, seen, width=300, height=60)
    for line in unseen:
        assert f"  {line}\n" in text, line
    assert sum(1 for line in unseen if f"  {line}\n" in redrawn) <= LOG_LINES


def test_heading_says_game_over_once_and_the_final_round_by_seat() -> None:
    """The heading at the end says "game over" once (not "game over · over"); the final round names
    the seats still to place (not a Python list); a stack of one tile is "1 tile"."""
    from tabletown.games.multicity.render import render_view

    rng = random.Random(3)
    state = GAME.new_game(2, {}, seed=3)
    final_round = None
    while state.to_act:  # tiles first, so that the stack runs out and the final round comes
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        tiles = [a for a in legal if state.format_action(a).split()[0] in ("draw", "t")]
        state.apply(seat, rng.choice(tiles or legal))
        view = state.view(0)
        if view["state"]["final_round"] and final_round is None:
            final_round = screen(view, height=60)
    over = screen(state.view(None), height=60).splitlines()[0]
    assert over.startswith("Multicity — game over · stack: ") and "over · over" not in over
    assert final_round is not None and "final round: still to place: seat " in final_round
    assert "[" not in final_round.split("final round: still to place:")[1].splitlines()[0]
    view = state.view(None)
    view["state"]["stack"] = 1
    one = Console(width=100, height=60, record=True, color_system=None)
    one.print(render_view(view))
    assert "stack: 1 tile · " in one.export_text()
