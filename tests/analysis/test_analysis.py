"""Post-game analysis (issue 30): the model, the evaluator's seat-safety, the analysis of a record,
the command and arena folders."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tabletown.analysis.analyze import CLASSES, analyze, classify
from tabletown.analysis.evaluate import Evaluator, Settings, tuned
from tabletown.analysis.folder import analyze_folder, bot_table, calibration
from tabletown.analysis.model import WinModel, model_path, shipped_model, win_credit
from tabletown.analysis.report import chance_graph_svg, html_page
from tabletown.analysis.training import calibrate, collect, fit, fit_temperature, train
from tabletown.arena.api import run_arena
from tabletown.arena.runner import Job
from tabletown.bots import make_bot
from tabletown.cli import _register_extra_commands, app
from tabletown.core.game import Result
from tabletown.core.record import Record
from tabletown.core.registry import all_games, get_game
from tabletown.core.session import bot_agents, play_out, seat_state

# The model as judge, whatever the game's own tuning (Multicity's expert play-outs are slower).
FAST = Settings(samples=4, candidates=4, screen=1, budget=30.0, game_tuning=False)


def recorded_game(game_name: str, bots: list[str], seed: int) -> Record:
    game = get_game(game_name)
    state = game.new_game(len(bots), None, seed)
    record = Record.start(state, [f"bot:{b}" for b in bots])
    play_out(
        state, bot_agents([make_bot(game, b, seed + i) for i, b in enumerate(bots)], seed), record=record
    )
    return record


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Multicity 2-player model fitted on a few games (fast; not the shipped one)."""
    path = tmp_path_factory.mktemp("model") / "mc.npz"
    train("multicity", 2, games=12, seed=5, out=str(path))
    return path


def test_win_credit_shares_a_tie() -> None:
    assert win_credit(Result((3, 3, 1), (1, 1, 3)), 0) == 0.5
    assert win_credit(Result((3, 3, 1), (1, 1, 3)), 2) == 0.0
    assert win_credit(Result((5,), (1,)), 0) == 1.0


def test_training_is_seeded_and_the_model_round_trips(tiny_model: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.npz"
    train("multicity", 2, games=12, seed=5, out=str(again))
    first, second = WinModel.load(tiny_model), WinModel.load(again)
    assert np.array_equal(first.w1, second.w1) and np.array_equal(first.b2, second.b2)
    game = get_game("multicity")
    options = game.resolve_options(2, None)
    assert first.fits(game, 2, options)
    assert not first.fits(game, 3, game.resolve_options(3, None))
    state = game.new_game(2, None, 1)
    chances = first.chances(np.asarray([state.observation(0), state.observation(1)]))
    assert chances.shape == (2,) and np.all((chances > 0) & (chances < 1))


def test_fit_learns_a_signal_it_is_given() -> None:
    """On synthetic rows whose label follows one feature, the fit beats the base rate clearly."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4000, 6)).astype(np.float32)
    y = (x[:, 2] + 0.3 * rng.standard_normal(4000) > 0).astype(np.float32)
    from tabletown.analysis.training import Positions

    _, figures = fit(Positions(x, y, np.arange(4000) // 4), epochs=40)
    assert figures["held_out_log_loss"] < 0.6 * figures["held_out_base_log_loss"]


@pytest.mark.parametrize("true_temperature", [0.6, 1.0, 2.5])
def test_the_temperature_undoes_an_over_or_underconfident_model(true_temperature: float) -> None:
    """Labels drawn with chance sigmoid(z / T): the fitted temperature finds T again."""
    rng = np.random.default_rng(1)
    logits = rng.normal(0.0, 2.0, 40_000)
    targets = (rng.random(40_000) < 1.0 / (1.0 + np.exp(-logits / true_temperature))).astype(np.float64)
    assert fit_temperature(logits, targets) == pytest.approx(true_temperature, rel=0.06)


def test_calibrate_keeps_the_temperature_in_the_model(tiny_model: Path, tmp_path: Path) -> None:
    path = tmp_path / "calibrated.npz"
    path.write_bytes(tiny_model.read_bytes())
    calibrated = calibrate("multicity", 2, games=6, seed=77, path=str(path))
    loaded = WinModel.load(path)
    assert loaded.temperature == calibrated.meta["temperature"] != 1.0
    assert loaded.meta["calibration"]["log_loss_after"] <= loaded.meta["calibration"]["log_loss_before"]
    state = get_game("multicity").new_game(2, None, 3)
    row = np.asarray([state.observation(0)], dtype=np.float32)
    z = float(loaded.logits(row)[0])
    assert float(loaded.chances(row)[0]) == pytest.approx(
        1.0 / (1.0 + np.exp(-z / loaded.temperature)), rel=1e-5
    )


def test_positions_label_every_seat_with_its_share() -> None:
    game = get_game("multicity")
    positions = collect(game, 2, game.resolve_options(2, None), games=3, seed=2)
    assert positions.observations.shape[1] == game.observation_size(2, None)
    per_game = {g: positions.targets[positions.games == g] for g in np.unique(positions.games)}
    for targets in per_game.values():  # rows alternate seat 0, seat 1; shares of one game sum to 1
        assert np.allclose(targets.reshape(-1, 2).sum(axis=1), 1.0)


def test_classes_follow_the_thresholds() -> None:
    names = [name for name, _ in CLASSES]
    assert classify(0.0) == ""
    for name, bound in CLASSES:
        assert classify(bound) == name
        assert classify(bound - 1e-6) in ("", *names[names.index(name) + 1 :])


def test_an_analysis_rates_every_decision_of_the_record(tiny_model: Path) -> None:
    record = recorded_game("multicity", ["greedy", "random"], seed=11)
    analysis = analyze(record, FAST, model=WinModel.load(tiny_model)).to_json()
    state = record.initial_state()
    expected = []
    for index, (player, text) in enumerate(record.actions):
        if len(state.legal_actions(player)) > 1:
            expected.append((index + 1, player, text))
        state.apply_text(player, text)
    assert [(d["index"], d["seat"], d["played"]) for d in analysis["decisions"]] == expected
    for d in analysis["decisions"]:
        assert 0.0 <= d["chance_after"] <= d["chance_best"] <= 1.0
        assert d["loss"] == pytest.approx(d["chance_best"] - d["chance_after"], abs=2e-4)
        assert d["class"] == classify(d["loss"])
        assert (d["best"] == d["played"]) == (d["loss"] == 0.0)
        # told of the seat by its name, as anyone reads a report: never the seat's own "You ..."
        assert d["played_words"].startswith(analysis["seats"][d["seat"]]["name"] + " "), d["played_words"]
        assert not d["played_words"].startswith("You ")
    seats = analysis["seats"]
    assert [s["decisions"] for s in seats] == [sum(1 for d in expected if d[1] == s) for s in range(2)]
    assert len(analysis["curve"]) == len(record.actions) + 1
    assert analysis["result"] == record.result
    final = analysis["curve"][-1]
    assert final == [
        win_credit(Result(tuple(record.result["scores"]), tuple(record.result["ranks"])), s) for s in range(2)
    ]


def test_every_shipped_model_fits_its_game_as_it_is_today() -> None:
    """A model file whose game changed its observation would be dropped in silence (its tables no
    longer analysed): every ``win_model_<N>p.npz`` in a game's package must still fit that game."""
    found = 0
    for game in all_games().values():
        folder = model_path(game, 2).parent
        for path in sorted(folder.glob("win_model_*p.npz")):
            players = int(path.stem.removeprefix("win_model_").removesuffix("p"))
            assert game.min_players <= players <= game.max_players, path
            assert shipped_model(game, players, game.resolve_options(players, None)) is not None, path
            found += 1
    assert found >= len(all_games())  # at least the two-player model of every game


@pytest.mark.parametrize(
    ("game_name", "players"), [("machikoro", 3), ("machikoro", 4), ("newlasvegas", 1), ("newlasvegas", 3)]
)
def test_shipped_models_for_more_players_judge_their_games(game_name: str, players: int) -> None:
    """Models beyond two players (and New Las Vegas solo): an analysis of such a game is judged by
    the model (not by play-outs to the end), with a curve of one chance per seat, the final one the
    result."""
    game = get_game(game_name)
    if shipped_model(game, players, game.resolve_options(players, None)) is None:
        pytest.skip(f"no shipped {players}-player {game_name} model")
    record = recorded_game(game_name, ["expert"] + ["random"] * (players - 1), seed=5)
    analysis = analyze(record, Settings(samples=2, candidates=3, screen=1)).to_json()
    assert analysis["judge"] == "model"
    assert {len(row) for row in analysis["curve"]} == {players}
    assert analysis["curve"][-1] == [1.0 if s in record.result["winners"] else 0.0 for s in range(players)]
    assert len(analysis["seats"]) == players and analysis["decisions"]


def test_one_seat_only(tiny_model: Path) -> None:
    record = recorded_game("multicity", ["greedy", "greedy"], seed=3)
    analysis = analyze(record, FAST, seat=1, model=WinModel.load(tiny_model)).to_json()
    assert analysis["decisions"] and {d["seat"] for d in analysis["decisions"]} == {1}


@pytest.mark.parametrize("game_name", ["lordsofvegas", "newlasvegas", "machikoro"])
def test_chances_depend_only_on_what_the_seat_may_know(game_name: str) -> None:
    """The evaluator's table for a seat is the same on the real position and on a copy whose hidden
    information (other hands, decks, dice to come, secret choices) was drawn afresh."""
    game = get_game(game_name)
    state = game.new_game(2, None, 17)
    play_out(state, bot_agents([make_bot(game, "greedy", 1), make_bot(game, "greedy", 2)], 4), stop_after=25)
    seat = state.to_act[0]
    moves = state.legal_actions(seat)[:3]
    evaluator = Evaluator(game, 2, dict(state.options), Settings(samples=3, depth=2, budget=60.0))
    real = evaluator.moves(state, seat, moves, "k", 3)
    twin = evaluator.moves(seat_state(state, seat, 999), seat, moves, "k", 3)
    assert np.array_equal(real, twin, equal_nan=True)


def test_luck_is_zero_for_moves_without_chance(tiny_model: Path) -> None:
    """Multicity has no dice: whatever luck it shows comes from the tiles drawn, never from a placement."""
    record = recorded_game("multicity", ["greedy", "greedy"], seed=8)
    analysis = analyze(record, FAST, model=WinModel.load(tiny_model)).to_json()
    for event in analysis["chance_events"]:
        assert any(abs(v) >= 0.02 for v in event["luck"])
    assert len(analysis["seats"]) == 2 and all("luck" in s for s in analysis["seats"])


def test_the_graph_and_the_page(tiny_model: Path) -> None:
    record = recorded_game("multicity", ["greedy", "random"], seed=11)
    data = analyze(record, FAST, model=WinModel.load(tiny_model)).to_json()
    data["decisions"][0]["class"] = "blunder"  # one mark to draw at least
    data["decisions"][0]["loss"] = 0.3
    svg = chance_graph_svg(data, link="#move-{index}")
    assert svg.startswith("<svg") and svg.count("<polyline") == 2
    assert f'href="#move-{data["decisions"][0]["index"]}"' in svg
    page = html_page(data, "Analysis <test>")
    assert "<svg" in page and "Analysis &lt;test&gt;" in page and 'id="move-' in page


def test_the_command(tiny_model: Path, tmp_path: Path) -> None:
    _register_extra_commands()
    record = recorded_game("multicity", ["greedy", "random"], seed=11)
    path = tmp_path / "game.json"
    record.save(path)
    runner = CliRunner()
    html = tmp_path / "a.html"
    answer = runner.invoke(
        app,
        [
            "analyze",
            str(path),
            "--json",
            "--no-game-tuning",
            "--samples",
            "3",
            "--candidates",
            "3",
            "--model",
            str(tiny_model),
            "--html",
            str(html),
        ],
    )
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.output)
    assert data["game"] == "multicity"
    assert {"seat", "decisions", "average_loss", "inaccuracies", "mistakes", "blunders"} <= set(
        data["seats"][0]
    )
    assert {
        "index",
        "seat",
        "played",
        "best",
        "chance_before",
        "chance_after",
        "chance_best",
        "loss",
        "class",
    } <= set(data["decisions"][0])
    assert "chance_events" in data and "<svg" in html.read_text()
    bad = runner.invoke(app, ["analyze", str(tmp_path / "missing.json")])
    assert bad.exit_code == 2
    assert runner.invoke(app, ["analyze", str(path), "--seat", "5"]).exit_code == 2
    assert runner.invoke(app, ["analyze", str(path), "--samples", "0"]).exit_code == 2


def test_an_arena_folder_ranks_its_bots(tmp_path: Path) -> None:
    game = get_game("multicity")
    if shipped_model(game, 2, game.resolve_options(2, None)) is None:
        pytest.skip("no shipped Multicity model")
    job = Job("multicity", ("greedy", "random"), 2, 9)
    run_arena(game, job, tmp_path, workers=1)
    fresh: list[int] = []
    _, first = analyze_folder(tmp_path, FAST, limit=1, on_game=lambda line: fresh.append(line["index"]))
    kept = list(tmp_path.glob("analysis-*.jsonl"))
    assert len(kept) == 1 and len(kept[0].read_text().splitlines()) == 1
    with kept[0].open("a") as out:
        out.write('{"index": 1, "half a li')  # an interrupted run's last line
    # the same command resumes: game 0 is read from the file, only game 1 is analysed
    _, lines = analyze_folder(tmp_path, FAST, on_game=lambda line: fresh.append(line["index"]))
    assert fresh == [0, 1] and lines[0] == first[0]
    assert [line["index"] for line in lines] == [0, 1]
    assert [json.loads(raw)["index"] for raw in kept[0].read_text().splitlines()] == [0, 1]
    # other settings are kept apart
    analyze_folder(tmp_path, replace(FAST, samples=3), limit=1)
    assert len(list(tmp_path.glob("analysis-*.jsonl"))) == 2
    rows = {row["bot"]: row for row in bot_table(lines)}
    assert set(rows) == {"greedy", "random"}
    for row in rows.values():
        assert row["games"] == 2 and row["decisions"] > 0
        assert row["interval"][0] <= row["average_loss"] <= row["interval"][1]
    # two worker processes give the same verdicts (the samples are seeded by the game, not the worker)
    _, parallel = analyze_folder(tmp_path, FAST, workers=2, keep=False)
    assert [{k: v for k, v in line.items() if k != "seconds"} for line in parallel] == [
        {k: v for k, v in line.items() if k != "seconds"} for line in lines
    ]
    bands = calibration(lines)
    assert sum(band["positions"] for band in bands) == sum(2 * (len(line["curve"]) - 1) for line in lines)
    for band in bands:
        low, high = (float(x) for x in band["band"].split("-"))
        assert low <= band["mean_chance"] <= high and 0 <= band["win_rate"] <= 1


def test_a_game_tunes_the_settings_left_at_their_defaults() -> None:
    multicity = get_game("multicity")
    assert tuned(multicity, Settings()).depth == -1  # Multicity is judged by expert play-outs
    assert tuned(multicity, Settings(samples=3)).samples == 3  # what the caller chose stays
    assert tuned(multicity, Settings(game_tuning=False)) == Settings(game_tuning=False)
    assert tuned(get_game("machikoro"), Settings()).depth == 0


def test_the_expert_anchors_the_verdict(tiny_model: Path) -> None:
    """With a margin nothing can clear, the best move is always the expert's, so a record of the
    expert's own moves has no loss at all."""
    record = recorded_game("multicity", ["expert", "expert"], seed=21)
    settings = Settings(samples=3, candidates=4, screen=1, budget=30.0, game_tuning=False, anchor_margin=2.0)
    analysis = analyze(record, settings, model=WinModel.load(tiny_model)).to_json()
    assert analysis["decisions"] and all(
        d["loss"] == 0.0 and d["best"] == d["played"] for d in analysis["decisions"]
    )
