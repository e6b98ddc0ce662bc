"""Declared game options: defaults, parsing from text and validation up front."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _show(value: Any) -> str:
    """A value in an error message, cut short: hostile input must not flood the screen."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return "a number too long to show"
    text = repr(value) if not isinstance(value, str) else repr(value[:40])
    return text if len(text) <= 44 else text[:41] + "..."


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game. ``choices`` restricts the value; ``kind`` is bool, int or str.

    ``name`` and the choices are ids (the CLI's ``--option name=value``, records, the API); what a
    person reads in a form is ``label`` (a few words) and ``choice_labels`` (a choice's words, by
    value), both marked for translation in the game's catalog. Without them a form shows the ids."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    choice_labels: tuple[tuple[Any, str], ...] = ()

    def words_for(self, value: Any) -> str:
        """The untranslated words of a choice (its id when it has none)."""
        return next((words for choice, words in self.choice_labels if choice == value), str(value))

    @property
    def kind(self) -> type:
        return type(self.default)

    def coerce(self, value: Any) -> Any:
        """Turn a CLI string (or an already typed value) into a valid value, or raise OptionError."""
        kind = self.kind
        if isinstance(value, str) and kind is not str:
            value = self._parse_text(value)
        if kind is bool and not isinstance(value, bool):
            raise OptionError(
                "option {name!r} takes true or false, not {value}", name=self.name, value=_show(value)
            )
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(
                "option {name!r} takes a whole number, not {value}", name=self.name, value=_show(value)
            )
        if kind is str and not isinstance(value, str):
            raise OptionError("option {name!r} takes text, not {value}", name=self.name, value=_show(value))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(
                "option {name!r} must be one of: {allowed} (got {value})",
                name=self.name,
                allowed=allowed,
                value=_show(value),
            )
        if self.minimum is not None and value < self.minimum:
            raise OptionError(
                "option {name!r} must be at least {limit} (got {value})",
                name=self.name,
                limit=self.minimum,
                value=_show(value),
            )
        if self.maximum is not None and value > self.maximum:
            raise OptionError(
                "option {name!r} must be at most {limit} (got {value})",
                name=self.name,
                limit=self.maximum,
                value=_show(value),
            )
        return value

    def _parse_text(self, text: str) -> Any:
        kind = self.kind
        lowered = text.strip().lower()
        if kind is bool:
            if lowered in _TRUE:
                return True
            if lowered in _FALSE:
                return False
            raise OptionError(
                "option {name!r} takes true or false, not {value}", name=self.name, value=_show(text)
            )
        if kind is int:
            try:
                return int(lowered)
            except ValueError:
                raise OptionError(
                    "option {name!r} takes a whole number, not {value}", name=self.name, value=_show(text)
                ) from None
        return text

    def describe(self) -> str:
        allowed = ""
        if self.choice_labels:  # the ids the CLI takes, each with what it means
            allowed = " (" + " | ".join(f"{c}: {self.words_for(c)}" for c in self.choices or ()) + ")"
        elif self.choices is not None:
            allowed = " (" + "|".join(str(c) for c in self.choices) + ")"
        elif self.kind is bool:
            allowed = " (true|false)"
        return f"{self.name}={self.default}{allowed}: {self.help}"


def resolve_options(declared: tuple[Option, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and validate every given option; unknown names are refused."""
    by_name = {o.name: o for o in declared}
    given = dict(given or {})
    unknown = sorted(str(name) for name in set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        names = ", ".join(_show(name) for name in unknown[:5])
        raise OptionError("unknown option(s) {names}; this game has: {known}", names=names, known=known)
    return {o.name: o.coerce(given[o.name]) if o.name in given else o.default for o in declared}


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Parse CLI ``KEY=VALUE`` strings (values stay text; the game's Option coerces them)."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError("options are written KEY=VALUE, not {pair!r}", pair=pair)
        result[key.strip()] = value.strip()
    return result
