"""The command line: games, play, replay, bench."""

import json

from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.record import Record

runner = CliRunner()


def test_games_lists_every_game_with_options_and_bots():
    out = runner.invoke(app, ["games"])
    assert out.exit_code == 0
    assert "machikoro" in out.output and "harbor=False" in out.output and "bot:greedy" in out.output


def test_bad_seats_games_and_options_exit_cleanly():
    for args in (
        ["play", "chess", "--seat", "bot:random", "--seat", "bot:random"],
        ["play", "machikoro", "--seat", "robot", "--seat", "bot:random"],
        ["play", "machikoro", "--seat", "bot:nobody", "--seat", "bot:random"],
        ["play", "machikoro", "--seat", "bot:random", "--seat", "bot:random", "--option", "harbor=maybe"],
        ["play", "machikoro", "--seat", "bot:random"],
    ):
        out = runner.invoke(app, args)
        assert out.exit_code == 2, (args, out.output)
        assert "error:" in out.output


def test_human_seat_plays_from_typed_input(tmp_path):
    # A human who only ever passes still completes the game against two bots; bad input is explained.
    moves = "\n".join(["fly", "99", "roll"] + ["1"] * 4000) + "\n"
    path = tmp_path / "h.json"
    out = runner.invoke(
        app,
        [
            "play",
            "machikoro",
            "--seat",
            "human",
            "--seat",
            "bot:greedy",
            "--seed",
            "2",
            "--record",
            str(path),
        ],
        input=moves,
    )
    assert out.exit_code == 0, out.output[-2000:]
    assert "not a Machi Koro move" in out.output
    record = Record.load(path)
    assert record.seats == ["human", "bot:greedy"] and record.result is not None


def test_replay_steps_through_a_record(tmp_path):
    path = tmp_path / "g.json"
    runner.invoke(
        app,
        [
            "play",
            "machikoro",
            "--seat",
            "bot:random",
            "--seat",
            "bot:random",
            "--seed",
            "3",
            "--record",
            str(path),
            "--quiet",
        ],
    )
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0
    assert "seat 0 (bot:random): roll" in out.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "none.json"), "--verify"])
    assert missing.exit_code == 2


def test_bench_json_records():
    out = runner.invoke(app, ["bench", "machikoro", "--json", "--seconds", "0.05"])
    assert out.exit_code == 0, out.output
    records = json.loads(out.output)
    assert {(r["players"], r["options"]["harbor"]) for r in records} == {
        (2, False),
        (4, False),
        (2, True),
        (4, True),
    }
    for r in records:
        assert r["game"] == "machikoro" and r["games"] >= 1 and r["games_per_second"] > 0


def test_refusals_show_the_rule_id():
    out = runner.invoke(
        app, ["play", "machikoro", "--seat", "bot:random", "--seat", "bot:random", "--option", "market=tiny"]
    )
    assert out.exit_code == 2
    moves = "\n".join(["build cafe", "quit"]) + "\n"
    out = runner.invoke(
        app, ["play", "machikoro", "--seat", "human", "--seat", "bot:random", "--seed", "1"], input=moves
    )
    assert "[phase.roll]" in out.output


def test_bot_choices_in_a_simultaneous_round_are_not_echoed():
    # Seat 0 (a bot) chooses before the human in each simultaneous round; the human must not see it.
    out = runner.invoke(
        app, ["play", "newlasvegas", "--seat", "bot:random", "--seat", "human", "--seed", "4"], input="quit\n"
    )
    assert "seat 1>" in out.output
    assert "seat 0 (bot:random):" not in out.output


def test_replay_verify_checks_the_fairness_commitment(tmp_path):
    from tabletown.core.fairness import commitment, new_salt

    path = tmp_path / "g.json"
    runner.invoke(
        app,
        ["play", "machikoro", "--seat", "bot:random", "--seat", "bot:random", "--seed", "11"]
        + ["--record", str(path), "--quiet"],
    )
    data = json.loads(path.read_text())
    salt = new_salt()
    data.update(salt=salt, commitment=commitment(11, salt), seed_chosen=False)
    path.write_text(json.dumps(data))
    fair = runner.invoke(app, ["replay", str(path), "--verify"])
    assert fair.exit_code == 0 and "match the commitment" in fair.output
    # the server revealing another seed than the one it committed to is caught
    data["commitment"] = commitment(12, salt)
    path.write_text(json.dumps(data))
    cheated = runner.invoke(app, ["replay", str(path), "--verify"])
    assert cheated.exit_code == 1 and "do not match the commitment" in cheated.output
    data.update(commitment=commitment(11, salt), salt=None)
    path.write_text(json.dumps(data))
    assert runner.invoke(app, ["replay", str(path), "--verify"]).exit_code == 1
    assert Record.from_json({**data, "salt": salt}).commitment == commitment(11, salt)
