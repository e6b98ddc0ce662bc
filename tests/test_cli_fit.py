"""The prompt's screen fits the terminal: seeded bot games of every game, the human seat's screen
drawn at its decisions as the terminal draws it (board, status line, moves, hint, prompt), at 80x24
and at a tall size. On 24 rows every screen fits and still shows the prompt, the seat's status line
and whose turn it is; on a tall terminal every event since the seat's last move is shown."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from rich.console import Console

from tabletown.cli import _bot_agent
from tabletown.core.game import State
from tabletown.core.registry import get_game
from tabletown.core.rng import derive_seed
from tabletown.core.session import play_out
from tabletown.terminal import HotSeat, HumanAgent

# (game, players, options, seed): each game at two and four seats, solo New Las Vegas too.
CONFIGS = [
    ("machikoro", 2, {"harbor": True}, 3),
    ("machikoro", 4, {"harbor": True}, 4),
    ("lordsofvegas", 2, {}, 3),
    ("lordsofvegas", 4, {}, 4),
    ("newlasvegas", 1, {}, 3),
    ("newlasvegas", 4, {}, 4),
    ("multicity", 2, {}, 3),
    ("multicity", 4, {}, 4),
]


def _whose_turn(name: str, view: Mapping[str, Any]) -> str:
    """The words on the screen that say whose turn (or round) it is, from the view's data."""
    st = view["state"]
    if name == "machikoro":
        return f"turn {st['turn']}, P{st['current']}"
    if name == "lordsofvegas":
        return f"P{st['active']} active"
    if name == "newlasvegas":
        return f"round {st['round']}"
    return f"seat {st['turn']} to play"


def _worded(event: Mapping[str, Any]) -> bool:
    """Whether a board's log words the event: Lords of Vegas leaves out a score marker that stays
    where it was (its 'log' still prints it)."""
    return not (event.get("kind") == "score" and event.get("from") == event.get("to"))


def _flat(text: str) -> str:
    """Text with every run of white space as one space (a long line wraps on a narrow screen)."""
    return re.sub(r"\s+", " ", text).strip()


class Screens:
    """A human seat at a terminal of ``width`` x ``height``: at its decisions the agent draws its
    screen and is answered with a greedy bot's move; each screen is kept with the view it showed."""

    def __init__(self, name: str, height: int, width: int = 80, terminal: bool = True) -> None:
        self.out = io.StringIO()
        self.console = Console(
            file=self.out,
            width=width,
            height=height,
            force_terminal=terminal,
            color_system=None,
            legacy_windows=False,
        )
        self.agent = HumanAgent(get_game(name), self.console, HotSeat(1))
        self.screens: list[tuple[str, dict[str, Any]]] = []
        self.answers: list[str] = []

    def ask(self, state: State, seat: int, move_text: str, before: tuple[str, ...] = ()) -> None:
        """One decision: the screen, then ``before`` typed (commands), then the move."""
        self.out.seek(0)
        self.out.truncate()
        typed = [*before, move_text]
        since = self.agent.table.shown(seat) or 0  # the events this screen is to word

        def answer(prompt: str = "", **_: Any) -> str:
            self.console.print(prompt, end="")
            self.screens.append((self.out.getvalue(), state.view(seat, since=since)))
            self.out.seek(0)
            self.out.truncate()
            return typed.pop(0)

        self.console.input = answer  # type: ignore[method-assign]
        action = self.agent(state, seat)
        assert state.format_action(action) == move_text


def _play(name: str, players: int, options: dict[str, Any], seed: int, seen: Callable[..., None]) -> None:
    """A seeded game of greedy bots; ``seen(state, seat, move_text)`` at each decision of seat 0."""
    game = get_game(name)
    state = game.new_game(players, options, seed)
    bots = [_bot_agent(game, "bot:greedy", derive_seed(seed, i, "bot:greedy")) for i in range(players)]
    decisions = 0

    def human(state: State, seat: int) -> Any:
        nonlocal decisions
        move = bots[seat](state, seat)
        decisions += 1
        if decisions % 3 == 1:  # every third decision: the events in between pile up meanwhile
            seen(state, seat, state.format_action(move))
        return move

    play_out(state, [human, *bots[1:]], finish_rounds=True)


@pytest.mark.parametrize(("name", "players", "options", "seed"), CONFIGS)
def test_every_screen_fits_24_rows_with_prompt_status_and_turn(name, players, options, seed):
    screens = Screens(name, height=24)
    _play(name, players, options, seed, screens.ask)
    assert len(screens.screens) >= 5
    game = get_game(name)
    for text, view in screens.screens:
        lines = text.split("\n")
        assert len(lines) <= 24, f"{len(lines)} rows:\n{text}"
        assert lines[-1] == "seat 0> "  # the prompt, on the last row
        flat = _flat(text)
        assert _flat(game.status_line(view)) in flat
        assert _whose_turn(name, view) in flat


@pytest.mark.parametrize(("name", "players", "options", "seed"), CONFIGS)
def test_a_tall_terminal_shows_every_event_since_the_last_move(name, players, options, seed):
    tall, short = Screens(name, height=400), Screens(name, height=24)

    def both(state: State, seat: int, move_text: str) -> None:
        tall.ask(state, seat, move_text)
        short.ask(state, seat, move_text, before=("log",))

    _play(name, players, options, seed, both)
    game = get_game(name)
    trimmed = 0
    for (text, view), (short_text, _), (logged, _) in zip(
        tall.screens, short.screens[::2], short.screens[1::2], strict=True
    ):
        said = [_flat(game.describe_event(event)) for event in view["events"] if _worded(event)]
        assert all(sentence in _flat(text) for sentence in said)
        assert "earlier event" not in text
        # on 24 rows the older of many events fold into a count, and 'log' prints every one
        if "earlier event" in short_text:
            trimmed += 1
            assert all(sentence in _flat(logged) for sentence in said)
    assert trimmed, "no 24-row screen folded its log: the positions are too quiet to test it"


def test_a_pipe_is_not_fitted():
    """Output to a file or a pipe keeps every line (nothing scrolls out of a file's sight)."""
    piped, tall = Screens("lordsofvegas", height=24, terminal=False), Screens("lordsofvegas", height=400)

    def both(state: State, seat: int, move_text: str) -> None:
        piped.ask(state, seat, move_text)
        tall.ask(state, seat, move_text)

    _play("lordsofvegas", 4, {}, 4, both)
    assert [text for text, _ in piped.screens] == [text for text, _ in tall.screens]
    assert max(text.count("\n") + 1 for text, _ in piped.screens) > 24
