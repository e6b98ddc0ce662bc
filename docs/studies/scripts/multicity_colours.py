"""Is Multicity's red-over-green edge a property of the tiles or of the seat? (docs/studies/multicity.md)

Seat 0 always plays green and seat 1 red, so in the study a colour effect and a seat effect look the
same. This plays 2-player games on the shipped deck and on the same deck with two colours' symbols
swapped on every tile (``--swap gr``: green symbols become red and red become green; nothing else
changes). If the edge follows the symbols it is the tiles'; if it stays with seat 1 it is the seat's.

    nice -n 19 .venv/bin/python docs/studies/scripts/multicity_colours.py --bots random --games 10000 --profile

Per deck it prints each seat's win rate with its 95% Wilson interval and its rate when it went first,
and, with ``--profile``, where each colour's symbols sit in the deck.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from multiprocessing import Pool

from tabletown.bots import make_bot
from tabletown.core.registry import get_game
from tabletown.core.rng import derive_seed
from tabletown.core.session import bot_agent, play_out
from tabletown.games.multicity import state as state_module
from tabletown.games.multicity.state import MulticityState
from tabletown.games.multicity.tiles import COLOURS, DECK, HOLE, LETTERS, Layout, rotations

KIND = {0: "corner", 2: "corner", 6: "corner", 8: "corner", 4: "centre"}


def permuted(deck: tuple[Layout, ...], perm: str) -> tuple[Layout, ...]:
    """The deck with every symbol recoloured: ``perm`` gives the new letter of g, r, b, y in turn
    ("rgby" swaps green and red; "grby" changes nothing)."""
    new = {LETTERS.index(old): LETTERS.index(letter) for old, letter in zip(LETTERS, perm, strict=True)}
    return tuple(tuple(new.get(code, code) for code in tile) for tile in deck)


_DECKS: dict[str, tuple[object, object]] = {}


def use_deck(perm: str) -> None:
    """Make the recoloured deck this process's default deck (its tables are then built only once)."""
    if not _DECKS:
        _DECKS[LETTERS] = (state_module._DECK_ROTATIONS, state_module._DECK_LETTERS)
    if perm not in _DECKS:
        turned = tuple(rotations(t) for t in permuted(DECK, perm))
        _DECKS[perm] = (turned, state_module._letters(turned))
    state_module._DECK_ROTATIONS, state_module._DECK_LETTERS = _DECKS[perm]  # type: ignore[assignment]


def play(task: tuple[str, str, int, int, int]) -> tuple[str, int, list[int]]:
    """One game on the recoloured deck: (perm, first seat, winners)."""
    perm, bot, players, seed, index = task
    game = get_game("multicity")
    game_seed = derive_seed(seed, "multicity-colours", players, index)
    use_deck(perm)
    state = MulticityState(players, {}, game_seed)
    bots = [make_bot(game, bot, derive_seed(game_seed, seat, bot)) for seat in range(players)]
    play_out(state, [bot_agent(b, derive_seed(game_seed, "agent", seat)) for seat, b in enumerate(bots)])
    result = state.result()
    assert result is not None
    return perm, state.first, list(result.winners)


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.959964
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def profile(deck: tuple[Layout, ...]) -> None:
    """Where each colour's symbols sit: corners, edge middles, centres, and next to a hole."""
    for code, name in enumerate(COLOURS):
        kinds: Counter[str] = Counter()
        by_hole = 0
        for tile in deck:
            hr, hc = divmod(tile.index(HOLE), 3)
            for square, value in enumerate(tile):
                if value != code:
                    continue
                kinds[KIND.get(square, "edge")] += 1
                r, c = divmod(square, 3)
                by_hole += abs(r - hr) + abs(c - hc) == 1
        print(
            f"{name:7} corner {kinds['corner']:3}  edge {kinds['edge']:3}  centre {kinds['centre']:3}  next to the hole {by_hole:3}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="random")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--perm", default="rgby", help="new letters for g, r, b, y (rgby: swap green and red; grby: none)"
    )
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        print("shipped deck:")
        profile(DECK)
    perms = [LETTERS, args.perm] if args.perm != LETTERS else [LETTERS]
    tasks = [(perm, args.bots, args.players, args.seed, i) for perm in perms for i in range(args.games)]
    # Alike to machikoro_cheese_factory.py on purpose: each study script reproduces its study by itself.
    wall = time.perf_counter()
    if args.workers > 1:
        with Pool(args.workers) as pool:
            results = pool.map(play, tasks, chunksize=100)
    else:
        results = [play(task) for task in tasks]
    n = args.players
    for perm in perms:
        # Seat s plays colour LETTERS[s]; on this deck its symbols sit where colour ``holds[s]``'s were.
        holds = [COLOURS[perm.index(LETTERS[seat])] for seat in range(n)]
        mine = [r for r in results if r[0] == perm]
        print(
            f"deck {perm} ({'shipped' if perm == LETTERS else 'recoloured'}), {args.bots} x{n}, {len(mine)} games"
        )
        for seat in range(n):
            wins = sum(1 / len(r[2]) for r in mine if seat in r[2])
            low, high = wilson(wins, len(mine))
            first = [r for r in mine if r[1] == seat]
            wins_first = sum(1 / len(r[2]) for r in first if seat in r[2])
            print(
                f"  seat {seat} ({COLOURS[seat]:6} on {holds[seat]:6}'s squares) wins {wins / len(mine):6.1%} "
                f"({low:.1%}-{high:.1%}); when first {wins_first / max(1, len(first)):6.1%} of {len(first)}"
            )
        print(f"  shared wins: {sum(1 for r in mine if len(r[2]) > 1)}")
    print(f"wall {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
