"""Each server process warms up before serving (``web.catalog.warm_up``): what the first players
would otherwise wait for is done at start-up, and a game that fails there does not stop the rest."""

from __future__ import annotations

import logging
import subprocess
import sys

from tabletown.web import catalog


def imported_after(code: str) -> set[str]:
    """The lazily imported modules of interest that a fresh interpreter holds after ``code``."""
    probe = (
        "import sys\n"
        "from tabletown.web.catalog import games, warm_up\n"
        "games()\n"
        f"{code}\n"
        "print(' '.join(m for m in ('tabletown.bots.search', 'tabletown.bots.mcts') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_warm_up_loads_what_the_first_table_would():
    assert imported_after("pass") == set()  # not imported by the games themselves
    assert imported_after("warm_up()") == {"tabletown.bots.search", "tabletown.bots.mcts"}


def test_a_game_failing_to_warm_up_is_logged_and_the_others_still_warm(toy, monkeypatch, caplog):
    touched: list[str] = []
    real_games = catalog.games()

    def broken(*_args, **_kwargs):
        raise RuntimeError("no deck today")

    monkeypatch.setattr(toy, "new_game", broken)
    for name, game in real_games.items():
        if game is not toy:
            real = game.new_game
            monkeypatch.setattr(
                game,
                "new_game",
                lambda *a, _real=real, _name=name, **k: touched.append(_name) or _real(*a, **k),
            )
    with caplog.at_level(logging.WARNING, logger="tabletown.web"):
        catalog.warm_up()
    assert any(toy.name in r.getMessage() and "no deck today" in r.getMessage() for r in caplog.records)
    assert set(touched) == {name for name, game in real_games.items() if game is not toy}
