"""How much edge over the expert is there at all? A cheating "oracle" against the expert (issue 29).

Benchmark only, never shipped or registered: the oracle is an agent handed the *live* game state by
this script's own game loop (the arena would hand a bot a seat-safe copy), so it sees everything:

* ``clairvoyant`` -- each candidate is played on a clone of the true state, generator included, so its
  play-outs meet the real future dice and draws as far as the same random stream is consumed (the
  real opponent may still play differently from the play-out's expert, e.g. its own sampling).
* ``hidden`` -- the true hidden cards (Lords of Vegas' deck order; Machi Koro's default game has no
  hidden cards at all, so there this is an honest search) but not the future dice: each sample gets a
  fresh generator, shared by every candidate (common random numbers), and the expert's move is left
  only for a paired advantage above ``margin`` standard errors.
* ``honest`` -- the control, no cheat: as ``hidden`` but every sample is ``state.determinize(seat,
  ...)`` (hidden cards resampled from what the seat sees), so the gap between ``hidden`` and
  ``honest`` on the same deals is what knowing the hidden cards is worth to this search. (The agent
  is still handed the live state, but reads it only through ``determinize``, seat-safe copies for the
  expert's move and its ranking, its own legal moves and the public phase.)

Otherwise it searches like ``search:hard`` with ``focus``: only the decisions the game's search model
names (Machi Koro's builds, Lords of Vegas' main-phase choices) are searched, the others take the
expert's move. Candidates are the expert's move and its next best few by the expert's own valuation
(Machi Koro: ``search_model.rank``; Lords of Vegas: the expert's one-step gains of ``ExpertBot._main``,
trades and bets only when the expert itself picks one). Every play-out is the expert playing every seat
to the end, scored by the rank (win 1, tie 1/2, loss 0).

Games are those of ``tabletown arena GAME --bot oracle --bot expert --seed S``: the same deals
(``Job.game_seed``), seats alternating, and the expert seeded and wrapped (``bot_agent``) exactly as
the arena does it, so game ``i`` is the deal of the arena's game ``i`` on that seed.

    nice -n 19 .venv/bin/python benchmarks/oracle_bound.py run machikoro --mode clairvoyant \
        --games 200 --seed 29500 [--top-k 4] [--playouts 1] [--margin 1.0] [--until 09:40]
    .venv/bin/python benchmarks/oracle_bound.py summary

``run`` appends one JSON line a game to ``OUT/<game>-<mode>-<seed>/games.jsonl`` (resumable: games
already there are skipped) and rewrites ``OUT/summary.json`` and ``OUT/summary.csv`` from every folder.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tabletown.arena.runner import Job, bot_seed
from tabletown.arena.stats import wilson
from tabletown.bots.mcts import clearly_better, rank_rewards
from tabletown.bots.search import game_model
from tabletown.core.game import Action, Bot, Game, State
from tabletown.core.registry import get_game
from tabletown.core.rng import SeededRNG, derive_seed
from tabletown.core.session import Agent, bot_agent, play_out, seat_state

OUT = Path("benchmarks/results/oracle-bound")
ORACLE = "oracle"


@dataclass
class OracleSettings:
    mode: str = "clairvoyant"  # or "hidden"
    top_k: int = 4  # candidates: the expert's move and its next best by the expert's valuation
    playouts: int = 1  # play-outs per candidate (different policy seeds; fresh dice with "hidden")
    margin: float = 1.0  # "hidden": standard errors of the paired advantage needed to leave the expert


@dataclass
class OracleStats:
    searched: int = 0
    changed: int = 0
    # (expert's move, oracle's) as text, and the number of the searched decision (from 1) it was
    changes: list[tuple[str, str, int]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)  # "Anchor->Chosen" move kinds


def move_kind(action: Action) -> str:
    """A move's kind: its class name, or the constant itself (``pass``, ``end``)."""
    return action if isinstance(action, str) else type(action).__name__


def lov_ranked(expert: Any, state: Any, seat: int, legal: list[Action], anchor: Action) -> list[Action]:
    """Lords of Vegas' main-phase moves, best first by the expert's own one-step gain (as its
    ``_main`` values them); trades and bets are left out unless the expert itself picked one."""
    from tabletown.games.lordsofvegas.actions import Build, Remodel, Reorg, Sprawl

    base = state.determinize(seat, expert.rng.getrandbits(63))
    here = expert._score(base, seat)
    prm = expert.prm
    scored: list[tuple[float, int, Action]] = []
    for index, action in enumerate(legal):
        if action == anchor:
            continue
        if isinstance(action, (Build, Sprawl, Remodel)):
            gain = expert._after(base, seat, action) - here
        elif isinstance(action, Reorg):
            rp = expert.reorg_prm
            n = prm.reorg_samples
            gain = sum(expert._after(base, seat, action, rp) for _ in range(n)) / n - expert._score(
                base, seat, rp
            )
        elif move_kind(action) == "End":
            gain = prm.min_gain
        else:
            continue
        scored.append((-gain, index, action))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [anchor] + [action for _, _, action in scored]


class Oracle:
    """The cheating agent: called with the live state (see the module docstring)."""

    def __init__(self, game: Game, seed: int, settings: OracleSettings) -> None:
        self.game = game
        self.settings = settings
        self.rng = random.Random(seed)
        self.factory: Callable[[int], Bot] = game.bots()["expert"]
        self.anchor_bot = self.factory(bot_seed(seed, 0, "expert"))
        model = game_model(game)
        self.searched: Callable[[State, int], bool] = model.searched
        self.rank = getattr(model, "rank", None)
        self.stats = OracleStats()

    def __call__(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        # The expert's move, from a seat-safe copy exactly as the arena would ask it.
        anchor = self.anchor_bot.choose(seat_state(state, seat, self.rng.getrandbits(63)), seat)
        if not self.searched(state, seat):
            return anchor
        candidates = self.candidates(state, seat, legal, anchor)
        if len(candidates) < 2:
            return anchor
        self.stats.searched += 1
        decision = self.rng.getrandbits(63)
        values: dict[Action, list[float]] = {action: [] for action in candidates}
        for k in range(self.settings.playouts):
            for action in candidates:
                values[action].append(self.playout(state, seat, action, derive_seed(decision, k)))
        best = anchor
        best_mean = sum(values[anchor]) / len(values[anchor])
        for action in candidates[1:]:
            mean = sum(values[action]) / len(values[action])
            if mean > best_mean:
                best, best_mean = action, mean
        hidden = self.settings.mode != "clairvoyant"
        if (
            best != anchor
            and hidden
            and not clearly_better(values[best], values[anchor], self.settings.margin)
        ):
            best = anchor
        if best != anchor:
            self.stats.changed += 1
            self.stats.changes.append(
                (state.format_action(anchor), state.format_action(best), self.stats.searched)
            )
            self.stats.kinds[f"{move_kind(anchor)}->{move_kind(best)}"] += 1
        return best

    def candidates(self, state: State, seat: int, legal: list[Action], anchor: Action) -> list[Action]:
        top_k = self.settings.top_k
        if self.game.name == "lordsofvegas":
            return lov_ranked(self.anchor_bot, state, seat, legal, anchor)[:top_k]
        ranked = self.rank(state, seat, legal) if self.rank is not None else None
        if ranked is None:
            ranked = list(legal)
        return [anchor] + [action for action in ranked if action != anchor][: top_k - 1]

    def playout(self, state: State, seat: int, action: Action, seed: int) -> float:
        """The candidate on a copy of the position (by the mode), the expert playing every seat to the end."""
        if self.settings.mode == "honest":
            # The control: hidden cards resampled as the seat may believe them (no cheat at all).
            sample = state.determinize(seat, derive_seed(seed, "deal"))
            sample.rng = SeededRNG(derive_seed(seed, "dice"))
        elif self.settings.mode == "hidden":
            sample = state.clone()
            # The same fresh dice for every candidate of this sample, before and after its move.
            sample.rng = SeededRNG(derive_seed(seed, "dice"))
        else:
            sample = state.clone()
            assert sample.rng.getstate() == state.rng.getstate()  # the real future stream
        sample.apply(seat, action)
        bots = [self.factory(derive_seed(seed, "policy", s)) for s in range(sample.num_players)]
        play_out(sample, [_direct(bot) for bot in bots])
        result = sample.result()
        assert result is not None
        return rank_rewards(result)[seat]


def _direct(bot: Bot) -> Agent:
    """A play-out agent: the expert reads the play-out's own copy (it determinizes by itself)."""
    return bot.choose


def play_game(game: Game, job: Job, index: int, settings: OracleSettings) -> dict[str, Any]:
    """Game ``index`` of the job ``oracle`` against ``expert``, seated and seeded as the arena does."""
    seed = job.game_seed(index)
    entries = job.entries(index)
    names = [job.bots[entry] for entry in entries]
    state = game.new_game(job.players, job.options, seed)
    me = names.index(ORACLE)
    oracle = Oracle(game, bot_seed(seed, me, f"bot:{ORACLE}:{settings.mode}"), settings)
    think = [0.0, 0.0]
    longest = [0.0, 0.0]
    agents: list[Agent] = []
    for seat, name in enumerate(names):
        if name == ORACLE:
            agent: Agent = oracle
        else:
            expert_seed = bot_seed(seed, seat, name)
            agent = bot_agent(game.bots()["expert"](expert_seed), expert_seed)
        agents.append(_timed(agent, seat, think, longest))
    length = play_out(state, agents)
    result = state.result()
    assert result is not None
    winners = list(result.winners)
    return {
        "index": index,
        "seed": seed,
        "seats": names,
        "winners": winners,
        "credit": 1.0 / len(winners) if me in winners else 0.0,
        "length": length,
        "think": round(think[me], 3),
        "longest": round(longest[me], 3),
        "searched": oracle.stats.searched,
        "changed": oracle.stats.changed,
        "kinds": dict(oracle.stats.kinds),
        "changes": oracle.stats.changes,
    }


def _timed(agent: Agent, seat: int, think: list[float], longest: list[float]) -> Agent:
    def timed(state: State, player: int) -> Action:
        began = time.perf_counter()
        action = agent(state, player)
        spent = time.perf_counter() - began
        think[seat] += spent
        longest[seat] = max(longest[seat], spent)
        return action

    return timed


def folder_name(game: str, mode: str, seed: int, tag: str) -> str:
    return f"{game}-{mode}-{seed}" + (f"-{tag}" if tag else "")


def run(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    settings = OracleSettings(args.mode, args.top_k, args.playouts, args.margin)
    job = Job(args.game, (ORACLE, "expert"), args.games, args.seed)
    folder = args.out / folder_name(args.game, args.mode, args.seed, args.tag)
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"game": args.game, "seed": args.seed, "settings": settings.__dict__, "bots": list(job.bots)}
    meta_path = folder / "job.json"
    if meta_path.exists() and json.loads(meta_path.read_text()) != meta:
        raise SystemExit(f"{folder} holds another job: {meta_path.read_text()}")
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    lines = folder / "games.jsonl"
    done = {json.loads(line)["index"] for line in lines.read_text().splitlines()} if lines.exists() else set()
    stop = _deadline(args.until)
    for index in range(args.games):
        if index in done:
            continue
        if stop is not None and time.time() > stop:
            print(f"stopped at {args.until} UTC before game {index}")
            break
        row = play_game(game, job, index, settings)
        with lines.open("a") as out:
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
        print(
            f"{index}: credit {row['credit']} searched {row['searched']} changed {row['changed']} "
            f"think {row['think']:.1f}s longest {row['longest']:.2f}s",
            flush=True,
        )
    write_summary(args.out)
    return 0


def _deadline(until: str | None) -> float | None:
    """``HH:MM`` (UTC, today) as a timestamp."""
    if not until:
        return None
    hours, minutes = (int(part) for part in until.split(":"))
    now = datetime.now(UTC)
    return now.replace(hour=hours, minute=minutes, second=0, microsecond=0).timestamp()


def summarize(folder: Path) -> dict[str, Any]:
    meta = json.loads((folder / "job.json").read_text())
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]
    n = len(rows)
    wins = sum(row["credit"] for row in rows)
    low, high = wilson(wins, n)
    kinds: Counter[str] = Counter()
    for row in rows:
        kinds.update(row["kinds"])
    # Paired by deal: the two games of a deal (seats swapped) share the dice and shuffles.
    deals: dict[int, float] = {}
    for row in rows:
        deals[row["index"] // 2] = deals.get(row["index"] // 2, 0.0) + row["credit"]
    whole = [v for i, v in deals.items() if sum(1 for r in rows if r["index"] // 2 == i) == 2]
    return {
        "game": meta["game"],
        "mode": meta["settings"]["mode"],
        "top_k": meta["settings"]["top_k"],
        "playouts": meta["settings"]["playouts"],
        "margin": meta["settings"]["margin"],
        "seed": meta["seed"],
        "folder": str(folder),
        "games": n,
        "wins": wins,
        "rate": wins / n if n else 0.0,
        "ci_low": low,
        "ci_high": high,
        "think_per_game": sum(row["think"] for row in rows) / n if n else 0.0,
        "longest_decision": max((row["longest"] for row in rows), default=0.0),
        "searched_per_game": sum(row["searched"] for row in rows) / n if n else 0.0,
        "changed_per_game": sum(row["changed"] for row in rows) / n if n else 0.0,
        "deals_won_twice": sum(1 for v in whole if v == 2.0),
        "deals_lost_twice": sum(1 for v in whole if v == 0.0),
        "deals_split": sum(1 for v in whole if 0.0 < v < 2.0),
        "changed_kinds": dict(kinds.most_common()),
    }


def write_summary(out: Path) -> list[dict[str, Any]]:
    rows = [summarize(folder) for folder in sorted(out.iterdir()) if (folder / "games.jsonl").exists()]
    (out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    columns = [key for key in rows[0] if key != "changed_kinds"] if rows else []
    with (out / "summary.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()})
    for row in rows:
        print(
            f"{row['game']} {row['mode']} (k={row['top_k']}, playouts={row['playouts']}): {row['games']} games, "
            f"{row['rate']:.1%} (95% CI {row['ci_low']:.1%}-{row['ci_high']:.1%}), "
            f"thinking {row['think_per_game']:.1f} s a game, longest {row['longest_decision']:.2f} s, "
            f"searched {row['searched_per_game']:.1f} / changed {row['changed_per_game']:.2f} a game; "
            f"deals 2-0/0-2/split {row['deals_won_twice']}/{row['deals_lost_twice']}/{row['deals_split']}; "
            f"{row['changed_kinds']}"
        )
    return rows


def compare(folder: Path, arena: Path, bot: str) -> dict[str, Any]:
    """The oracle against an arena folder on the same seed (same deals, seats and expert seeds), game
    by game: both win rates on the shared games and the paired difference with its standard error."""
    mine = {
        row["index"]: row["credit"]
        for row in map(json.loads, (folder / "games.jsonl").read_text().splitlines())
    }
    theirs: dict[int, float] = {}
    for line in (arena / "games.jsonl").read_text().splitlines():
        row = json.loads(line)
        winners = row["result"]["winners"]
        seat = row["seats"].index(bot)
        theirs[row["index"]] = 1.0 / len(winners) if seat in winners else 0.0
    shared = sorted(set(mine) & set(theirs))
    n = len(shared)
    diffs = [mine[i] - theirs[i] for i in shared]
    mean = sum(diffs) / n if n else 0.0
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return {
        "games": n,
        "oracle": sum(mine[i] for i in shared) / n if n else 0.0,
        "other": sum(theirs[i] for i in shared) / n if n else 0.0,
        "difference": mean,
        "standard_error": (spread / n) ** 0.5 if n else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("game", choices=("machikoro", "lordsofvegas"))
    go.add_argument("--mode", choices=("clairvoyant", "hidden", "honest"), default="clairvoyant")
    go.add_argument("--games", type=int, default=200)
    go.add_argument("--seed", type=int, default=29500)
    go.add_argument("--top-k", type=int, default=4)
    go.add_argument("--playouts", type=int, default=1)
    go.add_argument("--margin", type=float, default=1.0)
    go.add_argument("--tag", default="", help="a suffix for the folder (another setting on the same seed)")
    go.add_argument("--until", default=None, help="HH:MM UTC: start no game after it")
    go.add_argument("--out", type=Path, default=OUT)
    show = sub.add_parser("summary")
    show.add_argument("--out", type=Path, default=OUT)
    pair = sub.add_parser("compare")
    pair.add_argument("folder", type=Path)
    pair.add_argument("arena", type=Path)
    pair.add_argument("--bot", default="search:hard")
    args = parser.parse_args(argv)
    if args.command == "compare":
        row = compare(args.folder, args.arena, args.bot)
        print(
            f"{row['games']} games in both: {args.bot} {row['other']:.1%}, oracle {row['oracle']:.1%}, "
            f"difference {row['difference']:+.1%} +- {row['standard_error']:.1%} (one standard error)"
        )
        return 0
    if args.command == "summary":
        write_summary(args.out)
        return 0
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
