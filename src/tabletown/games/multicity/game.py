"""Multicity's static facts: options, player counts, bench configurations, bots and rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.errors import OptionError
from ...core.game import BotFactory, Game
from ...core.options import Option
from .state import MulticityState
from .tiles import DECK

if TYPE_CHECKING:
    from rich.console import RenderableType


class MulticityGame(Game):
    name: ClassVar[str] = "multicity"
    title: ClassVar[str] = "Multicity"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("deck", len(DECK), "city tiles in play, the start tile included (the reconstructed deck has 32)",
               minimum=2, maximum=len(DECK)),
        Option("first", "random", "seat that plays first", choices=("random", "0", "1", "2", "3")),
        Option("kids", False, "kids' variant: objects may span holes (their ends still sit on own-colour symbols)"),
        Option("overlap", "strict", "strict: objects never share a square; loose: only ends are exclusive and "
               "objects may not cross (an end may stand beside a crossing object's middle)",
               choices=("strict", "loose")),
    )  # fmt: skip
    # Generic search bot settings (docs/bots.md): the tree needs more iterations than 2 s allow to
    # beat greedy here; halving anchored on the expert's move does better (it leaves the expert's
    # move only for one that clearly wins more random play-outs).
    search_tuning: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "medium": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 150},
        "hard": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 500},
    }
    bench_configs: ClassVar[tuple[tuple[int, Mapping[str, Any]], ...]] = ((2, {}), (3, {}), (4, {}))
    notation_help: ClassVar[str] = (
        "draw: take the top tile | t X,Y rN: lay the drawn tile with its top-left square at X,Y, "
        "turned N quarter turns clockwise (r0-r3) | 5h X,Y: your 5-object from square X,Y to the right "
        "(h) or downwards (v) | pass: place nothing (final round only). X is the column, Y the row."
    )

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        first = options["first"]
        if first != "random" and int(first) >= num_players:
            raise OptionError(
                f"first={first} is not a seat of a {num_players}-player game (seats 0-{num_players - 1})"
            )

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> MulticityState:
        return MulticityState(num_players, options, seed)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import GreedyBot
        from .expert import ExpertBot

        return {"greedy": GreedyBot, "expert": ExpertBot}

    def render(self, view: Mapping[str, Any]) -> RenderableType:
        from .render import render_view

        return render_view(view)
