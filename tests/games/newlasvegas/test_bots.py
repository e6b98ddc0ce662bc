"""The bots choose only legal actions, and greedy clearly beats random."""

from __future__ import annotations

from tabletown.bots import make_bot
from tabletown.core.record import Record, verify
from tabletown.core.session import play_out
from tabletown.games.newlasvegas import bots as greedy_bots
from tabletown.games.newlasvegas import heuristics
from tabletown.games.newlasvegas.bots import GreedyBot
from tabletown.games.newlasvegas.data import STREET_RANGE
from tabletown.games.newlasvegas.sheet import _segments_missing
from tabletown.testing import legal_checked

from .helpers import GAME, new


def test_greedy_beats_random_two_players():
    games, wins = 40, 0
    for seed in range(games):
        state = new(2, seed)
        g = seed % 2
        agents = [
            legal_checked(make_bot(GAME, "greedy" if p == g else "random", seed * 7 + p)) for p in range(2)
        ]
        play_out(state, agents)
        wins += state.result().ranks[g] == 1
    assert wins >= 0.7 * games


def test_greedy_solo_and_first_game_records_replay():
    for players, options in ((1, {"architect": 7}), (3, {"first_game": True})):
        state = GAME.new_game(players, options, 5)
        rec = Record.start(state, ["bot:greedy"] * players)
        play_out(state, [legal_checked(make_bot(GAME, "greedy", p)) for p in range(players)], rec)
        assert state.is_over and verify(rec) == []


class _ForgetfulGreedy(GreedyBot):
    """The greedy bot as it was before its memo: every sheet weighed afresh at every decision."""

    def _memo_for(self, context):
        self._memo_context, self._memo = context, {}
        return self._memo


def test_greedy_memos_change_no_decision(monkeypatch):
    """The greedy bot keeps sheet values between decisions and the heuristic caches each street's
    and each route's figures; a bot that forgets everything must play the very same game, every
    remembered value must equal the heuristic worked out afresh, and the cached figures must equal
    the ones worked out from scratch on every sheet met."""
    remembered = greedy_bots._worth

    def checked(sh, ctx, memo):
        value = remembered(sh, ctx, memo)
        assert value == heuristics.evaluate(sh, ctx)
        return value

    monkeypatch.setattr(greedy_bots, "_worth", checked)
    for players, seed in ((2, 11), (3, 12)):
        state, twin = new(players, seed), new(players, seed)
        bots = [make_bot(GAME, "greedy", seed * 10 + p) for p in range(players)]
        forgetful = [_ForgetfulGreedy(seed * 10 + p) for p in range(players)]
        while not state.is_over:
            player = state.to_act[0]
            if state.round_no % 3 == 0:  # a cold cache now and then, as in a fresh worker
                heuristics._STREET_CACHE.clear()
            action = bots[player].choose(state, player)
            assert forgetful[player].choose(twin, player) == action
            state.apply(player, action)
            twin.apply(player, action)
            for sh in state.sheets:
                good, dead, runs = heuristics._streets(sh)
                fresh = [heuristics.fillable_street(sh.nums, sh.built, a, b) for a, b in STREET_RANGE]
                assert (good, dead) == (sum(g for g, _ in fresh), sum(d for _, d in fresh))
                assert runs == [sh.longest_run(st) for st in range(len(STREET_RANGE))]
                if sh.segs and not sh.route_done:
                    assert sh.segments_missing() == _segments_missing(sh.lamp, sh.edges)
        assert state.result() == twin.result()


def test_greedy_memo_is_not_used_under_other_public_facts(monkeypatch):
    """The same sheets weighed again after a grand hotel was taken must be weighed afresh."""
    remembered = greedy_bots._worth
    hits = []

    def checked(sh, ctx, memo):
        hits.append(sh.key() in memo)
        value = remembered(sh, ctx, memo)
        assert value == heuristics.evaluate(sh, ctx)
        return value

    monkeypatch.setattr(greedy_bots, "_worth", checked)
    state = new(2, 3)
    bot = make_bot(GAME, "greedy", 1)
    while len(state.legal_actions(state.to_act[0])) < 3:
        state.apply(state.to_act[0], bot.choose(state, state.to_act[0]))
    player = state.to_act[0]
    bot.choose(state, player)
    twin = state.clone()
    bot.choose(twin, player)
    assert any(hits)  # the same decision again: remembered values were used
    twin.grand_taken = (1 << 11) - 1 - state.grand_taken  # every other avenue's grand hotel now taken
    hits.clear()
    bot.choose(twin, player)
