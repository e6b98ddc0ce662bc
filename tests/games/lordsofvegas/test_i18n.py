"""Issue 28 for Lords of Vegas: the game in Polish, German and Russian. Every event and terminal text
is in the catalogs (strict Speaker), plurals take each language's forms, the printed names come from
glossary.json (documented in the docs table, typed in the notation, shown on the browser board), and
the English output is the one the terminal always printed."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tabletown.core import catalogs
from tabletown.core.i18n import glossary_term, missing_translations
from tabletown.core.words import Names
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.game import LordsOfVegasGame
from tabletown.games.lordsofvegas.render import _WORDS, describe_event, glossary, log_lines, status_line
from tabletown.web.boards.lordsofvegas import words

LANGS = ("pl", "de", "ru")
NAMES = ["Ann", "Bob", "Cy", "Di"]
DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "lordsofvegas.md"
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"open_market": True},
    {"markers_full": "hold", "max_offers": 0},
    {"open_market": True, "markers_full": "hold", "max_offers": 6},
)
# Events random games seldom reach, written as the game writes them.
RARE: tuple[dict[str, Any], ...] = (
    {"i": 0, "kind": "counter", "seat": 1},
    {"i": 0, "kind": "must_free_lot", "seat": 2, "lot": "c4"},
    {"i": 0, "kind": "free_lot", "seat": 0, "lot": "c4", "target": "a1"},
    {"i": 0, "kind": "game_over", "reason": "instant_win", "seat": 1},
    {"i": 0, "kind": "take_over", "seat": 1, "lot": "c5", "from_seat": None, "value": 3},
    {"i": 0, "kind": "take_over", "seat": 1, "lot": "c5", "from_seat": 0, "value": 3},
    {"i": 0, "kind": "dealt_again", "seat": 1, "lot": "f2"},
    {"i": 0, "kind": "must_move_die", "seat": 0, "lot": "b2"},
    {"i": 0, "kind": "move_die", "seat": 0, "from_lot": "c2", "to_lot": "b2", "value": 4},
    {
        "i": 0,
        "kind": "offer",
        "seat": 0,
        "items": [
            {"giver": 0, "receiver": 1, "kind": "no-reorg", "value": "c5"},
            {"giver": 0, "receiver": 1, "kind": "no-gamble", "value": None},
            {"giver": 1, "receiver": 0, "kind": "die", "value": "c5"},
        ],
    },
)


def _games() -> Iterator[tuple[int, Any]]:
    for players in (2, 3, 4):
        for options in OPTION_SETS:
            for seed in (1, 2):
                rng = random.Random(seed * 10 + players)
                state = GAME.new_game(players, options, seed=seed)
                while state.to_act:
                    seat = state.to_act[0]
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                yield players, state


@pytest.fixture(scope="module")
def played() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Events of every kind (at most 25 of each, from every player count and option set) and views."""
    events: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    per_kind: dict[str, int] = {}
    for players, state in _games():
        for event in state.view(None)["events"]:
            if per_kind.get(event["kind"], 0) < 25:
                per_kind[event["kind"]] = per_kind.get(event["kind"], 0) + 1
                events.append(event)
        views += [state.view(seat) for seat in (None, *range(players))][:2]
    return events + [dict(e) for e in RARE], views


def test_every_event_and_terminal_text_in_every_language(strict: None, played: Any) -> None:
    events, views = played
    game = GAME
    assert isinstance(game, LordsOfVegasGame)
    assert {e["kind"] for e in events} == set(_WORDS)
    readers = [None, Names(NAMES, None)] + [Names(NAMES, seat) for seat in range(4)]
    for lang in LANGS:
        differ = 0
        for event in events:
            for reader in readers:
                text = describe_event(event, reader, lang)
                assert text and "{" not in text, (lang, event, text)
                differ += text != describe_event(event, reader)
            for line in log_lines(event, lang):
                assert "{" not in line
        assert differ > len(events)
        console = Console(width=120, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
        for view in views:
            console.print(game.render(view, lang=lang))
            line = status_line(view, lang=lang)
            assert "{" not in line and line != status_line(view)
            assert game.status_line(view, lang=lang) == line
        screen = console.export_text()
        assert "{" not in screen
        assert glossary_term(glossary(), "strip", lang) in screen


def test_catalogs_complete_and_compiled() -> None:
    assert missing_translations(["lordsofvegas"]) == []
    assert not [path for path in catalogs.stale() if "lordsofvegas" in path]


def test_glossary_languages_sources_and_docs_table() -> None:
    terms = glossary()
    assert len(terms) >= 20
    for key, entry in terms.items():
        for lang in ("en", *LANGS):
            assert entry[lang], (key, lang)
        assert all(entry["source"][lang] for lang in LANGS), key
    for colour in ("green", "brown", "gold", "purple", "silver", "strip", "game_end"):
        assert colour in terms
    assert terms["game_end"]["ru"] == "Окончание игры"  # as the Russian rulebook prints it
    text = DOCS.read_text(encoding="utf-8")
    table = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    assert "| English | Polski | Deutsch | Русский | Source |" in table
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| English")]
    listed = sorted(tuple(cell.strip() for cell in row.strip("|").split("|")[:4]) for row in rows)
    expected = sorted((e["en"], e["pl"], e["de"], e["ru"]) for e in terms.values())
    assert listed == expected
    assert "## Languages" in text


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_three_plural_forms(strict: None, lang: str) -> None:
    event = {"i": 0, "kind": "casino_pays", "casino": "d2", "color": "green", "amounts": [4, 1], "boss": 1}
    texts = {n: describe_event({**event, "size": n}, None, lang) for n in (1, 2, 5, 22)}
    assert len({texts[1], texts[2], texts[5]}) == 3
    assert texts[22].replace("22", "2") == texts[2]  # 22 takes the form of 2
    if lang == "pl":
        assert "(1 płytka)" in texts[1] and "(2 płytki)" in texts[2] and "(5 płytek)" in texts[5]
        assert texts[5].endswith("zdobywa 5 punktów")
    else:
        assert "(1 жетон)" in texts[1] and "(2 жетона)" in texts[2] and "(5 жетонов)" in texts[5]
        assert texts[1].endswith("получает 1 очко")


def test_german_two_plural_forms(strict: None) -> None:
    event = {"i": 0, "kind": "casino_pays", "casino": "d2", "color": "gold", "amounts": [4], "boss": 0}
    one, two = (describe_event({**event, "size": n}, None, "de") for n in (1, 2))
    assert one.endswith("erhält 1 Punkt") and two.endswith("erhält 2 Punkte")
    assert "Kasino in Gold" in one


# The English sentences as the renderer wrote them before it spoke through the catalogs (reader: None
# = no names; then Ann/Bob... with nobody, the event's seat, then the other party (OTHER) reading).
OTHER = {"dealt": None, "gamble": 1, "offer": None, "casino_pays": 0, "gamble_roll": 0, "take_over": 0}
ENGLISH: tuple[tuple[dict[str, Any], tuple[str, str, str, str]], ...] = (
    (
        {"kind": "dealt", "seat": 0, "lots": ["d1", "d3"], "money": 10},
        (
            "P0 is dealt D1 and D3: markers placed, starts with $10",
            "Ann is dealt D1 and D3: markers placed, starts with $10",
            "You are dealt D1 and D3: markers placed, start with $10",
            "Ann is dealt D1 and D3: markers placed, starts with $10",
        ),
    ),
    (
        {"kind": "gamble", "seat": 0, "boss": 1, "casino": "a3", "color": "green", "bet": 1},
        (
            "P0 bets $1 at P1's green casino at A3",
            "Ann bets $1 at Bob's green casino at A3",
            "You bet $1 at Bob's green casino at A3",
            "Ann bets $1 at your green casino at A3",
        ),
    ),
    (
        {
            "kind": "offer",
            "seat": 0,
            "items": [
                {"giver": 0, "receiver": 1, "kind": "$", "value": 8},
                {"giver": 1, "receiver": 0, "kind": "lot", "value": "c5"},
            ],
        },
        (
            "P0 offers: P0 gives $8 to P1; P1 gives lot C5 to P0",
            "Ann offers: Ann gives $8 to Bob; Bob gives lot C5 to Ann",
            "You offer: you give $8 to Bob; Bob gives lot C5 to you",
            "Ann offers: Ann gives $8 to Bob; Bob gives lot C5 to Ann",
        ),
    ),
    (
        {"kind": "casino_pays", "casino": "d2", "color": "green", "size": 2, "amounts": [4, 1], "boss": 0},
        (
            "the green casino at D2 (2 tiles) pays P0 $4, P1 $1; its boss, P0, scores 2 points",
            "The green casino at D2 (2 tiles) pays Ann $4, Bob $1; its boss, Ann, scores 2 points",
            "The green casino at D2 (2 tiles) pays Ann $4, Bob $1; its boss, Ann, scores 2 points",
            "The green casino at D2 (2 tiles) pays you $4, Bob $1; you, its boss, score 2 points",
        ),
    ),
    (
        {
            "kind": "gamble_roll",
            "seat": 1,
            "boss": 0,
            "dice": [2, 1],
            "total": 3,
            "layoff": True,
            "bet": 10,
            "won": True,
            "stake": 10,
            "boss_pays": 5,
            "bank_pays": 5,
        },
        (
            "P1 rolls 2+1=3 and wins $10 (half laid off to the bank): P0 pays $5, the bank $5",
            "Bob rolls 2+1=3 and wins $10 (half laid off to the bank): Ann pays $5, the bank $5",
            "You roll 2+1=3 and win $10 (half laid off to the bank): Ann pays $5, the bank $5",
            "Bob rolls 2+1=3 and wins $10 (half laid off to the bank): you pay $5, the bank $5",
        ),
    ),
    (
        {"kind": "take_over", "seat": 1, "lot": "e6", "value": 6, "from_seat": 0},
        (
            "P1 takes over E6: P0's die is replaced, still showing 6",
            "Bob takes over E6: Ann's die is replaced, still showing 6",
            "You take over E6: Ann's die is replaced, still showing 6",
            "Bob takes over E6: your die is replaced, still showing 6",
        ),
    ),
    (
        {"kind": "move_die", "seat": 1, "from_lot": "c2", "to_lot": "d3", "value": 4},
        (
            "P1 moves their die from C2 to D3 (showing 4); C2 is left without a die",
            "Bob moves their die from C2 to D3 (showing 4); C2 is left without a die",
            "You move your die from C2 to D3 (showing 4); C2 is left without a die",
            "Bob moves their die from C2 to D3 (showing 4); C2 is left without a die",
        ),
    ),
)


@pytest.mark.parametrize(("event", "expected"), ENGLISH)
def test_english_output_is_the_old_output(event: dict[str, Any], expected: tuple[str, ...]) -> None:
    other = OTHER.get(event["kind"], 0)
    readers = (None, Names(NAMES), Names(NAMES, event.get("seat")), Names(NAMES, other))
    assert tuple(describe_event(event, reader) for reader in readers) == expected
    assert tuple(describe_event(event, reader, "en") for reader in readers) == expected


def test_english_reorganize_for_the_reader() -> None:
    """The one English sentence that changed: the reader's form of "reorganizes" read "reorganiz"."""
    event = {"kind": "reorg", "seat": 0, "casino": "c11", "color": "green", "cost": 2}
    event["rolls"] = [{"seat": 0, "values": [5]}, {"seat": 1, "values": [2, 3]}]
    assert describe_event(event) == "P0 reorganizes the green casino at C11 for $2: P0 rolls 5; P1 rolls 2, 3"
    assert describe_event(event, Names(NAMES, 0)) == (
        "You reorganize the green casino at C11 for $2: you roll 5; Bob rolls 2, 3"
    )


@pytest.mark.parametrize(
    ("typed", "colour"),
    [
        ("build a2 gold", "gold"),
        ("build a2 złote", "gold"),
        ("build a2 ZLOTE", "gold"),
        ("build a2 Gold", "gold"),
        ("build a2 золотое", "gold"),
        ("build a2 Золотой", "gold"),
        ("build a2 lila", "purple"),
        ("build a2 фиолетовое", "purple"),
        ("build a2 brązowe", "brown"),
        ("build a2 Grün", "green"),
        ("build a2 grun", "green"),
        ("build a2 зелёное", "green"),
        ("build a2 srebrne", "silver"),
    ],
)
def test_notation_reads_printed_colour_names(typed: str, colour: str) -> None:
    state = GAME.new_game(2, {}, seed=1)
    action = state.parse_action(typed, 0)
    assert state.format_action(action) == f"build a2 {colour}"  # written back in English


def test_board_words_carry_the_printed_names() -> None:
    english = words()
    assert "names" not in english and english["streets"]["7"] == ["Monte Carlo", ""]
    assert words("en") == english
    terms = glossary()
    for lang in LANGS:
        local = words(lang)
        assert words(lang) is local  # cached per language
        assert {k: v for k, v in local.items() if k not in ("names", "streets")} == {
            k: v for k, v in english.items() if k != "streets"
        }
        for key, entry in terms.items():
            assert local["names"][key] == entry[lang]
        streets = [name for names in local["streets"].values() for name in names if name]
        assert set(streets) <= {entry[lang] for entry in terms.values()}
    assert words("ru")["streets"]["7"] == ["Монте-Карло", ""]
    assert json.dumps(words("pl"), ensure_ascii=False)
    assert re.search("złote", json.dumps(words("pl"), ensure_ascii=False))
