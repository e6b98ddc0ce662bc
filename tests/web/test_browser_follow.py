"""Issue 27, turns you can follow: another seat's turn is shown on the board as it happens, at the
table's pace (Slow / Normal / Fast / Instant, remembered per table in this browser), with a Skip; the
test reads the BOARD (never the log): the dice rolled, +N / −N at the seats a payment touches, the card
built or the tile laid highlighted, and each seat's last turn in words (also in an aria-live list)
until your own next move. Your own moves are never delayed; reduced motion keeps the highlights and the
words without any animation. Machi Koro, Lords of Vegas and Multicity against bots, in real Chromium."""

from __future__ import annotations

import time

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # a loaded machine may start the server slower than start_server waits
    with served(tmp_path_factory.mktemp("follow") / "follow.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def new_table(server: str, game: str, seats: list[str], **extra) -> dict:
    names = ["Alice" if s == "human" else None for s in seats]
    created = httpx.post(f"{server}/api/tables", json={"game": game, "seats": seats, "names": names, **extra})
    assert created.status_code == 201, created.text
    return created.json()


def open_seat(context, server: str, created: dict, pace: str | None):
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/t/" + created["seats"][0]["join_url"].split("/t/", 1)[1])
    page.wait_for_selector("#status-line[data-seat='0']:has-text('You are Alice')")
    if pace:
        page.select_option("#follow-pace", pace)
    return page, errors


def board_state(page) -> dict:
    """What the board shows now (the board only: never the log)."""
    return page.evaluate(
        """() => {
          const q = (s) => [...document.querySelectorAll(s)];
          const dice = document.querySelector('#board .mk-dice.tt-rolled');
          return {
            dice: dice ? dice.dataset.dice : null,
            deltas: q('#board .mk-city .tt-delta').map((d) => [Number(d.closest('.mk-city').dataset.seat), Number(d.dataset.amount)]),
            just: q('#board .mk-city .mk-card.tt-just').map((c) => [Number(c.closest('.mk-city').dataset.seat), c.dataset.card]),
            acting: q('#board .mk-city.tt-acting').map((c) => Number(c.dataset.seat)),
            last: Object.fromEntries(q('#board .tt-last-turn').map((p) => [p.dataset.seat, p.textContent])),
            skip: !document.getElementById('follow-skip').hidden,
            waiting: !!document.querySelector('#legal-moves .follow-wait'),
            moves: q('#legal-moves button.move:not([disabled])').map((b) => b.dataset.move),
          };
        }"""
    )


def events_of(server: str, table: str) -> list[dict]:
    return httpx.get(f"{server}/api/tables/{table}?since=0").json()["events"]


def mk_my_turn(page, timeout: float = 20_000) -> None:
    page.wait_for_selector(
        "#board .mk-actions button[data-move='roll'], #board .mk-actions button[data-move='roll2'], #status-line:has-text('Game over')",
        timeout=timeout,
    )


def test_machi_koro_a_bots_turn_on_the_board(server, browser, tmp_path):
    created = new_table(server, "machikoro", ["human", "bot:greedy"], seed=11)
    table = created["id"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, errors = open_seat(context, server, created, "normal")
    assert page.evaluate(f"() => localStorage.getItem('tt_pace:{table}')") == "normal"
    seen = {"dice": set(), "deltas": set(), "just": set(), "last": None, "acting": False, "waiting": False}
    shot = False
    for _turn in range(12):
        mk_my_turn(page)
        if "Game over" in page.inner_text("#status-line"):
            break
        # your own move is never delayed: the roll is on the board at once
        before = time.monotonic()
        page.click("#board .mk-actions button[data-move^='roll']")
        page.wait_for_selector(
            "#legal-moves button.move[data-move='pass'], #board .mk-actions button[data-move='pass']"
        )
        assert time.monotonic() - before < 5
        mine = board_state(page)
        assert mine["dice"] and not mine["skip"]
        # the bot's last turn stays in words until this move of yours: now it is gone
        assert "1" not in mine["last"]
        page.click("#legal-moves button.move[data-move='pass']")
        # the bot's turn, one step at a time: read the board as it goes
        end = time.monotonic() + 20
        while time.monotonic() < end:
            state = board_state(page)
            if state["acting"] == [1]:
                seen["acting"] = True
                seen["waiting"] |= state["waiting"] and state["skip"]
                if state["dice"]:
                    seen["dice"].add(state["dice"])
                seen["deltas"] |= {tuple(d) for d in state["deltas"]}
                seen["just"] |= {tuple(j) for j in state["just"]}
                if state["dice"] and state["skip"] and not shot:
                    page.screenshot(path=str(tmp_path / "mk-follow.png"))
                    shot = True
            if "1" in state["last"]:
                seen["last"] = state["last"]["1"]
            if state["moves"] or page.locator("#board .mk-actions button[data-move^='roll']").count():
                break
            page.wait_for_timeout(60)
        if (
            seen["dice"]
            and seen["just"]
            and any(a for s, a in seen["deltas"] if s in (0, 1))
            and seen["last"]
        ):
            break
    assert seen["acting"], "the bot's turn was never shown as a step of its own"
    assert seen["waiting"], "your moves did not wait while the bot's turn was shown"
    # every dice face shown was a real roll of the bot (the events hold them)
    rolls = {
        ",".join(map(str, e["dice"]))
        for e in events_of(server, table)
        if e["kind"] == "roll" and e["seat"] == 1
    }
    assert seen["dice"] and seen["dice"] <= rolls
    builds = {("1", e["card"]) for e in events_of(server, table) if e["kind"] == "build" and e["seat"] == 1}
    assert seen["just"] and {(str(s), c) for s, c in seen["just"]} <= builds
    assert any(a < 0 for s, a in seen["deltas"] if s == 1), seen["deltas"]  # the bot paid for its building
    assert seen["last"] and seen["last"].startswith("Last turn: Rolled")
    # the live region says the same in words
    assert page.locator("#last-turns").get_attribute("aria-live") == "polite"
    assert not errors, errors
    context.close()


def test_machi_koro_skip_and_the_pace_remembered(server, browser):
    created = new_table(server, "machikoro", ["human", "bot:greedy", "bot:random"], seed=5)
    table = created["id"]
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page, errors = open_seat(context, server, created, "slow")
    mk_my_turn(page)
    page.click("#board .mk-actions button[data-move^='roll']")
    page.click("#legal-moves button.move[data-move='pass']")
    # two bots at the slow pace: a few steps of 2.6 s each; Skip shows everything at once
    page.wait_for_selector("#follow-skip:not([hidden])", timeout=10_000)
    assert page.locator("#legal-moves .follow-wait").count() == 1
    assert page.locator("#board .mk-actions button[data-move^='roll']").count() == 0
    page.wait_for_timeout(300)
    page.click("#follow-skip")
    start = time.monotonic()
    mk_my_turn(page, timeout=5_000)
    assert time.monotonic() - start < 3
    assert page.locator("#follow-skip").is_hidden()
    # each bot's last turn in words, on the board and in the live list
    page.wait_for_selector("#board .mk-city[data-seat='1'] .tt-last-turn")
    page.wait_for_selector("#board .mk-city[data-seat='2'] .tt-last-turn")
    assert page.locator("#last-turns li").count() == 2
    # the pace is remembered for this table
    page.reload()
    page.wait_for_selector("#status-line[data-seat='0']:has-text('You are Alice')")
    assert page.locator("#follow-pace").input_value() == "slow"
    assert page.evaluate(f"() => localStorage.getItem('tt_pace:{table}')") == "slow"
    # ... and the last turns are still told after a reload (until your next move)
    page.wait_for_selector("#board .mk-city[data-seat='1'] .tt-last-turn")
    assert not errors, errors
    context.close()


def test_machi_koro_reduced_motion_keeps_the_highlights(server, browser):
    created = new_table(server, "machikoro", ["human", "bot:greedy"], seed=3)
    context = browser.new_context(viewport={"width": 1000, "height": 900}, reduced_motion="reduce")
    page, errors = open_seat(context, server, created, "slow")
    mk_my_turn(page)
    page.click("#board .mk-actions button[data-move^='roll']")
    page.click("#legal-moves button.move[data-move='pass']")
    # the bot's roll on the board (its first step), drawn without motion
    page.wait_for_selector("#board .mk-city[data-seat='1'].tt-acting", timeout=10_000)
    page.wait_for_selector("#board .mk-dice.tt-rolled", timeout=10_000)
    dice = page.evaluate(
        """() => [...document.querySelectorAll('#board .mk-dice.tt-rolled, #board .mk-dice.tt-rolled *')]
             .map((n) => getComputedStyle(n).animationName)"""
    )
    assert set(dice) == {"none"}, dice  # the dice are shown, without their tumble
    # a payment chip or the card it builds, in one of its steps (a roll alone marks nothing else)
    page.wait_for_selector("#board .tt-fresh, #board .tt-delta, #board .tt-just", timeout=20_000)
    motion = page.evaluate(
        """() => [...document.querySelectorAll('#board .tt-fresh, #board .tt-delta, #board .tt-just')]
             .map((n) => getComputedStyle(n).animationName)"""
    )
    assert motion and set(motion) == {"none"}, motion
    if page.locator("#follow-skip").is_visible():  # (the turn may have been shown to its end already)
        page.click("#follow-skip")
    page.wait_for_selector("#board .mk-city[data-seat='1'] .tt-last-turn")
    assert not errors, errors
    context.close()


def my_moves(page, timeout: float = 30_000) -> list[str]:
    """The legal moves of the seat (every move button, folded groups too), once the others' steps shown.
    Buttons are disabled from the click on a move until the position after it arrives: those are not
    moves any more (choosing one would be refused as stale)."""
    page.wait_for_function(
        """() => document.querySelectorAll('#legal-moves button.move:not([disabled])').length > 0
               || document.getElementById('status-line').textContent.includes('Game over')""",
        timeout=timeout,
    )
    return page.evaluate(
        "() => [...document.querySelectorAll('#legal-moves button.move:not([disabled])')].map((b) => b.dataset.move)"
    )


def act(page, move: str) -> None:
    page.evaluate("(m) => window.TabletownTable.act(m)", move)


def follow_other_turn(page, read, until, seconds: float = 25) -> list[dict]:
    """Read the board every 60 ms while another seat's turn is shown, until `until(seen)` or your turn."""
    seen: list[dict] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        # one look at the page: the board's parts and whose step it shows, at the same moment
        state = page.evaluate(read.replace("return {", "return {" + AT_ONCE, 1))
        seen.append(state)
        if until(seen):
            break
        if not state["skip"] and state["mine"]:
            break
        page.wait_for_timeout(60)
    return seen


# whose step the board shows, whether steps wait (Skip), whether your moves are offered
AT_ONCE = (
    " step: document.getElementById('board').dataset.followSeat,"
    " skip: !document.getElementById('follow-skip').hidden,"
    " mine: document.querySelectorAll('#legal-moves button.move:not([disabled])').length,"
)

LV_READ = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const dice = document.querySelector('#board .lv-follow-dice');
  return {
    dice: dice ? dice.dataset.dice : null,
    money: q('#board .lv-player .tt-delta[data-amount]').map((d) => [Number(d.closest('.lv-player').dataset.seat), Number(d.dataset.amount)]),
    lots: q('#board .lv-lot.tt-touched').map((g) => g.dataset.lot),
    last: Object.fromEntries(q('#board .lv-player .tt-last-turn').map((p) => [p.dataset.seat, p.textContent])),
  };
}"""


# Alike to test_multicity_a_bots_tile_on_the_board (below): the same steps on purpose, each test checks its own game's board.
def test_lords_of_vegas_a_bots_turn_on_the_board(server, browser):
    created = new_table(server, "lordsofvegas", ["human", "bot:greedy"], seed=8)
    table = created["id"]
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page, errors = open_seat(context, server, created, "fast")
    money, lots, last = set(), set(), None
    for _ in range(10):
        moves = my_moves(page)
        if "Game over" in page.inner_text("#status-line"):
            break
        move = next((m for m in ("end", "refuse", "pass", "nolayoff") if m in moves), moves[0])
        act(page, move)
        seen = follow_other_turn(page, LV_READ, lambda s: False)
        for state in seen:
            if state["step"] == "1":
                money |= {tuple(m) for m in state["money"]}
                lots |= set(state["lots"])
            if "1" in state["last"]:
                last = state["last"]["1"]
        if money and lots and last:
            break
    bot_lots = {
        e.get("lot") or e.get("casino")
        for e in events_of(server, table)
        if e.get("seat") == 1
        and e["kind"] in ("draw", "marker", "build", "sprawl", "remodel", "reorg", "take_over")
    }
    assert lots and lots <= bot_lots | {None}, (lots, bot_lots)
    assert money, "no +$ / −$ was shown at a player during the bot's turn"
    assert last and last.startswith("Last turn: Drew"), last
    assert page.locator("#last-turns li[data-seat='1']").count() == 1
    assert not errors, errors
    context.close()


MC_READ = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  return {
    tiles: q('#board .mc-tile.tt-just').map((g) => g.dataset.at),
    objects: q('#board .mc-obj.tt-just').map((g) => g.dataset.seat + ':' + g.dataset.length),
    last: Object.fromEntries(q('#board .mc-player .tt-last-turn').map((p) => [p.dataset.seat, p.textContent])),
  };
}"""


# Alike to test_lords_of_vegas_a_bots_turn_on_the_board (above): the same steps on purpose, each test checks its own game's board.
def test_multicity_a_bots_tile_on_the_board(server, browser):
    created = new_table(server, "multicity", ["human", "bot:greedy"], seed=5, options={"deck": 12})
    table = created["id"]
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page, errors = open_seat(context, server, created, "normal")
    tiles, objects, last = set(), set(), None
    for _ in range(12):
        moves = my_moves(page)
        if "Game over" in page.inner_text("#status-line"):
            break
        if "draw" in moves:
            act(page, "draw")
            # the drawn tile's lays, once the page has the answer (acting on the old moves would send
            # a stale seq, which the server refuses with 409 and the browser logs as an error)
            page.wait_for_function(
                "() => [...document.querySelectorAll('#legal-moves button.move:not([disabled])')].some((b) => b.dataset.move.startsWith('t '))",
                timeout=30_000,
            )
            moves = my_moves(page)
        act(page, next((m for m in moves if m.startswith("t ")), moves[0]))
        seen = follow_other_turn(page, MC_READ, lambda s: False)
        for state in seen:
            if state["step"] == "1":
                tiles |= set(state["tiles"])
                objects |= set(state["objects"])
            if "1" in state["last"]:
                last = state["last"]["1"]
        if tiles and last:
            break
    laid = {f"{e['x']},{e['y']}" for e in events_of(server, table) if e["kind"] == "lay" and e["seat"] == 1}
    assert tiles and tiles <= laid, (tiles, laid)
    assert last and "Drew a tile, laid it" in last and "from the start tile" in last, last
    assert not errors, errors
    context.close()


def lv_positions(seed: int = 8, moves: int = 160) -> list[tuple[dict, list[dict]]]:
    """A Lords of Vegas game of the greedy bots: (the spectator's state, the events of the move that led
    there) after each move."""
    from tabletown.games.lordsofvegas import GAME
    from tabletown.games.lordsofvegas.bots import GreedyBot

    state = GAME.new_game(3, {}, seed)
    bots = [GreedyBot(s) for s in range(3)]
    out = []
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act[0]
        before = len(state.events(None))
        state.apply(seat, bots[seat].choose(state, seat))
        out.append((state.view(None)["state"], state.events(None)[before:]))
    return out


def test_lords_of_vegas_rewinds_moves_pushed_at_once(server, browser):
    """Several moves in one push: the board shows each step's own position. The board's rewind of the
    position after several moves is compared with the engine's own position after each move."""
    created = new_table(server, "lordsofvegas", ["human", "bot:greedy", "bot:greedy"], seed=8)
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page, errors = open_seat(context, server, created, "fast")
    page.wait_for_selector("#board .lv-map")
    positions = lv_positions()
    keys = (
        "board",
        "players",
        "casinos",
        "tiles_left",
        "deck_size",
        "cards_left",
        "cards_before_game_end",
        "turn",
    )
    checked = refused = 0
    for m in range(1, len(positions) - 1):
        for k in (1, 3, 6):
            n = min(m + k, len(positions) - 1)
            later = [e for _, events in positions[m + 1 : n + 1] for e in events]
            step = {"seat": positions[m][1][-1].get("seat"), "events": positions[m][1]}
            got = page.evaluate(
                """([state, later, step]) => {
                  try { return Tabletown.board('lordsofvegas').follow.rewind(state, later, step); }
                  catch (err) { return null; }
                }""",
                [positions[n][0], later, step],
            )
            if got is None:  # a die re-rolled later: its value before is not in the events
                refused += 1
                continue
            want = positions[m][0]
            for key in keys:
                a, b = got[key], want[key]
                if key == "board":
                    a, b = sorted(a, key=lambda x: x["lot"]), sorted(b, key=lambda x: x["lot"])
                    # a casino reorganized later keeps its new dice (the old faces are not in the events)
                    rerolled = {
                        lot
                        for e in later
                        if e["kind"] == "reorg"
                        for c in want["casinos"] + positions[n][0]["casinos"]
                        if e["casino"] in c["lots"]
                        for lot in c["lots"]
                    }
                    a = [{**x, "die": None} if x["lot"] in rerolled else x for x in a]
                    b = [{**x, "die": None} if x["lot"] in rerolled else x for x in b]
                if key == "casinos" and rerolled:
                    a = b = None  # (its boss may be the one after the re-roll)
                if key == "casinos" and a is not None:
                    a = sorted((c["lots"], c["color"], c["boss"], c["size"], c["strip"]) for c in a)
                    b = sorted((c["lots"], c["color"], c["boss"], c["size"], c["strip"]) for c in b)
                assert a == b, (m, n, key, later)
            assert sorted(got["undrawn_lots"]) == sorted(want["undrawn_lots"])
            checked += 1
    assert checked > 100 and checked > refused, (checked, refused)
    assert not errors, errors
    context.close()
