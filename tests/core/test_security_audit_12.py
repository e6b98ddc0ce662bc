"""Security audit 12 (2026-12-05): can a bot (or an RL agent) learn what its seat may not know?

Tests named ``test_hole_*`` failed before the fixes: each was a confirmed leak (New Las Vegas's
first flipped cards kept their never-shown numbers; the gym's and the test helpers' bot seeds gave
the game's seed away) or, for ``test_hole_integrity_*``, a way for a bot to change the real game
through its seat copy. Tests named ``test_sound_*`` are guards of what was found sound.

The strongest form used throughout: two true positions that look identical to seat S (equal
``view(S)``, equal events visible to S) but differ in hidden information; S's seat copy
(``core.session.seat_state`` with one seed) must then be bit-for-bit the same, and so must a
fixed-seed bot's move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletown.bots import GENERIC_BOTS
from tabletown.bots.mcts import MCTSBot, SearchConfig
from tabletown.core.game import Bot
from tabletown.core.record import state_fingerprint
from tabletown.core.registry import get_game
from tabletown.core.rng import SeededRNG
from tabletown.core.session import seat_state

NLV = get_game("newlasvegas")


def _visible(state, seat):
    return [e for e in state.log if e.seats is None or seat in e.seats]


def _same_to_seat(a, b, seat):
    assert a.view(seat) == b.view(seat), "precondition: the two positions must look the same to the seat"
    assert _visible(a, seat) == _visible(b, seat)


# ---------------------------------------------------------------------------------------------------
# HOLE 1 - New Las Vegas (multiplayer): the first flipped card of each pile keeps its true number.
# ---------------------------------------------------------------------------------------------------


def _nlv_round_one(players: int, seed: int):
    from tabletown.games.newlasvegas.actions import Loan

    state = NLV.new_game(players, {}, seed)
    while state.phase == "loan":
        for seat in state.to_act:
            state.apply(seat, Loan(False))
    assert state.phase == "round" and state.top == 1
    return state


def _swap_first_flipped(state, min_gap: int = 1):
    """Another truth: pile 0's bottom card p[0] (its effect is on offer, its number was never shown)
    trades places with an unseen card of the same effect and another number."""
    from tabletown.games.newlasvegas.data import CARD_EFFECT, CARD_NUMBER

    twin = state.clone()
    for p in twin.piles:
        c0 = p[0]
        for q in twin.piles:
            for k in range(twin.top + 1, len(q)):
                c = q[k]
                if CARD_EFFECT[c] == CARD_EFFECT[c0] and abs(CARD_NUMBER[c] - CARD_NUMBER[c0]) >= min_gap:
                    p[0], q[k] = c, c0
                    return twin
    raise AssertionError("no card to swap")


def test_hole_nlv_seat_copy_depends_on_never_shown_number_of_first_flipped_card():
    state = _nlv_round_one(3, 21)
    other = _swap_first_flipped(state)
    for seat in range(3):
        _same_to_seat(state, other, seat)
    a, b = seat_state(state, 0, 99), seat_state(other, 0, 99)
    # What the seat may know is the same, so its copy must be the same.
    assert state_fingerprint(a) == state_fingerprint(b), (
        "newlasvegas: the seat copy keeps each pile's first flipped card (its number was never shown)"
    )


def test_hole_nlv_first_flipped_number_is_pinned_in_every_determinization():
    """A bot can read the true number straight off any copy: it never varies across seeds."""
    from tabletown.games.newlasvegas.data import CARD_NUMBER

    state = _nlv_round_one(3, 21)
    numbers = {tuple(CARD_NUMBER[p[0]] for p in seat_state(state, 0, s).piles) for s in range(30)}
    assert numbers != {tuple(CARD_NUMBER[p[0]] for p in state.piles)}, (
        "every determinization shows the true (never shown) numbers of the first flipped cards"
    )


def test_hole_nlv_mcts_move_depends_on_never_shown_number():
    """The strongest form: a fixed-seed search bot picks another combination in round 1."""
    state = _nlv_round_one(2, 0)
    other = _swap_first_flipped(state, min_gap=6)
    _same_to_seat(state, other, 0)
    config = SearchConfig(iterations=150, max_seconds=60)
    first = MCTSBot(NLV, 7, config).choose(seat_state(state, 0, 11), 0)
    second = MCTSBot(NLV, 7, config).choose(seat_state(other, 0, 11), 0)
    assert first == second, f"mcts chose {first} in one truth and {second} in the other"


# ---------------------------------------------------------------------------------------------------
# HOLE 2 - every game, Gymnasium env: an opponent bot's seed is the game seed + 7919.
# ---------------------------------------------------------------------------------------------------


class _SpyBot(Bot):
    """A bot that remembers the seed it was built with (any bot factory receives it)."""

    seeds: list[int] = []
    name = "spy"
    needs_state = False

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        _SpyBot.seeds.append(seed)

    def choose(self, state, player):
        return self.rng.choice(state.legal_actions(player))


@pytest.fixture
def spy(monkeypatch):
    _SpyBot.seeds = []
    monkeypatch.setitem(GENERIC_BOTS, "spy", lambda game, seed: _SpyBot(seed))
    return _SpyBot


def test_hole_gym_opponent_bot_can_rebuild_the_whole_game_from_its_seed(spy):
    from tabletown.rl.gym import TabletownEnv

    env = TabletownEnv("multicity", num_players=2, options={"first": "0"}, opponents="spy", seat=0, seed=3)
    env.reset(seed=3)
    bot_seed = spy.seeds[-1]
    guessed = (bot_seed - 7919) % 2**63  # gym.py: bot_seed = game_seed + 7919 * (number + 1)
    rebuilt = get_game("multicity").new_game(2, {"first": "0"}, guessed)
    # The bot's seat may not know the stack order; from its own seed it knows all of it.
    assert rebuilt.stack != env.state.stack, "the opponent bot recovers the hidden tile stack from its seed"


def test_hole_testing_paired_share_bot_seed_reveals_game_seed(spy):
    from tabletown.testing import paired_share

    game = get_game("multicity")
    paired_share(game, "spy", "random", deals=1, first_seed=12345)
    seed = _SpyBot.seeds[0]
    guessed = seed // 31  # testing.py: make_bot(game, name, seed * 31 + s) with game seed ``seed``
    assert guessed != 12345, "the bot's seed is seed * 31 + seat: it knows the game seed"


# ---------------------------------------------------------------------------------------------------
# HOLE 3 (integrity, not information): the seat copy shares mutable objects with the real game.
# ---------------------------------------------------------------------------------------------------


def test_hole_integrity_bot_changes_real_options_through_seat_copy():
    game = get_game("lordsofvegas")
    state = game.new_game(2, {}, 5)
    copy = seat_state(state, state.to_act[0], 1)
    copy.options["max_offers"] = 0  # a bot scribbling on its copy
    assert state.options["max_offers"] == 3, "the live game's rules changed through the bot's copy"


def test_hole_integrity_bot_changes_real_nlv_sheet_through_seat_copy():
    state = _nlv_round_one(2, 4)
    copy = seat_state(state, 0, 1)
    copy.public[1].vault += 50  # a bot scribbling on another seat's public sheet in its copy
    assert state.public[1].vault < 50, "the live game's sheet changed through the bot's copy"


# ---------------------------------------------------------------------------------------------------
# SOUND (pass): cheap guards of what was checked and found sound.
# ---------------------------------------------------------------------------------------------------


def _positions(name, players, options, seed, count=8):
    rng = random.Random(seed)
    state = get_game(name).new_game(players, options, seed)
    found = []
    while state.to_act and len(found) < count:
        if rng.random() < 0.1:
            found.append(state.clone())
        for seat in state.to_act:
            if seat in state.to_act:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def _other_truth(name, state, rng):
    twin = state.clone()
    twin.rng = SeededRNG(rng.getrandbits(63))  # other future dice
    if name == "machikoro":
        for deck in twin.decks:
            rng.shuffle(deck)
    elif name == "lordsofvegas":
        from tabletown.games.lordsofvegas.data import GAME_END

        rest = [c for c in twin.deck if c != GAME_END]
        rng.shuffle(rest)
        if GAME_END in twin.deck:
            rest.insert(twin.deck.index(GAME_END), GAME_END)
        twin.deck = rest
    elif name == "multicity":
        unseen = list(twin.stack) + list(twin.unused)
        rng.shuffle(unseen)
        twin.stack, twin.unused = unseen[: len(twin.stack)], tuple(unseen[len(twin.stack) :])
    return twin


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("machikoro", 3, {"harbor": True}),
        ("lordsofvegas", 3, {}),
        ("multicity", 3, {"deck": 20}),
    ],
)
def test_sound_seat_copy_and_observation_blind_to_deck_order_and_rng(name, players, options):
    rng = random.Random(1)
    for state in _positions(name, players, options, 7):
        seat = state.to_act[0]
        other = _other_truth(name, state, rng)
        _same_to_seat(state, other, seat)
        assert state_fingerprint(seat_state(state, seat, 9)) == state_fingerprint(seat_state(other, seat, 9))
        assert np.array_equal(state.observation(seat), other.observation(seat))
        assert bytes(state.legal_mask(seat)) == bytes(other.legal_mask(seat))


def test_sound_nlv_seat_copy_blind_to_other_seats_loans_and_round_steps():
    from tabletown.games.newlasvegas.actions import Loan

    for seed in range(4):
        rng = random.Random(seed)
        start = NLV.new_game(3, {}, seed)
        a, b = start.clone(), start.clone()
        a.apply(1, Loan(True))
        b.apply(1, Loan(False))
        for x in (a, b):
            x.apply(2, Loan(True))
            x.apply(0, Loan(False))
        ra, rb = random.Random(1), random.Random(2)
        for q in (1, 2):
            for x, r in ((a, ra), (b, rb)):
                x.apply(q, r.choice(x.legal_actions(q)))
                if seed % 2:
                    while q in x.to_act:
                        x.apply(q, r.choice(x.legal_actions(q)))
        step = rng.choice(a.legal_actions(0))
        a.apply(0, step)
        b.apply(0, step)
        _same_to_seat(a, b, 0)
        assert state_fingerprint(seat_state(a, 0, 5)) == state_fingerprint(seat_state(b, 0, 5))
        assert np.array_equal(a.observation(0), b.observation(0))


def test_sound_nlv_solo_seat_copy_blind_to_deck_order_and_loan_number():
    from tabletown.games.newlasvegas.data import APPROVAL_BASE, CARD_EFFECT

    rng = random.Random(3)
    for seed in range(4):
        state = NLV.new_game(1, {}, seed)
        r = random.Random(seed)
        for _ in range(10 * seed):
            if state.to_act:
                state.apply(0, r.choice(state.legal_actions(0)))
        twin = state.clone()
        below, top = twin.deck[:-1], twin.deck[-1]
        approvals = [c for c in below if c >= APPROVAL_BASE]
        casinos = [c for c in below if c < APPROVAL_BASE]
        for k, c in enumerate(casinos):
            if CARD_EFFECT[c] == CARD_EFFECT[twin.acme_loan_card] and c != twin.acme_loan_card:
                casinos[k], twin.acme_loan_card = twin.acme_loan_card, c
                break
        rng.shuffle(casinos)
        spots = set(rng.sample(range(min(twin.approval_zone, len(below))), len(approvals)))
        twin.deck = [approvals.pop() if i in spots else casinos.pop() for i in range(len(below))] + [top]
        _same_to_seat(state, twin, 0)
        assert state_fingerprint(seat_state(state, 0, 5)) == state_fingerprint(seat_state(twin, 0, 5))
