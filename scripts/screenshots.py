"""Screenshots of a game page for the docs: a server on a temporary database, a table with bots, some
moves played through the API, then headless Chromium (Debian's package) at desktop and phone size.

    .venv/bin/python scripts/screenshots.py machikoro --option harbor=true --moves 40 --out docs/images
    .venv/bin/python scripts/screenshots.py --all --out docs/images

``--all``: every game at its start, in the middle and at its end (``GAME-start.png``,
``GAME-middle.png``, ``GAME-end.png`` and their ``-phone`` twins), the pictures the README and
docs/games/*.md show.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tabletown.web.bench import free_port, wait_until_up


def start(db: str, port: int) -> subprocess.Popen:
    env = dict(os.environ, TABLETOWN_BOT_DELAY="0")
    server = subprocess.Popen(
        [sys.executable, "-m", "tabletown.web", "--port", str(port), "--db", db],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    wait_until_up(server, port, 30)
    return server


def play_some(base: str, table: str, token: str, moves: int) -> None:
    """The human seat plays its last listed move (usually a build) until ``moves`` are made."""
    done = 0
    while done < moves:
        view = httpx.get(f"{base}/api/tables/{table}", params={"token": token}).json()
        if view.get("over") or view.get("status") == "finished":
            return
        if not view["legal"]:
            time.sleep(0.05)
            continue
        choice = view["legal"][-1] if done % 3 else view["legal"][0]
        answer = httpx.post(
            f"{base}/api/tables/{table}/actions", json={"token": token, "seq": view["seq"], "action": choice}
        )
        done += answer.status_code == 200


# --all: each game as the docs show it (options, bots, the middle's number of moves by the human seat)
SHOWN = {
    "machikoro": ({"harbor": True}, 1, 14),
    "lordsofvegas": ({}, 1, 12),
    "newlasvegas": ({}, 1, 4),
    "multicity": ({}, 1, 8),
}


def shoot(base: str, join_url: str, out: Path, stem: str, browser) -> None:
    for suffix, width, height in (("", 1280, 900), ("-phone", 375, 812)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(base + join_url if join_url.startswith("/") else join_url)
        page.wait_for_timeout(1500)
        if suffix:  # a phone shows the board, not the page's header
            page.evaluate("() => document.getElementById('play')?.scrollIntoView()")
            page.wait_for_timeout(200)
        path = out / f"{stem}{suffix}.png"
        page.screenshot(path=str(path), full_page=suffix == "")
        page.close()
        print(path)


def table(base: str, game: str, options: dict, bots: int, seed: int) -> dict:
    seats = ["human"] + ["bot:greedy"] * bots
    body = {"game": game, "options": options, "seats": seats, "seed": seed, "names": ["Alice"]}
    answer = httpx.post(f"{base}/api/tables", json=body)
    answer.raise_for_status()
    made = answer.json()
    human = made["seats"][0]
    # the seat's invitation is redeemed for its own token, which its link then carries
    joined = httpx.post(f"{base}/api/tables/{made['id']}/join", json={"token": human["token"]})
    joined.raise_for_status()
    human["join_url"] = human["join_url"].replace(human["token"], joined.json()["token"])
    human["token"] = joined.json()["token"]
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?")
    parser.add_argument("--all", action="store_true", help="every game at start, middle and end")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--bots", type=int, default=2)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args()
    if not args.all and not args.game:
        parser.error("name a game, or --all")
    from playwright.sync_api import sync_playwright

    options = {}
    for pair in args.option:
        key, _, value = pair.partition("=")
        options[key] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = start(f"sqlite:///{folder}/shots.db", port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
                if args.all:
                    for game, (shown, bots, middle) in SHOWN.items():
                        for stage, moves in (("start", 0), ("middle", middle), ("end", 10_000)):
                            made = table(base, game, shown, bots, args.seed)
                            human = made["seats"][0]
                            play_some(base, made["id"], human["token"], moves)
                            shoot(base, human["join_url"], args.out, f"{game}-{stage}", browser)
                else:
                    made = table(base, args.game, options, args.bots, args.seed)
                    human = made["seats"][0]
                    play_some(base, made["id"], human["token"], args.moves)
                    shoot(base, human["join_url"], args.out, f"{args.game}-board", browser)
                browser.close()
        finally:
            server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
