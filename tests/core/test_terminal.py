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
    # An empty or unknown answer asks again (an Enter used to play the move, which cannot be undone).
    agent, console = agent_with_answers(["", "maybe", "#12"])
    assert agent.understand(state, 0, "12") == "m12"
    assert console.export_text().count("is the move '12'") == 3
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


def test_leaving_asks_again_until_yes_or_no():
    """'quit' asks to save and leave: only y/n (or the language's words) answer it; anything else,
    an empty line included, asks again instead of quietly meaning no."""
    from tabletown.terminal import LeaveGame

    agent, console = agent_with_answers(["maybe", "", "n"])
    assert agent.understand(ManyMoves(), 0, "quit") is None
    assert console.export_text().count("please answer y or n") == 2
    agent, console = agent_with_answers(["ok?", "y"])
    with pytest.raises(LeaveGame):
        agent.understand(ManyMoves(), 0, "quit")
    assert console.export_text().count("save the game and leave? (y/n)") == 2


def test_ctrl_c_and_end_of_input_are_told_apart():
    from io import StringIO

    from rich.console import Console

    from tabletown.core.registry import get_game
    from tabletown.terminal import HotSeat, HumanAgent, LeaveGame

    for raised, said in ((KeyboardInterrupt, "interrupted (Ctrl-C)"), (EOFError, "no more input")):
        console = Console(file=StringIO(), width=100, record=True)

        def stop(prompt, raised=raised):
            raise raised

        console.input = stop  # type: ignore[method-assign]  # a keyboard that interrupts or ends
        agent = HumanAgent(get_game("machikoro"), console, HotSeat(1))
        with pytest.raises(LeaveGame):
            agent._ask("seat 0>")
        text = console.export_text()
        assert said in text and ("no more input" in text) == (raised is EOFError)


def test_the_prompt_leaves_the_notation_to_help():
    """The prompt shows the moves and one short line; the notation's help, several lines long, comes
    with 'help' only (so that more of the board fits an 80x24 terminal)."""
    from tabletown.core.registry import get_game

    game = get_game("machikoro")
    state = game.new_game(2, {}, seed=1)
    agent, console = agent_with_answers([])
    agent._show(state, 0)
    shown = console.export_text()
    assert game.notation_help[:30] not in shown and "#1 roll" in shown
    assert "'help' explains the notation" in shown
    agent.understand(state, 0, "help")
    assert game.notation_help[:30] in console.export_text()


def test_a_refused_replay_command_leaves_its_message_on_screen(tmp_path):
    """`replay --step`: an unknown command or a bad argument prints why and redraws nothing (a redraw
    would push the message off the screen); a good one redraws."""
    from io import StringIO

    from rich.console import Console

    from tabletown.terminal import Stepper

    path = tmp_path / "g.json"
    play([*MK, "--record", str(path)], ["roll", "#1", "quit", "y"])
    console = Console(file=StringIO(), width=100, record=True)
    typed = iter(["x", "j abc", "s 7", "s", "n", "q"])
    console.input = lambda prompt: next(typed)  # type: ignore[method-assign]  # typed commands
    stepper = Stepper(Record.load(path), console, None)
    shows = []
    stepper.show = shows.append  # type: ignore[method-assign]  # count the redraws
    stepper.run()
    text = console.export_text()
    assert shows == [0, 1]  # the first screen and the one after 'n'
    assert "unknown command" in text and "after j comes a move number" in text
    assert text.count("seats are 0-1") == 2


def test_a_resumed_game_opens_with_the_newest_events_then_shows_every_new_one():
    """Resumed, a seat's first prompt cannot know what was shown in the last sitting: it draws the
    board with the newest few events (not the whole game's log); from then on every new event."""
    import random
    from io import StringIO

    from rich.console import Console

    from tabletown.core.registry import get_game
    from tabletown.games.machikoro.render import LOG_LINES
    from tabletown.terminal import HotSeat, HumanAgent

    game = get_game("machikoro")
    state = game.new_game(3, {}, seed=2)
    rng = random.Random(2)
    for _ in range(30):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(state.events(0)) > 3 * LOG_LINES
    console = Console(file=StringIO(), width=300, record=True)
    table = HotSeat(1, last=-1, resumed=True)
    agent = HumanAgent(game, console, table)
    agent._show(state, 0)
    assert sum(line.startswith("· ") for line in console.export_text().splitlines()) == LOG_LINES
    assert table.seen_events[0] == len(state.log)
    before = len(state.log)
    for _ in range(12):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    agent._show(state, 0)
    shown = sum(line.startswith("· ") for line in console.export_text().splitlines())
    assert shown == len(state.events(0, before)) > LOG_LINES


@pytest.mark.parametrize("name", ["machikoro", "lordsofvegas", "newlasvegas", "multicity"])
def test_the_notation_help_is_in_the_players_language_with_the_moves_as_typed(name):
    """'help' explains the notation in the player's language; the moves in it (``build``, ``roll``,
    ``t X,Y rN``...) stay as they are typed in every language."""
    from io import StringIO

    from rich.console import Console

    from tabletown.core.i18n import gettext
    from tabletown.core.registry import get_game
    from tabletown.terminal import HotSeat, HumanAgent

    game = get_game(name)
    english = game.notation_help
    for lang in ("pl", "de", "ru"):
        words = gettext(name, lang, english)
        assert words != english, (name, lang)
        moves = [token for token in english.replace("|", " ").split() if token.isascii() and token.islower()]
        kept = {"roll", "build", "accept", "refuse", "pass", "draw:", "op", "skip", "end", "offer"}
        assert {m for m in moves if m in kept} <= set(words.replace("|", " ").split()), (name, lang)
        console = Console(file=StringIO(), width=2000, record=True)
        agent = HumanAgent(game, console, HotSeat(1), lang)
        state = game.new_game(game.min_players, {}, seed=1)
        agent.understand(state, state.to_act[0], "help")
        assert words in console.export_text(), (name, lang)


def test_a_game_whose_render_predates_all_events_still_shows_every_unseen_event():
    """A game from elsewhere may override ``render(view)`` without ``all_events`` (or ``lang``): the
    terminal draws its board and then every event the seat has not seen, instead of a TypeError."""
    import sys
    from io import StringIO
    from pathlib import Path

    from rich.console import Console

    sys.path.insert(0, str(Path(__file__).parents[1] / "arena"))
    from toygame import ToyGame

    from tabletown.terminal import render_board

    class OldToy(ToyGame):
        def render(self, view):  # type: ignore[override]  # the older, shorter signature
            return "OLD BOARD"

    game = OldToy()
    state = game.new_game(2, {}, seed=1)
    for _ in range(6):
        player = state.to_act[0]
        state.apply(player, state.legal_actions(player)[0])
    view = state.view(0, since=0)
    assert len(view["events"]) >= 3
    console = Console(file=StringIO(), width=200, record=True)
    console.print(render_board(game, view, "de", all_events=True))
    text = console.export_text()
    assert text.startswith("OLD BOARD")
    for event in view["events"]:
        assert game.describe_event(event, None, "de") in text
    console.print(render_board(game, view, "de"))  # without all_events: the board alone
    assert console.export_text().endswith("OLD BOARD\n")


def test_resume_refuses_a_new_set_up_rather_than_ignoring_it(tmp_path):
    path = tmp_path / "g.json"
    play([*MK, "--record", str(path)], ["roll", "quit", "y"])
    for extra in (["--seat", "human"], ["--option", "harbor=true"], ["--seed", "9"]):
        out = play(["play", "--resume", str(path), *extra], [])
        assert out.exit_code == 2 and "leave out --seat, --option and --seed" in out.output
    out = play(["play", "multicity", "--resume", str(path)], [])
    assert out.exit_code == 2 and "holds a game of machikoro" in out.output
    out = play(["play", "machikoro", "--resume", str(path)], ["quit", "y"])
    assert out.exit_code == 1 and "play --resume" in out.output


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_a_closed_terminal_or_a_kill_saves_the_game(tmp_path, signal_name):
    """The process is killed while it waits for the player's move: the game is saved as on Ctrl-C."""
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "g.json"
    from pathlib import Path

    command = [str(Path(sys.executable).parent / "tabletown"), *MK, "--record", str(path)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b"roll\n")
        process.stdin.flush()
        seen = b""
        while b"roll" not in seen or seen.count(b"seat 0>") < 2:  # the roll was played, the next prompt shown
            chunk = process.stdout.read1(4096)
            assert chunk, seen.decode(errors="replace")[-800:]
            seen += chunk
        time.sleep(0.2)
        process.send_signal(getattr(signal, signal_name))
        out, _ = process.communicate(timeout=30)
    assert process.returncode == 1, (seen + out).decode(errors="replace")[-800:]
    assert Record.load(path).actions[0] == (0, "roll")
