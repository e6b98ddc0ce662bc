"""Issue 28 in the terminal: `tabletown play --lang`, or TABLETOWN_LANG, words the board, the log and
the prompt in that language; moves are typed in the English notation or by printed names."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.i18n import CORE_DOMAIN, Speaker
from tabletown.core.record import Record


def play(args: list[str], typed: str = "", env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(
        app,
        ["play", "machikoro", "--seat", "human", "--seat", "bot:greedy", "--seed", "3", *args],
        input=typed,
        env={"COLUMNS": "100", "LINES": "40", **(env or {})},
        catch_exceptions=False,
    )
    return result.output


@pytest.mark.parametrize("lang", ["pl", "de", "ru"])
def test_play_in_a_language(lang, tmp_path):
    out = play(["--lang", lang, "--record", str(tmp_path / "g.json")], "roll\nquit\ny\n")
    prompt = Speaker(CORE_DOMAIN, lang).tr("seat {seat}>", seat=0)
    assert prompt in out and prompt != "seat 0>"
    assert "Machi Koro — turn" not in out  # the board's heading is worded too
    english = play(["--record", str(tmp_path / "e.json")], "roll\nquit\ny\n")
    assert "seat 0>" in english and "Machi Koro — turn" in english


def test_the_environment_chooses_the_language(tmp_path):
    out = play(["--record", str(tmp_path / "g.json")], "roll\nquit\ny\n", env={"TABLETOWN_LANG": "pl"})
    assert Speaker(CORE_DOMAIN, "pl").tr("seat {seat}>", seat=0) in out


def test_printed_names_are_typed_as_moves(tmp_path):
    # Roll, then build the Bakery by its Polish printed name (3 coins at the start, the Bakery costs 1).
    record = tmp_path / "g.json"
    play(["--lang", "pl", "--record", str(record)], "roll\nbuild piekarnia\nquit\ny\n")
    moves = [text for _seat, text in Record.load(record).actions]
    assert moves[:2] == ["roll", "build bakery"]  # the record keeps the English notation


def test_an_unknown_language_is_refused():
    result = CliRunner().invoke(
        app, ["play", "machikoro", "--lang", "xx", "--seat", "bot:random", "--seat", "bot:random"]
    )
    assert result.exit_code != 0 and "--lang" in result.output


@pytest.mark.parametrize("lang", ["pl", "de", "ru"])
def test_refusals_at_the_prompt_are_in_the_language(lang, tmp_path):
    out = play(["--lang", lang, "--record", str(tmp_path / "g.json")], "#99\nroll\nquit\ny\n")
    words = Speaker(CORE_DOMAIN, lang)
    # The words wrap at the console's width: compare with the spaces and line ends taken out.
    flat = "".join(out.split())
    refusal = words.tr("no move #{number}, choose 1-{count}", number=99, count=1)
    assert refusal != "no move #99, choose 1-1"
    assert "".join(refusal.split()) in flat
    assert "nomove#99" not in flat


@pytest.mark.parametrize("lang", ["pl", "de"])
def test_replay_speaks_the_language(lang, tmp_path):
    record = tmp_path / "g.json"
    play(["--record", str(record)], "roll\nquit\ny\n")
    result = CliRunner().invoke(
        app, ["replay", str(record), "--lang", lang], env={"COLUMNS": "100"}, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert Speaker(CORE_DOMAIN, lang).tr("seat {seat}", seat=0) in result.output
    english = CliRunner().invoke(app, ["replay", str(record)], env={"COLUMNS": "100"}).output
    assert "seat 0" in english and "seat 0" not in result.output
