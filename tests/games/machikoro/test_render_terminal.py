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
