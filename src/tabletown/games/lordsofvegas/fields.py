"""What every part of a Lords of Vegas position may read, declared once for the type checker.

The state's parts (``board.py``, ``moves.py``, ``trading.py``, ``turn.py``) are mixins of
:class:`~.state.LordsOfVegasState` and read one another's attributes and methods. For mypy they derive
from :class:`StateFields`, which declares the state's slots and the methods one part calls in another
(mypy checks each real definition against its line here). At run time ``StateFields`` is ``object``:
the slots live on the state class, and nothing is added to the classes or their look-ups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import LVAction

# A Lords of Vegas action as the rules and bots read it: one of the typed actions of actions.py.
Move = LVAction
# casinos(): (the casinos as tuples of lots in board order, lot -> its casino or None)
Casinos = tuple[tuple[tuple[int, ...], ...], list[tuple[int, ...] | None]]

if TYPE_CHECKING:
    from ...core.game import State
    from .actions import Item

    class StateFields(State):
        # the board, lot by lot (-1: nobody / no tile; diev 0: no die)
        marker: list[int]
        tile: list[int]
        dieo: list[int]
        diev: list[int]
        # seat by seat
        money: list[int]
        score: list[int]
        dice_out: list[int]
        markers_out: list[int]
        # colour by colour, then the cards
        tiles_left: list[int]
        deck: list[int]
        discard: list[int]
        ge_index: int
        # the turn
        active: int
        phase: int
        turn: int
        gambled: bool
        reorged: int
        bans: tuple[tuple[str, int], ...]
        offers_made: int
        pending: tuple[int, int, int] | None  # (seat, lot, value) or the lay-off's (boss, gambler, bet)
        resume: tuple[int, ...] | None  # (RESUME_ACTION,) or (RESUME_DRAW, lot)
        offer: tuple[int, tuple[Item, ...]] | None  # (proposer, items)
        accepted: tuple[int, ...]
        place_queue: list[tuple[int, tuple[int, ...], tuple[int, ...]]]  # (owner, lots, values)
        market: tuple[int, ...]
        offer_return: int
        _over_reason: str
        # memos (see board.py and moves.py)
        _cache_cas: Casinos | None
        _cache_own: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None
        _cache_plan: tuple[int, tuple[tuple[int, int, int, Move, int], ...]] | None
        _cache_stats: dict[tuple[int, ...], tuple[int, int, int, int]]
        _cache_answer: tuple[tuple[int, tuple[Item, ...]], tuple[int, ...]] | None

        # board.py
        def casinos(self) -> Casinos: ...
        def _merge(self, seed: tuple[int, ...]) -> None: ...
        def _owned(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]: ...
        def _set_marker(self, lot: int, seat: int) -> None: ...
        def _build_on(self, lot: int) -> None: ...
        def _dice_changed(self, lot: int) -> None: ...
        def _values_changed(self, lot: int) -> None: ...
        def _dice_stats(self, g: tuple[int, ...]) -> tuple[int, int, int, int]: ...
        def _boss_of(self, g: tuple[int, ...]) -> int: ...
        def casino_of(self, lot: int) -> tuple[int, ...]: ...
        def _after_action(self, touched: tuple[int, ...] | None = None) -> None: ...
        def _payout(self, pays: int) -> None: ...
        # trading.py
        def offer_answerers(self) -> tuple[int, ...]: ...
        def _banned(self, kind: str, lot: int) -> bool: ...
        def _banned_casino(self, kind: str, lots: tuple[int, ...]) -> bool: ...
        def _execute_offer(self) -> None: ...
        # turn.py
        def _start_turn(self) -> None: ...
        def _end(self, reason: str, seat: int = -1) -> None: ...

else:
    StateFields = object
