"""Terminal play through the generic CLI: a human against three bots, and solo against ACME."""

from __future__ import annotations

from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.record import Record, verify

runner = CliRunner()


def _play(tmp_path, args, lines):
    path = tmp_path / "game.json"
    out = runner.invoke(
        app, ["play", "newlasvegas", *args, "--record", str(path)], input="\n".join(lines) + "\n"
    )
    assert out.exit_code == 0, out.output[-3000:]
    record = Record.load(path)
    assert record.result is not None and verify(record) == []
    return out.output, record


def test_human_plays_a_four_player_game_against_bots(tmp_path):
    # Typed notation, a whole round on one line, bad input explained, then the first listed move.
    lines = ["loan", "zz", "a", "9.9", "2.2", "skip", "b, 2.9, skip", "c, 2.1, skip"] + ["1"] * 3000
    output, record = _play(
        tmp_path,
        [
            "--seat",
            "human",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--seed",
            "6",
        ],
        lines,
    )
    assert "not a New Las Vegas move" in output and "no casino '9.9'" in output
    assert "combinations" in output and "limousine" in output
    assert record.actions[0] == (0, "loan") and record.seats[0] == "human"
    assert any(text.count(",") >= 2 for _, text in record.actions)


def test_human_plays_solo_against_acme(tmp_path):
    output, record = _play(
        tmp_path,
        ["--seat", "human", "--option", "architect=10", "--seed", "3"],
        ["noloan", "12", "2.2", "skip"] + ["1"] * 3000,
    )
    assert "ACME" in output and "card 1:" in output
    assert record.options["architect"] == 10
