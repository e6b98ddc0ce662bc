"""Play a re-weighted expert against the game's expert on paired deals (issue 29: a stronger anchor).

    .venv/bin/python benchmarks/tune_expert.py GAME [--set NAME=VALUE ...] [--players 2] [--deals 500]
                                               [--seed 7100] [--workers 2]

Each deal is one game seed played once per seat: the re-weighted expert sits in every seat in turn,
the game's own expert in the others, so each deal's luck is shared by both sides. Every bot reads the
live position, which is fair here: the experts read only what their seat may see (Lords of Vegas'
expert redeals the deck before it looks ahead; a Machi Koro or Multicity city is public).

``--set`` names a weight: a field of Lords of Vegas' ``Params`` or Multicity's ``Weights``, an
attribute of Machi Koro's ``ExpertBot`` (``card_mult.CODE=V`` for one card's weight). Several
``--set``s change several weights; without one, the expert plays itself (the control: about 1/players).

Prints the re-weighted expert's share of wins (ties shared) with its standard error taken over deals.

``--climb NAME=V1,V2,...`` (repeatable) runs a coordinate search instead, starting from the ``--set``
weights: each round tries every listed value of every listed weight on the same deals and adopts the
best change whose paired gain over the current weights exceeds ``--keep`` standard errors of the
paired difference; it stops after ``--rounds`` rounds or a round without a change. The deals are the
same throughout, so its result must be checked on fresh deals (another ``--seed``) before use.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from multiprocessing import Pool
from typing import Any

from tabletown.core.game import Bot
from tabletown.core.registry import get_game
from tabletown.core.rng import derive_seed


def parse_sets(pairs: Sequence[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        out[name.strip()] = float(value)
    return out


def expert_factory(game_name: str, weights: dict[str, float]) -> Callable[[int], Bot]:
    """A factory of the game's expert with ``weights`` changed (checked against the real fields)."""
    if game_name == "lordsofvegas":
        from tabletown.games.lordsofvegas.expert import DEFAULT, ExpertBot

        known = {f.name: f.type for f in fields(DEFAULT)}
        typed = {
            k: (int(v) if known[k] in ("int", int) else v) for k, v in weights.items() if _known(k, known)
        }
        prm = replace(DEFAULT, **typed)
        return lambda seed: ExpertBot(seed, prm)
    if game_name == "multicity":
        from tabletown.games.multicity.expert import ExpertBot as MultiExpert
        from tabletown.games.multicity.expert import Weights

        known = {f.name: f.type for f in fields(Weights)}
        w = replace(Weights(), **{k: v for k, v in weights.items() if _known(k, known)})
        return lambda seed: MultiExpert(seed, w)
    if game_name == "machikoro":
        from tabletown.games.machikoro.expert import ExpertBot as KoroExpert

        def make(seed: int) -> Bot:
            bot = KoroExpert(seed)
            mult = dict(bot.card_mult)
            for name, value in weights.items():
                if name.startswith("card_mult."):
                    mult[name.removeprefix("card_mult.")] = value
                elif hasattr(bot, name):
                    current = getattr(bot, name)
                    setattr(bot, name, type(current)(value))
                else:
                    raise SystemExit(f"machikoro's expert has no weight {name!r}")
            bot.card_mult = mult
            return bot

        return make
    raise SystemExit(f"no weights to tune for {game_name}")


def _known(name: str, known: dict[str, Any]) -> bool:
    if name not in known:
        raise SystemExit(f"unknown weight {name!r}; known: {', '.join(known)}")
    return True


def play_deal(job: tuple[str, int, dict[str, float], int, int]) -> list[float]:
    """The re-weighted expert's result in each seat of one deal (1 a win, 1/k for a k-way tie)."""
    game_name, players, weights, seed, deal = job
    game = get_game(game_name)
    tuned = expert_factory(game_name, weights)
    plain = game.bots()["expert"]
    game_seed = derive_seed(seed, deal)
    out = []
    for seat in range(players):
        state = game.new_game(players, None, game_seed)
        bots = [
            (tuned if q == seat else plain)(derive_seed(game_seed, q, "tuned" if q == seat else "expert"))
            for q in range(players)
        ]
        moves = 0
        while not state.is_over and moves < 5000:
            q = state.to_act[0]
            state.apply(q, bots[q].choose(state, q))
            moves += 1
        result = state.result()
        winners = result.winners if result is not None else ()
        out.append(1.0 / len(winners) if seat in winners else 0.0)
    return out


def run_deals(
    game: str, players: int, weights: dict[str, float], seed: int, deals: int, pool: Any
) -> list[float]:
    """The re-weighted expert's mean result on each deal (every seat played once)."""
    jobs = [(game, players, weights, seed, d) for d in range(deals)]
    return [sum(r) / len(r) for r in pool.map(play_deal, jobs, chunksize=4)]


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    var = sum((x - mean) ** 2 for x in values) / max(1, len(values) - 1)
    return mean, math.sqrt(var / len(values))


def label_of(weights: dict[str, float]) -> str:
    return " ".join(f"{k}={v:g}" for k, v in weights.items()) or "(the expert itself)"


def climb(args: argparse.Namespace, start: dict[str, float], pool: Any) -> dict[str, float]:
    """Coordinate search over the ``--climb`` values, paired on one set of deals."""
    grid: dict[str, list[float]] = {}
    for spec in args.climb:
        name, _, values = spec.partition("=")
        grid[name.strip()] = [float(v) for v in values.split(",") if v.strip()]
    current = dict(start)
    base = run_deals(args.game, args.players, current, args.seed, args.deals, pool)
    mean, se = mean_se(base)
    print(f"start {label_of(current)}: {100 * mean:.1f}% +- {100 * se:.1f}", flush=True)
    for round_no in range(1, args.rounds + 1):
        best: tuple[float, str, float, list[float]] | None = None
        for name, values in grid.items():
            for value in values:
                if current.get(name) == value:
                    continue
                trial = {**current, name: value}
                expert_factory(args.game, trial)  # refuse unknown weights before any game
                res = run_deals(args.game, args.players, trial, args.seed, args.deals, pool)
                gain, gain_se = mean_se([a - b for a, b in zip(res, base, strict=True)])
                z = gain / gain_se if gain_se > 0 else 0.0
                print(
                    f"  round {round_no} {name}={value:g}: {100 * gain:+.2f} +- {100 * gain_se:.2f} (z {z:+.1f})",
                    flush=True,
                )
                if z > args.keep and (best is None or gain > best[0]):
                    best = (gain, name, value, res)
        if best is None:
            print(f"round {round_no}: no change beats {args.keep} standard errors; stop", flush=True)
            break
        _, name, value, base = best
        current[name] = value
        print(
            f"round {round_no}: adopt {name}={value:g} -> {100 * mean_se(base)[0]:.1f}% ({label_of(current)})",
            flush=True,
        )
    print(f"final {label_of(current)}", flush=True)
    return current


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--climb", action="append", default=[], metavar="NAME=V1,V2,...")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=float, default=2.0, help="standard errors a change must gain")
    args = parser.parse_args()
    weights = parse_sets(args.sets)
    expert_factory(args.game, weights)  # refuse unknown weights before any game
    with Pool(args.workers) as pool:
        if args.climb:
            climb(args, weights, pool)
            return 0
        per_deal = run_deals(args.game, args.players, weights, args.seed, args.deals, pool)
    mean, se = mean_se(per_deal)
    print(
        f"{args.game} {args.players}p {label_of(weights)}: {100 * mean:.1f}% +- {100 * se:.1f} over {len(per_deal)} deals"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
