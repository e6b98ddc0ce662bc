"""core.i18n: choosing a language, the Speaker's lookups and fallbacks, the catalogs' upkeep."""

from __future__ import annotations

import pytest

from tabletown.core import catalogs, i18n
from tabletown.core.i18n import (
    CORE_DOMAIN,
    LANGUAGES,
    MissingTranslation,
    Speaker,
    from_accept_language,
    in_language,
    language,
)
from tabletown.core.registry import all_games
from tabletown.core.words import Names


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
        ("fr-FR, de;q=0.5, ru;q=0.7", "ru"),
        ("de-AT", "de"),
        ("ru;q=0, de;q=0.1", "de"),  # q=0 means "not this one"
        ("ja, zh", "en"),
        ("en;q=0.2, pl;q=0.2", "en"),  # a tie goes to the earlier
        ("pl;q=abc, de", "de"),  # a broken quality is skipped, not trusted
    ],
)
def test_accept_language_picks_the_best_of_ours(header, expected):
    assert from_accept_language(header) == expected


def test_language_normalises_codes_and_refuses_others():
    assert [language(c) for c in ("pl_PL", "DE", "ru-RU", "xx", None, "")] == [
        "pl",
        "de",
        "ru",
        "en",
        "en",
        "en",
    ]


def test_terminal_language_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("TABLETOWN_LANG", "de_DE.UTF-8")
    assert i18n.from_environment() == "de"
    monkeypatch.setenv("TABLETOWN_LANG", "klingon")
    assert i18n.from_environment() == "en"


def test_every_game_registers_its_catalog_folder():
    games = all_games()
    found = i18n.domains()
    for name in games:
        assert found[name].name == "locale" and found[name].parent.name == name


def test_speaker_falls_back_to_english_unless_strict(monkeypatch):
    speaker = Speaker(CORE_DOMAIN, "pl")
    assert speaker.tr("a message nobody wrote {x}", x=1) == "a message nobody wrote 1"
    monkeypatch.setattr(Speaker, "strict", True)
    with pytest.raises(MissingTranslation):
        Speaker(CORE_DOMAIN, "pl").tr("a message nobody wrote")
    assert Speaker(CORE_DOMAIN, "en").tr("a message nobody wrote") == "a message nobody wrote"


def test_the_shared_catalog_translates_the_terminal_prompt():
    for lang in LANGUAGES[1:]:
        text = Speaker(CORE_DOMAIN, lang).tr("seat {seat}>", seat=2)
        assert "2" in text and text != "seat 2>"


def test_said_picks_the_readers_own_sentence():
    names = Names(["Ala", "Bob"], viewer=1)
    speaker = Speaker(CORE_DOMAIN, "en", names)
    assert speaker.said(0, "{who} rolls.", "You roll.") == "Ala rolls."
    assert speaker.said(1, "{who} rolls.", "You roll.") == "You roll."
    assert speaker.who(1) == "you"
    assert Speaker(CORE_DOMAIN, "pl", names).who(1) == "Bob"  # names are never declined


def test_numbers_and_lists_follow_the_locale():
    assert Speaker(CORE_DOMAIN, "de").number(12345) == "12.345"
    assert Speaker(CORE_DOMAIN, "en").number(12345) == "12345"  # English output unchanged
    assert Speaker(CORE_DOMAIN, "pl").listed(["A", "B", "C"]) == "A, B i C"
    assert Speaker(CORE_DOMAIN, "ru").listed(["A", "B"]) == "A и B"


def test_in_language_passes_lang_only_to_methods_that_take_it():
    def old(view):
        return f"old {view}"

    def new(view, lang="en"):
        return f"{lang} {view}"

    assert in_language(old, 1, lang="pl") == "old 1"
    assert in_language(new, 1, lang="pl") == "pl 1"
    assert in_language(new, 1, lang="en") == "en 1"


def test_catalogs_are_complete_and_compiled():
    all_games()  # every game's domain registered (the shipped ones: tests may register toy games)
    assert i18n.missing_translations(list(catalogs.domain_folders())) == []
    assert catalogs.stale() == []


def test_extraction_finds_every_marked_message_in_the_catalogs():
    """A message marked in the code but missing from a .po means `make catalogs` was not run."""
    from babel.messages.pofile import read_po

    for domain, folder in catalogs.domain_folders().items():
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.extract(domain) if m.id}
        for lang in LANGUAGES[1:]:
            with (folder / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
                have = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
            assert wanted <= have, (domain, lang, sorted(wanted - have)[:5])
