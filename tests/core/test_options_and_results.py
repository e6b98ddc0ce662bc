"""Options are validated up front; results rank with ties."""

import pytest

from tabletown.core import Option, OptionError, Result, all_games, get_game
from tabletown.core.options import parse_option_pairs, resolve_options

DECLARED = (
    Option("harbor", False, "expansion"),
    Option("cost", 4, "a price", choices=(2, 4)),
    Option("size", 10, "a size", minimum=5, maximum=20),
    Option("mode", "a", "a mode", choices=("a", "b")),
)


def test_defaults_fill_in_and_text_values_are_coerced():
    assert resolve_options(DECLARED, None) == {"harbor": False, "cost": 4, "size": 10, "mode": "a"}
    got = resolve_options(DECLARED, {"harbor": "yes", "cost": "2", "size": "5", "mode": "b"})
    assert got == {"harbor": True, "cost": 2, "size": 5, "mode": "b"}


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ({"harbour": True}, "unknown option"),
        ({"harbor": "perhaps"}, "true or false"),
        ({"harbor": 1}, "true or false"),
        ({"cost": "3"}, "one of"),
        ({"cost": "two"}, "whole number"),
        ({"size": 4}, "at least 5"),
        ({"size": 21}, "at most 20"),
        ({"mode": 3}, "text"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(given, fragment):
    with pytest.raises(OptionError, match=fragment):
        resolve_options(DECLARED, given)


def test_option_pairs_from_the_command_line():
    assert parse_option_pairs(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError):
        parse_option_pairs(["novalue"])


def test_results_rank_descending_with_shared_ranks():
    result = Result.from_keys([10, 30, 30, 5], [(10, 0), (30, 1), (30, 1), (5, 9)])
    assert result.ranks == (3, 1, 1, 4)
    assert result.winners == (1, 2)
    tie_broken = Result.from_keys([30, 30], [(30, 2), (30, 1)])
    assert tie_broken.ranks == (1, 2)
    assert Result.single_winner(3, 2).ranks == (2, 2, 1)


def test_registry_knows_every_game_and_refuses_unknown_names():
    games = all_games()
    assert "machikoro" in games
    for name, game in games.items():
        assert game.name == name
        assert game.min_players <= game.max_players
        state = game.new_game(game.min_players, {}, seed=1)
        assert state.to_act and not state.is_over and state.result() is None
    with pytest.raises(OptionError, match="unknown game"):
        get_game("chess")


@pytest.mark.parametrize("seed", [-1, "x", 1.5, True])
def test_seed_must_be_a_non_negative_whole_number(seed):
    with pytest.raises(OptionError):
        get_game("machikoro").new_game(2, {}, seed=seed)


def test_every_game_refuses_player_counts_out_of_range():
    for game in all_games().values():
        with pytest.raises(OptionError):
            game.new_game(game.max_players + 1 if game.max_players < 99 else 0, {}, seed=1)
        with pytest.raises(OptionError):
            game.new_game(0, {}, seed=1)


def test_registry_names_its_packages_and_games_publicly():
    from tabletown.core.registry import game_packages, registered_games

    packages = game_packages()
    assert {
        "tabletown.games." + name for name in ("machikoro", "lordsofvegas", "newlasvegas", "multicity")
    } <= set(packages)
    games = all_games()
    assert registered_games() == games
    assert list(registered_games()) == sorted(registered_games())


def test_every_game_option_has_words_for_a_form_and_for_each_of_its_choices():
    """Labels cover every declared option, and a game's ``choice_labels`` name only real choices,
    each once (a typo would show an id in the lobby, or words for a value the option refuses)."""
    for game in all_games().values():
        for option in game.options:
            assert option.label, (game.name, option.name)
            named = [choice for choice, _ in option.choice_labels]
            assert len(set(named)) == len(named), (game.name, option.name)
            assert set(named) <= set(option.choices or ()), (game.name, option.name)
            for choice in option.choices or ():
                assert option.words_for(choice), (game.name, option.name, choice)
    city_hall = next(o for o in get_game("machikoro").options if o.name == "city_hall")
    assert city_hall.words_for("every_turn") == "1 coin every turn"
    assert Option("cost", 4, "a price", choices=(2, 4)).words_for(2) == "2"
