"""Arena statistics: Wilson intervals, labels, win credit, ratings, per-seat rates."""

from __future__ import annotations

import pytest

from tabletown.arena.stats import entry_labels, summarize, wilson


def test_wilson_interval_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(95, 100)
    assert low == pytest.approx(0.8882, abs=1e-4) and high == pytest.approx(0.9785, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_labels_tell_apart_one_bot_in_two_seats() -> None:
    assert entry_labels(["greedy", "mcts:hard", "greedy"]) == ["greedy", "mcts:hard", "greedy#2"]


def line(index: int, entries: list[int], ranks: list[int], scores: list[float], length: int) -> dict:
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return {
        "index": index,
        "entries": entries,
        "length": length,
        "result": {"ranks": ranks, "scores": scores, "winners": winners},
    }


def test_summary_counts_wins_seats_ties_and_lengths() -> None:
    lines = [
        line(0, [0, 1], [1, 2], [10, 3], 20),  # bot 0 wins from seat 0
        line(1, [1, 0], [2, 1], [4, 12], 30),  # bot 0 wins from seat 1
        line(2, [0, 1], [1, 1], [7, 7], 40),  # a tie: half a win each
        line(3, [1, 0], [1, 2], [9, 2], 10),  # bot 1 wins from seat 0
    ]
    summary = summarize(["a", "b"], list(reversed(lines)))
    a, b = summary["bots"]
    assert (a["bot"], a["games"], a["wins"]) == ("a", 4, 2.5)
    assert (b["bot"], b["wins"], b["win_rate"]) == ("b", 1.5, 0.375)
    assert a["avg_score"] == pytest.approx((10 + 12 + 7 + 2) / 4)
    assert a["avg_rank"] == pytest.approx(1.25)
    assert a["rating"] > b["rating"] and a["rating_mu"] > 25 > b["rating_mu"]
    assert [seat["wins"] for seat in summary["seats"]] == [2.5, 1.5]
    assert summary["length"] == {"mean": 25.0, "median": 25.0, "min": 10, "max": 40}
    assert a["ci95"] == wilson(2.5, 4)
