"""The ``expert`` Lords of Vegas bot: greedy's one-step lookahead with a better, relative evaluation.

Differences from ``greedy`` (bots.py), each measured by simulation against it:

- It scores a position for every seat and maximizes its own value minus the best opponent's, so
  taking a casino from a rival (reorganize, a tall build next to their casino, a merge) counts twice
  and trades are judged by who gains more, not just by whether it gains.
- Points are projected along the real score track: past 8 points the track has gaps that one
  casino's payout must cover, so small casinos score nothing late while big ones keep climbing.
- A boss die on a tile whose card is still in the deck can be taken over by whoever draws that card;
  the expected loss of boss (and of pips) is priced in.
- Money, income and lots are weighted with parameters tuned in arena-style matches against greedy.

Lookahead copies come from ``state.determinize`` with the bot's own random source, so the bot sees
only its seat's information (and, like greedy, never the game's future dice).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...core.errors import ActionError
from ...core.game import Action, Bot, State
from ...core.rng import SeededRNG
from .bots import MONEY_WEIGHT
from .bots import evaluate as greedy_evaluate
from .data import (
    CARD_PAYS,
    COST,
    DICE_PER_PLAYER,
    GAME_END,
    INSTANT_WIN,
    NUM_COLORS,
    SCORE_TRACK,
    STRIP,
    advance_score,
)
from .state import (
    _STRIP_LOTS,
    ACCEPT,
    ACTION,
    END,
    FREE_LOT,
    LAYOFF,
    LAYOFF_NO,
    LAYOFF_YES,
    MARKET,
    OFFER,
    OVER,
    PASS,
    PICK_DIE,
    PLACE,
    REFUSE,
    LordsOfVegasState,
)


@dataclass(frozen=True)
class Params:
    """Evaluation and policy weights (defaults are the tuned values)."""

    money_w: float = 0.3  # points a dollar is worth while plenty of draws remain
    money_horizon: float = 15.0  # draws left below which money's worth falls linearly to nothing
    future_w: float = 0.5  # income (pips, lots) relative to cash in hand
    lot_bonus: float = 0.5  # a lot is a place to build
    opp_w: float = 1.0  # how much the best opponent's value counts against ours
    track: bool = False  # project points along the score track (gaps) instead of linearly
    takeover: float = 0.0  # weight of the take-over risk of dice whose card is undrawn
    chunks: int = 3  # time steps of the score-track projection
    min_gain: float = 0.25
    offer_gain: float = 0.5
    reorg_samples: int = 8
    learned: bool = False  # use the learned linear evaluation (WEIGHTS) instead of ``values``
    buy_dice: bool = True  # offer to buy rivals' dice that contest our casinos
    reorg_hold: float = 1.0  # ``hold`` when judging a reorganization
    hold: float = 0.3  # share of a contested casino's later payouts that follows today's boss


DEFAULT = Params()

# TRACK_GAIN[s][k]: squares gained by one casino of k tiles from score s (s rounded down to a square).
_MAX_SIZE = 48
_FLOOR = [0] * (INSTANT_WIN + 1)
for _s in range(INSTANT_WIN + 1):
    _FLOOR[_s] = max(sq for sq in SCORE_TRACK if sq <= _s)
TRACK_GAIN = tuple(
    tuple(advance_score(_FLOOR[s], k) - _FLOOR[s] for k in range(_MAX_SIZE + 1)) for s in range(INSTANT_WIN + 1)
)


def values(state: LordsOfVegasState, prm: Params = DEFAULT) -> list[float]:
    """Each seat's expected final points from public information, plus what its money, dice and lots
    are still worth (which falls to nothing as Game End nears)."""
    n = state.num_players
    score, money = state.score, state.money
    deck = state.deck
    size = len(deck)
    if state.phase == OVER or not size:
        return [score[q] + money[q] * 0.001 for q in range(n)]
    left = [0] * (NUM_COLORS + 1)
    for card in deck:
        left[CARD_PAYS[card]] += 1
    ge_in = GAME_END in deck
    before = state.cards_before_game_end() if ge_in else size
    others = size - 1 if ge_in else size  # cards other than Game End, each equally likely next
    draws = before + 1 if ge_in else size
    if others <= 0:
        others = 1
    strip_pay = before * (left[STRIP] - (1 if ge_in else 0)) / others + (1.0 if ge_in else 0.0)
    pay = [before * left[c] / others for c in range(NUM_COLORS)]
    in_deck = 0
    for card in deck:
        if card != GAME_END:
            in_deck |= 1 << card
    # Chance a given undrawn card comes up before Game End, and that a rival of its owner draws it.
    f_drawn = before / others if ge_in else 1.0
    steal = prm.takeover * f_drawn * (n - 1) / n * 0.5  # half the remaining payouts on average
    money_w = prm.money_w * min(1.0, draws / prm.money_horizon) + 0.001
    income_w = money_w * prm.future_w
    items: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    income = [0.0] * n
    groups, _ = state.casinos()
    tile, dieo, diev = state.tile, state.dieo, state.diev
    for g in groups:
        payouts = pay[tile[g[0]]]
        if not _STRIP_LOTS.isdisjoint(g):
            payouts += strip_pay
        if payouts <= 0:
            continue
        best = 0
        boss = -1
        top = -1
        count = [0] * n
        for lot in g:
            v = diev[lot]
            if v:
                o = dieo[lot]
                count[o] += 1
                share = payouts * v
                if in_deck >> lot & 1 and steal:
                    income[o] += share * (1 - steal)
                    for q in range(n):
                        if q != o:
                            income[q] += share * steal / (n - 1)
                else:
                    income[o] += share
                if v > best:
                    best, boss, top = v, o, lot
                elif v == best and o != boss:
                    boss = -1
        if boss < 0:
            continue
        k = len(g)
        dice = sum(count)
        if count[boss] < dice and prm.hold < 1.0:
            # Contested: whoever is not boss can reorganize, and a re-roll of all the dice is won
            # roughly in proportion to the dice each side has there. Only the next draw surely
            # pays today's boss.
            nxt = payouts / draws
            later = (payouts - nxt) * (1.0 - prm.hold)
            kept = payouts - later
            for q in range(n):
                if count[q]:
                    items[q].append((k, later * count[q] / dice))
        else:
            kept = payouts
        if in_deck >> top & 1 and steal:
            items[boss].append((k, kept * (1 - steal)))
            for q in range(n):
                if q != boss:
                    items[q].append((k, kept * steal / (n - 1)))
        else:
            items[boss].append((k, kept))
    out = []
    markers_out = state.markers_out
    for q in range(n):
        x = float(score[q])
        mine = items[q]
        if mine:
            if prm.track:
                mine.sort()
                steps = prm.chunks
                for _ in range(steps):
                    for k, m in mine:
                        s = int(x)
                        if s >= INSTANT_WIN:
                            break
                        x += m / steps * TRACK_GAIN[s][k if k <= _MAX_SIZE else _MAX_SIZE]
                if x > INSTANT_WIN:
                    x = float(INSTANT_WIN)
            else:
                for k, m in mine:
                    x += k * m
        x += money[q] * money_w + income[q] * income_w
        x += markers_out[q] * (draws * income_w + prm.lot_bonus)
        out.append(x)
    return out


def relative(vals: list[float], p: int, opp_w: float) -> float:
    """Our value minus (opp_w times) the best rival's."""
    rival = max(v for q, v in enumerate(vals) if q != p)
    return vals[p] - opp_w * rival


class ExpertBot(Bot):
    name = "expert"

    def __init__(self, seed: int = 0, params: Params = DEFAULT) -> None:
        super().__init__(seed)
        self.sim = SeededRNG(seed ^ 0xE4BE47)
        self.prm = params
        self.weights = WEIGHTS
        self.reorg_prm = replace(params, hold=params.reorg_hold)

    # -- helpers -------------------------------------------------------------------------------
    def _score(self, state: LordsOfVegasState, p: int, prm: Params | None = None) -> float:
        prm = prm or self.prm
        if prm.learned:
            return relative(learned_values(state, self.weights), p, prm.opp_w)
        return relative(values(state, prm), p, prm.opp_w)

    def _copy(self, base: LordsOfVegasState) -> LordsOfVegasState:
        # ``base`` is already a determinized copy; lookahead uses our own dice.
        return base.lookahead_copy(self.sim, [])

    def _after(self, base: LordsOfVegasState, p: int, action: Action, prm: Params | None = None) -> float:
        twin = self._copy(base)
        twin.apply(p, action)
        self._finish_own(twin, p)
        return self._score(twin, p, prm)

    def _finish_own(self, twin: LordsOfVegasState, p: int) -> None:
        """Our own follow-up decisions (moving a die, placing re-rolls); others' are taken greedily
        too (they only place re-rolled dice, which affects take-over risk)."""
        guard = 0
        while twin.phase in (PICK_DIE, PLACE, FREE_LOT) and guard < 30:
            seat = twin.to_act[0]
            twin.apply(seat, self._simple_choice(twin, seat))
            guard += 1

    # -- choice --------------------------------------------------------------------------------
    def choose(self, state: State, player: int) -> Action:
        assert isinstance(state, LordsOfVegasState)
        legal = state.legal_actions(player)
        phase = state.phase
        if len(legal) == 1 and phase != ACTION:  # in ACTION we may still type an offer
            return legal[0]
        base = state.determinize(player, self.rng.getrandbits(63))
        if phase == ACTION:
            return self._main(base, player, legal)
        if phase == OFFER:
            return self._answer(base, player)
        if phase == MARKET:
            return self._market(base, player, legal)
        if phase == LAYOFF:
            _, _, bet = state.pending
            return LAYOFF_YES if bet * 2 > state.money[player] else LAYOFF_NO
        if phase in (PICK_DIE, FREE_LOT):
            return max(legal, key=lambda a: self._after(base, player, a))
        return self._simple_choice(state, player)

    def _simple_choice(self, state: LordsOfVegasState, p: int) -> Action:
        legal = state.legal_actions(p)
        if state.phase == PLACE:
            # The highest value goes where no card can take it over: lots whose card was drawn.
            in_deck = set(state.deck)
            return max(legal, key=lambda a: (a[1] not in in_deck, -a[1]))
        if state.phase == PICK_DIE:
            groups, cid = state.casinos()

            def loss(a: Action) -> tuple[int, int]:
                lot = a[1]
                return (state.boss(groups[cid[lot]]) == p, state.diev[lot])

            return min(legal, key=loss)
        if state.phase == FREE_LOT:
            return min(legal, key=lambda a: (COST[a[1]], a[1]))
        return legal[0]

    def _main(self, base: LordsOfVegasState, p: int, legal: list[Action]) -> Action:
        prm = self.prm
        here = self._score(base, p)
        best, best_gain = END, prm.min_gain
        gambles = []
        if prm.buy_dice:
            legal = legal + self._die_offers(base, p)
        for action in legal:
            kind = action[0]
            if kind in ("build", "sprawl", "remodel"):
                gain = self._after(base, p, action) - here
            elif kind == "reorg":
                # Judged as greedy would (the winner keeps the casino): a reorganization war is
                # worth fighting when the rival will fight it anyway.
                n = prm.reorg_samples
                rp = self.reorg_prm
                gain = sum(self._after(base, p, action, rp) for _ in range(n)) / n - self._score(base, p, rp)
            elif kind == "offer":
                if not self._acceptable(base, p, action[1]):
                    continue
                gain = self._offer_gain(base, p, action[1]) - prm.offer_gain
            else:
                if kind == "gamble":
                    gambles.append(action)
                continue
            if gain > best_gain:
                best, best_gain = action, gain
        if best is END and gambles:
            bet = self._gamble(base, p, gambles)
            if bet is not None:
                return bet
        return best

    def _die_offers(self, base: LordsOfVegasState, p: int) -> list[Action]:
        """Offers to buy a rival's dice: all of them in a casino we run (so they can no longer
        reorganize it), or their lower dice in a casino they run where we have a die (so a
        reorganization is more likely ours), at about the least a public estimate would accept."""
        if base.offers_made >= base.options["max_offers"] or base.active != p:
            return []
        free = DICE_PER_PLAYER - base.dice_out[p]
        if free <= 0:
            return []
        groups, _ = base.casinos()
        dieo, diev = base.dieo, base.diev
        out: list[Action] = []
        for g in groups:
            if len(g) < 2:
                continue
            boss = base.boss(g)
            if boss < 0:
                continue
            mine = False
            top = 0
            theirs: dict[int, list[int]] = {}
            for lot in g:
                v = diev[lot]
                if not v:
                    continue
                o = dieo[lot]
                if o == p:
                    mine = True
                else:
                    theirs.setdefault(o, []).append(lot)
                top = max(top, v)
            for q, lots in theirs.items():
                if boss == p:
                    want = lots
                elif boss == q and mine:
                    want = [lot for lot in lots if diev[lot] < top]
                else:
                    continue
                want = want[:free]
                if not want:
                    continue
                dice = tuple((q, p, "die", lot) for lot in want)
                price = self._price(base, p, q, dice)
                if price is not None:
                    out.append(("offer", tuple(sorted(dice + ((p, q, "$", price),)))))
        return out

    def _price(self, base: LordsOfVegasState, p: int, q: int, items: tuple) -> int | None:
        """The least money for ``items`` that seat q would take by a public estimate, if we have it."""
        twin = self._copy(base)
        twin.execute_items(items)
        loss = greedy_evaluate(base, q) - greedy_evaluate(twin, q)
        draws = base.cards_before_game_end() + 1
        worth = MONEY_WEIGHT * min(1.0, draws / 15.0) + 0.001
        price = max(1, int(loss / worth + 1e-6) + 1)
        if price > base.money[p]:
            return None
        return price

    def _market(self, base: LordsOfVegasState, p: int, legal: list[Action]) -> Action:
        best, best_gain = PASS, 0.0
        for action in legal:
            if action[0] == "offer" and self._acceptable(base, p, action[1]):
                gain = self._offer_gain(base, p, action[1]) - self.prm.offer_gain
                if gain > best_gain:
                    best, best_gain = action, gain
        return best

    def _gamble(self, state: LordsOfVegasState, p: int, gambles: list[Action]) -> Action | None:
        """Bet only to reach a build we cannot afford yet; at the casino whose boss can pay."""
        money = state.money[p]
        wanted = [COST[lot] for lot in range(len(state.marker)) if state.marker[lot] == p and COST[lot] > money]
        if not wanted or money < 2:
            return None
        need = min(wanted) - money
        groups, cid = state.casinos()

        def appeal(a: Action) -> tuple[int, int]:
            boss = state.boss(groups[cid[a[1]]])
            return (min(state.money[boss], a[2]) >= need, -abs(a[2] - need))

        choice = max(gambles, key=appeal)
        if appeal(choice)[0] and choice[2] >= need:
            return choice
        return None

    def _offer_gain(self, base: LordsOfVegasState, p: int, items: tuple) -> float:
        twin = self._copy(base)
        twin.execute_items(items)
        after = self._score(twin, p)
        if twin.active == p and twin.phase == ACTION:
            # A lot we would buy on our turn is worth what building on it would make of it.
            for _giver, receiver, kind, value in items:
                if kind == "lot" and receiver == p and twin.money[p] >= COST[value]:
                    for colour in range(NUM_COLORS):
                        if twin.tiles_left[colour]:
                            try:
                                after = max(after, self._after(twin, p, ("build", value, colour)))
                            except ActionError:  # e.g. we promised not to build this turn
                                break
        return after - self._score(base, p)

    def _acceptable(self, base: LordsOfVegasState, p: int, items: tuple) -> bool:
        """Would every other giver gain by a plain public estimate (so the offer has a chance)?"""
        twin = self._copy(base)
        twin.execute_items(items)
        givers = {item[0] for item in items} - {p}
        return all(greedy_evaluate(twin, q) > greedy_evaluate(base, q) for q in givers)

    def _answer(self, base: LordsOfVegasState, p: int) -> Action:
        _, items = base.offer
        return ACCEPT if self._offer_gain(base, p, items) > 0 else REFUSE


FEATURES = (
    "score", "money", "boss_sure", "boss_contested", "dice_share", "pips", "lots", "lot_income",
    "track_gain", "boss_exposed", "dice", "big_boss",
)


def features(state: LordsOfVegasState) -> list[list[float]]:
    """Per seat, public features of the position (see FEATURES) for the learned evaluation."""
    n = state.num_players
    nf = len(FEATURES)
    out = [[0.0] * nf for _ in range(n)]
    score, money = state.score, state.money
    deck = state.deck
    size = len(deck)
    for q in range(n):
        out[q][0] = score[q]
        out[q][1] = money[q]
    if state.phase == OVER or not size:
        return out
    left = [0] * (NUM_COLORS + 1)
    for card in deck:
        left[CARD_PAYS[card]] += 1
    ge_in = GAME_END in deck
    before = state.cards_before_game_end() if ge_in else size
    others = max(1, size - 1 if ge_in else size)
    draws = before + 1 if ge_in else size
    strip_pay = before * (left[STRIP] - (1 if ge_in else 0)) / others + (1.0 if ge_in else 0.0)
    pay = [before * left[c] / others for c in range(NUM_COLORS)]
    in_deck = 0
    for card in deck:
        if card != GAME_END:
            in_deck |= 1 << card
    items: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    groups, _ = state.casinos()
    tile, dieo, diev = state.tile, state.dieo, state.diev
    for g in groups:
        payouts = pay[tile[g[0]]]
        if not _STRIP_LOTS.isdisjoint(g):
            payouts += strip_pay
        best = 0
        boss = -1
        top = -1
        count = [0] * n
        for lot in g:
            v = diev[lot]
            if v:
                o = dieo[lot]
                count[o] += 1
                out[o][5] += payouts * v
                if v > best:
                    best, boss, top = v, o, lot
                elif v == best and o != boss:
                    boss = -1
        if boss < 0 or payouts <= 0:
            continue
        k = len(g)
        dice = sum(count)
        value = k * payouts
        f = out[boss]
        if count[boss] < dice:
            f[3] += value
            for q in range(n):
                if count[q]:
                    out[q][4] += value * count[q] / dice
        else:
            f[2] += value
            f[4] += value
        if in_deck >> top & 1:
            f[9] += value
        if k >= 4:
            f[11] += value
        items[boss].append((k, payouts))
    for q in range(n):
        f = out[q]
        f[6] = state.markers_out[q]
        f[7] = state.markers_out[q] * draws
        f[10] = state.dice_out[q]
        x = float(score[q])
        mine = items[q]
        if mine:
            mine.sort()
            for _ in range(3):
                for k, m in mine:
                    s = int(x)
                    if s >= INSTANT_WIN:
                        break
                    x += m / 3 * TRACK_GAIN[s][k if k <= _MAX_SIZE else _MAX_SIZE]
        f[8] = x - score[q]
    return out


def learned_values(state: LordsOfVegasState, weights: tuple = ()) -> list[float]:
    """Each seat's value under the learned linear evaluation: weights depend on the draws left."""
    fs = features(state)
    if state.phase == OVER or not state.deck:
        return [f[0] + f[1] * 0.001 for f in fs]
    draws = state.cards_before_game_end() + 1 if GAME_END in state.deck else len(state.deck)
    w = WEIGHTS[-1][1]
    for limit, row in weights or WEIGHTS:
        w = row
        if draws <= limit:
            break
    return [sum(a * b for a, b in zip(w, f, strict=True)) + f[1] * 0.001 for f in fs]

WEIGHTS = (
    (4, (0.9628, 0.0121, -0.4672, -0.2771, 0.2500, 0.0478, 0.2152, -0.0656, 0.7389, -0.1115, 0.1866, 0.0465)),
    (9, (0.8691, 0.0475, -0.4416, -0.2180, 0.5109, 0.0105, 0.1724, 0.0097, 0.5450, 0.0219, 0.2392, 0.0205)),
    (15, (0.7612, 0.1015, -0.4121, -0.1030, 0.4581, 0.0340, 0.9678, -0.0367, 0.3905, -0.0630, 0.3299, 0.0156)),
    (22, (0.6907, 0.1945, -0.4629, -0.0339, 0.7398, 0.0395, -0.4288, 0.0854, 0.2460, -0.1292, -0.1495, 0.0195)),
    (99, (0.8721, 0.2886, -0.4866, -0.0041, 0.8883, 0.0732, -0.6136, 0.1009, 0.1986, 0.0146, -0.5833, -0.0329)),
)
