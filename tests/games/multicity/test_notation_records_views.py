"""Hidden information (the stack order), records that replay, notation, and rendering."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console

from tabletown.bots import make_bot
from tabletown.core.bench import random_playout
from tabletown.core.errors import MalformedAction
from tabletown.core.record import Record, state_digest, verify
from tabletown.core.session import play_out
from tabletown.games.multicity import DRAW, GAME, PASS, Lay, Place

from .helpers import custom, play


def advance(state, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        (seat,) = state.to_act
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_do_not_depend_on_the_stack_order(players):
    rng = random.Random(players)
    for seed in range(30):
        state = GAME.new_game(players, {"deck": rng.choice([32, 20])}, seed=seed)
        advance(state, rng, rng.randint(0, 40))
        twin = state.clone()
        rng.shuffle(twin.stack)
        assert twin.stack != state.stack or len(state.stack) < 2
        for seat in [None, *range(players)]:
            assert twin.view(seat) == state.view(seat)
        json.dumps(state.view(None))


def test_view_shows_the_stack_size_but_no_tile_in_it():
    state = GAME.new_game(2, {}, seed=3)
    text = json.dumps(state.view(0)["state"])
    assert state.view(0)["state"]["stack"] == 31
    assert "stack" in text
    assert state.view(0)["state"]["drawn"] is None
    top = state.stack[-1]
    play(state, "draw")
    assert state.view(1)["state"]["drawn"]["tile"] == top, "a drawn tile is face up for everyone"


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_reshuffles_unseen_tiles_and_keeps_the_view(players):
    rng = random.Random(7)
    for seed in range(20):
        state = GAME.new_game(players, {"deck": rng.choice([32, 12])}, seed=seed)
        advance(state, rng, rng.randint(0, 30))
        if state.is_over:
            continue
        before = state_digest(state)
        samples = [state.determinize(seat, 1000 + k) for k, seat in enumerate([0, 1, 0])]
        stacks = {tuple(s.stack) for s in samples}
        for seat, sample in zip([0, 1, 0], samples, strict=True):
            assert sample.view(seat) == state.view(seat)
            assert sorted(sample.stack + list(sample.unused)) == sorted(state.stack + list(state.unused))
            assert len(sample.stack) == len(state.stack)
            random_playout(sample, rng)
        if len(state.stack) > 3:
            assert len(stacks) > 1, "the unseen tiles really are reshuffled"
        assert state_digest(state) == before


def test_clone_is_independent():
    state = GAME.new_game(3, {}, seed=11)
    twin = state.clone()
    random_playout(twin, random.Random(1))
    assert twin.is_over and not state.is_over
    assert len(state.tiles) == 1 and state.objects == []


@pytest.mark.parametrize(
    ("players", "options", "bots"),
    [
        (2, {}, ["random", "random"]),
        (3, {"kids": True}, ["greedy", "random", "greedy"]),
        (4, {"overlap": "loose", "deck": 16}, ["greedy", "random", "random", "greedy"]),
        (4, {"first": "3"}, ["random", "greedy", "random", "random"]),
    ],
)
def test_records_replay_identically(players, options, bots, tmp_path):
    for seed in range(5):
        state = GAME.new_game(players, options, seed=seed)
        record = Record.start(state, [f"bot:{b}" for b in bots])
        agents = [make_bot(GAME, b, seed * 10 + i).choose for i, b in enumerate(bots)]
        play_out(state, agents, record)
        assert state.is_over
        path = tmp_path / f"g{seed}.json"
        record.save(path)
        loaded = Record.load(path)
        assert verify(loaded) == []
        assert state_digest(loaded.replay()) == state_digest(state)
        # A record whose moves were tampered with does not verify.
        if len(loaded.actions) > 3:
            loaded.actions = loaded.actions[:-2]
            assert verify(loaded) != []


def test_notation_forms():
    state = GAME.new_game(2, {}, seed=0)
    assert state.parse_action("  DRAW ", 0) == DRAW
    assert state.parse_action("d", 0) == DRAW
    assert state.parse_action("pass", 0) == PASS
    assert state.parse_action("5h 3,-2", 0) == Place(5, 3, -2, False)
    assert state.parse_action("7v-6,0", 0) == Place(7, -6, 0, True)
    assert state.parse_action("t -3, 6 r2", 0) == Lay(-3, 6, 2)
    assert state.format_action(Place(5, 3, -2, False)) == "5h 3,-2"
    assert state.format_action(Lay(-3, 6, 2)) == "t -3,6 r2"
    for bad in ["", "8h 0,0", "1v 0,0", "5x 0,0", "t 1,0 r0", "t 0,0 r5", "t 0,0", "place 5", "5h 0"]:
        with pytest.raises(MalformedAction):
            state.parse_action(bad, 0)


def test_render_shows_coordinates_tiles_objects_and_players():
    state = custom(2, ["gbg/gog/yby", "rgb/ybg/gyb", "bby/yby/byb"])
    play(state, "3h 0,0", "draw")
    console = Console(width=120, record=True, color_system=None)
    console.print(GAME.render(state.view(0)))
    text = console.export_text()
    assert "G3" in text, "the ends of green's 3-object"
    assert "───" in text
    assert " ^ " in text, "the hole"
    assert "3,0" in text and "-3,0" in text, "free slots show what to type"
    assert "r0" in text and "r3" in text, "the drawn tile's four turns"
    assert "2 3 4 5 6 7" in text and "4 5 6 7" in text, "objects left per player"
    assert "draws tile 1" in text, "the log"
    header = text.splitlines()[1].split()
    assert header[:6] == ["-3", "-2", "-1", "0", "1", "2"]


def test_a_position_saved_before_the_actions_moved_still_loads():
    """Lay and Place moved from state.py to actions.py; a position saved before (as the web server's
    database holds them) names them at their old address and must still load, not fall back to a
    replay from the seed."""
    import json
    from pathlib import Path

    from tabletown.core.registry import get_game

    path = Path(__file__).parent / "data" / "position_before_actions_moved.json"
    text = path.read_text()
    assert "tabletown.games.multicity.state.Lay" in text or "tabletown.games.multicity.state.Place" in text
    state = get_game("multicity").state_from_json(json.loads(text))
    assert state.to_act and len(state.log) == 33
    again = get_game("multicity").state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
