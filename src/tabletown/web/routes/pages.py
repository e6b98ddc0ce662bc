"""The HTML pages (lobby, table, replay, upload, help), the favicon and the health check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ... import __version__
from ...core.i18n import LANGUAGE_NAMES, LANGUAGES, N_, gettext
from ..access import (
    browser_secret,
    entry_seat,
    held_seats,
    navigated_from_here,
    open_table_in_thread,
    remember_token,
)
from ..boards import board_words
from ..catalog import find_game, set_up_title
from ..help import help_page as game_help
from ..languages import COOKIE, COOKIE_AGE, request_language, script_messages, ui_text
from ..live import labelled
from ..tables import LiveTable, TableError

HERE = Path(__file__).parents[1]
router = APIRouter()
BOARDS = HERE / "boards"


def language_context(request: Request) -> dict[str, Any]:
    """What every page knows of its language: ``lang`` (the page's ``lang`` attribute and the
    switch), ``_`` (the shared catalog's messages) and the languages to switch to."""
    lang = request_language(request)
    return {
        "lang": lang,
        "_": lambda message, **fields: ui_text(lang, message, **fields),
        "languages": LANGUAGE_NAMES,
        "script_messages": script_messages(lang),
        "here": request.url.path,
    }


# A game's board template is found as "<game>/board.html" in its board folder (web/boards/<game>/).
templates = Jinja2Templates(directory=[HERE / "templates", BOARDS], context_processors=[language_context])
BOARD_MEDIA = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


# -- pages -------------------------------------------------------------------------------------------------------
def board_scripts(game_name: str) -> list[str]:
    """A board's scripts in the order the page loads them: its parts (any other ``*.js`` of the
    folder, by name) first, ``board.js`` last, so that board.js can read what the parts registered."""
    folder = BOARDS / game_name
    if not game_name.isidentifier() or not (folder / "board.js").is_file():
        return []
    parts = sorted(p.name for p in folder.glob("*.js") if p.name != "board.js" and p.stem.isidentifier())
    return [f"/boards/{game_name}/{name}" for name in [*parts, "board.js"]]


def board_assets(game_name: str, lang: str = "en") -> dict[str, Any]:
    """A game's board lives in one folder, web/boards/<game>/: its words (``__init__.py``), scripts
    (``board.js`` and its parts), styles (``board.css``, linked by its template) and markup
    (``board.html``)."""
    folder = BOARDS / game_name
    return {
        "board_words": board_words(game_name, lang),
        "board_scripts": board_scripts(game_name),
        "board_template": f"{game_name}/board.html"
        if (folder / "board.html").is_file()
        else "boards/generic.html",
    }


@router.get("/boards/{game_name}/{asset}", include_in_schema=False)
def board_asset(game_name: str, asset: str) -> Response:
    """A board's scripts and stylesheets (``<name>.js``, ``<name>.css``, the name a plain identifier),
    from its folder; nothing else there is served (its Python, its template)."""
    stem, dot, suffix = asset.rpartition(".")
    media_type = BOARD_MEDIA.get(dot + suffix)
    missing = Response("not found", status_code=404, media_type="text/plain")
    # Names are checked before the file system is asked: a name past its limit made is_file() raise
    # (ENAMETOOLONG), answered 500 (security audit 31).
    if media_type is None or not is_board_name(stem) or not is_board_name(game_name):
        return missing
    path = BOARDS / game_name / asset
    return FileResponse(path, media_type=media_type) if path.is_file() else missing


def is_board_name(name: str) -> bool:
    """A game's folder or a board file's stem: a plain identifier of at most 64 characters."""
    return len(name) <= 64 and name.isidentifier()


@router.get("/lang/{code}", include_in_schema=False)
def choose_language(code: str, request: Request, back: str = Query(default="/", max_length=512)) -> Response:
    """The language switch: remembers the choice in a cookie and goes back to the page it came from
    (a path on this site only: never elsewhere)."""
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = "/"
    response = RedirectResponse(back, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=COOKIE_AGE, samesite="lax", path="/")
    return response


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> Response:
    return templates.TemplateResponse(request, "lobby.html", {"version": __version__})


@router.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
def table_page(
    table_id: str, request: Request, token: str | None = Query(default=None, max_length=128)
) -> Response:
    table = open_table_in_thread(request, table_id)
    if token is not None:
        # A join link: keep its token in the HttpOnly cookie and take it out of the address bar.
        # The link's token is an invitation, redeemed by the page (POST .../join) and kept in
        # the cookie, with the browser's secret, either way: a link preview takes no seat.
        response = RedirectResponse(f"/t/{table.id}", status_code=303)
        seat = entry_seat(table, token, browser_secret(request))
        if seat is not None:
            if not navigated_from_here(request):
                # Another site sent the browser here: it could send it through hundreds of join
                # links of its own tables, and their cookies would crowd out the browser's seats
                # (browsers keep about 180 cookies a site) or grow every request's head past what
                # the server reads (security audit 33). The player takes the seat with one click.
                return invite_page(request, table, token, seat)
            # A seat's token or invitation, or the link this browser itself redeemed (kept again:
            # the browser's seat is told from it).
            remember_token(request, response, table, token)
        elif not held_seats(request, table):  # (a used link in the browser that used it: its seat)
            spent = {"table_id": table.id}
            return templates.TemplateResponse(request, "link_spent.html", spent, status_code=403)
        return response
    context = {
        "table": table.summary(),
        "game_title": set_up_title(table.game, table.num_players, table.options, request_language(request)),
        "held": held_seats(request, table),
        **board_assets(table.game.name, request_language(request)),
    }
    return templates.TemplateResponse(request, "table.html", context)


def invite_page(request: Request, table: LiveTable, token: str, seat: int) -> Response:
    """ "Join this table?": a join link reached from another site asks before its seat is taken."""
    lang = request_language(request)
    context = {
        "table_id": table.id,
        "token": token,
        "game_title": set_up_title(table.game, table.num_players, table.options, lang),
        "seat_label": labelled([s.public() for s in table.seats], lang)[seat]["label"],
    }
    response = templates.TemplateResponse(request, "join_invite.html", context)
    response.headers["Cache-Control"] = "no-store"  # the page carries the invitation
    return response


@router.get("/t/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_page(table_id: str, request: Request) -> Response:
    table = open_table_in_thread(request, table_id)
    context = {
        "table": table.summary(),
        "game_title": set_up_title(table.game, table.num_players, table.options, request_language(request)),
        "held": held_seats(request, table),
        "upload": False,
        **board_assets(table.game.name, request_language(request)),
    }
    return templates.TemplateResponse(request, "replay.html", context)


@router.get("/games/{game_name}/help", response_class=HTMLResponse, include_in_schema=False)
def help_page(game_name: str, request: Request) -> Response:
    """A game's rules in short and every card, tile or place it has (web/help.py, from the
    engine's own data)."""
    found = find_game(game_name)
    if found is None:
        raise TableError(404, "game.unknown", N_("no game called {game!r}"), game=game_name)
    context = {
        "game_name": found.name,
        "game_title": gettext(found.name, request_language(request), found.title),
        **game_help(found.name, request_language(request)),
    }
    return templates.TemplateResponse(request, "help.html", context)


@router.get("/replay", response_class=HTMLResponse, include_in_schema=False)
def upload_page(request: Request, game: str | None = Query(default=None, max_length=64)) -> Response:
    """Watch a record file. The page reads the file's game and comes back as ``/replay?game=NAME``
    (the record kept in the tab's sessionStorage), so the game's own board draws it."""
    found = find_game(game) if game else None
    context = {
        "table": None,
        "game_name": found.name if found else None,
        "game_title": gettext(found.name, request_language(request), found.title) if found else "",
        "held": [],
        "upload": True,
        "board_scripts": [],
        "board_words": {},
        "board_template": "boards/generic.html",
        **(board_assets(found.name, request_language(request)) if found else {}),
    }
    return templates.TemplateResponse(request, "replay.html", context)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:  # browsers ask for it without looking at the pages' <link rel="icon">
    return RedirectResponse("/static/favicon.svg", status_code=301)


@router.get("/healthz", include_in_schema=False)
async def health() -> dict[str, str]:  # on the event loop: it answers only while the loop is free
    return {"status": "ok"}
