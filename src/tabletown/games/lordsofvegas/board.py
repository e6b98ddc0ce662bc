"""The board: casinos (groups of touching tiles of one colour), their bosses, ties for boss, and
what a drawn card pays.

The board is four flat lists indexed by lot: ``marker`` (seat or -1), ``tile`` (colour or -1),
``dieo`` (die owner or -1) and ``diev`` (die value, 0 without a die). Casinos are derived by flood fill
and cached until a tile changes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection

from ...core.events import Event
from .data import (
    CARD_PAYS,
    COLORS,
    GAME_END,
    INSTANT_WIN,
    LOT_NAMES,
    NEIGHBORS,
    NUM_COLORS,
    NUM_LOTS,
    ON_STRIP,
    SCORE_TRACK,
    STRIP,
    TILES_PER_COLOR,
    advance_score,
)
from .fields import StateFields

# Events are built as ``new_event(Event, (kind, data, None))``: the very value ``Event(kind, data)``
# makes, at half the cost of the named tuple's Python-level constructor (a game logs about 400).
new_event = tuple.__new__


def lot_name(lot: int) -> str:
    return LOT_NAMES[lot].upper()


STRIP_LOTS = frozenset(lot for lot in range(NUM_LOTS) if ON_STRIP[lot])
MAX_SEATS = 4
# _ADVANCE[square][size]: advance_score(square, size) for every square of the track and casino size.
_ADVANCE = {
    square: tuple(advance_score(square, size) for size in range(TILES_PER_COLOR + 1))
    for square in SCORE_TRACK
}


def _without(lots: tuple[int, ...], lot: int) -> tuple[int, ...]:
    i = lots.index(lot)
    return lots[:i] + lots[i + 1 :]


def _with(lots: tuple[int, ...], lot: int) -> tuple[int, ...]:
    i = bisect_left(lots, lot)
    return lots[:i] + (lot,) + lots[i:]


class BoardMixin(StateFields):
    """Casinos, bosses, ties and payouts of :class:`~.state.LordsOfVegasState`."""

    __slots__ = ()

    def casinos(self) -> tuple[tuple[tuple[int, ...], ...], list[tuple[int, ...] | None]]:
        """(casinos as tuples of lots in board order, lot -> its casino or None); cached until a tile
        changes (``_merge`` keeps it up to date)."""
        cas = self._cache_cas
        if cas is None:
            cas = self._cache_cas = self._flood()
        return cas

    def _flood(self) -> tuple[tuple[tuple[int, ...], ...], list[tuple[int, ...] | None]]:
        tile = self.tile
        seen = [False] * NUM_LOTS
        gof: list[tuple[int, ...] | None] = [None] * NUM_LOTS
        groups = []
        for start in range(NUM_LOTS):
            colour = tile[start]
            if colour < 0 or seen[start]:
                continue
            seen[start] = True
            members = [start]
            stack = [start]
            while stack:
                lot = stack.pop()
                for nb in NEIGHBORS[lot]:
                    if not seen[nb] and tile[nb] == colour:
                        seen[nb] = True
                        members.append(nb)
                        stack.append(nb)
            members.sort()
            group = tuple(members)
            groups.append(group)
            for lot in group:
                gof[lot] = group
        return tuple(groups), gof

    def _merge(self, seed: tuple[int, ...]) -> None:
        """Update the cached casinos after ``seed`` lots got (or changed to) one colour: tiles are
        never removed, so casinos only ever merge. Same result and order as a fresh flood fill."""
        cas = self._cache_cas
        if cas is None:
            return
        groups, gof = cas
        tile = self.tile
        first = seed[0]
        colour = tile[first]
        if len(seed) == 1:
            for nb in NEIGHBORS[first]:
                if tile[nb] == colour:
                    break
            else:  # nothing of its colour next to it: a new one-tile casino, or a recoloured one
                if gof[first] is None:
                    at = bisect_left(groups, seed)
                    gof = gof[:]
                    gof[first] = seed
                    self._cache_cas = (groups[:at] + (seed,) + groups[at:], gof)
                return
        drop = {}  # id -> casino merged into the new one
        old = gof[first]
        if old is not None:
            drop[id(old)] = old
        inside = set(seed)
        for lot in seed:
            for nb in NEIGHBORS[lot]:
                if tile[nb] == colour and nb not in inside:
                    g: tuple[int, ...] = gof[nb]  # type: ignore[assignment]  # nb holds a tile: in a casino
                    drop[id(g)] = g
                    inside.update(g)
        if len(inside) == len(seed) and drop:
            return  # a casino changed colour and touches no casino of its new colour: no change
        stats = self._cache_stats
        if stats:
            for g in drop.values():
                stats.pop(g, None)
        merged = [g for g in groups if id(g) not in drop]
        new = tuple(sorted(inside))
        merged.append(new)
        merged.sort()
        gof = gof[:]
        for lot in new:
            gof[lot] = new
        self._cache_cas = (tuple(merged), gof)

    # ------------------------------------------------------------------ memos kept by the rules
    def _owned(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """(the lots holding a marker, each seat's lots), in board order; kept in ``_cache_own`` and
        updated by ``_set_marker`` (the rules move markers only through it)."""
        marker = self.marker
        owned = tuple(lot for lot in range(NUM_LOTS) if marker[lot] >= 0)
        by_seat = tuple(tuple(lot for lot in owned if marker[lot] == s) for s in range(MAX_SEATS))
        own = self._cache_own = (owned, by_seat)
        return own

    def _set_marker(self, lot: int, seat: int) -> None:
        """Put ``seat``'s marker on ``lot`` (-1: take the marker off), keeping the memos in step."""
        marker = self.marker
        old = marker[lot]
        marker[lot] = seat
        self._cache_plan = None
        self._update_owned(lot, old, seat)

    def _build_on(self, lot: int) -> None:
        """Take the builder's marker off ``lot`` for the die about to stand there: the lot's owner
        and its neighbours' still see the same seat next door, so the listed trades only lose the
        lot itself (if no die comes, ``_place_tile`` forgets them)."""
        marker = self.marker
        old = marker[lot]
        marker[lot] = -1
        plan = self._cache_plan
        if plan is not None:
            self._cache_plan = (plan[0], tuple([e for e in plan[1] if e[4] != lot]))
        self._update_owned(lot, old, -1)

    def _update_owned(self, lot: int, old: int, seat: int) -> None:
        own = self._cache_own
        if own is None:
            return
        owned, by_seat = own
        seats = list(by_seat)
        if old >= 0:
            seats[old] = _without(seats[old], lot)
            if seat < 0:
                owned = _without(owned, lot)
        elif seat >= 0:
            owned = _with(owned, lot)
        if seat >= 0:
            seats[seat] = _with(seats[seat], lot)
        self._cache_own = (owned, tuple(seats))

    def _dice_changed(self, lot: int) -> None:
        """A die on ``lot`` came, went or changed hands: forget its casino's dice summary and the
        listed trades (dice count as neighbours there)."""
        self._cache_plan = None
        self._values_changed(lot)

    def _values_changed(self, lot: int) -> None:
        """The dice on ``lot`` changed (not whose they are): forget its casino's dice summary."""
        stats = self._cache_stats
        if stats:
            cas = self._cache_cas
            if cas is None:
                stats.clear()
            else:
                g = cas[1][lot]
                if g is not None:
                    stats.pop(g, None)

    def _dice_stats(self, g: tuple[int, ...]) -> tuple[int, int, int, int]:
        """A casino's dice in one pass, memoized in ``_cache_stats`` until a die in it changes: (its
        boss or -1, its pips, a bitmask of the seats with a die there, a bitmask of its lots with a
        die)."""
        dieo, diev = self.dieo, self.diev
        best = 0
        boss = -1
        pips = 0
        seats = 0
        lots = 0
        for lot in g:
            v = diev[lot]
            if v:
                o = dieo[lot]
                pips += v
                seats |= 1 << o
                lots |= 1 << lot
                if v > best:
                    best = v
                    boss = o
                elif v == best and o != boss:
                    boss = -1
        st = self._cache_stats[g] = (boss, pips, seats, lots)
        return st

    def _boss_of(self, g: tuple[int, ...]) -> int:
        """``boss(g)`` from the memoized dice summary (the rules' own look-ups)."""
        if len(g) == 1:
            lot = g[0]
            return self.dieo[lot] if self.diev[lot] else -1
        st = self._cache_stats.get(g)
        if st is None:
            st = self._dice_stats(g)
        return st[0]

    def casino_of(self, lot: int) -> tuple[int, ...]:
        """The casino on ``lot`` (which holds a tile)."""
        g = self.casinos()[1][lot]
        assert g is not None, f"{lot_name(lot)} holds no tile"
        return g

    def boss(self, lots: tuple[int, ...]) -> int:
        """Owner of the highest die (-1 without dice, or while different players tie)."""
        best = 0
        owner = -1
        dieo, diev = self.dieo, self.diev
        for lot in lots:
            v = diev[lot]
            if v > best:
                best = v
                owner = dieo[lot]
            elif v == best and v and dieo[lot] != owner:
                owner = -1
        return owner

    def cards_before_game_end(self) -> int:
        """Public: how many cards lie above Game End (its depth is fixed by the set-up split)."""
        return (
            max(0, len(self.deck) - 1 - self.ge_index)
            if self.deck and self.deck[self.ge_index] == GAME_END
            else 0
        )

    def undrawn_by_pay(self) -> list[int]:
        """Public: how many undrawn cards pay each colour (index ``STRIP``: the Strip, Game End
        included). Every card dealt or drawn lies face up, so only the deck's order is hidden."""
        undrawn = [0] * (NUM_COLORS + 1)
        for card in self.deck:
            undrawn[CARD_PAYS[card]] += 1
        return undrawn

    def on_strip(self, lots: tuple[int, ...]) -> bool:
        return not STRIP_LOTS.isdisjoint(lots)

    # ------------------------------------------------------------------ ties
    def _after_action(self, touched: tuple[int, ...] | None = None) -> None:
        """Re-roll ties for boss, free, until every casino has a single highest die. ``touched``
        names lots whose casinos changed (None: check every casino)."""
        cas = self._cache_cas
        if cas is None:
            cas = self.casinos()
        groups: Collection[tuple[int, ...]]
        groups, gof = cas
        dieo, diev = self.dieo, self.diev
        if touched is not None:
            if len(touched) == 1:
                g = gof[touched[0]]
                if g is None or len(g) == 1:
                    return  # a one-tile casino has no ties
                groups = (g,)
            else:
                groups = {g for lot in touched if (g := gof[lot]) is not None}
        stats = self._cache_stats
        for g in groups:
            if len(g) == 1:
                continue
            st = stats.get(g)
            if st is None:
                st = self._dice_stats(g)
            if st[0] >= 0 or not st[1]:
                continue  # a single boss, or no dice: nothing to re-roll
            while True:
                best = 0
                owners = 0
                top: list[int] = []
                for lot in g:
                    v = diev[lot]
                    if v > best:
                        best = v
                        top = [lot]
                        owners = 1 << dieo[lot]
                    elif v == best and v:
                        top.append(lot)
                        owners |= 1 << dieo[lot]
                if owners & (owners - 1) == 0:
                    break
                die = self.rng.die
                for lot in top:
                    diev[lot] = die()
                self._cache_stats.pop(g, None)
                self.log.append(
                    new_event(
                        Event,
                        (
                            "tie_reroll",
                            {
                                "casino": LOT_NAMES[g[0]],
                                "value": best,
                                "dice": [
                                    {"lot": LOT_NAMES[t], "seat": dieo[t], "value": diev[t]} for t in top
                                ],
                            },
                            None,
                        ),
                    )
                )

    def _payout(self, pays: int) -> None:
        money = self.money
        lot_income = self.markers_out[:]  # $1 per marker on the board (the counts are kept exact)
        if any(lot_income):
            for s, amount in enumerate(lot_income):
                money[s] += amount
            self.log.append(new_event(Event, ("lots_pay", {"amounts": lot_income}, None)))
        cas = self._cache_cas
        groups = (cas if cas is not None else self.casinos())[0]
        tile = self.tile
        if pays == STRIP:
            paying = [g for g in groups if not STRIP_LOTS.isdisjoint(g)]
        else:
            paying = [g for g in groups if tile[g[0]] == pays]
        if not paying:
            return
        dieo, diev = self.dieo, self.diev
        n = self.num_players
        points: list[list[int]] | None = None
        for g in paying:
            first = g[0]
            if len(g) == 1:
                pips = diev[first]
                boss = dieo[first]
                if not pips or boss < 0:
                    continue
                got = [0] * n
                got[boss] = pips
                money[boss] += pips
            else:
                boss = self._boss_of(g)
                if boss < 0:
                    continue
                got = [0] * n
                for lot in g:
                    if diev[lot]:
                        got[dieo[lot]] += diev[lot]
                for s, amount in enumerate(got):
                    money[s] += amount
            if points is None:
                points = [[], [], [], []]  # per seat (MAX_SEATS); seats past n stay empty
            points[boss].append(len(g))
            self.log.append(
                new_event(
                    Event,
                    (
                        "casino_pays",
                        {
                            "casino": LOT_NAMES[first],
                            "color": COLORS[tile[first]],
                            "size": len(g),
                            "amounts": got,
                            "boss": boss,
                        },
                        None,
                    ),
                )
            )
        if points is None:
            return
        for s, sizes in enumerate(points):
            if not sizes:
                continue
            sizes.sort()  # smallest casino first; equal sizes give the same result in any order
            before = self.score[s]
            square = before
            for size in sizes:
                row = _ADVANCE.get(square)
                square = row[size] if row is not None and size < len(row) else advance_score(square, size)
            self.score[s] = square
            self.log.append(new_event(Event, ("score", {"seat": s, "from": before, "to": square}, None)))
            if square >= INSTANT_WIN:
                self._end("instant_win", s)
