"""Issue 28 for Machi Koro: the game in Polish, German and Russian, English exactly as before."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tabletown.core import catalogs
from tabletown.core.i18n import missing_translations
from tabletown.core.words import Names
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import Build
from tabletown.games.machikoro.data import all_cards
from tabletown.games.machikoro.notation import _folded, format_action, parse_action
from tabletown.games.machikoro.render import (
    describe_event,
    describe_pending,
    glossary,
    render_view,
    status_line,
)
from tabletown.web.boards.machikoro import words

from .test_contract2 import EVENT_KINDS

LANGS = ("pl", "de", "ru")
NAMES = ["Ala", "Olek", "Zenon", "Dora", "Ewa"]
ROOT = Path(__file__).resolve().parents[3]

# Kinds a random game rarely reaches, as the rules write them (seat 0 acting, seat 1 the other city).
RARE_EVENTS = [
    {"kind": "harbor_add", "seat": 0, "total": 12},
    {"kind": "airport", "seat": 1, "amount": 10},
    {"kind": "extra_turn", "seat": 0},
    {"kind": "no_swap", "seat": 1},
    {"kind": "swap_impossible", "seat": 0},
    {"kind": "swap_impossible", "seat": 1},
    {"kind": "market_shuffled", "count": 1},
    {"kind": "market_shuffled", "count": 3},
    {"kind": "pay", "seat": 0, "to": 1, "amount": 1, "due": 3, "card": "cafe", "copies": 3},
    {"kind": "take", "seat": 1, "from": 0, "amount": 2, "due": 5, "card": "tv"},
    {"kind": "take", "seat": 0, "from": 1, "amount": 2, "due": 5, "card": "tv"},
    {"kind": "swap", "seat": 0, "mine": "wheat", "target": 1, "theirs": "mine"},
    {"kind": "swap", "seat": 1, "mine": "bakery", "target": 0, "theirs": "cafe"},
    {"kind": "swap", "seat": 1, "mine": "bakery", "target": 2, "theirs": "cafe"},
    {"kind": "win", "seat": 1, "turns": 1},
    {"kind": "win", "seat": 0, "turns": 22},
]


def _games() -> Iterator[tuple[int, Any, list[dict[str, Any]]]]:
    """Finished seeded games over every player count (5 with the fifth-player option), with and without
    Harbor, each market; the moves random, with a lean towards building so that games end."""
    rng = random.Random(28)
    number = 0
    for players in (2, 3, 4, 5):
        for harbor in (False, True):
            for market in ("all", "ten", "hybrid"):
                options = {
                    "harbor": harbor,
                    "market": market,
                    "fifth_player": players == 5,
                    "city_hall": ("broke", "every_turn")[number % 2],
                }
                state = GAME.new_game(players, options, seed=2800 + number)
                number += 1
                views = []
                while state.to_act:
                    (seat,) = state.to_act
                    if rng.random() < 0.03:
                        views.append(state.view(seat))
                    actions = state.legal_actions(seat)
                    builds = [a for a in actions if type(a) is Build]
                    state.apply(
                        seat, rng.choice(builds) if builds and rng.random() < 0.7 else rng.choice(actions)
                    )
                views += [state.view(None), state.view(0)]
                yield players, state, views


@cache
def collected() -> tuple[list[tuple[int, dict[str, Any]]], list[dict[str, Any]]]:
    """Every distinct event (with its game's player count) and some views, from the games above."""
    events: dict[str, tuple[int, dict[str, Any]]] = {}
    views: list[dict[str, Any]] = []
    for players, state, game_views in _games():
        for i, event in enumerate(state.log):
            data = event.to_json(i)
            key = json.dumps({k: v for k, v in data.items() if k != "i"}, sort_keys=True)
            events.setdefault(key, (players, data))
        views += game_views
    for event in RARE_EVENTS:
        events.setdefault(json.dumps(event, sort_keys=True), (3, event))
    return list(events.values()), views


# (a) ---------------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("strict")
def test_every_event_kind_in_every_language_for_every_reader() -> None:
    events, _ = collected()
    assert {event["kind"] for _, event in events} >= EVENT_KINDS
    for lang in LANGS:
        differs = 0
        for players, event in events:
            readers = [Names(NAMES[:players])] + [Names(NAMES[:players], viewer=s) for s in range(players)]
            english = describe_event(event)
            for names in [None, *readers]:
                text = describe_event(event, names, lang)
                assert text and "{" not in text and "}" not in text, (lang, event, text)
                assert not text.startswith(f"{event['kind']}:"), (lang, event)
            differs += describe_event(event, None, lang) != english
        assert differs > len(events) // 2, lang


@pytest.mark.usefixtures("strict")
def test_pending_status_and_board_in_every_language() -> None:
    _, views = collected()
    for lang in LANGS:
        changed = 0
        for view in views[::3]:
            for text in (describe_pending(view, lang), status_line(view, lang)):
                assert text and "{" not in text, (lang, text)
            changed += describe_pending(view, lang) != describe_pending(view)
            console = Console(width=100, color_system=None, file=io.StringIO())
            console.print(render_view(view, lang))
            screen = console.file.getvalue()  # type: ignore[attr-defined]  # the StringIO above
            assert "{" not in screen and "Market:" not in screen and "Landmarks:" not in screen, lang
        assert changed, lang
    view = views[-1]
    assert GAME.status_line(view, lang="de") == status_line(view, "de")
    assert GAME.status_line(view) == status_line(view)


def test_a_polish_german_and_russian_turn_reads_naturally() -> None:
    reader = Names(["Ala", "Olek"], viewer=0)
    pay = {"kind": "pay", "seat": 1, "to": 0, "amount": 2, "due": 2, "card": "cafe", "copies": 2}
    build = {"kind": "build", "seat": 0, "card": "station", "cost": 4}
    assert describe_event(pay, reader, "pl") == "Olek płaci graczowi Ala 2 monety (Kawiarnia ×2)."
    assert describe_event(build, reader, "pl") == "Budujesz za 4 monety: Dworzec kolejowy."
    assert describe_event(pay, reader, "de") == "Olek zahlt 2 Münzen an Ala (Café ×2)."
    assert describe_event(build, reader, "de") == "Du baust für 4 Münzen: Bahnhof."
    assert describe_event(pay, reader, "ru") == "Olek платит игроку Ala 2 монеты (Кафе ×2)."
    assert describe_event(build, reader, "ru") == "Вы строите за 4 монеты: Вокзал."


# (b), (c) ---------------------------------------------------------------------------------------------
def test_catalogs_are_complete_and_compiled() -> None:
    assert missing_translations(["machikoro"]) == []
    assert [path for path in catalogs.stale() if "machikoro" in path] == []
    for lang in LANGS:
        assert (ROOT / f"src/tabletown/games/machikoro/locale/{lang}/LC_MESSAGES/machikoro.mo").exists()


# (d) ---------------------------------------------------------------------------------------------------
def test_glossary_names_every_card_in_four_languages_with_sources() -> None:
    terms = glossary()
    assert {card.code for card in all_cards()} <= set(terms)
    for key, entry in terms.items():
        for lang in ("en", *LANGS):
            assert isinstance(entry[lang], str) and entry[lang].strip(), (key, lang)
        assert set(entry["source"]) == set(LANGS), key
        assert all(entry["source"][lang].strip() for lang in LANGS), key
    for card in all_cards():
        assert terms[card.code]["en"] == card.name, card.code  # English: the game's own names
        if card.name_pl:
            assert terms[card.code]["pl"] == card.name_pl, card.code  # the card data's Polish names agree


def test_docs_glossary_table_lists_exactly_the_glossary() -> None:
    text = (ROOT / "docs/games/machikoro.md").read_text(encoding="utf-8")
    assert "\n## Languages\n" in text
    section = text.split("\n## Glossary\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert lines[0].replace(" ", "") == "|English|Polski|Deutsch|Русский|Source|"
    rows = [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines[2:]]
    table = {(row[0], row[1], row[2], row[3]) for row in rows}
    expected = {(e["en"], e["pl"], e["de"], e["ru"]) for e in glossary().values()}
    assert table == expected and len(rows) == len(glossary())


# (e) ---------------------------------------------------------------------------------------------------
def test_plural_forms() -> None:
    def income(amount: int, lang: str) -> str:
        event = {"kind": "income", "seat": 1, "amount": amount, "card": "bakery", "copies": 1}
        return describe_event(event, Names(["Ala", "Olek"]), lang).replace(str(amount), "N")

    for lang in ("pl", "ru"):
        assert len({income(n, lang) for n in (1, 2, 5)}) == 3, lang
        assert income(22, lang) == income(2, lang) and income(12, lang) == income(5, lang), lang
    assert income(1, "de") != income(2, "de") and income(2, "de") == income(5, "de")
    assert income(1, "pl") == "Olek bierze z banku N monetę (Piekarnia)."
    assert income(5, "ru") == "Olek берёт из банка N монет (Пекарня)."
    win = {"kind": "win", "seat": 0, "turns": 21}
    assert (
        describe_event(win, None, "ru") == "P0 побеждает после 21 хода: все достопримечательности построены."
    )
    assert describe_event(win, None, "pl").endswith("po 21 turach.")


# (f) ---------------------------------------------------------------------------------------------------
ENGLISH = [
    (
        {"kind": "start", "players": 3, "coins": 3, "first": 0},
        None,
        "Game starts: 3 players, 3 coins each; P0 begins.",
    ),
    (
        {"kind": "start", "players": 3, "coins": 3, "first": 0},
        0,
        "Game starts: 3 players, 3 coins each; you begin.",
    ),
    ({"kind": "market_shuffled", "count": 3}, None, "The supply is shuffled into the market decks."),
    ({"kind": "market_reveal", "cards": ["sushi", "tuna"]}, None, "Market reveals: Sushi Bar, Tuna Boat."),
    ({"kind": "roll", "seat": 1, "dice": [5, 6], "total": 11}, 1, "You roll 5+6 = 11."),
    ({"kind": "reroll", "seat": 0}, 1, "Alice uses the Radio Tower to re-roll."),
    ({"kind": "harbor_add", "seat": 0, "total": 12}, None, "P0 uses the Harbor: the roll counts as 12."),
    (
        {"kind": "pay", "seat": 0, "to": 1, "amount": 1, "due": 3, "card": "cafe", "copies": 3},
        0,
        "You owe Bob 3 for Cafe ×3 but pay only 1.",
    ),
    (
        {"kind": "pay", "seat": 0, "to": 1, "amount": 1, "due": 3, "card": "cafe", "copies": 3},
        1,
        "Alice owes you 3 for Cafe ×3 but pays only 1.",
    ),
    (
        {"kind": "tuna_roll", "seat": 2, "dice": [3, 4], "total": 7},
        None,
        "P2 rolls 3+4 = 7 for the Tuna Boats.",
    ),
    (
        {"kind": "take", "seat": 1, "from": 0, "amount": 2, "due": 5, "card": "tv"},
        1,
        "Alice pays you 2 coins (of 5 due) for the TV Station.",
    ),
    (
        {"kind": "take", "seat": 0, "from": 2, "amount": 2, "due": 2, "card": "stadium"},
        0,
        "Carol pays you 2 coins for the Stadium.",
    ),
    ({"kind": "swap_impossible", "seat": 0}, None, "P0's Business Center finds nothing to swap."),
    ({"kind": "swap_impossible", "seat": 0}, 0, "Your Business Center finds nothing to swap."),
    ({"kind": "no_swap", "seat": 2}, 0, "Carol makes no Business Center swap."),
    (
        {"kind": "swap", "seat": 0, "mine": "wheat", "target": 1, "theirs": "mine"},
        None,
        "P0 swaps their Wheat Field for P1's Mine.",
    ),
    (
        {"kind": "swap", "seat": 0, "mine": "wheat", "target": 1, "theirs": "mine"},
        0,
        "You swap your Wheat Field for Bob's Mine.",
    ),
    (
        {"kind": "swap", "seat": 0, "mine": "wheat", "target": 1, "theirs": "mine"},
        1,
        "Alice swaps their Wheat Field for your Mine.",
    ),
    ({"kind": "city_hall", "seat": 0, "amount": 1}, 0, "You take 1 coin from the City Hall."),
    (
        {"kind": "build", "seat": 1, "card": "station", "cost": 4},
        1,
        "You build the Train Station for 4 coins.",
    ),
    ({"kind": "build", "seat": 0, "card": "wheat", "cost": 1}, None, "P0 builds a Wheat Field for 1 coin."),
    ({"kind": "build", "seat": 0, "card": "apple", "cost": 3}, 0, "You build an Apple Orchard for 3 coins."),
    ({"kind": "build", "seat": 1, "card": "apple", "cost": 3}, 0, "Bob builds an Apple Orchard for 3 coins."),
    ({"kind": "win", "seat": 1, "turns": 30}, None, "P1 has built every landmark and wins after 30 turns."),
    ({"kind": "win", "seat": 1, "turns": 30}, 1, "You have built every landmark and win after 30 turns."),
    ({"kind": "airport", "seat": 1, "amount": 10}, 0, "Bob built nothing: the Airport pays 10 coins."),
    ({"kind": "extra_turn", "seat": 0}, 0, "You rolled doubles: the Amusement Park gives another turn."),
    ({"kind": "pass", "seat": 0}, 0, "You build nothing."),
]


@pytest.mark.parametrize(("event", "viewer", "expected"), ENGLISH)
def test_english_is_the_text_it_always_was(event: dict[str, Any], viewer: int | None, expected: str) -> None:
    names = None if viewer is None else Names(["Alice", "Bob", "Carol"], viewer=viewer)
    assert describe_event(event, names) == expected
    assert describe_event(event, names, "en") == expected
    assert GAME.describe_event(event, names, "en") == expected


def test_english_board_texts_are_unchanged() -> None:
    state = GAME.new_game(2, {}, seed=4)
    view = state.view(0)
    assert describe_pending(view) == describe_pending(view, "en") == "P0 to roll (roll)."
    assert status_line(view) == "P0 (you): 3 coins, 0/4 landmarks; turn 1, P0 roll"
    assert status_line(state.view(None)) == "spectator; turn 1, P0 roll"
    console = Console(width=120, color_system=None, file=io.StringIO())
    console.print(GAME.render(view))
    screen = console.file.getvalue()  # type: ignore[attr-defined]  # the StringIO above
    assert screen.startswith("Machi Koro — turn 1, not rolled yet\nP0 (you) ◀ to act  3 coins  station· ")
    assert "Market: card, rolls, cost, left — name: effect" in screen
    assert "bakery       2-3 $1 ×6 Bakery: 1 on your roll (+1 with Mall)" in screen


# (g) ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("build Pole kwiatów", "orchard"),
        ("build POLE-KWIATOW", "orchard"),
        ("build pole_kwiatow", "orchard"),
        ("build Bäckerei", "bakery"),
        ("build backerei", "bakery"),
        ("build Торговый центр", "mall"),
        ("build торговый-центр", "mall"),
        ("build Kuter rybacki „Łowca tuńczyka”", "tuna"),
        ("build kuter-rybacki-lowca-tunczyka", "tuna"),
        ("build Flower Orchard", "orchard"),
        ("build train_station", "station"),
        ("build Dworzec kolejowy", "station"),
        ("build Пшеничное поле", "wheat"),
    ],
)
def test_notation_accepts_printed_names_and_writes_english(text: str, code: str) -> None:
    action = parse_action(text)
    assert action == Build(code)
    assert format_action(action) == f"build {code}"


def test_swap_with_printed_names_and_every_printed_name_parses() -> None:
    assert format_action(parse_action("swap Pole 1 Sad jabłoniowy")) == "swap wheat 1 apple"
    assert format_action(parse_action("swap Weizenfeld p2 Bergwerk")) == "swap wheat 2 mine"
    folded: dict[str, str] = {}
    for code, entry in glossary().items():
        if code not in {card.code for card in all_cards()}:
            continue
        for lang in ("en", *LANGS):
            assert format_action(parse_action(f"build {entry[lang]}")) == f"build {code}", (code, lang)
            assert folded.setdefault(_folded(entry[lang]), code) == code, entry[
                lang
            ]  # no name means two cards


# (h) ---------------------------------------------------------------------------------------------------
def test_board_words_in_each_language() -> None:
    english = words()
    assert english == words("en")
    assert (
        english["names"]["cafe"] == "Cafe"
        and english["effects"]["cafe"] == "the roller pays you 1 (+1 with Mall)"
    )
    for lang in LANGS:
        translated = words(lang)
        assert translated is words(lang)  # cached per language
        assert set(translated) == set(english) and translated["printed"] == english["printed"]
        for code in english["names"]:
            assert translated["names"][code] == glossary()[code][lang], (lang, code)
        assert set(translated["effects"]) == set(english["effects"])
        assert all(translated["effects"][c] != english["effects"][c] for c in english["effects"]), lang
        assert all(translated["colors"][c] != english["colors"][c] for c in english["colors"]), lang
    assert "Centrum handlowym" in words("pl")["effects"]["bakery"]
    assert "Einkaufszentrum" in words("de")["effects"]["bakery"]
    assert "Торговым центром" in words("ru")["effects"]["bakery"]
