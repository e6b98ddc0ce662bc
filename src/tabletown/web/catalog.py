"""The games the server offers, found through the registry, and their set-up choices as JSON.

Discovery is tolerant: a game package that fails to import is left out (and named in
``broken_games()``) instead of taking the whole server down.
"""

from __future__ import annotations

import importlib
import logging
import threading
from typing import Any

from ..core.game import Game
from ..core.i18n import gettext, in_language
from ..core.registry import all_games, game_packages, registered_games

log = logging.getLogger("tabletown.web")
_BROKEN: dict[str, str] = {}
_LOCK = threading.Lock()


def games() -> dict[str, Game]:
    # The registry imports the game packages on first use; threads asking at once must not see a
    # half-filled registry, so the first discovery happens under a lock (and at start-up).
    with _LOCK:
        return _games()


def _games() -> dict[str, Game]:
    try:
        return all_games()
    except Exception:  # one game failed to import: import the others one by one
        for package in game_packages():
            name = package.rpartition(".")[2]
            try:
                importlib.import_module(package)
            except Exception as exc:
                if name not in _BROKEN:
                    log.warning("game %s cannot be loaded: %s", name, exc)
                _BROKEN[name] = f"{type(exc).__name__}: {exc}"
        return registered_games()


def warm_up() -> None:
    """Play one move of each game, two players, default options, before serving: what a game builds
    once per process on first use (Multicity's pair tables: ~40 ms) and the first runs of its code
    paths are then paid at start-up, not by the first players, nor all at once when a restarted
    process takes over a dead one's tables. A game that fails here is left for its tables to report."""
    from ..bots import bot_names
    from ..core.i18n import LANGUAGES, seat_names
    from ..core.words import Names
    from .live import describe

    for name, game in games().items():
        try:
            bot_names(game)  # imports the optional bot modules (search, MCTS) once
            state = game.new_game(max(2, game.min_players), None, 0)
            seat = state.to_act[0]
            action = state.legal_actions(seat)[0]
            state.format_action(action)
            after = state.clone()
            after.apply(seat, action)
            after.to_json()
            events = [e for e in after.view(seat)["events"] if isinstance(e, dict)]
            seats = [("human", None)] * after.num_players
            for lang in LANGUAGES:  # the events' wording, and its modules, in every language
                names = Names(seat_names(seats, lang), seat)
                for event in events:
                    describe(game, event, names, lang)
        except Exception as exc:
            log.warning("warming up %s failed: %s", name, exc)


def broken_games() -> dict[str, str]:
    return dict(_BROKEN)


def find_game(name: str) -> Game | None:
    if not isinstance(name, str):
        return None
    return games().get(name)


def bot_levels(game: Game) -> list[str]:
    from ..bots import bot_names

    try:
        return bot_names(game)
    except Exception:
        return sorted(game.bots())


def set_up_title(game: Game, num_players: int, options: Any, lang: str = "en") -> str:
    """The game's title for a table's set-up in ``lang`` (``Game.title_for``), its plain title if
    that fails."""
    try:
        return str(
            in_language(game.title_for, num_players, options if isinstance(options, dict) else {}, lang=lang)
        )
    except Exception:
        return game.title


def bot_label(level: str, lang: str = "en") -> str:
    """A bot level as a table names a seat of it (core.i18n.seat_names), for the lobby's choices."""
    from ..core.i18n import seat_names

    return seat_names([(f"bot:{level}", None)], lang)[0]


def game_info(game: Game, lang: str = "en") -> dict[str, Any]:
    """What the lobby needs to offer a set-up: player counts, options with their choices, bots; the
    titles and the options' help in ``lang`` (the game's catalog; names and choices are ids)."""
    options = []
    for option in game.options:
        options.append(
            {
                "name": option.name,
                "default": option.default,
                "kind": option.kind.__name__,
                "help": gettext(game.name, lang, option.help),
                "label": gettext(game.name, lang, option.label)
                if option.label
                else option.name.replace("_", " "),
                "choices": list(option.choices) if option.choices is not None else None,
                # a choice's words, in the order of ``choices`` (its id where it has none)
                "choice_labels": [
                    gettext(game.name, lang, option.words_for(c)) if option.choice_labels else str(c)
                    for c in option.choices
                ]
                if option.choices is not None
                else None,
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
        )
    return {
        "name": game.name,
        "title": gettext(game.name, lang, game.title),
        # the title with the default options (the lobby's game choice; "Machi Koro", not "... Harbor")
        "plain_title": set_up_title(game, max(2, game.min_players), {}, lang),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": options,
        "bots": bot_levels(game),
        # what a seat of each bot level is called at a table, in ``lang`` ("Search hard bot")
        "bot_labels": {level: bot_label(level, lang) for level in bot_levels(game)},
        # the notation's words in ``lang``; the moves themselves are typed as they are in every language
        "notation_help": gettext(game.name, lang, game.notation_help) if game.notation_help else "",
    }
