"""Bots that work for every game, and the lookup from a seat spec (``bot:NAME``) to a bot."""

from __future__ import annotations

from collections.abc import Callable

from ..core.errors import OptionError
from ..core.game import Bot, Game
from .random_bot import RandomBot

GenericFactory = Callable[[Game, int], Bot]
PrefixFactory = Callable[[Game, str, int], Bot]

# Generic bots by name; tabletown.bots.mcts and others add themselves here.
GENERIC_BOTS: dict[str, GenericFactory] = {
    "random": lambda game, seed: RandomBot(seed),
}


# Bots named by a prefix and a spec (``policy:FILE``): prefix -> factory(game, spec, seed). The module
# that serves a prefix adds itself here when imported; _PREFIX_MODULES names it, so the bots never
# import the packages above them (tabletown.rl.policy_bot serves ``policy:``).
PREFIX_BOTS: dict[str, PrefixFactory] = {}
_PREFIX_MODULES = {"policy:": "tabletown.rl.policy_bot"}


def bot_names(game: Game) -> list[str]:
    _load_optional_bots()
    return sorted(set(GENERIC_BOTS) | set(game.bots()))


def make_bot(game: Game, name: str, seed: int) -> Bot:
    """Build ``name`` (without the ``bot:`` prefix) for ``game``; game-specific names win."""
    name = name.removeprefix("bot:")
    specific = game.bots()
    if name in specific:
        return specific[name](seed)
    if name in GENERIC_BOTS:
        return GENERIC_BOTS[name](game, seed)
    _load_optional_bots()
    if name in GENERIC_BOTS:
        return GENERIC_BOTS[name](game, seed)
    for prefix, module in _PREFIX_MODULES.items():
        if name.startswith(prefix):
            if prefix not in PREFIX_BOTS:
                import importlib

                importlib.import_module(module)
            return PREFIX_BOTS[prefix](game, name.removeprefix(prefix), seed)
    raise OptionError(
        "unknown bot {bot!r} for {game}; available: {known}",
        bot=name,
        game=game.name,
        known=", ".join(bot_names(game)),
    )


def _load_optional_bots() -> None:
    import importlib

    for module in ("tabletown.bots.mcts", "tabletown.bots.search"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
