"""Expected-income arithmetic shared by the Machi Koro bots.

Everything here reads only public information (all of a Machi Koro city is face up).
"""

from __future__ import annotations

from .rules import (
    AIRPORT,
    HARBOR_LM,
    MALL,
    PARK,
    RADIO,
    STATION,
    MachiKoroState,
    blue_gain,
    green_gain,
    purple_due,
    red_due,
)
from .tables import SWAP, TAKE_CHOSEN

TUNA_MEAN = 7  # expected total of the Tuna Boat's two dice
ONE_DIE = tuple([0.0] + [1 / 6] * 6 + [0.0] * 8)
TWO_DICE = tuple([0.0, 0.0] + [(6 - abs(r - 7)) / 36 for r in range(2, 13)] + [0.0, 0.0])


def dice_distribution(state: MachiKoroState, player: int) -> tuple[float, ...]:
    """How a player is expected to roll: two dice once they can, one before."""
    return TWO_DICE if state.lm[player] & STATION else ONE_DIE


def own_roll_income(state: MachiKoroState, player: int, roll: int) -> int:
    """Net coins ``player`` gains from their own roll of ``roll`` (red payments subtracted)."""
    t = state.t
    city = state.cards[player]
    lm = state.lm[player]
    gain = 0
    for entry in t.green[roll]:
        gain += green_gain(entry, city, lm)
    for entry in t.blue[roll]:
        gain += blue_gain(entry, city, lm, TUNA_MEAN)
    n = state.num_players
    for idx, kind, amount, min_coins, icons in t.purple_by_roll[roll]:
        if not city[idx]:
            continue
        others = [q for q in range(n) if q != player]
        if kind == TAKE_CHOSEN:
            gain += min(amount, max(state.coins[q] for q in others))
        elif kind == SWAP:
            gain += 1
        else:
            for q in others:
                have = state.coins[q]
                gain += min(purple_due(kind, amount, min_coins, icons, state.cards[q], have), have)
    loss = 0
    for q in range(n):
        if q == player:
            continue
        q_lm = state.lm[q]
        q_city = state.cards[q]
        for entry in t.red[roll]:
            loss += red_due(entry, q_city, q_lm)
    return gain - min(loss, state.coins[player] + gain)


def expected_own_income(state: MachiKoroState, player: int, dist: tuple[float, ...]) -> float:
    return sum(p * own_roll_income(state, player, r) for r, p in enumerate(dist) if p)


def card_value_per_round(state: MachiKoroState, player: int, idx: int) -> float:
    """Expected coins one more copy of establishment ``idx`` earns ``player`` per round of turns."""
    t = state.t
    card = t.cards[idx]
    eff = card.effect
    n = state.num_players
    own = dice_distribution(state, player)
    lm = state.lm[player]
    if eff.get("requires") == "harbor" and not lm & HARBOR_LM:
        return 0.05  # worthless until the Harbor is built
    p_own = sum(own[r] for r in card.rolls if r < len(own))
    p_others = sum(
        sum(dice_distribution(state, q)[r] for r in card.rolls if r < 15) for q in range(n) if q != player
    )
    mall = 1 if lm & MALL else 0
    kind = eff.get("kind")
    city = state.cards[player]
    if kind == "tuna":
        return TUNA_MEAN * (p_own + p_others) * 0.2
    if card.color == "blue":
        return eff["amount"] * (p_own + p_others)
    if card.color == "red":
        return (eff["amount"] + (mall if "mall_bonus" in eff else 0)) * p_others
    if card.color == "green":
        if "per_icon" in eff:
            icon = eff["per_icon"]
            count = sum(city[i] for i, c in enumerate(t.cards) if c.icon == icon) + 0.5
            return eff["amount"] * count * p_own
        if "per_card" in eff:
            from .data import establishment_index

            count = city[establishment_index(eff["per_card"])] + 0.5
            return (eff["amount"] + mall) * count * p_own
        return (eff["amount"] + (mall if "mall_bonus" in eff else 0)) * p_own
    others = [state.coins[q] for q in range(n) if q != player]
    if kind == "take_each":
        return eff["amount"] * (n - 1) * p_own
    if kind == "take_chosen":
        return eff["amount"] * p_own
    if kind == "take_half":
        return sum(c / 2 for c in others if c >= 10) * p_own + 2 * p_own
    if kind == "take_per_icon":
        return 1.5 * (n - 1) * p_own
    return 1.0 * p_own  # business center


def _others_roll_income(state: MachiKoroState, player: int, roller: int, dist: tuple[float, ...]) -> float:
    """Expected coins ``player`` earns from blue and red cards when ``roller`` rolls."""
    t = state.t
    city = state.cards[player]
    lm = state.lm[player]
    total = 0.0
    for roll, p in enumerate(dist):
        if not p:
            continue
        gain = 0
        for entry in t.blue[roll]:
            gain += blue_gain(entry, city, lm, TUNA_MEAN)
        for entry in t.red[roll]:
            gain += red_due(entry, city, lm)
        total += p * gain
    return total


def income_rate(state: MachiKoroState, player: int) -> float:
    """Expected coins per round of turns: the best dice choice on one's own turn (boosted by the
    Amusement Park's extra turns and the Radio Tower's second chance) plus income on others' rolls."""
    lm = state.lm[player]
    own = expected_own_income(state, player, ONE_DIE)
    if lm & STATION:
        own = max(own, expected_own_income(state, player, TWO_DICE) * (1.2 if lm & PARK else 1.0))
    if lm & RADIO:
        own *= 1.15
    others = sum(
        _others_roll_income(state, player, q, dice_distribution(state, q))
        for q in range(state.num_players)
        if q != player
    )
    if lm & AIRPORT:
        own += 3.0
    return own + others


def remaining_landmark_cost(state: MachiKoroState, player: int) -> int:
    t = state.t
    built = state.lm[player]
    return sum(t.landmark_cost[j] for j in t.buildable_landmarks if not built >> j & 1)


def turns_to_win(state: MachiKoroState, player: int) -> float:
    """A crude race estimate: coins still needed for the landmarks over the income rate."""
    need = remaining_landmark_cost(state, player) - state.coins[player]
    return max(need, 0) / max(income_rate(state, player), 0.25)
