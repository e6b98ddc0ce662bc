"""``bot:search`` (tabletown.bots.search): legal, reproducible, time-capped, blind to hidden information,
and Machi Koro's dice enumerated exactly. Budgets are tiny so the file stays fast."""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable
from dataclasses import replace

import pytest
from toygame import TOY, ToyState, hidden_twin

from tabletown.bots import bot_names, make_bot
from tabletown.bots.search import PRESETS, SearchBot, SearchSettings, settings_for
from tabletown.core.game import Action, Game, State
from tabletown.core.registry import all_games, get_game
from tabletown.games.machikoro import chance
from tabletown.games.machikoro import search_model as machikoro_model
from tabletown.games.machikoro.actions import ROLL1, ROLL2, Build
from tabletown.games.machikoro.phases import BUILD
from tabletown.games.machikoro.state import MachiKoroState

TINY = SearchSettings(rollouts=24, max_seconds=30.0, cutoff=8)


def positions(
    game: Game, count: int, seed: int, options: dict | None = None, players: int = 2
) -> list[State]:
    """Positions with a choice (two or more legal moves) met in random games."""
    rng = random.Random(seed)
    found: list[State] = []
    game_seed = seed
    while len(found) < count:
        state = game.new_game(players, options or {}, seed=game_seed)
        game_seed += 1
        steps = 0
        while state.to_act and len(found) < count and steps < 400:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rng.random() < 0.25:
                found.append(state.clone())
            state.apply(seat, rng.choice(legal))
            steps += 1
    return found


def test_levels_are_registered_for_every_game() -> None:
    for game in [*all_games().values(), TOY]:
        names = bot_names(game)
        for level in ("easy", "medium", "hard"):
            assert f"search:{level}" in names
            bot = make_bot(game, f"bot:search:{level}", 1)
            assert isinstance(bot, SearchBot)
            assert bot.config == settings_for(game, level)
    assert PRESETS["easy"].max_seconds < PRESETS["medium"].max_seconds < PRESETS["hard"].max_seconds <= 2.0


@pytest.mark.parametrize("name", sorted(all_games()))
def test_legal_moves_and_the_real_state_untouched(name: str) -> None:
    game = get_game(name)
    for index, state in enumerate(positions(game, 3, seed=5)):
        seat = state.to_act[0]
        before = state.view(seat)
        bot = SearchBot(
            game, index, replace(settings_for(game, "easy"), rollouts=12, top_k=4, max_seconds=30.0)
        )
        assert bot.choose(state, seat) in state.legal_actions(seat)
        assert state.view(seat) == before, "searching must not touch the real state"


def test_machikoro_same_seed_same_move() -> None:
    game = get_game("machikoro")
    for index, state in enumerate(positions(game, 6, seed=7)):
        seat = state.to_act[0]
        a, b = SearchBot(game, index, TINY), SearchBot(game, index, TINY)
        assert a.choose(state.clone(), seat) == b.choose(state.clone(), seat)
        assert a.last_values == b.last_values
        assert a.last_rollouts == b.last_rollouts > 0


def test_time_cap_is_respected() -> None:
    game = get_game("machikoro")
    state = next(s for s in positions(game, 20, seed=3) if len(s.legal_actions(s.to_act[0])) > 4)
    seat = state.to_act[0]
    bot = SearchBot(game, 1, SearchSettings(rollouts=10**6, max_seconds=0.3, cutoff=20))
    start = time.perf_counter()
    assert bot.choose(state, seat) in state.legal_actions(seat)
    # One rollout past the deadline at most (a few ms), plus the anchor's own move.
    assert time.perf_counter() - start < 1.5
    assert bot.capped == 1


def test_toy_decision_depends_only_on_what_the_seat_sees() -> None:
    """Two toy states that differ only in the rival's hidden card and the deck order: same values."""
    checked = 0
    for state in positions(TOY, 30, seed=3):
        assert isinstance(state, ToyState)
        seat = state.to_act[0]
        other = hidden_twin(state, seat)
        if other is None:
            continue
        assert other.view(seat) == state.view(seat)
        a, b = SearchBot(TOY, 9, TINY), SearchBot(TOY, 9, TINY)
        assert a.choose(state, seat) == b.choose(other, seat)
        assert a.last_values == b.last_values
        checked += 1
    assert checked >= 5


def test_machikoro_decision_ignores_the_hidden_deck_order() -> None:
    """With Harbor's market the deck order is hidden: reordering it changes nothing."""
    game = get_game("machikoro")
    checked = 0
    for state in positions(game, 8, seed=11, options={"harbor": True}):
        seat = state.to_act[0]
        other = state.clone()
        for deck in other.decks:  # type: ignore[attr-defined]
            random.Random(checked).shuffle(deck)
            deck.reverse()
        assert other.view(seat) == state.view(seat)
        a, b = SearchBot(game, 4, TINY), SearchBot(game, 4, TINY)
        assert a.choose(state, seat) == b.choose(other, seat)
        assert a.last_values == b.last_values
        checked += 1
    assert checked == 8


def test_dice_classes_are_exact() -> None:
    assert sum(p for p, _ in chance.ONE_DIE) == pytest.approx(1.0)
    # 11 sums; the even ones 4-10 also split off their doubles; 2 and 12 are doubles only
    assert len(chance.TWO_DICE) == 15
    assert sum(p for p, _ in chance.TWO_DICE) == pytest.approx(1.0)
    by_sum: dict[int, float] = {}
    doubles = 0.0
    for p, (a, b) in chance.TWO_DICE:
        by_sum[a + b] = by_sum.get(a + b, 0.0) + p
        doubles += p if a == b else 0.0
    assert by_sum == pytest.approx({s: (6 - abs(s - 7)) / 36 for s in range(2, 13)})
    assert doubles == pytest.approx(1 / 6)


def test_forced_roll_gives_that_outcome_and_then_the_real_stream() -> None:
    from tabletown.core.rng import SeededRNG

    game = get_game("machikoro")
    state = game.new_game(2, {}, seed=1)
    assert isinstance(state, MachiKoroState)
    outcomes = chance.outcomes(state, 0, ROLL1)
    assert outcomes is not None and len(outcomes) == 6
    for face, (_, force) in enumerate(outcomes, start=1):
        copy = state.clone()
        assert isinstance(copy, MachiKoroState)
        rest = SeededRNG(5)
        force(copy, 0, ROLL1, rest)
        assert copy.total == face and copy.rng is rest
    assert chance.outcomes(state, 0, Build("cafe")) is None
    assert len(chance.outcomes(state, 0, ROLL2) or []) == 15


def test_roll_decision_enumerates_every_face() -> None:
    game = get_game("machikoro")
    state = next(s for s in positions(game, 60, seed=2) if ROLL2 in s.legal_actions(s.to_act[0]))
    seat = state.to_act[0]
    bot = SearchBot(game, 3, replace(TINY, rollouts=2, min_round=1, focus=False))
    assert bot.choose(state, seat) in (ROLL1, ROLL2)
    assert bot.last_rollouts == 6 + 15  # one shared sample, every outcome of both rolls


@pytest.mark.parametrize("name", sorted(all_games()))
def test_decision_is_the_same_on_any_determinization(name: str) -> None:
    """``determinize(seat, s)`` redraws everything the seat cannot see (other seats' hidden cards and
    secret choices, deck orders) and nothing it can: the bot must answer it exactly as the real state."""
    game = get_game(name)
    settings = replace(settings_for(game, "easy"), rollouts=12, top_k=4, max_seconds=30.0)
    for index, state in enumerate(positions(game, 3, seed=17)):
        seat = state.to_act[0]
        resampled = state.determinize(seat, 1234 + index)
        assert resampled.view(seat) == state.view(seat)
        a, b = SearchBot(game, index, settings), SearchBot(game, index, settings)
        assert a.choose(state, seat) == b.choose(resampled, seat)
        assert a.last_values == b.last_values


def test_machikoro_searches_builds_only_and_plays_the_expert_elsewhere() -> None:
    """With its search model's ``searched``, only build decisions are searched; dice, re-roll and
    Harbor choices are the expert's own (the anchor reads a determinization, which in Machi Koro
    without Harbor's market hides nothing)."""
    game = get_game("machikoro")
    expert = game.bots()["expert"](0)
    bot = SearchBot(game, 2, replace(TINY, rollouts=4))
    state = game.new_game(2, {}, seed=21)
    assert isinstance(state, MachiKoroState)
    builds = others = 0
    while state.to_act and (builds < 4 or others < 2):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if seat == 0 and len(legal) > 1:
            before = bot.searched
            move = bot.choose(state.clone(), seat)
            if state.phase == BUILD:
                builds += 1
                assert bot.searched == before + 1
            else:
                others += 1
                assert bot.searched == before
                assert move == expert.choose(state.clone(), seat)
        else:
            move = expert.choose(state.clone(), seat)
        state.apply(seat, move)
    assert builds >= 4 and others >= 2
    # focus=False searches every decision again
    unfocused = SearchBot(game, 2, replace(TINY, rollouts=8, focus=False))
    roll = next(s for s in positions(game, 60, seed=2) if ROLL2 in s.legal_actions(s.to_act[0]))
    unfocused.choose(roll, roll.to_act[0])
    assert unfocused.searched == 1


def test_machikoro_cut_off_value_is_a_win_probability() -> None:
    """Two seats' values sum to one, and coins that shorten a seat's race raise its value."""
    game = get_game("machikoro")
    for state in positions(game, 20, seed=31):
        assert isinstance(state, MachiKoroState)
        if state.is_over:
            continue
        values = [machikoro_model.value(state, seat) for seat in range(2)]
        assert all(0.0 < v < 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
        richer = state.clone()
        assert isinstance(richer, MachiKoroState)
        richer.coins[0] += 5
        if machikoro_model.race_values(richer)[0] > machikoro_model.race_values(state)[0]:
            assert machikoro_model.value(richer, 0) > values[0]


def test_search_uses_the_model_value_at_the_cut_off() -> None:
    game = get_game("machikoro")
    state = positions(game, 1, seed=41)[0]
    bot = SearchBot(game, 1, TINY)
    assert bot._value(state, 0) == machikoro_model.value(state, 0)  # type: ignore[arg-type]


def test_verification_compares_challenger_and_anchor_on_fresh_samples() -> None:
    """With ``verify``, the halving's winner meets the anchor again on new samples, and a move other
    than the anchor's is played only when those samples alone favour it."""
    game = get_game("machikoro")
    settings = replace(TINY, rollouts=40, verify=0.5, margin=0.0)
    verified = 0
    for index, state in enumerate(positions(game, 40, seed=13)):
        if state.phase != BUILD:  # type: ignore[attr-defined]
            continue
        seat = state.to_act[0]
        bot = SearchBot(game, index, settings)
        move = bot.choose(state, seat)
        anchor = game.bots()["expert"](0).choose(state.clone(), seat)
        if bot.last_verified:
            verified += 1
            assert len(bot.last_values) == 2 and anchor in bot.last_values and move in bot.last_values
            # verify * rollouts = 20 rollouts: 10 fresh samples, each played by both moves
            assert bot.last_verified == 10
            if move != anchor:
                assert bot.last_values[move] > bot.last_values[anchor]
        else:
            assert move == anchor or len(bot.last_values) > 2
    assert verified > 0


def test_machikoro_candidates_follow_the_expert_ranking() -> None:
    """Above ``top_k`` legal builds, the candidates are the expert's move, greedy's, and the next best
    by the expert's own valuation of every build (whose best is the expert's move)."""
    game = get_game("machikoro")
    expert = game.bots()["expert"](0)
    greedy = game.bots()["greedy"](0)
    checked = 0
    for state in positions(game, 200, seed=19):
        assert isinstance(state, MachiKoroState)
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if state.phase != BUILD or len(legal) <= 4:
            continue
        ranked = machikoro_model.rank(state.clone(), seat, legal)
        assert ranked is not None and sorted(map(str, ranked)) == sorted(map(str, legal))
        assert ranked[0] == expert.choose(state.clone(), seat)
        bot = SearchBot(game, 1, replace(TINY, top_k=4))
        candidates = bot._candidates(state, seat, legal, ranked[0], 5)
        first = [ranked[0]] + [m for m in [greedy.choose(state.clone(), seat)] if m != ranked[0]]
        assert candidates == first + [m for m in ranked if m not in first][: 4 - len(first)]
        checked += 1
    assert checked >= 5
    roll = next(s for s in positions(game, 60, seed=2) if ROLL2 in s.legal_actions(s.to_act[0]))
    assert machikoro_model.rank(roll, roll.to_act[0], roll.legal_actions(roll.to_act[0])) is None  # type: ignore[arg-type]


def test_with_verification_an_unchecked_challenger_never_replaces_the_anchor() -> None:
    """``capped_keeps_anchor``: when the time cap stops the halving, no challenger has met the anchor on
    fresh samples, so the anchor's move is played."""
    game = get_game("machikoro")
    expert = game.bots()["expert"](0)
    settings = replace(
        TINY, rollouts=10**6, max_seconds=0.02, verify=0.5, margin=0.0, capped_keeps_anchor=True
    )
    checked = 0
    for index, state in enumerate(positions(game, 60, seed=23)):
        seat = state.to_act[0]
        if state.phase != BUILD or len(state.legal_actions(seat)) < 4:  # type: ignore[attr-defined]
            continue
        bot = SearchBot(game, index, settings)
        assert bot.choose(state, seat) == expert.choose(state.clone(), seat)
        assert bot.capped == 1 and bot.last_verified == 0
        checked += 1
    assert checked >= 3


def test_without_the_capped_rule_a_capped_halving_may_still_leave_the_anchor() -> None:
    """``capped_keeps_anchor=False``: a capped decision is judged on the halving's own samples, and
    leaves the anchor only for a move whose mean there is higher."""
    game = get_game("machikoro")
    expert = game.bots()["expert"](0)
    settings = replace(TINY, rollouts=10**6, max_seconds=0.2, verify=0.5, margin=0.0)
    for index, state in enumerate(positions(game, 40, seed=29)):
        seat = state.to_act[0]
        if state.phase != BUILD or len(state.legal_actions(seat)) < 4:  # type: ignore[attr-defined]
            continue
        bot = SearchBot(game, index, replace(settings, capped_keeps_anchor=False))
        move = bot.choose(state, seat)
        anchor = expert.choose(state.clone(), seat)
        assert bot.capped == 1 and bot.last_verified == 0
        assert move == anchor or bot.last_values[move] > bot.last_values[anchor]


class _Finished:
    """A finished position with a fixed result (all ``SearchBot._value`` reads of a state)."""

    def __init__(self, ranks: tuple[int, ...]) -> None:
        from tabletown.core.game import Result

        self._result = Result(tuple(float(-r) for r in ranks), ranks)

    def result(self):
        return self._result


def test_win_reward_counts_only_first_places_rank_reward_every_rival_beaten() -> None:
    game = get_game("multicity")
    rank = SearchBot(game, 1, replace(settings_for(game, "hard"), reward="rank"))
    win = SearchBot(game, 1, replace(settings_for(game, "hard"), reward="win"))
    second_of_four = _Finished((1, 2, 3, 4))
    assert rank._value(second_of_four, 1) == pytest.approx(2 / 3)  # two of three rivals beaten
    assert win._value(second_of_four, 1) == 0.0 and win._value(second_of_four, 0) == 1.0
    shared = _Finished((1, 1, 3, 4))  # two winners share the win
    assert win._value(shared, 0) == 0.5 and rank._value(shared, 0) == pytest.approx(2.5 / 3)
    with pytest.raises(ValueError, match="reward"):
        SearchBot(game, 1, replace(settings_for(game, "hard"), reward="score"))
    # a folder begun before the setting existed still resumes: left out at its default
    assert "reward" not in rank.settings() and win.settings()["reward"] == "win"


def test_learned_judge_values_a_cut_off_play_out_by_the_shipped_model() -> None:
    """``judge="learned"``: an unfinished position is worth the shipped model's chance for the seat
    (from the seat's own observation), a finished one its result, and play-outs stop at the cut-off."""
    import numpy as np

    from tabletown.analysis.model import shipped_model

    game = get_game("lordsofvegas")
    state = positions(game, 1, seed=51)[0]
    model = shipped_model(game, 2, dict(state.options))
    assert model is not None
    bot = SearchBot(game, 1, replace(TINY, policy="random", judge="learned"))
    for seat in range(2):
        expected = float(model.chances(np.asarray([state.observation(seat)], dtype=np.float32))[0])
        assert bot._value(state, seat) == pytest.approx(expected)
    # the game judge has nothing for Lords of Vegas, so a play-out runs to the end
    game_judged = SearchBot(game, 1, replace(TINY, policy="random"))
    assert not game_judged._can_judge(state) and bot._can_judge(state)
    played, to_the_end = state.clone(), state.clone()
    bot._rollout(played, 0, seed=3, cutoff=5)
    game_judged._rollout(to_the_end, 0, seed=3, cutoff=5)
    assert played.log != state.log and not played.is_over  # five actions never end a game
    assert to_the_end.is_over


def test_a_search_model_play_out_policy_plays_every_seat() -> None:
    """``policy`` may name one of the search model's ``PLAYOUTS``: Lords of Vegas's lean play-out
    never trades or bets in the main phase, and refuses what it is offered. An unknown name is refused
    up front rather than quietly played at random."""
    from tabletown.games.lordsofvegas.actions import REFUSE, Gamble, Offer
    from tabletown.games.lordsofvegas.phases import ACTION, OFFER

    game = get_game("lordsofvegas")
    bot = SearchBot(game, 1, replace(TINY, policy="lean"))
    state = positions(game, 1, seed=52)[0]
    lean = bot._playout_agent
    assert lean is not None
    rng = random.Random(5)
    agent = lean(rng)
    seen_main = 0
    play = state.clone()
    while not play.is_over:
        seat = play.to_act[0]
        legal = play.legal_actions(seat)
        move = agent(play, seat)
        assert move in legal
        if play.phase == ACTION:
            seen_main += 1
            assert not isinstance(move, (Offer, Gamble)) or all(isinstance(a, (Offer, Gamble)) for a in legal)
        play.apply(seat, move)
    assert seen_main > 10
    # an offer met in random play is refused
    offered = game.new_game(2, {}, seed=7)
    while offered.phase != OFFER:
        offered.apply(offered.to_act[0], rng.choice(offered.legal_actions(offered.to_act[0])))
    assert agent(offered, offered.to_act[0]) == REFUSE
    # the search's own play-outs use it: a finished game and the seat's result
    rolled = state.clone()
    value = bot._rollout(rolled, 0, seed=3, cutoff=0)
    assert rolled.is_over and value in (0.0, 0.5, 1.0)
    with pytest.raises(ValueError, match="policy"):
        SearchBot(game, 1, replace(TINY, policy="clever"))


def test_a_search_model_judge_values_the_cut_off() -> None:
    """``judge`` may name one of the search model's ``JUDGES``: Lords of Vegas's "points" reads the
    expert's point estimate as a win chance, so a play-out stops at the cut-off and is worth that
    chance; the level's own judge (none) plays to the end. An unknown judge is refused."""
    from tabletown.games.lordsofvegas import search_model
    from tabletown.games.lordsofvegas.expert import values

    game = get_game("lordsofvegas")
    state = positions(game, 1, seed=53)[0]
    bot = SearchBot(game, 1, replace(TINY, policy="lean", judge="points"))
    assert bot._can_judge(state)
    for seat in range(2):
        chance = bot._value(state, seat)
        assert chance == pytest.approx(search_model.points_chance(state, seat)) and 0.0 < chance < 1.0
    # with two seats the two chances are one game's: they add up to one
    assert bot._value(state, 0) + bot._value(state, 1) == pytest.approx(1.0)
    # a seat further ahead by the expert's estimate, late in the game, is given a better chance
    late = state.clone()
    while len(late.deck) > 20 and not late.is_over:
        late.apply(late.to_act[0], late.legal_actions(late.to_act[0])[-1])
    vals = values(late)
    leader = 0 if vals[0] > vals[1] else 1
    assert vals[0] != vals[1] and not late.is_over
    assert bot._value(late, leader) > 0.5
    played = state.clone()
    bot._rollout(played, 0, seed=3, cutoff=5)
    assert played.log != state.log and not played.is_over
    to_the_end = state.clone()
    SearchBot(game, 1, replace(TINY, policy="lean"))._rollout(to_the_end, 0, seed=3, cutoff=5)
    assert to_the_end.is_over
    with pytest.raises(ValueError, match="judge"):
        SearchBot(game, 1, replace(TINY, judge="oracle"))


def test_learned_judge_needs_a_shipped_model_or_plays_to_the_end() -> None:
    """The toy game ships no model: the learned judge then plays every play-out to the end."""
    bot = SearchBot(TOY, 1, replace(TINY, policy="random", judge="learned"))
    state = TOY.new_game(2, {}, seed=4)
    assert not bot._can_judge(state)
    assert bot._learned(state) is None
    with pytest.raises(ValueError, match="judge"):
        SearchBot(TOY, 1, replace(TINY, judge="oracle"))


def test_learned_prior_orders_candidates_by_the_chance_after_each_move() -> None:
    """``prior="learned"`` keeps the anchor and greedy's move, then the moves the model rates best."""
    import numpy as np

    from tabletown.analysis.model import shipped_model

    game = get_game("lordsofvegas")
    state = next(s for s in positions(game, 40, seed=61) if len(s.legal_actions(s.to_act[0])) > 8)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    bot = SearchBot(game, 1, replace(TINY, top_k=4, prior="learned", anchor=""))
    bot._greedy = None
    base = state.determinize(seat, 9)
    ranked = bot._learned_rank(base, seat, legal)
    assert ranked is not None and sorted(map(str, ranked)) == sorted(map(str, legal))
    model = shipped_model(game, 2, dict(state.options))
    assert model is not None
    chances = []
    for action in ranked:
        after = base.clone()
        after.apply(seat, action)
        chances.append(float(model.chances(np.asarray([after.observation(seat)], dtype=np.float32))[0]))
    assert chances == sorted(chances, reverse=True)
    assert bot._candidates(state, seat, legal, None, 9) == ranked[:4]
    assert "prior" not in SearchBot(game, 1, TINY).settings() and bot.settings()["prior"] == "learned"


def test_multicity_rank_follows_the_expert_score() -> None:
    """Multicity's ``rank`` orders the moves by the score the expert maximises, so the first is the
    expert's own choice (up to its seeded tie-break), and a rule-decided turn (draw or pass) has none."""
    from tabletown.games.multicity import search_model as multicity_model

    game = get_game("multicity")
    checked = ruled = 0
    for state in positions(game, 120, seed=23):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        ranked = multicity_model.rank(state.clone(), seat, legal)
        if ranked is None:
            ruled += 1
            continue
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        moves, score = multicity_model._EXPERT.scored(state.clone(), seat, legal)  # type: ignore[misc]
        values = [score(move) for move in ranked if move in moves]
        assert values == sorted(values, reverse=True)
        if len(values) < 2 or values[0] > values[1] + 1e-9:  # no tie for the best
            assert ranked[0] == game.bots()["expert"](3).choose(state.clone(), seat)
        checked += 1
    assert checked >= 20 and ruled >= 1


@pytest.mark.parametrize("name", ["lordsofvegas", "newlasvegas"])
def test_focused_search_leaves_routine_steps_to_the_expert(name: str) -> None:
    """Lords of Vegas searches its main-phase choices and New Las Vegas its picks; elsewhere a focused
    search plays the expert's move without searching (the anchor reads a determinization, so the
    expert is asked the same way here)."""
    from tabletown.games.lordsofvegas import search_model as lov_model
    from tabletown.games.newlasvegas import search_model as nlv_model

    model = {"lordsofvegas": lov_model, "newlasvegas": nlv_model}[name]
    game = get_game(name)
    settings = replace(TINY, rollouts=2, policy="random", cutoff=0, focus=True)
    searched = routine = 0
    for index, state in enumerate(positions(game, 30, seed=71)):
        seat = state.to_act[0]
        bot = SearchBot(game, index, settings)
        twin = copy.deepcopy(bot)  # asks its anchor exactly as the bot will
        assert twin._anchor is not None
        anchor = twin._anchor.choose(state.determinize(seat, twin.rng.getrandbits(63)), seat)
        move = bot.choose(state.clone(), seat)
        if model.searched(state, seat):
            searched += 1
            assert bot.searched == 1
        else:
            routine += 1
            assert bot.searched == 0 and move == anchor
    assert searched >= 3 and routine >= 3
    # the levels as measured keep searching every decision
    assert all(settings_for(game, level).focus is False for level in PRESETS)


@pytest.mark.parametrize(
    ("name", "extra"),
    # Machi Koro's two-player tables are searched here (its hard level leaves them to the anchor).
    [("machikoro", {"min_players": 2}), ("multicity", {"rollouts": 12, "top_k": 4})],
)
def test_root_parallel_search_plays_the_same_as_one_process(name: str, extra: dict) -> None:
    """With ``workers=2`` the samples are played in two other processes, from the engine's saved
    position, with the seeds the bot draws alone: every uncapped decision (Machi Koro's hard level
    verifies its winner too, and branches over its dice) has the same move, values and rollouts, and
    the generator stays in step, so the next decision is the same too."""
    game = get_game(name)
    settings = replace(settings_for(game, "hard"), max_seconds=120.0, **extra)
    alone = SearchBot(game, 5, settings)
    parallel = SearchBot(game, 5, replace(settings, workers=2))
    compared = verified = 0
    for state in positions(game, 6, seed=3):
        seat = state.to_act[0]
        move = alone.choose(state.clone(), seat)
        verified += alone.last_verified
        assert parallel.choose(state.clone(), seat) == move
        assert parallel.last_values == alone.last_values
        assert parallel.last_rollouts == alone.last_rollouts
        assert parallel.last_verified == alone.last_verified
        compared += bool(alone.last_values)
    assert compared >= 2 and parallel.searched == alone.searched and parallel.capped == alone.capped == 0
    assert verified > 0 or name != "machikoro"  # the final test was played in parallel too
    assert "workers" not in alone.settings() and parallel.settings()["workers"] == 2
    with pytest.raises(ValueError, match="workers"):
        SearchBot(game, 5, replace(settings, workers=0))


def test_a_search_model_anchor_is_asked_by_its_table_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """``anchor`` may name a bot of the search model's ``ANCHORS`` (not offered as a bot of the game);
    ``ByPlayers`` hands each table size its own inner bot. An unknown anchor is refused up front."""
    from tabletown.bots import search as search_module
    from tabletown.core.game import Bot

    game = get_game("lordsofvegas")
    asked: list[tuple[str, int]] = []

    def recording(label: str) -> Callable[[int], Bot]:
        def make(seed: int) -> Bot:
            inner = game.bots()["expert"](seed)

            class Recorder(Bot):
                def choose(self, state: State, player: int) -> Action:
                    asked.append((label, state.num_players))
                    return inner.choose(state, player)

            return Recorder(seed)

        return make

    model = search_module.game_model(game)
    tuned = lambda seed: search_module.ByPlayers(seed, {4: recording("four")}, recording("other"))  # noqa: E731
    monkeypatch.setattr(model, "ANCHORS", {"tuned": tuned}, raising=False)
    assert "tuned" not in game.bots()
    bot = SearchBot(game, 1, replace(TINY, anchor="tuned", rollouts=4))
    for players, label in ((2, "other"), (4, "four")):
        state = positions(game, 1, seed=60 + players, players=players)[0]
        seat = state.to_act[0]
        asked.clear()
        assert bot.choose(state, seat) in state.legal_actions(seat)
        assert asked == [(label, players)]
    with pytest.raises(ValueError, match="anchor"):
        SearchBot(game, 1, replace(TINY, anchor="clever"))


def test_machikoro_hard_anchors_on_the_retuned_expert_at_two_player_tables() -> None:
    """Machi Koro's hard level anchors on the expert re-tuned for two players (docs/bots.md,
    "Re-tuned anchors") and on the expert itself at larger tables; the expert keeps its weights."""
    from tabletown.bots.search import ByPlayers, make_search
    from tabletown.games.machikoro.expert import ExpertBot
    from tabletown.games.machikoro.search_model import TunedExpertBot

    game = get_game("machikoro")
    bot = make_search("hard")(game, 3)
    anchor = bot._anchor
    assert isinstance(anchor, ByPlayers)
    for players, kind in ((2, TunedExpertBot), (4, ExpertBot)):
        state = positions(game, 1, seed=70 + players, players=players)[0]
        seat = state.to_act[0]
        assert anchor.choose(state, seat) in state.legal_actions(seat)
        assert type(anchor._bots[players]) is kind
    assert ExpertBot.card_mult["ranch"] == 0.5 and ExpertBot.rate_add == 4.0
    assert TunedExpertBot.card_mult["ranch"] == 0.8 and TunedExpertBot.rate_add == 2.5
    assert ExpertBot.pass_eps == 0.0 and TunedExpertBot.pass_eps == 0.02


def test_min_players_plays_the_anchor_alone_at_smaller_tables() -> None:
    """``min_players``: a table with fewer players is not searched, every move is the anchor's
    (Machi Koro's hard level at two-player tables, where the search measured weaker than its
    anchor); larger tables are searched as before."""
    from tabletown.games.machikoro.search_model import TunedExpertBot

    game = get_game("machikoro")
    assert settings_for(game, "hard").min_players == 3
    two = [s for s in positions(game, 40, seed=91) if s.phase == BUILD][:4]
    four = [s for s in positions(game, 60, seed=92, players=4) if s.phase == BUILD][:3]
    assert two and four
    anchor = TunedExpertBot(5)
    for state in two:
        bot = make_bot(game, "bot:search:hard", 7)
        seat = state.to_act[0]
        assert bot.choose(state, seat) == anchor.choose(state, seat)
        assert bot.searched == 0 and bot.last_rollouts == 0
    searching = SearchBot(game, 7, replace(settings_for(game, "hard"), rollouts=12))
    for state in four:
        searching.choose(state, state.to_act[0])
    assert searching.searched > 0
    every = SearchBot(game, 7, replace(settings_for(game, "hard"), rollouts=12, min_players=2))
    for state in two:
        every.choose(state, state.to_act[0])
    assert every.searched > 0


def test_margin_reward_grades_the_lead_over_the_best_rival() -> None:
    from tabletown.core.game import Result

    game = get_game("multicity")
    bot = SearchBot(game, 1, replace(settings_for(game, "hard"), reward="margin", reward_scale=2.0))
    finished = _Finished((4, 1, 2, 3))
    finished._result = Result((10.0, 14.0, 12.0, 3.0), (4, 1, 2, 3))  # squares placed, say
    ahead, second, last = (bot._value(finished, seat) for seat in (1, 2, 3))
    assert ahead == pytest.approx(1 / (1 + math.exp(-1.0)))  # 2 squares ahead of the best rival
    assert second == pytest.approx(1 / (1 + math.exp(1.0))) and last < second < 0.5 < ahead
    with pytest.raises(ValueError, match="reward_scale"):
        SearchBot(game, 1, replace(settings_for(game, "hard"), reward="margin", reward_scale=0.0))
    assert "reward_scale" not in SearchBot(game, 1, settings_for(game, "hard")).settings()
