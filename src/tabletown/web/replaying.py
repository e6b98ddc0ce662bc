"""Replays: any position of a table's game as one seat sees it, and record files people upload,
watched as read-only tables (the replay page, web/routes/replays.py)."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..core.errors import OptionError, RecordError
from ..core.fairness import MAX_SEED
from ..core.i18n import N_
from ..core.record import Record
from .catalog import find_game
from .live import (
    LiveTable,
    Seat,
    TableError,
    labelled,
    people,
    reader_key,
    seat_view,
    unworded_events,
    word_events,
)

REPLAY_CHECKPOINT = 32
# Positions a table keeps for its replays, besides the start: checkpoints are spread further apart
# on a long table (every 32, 64, 128... moves), so a replay request never pins more than this many
# copies of the position (security audit 6: a 5,000-move table used to keep 156 of them).
MAX_REPLAY_POINTS = 8


def checkpoint_every(moves: int) -> int:
    """Moves between a table's replay checkpoints, for a table of ``moves`` moves."""
    every = REPLAY_CHECKPOINT
    while moves > every * MAX_REPLAY_POINTS:
        every *= 2
    return every


KEPT_UPLOADS = 16
# What a replay request costs besides the moves it replays, in moves (charged to the client address,
# Limits.replay_moves_*): building and wording the view costs about as much as a hundred moves.
REPLAY_REQUEST_COST = 100


def replay_view(
    table: LiveTable,
    step: int,
    seat: int | None,
    lang: str = "en",
    instead: str | None = None,
    charge: Callable[[int], None] | None = None,
    charge_words: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The position after ``step`` moves as ``seat`` sees it (a new state; the live one untouched).

    Before the end the move list withholds other seats' secret moves (``moves_for``); the views
    themselves are the engine's, which show each seat only what it may know.

    ``instead`` (a move in the game's notation) shows the position had move ``step + 1``'s seat
    played that move there instead (the analysis's better move, on the board). Only for a finished
    game or an uploaded record: on a live table a move tried on a copy could reveal what comes next
    (a drawn card, a die), which nobody may know yet.

    ``charge(moves)`` is told the moves this request replays before any is, and ``charge_words(n)``
    the events its view words afresh (those its reader's entry in the cache of worded events does
    not hold) before they are worded; either raises to refuse."""
    with table.lock:
        actions = list(table.actions)
        moves = table.moves_for(seat) if table.status != "replay" else [[p, t] for p, t in actions]
        fairness = table.fairness() if table.status != "replay" else None
    if isinstance(step, bool) or not isinstance(step, int):
        raise TableError(422, "replay.step", N_("step is a move number"))
    step = max(0, min(step, len(actions)))
    points = table.replay_points
    every = checkpoint_every(len(actions))
    # A copy, taken in one step under the GIL: another replay's thread may add a checkpoint, or,
    # once the table has grown past a wider spacing, drop the very one chosen here (a KeyError,
    # answered 500, when the chosen point was looked up again; security audit 19).
    known = dict(points)
    start = max((k for k in known if k <= step), default=None)
    last = table.replay_last
    from_last = last is not None and last[0] <= step and (start is None or last[0] > start)
    if charge is not None:
        charge(step - (last[0] if from_last and last is not None else start or 0))
    if from_last and last is not None:
        start = last[0]
        state = last[1].clone()
    elif start is None:
        try:
            state = table.game.new_game(table.num_players, table.options, table.seed)
        except Exception as exc:
            raise TableError(
                422, "replay.setup", N_("the record's set-up is refused: {problem}"), problem=exc
            ) from None
        start = 0
        points[0] = state.clone()
    else:
        state = known[start].clone()
    for index in range(start, step):
        player, text = actions[index]
        try:
            state.apply_text(player, text)
        except Exception as exc:
            # A live table's moves may be secret: name the move by number only.
            shown = f" ({player}: {text!r})" if table.status == "replay" else ""
            raise TableError(
                422,
                "replay.refused",
                N_("move {number}{shown} cannot be replayed: {problem}"),
                number=index + 1,
                shown=shown,
                problem=type(exc).__name__,
            ) from None
        if (index + 1) % every == 0 and index + 1 not in points:
            points[index + 1] = state.clone()
    for kept in list(points):  # the table grew: drop the checkpoints between the wider ones
        if kept % every:
            points.pop(kept, None)
    table.replay_last = (step, state.clone())
    tried = None
    if instead is not None:
        tried = _play_instead(table, state, actions, step, instead)
    view = dict(seat_view(state, seat, 0))
    view.setdefault("to_act", list(state.to_act))
    key = reader_key(table, seat, lang)
    if charge_words is not None:
        charge_words(unworded_events(key, view.get("events")))
    view.update(
        {
            "table": table.id,
            "step": step,
            "steps": len(actions),
            "seq": step,
            "moves": moves,
            "fairness": fairness,
            "event_text": word_events(table.game, key, view.get("events"), people(table, seat, lang), lang),
            "seats": labelled([s.public() for s in table.seats], lang),
            "legal": [],
        }
    )
    if tried is not None:
        view["instead"] = tried
    return view


def _play_instead(table: LiveTable, state: Any, actions: list[Any], step: int, move: str) -> dict[str, Any]:
    """Apply ``move`` for the seat that made move ``step + 1``, in place of that move."""
    if table.status not in ("finished", "replay"):
        raise TableError(
            403, "replay.instead_live", N_("another move is tried on the board only once the game is over")
        )
    if step >= len(actions):
        raise TableError(422, "replay.instead_step", N_("no move was made after the last position"))
    player = actions[step][0]
    try:
        state.apply_text(player, move)
    except Exception as exc:
        raise TableError(
            422, "replay.instead_refused", N_("that move cannot be played there: {problem}"), problem=exc
        ) from None
    return {"seat": player, "move": move, "played": actions[step][1]}


class Uploads:
    """The record files uploaded lately, each as a read-only table (kept briefly, for the replay page)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self.by_text: dict[bytes, str] = {}  # an uploaded document's canonical text -> its key above

    def table(self, data: Any, admit: Callable[[], None] | None = None) -> LiveTable:
        """A record file someone uploaded, as a read-only table for the replay page (kept briefly).
        ``admit`` is called before a record not kept here is taken (it raises to refuse it): a new
        record costs a replay from its seed, one already kept costs nothing."""
        # The document's own text names it here first: one C-speed encoding, so that a record kept
        # already costs nothing more and a new one is admitted (or refused) before it is read
        # through (security audit 15: a refused upload used to cost its whole reading first).
        try:
            digest = json.dumps(data, sort_keys=True).encode()  # (ASCII: an unpaired surrogate too)
        except (RecursionError, UnicodeEncodeError, TypeError, ValueError):
            raise TableError(
                422, "record.invalid", N_("the record's seats or moves are out of range")
            ) from None
        with self.lock:
            kept = self.by_text.get(digest)
            if kept is not None and kept in self.tables:
                self.tables.move_to_end(kept)
                return self.tables[kept]
        if admit is not None:
            admit()
        try:
            record = Record.from_json(data) if isinstance(data, dict) else None
        except RecordError as exc:
            raise TableError(422, "record.invalid", str(exc)) from None
        if record is None:
            raise TableError(422, "record.invalid", N_("a record is a JSON object"))
        game = find_game(record.game)
        if game is None:
            raise TableError(422, "record.game", N_("unknown game {game!r}"), game=record.game)
        if not 1 <= len(record.seats) <= 16 or len(record.actions) > 200_000:
            raise TableError(422, "record.invalid", N_("the record's seats or moves are out of range"))
        if not 0 <= record.seed <= MAX_SEED:
            raise TableError(422, "record.seed", N_("the record's seed is out of range"))
        try:
            # The set-up as it will replay (options resolved and checked, so the title and the key
            # name what is played), and the record as text that can be sent (security audit 11:
            # an unpaired surrogate in a seat or a move, or a value nested a thousand deep, got
            # this far and made every step of the replay an internal error).
            options = game.resolve_options(len(record.seats), record.options)
            key = json.dumps({**record.to_json(), "options": options}, sort_keys=True, ensure_ascii=False)
            key.encode()
        except OptionError as exc:
            raise TableError(
                422, "replay.setup", N_("the record's set-up is refused: {problem}"), problem=exc
            ) from None
        except (RecursionError, UnicodeEncodeError, TypeError, ValueError):
            raise TableError(
                422, "record.invalid", N_("the record's seats or moves are out of range")
            ) from None
        with self.lock:
            table = self.tables.get(key)
            if table is not None:
                self.tables.move_to_end(key)
                self.by_text[digest] = key
                return table
        table = LiveTable(
            id="upload",
            game=game,
            options=options,
            num_players=len(record.seats),
            seed=record.seed,
            seats=[Seat(i, kind, "", None, True) for i, kind in enumerate(record.seats)],
            state=None,
            status="replay",
            actions=list(record.actions),
        )
        with self.lock:
            self.tables[key] = table
            self.by_text[digest] = key
            while len(self.tables) > KEPT_UPLOADS:
                self.tables.popitem(last=False)
            for text in [t for t, k in self.by_text.items() if k not in self.tables]:
                del self.by_text[text]  # (its record is no longer kept)
        return table
