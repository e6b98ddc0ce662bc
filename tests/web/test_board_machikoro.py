"""Issue 27, the Machi Koro board at a glance, in real Chromium: every card's tooltip (name, colour,
numbers, cost and effect in the server's words) on hover and on keyboard focus, and as the card's
description for screen readers; a Tuna Boat roll's two dice drawn on the board; a Business Center swap
chosen by clicks. Positions are reached by playing moves through the API on tables of human seats
(the moves found by playing the game's own bots in this process, from the same seed)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, create_at, served, watch_errors

from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.bots import bot_factories
from tabletown.games.machikoro.render import EFFECTS
from tabletown.web.boards.machikoro import COLORS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

SHOTS = Path("/tmp/helper_mk")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("mk") / "mk.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def new_table(server: str, seed: int, options: dict | None = None) -> dict:
    extra = {"options": options} if options else {}
    return create_at(server, "machikoro", ["human", "human"], names=["Alice", "Bob"], seed=seed, **extra)


def play(server: str, created: dict, moves: list[tuple[int, str]]) -> None:
    """The moves, each by its seat's token, through the API."""
    table = created["id"]
    for seat, move in moves:
        token = created["seats"][seat]["token"]
        seq = httpx.get(f"{server}/api/tables/{table}", params={"token": token}).json()["seq"]
        answer = httpx.post(
            f"{server}/api/tables/{table}/actions", json={"token": token, "seq": seq, "action": move}
        )
        assert answer.status_code == 200, (move, answer.text)


def open_seat(browser, server: str, created: dict, seat: int = 0, pace: str | None = None, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/t/" + created["seats"][seat]["join_url"].split("/t/", 1)[1])
    page.wait_for_selector(f"#status-line[data-seat='{seat}']")
    page.wait_for_selector("#board .mk-city")
    if pace:
        page.select_option("#follow-pace", pace)
    return context, page, errors


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def tip_of(page, selector: str) -> dict:
    """The tooltip of a card: visible or not, its lines, and the card's aria-describedby target."""
    return page.eval_on_selector(
        selector,
        """(button) => {
          const tip = document.getElementById(button.getAttribute('aria-describedby'));
          return { visible: !!tip && getComputedStyle(tip).display !== 'none', role: tip && tip.getAttribute('role'),
                   lines: tip ? [...tip.children].map((c) => c.textContent) : [],
                   disabled: button.disabled, tabIndex: button.tabIndex };
        }""",
    )


def test_card_tooltips_on_hover_and_keyboard_focus(server, browser):
    created = new_table(server, seed=4, options={"harbor": True})
    context, page, errors = open_seat(browser, server, created)
    # the market's Ranch (or the first card there): name, colour rule, numbers, cost and effect
    market = page.locator("#board .mk-market .mk-card")
    assert market.count() > 3
    card_id = market.first.get_attribute("data-card")
    selector = f"#board .mk-market .mk-card[data-card='{card_id}']"
    info = next(
        c
        for c in httpx.get(f"{server}/api/tables/{created['id']}").json()["state"]["cards"]
        if c["id"] == card_id
    )
    hidden = tip_of(page, selector)
    assert not hidden["visible"] and hidden["role"] == "tooltip"
    page.hover(selector)
    shown = tip_of(page, selector)
    assert shown["visible"], shown
    name = page.inner_text(f"{selector} .mk-name")
    lines = shown["lines"]
    assert lines[0] == name
    assert COLORS[info["color"]] in lines
    assert f"Costs {info['cost']} coin{'s' if info['cost'] != 1 else ''}." in lines
    assert any(
        line.startswith("Activates on a roll of ") and str(min(info["rolls"])) in line for line in lines
    )
    assert f"Effect: {EFFECTS[card_id]}." in lines
    assert any(line.endswith("left in the market.") for line in lines)
    # the same words are the card's accessible description (screen readers)
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_have_accessible_description(" ".join(lines))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "mk-tooltip-hover.png"), full_page=True)
    # Escape closes it while the pointer stays
    page.keyboard.press("Escape")
    assert not tip_of(page, selector)["visible"]
    page.mouse.move(0, 0)

    # by keyboard: a landmark nobody can build now is still a tab stop, and Tab shows its tooltip
    landmark = "#board .mk-city[data-seat='0'] .mk-card.mk-landmark"
    first, second = page.locator(landmark).nth(0), page.locator(landmark).nth(1)
    assert first.get_attribute("aria-disabled") == "true"
    first.focus()
    page.keyboard.press("Tab")
    second_id = second.get_attribute("data-card")
    assert page.evaluate("() => document.activeElement.dataset.card") == second_id
    focused = tip_of(page, f"{landmark}[data-card='{second_id}']")
    assert focused["visible"] and not focused["disabled"] and focused["tabIndex"] == 0
    assert focused["lines"][0] == page.inner_text(f"{landmark}[data-card='{second_id}'] .mk-name")
    assert COLORS["landmark"] in focused["lines"] and "Not built yet." in focused["lines"]
    assert f"Effect: {EFFECTS[second_id]}." in focused["lines"]
    page.screenshot(path=str(SHOTS / "mk-tooltip-focus.png"))
    # a card you own tells how many you have
    wheat = tip_of(page, "#board .mk-city[data-seat='0'] .mk-card[data-card='wheat']")
    assert "1 in this town." in wheat["lines"]
    assert not errors, errors
    context.close()


def bot_moves_until(seed: int, options: dict, bots: list, stop, policy=None, limit: int = 700):
    """Play the game's bots from `seed` until `stop(state, moves_so_far_events)`; the moves made."""
    state = GAME.new_game(2, options, seed)
    moves: list[tuple[int, str]] = []
    for _ in range(limit):
        if state.is_over:
            return None
        seat = state.to_act[0]
        legal = [state.format_action(a) for a in state.legal_actions(seat)]
        if stop(state, seat, legal, None):
            return state, moves
        text = (policy and policy(seat, legal)) or state.format_action(bots[seat].choose(state, seat))
        before = len(state.log)
        state.apply_text(seat, text)
        moves.append((seat, text))
        if stop(state, seat, legal, state.log[before:]):
            return state, moves
    return None


def test_a_tuna_boat_roll_shows_its_two_dice(server, browser):
    factory = bot_factories()["strategy:legacy-mine-and-blue"]  # the only plan with Tuna Boats
    options = {"harbor": True}
    found = None
    for seed in range(12):
        found = bot_moves_until(
            seed,
            options,
            [factory(seed), factory(seed + 1)],
            lambda state, seat, legal, new: bool(new) and any(e.kind == "tuna_roll" for e in new),
        )
        if found:
            break
    assert found, "no Tuna Boat roll in these games"
    _state, moves = found
    created = new_table(server, seed, options)
    play(server, created, moves[:-1])
    # the seat that does NOT make the last move watches it, at the slow pace
    watcher = 1 - moves[-1][0]
    context, page, errors = open_seat(browser, server, created, seat=watcher, pace="slow")
    play(server, created, moves[-1:])
    tuna = next(
        e
        for e in reversed(httpx.get(f"{server}/api/tables/{created['id']}?since=0").json()["events"])
        if e["kind"] == "tuna_roll"
    )
    page.wait_for_selector("#board .mk-turn .mk-tuna", timeout=10_000)
    dice = page.locator("#board .mk-tuna")
    assert dice.get_attribute("data-dice") == ",".join(map(str, tuna["dice"]))
    assert (
        dice.get_attribute("aria-label")
        == f"Tuna Boat dice: {tuna['dice'][0]} and {tuna['dice'][1]}, total {tuna['total']}"
    )
    faces = "⚀⚁⚂⚃⚄⚅"
    assert [faces[d - 1] for d in tuna["dice"]] == [c for c in dice.inner_text() if c in faces]
    # the Tuna Boats' income is on the board as the step's +N, and the last turn tells the roll
    page.wait_for_timeout(700)  # (the dice's tumble over)
    shot(page, "mk-tuna-dice.png")
    page.wait_for_selector(
        f"#board .mk-city[data-seat='{moves[-1][0]}'] .tt-last-turn:has-text('for the Tuna Boats')",
        timeout=15_000,
    )
    assert not errors, errors
    context.close()


def test_business_center_swap_by_clicking(server, browser):
    greedy = bot_factories()["greedy"]
    found = None
    for seed in range(20):
        found = bot_moves_until(
            seed,
            {},
            [greedy(seed), greedy(seed + 1)],
            lambda state, seat, legal, new: (
                new is None and seat == 0 and any(m.startswith("swap ") for m in legal)
            ),
            policy=lambda seat, legal: "build office" if seat == 0 and "build office" in legal else None,
        )
        if found:
            break
    assert found, "no Business Center decision in these games"
    state, moves = found
    created = new_table(server, seed)
    play(server, created, moves)
    context, page, errors = open_seat(browser, server, created, seat=0)
    page.wait_for_selector("#board .mk-swap-hint")

    def counts(seat: int) -> dict[str, int]:
        return page.eval_on_selector_all(
            f"#board .mk-city[data-seat='{seat}'] .mk-card:not(.mk-landmark)",
            "(cards) => Object.fromEntries(cards.map((c) => [c.dataset.card, Number(c.querySelector('.mk-count').textContent.slice(1))]))",
        )

    mine_before, theirs_before = counts(0), counts(1)
    legal = [m for m in (state.format_action(a) for a in state.legal_actions(0)) if m.startswith("swap ")]
    give, _, take = legal[0].split()[1:]
    # before choosing theirs, none of mine can be pressed; the office (purple) never
    assert page.locator("#board .mk-city.mine .mk-card.playable").count() == 0
    assert page.locator("#board .mk-city[data-seat='1'] .mk-card.mk-purple.playable").count() == 0
    page.click(f"#board .mk-city[data-seat='1'] .mk-card.playable[data-card='{take}']")
    chosen = page.locator(f"#board .mk-city[data-seat='1'] .mk-card[data-card='{take}']")
    assert chosen.get_attribute("aria-pressed") == "true"
    hint = page.inner_text("#board .mk-swap-hint")
    assert (
        "Bob's" in hint
        and page.inner_text(f"#board .mk-city[data-seat='1'] .mk-card[data-card='{take}'] .mk-name") in hint
    )
    offered = page.eval_on_selector_all(
        "#board .mk-city.mine .mk-card.playable", "(cards) => cards.map((c) => c.dataset.card).sort()"
    )
    assert offered == sorted({m.split()[1] for m in legal if m.endswith(f" 1 {take}")})
    assert "office" not in offered
    # the card given is clicked: the swap is made
    page.click(f"#board .mk-city.mine .mk-card.playable[data-card='{give}']")
    page.wait_for_selector("#board .mk-swap-hint", state="detached")
    page.wait_for_selector(f"#board .mk-city[data-seat='0'] .mk-card.tt-just[data-card='{take}']")
    mine_after, theirs_after = counts(0), counts(1)

    def moved(before: dict, after: dict, gained: str, lost: str) -> None:
        want = dict(before)
        want[gained] = want.get(gained, 0) + 1
        want[lost] -= 1
        assert after == {k: v for k, v in want.items() if v}, (before, after)

    moved(mine_before, mine_after, take, give)
    moved(theirs_before, theirs_after, give, take)
    assert page.locator(f"#board .mk-city[data-seat='1'] .mk-card.tt-just[data-card='{give}']").count() == 1
    swap = [
        e
        for e in httpx.get(f"{server}/api/tables/{created['id']}?since=0").json()["events"]
        if e["kind"] == "swap"
    ]
    assert swap and (swap[-1]["mine"], swap[-1]["target"], swap[-1]["theirs"]) == (give, 1, take)
    # then the build: a market card may be built again by a click
    page.wait_for_selector("#legal-moves button.move[data-move='pass'], #board .mk-market .mk-card.playable")
    assert not errors, errors
    context.close()
