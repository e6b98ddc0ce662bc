"""Placing objects: the placement itself, the candidates it blocks, and why a placement is refused."""

from __future__ import annotations

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.i18n import Term
from .actions import MAX_LENGTH, MIN_LENGTH, Place
from .fields import StateFields
from .grid import _FLAGS, END_H, END_V, MID_H, MID_V, object_squares, occupy, span_free
from .phases import FINAL
from .tiles import COLOURS, HOLE

_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__


class PlacingMixin(StateFields):
    """Placing objects, and the refusals, of :class:`~.state.MulticityState`."""

    __slots__ = ()

    def _place(self, player: int, action: Place) -> None:
        if self.drawn is not None:
            raise IllegalAction(
                "multicity.lay_drawn_tile", "you have drawn a tile: lay it before anything else"
            )
        try:
            squares = self.cands[player].get(action)
        except TypeError:  # a list or dict inside: not a placement at all
            raise MalformedAction(
                "multicity.coordinates", "not a placement: {action!r}", action=action
            ) from None
        if squares is None:
            raise self._place_refusal(player, action)
        # 3.0, True or 0 compare equal to a legal action's 3, 1 or False: refuse such look-alikes
        # so records, logs and notation only ever hold the canonical action.
        length, x, y, vertical = action.length, action.x, action.y, action.vertical
        if type(length) is not int:
            raise MalformedAction(
                "multicity.length", "an object's length is a whole number, not {length!r}", length=length
            )
        if not (type(x) is int and type(y) is int and type(vertical) is bool):
            raise MalformedAction("multicity.coordinates", "not a placement: {action!r}", action=action)
        if self.loose:
            occupy(self.occ, squares, vertical)
        else:  # strict: the squares were free, so their flags are just this object's
            self.occ.update(zip(squares, _FLAGS[vertical][length], strict=True))
        unplaced = self.unplaced[player] = tuple(filter(length.__ne__, self.unplaced[player]))
        self.objects.append((player, action))
        self._prune(player, length, squares)
        self.log.append(
            _new_tuple(
                Event,
                ("place", {"seat": player, "length": length, "x": x, "y": y, "vertical": vertical}, None),
            )
        )
        if not unplaced:
            self._end()
        elif self.phase == FINAL:
            self.final_index += 1
            self._next_in_final_round()
        else:
            self.current = (player + 1) % self.num_players

    def _prune(self, player: int, length: int, squares: tuple[int, ...]) -> None:
        """Drop the placements that the new object blocks, and the placed length's others."""
        apart = set(squares).isdisjoint
        loose = self.loose
        all_cands = self.cands
        for seat, old in enumerate(all_cands):
            if seat != player:
                for span in old.values():
                    if not apart(span):
                        break
                else:
                    continue  # nothing of this seat's touches the new object
            keep = {}
            for action, span in old.items():
                if seat == player and action.length == length:
                    continue
                # Strict reading: a span that touches the new object is blocked.
                if apart(span) or (loose and self._free(span, action.vertical)):
                    keep[action] = span
            if len(keep) != len(old):
                all_cands[seat] = keep

    def _place_refusal(self, player: int, action: Place) -> IllegalAction | MalformedAction:
        length, x, y, vertical = action.length, action.x, action.y, action.vertical
        if not (isinstance(length, int) and MIN_LENGTH <= length <= MAX_LENGTH):
            return MalformedAction(
                "multicity.length",
                "objects are {shortest}-{longest} squares long, not {length!r}",
                shortest=MIN_LENGTH,
                longest=MAX_LENGTH,
                length=length,
            )
        if not (type(x) is int and type(y) is int and isinstance(vertical, bool)):
            return MalformedAction("multicity.coordinates", "not a placement: {action!r}", action=action)
        return self._placement_refusal(player, action) or IllegalAction(
            "multicity.internal", "placement refused"
        )

    def placement_problem(self, player: int, action: Place) -> tuple[str, str] | None:
        """Why ``player`` may not place ``action`` now, from first principles (None: it is allowed):
        the refusal's rule and English message.

        The fast path uses ``cands``; this slow check explains refusals and lets tests cross-check."""
        refusal = self._placement_refusal(player, action)
        return None if refusal is None else (refusal.rule, refusal.message)

    def _placement_refusal(self, player: int, action: Place) -> IllegalAction | None:
        """The refusal :meth:`placement_problem` words (None: the placement is allowed)."""
        length, vertical = action.length, action.vertical
        if length not in self.unplaced[player]:
            return IllegalAction(
                "multicity.object_used", "your {length}-object is already in the city", length=length
            )
        squares = object_squares(action)
        cells = self.cells
        if any(s not in cells for s in squares):
            return IllegalAction("multicity.off_city", "an object must lie entirely on tiles")
        if cells[squares[0]] != player or cells[squares[-1]] != player:
            return IllegalAction(
                "multicity.end_colour",
                "both ends of an object must be on {colour} symbols (your colour)",
                colour=Term(COLOURS[player]),
            )
        if not self.kids and any(cells[s] == HOLE for s in squares):
            return IllegalAction(
                "multicity.hole", "an object may not lie over a hole (only in the kids' variant)"
            )
        occ = self.occ
        if not self.loose:
            if any(s in occ for s in squares):
                return IllegalAction(
                    "multicity.square_taken", "another object already lies on one of these squares"
                )
            return None
        if not self._free(squares, vertical):
            same = (END_V | MID_V) if vertical else (END_H | MID_H)
            if any(occ.get(s, 0) & (END_H | END_V) for s in (squares[0], squares[-1])):
                return IllegalAction(
                    "multicity.square_taken", "another object already stands on one of these end squares"
                )
            if any(occ.get(s, 0) & same for s in squares):
                return IllegalAction(
                    "multicity.square_taken", "another object already runs along this row or column here"
                )
            return IllegalAction(
                "multicity.objects_cross",
                "objects may not cross: this one would cut through another's middle",
            )
        return None

    def _free(self, squares: tuple[int, ...], vertical: bool) -> bool:
        """May an object lie on these squares, given the objects already placed?"""
        return span_free(self.occ, self.loose, squares, vertical)
