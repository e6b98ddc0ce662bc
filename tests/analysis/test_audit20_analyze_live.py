"""Security audit 20: `tabletown analyze` of an UNFINISHED game's record is refused.

The web refuses to analyse a live table (analysis.unfinished) and `tabletown replay` of an
unfinished record shows other seats' secret choices only as "a secret choice" (security audit 13),
but `tabletown analyze last-game.json` of a hot-seat New Las Vegas game still running printed seat
0's secret bank loan and its unresolved round in words, rated them, gave seat 1 (still choosing)
every seat's win chance, and wrote a shareable page titled with the seed that replays every die
and card to come. The command now replays the record and refuses one whose game is not over."""

from __future__ import annotations

from typer.testing import CliRunner

from tabletown.cli import app


def test_analyze_refuses_an_unfinished_game(tmp_path, unfinished_nlv_record):
    path = tmp_path / "last-game.json"
    rec = unfinished_nlv_record(path, private=True)
    page = tmp_path / "a.html"
    args = ["analyze", str(path), "--json", "--samples", "1", "--candidates", "1", "--html", str(page)]
    out = CliRunner().invoke(app, args)
    text = out.output
    assert "secretly take the bank loan" not in text, "seat 0's secret loan is printed, in words"
    assert f'"played": "{rec.actions[-2][1]}"' not in text, "seat 0's unresolved round is printed"
    assert not page.exists() or f"seed {rec.seed}" not in page.read_text(), "the page names the live seed"
    assert out.exit_code != 0, "a live game's record is analysed (the web refuses: analysis.unfinished)"
