"""``bot:search`` settings for Welcome To New Las Vegas (tabletown.bots.search): no ``heuristic()``, so
rollouts run to the end, with random moves (a greedy or expert game costs about a second); the
expert is left only for a paired advantage of 2.5 standard errors, as in Multicity and Lords of Vegas."""

from __future__ import annotations

SEARCH_TUNING = {
    "easy": {"policy": "random", "rollouts": 30, "margin": 2.5},
    "medium": {"policy": "random", "rollouts": 80, "margin": 2.5},
    "hard": {"policy": "random", "rollouts": 150, "margin": 2.5},
}

# Post-game analysis (tabletown.analysis): the learned model judges, and another move is named better
# than the expert's only when the model gives it 15 points more (at 5 points a bot following the
# verdicts won 6 of 20 games against the expert, at 15 points 19.5 of 24). Expert play-outs cost
# about a third of a second a game here: far too slow for a minute's analysis.
ANALYSIS_TUNING = {"anchor_margin": 0.15}
