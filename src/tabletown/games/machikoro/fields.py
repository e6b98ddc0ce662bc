"""What every part of a Machi Koro position may read, declared once for the type checker.

The state's parts (``turn.py``, ``income.py``, ``building.py``) are mixins of
:class:`~.state.MachiKoroState` and call one another's methods. For mypy they derive from
:class:`StateFields`, which declares the state's slots and the methods one part calls in another
(mypy checks each real definition against its line here). At run time ``StateFields`` is ``object``:
the slots live on the state class, and nothing is added to the classes or their look-ups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...core.game import State
    from .actions import Swap
    from .tables import Tables

    # Alike by shape to newlasvegas/fields.py and multicity/fields.py on purpose: each game declares
    # its own state's fields.
    class StateFields(State):
        # The slots' types (num_players, options, seed, rng and log are the contract's).
        t: Tables  # the set-up's tables (cards in play, rows of landmark moves, ...)
        coins: list[int]
        cards: list[list[int]]  # seat -> copies of each card (by table index)
        lm: list[int]  # seat -> bitmask of built landmarks
        supply: list[int]  # copies of each card on sale
        decks: list[list[int]]  # one deck per market region (Harbor's market)
        current: int
        phase: int
        dice: tuple[int, int]  # (first, second); second 0 for one die
        total: int
        rerolled: bool
        built: bool
        purple_stage: int
        park_at_start: bool
        winner: int
        turn: int
        bank_paid: int
        bank_received: int
        city_hall_mode: str
        radio_same_dice: bool
        park_same_turn: bool

        # turn.py
        def _wrong_phase(self, action: Any) -> Exception: ...
        def _end_turn(self) -> None: ...
        def _start_turn(self, after: int = -1) -> None: ...
        # income.py
        def _resolve_income(self) -> None: ...
        def _apply_tv(self, target: Any) -> None: ...
        def _apply_business(self, action: Any) -> None: ...
        def _swap_actions(self) -> list[Swap]: ...
        # building.py
        def _apply_build(self, card: Any) -> None: ...

else:
    StateFields = object
