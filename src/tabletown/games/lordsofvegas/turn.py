"""The turn: drawing a card and taking over its lot, the main-phase actions (build, sprawl,
remodel, reorganize, gamble), the decisions they can call for (move a die, free a lot, place re-rolled
dice, lay off a bet), and the end of a turn or of the game."""

from __future__ import annotations

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.i18n import Term
from .actions import (
    Build,
    End,
    Free,
    Gamble,
    Layoff,
    Pass,
    Put,
    Remodel,
    Reorg,
    Sprawl,
    Take,
    check_lot,
    lot_colour,
    lot_only,
)
from .board import lot_name, new_event
from .data import (
    CARD_PAYS,
    COLORS,
    COST,
    DICE_PER_PLAYER,
    DIE,
    GAME_END,
    IN_EXCLUDED_BLOCK,
    LOT_NAMES,
    MARKERS_PER_PLAYER,
    NEIGHBORS,
    NUM_LOTS,
    PAY_NAMES,
    STRIP,
    gamble_multiplier,
)
from .fields import StateFields
from .phases import ACTION, FREE_LOT, LAYOFF, MARKET, OVER, PICK_DIE, PLACE, RESUME_ACTION, RESUME_DRAW

# _MULTIPLIER[total]: gamble_multiplier(total) for every 2d6 total.
_MULTIPLIER = tuple(gamble_multiplier(total) if total >= 2 else 0 for total in range(13))


class TurnMixin(StateFields):
    """Turn flow and action handlers of :class:`~.state.LordsOfVegasState`."""

    __slots__ = ()

    # --- main-phase actions
    def _check_active(self, kind: str, lot: int, casino: tuple[int, ...] | None = None) -> None:
        if self.bans and (
            self._banned(kind, lot) or (casino is not None and self._banned_casino(kind, casino))
        ):
            raise IllegalAction(
                "trade.promised", "you traded away the right to {kind} there this turn", kind=Term(kind)
            )

    def _act_end(self, p: int, action: End) -> None:
        self.log.append(new_event(Event, ("end_turn", {"seat": p}, None)))
        if self.options["open_market"]:
            # The others, in seat order after the active player, may each open trades or pass.
            n = self.num_players
            self.market = tuple((p + k) % n for k in range(1, n))
            self.offers_made = 0
            self.phase = MARKET
            self.log.append(new_event(Event, ("market_open", {"seats": list(self.market)}, None)))
            return
        self._next_turn()

    def _act_pass(self, p: int, action: Pass) -> None:
        self.log.append(new_event(Event, ("pass", {"seat": p}, None)))
        self.market = self.market[1:]
        # Each seat's market has its own offers: a budget shared by the round let the first seat
        # to trade spend every offer and leave the seats after it none.
        self.offers_made = 0
        if not self.market:
            self._next_turn()

    def _next_turn(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self._start_turn()

    def _act_build(self, p: int, action: Build) -> None:
        lot, colour = lot_colour(action)
        if self.num_players == 2 and IN_EXCLUDED_BLOCK[lot]:
            raise IllegalAction("build.block_f", "block F is not used in a 2-player game")
        if self.marker[lot] != p:
            raise IllegalAction(
                "build.not_your_lot",
                "you can only build on a lot with your marker; {lot} is not yours",
                lot=lot_name(lot),
            )
        if not self.tiles_left[colour]:
            raise IllegalAction("build.sold_out", "no {colour} tiles are left", colour=Term(COLORS[colour]))
        cost = COST[lot]
        # Refusals alike by shape to machikoro/building.py's on purpose: each game names its own rule.
        if self.money[p] < cost:
            raise IllegalAction(
                "build.money",
                "building on {lot} costs ${cost}; you have ${money}",
                lot=lot_name(lot),
                cost=cost,
                money=self.money[p],
            )
        if self.bans:
            self._check_active("build", lot)
        self.money[p] -= cost
        self._build_on(lot)
        self.markers_out[p] -= 1
        self.log.append(
            new_event(
                Event,
                ("build", {"seat": p, "lot": LOT_NAMES[lot], "color": COLORS[colour], "cost": cost}, None),
            )
        )
        self._place_tile(p, lot, colour)

    def _act_sprawl(self, p: int, action: Sprawl) -> None:
        lot, colour = lot_colour(action)
        if self.tile[lot] >= 0:
            raise IllegalAction("sprawl.occupied", "{lot} already holds a casino tile", lot=lot_name(lot))
        if self.marker[lot] >= 0:
            raise IllegalAction(
                "sprawl.owned_lot",
                "{lot} is owned by seat {seat}; sprawl only onto unowned lots",
                lot=lot_name(lot),
                seat=self.marker[lot],
            )
        if self.num_players == 2 and IN_EXCLUDED_BLOCK[lot]:
            raise IllegalAction("sprawl.block_f", "block F is not used in a 2-player game")
        gof = self.casinos()[1]
        sources = [g for nb in NEIGHBORS[lot] if self.tile[nb] == colour and (g := gof[nb]) is not None]
        if not sources:
            raise IllegalAction(
                "sprawl.not_adjacent",
                "{lot} touches no {colour} casino",
                lot=lot_name(lot),
                colour=Term(COLORS[colour]),
            )
        bossed = [g for g in sources if self._boss_of(g) == p]
        if not bossed:
            raise IllegalAction(
                "sprawl.not_boss",
                "you are not the boss of a {colour} casino next to {lot}",
                colour=Term(COLORS[colour]),
                lot=lot_name(lot),
            )
        if not self.tiles_left[colour]:
            raise IllegalAction("sprawl.sold_out", "no {colour} tiles are left", colour=Term(COLORS[colour]))
        cost = 2 * COST[lot]
        if self.money[p] < cost:
            raise IllegalAction(
                "sprawl.money",
                "sprawling onto {lot} costs ${cost}; you have ${money}",
                lot=lot_name(lot),
                cost=cost,
                money=self.money[p],
            )
        if self.bans and (
            self._banned("sprawl", lot) or all(self._banned_casino("sprawl", g) for g in bossed)
        ):
            raise IllegalAction("trade.promised", "you traded away the right to sprawl there this turn")
        self.money[p] -= cost
        self._cache_plan = None  # a new neighbour for the listed trades
        self.log.append(
            new_event(
                Event,
                ("sprawl", {"seat": p, "lot": LOT_NAMES[lot], "color": COLORS[colour], "cost": cost}, None),
            )
        )
        self._place_tile(p, lot, colour)

    def _place_tile(self, p: int, lot: int, colour: int) -> None:
        self.tile[lot] = colour
        self.tiles_left[colour] -= 1
        self._merge((lot,))
        if self.dice_out[p] < DICE_PER_PLAYER:
            self.dieo[lot] = p
            self.diev[lot] = DIE[lot]
            self._values_changed(lot)  # a build's die stands where its marker was: same neighbour
            self.dice_out[p] += 1
            self._after_action((lot,))
        else:
            self._cache_plan = None  # the lot stays empty until a die is moved there
            self.log.append(new_event(Event, ("must_move_die", {"seat": p, "lot": LOT_NAMES[lot]}, None)))
            self.pending = (p, lot, DIE[lot])
            self.resume = (RESUME_ACTION,)
            self.phase = PICK_DIE

    def _act_remodel(self, p: int, action: Remodel) -> None:
        lot, colour = lot_colour(action)
        tile = self.tile
        old = tile[lot]
        if old < 0:
            raise IllegalAction("remodel.no_casino", "there is no casino on {lot}", lot=lot_name(lot))
        g = self.casinos()[1][lot]
        assert g is not None  # the lot holds a tile, so it is in a casino
        size = len(g)
        boss = (self.dieo[lot] if self.diev[lot] else -1) if size == 1 else self._boss_of(g)
        if boss != p:
            raise IllegalAction("remodel.not_boss", "only the boss may remodel a casino")
        if colour == old:
            raise IllegalAction(
                "remodel.same_color",
                "the casino is already {colour}; remodel must change the colour",
                colour=Term(COLORS[colour]),
            )
        tiles_left = self.tiles_left
        if tiles_left[colour] < size:
            raise IllegalAction(
                "remodel.sold_out",
                "{size} {colour} tiles are needed; {left} are left",
                size=size,
                colour=Term(COLORS[colour]),
                left=tiles_left[colour],
            )
        cost = 5 * size
        if self.money[p] < cost:
            raise IllegalAction(
                "remodel.money",
                "remodelling {size} tiles costs ${cost}; you have ${money}",
                size=size,
                cost=cost,
                money=self.money[p],
            )
        if self.bans:
            self._check_active("remodel", lot, g)
        self.money[p] -= cost
        for t in g:
            tile[t] = colour
        tiles_left[old] += size
        tiles_left[colour] -= size
        self._merge(g)
        self.log.append(
            new_event(
                Event,
                (
                    "remodel",
                    {
                        "seat": p,
                        "casino": LOT_NAMES[g[0]],
                        "from_color": COLORS[old],
                        "to_color": COLORS[colour],
                        "size": size,
                        "cost": cost,
                    },
                    None,
                ),
            )
        )
        self._after_action((lot,))

    def _act_reorg(self, p: int, action: Reorg) -> None:
        lot = lot_only(action)
        if self.tile[lot] < 0:
            raise IllegalAction("reorganize.no_casino", "there is no casino on {lot}", lot=lot_name(lot))
        g = self.casino_of(lot)
        dieo, diev = self.dieo, self.diev
        reorged = self.reorged
        dice = []
        cost = 0
        mine = again = False
        for t in g:
            v = diev[t]
            if v:
                dice.append(t)
                cost += v
                if dieo[t] == p:
                    mine = True
                if reorged >> t & 1:
                    again = True
        if not mine:
            raise IllegalAction("reorganize.no_die", "you need a die in a casino to reorganize it")
        if again:
            raise IllegalAction("reorganize.once", "dice of this casino were already reorganized this turn")
        if self.money[p] < cost:
            raise IllegalAction(
                "reorganize.money",
                "reorganizing costs ${cost} ($1 per pip); you have ${money}",
                cost=cost,
                money=self.money[p],
            )
        self._check_active("reorg", lot, g)
        self.money[p] -= cost
        if len(dice) == 1:  # one die (ours): re-rolled in place, no ties possible
            self._reorg_one(p, lot, g, dice[0], cost)
            return
        die = self.rng.die
        by_owner: dict[int, list[int]] = {}
        for t in dice:
            reorged |= 1 << t
            owner = dieo[t]
            lots = by_owner.get(owner)
            if lots is None:
                by_owner[owner] = [t]
            else:
                lots.append(t)
        self.reorged = reorged
        # Owners roll in turn order from the reorganizer (only matters for scripted dice in tests).
        if len(by_owner) == 1:
            order = [p] if p in by_owner else list(by_owner)
        else:
            n = self.num_players
            order = [(p + k) % n for k in range(n) if (p + k) % n in by_owner]
        rolls = {}
        for owner in order:
            count = len(by_owner[owner])
            if count == 1:
                rolls[owner] = [die()]
            else:
                rolls[owner] = sorted([die() for _ in range(count)], reverse=True)
        self.log.append(
            new_event(
                Event,
                (
                    "reorg",
                    {
                        "seat": p,
                        "casino": LOT_NAMES[g[0]],
                        "color": COLORS[self.tile[lot]],
                        "cost": cost,
                        "rolls": [{"seat": o, "values": rolls[o]} for o in sorted(rolls)],
                    },
                    None,
                ),
            )
        )
        self._cache_stats.pop(g, None)
        queue = []
        for owner in order:
            lots = by_owner[owner]
            values = rolls[owner]
            if len(lots) == 1 or values[0] == values[-1]:
                for t, v in zip(lots, values, strict=True):
                    self.diev[t] = v
            else:
                for t in lots:
                    self.diev[t] = 0  # to be placed by its owner
                queue.append((owner, tuple(lots), tuple(values)))
        if queue:
            self.place_queue = queue
            self.phase = PLACE
        else:
            self._after_action((lot,))

    def _reorg_one(self, p: int, lot: int, g: tuple[int, ...], t: int, cost: int) -> None:
        """``_act_reorg`` when the casino holds a single die, ``p``'s on ``t``: the same roll, event
        and result without the bookkeeping for several owners."""
        self.reorged |= 1 << t
        value = self.rng.die()
        self.log.append(
            new_event(
                Event,
                (
                    "reorg",
                    {
                        "seat": p,
                        "casino": LOT_NAMES[g[0]],
                        "color": COLORS[self.tile[lot]],
                        "cost": cost,
                        "rolls": [{"seat": p, "values": [value]}],
                    },
                    None,
                ),
            )
        )
        self.diev[t] = value
        self._values_changed(t)
        self._after_action((lot,))

    def _act_put(self, p: int, action: Put) -> None:
        lot = lot_only(action)
        owner, lots, values = self.place_queue[0]
        if lot not in lots:
            raise IllegalAction(
                "place.not_waiting", "{lot} holds none of your re-rolled dice", lot=lot_name(lot)
            )
        self.diev[lot] = values[0]
        self._cache_stats.pop(self.casino_of(lot), None)
        self.log.append(
            new_event(Event, ("put", {"seat": p, "lot": LOT_NAMES[lot], "value": values[0]}, None))
        )
        lots = tuple(t for t in lots if t != lot)
        values = values[1:]
        if len(lots) == 1 or values[0] == values[-1]:
            for t, v in zip(lots, values, strict=True):
                self.diev[t] = v
            self.place_queue = self.place_queue[1:]
        else:
            self.place_queue = [(owner, lots, values)] + self.place_queue[1:]
        if not self.place_queue:
            self.phase = ACTION
            self._after_action((lot,))

    def _act_gamble(self, p: int, action: Gamble) -> None:
        lot, bet = action.lot, action.bet
        if type(lot) is not int or type(bet) is not int or not 0 <= lot < NUM_LOTS:  # else as usual
            if not isinstance(lot, int) or not isinstance(bet, int) or isinstance(bet, bool):
                raise MalformedAction("notation.gamble", "gamble takes a lot and a bet")
            check_lot(lot)
        if self.gambled:
            raise IllegalAction("gamble.once", "you may gamble only once per turn")
        if self.tile[lot] < 0:
            raise IllegalAction("gamble.no_casino", "there is no casino on {lot}", lot=lot_name(lot))
        g = self.casinos()[1][lot]
        assert g is not None  # the lot holds a tile, so it is in a casino
        boss = self._boss_of(g)
        if boss < 0:
            raise IllegalAction("gamble.no_boss", "nobody runs that casino")
        if boss == p:
            raise IllegalAction("gamble.own_casino", "you gamble at another player's casino, not your own")
        if bet < 1 or bet > 5 * len(g):
            raise IllegalAction(
                "gamble.limit", "the bet must be $1 to ${limit} ($5 per tile)", limit=5 * len(g)
            )
        if bet > self.money[p]:
            raise IllegalAction("gamble.money", "you cannot bet more than your ${money}", money=self.money[p])
        self._check_active("gamble", lot, g)
        self.gambled = True
        self.log.append(
            new_event(
                Event,
                (
                    "gamble",
                    {
                        "seat": p,
                        "boss": boss,
                        "casino": LOT_NAMES[g[0]],
                        "color": COLORS[self.tile[lot]],
                        "bet": bet,
                    },
                    None,
                ),
            )
        )
        self.pending = (boss, p, bet)
        self.phase = LAYOFF

    def _act_layoff(self, boss: int, action: Layoff) -> None:
        lay = action.half
        if not isinstance(lay, bool):
            raise MalformedAction("notation.layoff", "layoff is yes or no")
        assert self.pending is not None  # the gamble that opened this phase
        _, gambler, bet = self.pending
        a, b = self.rng.die(), self.rng.die()
        total = a + b
        mult = _MULTIPLIER[total]
        stake = bet * abs(mult)
        boss_part = stake // 2 if lay else stake
        # The won and lost branches write the same "gamble_roll" event on purpose, each with its literal
        # payload (resolving a gamble is part of apply, a hot path; no dict is built to be changed after).
        if mult > 0:
            paid = min(boss_part, self.money[boss])
            self.money[boss] -= paid
            self.money[gambler] += paid + (stake - boss_part)
            self.log.append(
                new_event(
                    Event,
                    (
                        "gamble_roll",
                        {
                            "seat": gambler,
                            "boss": boss,
                            "dice": [a, b],
                            "total": total,
                            "layoff": lay,
                            "bet": bet,
                            "won": True,
                            "stake": stake,
                            "boss_pays": paid,
                            "bank_pays": stake - boss_part,
                        },
                        None,
                    ),
                )
            )
        else:
            self.money[gambler] -= bet
            self.money[boss] += boss_part
            self.log.append(
                new_event(
                    Event,
                    (
                        "gamble_roll",
                        {
                            "seat": gambler,
                            "boss": boss,
                            "dice": [a, b],
                            "total": total,
                            "layoff": lay,
                            "bet": bet,
                            "won": False,
                            "boss_gets": boss_part,
                        },
                        None,
                    ),
                )
            )
        self.pending = None
        self.phase = ACTION

    # --- decisions inside a take-over or a build
    def _act_take(self, p: int, action: Take) -> None:
        src = lot_only(action)
        assert self.pending is not None  # the take-over or build that opened this phase
        _, target, value = self.pending
        if self.dieo[src] != p or src == target:
            raise IllegalAction(
                "pick_die.not_yours",
                "pick one of your own dice on another tile, not {lot}",
                lot=lot_name(src),
            )
        self.dieo[src] = -1
        self.diev[src] = 0
        prev = self.dieo[target]
        if prev >= 0:
            self.dice_out[prev] -= 1
        self.dieo[target] = p
        self.diev[target] = value
        moved = 1 << src
        if self.reorged & moved:
            # The rulebook limits each die, not each tile, to one re-roll a turn: the memory of a
            # re-roll goes with the die to its new tile and leaves the bare one behind.
            self.reorged = (self.reorged & ~moved) | 1 << target
        self._dice_changed(src)
        self._dice_changed(target)
        self.log.append(
            new_event(
                Event,
                (
                    "move_die",
                    {"seat": p, "from_lot": LOT_NAMES[src], "to_lot": LOT_NAMES[target], "value": value},
                    None,
                ),
            )
        )
        self.pending = None
        self._resume()

    def _act_free(self, p: int, action: Free) -> None:
        lot = lot_only(action)
        if self.marker[lot] != p:
            raise IllegalAction(
                "free_lot.not_yours", "free one of your own lots, not {lot}", lot=lot_name(lot)
            )
        assert self.pending is not None  # the take-over that opened this phase
        _, target, _ = self.pending
        self._set_marker(lot, -1)
        self._set_marker(target, p)
        self.log.append(
            new_event(
                Event, ("free_lot", {"seat": p, "lot": LOT_NAMES[lot], "target": LOT_NAMES[target]}, None)
            )
        )
        self.pending = None
        self._resume()

    def _resume(self) -> None:
        resume = self.resume
        assert resume is not None  # set with the decision that paused the turn
        self.resume = None
        if resume[0] == RESUME_DRAW:
            self._finish_draw(resume[1], None)
        else:
            self.phase = ACTION
            self._after_action()

    # ------------------------------------------------------------------ turn flow
    def _start_turn(self) -> None:
        self.turn += 1
        self.gambled = False
        self.reorged = 0
        self.bans = ()
        self.offers_made = 0
        self.phase = ACTION
        self._draw()

    def _draw(self) -> None:
        p = self.active
        while True:
            card = self.deck.pop()
            self.discard.append(card)
            if card == GAME_END:
                self.log.append(new_event(Event, ("draw_game_end", {"seat": p}, None)))
                self._payout(STRIP)
                self._end("game_end")
                return
            if self.num_players == 2 and IN_EXCLUDED_BLOCK[card]:
                self.log.append(
                    new_event(
                        Event,
                        (
                            "draw_unused",
                            {"seat": p, "lot": LOT_NAMES[card], "pays": PAY_NAMES[CARD_PAYS[card]]},
                            None,
                        ),
                    )
                )
                self._payout(CARD_PAYS[card])
                if self.phase == OVER:
                    return
                continue
            self.log.append(
                new_event(
                    Event,
                    ("draw", {"seat": p, "lot": LOT_NAMES[card], "pays": PAY_NAMES[CARD_PAYS[card]]}, None),
                )
            )
            if self._take_over(p, card):
                self._finish_draw(card, (card,))
            return

    def _take_over(self, p: int, lot: int) -> bool:
        """Take over the drawn lot; False when a decision (free a lot / pick a die) comes first."""
        if self.tile[lot] < 0:
            if self.marker[lot] >= 0:  # cannot happen with a lot's own card; kept as a guard
                return True
            if self.markers_out[p] >= MARKERS_PER_PLAYER and self.options["markers_full"] == "free":
                self.log.append(new_event(Event, ("must_free_lot", {"seat": p, "lot": LOT_NAMES[lot]}, None)))
                self.pending = (p, lot, 0)
                self.resume = (RESUME_DRAW, lot)
                self.phase = FREE_LOT
                return False
            self._set_marker(lot, p)
            self.markers_out[p] += 1
            self.log.append(new_event(Event, ("marker", {"seat": p, "lot": LOT_NAMES[lot]}, None)))
            return True
        prev = self.dieo[lot]
        if prev == p:
            return True
        value = self.diev[lot] if prev >= 0 else DIE[lot]
        if self.dice_out[p] >= DICE_PER_PLAYER:
            self.log.append(new_event(Event, ("must_move_die", {"seat": p, "lot": LOT_NAMES[lot]}, None)))
            self.pending = (p, lot, value)
            self.resume = (RESUME_DRAW, lot)
            self.phase = PICK_DIE
            return False
        if prev >= 0:
            self.dice_out[prev] -= 1
        self.log.append(
            new_event(
                Event,
                (
                    "take_over",
                    {
                        "seat": p,
                        "lot": LOT_NAMES[lot],
                        "value": value,
                        "from_seat": prev if prev >= 0 else None,
                    },
                    None,
                ),
            )
        )
        self.dieo[lot] = p
        self.diev[lot] = value
        self._dice_changed(lot)
        self.dice_out[p] += 1
        return True

    def _finish_draw(self, card: int, touched: tuple[int, ...] | None) -> None:
        if touched is None or self.tile[card] >= 0:  # a lot without a casino has no ties
            self._after_action(touched)
        self._payout(CARD_PAYS[card])
        if self.phase != OVER:
            self.phase = ACTION

    def _end(self, reason: str, seat: int = -1) -> None:
        """End the game: ``reason`` is ``game_end`` (the card) or ``instant_win`` (``seat`` reached
        the last square of the score track)."""
        if self.phase == OVER:
            return
        self.phase = OVER
        self._over_reason = reason
        self.pending = None
        self.log.append(
            new_event(Event, ("game_over", {"reason": reason, "seat": seat if seat >= 0 else None}, None))
        )
