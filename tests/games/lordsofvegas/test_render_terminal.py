"""Issue 16, Lords of Vegas on screen: the score track with its gaps, why lots pay, casinos as groups
with their boss, the boss's lay-off on its own line, and a board short enough for 80×24."""

from __future__ import annotations

import random

from rich.console import Console
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.render import log_lines


def screen(view, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(GAME.render(view))
    return console.export_text()


def played_until_a_layoff(seed: int = 5):
    rng = random.Random(seed)
    state = GAME.new_game(2, {}, seed=seed)
    while state.to_act:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        layoff = [a for a in legal if state.format_action(a) == "layoff"]
        state.apply(seat, layoff[0] if layoff else rng.choice(legal))
        if layoff:
            return state
    raise AssertionError("no lay-off in a random game")


def test_track_lots_casinos_and_layoff_from_a_real_game() -> None:
    state = played_until_a_layoff()
    view = state.view(0)
    text = screen(view)
    flat = " ".join(text.split())
    assert "score track (+gap between squares): 0, 1..8 (+1), 10..20 (+2), 23..32 (+3)" in flat
    assert "81 (+8), 90 (+9)" in flat
    assert "lots pay $1 per marker: P0 $" in text
    casino = view["state"]["casinos"][0]
    lots = "+".join(lot.upper() for lot in casino["lots"])
    assert f"{casino['color']} {lots} ({casino['size']}" in flat and f"boss P{casino['boss']}" in flat
    assert "*" in text  # the boss's dice are starred on the board
    assert "P0 (you)" in text and "P1 (you)" not in text
    roll = next(e for e in reversed(view["events"]) if e["kind"] == "gamble_roll")
    first, second = log_lines(roll)
    assert first == f"P{roll['boss']} (boss) lays off half the bet to the bank"
    assert first in flat and second in flat
    assert len(text.splitlines()) <= 34


# Alike to machikoro's and multicity's test_render_terminal.py on purpose: each game's tests stand
# alone and check their own status line.
def test_cli_status_line_at_the_prompt_on_80_columns() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "lordsofvegas", "--seat", "human", "--seat", "bot:greedy", "--seed", "3"],
        input="quit\ny\n",
        env={"COLUMNS": "80", "LINES": "24"},
        catch_exceptions=False,
    )
    out = result.output
    assert "casinos: green C12 (1, Strip) boss P1" in out
    assert "C12 gr5P1*" in out and "score track" in out and "lots pay $1 per marker" in out
    lines = out.splitlines()
    status = max(i for i, line in enumerate(lines) if line.startswith("P0: $20"))
    prompt = max(i for i, line in enumerate(lines) if line.startswith("seat 0>"))
    assert prompt - status < 24


# The same check in every game's test_render_terminal.py (the screens: conftest's prompt_screens).
def test_the_prompt_words_every_unseen_event_and_board_redraws_the_newest(prompt_screens) -> None:
    """At a prompt every event the seat has not been shown yet is printed, however many (here more
    than the board's log holds: a bot's whole turn with its pay-outs); ``board`` redraws the whole
    board with the newest few."""
    from tabletown.games.lordsofvegas.render import LOG_LINES

    rng = random.Random(2)
    state = GAME.new_game(2, {}, seed=2)
    for _ in range(60):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seen = len(state.log) - (LOG_LINES + 6)
    unseen = [line for event in state.events(0, seen) for line in log_lines(event)]
    assert len(unseen) > LOG_LINES
    text, redrawn = prompt_screens(GAME, state, 0, seen)
    for line in unseen:
        assert f"· {line}\n" in text, line
    assert 0 < sum(1 for line in redrawn.splitlines() if line.startswith("· ")) <= LOG_LINES + 2


def test_words_without_python_lists_counts_or_empty_moves() -> None:
    """The end names the winner ("game over: P1 wins", not "winners [1]"); a refused move's arity is
    spelt out (not "takes 2 argument(s)"); re-rolled values are listed plainly; a marker that stays
    where it was takes no line in the log (and is worded as staying, not "from 16 to 16")."""
    from tabletown.core.errors import MalformedAction
    from tabletown.games.lordsofvegas.render import describe_event, render_pending

    rng = random.Random(4)
    state = GAME.new_game(2, {}, seed=4)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    (winner,) = state.result().winners
    text = screen(state.view(None))
    assert f"game over: P{winner} wins" in text and "winners [" not in text
    messages = []
    for typed in ("build a2", "take", "end now"):
        try:
            state.parse_action(typed, 0)
        except MalformedAction as error:
            messages.append(error.message)
    assert messages == [
        "'build' takes two arguments: see 'help'",
        "'take' takes one argument: see 'help'",
        "'end' takes no arguments: see 'help'",
    ]
    placing = render_pending({"placing": [{"seat": 1, "values": [5, 3], "lots": ["c5", "c6"]}]})
    assert placing is not None and "re-rolled values 5, 3 on c5, c6" in placing.plain
    stay = {"i": 7, "kind": "score", "seat": 0, "from": 16, "to": 16}
    # shown, as the browser shows it: the payout line just said P0 scores
    assert log_lines(stay) == [describe_event(stay)]
    assert describe_event(stay).startswith("P0 stays at 16 points")
    assert log_lines({**stay, "to": 18}) == ["P0 moves from 16 to 18 points"]
