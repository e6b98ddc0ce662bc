"""The Machi Koro game definition: options, set-up, bots and rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import BotFactory, Game
from ...core.options import Option
from .rules import MachiKoroState
from .tables import build_tables

MARKETS = ("auto", "all", "ten", "hybrid")


class MachiKoro(Game):
    name = "machikoro"
    title = "Machi Koro (with Harbor)"
    min_players = 2
    max_players = 4
    options = (
        Option("harbor", False, "play with the Harbor expansion (City Hall, Harbor, Airport, 10 more kinds)"),
        Option(
            "market",
            "auto",
            "supply: all = every pile open; ten = Harbor's 10-kind market; hybrid = 5-5-2 market; "
            "auto = ten with Harbor, all without",
            choices=MARKETS,
        ),
        Option(
            "city_hall",
            "broke",
            "City Hall: broke = 1 coin before building if you have none (original rule); "
            "every_turn = 1 coin at the start of each turn (Polish rulebook wording)",
            choices=("broke", "every_turn"),
        ),
        Option("sushi_cost", 4, "Sushi Bar cost: 4 in the early printings, 2 in later ones", choices=(2, 4)),
        Option(
            "radio_tower_dice",
            "choose",
            "Radio Tower re-roll: choose 1 or 2 dice again, or keep the same number",
            choices=("choose", "same"),
        ),
        Option(
            "park_same_turn",
            True,
            "doubles give an extra turn even when the Amusement Park was built in that same turn",
        ),
        Option("fifth_player", False, "use the English Harbor's fifth purple copies and allow 5 players"),
    )
    # Generic search bot settings (docs/bots.md): a long, luck-heavy dice game, so paired samples
    # (halving), greedy play-outs cut after 20 actions and valued by the race estimate (heuristic()),
    # anchored on the expert's move so the search only refines it. Greedy plays the rollouts because
    # the expert is several times slower per move; the budgets keep a 1,000-game arena run of `hard`
    # within about half an hour on two cores.
    search_tuning = {
        "medium": {
            "root": "halving",
            "anchor": True,
            "anchor_policy": "expert",
            "rollout": "policy",
            "policy_share": 1.0,
            "rollout_cap": 20,
            "iterations": 50,
        },
        "hard": {
            "root": "halving",
            "anchor": True,
            "anchor_policy": "expert",
            "rollout": "policy",
            "policy_share": 1.0,
            "rollout_cap": 20,
            "iterations": 100,
        },
    }
    bench_configs = (
        (2, {"harbor": False}),
        (4, {"harbor": False}),
        (2, {"harbor": True}),
        (4, {"harbor": True}),
    )
    notation_help = (
        "notation: roll | roll2 | keep | reroll | reroll2 | add2 | noadd | tv SEAT | "
        "swap MINE SEAT THEIRS | noswap | build CARD | pass   (cards by short name, e.g. build cafe)"
    )

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return self.min_players, 5 if options["fifth_player"] else self.max_players

    def tables_for(self, options: Mapping[str, Any]):
        market = options["market"]
        if market == "auto":
            market = "ten" if options["harbor"] else "all"
        purple_copies = 5 if options["fifth_player"] else 4
        return build_tables(options["harbor"], market, options["sushi_cost"], purple_copies)

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> MachiKoroState:
        return MachiKoroState.start(num_players, options, seed, self.tables_for(options))

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import bot_factories

        return bot_factories()

    def render(self, view: Mapping[str, Any]):
        from .render import render_view

        return render_view(view)


MachiKoroState.game = MachiKoro()
