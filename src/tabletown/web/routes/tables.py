"""Games and tables: create, list, view (and long-poll), move, join, sit; with the quick path for
viewing and moving (``quick``, see web/asgi.py)."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field, StrictBool, StrictInt, ValidationError
from starlette.requests import HTTPConnection

from ...core.i18n import N_
from ..access import (
    charge_view_events,
    check_move_rate,
    client_address,
    credential,
    guard_of,
    join_url,
    open_table,
    redeemed_token,
    remember_browser,
    remember_token,
    service,
    viewer,
    with_fresh_seats,
    with_titles,
)
from ..asgi import (
    MAX_BODY,
    MAX_COUNT,
    MAX_WAIT,
    Receive,
    quick_query,
    read_body,
    replaying,
    send_error,
    send_quick,
)
from ..catalog import broken_games, game_info, games
from ..drivers import gate, until_changed, until_seq
from ..languages import request_language
from ..limits import enter_off_loop, leave_from_loop, take_off_loop
from ..new_table import bots_only, has_bots
from ..tables import LiveTable, TableError, TableService, json_bytes, playing_seat

router = APIRouter()
# A move whose seq is ahead of this process (the client saw the last move through another one)
# waits this long for the hub's news before the move reads the missing moves from the database.
CATCH_UP_WAIT = 0.05


# -- request bodies (their schema shows at /openapi.json) ----------------------------------------------------
# Numbers are strict: ``seq: 0.0`` or ``"1"`` is refused, not read as 0 or 1.
class CreateTable(BaseModel):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] = Field(
        min_length=1,
        max_length=16,
        description='"human" (kept for its join link), "open" (anyone may sit from the lobby), "bot:NAME"',
    )
    seed: StrictInt | None = Field(
        default=None,
        description="only for practice: every seat is told the seed was chosen; default a secret seed",
    )
    turn_timer: StrictInt | None = Field(
        default=None, description="seconds a human has per decision; then a bot stands in"
    )
    # Names are checked by the table service (rule name.invalid), not here: pydantic would refuse
    # an unpaired surrogate with a generic error.
    names: list[Any] | None = Field(default=None, max_length=16)


class ActionBody(BaseModel):
    token: str | None = Field(default=None, max_length=128, description="or Authorization: Bearer")
    seat: StrictInt | None = Field(default=None, description="with the table's cookie instead of a token")
    seq: StrictInt
    action: str | StrictInt = Field(
        description="the move in the game's notation (or its number in the action space)"
    )
    since: StrictInt | None = Field(
        default=None,
        ge=0,
        le=MAX_COUNT,
        description="also answer with the seat's view after the move, events from this count on "
        "(what a GET with since would give; saves a REST client that request)",
    )


class DraftBody(BaseModel):
    token: str | None = Field(default=None, max_length=128, description="or Authorization: Bearer")
    seat: StrictInt | None = Field(default=None, description="with the table's cookie instead of a token")
    steps: list[Annotated[str, Field(max_length=40)]] = Field(
        max_length=8, description="the steps composed so far, in notation, not yet sent"
    )


class JoinBody(BaseModel):
    token: str | None = Field(default=None, max_length=128)
    seat: StrictInt | None = None
    name: Any = Field(default=None, description="1-40 printable characters")
    back: StrictBool = True


class SitBody(BaseModel):
    seat: StrictInt
    name: Any = Field(default=None, description="1-40 printable characters")


@router.get("/api/games", tags=["games"])
def list_games(request: Request) -> dict[str, Any]:
    """Every game with its player counts, options and bot levels (titles and help in the request's
    language)."""
    lang = request_language(request)
    out = []
    for game in games().values():
        try:
            out.append(game_info(game, lang))
        except Exception:
            continue
    return {"games": out, "unavailable": sorted(broken_games())}


@router.post("/api/tables", status_code=201, tags=["tables"])
def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """Create a table; returns each reserved seat's token and join link (keep them secret). The
    seed is never returned: the commitment to it is, and the seed comes with the record at the end."""
    guard, address = guard_of(request), client_address(request)
    wait = guard.tables.take(address)
    if wait:
        raise TableError(429, "limit.tables", N_("too many new tables from this address"), retry_after=wait)
    only_bots = bots_only(body.seats)
    if only_bots and (wait := guard.room(guard.bot_tables, address)):
        raise TableError(
            429,
            "limit.bot_tables",
            N_("too many bot-only tables running; watch one end first"),
            retry_after=wait,
        )
    # With human seats too, a script may play them at once: the bots then think as much as at a
    # bot-only table, so tables with bots that keep moving are counted as well (security audit 6).
    # A table with a turn timer has bots too: a standby bot plays every seat whose player is away,
    # and a script playing one seat of a six-seat table had the server play the other five
    # (security audit 32).
    with_bots = not only_bots and (has_bots(body.seats) or body.turn_timer is not None)
    if with_bots and (wait := guard.room(guard.bot_games, address)):
        raise TableError(
            429,
            "limit.bot_games",
            N_("too many of your tables with bots are being played; finish or leave one first"),
            retry_after=wait,
        )
    table = service(request).create(
        body.game, body.options, body.seats, body.seed, body.turn_timer, body.names
    )
    table.owner = address
    if only_bots:
        guard.bot_tables.add(address, table)
    elif with_bots:
        guard.bot_games.add(address, table)
    fair = table.fairness()
    return {
        "id": table.id,
        "game": table.game.name,
        "options": table.options,
        "seed_chosen": table.seed_chosen,
        "commitment": fair["commitment"],
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "open": s.open,
                "token": None if s.is_bot or s.open else s.token,
                "join_url": None if s.is_bot or s.open else join_url(request, table.id, s.token),
            }
            for s in table.seats
        ],
    }


@router.get("/api/tables", tags=["tables"])
def list_tables(request: Request, status: str | None = Query(default=None, max_length=16)) -> dict[str, Any]:
    """Tables by status: open (a seat anyone may take is free), running, finished."""
    svc = service(request)
    # (a worker thread: a shared allowance's Redis call may wait here)
    if wait := guard_of(request).lobby_lists.take(client_address(request)):
        raise TableError(
            429, "limit.lobby", N_("too many lobby lists from this address; wait a moment"), retry_after=wait
        )
    if status is not None:
        return {"tables": with_titles(svc.list(status), request_language(request))}
    lang = request_language(request)
    return {name: with_titles(svc.list(name, 50), lang) for name in ("open", "running", "finished")}


@router.get("/api/tables/{table_id}", tags=["tables"])
async def get_table(
    table_id: str,
    request: Request,
    token: str | None = Query(default=None, max_length=128),
    seat: int | None = Query(default=None, ge=0, le=64),
    since: int = Query(default=0, ge=0, le=MAX_COUNT),
    seq: int | None = Query(default=None, ge=0),
    wait: float = Query(default=0, ge=0, le=MAX_WAIT),
) -> Response:
    """The seat's view (the spectator's without a token) with ``seq``, ``to_act`` and ``legal``.

    A long poll for clients without a WebSocket: with ``seq`` (the moves the client has seen)
    and ``wait`` (seconds, at most 30) the answer comes when the table has moved on from ``seq``
    or anything else changed in it, else after ``wait`` seconds with the same position."""
    return Response(
        await table_view(service(request), request, table_id, token, seat, since, seq, wait),
        media_type="application/json",
    )


async def table_view(
    svc: TableService,
    request: HTTPConnection,
    table_id: str,
    token: str | None,
    seat: int | None,
    since: int,
    seq: int | None,
    wait: float,
) -> bytes:
    table = await open_table(request, table_id)  # not in memory: loaded in a thread, paid for
    found = await with_fresh_seats(request, table, lambda: viewer(request, table, token, seat))
    lang = request_language(request)
    number = None if found is None else found.seat
    await charge_view_events(request, table, number, since, lang)
    if wait and seq is not None:
        await long_poll(request, table, seq, wait)
    # In memory: microseconds, no thread needed. Sent as it is (no response model to check a
    # whole view against, no generic encoder walking it).
    return json_bytes(svc.payload(table, number, since, lang))


async def long_poll(request: HTTPConnection, table: LiveTable, seq: int, wait: float) -> None:
    """Hold the answer until the table changes (``until_changed``), counted against the client
    address's long polls: past ``Limits.polls_per_address`` a 429, so that no one address fills a
    table's waiting list (``drivers.MAX_WAITERS``) and sets everybody else's long polls spinning."""
    if table.seq != seq or table.over:
        return  # answered at once: nothing held
    guard, address = guard_of(request), client_address(request)
    counted = (guard.address_polls, address)  # every process's polls when they share Redis
    if await enter_off_loop(guard, counted) is not None:
        raise TableError(429, "limit.polls", N_("too many connections from this address"), retry_after=1.0)
    try:
        await until_changed(table, seq, wait)
    finally:
        leave_from_loop(guard, counted)


@router.post("/api/tables/{table_id}/actions", tags=["tables"])
async def post_action(table_id: str, body: ActionBody, request: Request) -> Response:
    """Make a move: 409 if ``seq`` is stale, 422 with the rule if the engine refuses it."""
    svc = service(request)
    table = await open_table(request, table_id)
    seq, seat = await make_move(svc, request, table, body)
    return Response(
        await moved_answer(svc, request, table, seq, seat, body.since), media_type="application/json"
    )


async def moved_answer(
    svc: TableService, request: HTTPConnection, table: LiveTable, seq: int, seat: int, since: int | None
) -> bytes:
    """A move's answer: its ``seq``, and with ``since`` the mover's view after it (``view``). That
    view is charged as a table view is (security audit 30: a move with ``since: 0`` used to word a
    long table's events for the price of a move); past the address's allowance the answer holds
    the refusal as ``view_error`` instead, since the move itself is made."""
    if since is None:
        return b'{"seq":%d}' % seq
    lang = request_language(request)
    try:
        await charge_view_events(request, table, seat, since, lang)
    except TableError as exc:
        return json_bytes({"seq": seq, "view_error": {**exc.to_json(lang), "retry_after": exc.retry_after}})
    view = json_bytes(svc.payload(table, seat, since, lang))
    return b'{"seq":%d,"view":%s}' % (seq, view)


@router.post("/api/tables/{table_id}/draft", tags=["tables"])
async def draft(table_id: str, body: DraftBody, request: Request) -> dict[str, Any]:
    """Where the seat's unsent steps would lead (games whose decision is several clicks, such as
    a New Las Vegas round): its position after them, the next steps on offer and the score now.
    Changes nothing; 422 with the rule if a step is refused."""
    svc = service(request)
    table = await open_table(request, table_id)

    def check() -> str | None:
        token = credential(request, table, body.token, body.seat)
        playing_seat(table, token)
        return token

    token = await with_fresh_seats(request, table, check)
    await check_move_rate(request, token)
    return svc.draft(table, token, body.steps)


async def make_move(
    svc: TableService, request: HTTPConnection, table: LiveTable, body: ActionBody
) -> tuple[int, int]:
    """Play the move; its new ``seq`` and the mover's seat."""

    def check() -> tuple[str | None, Any]:
        token = credential(request, table, body.token, body.seat)
        return token, playing_seat(table, token)

    token, held = await with_fresh_seats(request, table, check)
    await check_move_rate(request, token)
    await until_seq(table, body.seq, CATCH_UP_WAIT)
    async with gate(table):
        return await svc.act_on_loop(table, token, body.seq, body.action), held.seat


async def quick(scope: Any, receive: Receive, send: Any, table_id: str, actions: bool) -> Receive | None:
    """``TabletownApp.quick``: GET a table in memory, POST a well-formed move to one."""
    svc: TableService | None = getattr(scope["app"].state, "service", None)
    if svc is None:
        return receive
    if not actions:
        query = quick_query(scope["query_string"]) if scope["method"] == "GET" else None
        if query is None or (table := svc.held(table_id)) is None:
            return receive
        request = HTTPConnection(scope)
        try:
            body = await table_view(
                svc,
                request,
                table_id,
                query.get("token"),
                query.get("seat"),
                query.get("since", 0),
                query.get("seq"),
                query.get("wait", 0.0),
            )
        except TableError as exc:
            await send_error(send, exc, request_language(request))
            return None
        await send_quick(send, 200, body)
        return None
    if scope["method"] != "POST" or svc.held(table_id) is None:
        return receive
    request = HTTPConnection(scope)
    length = request.headers.get("content-length", "")
    # ASCII digits, and few: "²" passes isdigit() and 5,000 digits pass it too, and int() refuses both
    if not (length.isascii() and length.isdigit() and len(length) <= 9) or int(length) > MAX_BODY:
        return receive
    if not request.headers.get("content-type", "").startswith("application/json"):
        return receive
    try:
        raw = await read_body(receive, MAX_BODY)
    except TableError as exc:
        await send_error(send, exc, request_language(request))
        return None
    if raw is None:
        return None  # the client left
    try:
        move = ActionBody.model_validate_json(raw)
    except ValidationError:
        return replaying(raw, receive)  # FastAPI's error, as documented
    table = svc.held(table_id)
    if table is None:
        return replaying(raw, receive)
    try:
        seq, seat = await make_move(svc, request, table, move)
    except TableError as exc:
        await send_error(send, exc, request_language(request))
        return None
    await send_quick(send, 200, await moved_answer(svc, request, table, seq, seat, move.since))
    return None


@router.post("/api/tables/{table_id}/join", tags=["tables"])
async def join(table_id: str, body: JoinBody, request: Request, response: Response) -> dict[str, Any]:
    """A seat's player arrives (or returns after their timer ran out) and may set a display name.
    The first time, the token is the seat's invitation, which the table's creator saw: it is
    redeemed for the seat's own token (answered as ``token``; a page, whose invitation came from
    the table's cookie, is not answered it but tells it from its cookies), and the invitation
    opens nothing any more."""
    svc = service(request)
    table = await open_table(request, table_id)

    def check() -> str:
        token = credential(request, table, body.token, body.seat)
        if token is None or table.seat_for(token) is None:
            raise TableError(403, "seat.bad_token", N_("this token holds no seat at this table"))
        return token

    token = await with_fresh_seats(request, table, check)
    await check_move_rate(request, token)  # a new name is a database write: it counts like a move
    from_cookie = body.token is None and credential(request, table, None, None) is None
    # A page's redemption gives the seat the token its browser can tell again from its cookies.
    redeem_as = redeemed_token(token, remember_browser(request, response)) if from_cookie else None
    async with gate(table):
        seat, redeemed = await anyio.to_thread.run_sync(
            lambda: svc.touch(
                table, token, body.name, back=body.back, redeem_as=redeem_as, refuse_late_back=True
            )
        )
        answer = seat.public()
        # A page's scripts never see a token (the cookie is HttpOnly); a client that sent one gets
        # the token its own redemption made, never one another process's redemption put there.
        if redeemed is not None and not from_cookie:
            answer["token"] = redeemed
    return answer


@router.post("/api/tables/{table_id}/sit", tags=["tables"])
async def sit(table_id: str, body: SitBody, request: Request) -> Response:
    """Take an open seat (one the creator let anyone take); returns its new token and link."""
    svc = service(request)
    table = await open_table(request, table_id)
    wait = await take_off_loop(guard_of(request).sits, client_address(request))
    if wait:
        raise TableError(
            429, "limit.sits", N_("too many seats taken from this address; wait a moment"), retry_after=wait
        )
    async with gate(table):
        seat = await anyio.to_thread.run_sync(svc.sit, table, body.seat, body.name)
        token = seat.token
    response = JSONResponse(
        {
            "seat": seat.seat,
            "kind": seat.kind,
            "token": token,
            "join_url": join_url(request, table.id, token),
        }
    )
    remember_token(request, response, table, token)
    return response
