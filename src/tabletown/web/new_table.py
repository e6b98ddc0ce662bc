"""The checks of a request for a new table (``TableService.create``): each part of the request is
refused with its own rule before anything is made, every message a template the shared catalog words
in the reader's language."""

from __future__ import annotations

from typing import Any

from ..core.errors import OptionError
from ..core.fairness import MAX_SEED, new_seed
from ..core.game import Game
from ..core.i18n import N_
from .live import TableError, valid_name

SEAT_KINDS = ("human", "open")  # a seat reserved for its join link; a seat anyone may take
MAX_TURN_TIMER = 86400  # seconds


def seat_spec(spec: str) -> str:
    """A seat as the request wrote it, in the one form every check reads ("BOT:Expert " is
    "bot:expert"): the limit on bot-only tables and the seats made must agree on what a bot is."""
    return spec.strip().lower()


def bots_only(seats: Any) -> bool:
    """Whether every seat asked for is a bot (malformed seats are refused later, by seat_kinds)."""
    return isinstance(seats, list) and all(
        isinstance(s, str) and seat_spec(s).startswith("bot") for s in seats
    )


def has_bots(seats: Any) -> bool:
    """Whether any seat asked for is a bot."""
    return isinstance(seats, list) and any(
        isinstance(s, str) and seat_spec(s).startswith("bot") for s in seats
    )


def seat_kinds(game: Game, seats: Any) -> tuple[list[str], set[int]]:
    """Each seat's kind ("human" or "bot:LEVEL") and which human seats are open to anyone."""
    if not isinstance(seats, list) or not seats:
        raise TableError(422, "table.seats", N_("seats must be a non-empty list"))
    kinds: list[str] = []
    open_seats: set[int] = set()
    for spec in seats:
        if not isinstance(spec, str) or len(spec) > 64:
            raise TableError(422, "table.seats", N_('each seat is "human", "open" or "bot:NAME"'))
        spec = seat_spec(spec)
        if spec in SEAT_KINDS:
            if spec == "open":
                open_seats.add(len(kinds))
            kinds.append("human")
        elif spec.startswith("bot:") or spec == "bot":
            kinds.append("bot:" + _bot_level(game, spec.removeprefix("bot").removeprefix(":") or "random"))
        else:
            raise TableError(
                422, "table.seats", N_('a seat is "human", "open" or "bot:NAME", not {spec!r}'), spec=spec
            )
    return kinds, open_seats


def _bot_level(game: Game, name: str) -> str:
    from ..bots import bot_names, make_bot

    # Only the game's bot levels (and those the operator registered): a prefix bot such as
    # ``policy:FILE`` would open any path on the server for a stranger.
    known = bot_names(game)
    if name not in known:
        raise TableError(
            422,
            "table.bot",
            N_("unknown bot {bot!r} for {game}; available: {known}"),
            bot=name,
            game=game.name,
            known=", ".join(known),
        )
    try:
        make_bot(game, name, 0)
    except OptionError as exc:
        raise TableError.refused(game, exc, "table.bot") from None
    return name


def table_seed(seed: Any) -> tuple[int, bool]:
    """The table's seed and whether its creator chose it. A seed nobody chose is drawn here and never
    shown before the end; a chosen one is allowed (practice, puzzles, studies) and every seat is told so."""
    if seed is None:
        return new_seed(), False
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise TableError(
            422, "table.seed", N_("the seed is a whole number from 0 to {limit}"), limit=MAX_SEED
        )
    return seed, True


def check_turn_timer(turn_timer: Any) -> None:
    if turn_timer is not None and (
        isinstance(turn_timer, bool)
        or not isinstance(turn_timer, int)
        or not 1 <= turn_timer <= MAX_TURN_TIMER
    ):
        raise TableError(422, "table.turn_timer", N_("the turn timer is a number of seconds from 1 to 86400"))


def seat_names_asked(names: Any, count: int) -> list[str | None]:
    """The players' names the request gives (None for a seat without one), one per seat."""
    if names is not None and not (
        isinstance(names, list)
        and len(names) <= count
        and all(n is None or isinstance(n, str) for n in names)
    ):
        raise TableError(422, "table.names", N_("names must be a list of strings, one per seat at most"))
    clean: list[str | None] = [valid_name(n) if n is not None else None for n in (names or [])]
    return clean + [None] * (count - len(clean))
