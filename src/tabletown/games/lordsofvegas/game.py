"""Static facts of Lords of Vegas: options, benchmark configurations, bots and rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.game import BotFactory, Game
from ...core.i18n import N_
from ...core.options import Option
from ...core.spaces import SEQUENTIAL, ActionSpace, GameType
from ...core.words import Names
from .data import COST, DIE, NUM_CARDS, NUM_LOTS, START_MONEY, TILES_PER_COLOR
from .moves import MAX_BET, listed_actions
from .notation import HELP
from .state import LordsOfVegasState

# The max_offers option's maximum. Each offer forces an answer from everyone it asks something of,
# so one seat's offers cost the others moves; at 50 (with open_market) a single seat could drag a
# four-player game past the web's 5,000-move limit for a table, which then ends without a result
# (security audit 29). At 10 one seat, or two in league, stay under about 1,400 moves.
MAX_OFFERS = 10


def _max_actions(players: int = 4, max_offers: int = MAX_OFFERS) -> int:
    """A true upper bound on the actions of one game (any options, up to 4 players).

    * Turns: each turn starts by drawing at least one card and cards are never reshuffled, so there
      are at most NUM_CARDS turns.
    * Free actions of one turn: ``end``, a bet and its lay-off answer, at most ``max_offers`` offers
      in the main phase and as many for each other seat in the market round (each answered by at
      most players - 1 accepts, or one refusal or counter-offer, which is itself an offer), and one
      ``pass`` per other seat in the market round.
    * Draw decisions (``take`` a die or ``free`` a lot): at most one per card drawn.
    * Paid actions (build, sprawl, remodel, reorganize) cost at least $1 each, so there are at most
      as many as dollars ever exist: the start money, plus per card drawn at most $1 per lot and $6
      per die (every lot paying), plus per turn at most the bank's share of a won bet (twice the
      largest bet). Each paid action brings at most 1 + TILES_PER_COLOR follow-up decisions (a die
      to move; re-rolled dice to place, at most one per tile of a casino).
    """
    per_turn = 1 + 2 + max_offers * players * players + (players - 1)
    money = players * 2 * max(START_MONEY) + NUM_CARDS * (NUM_LOTS + 6 * NUM_LOTS) + NUM_CARDS * 2 * MAX_BET
    return NUM_CARDS * per_turn + NUM_CARDS + money * (1 + 1 + TILES_PER_COLOR)


assert min(COST) >= 1 and max(DIE) <= 6  # what the bound above relies on

if TYPE_CHECKING:
    from rich.console import RenderableType


# The class attributes are alike by shape to multicity/game.py's on purpose: each game declares its own.
class LordsOfVegasGame(Game):
    name: ClassVar[str] = "lordsofvegas"
    title: ClassVar[str] = N_("Lords of Vegas")
    camel_name: ClassVar[str] = "LordsOfVegas"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "markers_full",
            "free",
            N_(
                "a player with all 10 markers out who gains a lot: first frees one of their lots, or holds the new one without a marker"
            ),
            choices=("free", "hold"),
            label=N_("All ten markers out"),
            choice_labels=(
                ("free", N_("free one of your lots")),
                ("hold", N_("hold the lot without a marker")),
            ),
        ),
        Option(
            "max_offers",
            3,
            N_(
                "trade offers (counter-offers included) allowed per turn, and to each player in the market after it; keeps bot games finite"
            ),
            minimum=0,
            maximum=MAX_OFFERS,
            label=N_("Trade offers a turn"),
        ),
        Option(
            "open_market",
            False,
            N_("after each turn the other players may each offer trades (or pass) before the next draw"),
            label=N_("Open market"),
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

    @property
    def game_type(self) -> GameType:
        return GameType(
            dynamics=SEQUENTIAL,
            chance=True,
            hidden_information=True,  # the order of the undrawn lot cards
            min_players=self.min_players,
            max_players=self.max_players,
            scores="each seat's points on the score track (ties are broken by money for the ranks)",
            max_actions=_max_actions(),
        )

    def build_action_space(self, num_players: int, options: dict[str, Any]) -> ActionSpace:
        """Every action ``legal_actions`` can list (see ``moves.listed_actions``). ``apply`` also takes
        typed moves that are never listed: free-form offers (outside this space: RL agents cannot
        make them), and bets off the menu or a casino named by another of its lots (inside the space,
        as the listed move of another position, but never marked legal where they are only typed
        variants). ``legal_mask`` and ``is_legal`` mark exactly ``legal_actions``."""
        return ActionSpace(listed_actions(num_players))

    def state_from_json(self, data: Any) -> LordsOfVegasState:
        state = super().state_from_json(data)
        assert isinstance(state, LordsOfVegasState)
        return state

    def describe_event(self, event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
        from .render import describe_event

        return describe_event(event, names, lang)

    def status_line(self, view: Mapping[str, Any], lang: str = "en") -> str:
        from .render import status_line

        return status_line(view, lang=lang)

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> LordsOfVegasState:
        state = LordsOfVegasState()
        state.setup(num_players, options, seed)
        return state

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import GreedyBot
        from .expert import ExpertBot

        return {"greedy": GreedyBot, "expert": ExpertBot}

    def render(
        self, view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
    ) -> RenderableType:
        from .render import render_view

        return render_view(view, lang=lang, all_events=all_events, height=height)
