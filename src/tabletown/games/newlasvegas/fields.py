"""What every part of a New Las Vegas position may read, declared once for the type checker.

The state's parts (``steps.py``, ``rounds.py``, ``hidden.py``) are mixins of
:class:`~.state.NewLasVegasState` and call one another's methods. For mypy they derive from
:class:`StateFields`, which declares the state's slots and the methods one part calls in another
(mypy checks each real definition against its line here). At run time ``StateFields`` is ``object``:
the slots live on the state class, and nothing is added to the classes or their look-ups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...core.game import State
    from .sheet import Sheet
    from .steps import Turn

    # Alike by shape to machikoro/fields.py and multicity/fields.py on purpose: each game declares its own.
    class StateFields(State):
        solo: bool
        golf: bool  # golf and its upgrades are in play (not the first game)
        bank_rule: bool
        phase: str
        round_no: int
        sheets: list[Sheet]  # seat -> its sheet (a private copy while it plays its round)
        public: list[Sheet]  # seat -> its sheet as the others see it (as of the round's start)
        turns: list[Turn]
        waiting: int  # bitmask of the seats still to act
        loans: list[bool | None]
        # multiplayer: the three piles, how far they are turned, this round's combinations
        piles: list[list[int]]
        top: int
        offers: list[tuple[int, str]]
        # solo: the deck, discard, hand and ACME
        deck: list[int]
        discard: list[int]
        hand: list[int]
        acme_pile: list[int]
        acme_loan_card: int
        acme_seen: int
        acme_proj: list[int]
        acme_hotels: int
        pending_approvals: list[int]
        approval_zone: int
        # projects, races and the end
        projects: tuple[str, str, str]
        approved: list[bool]
        any_completed: bool
        grand_taken: int
        votes: list[bool | None]
        final: dict[str, Any] | None
        # memos
        _cache: tuple[int, list[Any]] | None
        _cache_score: tuple[int, dict[Any, dict[str, Any]]] | None

        # rounds.py
        def combos(self) -> list[tuple[int, int]]: ...

else:
    StateFields = object
