"""Invariants over thousands of seeded random games, for every player count, Harbor and market."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletown.core.errors import ActionError
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.actions import PASS, ROLL2, TV, Build, Swap
from tabletown.games.machikoro.state import START_COINS

CONFIGS = [
    (players, {"harbor": harbor, "market": market})
    for players in (2, 3, 4)
    for harbor in (False, True)
    for market in ("all", "ten", "hybrid")
]


def check_invariants(state) -> None:
    t = state.t
    n = state.num_players
    assert all(c >= 0 for c in state.coins), state.coins
    # Every coin change is a bank payment or a transfer between players.
    assert sum(state.coins) == START_COINS * n + state.bank_paid - state.bank_received
    in_decks = [0] * len(t.cards)
    for deck in state.decks:
        for i in deck:
            in_decks[i] += 1
    for i, card in enumerate(t.cards):
        owned = sum(city[i] for city in state.cards)
        if t.in_play[i]:
            assert state.supply[i] + in_decks[i] + owned == t.copies[i] + card.starting * n, card.code
        else:
            assert owned == state.supply[i] == in_decks[i] == 0
        if card.is_purple:
            assert all(city[i] <= 1 for city in state.cards)
    allowed = t.victory_mask | (1 << 4 if t.harbor else 0)
    assert all(mask & ~allowed == 0 for mask in state.lm)


def check_end(state) -> None:
    result = state.result()
    assert state.is_over and result is not None
    assert len(result.winners) == 1
    mask = state.t.victory_mask
    winners = [p for p in range(state.num_players) if state.lm[p] & mask == mask]
    assert winners == list(result.winners)


ILLEGAL_PROBES = (
    PASS,
    ROLL2,
    Build("wheat"),
    Build("cheese"),
    Build("radio"),
    Build("airport"),
    Swap("wheat", 1, "ranch"),
    TV(7),
    999_999,
)


def play_checked(players, options, seed, probe_every=0):
    state = GAME.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    check_invariants(state)
    steps = 0
    while not state.is_over:
        (player,) = state.to_act
        legal = state.legal_actions(player)
        assert legal, "a player to act always has a move"
        if probe_every and steps % probe_every == 0:
            probe_illegal(state, player, legal, rng)
        state.apply(player, rng.choice(legal))
        check_invariants(state)
        steps += 1
        assert steps < 20_000
    check_end(state)
    return state


def probe_illegal(state, player, legal, rng):
    """Refused moves raise ActionError and leave the state exactly as it was."""
    from tabletown.core.record import state_digest

    before = state_digest(state)
    candidates = [a for a in ILLEGAL_PROBES if a not in legal]
    for action in rng.sample(candidates, 2):
        with pytest.raises(ActionError):
            state.apply(player, action)
    with pytest.raises(ActionError):
        state.apply((player + 1) % state.num_players, legal[0])
    assert state_digest(state) == before


@pytest.mark.parametrize(
    ("players", "options"), CONFIGS, ids=[f"{p}p-{o['harbor']}-{o['market']}" for p, o in CONFIGS]
)
def test_random_games_keep_every_invariant(players, options):
    for seed in range(110):  # 18 configurations x 110 = 1980 games
        play_checked(players, options, seed * 7919 + players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_refused_moves_never_change_the_state(players):
    for seed in range(6):
        play_checked(players, {"harbor": seed % 2 == 0}, seed, probe_every=5)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 4),
    harbor=st.booleans(),
    city_hall=st.sampled_from(["broke", "every_turn"]),
    radio=st.sampled_from(["choose", "same"]),
    park=st.booleans(),
)
def test_any_rule_variant_plays_to_a_single_winner(seed, players, harbor, city_hall, radio, park):
    options = {"harbor": harbor, "city_hall": city_hall, "radio_tower_dice": radio, "park_same_turn": park}
    play_checked(players, options, seed)


@pytest.mark.soak
def test_soak_many_more_random_games():
    for seed in range(3000):
        players, options = CONFIGS[seed % len(CONFIGS)]
        play_checked(players, options, 10**6 + seed, probe_every=50)
