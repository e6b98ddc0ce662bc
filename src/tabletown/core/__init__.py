"""The engine contract and what all games share."""

from .errors import ActionError, IllegalAction, MalformedAction, OptionError, RecordError, TabletownError
from .game import Action, Bot, BotFactory, Game, Result, State
from .options import Option
from .registry import all_games, get_game, register
from .rng import SeededRNG, derive_seed

__all__ = [
    "Action",
    "ActionError",
    "Bot",
    "BotFactory",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "Option",
    "OptionError",
    "RecordError",
    "Result",
    "SeededRNG",
    "State",
    "TabletownError",
    "all_games",
    "derive_seed",
    "get_game",
    "register",
]
