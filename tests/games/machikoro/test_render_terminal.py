"""Issue 16, Machi Koro on screen: card effects, landmark costs and effects, the viewer's own city."""

from __future__ import annotations

from rich.console import Console
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.render import EFFECTS


def screen(view, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(GAME.render(view))
    return console.export_text()


def test_market_effects_landmarks_and_you_marker_from_a_real_game() -> None:
    state = GAME.new_game(2, {}, seed=3)
    for _ in range(6):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    view = state.view(1)
    text = screen(view)
    for code in view["state"]["market"]:
        assert EFFECTS[code] in " ".join(text.split()), code
    for landmark in view["state"]["landmarks"]:
        assert f"{landmark['id']} ${landmark['cost']} {EFFECTS[landmark['id']]}" in " ".join(text.split())
    assert "P1 (you)" in text and "P0 (you)" not in text
    assert "(you)" not in screen(state.view(None))
    assert len(text.splitlines()) <= 32


# Alike to lordsofvegas's and multicity's test_render_terminal.py on purpose: each game's tests stand
# alone and check their own status line.
def test_cli_status_line_at_the_prompt_on_80_columns(tmp_path) -> None:
    result = CliRunner().invoke(
        app,
        ["play", "machikoro", "--seat", "human", "--seat", "bot:greedy", "--seed", "3"],
        input="roll\nquit\ny\n",
        env={"COLUMNS": "80", "LINES": "24"},
        catch_exceptions=False,
    )
    out = result.output
    assert "P0 (you) ◀ to act" in out
    assert "the roller pays you 1 (+1 with Mall)" in out
    assert "P0 (you): 4 coins" in out or "P0 (you):" in out
    # The status line comes right after the board, before the move list and the hints.
    last = out.rsplit("Machi Koro — turn", 1)[1].splitlines()
    status = next(i for i, line in enumerate(last) if line.startswith("P0 (you):"))
    assert len(last) - status <= 23


# The same check in every game's test_render_terminal.py (the screens: conftest's prompt_screens).
def test_the_prompt_words_every_unseen_event_and_board_redraws_the_newest(prompt_screens) -> None:
    """At a prompt every event the seat has not been shown yet is printed, however many (here more
    than the board's log holds: three opponents' turns); ``board`` redraws the board with the newest
    few."""
    import random

    from tabletown.games.machikoro.render import LOG_LINES, describe_event

    rng = random.Random(2)
    state = GAME.new_game(4, {}, seed=2)
    for _ in range(40):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seen = len(state.log) - (LOG_LINES + 5)
    unseen = [describe_event(event) for event in state.events(0, seen)]
    assert len(unseen) > LOG_LINES
    text, redrawn = prompt_screens(GAME, state, 0, seen)
    for line in unseen:
        assert f"· {line}\n" in text, line
    assert sum(1 for line in redrawn.splitlines() if line.startswith("· ")) == LOG_LINES


def test_one_coin_the_roll_to_come_and_no_empty_roll() -> None:
    """ "1 coin" (not "1 coins") on the board and the prompt's line; the decision to roll reads as one
    ("P0 to roll"), and a turn not rolled yet says so instead of "last roll: - (total 0)"."""
    from tabletown.games.machikoro.render import describe_pending, render_city, status_line

    state = GAME.new_game(2, {}, seed=4)
    view = state.view(0)
    text = screen(view)
    assert text.startswith("Machi Koro — turn 1, not rolled yet\n") and "(total 0)" not in text
    assert describe_pending(view) == "P0 to roll (roll)."
    player = {**view["state"]["players"][1], "coins": 1}
    catalogue = {card["id"]: card for card in view["state"]["cards"]}
    assert "  1 coin  " in render_city(1, player, False, catalogue).plain
    view["state"]["players"][0]["coins"] = 1
    assert status_line(view).startswith("P0 (you): 1 coin, 0/4 landmarks;")
    view["state"]["players"][0]["coins"] = 2
    assert status_line(view).startswith("P0 (you): 2 coins, 0/4 landmarks;")
