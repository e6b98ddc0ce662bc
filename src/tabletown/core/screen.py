"""A terminal screen that fits the rows the terminal has: the parts of a board that can be shown
shorter (a long table, the event log) fold, one step at a time, until the whole fits.

A game's renderer lists its board's parts in the order they are drawn; a part that may be shortened
is a :class:`Fold` (its forms, fullest first) or a :class:`Log` (event lines, folding to the newest
ones). Which part folds first is the renderer's choice (``rank``: lower folds first), because only
the game knows what a decision needs; how many rows each form takes depends on the terminal's width,
so the folding happens when Rich draws the screen. Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from .i18n import CORE_DOMAIN, Speaker


class Fold:
    """A part of a screen with shorter forms, fullest first. Folding steps through them: first down
    to ``soft`` (the form a part keeps while others can still fold), then, when the screen is still
    too tall, down to the last form."""

    def __init__(self, *forms: RenderableType, rank: int = 0, soft: int | None = None) -> None:
        if not forms:
            raise ValueError("a fold needs at least one form")
        self.forms = forms
        self.rank = rank
        self.soft = len(forms) - 1 if soft is None else min(soft, len(forms) - 1)
        self._rows: dict[tuple[int, int], int] = {}  # (level, width): rows

    @property
    def last(self) -> int:
        return len(self.forms) - 1

    def form(self, level: int) -> RenderableType:
        return self.forms[level]

    def rows(self, level: int, console: Console, options: ConsoleOptions) -> int:
        """The rows ``form(level)`` takes at the options' width (measured once per width)."""
        key = (level, options.max_width)
        if key not in self._rows:
            self._rows[key] = rows(console, self.form(level), options)
        return self._rows[key]


class Log(Fold):
    """Event lines: in full, or the newest ones under a line that counts the earlier ones and names
    the command that shows them. Folds one line at a time, to ``keep`` lines first, then to none."""

    def __init__(
        self,
        lines: Sequence[str],
        lang: str = "en",
        keep: int = 3,
        rank: int = 0,
        prefix: str = "· ",
        style: str = "dim",
    ) -> None:
        self.lines = [prefix + line for line in lines]
        self.style = style
        self.words = Speaker(CORE_DOMAIN, lang)
        self._line_rows: dict[int, list[int]] = {}  # width: the rows of each line
        # one form per number of lines hidden (level), 0 to all of them
        super().__init__(*([Text("")] * (len(lines) + 1)), rank=rank, soft=max(0, len(lines) - keep))

    def form(self, level: int) -> RenderableType:
        shown = self.lines[level:]
        if not level:
            return Text("\n".join(shown), style=self.style)
        earlier = self.words.trn(
            "… {count} earlier event: type 'log' to read it",
            "… {count} earlier events: type 'log' to read them",
            level,
        )
        return Text("\n".join([earlier, *shown]), style=self.style)

    def rows(self, level: int, console: Console, options: ConsoleOptions) -> int:
        # Each line is measured once: a long log would otherwise be drawn again for every step.
        width = options.max_width
        if width not in self._line_rows:
            self._line_rows[width] = [rows(console, Text(line), options) for line in self.lines]
        hint = rows(console, self.form(len(self.lines)), options) if level else 0
        return hint + sum(self._line_rows[width][level:])


def rows(console: Console, renderable: RenderableType, options: ConsoleOptions) -> int:
    """The rows ``renderable`` takes when drawn with ``options`` (its width; no height limit)."""
    return len(console.render_lines(renderable, options.update(height=None), pad=False))


class Screen:
    """The parts of a board drawn in order, folded until they fit ``height`` rows (when even the
    shortest forms do not fit, they are drawn anyway: the decision's own lines are never cut)."""

    def __init__(self, parts: Iterable[RenderableType | Fold], height: int) -> None:
        self.parts = list(parts)
        self.height = height

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        levels = self.levels(console, options)
        for index, part in enumerate(self.parts):
            yield part.form(levels[index]) if isinstance(part, Fold) else part

    def levels(self, console: Console, options: ConsoleOptions) -> dict[int, int]:
        """The form each fold is drawn in: the fullest that let the screen fit."""
        folds = sorted(
            ((part.rank, index) for index, part in enumerate(self.parts) if isinstance(part, Fold)),
        )
        levels = {index: 0 for _rank, index in folds}
        total = sum(self._rows(index, 0, console, options) for index in range(len(self.parts)))
        for limit in ("soft", "last"):  # every part to its soft form before any goes further
            for _rank, index in folds:
                fold = self.parts[index]
                assert isinstance(fold, Fold)
                floor = fold.soft if limit == "soft" else fold.last
                while total > self.height and levels[index] < floor:
                    before = fold.rows(levels[index], console, options)
                    levels[index] += 1
                    total += fold.rows(levels[index], console, options) - before
        return levels

    def _rows(self, index: int, level: int, console: Console, options: ConsoleOptions) -> int:
        part = self.parts[index]
        if isinstance(part, Fold):
            return part.rows(level, console, options)
        return rows(console, part, options)


def fit(parts: Iterable[RenderableType | Fold], height: int | None) -> RenderableType:
    """The board: every part in its fullest form (``height`` None: no limit, as a replay or a
    redraw shows it), else a :class:`Screen` folded to ``height`` rows."""
    if height is None:
        return Group(*(part.form(0) if isinstance(part, Fold) else part for part in parts))
    return Screen(parts, height)
