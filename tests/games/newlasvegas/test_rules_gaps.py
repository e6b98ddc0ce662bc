"""Rules a later audit found implemented but untested, each pinned against the rulebooks
(welcome-to-new-las-vegas.pl.txt / .de.txt), the reference (new-las-vegas.md) and our rulings
(docs/games/newlasvegas.md)."""

from __future__ import annotations

import pytest

from tabletown.games.newlasvegas.actions import SKIP, Pick
from tabletown.games.newlasvegas.data import APPROVAL_BASE, CARD_EFFECT, CARD_NUMBER, NUM_CARDS
from tabletown.games.newlasvegas.rounds import PILE
from tabletown.games.newlasvegas.sheet import GRAND, NO_HOTEL, SMALL

from .helpers import fill, fresh, logged, new, skip_loans, slot

AVENUE_6 = {"1.6": 6, "2.6": 6, "3.6": 6, "4.6": 6}  # 3.6 is a crane casino


def _play_round(state) -> None:
    """Every seat plays its round: the first combination without a bonus, the first casino, no effect."""
    started = state.round_no
    for p in range(state.num_players):
        while state.round_no == started and p in state.to_act:
            legal = state.legal_actions(p)
            if SKIP in legal:
                state.apply(p, SKIP)
            else:
                state.apply(p, next(a for a in legal if not isinstance(a, Pick) or a.bonus == ""))


def _shuffles(state) -> list[dict]:
    return [e.data for e in state.log if e.kind == "piles_shuffled"]


def _complete_avenue_6(sh) -> None:
    sh.built |= 1 << slot("3.6")
    fill(sh, **AVENUE_6)


# ---------------------------------------------------------------- 5. the piles run out
# Rulebooks (pl and de, in our words): when the piles are used up, the cards are shuffled and dealt
# into three piles again as at the start. Our ruling (docs): all 81 cards are reshuffled
# into three new piles of 27 once the last card of each pile has shown its number.
def test_multiplayer_piles_are_used_to_their_last_card_then_all_81_are_reshuffled() -> None:
    state = fresh(2)
    shuffles = len(_shuffles(state))  # the set-up's
    state.top = PILE - 2  # the next round turns the 26th card of each pile
    _play_round(state)
    assert len(_shuffles(state)) == shuffles
    assert state.top == PILE - 1  # the last card of each pile shows its number
    assert state.offers == [(CARD_NUMBER[p[PILE - 1]], CARD_EFFECT[p[PILE - 2]]) for p in state.piles]
    assert state.view(0)["state"]["pile_sizes"] == [0, 0, 0]
    before = [p[:] for p in state.piles]
    _play_round(state)  # nothing left to turn: the piles are reshuffled first
    assert _shuffles(state)[shuffles:] == [{"cards": NUM_CARDS}]
    assert [len(p) for p in state.piles] == [PILE] * 3
    assert sorted(c for p in state.piles for c in p) == list(range(NUM_CARDS))
    assert state.piles != before
    assert state.top == 1  # the new piles' first cards are turned as at the start
    assert state.offers == [(CARD_NUMBER[p[1]], CARD_EFFECT[p[0]]) for p in state.piles]
    assert state.view(0)["state"]["pile_sizes"] == [PILE - 2] * 3


# Rulebooks, solo (pl and de, in our words): an empty draw deck is replaced by the shuffled discards.
# ACME's pile and the
# card under the score sheet are not discards; approval cards drawn are out of the game.
def test_solo_deck_runs_out_mid_hand_and_the_discards_become_the_deck() -> None:
    state = new(1, 4)
    skip_loans(state)
    hand = state.hand[:]
    acme_before = state.acme_pile[:]
    spare = [c for c in state.deck if c < APPROVAL_BASE]
    last, discards = spare[0], spare[1:11]
    state.deck = [last]  # one card left
    state.discard = discards[:]
    state._cache = None
    _play_round(state)
    given = state.acme_pile[-1]
    assert state.acme_pile == [*acme_before, given] and given in hand
    recycled = discards + [c for c in hand if c != given]
    assert [e.data for e in state.log if e.kind == "deck_reshuffled"] == [{"cards": len(recycled)}]
    assert state.hand[0] == last  # the deck's last card first, then the reshuffled discards
    assert sorted(state.hand[1:] + state.deck) == sorted(recycled)
    assert state.discard == []
    assert given not in state.deck and state.acme_loan_card not in state.deck + state.hand
    assert not state.is_over


# ---------------------------------------------------------------- 6. ACME's hotels
# Rulebook (pl, solo; in our words): you may build the same hotel in the same round; if ACME built
# it before you, you can only build a small one; if you built it before ACME, ACME builds none
# there, since it only builds grand hotels.
# Architect card 1: the first approval card builds ACME's hotel on avenue 6.
def test_acme_builds_no_hotel_where_the_player_built_one_in_an_earlier_round() -> None:
    state = new(1, 5)
    skip_loans(state)
    sh = state.sheets[0]
    _complete_avenue_6(sh)
    sh.hotels[5] = GRAND  # taken in an earlier round
    state.grand_taken |= 1 << 5
    state.pending_approvals = [0]
    _play_round(state)
    assert state.acme_seen == 1 and state.acme_hotels == 0
    assert not logged(state, "acme_hotel")
    assert state.sheets[0].hotels[5] == GRAND


def test_acme_and_the_player_both_build_the_grand_hotel_in_the_same_round() -> None:
    state = new(1, 5)
    skip_loans(state)
    _complete_avenue_6(state.sheets[0])  # the hotel is taken when this round resolves
    state.pending_approvals = [0]
    _play_round(state)
    assert state.sheets[0].hotels[5] == GRAND
    assert state.acme_hotels == 1 << 5
    assert [e.data for e in state.log if e.kind == "acme_hotel"] == [{"avenue": 6}]


def test_after_acme_builds_first_the_player_only_gets_the_small_hotel() -> None:
    state = new(1, 5)
    skip_loans(state)
    state.pending_approvals = [0]
    _play_round(state)
    assert state.acme_hotels == 1 << 5 and state.sheets[0].hotels[5] == NO_HOTEL
    _complete_avenue_6(state.sheets[0])
    _play_round(state)
    assert state.sheets[0].hotels[5] == SMALL
    assert state.acme_hotels == 1 << 5


# ---------------------------------------------------------------- 7. a solo tie with ACME
# Rulebooks (pl and de): the solo game keeps the base game's rules: most points wins, a tie goes to most hotels, then
# most grand hotels; still tied, play again. ACME builds only grand hotels. Our ruling (docs, Solo): the
# player wins when their total (then hotels, then grand hotels) is at least ACME's, so a complete tie is
# the player's, as a complete multiplayer tie is shared by everyone in it.
def _solo_tie(player_hotels: list[int], acme_avenues: list[int]):
    state = new(1, 3)
    skip_loans(state)
    sh = state.sheets[0]
    sh.hotels = player_hotels + [NO_HOTEL] * (len(sh.hotels) - len(player_hotels))
    state.acme_hotels = sum(1 << (a - 1) for a in acme_avenues)
    state._finish("test")
    gap = state.final["acme"]["total"] - state.final["players"][0]["total"]
    if gap >= 0:
        sh.proj[0] += gap  # projects count as they stand
    else:
        state.acme_proj[0] -= gap
    state._finish("test")
    assert state.final["players"][0]["total"] == state.final["acme"]["total"]
    return state


@pytest.mark.parametrize(
    ("player_hotels", "acme_avenues", "rank"),
    [
        ([GRAND, SMALL], [6], 1),  # more hotels
        ([SMALL], [6, 7], 2),  # fewer hotels
        ([GRAND, SMALL], [6, 7], 2),  # as many hotels, fewer grand ones (ACME's are all grand)
        ([GRAND, GRAND], [6, 7], 1),  # tied on everything: the player
        ([], [], 1),
    ],
)
def test_a_solo_tie_on_points_goes_to_hotels_then_grand_hotels_then_the_player(
    player_hotels, acme_avenues, rank
) -> None:
    state = _solo_tie(player_hotels, acme_avenues)
    assert state.result().ranks == (rank,)
