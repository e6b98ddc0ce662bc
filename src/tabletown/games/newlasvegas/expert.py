"""The expert bot: a whole-round search with a tuned, longer-sighted evaluation of its sheet.

Like greedy it plans one round at a time, but it searches the round's steps (pick, casino, copy,
effect) jointly instead of one at a time, and its evaluation looks further ahead: street bonuses
against the other architects' public chains, progress towards the three projects, the golf holes
still reachable, the opening ranking and how close the game is to its end. The weights in
``WEIGHTS`` were tuned by paired arena games against greedy (docs/games/newlasvegas.md).

It reads only its own sheet, the public sheets of the others (as they were at the start of the
round) and the public cards, so it never uses hidden information.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any

from ...core.game import Bot, State
from .bots import phase_choice
from .data import (
    ARCHITECTS,
    AVENUE_SLOTS,
    CARD_EFFECT,
    CARPET_MASK,
    CRANE_MASK,
    CRANE_SLOTS,
    NUM_AVENUES,
    NUM_STREETS,
    OPEN_PLACES,
    PAR_COUNT,
    PROJECT_BY_ID,
    SHOW_VALUES,
    SLOT_AVENUE,
    SLOT_CRANE,
    SLOT_HOLES,
    STAR_SLOTS,
    STREET_CARPETS,
    STREET_CRANES,
    STREET_RANGE,
    STREET_STARS,
    TRACK_LENGTH,
    UPGRADE_BOXES,
    UPGRADE_INDEX,
    UPGRADE_VALUES,
)
from .heuristics import fillable_street
from .sheet import EMPTY, GRAND, NO_HOTEL, Sheet, project_met
from .state import NewLasVegasState
from .steps import DONE, OPEN, PICK, Turn

# Tuned weights (see the module docstring).
WEIGHTS: dict[str, float] = {
    "good": 0.8,  # an empty casino that can still take a number
    "dead": 3.0,  # an empty casino that never can
    "run": 1.2,  # each casino of a street's longest chain
    "bonus": 1.2,  # the street bonus times the chance of having the longest chain
    "star": 0.5,  # a show column with room left
    "hotel_grand": 5.0,  # an avenue on its way to a grand hotel (times its completion squared)
    "hotel_small": 1.0,
    "golf": 0.9,  # holes built, times their PAR value
    "golf_open": 0.35,  # holes still reachable, times their PAR value
    "carpet": 3.0,  # opened VIP / Luxury casinos passed by the limousine
    "carpet_passed": 1.0,
    "limo": 1.0,  # missing limousine segments (times the negative limousine value)
    "proj_met": 6.0,
    "proj_progress": 0.35,  # a project's points times its progress squared
    "marks": 0.6,
    "upgrade": 2.0,
    "debt": 4.0,
    "cranes": 0.3,
    "star_open": 0.0,  # each empty star casino
    "keep": 4,  # casinos kept per pick for the full search of copies and effects
    "rank": 1.0,  # the opening ranking's gap times the chance of coming first
    "horizon": 16.0,  # rounds left below which promises fade (0: never)
    "pace": 2.1,  # rounds per opening box still to mark, for the leader
    "acme": 1.0,  # solo: ACME's projected points (what the card given to it adds, hotels denied)
}


_STREET_MASKS = [sum(1 << s for s in range(a, b)) for a, b in STREET_RANGE]
# Per street (its numbers and built cranes): its chains and its (fillable, dead) slots. A search's
# sheets differ from each other in one or two streets, so most lookups hit. Read-only values.
_STREET_CACHE: dict[tuple[int, ...], tuple[list[tuple[int, int, bool, bool]], int, int, int]] = {}


def _streets(sh: Sheet) -> list[tuple[list[tuple[int, int, bool, bool]], int, int, int]]:
    """Per street: its chains, its (fillable, dead) slots and its longest chain."""
    nums, built = sh.nums, sh.built
    out = []
    for st, (a, b) in enumerate(STREET_RANGE):
        key = (st, built & _STREET_MASKS[st], *nums[a:b])
        hit = _STREET_CACHE.get(key)
        if hit is None:
            if len(_STREET_CACHE) > 200_000:
                _STREET_CACHE.clear()
            good, dead = fillable_street(nums, built, a, b)
            runs = sh.runs(st)
            hit = _STREET_CACHE[key] = (runs, good, dead, max((r[0] for r in runs), default=0))
        out.append(hit)
    return out


def _chains(sh: Sheet) -> list[list[tuple[int, int, bool, bool]]]:
    return [street[0] for street in _streets(sh)]


def _opp_runs(others: list[Sheet]) -> list[int]:
    return [max((o.longest_run(st) for o in others), default=0) for st in range(NUM_STREETS)]


# Chance of keeping the longest chain of a street, by (my chain - best other chain), clipped to +-2.
_BONUS_CHANCE = {-2: 0.1, -1: 0.3, 0: 0.6, 1: 0.8, 2: 0.92}


def _chance(d: float) -> float:
    """``_BONUS_CHANCE`` for a fractional difference (ACME's projected chain or opening count)."""
    d = max(-2.0, min(2.0, d))
    lo = math.floor(d)
    if lo == d:
        return _BONUS_CHANCE[int(d)]
    return _BONUS_CHANCE[lo] + (d - lo) * (_BONUS_CHANCE[lo + 1] - _BONUS_CHANCE[lo])


# Solo: the share of each effect among the casino cards (what ACME's pile grows by per round).
_EFFECT_SHARE = {"op": 16 / 81, "con": 16 / 81, "up": 17 / 81, "show": 16 / 81, "limo": 16 / 81}
_REPEAT_SHARE = sum(p * p for p in _EFFECT_SHARE.values())


def _at_least(have: int, need: int, rounds: int, p: float) -> float:
    """P(have + Binomial(rounds, p) >= need): will ACME's pile reach an upgrade threshold?"""
    k = need - have
    if k <= 0:
        return 1.0
    if k > rounds:
        return 0.0
    return sum(math.comb(rounds, i) * p**i * (1 - p) ** (rounds - i) for i in range(k, rounds + 1))


def acme_projection(
    architect: int, pile: list[str], given: str | None, rounds: float, hotels: float
) -> tuple[float, float, float, float, float]:
    """ACME's expected final points if card effect ``given`` joins its pile now and ``rounds`` more
    rounds each add a random card: (points without the street bonuses, projected chain length, the
    street bonus value, projected opening cards, the hotel value).

    The upgrade thresholds make one upgrade card worth much more just below a threshold; the
    construction cards set its chain in every street; a card repeating the pile's top one is a hole.
    """
    card = ARCHITECTS[architect]
    effects = [*pile, given] if given else list(pile)
    n = {e: effects.count(e) + rounds * share for e, share in _EFFECT_SHARE.items()}
    r = max(0, round(rounds))
    ups = effects.count("up")
    values = [
        b + (u - b) * _at_least(ups, t, r, _EFFECT_SHARE["up"])
        for b, u, t in zip(card["base"], card["upgraded"], card["thresholds"], strict=True)
    ]
    run = max(1.0, n["con"] + card["crane"])
    holes = sum(1 for a, b in zip(effects, effects[1:], strict=False) if a == b) + rounds * _REPEAT_SHARE
    points = (
        n["op"] * values[0]
        + n["show"] * values[1]
        + hotels * values[2]
        + NUM_STREETS * run
        + holes * values[4]
        + n["limo"] * values[5]
    )
    return points, run, values[3], n["op"], values[2]


def _hotel_run(sh: Sheet, grand_only: bool) -> int:
    best = cur = 0
    for h in sh.hotels:
        ok = h == GRAND if grand_only else h != NO_HOTEL
        cur = cur + 1 if ok else 0
        best = max(best, cur)
    return best


def _avenue_share(sh: Sheet, a: int) -> float:
    slots = AVENUE_SLOTS[a]
    return sum(1 for s in slots if sh.nums[s] >= 0) / len(slots)


def _cranes_done(sh: Sheet, mask: int) -> int:
    return sum(1 for s in CRANE_SLOTS if mask >> s & 1 and sh.built >> s & 1) + sum(
        1 for s in CRANE_SLOTS if mask >> s & 1 and sh.nums[s] >= 0
    )


_SLOT_AV = [a - 1 for a in SLOT_AVENUE]
# Each avenue's size and a getter of its slots' numbers; the star casinos' numbers; PAR columns.
_AVENUES = tuple((len(slots), itemgetter(*slots)) for slots in AVENUE_SLOTS)
_STAR_NUMBERS = itemgetter(*STAR_SLOTS)
_PAR_COLUMN = {p: f"par{p}" for p in (3, 4, 5)}
_AV_SIZE = [len(slots) for slots in AVENUE_SLOTS]
_AV_EDGE_CRANES = sum(1 << s for s in CRANE_SLOTS if SLOT_AVENUE[s] in (1, NUM_AVENUES))
_PAR4_SLOTS = [s for s in range(STREET_RANGE[0][0], STREET_RANGE[0][1]) if 4 in SLOT_HOLES[s]]
_ALL_HOLES = sum(PAR_COUNT.values())


def project_progress(pid: str, sh: Sheet, chains: list[list[tuple[int, int, bool, bool]]]) -> float:
    """A rough 0..1 measure of how far the sheet is towards a project's condition."""
    if pid[0] == "H":
        grands, smalls = sh.hotel_counts()
        if pid == "H1":
            return grands / 3
        if pid == "H2":
            return smalls / 5
        if pid == "H3":
            return (grands + smalls) / 7
        if pid == "H4":
            return _hotel_run(sh, True) / 2
        if pid == "H5":
            return _hotel_run(sh, False) / 4
        if pid == "H6":
            return (max(_avenue_share(sh, 0), 0.0) + _avenue_share(sh, NUM_AVENUES - 1)) / 2
        return sh.unused_marks() / 10
    if pid[0] == "S":
        flat = [r for rs in chains for r in rs]
        if pid == "S1":
            return max((n for n, par, _, _ in flat if par == 0), default=0) / 6
        if pid == "S2":
            return max((n for n, par, _, _ in flat if par == 1), default=0) / 7
        if pid == "S3":
            odd = sorted((min(n, 4) for n, par, _, _ in flat if par == 1), reverse=True)
            return sum(odd[:2]) / 8 if sum(n // 4 for n, par, _, _ in flat if par == 1) < 2 else 1.0
        if pid == "S4":
            return max((n for n, par, f, la in flat if par == 0 and (f or la)), default=0) / 5
        if pid == "S5":
            shares = []
            for a, b in STREET_RANGE:
                built = [s for s in range(a, b) if not SLOT_CRANE[s] or sh.built >> s & 1]
                shares.append(sum(1 for s in built if sh.nums[s] >= 0) / len(built))
            shares.sort(reverse=True)
            return (shares[0] + shares[1]) / 2
        if pid == "S6":
            return sum(1 for m in CARPET_MASK.values() if sh.carpets & m) / 3
        return sum(1 for m in STREET_CARPETS if sh.carpets & m) / 4
    if pid == "C1":
        return _cranes_done(sh, _AV_EDGE_CRANES) / (2 * bin(_AV_EDGE_CRANES).count("1"))
    if pid == "C2":
        shares = sorted((_cranes_done(sh, m) / (2 * bin(m).count("1")) for m in STREET_CRANES), reverse=True)
        return (shares[0] + shares[1]) / 2
    if pid == "C3":
        return sum(1 for s in CRANE_SLOTS if sh.built >> s & 1) / len(CRANE_SLOTS)
    if pid == "C4":
        best = 0.0
        for cm, sm in zip(STREET_CRANES, STREET_STARS, strict=True):
            need = 2 * bin(cm).count("1") + bin(sm).count("1")
            best = max(best, (_cranes_done(sh, cm) + bin(sh.star_ok & sm).count("1")) / need)
        return best
    if pid == "C5":
        return (min(sh.shows[0], 3) + min(sh.shows[1], 3)) / 6
    if pid == "C6":
        stars = STREET_STARS[0]
        return (len(sh.holes()) / _ALL_HOLES + bin(sh.star_ok & stars).count("1") / bin(stars).count("1")) / 2
    return sum(1 for s in _PAR4_SLOTS if s in range(max(sh.golf_l, 0), sh.golf_r + 1)) / len(_PAR4_SLOTS)


def _golf_reachable(sh: Sheet) -> list[int]:
    """PAR values of the holes not built yet that the course could still grow to."""
    a, b = STREET_RANGE[0]
    if sh.golf_l < 0:
        return [p for s in range(a, b) for p in SLOT_HOLES[s]]
    out: list[int] = []
    if not sh.golf_lb:
        for s in range(sh.golf_l - 1, a - 1, -1):
            if sh.nums[s] >= 0:
                break
            out.extend(SLOT_HOLES[s])
    if not sh.golf_rb:
        for s in range(sh.golf_r + 1, b):
            if sh.nums[s] >= 0:
                break
            out.extend(SLOT_HOLES[s])
    return out


def _value(sh: Sheet, col: str) -> int:
    return UPGRADE_VALUES[col][sh.ups[UPGRADE_INDEX[col]]]


def evaluate(sh: Sheet, ctx: dict[str, Any], w: dict[str, float], acme: int = -1) -> float:
    """The sheet's worth; solo, minus what ACME is projected to score when it gets hand card ``acme``.

    The sheet's part is memoised per decision (``ctx["memo"]``): the search meets the same sheet
    through several picks (solo: two effect cards, or two cards of the same effect)."""
    memo = ctx.get("memo")
    key = sh.key()
    hit = memo.get(key) if memo is not None else None
    if hit is None:
        hit = _evaluate_sheet(sh, ctx, w)
        if memo is not None:
            memo[key] = hit
    value, runs, unused = hit
    if ctx["multi"] or acme < 0:
        return value
    points, run, street_value, opens, hotel_value = ctx["acme"][acme]
    value -= w["acme"] * points
    bonus = _value(sh, "street")
    for mine in runs:
        if mine > 0:
            # Ties share: each side gets its bonus where its chain is at least the other's.
            value += w["bonus"] * bonus * _chance(mine - run)
        value -= w["acme"] * street_value * _chance(run - mine)
    if w["rank"]:
        places = OPEN_PLACES[min(sh.ups[UPGRADE_INDEX["open"]], len(OPEN_PLACES) - 1)]
        value += w["rank"] * (places[0] - places[1]) * _chance(unused - opens)
    # Hotels ACME will build on its next approvals unless this sheet has them first.
    threat = ctx["acme_avenues"]
    if threat:
        fade = ctx["fade"]
        for a in range(NUM_AVENUES):
            if threat >> a & 1:
                if sh.hotels[a]:
                    value += w["acme"] * hotel_value
                else:
                    value += fade * w["acme"] * hotel_value * ctx["avenue_share"](sh, a) ** 2
    return value


def _evaluate_sheet(sh: Sheet, ctx: dict[str, Any], w: dict[str, float]) -> tuple[float, list[int], int]:
    """The sheet's own worth, its longest chain per street and its unused opening boxes."""
    value = 0.0
    streets = _streets(sh)
    good = sum(street[1] for street in streets)
    dead = sum(street[2] for street in streets)
    fade = ctx["fade"]  # promises are worth less as the end draws near
    value += fade * (w["good"] * good - w["dead"] * dead)
    chains = [street[0] for street in streets]
    opp = ctx["opp_runs"]
    bonus = _value(sh, "street")
    runs = []
    for st in range(NUM_STREETS):
        mine = streets[st][3]
        runs.append(mine)
        value += w["run"] * mine
        if mine > 0 and ctx["multi"]:
            d = max(-2, min(2, mine - opp[st]))
            value += w["bonus"] * bonus * _BONUS_CHANCE[d]
    value += sum(sh.show_points())
    room = sum(len(SHOW_VALUES[c]) - sh.shows[c] for c in range(2))
    for c in range(2):
        if sh.shows[c] < len(SHOW_VALUES[c]):
            value += w["star"] * fade
    if room and w["star_open"]:
        # Star casinos still empty are the only way to future shows.
        value += fade * w["star_open"] * _STAR_NUMBERS(sh.nums).count(EMPTY)
    grands, smalls = sh.hotel_counts()
    value += grands * _value(sh, "grand") + smalls * _value(sh, "small")
    taken = ctx["grand_taken"]
    hotels, nums = sh.hotels, sh.nums
    for a in range(NUM_AVENUES):
        if hotels[a]:
            continue
        size, numbers = _AVENUES[a]
        worth = w["hotel_grand"] if not taken >> a & 1 else w["hotel_small"]
        value += fade * worth * ((size - numbers(nums).count(EMPTY)) / size) ** 2
    if ctx["golf"]:
        value += sum(_value(sh, _PAR_COLUMN[p]) for p in sh.holes()) * w["golf"]
        value += sum(_value(sh, _PAR_COLUMN[p]) for p in _golf_reachable(sh)) * w["golf_open"] * fade
    value += w["carpet"] * (sh.opened_carpets("vip") + sh.opened_carpets("luxury"))
    value += w["carpet_passed"] * bin(sh.carpets).count("1")
    value += sh.segments_missing() * _value(sh, "limo") * w["limo"]
    if sh.route_done:
        value += 2.0
    value += sum(sh.proj)
    for k, pid in enumerate(ctx["projects"]):
        if sh.proj[k]:
            continue
        if project_met(pid, sh):
            value += w["proj_met"]
        else:
            card = PROJECT_BY_ID[pid]
            pts = card["points_later"] if ctx["approved"][k] else card["points_first"]
            prog = min(1.0, project_progress(pid, sh, chains))
            value += fade * w["proj_progress"] * pts * prog * prog
    unused = sh.unused_marks()
    value += w["marks"] * unused
    if ctx["multi"] and w["rank"]:
        places = OPEN_PLACES[min(sh.ups[UPGRADE_INDEX["open"]], len(OPEN_PLACES) - 1)]
        d = max(-2, min(2, unused - ctx["opp_unused"]))
        value += w["rank"] * (places[0] - places[1]) * _BONUS_CHANCE[d]
    value += w["upgrade"] * sum(map(min, sh.ups, UPGRADE_BOXES))
    spare = sh.vault + 2 - sh.open_loans()
    if spare < 0:
        value -= w["debt"] * -spare
    value += w["cranes"] * bin(sh.built & CRANE_MASK).count("1")
    return value, runs, unused


def _plan_key(state: NewLasVegasState, player: int, sh: Sheet, turn: Turn) -> tuple[Any, ...]:
    """What a round's plan was made for: the round's cards, this seat's sheet and its steps so far.

    A plan is only followed in exactly that position (not in another game or a search's other
    branch that happens to share the round number).
    """
    return (
        state.round_no,
        tuple(state.offers),
        tuple(state.hand),
        player,
        turn.stage,
        turn.i,
        turn.j,
        turn.bonus,
        turn.main,
        tuple(sh.nums),
        sh.built,
        sh.marks,
        sh.spent,
        sh.edges,
        sh.shows[0],
        sh.shows[1],
        tuple(sh.ups),
    )


class ExpertBot(Bot):
    name = "expert"

    def __init__(self, seed: int = 0, weights: dict[str, float] | None = None) -> None:
        super().__init__(seed)
        self.w = dict(WEIGHTS)
        self.plan: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None
        if weights:
            self.w.update(weights)

    # The same opening as GreedyBot.choose (bots.py) on purpose: each bot reads alone.
    def choose(self, state: State, player: int) -> Any:
        assert isinstance(state, NewLasVegasState)
        legal = state.legal_actions(player)
        fixed = phase_choice(state)
        if fixed is not None:
            return fixed
        # The rest of the round planned at its first step: follow it while it stays legal.
        key = _plan_key(state, player, state.sheets[player], state.turns[player])
        if self.plan and self.plan[0] == key:
            action = self.plan[1][0]
            if action in legal:
                rest = self.plan[1][1:]
                self.plan = (self._key_after(state, player, action), rest) if rest else None
                return action
        self.plan = None
        if len(legal) == 1:
            return legal[0]
        ctx = self._context(state, player)
        sh, turn = state.sheets[player], state.turns[player]
        best, best_value = None, float("-inf")
        for action in legal:
            s2, t2 = sh.copy(), turn.clone()
            state.play_step(s2, t2, action, record=False)
            value, path = self._search(state, s2, t2, ctx)
            value += self.rng.random() * 1e-3
            if value > best_value:
                best, best_value = (action, *path), value
        assert best is not None
        if len(best) > 1:
            self.plan = (self._key_after(state, player, best[0]), best[1:])
        return best[0]

    @staticmethod
    def _key_after(state: NewLasVegasState, player: int, action: Any) -> tuple[Any, ...]:
        """The plan key of this seat's next step once ``action`` is played."""
        sh, turn = state.sheets[player].copy(), state.turns[player].clone()
        state.play_step(sh, turn, action, record=False)
        return _plan_key(state, player, sh, turn)

    def _context(self, state: NewLasVegasState, player: int) -> dict[str, Any]:
        # Only public facts: the others' sheets as they stood at the start of this round.
        others = [state.public[q] for q in range(state.num_players) if q != player]
        ctx = {
            "projects": state.projects,
            "approved": state.approved,
            "golf": state.golf,
            "grand_taken": state.grand_taken,
            "multi": not state.solo,
            "opp_runs": _opp_runs(others),
            "opp_unused": max((o.unused_marks() for o in others), default=0),
            "fade": self._fade(state, player),
            "memo": {},
        }
        if state.solo:
            ctx.update(self._solo_context(state))
        return ctx

    def _solo_context(self, state: NewLasVegasState) -> dict[str, Any]:
        """What ACME will make of each hand card (public: its pile, its architect card, the cards)."""
        architect = state.options.get("architect", 1)
        card = ARCHITECTS[architect]
        sh = state.public[0]
        rounds = max(0.0, (TRACK_LENGTH - sh.marks) * self.w["pace"] - 1)
        pile = [CARD_EFFECT[c] for c in state.acme_pile]
        # Avenues of the approvals still to come; the ones drawn this round can no longer be denied.
        pending = len(state.pending_approvals)
        threat = 0
        for row in card["approvals"][state.acme_seen :]:
            for av in row["hotels"]:
                if not state.acme_hotels >> (av - 1) & 1 and not sh.hotels[av - 1]:
                    threat |= 1 << (av - 1)
        hotels = bin(state.acme_hotels).count("1") + bin(threat).count("1")
        for row in card["approvals"][state.acme_seen : state.acme_seen + pending]:
            for av in row["hotels"]:
                threat &= ~(1 << (av - 1))
        acme = [acme_projection(architect, pile, CARD_EFFECT[c], rounds, hotels) for c in state.hand]
        return {"acme": acme, "acme_avenues": threat, "avenue_share": _avenue_share}

    def _fade(self, state: NewLasVegasState, player: int) -> float:
        """1 while the game is far from its end, falling to 0 as the last opening box nears."""
        horizon = self.w["horizon"]
        if horizon <= 0:
            return 1.0
        marks = max(state.public[q].marks for q in range(state.num_players))
        return min(1.0, (TRACK_LENGTH - marks) * self.w["pace"] / horizon)

    def _search(
        self, state: NewLasVegasState, sh: Sheet, turn: Turn, ctx: dict[str, Any]
    ) -> tuple[float, tuple[Any, ...]]:
        """The best evaluation reachable by finishing the round from here, and the steps to it.

        Casinos (and picks) are pruned to the few that evaluate best right after the step.
        """
        if turn.stage >= DONE:
            return evaluate(sh, ctx, self.w, turn.acme), ()
        actions = state.step_actions(sh, turn)
        children = []
        for action in actions:
            s2, t2 = sh.copy(), turn.clone()
            state.play_step(s2, t2, action, record=False)
            children.append((action, s2, t2))
        keep = int(self.w["keep"])
        if turn.stage in (PICK, OPEN) and len(children) > keep:
            scored = sorted(
                ((evaluate(c[1], ctx, self.w, c[2].acme), k) for k, c in enumerate(children)),
                key=lambda x: -x[0],
            )
            children = [children[k] for _, k in scored[:keep]]
        best: tuple[float, tuple[Any, ...]] = (float("-inf"), ())
        for action, s2, t2 in children:
            value, path = self._search(state, s2, t2, ctx)
            if value > best[0]:
                best = (value, (action, *path))
        return best


__all__ = ["WEIGHTS", "ExpertBot", "acme_projection", "evaluate", "project_progress"]
