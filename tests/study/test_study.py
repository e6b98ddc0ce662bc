"""Tiny studies of every game: the files exist, the report agrees with the CSV, the tables do not
depend on the worker count or backend, and an arena folder can be studied."""

from __future__ import annotations

import csv
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletown.arena.api import run_arena
from tabletown.cli import _register_extra_commands, app
from tabletown.core.registry import get_game
from tabletown.study.report import write_study
from tabletown.study.runner import Config, make_plan, read_folder, run_study

VARIANT = {
    "machikoro": {"harbor": True},
    "lordsofvegas": {"open_market": True},
    "newlasvegas": {"first_game": True},
    "multicity": {"deck": 10},
}
GAMES = 3


def tiny_plan(name: str) -> list[Config]:
    return make_plan(get_game(name), [2], [["random"], ["random", "greedy"]], [{}, VARIANT[name]])


def tables_of(folder: Path) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in sorted((folder / "tables").glob("*.csv"))}
    files["tables.json"] = (folder / "tables.json").read_bytes()
    return files


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


class Tables(HTMLParser):
    """Collects every <table id=...> of a page as rows of cell texts, and tags that load files."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.external: list[str] = []
        self.svgs = 0
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table":
            self._table = values.get("id")
            self.tables[self._table or ""] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "svg":
            self.svgs += 1
        if tag in ("script", "link", "img", "iframe") or (tag == "image" and "href" in str(values)):
            self.external.append(tag)
        for key in ("src", "href"):
            if values.get(key) and not str(values[key]).startswith("#"):
                self.external.append(f"{tag} {key}={values[key]}")

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None


def html_rows(page: Tables, table_id: str) -> list[dict[str, str]]:
    head, *rows = page.tables[table_id]
    return [dict(zip(head, row, strict=True)) for row in rows]


@pytest.mark.parametrize("name", sorted(VARIANT))
def test_tiny_study_report_agrees_with_its_csv(name: str, tmp_path: Path) -> None:
    game = get_game(name)
    configs = tiny_plan(name)
    results = run_study(game, configs, GAMES, 5, tmp_path)
    write_study(tmp_path, game, results, "tabletown study (test)")
    games = read_csv(tmp_path / "tables" / "games.csv")
    assert len(games) == GAMES * len(configs)
    for row in games:
        assert row["seed"] and row["bots"] and row["winners"] and int(row["turns"]) > 0
    page = Tables()
    page.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert not page.external, page.external  # self-contained
    assert page.svgs >= 5
    for table in ("seat_advantage", "bots", "openings", "items", "lengths", "comeback", "options"):
        assert table in page.tables
    # Wins by set-up and seat, counted from games.csv, are the numbers the page shows.
    counted: dict[tuple[str, int], float] = {}
    shared: dict[str, int] = {}
    for row in games:
        winners = [int(s) for s in row["winners"].split("|")]
        shared[row["config"]] = shared.get(row["config"], 0) + (len(winners) > 1)
        for seat in range(int(row["players"])):
            credit = 1 / len(winners) if seat in winners else 0.0
            counted[row["config"], seat] = counted.get((row["config"], seat), 0.0) + credit
    shown = html_rows(page, "seat_advantage")
    assert len(shown) == len(counted)
    for row in shown:
        assert float(row["wins"]) == pytest.approx(counted[row["config"], int(row["seat"])], abs=1e-6)
        assert int(row["games"]) == GAMES
        assert int(row["shared"]) == shared[row["config"]]
    # Mean lengths shown equal those of games.csv.
    for row in html_rows(page, "lengths"):
        turns = [int(g["turns"]) for g in games if g["config"] == row["config"]]
        assert float(row["mean_turns"]) == pytest.approx(sum(turns) / len(turns), rel=1e-5)
    # Every CSV is also in tables.json, row for row.
    data = json.loads((tmp_path / "tables.json").read_text())["tables"]
    for table, rows in data.items():
        assert len(read_csv(tmp_path / "tables" / f"{table}.csv")) == len(rows)
    for chart in ("seat_advantage", "lengths", "trajectories", "options"):
        assert (tmp_path / "images" / f"{chart}.png").stat().st_size > 0


def test_a_study_regenerates_byte_for_byte(tmp_path: Path) -> None:
    """The same seed on one core gives the same files, the page and its charts included; only the
    wall-clock timings in the arena's games.jsonl lines differ between runs."""
    game = get_game("machikoro")
    configs = tiny_plan("machikoro")
    files = []
    for run in ("a", "b"):
        out = tmp_path / run
        write_study(out, game, run_study(game, configs, GAMES, 9, out), "cmd", True)
        found = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        assert "report.html" in found and any(name.startswith("images/") for name in found)
        files.append({name: data for name, data in found.items() if not name.endswith("games.jsonl")})
    assert files[0] == files[1]


def test_same_tables_with_one_or_two_workers(tmp_path: Path) -> None:
    game = get_game("machikoro")
    configs = tiny_plan("machikoro")
    outputs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        write_study(out, game, run_study(game, configs, 4, 9, out, workers=workers), "cmd", False)
        outputs.append(tables_of(out))
    assert outputs[0] == outputs[1]


def test_ray_gives_the_same_tables(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    game = get_game("multicity")
    configs = make_plan(game, [2], [["random", "greedy"]], [{}])
    outputs = []
    for backend in ("process", "ray"):
        out = tmp_path / backend
        results = run_study(game, configs, 4, 3, out, workers=1, backend=backend)
        write_study(out, game, results, "cmd", plots_on=False)
        outputs.append(tables_of(out))
    assert not ray.is_initialized()
    assert outputs[0] == outputs[1]


def test_an_arena_folder_is_studied_like_the_same_study(tmp_path: Path) -> None:
    """A plain arena folder has no features: they are recovered by playing its games again, giving
    the very tables a study of that table gives."""
    game = get_game("lordsofvegas")
    config = make_plan(game, [2], [["random", "greedy"]], [{}])[0]
    run_arena(game, config.job(game.name, 4, 21), tmp_path / "arena")
    _, results = read_folder(None, tmp_path / "arena")
    write_study(tmp_path / "from", game, results, "cmd", plots_on=False)
    write_study(tmp_path / "study", game, run_study(game, [config], 4, 21, tmp_path / "study"), "cmd", False)
    assert tables_of(tmp_path / "from") == tables_of(tmp_path / "study")


def test_command_line(tmp_path: Path) -> None:
    _register_extra_commands()
    out = tmp_path / "cli"
    args = ["study", "multicity", "--players", "2", "--bots", "random,greedy", "--bots", "random"]
    args += ["--options", "deck=8", "--options", "default"]
    result = CliRunner().invoke(app, [*args, "--games", "2", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert (out / "report.html").exists() and (out / "tables" / "games.csv").exists()
    # The study folder read again (--from) gives the same tables and the same reproduce command.
    again = tmp_path / "again"
    result = CliRunner().invoke(app, ["study", "multicity", "--from", str(out), "--out", str(again)])
    assert result.exit_code == 0, result.output
    assert tables_of(again) == tables_of(out)
    bad = CliRunner().invoke(app, ["study", "multicity", "--bots", "nobody", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2
