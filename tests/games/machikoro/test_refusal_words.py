"""Machi Koro's refused moves in Polish, German and Russian: every refusal is a catalog template whose
printed names (cards, landmarks) come from the glossary and whose step names are catalog words."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tabletown.core.errors import ActionError
from tabletown.core.i18n import Speaker, Term, Word
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import TV, Roll
from tabletown.games.machikoro.phases import PHASE_NAMES
from tabletown.games.machikoro.state import MachiKoroState
from tabletown.games.machikoro.turn import _STEP_WORDS

from .helpers import new_state, play, script, setup

LANGS = ("pl", "de", "ru")
PACKAGE = Path(__file__).resolve().parents[3] / "src" / "tabletown" / "games" / "machikoro"
ERRORS = {"IllegalAction", "MalformedAction", "ActionError"}


@dataclass(frozen=True)
class Case:
    """A refused move: how to reach it, its rule, and what every language's wording must show."""

    rule: str
    refuse: Callable[[], object]
    values: tuple[str, ...] = ()  # numbers and notation, written the same in every language
    terms: tuple[str, ...] = ()  # glossary keys of the printed names the message holds


pytestmark = pytest.mark.usefixtures("strict")  # every message must be in its catalog


def _rolled(state: MachiKoroState, *dice: int, two: bool = False) -> MachiKoroState:
    script(state, *dice)
    play(state, "roll2" if two else "roll")
    return state


def _in_build(**options: object) -> MachiKoroState:
    """P0 in its build step with 5 coins and a Train Station (a 6 pays nothing)."""
    return _rolled(setup(2, coins=[5, 0], landmarks={0: ["station"]}, **options), 5, 1, two=True)


def _in_business() -> MachiKoroState:
    """P0 choosing a Business Center swap in a three-player game (P1 owns a Mine)."""
    state = setup(3, coins=[0, 0, 0], cards={0: {"office": 1, "forest": 1}, 1: {"mine": 1}})
    return _rolled(state, 6)


def _in_tv() -> MachiKoroState:
    return _rolled(setup(3, coins=[0, 5, 5], cards={0: {"tv": 1}}), 6)


def _sold_out() -> None:
    state = new_state(2)
    state.supply[state.t.codes.index("ranch")] = 0
    _rolled(state, 5)
    play(state, "build ranch")


def _purple_twice() -> None:
    state = _rolled(setup(2, coins=[20, 0], cards={0: {"stadium": 1}}), 1)
    play(state, "build stadium")


CASES = [
    Case("roll.needs_train_station", lambda: play(setup(2), "roll2"), terms=("station",)),
    Case("roll.needs_train_station", lambda: setup(2).apply(0, Roll(2)), terms=("station",)),
    Case("build.cannot_afford", lambda: play(_in_build(), "build mall"), ("10", "5"), ("mall",)),
    Case("build.landmark_built", lambda: play(_in_build(), "build station"), terms=("station",)),
    Case("build.not_in_game", lambda: play(_in_build(), "build sushi"), terms=("sushi",)),
    Case("build.landmark_not_in_game", lambda: play(_in_build(), "build airport"), terms=("airport",)),
    Case("build.sold_out", _sold_out, terms=("ranch",)),
    Case("build.one_purple_each", _purple_twice, terms=("stadium",)),
    Case("phase.build", lambda: play(_in_build(), "roll"), ("'roll'",)),
    Case("phase.roll", lambda: play(setup(2), "build cafe"), ("'build cafe'",)),
    Case("tv_station.self", lambda: _in_tv().apply(0, TV(0)), terms=("tv",)),
    Case("tv_station.no_such_seat", lambda: play(_in_tv(), "tv 3"), ("3",)),
    Case("action.seat", lambda: _in_tv().apply(0, TV(-1)), ("-1",), ("tv",)),
    Case("business_center.self", lambda: play(_in_business(), "swap wheat 0 bakery"), terms=("office",)),
    Case("business_center.same_card", lambda: play(_in_business(), "swap wheat 1 wheat")),
    Case("business_center.not_owned", lambda: play(_in_business(), "swap mine 1 wheat")),
    Case("business_center.not_owned", lambda: play(_in_business(), "swap wheat 2 mine"), ("P2",)),
    Case("business_center.tower", lambda: play(_in_business(), "swap office 1 mine")),
    Case("notation.empty", lambda: play(setup(2), "  ")),
    Case("notation.unknown", lambda: play(setup(2), "fly away"), ("'fly away'", "'build cafe'")),
    Case("notation.unknown", lambda: play(setup(2), "swap wheat 1 bakery 2"), ("'wheat 1 bakery 2'",)),
    Case("notation.unknown_card", lambda: play(setup(2), "build spaceship"), ("'spaceship'",)),
    Case("notation.seat", lambda: play(setup(2), "tv x9"), ("'x9'",)),
    Case("notation.swap_landmark", lambda: play(setup(2), "swap wheat 1 station")),
    Case("action.dice", lambda: setup(2).apply(0, Roll(3)), ("3",)),
    Case("action.unknown", lambda: setup(2).apply(0, "junk"), ("'junk'",)),
    Case("action.type", lambda: setup(2).apply(0, 3.5), ("3.5", "noswap")),
]


def _refusal(case: Case) -> ActionError:
    with pytest.raises(ActionError) as caught:
        case.refuse()
    assert caught.value.rule == case.rule
    return caught.value


@pytest.mark.parametrize("case", CASES, ids=[f"{n}-{c.rule}" for n, c in enumerate(CASES)])
def test_a_refusal_is_worded_in_every_language(case: Case) -> None:
    err = _refusal(case)
    assert GAME.describe_error(err, "en") == err.message
    terms = [value for value in err.fields.values() if isinstance(value, Term)]
    assert sorted(term.key for term in terms) == sorted(case.terms)
    for value in case.values:
        assert value in err.message
    for lang in LANGS:
        text = GAME.describe_error(err, lang)
        assert text != err.message, (lang, text)
        assert "{" not in text and "}" not in text, (lang, text)
        for value in case.values:
            assert value in text, (lang, value, text)
        for key in case.terms:
            printed = GAME.printed_name(key, lang)
            assert printed != key and printed in text, (lang, printed, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_step_of_a_wrong_phase_refusal_is_a_translated_word(lang: str) -> None:
    err = _refusal(CASES[8])
    step = err.fields["step"]
    assert isinstance(step, Word) and step == "build"
    translated = Speaker(GAME.name, lang).tr(str(step))
    assert translated != "build" and translated in GAME.describe_error(err, lang)


def test_step_words_follow_the_phases() -> None:
    assert tuple(name.replace("_", " ") for name in PHASE_NAMES) == _STEP_WORDS


def test_at_least_eight_rules_are_worded() -> None:
    assert len({case.rule for case in CASES}) >= 8


def _refusal_calls() -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in ERRORS:
                    yield f"{path.name}:{node.lineno}", node


def test_every_refusal_message_is_a_literal_the_catalog_sees() -> None:
    calls = list(_refusal_calls())
    assert len(calls) >= 30
    for where, call in calls:
        assert len(call.args) >= 2, where
        message = call.args[1]
        assert isinstance(message, ast.Constant) and isinstance(message.value, str), where
