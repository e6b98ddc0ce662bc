"""Position values for truncated rollouts, for games whose state does not offer ``heuristic()`` itself.

The search bot stops a rollout at its cap and asks ``state.heuristic()`` (one value in [0, 1] per seat,
higher is better). A game may implement that method; until it does, an adapter here — built on the
game's own public-information estimates — can stand in. Adapters read only what every seat can see.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.game import State

Heuristic = Callable[[State], list[float]]


def _machikoro(state: State) -> list[float]:
    """Machi Koro: the estimated rounds each seat still needs to build its last landmark (the greedy
    bot's race estimate), mapped to (0, 1]: 1 at zero rounds, one half at five."""
    from ..games.machikoro.heuristics import turns_to_win

    return [1.0 / (1.0 + turns_to_win(state, seat) / 5.0) for seat in range(state.num_players)]  # type: ignore[arg-type]


ADAPTERS: dict[str, Heuristic] = {"machikoro": _machikoro}


def heuristic_for(state: State) -> Heuristic | None:
    """The state's own ``heuristic`` method if it has one, else an adapter for its game, else None."""
    own = getattr(state, "heuristic", None)
    if own is not None:
        return lambda s: list(s.heuristic())  # type: ignore[attr-defined]
    return ADAPTERS.get(state.game.name)
