"""Text notation for Lords of Vegas actions (lowercase, typed by humans, stored in records).

end                      end the turn
build a2 gold            build on your lot A2 (colours: green brown gold purple silver, or gr br go pu si;
                         the printed names of the glossary in any language also read: złote, Gold, золотое)
sprawl a5 gold           sprawl a gold casino you boss onto the empty unowned lot A5
remodel a2 brown         remodel the casino containing A2 to brown
reorg a2                 reorganize the casino containing A2
gamble a3 4              bet $4 at the casino containing A3
layoff / nolayoff        (boss) lay off half the bet to the bank, or not
take c5                  (all dice out) move your die from C5 to the new tile
free c4                  (all markers out) free your lot C4
put c5                   (after a reorg) put your highest unplaced value on C5
offer 0>1:$5 1>0:a3      trade offer: seat 0 gives $5 to seat 1, seat 1 gives lot A3 to seat 0
      1>0:die-c5         ... seat 1 gives its die on C5 (the value stays)
      0>1:no-reorg-c5    ... seat 0 (active) will not reorganize the casino at C5 this turn
      0>1:no-gamble      ... seat 0 will not gamble this turn (no-build, no-sprawl, no-remodel too)
accept / refuse          answer an offer (or answer with an offer of your own: a counter-offer)
pass                     (open_market option) make no offer after another player's turn
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from typing import Any

from ...core.errors import MalformedAction
from ...core.i18n import N_, Word

# Long import lists alike to state.py's, bots.py's and moves.py's on purpose: each module names
# the actions it uses (plain module globals, the fast look-up).
from .actions import (
    ACCEPT,
    BAN_KINDS,
    BY_KIND,
    END,
    LAYOFF_NO,
    LAYOFF_YES,
    PASS,
    REFUSE,
    Accept,
    Build,
    End,
    Free,
    Gamble,
    Item,
    Layoff,
    Offer,
    Pass,
    Put,
    Refuse,
    Remodel,
    Reorg,
    Sprawl,
    Take,
    from_tuple,
    notation_items,
)
from .data import COLOR_CODES, COLORS, LOT_INDEX, LOT_NAMES

_SIMPLE = {
    "end": END,
    "pass": PASS,
    "accept": ACCEPT,
    "refuse": REFUSE,
    "layoff": LAYOFF_YES,
    "nolayoff": LAYOFF_NO,
}
_ALIASES = {
    "reorganize": "reorg",
    "reorganise": "reorg",
    "bet": "gamble",
    "yes": "accept",
    "no": "refuse",
    "decline": "refuse",
}
_LOT_COLOUR = {"build": Build, "sprawl": Sprawl, "remodel": Remodel}
_LOT_ONLY = {"reorg": Reorg, "take": Take, "free": Free, "put": Put}
_LOT_COLOUR_TYPES = frozenset(_LOT_COLOUR.values())
_LOT_ONLY_TYPES = frozenset(_LOT_ONLY.values())
_NO_FIELDS = frozenset((End, Pass, Accept, Refuse))


# Alike by shape to machikoro/notation.py's format_action on purpose: each game spells its own actions.
def format_action(action: Any) -> str:
    cls = type(action)
    if cls in _LOT_COLOUR_TYPES:
        return f"{action.kind} {LOT_NAMES[action.lot]} {COLORS[action.color]}"
    if cls in _LOT_ONLY_TYPES:
        return f"{action.kind} {LOT_NAMES[action.lot]}"
    if cls is Gamble:
        return f"gamble {LOT_NAMES[action.lot]} {action.bet}"
    if cls in _NO_FIELDS:
        return action.kind
    if cls is Layoff:
        return "layoff" if action.half else "nolayoff"
    if cls is Offer:
        return "offer " + " ".join(format_items(action.items))
    if isinstance(action, tuple) and action and action[0] in BY_KIND:  # the tuple form apply takes
        return format_action(from_tuple(action))
    raise MalformedAction("notation.unknown", "not a Lords of Vegas action: {action!r}", action=action)


def format_items(items: tuple) -> list[str]:
    return notation_items(items)


# parse_lot and parse_colour (below) are alike on purpose: each its own table, rule and message.
def parse_lot(word: str) -> int:
    lot = LOT_INDEX.get(word)
    if lot is None:
        raise MalformedAction(
            "notation.lot",
            "no such lot {word!r} (lots are a1..a6, b1..b6, c1..c12, d1..d9, e1..e6, f1..f9)",
            word=word,
        )
    return lot


def fold(text: str) -> str:
    """A name as typed, compared without case, diacritics or word separators ("Złote" -> "zlote")."""
    text = unicodedata.normalize("NFKD", text.strip().lower().replace("ł", "l"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return "".join(ch for ch in text if ch not in " -_")


@cache
def printed_colours() -> dict[str, int]:
    """Every printed colour name of the glossary (English, Polish, German, Russian, and the other
    forms it lists under ``also``), folded, to its colour index."""
    from .render import glossary

    found: dict[str, int] = {}
    for index, colour in enumerate(COLORS):
        entry = glossary().get(colour, {})
        names = [entry.get(lang, "") for lang in ("en", "pl", "de", "ru")]
        names += [name for forms in entry.get("also", {}).values() for name in forms]
        for name in names:
            if name:
                found[fold(name)] = index
    return found


def parse_colour(word: str) -> int:
    colour = COLOR_CODES.get(word)
    if colour is None:
        colour = printed_colours().get(fold(word))
    if colour is None:
        raise MalformedAction(
            "notation.color", "no such casino colour {word!r} (green, brown, gold, purple, silver)", word=word
        )
    return colour


# What a number stands for, in the refusal of one that is not a whole number (catalog words).
_THE_BET = N_("the bet")
_MONEY = N_("money")


def _parse_int(word: str, what: str) -> int:
    word = word.removeprefix("$")
    if not word.isdigit():
        raise MalformedAction(
            "notation.number", "{what} must be a whole number, not {word!r}", what=Word(what), word=word
        )
    return int(word)


def parse_action(text: str, player: int) -> Any:
    words = text.strip().lower().split()
    if not words:
        raise MalformedAction("notation.empty", "type a move (or 'help')")
    head = _ALIASES.get(words[0], words[0])
    args = words[1:]
    if head in _SIMPLE:
        if head == "layoff" and args in (["yes"], ["no"]):
            return LAYOFF_YES if args[0] == "yes" else LAYOFF_NO
        _expect(head, args, 0)
        return _SIMPLE[head]
    if head in _LOT_COLOUR:
        _expect(head, args, 2)
        return _LOT_COLOUR[head](parse_lot(args[0]), parse_colour(args[1]))
    if head in _LOT_ONLY:
        _expect(head, args, 1)
        return _LOT_ONLY[head](parse_lot(args[0]))
    if head == "gamble":
        _expect(head, args, 2)
        return Gamble(parse_lot(args[0]), _parse_int(args[1], _THE_BET))
    if head == "offer":
        if not args:
            raise MalformedAction("trade.empty", "an offer lists at least one item, e.g. offer 0>1:$5 1>0:a3")
        items = [parse_item(word) for word in args]
        if len(set(items)) != len(items):
            raise MalformedAction("trade.duplicate", "an item appears twice in the offer")
        return Offer(tuple(sorted(items)))
    raise MalformedAction("notation.unknown", "not a Lords of Vegas move: {text!r}", text=text)


def parse_item(word: str) -> Item:
    """``G>R:thing`` where thing is $N, a lot, die-LOT or no-KIND[-LOT]."""
    seats, sep, thing = word.partition(":")
    giver_text, arrow, receiver_text = seats.partition(">")
    if not sep or not arrow or not giver_text.isdigit() or not receiver_text.isdigit():
        raise MalformedAction(
            "trade.item", "trade items look like 0>1:$5, 1>0:a3 or 1>0:die-c5, not {word!r}", word=word
        )
    giver, receiver = int(giver_text), int(receiver_text)
    if thing.startswith("$"):
        return Item(giver, receiver, "$", _parse_int(thing, _MONEY))
    if thing.startswith(("pt", "point", "score", "vp")):
        raise MalformedAction("trade.points", "points cannot be traded")
    if thing.startswith("tile"):
        raise MalformedAction("trade.tiles", "casino tiles cannot be traded (trade the die on them)")
    if thing.startswith("die-"):
        return Item(giver, receiver, "die", parse_lot(thing[4:]))
    if thing.startswith("no-"):
        kind, _, lot = thing[3:].partition("-")
        kind = _ALIASES.get(kind, kind)
        if kind not in BAN_KINDS:
            raise MalformedAction(
                "trade.item",
                "actions to give up are {kinds}, not {kind!r}",
                kinds=", ".join(BAN_KINDS),
                kind=kind,
            )
        return Item(giver, receiver, sys.intern("no-" + kind), parse_lot(lot) if lot else -1)
    if thing in LOT_INDEX:
        return Item(giver, receiver, "lot", LOT_INDEX[thing])
    raise MalformedAction(
        "trade.item",
        "cannot trade {thing!r}: trade money ($5), lots (a3), dice (die-a3) or actions (no-reorg-a3)",
        thing=thing,
    )


def _expect(head: str, args: list[str], n: int) -> None:
    """Refuse a move with other than ``n`` words after its name (n is 0, 1 or 2: spelt out, so that
    no refusal needs a plural form)."""
    if len(args) == n:
        return
    if n == 0:
        raise MalformedAction("notation.arity", "'{head}' takes no arguments: see 'help'", head=head, n=n)
    if n == 1:
        raise MalformedAction("notation.arity", "'{head}' takes one argument: see 'help'", head=head, n=n)
    raise MalformedAction("notation.arity", "'{head}' takes two arguments: see 'help'", head=head, n=n)


HELP = N_(
    "moves: end | build A2 gold | sprawl A5 gold | remodel A2 brown | reorg A2 | gamble A3 4 | layoff/nolayoff | "
    "take C5 | free C4 | put C5 | offer 0>1:$5 1>0:a3 1>0:die-c5 0>1:no-reorg-c5 | accept | refuse | pass"
)
