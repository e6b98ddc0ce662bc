"""``bot:search`` settings for Welcome To New Las Vegas (tabletown.bots.search): no ``heuristic()``, so
rollouts run to the end, with random moves (a greedy or expert game costs about a second); the
expert is left only for a paired advantage of 2.5 standard errors, as in Multicity and Lords of Vegas."""

from __future__ import annotations

SEARCH_TUNING = {
    "easy": {"policy": "random", "rollouts": 30, "margin": 2.5},
    "medium": {"policy": "random", "rollouts": 80, "margin": 2.5},
    "hard": {"policy": "random", "rollouts": 150, "margin": 2.5},
}
