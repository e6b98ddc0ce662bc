"""The ``greedy`` Lords of Vegas bot: one-step lookahead with a public-information evaluation.

It tries each build, sprawl, remodel and listed trade on a copy of the state, scores the result with
:func:`evaluate` and takes the best improvement; it samples a few re-rolls to judge a reorganization,
gambles only when a win would pay for a build it cannot afford, and answers offers by the same
evaluation. Copies get the bot's own random source, so lookahead never sees the game's future dice.
"""

from __future__ import annotations

from ...core.errors import ActionError
from ...core.game import Action, Bot, State
from ...core.rng import SeededRNG

# Alike to moves.py's, state.py's and notation.py's import lists on purpose: each module names its own.
from .actions import (
    ACCEPT,
    END,
    LAYOFF_NO,
    LAYOFF_YES,
    PASS,
    REFUSE,
    Build,
    Gamble,
    Offer,
    Remodel,
    Reorg,
    Sprawl,
    Take,
)
from .data import COST, NUM_COLORS, STRIP
from .fields import Move
from .phases import ACTION, FREE_LOT, LAYOFF, MARKET, OFFER, OVER, PICK_DIE, PLACE
from .state import LordsOfVegasState

REORG_SAMPLES = 6
MIN_GAIN = 0.25  # evaluation units (about a quarter point) an action must add to be worth doing
OFFER_GAIN = 0.5
MONEY_WEIGHT = 0.3  # points one dollar is worth early on (falls to nothing by Game End)


def evaluate(state: LordsOfVegasState, p: int) -> float:
    """Expected final points of seat ``p`` as seen from public information (plus a money tie-break).

    Each casino is expected to pay (its colour's undrawn cards + the undrawn Strip cards if it touches
    the Strip) / deck size per draw, for the draws left before Game End. Points come from casinos p
    bosses; money (die pips, lots, cash) is worth what it can still build, which falls to nothing as
    Game End nears."""
    deck = state.deck
    size = len(deck)
    if state.phase == OVER or not size:
        return state.score[p] + state.money[p] * 0.001
    left = state.undrawn_by_pay()
    draws = state.cards_before_game_end() + 1
    money_w = MONEY_WEIGHT * min(1.0, draws / 15.0) + 0.001
    # Income arrives over the remaining draws while money loses its use: on average half as valuable.
    future_w = money_w * 0.5
    value = state.score[p] + state.money[p] * money_w
    groups, _ = state.casinos()
    tile, dieo, diev = state.tile, state.dieo, state.diev
    strip_rate = left[STRIP] / size
    for g in groups:
        rate = left[tile[g[0]]] / size
        if state.on_strip(g):
            rate += strip_rate
        payouts = rate * draws
        boss = state.boss(g)
        if boss == p:
            value += len(g) * payouts
        pips = 0
        for lot in g:
            if dieo[lot] == p:
                pips += diev[lot]
        value += pips * payouts * future_w
    lots = state.markers_out[p]
    # A lot pays $1 a draw and is a place to build (worth a little even late).
    value += lots * (draws * future_w + 0.5)
    return value


def layoff_choice(state: LordsOfVegasState, p: int) -> Action:
    """Lay the gamble off when its bet is more than half of ``p``'s money (GreedyBot and the expert)."""
    assert state.pending is not None  # the gamble this phase waits on
    _, _, bet = state.pending
    return LAYOFF_YES if bet * 2 > state.money[p] else LAYOFF_NO


def simple_choice(state: LordsOfVegasState, p: int) -> Action:
    """Greedy's rule for the small follow-up decisions: placing re-rolled dice, picking a die to move,
    taking a free lot (shared with the expert bot)."""
    legal = state.legal_actions(p)
    if state.phase == PLACE:
        # The highest value goes where no card can take it over: lots whose card was drawn.
        in_deck = set(state.deck)
        return max(legal, key=lambda a: (a.lot not in in_deck, -a.lot))
    if state.phase == PICK_DIE:
        gof = state.casinos()[1]

        def loss(a: Take) -> tuple[int, int]:
            lot = a.lot
            # a die to move stands on a tile, so the lot is in a casino
            return (state.boss(gof[lot]) == p, state.diev[lot])  # type: ignore[arg-type]

        return min(legal, key=loss)
    if state.phase == FREE_LOT:
        return min(legal, key=lambda a: (COST[a.lot], a.lot))
    return legal[0]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.sim = SeededRNG(seed ^ 0x5EED)

    # -- helpers -------------------------------------------------------------------------------
    def _copy(self, state: LordsOfVegasState) -> LordsOfVegasState:
        # Our own dice: lookahead must not see the game's future rolls.
        return state.lookahead_copy(self.sim, [])

    def _score(self, state: LordsOfVegasState, p: int) -> float:
        """How good ``state`` is for ``p`` (the expert bot overrides this with its own estimate)."""
        return evaluate(state, p)

    def _after(self, state: LordsOfVegasState, p: int, action: Move) -> float:
        twin = self._copy(state)
        twin.apply(p, action)
        # Finish our own follow-up decisions (moving a die, placing re-rolls) greedily.
        guard = 0
        while twin.phase in (PICK_DIE, PLACE) and twin.to_act == (p,) and guard < 20:
            twin.apply(p, simple_choice(twin, p))
            guard += 1
        return self._score(twin, p)

    # -- choice --------------------------------------------------------------------------------
    # Alike by shape to machikoro/bots.py's GreedyBot.choose on purpose: each bot's own dispatch by phase.
    def choose(self, state: State, player: int) -> Action:
        assert isinstance(state, LordsOfVegasState)
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == ACTION:
            return self._main(state, player, legal)
        if phase == OFFER:
            return self._answer(state, player)
        if phase == MARKET:
            return self._market(state, player, legal)
        if phase == LAYOFF:
            return layoff_choice(state, player)
        return simple_choice(state, player)

    # ExpertBot._main and ._market (expert.py) are tuned copies of _main and _market on purpose:
    # GreedyBot stays the fixed baseline, the expert weaves its Params and offer memory in.
    def _main(self, state: LordsOfVegasState, p: int, legal: list[Move]) -> Action:
        base = self._score(state, p)
        best: Move = END
        best_gain = MIN_GAIN
        gambles: list[Gamble] = []
        for action in legal:
            if isinstance(action, (Build, Sprawl, Remodel)):
                gain = self._after(state, p, action) - base
            elif isinstance(action, Reorg):
                gain = sum(self._after(state, p, action) for _ in range(REORG_SAMPLES)) / REORG_SAMPLES - base
            elif isinstance(action, Offer):
                if not self._acceptable(state, p, action.items):
                    continue  # nobody sensible would take it: do not waste the turn's offers
                gain = self._offer_gain(state, p, action.items) - OFFER_GAIN
            else:
                if isinstance(action, Gamble):
                    gambles.append(action)
                continue
            if gain > best_gain:
                best, best_gain = action, gain
        if best is END and gambles:
            bet = self._gamble(state, p, gambles)
            if bet is not None:
                return bet
        return best

    # Alike by shape to expert.py's _choose/_market on purpose: the greedy baseline stays readable alone;
    # the expert is its tuned successor, whose changes would hide in a shared base.
    def _market(self, state: LordsOfVegasState, p: int, legal: list[Move]) -> Action:
        best: Move = PASS
        best_gain = 0.0
        for action in legal:
            if isinstance(action, Offer) and self._acceptable(state, p, action.items):
                gain = self._offer_gain(state, p, action.items) - OFFER_GAIN
                if gain > best_gain:
                    best, best_gain = action, gain
        return best

    def _gamble(self, state: LordsOfVegasState, p: int, gambles: list[Gamble]) -> Action | None:
        """Bet only to reach a build we cannot afford yet; at the casino whose boss can pay."""
        money = state.money[p]
        wanted = [
            COST[lot] for lot in range(len(state.marker)) if state.marker[lot] == p and COST[lot] > money
        ]
        if not wanted or money < 2:
            return None
        need = min(wanted) - money
        gof = state.casinos()[1]

        def appeal(a: Gamble) -> tuple[int, int]:
            boss = state.boss(gof[a.lot])  # type: ignore[arg-type]  # a gamble's lot holds a casino
            return (min(state.money[boss], a.bet) >= need, -abs(a.bet - need))

        choice = max(gambles, key=appeal)
        if appeal(choice)[0] and choice.bet >= need:
            return choice
        return None

    def _offer_gain(self, state: LordsOfVegasState, p: int, items: tuple) -> float:
        twin = self._copy(state)
        twin.execute_items(items)
        after = self._score(twin, p)
        if twin.active == p and twin.phase == ACTION:
            # A lot we would buy on our turn is worth what building on it would make of it.
            for _giver, receiver, kind, value in items:
                if kind == "lot" and receiver == p and twin.money[p] >= COST[value]:
                    for colour in range(NUM_COLORS):
                        if twin.tiles_left[colour]:
                            try:
                                after = max(after, self._after(twin, p, Build(value, colour)))
                            except ActionError:  # e.g. we promised not to build this turn
                                break
        return after - self._score(state, p)

    def _acceptable(self, state: LordsOfVegasState, p: int, items: tuple) -> bool:
        """Would every other giver gain by our public estimate (so the offer has a chance)?"""
        twin = self._copy(state)
        twin.execute_items(items)
        givers = {item[0] for item in items} - {p}
        return all(evaluate(twin, q) > evaluate(state, q) for q in givers)

    def _answer(self, state: LordsOfVegasState, p: int) -> Action:
        assert state.offer is not None  # the offer this phase waits on
        _, items = state.offer
        return ACCEPT if self._offer_gain(state, p, items) > 0 else REFUSE
