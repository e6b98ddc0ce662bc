"""A live table in memory and what each seat may see of it: the table, its seats and listeners,
the errors a request gets, and the payload (view, legal moves, events in words) built for a seat or a
spectator. ``TableService`` (web/tables.py) keeps these in step with the database."""

from __future__ import annotations

import functools
import inspect
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..core.errors import ActionError, OptionError
from ..core.fairness import commitment
from ..core.game import Game, State
from ..core.i18n import CORE_DOMAIN, LANGUAGES, N_, catalog, seat_names
from ..core.record import Record
from ..core.session import Agent
from ..core.words import Names


def json_text(data: Any) -> str:
    """Compact JSON, as the server sends it (orjson: ten times the standard library's speed on a
    whole view; integer keys become strings, as with ``json``)."""
    return json_bytes(data).decode()


def json_bytes(data: Any) -> bytes:
    """``json_text`` encoded as UTF-8 (what an HTTP answer sends)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


class TableError(Exception):
    """A request refused by the table service; ``status`` is the HTTP status to answer with.
    ``wording`` words the message in a language (a game's refusal: ``TableError.refused``)."""

    def __init__(
        self,
        status: int,
        rule: str,
        message: str,
        retry_after: float | None = None,
        wording: Callable[[str], str] | None = None,
        **fields: Any,
    ) -> None:
        # ``message`` is a template marked with N_ where it is raised, ``{fields}`` filled from the
        # keyword arguments: the catalog words the template, the fields stay as given.
        text = message.format(**fields) if fields else message
        super().__init__(text)
        self.status = status
        self.rule = rule
        self.message = text
        self.template = message
        self.fields = fields
        self.retry_after = retry_after  # seconds, for 429 (the Retry-After header)
        self.wording = wording

    @classmethod
    def refused(cls, game: Game, error: ActionError | OptionError, rule: str | None = None) -> TableError:
        """A move (or set-up) the game refused (422), its message in each reader's language."""
        return cls(
            422,
            rule or (error.rule if isinstance(error, ActionError) else "table.options"),
            error.message,
            wording=functools.partial(game.describe_error, error),
        )

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The error as answered: its rule (an id, never translated) and its message in ``lang``
        (the game's wording of a refused move, else the shared catalog's wording)."""
        if lang == "en":
            return {"rule": self.rule, "message": self.message}
        if self.wording is not None:
            return {"rule": self.rule, "message": self.wording(lang)}
        text = catalog(CORE_DOMAIN, lang).gettext(self.template)
        if self.fields:
            try:
                text = text.format(**self.fields)
            except (KeyError, IndexError, ValueError):  # a translation naming a field it is not given
                text = self.message
        return {"rule": self.rule, "message": text}


# A table's error when it reached the most moves a table takes (tables.MAX_LIVE_MOVES) unfinished:
# it ends there, so it stops counting as running (lobby, bot limits, drivers, start-up) for ever.
# Kept as the table's error text and worded in the reader's language in the payload.
ENDED_AT_MOVE_LIMIT = N_("this game reached the most moves a table takes and ended without a result")


def not_found() -> TableError:
    return TableError(404, "table.not_found", N_("no such table"))


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot:NAME"
    token: str
    name: str | None = None
    joined: bool = False
    away: bool = False  # a human whose turn timer ran out: a standby bot plays for them
    open: bool = False  # the creator let anyone take this seat from the lobby (else: join link only)

    @property
    def is_bot(self) -> bool:
        return self.kind.startswith("bot:")

    @property
    def takeable(self) -> bool:
        return self.open and not self.joined

    def public(self) -> dict[str, Any]:
        # A dict of fields like core/spaces.py's GameType.to_json on purpose: each names its own fields.
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "joined": self.joined,
            "away": self.away,
            "open": self.takeable,
        }


@dataclass(eq=False)
class Subscriber:
    """A WebSocket (or any listener) following one table as one seat."""

    seat: int | None
    since: int
    push: Callable[[str], None]  # the WebSocket message, encoded (a "view" with the payload)
    closed: bool = False
    lang: str = "en"  # the language its events are worded in


@dataclass(eq=False)
class LiveTable:
    id: str
    game: Game
    options: dict[str, Any]
    num_players: int
    seed: int
    seats: list[Seat]
    state: State | None
    status: str
    turn_timer: int | None = None
    error: str | None = None
    created_at: Any = None
    updated_at: Any = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    salt: str | None = None  # None: a table from before commitments (its seed counts as chosen)
    seed_chosen: bool = False
    secret: list[bool] = field(default_factory=list)  # per move: hidden from the other seats until the end
    # ``lock`` guards the position in memory and is never held while waiting for the database;
    # ``write_lock`` puts the writers of one table (moves, seats) in a row.
    lock: threading.RLock = field(default_factory=threading.RLock)
    write_lock: threading.Lock = field(default_factory=threading.Lock)
    _commitment: tuple[tuple[int, str], str] | None = field(default=None, repr=False)
    fanout_pending: bool = False  # a push to the listeners is queued (web/tables.py _notify)
    subscribers: list[Subscriber] = field(default_factory=list)
    turn_since: dict[int, float] = field(default_factory=dict)  # seat -> monotonic time its turn began
    # seat -> the move number at which its turn timer last ran out, and at which its player last came
    # back from that: one "I'm back" a decision gets a whole timer again, a second one does not stop
    # the standby bot (web/tables.py ``timed_out_now``)
    timed_out: dict[int, int] = field(default_factory=dict)
    came_back: dict[int, int] = field(default_factory=dict)
    seats_checked_at: float = float("-inf")  # monotonic time of the last TableService.recheck_seats
    replay_points: dict[int, State] = field(default_factory=dict)
    # the position the last replay request reached (move number, copy): stepping on from it costs
    # one move, not up to a checkpoint's spacing (web/replaying.py)
    replay_last: tuple[int, State] | None = None
    _revealed_record: dict[str, Any] | None = field(default=None, repr=False)
    agents: dict[tuple[int, str], Agent] = field(default_factory=dict)
    on_change: list[Callable[[LiveTable], object]] = field(default_factory=list)
    # The client address that made the table, while this process holds it (None: loaded from the
    # database): its bots share the worker threads with the other tables of that address.
    owner: str | None = None

    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.status in ("finished", "error")

    @property
    def driven(self) -> bool:
        """Whether the table needs a driver (web/drivers.py): bots to move or a turn timer to keep."""
        return not self.over and bool(self.turn_timer or any(s.is_bot for s in self.seats))

    @property
    def commitment(self) -> str | None:
        """SHA-256 of seed and salt (core.fairness), hashed once: every payload carries it."""
        if self.salt is None:
            return None
        cached = self._commitment
        if cached is None or cached[0] != (self.seed, self.salt):
            cached = self._commitment = ((self.seed, self.salt), commitment(self.seed, self.salt))
        return cached[1]

    @property
    def revealed(self) -> bool:
        """Everything (seed, salt, every move) is public once the game is finished."""
        return self.status == "finished"

    def fairness(self) -> dict[str, Any]:
        """The commitment to the seed, shown from the start; seed and salt only once it is over."""
        shown = self.revealed
        return {
            "commitment": self.commitment,
            "seed_chosen": self.seed_chosen,
            "seed": self.seed if shown else None,
            "seed_text": str(self.seed) if shown else None,  # exact in JavaScript too (2**63 > 2**53)
            "salt": self.salt if shown else None,
        }

    def moves_for(self, viewer: int | None) -> list[list[Any]]:
        """The move list as ``viewer`` may read it: another seat's secret move shows as its seat
        with ``None`` for the text until the game is over."""
        if self.revealed:
            return [[p, t] for p, t in self.actions]
        return [
            [p, t if not hidden or p == viewer else None]
            for (p, t), hidden in zip(self.actions, self.secret, strict=True)
        ]

    def seat_for(self, token: Any) -> Seat | None:
        # Tokens are ASCII; compare_digest raises on other text, which must be a 403, not a 500.
        if not isinstance(token, str) or not token or not token.isascii() or len(token) > 128:
            return None
        for seat in self.seats:
            if secrets.compare_digest(seat.token, token):
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        result = None
        if self.state is not None and self.status == "finished":
            res = self.state.result()
            result = res.to_json() if res else None
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.options,
            "status": self.status,
            "seq": self.seq,
            "to_act": list(self.state.to_act) if self.state is not None and not self.over else [],
            "seats": [s.public() for s in self.seats],
            "result": result,
            "turn_timer": self.turn_timer,
            "seed_chosen": self.seed_chosen,
            "commitment": self.commitment,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "updated_at": self.updated_at.isoformat() if self.updated_at else None,
        }

    def record(self) -> Record:
        """The full record, seed and salt included: only for a finished table (or the server's own use)."""
        record = Record(
            game=self.game.name,
            options=dict(self.options),
            seats=[s.kind for s in self.seats],
            seed=self.seed,
            actions=list(self.actions),
            commitment=self.commitment,
            salt=self.salt,
            seed_chosen=self.seed_chosen,
        )
        if self.state is not None and self.state.is_over:
            record.finish(self.state)
        return record

    def record_for(self, viewer: int | None) -> dict[str, Any]:
        """The record as ``viewer`` may have it: the whole record once the game is finished; before,
        the same document without seed and salt, with other seats' secret moves withheld."""
        if self.revealed:
            # A finished table's record never changes: made once (its final digest hashes every
            # seat's whole view, about a tenth of a second on a long table; security audit 15).
            if self._revealed_record is None:
                self._revealed_record = {**self.record().to_json(), "complete": True}
            return dict(self._revealed_record)
        fair = self.fairness()
        return {
            "game": self.game.name,
            "options": dict(self.options),
            "seats": [s.kind for s in self.seats],
            "seed": None,
            "salt": None,
            "commitment": fair["commitment"],
            "seed_chosen": self.seed_chosen,
            "actions": self.moves_for(viewer),
            "viewer": viewer,
            "complete": False,
        }


def describe(game: Game, event: dict[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """The event in words; with ``names`` (the table's players, "you" for the reader) and in ``lang``
    when the game's ``describe_event`` takes them (every game of ours; a game with the old signature
    gets neither)."""
    try:
        if names is not None and _takes(type(game), "names"):
            if lang != "en" and _takes(type(game), "lang"):
                return str(game.describe_event(event, names, lang))
            return str(game.describe_event(event, names))
        return str(game.describe_event(event))
    except Exception:
        return str(event.get("kind", "event"))


@functools.cache
def _takes(cls: type[Game], parameter: str) -> bool:
    """Whether the game's ``describe_event`` has ``parameter`` (older games lack names and lang)."""
    try:
        return parameter in inspect.signature(cls.describe_event).parameters
    except (TypeError, ValueError):
        return False


def people(table: LiveTable, seat: int | None, lang: str = "en") -> Names:
    """The table's seats by their players' names (core.words), as ``seat`` reads them in ``lang``."""
    return Names(seat_names([(s.kind, s.name) for s in table.seats], lang), seat)


def labelled(seats: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """Public seats (``Seat.public``) with ``label``, what to call each in ``lang`` ("Expert bot",
    "Player 2", a name): the browser shows these rather than making its own."""
    labels = seat_names([(s.get("kind") or "", s.get("name")) for s in seats], lang)
    return [{**s, "label": label} for s, label in zip(seats, labels, strict=True)]


# A view carries at most this many of the latest events (a whole game of ours has well under
# 1,000). A table may run long (Machi Koro's players can pass for ever), and every full view (a
# page load, a WebSocket from 0, the replay's last step) would otherwise grow with it and be built
# on the event loop (security audit F2). The record and the replay's earlier steps have it all.
MAX_VIEW_EVENTS = 2000


def recent_since(state: State, since: int) -> int:
    """``since``, moved up so that a view holds at most ``MAX_VIEW_EVENTS`` events."""
    return max(since, len(state.log) - MAX_VIEW_EVENTS)


# A view wording no more events afresh than this is free of the per-address allowance on view
# events (``Limits.view_events_per_second``): a client following a table asks from the last event
# it saw, and a reader asking again finds its events worded already.
FREE_VIEW_EVENTS = 64


def unworded_view_events(table: LiveTable, seat: int | None, since: int, lang: str) -> int:
    """How many events a view of ``table`` from ``since`` would word afresh (before it is built):
    those of its range that its reader's entry in the cache of worded events (``worded_events``,
    keyed by event number) does not hold; all of them once the entry has left the cache."""
    state = table.state
    if state is None:
        return 0
    start, end = recent_since(state, since), len(state.log)
    key = reader_key(table, seat, lang)
    with _worded_lock:
        said = _worded.get(key)
        if said is None:
            return max(0, end - start)
        return sum(1 for i in range(start, end) if i not in said)


def seat_view(state: State, seat: int | None, since: int) -> dict[str, Any]:
    since = recent_since(state, since)
    try:
        return state.view(seat, since)
    except TypeError:  # a game not yet on contract 2 (view without ``since``)
        if since:
            raise
        return state.view(seat)


# Events worded lately, per table, reader and language: a view from ``since=0`` of a long table
# words up to MAX_VIEW_EVENTS events (tens of milliseconds), and pages and scripts ask for such
# views again and again (security audit 15). An entry keeps each event with its words, used again
# only for an equal event. The least recently used entries go once the process's entries hold more
# than WORDED_EVENTS_KEPT events together (about 40 MB: 400 bytes an event) or number more than WORDED_READERS_KEPT:
# a bound of 64 entries, whatever their size, let anyone empty the cache with 64 short views and
# so make every reader's next view a full wording again (security audit 30).
WORDED_EVENTS_KEPT = 100_000
WORDED_READERS_KEPT = 4096
_worded: OrderedDict[tuple[Any, ...], dict[Any, tuple[dict[str, Any], str]]] = OrderedDict()
_worded_lock = threading.Lock()


def reader_key(table: LiveTable, seat: int | None, lang: str) -> tuple[Any, ...]:
    """A reader's entry in the cache of worded events: the table, the seat, the language and the
    seats' names (an event's words name the players). Uploaded records all carry the id "upload"
    and are told apart by the table object itself."""
    table_key = (table.id, id(table)) if table.status == "replay" else table.id
    return (table_key, seat, lang, tuple((s.kind, s.name) for s in table.seats))


def worded_events(key: tuple[Any, ...]) -> dict[Any, tuple[dict[str, Any], str]]:
    with _worded_lock:
        found = _worded.get(key)
        if found is None:
            found = _worded[key] = {}
            _forget_worded()
        else:
            _worded.move_to_end(key)
        return found


def _forget_worded() -> None:
    """Drop the least recently used entries past the cache's bounds (``_worded_lock`` held; run when
    an entry is made, so its cost, a sum over the entries, is paid once per new reader)."""
    held = sum(len(entry) for entry in _worded.values())
    while len(_worded) > 1 and (held > WORDED_EVENTS_KEPT or len(_worded) > WORDED_READERS_KEPT):
        held -= len(_worded.popitem(last=False)[1])


def unworded_events(key: tuple[Any, ...], events: Any) -> int:
    """How many of a built view's ``events`` its reader's cache entry does not hold as they are."""
    if not isinstance(events, list):
        return 0
    with _worded_lock:
        said = _worded.get(key)
        if said is None:
            return len(events)
        return sum(
            1
            for event in events
            if not isinstance(event, dict) or (known := said.get(event.get("i"))) is None or known[0] != event
        )


def word_events(game: Any, key: tuple[Any, ...], events: Any, names: Any, lang: str) -> list[list[Any]]:
    """``[i, words]`` for each of a view's events, from the reader's cache entry where it holds an
    equal event, worded (and kept) otherwise."""
    texts: list[list[Any]] = []
    if not isinstance(events, list):
        return texts
    said = worded_events(key)
    for event in events:
        if isinstance(event, dict):
            i = event.get("i")
            known = said.get(i)
            if known is None or known[0] != event:
                known = said[i] = (event, describe(game, event, names, lang))
            texts.append([i, known[1]])
    return texts


def build_payload(table: LiveTable, seat: int | None, since: int = 0, lang: str = "en") -> dict[str, Any]:
    """The seat's view (``state.view(seat, since)``) plus what a client needs around it, the
    events worded in ``lang`` (the view itself is data, the same in every language).

    Call with ``table.lock`` held. Only contract data is used: the view, ``to_act``, the seat's legal
    moves as notation, and the game's own wording of the events it shows."""
    state = table.state
    if state is None:
        return {
            "table": table.id,
            "game": table.game.name,
            "seq": table.seq,
            "status": table.status,
            "error": table.error,
            "to_act": [],
            "legal": [],
            "seats": [s.public() for s in table.seats],
            "fairness": table.fairness(),
        }
    since = recent_since(state, since)
    payload = dict(seat_view(state, seat, since))
    # A table that ended without its game ending (at the move limit) still holds a position with
    # seats to act, but nobody acts there any more: no turn, no moves on offer.
    to_act = [] if table.status == "error" else list(state.to_act)
    if table.status == "error":
        payload["to_act"] = to_act
    payload.setdefault("to_act", to_act)
    legal: list[str] = []
    if seat is not None and seat in to_act:
        legal = [state.format_action(a) for a in state.legal_actions(seat)]
    events = payload.get("events")
    texts = []
    if isinstance(events, list):
        texts = word_events(
            table.game, reader_key(table, seat, lang), events, people(table, seat, lang), lang
        )
    now = time.monotonic()
    deadlines = {}
    if table.turn_timer:
        for s in to_act:
            if not table.seats[s].is_bot and s in table.turn_since:
                deadlines[str(s)] = max(0.0, round(table.turn_timer - (now - table.turn_since[s]), 1))
    payload.update(
        {
            "table": table.id,
            "seq": table.seq,
            "legal": legal,
            "status": table.status,
            "seats": labelled([s.public() for s in table.seats], lang),
            "event_text": texts,
            "lang": lang,
            "since": since,
            "turn_timer": table.turn_timer,
            "turn_deadline": deadlines,
            "fairness": table.fairness(),
        }
    )
    if table.status == "error":  # why it stopped (a table ended at the move limit has its position)
        payload["error"] = catalog(CORE_DOMAIN, lang).gettext(table.error) if table.error else None
    return payload


MAX_NAME = 40
# Characters a name may have before NFC and spaces shrink it (a Hangul syllable typed as three jamo,
# runs of spaces): anything longer is refused unread.
RAW_NAME = 4 * MAX_NAME


def new_token() -> str:
    return secrets.token_urlsafe(24)


def valid_name(name: Any) -> str:
    """A display name, NFC-normalised with its runs of white space made single spaces: 1-40
    printable characters (no control, format, invisible or unpaired surrogate characters, and
    something to see besides marks), else 422."""
    if not isinstance(name, str):
        raise TableError(422, "name.invalid", N_("a name is a text"))
    if len(name) > RAW_NAME:
        # Refused before NFC too: its reordering of combining marks is quadratic in a run of them,
        # and 31,000 marks held the GIL for three seconds (security audit 31).
        raise TableError(422, "name.invalid", N_("a name is 1 to {limit} characters long"), limit=MAX_NAME)
    text = " ".join(unicodedata.normalize("NFC", name).split()) if name.isprintable() else None
    if text is not None and len(text) > MAX_NAME:
        # Refused before it is looked at (name_key, _invisible): NFKD makes up to 18 letters of one,
        # and a name is the whole request body (64 KiB); a spectator's chat line took a second of
        # the event loop with one, before any limit (security audit 24).
        raise TableError(422, "name.invalid", N_("a name is 1 to {limit} characters long"), limit=MAX_NAME)
    # Python's printable letters include invisible ones (a grapheme joiner, variation selectors, the
    # Hangul fillers, the blank braille cell): "Alice" plus one read as Alice (security audit 22).
    if text is None or not text.isprintable() or not name_key(text) or any(map(_invisible, text)):
        raise TableError(422, "name.invalid", N_("a name may hold only printable characters"))
    if not 1 <= len(text) <= MAX_NAME:
        raise TableError(422, "name.invalid", N_("a name is 1 to {limit} characters long"), limit=MAX_NAME)
    return text


# Default-ignorable code points (Unicode's DerivedCoreProperties) that Python counts as printable,
# and the blank braille cell: each draws nothing, so a name holding one looks like the name without it.
_INVISIBLE = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _invisible(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _INVISIBLE)


# Letters of other scripts drawn like Latin ones (after casefold; the common Cyrillic and Greek
# entries of Unicode's confusables), and digits drawn like letters: "\u0410lice" with a Cyrillic A,
# or "AIice" with a capital i, looks like "Alice" (every i-like letter is an l here, since a capital
# I and a small l are one stroke in most fonts).
_LOOKALIKES = str.maketrans(
    {
        **dict(zip("абвеѕіјкмнорстухԁһӏԛԝ", "abbesljkmhopctyxdhlqw", strict=True)),
        **dict(zip("αβεζηικμνορτυχ", "abezhlkmnoptyx", strict=True)),
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        # letters of other scripts drawn as a stroke too: a dotless i, a click letter (security audit 24)
        "\u0131": "l",
        "\u01c0": "l",
        "\u0269": "l",
        "\u05c0": "l",
        "\u2223": "l",
        "\u2c93": "l",
    }
)


def name_key(name: str) -> str:
    """What ``name`` looks like, for telling two names apart: compatibility forms as plain letters
    (full-width, styled), no case, no marks (accents, joiners), no invisible characters or white
    space, and letters of other scripts drawn like Latin ones as those (security audit 22: each of
    these let a player take a name that reads as another seat's, "You" or "Spectator")."""
    plain = unicodedata.normalize("NFKD", name)
    kept = "".join(
        ch
        for ch in plain
        if unicodedata.category(ch) not in ("Mn", "Me", "Cf") and not ch.isspace() and not _invisible(ch)
    )
    return unicodedata.normalize("NFKC", kept).casefold().translate(_LOOKALIKES)


# Words the pages and the event log use for a reader and for people without a seat: a player named
# so would have their moves read as the reader's own ("You roll 1") or their chat as a spectator's.
_READERS_WORDS = ("You", "you", "Spectator", "spectator")


@functools.lru_cache(maxsize=1)
def reserved_names() -> frozenset[str]:
    """The words above in every language of the site, compared without case."""
    words: set[str] = set()
    for lang in LANGUAGES:
        found = catalog(CORE_DOMAIN, lang)
        words.update(name_key(found.gettext(word)) for word in _READERS_WORDS)
    return frozenset(words)


def unique_name(seats: list[tuple[str, str | None]], seat_no: int, name: str) -> str:
    """``name`` for seat ``seat_no``, refused (409) when it would read as another seat: another
    player's name, or what another seat is called without one ("Expert bot", "Player 2") in any of
    the site's languages, or the reader's own word for themselves or a spectator ("You", "Du").
    Otherwise a move or a chat line under it would pass for that seat's, or the reader's. Names
    are compared as they look (:func:`name_key`), not letter by letter."""
    wanted = name_key(name)
    if wanted in reserved_names():
        raise TableError(
            409, "name.reserved", N_("the name {name} is kept for the page's own use"), name=name
        )
    for lang in LANGUAGES:
        labels = seat_names(seats, lang)
        if any(other != seat_no and name_key(label) == wanted for other, label in enumerate(labels)):
            raise TableError(409, "name.taken", N_("another seat at this table goes by {name}"), name=name)
    return name


class MissingGame:
    """Stands in for a game no longer installed, so its stored tables still list and show an error."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.title = name

    def describe_event(self, event: Any) -> str:
        return str(event.get("kind"))


def note_return(table: LiveTable, seat: int) -> None:
    """An away seat's player is back: if its timer ran out at this position, its one whole timer
    again for this decision is spent (``timed_out_now``)."""
    if table.timed_out.get(seat) == table.seq:
        table.came_back[seat] = table.seq
