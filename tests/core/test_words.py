"""What a table calls its seats (core/words.py; web/static/tabletown.js mirrors the rule)."""

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
