"""Security audit 26 (2026-12-06): a red-team pass with fresh eyes over what earlier audits left
alone: numbers too long for Python to read, display names shaped like the templates the event log
is worded from, and move spellings a table takes but might not read back when it is rebuilt.

Found: no hole in the routes and games this file covers. The tests below keep what was probed
sound (``test_sound_*``), each failing if the behaviour it checks breaks:

* a JSON number of 5,000 digits (past Python's 4,300-digit limit on reading integers, where
  ``json.loads`` raises a ValueError that is not a JSONDecodeError) in any field of any body, or in a
  query parameter, or in a socket message, is a 422 refusal, never a 500;
* a name such as ``{who}`` or ``{0}`` is a value filled into the event log's templates, never a
  template itself: every seat and a spectator read every event in every language, the name as given;
* every spelling of a move a table takes (case, spaces, a plan's separators, an action number) is
  stored as the game writes it and replays to the very same position, so no player can store a move
  that breaks the table's rebuild after a restart, another process's catch-up or the replays.

Noticed on the way and closed by the twenty-fifth audit (which owned the handshake): a
``/ws/tables/{id}?seat=`` of more than 4,300 digits made ``int()`` raise in the handshake
(tests/web/test_security_audit_25.py).
"""

from __future__ import annotations

import json
import random

import pytest
from web_helpers import create

from tabletown.core.errors import ActionError
from tabletown.web.catalog import games

HUGE = "9" * 5000  # past sys.get_int_max_str_digits() (4,300): int() and json.loads refuse it
GAMES = {"machikoro": 2, "lordsofvegas": 2, "multicity": 2, "newlasvegas": 3}


def _post(client, path: str, body: str):
    return client.post(path, content=body, headers={"content-type": "application/json"})


# -- numbers Python will not read ------------------------------------------------------------------------------
def test_sound_numbers_past_pythons_digit_limit_are_refused_not_a_crash(client):
    table = create(client, "machikoro", ("human", "human"))
    tid, token = table["id"], table["seats"][0]["token"]
    bodies = {
        "/api/tables": [
            f'{{"game": "machikoro", "seats": ["human", "human"], "seed": {HUGE}}}',
            f'{{"game": "machikoro", "seats": ["human"], "turn_timer": {HUGE}}}',
        ],
        f"/api/tables/{tid}/actions": [
            f'{{"token": "{token}", "seq": {HUGE}, "action": "roll"}}',
            f'{{"token": "{token}", "seq": 0, "action": {HUGE}}}',
            f'{{"token": "{token}", "seq": 0, "action": "roll", "since": {HUGE}}}',
        ],
        f"/api/tables/{tid}/draft": [f'{{"seat": {HUGE}, "steps": []}}'],
        f"/api/tables/{tid}/join": [f'{{"seat": {HUGE}}}'],
        f"/api/tables/{tid}/sit": [f'{{"seat": {HUGE}}}'],
        f"/api/tables/{tid}/chat": [f'{{"text": "hi", "seat": {HUGE}}}'],
        "/api/replay": [
            f'{{"record": {{"game": "machikoro", "seats": ["human", "human"], "seed": {HUGE}, "actions": []}}}}',
            f'{{"record": {{"game": "machikoro", "seats": ["human", "human"], "seed": 1, "actions": []}}, "step": {HUGE}}}',
        ],
    }
    for path, texts in bodies.items():
        for text in texts:
            answer = _post(client, path, text)
            assert answer.status_code == 422, (path, answer.status_code, answer.text[:200])
            assert answer.json()["rule"] == "request.invalid"
    for path, name in [
        (f"/api/tables/{tid}", "seat"),
        (f"/api/tables/{tid}", "seq"),
        (f"/api/tables/{tid}", "since"),
        (f"/api/tables/{tid}/replay", "step"),
        (f"/api/tables/{tid}/replay", "seat"),
        (f"/api/tables/{tid}/record", "seat"),
    ]:
        answer = client.get(f"{path}?{name}={HUGE}")
        assert answer.status_code == 422, (path, name, answer.status_code)
    with client.websocket_connect(f"/ws/tables/{tid}?since={HUGE}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text(f'{{"type": "action", "seq": {HUGE}, "action": "roll"}}')
        reply = ws.receive_json()
    # (413 since security audit 29: a socket message that long is refused before it is parsed)
    assert reply["type"] == "error" and reply["status"] == 413
    # and nothing moved
    assert client.get(f"/api/tables/{tid}").json()["seq"] == 0


# -- names shaped like templates ---------------------------------------------------------------------------------
TEMPLATE_NAMES = ["{who}", "{0}", "{x.__class__}"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_sound_names_shaped_like_templates_are_worded_as_given(client, game):
    players = GAMES[game]
    table = create(client, game, ("human",) * players, seed=26)
    tid = table["id"]
    tokens = [seat["token"] for seat in table["seats"]]
    for token, name in zip(tokens, TEMPLATE_NAMES, strict=False):
        answer = client.post(f"/api/tables/{tid}/join", json={"token": token, "name": name})
        assert answer.status_code == 200, answer.text
    rnd = random.Random(26)
    for _ in range(40):
        view = client.get(f"/api/tables/{tid}").json()
        if view["over"] or not view["to_act"]:
            break
        seat = view["to_act"][0]
        mine = client.get(f"/api/tables/{tid}", params={"token": tokens[seat]}).json()
        moved = client.post(
            f"/api/tables/{tid}/actions",
            json={"token": tokens[seat], "seq": mine["seq"], "action": rnd.choice(mine["legal"])},
        )
        assert moved.status_code == 200, moved.text
    named = 0
    for lang in ("en", "pl", "de", "ru"):
        for token in [None, *tokens]:
            params = {"lang": lang, **({"token": token} if token else {})}
            answer = client.get(f"/api/tables/{tid}", params=params)
            assert answer.status_code == 200, answer.text
            texts = [text for _, text in answer.json()["event_text"]]
            assert all(isinstance(text, str) and text for text in texts)
            named += sum(any(name in text for name in TEMPLATE_NAMES[:players]) for text in texts)
    assert named, "the players' names never showed in the event log"


# -- every spelling a table takes replays ------------------------------------------------------------------------
NOISE = [*"0123456789 .,;:-+/()_abcdefghijklmnopqrstuvwxyz", "\u00a0", "\u2003", "\uff21", "\u00b2", "\u2212"]


def _spellings(rnd: random.Random, state, seat: int, legal: list) -> list:
    """Ways to write a move of ``seat``: legal moves with a few letters changed, added or dropped,
    upper case, padded; New Las Vegas rounds as whole plans with several separators."""
    texts = [state.format_action(a) for a in legal]
    out: list = []
    for _ in range(5):
        letters = list(rnd.choice(texts))
        for _ in range(rnd.randint(0, 2)):
            roll = rnd.random()
            if roll < 0.35 and letters:
                letters[rnd.randrange(len(letters))] = rnd.choice(NOISE)
            elif roll < 0.7:
                letters.insert(rnd.randrange(len(letters) + 1), rnd.choice(NOISE))
            elif letters:
                del letters[rnd.randrange(len(letters))]
        text = "".join(letters)
        out.append(text.upper() if rnd.random() < 0.3 else f" {text} " if rnd.random() < 0.3 else text)
    if getattr(state, "phase", None) == "round":
        twin, plan = state.clone(), []
        while seat in twin.to_act and len(plan) < 4:
            step = rnd.choice(twin.legal_actions(seat))
            plan.append(twin.format_action(step))
            twin.apply(seat, step)
        out += [separator.join(plan) for separator in (", ", ",", " , ", ",  ")]
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_sound_every_spelling_a_table_takes_replays_to_the_same_position(game):
    rnd = random.Random(2026)
    found = games()[game]
    players = GAMES[game]
    state = found.new_game(players, {}, rnd.randrange(2**62))
    try:
        space = found.action_space(players, state.options)
    except Exception:
        space = None
    taken = 0
    for _ in range(150):
        if state.is_over or not state.to_act:
            break
        seat = rnd.choice(list(state.to_act))
        legal = state.legal_actions(seat)
        tries: list = [(True, text) for text in _spellings(rnd, state, seat, legal)]
        if space:
            tries += [(False, space[rnd.randrange(len(space))]) for _ in range(3)]
        for is_text, given in tries:
            try:  # what TableService._prepare does: read, write down, apply to a copy
                action = state.parse_action(given, seat) if is_text else given
                stored = state.format_action(action)
                played = state.clone()
                played.apply(seat, action)
            except ActionError:
                continue
            replayed = state.clone()
            replayed.apply_text(seat, stored)  # what a rebuild, a catch-up and a replay do
            assert json.dumps(replayed.to_json(), sort_keys=True, default=str) == json.dumps(
                played.to_json(), sort_keys=True, default=str
            ), (game, given, stored)
            taken += 1
        state.apply(seat, rnd.choice(legal))
    assert taken > 20
