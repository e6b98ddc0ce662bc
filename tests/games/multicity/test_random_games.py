"""Property tests over many seeded random games (2-4 players, every option): every game ends, the
invariants hold after every action, refused actions change nothing, notation round-trips, and the
fast list of legal placements equals a brute-force search."""

from __future__ import annotations

import json
import random

import pytest

from tabletown.core.errors import ActionError
from tabletown.games.multicity import DRAW, GAME, PASS, Lay, Place

from .helpers import brute_force_placements, check_invariants, digest, fingerprint

GAMES_PER_CASE = 110  # x 9 cases: about 1000 games
BRUTE_FORCE_GAMES = 12  # games per case checked against brute force after every action


def random_options(rng: random.Random) -> dict:
    return {
        "deck": rng.choice([32, 32, rng.randint(2, 32)]),
        "kids": rng.random() < 0.3,
        "overlap": "loose" if rng.random() < 0.3 else "strict",
    }


def illegal_probes(state, rng: random.Random, seat: int) -> list:
    """A few actions to try: random placements and lays near the city, draw, pass."""
    xs = [x for x, _ in state.tiles]
    ys = [y for _, y in state.tiles]
    probes = [DRAW, PASS]
    for _ in range(4):
        x = rng.randint(min(xs) * 3 - 3, max(xs) * 3 + 5)
        y = rng.randint(min(ys) * 3 - 3, max(ys) * 3 + 5)
        probes.append(Place(rng.randint(2, 7), x, y, rng.random() < 0.5))
        probes.append(Lay(x - x % 3, y - y % 3, rng.randint(0, 3)))
    return probes


def probe_refusals(state, rng: random.Random, seat: int, legal: list) -> None:
    """Refused actions raise and leave everything as it was (views and hidden parts alike)."""
    before = digest(state)
    inner = fingerprint(state)
    legal_set = set(legal)
    players = state.num_players
    for probe in illegal_probes(state, rng, seat) + [rng.choice(legal)]:
        with pytest.raises(ActionError):
            state.apply((seat + 1) % players, probe)
        assert fingerprint(state) == inner
        if probe in legal_set:
            continue
        if type(probe) is Place and state.drawn is None:
            assert state.placement_problem(seat, probe) is not None
        with pytest.raises(ActionError):
            state.apply(seat, probe)
        assert fingerprint(state) == inner, f"refused {probe} changed the state"
    assert digest(state) == before


def run_game(players: int, seed: int, brute_force: bool) -> int:
    rng = random.Random(seed)
    options = random_options(rng)
    state = GAME.new_game(players, options, seed=seed)
    check_invariants(state)
    steps = 0
    while not state.is_over:
        (seat,) = state.to_act
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), "no action listed twice"
        for action in legal:
            assert state.parse_action(state.format_action(action), seat) == action
        if brute_force and state.drawn is None:
            for other in range(players):
                assert set(state.cands[other]) == brute_force_placements(state, other)
        if rng.random() < 0.2:
            probe_refusals(state, rng, seat, legal)
        state.apply(seat, rng.choice(legal))
        steps += 1
        check_invariants(state)
        assert steps < 200, "a game of Multicity cannot last this long"
    for other in range(players):
        assert set(state.cands[other]) == brute_force_placements(state, other)
    json.dumps(state.view(None))
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("part", [0, 1, 2])
def test_random_games_end_and_keep_every_invariant(players: int, part: int):
    for number in range(GAMES_PER_CASE):
        seed = players * 100_000 + part * 1000 + number
        run_game(players, seed, brute_force=number < BRUTE_FORCE_GAMES)


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak_random_games(players: int):
    for number in range(3000):
        run_game(players, 9_000_000 + players * 100_000 + number, brute_force=number < 300)
