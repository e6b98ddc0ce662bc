"""Move generation: every action the seat to act may take now.

Builds, sprawls, remodels and reorganizations come from ready-made tables (no allocation per call);
bets are listed as a menu ($1, every $5 step and the maximum; any other bet can be typed), and a
few sensible lot trades are listed as offers (any other offer can be typed).
"""

from __future__ import annotations

from ...core.game import Action
from .actions import (
    ACCEPT,
    END,
    LAYOFF_NO,
    LAYOFF_YES,
    PASS,
    REFUSE,
    Build,
    Free,
    Gamble,
    Item,
    Offer,
    Put,
    Remodel,
    Reorg,
    Sprawl,
    Take,
)
from .data import (
    COST,
    IN_EXCLUDED_BLOCK,
    MARKERS_PER_PLAYER,
    NEIGHBORS,
    NUM_COLORS,
    NUM_LOTS,
    TILES_PER_COLOR,
)
from .phases import ACTION, FREE_LOT, LAYOFF, MARKET, OFFER, PICK_DIE, PLACE


class MovesMixin:
    """``legal_actions`` of :class:`~.state.LordsOfVegasState`."""

    __slots__ = ()

    def legal_actions(self, player: int) -> list[Action]:
        if player not in self.to_act:
            return []
        phase = self.phase
        if phase == ACTION:
            return self._legal_main(player)
        if phase == OFFER:
            return [ACCEPT, REFUSE]
        if phase == LAYOFF:
            return [LAYOFF_YES, LAYOFF_NO]
        if phase == PICK_DIE:
            target = self.pending[1]
            dieo = self.dieo
            return [TAKE[lot] for lot in range(NUM_LOTS) if dieo[lot] == player and lot != target]
        if phase == FREE_LOT:
            marker = self.marker
            return [FREE[lot] for lot in range(NUM_LOTS) if marker[lot] == player]
        if phase == PLACE:
            return [PUT[lot] for lot in self.place_queue[0][1]]
        if phase == MARKET:
            out: list[Action] = [PASS]
            if self.offers_made < self.options["max_offers"]:
                self._offers(player, out)
            return out
        return []

    def _legal_main(self, p: int) -> list[Action]:
        out: list[Action] = [END]
        money = self.money[p]
        tiles_left = self.tiles_left
        bans = self.bans
        marker = self.marker
        colour_mask = 0
        for c in range(NUM_COLORS):
            if tiles_left[c]:
                colour_mask |= 1 << c
        # Build (tables of ready-made action tuples: no allocation per call)
        if colour_mask and not (bans and self._banned("build", -1)):
            for lot, owner in enumerate(marker):
                if owner == p and COST[lot] <= money and not (bans and self._banned("build", lot)):
                    out.extend(_BUILD[lot][colour_mask])
        groups, cid = self.casinos()
        if groups:
            self._legal_casinos(p, money, groups, out)
        if self.offers_made < self.options["max_offers"]:
            self._offers(p, out)
        return out

    def _legal_casinos(self, p: int, money: int, groups: tuple, out: list[Action]) -> None:
        tiles_left = self.tiles_left
        bans = self.bans
        marker, tile, dieo, diev = self.marker, self.tile, self.dieo, self.diev
        two = self.num_players == 2
        reorged = self.reorged
        can_gamble = not self.gambled and money > 0 and not (bans and self._banned("gamble", -1))
        sprawled: set[int] = set()
        for g in groups:
            size = len(g)
            first = g[0]
            if size == 1:  # most casinos: no loop needed
                pips = diev[first]
                boss = dieo[first]
                mine = boss == p
                clash = reorged >> first & 1
            else:
                # One pass over the casino: boss, pips, our die, and dice reorganized this turn.
                best = 0
                boss = -1
                pips = 0
                mine = False
                clash = False
                for lot in g:
                    v = diev[lot]
                    if v:
                        o = dieo[lot]
                        pips += v
                        if o == p:
                            mine = True
                        if reorged >> lot & 1:
                            clash = True
                        if v > best:
                            best = v
                            boss = o
                        elif v == best and o != boss:
                            boss = -1
            if boss == p:
                colour = tile[first]
                # Sprawl ($12 is the cheapest sprawl)
                if tiles_left[colour] and money >= 12 and not (bans and self._banned_casino("sprawl", g)):
                    for lot in g:
                        for nb in NEIGHBORS[lot]:
                            if (
                                tile[nb] < 0
                                and marker[nb] < 0
                                and 2 * COST[nb] <= money
                                and not (two and IN_EXCLUDED_BLOCK[nb])
                            ):
                                key = nb * 8 + colour
                                if key not in sprawled and not (bans and self._banned("sprawl", nb)):
                                    sprawled.add(key)
                                    out.append(_SPRAWL[nb][colour])
                # Remodel
                if 5 * size <= money and not (bans and self._banned_casino("remodel", g)):
                    mask = 0
                    for c in range(NUM_COLORS):
                        if c != colour and tiles_left[c] >= size:
                            mask |= 1 << c
                    if mask:
                        out.extend(_REMODEL[first][mask])
            elif boss >= 0 and can_gamble and not (bans and self._banned_casino("gamble", g)):
                top = 5 * size
                if money < top:
                    top = money
                out.extend(_gamble_menu(first, top))
            if mine and not clash and pips <= money and not (bans and self._banned_casino("reorg", g)):
                out.append(_REORG[first])

    def _offers(self, p: int, out: list[Action]) -> None:
        """Add a few sensible trades to ``out``: buy a neighbour's lot, or sell a lot next to them, at
        the lot's printed cost (at most one of each per other player). Any other offer can be typed."""
        sell = SALE[p]
        marker, dieo, money, markers_out = self.marker, self.dieo, self.money, self.markers_out
        hold = self.options["markers_full"] == "hold"
        done = 0  # bit 2q: bought from q, bit 2q+1: sold to q
        p_room = hold or markers_out[p] < MARKERS_PER_PLAYER
        for lot, owner in enumerate(marker):
            if owner < 0:
                continue
            cost = COST[lot]
            if owner == p:
                for nb in NEIGHBORS[lot]:
                    q = marker[nb]
                    if q < 0:
                        q = dieo[nb]
                    if (
                        q >= 0
                        and q != p
                        and not done >> (2 * q + 1) & 1
                        and money[q] >= cost
                        and (hold or markers_out[q] < MARKERS_PER_PLAYER)
                    ):
                        done |= 1 << (2 * q + 1)
                        out.append(sell[q][lot])
            elif p_room and money[p] >= cost and not done >> (2 * owner) & 1:
                for nb in NEIGHBORS[lot]:
                    if marker[nb] == p or dieo[nb] == p:
                        done |= 1 << (2 * owner)
                        out.append(SALE[owner][p][lot])
                        break


def _bet_menu(top: int) -> tuple[int, ...]:
    """Bets listed for picking by number: $1, every $5 step and the maximum (any bet can be typed)."""
    menu = _BET_MENUS.get(top)
    if menu is None:
        values = {1, top}
        values.update(range(5, top + 1, 5))
        menu = _BET_MENUS[top] = tuple(sorted(values))
    return menu


_BET_MENUS: dict[int, tuple[int, ...]] = {}
_GAMBLE_MENUS: dict[tuple[int, int], tuple[Action, ...]] = {}


def _gamble_menu(lot: int, top: int) -> tuple[Action, ...]:
    menu = _GAMBLE_MENUS.get((lot, top))
    if menu is None:
        menu = _GAMBLE_MENUS[(lot, top)] = tuple(GAMBLE[lot][bet] for bet in _bet_menu(top))
    return menu


def _by_mask(kind: type, lot: int) -> tuple[tuple[Action, ...], ...]:
    """Actions kind(lot, colour) for every set of colours, indexed by the colour bitmask."""
    return tuple(
        tuple(kind(lot, c) for c in range(NUM_COLORS) if mask >> c & 1) for mask in range(1 << NUM_COLORS)
    )


MAX_SEATS = 4
# The largest bet: $5 per tile of a casino, which holds at most one colour's tiles.
MAX_BET = 5 * TILES_PER_COLOR
LOTS = range(NUM_LOTS)
_BUILD = tuple(_by_mask(Build, lot) for lot in LOTS)
_REMODEL = tuple(_by_mask(Remodel, lot) for lot in LOTS)
_SPRAWL = tuple(tuple(Sprawl(lot, c) for c in range(NUM_COLORS)) for lot in LOTS)
_REORG = tuple(Reorg(lot) for lot in LOTS)
TAKE = tuple(Take(lot) for lot in LOTS)
FREE = tuple(Free(lot) for lot in LOTS)
PUT = tuple(Put(lot) for lot in LOTS)
# GAMBLE[lot][bet] (bet 0 is a placeholder: bets start at $1).
GAMBLE = tuple(tuple(Gamble(lot, bet) for bet in range(MAX_BET + 1)) for lot in LOTS)


def lot_sale(seller: int, buyer: int, lot: int) -> Offer:
    """The listed trade: ``seller`` gives ``lot`` to ``buyer`` for the lot's printed cost."""
    return Offer(tuple(sorted((Item(buyer, seller, "$", COST[lot]), Item(seller, buyer, "lot", lot)))))


# SALE[seller][buyer][lot]: the listed trades, made once.
SALE = tuple(
    tuple(tuple(lot_sale(seller, buyer, lot) for lot in LOTS) for buyer in range(MAX_SEATS))
    for seller in range(MAX_SEATS)
)


def listed_actions(num_players: int) -> list[Action]:
    """Every action ``legal_actions`` can ever return with ``num_players`` seats, in a fixed order:
    the answers, then per lot its builds, sprawls, remodels, reorganization, bets ($1 to the largest),
    die moves, lot frees and placements, then the listed lot sales (seller, buyer, lot). Typed-only
    variants that ``apply`` also accepts are not here (see docs/games/lordsofvegas.md)."""
    out: list[Action] = [END, PASS, ACCEPT, REFUSE, LAYOFF_YES, LAYOFF_NO]
    for lot in LOTS:
        out.extend(Build(lot, c) for c in range(NUM_COLORS))
        out.extend(_SPRAWL[lot])
        out.extend(Remodel(lot, c) for c in range(NUM_COLORS))
        out.append(_REORG[lot])
        out.extend(GAMBLE[lot][1:])
        out.extend((TAKE[lot], FREE[lot], PUT[lot]))
    for seller in range(num_players):
        for buyer in range(num_players):
            if buyer != seller:
                out.extend(SALE[seller][buyer])
    return out
