"""Text notation for Machi Koro actions (round-trips through the typed actions of :mod:`.actions`).

roll | roll2            roll one die / two dice (two needs the Train Station)
keep | reroll | reroll2 Radio Tower: keep the roll, or re-roll with one / two dice
add2 | noadd            Harbor: add 2 to a roll of 10+ or not
tv SEAT                 TV Station: take 5 coins from that seat
swap MINE SEAT THEIRS   Business Center: give your MINE card for SEAT's THEIRS card
noswap                  Business Center: no swap
build CARD | pass       build an establishment or landmark by its short name, or build nothing

A card may also be named by its printed name in English, Polish, German or Russian (glossary.json):
case and diacritics do not matter, and a name of several words may be written with spaces, '-' or
'_' ("build pole kwiatów", "build Blumenladen", "build торговый-центр"). What format_action writes
stays the short English code.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from ...core.errors import MalformedAction

# Long import lists alike to turn.py's, bots.py's and game.py's on purpose: each module names the
# actions it uses (plain module globals, the fast look-up).
from .actions import (
    ADD2,
    BUILD_ESTABLISHMENT,
    BUILD_LANDMARK,
    ESTABLISHMENT_INDEX,
    KEEP,
    MAX_SEATS,
    NOADD,
    NOSWAP,
    PASS,
    REROLL1,
    REROLL2,
    ROLL1,
    ROLL2,
    TV,
    TVS,
    Build,
    Reroll,
    Roll,
    Swap,
    swap_action,
)
from .data import LANDMARK_CODES, all_cards, establishments

SIMPLE: dict[Any, str] = {
    ROLL1: "roll",
    ROLL2: "roll2",
    KEEP: "keep",
    REROLL1: "reroll",
    REROLL2: "reroll2",
    ADD2: "add2",
    NOADD: "noadd",
    PASS: "pass",
    NOSWAP: "noswap",
}
_SIMPLE_BY_TEXT = {text: action for action, text in SIMPLE.items()}


@cache
def _card_lookup() -> dict[str, Build]:
    """Both short codes and full ids name a card; each maps to the shared Build of its short id."""
    table: dict[str, Build] = {}
    for i, card in enumerate(establishments()):
        table[card.code] = BUILD_ESTABLISHMENT[i]
        table[card.id] = BUILD_ESTABLISHMENT[i]
    by_code = {c.code: c for c in all_cards()}
    for j, code in enumerate(LANDMARK_CODES):
        table[code] = BUILD_LANDMARK[j]
        table[by_code[code].id] = BUILD_LANDMARK[j]
    return table


def _folded(text: str) -> str:
    """A name without case, diacritics, quotes or word separators: "Pole kwiatów" -> "pole-kwiatow"."""
    text = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    kept = "".join(ch for ch in text if not unicodedata.combining(ch))
    for mark in "„”“\"'«»().,:;!?":
        kept = kept.replace(mark, " ")
    return "-".join(kept.replace("_", " ").replace("-", " ").split())


@cache
def _printed_lookup() -> dict[str, Build]:
    """Every card's printed name in every language (glossary.json), folded, to its Build."""
    from .render import glossary

    by_code = _card_lookup()
    table: dict[str, Build] = {}
    for code, entry in glossary().items():
        if code not in by_code:
            continue  # a rules term, not a card
        for lang in ("en", "pl", "de", "ru"):
            if entry.get(lang):
                table[_folded(entry[lang])] = by_code[code]
    return table


# Alike by shape to lordsofvegas/notation.py's format_action on purpose: each game spells its own actions.
def format_action(action: Any) -> str:
    kind = type(action)
    if kind is Build:
        return f"build {action.card}"
    if kind is Swap:
        return f"swap {action.mine} {action.seat} {action.theirs}"
    if kind is TV:
        return f"tv {action.target}"
    try:
        text = SIMPLE.get(action)
    except TypeError:  # unhashable junk
        text = None
    return text if text is not None and kind in (str, Roll, Reroll) else repr(action)


def parse_action(text: str) -> Any:
    words = text.strip().lower().split()
    if not words:
        raise MalformedAction("notation.empty", "no move given")
    head = words[0]
    if len(words) == 1 and head in _SIMPLE_BY_TEXT:
        return _SIMPLE_BY_TEXT[head]
    if head == "build" and len(words) >= 2:
        return _card(" ".join(words[1:]))
    if head == "tv" and len(words) == 2:
        return TVS[_seat(words[1])]
    if head == "swap" and len(words) >= 4:
        mine_words, seat_word, theirs_words = _swap_parts(words[1:])
        mine, theirs = _card(mine_words).card, _card(theirs_words).card
        if mine not in ESTABLISHMENT_INDEX or theirs not in ESTABLISHMENT_INDEX:
            raise MalformedAction("notation.swap_landmark", "landmarks cannot be swapped")
        return swap_action(ESTABLISHMENT_INDEX[mine], _seat(seat_word), ESTABLISHMENT_INDEX[theirs])
    raise MalformedAction(
        "notation.unknown",
        "not a Machi Koro move: {text!r} (moves look like 'roll', 'build cafe', 'tv 2', 'pass')",
        text=text,
    )


def _swap_parts(words: list[str]) -> tuple[str, str, str]:
    """MINE SEAT THEIRS where either card may be a printed name of several words: the seat is the
    one word (``2`` or ``p2``) between two card names."""
    if len(words) == 3:
        return words[0], words[1], words[2]
    for k in range(1, len(words) - 1):
        mine, theirs = " ".join(words[:k]), " ".join(words[k + 1 :])
        if _is_seat(words[k]) and _find_card(mine) is not None and _find_card(theirs) is not None:
            return mine, words[k], theirs
    raise MalformedAction(
        "notation.unknown", "not a swap: {text!r} (swap MINE SEAT THEIRS)", text=" ".join(words)
    )


def _is_seat(word: str) -> bool:
    return word.removeprefix("p").isdigit()


def _find_card(word: str) -> Build | None:
    return _card_lookup().get(word) or _printed_lookup().get(_folded(word))


def _card(word: str) -> Build:
    action = _find_card(word)
    if action is None:
        raise MalformedAction("notation.unknown_card", "no card is called {name!r}", name=word)
    return action


def _seat(word: str) -> int:
    word = word.removeprefix("p")
    if not word.isdigit() or int(word) >= MAX_SEATS:
        raise MalformedAction("notation.seat", "{word!r} is not a seat number", word=word)
    return int(word)
