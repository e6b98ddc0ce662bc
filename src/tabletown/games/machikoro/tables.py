"""Static lookup tables for one set of options, built once and shared by every state.

Income resolution is the hot path of the game: instead of scanning all cards on every roll, the
tables list, for each roll total, exactly the cards that can activate on it, with their numbers
pre-digested into tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...core.events import Event
from .data import BASE_VICTORY, HARBOR_VICTORY, LANDMARK_CODES, Card, establishments, landmarks

if TYPE_CHECKING:
    from .actions import Swap

MAX_ROLL = 14

# Purple effect kinds, in the order their cards resolve on a shared roll (card order in the data).
TAKE_EACH, TAKE_CHOSEN, SWAP, TAKE_HALF, TAKE_PER_ICON = range(5)
_PURPLE_KINDS = {
    "take_each": TAKE_EACH,
    "take_chosen": TAKE_CHOSEN,
    "swap": SWAP,
    "take_half": TAKE_HALF,
    "take_per_icon": TAKE_PER_ICON,
}

MARKET_ALL, MARKET_TEN, MARKET_HYBRID = "all", "ten", "hybrid"


@dataclass(frozen=True, slots=True)
class Tables:
    harbor: bool
    market: str
    cards: tuple[Card, ...]
    in_play: tuple[bool, ...]
    playable: tuple[int, ...]  # indices of the establishments in play, in card order
    cost: tuple[int, ...]
    copies: tuple[int, ...]
    purple: tuple[bool, ...]
    build_info: tuple[tuple[int, bool, bool], ...]  # per establishment: (cost, purple, in play)
    # per roll total: (idx, amount, mall_bonus, needs_harbor)
    red: tuple[tuple[tuple[int, int, bool, bool], ...], ...]
    # per roll total: (idx, amount, icon_members or (), per_card idx or -1, mall_mode 0/1/2)
    green: tuple[tuple[tuple[int, int, tuple[int, ...], int, int], ...], ...]
    # per roll total: (idx, amount, needs_harbor, is_tuna)
    blue: tuple[tuple[tuple[int, int, bool, bool], ...], ...]
    # per roll total: (idx, kind, amount, min_coins, icon_members)
    purple_by_roll: tuple[tuple[tuple[int, int, int, int, tuple[int, ...]], ...], ...]
    # per roll total: (red, green, blue, plain blue, purple_by_roll) of that total, read in one
    # look-up; "plain blue" is true when every blue card of the total simply pays its amount (no
    # Tuna Boat, no Harbor condition, an amount above zero)
    income: tuple[tuple[tuple, tuple, tuple, bool, tuple], ...]
    swappable: tuple[int, ...]
    landmark_cost: tuple[int, ...]
    victory_mask: int
    buildable_landmarks: tuple[int, ...]
    # market regions: (member indices, distinct kinds to show)
    regions: tuple[tuple[tuple[int, ...], int], ...]
    region_of: tuple[int, ...]
    # per region: itemgetter of its members' supply counts (a tuple); None for a single deck of every
    # kind in play, whose showing piles are simply the nonzero supply counts
    region_piles: tuple[itemgetter[Any] | None, ...]
    codes: tuple[str, ...]
    starting: tuple[int, ...]  # a city's establishment counts at the start
    # per coins (capped at the dearest card): (index, Build action, is purple) of every establishment
    # in play that costs no more, in card order; and (landmark bit, Build action) likewise
    affordable: tuple[tuple[tuple[int, object, bool], ...], ...]
    affordable_landmarks: tuple[tuple[tuple[int, object], ...], ...]
    # The legal build list without a loop in Python (turn.py, legal_actions), per coins (capped):
    # build_rows[coins] = (purple getter or None, rows): the getter reads the city's counts of the
    # purple cards affordable at that level, and rows maps those counts (0/1 each) to (Build actions,
    # supply getter) of the establishments one may buy there, in card order (owned purples left
    # out); without affordable purples, rows is that pair itself. With a market deck few piles show,
    # so the pair is rather (one Build or None per card index, None) and the list is a compress over
    # the whole supply with the Nones filtered out. landmark_rows[coins][built mask]
    # holds the Build actions of the unbuilt landmarks that count and are affordable.
    # (rows: one pair, or a dict of pairs by the purple counts; Any, as the getter tells which)
    build_rows: tuple[tuple[itemgetter[Any] | None, Any], ...]
    richest: int  # the last coin level of build_rows (the dearest card's cost): more coins read that row
    landmark_rows: tuple[tuple[tuple[object, ...], ...], ...]
    # Business Center: swap_getter reads a city's counts of the swappable kinds (a tuple), and
    # swap_rows[seat][mine] the Swaps of my ``mine`` for that seat's swappable kinds in card order
    # (None where theirs == mine), so a compress over their counts lists the legal swaps.
    swap_getter: itemgetter[Any]
    # The "build" event of each seat and establishment (its cost in this set-up) or landmark, made
    # once and shared: build_events[seat][index], landmark_events[seat][bit].
    build_events: tuple[tuple[Event, ...], ...]
    landmark_events: tuple[tuple[Event, ...], ...]
    swap_rows: tuple[tuple[tuple[Swap | None, ...], ...], ...]


def _icon_members(
    cards: tuple[Card, ...], in_play: tuple[bool, ...], icons: tuple[str, ...]
) -> tuple[int, ...]:
    return tuple(i for i, c in enumerate(cards) if c.icon in icons and in_play[i])


@cache
def build_tables(harbor: bool, market: str, sushi_cost: int, purple_copies: int) -> Tables:
    cards = establishments()
    in_play = tuple(harbor or c.expansion == "base" for c in cards)
    cost = tuple(sushi_cost if c.code == "sushi" else c.cost for c in cards)
    copies = tuple(purple_copies if c.is_purple else c.copies for c in cards)
    index = {c.code: i for i, c in enumerate(cards)}
    red: list[list] = [[] for _ in range(MAX_ROLL + 1)]
    green: list[list] = [[] for _ in range(MAX_ROLL + 1)]
    blue: list[list] = [[] for _ in range(MAX_ROLL + 1)]
    purple: list[list] = [[] for _ in range(MAX_ROLL + 1)]
    for i, card in enumerate(cards):
        if not in_play[i]:
            continue
        eff = card.effect
        needs_harbor = eff.get("requires") == "harbor"
        for roll in card.rolls:
            if card.color == "red":
                red[roll].append((i, eff["amount"], "mall_bonus" in eff, needs_harbor))
            elif card.color == "green":
                icons = _icon_members(cards, in_play, (eff["per_icon"],)) if "per_icon" in eff else ()
                per_card = index[eff["per_card"]] if "per_card" in eff else -1
                mall_mode = {None: 0, "per_copy": 1, "per_counted_card": 2}[eff.get("mall_bonus")]
                green[roll].append((i, eff["amount"], icons, per_card, mall_mode))
            elif card.color == "blue":
                blue[roll].append((i, eff.get("amount", 0), needs_harbor, eff["kind"] == "tuna"))
            else:
                kind = _PURPLE_KINDS[eff["kind"]]
                icons = _icon_members(cards, in_play, tuple(eff.get("icons", ())))
                purple[roll].append((i, kind, eff.get("amount", 0), eff.get("min_coins", 0), icons))
    from .actions import BUILD_ESTABLISHMENT, BUILD_LANDMARK, MAX_SEATS, SWAPS

    landmark_cost = tuple(c.cost for c in landmarks())
    buildable = tuple(LANDMARK_CODES.index(code) for code in (HARBOR_VICTORY if harbor else BASE_VICTORY))
    dearest = max([cost[i] for i in range(len(cards)) if in_play[i]] + [landmark_cost[j] for j in buildable])
    affordable = tuple(
        tuple(
            (i, BUILD_ESTABLISHMENT[i], cards[i].is_purple)
            for i in range(len(cards))
            if in_play[i] and cost[i] <= coins
        )
        for coins in range(dearest + 1)
    )
    affordable_landmarks = tuple(
        tuple((1 << j, BUILD_LANDMARK[j]) for j in buildable if landmark_cost[j] <= coins)
        for coins in range(dearest + 1)
    )
    victory = HARBOR_VICTORY if harbor else BASE_VICTORY
    swappable = tuple(i for i, c in enumerate(cards) if in_play[i] and not c.is_purple)
    victory_mask = sum(1 << LANDMARK_CODES.index(code) for code in victory)
    regions = _market_regions(cards, in_play, market)
    region_of = [-1] * len(cards)
    for r, (members, _) in enumerate(regions):
        for i in members:
            region_of[i] = r
    return Tables(
        harbor=harbor,
        market=market,
        cards=cards,
        in_play=in_play,
        playable=tuple(i for i in range(len(cards)) if in_play[i]),
        cost=cost,
        copies=copies,
        purple=tuple(c.is_purple for c in cards),
        build_info=tuple((cost[i], c.is_purple, in_play[i]) for i, c in enumerate(cards)),
        red=tuple(tuple(x) for x in red),
        green=tuple(tuple(x) for x in green),
        blue=tuple(tuple(x) for x in blue),
        purple_by_roll=tuple(tuple(x) for x in purple),
        income=tuple(
            (
                tuple(red[roll]),
                tuple(green[roll]),
                tuple(blue[roll]),
                all(
                    amount > 0 and not needs_harbor and not tuna
                    for _, amount, needs_harbor, tuna in blue[roll]
                ),
                tuple(purple[roll]),
            )
            for roll in range(MAX_ROLL + 1)
        ),
        swappable=swappable,
        landmark_cost=tuple(c.cost for c in landmarks()),
        victory_mask=victory_mask,
        buildable_landmarks=tuple(LANDMARK_CODES.index(code) for code in victory),
        regions=regions,
        region_of=tuple(region_of),
        region_piles=(None,)
        if len(regions) == 1
        else tuple(_tuple_getter(members) for members, _ in regions),
        codes=tuple(c.code for c in cards),
        starting=tuple(c.starting for c in cards),
        affordable=affordable,
        affordable_landmarks=affordable_landmarks,
        build_rows=tuple(_build_row(row, len(cards), bool(regions)) for row in affordable),
        richest=len(affordable) - 1,
        landmark_rows=tuple(
            tuple(tuple(action for bit, action in row if not built & bit) for built in range(1 << 7))
            for row in affordable_landmarks
        ),
        swap_getter=_counts_getter(swappable),
        build_events=tuple(
            tuple(
                Event("build", {"seat": seat, "card": c.code, "cost": cost[i]}) for i, c in enumerate(cards)
            )
            for seat in range(MAX_SEATS)
        ),
        landmark_events=tuple(
            tuple(
                Event("build", {"seat": seat, "card": code, "cost": landmark_cost[j]})
                for j, code in enumerate(LANDMARK_CODES)
            )
            for seat in range(MAX_SEATS)
        ),
        swap_rows=tuple(
            tuple(tuple(SWAPS[mine][seat][theirs] for theirs in swappable) for mine in range(len(cards)))
            for seat in range(MAX_SEATS)
        ),
    )


def _build_row(
    affordable: tuple[tuple[int, object, bool], ...], kinds: int, sparse: bool
) -> tuple[itemgetter[Any] | None, Any]:
    """(purple getter or None, rows) of one coin level: see ``Tables.build_rows``."""
    purples = tuple(i for i, _, purple in affordable if purple)

    def row(owned: set[int]) -> tuple[tuple[object, ...], itemgetter[Any] | None]:
        kept = [(i, action) for i, action, _ in affordable if i not in owned]
        if sparse:
            by_index: list[object] = [None] * kinds
            for i, action in kept:
                by_index[i] = action
            return tuple(by_index), None
        return tuple(action for _, action in kept), _counts_getter(tuple(i for i, _ in kept))

    if not purples:
        return None, row(set())
    owned_purple = _counts_getter(purples)
    rows = {}
    for flags in product((0, 1), repeat=len(purples)):
        city = dict(zip(purples, flags, strict=True))
        rows[owned_purple(city)] = row({i for i in purples if city[i]})
    return owned_purple, rows


def _counts_getter(members: tuple[int, ...]) -> itemgetter:
    """An itemgetter of the counts at ``members`` for ``compress`` (which stops at the shorter input,
    so one member may be read twice); picklable, unlike a lambda, so a state's fingerprint can
    pickle the tables."""
    if not members:
        return itemgetter(slice(0, 0))
    if len(members) == 1:
        return itemgetter(members[0], members[0])
    return itemgetter(*members)


def _tuple_getter(members: tuple[int, ...]):
    """An itemgetter that always returns a tuple (itemgetter of one index returns the item)."""
    if not members:
        return lambda values: ()
    if len(members) == 1:
        only = members[0]
        return lambda values: (values[only],)
    return itemgetter(*members)


def _market_regions(cards: tuple[Card, ...], in_play: tuple[bool, ...], market: str):
    playing = [i for i in range(len(cards)) if in_play[i]]
    if market == MARKET_ALL:
        return ()
    if market == MARKET_TEN:
        return ((tuple(playing), 10),)
    low = tuple(i for i in playing if not cards[i].is_purple and min(cards[i].rolls) <= 6)
    high = tuple(i for i in playing if not cards[i].is_purple and min(cards[i].rolls) >= 7)
    purple = tuple(i for i in playing if cards[i].is_purple)
    return ((low, 5), (high, 5), (purple, 2))
