"""Issue 27, the end of a game in the browser (real Chromium through Playwright): a headline naming the
winner(s), the final breakdown in the game's own terms with places from the engine's ranks, and "Play
again", which creates a table with the same seats and options and takes the player there. Skipped
when chromium is missing."""

from __future__ import annotations

import random
import time

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

from tabletown.core.words import seat_display_names

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "endgame.db") as url:
        yield url


def finish(server: str, game: str, seats: list[str], options=None, names=None, seed: int = 0) -> dict:
    """Create a table and play its human seats to the end through the API (random legal moves)."""
    body = {"game": game, "seats": seats, "options": options or {}}
    if names:
        body["names"] = names
    created = post_table(server, body)
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
    rng = random.Random(seed)
    deadline = time.monotonic() + 240
    with httpx.Client(base_url=server, timeout=30) as http:
        while time.monotonic() < deadline:
            moved = False
            for token in tokens.values():
                auth = {"authorization": f"Bearer {token}"}
                view = http.get(f"/api/tables/{created['id']}", headers=auth).json()
                if view["over"]:
                    created["final"] = http.get(f"/api/tables/{created['id']}").json()
                    return created
                if view["legal"]:
                    move = {"seq": view["seq"], "action": rng.choice(view["legal"])}
                    http.post(f"/api/tables/{created['id']}/actions", json=move, headers=auth)
                    moved = True
            if not moved:
                time.sleep(0.05)
    raise AssertionError(f"the {game} game did not end")


def expected_headline(final: dict, me: int | None) -> str:
    winners = final["result"]["winners"]
    seats = final["seats"]

    def name(seat: int) -> str:
        if seat == me:
            return "You"
        info = seats[seat]
        if info["name"]:
            return info["name"]
        # people's words (core/words.py seat_display_names): "Greedy bot", "Player 2"
        return seat_display_names([(s["kind"], s["name"]) for s in seats])[seat]

    if len(winners) == 1:
        return "You win!" if winners[0] == me else f"{name(winners[0])} wins"
    names = [name(s) for s in sorted(winners, key=lambda s: (s != me, s))]
    return ", ".join(names[:-1]) + " and " + names[-1] + " share the win"


def places(ranks: list[int]) -> list[str]:
    suffix = {1: "st", 2: "nd", 3: "rd"}
    return [("=" if ranks.count(r) > 1 else "") + f"{r}{suffix.get(r, 'th')}" for r in ranks]


def open_seat_page(page, created: dict, seat: int = 0) -> None:
    page.goto(created["seats"][seat]["join_url"])
    page.wait_for_selector("#game-over:not([hidden])")


def play_again(page, server: str, created: dict) -> dict:
    """Click "Play again": the browser lands on a new table with the same game, seats and options."""
    page.click("#play-again")
    page.wait_for_url(lambda url: f"/t/{created['id']}" not in url and "/t/" in url)
    new_id = page.url.rstrip("/").split("/t/")[1].split("?")[0]
    page.wait_for_selector("#status-line[data-seat='0']:has-text('You are')")
    new = httpx.get(f"{server}/api/tables/{new_id}").json()
    old = created["final"]
    assert new["game"] == old["game"] and new["options"] == old["options"]
    assert [s["kind"] for s in new["seats"]] == [s["kind"] for s in old["seats"]]
    assert [s["name"] for s in new["seats"]][:1] == [old["seats"][0]["name"]]
    assert not new["over"]
    return new


def test_machi_koro_and_new_las_vegas_game_over_and_play_again(server, tmp_path):
    machikoro = finish(
        server, "machikoro", ["human", "bot:greedy", "bot:random"], {"harbor": True}, ["Alice", None, None]
    )
    solo = finish(server, "newlasvegas", ["human"], {}, ["Alice"], seed=1)
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        watch_errors(page, errors)

        # Machi Koro: the winner by name, the others sharing second place (the rules rank nobody else)
        final = machikoro["final"]
        open_seat_page(page, machikoro)
        assert page.inner_text("#outcome") == expected_headline(final, 0)
        winner = final["result"]["winners"][0]
        assert "landmarks first" in page.inner_text("#outcome-detail")
        rows = page.locator(".mk-final tr[data-seat]")
        assert rows.count() == 3
        assert rows.nth(0).get_attribute("data-seat") == str(winner)  # the winner on top
        shown = {
            int(rows.nth(k).get_attribute("data-seat")): rows.nth(k).locator("td").first.inner_text()
            for k in range(3)
        }
        want = places(final["result"]["ranks"])
        assert {s: text.replace(" ★", "") for s, text in shown.items()} == dict(enumerate(want))
        assert sorted(want) == ["1st", "=2nd", "=2nd"]
        assert "(winner)" in page.locator("#seat-list li.winner").inner_text()
        assert page.locator("#seat-list li.winner").count() == 1
        assert page.title().startswith("Machi Koro with Harbor")
        page.screenshot(path=str(tmp_path / "end-machikoro.png"))
        play_again(page, server, machikoro)
        assert "Machi Koro with Harbor" in page.inner_text("h1")

        # New Las Vegas solo: no seat wins when ACME does; the board words it, not shared code
        final = solo["final"]
        open_seat_page(page, solo)
        beat = final["result"]["ranks"] == [1]
        assert page.inner_text("#outcome") == ("You beat ACME!" if beat else "ACME wins this time")
        assert "ACME's" in page.inner_text("#outcome-detail")
        table = page.inner_text(".nlv-final-table")
        assert "ACME" in table and ("1st" in table and "2nd" in table)
        assert "Nobody" not in page.inner_text("#game-over")
        seat_list = page.inner_text("#seat-list")
        assert ("1st (winner)" in seat_list) if beat else ("2nd" not in seat_list)  # no place without a 1st
        page.screenshot(path=str(tmp_path / "end-newlasvegas.png"))
        # a spectator (another browser) reads it in the third person and cannot play again
        other = browser.new_page(viewport={"width": 390, "height": 844})
        watch_errors(other, errors)
        other.goto(f"{server}/t/{solo['id']}")
        other.wait_for_selector("#game-over:not([hidden])")
        assert other.inner_text("#outcome") == ("Alice beats ACME" if beat else "ACME wins against Alice")
        assert other.locator("#play-again").is_hidden()
        other.close()
        play_again(page, server, solo)
        browser.close()
    assert errors == []


def test_play_again_hands_out_the_other_players_links(server, tmp_path):
    """Two people at two browsers: the one who presses "Play again" gets the other's new link to send."""
    created = finish(server, "toyrace", ["human", "human"], {"target": 5}, ["Alice", "Bob"])
    with chromium() as browser:
        page = browser.new_page()
        open_seat_page(page, created)
        assert page.inner_text("#outcome") == expected_headline(created["final"], 0)
        page.click("#play-again")
        page.wait_for_selector("#again-created:not([hidden])")
        links = page.locator("#again-links a.join-link")
        assert links.count() == 1
        link = links.first.get_attribute("href")
        assert link.startswith(f"{server}/t/") and "token=" in link
        new_id = link.split("/t/")[1].split("?")[0]
        new = httpx.get(f"{server}/api/tables/{new_id}").json()
        assert [s["name"] for s in new["seats"]] == ["Alice", "Bob"] and new["options"]["target"] == 5
        page.click("#again-go")
        page.wait_for_selector("#status-line:has-text('You are Alice')")
        # Bob's link opens his seat of the new table in his own browser
        bob = browser.new_context().new_page()
        bob.goto(link)
        bob.wait_for_selector("#status-line:has-text('You are Bob')")
        browser.close()


def test_headlines_and_places_for_ties_and_no_winner(server):
    """The shared wording (tabletown.js), fed with made-up results."""
    from tabletown.web.live import labelled

    # seats as the server sends them: each with its label (the bot's "Greedy bot")
    seats = labelled([{"seat": 0, "kind": "human", "name": "Alice"}, {"seat": 1, "kind": "human", "name": "Bob"},
                      {"seat": 2, "kind": "bot:greedy", "name": None}])  # fmt: skip
    cases = [
        ({"winners": [1], "ranks": [2, 1, 3]}, None, "Bob wins"),
        ({"winners": [1], "ranks": [2, 1, 3]}, 1, "You win!"),
        ({"winners": [2], "ranks": [2, 3, 1]}, 0, "Greedy bot wins"),
        ({"winners": [0, 1], "ranks": [1, 1, 3]}, None, "Alice and Bob share the win"),
        ({"winners": [0, 1], "ranks": [1, 1, 3]}, 1, "You and Alice share the win"),
        ({"winners": [0, 1, 2], "ranks": [1, 1, 1]}, 2, "You, Alice and Bob all share the win"),
        ({"winners": [], "ranks": [2, 2, 2]}, None, "Nobody wins"),
    ]
    with chromium() as browser:
        page = browser.new_page()
        page.goto(f"{server}/")
        page.wait_for_function("() => window.Tabletown !== undefined")
        for result, me, headline in cases:
            got = page.evaluate(
                "([result, me, seats]) => Tabletown.outcome('toyrace', {result, seats}, {seat: me, seats}).headline",
                [result, me, seats],
            )
            assert got == headline, (result, me)
        got = page.evaluate("(ranks) => ranks.map((r, s) => Tabletown.place({ranks}, s))", [1, 2, 2, 4])
        assert got == ["1st", "=2nd", "=2nd", "4th"]
        got = page.evaluate("() => [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(Tabletown.ordinal)")
        assert got == [
            "1st",
            "2nd",
            "3rd",
            "4th",
            "11th",
            "12th",
            "13th",
            "21st",
            "22nd",
            "23rd",
            "101st",
            "111th",
        ]
        browser.close()
