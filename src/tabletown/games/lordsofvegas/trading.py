"""Trading: offers (and counter-offers), their answers, and the actions a player promised not to take.

An offer is a sorted tuple of items ``(giver, receiver, kind, value)``: money (``$``), a lot, a die,
or a promise not to take an action this turn (``no-build``... only by the active player).
"""

from __future__ import annotations

import sys

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from .actions import ITEM_KINDS, Accept, Offer, Refuse, check_lot
from .board import lot_name, new_event
from .data import (
    DICE_PER_PLAYER,
    LOT_NAMES,
    MARKERS_PER_PLAYER,
)
from .fields import StateFields
from .phases import ACTION, OFFER


def items_of(*items: tuple) -> tuple:
    return tuple(sorted(items))


def items_json(items: tuple) -> list[dict]:
    """Trade items as data for views and events: ``giver``, ``receiver``, ``kind`` (``$``, ``lot``,
    ``die`` or ``no-build``...) and ``value`` (the amount for money, else a lot id or null)."""
    return [
        {
            "giver": giver,
            "receiver": receiver,
            "kind": kind,
            "value": value if kind == "$" else (LOT_NAMES[value] if value >= 0 else None),
        }
        for giver, receiver, kind, value in items
    ]


class TradingMixin(StateFields):
    """Offers, answers and promises of :class:`~.state.LordsOfVegasState`."""

    __slots__ = ()

    def offer_answerers(self) -> tuple[int, ...]:
        offer = self.offer
        cached = self._cache_answer
        if cached is not None and cached[0] is offer:
            return cached[1]
        assert offer is not None  # asked only while an offer waits
        proposer, items = offer
        givers = {item[0] for item in items}
        givers.discard(proposer)
        answerers = tuple(sorted(givers)) if len(givers) > 1 else tuple(givers)
        self._cache_answer = (offer, answerers)  # asked several times while the offer waits
        return answerers

    def _banned(self, kind: str, lot: int) -> bool:
        return any(bk == kind and (bl == lot or bl == -1) for bk, bl in self.bans)

    def _banned_casino(self, kind: str, lots: tuple[int, ...]) -> bool:
        return any(bk == kind and (bl == -1 or bl in lots) for bk, bl in self.bans)

    # --- trading
    def _act_offer(self, p: int, action: Offer) -> None:
        items = self.check_offer(p, action)
        if self.offers_made >= self.options["max_offers"]:
            raise IllegalAction(
                "trade.limit", "at most {limit} offers per turn", limit=self.options["max_offers"]
            )
        if self.phase == OFFER:
            self.log.append(new_event(Event, ("counter", {"seat": p}, None)))
        else:
            self.offer_return = self.phase  # where play resumes once the offer is settled
        self.offers_made += 1
        self.log.append(new_event(Event, ("offer", {"seat": p, "items": items_json(items)}, None)))
        self.offer = (p, items)
        self.accepted = ()
        self.phase = OFFER
        if not self.offer_answerers():
            self._execute_offer()

    def check_offer(self, p: int, action: Offer) -> tuple:
        """Validate an offer fully (raises) and return its items."""
        items = action.items
        if not isinstance(items, tuple) or not items:
            raise MalformedAction("trade.empty", "an offer lists at least one item")
        n = self.num_players
        seen = set()
        give_money = [0] * n
        net_lots = [0] * n
        net_dice = [0] * n
        parties = set()
        for item in items:
            if not isinstance(item, tuple) or len(item) != 4:
                raise MalformedAction("trade.item", "not a trade item: {item!r}", item=item)
            giver, receiver, kind, value = item
            if kind in ("points", "pts"):
                raise IllegalAction("trade.points", "points cannot be traded")
            if kind == "tile":
                raise IllegalAction("trade.tiles", "casino tiles cannot be traded (trade the die on them)")
            if kind not in ITEM_KINDS or not all(isinstance(x, int) for x in (giver, receiver, value)):
                raise MalformedAction("trade.item", "not a trade item: {item!r}", item=item)
            if not (0 <= giver < n and 0 <= receiver < n) or giver == receiver:
                raise IllegalAction("trade.seats", "each item goes from one seat to another seat")
            parties.add(giver)
            parties.add(receiver)
            key = (kind, value) if kind != "$" else ("$", giver, receiver)
            if key in seen:
                raise IllegalAction("trade.duplicate", "an item appears twice in the offer")
            seen.add(key)
            if kind == "$":
                if value <= 0:
                    raise IllegalAction("trade.money", "money items are positive amounts")
                give_money[giver] += value
            elif kind == "lot":  # the lot and die branches alike on purpose: each its own board array
                check_lot(value)
                if self.marker[value] != giver:
                    raise IllegalAction(
                        "trade.not_owner",
                        "seat {seat} has no marker on {lot}",
                        seat=giver,
                        lot=lot_name(value),
                    )
                net_lots[giver] -= 1
                net_lots[receiver] += 1
            elif kind == "die":
                check_lot(value)
                if self.dieo[value] != giver:
                    raise IllegalAction(
                        "trade.not_owner",
                        "seat {seat} has no die on {lot}",
                        seat=giver,
                        lot=lot_name(value),
                    )
                net_dice[giver] -= 1
                net_dice[receiver] += 1
            else:
                if value != -1:
                    check_lot(value)
                context = self.offer_return if self.phase == OFFER else self.phase
                if giver != self.active or context != ACTION:
                    raise IllegalAction(
                        "trade.not_active", "only the active player can trade their actions this turn"
                    )
        if p not in parties:
            raise IllegalAction("trade.not_party", "you can only offer trades you take part in")
        for s in range(n):
            if give_money[s] > self.money[s]:
                raise IllegalAction(
                    "trade.money", "seat {seat} has only ${money}", seat=s, money=self.money[s]
                )
            if (
                net_lots[s] > 0
                and self.options["markers_full"] == "free"
                and self.markers_out[s] + net_lots[s] > MARKERS_PER_PLAYER
            ):
                raise IllegalAction(
                    "trade.markers_full", "seat {seat} has no free marker for another lot", seat=s
                )
            if self.dice_out[s] + net_dice[s] > DICE_PER_PLAYER:
                raise IllegalAction("trade.dice_full", "seat {seat} has no free die", seat=s)
        return items

    def _act_accept(self, p: int, action: Accept) -> None:
        self.accepted = self.accepted + (p,)
        self.log.append(new_event(Event, ("accept", {"seat": p}, None)))
        if all(s in self.accepted for s in self.offer_answerers()):
            self._execute_offer()

    def _act_refuse(self, p: int, action: Refuse) -> None:
        self.log.append(new_event(Event, ("refuse", {"seat": p}, None)))
        self.offer = None
        self.accepted = ()
        self.phase = self.offer_return

    def _execute_offer(self) -> None:
        assert self.offer is not None  # the offer being settled
        _, items = self.offer
        self.execute_items(items)
        self.log.append(new_event(Event, ("trade_done", {}, None)))
        self.offer = None
        self.accepted = ()
        self.phase = self.offer_return
        dice = tuple(item[3] for item in items if item[2] == "die")
        if dice:
            self._after_action(dice)

    def execute_items(self, items: tuple) -> None:
        """Carry out validated trade items (all at once)."""
        for giver, receiver, kind, value in items:
            if kind == "$":
                self.money[giver] -= value
                self.money[receiver] += value
            elif kind == "lot":
                self._set_marker(value, receiver)
                self.markers_out[giver] -= 1
                self.markers_out[receiver] += 1
            elif kind == "die":
                self.dieo[value] = receiver
                self._dice_changed(value)
                self.dice_out[giver] -= 1
                self.dice_out[receiver] += 1
            else:
                self.bans = self.bans + ((sys.intern(kind[3:]), value),)
