"""Lords of Vegas as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Everything in Lords of Vegas is public except the order of the deck (which cards are still in it,
and how many lie above Game End, are public). A seat sees, with seats written relative to itself
(own first, then the others in turn order):

* per lot: whose marker is on it, the tile's colour, whose die and its value, whether its card is
  still in the deck or discarded;
* per seat: money, score, dice and markers still in hand;
* tiles left per colour, deck size, cards above Game End, the phase, whose turn it is, the turn
  number, the turn's flags (gambled, offers made, promises), and the pending decision (an offer's
  proposer, a layoff's boss, gambler and bet, the seat and lot of a die / free-lot choice, the size
  of a market or placement queue).

The engine contract finds ``observation`` here on the first ``state.observation()`` call (core.game); ``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from struct import Struct

import numpy as np

from . import GAME
from .data import DICE_PER_PLAYER, GAME_END, MARKERS_PER_PLAYER, NUM_COLORS, NUM_LOTS
from .phases import FREE_LOT, LAYOFF, MARKET, OFFER, PHASE_NAMES, PICK_DIE, PLACE
from .state import LordsOfVegasState

LordsOfVegasGame = type(GAME)

# Codes a lot's marker, tile or die owner can hold: -1 (none) .. 5, read as unsigned bytes.
_CODES = 256
_PACK = Struct(f"{4 * NUM_LOTS}b").pack
_SHIFT_DISCARD = bytes(min(v + NUM_LOTS + 1, 255) for v in range(256))  # discard ids after deck ids


class _Plan:
    """Where one set-up's lot flags land for one seat, as look-up tables, so that the 48 lots are
    written by NumPy in a few calls instead of a Python loop over every lot."""

    __slots__ = ("size", "width", "places", "offsets", "die_at", "card_places", "tail_at", "dense_at", "phase_at",
                 "active_at", "pending_at")  # fmt: skip

    def __init__(self, n: int, player: int) -> None:
        width = self.width = 2 * n + NUM_COLORS + 3
        self.tail_at = NUM_LOTS * width
        tail = 4 * n + NUM_COLORS + 3 + len(PHASE_NAMES) + n + 4 + 4 * n + 1 + NUM_LOTS + 1
        self.size = self.tail_at + tail
        trash = self.size  # one spare number past the end takes the flags that mark nothing
        # places[(field * NUM_LOTS + lot) * 256 + code]: the number a marker / tile / die owner
        # with this code on this lot sets to 1 (trash for -1).
        places = np.full(3 * NUM_LOTS * _CODES, trash, dtype=np.intp)
        for lot in range(NUM_LOTS):
            at = lot * width
            for seat in range(n):
                rel = (seat - player) % n
                places[(0 * NUM_LOTS + lot) * _CODES + seat] = at + rel
                places[(2 * NUM_LOTS + lot) * _CODES + seat] = at + n + NUM_COLORS + rel
            for colour in range(NUM_COLORS):
                places[(1 * NUM_LOTS + lot) * _CODES + colour] = at + n + colour
        self.places = places
        self.offsets = np.arange(0, 3 * NUM_LOTS * _CODES, _CODES, dtype=np.intp)
        self.die_at = np.arange(NUM_LOTS) * width + 2 * n + NUM_COLORS
        # card_places[card] (deck) and card_places[NUM_LOTS + 1 + card] (discard); Game End: trash.
        cards = np.full(256, trash, dtype=np.intp)
        cards[:NUM_LOTS] = self.die_at + 1
        cards[NUM_LOTS + 1 : 2 * NUM_LOTS + 1] = self.die_at + 2
        self.card_places = cards
        # After the lots: where the plain numbers go (the rest are one-hot flags).
        seats_at = self.tail_at
        self.phase_at = seats_at + 4 * n + NUM_COLORS + 3
        self.active_at = self.phase_at + len(PHASE_NAMES)
        turn_at = self.active_at + n
        self.pending_at = turn_at + 4  # proposer, boss, gambler (n each), bet, chooser (n), lot, queue
        bet_at = self.pending_at + 3 * n
        queue_at = bet_at + 1 + n + NUM_LOTS
        dense = [*range(seats_at, self.phase_at), *range(turn_at, turn_at + 4), bet_at, queue_at]
        self.dense_at = np.array(dense, dtype=np.intp)


_PLANS: dict[tuple[int, int], _Plan] = {}


def observation(self: LordsOfVegasState, player: int) -> np.ndarray:
    """A float32 array (see the module for the layout)."""
    n = self.num_players
    plan = _PLANS.get((n, player))
    if plan is None:
        plan = _PLANS[(n, player)] = _Plan(n, player)
    out = np.zeros(plan.size + 1, dtype=np.float32)
    # The four per-lot lists as bytes in one C call (-1, "none", reads as 255).
    codes = np.frombuffer(_PACK(*self.marker, *self.tile, *self.dieo, *self.diev), dtype=np.uint8)
    out[plan.places.take(plan.offsets + codes[: 3 * NUM_LOTS])] = 1.0
    out[plan.die_at] = np.divide(codes[3 * NUM_LOTS :], 6.0)
    cards = bytes(self.deck) + bytes(self.discard).translate(_SHIFT_DISCARD)
    out[plan.card_places.take(np.frombuffer(cards, dtype=np.uint8))] = 1.0
    _tail(self, player, n, plan, out)
    return out[: plan.size]


def _tail(self: LordsOfVegasState, player: int, n: int, plan: _Plan, out: np.ndarray) -> None:
    """Everything after the lots: the seats, the supply and deck, the turn, the pending decision."""
    dense: list[float] = []
    money, score, dice_out, markers_out = self.money, self.score, self.dice_out, self.markers_out
    for k in range(n):
        p = (player + k) % n
        dense += (
            money[p] / 50.0,
            score[p] / 60.0,
            (DICE_PER_PLAYER - dice_out[p]) / DICE_PER_PLAYER,
            (MARKERS_PER_PLAYER - markers_out[p]) / MARKERS_PER_PLAYER,
        )
    dense += [left / 9.0 for left in self.tiles_left]
    ended = GAME_END in self.discard
    dense += (len(self.deck) / 50.0, 0.0 if ended else self.cards_before_game_end() / 50.0, float(ended))
    dense += (min(self.turn, 200) / 100.0, float(self.gambled), self.offers_made / 3.0, len(self.bans) / 5.0)
    phase = self.phase
    out[plan.phase_at + phase] = 1.0
    out[plan.active_at + (self.active - player) % n] = 1.0
    at = plan.pending_at  # proposer, boss, gambler, bet, chooser, chosen lot, queue
    bet = queue = 0.0
    if phase == OFFER and self.offer is not None:
        out[at + (self.offer[0] - player) % n] = 1.0
    elif phase == LAYOFF and self.pending is not None:
        boss, gambler, wager = self.pending
        out[at + n + (boss - player) % n] = 1.0
        out[at + 2 * n + (gambler - player) % n] = 1.0
        bet = wager / 10.0
    elif phase in (PICK_DIE, FREE_LOT) and self.pending is not None:
        out[at + 3 * n + 1 + (self.pending[0] - player) % n] = 1.0
        out[at + 4 * n + 1 + self.pending[1]] = 1.0
    elif phase == MARKET:
        queue = len(self.market) / 10.0
    elif phase == PLACE:
        queue = len(self.place_queue) / 10.0
    dense += (bet, queue)
    out[plan.dense_at] = dense
