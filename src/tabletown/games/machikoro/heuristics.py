"""Expected-income arithmetic shared by the Machi Koro bots.

Everything here reads only public information (all of a Machi Koro city is face up).
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import AIRPORT, HARBOR_LM, MALL, PARK, RADIO, STATION
from .income import blue_gain, green_gain, purple_due, red_due
from .state import MachiKoroState
from .tables import SWAP, TAKE_CHOSEN

TUNA_MEAN = 7  # expected total of the Tuna Boat's two dice
ONE_DIE = tuple([0.0] + [1 / 6] * 6 + [0.0] * 8)
TWO_DICE = tuple([0.0, 0.0] + [(6 - abs(r - 7)) / 36 for r in range(2, 13)] + [0.0, 0.0])


def dice_distribution(state: MachiKoroState, player: int) -> tuple[float, ...]:
    """How a player is expected to roll: two dice once they can, one before."""
    return TWO_DICE if state.lm[player] & STATION else ONE_DIE


# Per set of tables and landmark bits that income depends on: the city's card counts (as bytes) ->
# its per-roll incomes (_city_incomes). Bots change cities one card at a time and search revisits the
# same ones, so most look-ups hit; the numbers are the payment formulas' own, summed in the same order.
_INCOME_BITS = HARBOR_LM | MALL
_CITY_CACHES: dict[int, tuple[object, tuple[dict, ...]]] = {}
_CACHE_LIMIT = 50_000


def _city_incomes(t, city: list[int], lm: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(own, owed, others) per roll total for a city with landmarks ``lm``: what its green and blue
    cards pay on its owner's roll (a Tuna Boat at ``TUNA_MEAN``), what a roller owes its red cards,
    and what its blue and red cards bring on another seat's roll."""
    entry = _CITY_CACHES.get(id(t))
    if entry is None or entry[0] is not t:
        entry = _CITY_CACHES[id(t)] = (t, tuple({} for _ in range(_INCOME_BITS + 1)))
    cache = entry[1][lm & _INCOME_BITS]
    key = bytes(city)
    incomes = cache.get(key)
    if incomes is None:
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        own, owed, others = [], [], []
        for roll in range(len(t.red)):
            gain = 0
            for entry in t.green[roll]:
                gain += green_gain(entry, city, lm)
            blue = 0
            for entry in t.blue[roll]:
                blue += blue_gain(entry, city, lm, TUNA_MEAN)
            red = 0
            for entry in t.red[roll]:
                red += red_due(entry, city, lm)
            own.append(gain + blue)
            owed.append(red)
            others.append(blue + red)
        incomes = cache[key] = (tuple(own), tuple(owed), tuple(others))
    return incomes


def own_roll_income(state: MachiKoroState, player: int, roll: int) -> int:
    """Net coins ``player`` gains from their own roll of ``roll`` (red payments subtracted)."""
    own = _city_incomes(state.t, state.cards[player], state.lm[player])[0]
    return _own_roll_incomes(state, player, own, (roll,))[roll]


def _own_roll_incomes(state: MachiKoroState, player: int, own: tuple[int, ...], rolls) -> list[int]:
    """own_roll_income for each of ``rolls`` (a list by roll total), given the player's own table."""
    t = state.t
    cards = state.cards
    lms = state.lm
    coins = state.coins
    n = state.num_players
    city = cards[player]
    loss: Sequence[int]
    if n == 2:
        loss = _city_incomes(t, cards[1 - player], lms[1 - player])[1]
    else:
        owed = [_city_incomes(t, cards[q], lms[q])[1] for q in range(n) if q != player]
        loss = [sum(column) for column in zip(*owed, strict=True)]
    purse = coins[player]
    purple = t.purple_by_roll
    out = [0] * len(own)
    for roll in rolls:
        gain = own[roll]
        if purple[roll]:
            for idx, kind, amount, min_coins, icons in purple[roll]:
                if not city[idx]:
                    continue
                others = [q for q in range(n) if q != player]
                if kind == TAKE_CHOSEN:
                    gain += min(amount, max(coins[q] for q in others))
                elif kind == SWAP:
                    gain += 1
                else:
                    for q in others:
                        have = coins[q]
                        gain += min(purple_due(kind, amount, min_coins, icons, cards[q], have), have)
        lost = loss[roll]
        most = purse + gain
        out[roll] = gain - (lost if lost < most else most)
    return out


_ONE_PAIRS = tuple((r, p) for r, p in enumerate(ONE_DIE) if p)
_TWO_PAIRS = tuple((r, p) for r, p in enumerate(TWO_DICE) if p)
_ONE_ROLLS = tuple(r for r, _ in _ONE_PAIRS)
_ALL_ROLLS = tuple(sorted({r for r, _ in _ONE_PAIRS + _TWO_PAIRS}))


def _pairs(dist: tuple[float, ...]) -> tuple[tuple[int, float], ...]:
    if dist is ONE_DIE:
        return _ONE_PAIRS
    if dist is TWO_DICE:
        return _TWO_PAIRS
    return tuple((r, p) for r, p in enumerate(dist) if p)


def expected_own_income(state: MachiKoroState, player: int, dist: tuple[float, ...]) -> float:
    pairs = _pairs(dist)
    own = _city_incomes(state.t, state.cards[player], state.lm[player])[0]
    values = _own_roll_incomes(state, player, own, [r for r, _ in pairs])
    return sum([p * values[r] for r, p in pairs])


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
    gains = _city_incomes(state.t, state.cards[player], state.lm[player])[2]
    return _expected(gains, _pairs(dist))


def _expected(gains: tuple[int, ...], pairs: tuple[tuple[int, float], ...]) -> float:
    total = 0.0
    for roll, p in pairs:
        total += p * gains[roll]
    return total


def income_rate(state: MachiKoroState, player: int) -> float:
    """Expected coins per round of turns: the best dice choice on one's own turn (boosted by the
    Amusement Park's extra turns and the Radio Tower's second chance) plus income on others' rolls.

    (The sums run over the same terms in the same order as the plain formulas, so the value is the
    same to the last bit.)"""
    lms = state.lm
    lm = lms[player]
    own_table, _, gains = _city_incomes(state.t, state.cards[player], lm)
    if lm & STATION:
        values = _own_roll_incomes(state, player, own_table, _ALL_ROLLS)
        own = sum([p * values[r] for r, p in _ONE_PAIRS])
        own_two = sum([p * values[r] for r, p in _TWO_PAIRS])
        own = max(own, own_two * (1.2 if lm & PARK else 1.0))
    else:
        values = _own_roll_incomes(state, player, own_table, _ONE_ROLLS)
        own = sum([p * values[r] for r, p in _ONE_PAIRS])
    if lm & RADIO:
        own *= 1.15
    one: float | None = None
    two: float | None = None
    parts = []
    for q in range(state.num_players):
        if q == player:
            continue
        if lms[q] & STATION:
            if two is None:
                two = _expected(gains, _TWO_PAIRS)
            parts.append(two)
        else:
            if one is None:
                one = _expected(gains, _ONE_PAIRS)
            parts.append(one)
    others = sum(parts)
    if lm & AIRPORT:
        own += 3.0
    return own + others


_REMAINING: dict[tuple[int, int], int] = {}


def remaining_landmark_cost(state: MachiKoroState, player: int) -> int:
    t = state.t
    built = state.lm[player]
    cost = _REMAINING.get((id(t), built))
    if cost is None:
        cost = sum(t.landmark_cost[j] for j in t.buildable_landmarks if not built >> j & 1)
        if _CITY_CACHES.get(id(t), (None,))[0] is t:  # the tables live on: their id stays theirs
            _REMAINING[(id(t), built)] = cost
    return cost


def turns_to_win(state: MachiKoroState, player: int) -> float:
    """A crude race estimate: coins still needed for the landmarks over the income rate."""
    need = remaining_landmark_cost(state, player) - state.coins[player]
    return max(need, 0) / max(income_rate(state, player), 0.25)
