"""Fair and private tables (issue 25), checked from the outside: every game is played online with two
human seats and a spectator, every answer each of them can get before the end is collected (payloads,
records, replays, lobby, pages, WebSocket views and pushes, refused moves), and none of it may hold the
seed, the salt, the generator's state, a future draw or another seat's pending secret choice. After the
end the record is complete and checks against the commitment announced before the first move.

The truth comes from the server's memory (``client.app.state.service.get(id)``), never from an answer.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import re
import time
from typing import Any

import pytest
from web_helpers import create

from tabletown.core.fairness import check_commitment
from tabletown.core.record import Record, verify
from tabletown.core.rng import SeededRNG
from tabletown.web.catalog import games
from tabletown.web.tables import build_payload

GAMES = ["toyrace", *games()]
# The toy race to 40 points instead of 20, so that a random game lasts well past its first bet round
# whatever seed the server draws (29 moves or more in 300 trials; the collection points need 14).
OPTIONS: dict[str, dict[str, Any]] = {"toyrace": {"target": 40}}
COLLECT_AT = {0, 4, 13}  # move counts at which every answer is collected
STOP_COLLECTING = 60  # past this many moves the table is only played to its end
PENDING_POINTS = 2  # per kind: collections right after seat 0's secret move while seat 1 must choose
MAX_MOVES = 1500  # a safety net: every game here ends long before
JUNK_MOVE = "§§ no such move 99999"


# -- tables, viewers, moves ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Viewer:
    name: str
    seat: int | None
    token: str | None

    @property
    def auth(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"} if self.token else {}


def seat_kinds(name: str) -> list[str]:
    """Two human seats; bots (random) only where a game needs more players."""
    game = games().get(name)
    need = 2 if game is None else max(2, game.min_players)
    return ["human", "human"] + ["bot:random"] * (need - 2)


def new_table(client, name: str, **extra):
    created = create(client, game=name, seats=seat_kinds(name), options=OPTIONS.get(name, {}), **extra)
    table = client.app.state.service.get(created["id"])
    tokens = [s["token"] for s in created["seats"]]
    viewers = [
        Viewer("seat 0", 0, tokens[0]),
        Viewer("seat 1", 1, tokens[1]),
        Viewer("spectator", None, None),
    ]
    return created, table, viewers


def ok(response, status: int = 200):
    assert response.status_code == status, (response.request.url, response.status_code, response.text[:500])
    return response


def payload(client, table_id: str, viewer: Viewer, **params) -> dict[str, Any]:
    return ok(client.get(f"/api/tables/{table_id}", headers=viewer.auth, params=params)).json()


def post_move(client, table_id: str, viewer: Viewer, seq: int, action: str):
    return client.post(
        f"/api/tables/{table_id}/actions", headers=viewer.auth, json={"seq": seq, "action": action}
    )


def next_move(client, table, viewers: list[Viewer], rng: random.Random, pick=min):
    """(seat, seq, move, payload): a random legal move of the seat ``pick`` chooses among the human
    seats to act (who acts is read from the server's memory), taken from that seat's own payload's
    ``legal``; None once the game is over, "wait" while only a bot must act."""
    with table.lock:
        if table.over:
            return None
        humans = [s for s in table.state.to_act if s in (0, 1)]
    if not humans:  # only a bot acts (games that need more than two players): let it
        time.sleep(0.001)
        return "wait"
    seat = pick(humans)
    mine = payload(client, table.id, viewers[seat])
    assert mine["legal"], (seat, mine["to_act"])
    return seat, mine["seq"], rng.choice(mine["legal"]), mine


# The move loop of test_no_answer_before_the_end_holds_a_secret (below) on purpose: that test checks
# every answer along the way, this one only plays.
def play_to_end(client, table, viewers, rng: random.Random, commitments: set[str] | None = None):
    for _ in range(MAX_MOVES):
        move = next_move(client, table, viewers, rng)
        if move is None:
            return
        if move == "wait":
            continue
        seat, seq, text, mine = move
        if commitments is not None:
            commitments.add(mine["fairness"]["commitment"])
        ok(post_move(client, table.id, viewers[seat], seq, text))
    raise AssertionError(f"{table.game.name} did not end in {MAX_MOVES} moves")


# -- everything a viewer can get -------------------------------------------------------------------------------
def answers_of(client, table_id: str, viewer: Viewer, num_players: int) -> dict[str, str]:
    """Every answer ``viewer`` can get about the table now, as text, by what was asked."""
    base = f"/api/tables/{table_id}"
    out: dict[str, str] = {}
    client.cookies.clear()
    first = ok(client.get(base, headers=viewer.auth))
    out["payload"] = first.text
    count, seq = first.json()["event_count"], first.json()["seq"]
    out["payload since"] = ok(client.get(base, headers=viewer.auth, params={"since": max(0, count - 2)})).text
    out["record"] = ok(client.get(f"{base}/record", headers=viewer.auth)).text
    out["record download"] = ok(
        client.get(f"{base}/record", headers=viewer.auth, params={"download": "true"})
    ).text
    own = {} if viewer.seat is None else {"seat": viewer.seat}
    for step in sorted({0, seq // 2, seq}):
        out[f"replay {step}"] = ok(
            client.get(f"{base}/replay", headers=viewer.auth, params={"step": step, **own})
        ).text
    for other in range(num_players):  # another seat's replay view: refused before the end
        if other != viewer.seat:
            out[f"replay as seat {other}"] = ok(
                client.get(f"{base}/replay", headers=viewer.auth, params={"step": seq, "seat": other}), 403
            ).text
    for status in (None, "open", "running", "finished"):
        params = {"status": status} if status else {}
        out[f"lobby {status}"] = ok(client.get("/api/tables", headers=viewer.auth, params=params)).text
    # refused moves: their error messages are answers too
    if viewer.token:
        out["stale move"] = ok(post_move(client, table_id, viewer, seq + 5, JUNK_MOVE), 409).text
        refused = post_move(client, table_id, viewer, seq, JUNK_MOVE)
        assert refused.status_code in (409, 422), refused.text
        out["junk move"] = refused.text
        for k, text in enumerate(illegal_moves(client.app.state.service.get(table_id), viewer.seat)):
            refused = post_move(client, table_id, viewer, seq, text)
            assert refused.status_code in (409, 422), (text, refused.text)
            out[f"illegal move {k}"] = json.dumps({"move": text, "answer": refused.json()})
    else:
        out["spectator move"] = ok(post_move(client, table_id, viewer, seq, JUNK_MOVE), 403).text
    with client.websocket_connect(f"/ws/tables/{table_id}?since=0", headers=viewer.auth) as ws:
        out["socket first"] = json.dumps(ws.receive_json())
    # the pages, and the API as the pages use it (the HttpOnly cookie plus seat=N)
    if viewer.token:
        client.cookies.set(f"tt_{table_id}", viewer.token)
        out["payload by cookie"] = ok(client.get(base, params={"seat": viewer.seat})).text
        out["record by cookie"] = ok(client.get(f"{base}/record", params={"seat": viewer.seat})).text
        out["payload by query token"] = ok(client.get(base, params={"token": viewer.token})).text
        with client.websocket_connect(f"/ws/tables/{table_id}?since=1&seat={viewer.seat}") as ws:
            page_socket = ws.receive_json()
        assert page_socket["seat"] == viewer.seat
        out["socket by cookie"] = json.dumps(page_socket)
    out["page lobby"] = ok(client.get("/")).text
    out["page table"] = ok(client.get(f"/t/{table_id}")).text
    out["page replay"] = ok(client.get(f"/t/{table_id}/replay")).text
    client.cookies.clear()
    return out


def illegal_moves(table, seat: int, count: int = 6) -> list[str]:
    """A few well-formed moves of the game's action space that ``seat`` may not make now (checked on
    a copy of the live position), spread over the whole space."""
    try:
        space = table.game.action_space(table.num_players, table.options)
    except Exception:
        return []
    found: list[str] = []
    with table.lock:
        state = table.state
        for index in range(0, len(space), max(1, len(space) // 40)):
            text = state.format_action(space[index])
            try:
                state.clone().apply_text(seat, text)
            except Exception:
                found.append(text)
                if len(found) == count:
                    break
    return found


def move_over_sockets(client, table_id: str, viewers: list[Viewer], seat: int, seq: int, text: str):
    """Open a socket for every viewer, make the move over the mover's socket and return, per viewer,
    the first view and the view pushed after the move (plus the mover's acknowledgment)."""
    out: dict[str, dict[str, str]] = {v.name: {} for v in viewers}
    with contextlib.ExitStack() as stack:
        sockets = []
        for viewer in viewers:
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/tables/{table_id}?since=0", headers=viewer.auth)
            )
            first = ws.receive_json()
            assert first["type"] == "view" and first["seq"] == seq
            out[viewer.name]["socket before move"] = json.dumps(first)
            sockets.append((viewer, ws))
        sockets[seat][1].send_json({"type": "action", "seq": seq, "action": text})
        for viewer, ws in sockets:
            want_ack = viewer.seat == seat
            for _ in range(8):
                message = ws.receive_json()
                if message["type"] == "ack":
                    assert message["seq"] == seq + 1
                    out[viewer.name]["socket ack"] = json.dumps(message)
                    want_ack = False
                elif message["type"] == "view" and message["seq"] == seq + 1:
                    out[viewer.name]["socket push"] = json.dumps(message)
                else:
                    assert message["type"] == "view", message
                if "socket push" in out[viewer.name] and not want_ack:
                    break
            assert "socket push" in out[viewer.name], viewer
    return out


# -- what must not be in an answer -------------------------------------------------------------------------------
HEX_RUN = re.compile(r"[0-9a-f]{8,}")
DECIMAL_RUN = re.compile(r"[0-9]{9,}")


@dataclasses.dataclass
class Secrets:
    """What nobody may learn before the end: the seed, the salt, and every word of the generator's
    internal state (624 words of 32 bits: now, and as the seed set it up), in decimal and in hex."""

    texts: dict[str, str]
    words: dict[str, str]  # word as text (decimal, or eight hex digits) -> what it is

    def found_in(self, text: str) -> list[str]:
        found = [f"{what} ({needle})" for what, needle in self.texts.items() if needle in text]
        lowered = text.lower()
        for run in HEX_RUN.findall(lowered):
            for k in range(len(run) - 7):
                if run[k : k + 8] in self.words:
                    found.append(f"{self.words[run[k : k + 8]]} ({run[k : k + 8]})")
        for run in DECIMAL_RUN.findall(lowered):
            for size in (9, 10):
                for k in range(len(run) - size + 1):
                    if run[k : k + size] in self.words:
                        found.append(f"{self.words[run[k : k + size]]} ({run[k : k + size]})")
        return found


def secrets_now(table) -> Secrets:
    with table.lock:
        state_rng = table.state.rng.clone()
    texts = {"seed": str(table.seed), "seed in hex": format(table.seed, "x"), "salt": table.salt}
    words: dict[str, str] = {}
    for label, rng in (("generator now", state_rng), ("generator at the start", SeededRNG(table.seed))):
        for index, word in enumerate(rng.getstate()[1][:624]):
            words[f"{word:08x}"] = f"{label}: word {index} in hex"
            if word >= 10**8:  # nine or ten digits: distinctive enough in decimal
                words[str(word)] = f"{label}: word {index}"
    return Secrets(texts, words)


def json_of(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def walk(data: Any):
    """Every (key, value) pair of every object in a JSON document."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key, value
            yield from walk(value)
    elif isinstance(data, list):
        for item in data:
            yield from walk(item)


def assert_keeps_secrets(label: str, text: str, table, secret: Secrets, commitment: str) -> None:
    # The table id and the commitment are public random texts: out of the way before looking for
    # eight hex digits of the generator's state.
    scrubbed = text.replace(table.id, "<table>").replace(commitment, "<commitment>")
    found = secret.found_in(scrubbed)
    assert not found, f"{label} holds the {', '.join(found[:5])}"
    data = json_of(text)
    for key, value in walk(data):
        if key in ("seed", "salt", "seed_text"):
            assert value is None, f"{label}: {key} = {value!r} before the end"
        if key == "commitment":
            assert value == commitment, f"{label}: commitment {value!r} is not the announced one"
        if key == "complete":
            assert value is False, label


# -- 1. every answer before the end ----------------------------------------------------------------------------------
def pending_kind(table) -> str | None:
    """'mid' right after seat 0's secret move while seats 0 and 1 must still act, 'locked' when seat 0
    is done and only seat 1 must act; else None."""
    with table.lock:
        if not table.secret or not table.secret[-1] or table.actions[-1][0] != 0 or table.over:
            return None
        to_act = set(table.state.to_act)
    if 1 not in to_act:
        return None
    return "mid" if 0 in to_act else "locked"


def assert_move_lists(table, viewer: Viewer, answers: dict[str, str]) -> None:
    """Records and replays list the moves as ``viewer`` may read them (docs/server.md): its own in
    full, another seat's secret move as ``[seat, null]``, public moves in full."""
    with table.lock:
        expected = [
            [p, None if hidden and p != viewer.seat else t]
            for (p, t), hidden in zip(table.actions, table.secret, strict=True)
        ]
    for label, text in answers.items():
        data = json_of(text)
        if label.startswith("record"):
            assert data["actions"] == expected and data["complete"] is False, (viewer, label)
            assert data["viewer"] == viewer.seat
        elif label.startswith("replay") and "as seat" not in label:
            assert data["moves"] == expected, (viewer, label)


# The move loop of play_to_end (above) on purpose, with its checks at every step.
@pytest.mark.parametrize("name", GAMES)
def test_no_answer_before_the_end_holds_a_secret(client, name):
    created, table, viewers = new_table(client, name)
    commitment = created["commitment"]
    assert re.fullmatch(r"[0-9a-f]{64}", commitment) and created["seed_chosen"] is False
    secret = secrets_now(table)
    assert_keeps_secrets("create answer", json.dumps(created), table, secret, commitment)
    rng = random.Random(2025)
    checked: dict[str, int] = {}
    pending_seen: dict[str, int] = {}
    points = 0
    for _ in range(MAX_MOVES):
        move = next_move(client, table, viewers, rng)
        if move is None:
            break
        if move == "wait":
            continue
        seat, seq, text, _ = move
        kind = pending_kind(table)
        collect = seq < STOP_COLLECTING and (
            seq in COLLECT_AT or (kind is not None and pending_seen.get(kind, 0) < PENDING_POINTS)
        )
        if not collect:
            ok(post_move(client, table.id, viewers[seat], seq, text))
            continue
        points += 1
        if kind is not None:
            pending_seen[kind] = pending_seen.get(kind, 0) + 1
        secret = secrets_now(table)
        collected = {v.name: answers_of(client, table.id, v, table.num_players) for v in viewers}
        for viewer in viewers:  # move lists: another seat's secret move is [seat, null]
            assert_move_lists(table, viewer, collected[viewer.name])
        if kind is not None:  # right after seat 0's secret move: its text for seat 0 only
            with table.lock:
                hidden = list(table.actions[-1])
            for viewer in viewers:
                actions = json.loads(collected[viewer.name]["record"])["actions"]
                assert actions[-1] == (hidden if viewer.seat == 0 else [0, None]), (viewer, actions[-1])
        for viewer_name, pushes in move_over_sockets(client, table.id, viewers, seat, seq, text).items():
            collected[viewer_name].update(pushes)
        for viewer_name, answers in collected.items():
            for label, answer in answers.items():
                assert_keeps_secrets(
                    f"{name} move {seq}, {viewer_name}, {label}", answer, table, secret, commitment
                )
                checked[label] = checked.get(label, 0) + 1
    else:
        raise AssertionError(f"{name} did not end in {MAX_MOVES} moves")
    assert table.status == "finished"
    assert points >= 3, points
    if name in ("newlasvegas", "toyrace"):  # games with secret moves: checked while one was pending
        assert pending_seen.get("locked", 0) >= 1, pending_seen
    assert {"socket push", "socket ack", "page table", "replay 0", "record", "lobby running"} <= set(checked)


def test_the_scanner_finds_what_it_looks_for(client):
    """The check above is not blind: it finds the seed in the full record (server memory) and in the
    payload after the end, and the generator's words in the saved position and in hex."""
    created, table, viewers = new_table(client, "toyrace")
    secret = secrets_now(table)
    full = json.dumps(table.record().to_json())
    with pytest.raises(AssertionError, match="holds the seed"):
        assert_keeps_secrets("full record", full, table, secret, created["commitment"])
    assert table.seq == 0
    ok(post_move(client, table.id, viewers[0], 0, "r"))  # a die: the generator moved on
    now = secrets_now(table)
    with table.lock:
        saved = json.dumps(table.state.to_json())
    found = now.found_in(saved)
    assert any("generator now" in f for f in found) and any("in hex" not in f for f in found)
    # hex with 0x, in brackets (a word with eight hex digits: the scanner looks for zero-padded words)
    word = next(w for w in table.state.rng.getstate()[1][:624] if w >= 2**28)
    assert now.found_in(f"[{word:#x}]")
    play_to_end(client, table, viewers, random.Random(3))
    with pytest.raises(AssertionError, match="holds the"):
        finished = json.dumps(payload(client, table.id, viewers[2]))
        assert_keeps_secrets("finished payload", finished, table, secret, created["commitment"])


# -- the same position, a different pending secret choice -----------------------------------------------------------
def round_plans(name: str, seed: int, prefix: list[tuple[int, str]]) -> list[list[str]]:
    """Two different whole rounds for seat 0 (first legal step after each opening pick) that take
    the same number of moves, so the public move count cannot tell them apart."""
    state = games()[name].new_game(2, OPTIONS.get(name, {}), seed)
    for seat, text in prefix:
        state.apply_text(seat, text)
    plans: dict[int, list[list[str]]] = {}
    for first in state.legal_actions(0):
        twin = state.clone()
        plan = [twin.format_action(first)]
        twin.apply(0, first)
        while 0 in twin.to_act:
            step = twin.legal_actions(0)[0]
            plan.append(twin.format_action(step))
            twin.apply(0, step)
        plans.setdefault(len(plan), []).append(plan)
    for group in plans.values():
        if len(group) >= 2:
            return group[:2]
    raise AssertionError(f"no two rounds of equal length: {plans}")


NLV_START = [(0, "loan"), (1, "noloan")]
TWINS = {
    # name: (game, moves before, seat 0's two alternatives)
    "newlasvegas loan": ("newlasvegas", [], [["loan"], ["noloan"]]),
    "newlasvegas first step": ("newlasvegas", NLV_START, [["a"], ["b"]]),
    "newlasvegas whole round": ("newlasvegas", NLV_START, None),
    "toyrace bet": ("toyrace", [(0, "b"), (1, "b")], [["bet0"], ["bet2"]]),
}
TWIN_SEED = 424242


def normalised(text: str, table_id: str, commitment: str) -> str:
    text = text.replace(table_id, "<table>").replace(commitment, "<commitment>")
    return re.sub(r'"(created_at|updated_at)": ?"[^"]*"', r'"\1": "<time>"', text)


@pytest.mark.parametrize("scenario", sorted(TWINS))
def test_a_pending_secret_choice_changes_no_answer_of_the_others(client, scenario):
    game, prefix, alternatives = TWINS[scenario]
    if alternatives is None:
        alternatives = round_plans(game, TWIN_SEED, prefix)
    assert alternatives[0] != alternatives[1]
    seen: list[dict[str, dict[str, str]]] = []
    for moves in alternatives:
        created, table, viewers = new_table(client, game, seed=TWIN_SEED)
        assert created["seed_chosen"] is True
        for seat, text in [*prefix, *((0, m) for m in moves)]:
            ok(post_move(client, table.id, viewers[seat], table.seq, text))
        with table.lock:
            assert 1 in table.state.to_act and not table.over, "seat 1 must still be choosing"
            assert table.secret[-1], "seat 0's last move must be secret"
        answers = {}
        for viewer in viewers:
            got = answers_of(client, table.id, viewer, table.num_players)
            for status in (None, "open", "running", "finished"):  # this table's lobby entries only
                body = json.loads(got.pop(f"lobby {status}"))
                lists = [body["tables"]] if status else list(body.values())
                got[f"lobby {status}"] = json.dumps([t for ts in lists for t in ts if t["id"] == table.id])
            answers[viewer.name] = {k: normalised(v, table.id, created["commitment"]) for k, v in got.items()}
        seen.append(answers)
    first, second = seen
    for viewer_name in ("seat 1", "spectator"):
        for label in first[viewer_name]:
            assert first[viewer_name][label] == second[viewer_name][label], (
                f"{scenario}: {viewer_name}'s {label} tells seat 0's secret choices {alternatives} apart"
            )
    differ = [label for label in first["seat 0"] if first["seat 0"][label] != second["seat 0"][label]]
    assert "record" in differ and "payload" in differ, differ  # seat 0 sees its own choice


def test_a_restarted_server_keeps_the_secrets(make_client, sqlite_url):
    """Memory rebuilt from the database (a restart) withholds the same: seat 0's pending loan choice,
    the seed, the salt; the commitment is the one announced at creation."""
    client = make_client(sqlite_url)
    created, table, viewers = new_table(client, "newlasvegas")
    ok(post_move(client, table.id, viewers[0], 0, "loan"))
    client.__exit__(None, None, None)
    again = make_client(sqlite_url)
    rebuilt = again.app.state.service.get(table.id)
    assert (rebuilt.seed, rebuilt.salt, rebuilt.secret) == (table.seed, table.salt, [True])
    secret = secrets_now(rebuilt)
    for viewer in viewers:
        answers = answers_of(again, table.id, viewer, 2)
        assert_move_lists(rebuilt, viewer, answers)
        for label, text in answers.items():
            assert_keeps_secrets(
                f"after a restart, {viewer.name}, {label}", text, rebuilt, secret, created["commitment"]
            )
        record = json.loads(answers["record"])
        assert record["actions"] == [[0, "loan" if viewer.seat == 0 else None]]


# -- 2. no future draw: seat 0's payload cannot tell the real position from a resampled one ---------------------------
def spectator_view(state) -> str:
    return json.dumps(state.view(None), sort_keys=True)


def futures_differ(real, twin, rng: random.Random, moves: int = 40) -> bool:
    """Play the same moves (legal in the real game) on both; whether what everyone sees diverges."""
    real, twin = real.clone(), twin.clone()
    for _ in range(moves):
        if real.is_over or twin.is_over or real.to_act != twin.to_act:
            return real.is_over != twin.is_over or real.to_act != twin.to_act
        seat = real.to_act[0]
        action = rng.choice(real.legal_actions(seat))
        if not twin.is_legal(seat, action):
            return True
        real.apply(seat, action)
        twin.apply(seat, action)
        if spectator_view(real) != spectator_view(twin):
            return True
    return False


@pytest.mark.parametrize("name", GAMES)
def test_no_future_draw_or_hidden_card_in_a_payload(client, name):
    created, table, viewers = new_table(client, name)
    rng = random.Random(99)
    compared = diverged = seat1_resampled = 0
    for _ in range(45):
        # seat 1 moves first in a simultaneous round, so seat 0 is determinizing seat 1's secret choices
        move = next_move(client, table, viewers, rng, pick=max)
        if move is None:
            break
        if move != "wait":
            with table.lock:
                state = table.state
                for other_seed in (1, 7_000_001):
                    twin = state.determinize(0, other_seed)
                    fake = dataclasses.replace(table, id="throwaway", state=twin)
                    for seat in (0, None):
                        for since in (0, max(0, len(state.log) - 3)):
                            real_payload = build_payload(table, seat, since)
                            twin_payload = {**build_payload(fake, seat, since), "table": table.id}
                            assert real_payload == twin_payload, (
                                f"{name} at move {table.seq}: the payload of "
                                f"{'seat 0' if seat == 0 else 'a spectator'} depends on what seat 0 "
                                "cannot know (a hidden card, another seat's choice or a future draw)"
                            )
                    compared += 1
                    if build_payload(table, 1) != {**build_payload(fake, 1), "table": table.id}:
                        seat1_resampled += 1
                    if futures_differ(state, twin, random.Random(other_seed)):
                        diverged += 1
            seat, seq, text, _ = move
            ok(post_move(client, table.id, viewers[seat], seq, text))
    assert compared >= 20
    # The comparison means something only if the resampled twin really has another future.
    assert diverged >= compared // 2, (diverged, compared)
    if name in ("toyrace", "newlasvegas"):  # seat 1 holds secrets seat 0 cannot see: they were redrawn
        assert seat1_resampled > 0


# -- 3. after the end: the whole record, provably fair --------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_after_the_end_the_record_is_complete_and_checks(client, name):
    created, table, viewers = new_table(client, name)
    announced = created["commitment"]
    # before the first move: the lobby and every viewer's payload announce the same commitment
    (entry,) = ok(client.get("/api/tables", params={"status": "running"})).json()["tables"]
    commitments: set[str] = {entry["commitment"]}
    commitments |= {payload(client, table.id, v)["fairness"]["commitment"] for v in viewers}
    play_to_end(client, table, viewers, random.Random(5), commitments)
    assert table.status == "finished"
    assert commitments == {announced}, commitments  # every payload showed the announced commitment
    assert ok(client.get("/api/tables", params={"status": "finished"})).json()["tables"][0]["result"]
    expected = {**table.record().to_json(), "complete": True}
    seq = table.seq
    for viewer in viewers:
        doc = ok(client.get(f"/api/tables/{table.id}/record", headers=viewer.auth)).json()
        assert doc == expected, viewer
        assert doc["complete"] is True and doc["seed"] == table.seed and doc["salt"] == table.salt
        assert doc["commitment"] == announced and doc["seed_chosen"] is False
        assert None not in (text for _, text in doc["actions"])
        assert verify(Record.from_json(doc)) == []
        assert check_commitment(doc["seed"], doc["salt"], announced)
        fair = payload(client, table.id, viewer)["fairness"]
        assert fair == {
            "commitment": announced,
            "seed_chosen": False,
            "seed": table.seed,
            "seed_text": str(table.seed),
            "salt": table.salt,
        }
    # a record whose seed was changed no longer checks
    forged = {**expected, "seed": (table.seed + 1) % 2**63}
    assert verify(Record.from_json(forged)) != []
    # every seat's replay, without any token
    for seat in (0, 1, None):
        for step in (0, seq // 2, seq):
            params = {"step": step} if seat is None else {"step": step, "seat": seat}
            view = ok(client.get(f"/api/tables/{table.id}/replay", params=params)).json()
            assert view["seat"] == seat and view["step"] == step and view["steps"] == seq
            assert view["fairness"]["seed"] == table.seed
            assert None not in (text for _, text in view["moves"])


# -- 4. a chosen seed is marked everywhere ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_chosen_seed_is_shown_as_chosen(client, name):
    chosen, chosen_table, chosen_viewers = new_table(client, name, seed=31337)
    drawn, drawn_table, drawn_viewers = new_table(client, name)
    assert chosen_table.seed == 31337 and chosen_table.seed_chosen
    assert not drawn_table.seed_chosen and 0 <= drawn_table.seed < 2**63
    lobby = ok(client.get("/api/tables")).json()
    entries = {t["id"]: t for ts in lobby.values() for t in ts}
    for created, table, viewers, flag in (
        (chosen, chosen_table, chosen_viewers, True),
        (drawn, drawn_table, drawn_viewers, False),
    ):
        assert created["seed_chosen"] is flag
        assert entries[table.id]["seed_chosen"] is flag
        assert entries[table.id]["commitment"] == created["commitment"]
        for viewer in viewers:
            fair = payload(client, table.id, viewer)["fairness"]
            assert fair["seed_chosen"] is flag and fair["seed"] is None and fair["salt"] is None
            assert fair["commitment"] == created["commitment"]
            record = ok(client.get(f"/api/tables/{table.id}/record", headers=viewer.auth)).json()
            assert record["seed_chosen"] is flag and record["seed"] is None
            with client.websocket_connect(f"/ws/tables/{table.id}", headers=viewer.auth) as ws:
                assert ws.receive_json()["fairness"]["seed_chosen"] is flag
    if name == "toyrace":  # and at the end the chosen seed is the one the game was played with
        play_to_end(client, chosen_table, chosen_viewers, random.Random(8))
        doc = ok(client.get(f"/api/tables/{chosen_table.id}/record")).json()
        assert doc["seed"] == 31337 and doc["seed_chosen"] is True and verify(Record.from_json(doc)) == []
