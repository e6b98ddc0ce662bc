"""Engine contract 2, checked generically for every registered game.

At positions sampled along seeded random games (smallest and largest player counts):
* views are data: no string anywhere in a view (keys or values, events included) holds whitespace,
  so no sentence can hide in one; wording lives in the renderers;
* each seat's view carries exactly the events it may see, spectators only public ones, and asking
  ``since`` a point gives the tail of the same list;
* ``legal_mask`` marks exactly ``legal_actions`` in the fixed action space, ``is_legal`` agrees with
  it and changes nothing;
* ``to_json`` / ``state_from_json`` round-trip the whole position (the fingerprint covers hidden parts
  and the RNG), play on identically, and refuse altered or malformed documents;
* a bot that peeks and meddles learns nothing another seat hides and cannot alter the game.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from tabletown.core.errors import SnapshotError
from tabletown.core.game import Bot, Game, State
from tabletown.core.record import state_digest, state_fingerprint
from tabletown.core.registry import all_games
from tabletown.core.session import bot_agent, seat_state
from tabletown.core.spaces import SEQUENTIAL, SIMULTANEOUS
from tabletown.testing import sample_positions

GAMES = all_games()
NAMES = sorted(GAMES)
WHITESPACE = re.compile(r"\s")
EVENT_KIND = re.compile(r"^[a-z][a-z0-9_.]*$")


def counts(game: Game) -> list[int]:
    return sorted({game.min_players, min(game.max_players, 4)})


def walk_strings(value, path="view"):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", str(key)
            yield from walk_strings(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from walk_strings(item, f"{path}[{index}]")


@pytest.mark.parametrize("name", NAMES)
def test_game_type_is_stated(name):
    game = GAMES[name]
    kind = game.game_type
    assert kind.dynamics in (SEQUENTIAL, SIMULTANEOUS)
    # The type covers every option: an option may widen the player range (Machi Koro's fifth player).
    widest = max(game.player_range(game.resolve_options(game.min_players, {}))[1], game.max_players)
    assert kind.min_players == game.min_players and kind.max_players >= widest
    assert kind.scores and kind.max_actions > 0
    json.dumps(kind.to_json())


@pytest.mark.parametrize("name", NAMES)
def test_views_are_data_and_events_respect_visibility(name):
    game = GAMES[name]
    for players in counts(game):
        for state in sample_positions(game, players, seed=11, games=2, every=7):
            for seat in (None, *range(state.num_players)):
                view = state.view(seat)
                assert json.loads(json.dumps(view)) == view
                for where, text in walk_strings(view):
                    assert not WHITESPACE.search(text), f"{where} holds a sentence: {text!r}"
                expected = [
                    index
                    for index, event in enumerate(state.log)
                    if event.seats is None or (seat is not None and seat in event.seats)
                ]
                assert [event["i"] for event in view["events"]] == expected
                assert view["event_count"] == len(state.log)
                for event in view["events"]:
                    assert EVENT_KIND.match(event["kind"]), event
                    if seat is None:
                        assert "private" not in event
                half = len(state.log) // 2
                tail = state.view(seat, since=half)["events"]
                assert tail == [event for event in view["events"] if event["i"] >= half]


@pytest.mark.parametrize("name", NAMES)
def test_mask_matches_legal_actions_and_is_legal_changes_nothing(name):
    game = GAMES[name]
    for players in counts(game):
        space = game.action_space(players, None)
        assert len(space) > 0
        rng = random.Random(5)
        for state in sample_positions(game, players, seed=12, games=2, every=5):
            before = state_fingerprint(state)
            for seat in range(state.num_players):
                legal = state.legal_actions(seat)
                mask = state.legal_mask(seat)
                assert len(mask) == len(space)
                assert {i for i, bit in enumerate(mask) if bit} == {space.index(a) for a in legal}
                assert sum(mask) == len(legal), "a legal action is listed twice"
                for action in legal:
                    assert state.is_legal(seat, action)
                for number in rng.sample(range(len(space)), min(20, len(space))):
                    assert state.is_legal(seat, space[number]) == bool(mask[number])
                for junk in (None, "junk", -1, (None,), object()):
                    assert not state.is_legal(seat, junk)
            assert state_fingerprint(state) == before


def _play_on(state: State, seed: int, steps: int = 60) -> State:
    rng = random.Random(seed)
    for _ in range(steps):
        if not state.to_act:
            break
        for seat in state.to_act:
            if seat in state.to_act:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


# Alike by shape to test_a_peeking_bot_learns_nothing_hidden_and_changes_nothing on purpose: the
# same walk over sample positions, each test its own contract check.
@pytest.mark.parametrize("name", NAMES)
def test_saved_positions_round_trip_exactly(name):
    game = GAMES[name]
    for players in counts(game):
        for number, state in enumerate(sample_positions(game, players, seed=13, games=2, every=11)):
            document = json.loads(json.dumps(state.to_json()))
            restored = game.state_from_json(document)
            assert state_fingerprint(restored) == state_fingerprint(state)
            assert state_digest(_play_on(restored, number)) == state_digest(_play_on(state.clone(), number))


@pytest.mark.parametrize("name", NAMES)
def test_altered_or_malformed_positions_are_refused(name):
    game = GAMES[name]
    state = next(iter(sample_positions(game, game.min_players, seed=14, games=1, every=13)))
    document = state.to_json()
    bad = []
    edited = copy.deepcopy(document)
    edited["fields"]["num_players"] = 99
    bad.append(edited)
    bad.append({key: value for key, value in document.items() if key != "fields"})
    bad.extend([None, [], "text", {"format": "tabletown-position"}, {**document, "game": "chess"}])
    for name_ in list(document["fields"])[:8]:
        missing = copy.deepcopy(document)
        del missing["fields"][name_]
        bad.append(missing)
    for bad_document in bad:
        with pytest.raises(SnapshotError):
            game.state_from_json(bad_document)
    # A field given a value of another type, with the checksum recomputed as a forger would.
    from tabletown.core.snapshot import checksum

    for field, value in document["fields"].items():
        if isinstance(value, int) and not isinstance(value, bool):
            forged = copy.deepcopy(document)
            forged["fields"][field] = {"t": ["x"]}
            forged["checksum"] = checksum({k: v for k, v in forged.items() if k != "checksum"})
            with pytest.raises(SnapshotError):
                game.state_from_json(forged)
            break


class PeekingBot(Bot):
    """Keeps a fingerprint of what it is handed, then tries to spoil it before answering."""

    name = "peeking"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.seen: list[bytes] = []

    def choose(self, state: State, player: int):
        self.seen.append(state_fingerprint(state))
        legal = state.legal_actions(player)
        answer = legal[0]
        meddle = state
        for _ in range(5):
            if not meddle.to_act:
                break
            seat = meddle.to_act[0]
            meddle.apply(seat, meddle.legal_actions(seat)[0])
        meddle.num_players = 0
        meddle.log.clear()
        return answer


# Alike by shape to test_saved_positions_round_trip_exactly (and the other tests here) on purpose:
# the same walk over sample positions, each test its own contract check.
@pytest.mark.parametrize("name", NAMES)
def test_a_peeking_bot_learns_nothing_hidden_and_changes_nothing(name):
    game = GAMES[name]
    for players in counts(game):
        for number, state in enumerate(sample_positions(game, players, seed=15, games=2, every=9)):
            seat = state.to_act[0]
            # Another real game that this seat cannot tell apart: hidden parts resampled, other seed.
            twin = state.determinize(seat, 1000 + number)
            twin.seed = state.seed + 1
            assert twin.view(seat) == state.view(seat)
            handed = seat_state(state, seat, 7)
            assert state_fingerprint(handed) == state_fingerprint(seat_state(twin, seat, 7)), (
                "the copy handed to a bot depends on something its seat cannot see"
            )
            assert all(e.seats is None or seat in e.seats for e in handed.log)
            before = state_fingerprint(state)
            bot = PeekingBot()
            action = bot_agent(bot, seed=number)(state, seat)
            assert state_fingerprint(state) == before, "a bot changed the real game"
            assert state.is_legal(seat, action)


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_copy_can_be_determinized_again_by_its_seat(name):
    """A searching bot receives ``seat_state``'s copy (other seats' private events gone) and redraws
    it once per iteration; that second redraw must work and keep the seat's view. New Las Vegas's
    once looked for the other seats' private events in the log and failed on every search decision
    after the loan choices."""
    game = GAMES[name]
    for players in counts(game):
        for number, state in enumerate(sample_positions(game, players, seed=21, games=2, every=5)):
            for seat in state.to_act:
                handed = seat_state(state, seat, 11 + number)
                again = handed.determinize(seat, 99 + number)
                assert again.view(seat)["state"] == handed.view(seat)["state"]
                assert again.legal_actions(seat) == handed.legal_actions(seat)
                if again.to_act:
                    move = random.Random(number).choice(again.legal_actions(seat))
                    again.apply(seat, move)  # the redrawn copy plays on
