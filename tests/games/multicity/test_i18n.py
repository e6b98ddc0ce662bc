"""Issue 28 for Multicity: every sentence and label in Polish, German and Russian, the glossary of
printed names, the catalogs complete and compiled, and English exactly as it was."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from tabletown.core import catalogs
from tabletown.core.i18n import glossary_term, missing_translations
from tabletown.core.words import Names
from tabletown.games.multicity import GAME
from tabletown.games.multicity.game import MulticityGame
from tabletown.games.multicity.render import (
    _from_start,
    describe_event,
    glossary,
    render_view,
    status_line,
)
from tabletown.games.multicity.tiles import COLOURS
from tabletown.web.boards.multicity import words

LANGS = ("pl", "de", "ru")
ROOT = Path(__file__).resolve().parents[3]
GLOSSARY = ROOT / "src" / "tabletown" / "games" / "multicity" / "glossary.json"
DOC = ROOT / "docs" / "games" / "multicity.md"
NAMES = ["Ana", "Bo", "Cy", "Di"]
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"kids": True},
    {"overlap": "loose"},
    {"deck": 3},
    {"deck": 8, "first": "1"},
    {"deck": 5, "kids": True, "overlap": "loose"},
)


def _games() -> Iterator[Any]:
    """Finished random games: every player count, the main option sets, several seeds."""
    for players in (2, 3, 4):
        for options in OPTION_SETS:
            for seed in range(4):
                state = GAME.new_game(players, options, seed=seed)
                rng = random.Random(seed * 31 + players)
                while not state.is_over:
                    seat = state.to_act[0]
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                yield state


def _events() -> list[tuple[int, dict[str, Any]]]:
    """(players, event) for every different event of the random games."""
    seen: dict[str, tuple[int, dict[str, Any]]] = {}
    for state in _games():
        for event in state.events(None):
            key = json.dumps({k: v for k, v in event.items() if k != "i"}, sort_keys=True, default=list)
            seen.setdefault(key, (state.num_players, event))
    return list(seen.values())


def _kind(event: dict[str, Any]) -> str:
    if event["kind"] == "game_over":
        return "shared_win" if len(event["winners"]) > 1 else event["reason"]
    return str(event["kind"])


def test_every_event_in_every_language_for_every_reader(strict: None) -> None:
    events = _events()
    kinds = {_kind(e) for _, e in events}
    assert {"shuffle", "start_tile", "first_player", "draw", "lay", "place", "final_round", "pass", "turn_lost",
            "shared_win", "six_objects"} <= kinds  # fmt: skip
    for lang in LANGS:
        differs = 0
        for players, event in events:
            readers = [None] + [Names(NAMES[:players], viewer) for viewer in (None, *range(players))]
            for names in readers:
                text = describe_event(event, names, lang)
                assert text and "{" not in text and "}" not in text, (lang, event, text)
                differs += text != describe_event(event, names)
        assert differs > len(events), lang


def _screen(view: Any, lang: str, height: int = 40) -> str:
    console = Console(width=100, height=height, record=True, color_system=None, file=io.StringIO())
    console.print(render_view(view, lang=lang))
    return console.export_text()


def test_terminal_picture_and_prompt_in_every_language(strict: None) -> None:
    """Header, cropped city window, drawn tile, players' table, legend, final round and prompt."""
    state = GAME.new_game(3, {"kids": True, "overlap": "loose", "deck": 12}, seed=4)
    rng = random.Random(4)
    views = []
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        views.append(state.view(seat, since=max(0, len(state.events(None)) - 8)))
    views.append(state.view(None))
    assert any(v["state"]["drawn"] for v in views)
    for lang in LANGS:
        texts = [_screen(v, lang, height=20) for v in views]
        texts += [status_line(v, lang) for v in views]
        for text in texts:
            assert "{" not in text and "}" not in text, text
        assert texts != [_screen(v, "en", height=20) for v in views] + [status_line(v) for v in views]
        joined = "\n".join(texts)
        for colour in COLOURS[:3]:
            assert glossary_term(glossary(), colour, lang) in joined
    assert isinstance(GAME, MulticityGame)  # (its status_line takes the language)
    assert GAME.status_line(views[0], lang="pl") == status_line(views[0], "pl")
    assert "wariant dla najmłodszych, luźne nakładanie" in " ".join(_screen(views[0], "pl").split())
    assert "Stadtausschnitt: x " in " ".join(_screen(views[-2], "de", height=20).split())


def test_catalogs_are_complete_and_compiled() -> None:
    assert missing_translations(["multicity"]) == []
    assert [path for path in catalogs.stale() if "multicity" in path] == []


def test_glossary_has_every_language_and_source_and_the_docs_list_it() -> None:
    terms = json.loads(GLOSSARY.read_text(encoding="utf-8"))["terms"]
    assert {"green", "red", "blue", "yellow", "hole", "tile", "object", "final_round", "kids"} <= set(terms)
    for key, entry in terms.items():
        for lang in ("en", *LANGS):
            assert isinstance(entry.get(lang), str) and entry[lang].strip(), (key, lang)
        for lang in LANGS:
            assert entry["source"][lang].strip(), (key, lang)
    # English names are the game's own words.
    assert [terms[c]["en"] for c in COLOURS] == list(COLOURS)
    assert terms["kids"]["en"] == "kids' variant" and terms["hole"]["en"] == "hole"
    # The docs' table lists exactly the glossary's terms.
    section = DOC.read_text(encoding="utf-8").split("## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = [
        line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| English")
    ]
    table = [tuple(cell.strip() for cell in row.strip("|").split("|")[:4]) for row in rows]
    assert sorted(table) == sorted((e["en"], e["pl"], e["de"], e["ru"]) for e in terms.values())


def test_plural_forms(strict: None) -> None:
    for lang in ("pl", "ru"):
        forms = {n: _from_start(3 * n, 0, lang) for n in (1, 2, 5)}
        assert len({re.sub(r"\d+", "N", text) for text in forms.values()}) == 3, forms
        assert {n: _from_start(3 * n, 0, lang) for n in (21, 22, 25)} != forms
    assert _from_start(3, 0, "pl") == "o 1 miejsce w prawo od płytki startowej"
    assert _from_start(6, 0, "pl") == "o 2 miejsca w prawo od płytki startowej"
    assert _from_start(15, 0, "pl") == "o 5 miejsc w prawo od płytki startowej"
    assert _from_start(0, -3, "ru") == "на 1 позицию выше стартовой плитки"
    assert _from_start(0, -6, "ru") == "на 2 позиции выше стартовой плитки"
    assert _from_start(0, -15, "ru") == "на 5 позиций выше стартовой плитки"
    assert _from_start(-3, 0, "de") != _from_start(-6, 0, "de").replace("2", "1")  # Platz / Plätze
    view = GAME.new_game(2, {"first": "0"}, seed=1).view(0)
    for stack, ending in ((1, "płytka"), (2, "płytki"), (5, "płytek"), (22, "płytki")):
        view["state"]["stack"] = stack
        assert status_line(view, "pl").endswith(f"w stosie {stack} {ending}")


def test_english_is_what_it_was() -> None:
    """Sentences the renderer said before it spoke through catalogs (kept from the old render.py)."""
    names = Names(["Ana", "Bo", "Cy"], 0)
    cases: list[tuple[dict[str, Any], Names | None, str]] = [
        ({"kind": "shuffle", "tiles": 32}, None, "the 32 city tiles are shuffled face down"),
        ({"kind": "start_tile", "tile": 9}, names, "Tile 9 is turned up as the start of the city"),
        ({"kind": "first_player", "seat": 1, "drawn": True}, None, "seat 1 (red) plays first (drawn at random)"),
        ({"kind": "first_player", "seat": 0, "drawn": False}, names, "You play first (set by the options)"),
        ({"kind": "draw", "seat": 1, "tile": 14, "stack": 20}, None, "seat 1 (red) draws tile 14 (20 left in the stack)"),
        ({"kind": "draw", "seat": 1, "tile": 14, "stack": 20}, names, "Bo draws a tile (20 left in the stack)"),
        ({"kind": "lay", "seat": 0, "tile": 14, "x": -6, "y": 0, "turn": 2}, None, "seat 0 (green) lays tile 14 at -6,0 turned r2"),
        ({"kind": "lay", "seat": 0, "tile": 14, "x": -6, "y": 0, "turn": 2}, names,
         "You lay the tile 2 tiles left from the start tile, turned half round"),
        ({"kind": "lay", "seat": 1, "tile": 14, "x": 3, "y": -6, "turn": 3}, names,
         "Bo lays the tile 1 tile right and 2 up from the start tile, turned a quarter anticlockwise"),
        ({"kind": "place", "seat": 2, "length": 5, "x": 1, "y": -1, "vertical": False}, None,
         "seat 2 (blue) places its 5-object from 1,-1 to 5,-1"),
        ({"kind": "place", "seat": 2, "length": 5, "x": 1, "y": -1, "vertical": False}, names,
         "Cy places their 5-field object, lying"),
        ({"kind": "final_round", "seat": 1, "first_seat": 0}, None,
         "seat 1 (red) laid the last tile: everyone may place one more object, from seat 0 (green)"),
        ({"kind": "final_round", "seat": 1, "first_seat": 0}, names,
         "Bo laid the last tile: everyone may place one more object, from you"),
        ({"kind": "pass", "seat": 0}, names, "You place nothing in the final round"),
        ({"kind": "turn_lost", "seat": 1}, names, "Bo cannot place any object and loses the turn"),
        ({"kind": "game_over", "winners": [0, 2], "reason": "fewest_squares"}, None, "shared win: seat 0 (green), seat 2 (blue)"),
        ({"kind": "game_over", "winners": [0, 2], "reason": "fewest_squares"}, names, "Shared win: you, Cy"),
        ({"kind": "game_over", "winners": [1], "reason": "fewest_squares"}, None, "seat 1 (red) wins with the fewest squares left to place"),
        ({"kind": "game_over", "winners": [0], "reason": "six_objects"}, names, "You have placed all six objects and win"),
        # The old code repeated the seat here ("... and 1 (red) loses the turn"); fixed with the catalogs.
        ({"kind": "turn_lost", "seat": 1}, None, "seat 1 (red) cannot place any object and loses the turn"),
        ({"kind": "game_over", "winners": [0], "reason": "six_objects"}, None, "seat 0 (green) has placed all six objects and wins"),
    ]  # fmt: skip
    for event, reader, expected in cases:
        assert describe_event({"i": 0, **event}, reader) == expected
        assert GAME.describe_event({"i": 0, **event}, reader, "en") == expected
    state = GAME.new_game(3, {"first": "0"}, seed=5)
    assert (
        status_line(state.view(1))
        == "P1 (you, red): 27 squares left, objects 2, 3, 4, 5, 6, 7; play, 31 tiles in the stack"
    )
    assert GAME.status_line(state.view(None)) == "spectator; play, 31 tiles in the stack"
    header = _screen(state.view(0), "en").splitlines()[0]
    assert header == "Multicity — seat 0 to play · play · stack: 31 tiles · first player: seat 0"


def test_board_words_use_the_printed_names() -> None:
    english = {
        "colours": list(COLOURS),
        "letters": {"g": "green", "r": "red", "b": "blue", "y": "yellow", "o": "hole"},
        "phases": {"play": "play", "final_round": "final round", "over": "over"},
        "seat_names": ["seat 0 (green)", "seat 1 (red)", "seat 2 (blue)", "seat 3 (yellow)"],
    }
    assert words() == english and words("en") == english
    terms = glossary()
    for lang in LANGS:
        board = words(lang)
        assert set(board) == set(english)
        printed = [glossary_term(terms, colour, lang) for colour in COLOURS]
        assert board["colours"] == printed
        assert list(board["letters"].values()) == [*printed, glossary_term(terms, "hole", lang)]
        assert board["phases"]["final_round"] == glossary_term(terms, "final_round", lang)
        assert all(name in seat for name, seat in zip(printed, board["seat_names"], strict=True))
        assert words(lang) is board  # cached per language
