"""Rules audit: random games checked against an independent model written from the rulebook.

The model knows only the laid tiles' squares and the objects placed (as the views show them), so it
shares no code with the rules engine's placement search, its refusal explanations or its ranking."""

from __future__ import annotations

import random

import pytest

from tabletown.games.multicity import DRAW, GAME, PASS, Lay, Place

LENGTHS = (2, 3, 4, 5, 6, 7)
GAMES_PER_CASE = 25


def board(view: dict) -> dict[tuple[int, int], str]:
    squares = {}
    for tile in view["tiles"]:
        assert len(tile["squares"]) == 9, "nine square letters in reading order"
        for i, letter in enumerate(tile["squares"]):
            squares[(tile["x"] + i % 3, tile["y"] + i // 3)] = letter
    return squares


def span(length: int, x: int, y: int, vertical: bool) -> list[tuple[int, int]]:
    return [(x, y + i) if vertical else (x + i, y) for i in range(length)]


def users(view: dict) -> dict[tuple[int, int], list[tuple[bool, bool]]]:
    """For each covered square: (is it an end of that object, does that object run vertically)."""
    cover: dict[tuple[int, int], list[tuple[bool, bool]]] = {}
    for obj in view["objects"]:
        vertical = obj["dir"] == "v"
        squares = span(obj["length"], obj["x"], obj["y"], vertical)
        for i, square in enumerate(squares):
            cover.setdefault(square, []).append((i in (0, len(squares) - 1), vertical))
    return cover


def model_placements(view: dict, seat: int) -> set[Place]:
    """Every placement the rules allow ``seat``: ends on own colour, a straight line on tiles, no hole
    (unless kids), and no shared square (loose: only an end beside a perpendicular middle)."""
    squares, cover = board(view), users(view)
    own = "grby"[seat]
    left = view["players"][seat]["unplaced"]
    found = set()
    for (x, y), letter in squares.items():
        if letter != own:
            continue
        for vertical in (False, True):
            for length in left:
                line = span(length, x, y, vertical)
                if any(s not in squares for s in line) or squares[line[-1]] != own:
                    continue
                if not view["kids"] and any(squares[s] == "o" for s in line):
                    continue
                ok = True
                for i, square in enumerate(line):
                    here = cover.get(square, [])
                    if not here:
                        continue
                    if view["overlap"] == "strict" or len(here) > 1:
                        ok = False
                        break
                    (other_end, other_vertical) = here[0]
                    is_end = i in (0, length - 1)
                    if other_vertical == vertical or other_end == is_end:
                        ok = False
                        break
                if ok:
                    found.add(Place(length, x, y, vertical))
    return found


def model_slots(view: dict) -> set[tuple[int, int]]:
    laid = {(t["x"], t["y"]) for t in view["tiles"]}
    near = {(x + dx, y + dy) for x, y in laid for dx, dy in ((3, 0), (-3, 0), (0, 3), (0, -3))}
    return near - laid


def model_ranks(view: dict) -> tuple[int, ...]:
    keys = [(-sum(p["unplaced"]), 6 - len(p["unplaced"])) for p in view["players"]]
    return tuple(1 + sum(other > mine for other in keys) for mine in keys)


def play_checked(players: int, seed: int) -> None:
    rng = random.Random(seed)
    options = {
        "deck": rng.choice([32, rng.randint(2, 32)]),
        "kids": rng.random() < 0.3,
        "overlap": rng.choice(["strict", "loose"]),
        "first": rng.choice(["random", str(rng.randrange(players))]),
    }
    state = GAME.new_game(players, options, seed=seed)
    first = state.view(None)["state"]["first_player"]
    final_order: list[int] = []
    while not state.is_over:
        (seat,) = state.to_act
        view = state.view(None)["state"]
        legal = set(state.legal_actions(seat))
        if view["drawn"] is not None:
            assert legal == {Lay(x, y, t) for x, y in model_slots(view) for t in range(4)}
        else:
            places = model_placements(view, seat)
            if view["phase"] == "play":
                assert legal == places | {DRAW}, "place anything that fits, or expand"
            else:
                assert places, "a seat with nothing to place loses its final-round turn"
                assert legal == places | {PASS}
                final_order.append(seat)
            for other in range(players):
                if other != seat:
                    assert set(state.cands[other]) == model_placements(view, other)
        state.apply(seat, rng.choice(sorted(legal, key=str)))
    view = state.view(None)["state"]
    if final_order:
        expected = [(first + i) % players for i in range(players)]
        assert final_order == [s for s in expected if s in final_order], "final round from the first player"
        assert len(set(final_order)) == len(final_order), "one final-round turn each"
    winners_six = [p["seat"] for p in view["players"] if not p["unplaced"]]
    assert len(winners_six) <= 1
    ranks = state.result().ranks
    if winners_six:
        assert ranks[winners_six[0]] == 1 and ranks.count(1) == 1
    else:
        assert view["stack"] == 0, "without six objects placed the game ends only after the last tile"
    assert ranks == model_ranks(view)
    assert len(view["tiles"]) <= state.options["deck"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_with_an_independent_model(players: int):
    for number in range(GAMES_PER_CASE):
        play_checked(players, 31_000 + players * 1000 + number)
