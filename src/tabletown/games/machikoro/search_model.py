"""What ``bot:search`` (tabletown.bots.search) knows about Machi Koro.

* ``outcomes``: its dice as explicit chance (``chance.py``).
* ``searched``: only build decisions are searched; dice, re-roll, Harbor, TV and swap choices take the
  expert's move (they move a few coins; a build shapes the rest of the game).
* ``value``: the cut-off value of a rollout, a win probability. The race estimate of the state's
  ``heuristic()`` (rounds still needed, mapped to ``1 / (1 + rounds / 5)``) is turned into the
  probability of winning by a logistic fit on positions of expert games: ``sigmoid(LEAD * lead +
  TEMPO * (1 if it is the seat's turn else -1))``, ``lead`` being the seat's race value minus the best
  rival's. Fitted by ``benchmarks/search_strength.py fit-value`` (see docs/bots.md).
* ``rank``: the legal builds ordered by the expert's own valuation, a prior for the candidates; used
  only with ``model_rank`` (off at every level: measured weaker, docs/bots.md).
"""

from __future__ import annotations

import math
from typing import Any

from .actions import PASS
from .chance import outcomes
from .expert import ExpertBot, Model
from .heuristics import turns_to_win
from .phases import BUILD
from .state import MachiKoroState

__all__ = ["ANCHORS", "LEAD", "SEARCH_TUNING", "TEMPO", "outcomes", "rank", "searched", "value"]

# Logistic fit on positions of 2-player expert games (benchmarks/search_strength.py fit-value).
LEAD = 10.8
TEMPO = 0.16


def race_values(state: MachiKoroState) -> list[float]:
    """Each seat's race value, as ``state.heuristic()``: 1 / (1 + rounds still needed / 5)."""
    return [1.0 / (1.0 + turns_to_win(state, seat) / 5.0) for seat in range(state.num_players)]


def win_logit(
    values: list[float], seat: int, current: int, lead: float = LEAD, tempo: float = TEMPO
) -> float:
    best_other = max(v for q, v in enumerate(values) if q != seat)
    return lead * (values[seat] - best_other) + (tempo if current == seat else -tempo)


def value(state: MachiKoroState, seat: int) -> float:
    """The probability that ``seat`` wins from here (an unfinished position)."""
    z = win_logit(race_values(state), seat, state.current)
    return 1.0 / (1.0 + math.exp(-z))


def searched(state: MachiKoroState, seat: int) -> bool:
    """Only build decisions are worth the search."""
    return state.phase == BUILD


# Hard was measured (docs/bots.md); easy and medium are the same search on smaller budgets. The
# candidates are the preset's 12, picked by the one-step heuristic: 5 picked by ``rank`` (the expert's
# own valuation) won 3.5 points less on the same 200 deals (docs/bots.md, row C).
_SEARCH = {"cutoff": 10, "verify": 0.5, "margin": 1.0, "model_rank": False}
SEARCH_TUNING = {
    "easy": {**_SEARCH, "rollouts": 40},
    "medium": {**_SEARCH, "rollouts": 80},
    # Two-player tables play the re-tuned anchor alone: on the same 1,000 deals the search on top of
    # it won 3.3 +- 1.2 points less than the anchor (docs/bots.md, "Re-tuned anchors").
    "hard": {**_SEARCH, "rollouts": 160, "max_seconds": 1.5, "anchor": "tuned", "min_players": 3},
}


class TunedExpertBot(ExpertBot):
    """The expert with three weights re-tuned against the expert itself in two-player games
    (``benchmarks/tune_expert.py``; docs/bots.md, "Re-tuned anchors"): its weights were found against
    greedy and the published strategies, and against a player like itself it should value the Wheat
    Field and the Ranch a little more (0.8 of the modelled income, not 0.5) and count on less income
    from later builds (``rate_add`` 2.5, not 4). It won 54.6% of 1,000 games against the expert on
    fresh deals. A small bias to building nothing (``pass_eps`` 0.02: a build must shorten the race
    a little more than nothing would) added 1.3 points on 1,500 fresh deals, paired (54.9% in all).
    ``expert`` itself is unchanged."""

    name = "expert-tuned"
    rate_add = 2.5
    pass_eps = 0.02
    card_mult = {**ExpertBot.card_mult, "wheat": 0.8, "ranch": 0.8}


def tuned_anchor(seed: int) -> Any:
    """The hard level's anchor: the re-tuned expert at two-player tables, the expert at larger ones
    (the weights were tuned for two; four-player search:hard was measured on the expert)."""
    from ...bots.search import ByPlayers

    return ByPlayers(seed, {2: TunedExpertBot}, ExpertBot)


# Bots the search may anchor on without the game offering them (tabletown.bots.search).
ANCHORS = {"tuned": tuned_anchor}


_EXPERT = ExpertBot(0)  # deterministic: its seed is never read


def rank(state: MachiKoroState, seat: int, legal: list[Any]) -> list[Any] | None:
    """Build decisions: the legal builds, best first by the expert's own valuation (the same numbers
    ``ExpertBot.choose_build`` maximises, so its move comes first); other decisions: None."""
    if state.phase != BUILD:
        return None
    scores = expert_build_scores(state, seat, legal)
    order = sorted(range(len(legal)), key=lambda i: (-scores[i], i))
    return [legal[i] for i in order]


def expert_build_scores(state: MachiKoroState, player: int, legal: list[Any]) -> list[float]:
    """``ExpertBot.choose_build``'s value of every legal build (higher is better): its end-game win
    chance in a two-player race with at most ``race_left`` landmarks left, its race estimate before."""
    bot = _EXPERT
    t = state.t
    left = sorted(
        (j for j in t.buildable_landmarks if not state.lm[player] >> j & 1), key=lambda j: t.landmark_cost[j]
    )
    model = Model(state, bot.cap_floor)
    scores: list[float] = []
    if state.num_players == 2 and len(left) <= bot.race_left:
        opp = 1 - player
        opp_lm = [j for j in t.buildable_landmarks if not state.lm[opp] >> j & 1]
        opp_need = sum(t.landmark_cost[j] for j in opp_lm)
        for action in legal:
            if action == PASS:
                scores.append(bot.win_chance(model, player, opp, left, opp_need, len(opp_lm)))
            else:
                scores.append(bot.race_build_value(model, player, opp, action, left, opp_need, len(opp_lm)))
        return scores
    base = model.rates()
    for action in legal:
        if action == PASS:
            scores.append(bot.race(model, player, base, 0.0))
        else:
            scores.append(bot.build_value(model, state, player, action, base))
    return scores
