"""Fixtures every test folder may use."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tabletown.core.i18n import Speaker
from tabletown.core.record import Record


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message must be in its catalog: a missing translation raises instead of falling back to
    English (core.i18n.Speaker.strict; monkeypatch puts the class attribute back afterwards)."""
    monkeypatch.setattr(Speaker, "strict", True)


@pytest.fixture
def unfinished_nlv_record() -> Callable[..., Record]:
    """A maker of a hot-seat New Las Vegas record saved at ``path`` mid-game (security audits 13
    and 20): two humans; seat 0 secretly took the loan, both played round 1, then seat 0 played its
    whole round 2 in secret; seat 1 is still choosing (nothing of round 2 resolved)."""
    from tabletown.core.registry import get_game

    def make(path: Path, private: bool = False) -> Record:
        state = get_game("newlasvegas").new_game(2, {}, 4)
        rec = Record.start(state, ["human", "human"])
        rng = random.Random(1)

        def do(seat: int, action: object) -> None:
            text = state.format_action(action)
            state.apply(seat, action)
            rec.add(seat, text)

        do(0, state.parse_action("loan", 0))
        do(1, state.parse_action("noloan", 1))
        for round_index in range(2):
            number = state.round_no
            for seat in (0, 1):
                if round_index == 1 and seat == 1:
                    break
                while seat in state.to_act and state.round_no == number:
                    do(seat, rng.choice(state.legal_actions(seat)))
        assert state.to_act == (1,) and not state.is_over
        rec.save(path, private=private)
        return rec

    return make


@pytest.fixture
def prompt_screens() -> Callable[..., tuple[str, str]]:
    """The terminal's screens for ``seat`` of ``state`` when it has been shown the events before
    ``seen``: the prompt's (which must word every later one), then the one ``board`` redraws."""

    def screens(game: object, state: object, seat: int, seen: int, **console_size: int) -> tuple[str, str]:
        import io

        from rich.console import Console

        from tabletown.terminal import HotSeat, HumanAgent

        console = Console(
            file=io.StringIO(), record=True, color_system=None, **{"width": 300, **console_size}
        )
        agent = HumanAgent(game, console, HotSeat(1, seen_events={seat: seen}))
        agent._show(state, seat)
        prompt = console.export_text()
        agent.understand(state, seat, "board")
        return prompt, console.export_text()

    return screens
