"""Scenario helpers: build Machi Koro positions directly and script the dice."""

from __future__ import annotations

from tabletown.core.record import state_digest
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.data import LANDMARK_CODES, establishment_index
from tabletown.games.machikoro.state import MachiKoroState
from tabletown.testing import ScriptedDice


def new_state(players: int = 2, **options) -> MachiKoroState:
    return GAME.new_game(players, options, seed=options.pop("seed", 7) if "seed" in options else 7)


def setup(
    players: int = 2,
    coins: list[int] | None = None,
    cards: dict[int, dict[str, int]] | None = None,
    landmarks: dict[int, list[str]] | None = None,
    replace_start: bool = False,
    **options,
) -> MachiKoroState:
    """A fresh game with chosen coins, establishments and landmarks; P0 to roll."""
    state = GAME.new_game(players, options, seed=11)
    state.log.clear()
    if coins is not None:
        state.coins[:] = coins
    for seat, wanted in (cards or {}).items():
        if replace_start:
            state.cards[seat][:] = [0] * len(state.cards[seat])
        for code, count in wanted.items():
            state.cards[seat][establishment_index(code)] = count
    for seat, codes in (landmarks or {}).items():
        for code in codes:
            state.lm[seat] |= 1 << LANDMARK_CODES.index(code)
    state._start_turn()
    return state


def script(state: MachiKoroState, *dice: int) -> None:
    state.rng = ScriptedDice(list(dice))


def play(state: MachiKoroState, *moves: str) -> None:
    for move in moves:
        state.apply_text(state.current, move)


def count(state: MachiKoroState, seat: int, code: str) -> int:
    return state.cards[seat][establishment_index(code)]


def digest(state: MachiKoroState) -> str:
    return state_digest(state)
