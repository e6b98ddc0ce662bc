"""Issue 28: refused moves speak the reader's language. Every refusal is raised with a literal
message (a template the catalogs extract) and its fields by keyword; Game.describe_error words it
from the game's catalog, or the shared one for the engine's own refusals, with printed names
(Term) from the game's glossary and catalog words (Word) translated."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import tabletown
from tabletown.core.errors import ActionError, IllegalAction
from tabletown.core.i18n import CORE_DOMAIN, Speaker, Term, Word, refusal
from tabletown.core.registry import get_game

SOURCE = Path(tabletown.__file__).parent
REFUSALS = {"IllegalAction", "MalformedAction", "ActionError"}
LANGS = ("pl", "de", "ru")


def _calls(names: set[str]) -> Iterator[tuple[Path, ast.Call]]:
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in names:
                    yield path, node


def test_every_refusal_is_written_as_a_template_the_catalogs_see():
    wrong = [
        f"{path.relative_to(SOURCE)}:{call.lineno}"
        for path, call in _calls(REFUSALS)
        if len(call.args) < 2
        or not (isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str))
    ]
    assert not wrong, f"refusals whose message is not a literal (f-string, variable): {wrong}"


def test_every_refused_set_up_is_written_as_a_template_the_catalogs_see():
    wrong = [
        f"{path.relative_to(SOURCE)}:{call.lineno}"
        for path, call in _calls({"OptionError"})
        if not call.args
        or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))
    ]
    assert not wrong, f"option errors whose message is not a literal (f-string, variable): {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_set_up_in_a_language(lang, strict):
    from tabletown.core.errors import OptionError

    game = get_game("multicity")
    for options, players in (({"first": "3"}, 2), ({"no_such_option": 1}, 2), ({}, 9)):
        with pytest.raises(OptionError) as caught:
            game.new_game(players, options, seed=1)
        worded = game.describe_error(caught.value, lang)
        assert worded != caught.value.message and "{" not in worded
        assert game.describe_error(caught.value, "en") == caught.value.message


def test_no_server_error_is_an_unmarked_or_formatted_sentence():
    # A TableError's message is N_("...") (with fields by keyword), or another error's own text.
    wrong = []
    for path, call in _calls({"TableError"}):
        if len(call.args) < 3:
            continue
        message = call.args[2]
        if isinstance(message, ast.JoinedStr) or (
            isinstance(message, ast.Constant) and isinstance(message.value, str)
        ):
            wrong.append(f"{path.relative_to(SOURCE)}:{call.lineno}")
    assert not wrong, f"server errors the catalog cannot word: {wrong}"


def test_a_refusal_keeps_its_english_message_and_its_parts():
    error = IllegalAction(
        "x.rule", "seat {seat} does not act now (waiting for {waiting})", seat=2, waiting=(0,)
    )
    assert error.message == "seat 2 does not act now (waiting for (0,))"
    assert str(error) == "seat 2 does not act now (waiting for (0,)) [x.rule]"
    assert error.template.startswith("seat {seat}") and error.fields == {"seat": 2, "waiting": (0,)}
    plain = IllegalAction("x.rule", "a {brace} stays as written")  # no fields: no formatting at all
    assert plain.message == "a {brace} stays as written"


@pytest.mark.parametrize("lang", LANGS)
def test_the_engines_own_refusal_in_a_game(lang, strict):
    game = get_game("machikoro")
    state = game.new_game(2, {}, seed=1)
    mover = state.to_act[0]
    with pytest.raises(ActionError) as caught:
        state.apply_text(1 - mover, "roll")
    error = caught.value
    worded = game.describe_error(error, lang)
    assert worded != error.message and str(1 - mover) in worded and "{" not in worded
    assert game.describe_error(error, "en") == error.message


def test_terms_and_words_are_worded_by_the_glossary_and_the_catalog(strict):
    printed = {("green", "pl"): "zielony"}
    template = "seat {seat} does not act now (waiting for {waiting})"
    text = refusal(
        template, {"seat": 1, "waiting": Term("green")}, CORE_DOMAIN, "pl", lambda k, lang: printed[k, lang]
    )
    assert text == Speaker(CORE_DOMAIN, "pl").tr(template, seat=1, waiting="zielony")
    spectator = refusal(template, {"seat": 1, "waiting": Word("spectator")}, CORE_DOMAIN, "de", str)
    assert Speaker(CORE_DOMAIN, "de").tr("spectator") in spectator
    # English is the template filled in, whatever the fields are
    assert refusal(template, {"seat": 1, "waiting": Term("green", "g")}, CORE_DOMAIN, "en", str).endswith(
        "(waiting for green)"
    )


def test_a_refusal_missing_from_every_catalog_is_caught_by_a_strict_speaker(strict):
    from tabletown.core.i18n import MissingTranslation

    with pytest.raises(MissingTranslation):
        refusal("a sentence no catalog holds", {}, "machikoro", "pl", str)


def test_a_games_printed_name_comes_from_its_glossary():
    game = get_game("lordsofvegas")
    assert game.printed_name("green", "en").lower() == "green"
    assert game.printed_name("green", "pl") not in ("", "green")
    assert game.printed_name("no such key", "pl") == "no such key"


def test_a_broken_translation_falls_back_to_english(monkeypatch):
    import tabletown.core.i18n as i18n

    class Broken:
        _catalog = {"seat {seat} does not act now (waiting for {waiting})": "x"}

        def gettext(self, message):
            return "{nobody} {seat"  # a field never given, and a brace left open

    monkeypatch.setattr(i18n, "catalog", lambda domain, lang: Broken())
    template = "seat {seat} does not act now (waiting for {waiting})"
    text = refusal(template, {"seat": 1, "waiting": (0,)}, "machikoro", "pl", str)
    assert text == "seat 1 does not act now (waiting for (0,))"
