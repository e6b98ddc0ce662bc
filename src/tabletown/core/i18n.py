"""Languages: gettext catalogs (Babel), one domain per game plus ``tabletown`` for everything shared.

English is the source language: every message is written in English in the code and looked up in the
reader's catalog, falling back to the English text. Catalogs live beside the code that speaks them:
``core/locale/<lang>/LC_MESSAGES/tabletown.po`` for core, web and terminal, and
``games/<game>/locale/<lang>/LC_MESSAGES/<game>.po`` for each game (so a game stays one folder). The
compiled ``.mo`` files ship in the package (``make catalogs`` rebuilds them; a test checks they match).

A renderer speaks through a :class:`Speaker`: its catalog in one locale plus the seat names of one
reader. Messages are marked for extraction (``make catalogs`` runs ``pybabel extract``) by the
method names ``tr`` (a sentence), ``trn`` (singular and plural), ``trp`` (with a context) and by
``N_`` (marks without translating, for the two forms of :meth:`Speaker.said`). Fields are named
(``{who} rolls {die}.``) so a translation may reorder them.

Names are never declined: in Polish, German and Russian a sentence is shaped so that a player's name
stands where its nominative reads right ("graczowi Alicja"), and the reader as subject gets the
second-person sentence (``said``), as in English.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from .words import PLAIN, Names, seat_display_names

LANGUAGES = ("en", "pl", "de", "ru")
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "de": "Deutsch", "ru": "Русский"}
DEFAULT = "en"
CORE_DOMAIN = "tabletown"
CORE_LOCALE_DIR = Path(__file__).with_name("locale")

T = TypeVar("T")
_DOMAINS: dict[str, Path] = {CORE_DOMAIN: CORE_LOCALE_DIR}


def N_(message: str) -> str:  # noqa: N802 - gettext's conventional name for "mark, do not translate"
    """Marks ``message`` for extraction and returns it untouched (translated later)."""
    return message


def NP_(context: str, message: str) -> str:  # noqa: N802 - like N_, with a context (pgettext)
    return message


# The words of a seat's label (core.words.seat_display_names), marked for the shared catalog.
_SEAT_WORDS = (
    N_("{level} bot"),
    N_("Player {number}"),
    NP_("bot level", "random"),
    NP_("bot level", "greedy"),
    NP_("bot level", "expert"),
    NP_("bot level", "search"),
    NP_("bot level", "easy"),
    NP_("bot level", "medium"),
    NP_("bot level", "hard"),
)


def seat_names(seats: Sequence[tuple[str, str | None]], lang: str = DEFAULT) -> list[str]:
    """What to call each seat, from (kind, name) pairs, in ``lang``: "Expert bot", "Bot ekspert"."""
    return list(_seat_names(tuple(seats), lang))


# Remembered: a server words every payload's seats, the same few tables' seats again and again.
@functools.lru_cache(maxsize=4096)
def _seat_names(seats: tuple[tuple[str, str | None], ...], lang: str) -> tuple[str, ...]:
    if lang == DEFAULT or lang not in LANGUAGES:
        return tuple(seat_display_names(seats))
    found = catalog(CORE_DOMAIN, lang)

    def say(context: str, message: str) -> str:
        return str(found.pgettext(context, message)) if context else found.gettext(message)

    return tuple(seat_display_names(seats, say))


def register_domain(domain: str, directory: Path) -> None:
    """A game's catalogs: ``directory/<lang>/LC_MESSAGES/<domain>.mo`` (the game's ``locale`` folder)."""
    _DOMAINS[domain] = directory


def language(code: str | None) -> str:
    """One of LANGUAGES for a code such as ``pl``, ``pl-PL``, ``de_AT`` or None (English)."""
    if not code:
        return DEFAULT
    head = code.strip().replace("_", "-").split("-")[0].lower()
    return head if head in LANGUAGES else DEFAULT


ACCEPT_CHARS = 512  # of an Accept-Language header read
ACCEPT_ITEMS = 16  # languages of it read


def from_accept_language(header: str | None) -> str:
    """The best of our languages for an HTTP ``Accept-Language`` header (quality values honoured)."""
    best, best_q = DEFAULT, -1.0
    # Only the first languages are read: browsers send a handful, and a header of megabytes took the
    # event loop a third of a second to read in full (security audit 31).
    for order, part in enumerate((header or "")[:ACCEPT_CHARS].split(",", ACCEPT_ITEMS)[:ACCEPT_ITEMS]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        code = tag.strip().replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES and quality > best_q and quality > 0:
            best, best_q = code, quality - order * 1e-6  # ties: the earlier one
    return best


def from_environment() -> str:
    """The terminal's language: ``TABLETOWN_LANG``, else English (the system locale is not guessed:
    a researcher's logs should not change language with the machine)."""
    return language(os.environ.get("TABLETOWN_LANG"))


@functools.cache
def catalog(domain: str, lang: str) -> NullTranslations:
    """The compiled catalog of ``domain`` in ``lang`` (English, or a missing catalog: no translation)."""
    directory = _DOMAINS.get(domain)
    if lang == DEFAULT or directory is None:
        return NullTranslations()
    found = Translations.load(str(directory), [lang], domain)
    return found if isinstance(found, Translations) else NullTranslations()


_ENGLISH = NullTranslations()


def gettext(domain: str, lang: str, message: str) -> str:
    return catalog(domain, lang).gettext(message)


class MissingTranslation(LookupError):
    """A message with no translation in a strict Speaker (tests: every message must be translated)."""


class Speaker:
    """One renderer's words in one language for one reader (``names``: core.words.Names).

    ``Speaker.strict = True`` (the tests) makes a message missing from a non-English catalog raise
    MissingTranslation instead of falling back to English."""

    strict = False
    __slots__ = ("domain", "lang", "names", "english", "_catalog", "_core")

    def __init__(self, domain: str, lang: str = DEFAULT, names: Names | None = None) -> None:
        # Renderers make one per sentence: the common cases cost a few attribute stores.
        self.domain = domain
        self.lang = lang if lang in LANGUAGES else language(lang)
        self.names = names or PLAIN
        self.english = self.lang == DEFAULT
        self._catalog = _ENGLISH if self.english else catalog(domain, self.lang)
        self._core = _ENGLISH if self.english else catalog(CORE_DOMAIN, self.lang)

    def tr(self, message: str, **fields: Any) -> str:
        """``message`` translated, its ``{fields}`` filled in."""
        if self.english:  # the message is the English text
            return message.format(**fields) if fields else message
        self._check(message)
        text = self._catalog.gettext(message)
        return text.format(**fields) if fields else text

    def _check(self, key: object, message: str | None = None) -> None:
        if self.strict and not self.english:
            found = getattr(self._catalog, "_catalog", {})
            if key not in found:
                raise MissingTranslation(f"{self.domain}/{self.lang}: {message or key!r}")

    def trn(self, singular: str, plural: str, count: int, **fields: Any) -> str:
        """The form for ``count`` (Polish and Russian have three), ``{count}`` and fields filled in."""
        self._check((singular, 0), singular)
        text = self._catalog.ngettext(singular, plural, count)
        return text.format(count=self.number(count), **fields)

    def trp(self, context: str, message: str, **fields: Any) -> str:
        """``message`` translated in ``context`` (one English word, two meanings)."""
        self._check(f"{context}\x04{message}", message)
        text = str(self._catalog.pgettext(context, message))
        return text.format(**fields) if fields else text

    def said(self, seat: object, other: str, you: str, **fields: Any) -> str:
        """The sentence whose subject is ``seat``: ``you`` when the reader is that seat, else ``other``
        with ``{who}`` the seat's name. Both forms are marked with ``N_`` where they are written."""
        if self.names.you(seat):
            return self.tr(you, **fields)
        return self.tr(other, who=self.name(seat), **fields)

    def name(self, seat: object) -> str:
        """A seat's name in any position (``P1`` without names)."""
        return self.names.name(seat)

    def who(self, seat: object) -> str:
        """A seat as an object: "you" for the reader in English; other languages use the name, which
        is never declined."""
        if self.english:
            return self.names.who(seat)
        return self.names.name(seat)

    def number(self, value: int | float) -> str:
        return format_decimal(value, locale=self.lang) if not self.english else str(value)

    def listed(self, items: Sequence[str]) -> str:
        """Several words joined the locale's way ("A, B and C"; "A, B i C")."""
        if not items:
            return ""
        return format_list(list(items), locale=_locale(self.lang))

    def core(self, message: str, **fields: Any) -> str:
        """A shared message (core catalog), e.g. the end of a game."""
        if self.strict and not self.english and message not in getattr(self._core, "_catalog", {}):
            raise MissingTranslation(f"{CORE_DOMAIN}/{self.lang}: {message!r}")
        text = self._core.gettext(message)
        return text.format(**fields) if fields else text


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse("en" if lang == DEFAULT else lang)


def glossary_term(glossary: Mapping[str, Mapping[str, Any]], key: str, lang: str) -> str:
    """A printed name from a game's glossary (``{key: {"en": ..., "pl": ..., ...}}``), English when
    the language has none."""
    entry = glossary.get(key)
    if entry is None:
        return key
    return str(entry.get(lang) or entry.get(DEFAULT) or key)


class Word(str):
    """A field of a message that is itself a message of the catalog (marked with ``N_`` where it is
    written): a phase, a step, an effect. It reads as its English text until a Speaker words it."""


class Term(str):
    """A field of a message that is a printed name: English as a string, and the game glossary's
    entry ``key`` in another language (``Term("green")``; ``Term("Bakery", "wheat_field")``)."""

    key: str

    def __new__(cls, english: str, key: str | None = None) -> Term:
        term = super().__new__(cls, english)
        term.key = english if key is None else key
        return term


def refusal(
    template: str,
    fields: Mapping[str, Any],
    domain: str,
    lang: str,
    printed: Callable[[str, str], str],
) -> str:
    """A refused move's message in ``lang``: the template from the game's catalog, or the shared one
    for the engine's own refusals; Word fields translated, Term fields by ``printed(key, lang)``
    (the game's glossary). A strict Speaker's rule holds: no message falls back to English."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return template.format(**fields) if fields else template
    own = catalog(domain, lang)
    speaker = Speaker(domain, lang)
    if template in getattr(own, "_catalog", {}):
        text = own.gettext(template)
    else:
        text = speaker.core(template)
    if not fields:
        return text
    worded = {name: _worded(value, speaker, printed) for name, value in fields.items()}
    try:
        return text.format(**worded)
    except (KeyError, IndexError, ValueError):  # a translation naming a field it is not given
        return template.format(**fields)


def _worded(value: Any, speaker: Speaker, printed: Callable[[str, str], str]) -> Any:
    if isinstance(value, Term):
        return printed(value.key, speaker.lang)
    if isinstance(value, Word):
        return speaker.tr(str(value))
    return value


@functools.cache
def glossary_of(module: str) -> Mapping[str, Mapping[str, Any]]:
    """The terms of ``glossary.json`` in the package of ``module`` (a game's), empty without one."""
    import importlib
    import json

    package = importlib.import_module(module.rpartition(".")[0])
    path = Path(package.__file__ or "").with_name("glossary.json")
    if not path.exists():
        return {}
    terms: Mapping[str, Mapping[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["terms"]
    return terms


def missing_translations(domains: Iterable[str] | None = None) -> list[str]:
    """Every untranslated or fuzzy message of every catalog (for the test that keeps them complete)."""
    from babel.messages.pofile import read_po

    problems = []
    for domain in domains or list(_DOMAINS):
        directory = _DOMAINS[domain]
        for lang in LANGUAGES[1:]:
            po = directory / lang / "LC_MESSAGES" / f"{domain}.po"
            if not po.exists():
                problems.append(f"{domain}/{lang}: no catalog")
                continue
            with po.open("rb") as handle:
                messages = read_po(handle)
            for message in messages:
                if not message.id:
                    continue
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if message.fuzzy or not all(strings):
                    problems.append(f"{domain}/{lang}: {message.id!r}")
    return problems


def in_language(method: Callable[..., T], *args: Any, lang: str) -> T:
    """``method(*args, lang=lang)`` when it takes a language (every game of ours), else in English."""
    if lang != DEFAULT and _takes_lang(getattr(method, "__func__", method)):
        return method(*args, lang=lang)
    return method(*args)


@functools.cache
def _takes_lang(function: Callable[..., Any]) -> bool:
    try:
        return "lang" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def domains() -> dict[str, Path]:
    """Every registered domain and its folder."""
    return dict(_DOMAINS)
