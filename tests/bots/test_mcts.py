"""The generic search bot on the toy game: legal choices, reproducible, uses only its seat's view, plays well."""

from __future__ import annotations

import random

import pytest
import toygame
from toygame import TOY, ToyState, hidden_twin

from tabletown.bots import bot_names, make_bot
from tabletown.bots.mcts import PRESETS, MCTSBot, SearchConfig, heuristic_rewards, rank_rewards
from tabletown.core.game import Result
from tabletown.core.rng import derive_seed
from tabletown.core.session import play_out

QUICK = SearchConfig(iterations=40, max_seconds=5.0, rollout_cap=60)


def random_states(count: int, seed: int, players: int = 2) -> list[ToyState]:
    """Positions met in random toy games, turn and bet phases alike."""
    rng = random.Random(seed)
    found: list[ToyState] = []
    game_seed = seed
    while len(found) < count:
        state = TOY.new_game(players, {}, seed=game_seed)
        game_seed += 1
        while state.to_act and len(found) < count:
            if rng.random() < 0.3:
                found.append(state.clone())
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def test_strength_names_are_registered() -> None:
    names = bot_names(TOY)
    for strength in ("easy", "medium", "hard"):
        assert f"mcts:{strength}" in names
        bot = make_bot(TOY, f"bot:mcts:{strength}", 1)
        assert isinstance(bot, MCTSBot)
        assert bot.config == PRESETS[strength]


def test_chooses_only_legal_actions_at_every_seat_and_phase() -> None:
    phases = set()
    for index, state in enumerate(random_states(60, seed=11, players=3)):
        for seat in state.to_act:
            bot = MCTSBot(TOY, seed=index, config=QUICK)
            before = state.view(seat)
            action = bot.choose(state, seat)
            assert action in state.legal_actions(seat)
            assert state.view(seat) == before, "searching must not touch the real state"
            phases.add(state.phase)
    assert phases == {"turn", "bet"}


def test_same_seed_same_choice_and_same_tree() -> None:
    for state in random_states(10, seed=5):
        seat = state.to_act[0]
        first, second = MCTSBot(TOY, 7, QUICK), MCTSBot(TOY, 7, QUICK)
        tree_a, tree_b = first.search(state, seat), second.search(state, seat)
        assert {a: (n.visits, n.total) for a, n in tree_a.children.items()} == {
            a: (n.visits, n.total) for a, n in tree_b.children.items()
        }


def test_search_depends_only_on_what_the_seat_sees() -> None:
    """Two states differing only in hidden cards (others' hands, deck order) give the same tree."""
    checked = 0
    for state in random_states(20, seed=3):
        seat = state.to_act[0]
        other = hidden_twin(state, seat)
        if other is None:
            continue
        assert other.view(seat) == state.view(seat)
        tree_a = MCTSBot(TOY, 9, QUICK).search(state, seat)
        tree_b = MCTSBot(TOY, 9, QUICK).search(other, seat)
        assert {a: (n.visits, round(n.total, 9)) for a, n in tree_a.children.items()} == {
            a: (n.visits, round(n.total, 9)) for a, n in tree_b.children.items()
        }
        checked += 1
    assert checked >= 5


def test_iterations_budget_is_spent_and_counted() -> None:
    state = random_states(1, seed=2)[0]
    bot = MCTSBot(TOY, 1, SearchConfig(iterations=25, max_seconds=30.0))
    root = bot.search(state, state.to_act[0])
    assert bot.last_iterations == 25
    assert sum(child.visits for child in root.children.values()) == 25
    assert bot.capped == 0


def test_rank_rewards() -> None:
    assert rank_rewards(Result((3, 1), (1, 2))) == [1.0, 0.0]
    assert rank_rewards(Result((2, 2), (1, 1))) == [0.5, 0.5]
    assert rank_rewards(Result((5, 3, 3), (1, 2, 2))) == [1.0, 0.25, 0.25]
    assert rank_rewards(Result((1, 2, 3), (3, 2, 1))) == [0.0, 0.5, 1.0]


def test_heuristic_rewards() -> None:
    assert heuristic_rewards([0.8, 0.4]) == pytest.approx([0.7, 0.3])
    assert heuristic_rewards([0.5, 0.5, 0.1]) == pytest.approx([0.5, 0.5, 0.3])
    assert heuristic_rewards([1.0, 0.0]) == [1.0, 0.0]


def test_rollout_uses_the_heuristic_at_the_cap() -> None:
    state = TOY.new_game(2, {}, seed=1)
    state.scores[:] = [12, 4]
    bot = MCTSBot(TOY, 0, SearchConfig(iterations=1, max_seconds=1.0, rollout_cap=0))
    assert bot._rollout(state) == pytest.approx([0.5 + 0.5 * 0.4, 0.5 - 0.5 * 0.4])


def test_greedy_rollouts_use_the_games_greedy_bot() -> None:
    bot = MCTSBot(TOY, 0, SearchConfig(iterations=30, max_seconds=5.0, rollout="policy"))
    state = TOY.new_game(2, {}, seed=4)
    assert bot.choose(state, 0) in state.legal_actions(0)
    assert bot._policy and all(isinstance(b, toygame.ToyGreedy) for b in bot._policy.values())


def test_policy_names_the_games_bot_and_bad_rollouts_are_refused() -> None:
    missing = MCTSBot(TOY, 0, SearchConfig(iterations=30, max_seconds=5.0, rollout="policy", policy="nobody"))
    state = TOY.new_game(2, {}, seed=4)
    assert missing.choose(state, 0) in state.legal_actions(0)
    assert not missing._policy  # the toy game has no such bot: rollouts stay random
    with pytest.raises(ValueError, match="rollout"):
        MCTSBot(TOY, 0, SearchConfig(iterations=1, max_seconds=1.0, rollout="greedy"))


def test_the_bot_chooses_first_in_simultaneous_rounds_inside_the_tree() -> None:
    """Seat 1 banks, which starts a secret-bet round for both seats; in the tree, seat 1's bet nodes
    must come before seat 0's, or seat 1's statistics would depend on a bet it cannot see."""
    state = TOY.new_game(2, {}, seed=3)
    state.current, state.turn_total = 1, 3
    bot = MCTSBot(TOY, 0, SearchConfig(iterations=400, max_seconds=30.0))
    root = bot.search(state, 1)
    bets = root.children["b"].children
    assert set(bets) == {0, 1, 2}
    assert all(node.seat == 1 for node in bets.values())
    assert all(grandchild.seat == 0 for node in bets.values() for grandchild in node.children.values())


def _match(names: tuple[str, str], games: int) -> float:
    """Share of games won by names[0], seats swapped every game."""
    wins = 0.0
    for index in range(games):
        seating = names if index % 2 == 0 else names[::-1]
        state = TOY.new_game(2, {}, seed=derive_seed("match", index // 2))
        bots = [make_bot(TOY, name, derive_seed(index, seat, name)) for seat, name in enumerate(seating)]
        play_out(state, [bot.choose for bot in bots])
        result = state.result()
        assert result is not None
        wins += sum(1 / len(result.winners) for seat in result.winners if seating[seat] == names[0])
    return wins / games


def test_easy_search_beats_random() -> None:
    assert _match(("mcts:easy", "random"), 60) >= 0.75


def test_easy_search_beats_greedy() -> None:
    assert _match(("mcts:easy", "greedy"), 60) >= 0.55


HALVING = SearchConfig(iterations=60, max_seconds=30.0, rollout_cap=60, root="halving")


def test_halving_chooses_legal_actions_reproducibly() -> None:
    for index, state in enumerate(random_states(30, seed=21, players=3)):
        for seat in state.to_act:
            first = MCTSBot(TOY, index, HALVING).choose(state, seat)
            assert first in state.legal_actions(seat)
            assert MCTSBot(TOY, index, HALVING).choose(state, seat) == first


def test_halving_spends_its_budget_on_paired_samples() -> None:
    state = random_states(1, seed=8)[0]
    bot = MCTSBot(TOY, 2, SearchConfig(iterations=90, max_seconds=30.0, root="halving"))
    bot.choose(state, state.to_act[0])
    legal = len(state.legal_actions(state.to_act[0]))
    assert 0 < bot.last_iterations <= 90 + legal
    assert bot.capped == 0


def test_anchor_keeps_the_greedy_move_unless_search_clearly_beats_it() -> None:
    """With an anchor and a tiny budget (no significance possible) the bot plays greedy's move."""
    tiny = SearchConfig(iterations=3, max_seconds=30.0, root="halving", anchor=True)
    greedy = toygame.ToyGreedy(0)
    for index, state in enumerate(random_states(40, seed=4)):
        seat = state.to_act[0]
        assert MCTSBot(TOY, index, tiny).choose(state, seat) == greedy.choose(state, seat)


def test_anchor_is_left_for_a_clearly_better_move() -> None:
    """Greedy banks 6 points at 13 of 20 while the rival sits at 19 and wins on nearly any roll next
    turn; one more roll wins 5 times in 6: the search must see that rolling is clearly better."""
    state = TOY.new_game(2, {}, seed=3)
    state.scores[:] = [13, 19]
    state.turn_total = 6
    state.hands[0] = 0  # greedy won't play a 0
    assert toygame.ToyGreedy(0).choose(state, 0) == "b"
    bot = MCTSBot(TOY, 1, SearchConfig(iterations=300, max_seconds=30.0, root="halving", anchor=True))
    assert bot.choose(state, 0) != "b"


def test_clearly_better_is_a_paired_test() -> None:
    from tabletown.bots.mcts import clearly_better

    assert clearly_better([1.0] * 10, [0.0] * 10)
    assert not clearly_better([1.0, 0.0] * 5, [0.0, 1.0] * 5)
    assert not clearly_better([1.0] * 3, [0.0] * 3), "too few samples to tell"
    assert not clearly_better([0.5] * 10, [0.5] * 10)
    noisy = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    assert clearly_better([x + 0.1 for x in noisy], noisy)
