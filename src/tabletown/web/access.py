"""Who a request speaks for, and what the server tells it: the services on ``app.state``, seat
credentials (a Bearer token, a token named in the request, or the table's HttpOnly cookie), the
move rate limit, join links and the cookie that keeps a browser's seats."""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import anyio
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from ..core.i18n import N_
from .asgi import server_base
from .catalog import find_game, set_up_title
from .limits import Guard, take_off_loop
from .live import FREE_VIEW_EVENTS, labelled, unworded_view_events
from .tables import LiveTable, Seat, TableError, TableService, playing_seat

T = TypeVar("T")
COOKIE_PREFIX = "tt_"
BROWSER_COOKIE = "tt_browser"
# Over https the secret cookies are named with this prefix, which a browser accepts only from the very
# host, Secure, for path "/" and without a Domain: a page on a sibling subdomain cannot plant one
# (security audit 27: a planted browser secret let a table's creator work out the token an invited
# friend's redemption would give, and then play that seat).
HOST_ONLY = "__Host-"
# A table's cookie keeps one entry per seat the browser holds, so it never needs more than a table
# has seats (12 at most); a request's cookie is read no further than this many entries.
MAX_COOKIE_TOKENS = 16


def service(request: HTTPConnection) -> TableService:
    return request.app.state.service  # type: ignore[no-any-return]  # set by lifespan()


def with_titles(summaries: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """Each table's title as its set-up makes it ("Machi Koro" or "Machi Koro with Harbor"), and
    its seats' labels, in ``lang``."""
    for summary in summaries:
        summary["seats"] = labelled(summary.get("seats") or [], lang)
        game = find_game(summary.get("game", ""))
        if game is not None:
            summary["title"] = set_up_title(
                game, len(summary.get("seats") or ()), summary.get("options"), lang
            )
    return summaries


def join_url(request: HTTPConnection, table_id: str, token: str) -> str:
    """A seat's join link, from the server's public address (``serve --public-url``) if it has one."""
    public_base = request.app.state.public_base
    return (public_base or server_base(request.scope)) + f"/t/{table_id}?token={token}"


def client_address(request: HTTPConnection) -> str:
    """The key every per-address limit counts under: the IPv4 address, or an IPv6 client's /64."""
    return address_key(request.client.host) if request.client else "unknown"


# An IPv6 client is given a whole /64 (2**64 addresses) by its provider and may send from any of
# them, so per-address limits keyed on the full address were no limits at all (security audit 21);
# the /64 is what one client owns, as an IPv4 address is. IPv4 mapped into IPv6 counts as IPv4.
IPV6_CLIENT_PREFIX = 64


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    if ":" not in host:
        return host
    try:
        address = ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        return host
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False))


def credential(request: HTTPConnection, table: LiveTable, token: Any, seat: Any) -> str | None:
    """The seat token a request carries: ``Authorization: Bearer``, else the token it names,
    else (pages) the token of seat ``seat`` among those the table's HttpOnly cookie holds."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    if isinstance(token, str) and token:
        return token
    if isinstance(seat, int) and not isinstance(seat, bool):
        if not same_origin(request):
            # A page of another origin (a sibling subdomain, another port: same-site, so the Lax
            # cookie goes along) must not play or read this seat. No CORS guards a WebSocket, and
            # an HTTP request without a Content-Type (a no-cors fetch) needs no preflight either
            # (security audit 28: FastAPI before 0.132 read such a body as JSON).
            raise TableError(
                403, "seat.origin", N_("the table's cookie works only on the server's own pages")
            )
        for held in held_tokens(request, table):
            found = table.seat_for(held)
            if found is not None and found.seat == seat:
                return held
        raise TableError(403, "seat.not_held", N_("this browser holds no token for seat {seat}"), seat=seat)
    return None


def same_origin(request: HTTPConnection) -> bool:
    """Whether the request's ``Origin`` (browsers send it on a WebSocket and on every request but a
    GET or HEAD) is this server: the Host header, a proxy's X-Forwarded-Host (a page cannot set
    either on a browser's request) or the public address. A browser's ``Sec-Fetch-Site`` saying
    another origin refuses it too (it is sent on GETs as well, which carry no Origin). Neither
    header: not a browser, no cookie ridden."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    return names_this_server(request, origin)


def names_this_server(request: HTTPConnection, url: str) -> bool:
    """Whether ``url`` (an Origin or a Referer) is on this server: the Host header, a proxy's
    X-Forwarded-Host or the public address."""
    hosts = {request.headers.get("host", ""), *request.headers.get("x-forwarded-host", "").split(",")}
    public_base = request.app.state.public_base
    if public_base:
        hosts.add(urlsplit(public_base).netloc)
    try:
        netloc = urlsplit(url.strip()).netloc.lower()
    except ValueError:
        return False
    return bool(netloc) and netloc in {h.strip().lower() for h in hosts if h.strip()}


def navigated_from_here(request: HTTPConnection) -> bool:
    """Whether a page navigation was started by the browser's user (a typed address, a bookmark) or
    on this server's own pages, not by another site: ``Sec-Fetch-Site`` says so in every current
    browser (a redirect chain that passed through another site reads "cross-site"); a browser
    without it is judged by its Referer, and one sending neither counts as the user's own."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site.strip().lower() in ("same-origin", "none")
    referer = request.headers.get("referer")
    return not referer or names_this_server(request, referer)


def viewer(request: HTTPConnection, table: LiveTable, token: Any, seat: Any) -> Seat | None:
    """The seat a request speaks for (403 for a token of no seat), or None for a spectator."""
    held = credential(request, table, token, seat)
    if held is None:
        return None
    return playing_seat(table, held)


# The refusals a seat redeemed through another process (its news not here yet) would explain.
SEAT_REFUSALS = frozenset({"seat.bad_token", "seat.not_held", "seat.invitation"})


async def with_fresh_seats(request: HTTPConnection, table: LiveTable, check: Callable[[], T]) -> T:
    """``check()`` (a credential's check), once more after reading the table's seats from the
    database when it refused a token: another server process may have just redeemed the seat's
    invitation (the page's join went there, its WebSocket came here) and its news not be here yet."""
    try:
        return check()
    except TableError as exc:
        recheck = service(request).recheck_seats
        if exc.rule not in SEAT_REFUSALS or not await anyio.to_thread.run_sync(recheck, table):
            raise
    return check()


def with_fresh_seats_in_thread(request: HTTPConnection, table: LiveTable, check: Callable[[], T]) -> T:
    """``with_fresh_seats`` for a route that already runs in a worker thread."""
    try:
        return check()
    except TableError as exc:
        if exc.rule not in SEAT_REFUSALS or not service(request).recheck_seats(table):
            raise
    return check()


def guard_of(request: HTTPConnection) -> Guard:
    return request.app.state.guard  # type: ignore[no-any-return]  # set by create_app()


async def open_table(request: HTTPConnection, table_id: str) -> LiveTable:
    """The table ``table_id``: at once when this process holds it, else loaded from the database in
    a worker thread after the client address's allowance of loads (``Limits.table_loads_per_second``;
    security audit 30) has paid for it; a refused request reads nothing."""
    svc = service(request)
    table = svc.held(table_id)
    if table is not None:
        return table
    loads_refused(await take_off_loop(guard_of(request).table_loads, client_address(request)))
    return await anyio.to_thread.run_sync(svc.get, table_id)


def open_table_in_thread(request: HTTPConnection, table_id: str) -> LiveTable:
    """``open_table`` for the endpoints FastAPI already runs in a worker thread."""
    svc = service(request)
    table = svc.held(table_id)
    if table is not None:
        return table
    loads_refused(guard_of(request).table_loads.take(client_address(request)))
    return svc.get(table_id)


def views_refused(wait: float) -> None:
    """429 ``limit.views`` when the address's allowance of worded events (``Limits.view_events_*``)
    asks it to wait."""
    if wait:
        raise TableError(
            429, "limit.views", N_("too many long views from this address; wait a moment"), retry_after=wait
        )


async def charge_view_words(request: HTTPConnection, count: int) -> None:
    """A view wording ``count`` events afresh costs them, past ``FREE_VIEW_EVENTS``, against its
    client address's allowance (security audits 29 and 30), before they are worded."""
    if count > FREE_VIEW_EVENTS:
        views_refused(await take_off_loop(guard_of(request).view_events, client_address(request), cost=count))


async def charge_view_events(
    request: HTTPConnection, table: LiveTable, seat: int | None, since: int, lang: str
) -> None:
    """A table view from ``since`` (a GET, a socket's first view, a move's answer) costs the events
    it would word afresh (its reader's words have left the cache), before it is built: a refused
    view costs nothing, and a reader asking again for the same view is not charged."""
    await charge_view_words(request, unworded_view_events(table, seat, since, lang))


def charge_view_words_in_thread(request: HTTPConnection, count: int) -> None:
    """``charge_view_words`` for the endpoints FastAPI already runs in a worker thread."""
    if count > FREE_VIEW_EVENTS:
        views_refused(guard_of(request).view_events.take(client_address(request), cost=count))


def loads_refused(wait: float) -> None:
    if wait:
        raise TableError(
            429,
            "limit.loads",
            N_("too many tables opened from this address; wait a moment"),
            retry_after=wait,
        )


async def check_move_rate(request: HTTPConnection, token: str | None) -> None:
    """A seat's moves (and name changes) a second, and its client address's, all its seats
    together: counted for every process together with Redis."""
    if token:
        guard = guard_of(request)
        wait = await take_off_loop(guard.moves, token)
        if not wait:
            wait = await take_off_loop(guard.address_moves, client_address(request))
        if wait:
            raise TableError(429, "limit.moves", N_("too many moves: slow down"), retry_after=wait)


def remember_token(request: HTTPConnection, response: Response, table: LiveTable, token: str) -> None:
    """Keep a seat's token (or invitation) in the table's cookie: HttpOnly (page scripts never see
    it), Lax. One entry per seat: the new one replaces an entry for the same seat, and entries that
    open no seat any more are dropped, but an entry for another seat is never pushed out (a page
    of another site can make a browser open join links; it must not cost the browser its seat).
    A join link's visitor also gets the browser's own secret (``remember_browser``)."""
    browser = browser_secret(request)
    seat = entry_seat(table, token, browser)
    held = [
        entry
        for entry in cookie_tokens(request, table)
        if entry != token and entry_seat(table, entry, browser) not in (None, seat)
    ]
    held.append(token)
    set_secret_cookie(request, response, COOKIE_PREFIX + table.id, ",".join(held[-MAX_COOKIE_TOKENS:]))
    remember_browser(request, response)


def entry_seat(table: LiveTable, entry: str, browser: str | None) -> int | None:
    """The seat a cookie entry opens: a seat's token or invitation, or an invitation this browser
    redeemed (``redeemed_token``); None for an entry that opens nothing here."""
    seat = table.seat_for(entry)
    if seat is None and browser is not None:
        seat = table.seat_for(redeemed_token(entry, browser))
    return seat.seat if seat is not None else None


def secure_origin(request: HTTPConnection) -> bool:
    """Whether browsers reach the server over https: also behind a TLS proxy, where the server sees
    plain http (uvicorn trusts no proxy headers) but an https public address says how it is reached."""
    public_base = request.app.state.public_base or ""
    return request.url.scheme in ("https", "wss") or public_base.startswith("https://")


def secret_cookie_name(request: HTTPConnection, name: str) -> str:
    """``name`` as the secret cookie is called here: host-only (``__Host-``) over https. Over https
    only that name is read, so a cookie a sibling subdomain plants under the plain name is ignored."""
    return HOST_ONLY + name if secure_origin(request) else name


def set_secret_cookie(request: HTTPConnection, response: Response, name: str, value: str) -> None:
    response.set_cookie(
        secret_cookie_name(request, name),
        value,
        max_age=90 * 86400,
        samesite="lax",
        httponly=True,
        secure=secure_origin(request),
        path="/",
    )


def browser_secret(request: HTTPConnection) -> str | None:
    """The browser's own secret (the HttpOnly cookie ``tt_browser``), if it has a well-formed one."""
    value = request.cookies.get(secret_cookie_name(request, BROWSER_COOKIE), "")
    return value if 32 <= len(value) <= 64 and value.isascii() and value.isalnum() else None


def remember_browser(request: HTTPConnection, response: Response) -> str:
    """The browser's secret, made (and set in its cookie) the first time it is needed."""
    secret = browser_secret(request)
    if secret is None:
        secret = secrets.token_hex(24)
        set_secret_cookie(request, response, BROWSER_COOKIE, secret)
    return secret


def redeemed_token(invitation: str, browser: str) -> str:
    """The seat token a browser's redemption of ``invitation`` gives the seat: keyed by the
    invitation, of the browser's secret. The table's creator knows the invitation but not the
    secret; the browser that redeemed it can always tell its seat again from its cookies, so a
    redemption whose answer was lost (the page left, the network dropped) loses no seat."""
    digest = hmac.new(invitation.encode(), browser.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def cookie_tokens(request: HTTPConnection, table: LiveTable) -> list[str]:
    """The tokens and invitations the table's cookie holds, as they are written there: its last
    ``MAX_COOKIE_TOKENS`` entries at most, each shaped like a token (a forged cookie of thousands of
    entries would otherwise cost an HMAC and a seat lookup each, on the event loop)."""
    raw = request.cookies.get(secret_cookie_name(request, COOKIE_PREFIX + table.id)) or ""
    entries = raw.rsplit(",", MAX_COOKIE_TOKENS)[-MAX_COOKIE_TOKENS:]
    return [t for t in entries if token_shaped(t)]


def token_shaped(text: str) -> bool:
    """Whether ``text`` looks like a seat token or invitation (URL-safe base64, 20-64 characters)."""
    return 20 <= len(text) <= 64 and text.isascii() and all(c.isalnum() or c in "-_" for c in text)


def held_tokens(request: HTTPConnection, table: LiveTable) -> list[str]:
    """The seat tokens this browser holds: what the cookie holds, an invitation this browser
    redeemed standing for the token its redemption gave (``redeemed_token``)."""
    browser = browser_secret(request)
    held = []
    for token in cookie_tokens(request, table):
        if table.seat_for(token) is None and browser is not None:
            token = redeemed_token(token, browser)
        held.append(token)
    return held


def held_seats(request: HTTPConnection, table: LiveTable) -> list[dict[str, int]]:
    """The seats this browser holds, by number only: the tokens stay in the HttpOnly cookie."""
    seats = {s.seat for s in map(table.seat_for, held_tokens(request, table)) if s is not None}
    return [{"seat": seat} for seat in sorted(seats)]
