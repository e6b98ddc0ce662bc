"""``bot:search`` settings for Lords of Vegas (tabletown.bots.search): no ``heuristic()``, so rollouts
run to the end, with random moves (a greedy game costs about 20 times a random one). Random play-outs
judge moves far worse than the expert does, so leaving the expert's move takes a paired advantage of
2.5 standard errors (a first run at 1.0 won 2 of 9 games against the expert)."""

from __future__ import annotations

SEARCH_TUNING = {
    "easy": {"policy": "random", "rollouts": 60, "margin": 2.5},
    "medium": {"policy": "random", "rollouts": 150, "margin": 2.5},
    "hard": {"policy": "random", "rollouts": 300, "margin": 2.5},
}
