"""Terminal play as a newcomer meets it: nothing typed ends a game with a traceback, every way out saves
the game, --resume continues it exactly, list entries and notation numbers cannot be confused, all
moves are listed, and hot-seat never shows one seat's secret choice to the next."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.record import Record, verify

runner = CliRunner()
MK = ["play", "machikoro", "--seat", "human", "--seat", "bot:greedy", "--seed", "5"]


def play(args, lines):
    return runner.invoke(app, args, input="\n".join(lines) + "\n")


def test_hostile_input_never_ends_the_game_with_a_traceback(tmp_path):
    path = tmp_path / "g.json"
    hostile = [
        "²",
        "#²",
        "tv ²",
        "9" * 5000,
        "#" + "9" * 5000,
        "\x00",
        "x" * 5000,
        "swap ² 1 ²",
        "build " * 900,
    ]
    out = play([*MK, "--record", str(path)], [*hostile, "#1", "quit", "y"])
    assert "Traceback" not in out.output and out.exception is None or isinstance(out.exception, SystemExit)
    assert out.exit_code == 1  # left by quitting, not by a crash
    record = Record.load(path)
    assert record.actions[0] == (0, "roll")  # '#1' was the first move; nothing hostile was played
    assert "no move #" in out.output or "choose 1-" in out.output


@pytest.mark.parametrize("ending", [["quit", "y"], []])
def test_quit_and_end_of_input_save_and_resume_continues_identically(tmp_path, ending):
    path = tmp_path / "g.json"
    out = play([*MK, "--record", str(path)], ["roll", "#1", "#1", *ending])
    assert out.exit_code == 1 and "play --resume" in out.output
    saved = Record.load(path)
    assert saved.result is None and len(saved.actions) >= 3
    more = play(["play", "--resume", str(path)], ["#1"] * 4000)
    assert more.exit_code == 0, more.output[-1500:]
    finished = Record.load(path)
    assert finished.actions[: len(saved.actions)] == saved.actions and finished.result is not None
    assert verify(finished) == []
    # The same moves typed in one sitting give the same game.
    whole = tmp_path / "whole.json"
    texts = [text for seat, text in finished.actions if seat == 0]
    again = play([*MK, "--record", str(whole)], texts)
    assert again.exit_code == 0 and Record.load(whole).actions == finished.actions


def test_quit_asks_first(tmp_path):
    path = tmp_path / "g.json"
    out = play([*MK, "--record", str(path)], ["quit", "n", "roll", "quit", "yes"])
    assert out.exit_code == 1 and Record.load(path).actions[0] == (0, "roll")


def test_a_record_path_in_a_missing_folder_is_refused_before_the_game(tmp_path):
    out = play([*MK, "--record", str(tmp_path / "nowhere" / "g.json")], ["roll"])
    assert out.exit_code == 2 and "does not exist" in out.output and "seat 0>" not in out.output


class ManyMoves:
    """A stand-in position with 150 listed moves whose notation also reads bare numbers: the number
    12 is a move of its own (as a solo New Las Vegas pick is) and list entry 12 is another move."""

    legal = [f"m{i}" for i in range(1, 150)] + ["12"]

    def legal_actions(self, seat):
        return list(self.legal)

    def parse_action(self, text, seat):
        if text in self.legal:
            return text
        from tabletown.core.errors import MalformedAction

        raise MalformedAction("notation.unknown", f"not a move: {text!r}")

    def format_action(self, action):
        return action

    def clone(self):
        return self

    def apply(self, seat, action):
        pass


def agent_with_answers(answers):
    from io import StringIO

    from rich.console import Console

    from tabletown.core.registry import get_game
    from tabletown.terminal import HotSeat, HumanAgent

    console = Console(file=StringIO(), width=100, record=True)
    agent = HumanAgent(get_game("machikoro"), console, HotSeat(1))
    queue = list(answers)
    agent._ask = lambda prompt: (console.print(prompt), queue.pop(0))[1]
    return agent, console


def test_a_number_the_notation_reads_asks_which_was_meant():
    state = ManyMoves()
    agent, console = agent_with_answers(["y"])
    assert agent.understand(state, 0, "12") == "12"
    assert "is the move '12'" in console.export_text()
    agent, _ = agent_with_answers(["#12"])
    assert agent.understand(state, 0, "12") == "m12"
    agent, _ = agent_with_answers(["n"])
    assert agent.understand(state, 0, "12") is None
    agent, _ = agent_with_answers([])
    assert agent.understand(state, 0, "#12") == "m12"  # '#N' never asks
    assert agent.understand(state, 0, "7") == "m7"  # not a move of the notation: the list entry
    assert agent.understand(state, 0, "#999") is None
    assert agent.understand(state, 0, "999") is None


def test_help_lists_every_move_paged():
    agent, console = agent_with_answers([""] * 5)
    agent.understand(ManyMoves(), 0, "help")
    text = console.export_text()
    numbers = {int(word[1:]) for word in text.split() if word.startswith("#") and word[1:].isdigit()}
    assert numbers == set(range(1, 151))
    assert "Enter for more" in text


def test_hot_seat_never_shows_a_pending_choice_to_the_next_seat(tmp_path):
    path = tmp_path / "hot.json"
    args = ["play", "newlasvegas", "--seat", "human", "--seat", "human", "--seed", "4", "--record", str(path)]
    out = play(args, ["loan", "", "noloan", "quit", "y"])
    assert "pass the keyboard to seat 1" in out.output
    after_handover = out.output.split("pass the keyboard to seat 1", 1)[1]
    # Seat 0 chose 'loan' in secret; nothing after the hand-over may say so.
    record = Record.load(path)
    assert record.actions[0] == (0, "loan")
    lowered = after_handover.lower()
    assert "seat 0 loan" not in lowered and "p0 takes a loan" not in lowered and "(0, 'loan')" not in lowered
    assert json.dumps(record.to_json())  # the saved game is a valid record
