"""Welcome To New Las Vegas as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Holds what the seat's own view (``view(seat)["state"]``) holds, and no more: its own sheet and its own
steps of the round, the others' sheets as they stood at the start of the round (``public``), never
the others' loan choices or steps, never the piles' order. It reads the state directly rather than
building that JSON view (five times the engine's move): ``tests/rl`` checks it against an encoding of
the view itself and for blindness to what the seat may not know.

Layout (fixed per set-up, ``game.observation_size``): phase one-hot and round; the three projects
(points first / later, approved); grand hotels taken per avenue; then per seat (own first, then the
others in seat order after it) its sheet (each casino slot: filled, number; cranes built, stars
circled / crossed, red carpets passed; shows, upgrades, opening boxes, bonus groups, golf holes,
limousine lamp and segments, hotels, project points, vault, open loans), whether it still chooses
and its bank choice if the seat may know it; the seat's own step of the round (step, combination,
number, effect, bonus); the round's combinations and pile sizes (multiplayer) or hand and ACME
(solo).

Speed: every number is a function of one small whole number of the state (a casino's number, a byte
of a slot bitmask, a count, a code for a phase or an effect), so the state's numbers are gathered
into bytes and one table look-up in NumPy turns them into floats. The engine contract finds ``observation`` here on the first ``state.observation()`` call (core.game);
``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from collections.abc import Callable
from struct import Struct

import numpy as np

from ...core.observation import byte_tables
from .data import (
    APPROVAL_BASE,
    APPROVAL_COLOURS,
    CARD_EFFECT,
    CARD_NUMBER,
    CRANE_SLOTS,
    EFFECTS,
    NUM_LAMPS,
    NUM_SLOTS,
    PROJECT_BY_ID,
    UPGRADE_IDS,
)
from .phases import OVER, ROUND
from .sheet import GRAND, SMALL, Sheet
from .state import NewLasVegasState

PHASES = ("loan", "round", "reshuffle", "over")
STEPS = ("pick", "open", "copy", "effect", "done")
BONUSES = ("", "e", "f", "x")
DECKS = ("pink", "purple", "yellow")
AVENUES = 11
PARS = (3, 4, 5)

NONE = 255  # the byte of "nothing" (no number, no effect, no turn)
_SLOT_BYTES = (NUM_SLOTS + 7) // 8
_ALL_SLOTS = (1 << NUM_SLOTS) - 1
_CRANES = sum(1 << s for s in CRANE_SLOTS)
_NUMS = Struct(f"{NUM_SLOTS}b").pack  # -1 (empty) packs as 255
_PHASE_CODE = {phase: k for k, phase in enumerate(PHASES)}
_EFFECT_CODE = {effect: k for k, effect in enumerate(EFFECTS)}
_BONUS_CODE = {bonus: k for k, bonus in enumerate(BONUSES)}
_PROJECT = {
    pid: (project["points_first"], project["points_later"], DECKS.index(project["deck"]))
    for pid, project in PROJECT_BY_ID.items()
}
_CARD = tuple((CARD_NUMBER[c], _EFFECT_CODE[CARD_EFFECT[c]]) for c in range(len(CARD_NUMBER)))


def _top_code(card: int) -> int:
    """The solo deck's face-up side: an effect (0-4) or an approval colour (5-7)."""
    if card >= APPROVAL_BASE:
        return len(EFFECTS) + card - APPROVAL_BASE
    return _EFFECT_CODE[CARD_EFFECT[card]]


class _Layout:
    """Output by output: which byte of the gathered state it reads and what it makes of it."""

    def __init__(self) -> None:
        self.functions: list[Callable[[int], float]] = []
        self.sources: list[int] = []
        self.bytes = 0

    def _read(self, count: int = 1) -> int:
        at = self.bytes
        self.bytes += count
        return at

    def scaled(self, scale: float, count: int = 1, missing: bool = False) -> None:
        """``count`` bytes, each divided by ``scale`` (with ``missing``: NONE reads as 0)."""
        at = self._read(count)
        for i in range(count):
            self.functions.append(lambda v: 0.0 if missing and v == NONE else v / scale)
            self.sources.append(at + i)

    def shifted(self, scale: float, shift: int) -> None:
        """A byte holding ``value + shift``, read as ``value / scale``."""
        at = self._read()
        self.functions.append(lambda v: (v - shift) / scale)
        self.sources.append(at)

    def one_hot(self, size: int, count: int = 1) -> None:
        for _ in range(count):
            at = self._read()
            for k in range(size):
                self.functions.append(lambda v, k=k: 1.0 if v == k else 0.0)  # type: ignore[misc]  # mypy cannot type a lambda's bound default
                self.sources.append(at)

    def flags(self, *tests: Callable[[int], bool], count: int = 1) -> None:
        """Per byte, one number per test (1 or 0)."""
        for _ in range(count):
            at = self._read()
            for test in tests:
                self.functions.append(lambda v, test=test: 1.0 if test(v) else 0.0)  # type: ignore[misc]  # mypy cannot type a lambda's bound default
                self.sources.append(at)

    def bits(self, count: int) -> None:
        """A little-endian bitmask of ``count`` bits."""
        at = self._read((count + 7) // 8)
        for bit in range(count):
            self.functions.append(lambda v, b=bit % 8: float(v >> b & 1))  # type: ignore[misc]  # mypy cannot type a lambda's bound default
            self.sources.append(at + bit // 8)

    def card(self, count: int) -> None:
        """Cards: number / 17 and the effect's one-hot (all 0 for no card)."""
        for _ in range(count):
            self.scaled(17.0, missing=True)
            self.one_hot(len(EFFECTS))


class _Plan:
    """One player count's layout as NumPy tables: ``table[256 * j + v]`` is output ``j``'s number for
    byte ``v``, read from byte ``sources[j]`` of the gathered state."""

    __slots__ = ("bytes", "table", "base", "sources")

    def __init__(self, n: int) -> None:
        out = _Layout()
        out.one_hot(len(PHASES))
        out.scaled(50.0)  # round
        for _ in range(3):  # projects
            out.scaled(20.0, count=2)
            out.flags(bool)
            out.one_hot(len(DECKS))
        out.bits(AVENUES)  # grand hotels taken
        out.flags(bool)  # first game
        for _ in range(n):
            for _ in range(NUM_SLOTS):  # casinos: opened, number / 17
                at = out._read()
                out.functions += [
                    lambda v: 0.0 if v == NONE else 1.0,
                    lambda v: 0.0 if v == NONE else v / 17.0,
                ]
                out.sources += [at, at]
            for _ in range(4):  # cranes built, stars circled, stars crossed, red carpets passed
                out.bits(NUM_SLOTS)
            out.scaled(5.0, count=2 + len(UPGRADE_IDS))  # shows, upgrades
            out.scaled(20.0, count=2)  # opening boxes marked, unused
            out.scaled(8.0, count=2)  # bonus groups spent, of them on the expansion
            out.scaled(5.0, count=2 * len(PARS))  # golf holes built / crossed per par
            out.one_hot(NUM_LAMPS)
            out.scaled(20.0)  # limousine segments
            out.flags(bool)  # route complete
            out.flags(lambda v: v == GRAND, lambda v: v == SMALL, count=AVENUES)
            out.scaled(20.0, count=3)  # project points
            out.scaled(10.0)  # vault
            out.scaled(5.0)  # open loans
            out.flags(bool)  # still chooses
            out.flags(lambda v: v != 0, lambda v: v == 2)  # loan known (0: no, 1: refused, 2: taken)
        out.flags(bool)  # the seat's own step of the round is known
        out.one_hot(len(STEPS))
        out.one_hot(3, count=2)  # combination
        out.scaled(17.0, missing=True)
        out.one_hot(len(EFFECTS))
        out.one_hot(len(BONUSES))
        if n > 1:
            out.card(3)  # the round's combinations
            out.shifted(27.0, 1)
            out.shifted(27.0, 1)
            out.shifted(27.0, 1)  # pile sizes (+1: an empty pile reads -1 / 27)
        else:
            out.card(3)  # hand
            out.scaled(20.0, count=3)  # ACME's project points
            out.bits(AVENUES)  # ACME's hotels
            out.scaled(3.0)
            out.scaled(81.0, count=2)  # approvals seen, deck size, discard size
            out.scaled(5.0, count=len(EFFECTS))  # ACME's pile per effect
            out.one_hot(len(EFFECTS) + len(APPROVAL_COLOURS))  # the deck's face-up top
            out.one_hot(len(EFFECTS))  # the loan card's effect
        self.bytes = out.bytes
        self.table, self.base = byte_tables(out.functions)
        self.sources = np.array(out.sources, dtype=np.intp)


_PLANS: dict[int, _Plan] = {}
_GOLF: dict[tuple[int, int, bool, bool], tuple[int, ...]] = {}


def _golf(sheet: Sheet) -> tuple[int, ...]:
    """Holes built and crossed per par (a function of the course's ends and whether they are shut)."""
    key = (sheet.golf_l, sheet.golf_r, sheet.golf_lb, sheet.golf_rb)
    counts = _GOLF.get(key)
    if counts is None:
        holes, crossed = sheet.holes(), sheet.holes_crossed()
        counts = _GOLF[key] = tuple(holes.count(par) for par in PARS) + tuple(
            crossed.count(par) for par in PARS
        )
    return counts


def _sheet_bytes(sheet: Sheet, acting: int, loan: int) -> bytes:
    """One seat's bytes, in the layout's order."""
    size = _SLOT_BYTES
    return b"".join(
        (
            _NUMS(*sheet.nums),
            (sheet.built & _CRANES).to_bytes(size, "little"),
            (sheet.star_ok & _ALL_SLOTS).to_bytes(size, "little"),
            (sheet.star_x & _ALL_SLOTS).to_bytes(size, "little"),
            (sheet.carpets & _ALL_SLOTS).to_bytes(size, "little"),
            bytes(sheet.shows),
            bytes(sheet.ups),
            bytes(
                (
                    sheet.marks,
                    sheet.unused_marks(),
                    (sheet.spent & 255).bit_count(),
                    (sheet.exp & 255).bit_count(),
                    *_golf(sheet),
                    sheet.lamp,
                    (sheet.edges & 0xFFFF_FFFF_FFFF_FFFF).bit_count(),
                    sheet.route_done,
                    *sheet.hotels,
                    *sheet.proj,
                    sheet.vault,
                    sheet.open_loans(),
                    acting,
                    loan,
                )
            ),
        )
    )


def observation(self: NewLasVegasState, player: int) -> np.ndarray:
    """A float32 array (see the module for the layout)."""
    n = self.num_players
    plan = _PLANS.get(n)
    if plan is None:
        plan = _PLANS[n] = _Plan(n)
    phase = self.phase
    over = phase == OVER
    head = [_PHASE_CODE[phase], self.round_no]
    approved = self.approved
    for k, pid in enumerate(self.projects):
        first, later, project_deck = _PROJECT[pid]
        head += (first, later, approved[k], project_deck)
    parts = [bytes(head), (self.grand_taken & 0x7FF).to_bytes(2, "little"), bytes((not self.golf,))]
    waiting, loans = self.waiting, self.loans
    for k in range(n):
        q = (player + k) % n
        mine = q == player or over
        sheet = self.sheets[q] if mine else self.public[q]
        loan = loans[q] if mine else None
        parts.append(_sheet_bytes(sheet, waiting >> q & 1, 0 if loan is None else 1 + bool(loan)))
    if phase == ROUND:
        turn = self.turns[player]
        step = (
            1,
            turn.stage,
            turn.i & 255,
            turn.j & 255,
            turn.num if turn.num >= 0 else NONE,
            _EFFECT_CODE.get(turn.eff, NONE),
            _BONUS_CODE.get(turn.bonus, NONE),
        )
    else:
        step = (0, NONE, NONE, NONE, NONE, NONE, NONE)
    tail: list[int] = list(step)
    if n > 1:
        offers = self.offers or ((NONE, ""),) * 3
        for number, effect in offers:
            tail += (number, _EFFECT_CODE.get(effect, NONE))
        tail += [len(pile) - self.top for pile in self.piles] if self.piles else (1, 1, 1)
    else:
        hand = [_CARD[c] for c in self.hand] if self.hand else [(NONE, NONE)] * 3
        for number, code in hand:
            tail += (number, code)
        tail += self.acme_proj
        tail += (self.acme_hotels & 0x7FF).to_bytes(2, "little")
        pile = [CARD_EFFECT[c] for c in self.acme_pile]
        deck = self.deck
        tail += (self.acme_seen, len(deck), len(self.discard))
        tail += [pile.count(effect) for effect in EFFECTS]
        tail.append(_top_code(deck[-1]) if deck else NONE)
        loan_card = self.acme_loan_card
        tail.append(_EFFECT_CODE[CARD_EFFECT[loan_card]] if loan_card >= 0 else NONE)
    parts.append(bytes(tail))
    raw = b"".join(parts)
    if len(raw) != plan.bytes:
        raise ValueError(f"newlasvegas observation: {len(raw)} bytes gathered, the layout reads {plan.bytes}")
    return plan.table.take(plan.base + np.frombuffer(raw, dtype=np.uint8).take(plan.sources))
