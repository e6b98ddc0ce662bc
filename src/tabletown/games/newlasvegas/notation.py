"""Text notation of New Las Vegas actions (short, lowercase, typeable).

loan / noloan              secret bank-loan choice at the start
a  b+e  c+f  a+x           pick combination a/b/c, optionally with a bonus: +e easy opening,
                           +f free action, +x expansion (solo: 12 = number of card 1, effect of card 2)
refuse (solo: refuse3)     no number fits: mark 2 opening boxes (solo: card 3 goes to ACME)
2.5  2.5+1  2.5-2          open the casino of street 2, avenue 5 (easy opening: number +1 / -2)
x2.6l  x2.6r               expansion: open 2.6 copying its left / right neighbour
op | con 3.6 | up grand | show1 | limo n   the effect (limo n/s/e/w), or: skip; an upgrade column may
                           also be written by its printed name in any language (up grand hotel,
                           up duży hotel, up Grand-Hotel, up большой_отель)
shuffle / keep             first project completer: reshuffle all cards or not
a, 2.5, con 3.6            several steps at once, separated by commas (all or nothing)
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources
from typing import Any

from ...core.errors import MalformedAction
from .actions import (  # the tables steps.py imports too, on purpose (each its own use)
    EFFECT_CON,
    EFFECT_LIMO,
    EFFECT_OP,
    EFFECT_SHOW,
    EFFECT_UP,
    EXPAND,
    LOAN_NO,
    LOAN_YES,
    OPENS,
    PICK_ROW,
    REFUSE,
    SHUFFLE_NO,
    SHUFFLE_YES,
    SKIP,
    Effect,  # the classes test_contract2.py imports too, on purpose
    Expand,
    Loan,
    Open,
    Pick,
    Plan,
    Refuse,
    Shuffle,
    Skip,
)
from .data import SLOT_BY_NAME, SLOT_NAME, UPGRADE_IDS, UPGRADE_INDEX

_BONUS = {"": 0, "e": 1, "f": 2, "x": 3}


def format_action(action: Any, solo: bool) -> str:
    """The notation of a typed action (``Pick(0, 0, "e")`` -> ``a+e``; solo ``Pick(0, 1)`` -> ``12``)."""
    cls = type(action)
    if cls is Plan:
        return ", ".join(format_action(step, solo) for step in action.steps)
    if cls is Loan:
        return "loan" if action.take else "noloan"
    if cls is Shuffle:
        return "shuffle" if action.shuffle else "keep"
    if cls is Pick:
        i, bonus = action.number_card, action.bonus
        head = f"{i + 1}{action.effect_card + 1}" if solo else "abc"[i]
        return head + (f"+{bonus}" if bonus else "")
    if cls is Refuse:
        return f"refuse{action.card + 1}" if solo else "refuse"
    if cls is Open:
        d = action.change
        return SLOT_NAME[action.slot] + (f"{d:+d}" if d else "")
    if cls is Expand:
        return f"x{SLOT_NAME[action.slot]}{action.side}"
    if cls is Skip:
        return "skip"
    eff, target = action.effect, action.target
    # A chain of short returns, like render.py's _describe on purpose (each its own words).
    if eff == "op":
        return "op"
    if eff == "con":
        return f"con {SLOT_NAME[target]}"
    if eff == "up":
        return f"up {UPGRADE_IDS[target]}"
    if eff == "show":
        return f"show{target + 1}"
    return f"limo {target}"


def _plain(text: str) -> str:
    """A name for comparison: lower case, no diacritics ("ł" and "ß" too), '-' and '_' as spaces."""
    text = text.lower().replace("ł", "l").replace("ß", "ss").replace("-", " ").replace("_", " ")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(text.split())


@cache
def upgrade_names() -> dict[str, str]:
    """Every printed name of an upgrade column (glossary.json, all four languages) -> its id."""
    raw = resources.files(__package__).joinpath("glossary.json").read_text(encoding="utf-8")
    terms = json.loads(raw)["terms"]
    names = {}
    for column in UPGRADE_IDS:
        for lang in ("en", "pl", "de", "ru"):
            if column in terms and terms[column].get(lang):
                names[_plain(terms[column][lang])] = column
    return names


def _upgrade(text: str) -> int:
    """An upgrade column by its id (``grand``) or printed name (``Grand Hotel``, ``duży hotel``)."""
    if text in UPGRADE_INDEX:
        return UPGRADE_INDEX[text]
    column = upgrade_names().get(_plain(text))
    if column is None:
        raise MalformedAction("nlv.notation", "upgrade columns: {columns}", columns=", ".join(UPGRADE_IDS))
    return UPGRADE_INDEX[column]


def _slot(text: str) -> int:
    s = SLOT_BY_NAME.get(text)
    if s is None:
        raise MalformedAction("nlv.notation", "no casino {text!r} (write street.avenue, e.g. 2.5)", text=text)
    return s


def parse_action(text: str, solo: bool) -> Any:
    """The typed action a notation stands for (legality is checked by ``apply``)."""
    if "," in text or ";" in text:
        parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
        return Plan(tuple(parse_action(p, solo) for p in parts))
    t = " ".join(text.strip().lower().split())
    if t in ("loan", "noloan"):
        return LOAN_YES if t == "loan" else LOAN_NO
    if t in ("shuffle", "keep"):
        return SHUFFLE_YES if t == "shuffle" else SHUFFLE_NO
    if t == "skip":
        return SKIP
    if t == "op":
        return EFFECT_OP
    if t.startswith("refuse"):
        rest = t[6:].strip()
        if not solo and not rest:
            return REFUSE[-1]
        if solo and rest in ("1", "2", "3"):
            return REFUSE[int(rest) - 1]
        raise MalformedAction("nlv.notation", "write 'refuse' (solo: refuse1, refuse2 or refuse3)")
    words = t.split(" ")
    if words[0] == "up" and len(words) > 2:  # a printed name of several words: "up grand hotel"
        return EFFECT_UP[_upgrade(" ".join(words[1:]))]
    if words[0] in ("con", "up", "limo") and len(words) == 2:
        arg = words[1]
        if words[0] == "con":
            s = _slot(arg)
            # A slot without a crane is no construction target, but it is still a well-formed move.
            return EFFECT_CON[s] or Effect("con", s)
        if words[0] == "up":
            return EFFECT_UP[_upgrade(arg)]
        if arg not in ("n", "s", "e", "w"):
            raise MalformedAction("nlv.notation", "limousine directions: n, s, e, w")
        return EFFECT_LIMO[arg]
    if t in ("show1", "show2", "show 1", "show 2"):
        return EFFECT_SHOW[int(t[-1]) - 1]
    if t.startswith("x") and len(t) > 2 and t[-1] in "lr":
        return EXPAND[_slot(t[1:-1]), t[-1]]
    if "." in t:
        for sign in ("+", "-"):
            head, sep, tail = t.partition(sign)
            if sep:
                if tail not in ("1", "2"):
                    raise MalformedAction("nlv.notation", "easy opening changes the number by 1 or 2")
                return OPENS[_slot(head)][int(sign + tail) + 2]
        return OPENS[_slot(t)][2]
    head, _, bonus = t.partition("+")
    if bonus not in _BONUS:
        raise MalformedAction("nlv.notation", "bonuses: +e easy opening, +f free action, +x expansion")
    if solo and len(head) == 2 and head[0] in "123" and head[1] in "123" and head[0] != head[1]:
        return PICK_ROW[int(head[0]) - 1][int(head[1]) - 1][_BONUS[bonus]]
    if not solo and head in ("a", "b", "c"):
        k = "abc".index(head)
        return PICK_ROW[k][k][_BONUS[bonus]]
    raise MalformedAction("nlv.notation", "not a New Las Vegas move: {text!r} (type 'help')", text=text)
