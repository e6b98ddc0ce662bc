"""Machi Koro bots: a greedy expected-income player and the legacy wish-list strategies (the published
strategies are in :mod:`.strategies`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import Bot, BotFactory

# Alike to game.py's, turn.py's and notation.py's import lists on purpose: each module names its own.
from .actions import (
    ADD2,
    BUILD_ESTABLISHMENT,
    ESTABLISHMENT_INDEX,
    KEEP,
    LANDMARK_INDEX,
    NOADD,
    NOSWAP,
    PASS,
    REROLL1,
    REROLL2,
    ROLL1,
    ROLL2,
    Build,
    Swap,
)
from .data import establishment_index
from .heuristics import (
    ONE_DIE,
    TWO_DICE,
    card_value_per_round,
    expected_own_income,
    own_roll_income,
    turns_to_win,
)
from .phases import BUILD, BUSINESS, HARBOR, REROLL, ROLL, TV_PHASE
from .state import MachiKoroState


class GreedyBot(Bot):
    """Builds whatever most shortens its estimated race to the last landmark (coins still needed over
    expected income per round); takes every dice, TV and swap decision by comparing expected income."""

    name = "greedy"
    one_die = False
    # The legacy strategy bots roll two dice once the Train Station stands (one die if one_die)
    # instead of comparing expected income.
    fixed_dice = False

    # Alike by shape to ExpertBot.choose (expert.py) and lordsofvegas/bots.py's GreedyBot.choose on
    # purpose: each bot's own dispatch by phase, after the one-legal-move shortcut.
    def choose(self, state: MachiKoroState, player: int) -> Any:  # type: ignore[override]  # its game's states only
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
            return ADD2 if plus > own_roll_income(state, player, state.total) else NOADD
        if phase == TV_PHASE:
            return max(legal, key=lambda a: (state.coins[a.target], -a.target))
        if phase == BUSINESS:
            return self.choose_swap(state, player, legal)
        if phase == BUILD:
            return self.choose_build(state, player, legal)
        return legal[0]

    def choose_dice(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        if self.one_die or ROLL2 not in legal:
            return ROLL1
        if self.fixed_dice:
            return ROLL2
        one = expected_own_income(state, player, ONE_DIE)
        two = expected_own_income(state, player, TWO_DICE)
        return ROLL2 if two >= one else ROLL1

    def choose_reroll(self, state: MachiKoroState, player: int) -> Any:
        current = own_roll_income(state, player, state.total)
        two_dice = state.dice[1] != 0
        options = state.legal_actions(player)
        best, best_value = KEEP, float(current)
        for action in options:
            if action == KEEP:
                continue
            if self.one_die and action == REROLL2:
                continue
            if self.fixed_dice and not self.one_die and action == REROLL1 and REROLL2 in options:
                continue
            dist = TWO_DICE if action == REROLL2 else ONE_DIE
            value = expected_own_income(state, player, dist)
            if value > best_value + 0.5:
                best, best_value = action, value
        if best == KEEP and not two_dice and REROLL1 in options and current <= 0 and self.one_die:
            return REROLL1
        return best

    def choose_swap(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        best: Any  # NOSWAP or a Swap
        best, best_gain = NOSWAP, 0.3
        for action in legal:
            if type(action) is not Swap:
                continue
            mine, theirs = ESTABLISHMENT_INDEX[action.mine], ESTABLISHMENT_INDEX[action.theirs]
            gain = card_value_per_round(state, player, theirs) - card_value_per_round(state, player, mine)
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def choose_build(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        """Pick the build that most shortens the estimated race to the last landmark."""
        best, best_turns = PASS, turns_to_win(state, player)
        for action in legal:
            if action == PASS:
                continue
            turns = self._turns_after(state, player, action)
            is_landmark = action.card in LANDMARK_INDEX
            if turns < best_turns - (0.0 if is_landmark else 0.05) or (is_landmark and turns <= best_turns):
                best, best_turns = action, turns
        return best

    @staticmethod
    def _turns_after(state: MachiKoroState, player: int, action: Build) -> float:
        """turns_to_win after a build, by changing the position in place and undoing it (the bot is
        handed its own copy of the game)."""
        t = state.t
        j = LANDMARK_INDEX.get(action.card, -1)
        if j >= 0:
            bit = 1 << j
            cost = t.landmark_cost[j]
            state.lm[player] |= bit
            state.coins[player] -= cost
            try:
                if state.lm[player] & t.victory_mask == t.victory_mask:
                    return -1.0
                return turns_to_win(state, player)
            finally:
                state.lm[player] &= ~bit
                state.coins[player] += cost
        idx = ESTABLISHMENT_INDEX[action.card]
        state.cards[player][idx] += 1
        state.coins[player] -= t.cost[idx]
        try:
            return turns_to_win(state, player)
        finally:
            state.cards[player][idx] -= 1
            state.coins[player] += t.cost[idx]


class LegacyStrategyBot(GreedyBot):
    """Our first strategy bots, kept under ``strategy:legacy-*`` names because they are *not* the
    published strategies: a landmark whenever one is affordable (the dearest), else the next card its
    wish list still lacks (skipping what it cannot afford); two dice as soon as the Train Station stands
    unless marked one-die; other choices are greedy's."""

    fixed_dice = True

    def __init__(self, seed: int, name: str, wants: Mapping[str, int], one_die: bool) -> None:
        super().__init__(seed)
        self.name = f"strategy:{name}"
        self.wants = [(establishment_index(code), count) for code, count in wants.items()]
        self.one_die = one_die

    def choose_build(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        landmarks = [a for a in legal if type(a) is Build and a.card in LANDMARK_INDEX]
        if landmarks:
            return max(
                landmarks,
                key=lambda a: (state.t.landmark_cost[LANDMARK_INDEX[a.card]], LANDMARK_INDEX[a.card]),
            )
        return self.choose_establishment(state, player, legal)

    def choose_establishment(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        allowed = set(legal)
        city = state.cards[player]
        for idx, count in self.wants:
            if city[idx] < count and BUILD_ESTABLISHMENT[idx] in allowed:
                return BUILD_ESTABLISHMENT[idx]
        return PASS


# Legacy wish lists: name -> (cards to own, rolls one die only). legacy-bakery is the opponent of the
# expert's earlier measurements (docs/bots.md); legacy-mine-and-blue is the only plan using Harbor cards.
LEGACY: dict[str, tuple[dict[str, int], bool]] = {
    "legacy-bakery": ({"bakery": 6}, True),
    "legacy-mine-and-blue": (
        {"mine": 5, "apple": 3, "forest": 2, "ranch": 2, "wheat": 2, "mackerel": 2, "tuna": 2, "orchard": 2},
        False,
    ),
}


def _legacy_factory(name: str) -> BotFactory:
    wants, one_die = LEGACY[name]
    return lambda seed: LegacyStrategyBot(seed, name, wants, one_die)


def bot_factories() -> dict[str, BotFactory]:
    from .expert import ExpertBot
    from .strategies import PUBLISHED, published_factory

    factories: dict[str, BotFactory] = {"greedy": GreedyBot, "expert": ExpertBot}
    for name in PUBLISHED:
        factories[f"strategy:{name}"] = published_factory(name)
    for name in LEGACY:
        factories[f"strategy:{name}"] = _legacy_factory(name)
    return factories
