"""The one driver loop and the seat-safe bot wrappers, on the test-only toy game (it has a hidden deck,
hidden hands and a simultaneous round of secret bets)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "arena"))
import toygame  # noqa: E402

from tabletown.core.game import Bot, Game, Result, State  # noqa: E402
from tabletown.core.record import Record, state_fingerprint  # noqa: E402
from tabletown.core.rng import SeededRNG  # noqa: E402
from tabletown.core.session import LegalMoves, bot_agent, play_out, random_agent, seat_state  # noqa: E402
from tabletown.core.spaces import SIMULTANEOUS, GameType  # noqa: E402

TOY = toygame.TOY


@pytest.fixture(autouse=True)
def registered_toy():
    from tabletown.core import registry

    registry.register(TOY)
    yield
    registry._GAMES.pop(TOY.name, None)


def test_play_out_plays_to_the_end_records_every_action_and_reports_the_count():
    state = TOY.new_game(3, None, seed=5)
    record = Record.start(state, ["bot:random"] * 3)
    agent = random_agent(random.Random(2))
    count = play_out(state, [agent] * 3, record)
    assert state.is_over and count == len(record.actions) and record.result is not None
    assert Record.from_json(record.to_json()).replay().result() == state.result()


def test_stop_after_cuts_a_game_quietly_and_max_actions_refuses_a_runaway():
    state = TOY.new_game(2, {"target": 100}, seed=1)
    agent = random_agent(random.Random(0))
    assert play_out(state, [agent] * 2, stop_after=5) >= 5
    assert not state.is_over
    with pytest.raises(RuntimeError, match="did not end"):
        play_out(state, [agent] * 2, max_actions=3)


class TwoStepState(State):
    """Both seats take two steps each round, at the same time; three rounds, then it is over."""

    def __init__(self) -> None:
        self.num_players, self.options, self.seed, self.log = 2, {}, 0, []
        self.rng = SeededRNG(0)
        self.steps = [0, 0]
        self.rounds = 0

    @property
    def to_act(self):
        if self.rounds == 3:
            return ()
        return tuple(seat for seat in (0, 1) if self.steps[seat] < 2)

    def legal_actions(self, player):
        return ["step"] if player in self.to_act else []

    def apply(self, player, action):
        self._require_turn(player)
        self.steps[player] += 1
        if self.steps == [2, 2]:
            self.steps = [0, 0]
            self.rounds += 1

    @property
    def is_over(self):
        return self.rounds == 3

    def result(self):
        return Result.from_keys([0.0, 0.0], [0, 0]) if self.is_over else None

    def view(self, player, since=0):
        return self._base_view(player, since)

    def clone(self):
        raise NotImplementedError

    def format_action(self, action):
        return action

    def parse_action(self, text, player):
        return text


class TwoStepGame(Game):
    name, title, min_players, max_players = "twostep", "Two steps", 2, 2
    game_type = GameType(SIMULTANEOUS, False, False, 2, 2, "nothing", 100)

    def create_state(self, num_players, options, seed):
        return TwoStepState()


TwoStepState.game = TwoStepGame()


def test_finish_rounds_lets_one_seat_finish_its_part_before_the_next_is_asked():
    for finish, expected in ((True, [0, 0, 1, 1] * 3), (False, [0, 1, 0, 1] * 3)):
        asked: list[int] = []

        def agent(state, seat, asked=asked):
            asked.append(seat)
            return "step"

        play_out(TwoStepGame().create_state(2, {}, 0), [agent, agent], finish_rounds=finish)
        assert asked == expected


class Spy(Bot):
    def __init__(self, needs_state: bool) -> None:
        super().__init__(0)
        self.needs_state = needs_state  # type: ignore[misc]
        self.handed: list = []

    def choose(self, state, player):
        self.handed.append(state)
        return state.legal_actions(player)[0]


def test_bots_get_a_seat_copy_or_just_their_moves_never_the_game():
    state = TOY.new_game(2, None, seed=9)
    full, light = Spy(True), Spy(False)
    before = state_fingerprint(state)
    bot_agent(full, 1)(state, 0)
    bot_agent(light, 1)(state, 0)
    assert state_fingerprint(state) == before
    copy = full.handed[0]
    assert copy is not state and copy.seed != state.seed
    assert all(event.seats is None or 0 in event.seats for event in copy.log)
    assert copy.hands[0] == state.hands[0]  # its own card stays
    moves = light.handed[0]
    assert isinstance(moves, LegalMoves) and moves.legal_actions(0) == state.legal_actions(0)
    with pytest.raises(ValueError):
        moves.legal_actions(1)


def test_seat_copies_depend_only_on_what_the_seat_sees():
    state = TOY.new_game(3, None, seed=4)
    other = state.determinize(0, 77)
    other.seed = 123
    assert state.hands[1:] != other.hands[1:] or state.deck != other.deck
    assert state_fingerprint(seat_state(state, 0, 5)) == state_fingerprint(seat_state(other, 0, 5))


def _played_with_plain_choice(game: Game, players: int, seed: int, rng: random.Random) -> State:
    """The reference the quiet loop must match: ``rng.choice`` over the legal moves, seat by seat."""
    state = game.new_game(players, None, seed=seed)
    while state.to_act:
        for seat in state.to_act:
            if seat in state.to_act:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("name", ["machikoro", "lordsofvegas", "newlasvegas", "multicity", "toyrace"])
def test_the_quiet_random_loop_draws_exactly_what_rng_choice_draws(name):
    from tabletown.core.registry import get_game

    game = get_game(name)
    for players in sorted({game.min_players, min(game.max_players, 3)}):
        for seed in range(3):
            quiet = game.new_game(players, None, seed=seed)
            play_out(quiet, [random_agent(SeededRNG(seed))] * players)
            plain = _played_with_plain_choice(game, players, seed, SeededRNG(seed))
            assert state_fingerprint(quiet) == state_fingerprint(plain)


class OddChoice(random.Random):
    """A generator whose choice is not CPython's: the loop must call it rather than inline it."""

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]


def test_a_generator_with_its_own_choice_is_asked_not_inlined():
    quiet = TOY.new_game(2, None, seed=3)
    play_out(quiet, [random_agent(OddChoice(1))] * 2)
    plain = _played_with_plain_choice(TOY, 2, 3, OddChoice(1))
    assert state_fingerprint(quiet) == state_fingerprint(plain)
