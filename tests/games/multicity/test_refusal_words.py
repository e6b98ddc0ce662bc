"""Multicity's refused moves in Polish, German and Russian: each refusal reached through real play is
worded from the game's catalog (printed names from the glossary), and every refusal in the source is
a literal template the catalogs can extract."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tabletown.core.errors import ActionError
from tabletown.core.i18n import Term
from tabletown.games.multicity import DRAW, GAME, MulticityState, Place

from .helpers import custom, play

LANGS = ("pl", "de", "ru")
SOURCE = Path(__file__).resolve().parents[3] / "src" / "tabletown" / "games" / "multicity"
ERRORS = {"IllegalAction", "MalformedAction", "ActionError"}
BLANK = "bby/yby/byb"  # no green or red anywhere
GREENS = "gbg/gog/yby"  # green: 3h 0,0, 2v 0,0 and 2v 2,0; a hole between two greens in row 1


@dataclass(frozen=True)
class Case:
    """A refusal: how to reach it, its rule, the plain values its wording must keep, and the glossary
    keys of its printed names."""

    name: str
    reach: Callable[[], None]
    rule: str
    keeps: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()


def _drawn() -> MulticityState:
    """Seat 0 has drawn a tile that it has still to lay."""
    state = custom(2, [BLANK, GREENS, BLANK, BLANK])
    play(state, "draw")
    return state


def _greens(**options: object) -> MulticityState:
    return custom(2, [GREENS, BLANK, BLANK], **options)


def _placed() -> MulticityState:
    """Seat 0 has placed its 3-object; seat 1 has expanded the city; seat 0 to play."""
    state = _greens()
    play(state, "3h 0,0", "draw", "t 3,0 r0")
    return state


def _final_round() -> MulticityState:
    """The last tile is laid: seat 0 places first in the final round, with the stack empty."""
    state = custom(2, [GREENS, BLANK])
    play(state, "draw", "t 3,0 r0")
    return state


CASES = (
    Case("overlap", lambda: play(_drawn(), "t 0,0 r0"), "multicity.tile_overlap", ("0,0",)),
    Case("corner", lambda: play(_drawn(), "t 3,3 r0"), "multicity.tile_corner_only", ("3,3",)),
    Case("detached", lambda: play(_drawn(), "t 6,0 r0"), "multicity.tile_detached", ("6,0",)),
    Case("grid", lambda: play(_drawn(), "t 1,0 r0"), "multicity.tile_grid", ("1,0", "3")),
    Case("turn", lambda: play(_drawn(), "t 3,0 r4"), "multicity.tile_turn", ("r0-r3", "r4")),
    Case("drawn", lambda: play(_drawn(), "2h 0,0"), "multicity.lay_drawn_tile"),
    Case("undrawn", lambda: play(_greens(), "t 3,0 r0"), "multicity.no_tile_drawn"),
    Case("pass", lambda: play(_greens(), "pass"), "multicity.no_pass"),
    Case("empty", lambda: play(_final_round(), "draw"), "multicity.stack_empty"),
    Case("colour", lambda: play(_greens(), "2h 0,0"), "multicity.end_colour", terms=("green",)),
    Case("not_your_turn", lambda: _greens().apply(1, DRAW), "turn.not_your_turn", ("1", "(0,)")),
    Case("hole", lambda: play(_greens(), "3h 0,1"), "multicity.hole"),
    Case("off_city", lambda: play(_greens(), "4h 0,0"), "multicity.off_city"),
    Case("length", lambda: play(_greens(), "9h 0,0"), "multicity.length", ("2", "7", "9")),
    Case("unknown", lambda: play(_greens(), "5d 0,0"), "notation.unknown", ("'5d 0,0'", "'t 3,0 r1'")),
    Case("used", lambda: play(_placed(), "3h 0,0"), "multicity.object_used", ("3",)),
    Case("taken", lambda: play(_placed(), "2v 0,0"), "multicity.square_taken"),
    Case("not_action", lambda: _greens().apply(0, "fly"), "multicity.action", ("'fly'",)),
    Case(
        "look_alike",
        lambda: _greens().apply(0, Place(3, 0.0, 0, False)),  # type: ignore[arg-type]  # a look-alike
        "multicity.coordinates",
        ("0.0",),
    ),
    Case(
        "space",
        lambda: GAME.action_space(2, {"deck": 3}).index(Place(3, 30, 0, False)),
        "action.not_in_space",
    ),
)
GAME_CASES = tuple(case for case in CASES if case.rule != "turn.not_your_turn")  # the engine's own


def _refusal(case: Case) -> ActionError:
    with pytest.raises(ActionError) as caught:
        case.reach()
    error = caught.value
    assert error.rule == case.rule, error
    return error


def test_the_cases_cover_many_rules() -> None:
    assert len({case.rule for case in GAME_CASES}) >= 15


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_refusal_in_every_language(case: Case, strict: None) -> None:
    error = _refusal(case)
    assert GAME.describe_error(error, "en") == error.message
    assert "{" not in error.message
    for value in case.keeps:
        assert value in error.message, (value, error.message)
    for lang in LANGS:
        text = GAME.describe_error(error, lang)
        assert text != error.message, (lang, text)
        assert "{" not in text and "}" not in text, (lang, text)
        for value in case.keeps:
            assert value in text, (lang, value, text)
        for key in case.terms:
            assert GAME.printed_name(key, lang) in text, (lang, key, text)


def test_colour_is_a_printed_name() -> None:
    error = _refusal(CASES[[case.name for case in CASES].index("colour")])
    colour = error.fields["colour"]
    assert isinstance(colour, Term) and colour.key == "green"
    assert error.message == "both ends of an object must be on green symbols (your colour)"
    assert "zielony" in GAME.describe_error(error, "pl")
    assert "Grün" in GAME.describe_error(error, "de")
    assert "зелёный" in GAME.describe_error(error, "ru")


def test_placement_problem_keeps_its_english_words() -> None:
    state = _greens()
    assert state.placement_problem(0, Place(3, 0, 0, False)) is None
    assert state.placement_problem(0, Place(2, 0, 0, False)) == (
        "multicity.end_colour",
        "both ends of an object must be on green symbols (your colour)",
    )
    assert state.placement_problem(0, Place(4, 0, 0, False)) == (
        "multicity.off_city",
        "an object must lie entirely on tiles",
    )


def _error_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in ERRORS:
                yield node


def test_every_refusal_in_the_source_is_a_literal_template() -> None:
    found = 0
    for path in sorted(SOURCE.rglob("*.py")):
        for call in _error_calls(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            where = f"{path.name}:{call.lineno}"
            assert len(call.args) >= 2, where
            template = call.args[1]
            assert isinstance(template, ast.Constant) and isinstance(template.value, str), where
            found += 1
    assert found >= 25
