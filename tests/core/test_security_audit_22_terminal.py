"""Security audit 22 (2026-12-06), the terminal's part (the web's: tests/web/test_security_audit_22.py).

Found and closed (``test_hole_*``, failing on the code as audited):

* *A shared record's seat text was read as Rich markup* in the result table that ``tabletown
  replay`` (and ``play``) print at the end. Audit 13 refused control characters in a record, but
  the table read its cells as markup, so Rich itself wrote the escapes: a seat
  ``[link=https://...]Bob[/link]`` printed "Bob" as a hidden hyperlink (OSC 8) to any address, and
  ``[b]winner: seat 0[/b]`` a bold line of the program's own. The cell is now escaped.

Checked and sound (``test_sound_*``): the prompt's "every unseen event" (``Game.render(...,
all_events=True)``, 2026-12-06) words the events of the seat's own view only, so at a hot-seat
New Las Vegas table seat 1's prompt is the same whatever seat 0 chose in secret before it.
"""

from __future__ import annotations

import io
import json
import random

from rich.console import Console
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.record import Record
from tabletown.core.registry import get_game
from tabletown.terminal import HotSeat, HumanAgent

runner = CliRunner()
NLV = get_game("newlasvegas")


def test_hole_a_records_seat_text_is_not_read_as_markup(tmp_path):
    state = get_game("machikoro").new_game(2, None, 5)
    rec = Record.start(state, ["bot:random", "bot:random"])
    rng = random.Random(5)
    while not state.is_over:
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        rec.add(seat, state.format_action(action))
        state.apply(seat, action)
    seats = ["[link=https://evil.example/]Bob[/link]", "[b]Al[/b]"]
    path = tmp_path / "shared.json"
    path.write_text(json.dumps({**rec.to_json(), "seats": seats}))
    out = runner.invoke(app, ["replay", str(path)], terminal_width=200)
    assert out.exit_code == 0, out.output
    result = out.output.rsplit("Result", 1)[1]  # (the move lines above escape the seats)
    for seat in seats:
        assert seat in result, f"the seat {seat!r} was read as markup: {result}"


def _prompt(state, seat: int) -> str:
    console = Console(file=io.StringIO(), record=True, color_system=None, width=300)
    HumanAgent(NLV, console, HotSeat(2, seen_events={seat: 0}))._show(state, seat)
    return console.export_text()


def _seat_0_chose(loan: bool, seed: int):
    state = NLV.new_game(2, {}, 4)
    state.apply(0, state.parse_action("loan" if loan else "noloan", 0))
    state.apply(1, state.parse_action("noloan", 1))
    rng = random.Random(seed)
    number = state.round_no
    while 0 in state.to_act and state.round_no == number:
        state.apply(0, rng.choice(state.legal_actions(0)))
    assert state.to_act == (1,)
    return state


def test_sound_hot_seat_prompt_with_every_unseen_event_shows_no_other_seats_secret():
    one, other = _seat_0_chose(True, 1), _seat_0_chose(False, 2)
    assert _prompt(one, 1) == _prompt(other, 1)
    assert _prompt(one, 0) != _prompt(other, 0)  # (seat 0's own screen does tell them apart)
