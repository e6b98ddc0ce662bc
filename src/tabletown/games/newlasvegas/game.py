"""The static game object of Welcome To New Las Vegas: options, bench configurations, rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import OptionError
from ...core.game import BotFactory, Game
from ...core.options import Option
from .data import ARCHITECTS
from .rules import NewLasVegasState


class NewLasVegas(Game):
    name = "newlasvegas"
    title = "Welcome To New Las Vegas"
    min_players = 1
    max_players = 12
    options = (
        Option("first_game", False, "first-game variant: no golf, no bank rule, start with 3 bundles"),
        Option(
            "architect",
            1,
            "solo only: ACME architect card (difficulty and loan threshold)",
            choices=tuple(sorted(ARCHITECTS)),
        ),
    )
    # Generic search bot settings (docs/bots.md): the slowest play-outs (up to 20 ms early on).
    search_tuning = {
        "easy": {"iterations": 30},
        "medium": {"iterations": 80},
        "hard": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 150},
    }
    bench_configs = ((1, {}), (2, {}), (4, {}))
    notation_help = (
        "a round: pick (a, b, c; +e easy, +f free action, +x expansion; solo 12 = number card 1, effect card 2)"
        " or refuse; then open a casino street.avenue (2.5, easy 2.5+1); expansion x2.6l/x2.6r; then the"
        " effect: op | con 3.6 | up grand | show1/show2 | limo n/s/e/w | skip. Start: loan/noloan. Type a whole round at once with"
        " commas: a, 2.5, con 3.6"
    )

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        if num_players > 1 and options.get("architect", 1) != 1:
            raise OptionError("the architect option is for the solo game (1 player) only")

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> NewLasVegasState:
        return NewLasVegasState(num_players, options, seed)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import GreedyBot
        from .expert import ExpertBot

        return {"greedy": GreedyBot, "expert": ExpertBot}

    def render(self, view: Mapping[str, Any]) -> Any:
        from .render import render_view

        return render_view(view)


NewLasVegasState.game = NewLasVegas()
