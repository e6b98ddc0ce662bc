"""Errors raised through the engine contract.

Every refusal names the rule it enforces (a short dotted id such as ``build.sold_out``) so that a
player, a bot author or a web client can tell *why* a move was refused, not only that it was.
"""

from __future__ import annotations

from typing import Any


class TabletownError(Exception):
    """Base class of every error the engine raises on purpose."""


class OptionError(TabletownError, ValueError):
    """Game options or player count refused before a game starts. Like a refused move's, the message
    is a literal template (``{fields}`` from the keyword arguments) that ``Game.describe_error`` words
    in a reader's language; ``message`` is the English text."""

    def __init__(self, message: str, **fields: Any) -> None:
        text = message.format(**fields) if fields else message
        super().__init__(text)
        self.message = text
        self.template = message
        self.fields = fields


class ActionError(TabletownError, ValueError):
    """An action was refused. ``rule`` is a stable id; ``message`` explains it in English words.

    ``template`` is the message as written where it is raised, a literal marked for translation (the
    catalogs extract the second argument of IllegalAction/MalformedAction), with ``{fields}`` filled
    from the keyword arguments; ``Game.describe_error`` words it in a reader's language. A field
    holding a ``core.i18n.Term`` (a printed name) or ``Word`` (a catalog word) is translated too."""

    def __init__(self, rule: str, message: str, **fields: Any) -> None:
        text = message.format(**fields) if fields else message
        super().__init__(f"{text} [{rule}]")
        self.rule = rule
        self.message = text
        self.template = message
        self.fields = fields


class IllegalAction(ActionError):
    """Well-formed, but the rules forbid it now (wrong player, unaffordable, sold out...)."""


class MalformedAction(ActionError):
    """The text or object does not describe an action of this game at all."""


class RecordError(TabletownError, ValueError):
    """A game record could not be read or does not replay."""


class SnapshotError(TabletownError, ValueError):
    """A saved position is malformed, altered or does not fit the game."""
