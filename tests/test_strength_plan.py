"""benchmarks/strength.py: the issue's pairings name real bots and a tiny run writes its table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from tabletown.bots import make_bot
from tabletown.core.registry import get_game

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "strength.py"


def _load():
    spec = importlib.util.spec_from_file_location("strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_every_game_is_measured_against_random_and_greedy_with_real_bots() -> None:
    strength = _load()
    everything = strength.pairings()
    plan = [p for p in everything if len(p.bots) == 2]
    solo = [p for p in everything if len(p.bots) == 1]
    # Issue 19: one solo row per architect card, at least 500 games each, on seeds kept for measuring.
    assert solo and all(p.game == "newlasvegas" and p.games >= 500 and p.seed >= 1000 for p in solo)
    for game in ("machikoro", "lordsofvegas", "newlasvegas", "multicity"):
        opponents = {p.bots[1]: p.target for p in plan if p.game == game}
        assert opponents["random"] == 0.95 and opponents["greedy"] == 0.65
    strategies = [p for p in plan if p.bots[1].startswith("strategy:")]
    assert [(p.game, p.target) for p in strategies] == [("machikoro", 0.60)]
    assert len({(p.game, p.seed) for p in plan}) == len(plan)
    assert all(p.games >= 1000 and p.seed >= 1000 for p in plan)  # tuning used seeds below 1,000
    for pairing in plan:
        game = get_game(pairing.game)
        for name in pairing.bots:
            assert make_bot(game, name, 0) is not None


def test_a_short_run_writes_the_table(tmp_path: Path) -> None:
    strength = _load()
    assert (
        strength.main(["--only", "multicity", "--games", "2", "--workers", "1", "--out", str(tmp_path)]) == 0
    )
    table = (tmp_path / "strength.md").read_text()
    assert table.count("| multicity |") == 2 and "--games 2 --seed 2026" in table
    assert (tmp_path / "multicity-expert-greedy-2026" / "games.jsonl").read_text().count("\n") == 2
