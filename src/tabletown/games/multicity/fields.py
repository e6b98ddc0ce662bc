"""What every part of a Multicity position may read, declared once for the type checker.

The state's parts (``city.py``, ``placing.py``, ``ending.py``) are mixins of
:class:`~.state.MulticityState` and call one another's methods. For mypy they derive from
:class:`StateFields`, which declares the state's slots and the methods one part calls in another
(mypy checks each real definition against its line here). At run time ``StateFields`` is ``object``:
the slots live on the state class, and nothing is added to the classes or their look-ups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.errors import IllegalAction
    from ...core.game import State
    from .actions import Place
    from .pairs import PairTables
    from .tiles import Layout

    # Alike by shape to machikoro/fields.py and newlasvegas/fields.py on purpose: each game declares
    # its own state's fields.
    class StateFields(State):
        # The slots' types (num_players, options, seed, rng and log are the contract's); squares
        # are ``key(x, y)`` ints (grid.py).
        kids: bool  # the kids' variant: objects may lie over holes
        loose: bool  # the looser overlap rule: an object's end may touch a crossing one's middle
        rotations: tuple[tuple[Layout, ...], ...]  # tile -> its four turns' square codes
        letters: tuple[tuple[tuple[str, ...], ...], ...]  # tile -> its four turns' square letters
        cells: dict[int, int]  # square -> terrain code of the laid tiles
        occ: dict[int, int]  # square -> END/MID flags of the objects on it
        tiles: dict[tuple[int, int], tuple[int, int]]  # tile slot -> (tile, turn)
        frontier: dict[tuple[int, int], None]  # the empty slots next to laid tiles
        stack: list[int]  # the tiles to draw, the top at the end
        unused: tuple[int, ...]  # the tiles left in the box
        drawn: int | None  # the tile drawn and not yet laid
        cands: list[dict[Place, tuple[int, ...]]]  # seat -> its legal placements and their squares
        unplaced: list[tuple[int, ...]]  # seat -> the lengths of its objects not yet placed
        objects: list[tuple[int, Place]]  # (seat, placement) in the order placed
        current: int
        first: int
        phase: int  # phases.py
        final_index: int  # how many seats of the final round have had their turn
        _cache_pairs: PairTables  # the pair tables of the tiles and the hole rule (never saved)

        # city.py
        def _put_tile(self, tile: int, slot: tuple[int, int], turn: int) -> None: ...
        # placing.py
        def placement_problem(self, player: int, action: Place) -> tuple[str, str] | None: ...
        def _placement_refusal(self, player: int, action: Place) -> IllegalAction | None: ...
        # ending.py
        def _start_final_round(self, player: int) -> None: ...
        def _next_in_final_round(self) -> None: ...
        def _end(self) -> None: ...

else:
    StateFields = object
