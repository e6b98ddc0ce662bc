"""Income: the payment formulas, which the rules and the bots share (:func:`red_due`,
:func:`green_gain`, :func:`blue_each` / :func:`blue_gain`, :func:`purple_due`), and the income step
of a turn: red, then green and blue, then purple cards, with the TV Station's and the Business
Center's decisions."""

from __future__ import annotations

from itertools import compress
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.i18n import Term
from .actions import ESTABLISHMENT_INDEX, LANDMARK_INDEX, MAX_SEATS, NOSWAP, Swap
from .data import CITYHALL, HARBOR_LM, MALL
from .fields import StateFields
from .phases import BUILD, BUSINESS, TV_PHASE
from .tables import SWAP, TAKE_CHOSEN, TAKE_EACH, TAKE_HALF, TAKE_PER_ICON

TV_AMOUNT = 5  # what the TV Station takes from the chosen seat

_event = tuple.__new__  # Event(kind, data, seats) without the named tuple's Python-level __new__
# _RED_ORDER[players][roller]: the seats a roller pays for red cards, backwards from the one before.
_RED_ORDER = tuple(
    tuple(tuple((roller - k) % n for k in range(1, n)) for roller in range(n)) for n in range(MAX_SEATS + 1)
)


# --- the payment formulas (rules and bots share them) ------------------------------------------------
def red_due(entry: tuple[int, int, bool, bool], city: list[int], lm: int) -> int:
    """What the roller owes the owner of ``city`` (landmarks ``lm``) for one red card kind of
    ``tables.red[roll]``: per copy its amount, +1 with the owner's Shopping Mall for cup cards;
    nothing for a Harbor card whose owner lacks the Harbor."""
    idx, amount, mall_bonus, needs_harbor = entry
    copies = city[idx]
    if not copies or (needs_harbor and not lm & HARBOR_LM):
        return 0
    return copies * (amount + (1 if mall_bonus and lm & MALL else 0))


def green_gain(entry: tuple[int, int, tuple[int, ...], int, int], city: list[int], lm: int) -> int:
    """What one green card kind of ``tables.green[roll]`` pays the roller (city ``city``, landmarks
    ``lm``) from the bank: per copy its amount times the counted cards (icons or one kind), with the
    Shopping Mall's +1 per copy or per counted card where the card has it."""
    idx, amount, icons, per_card, mall_mode = entry
    copies = city[idx]
    if not copies:
        return 0
    if icons:
        each = amount * sum(city[i] for i in icons)
    elif per_card >= 0:
        each = (amount + (1 if mall_mode and lm & MALL else 0)) * city[per_card]
    else:
        each = amount + (1 if mall_mode and lm & MALL else 0)
    return copies * each


def blue_each(entry: tuple[int, int, bool, bool], lm: int, tuna_total: int) -> int:
    """What one copy of a blue card kind of ``tables.blue[roll]`` pays its owner (landmarks ``lm``)
    from the bank on anyone's roll: its amount, a Tuna Boat ``tuna_total``; nothing for a Harbor card
    whose owner lacks the Harbor."""
    _, amount, needs_harbor, is_tuna = entry
    if needs_harbor and not lm & HARBOR_LM:
        return 0
    return tuna_total if is_tuna else amount


def blue_gain(entry: tuple[int, int, bool, bool], city: list[int], lm: int, tuna_total: int) -> int:
    """What one blue card kind of ``tables.blue[roll]`` pays the owner of ``city``: its copies times
    ``blue_each``."""
    return city[entry[0]] * blue_each(entry, lm, tuna_total)


# Per set-up tuple of a roll's plain blue cards (``tables.income``): (the tuple, [(card, blue_each)]),
# so that a roll pays them without asking the formula again.
_PER_COPY: dict[int, tuple[tuple, list[tuple[int, int]]]] = {}


def purple_due(
    kind: int, amount: int, min_coins: int, icons: tuple[int, ...], city: list[int], coins: int
) -> int:
    """What a purple card of ``kind`` (Stadium, Tax Office, Publisher) asks of one opponent with
    ``city`` and ``coins``: its amount, half the coins of a purse of ``min_coins`` or more (rounded
    down), or its amount per card with one of ``icons``. The opponent pays what they can of it."""
    if kind == TAKE_EACH:
        return amount
    if kind == TAKE_HALF:
        return coins // 2 if coins >= min_coins else 0
    if kind == TAKE_PER_ICON:
        return amount * sum(city[i] for i in icons)
    return 0


# Payment events repeat too (the same seat paid the same for the same cards), so they are kept by
# their content once made: key -> event. The key is the event's data in a fixed order; a memo that
# grows past _MEMO_LIMIT entries (never in real games) is emptied and starts again.
_MEMO_LIMIT = 1 << 16
_PAY_EVENTS: dict[tuple, Event] = {}
_INCOME_EVENTS: dict[tuple, Event] = {}
_TAKE_EVENTS: dict[tuple, Event] = {}


def _pay_event(seat: int, to: int, amount: int, due: int, card: str, copies: int) -> Event:
    return Event(
        "pay", {"seat": seat, "to": to, "amount": amount, "due": due, "card": card, "copies": copies}
    )


def _income_event(seat: int, amount: int, card: str, copies: int) -> Event:
    return Event("income", {"seat": seat, "amount": amount, "card": card, "copies": copies})


def _take_event(seat: int, victim: int, amount: int, due: int, card: str) -> Event:
    return Event("take", {"seat": seat, "from": victim, "amount": amount, "due": due, "card": card})


def _remember(memo: dict[tuple, Event], key: tuple, make: Any) -> Event:
    """The event ``make(*key)``, kept in ``memo`` for the next time."""
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    event = memo[key] = make(*key)
    return event


class IncomeMixin(StateFields):
    """The income step of :class:`~.state.MachiKoroState`."""

    __slots__ = ()

    def _resolve_income(self) -> None:
        """Red, then green and blue, then purple, each card kind paid by its formula (``red_due``,
        ``green_gain``, ``blue_gain``; purple: ``purple_due``). A kind the seat does not own is
        skipped before the call (the events name the copies anyway): a roll that pays nothing costs
        little more than its table look-ups."""
        t = self.t
        roll = self.total
        roller = self.current
        coins = self.coins
        cards = self.cards
        lms = self.lm
        log = self.log
        codes = t.codes
        reds, greens, blues, plain_blues, purples = t.income[roll]
        if reds:
            for owner in _RED_ORDER[self.num_players][roller]:
                city = cards[owner]
                lm = lms[owner]
                for entry in reds:
                    idx = entry[0]
                    copies = city[idx]
                    if not copies:
                        continue
                    due = red_due(entry, city, lm)
                    if not due:
                        continue
                    paid = coins[roller]
                    if due < paid:
                        paid = due
                    coins[roller] -= paid
                    coins[owner] += paid
                    key: tuple[Any, ...] = (roller, owner, paid, due, codes[idx], copies)
                    log.append(_PAY_EVENTS.get(key) or _remember(_PAY_EVENTS, key, _pay_event))
        from_bank = 0
        # Alike to the red loop above (and the blue and purple ones below) on purpose: the hot income
        # loops, each written out with its own formula and event.
        if greens:
            city = cards[roller]
            lm = lms[roller]
            for entry in greens:
                idx = entry[0]
                copies = city[idx]
                if not copies:
                    continue
                gain = green_gain(entry, city, lm)
                if gain:
                    coins[roller] += gain
                    from_bank += gain
                    key = (roller, gain, codes[idx], copies)
                    log.append(_INCOME_EVENTS.get(key) or _remember(_INCOME_EVENTS, key, _income_event))
        if blues and plain_blues:  # no Tuna Boat, no Harbor condition: a copy pays every owner alike
            kept = _PER_COPY.get(id(blues))
            if kept is None or kept[0] is not blues:
                kept = _PER_COPY[id(blues)] = (blues, [(entry[0], blue_each(entry, 0, 0)) for entry in blues])
            per_copy = kept[1]
            for owner in range(self.num_players):
                city = cards[owner]
                for idx, each in per_copy:
                    copies = city[idx]
                    if copies:
                        gain = copies * each
                        coins[owner] += gain
                        from_bank += gain
                        key = (owner, gain, codes[idx], copies)
                        log.append(_INCOME_EVENTS.get(key) or _remember(_INCOME_EVENTS, key, _income_event))
        elif blues:
            tuna_roll = 0
            for owner in range(self.num_players):
                city = cards[owner]
                lm = lms[owner]
                for entry in blues:
                    idx = entry[0]
                    copies = city[idx]
                    if not copies:
                        continue
                    # The Tuna Boat's dice are rolled once, for its first owner with the Harbor.
                    if entry[3] and not tuna_roll and lm & HARBOR_LM:
                        a, b = self.rng.die(), self.rng.die()
                        tuna_roll = a + b
                        log.append(
                            _event(
                                Event,
                                ("tuna_roll", {"seat": roller, "dice": [a, b], "total": tuna_roll}, None),
                            )
                        )
                    gain = copies * blue_each(entry, lm, tuna_roll)
                    if gain:
                        coins[owner] += gain
                        from_bank += gain
                        key = (owner, gain, codes[idx], copies)
                        log.append(_INCOME_EVENTS.get(key) or _remember(_INCOME_EVENTS, key, _income_event))
        if from_bank:
            self.bank_paid += from_bank
        self.purple_stage = 0
        if purples:
            self._continue_purple()
        else:  # on to the build step (City Hall, original rule: a coin to a broke builder)
            self.phase = BUILD
            if self.city_hall_mode == "broke" and lms[roller] & CITYHALL and coins[roller] == 0:
                self._city_hall_coin(roller)

    def _continue_purple(self) -> None:
        """Resolve the roller's purple cards in order, pausing where the roller must choose
        (``purple_stage`` is where to go on from)."""
        purples = self.t.purple_by_roll[self.total]
        roller = self.current
        city = self.cards[roller]
        stage = self.purple_stage
        while stage < len(purples):
            idx, kind, amount, min_coins, icons = purples[stage]
            stage += 1
            if not city[idx]:
                continue
            if kind == TAKE_CHOSEN:
                if self.num_players > 2:
                    self.purple_stage = stage
                    self.phase = TV_PHASE
                    return
                self._take(1 - roller, amount, "tv")
            elif kind == SWAP:
                if self._can_swap():
                    self.purple_stage = stage
                    self.phase = BUSINESS
                    return
                self.log.append(Event("swap_impossible", {"seat": roller}))
            else:
                self._take_from_each(kind, amount, min_coins, icons, self.t.codes[idx])
        self.purple_stage = stage
        # on to the build step (City Hall, original rule: a coin to a broke builder)
        self.phase = BUILD
        if self.lm[roller] & CITYHALL and self.coins[roller] == 0 and self.city_hall_mode == "broke":
            self._city_hall_coin(roller)

    def _take(self, victim: int, due: int, code: str) -> None:
        roller = self.current
        paid = min(due, self.coins[victim])
        self.coins[victim] -= paid
        self.coins[roller] += paid
        key = (roller, victim, paid, due, code)
        self.log.append(_TAKE_EVENTS.get(key) or _remember(_TAKE_EVENTS, key, _take_event))

    def _take_from_each(
        self, kind: int, amount: int, min_coins: int, icons: tuple[int, ...], code: str
    ) -> None:
        """Stadium, Tax Office or Publisher: each opponent, in seat order after the roller, pays
        what ``purple_due`` asks of them or what they have."""
        n = self.num_players
        roller = self.current
        coins = self.coins
        cards = self.cards
        log = self.log
        for k in range(1, n):
            victim = (roller + k) % n
            have = coins[victim]
            due = purple_due(kind, amount, min_coins, icons, cards[victim], have)
            if due:
                paid = due if due < have else have
                coins[victim] -= paid
                coins[roller] += paid
                key = (roller, victim, paid, due, code)
                log.append(_TAKE_EVENTS.get(key) or _remember(_TAKE_EVENTS, key, _take_event))

    def _apply_tv(self, target: Any) -> None:
        if type(target) is not int or target < 0:
            raise MalformedAction(
                "action.seat",
                "a {card} target is a seat number, not {target!r}",
                card=Term("TV Station", "tv"),
                target=target,
            )
        if target >= self.num_players:
            raise IllegalAction(
                "tv_station.no_such_seat", "there is no seat {seat} in this game", seat=target
            )
        if target == self.current:
            raise IllegalAction(
                "tv_station.self",
                "the {card} must take coins from an opponent",
                card=Term("TV Station", "tv"),
            )
        self._take(target, TV_AMOUNT, "tv")
        self._continue_purple()

    def _apply_business(self, action: Any) -> None:
        if type(action) is str and action == NOSWAP:
            self.log.append(Event("no_swap", {"seat": self.current}))
            self._continue_purple()
            return
        if type(action) is not Swap:
            raise self._wrong_phase(action)
        mine, target, theirs = self._check_swap(action)
        self.cards[self.current][mine] -= 1
        self.cards[self.current][theirs] += 1
        self.cards[target][theirs] -= 1
        self.cards[target][mine] += 1
        self.log.append(
            Event(
                "swap", {"seat": self.current, "mine": action.mine, "target": target, "theirs": action.theirs}
            )
        )
        self._continue_purple()

    def _check_swap(self, action: Swap) -> tuple[int, int, int]:
        """(my card index, target seat, their card index) of a Swap, or the refusal."""
        target = action.seat
        mine = ESTABLISHMENT_INDEX.get(action.mine) if type(action.mine) is str else None
        theirs = ESTABLISHMENT_INDEX.get(action.theirs) if type(action.theirs) is str else None
        if type(target) is not int or mine is None or theirs is None:
            named = (action.mine, action.theirs)
            if (
                type(target) is int
                and all(type(c) is str for c in named)
                and any(c in LANDMARK_INDEX for c in named)
            ):
                raise IllegalAction("business_center.tower", "landmarks cannot be swapped")
            raise MalformedAction(
                "action.swap", "that swap names no such card or seat: {action!r}", action=action
            )
        if not 0 <= target < self.num_players:
            raise IllegalAction("business_center.unknown", "that swap names no such card or seat")
        if target == self.current:
            raise IllegalAction(
                "business_center.self",
                "the {card} swaps with an opponent",
                card=Term("Business Center", "office"),
            )
        swappable = self.t.swappable
        if mine not in swappable or theirs not in swappable:
            raise IllegalAction(
                "business_center.tower", "purple (tower) cards and landmarks cannot be swapped"
            )
        if not self.cards[self.current][mine]:
            raise IllegalAction("business_center.not_owned", "you do not own the card you offer")
        if not self.cards[target][theirs]:
            raise IllegalAction("business_center.not_owned", "P{seat} does not own that card", seat=target)
        if mine == theirs:
            raise IllegalAction(
                "business_center.same_card", "swapping a card for the same card changes nothing"
            )
        return mine, target, theirs

    def _swap_actions(self) -> list[Swap]:
        """Every swap of one of my swappable kinds for a different kind an opponent owns: seat by
        seat, then my kinds, then theirs, in card order."""
        p = self.current
        t = self.t
        counts = t.swap_getter
        cards = self.cards
        mine = list(compress(t.swappable, counts(cards[p])))
        actions: list[Swap] = []
        for target in range(self.num_players):
            if target == p:
                continue
            theirs = counts(cards[target])
            rows = t.swap_rows[target]
            for a in mine:
                # the row holds None at my own kind: filter(None) drops it where they own it too
                actions += filter(None, compress(rows[a], theirs))
        return actions

    def _can_swap(self) -> bool:
        """Whether the Business Center has any swap to offer (without listing them): I own some
        swappable kind and an opponent owns a swappable kind other than my only one."""
        p = self.current
        t = self.t
        counts = t.swap_getter
        cards = self.cards
        mine = [position for position, count in enumerate(counts(cards[p])) if count]
        if not mine:
            return False
        only = mine[0] if len(mine) == 1 else -1
        for target in range(self.num_players):
            if target != p:
                for position, count in enumerate(counts(cards[target])):
                    if count and position != only:
                        return True
        return False

    def _city_hall_coin(self, p: int) -> None:
        self.coins[p] = 1
        self.bank_paid += 1
        self.log.append(Event("city_hall", {"seat": p, "amount": 1}))
