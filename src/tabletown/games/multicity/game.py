"""Multicity's static facts: options, player counts, bench configurations, bots and rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.errors import OptionError
from ...core.game import BotFactory, Game
from ...core.i18n import N_, Speaker
from ...core.options import Option
from ...core.spaces import SEQUENTIAL, ActionSpace, GameType
from ...core.words import Names
from .actions import LENGTHS
from .state import MulticityState
from .tiles import DECK

# The longest game, for any set-up: every tile but the start one is drawn and laid (two actions
# each, 2 * (32 - 1)); each seat places at most six objects and the game ends the moment one seat
# places its sixth, so at most 6 + 5 * (players - 1) placements; and each seat passes at most once,
# in its final-round turn. With 4 players: 62 + 21 + 4 = 87.
MOST_PLAYERS = 4


MAX_ACTIONS = 2 * (len(DECK) - 1) + len(LENGTHS) + (len(LENGTHS) - 1) * (MOST_PLAYERS - 1) + MOST_PLAYERS

if TYPE_CHECKING:
    from rich.console import RenderableType


class MulticityGame(Game):
    name: ClassVar[str] = "multicity"
    title: ClassVar[str] = N_("Multicity")
    camel_name: ClassVar[str] = "Multicity"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MOST_PLAYERS
    options: ClassVar[tuple[Option, ...]] = (
        Option("deck", len(DECK), N_("city tiles in play, the start tile included (the reconstructed deck has 32)"),
               minimum=2, maximum=len(DECK), label=N_("City tiles")),
        Option("first", "random", N_("seat that plays first"), choices=("random", "0", "1", "2", "3"),
               label=N_("First player"),
               choice_labels=(("random", N_("drawn at random")), ("0", N_("seat 1")), ("1", N_("seat 2")),
                              ("2", N_("seat 3")), ("3", N_("seat 4")))),
        Option("kids", False, N_("kids' variant: objects may span holes (their ends still sit on own-colour symbols)"),
               label=N_("Kids' variant")),
        Option("overlap", "strict", N_("whether objects may share squares: never, or only in their middles (ends stay "
               "apart and objects never cross; an end may stand beside a crossing object's middle)"),
               choices=("strict", "loose"), label=N_("Overlapping objects"),
               choice_labels=(("strict", N_("never share a square")),
                              ("loose", N_("middles may share, never cross")))),
    )  # fmt: skip
    # Generic search bot settings (docs/bots.md): the tree needs more iterations than 2 s allow to
    # beat greedy here; halving anchored on the expert's move does better (it leaves the expert's
    # move only for one that clearly wins more random play-outs).
    search_tuning: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "medium": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 150},
        "hard": {"root": "halving", "anchor": True, "policy": "expert", "iterations": 500},
    }
    bench_configs: ClassVar[tuple[tuple[int, Mapping[str, Any]], ...]] = ((2, {}), (3, {}), (4, {}))
    notation_help: ClassVar[str] = N_(
        "draw: take the top tile | t X,Y rN: lay the drawn tile with its top-left square at X,Y, "
        "turned N quarter turns clockwise (r0-r3) | 5h X,Y: your 5-object from square X,Y to the right "
        "(h) or downwards (v) | pass: place nothing (final round only). X is the column, Y the row."
    )

    def title_for(self, num_players: int, options: Mapping[str, Any] | None = None, lang: str = "en") -> str:
        sp = Speaker(self.name, lang)
        title = sp.tr(self.title)
        return sp.tr("{title} (kids' variant)", title=title) if self.option_value(options, "kids") else title

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        first = options["first"]
        if first != "random" and int(first) >= num_players:
            raise OptionError(
                "first={first} is not a seat of a {count}-player game (seats 0-{last})",
                first=first,
                count=num_players,
                last=num_players - 1,
            )

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> MulticityState:
        return MulticityState(num_players, options, seed)

    @property
    def game_type(self) -> GameType:
        return GameType(
            dynamics=SEQUENTIAL,
            chance=True,  # the stack is shuffled (and the first player may be drawn)
            hidden_information=True,  # the order of the stack and which tiles are left out
            min_players=self.min_players,
            max_players=self.max_players,
            scores="squares covered by the seat's placed objects (0-27; 27 minus the squares left to place)",
            max_actions=MAX_ACTIONS,
        )

    def build_action_space(self, num_players: int, options: dict[str, Any]) -> ActionSpace:
        from .space import MulticitySpace

        return MulticitySpace(options["deck"])

    def state_from_json(self, data: Any) -> MulticityState:
        state = super().state_from_json(data)
        assert isinstance(state, MulticityState)
        return state

    # Alike to newlasvegas/game.py on purpose: each game's Game hands these to its own modules (the
    # registration shape of docs/engine.md).
    def describe_event(self, event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
        from .render import describe_event

        return describe_event(event, names, lang)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import GreedyBot
        from .expert import ExpertBot

        return {"greedy": GreedyBot, "expert": ExpertBot}

    def status_line(self, view: Mapping[str, Any], lang: str = "en") -> str:
        from .render import status_line

        return status_line(view, lang=lang)

    def render(
        self, view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
    ) -> RenderableType:
        from .render import render_view

        return render_view(view, lang=lang, all_events=all_events, height=height)
