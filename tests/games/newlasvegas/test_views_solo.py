"""Hidden information (deck order, loans, the round's choices), determinize, and the solo game."""

from __future__ import annotations

import random

from tabletown.games.newlasvegas.actions import SKIP, Effect, Pick
from tabletown.games.newlasvegas.data import APPROVAL_BASE, CARD_EFFECT, CARD_NUMBER
from tabletown.games.newlasvegas.scoring import acme_golf_holes, score_solo
from tabletown.games.newlasvegas.sheet import GRAND, SMALL, Sheet

from .helpers import do, ended, fill, logged, new, play_random, skip_loans


def test_views_hide_the_deck_order():
    a = new(3, 7)
    b = a.clone()
    hidden = [c for p in b.piles for c in p[b.top + 1 :]]
    random.Random(1).shuffle(hidden)
    for p in b.piles:
        size = len(p) - b.top - 1
        p[b.top + 1 :] = hidden[:size]
        del hidden[:size]
    assert a.piles != b.piles
    for seat in (None, 0, 1, 2):
        assert a.view(seat) == b.view(seat)


def test_loan_choices_and_round_choices_stay_hidden():
    state = new(3, 2)
    do(state, 0, "loan")
    assert state.view(1)["state"]["players"][0].get("loan") is None
    assert state.view(0)["state"]["players"][0]["loan"] is True
    do(state, 1, "noloan")
    do(state, 2, "noloan")
    before = state.view(1)
    do(state, 0, "a")
    do(state, 0, state.format_action(state.legal_actions(0)[0]), "skip")
    after = state.view(1)
    assert before["state"]["players"][0] == {**after["state"]["players"][0], "acting": True}
    assert before["events"] == after["events"]  # seat 0's steps stay private
    play_random(state, random.Random(3))
    assert state.view(1)["state"]["players"][0]["loan"] is True  # revealed at the end


def test_determinize_keeps_the_view_and_resamples_hidden_things():
    rng = random.Random(4)
    for seed in range(30):
        state = new(3 if seed % 3 else 1, seed)
        steps = rng.randrange(1, 60)
        while state.to_act and steps:
            p = rng.choice(state.to_act)
            state.apply(p, rng.choice(state.legal_actions(p)))
            steps -= 1
        if state.is_over:
            continue
        seat = state.to_act[0]
        twin = state.determinize(seat, seed)
        assert twin.view(seat) == state.view(seat)
        play_random(twin, random.Random(seed))  # the resampled world plays on to an end
        assert twin.is_over


def test_solo_deck_has_approvals_in_the_lower_half_and_a_hidden_loan_card():
    state = new(1, 9)
    deck = state.deck
    assert len(deck) == 83 and state.hand == []  # 81 cards + 3 approvals - the hidden loan card
    approvals = [i for i, c in enumerate(deck) if c >= APPROVAL_BASE]
    assert len(approvals) == 3 and max(approvals) < 44  # the lower half (start of the list)
    view = state.view(0)
    assert view["state"]["acme"]["loan_card"] is None
    assert "deck" not in view["state"]


def test_solo_round_gives_the_third_card_to_acme():
    state = new(1, 11)
    skip_loans(state)
    hand = state.hand[:]
    legal = state.legal_actions(0)
    pick = next(a for a in legal if isinstance(a, Pick) and a.number_card == 1 and a.effect_card == 2)
    state.apply(0, pick)
    state.apply(0, state.legal_actions(0)[0])
    state.apply(0, SKIP)
    assert state.acme_pile == [hand[0]]


def test_solo_approval_card_builds_acme_hotels_that_block_grands():
    state = new(1, 5)
    skip_loans(state)
    state.pending_approvals = [0]  # pink approval card drawn this round
    sh = state.sheets[0]
    fill(sh, **{"1.6": 6, "2.6": 6, "3.6": 6})
    sh.built |= 1 << 0  # irrelevant crane
    # 3.6 is an unbuilt crane: avenue 6 cannot be finished; ACME (card 1) builds hotel 6 first.
    state.apply(0, next(a for a in state.legal_actions(0) if isinstance(a, Pick) and a.bonus == ""))
    state.apply(0, state.legal_actions(0)[0])
    state.apply(0, SKIP)
    assert state.acme_hotels == 1 << 5 and state.grand_taken >> 5 & 1
    assert state.acme_seen == 1 and state.acme_proj == [0, 0, 0]


def test_solo_scoring_from_a_fixed_acme_pile():
    pile = ["up"] * 7 + [
        "op",
        "op",
        "show",
        "show",
        "show",
        "con",
        "con",
        "con",
        "con",
        "con",
        "con",
        "limo",
        "limo",
        "op",
    ]
    # card 1: base [2,3,4,2,2,2], upgraded [3,4,6,3,3,3] at 7,8,9,10,11,12 upgrade cards, crane -4
    assert acme_golf_holes(pile) == 6 + 1 + 2 + 5 + 1
    sh = Sheet(1)
    fill(sh, **{"3.1": 1, "3.3": 3, "3.4": 5})  # a run of 3 in street 3
    sh.marks = 3
    me, acme = score_solo(
        sh, True, 1, pile, acme_hotels=2, acme_proj=[8, 0, 0], loan_card_number=1, golf=True, bank_rule=True
    )
    assert acme["values"] == [3, 3, 4, 2, 2, 2] and acme["run"] == 2
    assert acme["columns"] == {
        "projects": 8,
        "opening": 3 * 3,
        "shows": 3 * 3,
        "hotels": 2 * 4,
        "streets": 4 * 2 + 3 * 2,
        "golf": 15 * 2,
        "limousine": 2 * 2,
        "vault": 0,
    }
    assert acme["total"] == sum(acme["columns"].values())
    assert me["detail"]["opening_place"] == 1 and not me["detail"]["opening_last"]  # 3 boxes vs 3 cards
    me, _ = score_solo(sh, True, 1, [*pile, "op"], 2, [8, 0, 0], 1, golf=True, bank_rule=True)
    assert me["detail"]["opening_place"] == 2 and me["detail"]["opening_last"]
    assert me["detail"]["street_bonus"] == [False, False, True, False]
    assert me["detail"]["bank_bundles"] == 4  # both took the loan (card 1 >= 1)
    _, acme = score_solo(sh, False, 13, pile, 0, [0, 0, 0], loan_card_number=5, golf=True, bank_rule=True)
    assert acme["columns"]["vault"] == -5 and not acme["loan"]


def test_solo_games_end_and_score_both_sides():
    for seed in range(20):
        state = play_random(new(1, seed, architect=[1, 4, 7, 10, 13][seed % 5]), random.Random(seed))
        final = state.final
        assert "acme" in final and final["acme"]["total"] == sum(final["acme"]["columns"].values())
        assert state.result().ranks[0] in (1, 2)


def test_hotel_helpers():
    sh = Sheet(1)
    sh.hotels = [GRAND, SMALL] + [0] * 9
    assert sh.hotel_counts() == (1, 1)
    assert CARD_NUMBER and CARD_EFFECT


def _solo_round(state):
    state.apply(0, next(a for a in state.legal_actions(0) if isinstance(a, Pick) and a.bonus == ""))
    state.apply(0, state.legal_actions(0)[0])
    state.apply(0, SKIP)


def test_acme_project_race_reshuffle_and_ending_the_game(monkeypatch):
    # No designed card lets ACME complete all three projects; the rule is tested with one that does.
    from tabletown.games.newlasvegas.data import ARCHITECTS

    every = [{"project": True, "hotels": []}] * 3
    monkeypatch.setitem(ARCHITECTS, 13, {**ARCHITECTS[13], "approvals": every})
    state = new(1, 12, architect=13)
    skip_loans(state)
    state.pending_approvals = [2]  # the yellow approval card
    _solo_round(state)
    k = 2
    pid = state.projects[k]
    from tabletown.games.newlasvegas.data import PROJECT_BY_ID

    assert state.acme_proj[k] == PROJECT_BY_ID[pid]["points_first"] and state.approved[k]
    assert state.discard == []  # first project: the two discarded cards went back into the deck
    assert logged(state, "first_project_reshuffle")
    state.pending_approvals = [0, 1]
    _solo_round(state)
    assert all(state.acme_proj) and state.is_over
    assert ended(state, "acme_all_projects")


def test_player_scores_the_lower_value_after_acme():
    state = new(1, 12, architect=13)
    skip_loans(state)
    state.projects = ("H1", "S1", "C5")
    state.pending_approvals = [2]
    _solo_round(state)
    assert state.acme_proj[2] == 12
    state.sheets[0].shows = [3, 3]
    _solo_round(state)
    assert state.sheets[0].proj[2] == 6


def test_first_game_starts_without_the_bank_choice():
    state = new(3, 4, first_game=True)
    assert state.phase == "round" and state.loans == [False, False, False]
    assert all(sh.vault == 3 for sh in state.sheets)
    assert not any(isinstance(a, Effect) for a in state.legal_actions(0))
