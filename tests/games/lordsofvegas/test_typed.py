"""Engine contract 2 for Lords of Vegas: typed actions, the fixed action space and its rule for
typed-only moves, typed events worded by the renderer, seat-safe determinize and saved positions."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from tabletown.core.errors import SnapshotError
from tabletown.core.record import state_fingerprint
from tabletown.core.snapshot import checksum
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas import actions as A
from tabletown.games.lordsofvegas.data import GAME_END
from tabletown.games.lordsofvegas.game import MAX_OFFERS
from tabletown.games.lordsofvegas.render import _WORDS

from .helpers import act, blank, lot, mark, put

TYPED = (A.End, A.Pass, A.Accept, A.Refuse, A.Layoff, A.Build, A.Sprawl, A.Remodel, A.Reorg)
TYPED += (A.Gamble, A.Take, A.Free, A.Put, A.Offer)


def _random_states(players: int, seeds: range, **options):
    for seed in seeds:
        state = GAME.new_game(players, options, seed=seed)
        rng = random.Random(seed)
        while state.to_act:
            yield state
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state


def test_actions_are_typed_values_with_the_old_notation() -> None:
    examples = {
        A.END: "end",
        A.PASS: "pass",
        A.ACCEPT: "accept",
        A.REFUSE: "refuse",
        A.LAYOFF_YES: "layoff",
        A.LAYOFF_NO: "nolayoff",
        A.Build(lot("a2"), 2): "build a2 gold",
        A.Sprawl(lot("a5"), 2): "sprawl a5 gold",
        A.Remodel(lot("a2"), 1): "remodel a2 brown",
        A.Reorg(lot("a2")): "reorg a2",
        A.Gamble(lot("a3"), 4): "gamble a3 4",
        A.Take(lot("c5")): "take c5",
        A.Free(lot("c4")): "free c4",
        A.Put(lot("c5")): "put c5",
        A.Offer((A.Item(0, 1, "$", 5), A.Item(1, 0, "lot", lot("a3")))): "offer 0>1:$5 1>0:a3",
        A.Offer((A.Item(0, 1, "no-reorg", lot("c5")), A.Item(1, 0, "die", lot("c1")))): (
            "offer 0>1:no-reorg-c5 1>0:die-c1"
        ),
    }
    state = GAME.new_game(2, {}, seed=1)
    for action, text in examples.items():
        assert state.format_action(action) == text
        parsed = state.parse_action(text, 0)
        assert parsed == action and type(parsed) is type(action)
    # Kinds with the same arguments stay apart; equal values compare and hash alike.
    assert A.Build(3, 1) != A.Sprawl(3, 1) != A.Remodel(3, 1)
    assert A.Build(3, 1) == A.Build(3, 1) and hash(A.Build(3, 1)) == hash(A.Build(3, 1))
    assert A.Build(3, 1).kind == "build" and A.Build(3, 1) != ("build", 3, 1)
    assert repr(A.Build(lot("a2"), 2)) == "Build(a2, gold)" and A.Build(7, 2).lot == 7


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"open_market": True}), (4, {})])
def test_every_listed_action_is_typed_and_in_the_space(players: int, options: dict) -> None:
    space = GAME.action_space(players, options)
    kinds = set()
    for state in _random_states(players, range(4), **options):
        for seat in state.to_act:
            for action in state.legal_actions(seat):
                assert isinstance(action, TYPED), action
                assert space[space.index(action)] == action
                kinds.add(type(action))
    assert {A.End, A.Build, A.Offer, A.Accept, A.Gamble, A.Layoff} <= kinds


def test_typed_only_moves_apply_but_are_never_marked_legal() -> None:
    """The rule for moves ``apply`` takes but ``legal_actions`` does not list: free-form offers are
    outside the fixed space (RL agents cannot make them); bets off the menu and casinos named by a
    lot other than their first are inside it but marked only where they are listed."""
    state = blank(2, money=50)
    put(state, "c1", "gold", 1, 6)
    put(state, "c2", "gold", 1, 2)
    mark(state, 1, "a3")
    space = GAME.action_space(2, {})
    free_form = A.Offer((A.Item(0, 1, "$", 7), A.Item(1, 0, "lot", lot("a3"))))
    assert free_form not in space and not state.is_legal(0, free_form)
    off_menu = A.Gamble(lot("c1"), 7)
    second_lot = A.Gamble(lot("c2"), 5)
    legal = state.legal_actions(0)
    assert A.Gamble(lot("c1"), 5) in legal and off_menu not in legal and second_lot not in legal
    mask = state.legal_mask(0)
    for action in (off_menu, second_lot):
        assert action in space and not mask[space.index(action)] and not state.is_legal(0, action)
    assert sum(mask) == len(legal)
    twin = state.clone()
    twin.apply(0, off_menu)  # typed, it is accepted
    assert twin.pending == (1, 0, 7)
    state.apply(0, free_form)
    act(state, 1, "accept")
    assert state.marker[lot("a3")] == 0 and state.money[:2] == [43, 57]


def test_records_made_before_typed_actions_still_replay() -> None:
    """Moves recorded as text by the code before this change (random games, with typed bets off
    the menu and casinos named by their last lot) replay to the same end."""
    records = json.loads((Path(__file__).parent / "old_records.json").read_text())
    for record in records:
        state = GAME.new_game(record["players"], record["options"], seed=record["seed"])
        for seat, text in record["moves"]:
            action = state.parse_action(text, seat)
            assert state.format_action(action).split()[0] == text.split()[0]
            state.apply(seat, action)
        assert state.is_over
        assert (state.score, state.money, state.turn) == (record["score"], record["money"], record["turn"])


@pytest.mark.parametrize("players", [2, 4])
def test_every_event_is_data_and_worded(players: int) -> None:
    kinds = set()
    for state in _random_states(players, range(3), open_market=True):
        if state.is_over:
            for event in state.view(None)["events"]:
                assert event["kind"] in _WORDS, event
                text = GAME.describe_event(event)
                assert text and not text.startswith(f"{event['kind']}:"), text
                kinds.add(event["kind"])
                assert json.loads(json.dumps(event)) == event
    assert {"dealt", "draw", "build", "lots_pay", "game_over", "end_turn", "market_open"} <= kinds


def test_determinize_depends_only_on_what_the_seat_sees() -> None:
    """Two positions that differ only in the undrawn cards' order give the very same copy."""
    state = GAME.new_game(3, {}, seed=5)
    other = state.clone()
    at = other.deck.index(GAME_END)
    cards = [c for c in other.deck if c != GAME_END]
    random.Random(9).shuffle(cards)
    cards.insert(at, GAME_END)
    other.deck = cards
    assert other.deck != state.deck and other.view(0) == state.view(0)
    for seat in range(3):
        first, second = state.determinize(seat, 77), other.determinize(seat, 77)
        assert state_fingerprint(first) == state_fingerprint(second)
        assert first.deck.index(GAME_END) == at and sorted(first.deck) == sorted(state.deck)
        assert first.view(seat) == state.view(seat)


def test_saved_positions_keep_every_part_and_refuse_inconsistent_ones() -> None:
    state = blank(3, money=30)
    put(state, "c1", "gold", 1, 6)
    mark(state, 1, "a3")
    act(state, 0, "offer 0>1:$5 1>0:a3 0>2:no-gamble")
    document = json.loads(json.dumps(state.to_json()))
    restored = GAME.state_from_json(document)
    assert state_fingerprint(restored) == state_fingerprint(state)
    assert restored.offer == state.offer and restored.to_act == (1,)  # only givers answer
    act(restored, 1, "accept")
    assert restored.marker[lot("a3")] == 0 and restored.bans == (("gamble", -1),)
    for field, value in (("markers_out", [0, 0, 0]), ("deck", []), ("phase", 42)):
        forged = copy.deepcopy(document)
        forged["fields"][field] = value
        forged["checksum"] = checksum({k: v for k, v in forged.items() if k != "checksum"})
        with pytest.raises(SnapshotError):
            GAME.state_from_json(forged)


def test_game_type_bounds_the_longest_games() -> None:
    kind = GAME.game_type
    assert kind.hidden_information and kind.chance and kind.dynamics == "sequential"
    longest = max(
        sum(1 for _ in _random_states(4, range(seed, seed + 1), open_market=True, max_offers=MAX_OFFERS))
        for seed in range(3)
    )
    assert longest < kind.max_actions
