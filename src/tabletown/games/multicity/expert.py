"""The ``expert`` Multicity bot: a tuned evaluation of the position after each of its moves.

Multicity is a tempo race: every turn either places an object (progress) or expands the city (none),
so what counts is how often each player is stuck and must draw. The expert scores the position
after each candidate move from its own seat's point of view (public board only, nothing hidden):

* **stock**: the lengths each player could place right now (one future turn of progress each), worth
  more for long objects, which are harder to find again, and a little more when several spans exist.
  Our own open length counts nothing when every span of it is crossed by an opponent's open span:
  the opponent moves first and can take it away;
* **potential**: own-colour symbols on the edge of the city whose row or column runs into a free
  tile slot with nothing in the way — the ends a future tile can complete — and pairs of such ends
  on both sides of a slot, which one tile could join;
* the opponents' stock and potential count against it (their potential double).

Placing always beats drawing (progress now); among placements it keeps its own stock and takes the
opponents'. Laying a drawn tile is where most of the game is decided: the expert compares every
slot and turn by the whole evaluation, not just by what opens for itself. Weights were tuned by
self-play against ``greedy`` (see docs/games/multicity.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...core.game import Action, Bot, State
from .actions import DRAW, MAX_LENGTH, PASS, Lay, Place
from .bots import _lengths_open, best_of, placement_score
from .grid import OFFSET, STRIDE, key, opened_slots
from .phases import FINAL
from .state import MulticityState
from .tiles import HOLE

WIN = 1000.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (tuned by simulation against greedy)."""

    open_base: float = 3.0  # per length a player can place now
    open_per_square: float = 0.6  # ... plus this per square of that length
    spare: float = 0.5  # per extra span for an open length (up to two): harder to block
    pot_base: float = 1.0  # per length a pending end may complete
    pot_per_square: float = 0.1
    pot_hit: float = 0.25  # chance that one pending end gets completed
    opponent: float = 1.0  # the opponents' stock and potential count this much against ours
    opp_pot: float = 2.0  # extra factor on the opponents' potential
    last_open: float = 60.0  # my last object has a place (unless blocked first)
    placed_per_square: float = 0.2  # placing a longer object (final ranking, harder lengths)
    unsafe: float = 0.0  # factor on our open lengths whose every span an opponent's span crosses
    bridge: float = 4.0  # a pair of ends a tile could join counts as this many single ends


_AXES = (((-1, 0), (1, 0)), ((0, -1), (0, 1)))
BRIDGE = 10  # ends[seat][BRIDGE + length]: two ends a tile could join into an object of that length
Slot = tuple[int, int]
Span = tuple[int, ...]
Found = tuple[int, Place, Span]  # (seat, placement, its squares) as State._discover lists them


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
        scored = self.scored(state, player, legal)
        if scored is None:
            places = [a for a in legal if type(a) is Place]
            if places:
                return places[0]  # the sixth object wins at once
            return DRAW if DRAW in legal else PASS
        moves, score = scored
        return best_of(moves, score, self.rng)

    def scored(
        self, state: MulticityState, player: int, legal: list[Action]
    ) -> tuple[list[Action], Callable[[Action], float]] | None:
        """The moves this bot chooses among and the score it maximises over them, or None where it
        decides by a rule instead (no placement: draw or pass; the last object: place it). The search
        bot ranks its candidates by the same score (``search_model.rank``)."""
        if state.drawn is not None:
            return legal, self._lay_score(state, player)  # with a tile drawn, every move is a Lay
        places: list[Action] = [a for a in legal if type(a) is Place]
        if not places or len(state.unplaced[player]) == 1:
            return None
        if state.phase == FINAL:
            # One placement each and then the ranking by squares left: greedy's rule is right here.
            open_now = [_lengths_open(state, seat) for seat in range(state.num_players)]
            return places, lambda a: placement_score(state, player, a, open_now)  # type: ignore[arg-type]
        bonus = self.w.placed_per_square
        return places, lambda a: self._after_place(state, player, a) + bonus * a.length  # type: ignore[arg-type, attr-defined]

    # -- placing -------------------------------------------------------------------------------------
    def _after_place(self, state: MulticityState, player: int, action: Place) -> float:
        probe = state.clone()
        probe.apply(player, action)
        counts = [Counter(a.length for a in c) for c in probe.cands]
        ends = _all_ends(probe)
        return self.evaluate(probe, player, counts, ends, self._at_risk(probe, player, ()))

    # -- laying the drawn tile -----------------------------------------------------------------------
    def _lay_score(self, state: MulticityState, player: int) -> Callable[[Action], float]:
        """Scores every slot and turn on a private copy of the city, changing only what the tile touches.

        The pending ends of the city's free slots are counted once; a lay changes only those of the
        slot it fills and the free slots within reach of it (``_touched``), plus the slots it opens,
        so each lay recounts just those (the same totals as counting every free slot again, several
        times cheaper in a wide city: every play-out of the search bot's hard level runs this)."""
        probe = state.clone()
        n = probe.num_players
        counts = [dict(Counter(a.length for a in c)) for c in probe.cands]
        # each free slot's ends along its row and along its column: a lay changes only the axis
        # that runs through the laid slot
        base = {slot: (_axis_ends(probe, slot, 0), _axis_ends(probe, slot, 1)) for slot in probe.frontier}
        total: list[dict[int, int]] = [{} for _ in range(n)]
        for row_ends, column_ends in base.values():
            _add_ends(total, row_ends, 1)
            _add_ends(total, column_ends, 1)
        near: dict[Slot, list[Slot]] = {}  # a slot -> the other free slots a tile in it touches
        drawn = probe.drawn
        assert drawn is not None  # asked only with a tile drawn
        layouts = probe.rotations[drawn]
        cells, tiles = probe.cells, probe.tiles
        last_tile = not probe.stack

        def score(lay: Lay) -> float:
            slot = (lay.x // 3, lay.y // 3)
            squares = [key(lay.x + i % 3, lay.y + i // 3) for i in range(9)]
            for square, code in zip(squares, layouts[lay.turn], strict=True):
                cells[square] = code
            tiles[slot] = (drawn, lay.turn)
            try:
                after = [c.copy() for c in counts]
                new = probe._discover(lay.x, lay.y)  # what State.preview_lay returns, cells kept
                for seat, action, _ in new:
                    row = after[seat]
                    row[action.length] = row.get(action.length, 0) + 1
                touched = near.get(slot)
                if touched is None:
                    touched = near[slot] = [o for o in base if o != slot and _touched(slot, o, tiles)]
                ends = [row.copy() for row in total]
                for gone in base[slot]:
                    _add_ends(ends, gone, -1)
                for other in touched:
                    axis = 0 if other[1] == slot[1] else 1
                    _add_ends(ends, base[other][axis], -1)
                    _add_ends(ends, _axis_ends(probe, other, axis), 1)
                for other in opened_slots(tiles, base, slot):
                    _add_ends(ends, _slot_ends(probe, other), 1)
                risk = self._at_risk(probe, player, new)
                return self.evaluate(probe, player, after, ends, risk, final=last_tile)
            finally:
                del tiles[slot]
                for square in squares:
                    del cells[square]

        return score  # type: ignore[return-value]  # with a tile drawn, every move is a Lay

    def _at_risk(self, state: MulticityState, me: int, new: Sequence[Found]) -> dict[int, float]:
        """Our open lengths an opponent may take away, each with the factor its worth is kept at."""
        w = self.w
        risk: dict[int, float] = {}
        if w.unsafe == 1.0:
            return risk
        mine, theirs = _spans(state, me, new)
        squares = {square for spans in theirs.values() for _, span in spans for square in span}
        for length, spans in mine.items():
            if not any(squares.isdisjoint(span) for span in spans):
                risk[length] = w.unsafe
        return risk

    # -- the evaluation ------------------------------------------------------------------------------
    def evaluate(
        self,
        state: MulticityState,
        me: int,
        counts: Sequence[Mapping[int, int]],
        ends: Sequence[Mapping[int, int]],
        risk: Mapping[int, float] | None = None,
        final: bool = False,
    ) -> float:
        """The position's worth to ``me``: our stock and potential minus the opponents'.

        ``counts[seat][length]``: placements open now; ``ends[seat][d]``: pending ends ``d`` squares
        from the city's edge (they may become objects of length d+2 to d+4) and bridges; ``risk``: our
        open lengths that an opponent's placement could take away, with the factor they keep."""
        w = self.w
        final = final or state.phase == FINAL
        others = 0.0
        value = 0.0
        n = state.num_players
        miss = 1.0 - w.pot_hit
        for seat in range(n):
            unplaced = state.unplaced[seat]
            if not unplaced:
                return WIN if seat == me else -WIN
            stock = 0.0
            for length, count in counts[seat].items():
                if count:
                    worth = w.open_base + w.open_per_square * length + w.spare * min(count - 1, 2)
                    if seat == me and risk:
                        worth *= risk.get(length, 1.0)
                    stock += worth
            pot = 0.0
            pend = ends[seat].get
            if ends[seat] and not final:
                for length in unplaced:
                    hits: float = pend(length - 2, 0) + pend(length - 3, 0) + pend(length - 4, 0)
                    if w.bridge:
                        hits += w.bridge * pend(BRIDGE + length, 0)
                    if hits:
                        pot += (w.pot_base + w.pot_per_square * length) * (1.0 - miss**hits)
            open_any = any(counts[seat].values())
            if seat == me:
                value += stock + pot
                if len(unplaced) == 1 and stock > 0:
                    value += w.last_open
            else:
                if len(unplaced) == 1 and open_any:
                    value -= WIN  # they place their last object before we move again
                others += stock + w.opp_pot * pot
        return value - w.opponent * others / max(1, n - 1)


def _spans(
    state: MulticityState, me: int, new: Sequence[Found]
) -> tuple[dict[int, list[Span]], dict[int, list[tuple[Place, Span]]]]:
    """Our open spans by length, and each opponent's open placements (the city's and ``new``)."""
    mine: dict[int, list[Span]] = {}
    theirs: dict[int, list[tuple[Place, Span]]] = {}
    for seat, cands in enumerate(state.cands):
        if seat == me:
            for action, span in cands.items():
                mine.setdefault(action.length, []).append(span)
        elif cands:
            theirs[seat] = list(cands.items())
    for seat, action, span in new:
        if seat == me:
            mine.setdefault(action.length, []).append(span)
        else:
            theirs.setdefault(seat, []).append((action, span))
    return mine, theirs


def _add_ends(ends: list[dict[int, int]], found: list[tuple[int, int]], sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) one slot's pending ends from the per-seat counts."""
    for seat, d in found:
        row = ends[seat]
        row[d] = row.get(d, 0) + sign


def _touched(slot: Slot, other: Slot, tiles: Mapping[Slot, object]) -> bool:
    """Can a tile in ``slot`` change the pending ends of the free slot ``other``? Only a neighbour
    along its row or column, or the slot beyond such a neighbour that holds a tile: ends are
    scanned from a free slot's neighbouring tiles outwards, at most six squares (two tiles) away."""
    dx, dy = other[0] - slot[0], other[1] - slot[1]
    if dx == 0 and dy in (-2, 2):
        return (slot[0], slot[1] + dy // 2) in tiles
    if dy == 0 and dx in (-2, 2):
        return (slot[0] + dx // 2, slot[1]) in tiles
    return abs(dx) + abs(dy) == 1


def _all_ends(state: MulticityState) -> list[Counter[int]]:
    ends: list[Counter[int]] = [Counter() for _ in range(state.num_players)]
    for slot in state.frontier:
        for seat, d in _slot_ends(state, slot):
            ends[seat][d] += 1
    return ends


def _slot_ends(state: MulticityState, slot: Slot) -> list[tuple[int, int]]:
    """(seat, d) for every own-colour end that a tile in the free ``slot`` could complete.

    An end counts when its row or column runs from the city's edge into the slot with no hole or
    object in between; d is its distance from the edge, so the other end, on one of the new
    tile's three squares, makes an object of length d+2 to d+4. When tiles lie on both sides, two
    such ends of one colour could be joined across the new tile: that is listed as (seat, BRIDGE +
    length)."""
    return _axis_ends(state, slot, 0) + _axis_ends(state, slot, 1)


def _axis_ends(state: MulticityState, slot: Slot, axis: int) -> list[tuple[int, int]]:
    """``_slot_ends`` along one axis: 0, the slot's row (tiles left and right), 1, its column."""
    n = state.num_players
    found: list[tuple[int, int]] = []
    cells, occ, tiles = state.cells, state.occ, state.tiles
    get = cells.get
    stop_at_hole = not state.kids
    sx, sy = slot
    x0, y0 = sx * 3 + OFFSET, sy * 3 + OFFSET  # the slot's first square, in key() terms
    # per neighbouring tile: the square just outside the slot on line 0, the step away from the
    # slot, and the step from one of the three lines to the next
    sides = []
    for dx, dy in _AXES[axis]:
        if (sx + dx, sy + dy) not in tiles:
            continue
        if dx:
            first = y0 * STRIDE + (x0 - 1 if dx < 0 else x0 + 3)
            sides.append((first, dx, STRIDE))
        else:
            first = (y0 - 1 if dy < 0 else y0 + 3) * STRIDE + x0
            sides.append((first, dy * STRIDE, 1))
    if not sides:
        return found
    for i in range(3):
        lines = []
        for first, step, across in sides:
            square = first + i * across
            line = []
            for d in range(6):
                code = get(square, -1)
                if code < 0 or (code == HOLE and stop_at_hole) or square in occ:
                    break
                if code < n:
                    line.append((code, d))
                square += step
            found.extend(line)
            lines.append(line)
        if len(lines) == 2 and lines[0] and lines[1]:
            for code, d in lines[0]:
                for other, e in lines[1]:
                    if other == code and d + e + 5 <= MAX_LENGTH:
                        found.append((code, BRIDGE + d + e + 5))
    return found
