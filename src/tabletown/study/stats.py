"""The study's tables, computed from game lines. Every table is a list of rows (dicts with a fixed
column order) so that it writes the same way to CSV, JSON and HTML.

Win credit: a game shared by several winners gives each ``1 / winners``. Intervals are 95% Wilson
intervals (``arena.stats.wilson``). Comparisons "against the field" are observed wins over expected
wins, where a seat's expected win is its bot's win rate in its own set-up — so a strong bot's habits
are not credited with its strength, and in a table of one bot the expectation is the fair share.
Item lifts are also stratified by game length (short, middle and long thirds of each set-up's
games), since a long game gives every seat more turns to use everything.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ..arena.stats import wilson
from .runner import Config

Row = dict[str, Any]
MID = 5  # the track point (of 0..10) where the mid-game leader is read
CHECKPOINTS = (3, 5, 7)


def r6(value: float) -> float:
    """Rounded for stable, readable files."""
    value = round(float(value), 6)
    return 0.0 if value == 0 else value


def game_rows(results: Sequence[tuple[Config, list[dict[str, Any]]]]) -> list[Row]:
    """Flatten (set-up, lines) into one record per game with everything the tables need."""
    rows = []
    for config, lines in results:
        for line in lines:
            study = line["study"]
            result = line["result"]
            winners = result["winners"]
            rows.append(
                {
                    "config": config.slug,
                    "label": config.label,
                    "players": config.players,
                    "options": config.options_text,
                    "lineup": config.lineup,
                    "index": line["index"],
                    "seed": line["seed"],
                    "bots": list(line["seats"]),
                    "winners": list(winners),
                    "ranks": list(result["ranks"]),
                    "scores": list(result["scores"]),
                    "credit": [1.0 / len(winners) if s in winners else 0.0 for s in range(config.players)],
                    "actions": line["length"],
                    "turns": study["turns"],
                    "open": study["open"],
                    "use": study["use"],
                    "track": study["track"],
                }
            )
    return rows


def _num_text(values: Sequence[float]) -> str:
    return "|".join(f"{v:g}" for v in values)


def games_table(rows: Sequence[Row]) -> list[Row]:
    """One row per game: set-up, seed, bots by seat, winners, scores, length, openings by seat."""
    features = sorted({name for row in rows for seat in row["open"] for name in seat})
    most = max((row["players"] for row in rows), default=0)
    table = []
    for row in rows:
        out: Row = {
            "config": row["config"],
            "players": row["players"],
            "options": row["options"],
            "index": row["index"],
            "seed": row["seed"],
            "bots": "|".join(row["bots"]),
            "winners": "|".join(str(s) for s in row["winners"]),
            "scores": _num_text(row["scores"]),
            "turns": row["turns"],
            "actions": row["actions"],
        }
        for seat in range(most):
            for name in features:
                opens = row["open"][seat] if seat < row["players"] else {}
                out[f"s{seat}_{name}"] = opens.get(name, "")
        table.append(out)
    return table


def seat_rows(rows: Sequence[Row]) -> list[Row]:
    """One row per seat of every game (bot, win credit, rank, score, openings, uses)."""
    table = []
    for row in rows:
        for seat in range(row["players"]):
            table.append(
                {
                    "config": row["config"],
                    "index": row["index"],
                    "seat": seat,
                    "bot": row["bots"][seat],
                    "win": r6(row["credit"][seat]),
                    "rank": row["ranks"][seat],
                    "score": row["scores"][seat],
                    "turns": row["turns"],
                    "openings": ";".join(f"{k}={v}" for k, v in sorted(row["open"][seat].items())),
                    "uses": ";".join(f"{k}={v}" for k, v in sorted(row["use"][seat].items())),
                }
            )
    return table


def _by_config(rows: Sequence[Row]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row["config"]].append(row)
    return groups


def _head(first: Row) -> Row:
    return {
        "config": first["config"],
        "players": first["players"],
        "lineup": first["lineup"],
        "options": first["options"],
    }


def seat_table(rows: Sequence[Row]) -> list[Row]:
    """Win rate by seat in every set-up: the first-player advantage. ``shared`` counts the set-up's
    games whose first place was shared (each winner then has 1/winners of a win): where identical
    bots often build the same game, it says how little the seat figures can tell."""
    table = []
    for games in _by_config(rows).values():
        n = len(games)
        players = games[0]["players"]
        shared = sum(1 for g in games if len(g["winners"]) > 1)
        for seat in range(players):
            wins = sum(g["credit"][seat] for g in games)
            low, high = wilson(wins, n)
            table.append(
                {
                    **_head(games[0]),
                    "seat": seat,
                    "games": n,
                    "wins": r6(wins),
                    "win_rate": r6(wins / n),
                    "ci_low": r6(low),
                    "ci_high": r6(high),
                    "fair": r6(1 / max(players, 2) if players == 1 else 1 / players),
                    "shared": shared,
                }
            )
    return table


def bot_rates(rows: Sequence[Row]) -> dict[tuple[str, str], float]:
    """(set-up, bot) -> the bot's win rate per seat it held there (the field's expectation)."""
    wins: dict[tuple[str, str], float] = defaultdict(float)
    seats: dict[tuple[str, str], int] = defaultdict(int)
    for row in rows:
        for seat, bot in enumerate(row["bots"]):
            wins[row["config"], bot] += row["credit"][seat]
            seats[row["config"], bot] += 1
    return {key: wins[key] / seats[key] for key in seats}


def bot_table(rows: Sequence[Row]) -> list[Row]:
    """Each bot's win rate by player count and rules, over every table it sat at."""
    wins: dict[tuple[int, str, str], float] = defaultdict(float)
    seats: dict[tuple[int, str, str], int] = defaultdict(int)
    configs: dict[tuple[int, str, str], set[str]] = defaultdict(set)
    for row in rows:
        for seat, bot in enumerate(row["bots"]):
            key = (row["players"], row["options"], bot)
            wins[key] += row["credit"][seat]
            seats[key] += 1
            configs[key].add(row["config"])
    table = []
    for key in sorted(seats):
        players, options, bot = key
        low, high = wilson(wins[key], seats[key])
        table.append(
            {
                "players": players,
                "options": options,
                "bot": bot,
                "tables": len(configs[key]),
                "seats": seats[key],
                "wins": r6(wins[key]),
                "win_rate": r6(wins[key] / seats[key]),
                "ci_low": r6(low),
                "ci_high": r6(high),
            }
        )
    return table


def _lift(observed: float, expected: float, n: int) -> tuple[float, float, float]:
    if expected <= 0 or n <= 0:
        return 0.0, 0.0, 0.0
    low, high = wilson(observed, n)
    scale = n / expected
    return r6(observed / expected), r6(low * scale), r6(high * scale)


def opening_table(rows: Sequence[Row], min_count: int = 1) -> list[Row]:
    """Win rate of every opening choice against the field, by player count, rules and bot."""
    rates = bot_rates(rows)
    n: dict[tuple, int] = defaultdict(int)
    wins: dict[tuple, float] = defaultdict(float)
    expected: dict[tuple, float] = defaultdict(float)
    for row in rows:
        for seat, bot in enumerate(row["bots"]):
            base = rates[row["config"], bot]
            for feature, value in row["open"][seat].items():
                key = (row["players"], row["options"], bot, feature, value)
                n[key] += 1
                wins[key] += row["credit"][seat]
                expected[key] += base
    table = []
    for key in sorted(n):
        if n[key] < min_count:
            continue
        players, options, bot, feature, value = key
        lift, low, high = _lift(wins[key], expected[key], n[key])
        table.append(
            {
                "players": players,
                "options": options,
                "bot": bot,
                "feature": feature,
                "value": value,
                "seats": n[key],
                "wins": r6(wins[key]),
                "win_rate": r6(wins[key] / n[key]),
                "expected_rate": r6(expected[key] / n[key]),
                "lift": lift,
                "lift_low": low,
                "lift_high": high,
            }
        )
    return table


def _length_strata(rows: Sequence[Row]) -> dict[tuple[str, int], int]:
    """(set-up, game index) -> 0, 1, 2: the short, middle or long third of that set-up's games."""
    strata = {}
    for games in _by_config(rows).values():
        ordered = sorted(games, key=lambda g: (g["turns"], g["index"]))
        for place, game in enumerate(ordered):
            strata[game["config"], game["index"]] = 3 * place // len(ordered)
    return strata


def item_table(
    rows: Sequence[Row],
    catalogues: dict[str, list[str]],
    goals: dict[str, set[str]] | None = None,
    rounds: bool = False,
) -> list[Row]:
    """For every card, tile or move: how many seats used it and how their wins compare with the
    field's in games of the same set-up, bot and length third (observed / expected wins), plus how
    often winners and losers used it per 10 turns of play. ``goals`` (per set-up) are items that are
    part of winning itself (Machi Koro's landmarks): flagged in the ``goal`` column, since their lift
    says only that winners reach the goal. A seat plays ``turns / players`` turns of a game, or
    every turn when turns are ``rounds`` that every seat plays (New Las Vegas)."""
    goal_items = set().union(*(goals or {}).values())
    strata = _length_strata(rows)
    # Expected win of a seat: its bot's win rate within (set-up, length third).
    stratum_wins: dict[tuple, float] = defaultdict(float)
    stratum_seats: dict[tuple, int] = defaultdict(int)
    for row in rows:
        third = strata[row["config"], row["index"]]
        for seat, bot in enumerate(row["bots"]):
            stratum_wins[row["config"], bot, third] += row["credit"][seat]
            stratum_seats[row["config"], bot, third] += 1
    groups: dict[tuple, dict[str, Any]] = {}
    for row in rows:
        third = strata[row["config"], row["index"]]
        items = catalogues.get(row["config"], [])
        for seat, bot in enumerate(row["bots"]):
            group = groups.setdefault(
                (row["players"], row["options"], bot),
                {"seats": 0, "items": {}, "turns_win": 0.0, "turns_lose": 0.0},
            )
            group["seats"] += 1
            base = stratum_wins[row["config"], bot, third] / stratum_seats[row["config"], bot, third]
            won = row["ranks"][seat] == 1
            share = row["turns"] if rounds else row["turns"] / row["players"]
            group["turns_win" if won else "turns_lose"] += share
            uses = row["use"][seat]
            for item in set(items) | set(uses):
                stats = group["items"].setdefault(item, [0, 0.0, 0.0, 0, 0])
                count = uses.get(item, 0)
                if count:
                    stats[0] += 1
                    stats[1] += row["credit"][seat]
                    stats[2] += base
                stats[3 if won else 4] += count
    table = []
    for (players, options, bot), group in sorted(groups.items()):
        for item, (users, wins, expected, won_uses, lost_uses) in sorted(group["items"].items()):
            lift, low, high = _lift(wins, expected, users)
            rate_win = 10 * won_uses / group["turns_win"] if group["turns_win"] else 0.0
            rate_lose = 10 * lost_uses / group["turns_lose"] if group["turns_lose"] else 0.0
            table.append(
                {
                    "players": players,
                    "options": options,
                    "bot": bot,
                    "item": item,
                    "goal": "yes" if item in goal_items else "",
                    "seats": group["seats"],
                    "users": users,
                    "use_share": r6(users / group["seats"]),
                    "wins": r6(wins),
                    "expected": r6(expected),
                    "lift": lift,
                    "lift_low": low,
                    "lift_high": high,
                    "per10_winners": r6(rate_win),
                    "per10_losers": r6(rate_lose),
                }
            )
    return table


def never_table(items: Sequence[Row]) -> list[Row]:
    """Items a bot never used in any of its seats (for the expert: the cards it never buys)."""
    return [
        {
            "players": r["players"],
            "options": r["options"],
            "bot": r["bot"],
            "item": r["item"],
            "seats": r["seats"],
        }
        for r in items
        if r["users"] == 0
    ]


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def length_table(rows: Sequence[Row]) -> list[Row]:
    table = []
    for games in _by_config(rows).values():
        turns = [g["turns"] for g in games]
        table.append(
            {
                **_head(games[0]),
                "games": len(games),
                "mean_turns": r6(statistics.fmean(turns)),
                "sd_turns": r6(statistics.pstdev(turns)),
                "p10": r6(_quantile(turns, 0.1)),
                "median": r6(_quantile(turns, 0.5)),
                "p90": r6(_quantile(turns, 0.9)),
                "min": min(turns),
                "max": max(turns),
                "mean_actions": r6(statistics.fmean(g["actions"] for g in games)),
            }
        )
    return table


def trajectory_table(rows: Sequence[Row]) -> list[Row]:
    """Each track's mean at 0%, 10%, ..., 100% of the game, for winners and for the others."""
    table = []
    for games in _by_config(rows).values():
        tracks = list(games[0]["track"])
        for track in tracks:
            for point in range(11):
                won: list[float] = []
                lost: list[float] = []
                for g in games:
                    for seat, value in enumerate(g["track"][track][point]):
                        (won if g["ranks"][seat] == 1 else lost).append(value)
                table.append(
                    {
                        **_head(games[0]),
                        "track": track,
                        "point": point,
                        "winners": r6(statistics.fmean(won)) if won else 0.0,
                        "others": r6(statistics.fmean(lost)) if lost else 0.0,
                    }
                )
    return table


def comeback_table(rows: Sequence[Row]) -> list[Row]:
    """How often the seat leading on the game's first track at 30%, 50% and 70% of the game wins
    (games with a tie for the lead are left out); the comeback rate is the rest."""
    table = []
    for games in _by_config(rows).values():
        if games[0]["players"] < 2 or not games[0]["track"]:
            continue
        lead = next(iter(games[0]["track"]))
        for point in CHECKPOINTS:
            led = wins = 0.0
            for g in games:
                values = g["track"][lead][point]
                best = max(values)
                if values.count(best) != 1:
                    continue
                led += 1
                wins += g["credit"][values.index(best)]
            low, high = wilson(wins, int(led))
            table.append(
                {
                    **_head(games[0]),
                    "track": lead,
                    "at": f"{point * 10}%",
                    "games": len(games),
                    "clear_leader": int(led),
                    "leader_wins": r6(wins),
                    "leader_win_rate": r6(wins / led) if led else 0.0,
                    "ci_low": r6(low),
                    "ci_high": r6(high),
                    "comeback_rate": r6(1 - wins / led) if led else 0.0,
                }
            )
    return table


def option_table(rows: Sequence[Row]) -> list[Row]:
    """Every rules variant beside the default rules at the same table (player count and bots):
    length, first seat's win rate and the spread between the best and worst seat."""
    seats = seat_table(rows)
    lengths = {row["config"]: row for row in length_table(rows)}
    by_config: dict[str, list[Row]] = defaultdict(list)
    for row in seats:
        by_config[row["config"]].append(row)
    tables: dict[tuple[int, str], list[str]] = defaultdict(list)
    for config, seat_list in by_config.items():
        tables[seat_list[0]["players"], seat_list[0]["lineup"]].append(config)
    table = []
    for (players, lineup), configs in sorted(tables.items()):
        if len(configs) < 2:
            continue
        default = next((c for c in configs if by_config[c][0]["options"] == "default"), None)
        for config in configs:
            seat_list = by_config[config]
            length = lengths[config]
            rates = [s["win_rate"] for s in seat_list]
            base = lengths[default]["mean_turns"] if default else None
            table.append(
                {
                    "players": players,
                    "lineup": lineup,
                    "options": seat_list[0]["options"],
                    "games": length["games"],
                    "mean_turns": length["mean_turns"],
                    "turns_vs_default": r6(length["mean_turns"] - base) if base is not None else "",
                    "seat0_win_rate": seat_list[0]["win_rate"],
                    "seat0_ci_low": seat_list[0]["ci_low"],
                    "seat0_ci_high": seat_list[0]["ci_high"],
                    "seat_spread": r6(max(rates) - min(rates)),
                }
            )
    return table


def all_tables(
    results: Sequence[tuple[Config, list[dict[str, Any]]]],
    catalogues: dict[str, list[str]],
    goals: dict[str, set[str]] | None = None,
    rounds: bool = False,
) -> dict[str, list[Row]]:
    rows = game_rows(results)
    items = item_table(rows, catalogues, goals, rounds)
    return {
        "games": games_table(rows),
        "seats": seat_rows(rows),
        "seat_advantage": seat_table(rows),
        "bots": bot_table(rows),
        "openings": opening_table(rows),
        "items": items,
        "never_used": never_table(items),
        "lengths": length_table(rows),
        "trajectories": trajectory_table(rows),
        "comeback": comeback_table(rows),
        "options": option_table(rows),
    }
