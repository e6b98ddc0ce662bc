"""Security audit 22 (2026-12-06): identity and spoofing (display names, chat, the terminal's
screens), the terminal's "every unseen event" prompt, Lords of Vegas open-market offers.

Found and closed (``test_hole_*``, each failing on the code as audited):

* *A name that looks like another seat's, or like "You".* Names were told apart by ``casefold``
  only, and Python counts invisible letters as printable: "Alice" followed by a combining grapheme
  joiner or a variation selector, "Alice" with a Cyrillic A, a full-width "Ａlice", "AIice" with a
  capital i were all taken next to a seat called Alice, and "Y\\u043eu" (a Cyrillic o) or
  "You\\u034f" past the reserved "You" (audit 6), so another seat's moves and chat read as Alice's or
  as the reader's own. A name of Hangul fillers or blank braille cells showed as nobody. Names are
  now compared as they look (``live.name_key``) and invisible characters are refused.

Checked and sound: bidi overrides and zero-width characters were already refused in names and chat
(category Cf); a chat line's U+2028 does not break the line in Chromium; a spectator's chat line is
tagged "(spectator)" whatever name it gives; Lords of Vegas offers (a seat offers only trades it is
part of, never answers its own, accepts once: ``to_act``; market offers cannot carry an action
promise; refusals read public money, lots and dice only); the analysis page escapes every name.
"""

from __future__ import annotations

import pytest
from web_helpers import create

# Each of these reads as "Alice" on a page.
LOOKALIKES = [
    "Alice\u034f",  # a combining grapheme joiner
    "Alice\ufe0f",  # a variation selector
    "Alice\U000e0100",  # a supplementary variation selector
    "A\u17b4lice",  # a Khmer inherent vowel (draws nothing)
    "\u0410lice",  # a Cyrillic A
    "Alic\u0435",  # a Cyrillic e
    "\uff21lice",  # a full-width A
    "AIice",  # a capital i for the l
    "A l i c e",
]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_hole_a_name_that_looks_like_another_seats_is_refused(client, name):
    created = create(client, seats=["human", "human"], seed=6)
    table_id, (t0, t1) = created["id"], [s["token"] for s in created["seats"][:2]]
    assert client.post(f"/api/tables/{table_id}/join", json={"token": t0, "name": "Alice"}).status_code == 200
    answer = client.post(f"/api/tables/{table_id}/join", json={"token": t1, "name": name})
    assert answer.status_code in (409, 422), (name, answer.text)
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["name"] != name


@pytest.mark.parametrize(
    "names",
    [["Ann", "\u0410nn"], ["P\u0430ul", "Paul"], ["Bob", "B\u043eb"]],
)
def test_hole_names_given_at_creation_that_look_alike_are_refused(client, names):
    answer = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"], "names": names})
    assert answer.status_code == 409 and answer.json()["rule"] == "name.taken", answer.text


@pytest.mark.parametrize(
    "name",
    ["Y\u043eu", "You\u034f", "\uff39ou", "Y0u", "Spectat\u043er", "Pl\u0430yer 2", "R\u0430ndom bot"],
)
def test_hole_a_name_that_looks_like_the_readers_word_or_a_default_label_is_refused(client, name):
    """The reader's words "You" and "Spectator" (audit 6), and what an unnamed seat is called
    ("Player 2", "Random bot"), written with a look-alike letter."""
    answer = client.post(
        "/api/tables", json={"game": "toyrace", "seats": ["human", "human", "bot:random"], "names": [name]}
    )
    assert answer.status_code in (409, 422), (name, answer.text)


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164\u3164", "\u2800", "\u115f", "\u0301", "Bob\u3164"])
def test_hole_an_invisible_name_is_refused(client, name):
    answer = client.post(
        "/api/tables", json={"game": "toyrace", "seats": ["human", "human"], "names": [name]}
    )
    assert answer.status_code == 422 and answer.json()["rule"] == "name.invalid", (name, answer.text)
    # the same for a spectator's name in the chat
    created = create(client)
    said = client.post(f"/api/tables/{created['id']}/chat", json={"text": "hi", "name": name})
    assert said.status_code == 422, said.text


@pytest.mark.parametrize(
    "names", [["Zoë", "Łukasz"], ["Анна", "Борис"], ["Jan", "Ian"], ["김민준", "이서연"]]
)
def test_sound_ordinary_names_still_differ(client, names):
    """Accents, other scripts and Hangul stay names of their own."""
    answer = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"], "names": names})
    assert answer.status_code == 201, answer.text
    seats = client.get(f"/api/tables/{answer.json()['id']}").json()["seats"]
    assert [s["name"] for s in seats] == names
