"""Records and replays: a table's record, a position of it as a seat saw it, an uploaded record."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field, StrictInt

from ...core.i18n import N_
from .. import analyses
from ..access import (
    charge_view_words_in_thread,
    client_address,
    guard_of,
    open_table_in_thread,
    same_origin,
    service,
    viewer,
    with_fresh_seats_in_thread,
)
from ..catalog import set_up_title
from ..languages import request_language
from ..limits import Guard
from ..replaying import REPLAY_REQUEST_COST, replay_view
from ..tables import TableError

router = APIRouter()


class ReplayBody(BaseModel):
    record: dict[str, Any]
    step: StrictInt = 0
    seat: StrictInt | None = None
    instead: str | None = Field(default=None, max_length=2000)


def replay_charge(request: Request, base: int) -> Callable[[int], None]:
    """What a replay request costs its client address: ``base`` plus the moves it replays, against
    ``Limits.replay_moves_*`` (429 ``limit.replays`` past them)."""
    guard: Guard = guard_of(request)
    address = client_address(request)

    def charge(moves: int) -> None:
        if wait := guard.replays.take(address, cost=base + moves):
            raise TableError(
                429,
                "limit.replays",
                N_("too many replay steps from this address; wait a moment"),
                retry_after=wait,
            )

    return charge


@router.get("/api/tables/{table_id}/record", tags=["replays"])
def get_record(
    table_id: str,
    request: Request,
    download: bool = False,
    token: str | None = Query(default=None, max_length=128),
    seat: int | None = Query(default=None, ge=0, le=64),
) -> Response:
    """The game record (the CLI's format: `tabletown replay FILE`) once the game is finished; before
    that, what the asking seat (or a spectator) has seen: no seed, no salt, other seats' secret
    moves withheld (``complete: false``)."""
    table = open_table_in_thread(request, table_id)
    holder = with_fresh_seats_in_thread(request, table, lambda: viewer(request, table, token, seat))
    with table.lock:
        record = table.record_for(holder.seat if holder else None)
    headers = {}
    if download:
        headers["content-disposition"] = f'attachment; filename="{table.game.name}-{table.id}.json"'
    return JSONResponse(record, headers=headers)


@router.get("/api/tables/{table_id}/replay", tags=["replays"])
def get_replay(
    table_id: str,
    request: Request,
    step: int = Query(default=0, ge=0, le=10_000_000),
    seat: int | None = Query(default=None, ge=0, le=64),
    token: str | None = Query(default=None, max_length=128),
    instead: str | None = Query(default=None, max_length=2000),
) -> dict[str, Any]:
    """The position after ``step`` moves as ``seat`` saw it. While a table is unfinished only the
    spectator's view, or your own seat's with its token, is shown. Once it is finished, ``instead``
    (a move in the game's notation) shows the position had move ``step + 1`` been that move."""
    table = open_table_in_thread(request, table_id)
    if seat is not None and seat >= table.num_players:
        raise TableError(422, "seat.number", N_("no such seat"))
    if table.status != "finished" and seat is not None:
        try:
            holder = with_fresh_seats_in_thread(request, table, lambda: viewer(request, table, token, seat))
        except TableError:
            holder = None
        if holder is None or holder.seat != seat:
            raise TableError(
                403, "replay.hidden", N_("a seat's view of an unfinished game needs that seat's token")
            )
    charge = replay_charge(request, REPLAY_REQUEST_COST)
    return replay_view(
        table,
        step,
        seat,
        request_language(request),
        instead,
        charge,
        functools.partial(charge_view_words_in_thread, request),
    )


@router.post("/api/replay", tags=["replays"])
def post_replay(body: ReplayBody, request: Request) -> dict[str, Any]:
    """Watch an uploaded record: the position after ``step`` moves as ``seat`` saw it."""
    svc = service(request)
    guard, address = guard_of(request), client_address(request)

    def admit() -> None:
        # a new record is replayed from its seed (up to the body limit of moves): bounded per address
        if wait := guard.uploads.take(address):
            raise TableError(
                429, "limit.uploads", N_("too many new records from this address"), retry_after=wait
            )

    replay_charge(request, REPLAY_REQUEST_COST)(0)  # before the upload is even looked up
    table = svc.uploads.table(body.record, admit)
    if body.seat is not None and not 0 <= body.seat < table.num_players:
        raise TableError(422, "seat.number", N_("no such seat"))
    view = replay_view(
        table,
        body.step,
        body.seat,
        request_language(request),
        body.instead,
        replay_charge(request, 0),
        functools.partial(charge_view_words_in_thread, request),
    )
    view["title"] = set_up_title(table.game, table.num_players, table.options, request_language(request))
    return view


@router.get("/api/tables/{table_id}/analysis", tags=["replays"])
def get_analysis(table_id: str, request: Request) -> Response:
    """The table's post-game analysis: ``status`` none, pending, running (with ``progress`` 0..1),
    done (with ``analysis``: `tabletown analyze --json`'s data and the win-chance ``curve``) or failed.
    A finished one is paid for by its length from the address's allowance of long views (429
    ``limit.views``), as a view of as many events is."""
    svc = service(request)
    table = open_table_in_thread(request, table_id)
    text = analyses.get_json(svc, table, functools.partial(charge_view_words_in_thread, request))
    return Response(text, media_type="application/json")


@router.post("/api/tables/{table_id}/analysis", status_code=202, tags=["replays"])
def post_analysis(table_id: str, request: Request) -> dict[str, Any]:
    """Ask for the analysis of a finished table (409 ``analysis.unfinished`` before its end,
    ``analysis.too_long`` past ``analyses.MAX_ACTIONS`` moves; 429 ``limit.analyses`` or
    ``limit.analysis_queue`` past the limits). It is made once, by a bot worker, and kept; asking
    again answers where it stands (and counts against no limit)."""
    if not same_origin(request):
        # Its POST has no body, so another site's page needs no preflight to send it: each visitor
        # of that page would spend their own address's allowance on the queue (security audit 33).
        raise TableError(403, "analysis.origin", N_("an analysis is asked for from the server's own pages"))
    svc = service(request)
    table = open_table_in_thread(request, table_id)
    guard, address = guard_of(request), client_address(request)
    limits = guard.limits

    def admit(queued: int, mine: int) -> None:
        # a new analysis costs up to minutes of a core: bounded per address and altogether
        if limits.analyses_queued and queued >= limits.analyses_queued:
            raise TableError(
                429,
                "limit.analysis_queue",
                N_("too many analyses are waiting; try again later"),
                retry_after=60,
            )
        if limits.analyses_queued_per_address and mine >= limits.analyses_queued_per_address:
            raise TableError(
                429,
                "limit.analyses_waiting",
                N_("this address's analyses are still waiting; ask again when one is done"),
                retry_after=60,
            )
        if wait := guard.analyses.take(address):
            raise TableError(
                429, "limit.analyses", N_("too many analyses asked for from this address"), retry_after=wait
            )

    return analyses.ask(svc, table, admit, requester=address)
