"""bot:expert: legal in every set-up, blind to hidden information, and clearly stronger than greedy."""

from __future__ import annotations

import random

import pytest

from tabletown.bots import make_bot
from tabletown.core.session import play_out
from tabletown.games.multicity import GAME, Place
from tabletown.games.multicity.bots import GreedyBot
from tabletown.games.multicity.expert import ExpertBot
from tabletown.testing import choice_checked, paired_share

from .helpers import custom, play

SETUPS = [
    (2, {}),
    (2, {"overlap": "loose"}),
    (2, {"deck": 6}),  # short stack: the final round is reached
    (3, {"kids": True}),
    (3, {"deck": 10, "first": "2"}),
    (4, {}),
    (4, {"overlap": "loose", "kids": True, "deck": 12}),
]


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_expert_only_chooses_legal_actions_and_leaves_the_state_alone(players, options):
    for seed in range(6):
        state = GAME.new_game(players, options, seed=seed)
        # Expert seats mixed with greedy and random ones, so it meets varied positions.
        names = [("expert", "greedy", "random")[(s + seed) % 3] for s in range(players)]
        names[seed % players] = "expert"
        play_out(state, [choice_checked(make_bot(GAME, name, seed * 10 + s)) for s, name in enumerate(names)])


def _sampled_states(count: int) -> list:
    """Positions (state, seat to act) from seeded greedy-vs-expert games, of every kind of decision."""
    rng = random.Random(5)
    states = []
    for seed in range(count):
        players = 2 + seed % 3
        state = GAME.new_game(players, {"deck": rng.choice([8, 20, 32])}, seed=seed)
        bots = [ExpertBot(seed + s) if s % 2 == 0 else GreedyBot(seed + s) for s in range(players)]
        while not state.is_over:
            (seat,) = state.to_act
            if rng.random() < 0.3:
                states.append((state.clone(), seat))
            state.apply(seat, bots[seat].choose(state, seat))
    return states


# Alike to the other games' expert tests on purpose: each game's tests stand alone.
def test_expert_does_not_peek_at_hidden_information():
    """Same view, other stack order and RNG: a fresh expert with the same seed chooses the same."""
    checked = 0
    for index, (state, seat) in enumerate(_sampled_states(12)):
        twin = state.determinize(seat, 1000 + index)
        assert twin.view(seat) == state.view(seat)
        if twin.stack != state.stack:
            checked += 1
        assert ExpertBot(index).choose(state, seat) == ExpertBot(index).choose(twin, seat)
    assert checked > 50


def test_expert_places_a_sixth_object_at_once():
    state = custom(2, ["gbg/gog/yby", "bby/yby/byb", "bby/yby/byb"])
    state.unplaced[0] = (3,)
    state.cands[0] = {a: s for a, s in state.cands[0].items() if a.length == 3}
    assert ExpertBot(1).choose(state, 0) == Place(3, 0, 0, False)


def test_expert_blocks_a_player_about_to_win():
    # Red needs only its 3 (3v 0,0 down the left column); green's 2 on (0,1) takes that away.
    state = custom(2, ["rbb/ggb/rbb", "bby/yby/byb", "bby/yby/byb"])
    state.unplaced[1] = (3,)
    state.cands[1] = {a: s for a, s in state.cands[1].items() if a.length == 3}
    assert ExpertBot(1).choose(state, 0) == Place(2, 0, 1, False)


def test_expert_lays_tiles_that_open_its_own_lengths():
    state = custom(2, ["bby/yby/byb", "gbg/byb/byb", "bby/yby/byb"])
    play(state, "draw")
    play(state, state.format_action(ExpertBot(1).choose(state, 0)))
    assert state.cands[0], "after the expert's lay green has a placement"


def test_expert_beats_greedy():
    # 200 seeded games; a bot only as good as greedy would score about 50%.
    assert paired_share(GAME, "expert", "greedy", 100, 4000) >= 0.65


def test_expert_crushes_random():
    assert paired_share(GAME, "expert", "random", 50, 5000) >= 0.95


def test_greedy_is_still_registered_unchanged():
    bots = GAME.bots()
    assert bots["greedy"] is GreedyBot
    assert bots["expert"] is ExpertBot


def _lay_score_by_full_recount(bot, state, player):
    """The tile-lay score as first written: every free slot's pending ends counted again for each
    lay (the reference the expert's incremental count must equal exactly)."""
    from collections import Counter

    from tabletown.games.multicity.expert import _slot_ends
    from tabletown.games.multicity.grid import key, opened_slots

    def score(lay):
        probe = state.clone()
        slot = (lay.x // 3, lay.y // 3)
        for i, code in enumerate(probe.rotations[probe.drawn][lay.turn]):
            probe.cells[key(lay.x + i % 3, lay.y + i // 3)] = code
        probe.tiles[slot] = (probe.drawn, lay.turn)
        counts = [Counter(a.length for a in c) for c in probe.cands]
        new = probe._discover(lay.x, lay.y)
        for seat, action, _ in new:
            counts[seat][action.length] += 1
        ends = [Counter() for _ in range(probe.num_players)]
        free = [s for s in probe.frontier if s != slot] + opened_slots(probe.tiles, probe.frontier, slot)
        for other in free:
            for seat, d in _slot_ends(probe, other):
                ends[seat][d] += 1
        risk = bot._at_risk(probe, player, new)
        return bot.evaluate(probe, player, counts, ends, risk, final=not probe.stack)

    return score


@pytest.mark.parametrize("players", [2, 4])
def test_incremental_lay_scores_equal_a_full_recount(players):
    # The expert recounts only the free slots a lay can change (it runs in every play-out of the
    # search bot's hard level); every score must be the one a count of the whole city gives.
    checked = 0
    for seed in range(3):
        state = GAME.new_game(players, None, seed)
        experts = [ExpertBot(seed + seat) for seat in range(players)]
        while not state.is_over:
            seat = state.to_act[0]
            if state.drawn is not None:
                legal = state.legal_actions(seat)
                fast = experts[seat]._lay_score(state, seat)
                slow = _lay_score_by_full_recount(experts[seat], state, seat)
                assert [fast(lay) for lay in legal] == [slow(lay) for lay in legal]
                checked += len(legal)
            state.apply(seat, experts[seat].choose(state, seat))
    assert checked > 100
