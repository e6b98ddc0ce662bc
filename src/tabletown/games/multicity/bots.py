"""The ``greedy`` Multicity bot: place the longest object that fits, block opponents when it pays.

It looks one move ahead only and uses nothing hidden (the drawn tile is public once drawn):
* with any placement open it places, preferring the longest object, then the placement that
  takes away opponents' last options for a length (most of all from a player one object short of
  winning) and keeps its own;
* otherwise it draws, and lays the tile where it opens new lengths for itself and the fewest for
  the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

from ...core.game import Action, Bot, State
from .actions import DRAW, PASS, Lay, Place
from .grid import occupy, span_free
from .state import MulticityState

A = TypeVar("A")  # the actions best_of chooses among

LONGEST = 10.0  # per square of the object placed: length dominates the choice
LOST_OPTION = 3.0  # per square of a length whose last placement disappears
STOP_WIN = 200.0  # the opponent's last object has no place left: worth more than any length
NEW_LENGTH = 2.0  # per square of a length the tile opens up when none was open
MORE_ROOM = 0.3  # per extra placement for a length already open


def _lengths_open(state: MulticityState, seat: int) -> Counter[int]:
    return Counter(action.length for action in state.cands[seat])


def _option_value(state: MulticityState, seat: int, length: int) -> float:
    return STOP_WIN if len(state.unplaced[seat]) == 1 else LOST_OPTION * length


def placement_score(state: MulticityState, player: int, action: Place, open_now: list[Counter[int]]) -> float:
    """How good placing ``action`` is: its length, plus last options taken from others, minus ours lost."""
    squares = state.cands[player][action]
    taken = set(squares)
    occ_after = dict(state.occ)
    occupy(occ_after, squares, action.vertical)
    score = LONGEST * action.length
    for seat in range(state.num_players):
        lost: Counter[int] = Counter()
        for other, span in state.cands[seat].items():
            if seat == player and other.length == action.length:
                continue
            if taken.isdisjoint(span):
                continue
            if not span_free(occ_after, state.loose, span, other.vertical):  # the rule itself decides
                lost[other.length] += 1
        for length, count in lost.items():
            if count >= open_now[seat][length]:
                value = _option_value(state, seat, length)
                score += -value if seat == player else value
    return score


def lay_score(state: MulticityState, player: int, lay: Lay, open_now: list[Counter[int]]) -> float:
    """What the tile laid as ``lay`` opens for us, minus what it opens for the others."""
    new: list[Counter[int]] = [Counter() for _ in range(state.num_players)]
    for seat, action, _ in state.preview_lay(lay):
        new[seat][action.length] += 1
    score = 0.0
    for seat in range(state.num_players):
        gain = 0.0
        for length, count in new[seat].items():
            gain += MORE_ROOM * count
            if not open_now[seat][length]:
                gain += STOP_WIN if len(state.unplaced[seat]) == 1 else NEW_LENGTH * length
        score += gain if seat == player else -gain / max(1, state.num_players - 1)
    return score


# Alike by shape to newlasvegas/bots.py's GreedyBot on purpose: each game's greedy baseline stands alone.
class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> Action:
        assert isinstance(state, MulticityState)
        legal = state.legal_actions(player)
        open_now = [_lengths_open(state, seat) for seat in range(state.num_players)]
        if state.drawn is not None:
            probe = state.clone()  # preview_lay writes into the city for a moment: never the real one
            # with a tile drawn, every legal action is a Lay
            return best_of(legal, lambda lay: lay_score(probe, player, lay, open_now), self.rng)  # type: ignore[arg-type]
        places = [a for a in legal if type(a) is Place]
        if places:
            return best_of(places, lambda a: placement_score(state, player, a, open_now), self.rng)
        return DRAW if DRAW in legal else PASS


def best_of(actions: Sequence[A], score: Callable[[A], float], rng: Random) -> A:
    """The best-scoring action; ties broken with ``rng`` (the bot's seeded source) so play is not
    lopsided."""
    best: list[A] = []
    top = float("-inf")
    for action in actions:
        value = score(action)
        if value > top + 1e-9:
            top, best = value, [action]
        elif value > top - 1e-9:
            best.append(action)
    return rng.choice(best)
