"""The Machi Koro expert bot: greedy's race estimate on an exact per-roll income model, tuned by simulation.

Greedy asks "how many rounds until *I* can pay for my last landmark?" from rough per-card incomes. The
expert asks the same question more carefully:

- For every roller and every roll total, :class:`Model` works out who gains and who loses how many coins
  (red cards first, paid from the roller's purse in seat order, then green and blue, then purple), lets
  each roller choose dice, Radio Tower re-roll and Harbor +2 the way a selfish player would, and sums
  that into every player's expected income per round.
- A race has two runners: a build is credited with the income it takes from the rivals (``w_opp`` coins
  per coin) and charged with what it gives them (their Wheat Fields pay on my one-die rolls).
- Rounds still needed = coins still needed / (income + ``rate_add``): later builds will raise income
  anyway, so a build must pay back sooner than today's income suggests (the largest single gain).
- Per-card weights (``card_mult``) correct what the model overrates; they were found by simulation.
- End game (two players, at most two landmarks missing): builds maximise the chance of finishing before
  the rival, a small dynamic program over both purses and whole roll distributions (``win_chance``);
  with one landmark missing, dice, re-roll and Harbor choices also aim at reaching its price this turn.

Dice, re-roll, Harbor, TV and swap choices weigh coins the same way (mine +1, a rival's -w_opp). The bot
reads only public information (all of a Machi Koro city is face up) and uses no randomness.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Bot
from .actions import (
    ADD2,
    ESTABLISHMENT_INDEX,
    KEEP,
    LANDMARK_INDEX,
    NOADD,
    NOSWAP,
    PASS,
    REROLL2,
    ROLL1,
    ROLL2,
    Swap,
)
from .data import AIRPORT, CITYHALL, HARBOR_LM, PARK, RADIO, STATION
from .heuristics import TUNA_MEAN
from .income import blue_gain, green_gain, purple_due, red_due
from .phases import BUILD, BUSINESS, HARBOR, REROLL, ROLL, TV_PHASE
from .state import MachiKoroState
from .tables import SWAP, TAKE_CHOSEN

ONE = tuple((r, 1 / 6) for r in range(1, 7))
TWO = tuple((r, (6 - abs(r - 7)) / 36) for r in range(2, 13))
WINS = 1e9  # build_value's value of the landmark that wins at once
RACE_PROGRESS = 1e-9  # the end-game race's tie-break for a landmark (above rounding, below any real edge)


class Model:
    """A position reduced to what income depends on: coins, cities and landmarks (lists we may edit)."""

    __slots__ = ("t", "n", "coins", "cards", "lm", "radio_same", "every_turn", "floor")

    def __init__(self, state: MachiKoroState, floor: int = 0) -> None:
        self.t = state.t
        self.n = state.num_players
        self.coins = state.coins.copy()
        self.cards = [city.copy() for city in state.cards]
        self.lm = state.lm.copy()
        self.radio_same = state.radio_same_dice
        self.every_turn = state.city_hall_mode == "every_turn"
        # Payments are capped by the payer's coins, but no lower than ``floor``: a long-run income
        # estimate must not believe that spending down to zero protects one from Cafes for good.
        self.floor = floor

    # -- one roll ---------------------------------------------------------------------------------
    def outcome(self, roller: int, roll: int) -> list[float]:
        """Coins each player gains (negative: loses) when ``roller``'s final total is ``roll``."""
        t = self.t
        n = self.n
        coins = self.coins
        cards = self.cards
        lm = self.lm
        delta = [0.0] * n
        start = coins[roller] if coins[roller] >= self.floor else self.floor
        purse = start
        reds = t.red[roll]
        if reds:
            for k in range(1, n):
                owner = (roller - k) % n
                city = cards[owner]
                olm = lm[owner]
                due = 0
                for entry in reds:
                    due += red_due(entry, city, olm)
                paid = due if due <= purse else purse
                purse -= paid
                delta[owner] += paid
        delta[roller] -= start - purse
        city = cards[roller]
        rlm = lm[roller]
        for green in t.green[roll]:
            gain = green_gain(green, city, rlm)
            if gain:
                delta[roller] += gain
        blues = t.blue[roll]
        if blues:
            for owner in range(n):
                ocity = cards[owner]
                olm = lm[owner]
                for entry in blues:
                    gain = blue_gain(entry, ocity, olm, TUNA_MEAN)
                    if gain:
                        delta[owner] += gain
        for idx, kind, amount, min_coins, icons in t.purple_by_roll[roll]:
            if not city[idx]:
                continue
            if kind == TAKE_CHOSEN:
                victim = max(
                    (q for q in range(n) if q != roller), key=lambda q: max(coins[q], self.floor) + delta[q]
                )
                self._take(delta, roller, victim, amount)
            elif kind == SWAP:
                delta[roller] += 1.0  # a swap is worth something, but it is no coin flow
            else:
                for k in range(1, n):
                    victim = (roller + k) % n
                    # The Tax Office halves the purse as it is after this roll's earlier payments.
                    have = int(coins[victim] + delta[victim])
                    self._take(
                        delta, roller, victim, purple_due(kind, amount, min_coins, icons, cards[victim], have)
                    )
        return delta

    def _take(self, delta: list[float], roller: int, victim: int, due: float) -> None:
        have = max(self.coins[victim], self.floor) + delta[victim]
        paid = due if due <= have else max(have, 0)
        delta[victim] -= paid
        delta[roller] += paid

    def final_outcome(self, roller: int, roll: int, weights: list[float]) -> list[float]:
        """The outcome after the roller's Harbor +2 decision (taken by ``weights``)."""
        plain = self.outcome(roller, roll)
        if roll >= 10 and self.lm[roller] & HARBOR_LM:
            plus = self.outcome(roller, roll + 2)
            if _dot(weights, plus) > _dot(weights, plain):
                return plus
        return plain

    # -- one turn ---------------------------------------------------------------------------------
    def expected(self, roller: int, dist: tuple[tuple[int, float], ...], weights: list[float]) -> list[float]:
        total = [0.0] * self.n
        for roll, p in dist:
            o = self.final_outcome(roller, roll, weights)
            for q in range(self.n):
                total[q] += p * o[q]
        return total

    def turn(self, roller: int, weights: list[float]) -> tuple[list[float], int]:
        """Expected outcome of one whole turn of ``roller`` choosing by ``weights``; and the dice count."""
        lm = self.lm[roller]
        station = lm & STATION
        e1 = self.expected(roller, ONE, weights)
        e2 = self.expected(roller, TWO, weights) if station else None
        choices = [(1, ONE, e1)] + ([(2, TWO, e2)] if e2 is not None else [])
        best_vec, best_val, best_count = e1, -1e18, 1
        for count, dist, plain in choices:
            if lm & RADIO:
                if self.radio_same or not station:
                    again = plain
                else:
                    again = e1 if e2 is None or _dot(weights, e1) >= _dot(weights, e2) else e2
                again_val = _dot(weights, again)
                vec = [0.0] * self.n
                for roll, p in dist:
                    o = self.final_outcome(roller, roll, weights)
                    use = o if _dot(weights, o) >= again_val else again
                    for q in range(self.n):
                        vec[q] += p * use[q]
            else:
                vec = plain
            if count == 2 and lm & PARK:
                vec = [v * 1.2 for v in vec]  # doubles (1 in 6) give another whole turn
            val = _dot(weights, vec)
            if val > best_val:
                best_vec, best_val, best_count = vec, val, count
        if lm & AIRPORT:
            best_vec = best_vec.copy()
            best_vec[roller] += 3.0  # rough: the Airport pays 10 on the turns nothing is built
        if lm & CITYHALL and self.every_turn:
            best_vec = best_vec.copy()
            best_vec[roller] += 1.0
        return best_vec, best_count

    def rates(self) -> list[float]:
        """Every player's expected coins per round, each roller choosing selfishly."""
        n = self.n
        rate = [0.0] * n
        for roller in range(n):
            selfish = [0.0] * n
            selfish[roller] = 1.0
            vec, _ = self.turn(roller, selfish)
            for q in range(n):
                rate[q] += vec[q]
        return rate

    def need(self, q: int) -> int:
        t = self.t
        built = self.lm[q]
        return sum(t.landmark_cost[j] for j in t.buildable_landmarks if not built >> j & 1)


def _dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


Dist = list[tuple[int, float]]


def turn_spread(model: Model, roller: int, me: int, opp: int) -> tuple[Dist, Dist]:
    """How one turn of ``roller`` (choosing dice, re-roll and Harbor selfishly) moves ``me``'s and
    ``opp``'s purses: two distributions of whole-coin changes, not just their means."""
    selfish = [0.0] * model.n
    selfish[roller] = 1.0
    _, count = model.turn(roller, selfish)
    lm = model.lm[roller]
    dist = TWO if count == 2 else ONE
    mine: dict[int, float] = {}
    theirs: dict[int, float] = {}

    def add(p: float, o: list[float]) -> None:
        a, b = round(o[me]), round(o[opp])
        mine[a] = mine.get(a, 0.0) + p
        theirs[b] = theirs.get(b, 0.0) + p

    second: list[tuple[float, list[float]]] = []
    again = 0.0
    if lm & RADIO:
        redo = dist
        if not model.radio_same and lm & STATION:
            e1 = model.expected(roller, ONE, selfish)[roller]
            redo = ONE if e1 >= model.expected(roller, TWO, selfish)[roller] else TWO
        second = [(p, model.final_outcome(roller, r, selfish)) for r, p in redo]
        again = sum(p * o[roller] for p, o in second)
    for r, p in dist:
        o = model.final_outcome(roller, r, selfish)
        if second and o[roller] < again:
            for p2, o2 in second:
                add(p * p2, o2)
        else:
            add(p, o)
    return list(mine.items()), list(theirs.items())


def _shift(vec: list[float], dist: Dist, cap: int) -> list[float]:
    """A purse distribution (index = coins, clipped to 0..cap) after one more change drawn from ``dist``."""
    new = [0.0] * (cap + 1)
    for c, pc in enumerate(vec):
        if pc < 1e-12:
            continue
        for d, p in dist:
            x = c + d
            new[cap if x > cap else 0 if x < 0 else x] += pc * p
    return new


def _mix(dists: list[Dist], weights: list[float]) -> Dist:
    total = sum(weights)
    if total <= 0:
        return dists[0]
    out: dict[int, float] = {}
    for dist, w in zip(dists, weights, strict=True):
        if w > 0:
            for x, p in dist:
                out[x] = out.get(x, 0.0) + p * w / total
    return list(out.items())


class ExpertBot(Bot):
    """Builds whatever most shortens its own race, counting what each build takes from the rivals."""

    name = "expert"
    # Tuned by simulation against bot:greedy (docs/games/machikoro.md, "Bots").
    w_opp = 1.0  # a coin a rival loses is worth this many of my own coins
    rate_floor = 0.5  # income below this counts as this (keeps the estimate finite)
    # Income the city will gain anyway from later builds: the race is shorter than today's income
    # says, so a build must pay for itself sooner (tuned: 2.5-6 all work; 0 is clearly worse).
    rate_add = 4.0
    # When valuing a build, every payer is assumed to hold at least this many coins: otherwise
    # spending down to zero would look like permanent protection from the rivals' Cafes and TV Station.
    cap_floor = 99
    # How much of a build's modelled income change counts (1 when not named; a landmark's code names
    # a landmark, none is named as tuned against greedy). Found by
    # simulation: the model overrates cards that pay on few rolls or hurt a rival (whose purse is often
    # nearly empty), and the Wheat Field and Ranch, which compete with better one-die cards.
    card_mult: dict[str, float] = {
        "wheat": 0.5,
        "ranch": 0.5,
        "forest": 0.5,
        "mine": 0.5,
        "stadium": 0.5,
        "tv": 0.5,
    }
    landmark_eps = 0.01  # a landmark wins a tie (its coins are safe from Cafes and the TV Station)
    pass_eps = 0.0  # added to building nothing (a lever for benchmarks/tune_expert.py; 0 as tuned)
    # End game (two players, at most ``race_left`` landmarks still to build): builds are chosen by the
    # probability of finishing before the rival over the next ``race_rounds`` rounds, a small dynamic
    # program over purses and rolls, instead of the expected-income race estimate. Three or more
    # landmarks left measured worse (the rival's card buys, ignored there, matter more that far out).
    race_left = 2
    race_rounds = 12
    race_tail = 0.5  # chance credited to a race still open after race_rounds
    # With one landmark left, finishing this turn is worth this many coins to the dice, re-roll and
    # Harbor choices (they otherwise maximise expected coins, blind to the threshold).
    finish_bonus = 30.0
    # Denial (issue 18, against the published fixed strategies): an engine card (green) bought from its
    # pile is also credited with ``deny`` times what one more copy would earn the rival who collects it
    # (owns at least ``deny_owned`` copies), shared over the copies left: taking the Bakeries a Bakery
    # player waits for slows it for good. Blue and red cards, and rivals not collecting the card, get no
    # credit (that version bought Wheat Fields from greedy and lost to it).
    deny = 2.0
    deny_owned = 3
    deny_colors = ("green",)

    # Alike by shape to GreedyBot.choose (bots.py) on purpose: each bot's own dispatch by phase.
    def choose(self, state: MachiKoroState, player: int) -> Any:  # type: ignore[override]  # its game's states only
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == BUILD:
            return self.choose_build(state, player, legal)
        model = Model(state)
        weights = self.coin_weights(model, player)
        last = self.last_cost(state, player)
        if last is not None and phase in (ROLL, REROLL, HARBOR):
            action = self.choose_to_finish(state, model, player, weights, legal, last)
            if action is not None:
                return action
        if phase == ROLL:
            _, count = model.turn(player, weights)
            return ROLL2 if count == 2 and ROLL2 in legal else ROLL1
        if phase == REROLL:
            return self.choose_reroll(state, model, player, weights, legal)
        if phase == HARBOR:
            plain = model.outcome(player, state.total)
            plus = model.outcome(player, state.total + 2)
            return ADD2 if _dot(weights, plus) > _dot(weights, plain) else NOADD
        if phase == TV_PHASE:
            # Take from the richest rival (ties: the lowest seat).
            return max(legal, key=lambda a: (min(5, state.coins[a.target]), -a.target))
        if phase == BUSINESS:
            return self.choose_swap(state, player, legal)
        return legal[0]

    # -- finishing this turn ----------------------------------------------------------------------
    @staticmethod
    def last_cost(state: MachiKoroState, player: int) -> int | None:
        """The price of my last missing landmark, or None while more than one is missing."""
        t = state.t
        left = [j for j in t.buildable_landmarks if not state.lm[player] >> j & 1]
        return t.landmark_cost[left[0]] if len(left) == 1 else None

    @staticmethod
    def finishing_outcome(
        model: Model, player: int, roll: int, weights: list[float], cost: int
    ) -> list[float]:
        """final_outcome, except that the Harbor +2 goes whichever way reaches ``cost`` coins."""
        plain = model.outcome(player, roll)
        if roll >= 10 and model.lm[player] & HARBOR_LM:
            plus = model.outcome(player, roll + 2)
            have = model.coins[player]
            reach_plain, reach_plus = have + plain[player] >= cost, have + plus[player] >= cost
            if reach_plain != reach_plus:
                return plus if reach_plus else plain
            if _dot(weights, plus) > _dot(weights, plain):
                return plus
        return plain

    def p_finish(
        self, model: Model, player: int, dist: tuple[tuple[int, float], ...], weights: list[float], cost: int
    ) -> float:
        have = model.coins[player]
        return sum(
            p
            for roll, p in dist
            if have + self.finishing_outcome(model, player, roll, weights, cost)[player] >= cost
        )

    def choose_to_finish(
        self,
        state: MachiKoroState,
        model: Model,
        player: int,
        weights: list[float],
        legal: list[Any],
        cost: int,
    ) -> Any | None:
        """Dice, re-roll or Harbor choice when this roll may pay for my last landmark (None: no chance)."""
        phase = state.phase
        have = model.coins[player]
        if phase == HARBOR:
            plain = have + model.outcome(player, state.total)[player] >= cost
            plus = have + model.outcome(player, state.total + 2)[player] >= cost
            return (ADD2 if plus else NOADD) if plain != plus else None
        if phase == ROLL:
            options = [(ROLL1, ONE)] + ([(ROLL2, TWO)] if ROLL2 in legal else [])
            chance = {a: self.p_finish(model, player, d, weights, cost) for a, d in options}
            if max(chance.values()) <= 0:
                return None
            lm = state.lm[player]
            best: Any  # a roll here, the keep or a reroll below
            best, best_val = None, -1e18
            for action, dist in options:
                p = chance[action]
                if lm & RADIO:  # a miss may be rolled again (with either count, if the rules allow)
                    again = p if model.radio_same or not lm & STATION else max(chance.values())
                    p += (1 - p) * again
                val = self.finish_bonus * p + _dot(weights, model.expected(player, dist, weights))
                if val > best_val:
                    best, best_val = action, val
            return best
        keep = self.finishing_outcome(model, player, state.total, weights, cost)
        if have + keep[player] >= cost:
            return KEEP
        best, best_val = KEEP, _dot(weights, keep)
        for action in legal:
            if action == KEEP:
                continue
            dist = TWO if action == REROLL2 else ONE
            p = self.p_finish(model, player, dist, weights, cost)
            val = self.finish_bonus * p + _dot(weights, model.expected(player, dist, weights))
            if val > best_val:
                best, best_val = action, val
        return best

    # -- the end-game race ------------------------------------------------------------------------
    def win_chance(
        self, model: Model, me: int, opp: int, left: list[int], opp_need: int, opp_left: int
    ) -> float:
        """Probability that I build my ``left`` landmarks (cheapest first, one per turn) before the
        rival's purse reaches ``opp_need`` over ``opp_left`` turns; it is my build phase now.

        The two purses are followed separately (their joint distribution would cost too much), each
        round being the rival's turn then mine; my turn's spread depends on the landmarks I have built
        by then. The rival is assumed to buy nothing but landmarks."""
        t = model.t
        costs = [t.landmark_cost[j] for j in left]
        stages = len(costs)
        mine_by: list[tuple[Dist, Dist]] = []
        theirs_by: list[tuple[Dist, Dist]] = []
        saved = model.lm[me]
        for j in left:
            mine_by.append(turn_spread(model, me, me, opp))
            theirs_by.append(turn_spread(model, opp, me, opp))
            model.lm[me] |= 1 << j
        model.lm[me] = saved
        cap = sum(costs)
        purse = [[0.0] * (cap + 1) for _ in range(stages)]
        purse[0][min(max(model.coins[me], 0), cap)] = 1.0
        rival = [0.0] * (opp_need + 1)
        rival[min(max(model.coins[opp], 0), opp_need)] = 1.0
        done = 0.0  # probability that the rival has already won
        win = 0.0
        open_ = 1.0  # probability that I have not finished yet
        for k in range(1, self.race_rounds + 1):
            for spread_by, index in ((theirs_by, 0), (mine_by, 1)):
                weights = [sum(v) for v in purse]
                for s in range(stages):
                    purse[s] = _shift(purse[s], spread_by[s][0], cap)
                rival = _shift(rival, _mix([spread_by[s][1] for s in range(stages)], weights), opp_need)
                if index == 0 and k >= opp_left:
                    # The rival's build phase: a full purse is a win once enough turns have passed.
                    done += rival[opp_need]
                    rival[opp_need] = 0.0
            finished = 0.0
            for s in range(stages - 1, -1, -1):
                vec = purse[s]
                cost = costs[s]
                for x in range(cost, cap + 1):
                    p = vec[x]
                    if p:
                        vec[x] = 0.0
                        if s == stages - 1:
                            finished += p
                        else:
                            purse[s + 1][x - cost] += p
            win += finished * (1.0 - done)
            open_ -= finished
            if open_ < 1e-4:
                break
        return win + self.race_tail * max(open_, 0.0) * (1.0 - done)

    def choose_race_build(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any | None:
        """The build (or pass) with the best win chance, in a two-player end game (None: not one)."""
        t = state.t
        if state.num_players != 2:
            return None
        left = sorted(
            (j for j in t.buildable_landmarks if not state.lm[player] >> j & 1),
            key=lambda j: t.landmark_cost[j],
        )
        if len(left) > self.race_left:
            return None
        opp = 1 - player
        opp_lm = [j for j in t.buildable_landmarks if not state.lm[opp] >> j & 1]
        opp_need = sum(t.landmark_cost[j] for j in opp_lm)
        model = Model(state, self.cap_floor)
        best, best_val = PASS, self.win_chance(model, player, opp, left, opp_need, len(opp_lm))
        for action in legal:
            if action == PASS:
                continue
            val = self.race_build_value(model, player, opp, action, left, opp_need, len(opp_lm))
            if val == WINS:
                return action
            if val > best_val:
                best, best_val = action, val
        return best

    def race_build_value(
        self, model: Model, player: int, opp: int, action: Any, left: list[int], opp_need: int, opp_left: int
    ) -> float:
        """The two-player end game's win chance after a build (not PASS), tried on the scratch
        ``model`` and undone; ``WINS`` for the last landmark (search_model.expert_build_scores too).
        Tries the build as build_value (below) does on purpose: each values it its own way."""
        t = model.t
        j = LANDMARK_INDEX.get(action.card, -1)
        if j >= 0:
            if len(left) == 1:
                return WINS  # the last landmark wins at once
            model.lm[player] |= 1 << j
            model.coins[player] -= t.landmark_cost[j]
            rest = [x for x in left if x != j]
            val = self.win_chance(model, player, opp, rest, opp_need, opp_left)
            model.lm[player] &= ~(1 << j)
            model.coins[player] += t.landmark_cost[j]
            # A landmark wins a tie: once the chance is sure either way (1 or 0) every move ties,
            # and an expert keeping its coins would never finish a game it has won; against a rival
            # that also waits (a stalling search bot, an idle player) the game went on for ever.
            return val + RACE_PROGRESS
        idx = ESTABLISHMENT_INDEX[action.card]
        model.cards[player][idx] += 1
        model.coins[player] -= t.cost[idx]
        val = self.win_chance(model, player, opp, left, opp_need, opp_left)
        model.cards[player][idx] -= 1
        model.coins[player] += t.cost[idx]
        return val

    # -- evaluation -------------------------------------------------------------------------------
    def coin_weights(self, model: Model, player: int) -> list[float]:
        """What a coin in each purse is worth to me: 1 in mine, -w_opp shared among the rivals."""
        return [1.0 if q == player else -self.w_opp / (model.n - 1) for q in range(model.n)]

    def gain(self, model: Model, player: int, base: list[float]) -> float:
        """How much my income per round grows against ``base``, less w_opp times what the rivals' grows."""
        rate = model.rates()
        shift = sum(rate[q] - base[q] for q in range(model.n) if q != player)
        return rate[player] - base[player] - self.w_opp * shift

    def race(self, model: Model, player: int, base: list[float], gain: float) -> float:
        """Minus the rounds I need to pay for my landmarks, at my base income plus ``gain``."""
        need = model.need(player) - model.coins[player]
        if need <= 0:
            return 0.0
        return -need / max(base[player] + gain + self.rate_add, self.rate_floor)

    def denial(self, model: Model, state: MachiKoroState, player: int, idx: int, base: list[float]) -> float:
        """Credit for taking a copy of establishment ``idx`` from its pile: ``w_opp * deny`` times the
        income one more copy would add for the rival collecting it who gains most, over the copies
        left (the fewer left, the surer the rival is kept short)."""
        if model.t.cards[idx].color not in self.deny_colors:
            return 0.0
        left = state.supply[idx]
        if left <= 0:
            return 0.0
        best = 0.0
        for q in range(model.n):
            if q == player or model.cards[q][idx] < self.deny_owned:
                continue
            model.cards[q][idx] += 1
            rate = model.rates()
            model.cards[q][idx] -= 1
            best = max(best, rate[q] - base[q])
        return self.w_opp * self.deny * best / left

    # -- decisions --------------------------------------------------------------------------------
    def choose_reroll(
        self, state: MachiKoroState, model: Model, player: int, weights: list[float], legal: list[Any]
    ) -> Any:
        keep = _dot(weights, model.final_outcome(player, state.total, weights))
        best, best_val = KEEP, keep
        for action in legal:
            if action == KEEP:
                continue
            dist = TWO if action == REROLL2 else ONE
            val = _dot(weights, model.expected(player, dist, weights))
            if val > best_val:
                best, best_val = action, val
        return best

    def choose_swap(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        model = Model(state, self.cap_floor)
        base = model.rates()
        best: Any  # NOSWAP or a Swap
        best, best_val = NOSWAP, 0.3  # a swap must move a little income to be worth doing
        cards = model.cards
        for action in legal:
            if type(action) is not Swap:
                continue
            mine, target, theirs = (
                ESTABLISHMENT_INDEX[action.mine],
                action.seat,
                ESTABLISHMENT_INDEX[action.theirs],
            )
            cards[player][mine] -= 1
            cards[player][theirs] += 1
            cards[target][theirs] -= 1
            cards[target][mine] += 1
            val = self.gain(model, player, base)
            cards[player][mine] += 1
            cards[player][theirs] -= 1
            cards[target][theirs] += 1
            cards[target][mine] -= 1
            if val > best_val:
                best, best_val = action, val
        return best

    def choose_build(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        """The build (or pass) after which my race is shortest, each build tried on a scratch model."""
        race = self.choose_race_build(state, player, legal)
        if race is not None:
            return race
        model = Model(state, self.cap_floor)
        base = model.rates()
        best, best_val = PASS, self.race(model, player, base, 0.0)
        if best_val < 0:
            # Not at 0, where the purse already pays for every landmark: every value is then 0 but
            # a landmark's small ``landmark_eps``, and a larger ``pass_eps`` would keep the coins for ever.
            best_val += self.pass_eps
        # The same best-of loop as the race's (above) on purpose: each scores builds its own way.
        for action in legal:
            if action == PASS:
                continue
            val = self.build_value(model, state, player, action, base)
            if val == WINS:
                return action
            if val > best_val:
                best, best_val = action, val
        return best

    def build_value(
        self, model: Model, state: MachiKoroState, player: int, action: Any, base: list[float]
    ) -> float:
        """The race value of a build (not PASS), tried on the scratch ``model`` and undone; ``WINS``
        for the landmark that wins at once (search_model.expert_build_scores uses it too). Tries the
        build as race_build_value (above) does on purpose: each values it its own way."""
        t = model.t
        j = LANDMARK_INDEX.get(action.card, -1)
        if j >= 0:
            model.lm[player] |= 1 << j
            if model.lm[player] & t.victory_mask == t.victory_mask:
                model.lm[player] &= ~(1 << j)
                return WINS
            model.coins[player] -= t.landmark_cost[j]
            # Every landmark must be paid for some day: one never counts as a loss of income.
            gain = self.card_mult.get(action.card, 1.0) * max(self.gain(model, player, base), 0.0)
            val = self.race(model, player, base, gain) + self.landmark_eps
            model.coins[player] += t.landmark_cost[j]
            model.lm[player] &= ~(1 << j)
            return val
        idx = ESTABLISHMENT_INDEX[action.card]
        denied = self.denial(model, state, player, idx, base) if self.deny else 0.0
        model.cards[player][idx] += 1
        model.coins[player] -= t.cost[idx]
        gain = self.card_mult.get(t.codes[idx], 1.0) * self.gain(model, player, base) + denied
        val = self.race(model, player, base, gain)
        model.cards[player][idx] -= 1
        model.coins[player] += t.cost[idx]
        return val
