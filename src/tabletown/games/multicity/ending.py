"""The end of the game: passing in the final round, the final round's turns, the end and the ranking."""

from __future__ import annotations

from ...core.errors import IllegalAction
from ...core.events import Event
from ...core.game import Result
from .actions import LENGTHS
from .fields import StateFields
from .phases import FINAL, OVER

_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__
_OBJECTS, _SQUARES = len(LENGTHS), sum(LENGTHS)  # a seat's objects and their squares


class EndingMixin(StateFields):
    """The final round and the ranking of :class:`~.state.MulticityState`."""

    __slots__ = ()

    def _pass(self, player: int) -> None:
        if self.phase != FINAL:
            raise IllegalAction("multicity.no_pass", "you may only pass in the final round: expand or place")
        self.log.append(Event("pass", {"seat": player}))
        self.final_index += 1
        self._next_in_final_round()

    def _start_final_round(self, player: int) -> None:
        self.phase = FINAL
        self.final_index = 0
        self.log.append(Event("final_round", {"seat": player, "first_seat": self.first}))
        self._next_in_final_round()

    def _next_in_final_round(self) -> None:
        while self.final_index < self.num_players:
            seat = (self.first + self.final_index) % self.num_players
            if self.cands[seat]:
                self.current = seat
                return
            self.log.append(Event("turn_lost", {"seat": seat}))
            self.final_index += 1
        self._end()

    def _end(self) -> None:
        self.phase = OVER
        result = self.result()
        assert result is not None
        six = not all(self.unplaced)
        self.log.append(
            _new_tuple(
                Event,
                (
                    "game_over",
                    {"winners": list(result.winners), "reason": "six_objects" if six else "fewest_squares"},
                    None,
                ),
            )
        )

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def remaining_squares(self, player: int) -> int:
        return sum(self.unplaced[player])

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        # Fewest squares left wins, then most objects placed; whoever placed all six has 0 left.
        unplaced = self.unplaced
        keys = [(-sum(left), _OBJECTS - len(left)) for left in unplaced]
        scores = [float(_SQUARES - sum(left)) for left in unplaced]
        return Result.from_keys(scores, keys)
