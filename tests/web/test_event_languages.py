"""Issue 28: one table read in several languages at once. Events are data; each reader's payload words
them in the reader's language (``?lang``, the ``tt_lang`` cookie, ``Accept-Language``), over REST and
over WebSockets, where listeners of one seat in different languages get their own texts."""

from __future__ import annotations

import random

from web_helpers import create

from tabletown.core.registry import get_game
from tabletown.core.words import Names

GAME = "machikoro"


def played_table(client, moves: int = 12) -> dict:
    """A Machi Koro table of two named humans, some moves in (chosen at random among the legal ones)."""
    created = create(client, game=GAME, seats=["human", "human"], names=["Ala", "Bruno"], seed=11)
    rng = random.Random(3)
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(moves):
        payloads = [client.get(f"/api/tables/{created['id']}", params={"token": t}).json() for t in tokens]
        mover = next(p for p in payloads if p["legal"])
        body = {"token": tokens[mover["seat"]], "seq": mover["seq"], "action": rng.choice(mover["legal"])}
        assert client.post(f"/api/tables/{created['id']}/actions", json=body).status_code == 200
    return created


def expected(payload: dict, seat: int | None, lang: str) -> list[list]:
    game = get_game(GAME)
    names = Names(["Ala", "Bruno"], seat)
    return [[e["i"], game.describe_event(e, names, lang)] for e in payload["events"]]


def test_each_reader_gets_the_events_in_their_language(client):
    created = played_table(client)
    table = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    english = client.get(f"/api/tables/{table}", params={"token": tokens[0]}).json()
    polish = client.get(
        f"/api/tables/{table}", params={"token": tokens[0]}, headers={"accept-language": "pl"}
    ).json()
    german = client.get(f"/api/tables/{table}", params={"token": tokens[1], "lang": "de"}).json()
    client.cookies.set("tt_lang", "ru")
    russian = client.get(f"/api/tables/{table}").json()  # a spectator, by the cookie
    client.cookies.clear()
    assert (english["lang"], polish["lang"], german["lang"], russian["lang"]) == ("en", "pl", "de", "ru")
    assert english["event_text"] == expected(english, 0, "en")
    assert polish["event_text"] == expected(polish, 0, "pl")
    assert german["event_text"] == expected(german, 1, "de")
    assert russian["event_text"] == expected(russian, None, "ru")
    # the same events, four wordings: the view itself is the same data
    assert polish["events"] == english["events"]
    texts = [dict(map(tuple, p["event_text"])) for p in (english, polish, german, russian)]
    first = english["events"][0]["i"]
    assert len({t[first] for t in texts}) == 4, [t[first] for t in texts]


def test_an_unknown_language_reads_english(client):
    table = played_table(client, moves=2)["id"]
    odd = client.get(
        f"/api/tables/{table}", params={"lang": "xx"}, headers={"accept-language": "fr, ja"}
    ).json()
    assert odd["lang"] == "en"


def test_websocket_listeners_of_one_seat_in_two_languages(client):
    created = played_table(client, moves=2)
    table = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    with (
        client.websocket_connect(f"/ws/tables/{table}?lang=pl") as polish,
        client.websocket_connect(f"/ws/tables/{table}?lang=de") as german,
    ):
        first_pl, first_de = polish.receive_json(), german.receive_json()
        assert first_pl["lang"] == "pl" and first_de["lang"] == "de"
        mover = next(
            p
            for p in (client.get(f"/api/tables/{table}", params={"token": t}).json() for t in tokens)
            if p["legal"]
        )
        body = {"token": tokens[mover["seat"]], "seq": mover["seq"], "action": mover["legal"][0]}
        assert client.post(f"/api/tables/{table}/actions", json=body).status_code == 200
        pushed_pl, pushed_de = polish.receive_json(), german.receive_json()
        assert pushed_pl["events"] == pushed_de["events"] and pushed_pl["events"]
        assert pushed_pl["event_text"] == expected(pushed_pl, None, "pl")
        assert pushed_de["event_text"] == expected(pushed_de, None, "de")
        assert pushed_pl["event_text"] != pushed_de["event_text"]


def test_errors_come_in_the_readers_language_with_the_same_rule(client):
    from tabletown.web.languages import ui_text

    created = played_table(client, moves=1)
    body = {"token": "not-a-token", "seq": 1, "action": "roll"}
    english = client.post(f"/api/tables/{created['id']}/actions", json=body)
    polish = client.post(f"/api/tables/{created['id']}/actions", json=body, headers={"accept-language": "pl"})
    assert english.status_code == polish.status_code == 403
    assert english.json()["rule"] == polish.json()["rule"] == "seat.bad_token"
    assert english.json()["message"] == "this token holds no seat at this table"
    assert (
        polish.json()["message"]
        == ui_text("pl", "this token holds no seat at this table")
        != english.json()["message"]
    )
    missing = client.get("/api/tables/nothere", params={"lang": "de"})
    assert missing.status_code == 404 and missing.json()["message"] == ui_text("de", "no such table")


def test_seats_are_labelled_and_named_in_the_readers_language(client):
    from tabletown.core.i18n import seat_names

    created = create(client, game=GAME, seats=["human", "bot:greedy"], seed=4)
    table = created["id"]
    token = created["seats"][0]["token"]
    body = {"token": token, "seq": 0, "action": "roll"}
    assert client.post(f"/api/tables/{table}/actions", json=body).status_code == 200
    kinds = [("human", None), ("bot:greedy", None)]
    for lang in ("en", "pl", "de"):
        payload = client.get(f"/api/tables/{table}", params={"token": token, "lang": lang}).json()
        labels = [s["label"] for s in payload["seats"]]
        assert labels == seat_names(kinds, lang)
        # the bot's sentences name it by the same label (its turn follows the roll: wait for it)
        game = get_game(GAME)
        names = Names(labels, 0)
        assert payload["event_text"] == [
            [e["i"], game.describe_event(e, names, lang)] for e in payload["events"]
        ]
    listed = client.get("/api/tables", params={"lang": "pl"}).json()
    mine = [t for group in listed.values() for t in group if t["id"] == table]
    assert mine and [s["label"] for s in mine[0]["seats"]] == seat_names(kinds, "pl") != seat_names(
        kinds, "en"
    )
