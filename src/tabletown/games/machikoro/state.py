"""Machi Koro (with optional Harbor) rules on the Tabletown engine contract: the game state (set-up,
``apply``'s dispatch and its fast path, views, copies, hidden information, saved positions). Its
other parts are mixins by topic: ``turn.py`` (the legal moves, the dice, the turn's end),
``income.py`` (the payment formulas and the income step) and ``building.py`` (the market and the
build step); ``phases.py`` holds the phases, ``fields.py`` the slots' types.

Actions are the typed values of :mod:`.actions` (``Roll(dice=2)``, ``Build(card="cafe")``, ``PASS``).
A turn is a short chain of phases: roll -> (Radio Tower re-roll?) -> (Harbor +2?) -> income, with
pauses for the TV Station target and the Business Center swap -> build -> end of turn (Airport,
Amusement Park). The log is a list of typed events (see docs/games/machikoro.md, "Events").
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.events import Event
from ...core.game import Result, State
from ...core.i18n import Term
from ...core.rng import SeededRNG, shuffle
from .actions import ESTABLISHMENT_INDEX, LANDMARK_INDEX, MAX_SEATS, PASS, ROLL1, ROLL2, Build, Reroll
from .building import BuildingMixin
from .data import CITYHALL, HARBOR_LM, LANDMARK_CODES, RADIO, STATION
from .income import TV_AMOUNT, IncomeMixin
from .phases import BUILD, HARBOR, OVER, PHASE_NAMES, REROLL, ROLL, TV_PHASE
from .tables import Tables
from .turn import _PASS_EVENTS, _ROLL_BY_DICE, _ROLL_EVENTS, TurnMixin, _roll_event

START_COINS = 3
_SEATS = tuple((seat,) for seat in range(MAX_SEATS))  # to_act of each seat, made once


class MachiKoroState(TurnMixin, IncomeMixin, BuildingMixin, State):
    """One position. Its parts live in mixins by topic: ``turn.py`` (legal moves, dice, the turn's
    end), ``income.py`` (payments) and ``building.py`` (the market, builds); here are the set-up,
    ``apply``'s fast path, the views, copies and hidden information. The slots' types are declared
    in ``fields.py``."""

    # The engine's slots (num_players .. log) head every game's state, as in lordsofvegas/state.py,
    # newlasvegas/state.py and tests/arena/toygame.py, on purpose: core's State has no slots, so each
    # state lists all of its own.
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

    # ------------------------------------------------------------------ contract: who acts, what they may do
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else _SEATS[self.current]

    # is_over and result alike by shape to lordsofvegas/state.py's on purpose: each game ranks its own.
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
                        "roll.needs_train_station",
                        "rolling two dice needs a built {card}",
                        card=Term("Train Station", "station"),
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
                # The phase after a roll, as in turn.py's _apply_roll, on purpose: apply's hot path written out.
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

    # ------------------------------------------------------------------ cloning and hidden information
    def clone(self) -> MachiKoroState:
        # Slot by slot like every game's copy (multicity/state.py's clone, lordsofvegas/state.py's
        # lookahead_copy) on purpose: copying is a hot path of the search bots, no loop over slots.
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
