"""Games register themselves by name; every subpackage of ``tabletown.games`` is discovered.

The registry finds the games by their package's name at run time (``GAMES_PACKAGE``): core never
imports a game (tests/core/test_layers.py checks that core imports nothing above it)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

from .errors import OptionError
from .game import Game
from .i18n import register_domain

GAMES_PACKAGE = "tabletown.games"

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    if game.name in _GAMES and type(_GAMES[game.name]) is not type(game):
        raise ValueError(f"two games claim the name {game.name!r}")
    _GAMES[game.name] = game
    # The game's message catalogs sit in its package's locale folder (core.i18n).
    module = sys.modules.get(type(game).__module__)
    if module is not None and getattr(module, "__file__", None):
        register_domain(game.name, Path(module.__file__).parent / "locale")  # type: ignore[arg-type]
    return game


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for package in game_packages():
        importlib.import_module(package)


def game_packages() -> list[str]:
    """The module names of the game packages (``tabletown.games.<name>``), without importing them."""
    games_pkg = importlib.import_module(GAMES_PACKAGE)
    return [
        f"{GAMES_PACKAGE}.{module.name}"
        for module in pkgutil.iter_modules(games_pkg.__path__)
        if module.ispkg
    ]


def registered_games() -> dict[str, Game]:
    """The games registered so far, by name, importing nothing (``all_games`` imports every game
    package first; a server that imports them one by one, to leave out a broken one, reads this)."""
    return dict(sorted(_GAMES.items()))


def all_games() -> dict[str, Game]:
    _discover()
    return dict(sorted(_GAMES.items()))


def get_game(name: str) -> Game:
    games = all_games()
    try:
        return games[name]
    except KeyError:
        raise OptionError(
            "unknown game {name!r}; known games: {known}", name=name, known=", ".join(games)
        ) from None
