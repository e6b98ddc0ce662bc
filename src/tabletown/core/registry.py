"""Games register themselves by name; every subpackage of ``tabletown.games`` is discovered."""

from __future__ import annotations

import importlib
import pkgutil

from .errors import OptionError
from .game import Game

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    if game.name in _GAMES and type(_GAMES[game.name]) is not type(game):
        raise ValueError(f"two games claim the name {game.name!r}")
    _GAMES[game.name] = game
    return game


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import tabletown.games as games_pkg

    for module in pkgutil.iter_modules(games_pkg.__path__):
        if module.ispkg:
            importlib.import_module(f"tabletown.games.{module.name}")


def all_games() -> dict[str, Game]:
    _discover()
    return dict(sorted(_GAMES.items()))


def get_game(name: str) -> Game:
    games = all_games()
    try:
        return games[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r}; known games: {', '.join(games)}") from None
