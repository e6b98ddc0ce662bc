"""The market (its set-up and the refills from its decks) and the build step: the refusal of an
establishment build (the build itself is ``apply``'s fast path, in ``state.py``) and landmarks, the
last of which wins the game."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.i18n import Term
from ...core.rng import shuffle
from .actions import LANDMARK_INDEX
from .data import LANDMARK_CODES
from .fields import StateFields
from .phases import OVER

_event = tuple.__new__  # Event(kind, data, seats) without the named tuple's Python-level __new__
_REVEAL_EVENTS: dict[str, Event] = {}


def _remember_reveal(code: str) -> Event:
    """The "market_reveal" event of the one card ``code``, kept for the next time."""
    event = _REVEAL_EVENTS[code] = Event("market_reveal", {"cards": [code]})
    return event


class BuildingMixin(StateFields):
    """The market and the build step of :class:`~.state.MachiKoroState`."""

    __slots__ = ()

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

    def _apply_build(self, card: Any) -> None:
        """A Build that ``apply``'s fast path left: a landmark, or no card at all (an establishment
        build is always taken there, in its one written form)."""
        j = LANDMARK_INDEX.get(card) if type(card) is str else None
        if j is None:
            raise MalformedAction("action.unknown_card", "no card is called {name!r}", name=card)
        if not self._build_landmark(j):
            self._end_turn()

    def _refuse_establishment(self, i: int) -> None:
        """Raise why establishment ``i`` cannot be built now (the checks in the rulebook's order)."""
        t = self.t
        p = self.current
        code = t.codes[i]
        if not t.in_play[i]:
            raise IllegalAction(
                "build.not_in_game", "{card} is a Harbor card and Harbor is not in this game", card=Term(code)
            )
        if not self.supply[i]:
            rule = "build.not_in_market" if t.regions and self.decks[t.region_of[i]] else "build.sold_out"
            raise IllegalAction(rule, "no {card} is available to buy", card=Term(code))
        if t.purple[i] and self.cards[p][i]:
            raise IllegalAction(
                "build.one_purple_each",
                "a city may hold only one {card} (purple cards are unique)",
                card=Term(code),
            )
        if self.coins[p] < t.cost[i]:
            raise IllegalAction(
                "build.cannot_afford",
                "{card} costs {cost}, you have {coins}",
                card=Term(code),
                cost=t.cost[i],
                coins=self.coins[p],
            )

    def _build_landmark(self, j: int) -> bool:
        """Build landmark ``j``; True when it wins the game."""
        t = self.t
        p = self.current
        code = LANDMARK_CODES[j]
        # Built first: City Hall in a Harbor game is not buildable because it starts built.
        if self.lm[p] >> j & 1:
            raise IllegalAction("build.landmark_built", "{card} is already built", card=Term(code))
        if not t.victory_mask >> j & 1:
            raise IllegalAction(
                "build.landmark_not_in_game", "{card} cannot be built in this game", card=Term(code)
            )
        cost = t.landmark_cost[j]
        if self.coins[p] < cost:
            raise IllegalAction(
                "build.cannot_afford",
                "{card} costs {cost}, you have {coins}",
                card=Term(code),
                cost=cost,
                coins=self.coins[p],
            )
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
