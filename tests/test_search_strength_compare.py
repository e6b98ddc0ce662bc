"""benchmarks/search_strength.py compare: two runs on the same deals, paired game by game."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "search_strength.py"


def _load():
    spec = importlib.util.spec_from_file_location("search_strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _folder(tmp_path: Path, name: str, bot: str, results: dict[int, list[int]]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    lines = []
    for index, winners in results.items():
        seats = [bot, "expert"] if index % 2 == 0 else ["expert", bot]
        lines.append(json.dumps({"index": index, "seats": seats, "result": {"winners": winners}}))
    (folder / "games.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_compare_pairs_games_by_index_and_counts_shared_wins_as_halves(tmp_path: Path) -> None:
    search_strength = _load()
    # The search bot sits at seat 0 in even games, seat 1 in odd ones.
    # Run A wins games 0, 1 and 3, loses game 2.
    a = _folder(tmp_path, "a", "search:hard", {0: [0], 1: [1], 2: [1], 3: [1]})
    # Run B wins games 0 and 1, shares game 2, loses game 3; its game 4 has no partner in A.
    b = _folder(tmp_path, "b", "search:new", {0: [0], 1: [1], 2: [0, 1], 3: [0], 4: [0]})
    row = search_strength.compare(a, b, "search:hard", "search:new")
    assert row["games"] == 4
    assert row["rate_a"] == 0.75
    assert row["rate_b"] == 0.625  # 1 + 1 + 0.5 + 0
    assert row["difference"] == -0.125
    assert row["agree"] == 0.5  # games 0 and 1
    # differences 0, 0, +0.5, -1 around their mean -0.125; the standard error of that mean:
    spread = (2 * 0.125**2 + 0.625**2 + 0.875**2) / 3
    assert abs(row["standard_error"] - (spread / 4) ** 0.5) < 1e-12
