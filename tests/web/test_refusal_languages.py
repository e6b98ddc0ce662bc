"""Issue 28: a refused move, and the server's other refusals, answer in the reader's language (the
``?lang=``/cookie/Accept-Language choice), over HTTP and over the table's WebSocket; the rule id
stays the same in every language."""

from __future__ import annotations

import pytest
from web_helpers import create

from tabletown.core.i18n import CORE_DOMAIN, Speaker
from tabletown.core.registry import get_game

HEADERS = {"pl": "pl-PL,pl;q=0.9", "de": "de-DE,de;q=0.9", "ru": "ru-RU,ru;q=0.9"}


def act(client, table_id, token, seq, action, lang=None):
    headers = {"Accept-Language": HEADERS[lang]} if lang else {}
    body = {"token": token, "seq": seq, "action": action}
    return client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers)


@pytest.mark.parametrize("lang", ["pl", "de", "ru"])
def test_a_games_refusal_in_the_readers_language(client, lang):
    table = create(client, game="machikoro", seats=("human", "human"), seed=4)
    token = table["seats"][0]["token"]
    english = act(client, table["id"], token, 0, "build no-such-card")
    worded = act(client, table["id"], token, 0, "build no-such-card", lang)
    assert english.status_code == worded.status_code == 422
    assert english.json()["rule"] == worded.json()["rule"]
    assert worded.json()["message"] != english.json()["message"]
    assert "no-such-card" in worded.json()["message"]  # the field is filled in, as typed


@pytest.mark.parametrize("lang", ["pl", "de", "ru"])
def test_a_server_refusal_with_fields_in_the_readers_language(client, lang):
    table = create(client, game="machikoro", seats=("human", "human"), seed=4)
    token = table["seats"][0]["token"]
    stale = act(client, table["id"], token, 5, "roll", lang)
    assert stale.status_code == 409 and stale.json()["rule"] == "seq.stale"
    expected = Speaker(CORE_DOMAIN, lang).tr("the table is at move {seq}, not {expected}", seq=0, expected=5)
    assert stale.json()["message"] == expected != "the table is at move 0, not 5"


def test_a_refusal_over_the_socket_speaks_the_sockets_language(client):
    table = create(client, game="machikoro", seats=("human", "human"), seed=4)
    token = table["seats"][0]["token"]
    game = get_game("machikoro")
    url = f"/ws/tables/{table['id']}?token={token}&lang=de"
    with client.websocket_connect(url) as socket:
        socket.receive_json()  # the first view
        socket.send_json({"type": "action", "seq": 0, "action": "build no-such-card"})
        reply = socket.receive_json()
        while reply.get("type") != "error":
            reply = socket.receive_json()
    state = game.new_game(2, {}, 4)
    try:
        state.parse_action("build no-such-card", 0)
    except Exception as exc:  # the same refusal, worded in German by the game
        assert reply["message"] == game.describe_error(exc, "de")  # type: ignore[arg-type]
    else:
        raise AssertionError("the move should be refused")


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_refused_set_up_in_the_readers_language(client, lang):
    body = {"game": "multicity", "seats": ["human", "human"], "options": {"first": "3"}}
    english = client.post("/api/tables", json=body)
    worded = client.post("/api/tables", json=body, headers={"Accept-Language": HEADERS[lang]})
    assert english.status_code == worded.status_code == 422
    assert english.json()["rule"] == worded.json()["rule"] == "table.options"
    assert worded.json()["message"] != english.json()["message"] and "first=3" in worded.json()["message"]
