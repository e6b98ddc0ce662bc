"""Fair and private tables in a real browser (Playwright driving Debian's chromium), issue 25.

* Hot-seat that hides: two New Las Vegas seats held by one browser. While the pass screen shows,
  nothing of any seat is in the page (DOM text, the board, the moves, the log, the seat list), the
  seat's WebSocket is closed, and a watcher in the page records any content that appears behind the
  screen; there are no seat-switch buttons; the next seat never sees the previous one's secret
  choice. Screenshots of the pass screen: ``nlv-pass-screen-*.png`` (paths printed).
* Seats: a table made in the lobby with a seat kept for its link and an open seat; a second browser
  takes the open seat from the lobby and plays; the first browser sees the move; the kept seat has
  no "sit" button, and no page or address bar ever holds a seat's token.

Skipped when chromium is missing."""

from __future__ import annotations

import time

import httpx
import pytest
from test_board_newlasvegas import CLICKABLE, next_click
from web_helpers import CHROMIUM, chromium, create_at, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

# Runs in every page before its own scripts: records anything that shows behind the pass screen.
WATCH_PASS_SCREEN = """
window.__leaks = [];
document.addEventListener("DOMContentLoaded", () => {
  const check = () => {
    const pass = document.getElementById("pass-screen");
    if (!pass || pass.hidden) return;
    for (const id of ["board", "legal-moves", "event-log", "seat-list"]) {
      const node = document.getElementById(id);
      if (node && node.childNodes.length) window.__leaks.push(id + ": " + node.textContent.slice(0, 120));
    }
    const status = document.getElementById("status-line");
    if (status && status.textContent.includes("You are")) window.__leaks.push("status: " + status.textContent);
  };
  new MutationObserver(check).observe(document.body, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
});
"""

# What the page holds while the pass screen shows.
PAGE_TEXT = """() => ({
  body: document.body.innerText,
  bodyAll: document.body.textContent,
  board: document.getElementById("board").textContent,
  boardNodes: document.querySelectorAll("#board *").length,
  log: document.getElementById("event-log").textContent,
  moves: document.getElementById("legal-moves").textContent,
  seats: document.getElementById("seat-list").textContent,
  status: document.getElementById("status-line").textContent,
  switchButtons: document.querySelectorAll("#seat-switch, #seat-switch button").length,
  passBackground: getComputedStyle(document.getElementById("pass-screen")).backgroundColor,
  leaks: window.__leaks,
})"""


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "privacy.db") as url:
        yield url


def seat_events(server, table, token=None):
    """{event index: words} of a seat's view (a spectator's without a token)."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return dict(map(tuple, httpx.get(f"{server}/api/tables/{table}", headers=headers).json()["event_text"]))


def private_events(server, table, token):
    """The events a seat's view holds that the spectator's does not (by event index: a public event
    is worded for its reader, "You ..." for a seat): that seat's secrets."""
    public = seat_events(server, table)
    return {i: text for i, text in seat_events(server, table, token).items() if i not in public}


def private_texts(server, table, token):
    return set(private_events(server, table, token).values())


def assert_no_secret_of(page, server, table, secrets: dict, to_token) -> None:
    """After a hand-over: none of the previous seat's secret events is in the page (by index), and
    none of its secret sentences, unless the seat now shown has the same words of its own (people's
    words: "You have secretly finished your round" is every seat's own sentence)."""
    own = seat_events(server, table, to_token)
    shown = set(page.locator("#event-log li").evaluate_all("lis => lis.map(l => l.value)"))
    assert not (set(secrets) - set(own)) & shown, "a secret event of the previous seat is in the log"
    body = page.evaluate(PAGE_TEXT)["bodyAll"].lower()
    for text in set(secrets.values()) - set(own.values()):
        assert text.lower() not in body, text


def assert_nothing_behind(page, sockets, secrets, shot):
    """At the pass screen: the page holds nothing of any seat, and every WebSocket is closed."""
    page.wait_for_selector("#pass-screen:not([hidden])")
    seen = page.evaluate(PAGE_TEXT)
    assert seen["leaks"] == [], seen["leaks"]
    assert seen["board"] == "" and seen["boardNodes"] == 0, seen["board"][:200]
    assert seen["log"] == "" and seen["moves"] == "" and seen["seats"] == "", seen
    assert "You are" not in seen["status"], seen["status"]
    assert seen["switchButtons"] == 0  # seats change only through the pass screen
    assert seen["passBackground"].startswith("rgb("), seen["passBackground"]  # fully opaque
    page_text = (seen["body"] + "\n" + seen["bodyAll"]).lower()
    for word in ("loan", "locked in", "secretly", "your sheet", "your turn"):
        assert word not in page_text, word
    for text in secrets:
        assert text.lower() not in page_text, text
    deadline = time.monotonic() + 3
    while any(not ws.is_closed() for ws in sockets) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert all(ws.is_closed() for ws in sockets), "a seat's WebSocket stayed open behind the pass screen"
    page.screenshot(path=str(shot))
    print(f"pass screen screenshot: {shot}")


def play_a_round(page) -> list[str | None]:
    """The shown seat composes its round by clicking and locks it in; returns the slots it wrote."""
    page.wait_for_selector(".nlv-decision .nlv-card.playable")
    for _ in range(60):
        found = next_click(page, CLICKABLE[1:])  # never the pass screen here: this seat plays
        assert found is not None, "the game ended"
        selector, target = found
        if target is None:
            page.wait_for_timeout(50)
            continue
        if selector.startswith("#nlv-confirm"):
            fresh = page.locator(".nlv-sheet.mine .nlv-slot.fresh")
            slots = [fresh.nth(k).get_attribute("data-slot") for k in range(fresh.count())]
            target.click()
            page.wait_for_selector("#nlv-confirm", state="detached")
            return slots
        target.click()
    raise AssertionError("no round was locked in")


def test_hot_seat_new_las_vegas_hides_everything_at_the_hand_over(server, tmp_path):
    created = post_table(server, {"game": "newlasvegas", "seats": ["human", "human", "bot:greedy"]})
    assert "seed" not in created and created["seed_chosen"] is False
    table, tokens = created["id"], [s["token"] for s in created["seats"][:2]]
    errors: list[str] = []
    sockets: list = []
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(WATCH_PASS_SCREEN)
        first = context.new_page()  # both human links in one browser: seat 0's in another tab
        first.goto(created["seats"][0]["join_url"])
        first.close()
        page = context.new_page()
        watch_errors(page, errors)
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(created["seats"][1]["join_url"])
        assert "token" not in page.url  # the link's token went into the HttpOnly cookie
        html = page.content()
        assert all(token not in html for token in tokens)
        assert page.evaluate("() => document.cookie") == ""  # HttpOnly: the page cannot read it

        # Several seats held: the first player confirms too, before any seat's view is shown.
        page.wait_for_selector("#pass-screen:not([hidden]) #pass-button[data-seat='0']")
        assert_nothing_behind(page, sockets, set(), tmp_path / "nlv-pass-screen-start.png")
        assert page.inner_text("#pass-button") == "I am Player 1, show my seat"
        page.click("#pass-button")
        page.wait_for_selector(".nlv-decision [data-step=loan]")
        assert page.inner_text("#status-line").startswith("You are Player 1")
        fair = page.locator("#fairness")
        assert created["commitment"][:12] in fair.inner_text()
        assert "fixed before the first move" in fair.inner_text()
        assert fair.locator("code.commitment").get_attribute("title") == created["commitment"]
        assert page.locator("#download-record").is_hidden()  # no record while the game runs

        # Seat 0 takes the bank loan (secret, simultaneous): the pass screen comes before seat 1
        # sees anything, and nothing of seat 0's choice is left in the page.
        page.click(".nlv-decision [data-step=loan]")
        page.wait_for_selector("#pass-screen:not([hidden]) #pass-button[data-seat='1']")
        secrets = private_texts(server, table, tokens[0])
        assert any("loan" in text for text in secrets), secrets  # the secret the page must not show
        assert_nothing_behind(page, sockets, secrets, tmp_path / "nlv-pass-screen-loan.png")

        page.click("#pass-button")
        page.wait_for_selector(".nlv-decision [data-step=noloan]")  # seat 1 still chooses
        assert page.inner_text("#status-line").startswith("You are Player 2")
        seen = page.evaluate(PAGE_TEXT)
        assert seen["leaks"] == []
        assert_no_secret_of(page, server, table, private_events(server, table, tokens[0]), tokens[1])
        assert "takes the bank loan" not in seen["bodyAll"] and "take the bank loan" not in seen["bodyAll"]
        page.screenshot(path=str(tmp_path / "nlv-seat1-after-hand-over.png"))
        page.click(".nlv-decision [data-step=noloan]")

        # The rounds (everyone at once): the seat shown composes its round and locks it in; when the
        # other held seat still chooses, the pass screen comes before it sees anything, and it never
        # sees the locked-in round. (A seat whose next round is already open plays on.)
        hand_overs = 0
        for _ in range(12):
            shown = int(page.get_attribute("#status-line", "data-seat"))
            fresh_slots = play_a_round(page)
            page.wait_for_selector(
                "#pass-screen:not([hidden]), .nlv-decision .nlv-card.playable, .nlv-final", timeout=20_000
            )
            if page.locator("#pass-screen:not([hidden])").count() == 0:
                continue  # the same seat's next round
            to = int(page.get_attribute("#pass-button", "data-seat"))
            assert to != shown
            hidden = private_events(server, table, tokens[shown])
            secrets = set(hidden.values())
            shot = tmp_path / f"nlv-pass-screen-round-{hand_overs + 1}.png"
            assert_nothing_behind(page, sockets, secrets, shot)
            page.click("#pass-button")
            page.wait_for_selector(f"#status-line[data-seat='{to}']:has-text('You are')")
            page.wait_for_selector(".nlv-decision .nlv-card.playable")  # it still chooses its round
            seen = page.evaluate(PAGE_TEXT)
            assert seen["leaks"] == []
            assert "locked in" not in seen["bodyAll"]
            assert_no_secret_of(page, server, table, hidden, tokens[to])
            page.click(f".nlv-player[data-seat='{shown}']")  # the other seat's sheet, as this one sees it
            page.wait_for_selector(".nlv-sheet.other")
            for slot in fresh_slots:
                assert page.locator(f".nlv-sheet.other .nlv-slot.opened[data-slot='{slot}']").count() == 0
            assert page.locator(".nlv-sheet.other .nlv-slot.fresh").count() == 0
            page.click(".nlv-sheet.other .nlv-back")
            page.wait_for_selector(".nlv-sheet.mine")
            hand_overs += 1
            if hand_overs == 3:
                break
        assert hand_overs == 3
        browser.close()
    assert errors == []


def test_lobby_open_seat_taken_by_a_second_browser(server, tmp_path):
    # a table whose seats are kept for their links: listed, but nobody may sit there
    kept = create_at(server, "toyrace", ["human", "human"], redeem=False)
    errors: list[str] = []
    with chromium() as browser:
        a_context = browser.new_context(viewport={"width": 1280, "height": 900})
        a = a_context.new_page()
        watch_errors(a, errors)
        a.goto(server + "/")
        a.fill("#player-name", "Ada")
        a.select_option("#game-select", "toyrace")
        a.select_option("#players-select", "2")
        seat_options = a.locator('select[data-seat="1"] option').all_inner_texts()
        assert "Human (by link)" in seat_options and "Open seat (anyone may sit)" in seat_options
        assert "Seed (practice: everyone will see it was chosen)" in a.text_content("#create-form")
        a.select_option('select[data-seat="0"]', "human")
        a.select_option('select[data-seat="1"]', "open")
        a.click("#create-button")
        a.wait_for_url("**/t/*")
        table = a.url.rstrip("/").split("/")[-1].split("?")[0]
        assert "token" not in a.url
        a.wait_for_selector("#status-line[data-seat='0']:has-text('You are')")
        a.wait_for_selector("#legal-moves button[data-move='b']")
        assert "open seat" in a.inner_text("#seat-list")
        assert "fixed before the first move" in a.inner_text("#fairness")

        b_context = browser.new_context(viewport={"width": 1280, "height": 900})
        b = b_context.new_page()
        watch_errors(b, errors)
        b.goto(server + "/")
        b.fill("#player-name", "Bea")
        row = b.locator(f"#list-open li[data-table='{table}']")
        row.locator("button.sit[data-seat='1']").wait_for()
        assert row.locator("button").count() == 1  # seat 0 is kept for its link
        assert "[object" not in row.inner_text()  # the sit buttons render as buttons
        kept_row = b.locator(f"li[data-table='{kept['id']}']")
        kept_row.wait_for()
        assert kept_row.locator("button").count() == 0
        b.screenshot(path=str(tmp_path / "lobby-open-seat.png"), full_page=True)
        print(f"lobby screenshot: {tmp_path / 'lobby-open-seat.png'}")
        row.locator("button.sit[data-seat='1']").click()
        b.wait_for_url(f"**/t/{table}")
        assert "token" not in b.url
        assert all(s["token"] not in b.content() for s in kept["seats"])
        b.wait_for_selector("#status-line:has-text('You are Bea')")

        # A moves (banks), then B plays its move: A's page shows it.
        a.click("#legal-moves button[data-move='b']")
        b.wait_for_selector("#legal-moves button[data-move='b']")
        log_before = a.locator("#event-log li").count()
        b.click("#legal-moves button[data-move='b']")
        a.wait_for_function(
            "n => document.querySelectorAll('#event-log li').length > n", arg=log_before, timeout=10_000
        )
        assert "bank: seat=1" in a.inner_text("#event-log")  # B's move, on A's page
        a.wait_for_selector("#seat-list:has-text('Bea')")
        # the seat is taken: no longer offered in anyone's lobby
        assert httpx.post(f"{server}/api/tables/{table}/sit", json={"seat": 1}).status_code == 409
        a.screenshot(path=str(tmp_path / "table-open-seat-a.png"), full_page=True)
        b.screenshot(path=str(tmp_path / "table-open-seat-b.png"), full_page=True)
        print(f"table screenshots: {tmp_path / 'table-open-seat-a.png'} {tmp_path / 'table-open-seat-b.png'}")

        # the replay of the running game: seed and salt still secret; A may view it as its own seat
        # (named by number: the token stays in the cookie), not as B's
        a.goto(f"{server}/t/{table}/replay")
        a.locator("#fairness-check.note").wait_for()
        assert "not over" in a.inner_text("#fairness-check")
        assert a.locator("text=Download record").count() == 0
        assert a.locator("#view-seat option").all_inner_texts() == ["Spectator", "Seat 1"]
        a.select_option("#view-seat", "0")
        a.wait_for_selector("#status-line:has-text('After move')")
        assert a.inner_text("#replay-error") == ""
        assert "hand" in a.inner_text("#board")
        browser.close()
    assert errors == []


def finished_bot_table(server, **extra):
    """A toy game between two bots, played to its end by the server."""
    created = post_table(server, {"game": "toyrace", "seats": ["bot:greedy", "bot:random"], **extra})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        record = httpx.get(f"{server}/api/tables/{created['id']}/record")
        if record.json().get("complete"):
            return created, record.text
        time.sleep(0.1)
    raise AssertionError("the bots did not finish")


def test_replay_page_checks_the_seed_against_the_commitment(server, tmp_path):
    """A finished table's replay page and an uploaded record: seed and salt hash (SHA-256, in the
    browser) to the commitment published before the first move; a tampered record gets a loud
    warning; a chosen seed (even 2**63-1, past what a JS number holds) is checked exactly and
    called a practice table. The pure-JS SHA-256 (for plain-http servers) agrees with hashlib."""
    import hashlib
    import json

    secret, secret_text = finished_bot_table(server)
    chosen, chosen_text = finished_bot_table(server, seed=2**63 - 1)
    assert '"seed":9223372036854775807' in chosen_text.replace(" ", "")
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        watch_errors(page, errors)

        page.goto(f"{server}/t/{secret['id']}/replay")
        check = page.locator("#fairness-check.ok")
        check.wait_for()
        assert "Fair: the seed matches the commitment published before the first move" in check.inner_text()
        assert secret["commitment"] in check.text_content()
        assert "seed chosen by creator" not in check.inner_text()
        page.screenshot(path=str(tmp_path / "replay-fair.png"), full_page=True)
        print(f"replay screenshot: {tmp_path / 'replay-fair.png'}")

        page.goto(f"{server}/t/{chosen['id']}/replay")
        page.locator("#fairness-check.ok").wait_for()
        assert "seed chosen by creator" in page.inner_text("#fairness-check")
        assert "tabletown-seed:9223372036854775807:" in page.text_content("#fairness-check")

        # the table page of a finished game: the record may be downloaded now
        page.goto(f"{server}/t/{secret['id']}")
        page.wait_for_selector("#status-line:has-text('Game over')")
        assert page.locator("#download-record").is_visible()

        # uploads: the true record, then one whose salt was changed
        upload = tmp_path / "record.json"
        tampered = tmp_path / "tampered.json"
        upload.write_text(chosen_text)
        data = json.loads(secret_text)
        data["salt"] = "0" * len(data["salt"])
        tampered.write_text(json.dumps(data))
        page.goto(f"{server}/replay")
        page.set_input_files("#record-file", str(upload))
        # a file can agree with itself (audit 34): an upload is not called fair, its commitment is
        # shown to be compared with the one the table showed
        agrees = page.locator("#fairness-check.note")
        agrees.wait_for()
        assert "match the commitment written in this file" in agrees.inner_text()
        assert chosen["commitment"] in agrees.text_content() and "Fair:" not in agrees.inner_text()
        page.wait_for_selector("#move-list li")
        assert "[object" not in page.inner_text("#board")
        page.set_input_files("#record-file", str(tampered))
        bad = page.locator("#fairness-check.bad")
        bad.wait_for()
        assert "do NOT match" in bad.inner_text()
        page.screenshot(path=str(tmp_path / "replay-tampered.png"), full_page=True)
        print(f"tampered upload screenshot: {tmp_path / 'replay-tampered.png'}")

        texts = ["", "abc", "a" * 55, "b" * 56, "c" * 64, "d" * 119, "tabletown-seed:1:é✓😀"]
        got = page.evaluate("texts => texts.map((t) => Tabletown.sha256Sync(t))", texts)
        assert got == [hashlib.sha256(t.encode()).hexdigest() for t in texts]
        browser.close()
    assert errors == []
