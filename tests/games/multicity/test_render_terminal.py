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
