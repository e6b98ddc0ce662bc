"""``bot:search`` settings for Lords of Vegas (tabletown.bots.search): no ``heuristic()``, so rollouts
run to the end, with random moves (a greedy game costs about 20 times a random one). Random play-outs
judge moves far worse than the expert does, so leaving the expert's move takes a paired advantage of
2.5 standard errors (a first run at 1.0 won 2 of 9 games against the expert)."""

from __future__ import annotations

import math
import random
from typing import Any

from .actions import PASS, REFUSE, Gamble, Offer
from .data import NUM_CARDS
from .expert import values
from .phases import ACTION, MARKET, OFFER

SEARCH_TUNING = {
    "easy": {"policy": "random", "rollouts": 60, "margin": 2.5, "focus": False},
    "medium": {"policy": "random", "rollouts": 150, "margin": 2.5, "focus": False},
    "hard": {"policy": "random", "rollouts": 300, "margin": 2.5, "focus": False},
}


def searched(state: Any, seat: int) -> bool:
    """The main phase's choices (build, sprawl, remodel, reorganize, gamble, trade or end) are worth a
    search; the rest (which die goes where after a reorganization, a layoff, answering an offer) take
    the expert's move."""
    return bool(state.phase == ACTION)


# Post-game analysis (tabletown.analysis): the learned model judges, and another move is named better
# than the expert's only when the model gives it 15 points more: at 5 points a bot following the
# verdicts won 5 of 30 games against the expert (it left the expert's move at 39% of decisions), at
# 15 points 19 of 40 (9%). An expert play-out costs too much here for a minute's analysis.
ANALYSIS_TUNING = {"anchor_margin": 0.15}


class LeanPlayout:
    """A play-out policy as cheap as random play without its two costliest habits: random trades and
    random bets. In the main phase it picks uniformly among building, sprawling, remodeling,
    reorganizing and ending the turn; it refuses every offer and makes none at the market. Every
    other decision (a layoff, placing re-rolled dice, taking a die) is uniform, as in random play."""

    __slots__ = ("choice",)

    def __init__(self, rng: random.Random) -> None:
        self.choice = rng.choice

    def __call__(self, state: Any, seat: int) -> Any:
        legal = state.legal_actions(seat)
        phase = state.phase
        if phase == ACTION:
            plain = [a for a in legal if not isinstance(a, (Offer, Gamble))]
            return self.choice(plain or legal)
        if phase == OFFER and REFUSE in legal:
            return REFUSE
        if phase == MARKET and PASS in legal:
            return PASS
        return self.choice(legal)


# Play-out policies the search may name (``--set policy=lean``).
PLAYOUTS = {"lean": LeanPlayout}


# The "points" judge: the expert's estimate of final points (``expert.values``) read as a win chance,
# ``sigmoid(lead * (POINTS_W + POINTS_LATE_W * drawn))``, where ``lead`` is the seat's value minus the
# best rival's and ``drawn`` the share of the deck already drawn (a lead counts more as the end
# nears). Weights fitted on positions of expert games (``benchmarks/search_strength.py fit-points``).
POINTS_W = -0.012
POINTS_LATE_W = 0.072


def points_chance(state: Any, seat: int) -> float:
    """The seat's win chance by the expert's point estimate (see above)."""
    vals = values(state)
    lead = vals[seat] - max(v for q, v in enumerate(vals) if q != seat)
    drawn = 1.0 - len(state.deck) / NUM_CARDS
    return 1.0 / (1.0 + math.exp(-lead * (POINTS_W + POINTS_LATE_W * drawn)))


# Judges of a play-out stopped at the cut-off the search may name (``--set judge=points``).
JUDGES = {"points": points_chance}
