"""The HTML pages (lobby, table, replay, upload, help), the favicon and the health check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ... import __version__
from ..access import held_seats, remember_token, service
from ..boards import board_words
from ..catalog import find_game, set_up_title
from ..help import help_page as game_help
from ..tables import TableError

HERE = Path(__file__).parents[1]
router = APIRouter()
templates = Jinja2Templates(directory=HERE / "templates")


# -- pages -------------------------------------------------------------------------------------------------------
def board_assets(game_name: str) -> dict[str, Any]:
    js = HERE / "static" / "boards" / f"{game_name}.js"
    html = HERE / "templates" / "boards" / f"{game_name}.html"
    return {
        "board_words": board_words(game_name),
        "board_js": f"/static/boards/{game_name}.js" if js.is_file() else None,
        "board_template": f"boards/{game_name}.html" if html.is_file() else "boards/generic.html",
    }


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> Response:
    return templates.TemplateResponse(request, "lobby.html", {"version": __version__})


@router.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
def table_page(
    table_id: str, request: Request, token: str | None = Query(default=None, max_length=128)
) -> Response:
    svc = service(request)
    table = svc.get(table_id)
    if token is not None:
        # A join link: keep its token in the HttpOnly cookie and take it out of the address bar.
        if table.seat_for(token) is None:
            raise TableError(403, "seat.bad_token", "this link holds no seat at this table")
        response = RedirectResponse(f"/t/{table.id}", status_code=303)
        remember_token(request, response, table, token)
        return response
    context = {
        "table": table.summary(),
        "game_title": set_up_title(table.game, table.num_players, table.options),
        "held": held_seats(request, table),
        **board_assets(table.game.name),
    }
    return templates.TemplateResponse(request, "table.html", context)


@router.get("/t/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_page(table_id: str, request: Request) -> Response:
    table = service(request).get(table_id)
    context = {
        "table": table.summary(),
        "game_title": set_up_title(table.game, table.num_players, table.options),
        "held": held_seats(request, table),
        "upload": False,
        **board_assets(table.game.name),
    }
    return templates.TemplateResponse(request, "replay.html", context)


@router.get("/games/{game_name}/help", response_class=HTMLResponse, include_in_schema=False)
def help_page(game_name: str, request: Request) -> Response:
    """A game's rules in short and every card, tile or place it has (web/help.py, from the
    engine's own data)."""
    found = find_game(game_name)
    if found is None:
        raise TableError(404, "game.unknown", f"no game called {game_name!r}")
    context = {"game_name": found.name, "game_title": found.title, **game_help(found.name)}
    return templates.TemplateResponse(request, "help.html", context)


@router.get("/replay", response_class=HTMLResponse, include_in_schema=False)
def upload_page(request: Request, game: str | None = Query(default=None, max_length=64)) -> Response:
    """Watch a record file. The page reads the file's game and comes back as ``/replay?game=NAME``
    (the record kept in the tab's sessionStorage), so the game's own board draws it."""
    found = find_game(game) if game else None
    context = {
        "table": None,
        "game_name": found.name if found else None,
        "game_title": found.title if found else "",
        "held": [],
        "upload": True,
        "board_js": None,
        "board_words": {},
        "board_template": "boards/generic.html",
        **(board_assets(found.name) if found else {}),
    }
    return templates.TemplateResponse(request, "replay.html", context)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:  # browsers ask for it without looking at the pages' <link rel="icon">
    return RedirectResponse("/static/favicon.svg", status_code=301)


@router.get("/healthz", include_in_schema=False)
async def health() -> dict[str, str]:  # on the event loop: it answers only while the loop is free
    return {"status": "ok"}
