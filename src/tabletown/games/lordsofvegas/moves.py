"""Move generation: every action the seat to act may take now.

Builds, sprawls, remodels and reorganizations come from ready-made tables (no allocation per call);
bets are listed as a menu ($1, every $5 step and the maximum; any other bet can be typed), and a
few sensible lot trades are listed as offers (any other offer can be typed).
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action

# Alike to bots.py's, state.py's and notation.py's import lists on purpose: each module names its own.
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
from .fields import StateFields
from .phases import ACTION, FREE_LOT, LAYOFF, MARKET, OFFER, PICK_DIE, PLACE


class MovesMixin(StateFields):
    """``legal_actions`` of :class:`~.state.LordsOfVegasState`."""

    __slots__ = ()

    def _legal_other(self, player: int) -> list[Action]:
        """``legal_actions`` outside the active seat's unrestricted main phase."""
        phase = self.phase
        if phase == ACTION:
            return self._legal_main_banned(player) if player == self.active else []
        if player not in self.to_act:
            return []
        if phase == OFFER:
            return [ACCEPT, REFUSE]
        if phase == LAYOFF:
            return [LAYOFF_YES, LAYOFF_NO]
        if phase == PICK_DIE:
            assert self.pending is not None  # the take-over or build that opened this phase
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

    def legal_actions(self, p: int) -> list[Any]:  # Moves (fields.py); Any: callers read their fields
        if self.phase != ACTION or p != self.active or self.bans:
            return self._legal_other(p)
        # The hot path, the active seat's main phase with nothing promised away (nearly always):
        # everything in one function, the one-tile casinos (most of them) read straight from the
        # lot's tables and the larger ones from their memoized dice summaries. The same moves in
        # the same order as ``_legal_main_banned``.
        out: list[Action] = [END]
        money = self.money[p]
        tiles_left = self.tiles_left
        t0, t1, t2, t3, t4 = tiles_left  # NUM_COLORS == 5 (asserted below)
        colour_mask = (t0 > 0) | (t1 > 0) << 1 | (t2 > 0) << 2 | (t3 > 0) << 3 | (t4 > 0) << 4
        # Build (tables of ready-made actions: no allocation per call) on the seat's lots.
        if colour_mask:
            own = self._cache_own
            if own is None:
                own = self._owned()
            builds = _BUILD
            for lot in own[1][p]:
                if COST[lot] <= money:
                    out += builds[lot][colour_mask]
        cas = self._cache_cas
        if cas is None:
            cas = self.casinos()
        marker, tile, dieo, diev = self.marker, self.tile, self.dieo, self.diev
        two = self.num_players == 2
        reorged = self.reorged
        stats = self._cache_stats
        can_gamble = not self.gambled and money > 0
        can_sprawl = money >= 12  # the cheapest sprawl
        remodel_one = colour_mask if money >= 5 else 0  # colours a one-tile casino may turn to
        menus_one = _MENUS_ONE[money if money < 5 else 5] if can_gamble else None
        sprawled: set[int] | None = None  # (lot, colour) keys listed, made when first needed
        for g in cas[0]:
            first = g[0]
            if len(g) == 1:
                boss = dieo[first]
                if boss == p:
                    colour = tile[first]
                    if can_sprawl and colour_mask >> colour & 1:
                        # Deliberately the same sprawl step as the larger casinos' below (legal actions are the hot path:
                        # spelled out here for a one-tile casino rather than called).
                        for nb in _NEIGHBOURS_2P[first] if two else NEIGHBORS[first]:
                            if tile[nb] < 0 and marker[nb] < 0 and SPRAWL_COST[nb] <= money:
                                key = nb * 8 + colour
                                if sprawled is None:
                                    sprawled = {key}
                                elif key in sprawled:
                                    continue
                                else:
                                    sprawled.add(key)
                                out.append(_SPRAWL[nb][colour])
                    if remodel_one:
                        out += _REMODEL[first][remodel_one & ~(1 << colour)]
                    if not reorged >> first & 1 and diev[first] <= money:
                        out.append(_REORG[first])
                elif menus_one is not None and boss >= 0:
                    out += menus_one[first]
                continue
            size = len(g)
            # The casino's boss, pips, seats with dice and lots with dice (memoized).
            st = stats.get(g)
            if st is None:
                st = self._dice_stats(g)
            boss, pips, seats, dice_lots = st
            if boss == p:
                colour = tile[first]
                if can_sprawl and tiles_left[colour]:
                    rings = _RINGS_2P if two else _RINGS
                    ring = rings.get(g)
                    if ring is None:
                        ring = _ring(g, rings)
                    # Deliberately the same sprawl step as the one-tile casino's above (hot path, spelled out in both).
                    for nb in ring:
                        if tile[nb] < 0 and marker[nb] < 0 and SPRAWL_COST[nb] <= money:
                            key = nb * 8 + colour
                            if sprawled is None:
                                sprawled = {key}
                            elif key in sprawled:
                                continue
                            else:
                                sprawled.add(key)
                            out.append(_SPRAWL[nb][colour])
                if 5 * size <= money:
                    # The colours with enough tiles left for every tile of the casino.
                    mask = (
                        (t0 >= size)
                        | (t1 >= size) << 1
                        | (t2 >= size) << 2
                        | (t3 >= size) << 3
                        | (t4 >= size) << 4
                    )
                    out += _REMODEL[first][mask & ~(1 << colour)]
            elif boss >= 0 and can_gamble:
                top = 5 * size
                out += _GAMBLE_MENUS[first][money if money < top else top]
            if seats >> p & 1 and not reorged & dice_lots and pips <= money:
                out.append(_REORG[first])
        if self.offers_made < self.options["max_offers"]:
            self._offers(p, out)
        return out

    def _legal_main_banned(self, p: int) -> list[Action]:
        """The main phase's moves when the seat promised some actions away this turn (a traded
        promise)."""
        out: list[Action] = [END]
        money = self.money[p]
        tiles_left = self.tiles_left
        if any(tiles_left) and not self._banned("build", -1):
            colour_mask = sum(1 << c for c in range(NUM_COLORS) if tiles_left[c])
            own = self._cache_own
            if own is None:
                own = self._owned()
            for lot in own[1][p]:
                if COST[lot] <= money and not self._banned("build", lot):
                    out += _BUILD[lot][colour_mask]
        groups = self.casinos()[0]
        if groups:
            self._legal_casinos(p, money, groups, out)
        if self.offers_made < self.options["max_offers"]:
            self._offers(p, out)
        return out

    def _legal_casinos(self, p: int, money: int, groups: tuple, out: list[Action]) -> None:
        tiles_left = self.tiles_left
        bans = self.bans
        marker, tile, dieo, diev = self.marker, self.tile, self.dieo, self.diev
        rings = _RINGS_2P if self.num_players == 2 else _RINGS
        reorged = self.reorged
        can_gamble = not self.gambled and money > 0 and not (bans and self._banned("gamble", -1))
        sprawled: set[int] = set()
        remodel_masks: dict[int, int] = {}
        for g in groups:
            first = g[0]
            if len(g) == 1:  # most casinos: no loop needed
                size = 1
                pips = diev[first]
                boss = dieo[first]
                mine = boss == p
                clash = reorged >> first & 1
            else:
                size = len(g)
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
                # Sprawl ($12 is the cheapest sprawl) onto the empty lots around the casino, in the
                # order a walk over its lots and their neighbours meets them.
                if tiles_left[colour] and money >= 12 and not (bans and self._banned_casino("sprawl", g)):
                    ring = rings.get(g)
                    if ring is None:
                        ring = _ring(g, rings)
                    for nb in ring:
                        if tile[nb] < 0 and marker[nb] < 0 and SPRAWL_COST[nb] <= money:
                            key = nb * 8 + colour
                            if key not in sprawled and not (bans and self._banned("sprawl", nb)):
                                sprawled.add(key)
                                out.append(_SPRAWL[nb][colour])
                # Remodel
                if 5 * size <= money and not (bans and self._banned_casino("remodel", g)):
                    mask = remodel_masks.get(size)
                    if mask is None:
                        mask = remodel_masks[size] = sum(
                            1 << c for c in range(NUM_COLORS) if tiles_left[c] >= size
                        )
                    mask &= ~(1 << colour)
                    if mask:
                        out += _REMODEL[first][mask]
            elif boss >= 0 and can_gamble and not (bans and self._banned_casino("gamble", g)):
                top = 5 * size
                if money < top:
                    top = money
                out += _GAMBLE_MENUS[first][top]
            if mine and not clash and pips <= money and not (bans and self._banned_casino("reorg", g)):
                out.append(_REORG[first])

    def _offers(self, p: int, out: list[Action]) -> None:
        """Add a few sensible trades to ``out``: buy a neighbour's lot, or sell a lot next to them, at
        the lot's printed cost (at most one of each per other player). Any other offer can be typed."""
        plan = self._cache_plan
        if plan is None or plan[0] != p:
            plan = self._offer_plan(p)
        if not plan[1]:
            return  # no lot of ours next to another seat's, nor theirs next to ours
        money, markers_out = self.money, self.markers_out
        # bit 2q: bought from q, bit 2q+1: sold to q; trades that cannot happen count as done, and
        # the walk stops once every trade is listed.
        done = 3 << (2 * p)
        cash = money[p]
        if max(markers_out) >= MARKERS_PER_PLAYER and self.options["markers_full"] != "hold":
            # Someone has all their markers out: they cannot take another lot.
            for q in range(self.num_players):
                if q != p and markers_out[q] >= MARKERS_PER_PLAYER:
                    done |= 2 << (2 * q)
            if markers_out[p] >= MARKERS_PER_PLAYER:
                done |= _BUY_BITS
                cash = -1
        full = _FULL[self.num_players]
        if done == full:
            return
        # Each candidate: (its bit in ``done``, the paying seat or -1 for us, the price, the offer,
        # the lot).
        for bit, payer, cost, offer, _ in plan[1]:
            if not done >> bit & 1 and (money[payer] if payer >= 0 else cash) >= cost:
                done |= 1 << bit
                out.append(offer)
                if done == full:
                    return

    def _offer_plan(self, p: int) -> tuple[int, tuple]:
        """The trades ``_offers`` may list for ``p`` before money is looked at, in its order: walking
        the lots with a marker, sell our lot to each other seat next to it (marker or die, in the
        order of the lot's neighbours), or buy another seat's lot next to ours. It depends only on
        who holds which markers and dice, so it is kept in ``_cache_plan`` until one changes hands."""
        marker, dieo = self.marker, self.dieo
        own = self._cache_own
        if own is None:
            own = self._owned()
        sell = SALE[p]
        plan = []
        for lot in own[0]:
            owner = marker[lot]
            cost = COST[lot]
            if owner == p:
                seen = 1 << p
                for nb in NEIGHBORS[lot]:
                    q = marker[nb]
                    if q < 0:
                        q = dieo[nb]
                    if q >= 0 and not seen >> q & 1:
                        seen |= 1 << q
                        plan.append((2 * q + 1, q, cost, sell[q][lot], lot))
            else:
                for nb in NEIGHBORS[lot]:
                    if marker[nb] == p or dieo[nb] == p:
                        plan.append((2 * owner, -1, cost, SALE[owner][p][lot], lot))
                        break
        cached = self._cache_plan = (p, tuple(plan))
        return cached


def _bet_menu(top: int) -> tuple[int, ...]:
    """Bets listed for picking by number: $1, every $5 step and the maximum (any bet can be typed)."""
    values = {1, top}
    values.update(range(5, top + 1, 5))
    return tuple(sorted(values))


def _ring(group: tuple[int, ...], rings: dict) -> tuple[int, ...]:
    """The lots next to ``group`` (outside it) in the order a walk over its lots and their
    neighbours meets them, without block F in a 2-player game; remembered per casino."""
    seen = set(group)
    ring = []
    two = rings is _RINGS_2P
    for lot in group:
        for nb in NEIGHBORS[lot]:
            if nb not in seen:
                seen.add(nb)
                if not (two and IN_EXCLUDED_BLOCK[nb]):
                    ring.append(nb)
    if len(rings) > 100_000:  # casinos seen across many games: keep the memo bounded
        rings.clear()
    ring_t = rings[group] = tuple(ring)
    return ring_t


_RINGS: dict[tuple[int, ...], tuple[int, ...]] = {}
_RINGS_2P: dict[tuple[int, ...], tuple[int, ...]] = {}
SPRAWL_COST = tuple(2 * cost for cost in COST)
# _offers' bookkeeping: every trade bit of n seats, and the "bought from" bits.
_FULL = tuple((1 << (2 * n)) - 1 for n in range(5))
_BUY_BITS = 0x55
# Neighbours of each lot without block F's lots (2-player games): where a one-tile casino may sprawl.
_NEIGHBOURS_2P = tuple(
    tuple(nb for nb in NEIGHBORS[lot] if not IN_EXCLUDED_BLOCK[nb]) for lot in range(NUM_LOTS)
)
assert NUM_COLORS == 5  # legal_actions unpacks the tiles left of five colours


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
# _GAMBLE_MENUS[lot][top]: the listed bets at the casino of ``lot`` when at most ``top`` may be bet.
_GAMBLE_MENUS = tuple(
    ((),) + tuple(tuple(GAMBLE[lot][bet] for bet in _bet_menu(top)) for top in range(1, MAX_BET + 1))
    for lot in LOTS
)


# _MENUS_ONE[top][lot]: the listed bets at a one-tile casino when at most ``top`` ($0-$5) may be bet.
_MENUS_ONE = tuple(tuple(_GAMBLE_MENUS[lot][top] for lot in LOTS) for top in range(6))


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
