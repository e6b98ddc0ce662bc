"""Audit: determinize resamples only what the seat cannot know.

Multiplayer: a pile's top card shows its number but not its effect (that effect is next round's),
and before the first round nothing on the piles is shown. Solo: the approval cards still in the
deck stay in its lower part until a full reshuffle; the hidden loan card is any unseen casino card.
"""

from __future__ import annotations

import random
from collections import Counter

from tabletown.games.newlasvegas.actions import SKIP, Pick
from tabletown.games.newlasvegas.data import APPROVAL_BASE, CARD_EFFECT, CARD_NUMBER

from .helpers import logged, new, skip_loans


def _tops(state):
    return [p[state.top] for p in state.piles]


def test_multiplayer_top_cards_keep_their_number_but_not_their_effect():
    state = new(3, 21)
    skip_loans(state)
    seen_effects = set()
    seen_first_numbers = set()
    for seed in range(40):
        twin = state.determinize(0, seed)
        assert twin.view(0) == state.view(0)
        assert [CARD_NUMBER[c] for c in _tops(twin)] == [CARD_NUMBER[c] for c in _tops(state)]
        # cards seen whole stay; the cycle's first flip shows its effect but never showed its number
        assert [p[1 : state.top] for p in twin.piles] == [p[1 : state.top] for p in state.piles]
        assert [CARD_EFFECT[p[0]] for p in twin.piles] == [CARD_EFFECT[p[0]] for p in state.piles]
        assert Counter(c for p in twin.piles for c in p) == Counter(c for p in state.piles for c in p)
        seen_effects.add(tuple(CARD_EFFECT[c] for c in _tops(twin)))
        seen_first_numbers.add(tuple(CARD_NUMBER[p[0]] for p in twin.piles))
    # The effects of next round's flips are unknown, and so are the numbers of the first flips
    # (security audit 12): neither may stay fixed.
    assert len(seen_effects) > 1 and len(seen_first_numbers) > 1


def test_multiplayer_first_flips_keep_their_effect_later_in_the_cycle():
    state = new(3, 23)
    skip_loans(state)
    while state.top < 4 and not state.is_over:
        for seat in state.to_act:
            state.apply(seat, state.legal_actions(seat)[0])
    assert state.top >= 2
    for seed in range(20):
        twin = state.determinize(1, seed)
        assert twin.view(1) == state.view(1)
        assert [p[1 : state.top] for p in twin.piles] == [p[1 : state.top] for p in state.piles]
        assert [CARD_EFFECT[p[0]] for p in twin.piles] == [CARD_EFFECT[p[0]] for p in state.piles]
        assert [CARD_NUMBER[c] for c in _tops(twin)] == [CARD_NUMBER[c] for c in _tops(state)]


def test_multiplayer_before_the_first_round_no_pile_card_is_fixed():
    state = new(3, 22)
    assert state.phase == "loan" and not state.offers
    numbers = {tuple(CARD_NUMBER[c] for c in _tops(state.determinize(0, seed))) for seed in range(20)}
    assert len(numbers) > 1
    for seed in range(5):
        assert state.determinize(1, seed).view(1) == state.view(1)


def _solo_after(seed: int, rounds: int):
    state = new(1, seed)
    skip_loans(state)
    rng = random.Random(seed)
    while state.round_no <= rounds and not state.is_over:
        state.apply(0, rng.choice(state.legal_actions(0)))
    return state


def test_solo_determinize_keeps_approvals_in_the_lower_part():
    loan_cards = set()
    for seed in range(12):
        state = _solo_after(seed, seed % 6)
        if state.is_over:
            continue
        zone = min(state.approval_zone, len(state.deck))
        unseen = Counter(state.deck + [state.acme_loan_card])
        for k in range(10):
            twin = state.determinize(0, 100 * seed + k)
            assert twin.view(0) == state.view(0)
            assert Counter(twin.deck + [twin.acme_loan_card]) == unseen
            assert twin.acme_loan_card < APPROVAL_BASE
            assert all(i < zone for i, c in enumerate(twin.deck) if c >= APPROVAL_BASE)
            loan_cards.add(twin.acme_loan_card)
    assert len(loan_cards) > 5  # the hidden loan card is resampled


def test_solo_approvals_may_be_anywhere_after_the_first_project_reshuffle():
    state = new(1, 12, architect=13)
    skip_loans(state)
    assert state.approval_zone == 44  # 41 casino cards + 3 approval cards under 40 casino cards
    state.pending_approvals = [2]  # ACME (card 13) completes the yellow project: forced reshuffle
    state.apply(0, next(a for a in state.legal_actions(0) if isinstance(a, Pick) and a.bonus == ""))
    state.apply(0, state.legal_actions(0)[0])
    state.apply(0, SKIP)
    assert logged(state, "first_project_reshuffle")
    assert state.approval_zone >= len(state.deck)
    highest = max(
        i for seed in range(30) for i, c in enumerate(state.determinize(0, seed).deck) if c >= APPROVAL_BASE
    )
    assert highest >= 44


def test_solo_determinize_after_the_end_keeps_the_revealed_loan_card():
    state = _solo_after(3, 999)
    assert state.is_over
    twin = state.determinize(0, 5)
    assert twin.acme_loan_card == state.acme_loan_card and twin.view(0) == state.view(0)


def test_solo_view_shows_the_face_up_deck_top_and_the_loan_cards_effect():
    state = _solo_after(5, 2)
    acme = state.view(0)["state"]["acme"]
    top = state.deck[-1]
    if top < APPROVAL_BASE:
        assert acme["deck_top"] == CARD_EFFECT[top]
    else:
        assert acme["deck_top"].startswith("approval")
    assert acme["loan_card_effect"] == CARD_EFFECT[state.acme_loan_card]
    assert acme["loan_card"] is None  # its number stays secret until the end
    for seed in range(20):
        twin = state.determinize(0, seed)
        assert twin.deck[-1] == top or (
            top < APPROVAL_BASE and CARD_EFFECT[twin.deck[-1]] == CARD_EFFECT[top]
        )
        assert CARD_EFFECT[twin.acme_loan_card] == CARD_EFFECT[state.acme_loan_card]


def test_solo_determinize_keeps_an_approval_card_on_top():
    state = new(1, 30)
    skip_loans(state)
    # Put an approval card on top of the deck (it lies in the lower part once the upper one is gone).
    state.deck = state.deck[:20]
    k = next(i for i, c in enumerate(state.deck) if c >= APPROVAL_BASE)
    state.deck.append(state.deck.pop(k))
    assert state.view(0)["state"]["acme"]["deck_top"].startswith("approval")
    for seed in range(10):
        twin = state.determinize(0, seed)
        assert twin.deck[-1] == state.deck[-1] and twin.view(0) == state.view(0)
        assert sum(c >= APPROVAL_BASE for c in twin.deck) == sum(c >= APPROVAL_BASE for c in state.deck)
