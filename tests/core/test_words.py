"""What a table calls its seats (core/words.py; the browser shows the labels the server sends)."""

import pytest

from tabletown.core.words import Names, seat_display_names


def test_seats_are_called_by_name_else_by_bot_level_else_by_number():
    seats = [
        ("human", "Alice"),
        ("bot:expert", None),
        ("bot:mcts:hard", None),
        ("bot:search:hard", None),
        ("human", None),
    ]
    assert seat_display_names(seats) == [
        "Alice",
        "Expert bot",
        "MCTS hard bot",
        "Search hard bot",
        "Player 5",
    ]


def test_two_bots_of_one_level_are_numbered_and_strategies_read_as_words():
    seats = [("bot:greedy", None), ("bot:greedy", None), ("bot:strategy:cheese-factory", None)]
    assert seat_display_names(seats) == ["Greedy bot 1", "Greedy bot 2", "Cheese factory bot"]


def test_you_agree_with_the_verb_after_an_adverb():
    names = Names(["Alice", "Bob"], viewer=0)
    assert names.subject(0, "secretly refuses") == "You secretly refuse"
    assert names.subject(0, "secretly votes") == "You secretly vote"
    assert names.subject(1, "secretly refuses") == "Bob secretly refuses"
    assert names.subject(0, "pays") == "You pay"


@pytest.mark.parametrize("lang", ["pl", "de", "ru"])
def test_seats_are_called_in_the_readers_language(lang):
    from tabletown.core.i18n import CORE_DOMAIN, Speaker, seat_names

    seats = [
        ("human", "Alice"),
        ("bot:expert", None),
        ("bot:mcts:hard", None),
        ("bot:mcts:hard", None),
        ("human", None),
    ]
    names = seat_names(seats, lang)
    assert names[0] == "Alice"  # a player's own name is never translated
    words = Speaker(CORE_DOMAIN, lang)
    expert = words.trp("bot level", "expert")
    assert expert != "expert" and expert in names[1] and "bot" not in names[1]
    assert names[2].endswith(" 1") and names[3].endswith(" 2") and "MCTS" in names[2]
    assert names[4] == words.tr("Player {number}", number=5) != "Player 5"
    assert seat_names(seats, "en") == seat_display_names(seats)  # English is what it always was
