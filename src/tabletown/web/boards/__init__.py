"""Each game's browser board in one folder, ``boards/<game>/``: ``__init__.py`` may define ``words(lang)
-> dict`` (names and effects by id in that language, from the game's own renderer) that the page hands to ``board.js``
(``Tabletown.registerBoard``); ``board.html`` is its markup and links ``board.css``. The page serves the
script and stylesheet at ``/boards/<game>/`` (web/routes/pages.py)."""

from __future__ import annotations

import importlib
import inspect
import logging
from typing import Any

from ...core.i18n import catalog

log = logging.getLogger("tabletown.web")


def script_messages(domain: str, lang: str) -> dict[str, str]:
    """Every translated message of a catalog, for scripts (``Tabletown.t`` reads them)."""
    found = getattr(catalog(domain, lang), "_catalog", {})
    return {k: v for k, v in found.items() if isinstance(k, str) and k and isinstance(v, str)}


def board_words(game_name: str, lang: str = "en") -> dict[str, Any]:
    """The board's words in ``lang``, plus the game's first-move hints (web/help.py) under ``"hints"``."""
    from ..help import HINTS
    from ..help import hints as hints_in

    hints: dict[str, Any] = {"hints": hints_in(game_name, lang)} if game_name in HINTS else {}
    # The board scripts' own messages (Tabletown.t), from the game's catalog.
    hints["messages"] = script_messages(game_name, lang)
    try:
        module = importlib.import_module(f"tabletown.web.boards.{game_name}")
    except ModuleNotFoundError:
        return hints
    try:
        takes_lang = "lang" in inspect.signature(module.words).parameters
        words: dict[str, Any] = module.words(lang) if takes_lang else module.words()  # a dict
        return {**words, **hints}
    except Exception:  # a board's words must never take the page down
        log.exception("board words of %s failed", game_name)
        return hints
