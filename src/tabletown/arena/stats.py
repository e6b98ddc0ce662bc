"""Summaries of an arena job: win rates with Wilson intervals, openskill ratings, scores, seats, lengths.

A game shared by several winners gives each of them ``1 / winners`` of a win, so the win rates of a
job's bots add up to one game per game; the Wilson interval treats that credit as binomial successes.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a proportion; (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def entry_labels(bots: Sequence[str]) -> list[str]:
    """Bot names, made unique when one bot plays several seats (``greedy``, ``greedy#2``)."""
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return labels


def win_credit(result: dict[str, Any], seat: int) -> float:
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def summarize(bots: Sequence[str], lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Everything the report shows, from game records (taken in index order)."""
    lines = sorted(lines, key=lambda line: line["index"])
    players = len(bots)
    labels = entry_labels(bots)
    wins = [0.0] * players
    games = [0] * players
    scores: list[list[float]] = [[] for _ in range(players)]
    ranks: list[list[int]] = [[] for _ in range(players)]
    longest = [0.0] * players
    think = [0.0] * players
    seat_wins = [0.0] * players
    capped = [0] * players
    for line in lines:
        result = line["result"]
        for seat, entry in enumerate(line["entries"]):
            credit = win_credit(result, seat)
            wins[entry] += credit
            seat_wins[seat] += credit
            games[entry] += 1
            scores[entry].append(result["scores"][seat])
            ranks[entry].append(result["ranks"][seat])
            timing = line.get("timing") or {}
            if timing:
                longest[entry] = max(longest[entry], timing["longest_decision"][seat])
                think[entry] += timing["think"][seat]
                capped[entry] += timing.get("capped", [0] * players)[seat]
    ratings = openskill_ratings(players, lines)
    total = len(lines)
    lengths = [line["length"] for line in lines]
    return {
        "games": total,
        "bots": [
            {
                "bot": labels[entry],
                "games": games[entry],
                "wins": wins[entry],
                "win_rate": wins[entry] / games[entry] if games[entry] else 0.0,
                "ci95": wilson(wins[entry], games[entry]),
                "rating_mu": ratings[entry][0],
                "rating_sigma": ratings[entry][1],
                "rating": ratings[entry][0] - 3 * ratings[entry][1],
                "avg_score": statistics.fmean(scores[entry]) if scores[entry] else 0.0,
                "avg_rank": statistics.fmean(ranks[entry]) if ranks[entry] else 0.0,
                "longest_decision_s": longest[entry],
                "think_s_per_game": think[entry] / games[entry] if games[entry] else 0.0,
                "capped_decisions": capped[entry],
            }
            for entry in range(players)
        ],
        "seats": [
            {
                "seat": seat,
                "games": total,
                "wins": seat_wins[seat],
                "win_rate": seat_wins[seat] / total if total else 0.0,
                "ci95": wilson(seat_wins[seat], total),
            }
            for seat in range(players)
        ],
        "length": {
            "mean": statistics.fmean(lengths) if lengths else 0.0,
            "median": statistics.median(lengths) if lengths else 0.0,
            "min": min(lengths, default=0),
            "max": max(lengths, default=0),
        },
    }


def openskill_ratings(players: int, lines: Sequence[dict[str, Any]]) -> list[tuple[float, float]]:
    """Plackett-Luce ratings (mu, sigma) per bot, updated game by game in index order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(players)]
    if players < 2:  # a solo job (one seat against the game itself): nothing to rate against
        return [(r.mu, r.sigma) for r in ratings]
    for line in lines:
        entries = line["entries"]
        teams = [[ratings[entry]] for entry in entries]
        rated = model.rate(teams, ranks=list(line["result"]["ranks"]))
        for seat, entry in enumerate(entries):
            ratings[entry] = rated[seat][0]
    return [(r.mu, r.sigma) for r in ratings]
