"""Issue 27, set-up: join links come from the public URL (or the address the server listens on), never
from a request's Host header; the favicon; titles that follow a table's options."""

from __future__ import annotations

import re

import httpx
import pytest
from web_helpers import create, free_port, start_server

from tabletown.web.app import ENV_PUBLIC_URL
from tabletown.web.server import ConfigError, check_public_url, default_public_url

FORGED = {"host": "evil.example:666"}


def links(created: dict) -> list[str]:
    return [s["join_url"] for s in created["seats"] if s["join_url"]]


def sit(client, table_id: str, seat: int, headers: dict[str, str]) -> dict:
    response = client.post(f"/api/tables/{table_id}/sit", json={"seat": seat}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_join_links_use_the_public_url_whatever_the_host_header(make_client, sqlite_url, monkeypatch):
    monkeypatch.delenv(ENV_PUBLIC_URL, raising=False)
    client = make_client(sqlite_url, public_url="http://my-pc:8000/")
    response = client.post(
        "/api/tables", json={"game": "toyrace", "seats": ["human", "human", "open"]}, headers=FORGED
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert len(links(created)) == 2
    for seat, url in zip(created["seats"], links(created), strict=False):
        assert url == f"http://my-pc:8000/t/{created['id']}?token={seat['token']}"
    taken = sit(client, created["id"], 2, FORGED)
    assert taken["join_url"] == f"http://my-pc:8000/t/{created['id']}?token={taken['token']}"
    assert "evil" not in response.text + str(taken)


def test_without_a_public_url_links_use_the_servers_own_address(make_client, sqlite_url, monkeypatch):
    monkeypatch.delenv(ENV_PUBLIC_URL, raising=False)
    client = make_client(sqlite_url)
    response = client.post(
        "/api/tables", json={"game": "toyrace", "seats": ["human", "open"]}, headers=FORGED
    )
    created = response.json()
    # the test client's "socket" is testserver:80 (what uvicorn reads from the accepted socket)
    assert links(created) == [f"http://testserver/t/{created['id']}?token={created['seats'][0]['token']}"]
    assert "evil" not in sit(client, created["id"], 1, FORGED)["join_url"]


def test_the_public_url_from_the_environment(make_client, sqlite_url, monkeypatch):
    monkeypatch.setenv(ENV_PUBLIC_URL, "https://games.example.org")
    client = make_client(sqlite_url)
    created = create(client, seats=["human", "bot:random"])
    assert links(created)[0].startswith(f"https://games.example.org/t/{created['id']}?token=")


def test_a_real_server_ignores_a_forged_host_header(tmp_path, monkeypatch):
    """uvicorn as `tabletown serve` runs it, with and without --public-url."""
    monkeypatch.delenv(ENV_PUBLIC_URL, raising=False)
    for public in (None, "http://my-pc:8000"):
        port = free_port()
        extra = ["--public-url", public] if public else []
        process = start_server(f"sqlite:///{tmp_path / f'links-{port}.db'}", port, extra)
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, timeout=10) as http:
                created = http.post(
                    "/api/tables", json={"game": "toyrace", "seats": ["human", "open"]}, headers=FORGED
                ).json()
                taken = http.post(f"/api/tables/{created['id']}/sit", json={"seat": 1}, headers=FORGED).json()
        finally:
            process.terminate()
            process.wait(10)
        expected = public or base
        assert links(created) == [f"{expected}/t/{created['id']}?token={created['seats'][0]['token']}"]
        assert taken["join_url"] == f"{expected}/t/{created['id']}?token={taken['token']}"


def test_public_url_checks_and_defaults():
    assert check_public_url(" http://my-pc:8000/ ") == "http://my-pc:8000"
    assert check_public_url("https://example.org/games") == "https://example.org/games"
    for bad in ("my-pc:8000", "ftp://my-pc", "http://", "http://my-pc:99999", "http://a/?x=1"):
        with pytest.raises(ConfigError):
            check_public_url(bad)
    assert default_public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert default_public_url("::1", 8000) == "http://[::1]:8000"
    lan = default_public_url("0.0.0.0", 8000)
    assert lan.endswith(":8000") and "0.0.0.0" not in lan and "127.0.0.1" not in lan


def test_cli_serve_passes_the_public_url(monkeypatch):
    from typer.testing import CliRunner

    import tabletown.web.server as server
    from tabletown.cli import app

    seen = {}
    monkeypatch.setattr(server, "serve", lambda *args, **kwargs: seen.update(kwargs, args=args))
    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--public-url", "http://my-pc:8123"]
    )
    assert result.exit_code == 0, result.output
    assert seen["public_url"] == "http://my-pc:8123" and seen["args"][:2] == ("0.0.0.0", 8123)


def test_favicon_on_every_page(client):
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<svg") and "<script" not in svg.text and "style=" not in svg.text
    turn = client.get("/static/favicon-turn.svg")
    assert turn.status_code == 200 and "<circle" in turn.text
    ico = client.get("/favicon.ico", follow_redirects=False)
    assert ico.status_code in (301, 308) and ico.headers["location"] == "/static/favicon.svg"
    assert client.get("/favicon.ico").status_code == 200
    table = create(client, seats=["bot:random", "bot:random"])
    for path in ("/", "/replay", f"/t/{table['id']}", f"/t/{table['id']}/replay"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert re.search(r'<link rel="icon" type="image/svg\+xml" href="/static/favicon.svg"', page.text), (
            path
        )


def test_titles_follow_the_options(client):
    plain = create(client, game="machikoro", seats=["bot:random", "bot:random"], options={"harbor": False})
    harbor = create(client, game="machikoro", seats=["bot:random", "bot:random"], options={"harbor": True})
    default = create(client, game="machikoro", seats=["bot:random", "bot:random"])
    tables = client.get("/api/tables").json()
    titles = {t["id"]: t["title"] for group in tables.values() for t in group}
    assert titles[plain["id"]] == "Machi Koro"
    assert titles[harbor["id"]] == "Machi Koro with Harbor"
    assert titles[default["id"]] == "Machi Koro"  # Harbor is off by default
    assert "<title>Machi Koro with Harbor · table" in client.get(f"/t/{harbor['id']}").text
    assert "<h1>Machi Koro <small>" in client.get(f"/t/{plain['id']}").text
    assert "Machi Koro with Harbor · table" in client.get(f"/t/{harbor['id']}/replay").text
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["machikoro"]["plain_title"] == "Machi Koro"
    assert games["newlasvegas"]["plain_title"] == "Welcome To New Las Vegas"


def test_game_titles_for_set_ups():
    from tabletown.core.registry import get_game

    assert get_game("machikoro").title_for(3, {"harbor": True}) == "Machi Koro with Harbor"
    assert get_game("machikoro").title_for(3, {}) == "Machi Koro"
    assert get_game("newlasvegas").title_for(1, {}) == "Welcome To New Las Vegas (solo)"
    assert (
        get_game("newlasvegas").title_for(3, {"first_game": True}) == "Welcome To New Las Vegas (first game)"
    )
    assert get_game("multicity").title_for(2, {"kids": True}) == "Multicity (kids' variant)"
    assert get_game("lordsofvegas").title_for(2, {}) == "Lords of Vegas"
