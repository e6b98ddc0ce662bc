"""The ``expert`` Multicity bot: a tuned evaluation of the position after each of its moves.

Multicity is a tempo race: every turn either places an object (progress) or expands the city (none),
so what counts is how often each player is stuck and must draw. The expert scores the position
after each candidate move from its own seat's point of view (public board only, nothing hidden):

* **stock**: the lengths each player could place right now (one future turn of progress each), worth
  more for long objects, which are harder to find again, and a little more when several spans exist;
* **potential**: own-colour symbols on the edge of the city whose row or column runs into a free
  tile slot with nothing in the way — the ends a future tile can complete;
* the opponents' stock and potential count against it.

Placing always beats drawing (progress now); among placements it keeps its own stock and takes the
opponents'. Laying a drawn tile is where most of the game is decided: the expert compares every
slot and turn by the whole evaluation, not just by what opens for itself. Weights were tuned by
self-play against ``greedy`` (see docs/games/multicity.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...core.game import Action, Bot, State
from .bots import _lengths_open, placement_score
from .state import DRAW, FINAL, HOLE, PASS, STRIDE, MulticityState, Place, key

WIN = 1000.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (tuned by simulation against greedy)."""

    open_base: float = 3.0  # per length a player can place now
    open_per_square: float = 0.3  # ... plus this per square of that length
    spare: float = 0.5  # per extra span for an open length (up to two): harder to block
    pot_base: float = 1.0  # per length a pending end may complete
    pot_per_square: float = 0.1
    pot_hit: float = 0.25  # chance that one pending end gets completed
    opponent: float = 1.0  # the opponents' stock and potential count this much against ours
    opp_pot: float = 1.0  # extra factor on the opponents' potential
    last_open: float = 60.0  # my last object has a place (unless blocked first)
    placed_per_square: float = 0.2  # placing a longer object (final ranking, harder lengths)


_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class ExpertBot(Bot):
    name = "expert"

    def __init__(self, seed: int, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.w = weights or Weights()

    def choose(self, state: State, player: int) -> Action:
        assert isinstance(state, MulticityState)
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        if state.drawn is not None:
            return self._best(legal, lambda lay: self._after(state, player, lay))
        places = [a for a in legal if type(a) is Place]
        if not places:
            return DRAW if DRAW in legal else PASS
        if state.phase == FINAL:
            # One placement each and then the ranking by squares left: greedy's rule is right here.
            open_now = [_lengths_open(state, seat) for seat in range(state.num_players)]
            return self._best(places, lambda a: placement_score(state, player, a, open_now))
        for action in places:
            if len(state.unplaced[player]) == 1:
                return action  # the sixth object wins at once
        return self._best(
            places, lambda a: self._after(state, player, a) + self.w.placed_per_square * a.length
        )

    def _after(self, state: MulticityState, player: int, action: Action) -> float:
        probe = state.clone()
        probe.apply(player, action)
        return self.evaluate(probe, player)

    def evaluate(self, state: MulticityState, me: int) -> float:
        """The position's worth to ``me``: our stock and potential minus the opponents'."""
        w = self.w
        pending = _pending(state)
        others = 0.0
        value = 0.0
        n = state.num_players
        for seat in range(n):
            unplaced = state.unplaced[seat]
            if not unplaced:
                return WIN if seat == me else -WIN
            counts = Counter(a.length for a in state.cands[seat])
            stock = 0.0
            for length, count in counts.items():
                stock += w.open_base + w.open_per_square * length + w.spare * min(count - 1, 2)
            pot = 0.0
            miss = 1.0 - w.pot_hit
            for length in unplaced:
                ends = pending[seat][length]
                if ends:
                    pot += (w.pot_base + w.pot_per_square * length) * (1.0 - miss**ends)
            if seat == me:
                value += stock + pot
                if len(unplaced) == 1 and counts:
                    value += w.last_open
            else:
                if len(unplaced) == 1 and counts and state.phase != FINAL:
                    value -= WIN  # they place their last object before we move again
                others += stock + w.opp_pot * pot
        return value - w.opponent * others / max(1, n - 1)

    def _best(self, actions: list, score) -> Action:
        best: list[Action] = []
        top = float("-inf")
        for action in actions:
            value = score(action)
            if value > top + 1e-9:
                top, best = value, [action]
            elif value > top - 1e-9:
                best.append(action)
        return self.rng.choice(best)


def _pending(state: MulticityState) -> list[Counter[int]]:
    """Per seat, per length: how many own-colour ends a tile in a free slot could complete.

    An end counts when its row or column runs from the city's edge into a free slot with no hole or
    object in between; the other end would then be one of the new tile's three squares."""
    n = state.num_players
    pending: list[Counter[int]] = [Counter() for _ in range(n)]
    cells, occ, tiles = state.cells, state.occ, state.tiles
    stop_at_hole = not state.kids
    for sx, sy in state.frontier:
        for dx, dy in _STEPS:
            if (sx + dx, sy + dy) not in tiles:
                continue
            # Squares of the neighbour tile's edge next to the slot, then step away from the slot.
            step = dx + dy * STRIDE
            for i in range(3):
                if dx:
                    x = sx * 3 - 1 if dx < 0 else sx * 3 + 3
                    start = key(x, sy * 3 + i)
                else:
                    y = sy * 3 - 1 if dy < 0 else sy * 3 + 3
                    start = key(sx * 3 + i, y)
                square = start
                for d in range(6):
                    code = cells.get(square, -1)
                    if code < 0 or (code == HOLE and stop_at_hole) or square in occ:
                        break
                    if code < n:
                        counter = pending[code]
                        for length in (d + 2, d + 3, d + 4):
                            counter[length] += 1
                    square += step
    return pending
