"""Refused moves of New Las Vegas in Polish, German and Russian: each refusal is a catalog template
whose fields are notation (kept as typed), glossary names (Term: the printed name in the reader's
language) or catalog words (Word: a step or a phase, translated), and every raise site hands the
catalog a literal template."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tabletown.core.errors import ActionError, IllegalAction, MalformedAction
from tabletown.core.i18n import Speaker, Term, Word
from tabletown.games.newlasvegas import GAME
from tabletown.games.newlasvegas.actions import Pick
from tabletown.games.newlasvegas.state import NewLasVegasState

from .helpers import do, fill, fresh, new

LANGS = ("pl", "de", "ru")
PACKAGE = Path(__file__).resolve().parents[3] / "src" / "tabletown" / "games" / "newlasvegas"
GLOSSARY = json.loads((PACKAGE / "glossary.json").read_text(encoding="utf-8"))["terms"]
RAISERS = {"IllegalAction", "MalformedAction", "ActionError"}


def refusal(play: Callable[[], object]) -> ActionError:
    with pytest.raises((IllegalAction, MalformedAction)) as caught:
        play()
    assert isinstance(caught.value, ActionError)
    return caught.value


def _picked(*texts: str) -> NewLasVegasState:
    """Two seats in their first round, seat 0 with 5 in 2.3 and 9 in 2.6, having played ``texts``."""
    state = fresh(2, ((5, "op"), (8, "con"), (11, "show")))
    fill(state.sheets[0], **{"2.3": 5, "2.6": 9})
    do(state, 0, *texts)
    return state


def wrong_step() -> ActionError:
    return refusal(lambda: fresh(2).apply_text(0, "2.2"))


def effect_at_the_pick_step() -> ActionError:
    return refusal(lambda: fresh(2).apply_text(0, "op"))


def pick_in_the_loan_phase() -> ActionError:
    return refusal(lambda: new(2).apply_text(0, "a"))


def opened_casino() -> ActionError:
    state = _picked("b")
    return refusal(lambda: state.apply_text(0, "2.3"))


def unbuilt_crane() -> ActionError:
    state = _picked("b")
    return refusal(lambda: state.apply_text(0, "2.4"))


def other_effect() -> ActionError:
    state = fresh(2, ((5, "op"), (8, "con"), (11, "show")))
    do(state, 0, "a", "2.2")  # combination a: 5 with the opening effect
    return refusal(lambda: state.apply_text(0, "limo e"))


def no_such_casino() -> ActionError:
    return refusal(lambda: fresh(2).apply_text(0, "9.9"))


def no_such_upgrade_column() -> ActionError:
    return refusal(lambda: fresh(2).apply_text(0, "up nothing"))


def not_a_move() -> ActionError:
    return refusal(lambda: fresh(2).apply_text(0, "zz"))


def not_an_action() -> ActionError:
    return refusal(lambda: fresh(2).apply(0, ("zz", 1)))


def unknown_bonus() -> ActionError:
    return refusal(lambda: fresh(2).apply(0, Pick(0, 0, "z")))


def easy_opening_by_three() -> ActionError:
    state = _picked("b")
    return refusal(lambda: state.apply_text(0, "2.5+3"))


def too_long_a_draft() -> ActionError:
    return refusal(lambda: fresh(2).draft(0, ["skip"] * 9))


def a_plan_in_a_draft() -> ActionError:
    return refusal(lambda: fresh(2).draft(0, ["a, 2.2"]))


def refuse_with_a_number() -> ActionError:
    return refusal(lambda: fresh(2).apply_text(0, "refuse"))


@dataclass(frozen=True)
class Case:
    make: Callable[[], ActionError]
    rule: str
    plain: tuple[str, ...] = ()  # numbers and notation, as they stand in every language
    terms: tuple[str, ...] = ()  # glossary keys of Term fields
    words: tuple[str, ...] = ()  # catalog words of Word fields


CASES = (
    Case(wrong_step, "nlv.step", words=("pick", "open")),
    Case(effect_at_the_pick_step, "nlv.step", words=("pick", "effect")),
    Case(pick_in_the_loan_phase, "nlv.step", words=("loan", "pick")),
    Case(opened_casino, "nlv.occupied", plain=("2.3",)),
    Case(unbuilt_crane, "nlv.crane", plain=("2.4",)),
    Case(other_effect, "nlv.effect", terms=("op",)),
    Case(no_such_casino, "nlv.notation", plain=("'9.9'", "2.5")),
    Case(no_such_upgrade_column, "nlv.notation", plain=("grand, small",)),
    Case(not_a_move, "nlv.notation", plain=("'zz'", "'help'")),
    Case(not_an_action, "nlv.malformed", plain=("('zz', 1)",)),
    Case(unknown_bonus, "nlv.malformed", plain=("'z'",)),
    Case(easy_opening_by_three, "nlv.notation", plain=("1", "2")),
    Case(too_long_a_draft, "nlv.draft", plain=("8",)),
    Case(a_plan_in_a_draft, "nlv.draft", plain=("'a, 2.2'",)),
    Case(refuse_with_a_number, "nlv.refusal"),
)


def test_the_cases_cover_many_rules() -> None:
    assert len({case.rule for case in CASES}) >= 8


@pytest.mark.parametrize("case", CASES, ids=[case.make.__name__ for case in CASES])
def test_a_refusal_is_worded_in_each_language(case: Case, strict: None) -> None:
    err = case.make()
    assert err.rule == case.rule
    assert GAME.describe_error(err, "en") == err.message
    for value in case.plain:
        assert value in err.message
    fields = list(err.fields.values())
    assert sorted(v.key for v in fields if isinstance(v, Term)) == sorted(case.terms)
    assert sorted(str(v) for v in fields if isinstance(v, Word)) == sorted(case.words)
    for key in case.terms:
        assert GLOSSARY[key]["en"] in err.message
    for lang in LANGS:
        text = GAME.describe_error(err, lang)
        assert text != err.message, (lang, text)
        assert "{" not in text and "}" not in text, (lang, text)
        for value in case.plain:
            assert value in text, (lang, value, text)
        for key in case.terms:
            assert GLOSSARY[key][lang] in text, (lang, key, text)
        for word in case.words:
            assert Speaker("newlasvegas", lang).tr(word) in text, (lang, word, text)


def test_english_wording_is_unchanged() -> None:
    assert wrong_step().message == "now is the pick step, not open"
    # the notation's short "eff" is named as the step it belongs to
    assert effect_at_the_pick_step().message == "now is the pick step, not effect"
    assert other_effect().message == "your combination's effect is opening"
    assert opened_casino().message == "casino 2.3 is already opened"
    assert not_a_move().message == "not a New Las Vegas move: 'zz' (type 'help')"
    assert not_an_action().message == "not a New Las Vegas action: ('zz', 1)"
    assert too_long_a_draft().message == "a round has at most 8 steps"


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _raise_sites() -> Iterator[tuple[Path, ast.Call]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called(node) in RAISERS:
                yield path, node


def test_every_refusal_hands_the_catalog_a_literal_template() -> None:
    sites = list(_raise_sites())
    assert len(sites) >= 40
    for path, call in sites:
        where = f"{path.name}:{call.lineno}"
        assert len(call.args) >= 2, where
        template = call.args[1]
        assert isinstance(template, ast.Constant) and isinstance(template.value, str), where
