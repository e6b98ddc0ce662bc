"""Machi Koro bots: a greedy expected-income player and fixed buy-order strategies."""

from __future__ import annotations

from collections.abc import Mapping

from ...core.game import Bot, BotFactory
from .data import establishment_index
from .heuristics import (
    ONE_DIE,
    TWO_DICE,
    card_value_per_round,
    expected_own_income,
    own_roll_income,
    turns_to_win,
)
from .rules import (
    A_ADD2,
    A_BUILD,
    A_KEEP,
    A_LANDMARK,
    A_NOADD,
    A_NOSWAP,
    A_PASS,
    A_REROLL1,
    A_REROLL2,
    A_ROLL1,
    A_ROLL2,
    A_SWAP,
    A_TV,
    BUILD,
    BUSINESS,
    HARBOR,
    REROLL,
    ROLL,
    TV,
    MachiKoroState,
    decode_swap,
)


class GreedyBot(Bot):
    """Builds whatever most shortens its estimated race to the last landmark (coins still needed over
    expected income per round); takes every dice, TV and swap decision by comparing expected income."""

    name = "greedy"
    one_die = False
    # Strategy bots follow the reference's fixed dice rule (two dice once the Train Station stands,
    # one die for the one-die strategies) instead of comparing expected income.
    fixed_dice = False

    def choose(self, state: MachiKoroState, player: int) -> int:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == ROLL:
            return self.choose_dice(state, player, legal)
        if phase == REROLL:
            return self.choose_reroll(state, player)
        if phase == HARBOR:
            plus = own_roll_income(state, player, state.total + 2)
            return A_ADD2 if plus > own_roll_income(state, player, state.total) else A_NOADD
        if phase == TV:
            return max(legal, key=lambda a: (state.coins[a - A_TV], -a))
        if phase == BUSINESS:
            return self.choose_swap(state, player, legal)
        if phase == BUILD:
            return self.choose_build(state, player, legal)
        return legal[0]

    def choose_dice(self, state: MachiKoroState, player: int, legal: list[int]) -> int:
        if self.one_die or A_ROLL2 not in legal:
            return A_ROLL1
        if self.fixed_dice:
            return A_ROLL2
        one = expected_own_income(state, player, ONE_DIE)
        two = expected_own_income(state, player, TWO_DICE)
        return A_ROLL2 if two >= one else A_ROLL1

    def choose_reroll(self, state: MachiKoroState, player: int) -> int:
        current = own_roll_income(state, player, state.total)
        two_dice = state.dice[1] != 0
        options = state.legal_actions(player)
        best, best_value = A_KEEP, float(current)
        for action in options:
            if action == A_KEEP:
                continue
            if self.one_die and action == A_REROLL2:
                continue
            if self.fixed_dice and not self.one_die and action == A_REROLL1 and A_REROLL2 in options:
                continue
            dist = TWO_DICE if action == A_REROLL2 else ONE_DIE
            value = expected_own_income(state, player, dist)
            if value > best_value + 0.5:
                best, best_value = action, value
        if best == A_KEEP and not two_dice and A_REROLL1 in options and current <= 0 and self.one_die:
            return A_REROLL1
        return best

    def choose_swap(self, state: MachiKoroState, player: int, legal: list[int]) -> int:
        best, best_gain = A_NOSWAP, 0.3
        for action in legal:
            if action < A_SWAP:
                continue
            mine, _target, theirs = decode_swap(action)
            gain = card_value_per_round(state, player, theirs) - card_value_per_round(state, player, mine)
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def choose_build(self, state: MachiKoroState, player: int, legal: list[int]) -> int:
        """Pick the build that most shortens the estimated race to the last landmark."""
        best, best_turns = A_PASS, turns_to_win(state, player)
        for action in legal:
            if action == A_PASS:
                continue
            turns = self._turns_after(state, player, action)
            is_landmark = action >= A_LANDMARK
            if turns < best_turns - (0.0 if is_landmark else 0.05) or (is_landmark and turns <= best_turns):
                best, best_turns = action, turns
        return best

    @staticmethod
    def _turns_after(state: MachiKoroState, player: int, action: int) -> float:
        """turns_to_win after a build, by changing the position in place and undoing it."""
        t = state.t
        if action >= A_LANDMARK:
            bit = 1 << (action - A_LANDMARK)
            cost = t.landmark_cost[action - A_LANDMARK]
            state.lm[player] |= bit
            state.coins[player] -= cost
            try:
                if state.lm[player] & t.victory_mask == t.victory_mask:
                    return -1.0
                return turns_to_win(state, player)
            finally:
                state.lm[player] &= ~bit
                state.coins[player] += cost
        idx = action - A_BUILD
        state.cards[player][idx] += 1
        state.coins[player] -= t.cost[idx]
        try:
            return turns_to_win(state, player)
        finally:
            state.cards[player][idx] -= 1
            state.coins[player] += t.cost[idx]


class StrategyBot(GreedyBot):
    """Buys landmarks when it can, otherwise the next card its fixed wish list still lacks."""

    fixed_dice = True

    def choose_build(self, state: MachiKoroState, player: int, legal: list[int]) -> int:
        landmarks = [a for a in legal if A_LANDMARK <= a < A_SWAP]
        if landmarks:
            return max(landmarks, key=lambda a: (state.t.landmark_cost[a - A_LANDMARK], a))
        return self.choose_establishment(state, player, legal)

    def __init__(self, seed: int, name: str, wants: Mapping[str, int], one_die: bool) -> None:
        super().__init__(seed)
        self.name = f"strategy:{name}"
        self.wants = [(establishment_index(code), count) for code, count in wants.items()]
        self.one_die = one_die

    def choose_establishment(self, state: MachiKoroState, player: int, legal: list[int]) -> int:
        allowed = set(legal)
        city = state.cards[player]
        for idx, count in self.wants:
            if city[idx] < count and A_BUILD + idx in allowed:
                return A_BUILD + idx
        return A_PASS


# name -> (wish list, rolls one die only)
STRATEGIES: dict[str, tuple[dict[str, int], bool]] = {
    "cheese-factory": ({"ranch": 6, "cheese": 2}, False),
    "convenience-store": ({"store": 6, "bakery": 3}, True),
    "bakery": ({"bakery": 6}, True),
    "one-die-spread": (
        {
            "wheat": 2,
            "ranch": 2,
            "bakery": 2,
            "forest": 1,
            "store": 2,
            "cafe": 2,
            "restaurant": 1,
            "stadium": 1,
        },
        True,
    ),
    "furniture-factory": ({"forest": 3, "mine": 3, "furniture": 2}, False),
    "fruit-and-vegetable": ({"wheat": 6, "market": 6}, False),
    "mine-and-blue": (
        {"mine": 5, "apple": 3, "forest": 2, "ranch": 2, "wheat": 2, "mackerel": 2, "tuna": 2, "orchard": 2},
        False,
    ),
}


def _strategy_factory(name: str) -> BotFactory:
    wants, one_die = STRATEGIES[name]
    return lambda seed: StrategyBot(seed, name, wants, one_die)


def bot_factories() -> dict[str, BotFactory]:
    from .expert import ExpertBot

    factories: dict[str, BotFactory] = {"greedy": GreedyBot, "expert": ExpertBot}
    for name in STRATEGIES:
        factories[f"strategy:{name}"] = _strategy_factory(name)
    return factories
