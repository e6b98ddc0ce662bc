"""Static facts of Lords of Vegas: options, benchmark configurations, bots and rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.game import BotFactory, Game
from ...core.options import Option
from .notation import HELP
from .state import LordsOfVegasState

if TYPE_CHECKING:
    from rich.console import RenderableType


class LordsOfVegasGame(Game):
    name: ClassVar[str] = "lordsofvegas"
    title: ClassVar[str] = "Lords of Vegas"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "markers_full",
            "free",
            "a player with all 10 markers out who gains a lot: 'free' one of their lots first, or 'hold' it without a marker",
            choices=("free", "hold"),
        ),
        Option(
            "max_offers",
            3,
            "trade offers (counter-offers included) allowed per turn; keeps bot games finite",
            minimum=0,
            maximum=50,
        ),
        Option(
            "open_market",
            False,
            "after each turn the other players may each offer trades (or pass) before the next draw",
        ),
    )
    # Generic search bot settings (docs/bots.md): slow play-outs (about 3 ms), so fewer rollouts,
    # anchored on the expert for `hard` (random play-outs alone judge this game's moves poorly).
    search_tuning: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "medium": {"iterations": 150},
        "hard": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 300},
    }
    bench_configs: ClassVar[tuple[tuple[int, Mapping[str, Any]], ...]] = ((2, {}), (3, {}), (4, {}))
    notation_help: ClassVar[str] = HELP

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> LordsOfVegasState:
        state = LordsOfVegasState()
        state.setup(num_players, options, seed)
        return state

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import GreedyBot
        from .expert import ExpertBot

        return {"greedy": GreedyBot, "expert": ExpertBot}

    def render(self, view: Mapping[str, Any]) -> RenderableType:
        from .render import render_view

        return render_view(view)
