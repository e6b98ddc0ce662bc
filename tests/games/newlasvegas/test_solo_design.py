"""The ACME architect cards (our design for 4-13), the solo expert's card choice, solo arena jobs."""

from __future__ import annotations

import pytest

from tabletown.arena.runner import Job, play_game
from tabletown.arena.stats import summarize
from tabletown.games.newlasvegas import GAME
from tabletown.games.newlasvegas.data import ARCHITECTS, CARD_EFFECT, CARD_NUMBER, NUM_AVENUES
from tabletown.games.newlasvegas.expert import WEIGHTS, ExpertBot, acme_projection
from tabletown.games.newlasvegas.solo_design import APPROVALS, LEVELS, STEPS, TARGETS, card_at, rescore

from .helpers import new, skip_loans

NUMBERS = (1, 4, 7, 10, 13)


def test_cards_json_holds_the_designed_cards():
    assert sorted(ARCHITECTS) == list(NUMBERS) == sorted(LEVELS) == sorted(APPROVALS) == sorted(TARGETS)
    for number in NUMBERS:
        card = {key: value for key, value in ARCHITECTS[number].items() if not key.startswith("_")}
        assert card == card_at(number), number


def test_card_1_is_the_rulebook_example():
    card = ARCHITECTS[1]
    assert LEVELS[1] == 0
    assert card["base"] == [2, 3, 4, 2, 2, 2] and card["upgraded"] == [3, 4, 6, 3, 3, 3]
    assert card["thresholds"] == [7, 8, 9, 10, 11, 12] and card["crane"] == -4
    assert [(row["project"], row["hotels"]) for row in card["approvals"]] == [
        (False, [6]),
        (False, [7]),
        (True, [8, 9]),
    ]


def test_card_values_stay_in_the_documented_ranges():
    for number in NUMBERS:
        card = ARCHITECTS[number]
        assert all(1 <= b <= 9 for b in card["base"]), number
        assert all(u > b for b, u in zip(card["base"], card["upgraded"], strict=True)), number
        assert all(1 <= t <= 12 for t in card["thresholds"]), number
        assert card["thresholds"] == sorted(card["thresholds"]), number  # opening upgrades first
        assert -4 <= card["crane"] <= 0, number
        assert len(card["approvals"]) == 3
        avenues = [a for row in card["approvals"] for a in row["hotels"]]
        assert len(set(avenues)) == len(avenues) and all(1 <= a <= NUM_AVENUES for a in avenues)
        # ACME never completes all three projects on its own: no card ends the game by itself.
        assert 1 <= sum(row["project"] for row in card["approvals"]) <= 2


def test_difficulty_parameters_never_fall_from_one_card_to_the_next():
    levels = [LEVELS[n] for n in NUMBERS]
    assert levels == sorted(levels) and len(set(levels)) == len(levels)
    for easy, hard in zip(NUMBERS, NUMBERS[1:], strict=False):
        a, b = ARCHITECTS[easy], ARCHITECTS[hard]
        assert all(x <= y for x, y in zip(a["base"], b["base"], strict=True)), hard
        assert all(x <= y for x, y in zip(a["upgraded"], b["upgraded"], strict=True)), hard
        assert all(x >= y for x, y in zip(a["thresholds"], b["thresholds"], strict=True)), hard
        assert a["crane"] <= b["crane"], hard
        for key in ("project", "hotels"):
            count = [sum(len(r[key]) if key == "hotels" else r[key] for r in c["approvals"]) for c in (a, b)]
            assert count[0] <= count[1], (hard, key)
    assert TARGETS == {1: 0.85, 4: 0.70, 7: 0.55, 10: 0.40, 13: 0.25}


def test_every_level_step_raises_exactly_one_thing():
    for level in range(2 * len(STEPS)):
        a, b = card_at(4, level), card_at(4, level + 1)
        changed = (
            sum(y - x for x, y in zip(a["base"], b["base"], strict=True))
            + (a["thresholds"] != b["thresholds"])
            + (b["crane"] - a["crane"])
        )
        assert changed == 1, level


def test_rescoring_a_game_at_its_own_level_gives_its_result():
    from tabletown.games.newlasvegas.solo_design import _play

    line = _play((7, LEVELS[7], 3, "greedy"))
    win, margin = rescore(line, LEVELS[7])
    assert win == line["win"] and margin == line["total"] - line["acme"]
    assert ARCHITECTS[7] == card_at(7)


# -- the solo expert's view of ACME ----------------------------------------------------------------


def test_acme_projection_weighs_thresholds_constructions_and_repeats():
    pile = ["up"] * 6 + ["op"] * 8 + ["show", "limo"]
    # The 7th upgrade card reaches card 1's opening threshold: every opening card scores 3, not 2.
    assert acme_projection(1, pile, "up", 0, 0)[0] - acme_projection(1, pile, "con", 0, 0)[0] == 8
    # A card repeating the pile's top card is also a golf hole (card 1: limousine 2, hole 2, opening 2).
    assert acme_projection(1, pile, "limo", 0, 0)[0] - acme_projection(1, pile, "op", 0, 0)[0] == 2
    # Constructions lengthen ACME's chain in every street once it is above 1.
    cons = ["con"] * 6
    assert acme_projection(1, cons, "con", 0, 0)[1] == 3
    assert acme_projection(1, cons, "op", 0, 0)[1] == 2


def _solo_round(hand_spec: list[tuple[int, str]], pile: list[str]):
    state = new(1, 11, architect=1)
    skip_loans(state, 1)
    ids = []
    for number, effect in hand_spec:
        ids.append(
            next(
                c
                for c in range(len(CARD_NUMBER))
                if (CARD_NUMBER[c], CARD_EFFECT[c]) == (number, effect) and c not in ids
            )
        )
    state.hand = ids
    state.acme_pile = [
        next(c for c in range(len(CARD_NUMBER)) if CARD_EFFECT[c] == effect and c not in ids)
        for effect in pile
    ]
    state._cache = None
    return state


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_solo_expert_keeps_the_threshold_card_from_acme(seed):
    # ACME holds 6 upgrade cards and many opening cards: a 7th upgrade raises all of them.
    state = _solo_round([(8, "show"), (8, "show"), (8, "up")], ["up"] * 6 + ["op"] * 10)
    pick = ExpertBot(seed).choose(state, 0)
    assert pick.kind == "pick"
    assert CARD_EFFECT[state.hand[3 - pick.number_card - pick.effect_card]] != "up"
    # Without the ACME term the same expert is indifferent to which card ACME gets.
    plain = ExpertBot(seed, {"acme": 0.0})
    assert plain.w["acme"] == 0.0 and WEIGHTS["acme"] > 0


def test_solo_expert_plays_for_the_street_bonus_against_acme():
    """ACME's chain is its construction cards plus the crane modifier: a street where the sheet's chain
    reaches it is worth the sheet's street bonus, one where it falls short gives ACME its own."""
    from tabletown.games.newlasvegas.expert import evaluate

    from .helpers import slot

    state = _solo_round([(8, "show"), (9, "show"), (10, "up")], [])
    bot = ExpertBot(0)
    sh = state.sheets[0].copy()
    for name, value in (("4.2", 2), ("4.3", 4), ("4.4", 6), ("4.6", 8), ("4.7", 10)):
        sh.nums[slot(name)] = value  # a chain of 5 even casinos in street 4
    values = {}
    for run in (3, 7):
        ctx = bot._context(state, 0)
        ctx["acme"] = [(0.0, float(run), 4.0, 0.0, 0.0)] * 3
        values[run] = evaluate(sh, ctx, bot.w, 0)
    # Beating ACME's chain by 2 instead of trailing it by 2: about the street bonus (6) and ACME's (4).
    assert values[3] - values[7] > 8


# -- the arena plays solo jobs ---------------------------------------------------------------------


def test_arena_plays_a_one_seat_job():
    job = Job("newlasvegas", ("greedy",), 2, 7, {"architect": 4})
    lines = [play_game(GAME, job, index) for index in range(2)]
    for line in lines:
        assert line["entries"] == [0] and len(line["result"]["scores"]) == 1
        assert line["result"]["winners"] in ([], [0])
        assert "--option architect=4" in line["replay"]
    summary = summarize(job.bots, lines)
    assert summary["games"] == 2 and summary["bots"][0]["games"] == 2


def test_solo_expert_reads_nothing_hidden():
    """The ACME terms read ACME's pile, the card and the hand: a determinized copy (other deck order,
    other hidden loan card) gets the same answer."""
    import random

    rng = random.Random(3)
    state = GAME.new_game(1, {"architect": 10}, seed=21)
    bot = ExpertBot(1)
    checked = 0
    while not state.is_over:
        if state.phase == "round" and rng.random() < 0.15:
            twin = state.determinize(0, 500 + checked)
            assert twin.view(0) == state.view(0)
            assert ExpertBot(checked).choose(state, 0) == ExpertBot(checked).choose(twin, 0)
            checked += 1
        state.apply(0, bot.choose(state, 0))
    assert checked > 5


def test_arena_resumes_a_solo_job_with_losses(tmp_path):
    """A lost solo game ranks its one seat 2 (ACME won): the arena's store keeps it on resume."""
    from tabletown.arena.api import run_arena

    job = Job("newlasvegas", ("greedy",), 6, 7, {"architect": 13})
    first = run_arena(GAME, job, tmp_path, 1)
    assert any(line["result"]["ranks"] == [2] for line in first)
    played = []
    again = run_arena(GAME, job, tmp_path, 1, on_game=played.append)
    assert played == [] and sorted(line["index"] for line in again) == list(range(6))
