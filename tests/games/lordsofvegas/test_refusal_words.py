"""Refused moves in Polish, German and Russian: each refusal's template is a literal in the catalogs,
its printed names (casino colours, traded actions) come from glossary.json, its catalog words (phase
hints, what a number stands for) from the catalogs, and its numbers and notation stay as they are."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tabletown.core.errors import ActionError
from tabletown.core.i18n import Speaker, Term, Word, catalog
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.state import LordsOfVegasState

from .helpers import act, blank, mark, put

LANGS = ("pl", "de", "ru")
DOMAIN = "lordsofvegas"
SOURCE = Path(__file__).resolve().parents[3] / "src" / "tabletown" / "games" / "lordsofvegas"
REFUSALS = ("IllegalAction", "MalformedAction", "ActionError")


def refusal(state: LordsOfVegasState, seat: int, text: str) -> ActionError:
    """The error ``text`` by ``seat`` is refused with (parsed and applied as in play)."""
    with pytest.raises(ActionError) as info:
        act(state, seat, text)
    return info.value


# --- positions reached with the game's own API, each with a move it refuses
def build_sold_out() -> ActionError:
    state = blank(3, money=50)
    mark(state, 0, "a2")
    state.tiles_left[2] = 0  # every gold tile is on the board
    return refusal(state, 0, "build a2 gold")


def build_money() -> ActionError:
    state = blank(3, money=7)
    mark(state, 0, "a1")
    return refusal(state, 0, "build a1 gold")  # $9


def sprawl_not_adjacent() -> ActionError:
    state = blank(3, money=100)
    put(state, "c5", "gold", 0, 3)
    return refusal(state, 0, "sprawl c9 gold")


def sprawl_not_boss() -> ActionError:
    state = blank(3, money=100)
    put(state, "c1", "silver", 1, 6)
    put(state, "c2", "silver", 0, 2)
    return refusal(state, 0, "sprawl c3 silver")


def remodel_same_color() -> ActionError:
    state = blank(3, money=100)
    put(state, "c5", "gold", 0, 3)
    return refusal(state, 0, "remodel c5 gold")


def remodel_sold_out() -> ActionError:
    state = blank(3, money=100)
    put(state, "c5", "gold", 0, 3)
    put(state, "c4", "gold", 0, 2)
    state.tiles_left[1] = 1
    return refusal(state, 0, "remodel c5 brown")


def reorganize_money() -> ActionError:
    state = blank(3, money=4)
    put(state, "c4", "gold", 0, 2)
    put(state, "c5", "gold", 1, 3)
    return refusal(state, 0, "reorg c4")  # $5


def gamble_limit() -> ActionError:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    return refusal(state, 0, "gamble c1 6")


def gamble_money() -> ActionError:
    state = blank(3, money=3)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "silver", 1, 4)
    return refusal(state, 0, "gamble c1 4")


def trade_promised() -> ActionError:
    state = blank(2, money=50)
    mark(state, 0, "a1")
    act(state, 0, "offer 1>0:$5 0>1:no-build")
    act(state, 1, "accept")
    return refusal(state, 0, "build a1 gold")


def trade_not_owner() -> ActionError:
    state = blank(3, money=50)
    mark(state, 1, "b2")
    return refusal(state, 0, "offer 2>0:b2 0>2:$3")


def trade_money() -> ActionError:
    state = blank(3, money=10)
    return refusal(state, 0, "offer 0>1:$25")


def phase_hint() -> ActionError:
    state = blank(3, money=50)
    return refusal(state, 0, "put c5")  # the main phase takes no placing of re-rolled dice


def not_a_number() -> ActionError:
    state = blank(3, money=50)
    put(state, "c1", "silver", 1, 5)
    return refusal(state, 0, "gamble c1 lots")


def no_such_colour() -> ActionError:
    state = blank(3, money=50)
    mark(state, 0, "a1")
    return refusal(state, 0, "build a1 pink")


# (position, rule, the numbers and notation the words must keep, the glossary keys they must name)
CASES: tuple[tuple[Callable[[], ActionError], str, tuple[str, ...], tuple[str, ...]], ...] = (
    (build_sold_out, "build.sold_out", (), ("gold",)),
    (build_money, "build.money", ("A1", "$9", "$7"), ()),
    (sprawl_not_adjacent, "sprawl.not_adjacent", ("C9",), ("gold",)),
    (sprawl_not_boss, "sprawl.not_boss", ("C3",), ("silver",)),
    (remodel_same_color, "remodel.same_color", (), ("gold",)),
    (remodel_sold_out, "remodel.sold_out", ("2", "1"), ("brown",)),
    (reorganize_money, "reorganize.money", ("$5", "$4", "$1"), ()),
    (gamble_limit, "gamble.limit", ("$1", "$5"), ()),
    (gamble_money, "gamble.money", ("$3",), ()),
    (trade_promised, "trade.promised", (), ("build",)),
    (trade_not_owner, "trade.not_owner", ("2", "B2"), ()),
    (trade_money, "trade.money", ("0", "$10"), ()),
    (phase_hint, "phase.action", ("put", "build", "end"), ()),
    (not_a_number, "notation.number", ("'lots'",), ()),
    (no_such_colour, "notation.color", ("'pink'",), ()),
)


@pytest.mark.parametrize(("position", "rule", "kept", "terms"), CASES, ids=[case[1] for case in CASES])
@pytest.mark.usefixtures("strict")
def test_refusal_in_every_language(
    position: Callable[[], ActionError], rule: str, kept: tuple[str, ...], terms: tuple[str, ...]
) -> None:
    err = position()
    assert err.rule == rule, err
    assert GAME.describe_error(err, "en") == err.message
    assert sorted(value.key for value in err.fields.values() if isinstance(value, Term)) == sorted(terms)
    for lang in LANGS:
        text = GAME.describe_error(err, lang)
        assert text != err.message, (lang, text)
        assert "{" not in text and "}" not in text, (lang, text)
        for value in kept:
            assert value in text, (lang, value, text)
        for key in terms:
            assert GAME.printed_name(key, lang) in text, (lang, key, text)
        for name, value in err.fields.items():
            if isinstance(value, Term):
                continue
            if isinstance(value, Word):  # a catalog word, in the reader's language
                assert Speaker(DOMAIN, lang).tr(str(value)) in text, (lang, name, text)
            elif isinstance(value, int | str):  # numbers and notation stay as they are
                assert str(value) in text, (lang, name, text)


@pytest.mark.usefixtures("strict")
def test_word_fields_are_translated() -> None:
    hint = phase_hint().fields["hint"]
    what = not_a_number().fields["what"]
    assert isinstance(hint, Word) and isinstance(what, Word)
    for lang in LANGS:
        assert GAME.describe_error(phase_hint(), lang).endswith(f"({Speaker(DOMAIN, lang).tr(hint)})")
        assert Speaker(DOMAIN, lang).tr(what) != what


def _refusal_calls() -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute):
                name = func.attr
            else:
                name = func.id if isinstance(func, ast.Name) else ""
            if name in REFUSALS:
                yield f"{path.name}:{node.lineno}", node


def test_every_refusal_is_a_literal_template_in_the_catalogs() -> None:
    calls = list(_refusal_calls())
    assert len(calls) >= 60  # the scan found the game's refusals
    for where, call in calls:
        assert len(call.args) >= 2, where
        template = call.args[1]
        assert isinstance(template, ast.Constant) and isinstance(template.value, str), where
        assert not any(isinstance(arg, ast.Starred) for arg in call.args), where
        for lang in LANGS:
            assert template.value in getattr(catalog(DOMAIN, lang), "_catalog", {}), (where, lang)
