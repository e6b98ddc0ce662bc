"""Text notation for Machi Koro actions (round-trips through the ints the rules use).

roll | roll2            roll one die / two dice (two needs the Train Station)
keep | reroll | reroll2 Radio Tower: keep the roll, or re-roll with one / two dice
add2 | noadd            Harbor: add 2 to a roll of 10+ or not
tv SEAT                 TV Station: take 5 coins from that seat
swap MINE SEAT THEIRS   Business Center: give your MINE card for SEAT's THEIRS card
noswap                  Business Center: no swap
build CARD | pass       build an establishment or landmark by its short name, or build nothing
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ...core.errors import MalformedAction
from .data import LANDMARK_CODES, all_cards, establishments
from .rules import (
    A_ADD2,
    A_BUILD,
    A_KEEP,
    A_LANDMARK,
    A_NOADD,
    A_NOSWAP,
    A_PASS,
    A_REROLL1,
    A_REROLL2,
    A_ROLL1,
    A_ROLL2,
    A_SWAP,
    A_TV,
    BUILD,
    BUSINESS,
    HARBOR,
    REROLL,
    TV,
    decode_swap,
    swap_action,
)

if TYPE_CHECKING:
    from .rules import MachiKoroState
    from .tables import Tables

SIMPLE = {
    A_ROLL1: "roll",
    A_ROLL2: "roll2",
    A_KEEP: "keep",
    A_REROLL1: "reroll",
    A_REROLL2: "reroll2",
    A_ADD2: "add2",
    A_NOADD: "noadd",
    A_PASS: "pass",
    A_NOSWAP: "noswap",
}
_SIMPLE_BY_TEXT = {text: action for action, text in SIMPLE.items()}
MAX_SEATS = 8


@cache
def _card_lookup() -> dict[str, int]:
    """Both short codes and full ids name a card; landmarks map to their build action."""
    table: dict[str, int] = {}
    for i, card in enumerate(establishments()):
        table[card.code] = A_BUILD + i
        table[card.id] = A_BUILD + i
    by_code = {c.code: c for c in all_cards()}
    for j, code in enumerate(LANDMARK_CODES):
        table[code] = A_LANDMARK + j
        table[by_code[code].id] = A_LANDMARK + j
    return table


def format_action(tables: Tables, action: Any) -> str:
    if type(action) is not int:
        return repr(action)
    if action in SIMPLE:
        return SIMPLE[action]
    if A_TV <= action < A_TV + MAX_SEATS:
        return f"tv {action - A_TV}"
    if A_BUILD <= action < A_BUILD + len(tables.codes):
        return f"build {tables.codes[action - A_BUILD]}"
    if A_LANDMARK <= action < A_LANDMARK + len(LANDMARK_CODES):
        return f"build {LANDMARK_CODES[action - A_LANDMARK]}"
    if action >= A_SWAP:
        mine, target, theirs = decode_swap(action)
        if mine < len(tables.codes) and theirs < len(tables.codes):
            return f"swap {tables.codes[mine]} {target} {tables.codes[theirs]}"
    return f"<unknown action {action}>"


def parse_action(tables: Tables, text: str) -> int:
    words = text.strip().lower().split()
    if not words:
        raise MalformedAction("notation.empty", "no move given")
    head = words[0]
    if len(words) == 1 and head in _SIMPLE_BY_TEXT:
        return _SIMPLE_BY_TEXT[head]
    if head == "build" and len(words) == 2:
        return _card(words[1])
    if head == "tv" and len(words) == 2:
        return A_TV + _seat(words[1])
    if head == "swap" and len(words) == 4:
        mine, theirs = _card(words[1]), _card(words[3])
        if mine >= A_LANDMARK or theirs >= A_LANDMARK:
            raise MalformedAction("notation.swap_landmark", "landmarks cannot be swapped")
        return swap_action(mine - A_BUILD, _seat(words[2]), theirs - A_BUILD)
    raise MalformedAction(
        "notation.unknown",
        f"not a Machi Koro move: {text!r} (moves look like 'roll', 'build cafe', 'tv 2', 'pass')",
    )


def _card(word: str) -> int:
    action = _card_lookup().get(word)
    if action is None:
        raise MalformedAction("notation.unknown_card", f"no card is called {word!r}")
    return action


def _seat(word: str) -> int:
    word = word.removeprefix("p")
    if not word.isdigit() or int(word) >= MAX_SEATS:
        raise MalformedAction("notation.seat", f"{word!r} is not a seat number")
    return int(word)


def describe_pending(state: MachiKoroState) -> str:
    """What the player to act is being asked, in words (for views and the terminal)."""
    phase = state.phase
    if state.is_over:
        return f"P{state.winner} has won."
    p = state.current
    if phase == REROLL:
        return f"P{p} may re-roll with the Radio Tower (keep / reroll)."
    if phase == HARBOR:
        return f"P{p} may add 2 to the roll of {state.total} with the Harbor (add2 / noadd)."
    if phase == TV:
        return f"P{p} chooses whom the TV Station takes 5 coins from (tv SEAT)."
    if phase == BUSINESS:
        return f"P{p} may swap an establishment with the Business Center (swap MINE SEAT THEIRS / noswap)."
    if phase == BUILD:
        return f"P{p} may build one establishment or landmark (build CARD / pass)."
    return f"P{p} rolls (roll{' / roll2' if state.legal_actions(p) != [A_ROLL1] else ''})."
