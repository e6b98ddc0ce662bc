"""A round composed step by step before it is sent (``State.draft``) and the running score.

The browser draws what the server's draft answers, so these tests hold the answers to the rules
themselves: at every point of random rounds the draft offers exactly the steps the engine would
accept, shows the sheet and turn the engine would have, explains a refusal with the engine's rule,
changes nothing and shows nobody's unsent steps but the seat's own."""

from __future__ import annotations

import json
import random

import pytest

from tabletown.core.errors import IllegalAction, MalformedAction
from tabletown.games.newlasvegas.draft import running_score, seen_sheets
from tabletown.games.newlasvegas.state import sheet_view
from tabletown.games.newlasvegas.steps import turn_view

from .helpers import new

SETUPS = [(1, {}), (1, {"architect": 10}), (2, {}), (3, {"first_game": True}), (4, {})]


def _texts(state, seat):
    return sorted(state.format_action(a) for a in state.legal_actions(seat))


def test_draft_offers_the_engines_steps_and_reaches_its_sheet():
    """Every round start of a seat is kept; as the seat plays its steps for real, the draft of the
    same steps from that start offers the engine's legal steps and shows the engine's sheet."""
    rng = random.Random(7)
    checked = 0
    for k in range(10):
        n, options = SETUPS[k % len(SETUPS)]
        state = new(n, 100 + k, **options)
        start: dict[int, tuple] = {}
        while not state.is_over:
            seat = state.to_act[0]
            if state.phase == "round" and state.turns[seat].stage == 0 and seat not in start:
                start[seat] = (state.clone(), [])
            if seat in start:
                base, prefix = start[seat]
                before = json.dumps(base.to_json(), sort_keys=True)
                drafted = base.draft(seat, list(prefix))
                assert sorted(o["text"] for o in drafted["options"]) == _texts(state, seat)
                assert drafted["sheet"] == sheet_view(state.sheets[seat])
                assert drafted["turn"] == turn_view(state.turns[seat])
                assert drafted["steps"] == prefix
                assert json.dumps(base.to_json(), sort_keys=True) == before  # nothing changed
                checked += 1
            action = rng.choice(state.legal_actions(seat))
            if seat in start:
                start[seat][1].append(state.format_action(action))
            state.apply(seat, action)
            if seat in start and (seat not in state.to_act or state.turns[seat].stage == 0):
                del start[seat]  # its round is over (solo: the next one has begun)
    assert checked > 500


def test_each_offered_step_carries_what_the_board_draws():
    state = new(1, 3)
    state.apply(0, state.legal_actions(0)[0])  # the loan
    seen: set[str] = set()
    rng = random.Random(3)
    steps: list[str] = []
    while True:
        drafted = state.draft(0, steps)
        for option in drafted["options"]:
            kind = option["kind"]
            seen.add(kind)
            need = {
                "pick": {"i", "j", "bonus"},
                "refuse": {"card"},
                "open": {"slot", "d"},
                "copy": {"slot", "side"},
                "eff": {"eff", "target"},
                "skip": set(),
            }[kind]
            assert need <= option.keys(), option
            if option.get("eff") == "limo":
                assert {"edge", "to"} <= option.keys()
        if not drafted["options"]:
            break
        steps.append(rng.choice(drafted["options"])["text"])
    assert {"pick", "open", "skip"} <= seen
    assert drafted["turn"]["step"] == "done"


def test_a_refused_draft_step_names_the_rule_apply_would():
    state = new(2, 5)
    for seat in state.to_act:
        state.apply(seat, state.legal_actions(seat)[0])
    pick = state.format_action(state.legal_actions(0)[0])
    real = state.clone()
    real.apply(0, real.parse_action(pick, 0))
    crane = next(s for s in ("1.1", "1.2", "2.1", "3.1") if s not in _texts(real, 0))
    with pytest.raises(IllegalAction) as drafted:
        state.draft(0, [pick, crane])
    with pytest.raises(IllegalAction) as applied:
        real.apply(0, real.parse_action(crane, 0))
    assert drafted.value.rule == applied.value.rule
    with pytest.raises(IllegalAction) as late:
        state.draft(0, [pick, *_texts(real, 0)[:1], "skip", "skip"])
    assert late.value.rule in ("nlv.plan_too_long", "nlv.step")
    with pytest.raises(MalformedAction):
        state.draft(0, ["zz"])
    with pytest.raises(MalformedAction):
        state.draft(0, [f"{pick}, skip"])  # a whole plan is not one step
    with pytest.raises(MalformedAction):
        state.draft(0, ["skip"] * 9)


def test_only_a_seat_in_its_round_drafts():
    state = new(2, 9)
    with pytest.raises(IllegalAction) as loan:
        state.draft(0, [])
    assert loan.value.rule == "nlv.draft"  # the bank loan is one click, nothing to compose
    for seat in state.to_act:
        state.apply(seat, state.legal_actions(seat)[0])
    for _step in ("pick", "open", "effect"):
        action = state.legal_actions(0)[0]
        state.apply(0, action)
        if 0 not in state.to_act:
            break
    while 0 in state.to_act:
        state.apply(0, state.legal_actions(0)[-1])
    with pytest.raises(IllegalAction) as done:
        state.draft(0, [])
    assert done.value.rule == "turn.not_your_turn"


def test_a_draft_shows_no_other_seats_unsent_steps():
    """Seat 0 has played part of its round; seat 1's draft scores seat 0's sheet as seat 1's own
    view does, from the copy taken at the round's start."""
    state = new(3, 11)
    for seat in state.to_act:
        state.apply(seat, state.legal_actions(seat)[0])
    state.apply(0, state.legal_actions(0)[0])
    state.apply(0, state.legal_actions(0)[0])  # a number written, not yet public
    assert state.sheets[0].nums != state.public[0].nums
    drafted = state.draft(1, [])
    view = state.view(1)
    assert drafted["score_now"]["players"][0] == view["state"]["score_now"]["players"][0]
    assert drafted["score_now"]["players"][0] == running_score(state, seen_sheets(state, 1))["players"][0]
    private = running_score(state, state.sheets)["players"][0]
    public_sheet = sheet_view(state.public[0])
    assert view["state"]["players"][0]["sheet"] == public_sheet
    assert "turn" not in view["state"]["players"][0]
    # what seat 0 wrote counts in its own running score only: a street run of one
    assert private["detail"]["runs"] != drafted["score_now"]["players"][0]["detail"]["runs"]


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_the_running_score_is_the_final_score_but_for_the_secret_bank(players, options):
    """At the end, the score the board showed throughout (no bank bundles, ACME's loan card unseen)
    agrees with the final score in every column but the vault."""
    state = new(players, 40 + players, **options)
    rng = random.Random(players)
    last = None
    while not state.is_over:
        last = state.view(0)["state"]["score_now"]
        for seat in state.to_act:
            if seat in state.to_act:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert last is not None and "score_now" not in state.view(0)["state"]  # the final score instead
    now = running_score(state, state.sheets)
    for q, final in enumerate(state.final["players"]):
        mine = dict(now["players"][q]["columns"])
        want = dict(final["columns"])
        mine.pop("vault"), want.pop("vault")
        assert mine == want
    if players == 1:
        mine = dict(now["acme"]["columns"])
        want = dict(state.final["acme"]["columns"])
        mine.pop("vault"), want.pop("vault")
        assert mine == want
        assert "loan" not in now["acme"]  # the card under the sheet is still face down
