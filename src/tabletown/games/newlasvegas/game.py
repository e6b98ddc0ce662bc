"""The static game object of Welcome To New Las Vegas: options, bench configurations, rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import OptionError
from ...core.game import BotFactory, Game
from ...core.i18n import N_, Speaker
from ...core.options import Option
from ...core.spaces import SIMULTANEOUS, ActionSpace, GameType
from ...core.words import Names
from .actions import all_actions
from .data import ARCHITECTS, NUM_SLOTS, TRACK_LENGTH, TRACK_START
from .state import MAX_SEATS, NewLasVegasState

# A true bound on a game's length. Every round each seat either opens a casino (filling an empty one
# for good) or refuses (marking 2 opening boxes; the game ends once the track is full), so the game
# ends within NUM_SLOTS + ceil((TRACK_LENGTH - TRACK_START) / 2) rounds, whatever the seats do (solo
# also ends when the cards run out). A seat takes at most 4 steps a round (pick, open, copy, effect),
# plus one bank choice and one reshuffle vote per game; plans only group steps.
MAX_ROUNDS = NUM_SLOTS + (TRACK_LENGTH - TRACK_START + 1) // 2


class NewLasVegas(Game):
    name = "newlasvegas"
    title = N_("Welcome To New Las Vegas")
    camel_name = "NewLasVegas"
    min_players = 1
    max_players = MAX_SEATS
    options = (
        Option(
            "first_game",
            False,
            N_("first-game variant: no golf, no bank rule, start with 3 bundles"),
            label=N_("First game"),
        ),
        Option(
            "architect",
            1,
            N_("solo only: ACME architect card (difficulty and loan threshold)"),
            choices=tuple(sorted(ARCHITECTS)),
            label=N_("ACME architect (solo)"),
        ),
    )
    # Generic search bot settings (docs/bots.md): the slowest play-outs (up to 20 ms early on).
    search_tuning = {
        "easy": {"iterations": 30},
        "medium": {"iterations": 80},
        "hard": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 150},
    }
    bench_configs = ((1, {}), (2, {}), (4, {}))
    notation_help = N_(
        "a round: pick (a, b, c; +e easy, +f free action, +x expansion; solo 12 = number card 1, effect card 2)"
        " or refuse; then open a casino street.avenue (2.5, easy 2.5+1); expansion x2.6l/x2.6r; then the"
        " effect: op | con 3.6 | up grand | show1/show2 | limo n/s/e/w | skip. Start: loan/noloan. Type a whole round at once with"
        " commas: a, 2.5, con 3.6"
    )

    def title_for(self, num_players: int, options: Mapping[str, Any] | None = None, lang: str = "en") -> str:
        sp = Speaker(self.name, lang)
        title = sp.tr(self.title)
        solo, first = num_players == 1, bool(self.option_value(options, "first_game"))
        if solo and first:
            return sp.tr("{title} (solo, first game)", title=title)
        if solo:
            return sp.tr("{title} (solo)", title=title)
        if first:
            return sp.tr("{title} (first game)", title=title)
        return title

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        if num_players > 1 and options.get("architect", 1) != 1:
            raise OptionError("the architect option is for the solo game (1 player) only")

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> NewLasVegasState:
        return NewLasVegasState(num_players, options, seed)

    @property
    def game_type(self) -> GameType:
        return GameType(
            dynamics=SIMULTANEOUS,
            chance=True,
            hidden_information=True,
            min_players=self.min_players,
            max_players=self.max_players,
            scores=(
                "each seat's final score sheet total in points (solo: the player's total; rank 1 when it"
                " reaches ACME's total, hotels then grand hotels breaking a tie)"
            ),
            max_actions=self.max_players * (4 * MAX_ROUNDS + 2),
        )

    def build_action_space(self, num_players: int, options: dict[str, Any]) -> ActionSpace:
        first = bool(options.get("first_game"))
        return ActionSpace(all_actions(solo=num_players == 1, bank_rule=not first, golf=not first))

    def state_from_json(self, data: Any) -> NewLasVegasState:
        state = super().state_from_json(data)
        assert isinstance(state, NewLasVegasState)
        return state

    # Alike to multicity/game.py on purpose: each game's Game hands these to its own modules (the
    # registration shape of docs/engine.md).
    def describe_event(self, event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
        from .words import describe_event

        return describe_event(event, names, lang)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import GreedyBot
        from .expert import ExpertBot

        return {"greedy": GreedyBot, "expert": ExpertBot}

    def status_line(self, view: Mapping[str, Any], lang: str = "en") -> str:
        from .words import status_line

        return status_line(view, lang=lang)

    def rivals(self, view: Mapping[str, Any], lang: str = "en") -> list[tuple[str, float, int]]:
        """Solo: ACME with its final total, first when the player did not win (the player wins a tie)."""
        final = view["state"].get("final")
        if not view["result"] or not final or "acme" not in final:
            return []
        beaten = view["result"]["ranks"][0] == 1
        return [(self.printed_name("acme", lang), float(final["acme"]["total"]), 2 if beaten else 1)]

    def render(
        self, view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
    ) -> Any:
        from .render import render_view

        return render_view(view, lang=lang, all_events=all_events, height=height)


NewLasVegasState.game = NewLasVegas()
