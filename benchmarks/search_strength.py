"""``bot:search`` against each game's expert (issue 29): run the arena jobs, or summarize their folders.

    nice -n 19 .venv/bin/python benchmarks/search_strength.py run --games 100 [--only GAME ...] [--out DIR]
    .venv/bin/python benchmarks/search_strength.py summary DIR/machikoro-search-hard [...]
    nice -n 19 .venv/bin/python benchmarks/search_strength.py fit-value --games 300 --seed 100000
    nice -n 19 .venv/bin/python benchmarks/search_strength.py variant GAME --base hard --set cutoff=20 \
        --name c20 --games 200 --seed 29001 --out DIR

``run`` plays ``tabletown arena GAME --bot search:hard --bot expert --games N --seed S --workers 1``
for each game (S from ``SEEDS``) into ``OUT/<game>-search-hard`` (resumable like any arena folder). ``summary`` reads one
or more such folders (``games.jsonl``) and prints, per folder, the search bot's games, win rate with
its 95% Wilson interval, its longest single decision and how many of its decisions hit the time cap.
``fit-value`` refits Machi Koro's cut-off value (``LEAD`` and ``TEMPO`` in its search model): a
two-parameter logistic regression of "seat 0 won" on its race lead and whose turn it is, over positions
of seeded expert games (every third game expert against greedy, for variety).
``variant`` plays the same arena job in this process with ``search:NAME``, a level's settings with
``--set KEY=VALUE`` overrides (a lever measured without changing the shipped levels); ``summary DIR
--bot search:NAME`` reads its folder. ``compare A B [--bot-a X --bot-b Y]`` pairs two folders played on
the same seed game by game (same index: the same deal and seating) and prints both win rates on the
games both have and the paired difference with its standard error, far tighter than two independent
intervals when the bots mostly agree.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

from tabletown.arena.stats import wilson

GAMES = ("machikoro", "multicity", "lordsofvegas", "newlasvegas")
# Lords of Vegas' run was restarted on a new seed after its search settings changed (docs/bots.md).
SEEDS = {"machikoro": 29001, "multicity": 29001, "lordsofvegas": 29002, "newlasvegas": 29001}


def played_games(folder: Path) -> list[dict[str, Any]]:
    """The folder's finished games, as the arena wrote them (``games.jsonl``)."""
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]


def points(game: dict[str, Any], bot: str) -> float:
    """The bot's points in one game: 1 for a win, shared between tied winners."""
    winners = game["result"]["winners"]
    return 1.0 / len(winners) if game["seats"].index(bot) in winners else 0.0


def summary(folder: Path, bot: str = "search:hard") -> dict[str, Any]:
    lines = played_games(folder)
    wins = 0.0
    longest = 0.0
    capped = 0
    think = 0.0
    for line in lines:
        seat = line["seats"].index(bot)
        wins += points(line, bot)
        longest = max(longest, line["timing"]["longest_decision"][seat])
        capped += line["timing"].get("capped", [0] * len(line["seats"]))[seat]
        think += line["timing"]["think"][seat]
    low, high = wilson(wins, len(lines))
    return {
        "folder": str(folder),
        "games": len(lines),
        "wins": wins,
        "rate": wins / len(lines) if lines else 0.0,
        "ci": (low, high),
        "longest_decision": longest,
        "capped_decisions": capped,
        "think_per_game": think / len(lines) if lines else 0.0,
    }


def search_points(folder: Path, bot: str) -> dict[int, float]:
    """The search bot's points by game index."""
    return {game["index"]: points(game, bot) for game in played_games(folder)}


def compare(a: Path, b: Path, bot_a: str = "search:hard", bot_b: str = "search:hard") -> dict[str, Any]:
    """Two runs on the same deals, compared on the games both played (paired by index)."""
    first, second = search_points(a, bot_a), search_points(b, bot_b)
    shared = sorted(set(first) & set(second))
    n = len(shared)
    diffs = [second[i] - first[i] for i in shared]
    mean = sum(diffs) / n if n else 0.0
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return {
        "games": n,
        "rate_a": sum(first[i] for i in shared) / n if n else 0.0,
        "rate_b": sum(second[i] for i in shared) / n if n else 0.0,
        "difference": mean,
        "standard_error": (spread / n) ** 0.5 if n else 0.0,
        "agree": sum(1 for d in diffs if d == 0) / n if n else 0.0,
    }


def print_summary(row: dict[str, Any]) -> None:
    low, high = row["ci"]
    print(
        f"{row['folder']}: {row['games']} games, win rate {row['rate']:.1%} "
        f"(95% CI {low:.1%}-{high:.1%}), longest decision {row['longest_decision']:.2f} s, "
        f"capped decisions {row['capped_decisions']}, thinking {row['think_per_game']:.1f} s a game"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--games", type=int, default=100)
    run.add_argument("--only", nargs="*", default=list(GAMES))
    run.add_argument("--out", type=Path, default=Path("runs/search-strength"))
    run.add_argument("--seed", type=int, default=None, help="one seed for every game (default: SEEDS)")
    show = sub.add_parser("summary")
    show.add_argument("folders", nargs="+", type=Path)
    show.add_argument("--bot", default="search:hard")
    fit = sub.add_parser("fit-value")
    fit.add_argument("--games", type=int, default=300)
    fit.add_argument("--seed", type=int, default=100000)
    fit_lov = sub.add_parser("fit-points")
    fit_lov.add_argument("--games", type=int, default=300)
    fit_lov.add_argument("--seed", type=int, default=100000)
    pair = sub.add_parser("compare")
    pair.add_argument("first", type=Path)
    pair.add_argument("second", type=Path)
    pair.add_argument("--bot-a", default="search:hard")
    pair.add_argument("--bot-b", default="search:hard")
    variant = sub.add_parser("variant")
    variant.add_argument("game", choices=GAMES)
    variant.add_argument("--name", required=True)
    variant.add_argument("--base", default="hard")
    variant.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    variant.add_argument("--games", type=int, default=200)
    variant.add_argument("--seed", type=int, default=29001)
    variant.add_argument("--players", type=int, default=2)
    variant.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "summary":
        for folder in args.folders:
            print_summary(summary(folder, args.bot))
        return 0
    if args.command == "compare":
        row = compare(args.first, args.second, args.bot_a, args.bot_b)
        print(
            f"{row['games']} games in both: {row['rate_a']:.1%} -> {row['rate_b']:.1%}, "
            f"difference {row['difference']:+.1%} +- {row['standard_error']:.1%} (one standard error), "
            f"{row['agree']:.0%} of the games with the same result"
        )
        return 0
    if args.command == "variant":
        return run_variant(args)
    if args.command == "fit-value":
        return fit_value(args.games, args.seed)
    if args.command == "fit-points":
        return fit_points(args.games, args.seed)
    tabletown = str(Path(sys.executable).with_name("tabletown"))
    for game in args.only:
        folder = args.out / f"{game}-search-hard"
        command = [
            *("nice", "-n", "19", tabletown, "arena", game),
            *("--bot", "search:hard", "--bot", "expert"),
            *(
                "--games",
                str(args.games),
                "--seed",
                str(args.seed if args.seed is not None else SEEDS[game]),
                "--workers",
                "1",
            ),
            *("--out", str(folder), "--no-progress"),
        ]
        subprocess.run(command, check=True)
        print_summary(summary(folder))
    return 0


Row = tuple[float, float, float]  # two features and whether the seat won (1.0 or 0.0)


def loss(w: tuple[float, float], part: list[Row]) -> float:
    """Mean log loss of ``sigmoid(w[0] * x0 + w[1] * x1)`` on the rows."""
    total = 0.0
    for x0, x1, won in part:
        p = 1.0 / (1.0 + math.exp(-(w[0] * x0 + w[1] * x1)))
        total -= math.log(max(p if won else 1.0 - p, 1e-12))
    return total / len(part)


def logistic_fit(rows: list[Row]) -> tuple[float, float]:
    """A two-weight logistic regression without intercept (the features are zero for an even
    position), by Newton's method."""
    a, b = 0.0, 0.0
    for _ in range(30):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x0, x1, won in rows:
            p = 1.0 / (1.0 + math.exp(-(a * x0 + b * x1)))
            r, w = won - p, p * (1.0 - p)
            g0, g1 = g0 + r * x0, g1 + r * x1
            h00, h01, h11 = h00 + w * x0 * x0, h01 + w * x0 * x1, h11 + w * x1 * x1
        det = h00 * h11 - h01 * h01
        a += (h11 * g0 - h01 * g1) / det
        b += (h00 * g1 - h01 * g0) / det
    return a, b


def held_out_fit(rows: list[Row], games: int, seed: int) -> tuple[float, float, list[Row]]:
    """Fit on four positions in five, keep every fifth for the held-out loss; prints the sample."""
    train = [row for i, row in enumerate(rows) if i % 5]
    test = [row for i, row in enumerate(rows) if not i % 5]
    print(f"{len(rows)} positions from {games} games (seeds {seed}..{seed + games - 1})")
    a, b = logistic_fit(train)
    return a, b, test


def fit_points(games: int, seed: int) -> int:
    """Fit Lords of Vegas's "points" judge (``POINTS_W``, ``POINTS_LATE_W``) on positions of expert
    games: the seat's lead by the expert's point estimate, and that lead times the share of the deck
    drawn."""
    import random

    from tabletown.core.registry import get_game
    from tabletown.games.lordsofvegas.data import NUM_CARDS
    from tabletown.games.lordsofvegas.expert import values
    from tabletown.games.lordsofvegas.search_model import POINTS_LATE_W, POINTS_W

    game = get_game("lordsofvegas")
    bots = game.bots()
    sample = random.Random(seed)
    rows: list[Row] = []
    for index in range(games):
        state = game.new_game(2, {}, seed=seed + index)
        players = [bots["expert"](seed + index), bots["expert"](seed + index + 7)]
        seen: list[tuple[float, float]] = []
        while state.to_act:
            seat = state.to_act[0]
            if sample.random() < 0.2:
                vals = values(state)  # type: ignore[arg-type]
                drawn = 1.0 - len(state.deck) / NUM_CARDS  # type: ignore[attr-defined]
                lead = vals[0] - vals[1]
                seen.append((lead, lead * drawn))
            state.apply(seat, players[seat].choose(state, seat))
        result = state.result()
        assert result is not None
        won = 1.0 if result.winners == (0,) else 0.5 if 0 in result.winners else 0.0
        rows += [(x0, x1, won) for x0, x1 in seen]
    a, b, test = held_out_fit(rows, games, seed)
    print(f"fitted: POINTS_W = {a:.4f}, POINTS_LATE_W = {b:.4f}; held-out log loss {loss((a, b), test):.4f}")
    print(
        f"shipped: {POINTS_W}, {POINTS_LATE_W}; held-out log loss {loss((POINTS_W, POINTS_LATE_W), test):.4f}"
    )
    print(f"a coin (0.5 everywhere): held-out log loss {math.log(2):.4f}")
    return 0


def fit_value(games: int, seed: int) -> int:
    """Fit Machi Koro's cut-off value on positions of expert games and print the two weights."""
    import random

    from tabletown.core.registry import get_game
    from tabletown.games.machikoro.search_model import LEAD, TEMPO, race_values

    game = get_game("machikoro")
    bots = game.bots()
    sample = random.Random(seed)
    rows: list[Row] = []  # (lead, tempo, won) for seat 0
    for index in range(games):
        state = game.new_game(2, {}, seed=seed + index)
        names = ["expert", "expert"] if index % 3 else ["expert", "greedy"][:: 1 if index % 2 else -1]
        players = [bots[names[0]](seed + index), bots[names[1]](seed + index + 7)]
        seen: list[tuple[float, float]] = []
        while state.to_act:
            seat = state.to_act[0]
            if sample.random() < 0.3:
                values = race_values(state)  # type: ignore[arg-type]
                seen.append((values[0] - values[1], 1.0 if state.current == 0 else -1.0))  # type: ignore[attr-defined]
            state.apply(seat, players[seat].choose(state, seat))
        won = 1.0 if state.winner == 0 else 0.0  # type: ignore[attr-defined]
        rows += [(lead, tempo, won) for lead, tempo in seen]
    a, b, test = held_out_fit(rows, games, seed)
    print(f"fitted: LEAD = {a:.2f}, TEMPO = {b:.3f}; held-out log loss {loss((a, b), test):.4f}")
    print(f"shipped: LEAD = {LEAD}, TEMPO = {TEMPO}; held-out log loss {loss((LEAD, TEMPO), test):.4f}")
    # The old cut-off value: 0.5 + half the race lead, read as a probability.
    old = 0.0
    for lead, _, won in test:
        p = min(max(0.5 + 0.5 * lead, 1e-3), 1 - 1e-3)
        old -= math.log(p if won else 1.0 - p)
    print(f"0.5 + lead / 2 (before): held-out log loss {old / len(test):.4f}")
    return 0


def run_variant(args: argparse.Namespace) -> int:
    """Register ``search:NAME`` (level ``--base`` with the overrides) and play the arena job here."""
    from dataclasses import replace

    from tabletown.bots import GENERIC_BOTS
    from tabletown.bots.search import SearchBot, settings_for
    from tabletown.cli import _register_extra_commands, app
    from tabletown.core.game import Bot, Game

    overrides = {}
    for pair in args.set:
        key, _, text = pair.partition("=")
        try:
            overrides[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            overrides[key] = text
    name = f"search:{args.name}"

    def factory(game: Game, seed: int) -> Bot:
        return SearchBot(game, seed, replace(settings_for(game, args.base), **overrides), name=name)

    GENERIC_BOTS[name] = factory
    _register_extra_commands()
    bots = ["--bot", name] + ["--bot", "expert"] * (args.players - 1)
    command = ["arena", args.game, *bots, "--games", str(args.games), "--seed", str(args.seed)]
    command += ["--workers", "1", "--out", str(args.out), "--no-progress"]
    app(command, standalone_mode=False)
    print_summary(summary(args.out, name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
