"""``bot:search`` settings for Multicity (tabletown.bots.search): no ``heuristic()``, so rollouts run to
the end, with random moves (greedy is twice as slow per game and the expert ten times). Random
play-outs judge placements far worse than the expert does, so leaving the expert's move takes a
paired advantage of 2.5 standard errors (a first run at 1.0 won 2 of 7 games)."""

from __future__ import annotations

SEARCH_TUNING = {
    "easy": {"policy": "random", "rollouts": 100, "top_k": 12, "margin": 2.5},
    "medium": {"policy": "random", "rollouts": 200, "top_k": 16, "margin": 2.5},
    "hard": {"policy": "random", "rollouts": 400, "top_k": 16, "margin": 2.5},
}

# Post-game analysis (tabletown.analysis): candidates judged by the expert playing every seat to the
# end. The learned model ranks Multicity's placements badly (a bot following it wins 7% against the
# expert) while the expert's own play-outs, anchored on its move, won 26 of 40 games against it;
# an expert game costs about 25 ms, so a two-player analysis stays within a minute.
ANALYSIS_TUNING = {"depth": -1, "samples": 8, "candidates": 6, "anchor_margin": 0.1}
