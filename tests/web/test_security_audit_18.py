"""Security audit 18: a property-based fuzz of every route of the server and of the table
WebSocket's client messages.

Audited: does any request shape make the server answer 5xx, hang, or change a game it should not?
Every route of the app is enumerated (``app.routes``, flattened through the included routers, and
the OpenAPI schema at /openapi.json for the bodies' fields) and Hypothesis sends each requests of
wrong types and shapes: JSON bodies with strings for numbers, integers past 2**63, negative and
float ``seq``, NaN and Infinity in the raw text, values nested thousands deep, lists for objects,
lone surrogates and NUL (escaped in JSON, raw in invalid UTF-8), strings up to the body limit and
past it, empty and non-JSON bodies, wrong content types; query strings of the same (percent-escaped
invalid UTF-8 too); path ids real and made up; credentials real (seat tokens, spent invitations,
an unredeemed invitation, the table's cookie) and forged. Real table ids, seat tokens, current
``seq`` values and the seats' legal moves are mixed in, so requests reach the games' parsers, the
draft, replays, records and uploads, not only 404s. The requests go straight to the ASGI app (raw
bytes, a time limit each: a hang fails). Tables of all four games (Machi Koro, Lords of Vegas,
Multicity, New Las Vegas with three seats and secret moves) and the toy game (a finished one, one
with an open seat and one with an unredeemed invitation) are at stake.

Each answer must be below 500; a 4xx must be JSON ``{"rule", "message"}`` (docs/server.md,
"Protocol") naming no file, line or traceback, except the two documented pages: a board file
nobody may load (``/boards/...``: 404 text) and a spent join link (403 ``link_spent.html``).
After every refused request (and every GET), the table it named (and every table's ``seq`` and
seats) is unchanged: its moves, status, seats, stored moves and seats in the database, its record
as every seat and a spectator read it, and every seat's view. Over the WebSocket each client
message, text or binary, must be answered with an ``ack`` or an ``error`` of that shape, and a
refused one changes nothing either.

Found (a ``test_hole_*`` test below, failing before its fix):

* A client message sent as a binary WebSocket frame (``{"type": "action", ...}`` as bytes, or any
  bytes) closed the socket without an answer: the receiving task read it with
  ``receive_text()``, which fails on a binary frame (KeyError), and the socket was torn down
  (close 1000) instead of answering an ``ack`` or an ``error``. A binary frame is now read as UTF-8
  text like a text frame (web/routes/sockets.py).

Checked and sound: no 5xx, hang, leak or change after a refusal over some 1,300 requests and 120
sockets per run (the counts in the ``settings`` below), every route hit; the games' parsers, drafts,
replays with ``instead`` and uploads all refuse with 4xx and the documented shape.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

import anyio
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketDenialResponse, WebSocketDisconnect
from web_helpers import create

from tabletown.web import db as web_db

GAMES = ("machikoro", "lordsofvegas", "multicity", "newlasvegas", "toyrace")
HOSTILE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]
LEAKS = re.compile(r"Traceback|File \"|\.py\b|/work/|site-packages|line \d+", re.IGNORECASE)
SECONDS = 10.0  # no request may take longer (the long polls the fuzz makes wait 0.2 s at most)


# -- the world: tables of every game, with tokens and moves made -------------------------------------------
class World:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.app = client.app
        self.svc = self.app.state.service
        self.tables: dict[str, str] = {}  # id -> what it is
        self.tokens: dict[str, list[str]] = {}  # id -> seat tokens (redeemed)
        self.spent: list[str] = []  # invitations redeemed already
        self.invitations: dict[str, str] = {}  # id -> an invitation not yet redeemed
        self.uploads: list[dict[str, Any]] = []  # full records (with seeds) of real games
        for game in GAMES:
            seats = ("human", "human", "human") if game == "newlasvegas" else ("human", "human")
            answer = create(client, game, seats, redeem=False, seed=18)
            table_id = answer["id"]
            invitations = [s["token"] for s in answer["seats"]]
            self.spent += invitations
            self.tokens[table_id] = [self.redeem(table_id, t) for t in invitations]
            self.tables[table_id] = game
            self.play(table_id, 4)
            table = self.svc.held(table_id)
            self.uploads.append(table.record().to_json())
        # the toy game: one finished, one with an open seat and an unredeemed invitation
        answer = create(client, "toyrace", ("human", "human"), seed=3, options={"target": 5})
        finished = answer["id"]
        self.tables[finished] = "toyrace finished"
        self.tokens[finished] = [s["token"] for s in answer["seats"]]
        self.play(finished, 500)
        assert self.svc.held(finished).status == "finished"
        self.uploads.append(self.svc.held(finished).record().to_json())
        answer = create(client, "toyrace", ("human", "open"), redeem=False, seed=4)
        waiting = answer["id"]
        self.tables[waiting] = "toyrace open"
        self.invitations[waiting] = answer["seats"][0]["token"]
        self.tokens[waiting] = []
        self.ids = list(self.tables)

    def redeem(self, table_id: str, invitation: str) -> str:
        answer = self.client.post(f"/api/tables/{table_id}/join", json={"token": invitation})
        assert answer.status_code == 200, answer.text
        return str(answer.json()["token"])

    def play(self, table_id: str, moves: int) -> None:
        for n in range(moves):
            table = self.svc.held(table_id)
            if table.over:
                return
            seat = table.state.to_act[0]
            token = self.tokens[table_id][seat]
            view = self.client.get(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}"})
            legal = view.json()["legal"]
            answer = self.client.post(
                f"/api/tables/{table_id}/actions",
                json={"seq": table.seq, "action": "b" if n % 2 and "b" in legal else legal[0]},
                headers={"authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 200, answer.text

    def all_tokens(self) -> list[str]:
        return (
            [t for tokens in self.tokens.values() for t in tokens]
            + self.spent
            + list(self.invitations.values())
        )

    def legal(self, table_id: str) -> list[str]:
        table = self.svc.held(table_id)
        out: list[str] = []
        if table is None or table.state is None or table.over:
            return out
        for seat in table.state.to_act:
            out += [table.state.format_action(a) for a in table.state.legal_actions(seat)][:20]
        return out

    # -- what must not change -------------------------------------------------------------------------------
    def light(self) -> dict[str, Any]:
        """Every table's moves and seats (cheap: after every request)."""
        out = {}
        for table_id in self.ids:
            table = self.svc.held(table_id)
            out[table_id] = (
                table.seq,
                table.status,
                tuple((s.token, s.name, s.joined, s.away, s.open) for s in table.seats),
            )
        return out

    def full(self, table_id: str) -> dict[str, Any]:
        """Everything of one table: memory, database, records and views as every seat reads them."""
        table = self.svc.held(table_id)
        views = {}
        for seat in [None, *range(table.num_players)]:
            payload = dict(self.svc.payload(table, seat, 0, "en"))
            payload.pop("turn_deadline", None)
            views[seat] = (json.dumps(payload, sort_keys=True, default=str), table.record_for(seat))
        with self.svc.sessions() as session:
            moves = session.execute(
                sa.select(web_db.MoveRow.seq, web_db.MoveRow.seat, web_db.MoveRow.action)
                .where(web_db.MoveRow.table_id == table_id)
                .order_by(web_db.MoveRow.seq)
            ).all()
            seats = session.execute(
                sa.select(
                    web_db.SeatRow.seat, web_db.SeatRow.token, web_db.SeatRow.name, web_db.SeatRow.joined
                )
                .where(web_db.SeatRow.table_id == table_id)
                .order_by(web_db.SeatRow.seat)
            ).all()
            status = session.execute(
                sa.select(web_db.TableRow.status).where(web_db.TableRow.id == table_id)
            ).scalar_one()
        return {
            "seq": table.seq,
            "actions": list(table.actions),
            "secret": list(table.secret),
            "status": table.status,
            "seats": [(s.token, s.name, s.joined, s.away, s.open) for s in table.seats],
            "db": ([tuple(m) for m in moves], [tuple(s) for s in seats], status),
            "views": views,
        }


@pytest.fixture
def world(client):
    return World(client)


# -- raw ASGI requests ---------------------------------------------------------------------------------------
async def _asgi(app: Any, scope: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
    done = anyio.Event()
    sent = False
    start: dict[str, Any] = {}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                done.set()

    with anyio.fail_after(SECONDS):
        await app(scope, receive, send)
    return start["status"], start.get("headers", []), b"".join(chunks)


def request(
    world: World,
    method: str,
    raw_path: bytes,
    query: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    body: bytes = b"",
) -> tuple[int, dict[str, str], bytes]:
    """One request straight to the app (any bytes in path, query, headers and body)."""
    path = urllib.parse.unquote(raw_path.decode("ascii"))  # as uvicorn decodes it
    heads = [(b"host", b"testserver"), *(headers or [])]
    if body and not any(k == b"content-length" for k, _ in heads):
        heads.append((b"content-length", str(len(body)).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": raw_path,
        "root_path": "",
        "query_string": query,
        "headers": heads,
        "client": ("203.0.113.18", 50000),
        "server": ("testserver", 80),
        "extensions": {},
        "state": {},
    }
    try:
        status, raw_headers, content = world.client.portal.call(_asgi, world.app, scope, body)
    except TimeoutError:
        raise AssertionError(f"{method} {raw_path!r}?{query!r} hung past {SECONDS} s") from None
    return status, {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in raw_headers}, content


def check_answer(label: str, path: str, status: int, headers: dict[str, str], content: bytes) -> None:
    """(1) no 5xx; (2) a 4xx is JSON {rule, message} leaking nothing (but the documented pages)."""
    assert status < 500, f"{label}: {status} {content[:300]!r}"
    if not 400 <= status < 500:
        return
    if path.startswith("/boards/") and status == 404:
        return  # a board's other files: a plain 404 (pages.board_asset)
    if status == 403 and path.startswith("/t/") and headers.get("content-type", "").startswith("text/html"):
        return  # a spent join link's page (docs/server.md, "Invitations")
    assert headers.get("content-type", "").startswith("application/json"), (
        f"{label}: {status} {content[:300]!r}"
    )
    data = json.loads(content)
    assert isinstance(data, dict) and set(data) >= {"rule", "message"}, f"{label}: {data}"
    assert isinstance(data["rule"], str) and isinstance(data["message"], str), f"{label}: {data}"
    assert not LEAKS.search(data["message"]), f"{label}: leaks internals: {data}"


# -- values of every wrong type and shape ----------------------------------------------------------------
SPECIAL_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfff",
    "\ufeff",
    "\u202e",
    "²",
    "𝔘𝔫𝔦",
    "é" * 41,
    "-1",
    "1e309",
    "NaN",
    "Infinity",
    "null",
    "true",
    "0x10",
    "9" * 40,
    "\n\t",
    "../../etc/passwd",
    "%00",
    "<script>",
    "{}",
    "x" * 129,
    "bot:expert",
    "bot:policy:/etc/passwd",
    "human",
    "open",
]
HUGE_INTS = [2**63, 2**63 - 1, -(2**63) - 1, 2**64, 10**30, -1, -(10**20), 2**31, 0]


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.sampled_from(HUGE_INTS),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.0, -0.0, 1.5, -1.0, 1e308, float("nan"), float("inf"), float("-inf")]),
        st.text(max_size=30),
        st.sampled_from(SPECIAL_TEXT),
    )


def values() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=8,
    )


def plausible(world: World, table_id: str | None, name: str) -> st.SearchStrategy[Any]:
    """Values a field of this name takes when a client means well, and near misses."""
    table = world.svc.held(table_id) if table_id else None
    seq = table.seq if table is not None else 0
    tokens = world.all_tokens()
    legal = world.legal(table_id) if table_id else []
    notation = choice(legal or ["r", "b", "pass"])
    near = st.one_of(
        notation,
        st.builds(lambda a, b: a + b, notation, st.sampled_from(SPECIAL_TEXT)),
        st.builds(lambda a, b: b + a, notation, st.sampled_from(SPECIAL_TEXT)),
        notation.map(str.upper),
        notation.map(lambda t: t[: len(t) // 2]),
        notation.map(lambda t: t.replace(" ", "  ") + " " + t),
    )
    by_name: dict[str, st.SearchStrategy[Any]] = {
        "seq": st.one_of(
            st.just(seq), st.sampled_from([seq - 1, seq + 1, -seq - 1, 2**63 + seq, float(seq), str(seq)])
        ),
        "since": st.sampled_from([0, 1, 999_999_999, 10**9, -1, 2**64, 0.5]),
        "action": st.one_of(near, st.integers(-5, 400), st.sampled_from(HUGE_INTS)),
        "token": st.one_of(choice(world.tokens.get(table_id or "", []) or tokens), choice(tokens)),
        "seat": st.sampled_from([0, 1, 2, 3, 12, 64, 65, -1, True]),
        "steps": st.lists(near, max_size=9),
        "name": st.one_of(
            st.sampled_from(["Ann", "You", "Player 2", "Expert bot", "Du", " Ann "]), st.text(max_size=45)
        ),
        "text": st.one_of(st.text(max_size=40), st.just("x" * 301)),
        "back": st.sampled_from([True, False, 1, "true"]),
        "game": st.sampled_from([*GAMES, "nope", "Machikoro"]),
        "seats": st.lists(
            st.sampled_from(["human", "open", "bot:random", "BOT:Random ", "bot:nope", "policy:/x", "bot:"]),
            min_size=0,
            max_size=17,
        ),
        "options": st.dictionaries(
            st.sampled_from(["harbor", "target", "first_game", "deck", "markers_full", "fifth_player", "x"]),
            scalars(),
            max_size=3,
        ),
        "seed": st.sampled_from(HUGE_INTS),
        "turn_timer": st.sampled_from([*HUGE_INTS, 5, 3600]),
        "names": st.lists(scalars(), max_size=17),
        "record": st.one_of(
            choice(world.uploads),
            st.builds(
                lambda r, k, v: {**r, k: v},
                choice(world.uploads),
                st.sampled_from(
                    ["seed", "seats", "actions", "options", "game", "salt", "commitment", "result"]
                ),
                values(),
            ),
        ),
        "step": st.sampled_from([0, 1, 3, 4, 5, -1, 10**7, 2**63, 1.0]),
        "instead": near,
    }
    return by_name.get(name, values())


def choice(items: list[Any]) -> st.SearchStrategy[Any]:
    """One of ``items``, a list that may change between examples (the world moves on): drawn as
    an index, so Hypothesis sees the same draws every time."""
    return st.integers(0, 1 << 16).map(lambda i: items[i % len(items)])


def rare(draw: Any, n: int) -> bool:
    """True about once in ``n + 1`` draws (Hypothesis favours the ends of a range, not its middle)."""
    return bool(draw(st.integers(0, n)) == n // 2)


def bodies(world: World, table_id: str | None, fields: list[str]) -> st.SearchStrategy[bytes]:
    """A request body: the route's fields (plausible, or anything) as JSON, or bytes of no shape."""

    @st.composite
    def as_json(draw: Any) -> bytes:
        obj: Any = {}
        for name in fields:
            if rare(draw, 9):
                continue  # left out
            wrong = rare(draw, 4)
            obj[name] = draw(values() if wrong else plausible(world, table_id, name))
        if rare(draw, 5):
            obj[draw(st.text(max_size=6))] = draw(values())
        shape = draw(st.integers(0, 12))  # 5, 6: not an object
        if shape == 5:
            obj = [obj]
        elif shape == 6:
            obj = draw(values())
        text = json.dumps(obj, allow_nan=True, ensure_ascii=draw(st.booleans()))
        return text.encode("utf-8", "surrogatepass")

    raw = st.sampled_from(
        [
            b"",
            b"{",
            b"null",
            b"[]",
            b"NaN",
            b'{"seq": NaN, "action": Infinity}',
            b'{"seq": 1e400}',
            b'{"seq": -0, "action": "\\ud800"}',
            b'{"action": "\\u0000", "seq": 0}',
            b"\xff\xfe{\x00}",
            b"\xef\xbb\xbf{}",
            b"[" * 30000 + b"]" * 30000,
            b'{"a":' * 10000 + b"1" + b"}" * 10000,
            b'{"seq": 0, "seq": "0"}',
            b"seq=0&action=r",
            b'{"text": "' + b"x" * 65000 + b'"}',
            b"x" * (64 * 1024 + 1),
        ]
    )
    return st.one_of(as_json(), as_json(), as_json(), raw)


CONTENT_TYPES = [
    b"application/json",
    b"application/json; charset=utf-16",
    b"text/plain",
    b"application/x-www-form-urlencoded",
    b"multipart/form-data; boundary=x",
    b"application/jsonx",
    None,
]


def quote(value: str) -> str:
    return urllib.parse.quote(value.encode("utf-8", "surrogatepass"), safe="")


# -- the routes ---------------------------------------------------------------------------------------------
def flat_routes(routes: list[Any]) -> list[Any]:
    out = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            out += flat_routes(inner.routes)
        else:
            out.append(route)
    return out


def route_table(world: World) -> list[tuple[str, str, list[str], list[str]]]:
    """(method, path template, query names, body fields) of every HTTP route, from ``app.routes``
    and the OpenAPI schema; the WebSocket route has a test of its own."""
    schema = world.client.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    out: list[Any] = []
    for route in flat_routes(world.app.routes):
        kind = type(route).__name__
        if kind == "Mount":
            out.append(("GET", route.path + "/{path}", [], []))
            continue
        if kind == "WebSocketRoute" or "websocket" in kind.lower():
            continue
        for method in sorted(route.methods or ()):
            if method == "HEAD":
                continue
            op = schema["paths"].get(route.path, {}).get(method.lower(), {})
            query = [p["name"] for p in op.get("parameters", []) if p["in"] == "query"]
            dependant = getattr(route, "dependant", None)
            if dependant is not None:
                query = sorted({*query, *(p.name for p in dependant.query_params)})
            ref = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            fields = list(models[ref["$ref"].rsplit("/", 1)[1]]["properties"]) if "$ref" in ref else []
            out.append((method, route.path, query, fields))
    return out


EXPECTED = {
    ("GET", "/openapi.json"),
    ("GET", "/static/{path}"),
    ("GET", "/api/games"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables"),
    ("GET", "/api/tables/{table_id}"),
    ("POST", "/api/tables/{table_id}/actions"),
    ("POST", "/api/tables/{table_id}/draft"),
    ("POST", "/api/tables/{table_id}/join"),
    ("POST", "/api/tables/{table_id}/sit"),
    ("GET", "/api/tables/{table_id}/chat"),
    ("POST", "/api/tables/{table_id}/chat"),
    ("GET", "/api/tables/{table_id}/record"),
    ("GET", "/api/tables/{table_id}/replay"),
    ("POST", "/api/replay"),
    ("GET", "/api/tables/{table_id}/analysis"),
    ("POST", "/api/tables/{table_id}/analysis"),
    ("GET", "/boards/{game_name}/{asset}"),
    ("GET", "/lang/{code}"),
    ("GET", "/"),
    ("GET", "/t/{table_id}"),
    ("GET", "/t/{table_id}/replay"),
    ("GET", "/games/{game_name}/help"),
    ("GET", "/replay"),
    ("GET", "/favicon.ico"),
    ("GET", "/healthz"),
}

PATH_VALUES = {
    "game_name": [*GAMES, "nope", "..", "machikoro%2F..", "%00", "ma%C3%9F"],
    "asset": ["board.js", "board.css", "__init__.py", "board.html", "..%2F..%2Fapp.py", "x.js", "%2e%2e.js"],
    "code": ["en", "pl", "de", "ru", "xx", "%00", "%ED%A0%80"],
    "path": ["favicon.svg", "app.js", "..%2F..%2Fapp.py", "%00", "nope.css", "x" * 300],
}


@st.composite
def http_requests(
    draw: Any, world: World, routes: list[tuple[str, str, list[str], list[str]]]
) -> dict[str, Any]:
    method, template, query_names, fields = draw(st.sampled_from(routes))
    if rare(draw, 15):
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]))
    table_id = None
    path = template
    for name in re.findall(r"{(\w+)}", template):
        if name == "table_id":
            if not rare(draw, 7):
                table_id = draw(choice(world.ids))
                value = table_id
            else:
                value = quote(draw(st.one_of(st.text(max_size=70), st.sampled_from(SPECIAL_TEXT))))
                value = value or "x"
        else:
            value = draw(st.sampled_from(PATH_VALUES.get(name, ["x"])))
        path = path.replace("{" + name + "}", value)
    query = []
    names = [n for n in query_names if draw(st.booleans())]
    if rare(draw, 4):
        names.append(
            draw(st.sampled_from(["token", "seat", "since", "seq", "wait", "lang", "x", "download"]))
        )
    for name in names:
        if name == "wait":
            value = draw(st.sampled_from(["0", "0.2", "-1", "31", "nan", "inf", "1e400", "", "0.1e1", "x"]))
        else:
            raw = draw(st.one_of(plausible(world, table_id, name), scalars()))
            value = raw if isinstance(raw, str) else json.dumps(raw, allow_nan=True)
        query.append(f"{quote(name)}={quote(value)}")
    if rare(draw, 9):
        query.append(
            draw(
                st.sampled_from(
                    ["seat=%FF", "since=%ED%A0%80", "token=%00", "seq", "=", "&&", "wait=0.2&seq=0"]
                )
            )
        )
    headers: list[tuple[bytes, bytes]] = []
    auth = draw(st.integers(0, 5))
    if auth == 1:
        headers.append((b"authorization", b"Bearer " + draw(choice(world.all_tokens())).encode()))
    elif auth == 2:
        headers.append(
            (
                b"authorization",
                draw(
                    st.sampled_from(
                        [b"Bearer ", b"Bearer \xff\xfe", b"bearer  x", b"Basic abc", b"Bearer " + b"a" * 200]
                    )
                ),
            )
        )
    elif auth == 3 and table_id is not None:
        cookie = ",".join(draw(st.lists(choice(world.all_tokens()), max_size=3)))
        headers.append((b"cookie", f'tt_{table_id}="{cookie}"; tt_browser={"a" * 48}'.encode()))
    if rare(draw, 5):
        headers.append(
            (b"accept-language", draw(st.sampled_from([b"pl", b"de;q=x", b"ru,*;q=0.1", b"\xff", b"zz-ZZ"])))
        )
        headers.append((b"cookie", draw(st.sampled_from([b"tt_lang=ru", b"tt_lang=\xff", b"tt_lang=%00"]))))
    body = b""
    if method in ("POST", "PUT", "PATCH") or rare(draw, 9):
        body = draw(bodies(world, table_id, fields))
        kind = draw(st.sampled_from(CONTENT_TYPES)) if rare(draw, 4) else b"application/json"
        if kind is not None:
            headers.append((b"content-type", kind))
    if rare(draw, 40):
        headers.append(
            (b"content-length", draw(st.sampled_from([b"abc", b"-1", b"99999999999999999999", b"0", b"1"])))
        )
    return {
        "method": method,
        "template": template,
        "table_id": table_id,
        "raw_path": path.encode("ascii"),
        "query": "&".join(query).encode("ascii"),
        "headers": headers,
        "body": body,
    }


# Examples per fuzz in ``make test`` (about 9 s together on one core); ``make soak`` runs the
# same fuzzes with ``SOAK`` times as many (the audit itself ran 800, 350 and 120).
FUZZ = {"routes": 250, "moves": 120, "sockets": 40}
SOAK = 16


def soaked(test, examples: int):
    """``test`` (a Hypothesis fuzz) again with ``examples`` examples, marked for ``make soak``."""
    many = settings(
        max_examples=examples, deadline=None, derandomize=True, suppress_health_check=HOSTILE, database=None
    )
    return pytest.mark.soak(many(given(data=st.data())(test.hypothesis.inner_test)))


def test_every_route_is_fuzzed(world):
    """The fuzz knows every route the app serves (a new route joins it by itself; this lists them)."""
    routes = route_table(world)
    assert {(m, p) for m, p, _, _ in routes} == EXPECTED
    sockets = [r.path for r in flat_routes(world.app.routes) if "websocket" in type(r).__name__.lower()]
    assert sockets == ["/ws/tables/{table_id}"]


@settings(
    max_examples=FUZZ["routes"], deadline=None, derandomize=True, suppress_health_check=HOSTILE, database=None
)
@given(data=st.data())
def test_fuzz_every_route(world, data):
    routes = getattr(world, "routes", None) or route_table(world)
    world.routes = routes
    req = data.draw(http_requests(world, routes))
    light = world.light()
    before = world.full(req["table_id"]) if req["table_id"] else None
    status, headers, content = request(
        world, req["method"], req["raw_path"], req["query"], req["headers"], req["body"]
    )
    label = f"{req['method']} {req['raw_path']!r}?{req['query']!r} {req['headers']} {req['body'][:200]!r}"
    check_answer(label, req["raw_path"].decode(), status, headers, content)
    refused = status >= 400 or req["method"] == "GET"
    if refused:
        now = world.light()
        assert now == light, f"{label}: {status} changed a table"
        if before is not None:
            assert world.full(req["table_id"]) == before, f"{label}: {status} changed the table"


@st.composite
def deep_requests(draw: Any, world: World) -> dict[str, Any]:
    """A move, a draft or a replay step at a real table, from the seat whose turn it is: past every
    check of the request's shape, into the games' own parsers."""
    table_id = draw(choice(world.ids))
    table = world.svc.held(table_id)
    tokens = world.tokens[table_id]
    seat = draw(choice(list(table.state.to_act) if table.state and table.state.to_act else [0]))
    token = tokens[seat] if seat < len(tokens) else draw(choice(world.all_tokens()))
    kind = draw(st.sampled_from(["actions", "actions", "draft", "replay"]))
    action = draw(st.one_of(plausible(world, table_id, "action"), values()))
    if kind == "actions":
        seq = draw(st.one_of(st.just(table.seq), plausible(world, table_id, "seq")))
        body = {"seq": seq, "action": action}
        if draw(st.booleans()):
            body["since"] = draw(st.sampled_from([0, table.seq, 999_999_999]))
        query = b""
    elif kind == "draft":
        body = {
            "steps": draw(
                st.lists(
                    plausible(world, table_id, "action").filter(
                        lambda a: isinstance(a, str) and len(a) <= 40
                    ),
                    max_size=8,
                )
            )
        }
        query = b""
    else:
        body = None
        step = draw(st.integers(-1, 10**6)) % (table.seq + 3) - 1
        query = (
            f"step={step}&instead={quote(action if isinstance(action, str) else json.dumps(action))}".encode()
        )
        if draw(st.booleans()):
            query += f"&seat={seat}".encode()
    path = f"/api/tables/{table_id}/{kind}"
    text = json.dumps(body, allow_nan=True, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    return {
        "method": "GET" if body is None else "POST",
        "template": f"/api/tables/{{table_id}}/{kind}",
        "table_id": table_id,
        "raw_path": path.encode(),
        "query": query,
        "headers": [(b"authorization", f"Bearer {token}".encode()), (b"content-type", b"application/json")],
        "body": b"" if body is None else text,
    }


@settings(
    max_examples=FUZZ["moves"], deadline=None, derandomize=True, suppress_health_check=HOSTILE, database=None
)
@given(data=st.data())
def test_fuzz_moves_drafts_and_replays(world, data):
    req = data.draw(deep_requests(world))
    before = world.full(req["table_id"])
    light = world.light()
    status, headers, content = request(
        world, req["method"], req["raw_path"], req["query"], req["headers"], req["body"]
    )
    label = f"{req['method']} {req['raw_path']!r}?{req['query']!r} {req['body'][:300]!r}"
    check_answer(label, req["raw_path"].decode(), status, headers, content)
    if status >= 400 or req["method"] == "GET" or "draft" in req["template"]:
        assert world.light() == light, f"{label}: {status} changed a table"
        assert world.full(req["table_id"]) == before, f"{label}: {status} changed the table"


async def _next(ws: Any) -> dict[str, Any]:
    with anyio.fail_after(SECONDS):
        return await ws._send_rx.receive()  # type: ignore[no-any-return]


def answer_to(ws: Any) -> dict[str, Any]:
    """The next message that is not a pushed view: the answer to what the client sent."""
    while True:
        try:
            message = ws.portal.call(_next, ws)
        except TimeoutError:
            raise AssertionError(f"no answer within {SECONDS} s") from None
        assert message["type"] == "websocket.send", f"the socket closed instead of answering: {message}"
        data = json.loads(message["text"])
        if data.get("type") != "view":
            return data


@st.composite
def socket_messages(draw: Any, world: World, table_id: str) -> tuple[str, Any]:
    """A client message: an action (plausible or not), any JSON, or no JSON; as text or binary."""
    fields = {
        "type": draw(st.one_of(st.just("action"), scalars())),
        "seq": draw(st.one_of(plausible(world, table_id, "seq"), values())),
        "action": draw(plausible(world, table_id, "action")),
    }
    for name in list(fields):
        if rare(draw, 6):
            del fields[name]
    text = json.dumps(fields, allow_nan=True, ensure_ascii=draw(st.booleans()))
    text = draw(
        st.one_of(
            st.just(text),
            st.just(text),
            st.sampled_from(["", "{", "[]", "null", "NaN", "[" * 5000, "x" * 70000]),
        )
    )
    return ("bytes" if rare(draw, 5) else "text", text)


@settings(
    max_examples=FUZZ["sockets"],
    deadline=None,
    derandomize=True,
    suppress_health_check=HOSTILE,
    database=None,
)
@given(data=st.data())
def test_fuzz_socket_messages(world, data):
    table_id = data.draw(choice(world.ids))
    table = world.svc.held(table_id)
    tokens = world.tokens[table_id] or [world.invitations[table_id]]
    acting = list(table.state.to_act) if table.state and table.state.to_act and not table.over else [0]
    seat = data.draw(choice(acting))
    who = data.draw(st.sampled_from(["seat", "seat", "spectator", "other"]))
    token = tokens[seat % len(tokens)] if who == "seat" else data.draw(choice(world.all_tokens()))
    headers = {} if who == "spectator" else {"authorization": f"Bearer {token}"}
    since = data.draw(st.sampled_from(["0", "-1", "99999999999999999999", "x", "1.5", "%ED%A0%80"]))
    try:
        ws = world.client.websocket_connect(f"/ws/tables/{table_id}?since={since}", headers=headers)
        ws.__enter__()
    except (WebSocketDisconnect, WebSocketDenialResponse) as exc:
        assert getattr(exc, "code", 4403) >= 4000 or getattr(exc, "status_code", 429) < 500, exc
        return
    try:
        first = json.loads(ws.portal.call(_next, ws)["text"])
        assert first["type"] == "view"
        for _ in range(data.draw(st.integers(1, 3))):
            kind, text = data.draw(socket_messages(world, table_id))
            before = world.full(table_id)
            light = world.light()
            if kind == "bytes":
                ws.send_bytes(text.encode("utf-8", "surrogatepass"))
            else:
                ws.send_text(text)
            reply = answer_to(ws)
            label = f"{kind} {text[:300]!r}"
            assert reply["type"] in ("ack", "error"), f"{label}: {reply}"
            if reply["type"] == "error":
                assert {"status", "rule", "message"} <= set(reply), f"{label}: {reply}"
                assert 400 <= reply["status"] < 500, f"{label}: {reply}"
                assert not LEAKS.search(reply["message"]), f"{label}: {reply}"
                assert world.light() == light, f"{label}: {reply} changed a table"
                assert world.full(table_id) == before, f"{label}: {reply} changed the table"
    finally:
        ws.__exit__(None, None, None)


test_soak_fuzz_every_route = soaked(test_fuzz_every_route, FUZZ["routes"] * SOAK)
test_soak_fuzz_moves_drafts_and_replays = soaked(test_fuzz_moves_drafts_and_replays, FUZZ["moves"] * SOAK)
test_soak_fuzz_socket_messages = soaked(test_fuzz_socket_messages, FUZZ["sockets"] * SOAK)


def test_hole_binary_socket_frame_is_answered(world):
    """A move sent as a binary WebSocket frame (what a client's send of bytes makes) closed the
    socket without an answer: ``receive_text()`` failed on it (KeyError) in the receiving task. It
    is read as UTF-8 text now: the move is made (``ack``), and bytes of no JSON get an ``error``."""
    table_id = next(t for t, game in world.tables.items() if game == "machikoro")
    table = world.svc.held(table_id)
    seat = table.state.to_act[0]
    token = world.tokens[table_id][seat]
    legal = world.client.get(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}"}).json()[
        "legal"
    ]
    with world.client.websocket_connect(
        f"/ws/tables/{table_id}", headers={"authorization": f"Bearer {token}"}
    ) as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_bytes(b"\xff\xfe not json")
        error = answer_to(ws)
        assert (error["type"], error["status"], error["rule"]) == ("error", 422, "request.json")
        seq = table.seq
        ws.send_bytes(json.dumps({"type": "action", "seq": seq, "action": legal[0]}).encode())
        assert answer_to(ws) == {"type": "ack", "seq": seq + 1}
