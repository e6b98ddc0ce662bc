"""The engine contract, checked generically for every registered game.

Random seeded games are played for the smallest and largest player counts; at sampled positions:
refused actions (wrong seat, stale or garbage values, malformed text) raise an ActionError and leave
the whole state unchanged — hidden parts included; every legal action's notation round-trips; views are
JSON; clones are independent; and the same seed and moves give the same game.
"""

from __future__ import annotations

import json
import random

import pytest

from tabletown.core.errors import ActionError, MalformedAction
from tabletown.core.game import Game
from tabletown.core.record import state_digest, state_fingerprint
from tabletown.core.registry import all_games

GAMES = all_games()
GARBAGE = (None, "", "definitely not a move", -1, 10**9, (None,), 3.5, object())


def counts(game: Game) -> list[int]:
    return sorted({game.min_players, min(game.max_players, 4)})


def positions(game: Game, players: int, seed: int, games: int = 2, every: int = 9):
    """(state, earlier legal actions) pairs sampled along seeded random games."""
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_game(players, None, seed=seed * 100 + number)
        seen: list = []
        steps = 0
        while state.to_act and steps < 4000:
            if steps % every == 0:
                yield state, seen[-50:], rng
            for seat in state.to_act:
                if seat not in state.to_act:
                    continue
                legal = state.legal_actions(seat)
                seen.extend(legal[:5])
                state.apply(seat, rng.choice(legal))
                steps += 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_refused_actions_change_nothing_at_all(name):
    game = GAMES[name]
    for players in counts(game):
        for state, earlier, rng in positions(game, players, seed=1):
            before = state_fingerprint(state)
            acting = state.to_act
            idle = [p for p in range(state.num_players) if p not in acting]
            if idle:
                seat = rng.choice(acting)
                action = rng.choice(state.legal_actions(seat))
                with pytest.raises(ActionError):
                    state.apply(rng.choice(idle), action)
            seat = rng.choice(acting)
            for junk in GARBAGE:
                with pytest.raises(ActionError):
                    state.apply(seat, junk)
            legal = state.legal_actions(seat)
            for stale in rng.sample(earlier, min(4, len(earlier))):
                if stale in legal:
                    continue
                probe = state.clone()
                try:
                    probe.apply(seat, stale)
                except ActionError:
                    assert state_fingerprint(probe) == before
            for text in ("", "   ", "%%%", "build build build"):
                with pytest.raises(MalformedAction):
                    state.parse_action(text, seat)
            assert state_fingerprint(state) == before


@pytest.mark.parametrize("name", sorted(GAMES))
def test_notation_round_trips_and_views_are_json(name):
    game = GAMES[name]
    for players in counts(game):
        for state, _, _ in positions(game, players, seed=2, every=5):
            for seat in state.to_act:
                for action in state.legal_actions(seat):
                    text = state.format_action(action)
                    assert state.parse_action(text, seat) == action, text
            for seat in (None, *range(state.num_players)):
                view = state.view(seat)
                assert json.loads(json.dumps(view)) == view
                assert view["game"] == name and isinstance(view["events"], list)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_clones_are_independent_and_games_are_reproducible(name):
    game = GAMES[name]
    players = counts(game)[-1]
    for state, _, rng in positions(game, players, seed=3, games=1, every=15):
        before = state_digest(state)
        twin = state.clone()
        other = twin.clone()
        moves_rng = random.Random(rng.random())
        replay_rng = random.Random(0)
        replay_rng.setstate(moves_rng.getstate())
        for copy, chooser in ((twin, moves_rng), (other, replay_rng)):
            steps = 0
            while copy.to_act and steps < 300:
                for seat in copy.to_act:
                    if seat in copy.to_act:
                        copy.apply(seat, chooser.choice(copy.legal_actions(seat)))
                        steps += 1
        assert state_digest(state) == before
        assert state_digest(twin) == state_digest(other)
