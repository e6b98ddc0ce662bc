"""Terminal play through the generic CLI: a human against three bots, and solo against ACME."""

from __future__ import annotations

import pytest
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


def _finished_solo(seed: int):
    import random

    from tabletown.games.newlasvegas import GAME

    rng = random.Random(seed)
    state = GAME.new_game(1, {}, seed=seed)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("lang", ["en", "pl", "de", "ru"])
def test_solo_result_table_has_acme_and_the_winner(monkeypatch, lang, strict):
    """The result table at the end of a solo game: ACME's row with its score, ranked with the player,
    and a line naming who won, in every language."""
    import io

    from rich.console import Console

    from tabletown import cli
    from tabletown.core.i18n import CORE_DOMAIN, Speaker

    state = _finished_solo(1)
    final = state.view(None)["state"]["final"]
    acme, mine = final["acme"]["total"], final["players"][0]["total"]
    assert acme != mine
    console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
    monkeypatch.setattr(cli, "console", console)
    cli._print_result(state, ["human"], lang)
    text = console.export_text()
    rows = [line.split("│")[1:-1] for line in text.splitlines() if line.startswith("│")]
    cells = sorted([cell.strip() for cell in row] for row in rows)
    player_rank, acme_rank = ("1", "2") if mine > acme else ("2", "1")
    assert cells == sorted([[player_rank, "0", "human", f"{mine:g}"], [acme_rank, "-", "ACME", f"{acme:g}"]])
    words = Speaker(CORE_DOMAIN, lang)
    winner = "ACME" if acme > mine else words.tr("seat {seat} ({player})", seat=0, player="human")
    assert words.tr("winner: {winner}", winner=winner) in text
