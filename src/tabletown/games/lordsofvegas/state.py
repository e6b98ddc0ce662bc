"""Lords of Vegas rules: the game state (set-up, ``apply``'s dispatch, views, copies, hidden
information, saved positions). Its other parts are mixins by topic: ``board.py`` (the board lists,
casinos, bosses, ties, payouts), ``moves.py`` (legal actions), ``trading.py`` (offers) and
``turn.py`` (the draw and the actions); ``actions.py`` holds the typed actions, ``phases.py`` the phases.

A turn is: draw (automatic), then the ACTION phase of the active player until ``end``. Decisions
that interrupt it are phases of their own, each with its own ``to_act``: answering a trade offer,
the boss's lay-off choice, picking a die to move when all 12 are out, freeing a lot when all 10
markers are out, and placing re-rolled dice after a reorganization. With the ``open_market`` option a
MARKET round follows each turn, in which the other players may offer trades or pass.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction, MalformedAction, SnapshotError
from ...core.events import Event
from ...core.game import Action, Result, State
from ...core.i18n import N_, Word
from ...core.rng import SeededRNG
from . import notation

# Alike to notation.py's, bots.py's and moves.py's import lists on purpose: each module names its own.
from .actions import (
    ACCEPT,
    ACTION_TYPES,
    BAN_KINDS,
    BY_KIND,
    END,
    ITEM_KINDS,
    LAYOFF_NO,
    LAYOFF_YES,
    PASS,
    REFUSE,
    Accept,
    Build,
    End,
    Free,
    Gamble,
    Item,
    Layoff,
    LVAction,
    Offer,
    Pass,
    Put,
    Refuse,
    Remodel,
    Reorg,
    Sprawl,
    Take,
    from_tuple,
)
from .board import BoardMixin, lot_name, new_event
from .data import (
    COLORS,
    DICE_PER_PLAYER,
    GAME_END,
    IN_EXCLUDED_BLOCK,
    LOT_NAMES,
    MARKERS_PER_PLAYER,
    NUM_CARDS,
    NUM_COLORS,
    NUM_LOTS,
    PAY_NAMES,
    START_MONEY,
    TILES_PER_COLOR,
)
from .moves import MovesMixin
from .phases import (
    ACTION,
    FREE_LOT,
    LAYOFF,
    MARKET,
    OFFER,
    OVER,
    PHASE_NAMES,
    PICK_DIE,
    PLACE,
    RESUME_ACTION,
    RESUME_DRAW,
)
from .trading import TradingMixin, items_json
from .turn import TurnMixin

__all__ = [
    "ACCEPT",
    "ACTION",
    "BAN_KINDS",
    "END",
    "FREE_LOT",
    "ITEM_KINDS",
    "LAYOFF",
    "LAYOFF_NO",
    "LAYOFF_YES",
    "MARKET",
    "OFFER",
    "OVER",
    "PASS",
    "PHASE_NAMES",
    "PICK_DIE",
    "PLACE",
    "REFUSE",
    "RESUME_ACTION",
    "RESUME_DRAW",
    "LordsOfVegasState",
    "lot_name",
]


class LordsOfVegasState(BoardMixin, MovesMixin, TradingMixin, TurnMixin, State):
    """One position. Its parts live in mixins by topic: ``board.py`` (casinos, bosses, ties,
    payouts), ``moves.py`` (legal actions), ``trading.py`` (offers and promises), ``turn.py`` (the
    draw, the main-phase actions and their follow-up decisions); here are the set-up, ``apply``'s
    dispatch, the views, copies and hidden information."""

    # Saved positions (core.snapshot): trade items are the only named tuples a position holds
    # (an offer waiting for answers); the options come from the set-up.
    snapshot_types = (Item,)
    static_slots = ("options",)

    # The engine's slots (num_players .. log) head every game's state, as in machikoro/state.py and
    # tests/arena/toygame.py, on purpose: core's State has no slots, so each state lists all of its own.
    __slots__ = (
        "num_players",
        "options",
        "seed",
        "rng",
        "log",
        "marker",
        "tile",
        "dieo",
        "diev",
        "money",
        "score",
        "dice_out",
        "markers_out",
        "tiles_left",
        "deck",
        "discard",
        "ge_index",
        "active",
        "phase",
        "turn",
        "gambled",
        "reorged",
        "bans",
        "offers_made",
        "pending",
        "resume",
        "offer",
        "accepted",
        "place_queue",
        "_cache_cas",
        "_cache_own",
        "_cache_plan",
        "_cache_stats",
        "_cache_answer",
        "_over_reason",
        "market",
        "offer_return",
    )

    def __init__(self) -> None:  # filled by LordsOfVegasGame.create_state or clone
        pass

    # ------------------------------------------------------------------ set-up
    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> None:
        self.num_players = num_players
        self.options = options
        self.seed = seed
        rng = self.rng = SeededRNG(seed)
        self.log = []
        self.marker = [-1] * NUM_LOTS
        self.tile = [-1] * NUM_LOTS
        self.dieo = [-1] * NUM_LOTS
        self.diev = [0] * NUM_LOTS
        self.money = [0] * num_players
        self.score = [0] * num_players
        self.dice_out = [0] * num_players
        self.markers_out = [0] * num_players
        self.tiles_left = [TILES_PER_COLOR] * NUM_COLORS
        self.discard = []
        self.gambled = False
        self.reorged = 0
        self.bans = ()
        self.offers_made = 0
        self.pending = None
        self.resume = None
        self.offer = None
        self.accepted = ()
        self.place_queue = []
        self._cache_cas = None
        self._cache_own = None
        self._cache_plan = None
        self._cache_stats = {}
        self._cache_answer = None
        self._over_reason = ""
        self.market = ()
        self.offer_return = ACTION
        self.turn = 0
        two = num_players == 2
        deck = list(range(NUM_LOTS))
        rng.shuffle(deck)
        self.log.append(new_event(Event, ("deck_shuffled", {"cards": len(deck)}, None)))
        # Deal from the end of the list (the top of the deck).
        for seat in range(num_players):
            got: list[int] = []
            while len(got) < 2:
                card = deck.pop()
                self.discard.append(card)
                if two and IN_EXCLUDED_BLOCK[card]:
                    self.log.append(
                        new_event(Event, ("dealt_again", {"seat": seat, "lot": LOT_NAMES[card]}, None))
                    )
                    continue
                got.append(card)
            for card in got:
                self.marker[card] = seat
                self.markers_out[seat] += 1
            self.money[seat] = START_MONEY[got[0]] + START_MONEY[got[1]]
            self.log.append(
                new_event(
                    Event,
                    (
                        "dealt",
                        {"seat": seat, "lots": [LOT_NAMES[c] for c in got], "money": self.money[seat]},
                        None,
                    ),
                )
            )
        # Split into 4 near-equal stacks; Game End goes on top of the 4th (bottom) stack. Stacks are
        # made top-down with the larger ones first, so the split (and Game End's depth) is public.
        size = len(deck)
        stacks = [size // 4 + (1 if i < size % 4 else 0) for i in range(4)]
        above = stacks[0] + stacks[1] + stacks[2]
        # deck[-1] is the top: Game End sits below the top `above` cards.
        self.ge_index = size - above
        deck.insert(self.ge_index, GAME_END)
        self.deck = deck
        self.log.append(new_event(Event, ("game_end_placed", {"above": above, "cards": size}, None)))
        self.active = self._roll_off()
        self.phase = ACTION
        self._start_turn()

    def _roll_off(self) -> int:
        contenders = list(range(self.num_players))
        while True:
            rolls = {seat: self.rng.die() + self.rng.die() for seat in contenders}
            self.log.append(
                new_event(Event, ("roll_off", {"seats": list(rolls), "totals": list(rolls.values())}, None))
            )
            best = max(rolls.values())
            contenders = [s for s, r in rolls.items() if r == best]
            if len(contenders) == 1:
                self.log.append(new_event(Event, ("first_player", {"seat": contenders[0]}, None)))
                return contenders[0]

    # ------------------------------------------------------------------ casinos    # ------------------------------------------------------------------ contract: who acts
    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == ACTION:
            return _ALONE[self.active]
        if phase == OVER:
            return ()
        if phase == OFFER:
            accepted = self.accepted
            if not accepted:
                return self.offer_answerers()
            return tuple(s for s in self.offer_answerers() if s not in accepted)
        if phase == PLACE:
            return (self.place_queue[0][0],)
        if phase == MARKET:
            return (self.market[0],)
        assert self.pending is not None  # every other phase waits for a pending decision
        return (self.pending[0],)

    # is_over and result alike by shape to machikoro/state.py's on purpose: each game ranks its own.
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        keys = [(self.score[s], self.money[s]) for s in range(self.num_players)]
        return Result.from_keys([float(x) for x in self.score], keys)

    # ------------------------------------------------------------------ apply
    def apply(self, player: int, action: Action) -> None:
        phase = self.phase
        if phase != ACTION or player != self.active:  # the active seat's main phase needs no check
            self._require_turn(player)
        handler = _HANDLERS_BY_PHASE[phase].get(type(action))
        if handler is None:
            action, handler = self._slow_dispatch(action)
        handler(self, player, action)

    def _slow_dispatch(self, action: Any) -> tuple[LVAction, Any]:
        """``apply``'s dispatch off its hot path: a typed action the phase does not take, or an action
        in the tuple form ``(kind, *fields)`` (``("build", 3, 1)``), turned typed here."""
        cls = type(action)
        if cls in _TYPED:
            kind = action.kind
        elif isinstance(action, tuple) and action and isinstance(action[0], str):
            kind = action[0]
        else:
            raise MalformedAction(
                "notation.unknown", "not a Lords of Vegas action: {action!r}", action=action
            )
        typed = BY_KIND.get(kind)
        handler = _HANDLERS_BY_PHASE[self.phase].get(typed)
        if handler is None:
            raise IllegalAction(
                _PHASE_RULE[self.phase],
                "'{kind}' is not possible now ({hint})",
                kind=kind,
                hint=Word(_PHASE_HINT[self.phase]),
            )
        if cls is not typed:
            action = from_tuple(action)
        return action, handler

    # ------------------------------------------------------------------ views, copies
    def view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        """See docs/games/lordsofvegas.md ("View") for the shape; everything here is public."""
        base = self._base_view(player, since)
        groups, gof = self.casinos()
        bosses = [self.boss(g) for g in groups]
        board = []
        for lot in range(NUM_LOTS):
            entry: dict[str, Any] = {"lot": LOT_NAMES[lot]}
            if self.tile[lot] >= 0:
                entry["tile"] = COLORS[self.tile[lot]]
                entry["casino"] = LOT_NAMES[gof[lot][0]]  # type: ignore[index]  # a tile is in a casino
                if self.dieo[lot] >= 0:
                    entry["die"] = self.diev[lot]
                    entry["owner"] = self.dieo[lot]
            elif self.marker[lot] >= 0:
                entry["marker"] = self.marker[lot]
            board.append(entry)
        casinos = [
            {
                "lots": [LOT_NAMES[t] for t in g],
                "color": COLORS[self.tile[g[0]]],
                "size": len(g),
                "boss": bosses[i] if bosses[i] >= 0 else None,
                "strip": self.on_strip(g),
            }
            for i, g in enumerate(groups)
        ]
        undrawn = self.undrawn_by_pay()
        ge_drawn = GAME_END in self.discard
        state: dict[str, Any] = {
            "turn": self.turn,
            "active": self.active,
            "phase": PHASE_NAMES[self.phase],
            "board": board,
            "casinos": casinos,
            "players": [
                {
                    "seat": s,
                    "money": self.money[s],
                    "score": self.score[s],
                    "dice_left": DICE_PER_PLAYER - self.dice_out[s],
                    "markers_left": MARKERS_PER_PLAYER - self.markers_out[s],
                }
                for s in range(self.num_players)
            ],
            "tiles_left": {COLORS[c]: self.tiles_left[c] for c in range(NUM_COLORS)},
            "deck_size": len(self.deck),
            "cards_left": {PAY_NAMES[c]: undrawn[c] for c in range(NUM_COLORS + 1)},
            "undrawn_lots": sorted(LOT_NAMES[c] for c in self.deck if c != GAME_END),
            "cards_before_game_end": None if ge_drawn else self.cards_before_game_end(),
            "discards": [LOT_NAMES[c] if c != GAME_END else "game_end" for c in self.discard],
            "gambled": self.gambled,
            "offers_made": self.offers_made,
            "promised": [{"action": k, "lot": LOT_NAMES[lot] if lot >= 0 else None} for k, lot in self.bans],
        }
        if self.phase == OFFER:
            assert self.offer is not None  # the offer this phase waits on
            proposer, items = self.offer
            state["offer"] = {
                "by": proposer,
                "items": items_json(items),
                "notation": notation.format_items(items),
                "waiting_for": list(self.to_act),
            }
        elif self.phase == LAYOFF:
            assert self.pending is not None  # the gamble this phase waits on
            boss, gambler, bet = self.pending
            state["gamble"] = {"boss": boss, "gambler": gambler, "bet": bet}
        elif self.phase in (PICK_DIE, FREE_LOT):
            assert self.pending is not None  # the decision this phase waits on
            state["decision"] = {"seat": self.pending[0], "lot": LOT_NAMES[self.pending[1]]}
        elif self.phase == MARKET:
            state["market"] = list(self.market)
        elif self.phase == PLACE:
            state["placing"] = [
                {"seat": o, "lots": [LOT_NAMES[t] for t in lots], "values": list(vals)}
                for o, lots, vals in self.place_queue
            ]
        base["state"] = state
        return base

    def clone(self) -> LordsOfVegasState:
        return self.lookahead_copy(self.rng.clone(), self.log[:])

    def lookahead_copy(self, rng: SeededRNG, log: list[Event]) -> LordsOfVegasState:
        """A clone with the given random source and log (bots searching ahead pass their own dice
        and an empty log, which also saves copying them)."""
        # Slot by slot like every game's copy (newlasvegas/state.py, machikoro/state.py's clone) on
        # purpose: copying is a hot path of the search bots, no loop over slots.
        twin = LordsOfVegasState.__new__(LordsOfVegasState)
        twin.num_players = self.num_players
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = rng
        twin.log = log
        twin.marker = self.marker[:]
        twin.tile = self.tile[:]
        # Field by field on purpose, like every clone of ours: the searches' hot path (copy.copy costs more).
        twin.dieo = self.dieo[:]
        twin.diev = self.diev[:]
        twin.money = self.money[:]
        twin.score = self.score[:]
        twin.dice_out = self.dice_out[:]
        twin.markers_out = self.markers_out[:]
        twin.tiles_left = self.tiles_left[:]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.ge_index = self.ge_index
        twin.active = self.active
        twin.phase = self.phase
        twin.turn = self.turn
        twin.gambled = self.gambled
        twin.reorged = self.reorged
        twin.bans = self.bans
        twin.offers_made = self.offers_made
        twin.pending = self.pending
        twin.resume = self.resume
        twin.offer = self.offer
        twin.accepted = self.accepted
        twin.place_queue = self.place_queue[:]
        twin._cache_cas = self._cache_cas  # immutable once built; rebuilt (not mutated) on change
        twin._cache_own = self._cache_own  # likewise (replaced by ``_set_marker``)
        twin._cache_plan = self._cache_plan  # likewise (dropped when a marker or die changes hands)
        twin._cache_stats = self._cache_stats.copy()  # entries are dropped in place
        twin._cache_answer = self._cache_answer  # checked against the offer itself
        twin._over_reason = self._over_reason
        twin.market = self.market
        twin.offer_return = self.offer_return
        return twin

    def determinize(self, player: int, seed: int) -> LordsOfVegasState:
        """The deck order is the only hidden part (every card dealt or drawn lies face up, Game End's
        depth is fixed by the public split): the undrawn lot cards are shuffled again from their
        sorted order with a fresh RNG, and Game End keeps its place, so the copy depends only on
        what every seat sees and on ``seed``."""
        twin = self.lookahead_copy(SeededRNG(seed), self.log[:])
        deck = twin.deck
        rest = sorted(c for c in deck if c != GAME_END)
        twin.rng.shuffle(rest)
        if GAME_END in deck:
            rest.insert(deck.index(GAME_END), GAME_END)
        twin.deck = rest
        return twin

    def check_snapshot(self) -> None:
        """A loaded position must be a whole, consistent game: every list of the right length, the
        counts of markers, dice and tiles matching the board, every card in the deck or the discard
        exactly once, and a phase whose pending decision is filled in."""
        n = self.num_players
        if not 2 <= n <= 4:
            raise SnapshotError(f"Lords of Vegas takes 2-4 players, not {n}")
        for name in ("marker", "tile", "dieo", "diev"):
            if len(getattr(self, name)) != NUM_LOTS:
                raise SnapshotError(f"{name} must list all {NUM_LOTS} lots")
        for name in ("money", "score", "dice_out", "markers_out"):
            if len(getattr(self, name)) != n:
                raise SnapshotError(f"{name} must list every seat")
        if len(self.tiles_left) != NUM_COLORS:
            raise SnapshotError("tiles_left must list every colour")
        if sorted(self.deck + self.discard) != list(range(NUM_CARDS)):
            raise SnapshotError("every card must be in the deck or the discard exactly once")
        if not 0 <= self.active < n or not 0 <= self.phase < len(PHASE_NAMES):
            raise SnapshotError("the active seat or the phase is out of range")
        for seat in range(n):
            if self.markers_out[seat] != self.marker.count(seat) or self.dice_out[seat] != self.dieo.count(
                seat
            ):
                raise SnapshotError(f"seat {seat}'s markers or dice do not match the board")
            if self.money[seat] < 0:
                raise SnapshotError(f"seat {seat} has negative money")
        for colour in range(NUM_COLORS):
            if self.tiles_left[colour] + self.tile.count(colour) != TILES_PER_COLOR:
                raise SnapshotError(f"the {COLORS[colour]} tiles do not add up")
        for lot in range(NUM_LOTS):
            owner, value = self.dieo[lot], self.diev[lot]
            if not -1 <= owner < n or not 0 <= value <= 6 or not -1 <= self.marker[lot] < n:
                raise SnapshotError(f"lot {LOT_NAMES[lot]} holds an impossible marker or die")
            if self.tile[lot] < 0 and (owner >= 0 or value) or self.tile[lot] >= 0 and self.marker[lot] >= 0:
                raise SnapshotError(
                    f"lot {LOT_NAMES[lot]} mixes a tile with a marker, or a die without a tile"
                )
        phase = self.phase
        if phase in (LAYOFF, PICK_DIE, FREE_LOT) and self.pending is None:
            raise SnapshotError("a pending decision is missing")
        if phase == OFFER and self.offer is None or phase == PLACE and not self.place_queue:
            raise SnapshotError("a pending offer or placement is missing")
        if phase == MARKET and not self.market:
            raise SnapshotError("the market round has nobody to ask")
        if (phase == OVER) != (self._over_reason != ""):
            raise SnapshotError("the end of the game and its reason disagree")
        self.drop_caches()
        super().check_snapshot()

    def drop_caches(self) -> None:
        """Forget every memo (casinos, each seat's lots, listed trades, casino dice): after the board
        was edited by hand, as loading a position or a test does."""
        self._cache_cas = None
        self._cache_own = None
        self._cache_plan = None
        self._cache_stats = {}
        self._cache_answer = None

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str, player: int) -> Action:
        return notation.parse_action(text, player)


_HANDLERS = {
    (ACTION, End): LordsOfVegasState._act_end,
    (ACTION, Build): LordsOfVegasState._act_build,
    (ACTION, Sprawl): LordsOfVegasState._act_sprawl,
    (ACTION, Remodel): LordsOfVegasState._act_remodel,
    (ACTION, Reorg): LordsOfVegasState._act_reorg,
    (ACTION, Gamble): LordsOfVegasState._act_gamble,
    (OFFER, Accept): LordsOfVegasState._act_accept,
    (OFFER, Refuse): LordsOfVegasState._act_refuse,
    (LAYOFF, Layoff): LordsOfVegasState._act_layoff,
    (PICK_DIE, Take): LordsOfVegasState._act_take,
    (FREE_LOT, Free): LordsOfVegasState._act_free,
    (PLACE, Put): LordsOfVegasState._act_put,
    (MARKET, Pass): LordsOfVegasState._act_pass,
    (ACTION, Offer): LordsOfVegasState._act_offer,
    (OFFER, Offer): LordsOfVegasState._act_offer,  # a counter-offer
    (MARKET, Offer): LordsOfVegasState._act_offer,
}

# _HANDLERS by phase, then by action class (one dictionary look-up per action).
_HANDLERS_BY_PHASE: tuple[dict, ...] = tuple(
    {kind: handler for (at, kind), handler in _HANDLERS.items() if at == phase}
    for phase in range(len(PHASE_NAMES))
)

# The typed action classes (actions.py).
_TYPED = frozenset(ACTION_TYPES)

# _ALONE[seat]: the tuple ``(seat,)``, made once (``to_act`` is asked before every action).
_ALONE = tuple((seat,) for seat in range(4))

# The rule refusing an action the phase does not take ("phase.offer"), and what the phase takes
# (catalog words: Word fields of the refusal).
_PHASE_RULE = tuple(f"phase.{name}" for name in PHASE_NAMES)
_PHASE_HINT = (
    N_("it is your main phase: build, sprawl, remodel, reorg, gamble, offer or end"),
    N_("an offer is waiting: accept, refuse, or counter with an offer"),
    N_("the boss decides: layoff or nolayoff"),
    N_("pick which of your dice to move: take <lot>"),
    N_("free one of your lots first: free <lot>"),
    N_("place your re-rolled dice: put <lot>"),
    N_("the game is over"),
    N_("the market is open after a turn: offer a trade or pass"),
)
