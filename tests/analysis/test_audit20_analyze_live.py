"""Security audit 20: `tabletown analyze` of an UNFINISHED game's record is refused.

The web refuses to analyse a live table (analysis.unfinished) and `tabletown replay` of an
unfinished record shows other seats' secret choices only as "a secret choice" (security audit 13),
but `tabletown analyze last-game.json` of a hot-seat New Las Vegas game still running printed seat
0's secret bank loan and its unresolved round in words, rated them, gave seat 1 (still choosing)
every seat's win chance, and wrote a shareable page titled with the seed that replays every die
and card to come. The command now replays the record and refuses one whose game is not over."""

from __future__ import annotations

import random

import typer
from typer.testing import CliRunner

from tabletown.analysis.cli import register_commands
from tabletown.core.record import Record
from tabletown.core.registry import get_game

NLV = get_game("newlasvegas")


def _app() -> typer.Typer:
    app = typer.Typer()
    app.callback()(lambda: None)  # keep `analyze` a sub-command
    register_commands(app)
    return app


def _unfinished_hot_seat_record(path) -> Record:
    """Two humans: seat 0 secretly took the loan, round 1 resolved, seat 0 then played its whole
    round 2 in secret; seat 1 still chooses its round 2."""
    state = NLV.new_game(2, {}, 4)
    rec = Record.start(state, ["human", "human"])
    rng = random.Random(1)

    def do(seat, action):
        text = state.format_action(action)
        state.apply(seat, action)
        rec.add(seat, text)

    do(0, state.parse_action("loan", 0))
    do(1, state.parse_action("noloan", 1))
    for round_index in range(2):
        number = state.round_no
        for seat in (0, 1):
            if round_index == 1 and seat == 1:
                break
            while seat in state.to_act and state.round_no == number:
                do(seat, rng.choice(state.legal_actions(seat)))
    assert state.to_act == (1,) and not state.is_over
    rec.save(path, private=True)
    return rec


def test_analyze_refuses_an_unfinished_game(tmp_path):
    path = tmp_path / "last-game.json"
    rec = _unfinished_hot_seat_record(path)
    page = tmp_path / "a.html"
    args = ["analyze", str(path), "--json", "--samples", "1", "--candidates", "1", "--html", str(page)]
    out = CliRunner().invoke(_app(), args)
    text = out.output
    assert "secretly take the bank loan" not in text, "seat 0's secret loan is printed, in words"
    assert f'"played": "{rec.actions[-2][1]}"' not in text, "seat 0's unresolved round is printed"
    assert not page.exists() or f"seed {rec.seed}" not in page.read_text(), "the page names the live seed"
    assert out.exit_code != 0, "a live game's record is analysed (the web refuses: analysis.unfinished)"
