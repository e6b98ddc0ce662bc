"""Playing and replaying at the terminal: the human seat's prompt, hot-seat hand-over, and the stepper.

What a person types at a prompt:
* a move in the game's notation (``build cafe``, ``2.5``, ``t 3,0 r1``);
* ``#N`` for entry N of the numbered move list; a bare number is an entry too unless the game's
  notation reads it as a move, and when both readings exist the prompt asks which one was meant;
* ``help`` (or ``?``) lists every move and explains the notation, ``board`` redraws the whole board
  (with its newest events), ``log`` prints every event of the last prompt's screen, ``quit`` saves
  and leaves (after a yes or no: any other answer asks again).
Every event the seat has not been shown yet is printed with the board before its prompt. In a
terminal the prompt's screen fits the terminal's rows: a game's board folds its longer parts (the
log to its newest events, long tables to a summary) so that whose turn it is, the seat's own position,
the decision and its moves stay on screen; ``board`` and ``log`` show what was folded.
Nothing typed can end the game with a traceback: every refusal names the rule and changes nothing.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.text import Text

from .core.errors import ActionError, TabletownError
from .core.game import Action, Game, State
from .core.i18n import CORE_DOMAIN, Speaker, gettext, in_language
from .core.record import Record, apply_recorded

MAX_MENU_DIGITS = 6
PAGE = 120


class LeaveGame(Exception):
    """The person asked to stop (quit, end of input or Ctrl-C): save and leave."""


@dataclass
class HotSeat:
    """Who last had the keyboard, so that a hand-over between two human seats clears the screen, and
    how much of the log each seat has been shown (``resumed``: a saved game, whose earlier events
    were shown in an earlier sitting)."""

    humans: int
    last: int | None = None
    seen_events: dict[int, int] = field(default_factory=dict)
    resumed: bool = False

    def shown(self, seat: int) -> int | None:
        """The log index up to which ``seat`` has been shown the events; None when it is not known (a
        resumed game before the seat's first prompt in this sitting)."""
        return self.seen_events.get(seat, None if self.resumed else 0)

    def unseen_from(self, seats: Iterable[int]) -> int | None:
        """The log index from which some of ``seats`` has been shown no event (None: not known)."""
        marks = [self.shown(seat) for seat in seats]
        if not marks or None in marks:
            return None
        return min(mark for mark in marks if mark is not None)


def render_board(
    game: Game, view: Mapping[str, Any], lang: str, all_events: bool = False, height: int | None = None
) -> RenderableType:
    """The game's board for ``view`` in ``lang``, its log with the newest few events of the view, or
    with every one of them (``all_events``: a view asked for the events a seat has not seen yet);
    with ``height``, folded to that many rows by a game whose render() can (else drawn in full)."""
    if height is not None and _takes(type(game).render, "height"):
        return game.render(view, lang=lang, all_events=all_events, height=height)
    if all_events and _takes(type(game).render, "all_events"):
        if _takes(type(game).render, "lang"):
            return game.render(view, lang=lang, all_events=True)
        return game.render(view, all_events=True)
    board = in_language(game.render, view, lang=lang)
    if not all_events:
        return board
    # A game from elsewhere whose render() predates ``all_events`` (its log may leave events out):
    # the board as it draws it, then every event the seat has not seen, one line each.
    said = [
        game.describe_event(event, None, lang) for event in view.get("events", ()) if isinstance(event, dict)
    ]
    return Group(board, *(Text(text) for text in said if text))


@functools.cache
def _takes(render: Any, parameter: str) -> bool:
    try:
        return parameter in inspect.signature(render).parameters
    except (TypeError, ValueError):
        return False


class HumanAgent:
    """Asks a person at the terminal for a move, showing the board from their seat."""

    def __init__(self, game: Game, console: Console, table: HotSeat, lang: str = "en") -> None:
        self.game = game
        self.console = console
        self.table = table
        self.lang = lang
        self.words = Speaker(CORE_DOMAIN, lang)
        self.events: list[Mapping[str, Any]] = []  # the events of the last prompt's screen ('log')

    # -- the prompt ------------------------------------------------------------------------------------
    def __call__(self, state: State, player: int) -> Action:
        self._hand_over(player)
        self._show(state, player)
        while True:
            prompt = self.words.tr("seat {seat}>", seat=player)
            text = self._ask(f"[bold cyan]{escape(prompt)}[/] ")
            action = self.understand(state, player, text)
            if action is not None:
                return action

    def _ask(self, prompt: str) -> str:
        try:
            return self.console.input(prompt).strip()
        except EOFError:
            self.console.print("\n" + self.words.tr("no more input"))
            raise LeaveGame from None
        except KeyboardInterrupt:
            self.console.print("\n" + self.words.tr("interrupted (Ctrl-C)"))
            raise LeaveGame from None

    def _yes_or_no(self, question: str) -> bool:
        """Asks ``question`` until the answer is yes or no (y/n, or the language's own words): any
        other answer, an empty one included, asks again rather than counting as either."""
        yes = {"y", "yes", self.words.trp("answer yes", "y"), self.words.trp("answer yes", "yes")}
        no = {"n", "no", self.words.trp("answer no", "n"), self.words.trp("answer no", "no")}
        while True:
            answer = self._ask(f"[yellow]{escape(question)}[/] ").lower()
            if answer in yes:
                return True
            if answer in no:
                return False
            again = self.words.tr("please answer y or n")
            self.console.print(f"[red]{escape(again)}[/]")

    def understand(self, state: State, player: int, text: str) -> Action | None:
        """The action ``text`` asks for, or None after explaining why there is none."""
        legal = state.legal_actions(player)
        lowered = text.lower()
        if lowered in {"", "help", "?", "moves"}:
            self._help(state, player, legal)
            return None
        if lowered == "board":
            self._show(state, player, redraw=True)
            return None
        if lowered == "log":
            self._log()
            return None
        if lowered in {"quit", "exit"}:
            if self._yes_or_no(self.words.tr("save the game and leave? (y/n)")):
                raise LeaveGame
            return None
        if lowered.startswith("#"):
            return self._menu(legal, text[1:], state)
        notation = self._read(state, player, text)
        if text.isascii() and text.isdigit():
            return self._number(state, player, legal, text, notation)
        if isinstance(notation, TabletownError):
            self._refuse(self._error_text(notation))
            return None
        return notation

    def _read(self, state: State, player: int, text: str) -> Action | TabletownError:
        """The legal action the notation reads ``text`` as, or the error that says why not."""
        try:
            action = state.parse_action(text, player)
            probe = state.clone()
            probe.apply(player, action)
        except TabletownError as exc:
            return exc
        return action

    def _menu(self, legal: list[Action], digits: str, state: State) -> Action | None:
        if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_MENU_DIGITS):
            self._refuse(self.words.tr("after # comes a move number, 1-{count}", count=len(legal)))
            return None
        number = int(digits)
        if not 1 <= number <= len(legal):
            self._refuse(
                self.words.tr("no move #{number}, choose 1-{count}", number=number, count=len(legal))
            )
            return None
        return legal[number - 1]

    def _number(
        self, state: State, player: int, legal: list[Action], text: str, notation: Action | TabletownError
    ) -> Action | None:
        in_menu = len(text) <= MAX_MENU_DIGITS and 1 <= int(text) <= len(legal)
        if isinstance(notation, TabletownError):
            if in_menu:
                return legal[int(text) - 1]
            self._refuse(
                self.words.tr(
                    "no move {number}, choose 1-{count} (or type the move)",
                    number=text[:MAX_MENU_DIGITS],
                    count=len(legal),
                )
            )
            return None
        if not in_menu or legal[int(text) - 1] == notation:
            return notation
        # Both readings exist and differ: never guess on a choice that cannot be taken back.
        as_move = state.format_action(notation)
        as_entry = state.format_action(legal[int(text) - 1])
        question = self.words.tr(
            "'{text}' is the move '{move}', while #{text} is '{entry}'. Play '{move}'? "
            "(y = yes, #{text} = the list entry, n = neither)",
            text=text,
            move=as_move,
            entry=as_entry,
        )
        yes = {"y", "yes", self.words.trp("answer yes", "y"), self.words.trp("answer yes", "yes")}
        no = {"n", "no", self.words.trp("answer no", "n"), self.words.trp("answer no", "no")}
        while True:  # an empty or unknown answer asks again: this choice cannot be taken back
            answer = self._ask(f"[yellow]{escape(question)}[/] ")
            if answer.lower() in yes:
                return notation
            if answer == f"#{text}":
                return legal[int(text) - 1]
            if answer.lower() in no:
                return None

    def _refuse(self, message: str) -> None:
        hint = self.words.tr("(type 'help' for the moves you can make)")
        self.console.print(f"[red]{escape(message)}[/]  {escape(hint)}")

    def _error_text(self, error: TabletownError) -> str:
        """A refusal in the player's language, its rule id after it (as the English error reads)."""
        if isinstance(error, ActionError):
            return f"{self.game.describe_error(error, self.lang)} [{error.rule}]"
        return str(error)

    # -- what the person sees ---------------------------------------------------------------------------
    def _hand_over(self, player: int) -> None:
        """Between two human seats: clear the screen and wait, so nobody sees the other's board."""
        table = self.table
        if table.humans > 1 and table.last is not None and table.last != player:
            self._blank_screen()
            hand_over = self.words.tr("pass the keyboard to seat {seat}, then press Enter", seat=player)
            self._ask(f"[bold]{escape(hand_over)}[/] ")
            self._blank_screen()
        table.last = player

    def _blank_screen(self) -> None:
        """Leave nothing of the last seat's board where the next seat could read it (security
        audit 13): Rich's clear keeps the old screen in the scrollback of most terminals (xterm,
        GNOME Terminal, Konsole, iTerm2, Windows Terminal), so the scrollback is erased too
        (ESC[3J); a terminal that cannot be cleared (TERM=dumb, a pipe) gets a screenful of blank
        lines, which pushes the board out of sight."""
        console = self.console
        if console.is_terminal and not console.is_dumb_terminal:
            console.file.write("\x1b[2J\x1b[3J\x1b[H")
            console.file.flush()
        else:
            console.print("\n" * max(console.height, 40), end="")

    def _show(self, state: State, player: int, redraw: bool = False) -> None:
        """The board from ``player``'s seat. At a new prompt the view carries only the events this seat
        has not been shown yet, and the game's renderer words every one of them along with the board
        (however many happened since: a bet at the seat's casino, the pay-outs of a bot's turn);
        ``board`` (``redraw``), and the first prompt of a resumed game, draw the whole board with
        its newest few events instead. In a terminal a prompt's screen is fitted to its rows."""
        seen = self.table.shown(player)
        whole = redraw or seen is None
        view = state.view(player) if redraw or seen is None else state.view(player, since=seen)
        self.table.seen_events[player] = view["event_count"]
        if not redraw:  # what 'log' prints: the events this prompt's screen words
            self.events = [event for event in view.get("events", ()) if isinstance(event, Mapping)]
        status = Text(in_language(self.game.status_line, view, lang=self.lang), style="bold")
        legal = state.legal_actions(player)
        height = None if redraw else self._screen_rows()
        if height is None:
            self.console.print(render_board(self.game, view, self.lang, all_events=not whole))
            self.console.print(status)
            self._help(state, player, legal, short=True)
            return
        self._fitted(view, status, self._moves(state, legal), not whole, height)

    def _screen_rows(self) -> int | None:
        """The rows a prompt's screen may take: the terminal's, or None (no limit) when the output
        is not a terminal (a pipe or a file keeps every line, and nothing scrolls out of sight)."""
        console = self.console
        return console.height if console.is_terminal else None

    def _fitted(
        self, view: Mapping[str, Any], status: Text, moves: list[str], all_events: bool, height: int
    ) -> None:
        """Board, status line, moves and hint in ``height`` rows with the prompt's own row: the moves
        get the rows the folded board leaves (all of them when it leaves enough, at least two)."""
        hint = self._hint()
        fixed = self._rows(status) + self._rows(hint) + 1  # + the prompt's row
        room = max(0, height - fixed)
        wanted = self._rows(Group(*self._move_lines(moves, None)))
        # The board first gets what the moves leave, but the moves give up rows down to a quarter
        # of the room (at least two): a long list must not push the board's decision out of sight.
        board_height = max(0, room - min(wanted, max(2, room // 4)))
        board = render_board(self.game, view, self.lang, all_events, height=board_height)
        board_rows = self._rows(board)
        self.console.print(board)
        self.console.print(status)
        for line in self._move_lines(moves, max(2, room - board_rows)):
            self.console.print(line)
        self.console.print(hint)

    def _rows(self, renderable: RenderableType) -> int:
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def _moves(self, state: State, legal: list[Action]) -> list[str]:
        return [f"[cyan]#{i + 1}[/] {escape(state.format_action(a))}" for i, a in enumerate(legal)]

    def _move_lines(self, moves: list[str], rows: int | None) -> list[RenderableType]:
        """The numbered moves a prompt shows: up to 40, or as many as fit ``rows`` rows (with the
        line that counts them all), the rest left to 'help'."""
        shown = min(len(moves), 40)
        lines = self._listed(moves, shown)
        if rows is not None:
            while shown > 1 and self._rows(Group(*lines)) > rows:
                shown = max(1, shown - max(1, shown // 8))
                lines = self._listed(moves, shown)
        return lines

    def _listed(self, moves: list[str], shown: int) -> list[RenderableType]:
        lines: list[RenderableType] = [Columns(moves[:shown], padding=(0, 2))]
        if shown < len(moves):
            many = self.words.tr("... {count} moves in all: 'help' lists every one", count=len(moves))
            lines.append(Text(many, style="dim"))
        return lines

    def _hint(self) -> Text:
        hint = self.words.tr(
            "type a move or #N; 'help' explains the notation, 'board' redraws, 'quit' leaves"
        )
        return Text(hint, style="dim")

    def _log(self) -> None:
        """Every event of the last prompt's screen, in full (a short terminal shows only the newest)."""
        said = [in_language(self.game.describe_event, event, None, lang=self.lang) for event in self.events]
        if not said:
            self.console.print(escape(self.words.tr("no events since your last move")))
        for text in said:
            self.console.print(Text("· " + text, style="dim"))

    def _help(self, state: State, player: int, legal: list[Action], short: bool = False) -> None:
        texts = self._moves(state, legal)
        if short and len(texts) > 40:
            for line in self._listed(texts, 40):
                self.console.print(line)
        else:
            for start in range(0, len(texts), PAGE):
                self.console.print(Columns(texts[start : start + PAGE], padding=(0, 2)))
                more = self.words.tr("Enter for more, q to stop")
                if start + PAGE < len(texts) and self._ask(f"[dim]{escape(more)}[/] ") == "q":
                    break
        # The notation's help is long (three or four lines on 80 columns): only 'help' prints it, so
        # that the prompt leaves room for the board.
        if self.game.notation_help and not short:
            notation = gettext(self.game.name, self.lang, self.game.notation_help)
            self.console.print(f"[dim]{escape(notation)}[/]")
        if not short:
            log = self.words.tr("'log' prints every event of this prompt's screen")
            self.console.print(f"[dim]{escape(log)}[/]")
        self.console.print(self._hint())


def secret_moves(record: Record) -> list[bool]:
    """Which of the record's moves are secret from the other seats (as the web's move list has
    it): none once the game is over, else each move its mover chose in secret (a hidden choice of
    a simultaneous round, a loan). A replay shows such a move's text only to its own seat."""
    state = record.initial_state()
    secret = []
    for index, (player, text) in enumerate(record.actions):
        action = state.parse_action(text, player)
        secret.append(bool(state.is_secret(player, action)))
        apply_recorded(state, index, player, text)
    if state.is_over:
        return [False] * len(secret)
    return secret


def resume_state(record: Record) -> State:
    """The position a saved (possibly unfinished) record reached."""
    return record.replay()


class Stepper:
    """Steps through a record: next, back, jump to a move, choose whose view to show."""

    def __init__(self, record: Record, console: Console, seat: int | None, lang: str = "en") -> None:
        self.record = record
        self.console = console
        self.seat = seat
        self.lang = lang
        self.words = Speaker(CORE_DOMAIN, lang)
        self.shown = 0
        self.total = len(record.actions)
        self._states: dict[int, State] = {0: record.initial_state()}
        self._secret = secret_moves(record)

    def state_after(self, moves: int) -> State:
        """The position after ``moves`` actions (cached every 50 moves, so stepping back is quick)."""
        base = max(k for k in self._states if k <= moves)
        state = self._states[base].clone()
        for index in range(base, moves):
            player, text = self.record.actions[index]
            apply_recorded(state, index, player, text)
            if (index + 1) % 50 == 0 and index + 1 not in self._states:
                self._states[index + 1] = state.clone()
        return state

    def show(self, moves: int) -> None:
        state = self.state_after(moves)
        game = state.game
        words = self.words
        self.console.print(in_language(game.render, state.view(self.seat), lang=self.lang))
        if moves:
            player, text = self.record.actions[moves - 1]
            if self._secret[moves - 1] and player != self.seat:
                text = words.tr("a secret choice (shown at the end)")
            last = words.tr(
                "last move: seat {seat} ({kind}): {move}",
                seat=player,
                kind=self.record.seats[player],
                move=text,
            )
            self.console.print(escape(last))
            before = self.state_after(moves - 1)
            for event in state.events(self.seat, len(before.log)):
                said = in_language(game.describe_event, event, None, lang=self.lang)
                self.console.print(f"  [dim]{escape(said)}[/]")
        who = words.tr("spectator") if self.seat is None else words.tr("seat {seat}", seat=self.seat)
        where = words.tr("move {number} of {total}", number=moves, total=self.total)
        self.console.print(f"[bold]{escape(where)}[/] " + escape(words.tr("(view: {who})", who=who)))

    def run(self) -> None:
        moves = 0
        self.show(moves)
        while True:
            try:
                keys = self.words.tr("n next, b back, j N jump, s N seat (s - spectator), q quit>")
                command = self.console.input(f"[dim]{escape(keys)}[/] ")
            except (EOFError, KeyboardInterrupt):
                return
            shown = self.command(command.strip().lower(), moves)
            if shown is None:  # refused: the message stays on screen under the board
                continue
            if shown < 0:
                return
            moves = shown
            self.show(moves)

    def command(self, command: str, moves: int) -> int | None:
        """The move number to show after ``command`` (-1: leave; None: the command was refused, with
        a message saying why, and nothing is to be redrawn)."""
        words = command.split()
        if command in {"q", "quit"}:
            return -1
        if command in {"", "n", "next"}:
            return min(self.total, moves + 1)
        if command in {"b", "back"}:
            return max(0, moves - 1)
        if words and words[0] in {"j", "jump"}:
            if len(words) == 2 and _small_number(words[1]):
                return max(0, min(self.total, int(words[1])))
            jump = self.words.tr("after j comes a move number, 0-{total}", total=self.total)
            self.console.print(f"[red]{escape(jump)}[/]")
            return None
        if words and words[0] in {"s", "seat"}:
            if len(words) == 2 and words[1] == "-":
                self.seat = None
                return moves
            if len(words) == 2 and _small_number(words[1]) and int(words[1]) < len(self.record.seats):
                self.seat = int(words[1])
                return moves
            seats = self.words.tr("seats are 0-{last}, or - for a spectator", last=len(self.record.seats) - 1)
            self.console.print(f"[red]{escape(seats)}[/]")
            return None
        if _small_number(command):
            return max(0, min(self.total, int(command)))
        # (a message inside an f-string would escape the catalogs' extraction)
        unknown = self.words.tr("unknown command: n, b, j N, s N or q")
        self.console.print(f"[red]{escape(unknown)}[/]")
        return None


def _small_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 9


def human_count(seats: Sequence[str]) -> int:
    return sum(1 for seat in seats if seat == "human")
