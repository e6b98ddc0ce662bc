"""core.screen: a board's parts fold, lowest rank first and each to its soft form before any goes
further, until the screen fits its rows; the log folds to its newest lines under a count."""

from __future__ import annotations

import io

from rich.console import Console, Group
from rich.text import Text

from tabletown.core.screen import Fold, Log, fit


def draw(renderable, width: int = 60) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, height=10, color_system=None).print(renderable)
    return out.getvalue().rstrip("\n").split("\n")


def lines(prefix: str, count: int) -> Text:
    return Text("\n".join(f"{prefix}{i}" for i in range(count)))


def test_without_a_height_every_part_is_in_full():
    parts = [Text("head"), Fold(lines("t", 5), Text("t short")), Log([f"e{i}" for i in range(9)])]
    assert draw(fit(parts, None)) == ["head", *(f"t{i}" for i in range(5)), *(f"· e{i}" for i in range(9))]


def test_the_log_folds_first_to_its_newest_lines_then_the_table():
    parts = [
        Text("head"),
        Fold(lines("t", 5), Text("t short"), rank=1),
        Log([f"e{i}" for i in range(9)], keep=3),
    ]
    screen = draw(fit(parts, 10))
    # 1 + 5 + (count + 3 lines) = 10: the table stays in full, the log keeps its newest three
    assert screen == ["head", "t0", "t1", "t2", "t3", "t4", "… 6 earlier events: type 'log' to read them"] + [
        "· e6",
        "· e7",
        "· e8",
    ]


def test_past_every_soft_form_the_log_goes_down_to_its_count():
    parts = [
        Text("head"),
        Fold(lines("t", 5), Text("t short"), rank=1),
        Log([f"e{i}" for i in range(9)], keep=3),
    ]
    screen = draw(fit(parts, 3))
    assert screen == ["head", "t short", "… 9 earlier events: type 'log' to read them"]


def test_a_part_with_an_empty_form_leaves_no_row_and_what_cannot_fold_is_drawn_anyway():
    parts = [lines("fixed", 4), Fold(Text("legend"), Group()), Text("decision")]
    assert draw(fit(parts, 2)) == ["fixed0", "fixed1", "fixed2", "fixed3", "decision"]


def test_rows_are_counted_at_the_terminal_width():
    long = "word " * 30  # 150 characters: 4 rows at 40 columns, 2 at 80 (each measured at its own)
    parts = [Fold(Text(long), Text("short")), Text("end")]
    assert draw(fit(parts, 3), width=80)[0].startswith("word")
    assert draw(fit(parts, 3), width=40) == ["short", "end"]


def test_one_earlier_event_is_counted_in_the_singular():
    screen = draw(fit([Log(["a", "b", "c"], keep=1)], 2))
    assert screen == ["… 2 earlier events: type 'log' to read them", "· c"]
    # hiding one line gains a row only when that line wraps: 70 characters take two rows of 60
    assert draw(fit([Log(["a" * 70, "b", "c"], keep=1)], 3)) == [
        "… 1 earlier event: type 'log' to read it",
        "· b",
        "· c",
    ]
