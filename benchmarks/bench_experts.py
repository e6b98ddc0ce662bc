"""Expert games per CPU second: the cost of the play-outs the search bot's hard levels run.

    .venv/bin/python benchmarks/bench_experts.py [GAME ...] [--games 6] [--rounds 3] [--players 2 4]

Every seat is the game's ``expert`` bot; each set-up plays ``--games`` seeded games ``--rounds``
times and keeps the fastest round (CPU time of this process, so another job on the machine costs
less than it would in wall-clock time, and the best round is the one least disturbed). Multicity's
hard search level plays the expert in every seat to the end of the game, so this figure is how many
play-outs fit in its time cap; it is also the arena's speed for expert tables.
"""

from __future__ import annotations

import argparse
import time

from tabletown.core.registry import all_games, get_game


def play(game_name: str, players: int, seed: int) -> int:
    game = get_game(game_name)
    state = game.new_game(players, None, seed)
    factory = game.bots()["expert"]
    experts = [factory(seed * 8 + seat) for seat in range(players)]
    actions = 0
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, experts[seat].choose(state, seat))
        actions += 1
    return actions


def measure(game_name: str, players: int, games: int, rounds: int) -> tuple[float, float]:
    """(games per CPU second in the best round, actions per game)."""
    best = float("inf")
    actions = 0
    for _ in range(rounds):
        start = time.process_time()
        actions = sum(play(game_name, players, seed) for seed in range(games))
        best = min(best, time.process_time() - start)
    return games / best, actions / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--games", type=int, default=6, dest="count", help="seeded games per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    names = args.games or sorted(all_games())
    print(f"{'game':14s} {'players':>7s} {'games/CPU-s':>12s} {'actions/game':>13s} {'ms/action':>10s}")
    for name in names:
        game = get_game(name)
        low, high = game.player_range(game.resolve_options(2, {}))
        for players in args.players:
            if not low <= players <= high:
                continue
            rate, actions = measure(name, players, args.count, args.rounds)
            print(
                f"{name:14s} {players:7d} {rate:12.2f} {actions:13.1f} {1000 / rate / actions:10.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
