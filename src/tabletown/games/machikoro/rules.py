"""Machi Koro (with optional Harbor) rules on the Tabletown engine contract.

Actions are the typed values of :mod:`.actions` (``Roll(dice=2)``, ``Build(card="cafe")``, ``PASS``).
A turn is a short chain of phases: roll -> (Radio Tower re-roll?) -> (Harbor +2?) -> income, with
pauses for the TV Station target and the Business Center swap -> build -> end of turn (Airport,
Amusement Park). The log is a list of typed events (see docs/games/machikoro.md, "Events").

The payment formulas live here once (:func:`red_due`, :func:`green_gain`, :func:`blue_each` /
:func:`blue_gain`, :func:`purple_due`); the income resolution and the bots' income estimates call
them rather than repeating them.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.game import Result, State
from ...core.rng import SeededRNG, shuffle
from .actions import (
    ADD2,
    CONSTANTS,
    ESTABLISHMENT_INDEX,
    KEEP,
    LANDMARK_INDEX,
    MAX_SEATS,
    NOADD,
    NOSWAP,
    PASS,
    REROLL1,
    REROLL2,
    ROLL1,
    ROLL2,
    TV,
    TVS,
    Build,
    Reroll,
    Roll,
    Swap,
    shared_action,
)
from .data import LANDMARK_CODES
from .tables import SWAP, TAKE_CHOSEN, TAKE_EACH, TAKE_HALF, TAKE_PER_ICON, Tables

# --- phases ---------------------------------------------------------------------------------------
ROLL, REROLL, HARBOR, TV_PHASE, BUSINESS, BUILD, OVER = range(7)
PHASE_NAMES = ("roll", "reroll", "harbor", "tv_station", "business_center", "build", "over")

STATION, MALL, PARK, RADIO, CITYHALL, HARBOR_LM, AIRPORT = (1 << i for i in range(7))

START_COINS = 3
TV_AMOUNT = 5  # what the TV Station takes from the chosen seat
AIRPORT_AMOUNT = 10

_HARBOR_CHOICES = [ADD2, NOADD]
_event = tuple.__new__  # Event(kind, data, seats) without the named tuple's Python-level __new__
# Shared events: the same seat rolling the same dice, passing or keeping a roll always logs the same
# event, so those are made once and appended as they are (events are immutable data; nothing writes
# to them, and views copy them out). _ROLL_EVENTS[seat] maps the dice pair (second die 0 for a one-die
# roll) to its "roll" event; a value outside 1-6 (a scripted test die) misses and is made afresh.
_ROLL_EVENTS = tuple(
    {
        **{(a, 0): Event("roll", {"seat": seat, "dice": [a], "total": a}) for a in range(1, 7)},
        **{
            (a, b): Event("roll", {"seat": seat, "dice": [a, b], "total": a + b})
            for a in range(1, 7)
            for b in range(1, 7)
        },
    }
    for seat in range(MAX_SEATS)
)
_SEATS = tuple((seat,) for seat in range(MAX_SEATS))  # to_act of each seat, made once
# _ROLL_BY_DICE[seat][first * 7 + second]: the same events by index, for dice known to be 1-6.
_ROLL_BY_DICE = tuple(
    tuple(events.get((index // 7, index % 7)) for index in range(7 * 7)) for events in _ROLL_EVENTS
)
_PASS_EVENTS = tuple(Event("pass", {"seat": seat}) for seat in range(MAX_SEATS))
_KEEP_EVENTS = tuple(Event("keep", {"seat": seat}) for seat in range(MAX_SEATS))
_REROLL_EVENTS = tuple(Event("reroll", {"seat": seat}) for seat in range(MAX_SEATS))
_EXTRA_TURN_EVENTS = tuple(Event("extra_turn", {"seat": seat}) for seat in range(MAX_SEATS))
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


def _roll_event(seat: int, rolled: tuple[int, int]) -> Event:
    """The "roll" event of dice ``rolled`` (second die 0: one die), made afresh."""
    first, second = rolled
    dice = [first, second] if second else [first]
    return Event("roll", {"seat": seat, "dice": dice, "total": first + second})


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


_REVEAL_EVENTS: dict[str, Event] = {}


def _remember_reveal(code: str) -> Event:
    """The "market_reveal" event of the one card ``code``, kept for the next time."""
    event = _REVEAL_EVENTS[code] = Event("market_reveal", {"cards": [code]})
    return event


def _remember(memo: dict[tuple, Event], key: tuple, make: Any) -> Event:
    """The event ``make(*key)``, kept in ``memo`` for the next time."""
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    event = memo[key] = make(*key)
    return event


class MachiKoroState(State):
    __slots__ = (
        "num_players",
        "options",
        "seed",
        "rng",
        "log",
        "t",
        "coins",
        "cards",
        "lm",
        "supply",
        "decks",
        "current",
        "phase",
        "dice",
        "total",
        "rerolled",
        "built",
        "purple_stage",
        "park_at_start",
        "winner",
        "turn",
        "bank_paid",
        "bank_received",
        "city_hall_mode",
        "radio_same_dice",
        "park_same_turn",
    )
    # The slots' types (num_players, options, seed, rng and log are the contract's).
    t: Tables  # the set-up's tables (cards in play, rows of landmark moves, ...)
    coins: list[int]
    cards: list[list[int]]  # seat -> copies of each card (by table index)
    lm: list[int]  # seat -> bitmask of built landmarks
    supply: list[int]  # copies of each card on sale
    decks: list[list[int]]  # one deck per market region (Harbor's market)
    current: int
    phase: int
    dice: tuple[int, int]  # (first, second); second 0 for one die
    total: int
    rerolled: bool
    built: bool
    purple_stage: int
    park_at_start: bool
    winner: int
    turn: int
    bank_paid: int
    bank_received: int
    city_hall_mode: str
    radio_same_dice: bool
    park_same_turn: bool
    # Saved positions: only builtins and events; the tables and rule switches come from the options.
    snapshot_types = ()
    static_slots = ("t", "city_hall_mode", "radio_same_dice", "park_same_turn")

    # ------------------------------------------------------------------ set-up
    @classmethod
    def start(cls, num_players: int, options: dict[str, Any], seed: int, tables: Tables) -> MachiKoroState:
        s = cls.__new__(cls)
        s.num_players = num_players
        s.options = options
        s.seed = seed
        s.rng = SeededRNG(seed)
        s.log = []
        s.t = tables
        s.coins = [START_COINS] * num_players
        n = len(tables.cards)
        s.cards = [list(tables.starting) for _ in range(num_players)]
        s.lm = [CITYHALL if tables.harbor else 0] * num_players
        s.supply = [0] * n
        s.decks = []
        s.current = 0
        s.phase = ROLL
        s.dice = (0, 0)
        s.total = 0
        s.rerolled = False
        s.built = False
        s.purple_stage = 0
        s.park_at_start = False
        s.winner = -1
        s.turn = 1
        s.bank_paid = 0
        s.bank_received = 0
        s.city_hall_mode = options["city_hall"]
        s.radio_same_dice = options["radio_tower_dice"] == "same"
        s.park_same_turn = options["park_same_turn"]
        s.log.append(Event("start", {"players": num_players, "coins": START_COINS, "first": 0}))
        s._set_up_market()
        s._start_turn()
        return s

    def _set_up_market(self) -> None:
        t = self.t
        if not t.regions:
            self.supply = [t.copies[i] if t.in_play[i] else 0 for i in range(len(t.cards))]
            return
        for members, _ in t.regions:
            deck = [i for i in members for _ in range(t.copies[i])]
            shuffle(self.rng, deck)
            self.decks.append(deck)
        self.log.append(Event("market_shuffled", {"count": len(self.decks)}))
        for region in range(len(self.decks)):
            self._refill(region)

    def _refill(self, region: int) -> None:
        deck = self.decks[region]
        if not deck:  # nothing left to turn up
            return
        t = self.t
        members, wanted = t.regions[region]
        supply = self.supply
        codes = t.codes
        piles = t.region_piles[region]
        if piles is None:  # one deck for every kind in play; kinds out of play never have a pile
            showing = len(supply) - supply.count(0)
        else:
            showing = len(members) - piles(supply).count(0)
        revealed = []
        while showing < wanted and deck:
            card = deck.pop()
            if not supply[card]:
                showing += 1
            supply[card] += 1
            revealed.append(codes[card])
        if revealed:
            if len(revealed) == 1:  # the usual case, one event per card made once
                self.log.append(_REVEAL_EVENTS.get(revealed[0]) or _remember_reveal(revealed[0]))
            else:
                self.log.append(_event(Event, ("market_reveal", {"cards": revealed}, None)))

    # ------------------------------------------------------------------ contract: who acts, what they may do
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else _SEATS[self.current]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        mask = self.t.victory_mask
        scores = [bin(m & mask).count("1") for m in self.lm]
        return Result.single_winner(self.num_players, self.winner, scores)

    def heuristic(self) -> list[float]:
        """Each seat's estimated rounds still needed to build its last landmark (the greedy bot's race
        estimate), mapped to (0, 1]: 1 at zero rounds, one half at five."""
        from .heuristics import turns_to_win

        return [1.0 / (1.0 + turns_to_win(self, seat) / 5.0) for seat in range(self.num_players)]

    def legal_actions(self, player: int) -> list[Any]:
        phase = self.phase
        if player != self.current or phase == OVER:
            return []
        if phase == BUILD:
            # PASS, the establishments on sale the player can afford (a purple one only if they
            # lack it), then the affordable unbuilt landmarks: all read from the per-coin tables
            t = self.t
            coins = self.coins[player]
            if coins > t.richest:
                coins = t.richest
            owned_purple, row = t.build_rows[coins]
            if owned_purple is not None:
                owned = owned_purple(self.cards[player])
                row = row.get(owned) or row[tuple(1 if count else 0 for count in owned)]
            builds, on_sale = row
            if on_sale is None:  # a market deck: few piles show, so read the supply as it is
                return [
                    PASS,
                    *filter(None, compress(builds, self.supply)),
                    *t.landmark_rows[coins][self.lm[player]],
                ]
            return [PASS, *compress(builds, on_sale(self.supply)), *t.landmark_rows[coins][self.lm[player]]]
        if phase == ROLL:
            return [ROLL1, ROLL2] if self.lm[player] & STATION else [ROLL1]
        if phase == REROLL:
            return self._reroll_actions()
        if phase == HARBOR:
            return [ADD2, NOADD]
        if phase == TV_PHASE:
            return [TVS[p] for p in range(self.num_players) if p != player]
        return [NOSWAP, *self._swap_actions()]

    def _reroll_actions(self) -> list[Any]:
        two_dice = self.dice[1] != 0
        if self.radio_same_dice or not self.lm[self.current] & STATION:
            return [KEEP, REROLL2 if two_dice else REROLL1]
        return [KEEP, REROLL1, REROLL2]

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

    # ------------------------------------------------------------------ contract: apply
    def apply(self, player: int, action: Any) -> None:
        """The hot path first, written out inline (a turn is mostly a roll and a build or a pass):
        the shared roll actions, a pass, and a build of an establishment; every other move, and
        every refusal, goes through :meth:`_apply_move`."""
        phase = self.phase
        if player != self.current or phase == OVER:
            self._require_turn(player)
        if phase == ROLL:
            if action is ROLL1 or action is ROLL2:
                lm = self.lm[player]
                if action is ROLL2 and not lm & STATION:
                    raise IllegalAction(
                        "roll.needs_train_station", "rolling two dice needs a built Train Station"
                    )
                rng = self.rng
                if type(rng) is SeededRNG:  # SeededRNG.die written out (test_speed_paths checks it)
                    random = rng.random
                    first = int(random() * 6) + 1
                    second = int(random() * 6) + 1 if action is ROLL2 else 0
                    self.dice = (first, second)
                    event = _ROLL_BY_DICE[player][first * 7 + second]
                else:  # a scripted test die, perhaps outside 1-6
                    first = rng.die()
                    second = rng.die() if action is ROLL2 else 0
                    self.dice = rolled = (first, second)
                    event = _ROLL_EVENTS[player].get(rolled) or _roll_event(player, rolled)
                self.total = total = first + second
                self.log.append(event)  # type: ignore[arg-type]  # _ROLL_BY_DICE: None only off 1-6
                if lm & RADIO:
                    self.phase = REROLL
                elif lm & HARBOR_LM and total >= 10:
                    self.phase = HARBOR
                else:
                    self._resolve_income()
                return
        elif phase == BUILD:
            if action is PASS:
                self.log.append(_PASS_EVENTS[player])
                self._end_turn()
                return
            if type(action) is Build:
                card = action.card
                i = ESTABLISHMENT_INDEX.get(card) if type(card) is str else None
                if i is not None:
                    # Building an establishment: its one written form (``_apply_build`` only ever
                    # sees landmarks and cards of no name, every establishment build comes here).
                    t = self.t
                    coins = self.coins
                    supply = self.supply
                    city = self.cards[player]
                    cost, purple, in_play = t.build_info[i]
                    if not supply[i] or coins[player] < cost or not in_play or (purple and city[i]):
                        self._refuse_establishment(i)
                    coins[player] -= cost
                    self.bank_received += cost
                    supply[i] -= 1
                    city[i] += 1
                    self.log.append(t.build_events[player][i])
                    if not supply[i] and t.regions:
                        self._refill(t.region_of[i])
                    # _end_turn after a build: no Airport income (``built`` would be set here and
                    # cleared again by the next turn's start).
                    self._start_turn(player)
                    return
        self._apply_move(player, action)

    def _apply_move(self, player: int, action: Any) -> None:
        """Any move by the player to act, checked and applied (values equal to a shared action are
        accepted as that action)."""
        kind = type(action)
        phase = self.phase
        try:
            if phase == BUILD:
                if kind is Build:
                    self._apply_build(action.card)
                elif kind is str and action == PASS:
                    self.log.append(_PASS_EVENTS[player])
                    self._end_turn()
                else:
                    raise self._wrong_phase(action)
            elif phase == ROLL:
                if kind is not Roll:
                    raise self._wrong_phase(action)
                self._apply_roll(action.dice)
            elif phase == REROLL:
                self._apply_reroll(action)
            elif phase == HARBOR:
                self._apply_harbor(action)
            elif phase == TV_PHASE:
                if kind is not TV:
                    raise self._wrong_phase(action)
                self._apply_tv(action.target)
            else:
                self._apply_business(action)
        except MalformedAction:
            # A value equal to an action but with fields of other types (Roll(dice=True)) is that
            # action, as the legal-move list and the mask treat it; anything else stays refused.
            shared = shared_action(action)
            if shared is None or shared is action:
                raise
            self.apply(player, shared)

    def _wrong_phase(self, action: Any) -> Exception:
        """The refusal for an action of another phase, or MalformedAction for a value that is no
        Machi Koro action at all."""
        kind = type(action)
        if kind is str:
            if action not in CONSTANTS:
                return MalformedAction("action.unknown", f"not a Machi Koro move: {action!r}")
        elif kind not in (Roll, Reroll, TV, Swap, Build):
            return MalformedAction(
                "action.type",
                "not a Machi Koro action (Roll, Reroll, TV, Swap, Build, or one of "
                f"{', '.join(sorted(CONSTANTS))}): {action!r}",
            )
        name = PHASE_NAMES[self.phase]
        return IllegalAction(
            f"phase.{name}",
            f"{self.format_action(action)!r} cannot be played now: the turn is in its "
            f"{name.replace('_', ' ')} step",
        )

    def _apply_roll(self, dice: Any) -> None:
        if type(dice) is not int or not 1 <= dice <= 2:
            raise MalformedAction("action.dice", f"a roll uses 1 or 2 dice, not {dice!r}")
        p = self.current
        lm = self.lm[p]
        if dice == 2 and not lm & STATION:
            raise IllegalAction("roll.needs_train_station", "rolling two dice needs a built Train Station")
        # _roll, inlined
        die = self.rng.die
        first = die()
        if dice == 2:
            second = die()
            self.dice = rolled = (first, second)
            self.total = total = first + second
        else:
            self.dice = rolled = (first, 0)
            self.total = total = first
        self.log.append(_ROLL_EVENTS[p].get(rolled) or _roll_event(p, rolled))
        if lm & RADIO:
            self.phase = REROLL
        elif lm & HARBOR_LM and total >= 10:
            self.phase = HARBOR
        else:
            self._resolve_income()

    def _apply_reroll(self, action: Any) -> None:
        if type(action) is str and action == KEEP:
            self.log.append(_KEEP_EVENTS[self.current])
        elif type(action) is Reroll:
            dice = action.dice
            if type(dice) is not int or dice not in (1, 2):
                raise MalformedAction("action.dice", f"a re-roll uses 1 or 2 dice, not {dice!r}")
            if action not in self._reroll_actions():
                rule = "reroll.same_dice" if self.radio_same_dice else "reroll.needs_train_station"
                raise IllegalAction(rule, "that number of dice is not allowed for this re-roll")
            self.rerolled = True
            self.log.append(_REROLL_EVENTS[self.current])
            self._roll(dice)
        else:
            raise self._wrong_phase(action)
        self._settle_dice()

    def _settle_dice(self) -> None:
        """The dice are final: offer the Harbor's +2 where it applies, else resolve income."""
        if self.lm[self.current] & HARBOR_LM and self.total >= 10:
            self.phase = HARBOR
        else:
            self._resolve_income()

    def _apply_harbor(self, action: Any) -> None:
        if type(action) is not str or action not in _HARBOR_CHOICES:
            raise self._wrong_phase(action)
        if action == ADD2:
            self.total += 2
            self.log.append(_event(Event, ("harbor_add", {"seat": self.current, "total": self.total}, None)))
        self._resolve_income()

    def _roll(self, count: int) -> None:
        die = self.rng.die
        first = die()
        if count == 2:
            second = die()
            self.dice = rolled = (first, second)
            self.total = first + second
        else:
            self.dice = rolled = (first, 0)
            self.total = first
        p = self.current
        self.log.append(_ROLL_EVENTS[p].get(rolled) or _roll_event(p, rolled))

    # ------------------------------------------------------------------ income
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
            raise MalformedAction("action.seat", f"a TV Station target is a seat number, not {target!r}")
        if target >= self.num_players:
            raise IllegalAction("tv_station.no_such_seat", f"there is no seat {target} in this game")
        if target == self.current:
            raise IllegalAction("tv_station.self", "the TV Station must take coins from an opponent")
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
            raise MalformedAction("action.swap", f"that swap names no such card or seat: {action!r}")
        if not 0 <= target < self.num_players:
            raise IllegalAction("business_center.unknown", "that swap names no such card or seat")
        if target == self.current:
            raise IllegalAction("business_center.self", "the Business Center swaps with an opponent")
        swappable = self.t.swappable
        if mine not in swappable or theirs not in swappable:
            raise IllegalAction(
                "business_center.tower", "purple (tower) cards and landmarks cannot be swapped"
            )
        if not self.cards[self.current][mine]:
            raise IllegalAction("business_center.not_owned", "you do not own the card you offer")
        if not self.cards[target][theirs]:
            raise IllegalAction("business_center.not_owned", f"P{target} does not own that card")
        if mine == theirs:
            raise IllegalAction(
                "business_center.same_card", "swapping a card for the same card changes nothing"
            )
        return mine, target, theirs

    # ------------------------------------------------------------------ build
    def _city_hall_coin(self, p: int) -> None:
        self.coins[p] = 1
        self.bank_paid += 1
        self.log.append(Event("city_hall", {"seat": p, "amount": 1}))

    def _apply_build(self, card: Any) -> None:
        """A Build that ``apply``'s fast path left: a landmark, or no card at all (an establishment
        build is always taken there, in its one written form)."""
        j = LANDMARK_INDEX.get(card) if type(card) is str else None
        if j is None:
            raise MalformedAction("action.unknown_card", f"no card is called {card!r}")
        if not self._build_landmark(j):
            self._end_turn()

    def _refuse_establishment(self, i: int) -> None:
        """Raise why establishment ``i`` cannot be built now (the checks in the rulebook's order)."""
        t = self.t
        p = self.current
        code = t.codes[i]
        if not t.in_play[i]:
            raise IllegalAction(
                "build.not_in_game", f"{code} is a Harbor card and Harbor is not in this game"
            )
        if not self.supply[i]:
            rule = "build.not_in_market" if t.regions and self.decks[t.region_of[i]] else "build.sold_out"
            raise IllegalAction(rule, f"no {code} is available to buy")
        if t.purple[i] and self.cards[p][i]:
            raise IllegalAction(
                "build.one_purple_each", f"a city may hold only one {code} (purple cards are unique)"
            )
        if self.coins[p] < t.cost[i]:
            raise IllegalAction("build.cannot_afford", f"{code} costs {t.cost[i]}, you have {self.coins[p]}")

    def _build_landmark(self, j: int) -> bool:
        """Build landmark ``j``; True when it wins the game."""
        t = self.t
        p = self.current
        code = LANDMARK_CODES[j]
        # Built first: City Hall in a Harbor game is not buildable because it starts built.
        if self.lm[p] >> j & 1:
            raise IllegalAction("build.landmark_built", f"{code} is already built")
        if not t.victory_mask >> j & 1:
            raise IllegalAction("build.landmark_not_in_game", f"{code} cannot be built in this game")
        cost = t.landmark_cost[j]
        if self.coins[p] < cost:
            raise IllegalAction("build.cannot_afford", f"{code} costs {cost}, you have {self.coins[p]}")
        self._pay_bank(p, cost)
        self.lm[p] |= 1 << j
        self.built = True
        self.log.append(t.landmark_events[p][j])
        if self.lm[p] & t.victory_mask == t.victory_mask:
            self.phase = OVER
            self.winner = p
            self.log.append(Event("win", {"seat": p, "turns": self.turn}))
            return True
        return False

    def _pay_bank(self, p: int, amount: int) -> None:
        self.coins[p] -= amount
        self.bank_received += amount

    # ------------------------------------------------------------------ turn boundaries
    def _end_turn(self) -> None:
        p = self.current
        if not self.built and self.lm[p] & AIRPORT:
            self.coins[p] += AIRPORT_AMOUNT
            self.bank_paid += AIRPORT_AMOUNT
            self.log.append(Event("airport", {"seat": p, "amount": AIRPORT_AMOUNT}))
        self._start_turn(p)

    def _start_turn(self, after: int = -1) -> None:
        """The start of a turn, the rules' one copy: the first seat's first turn, or the turn after
        seat ``after``'s (an extra turn for doubles with the Amusement Park, else the next seat's)."""
        if after < 0:
            p = self.current
        else:
            first, second = self.dice
            if (
                second
                and first == second
                and (self.lm[after] & PARK if self.park_same_turn else self.park_at_start)
            ):
                self.log.append(_EXTRA_TURN_EVENTS[after])
                p = after
            else:
                self.current = p = (after + 1) % self.num_players
            self.turn += 1
        self.phase = ROLL
        self.rerolled = False
        self.built = False
        self.dice = (0, 0)
        self.total = 0
        lm = self.lm[p]
        self.park_at_start = lm & PARK != 0
        if lm & CITYHALL and self.city_hall_mode == "every_turn":
            # City Hall, Polish rule: a coin at the start of each of its owner's turns.
            self.coins[p] += 1
            self.bank_paid += 1
            self.log.append(Event("city_hall", {"seat": p, "amount": 1}))

    # ------------------------------------------------------------------ cloning and hidden information
    def clone(self) -> MachiKoroState:
        s = MachiKoroState.__new__(MachiKoroState)
        s.num_players = self.num_players
        s.options = self.options
        s.seed = self.seed
        s.rng = self.rng.clone()
        s.log = self.log.copy()
        s.t = self.t
        s.coins = self.coins.copy()
        s.cards = [city.copy() for city in self.cards]
        s.lm = self.lm.copy()
        s.supply = self.supply.copy()
        s.decks = [deck.copy() for deck in self.decks]
        s.current = self.current
        s.phase = self.phase
        s.dice = self.dice
        s.total = self.total
        s.rerolled = self.rerolled
        s.built = self.built
        s.purple_stage = self.purple_stage
        s.park_at_start = self.park_at_start
        s.winner = self.winner
        s.turn = self.turn
        s.bank_paid = self.bank_paid
        s.bank_received = self.bank_received
        s.city_hall_mode = self.city_hall_mode
        s.radio_same_dice = self.radio_same_dice
        s.park_same_turn = self.park_same_turn
        return s

    def determinize(self, player: int, seed: int) -> MachiKoroState:
        """Everyone sees the same things in Machi Koro; only the market deck order (and future dice)
        is unknown. Each deck is sorted before it is shuffled, so the copy depends only on what the
        seat sees (which cards are left in each deck) and on ``seed``, never on the real order."""
        twin = super().determinize(player, seed)  # a clone with a fresh RNG
        for deck in twin.decks:
            deck.sort()
            shuffle(twin.rng, deck)
        return twin

    def check_snapshot(self) -> None:
        """A restored position must be one the rules could reach: sizes fit the set-up, no negative
        purse or pile, and every card of the game is in a city, on display or in a deck."""
        super().check_snapshot()
        t = self.t
        n = self.num_players
        kinds = len(t.cards)
        if len(self.coins) != n or len(self.cards) != n or len(self.lm) != n:
            raise ValueError("a seat list does not match the number of players")
        if len(self.supply) != kinds or any(len(city) != kinds for city in self.cards):
            raise ValueError("a card count list does not match the card kinds")
        if len(self.decks) != len(t.regions):
            raise ValueError("the market decks do not match the market option")
        if not 0 <= self.current < n or not ROLL <= self.phase <= OVER:
            raise ValueError("no such seat or phase")
        if min(self.coins) < 0 or min(self.supply) < 0 or any(min(city) < 0 for city in self.cards):
            raise ValueError("a purse or a pile is negative")
        in_decks = [0] * kinds
        for deck in self.decks:
            for i in deck:
                in_decks[i] += 1
        for i, card in enumerate(t.cards):
            owned = sum(city[i] for city in self.cards)
            expected = t.copies[i] + card.starting * n if t.in_play[i] else 0
            if self.supply[i] + in_decks[i] + owned != expected:
                raise ValueError(f"the {card.code} cards do not add up")
        if (self.phase == OVER) != (self.winner >= 0):
            raise ValueError("the winner does not match the phase")

    # ------------------------------------------------------------------ views
    def view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        data = self._base_view(player, since)
        t = self.t
        codes = t.codes
        landmark_ids = [
            code
            for j, code in enumerate(LANDMARK_CODES)
            if t.victory_mask >> j & 1 or (code == "cityhall" and t.harbor)
        ]
        phase = self.phase
        pending: dict[str, Any] | None = None
        if phase != OVER:
            pending = {"seat": self.current, "decision": PHASE_NAMES[phase]}
            if phase == ROLL:
                pending["dice"] = [1, 2] if self.lm[self.current] & STATION else [1]
            elif phase == REROLL:
                pending["dice"] = [a.dice for a in self._reroll_actions() if type(a) is Reroll]
            elif phase == HARBOR:
                pending["roll"] = self.total
            elif phase == TV_PHASE:
                pending["amount"] = TV_AMOUNT
        data["state"] = {
            "turn": self.turn,
            "current": self.current,
            "phase": PHASE_NAMES[phase],
            "dice": [d for d in self.dice if d],
            "roll": self.total,
            "rerolled": self.rerolled,
            "harbor": t.harbor,
            "market_kind": t.market,
            "players": [
                {
                    "coins": self.coins[p],
                    "establishments": {codes[i]: n for i, n in enumerate(self.cards[p]) if n},
                    "landmarks": {
                        code: bool(self.lm[p] >> LANDMARK_INDEX[code] & 1) for code in landmark_ids
                    },
                }
                for p in range(self.num_players)
            ],
            "market": {codes[i]: n for i, n in enumerate(self.supply) if n},
            "market_deck_sizes": [len(d) for d in self.decks],
            "pending": pending,
            "cards": [
                {
                    "id": codes[i],
                    "color": card.color,
                    "icon": card.icon,
                    "rolls": list(card.rolls),
                    "cost": t.cost[i],
                    "copies": t.copies[i],
                    "expansion": card.expansion,
                }
                for i, card in enumerate(t.cards)
                if t.in_play[i]
            ],
            "landmarks": [
                {
                    "id": code,
                    "cost": t.landmark_cost[LANDMARK_INDEX[code]],
                    "counts": bool(t.victory_mask >> LANDMARK_INDEX[code] & 1),
                }
                for code in landmark_ids
            ],
        }
        return data

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        from .notation import format_action

        return format_action(action)

    def parse_action(self, text: str, player: int) -> Any:
        from .notation import parse_action

        return parse_action(text)
