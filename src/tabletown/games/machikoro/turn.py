"""The turn: what the seat to act may do at each step, the dice (roll, Radio Tower re-roll, Harbor
+2), the moves ``apply``'s fast path leaves and their refusals, and the turn's end (Airport,
Amusement Park, City Hall's coin)."""

from __future__ import annotations

from itertools import compress
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.i18n import N_, Term, Word

# Alike to notation.py's, bots.py's and game.py's import lists on purpose: each module names its own.
from .actions import (
    ADD2,
    CONSTANTS,
    KEEP,
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
from .data import AIRPORT, CITYHALL, HARBOR_LM, PARK, RADIO, STATION
from .fields import StateFields
from .phases import BUILD, HARBOR, OVER, PHASE_NAMES, REROLL, ROLL, TV_PHASE

AIRPORT_AMOUNT = 10

_HARBOR_CHOICES = [ADD2, NOADD]
# The steps of a turn as a refusal names them (PHASE_NAMES' order), catalog words of their own.
_STEP_WORDS = (
    N_("roll"),
    N_("reroll"),
    N_("harbor"),
    N_("tv station"),
    N_("business center"),
    N_("build"),
    N_("over"),
)
_PHASE_RULES = tuple(f"phase.{name}" for name in PHASE_NAMES)  # the wrong-step refusals' rule ids
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
# _ROLL_BY_DICE[seat][first * 7 + second]: the same events by index, for dice known to be 1-6.
_ROLL_BY_DICE = tuple(
    tuple(events.get((index // 7, index % 7)) for index in range(7 * 7)) for events in _ROLL_EVENTS
)
_PASS_EVENTS = tuple(Event("pass", {"seat": seat}) for seat in range(MAX_SEATS))
_KEEP_EVENTS = tuple(Event("keep", {"seat": seat}) for seat in range(MAX_SEATS))
_REROLL_EVENTS = tuple(Event("reroll", {"seat": seat}) for seat in range(MAX_SEATS))
_EXTRA_TURN_EVENTS = tuple(Event("extra_turn", {"seat": seat}) for seat in range(MAX_SEATS))


def _roll_event(seat: int, rolled: tuple[int, int]) -> Event:
    """The "roll" event of dice ``rolled`` (second die 0: one die), made afresh."""
    first, second = rolled
    dice = [first, second] if second else [first]
    return Event("roll", {"seat": seat, "dice": dice, "total": first + second})


class TurnMixin(StateFields):
    """The turn flow of :class:`~.state.MachiKoroState`."""

    __slots__ = ()

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
                return MalformedAction("action.unknown", "not a Machi Koro move: {action!r}", action=action)
        elif kind not in (Roll, Reroll, TV, Swap, Build):
            return MalformedAction(
                "action.type",
                "not a Machi Koro action (Roll, Reroll, TV, Swap, Build, or one of {constants}): {action!r}",
                constants=", ".join(sorted(CONSTANTS)),
                action=action,
            )
        return IllegalAction(
            _PHASE_RULES[self.phase],
            "{action!r} cannot be played now: the turn is in its {step} step",
            action=self.format_action(action),
            step=Word(_STEP_WORDS[self.phase]),
        )

    def _apply_roll(self, dice: Any) -> None:
        if type(dice) is not int or not 1 <= dice <= 2:
            raise MalformedAction("action.dice", "a roll uses 1 or 2 dice, not {dice!r}", dice=dice)
        p = self.current
        lm = self.lm[p]
        if dice == 2 and not lm & STATION:
            raise IllegalAction(
                "roll.needs_train_station",
                "rolling two dice needs a built {card}",
                card=Term("Train Station", "station"),
            )
        # _roll, inlined (state.py's apply repeats its phase step on purpose: the hot path, written out)
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
                raise MalformedAction("action.dice", "a re-roll uses 1 or 2 dice, not {dice!r}", dice=dice)
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
