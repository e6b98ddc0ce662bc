"""The Machi Koro game definition: options, set-up, bots and rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import SnapshotError
from ...core.game import BotFactory, Game
from ...core.i18n import N_, gettext
from ...core.options import Option
from ...core.spaces import SEQUENTIAL, ActionSpace, GameType
from ...core.words import Names

# Alike to bots.py's, turn.py's and notation.py's import lists on purpose: each module names its own.
from .actions import (
    ADD2,
    BUILD_ESTABLISHMENT,
    BUILD_LANDMARK,
    KEEP,
    NOADD,
    NOSWAP,
    PASS,
    REROLL1,
    REROLL2,
    ROLL1,
    ROLL2,
    TVS,
    swap_action,
)
from .state import MachiKoroState
from .tables import build_tables

MARKETS = ("auto", "all", "ten", "hybrid")


# What medium and hard search share (MachiKoro.search_tuning gives each its own budget).
_SEARCH: dict[str, Any] = {
    "root": "halving",
    "anchor": True,
    "anchor_policy": "expert",
    "rollout": "policy",
    "policy_share": 1.0,
    "rollout_cap": 20,
}


class MachiKoro(Game):
    name = "machikoro"
    title = N_("Machi Koro (with Harbor)")
    camel_name = "MachiKoro"
    min_players = 2
    max_players = 4
    options = (
        Option(
            "harbor",
            False,
            N_("play with the Harbor expansion (City Hall, Harbor, Airport, 10 more kinds)"),
            label=N_("Harbor expansion"),
        ),
        Option(
            "market",
            "auto",
            N_(
                "which establishments are on offer: every pile, Harbor's market of ten kinds, or 5 cheap, "
                "5 dear and 2 purple; as the box says means ten kinds with Harbor and every pile without"
            ),
            choices=MARKETS,
            label=N_("Supply"),
            choice_labels=(
                ("auto", N_("as the box says")),
                ("all", N_("every pile open")),
                ("ten", N_("ten kinds on offer")),
                ("hybrid", N_("5 cheap, 5 dear, 2 purple")),
            ),
        ),
        Option(
            "city_hall",
            "broke",
            N_(
                "when City Hall gives 1 coin: before building, to a player who has none (the original "
                "rule), or at the start of every turn (the Polish rulebook's wording)"
            ),
            choices=("broke", "every_turn"),
            label=N_("City Hall"),
            choice_labels=(
                ("broke", N_("1 coin when you have none")),
                ("every_turn", N_("1 coin every turn")),
            ),
        ),
        Option(
            "sushi_cost",
            4,
            N_("Sushi Bar cost: 4 in the early printings, 2 in later ones"),
            choices=(2, 4),
            label=N_("Sushi Bar cost"),
        ),
        Option(
            "radio_tower_dice",
            "choose",
            N_("Radio Tower re-roll: choose 1 or 2 dice again, or keep the same number"),
            choices=("choose", "same"),
            label=N_("Radio Tower re-roll"),
            choice_labels=(("choose", N_("choose the dice again")), ("same", N_("the same number of dice"))),
        ),
        Option(
            "park_same_turn",
            True,
            N_("doubles give an extra turn even when the Amusement Park was built in that same turn"),
            label=N_("Amusement Park works at once"),
        ),
        Option(
            "fifth_player",
            False,
            N_("use the English Harbor's fifth purple copies and allow 5 players"),
            label=N_("Fifth player"),
        ),
    )
    # Generic search bot settings (docs/bots.md): a long, luck-heavy dice game, so paired samples
    # (halving), greedy play-outs cut after 20 actions and valued by the race estimate (heuristic()),
    # anchored on the expert's move so the search only refines it. Greedy plays the rollouts because
    # the expert is several times slower per move; the budgets keep a 1,000-game arena run of `hard`
    # within about half an hour on two cores.
    search_tuning = {
        "medium": {**_SEARCH, "iterations": 50},
        "hard": {**_SEARCH, "iterations": 100},
    }
    bench_configs = (
        (2, {"harbor": False}),
        (4, {"harbor": False}),
        (2, {"harbor": True}),
        (4, {"harbor": True}),
    )
    notation_help = N_(
        "notation: roll | roll2 | keep | reroll | reroll2 | add2 | noadd | tv SEAT | "
        "swap MINE SEAT THEIRS | noswap | build CARD | pass   (cards by short name, e.g. build cafe)"
    )

    def title_for(self, num_players: int, options: Mapping[str, Any] | None = None, lang: str = "en") -> str:
        harbor = self.option_value(options, "harbor")
        return gettext(self.name, lang, N_("Machi Koro with Harbor") if harbor else N_("Machi Koro"))

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

    @property
    def game_type(self) -> GameType:
        return GAME_TYPE

    def build_action_space(self, num_players: int, options: dict[str, Any]) -> ActionSpace:
        """Every action that can be legal in this set-up: the dice words, the Harbor's only with
        Harbor, TV targets only with three or more seats (two players never choose), every swap of two
        different swappable establishments with every seat, and a build of every establishment in
        play and every landmark that counts."""
        t = self.tables_for(options)
        actions: list[Any] = [ROLL1, ROLL2, KEEP, REROLL1, REROLL2]
        if t.harbor:
            actions += [ADD2, NOADD]
        if num_players > 2:
            actions += TVS[:num_players]
        actions.append(NOSWAP)
        actions += [
            swap_action(mine, seat, theirs)
            for mine in t.swappable
            for seat in range(num_players)
            for theirs in t.swappable
            if mine != theirs
        ]
        actions.append(PASS)
        actions += [BUILD_ESTABLISHMENT[i] for i in range(len(t.cards)) if t.in_play[i]]
        actions += [BUILD_LANDMARK[j] for j in t.buildable_landmarks]
        return ActionSpace(actions)

    def state_from_json(self, data: Any) -> MachiKoroState:
        state = super().state_from_json(data)
        if not isinstance(state, MachiKoroState):
            raise SnapshotError("not a Machi Koro position")
        state.city_hall_mode = state.options["city_hall"]
        return state

    def describe_event(self, event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
        from .render import describe_event

        return describe_event(event, names, lang)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import bot_factories

        return bot_factories()

    def status_line(self, view: Mapping[str, Any], lang: str = "en") -> str:
        from .render import status_line

        return status_line(view, lang=lang)

    def render(
        self, view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
    ):
        from .render import render_view

        return render_view(view, lang=lang, all_events=all_events, height=height)


# Not a true bound: building nothing is always allowed, so players who only ever pass never end the
# game, and no finite number bounds every legal game. Real games are far shorter: over 3,000 seeded
# random games of every set-up (2-5 players, Harbor or not, each market) the longest took 525
# actions, and bots finish sooner; 100,000 leaves a wide margin for drivers that stop a runaway game.
GAME_TYPE = GameType(
    dynamics=SEQUENTIAL,
    chance=True,
    hidden_information=True,  # the market deck order with the ten-kind and hybrid markets
    min_players=MachiKoro.min_players,
    max_players=5,  # with the fifth_player option (player_range widens to 5 then)
    scores="landmarks built (City Hall not counted); the winner has built all of them",
    max_actions=100_000,
)

MachiKoroState.game = MachiKoro()
