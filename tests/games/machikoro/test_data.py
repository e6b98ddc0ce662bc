"""Card data against the reference counts."""

import json
from pathlib import Path

import pytest

from tabletown.games.machikoro.data import all_cards, establishments, landmarks

REFERENCE = Path(__file__).resolve().parents[3].parent / "shared" / "reference" / "machi-koro-cards.json"


def test_thirty_two_kinds_of_card():
    cards = all_cards()
    assert len(cards) == 32
    assert len({c.code for c in cards}) == 32
    assert len(landmarks()) == 7
    assert len(establishments()) == 25


def test_base_game_has_108_cards():
    base = [c for c in all_cards() if c.expansion == "base"]
    starting_establishments = sum(c.starting for c in base if c.kind == "establishment") * 4
    landmark_cards = sum(c.copies for c in base if c.kind == "landmark")
    supply = sum(c.copies for c in base if c.kind == "establishment")
    assert (starting_establishments, landmark_cards) == (8, 16)  # 24 starting cards for 4 players
    assert supply == 84
    by_colour = {}
    for c in base:
        if c.kind == "establishment":
            by_colour.setdefault(c.color, []).append(c.copies)
    assert by_colour == {"blue": [6] * 5, "green": [6] * 5, "red": [6] * 2, "purple": [4] * 3}


def test_harbor_adds_68_cards():
    harbor = [c for c in all_cards() if c.expansion == "harbor"]
    assert sum(c.copies for c in harbor if c.kind == "landmark") == 12
    assert sum(c.copies for c in harbor if c.kind == "establishment") == 56


def test_landmark_costs():
    assert {c.code: c.cost for c in landmarks()} == {
        "station": 4,
        "mall": 10,
        "park": 16,
        "radio": 22,
        "cityhall": 0,
        "harbor": 2,
        "airport": 30,
    }


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared reference not beside the checkout")
def test_every_card_matches_the_reference():
    reference = {c["id"]: c for c in json.loads(REFERENCE.read_text(encoding="utf-8"))}
    ours = {c.id: c for c in all_cards()}
    assert set(reference) == set(ours)
    for card_id, ref in reference.items():
        card = ours[card_id]
        assert (card.cost, card.copies, list(card.rolls), card.color, card.icon) == (
            ref["cost"],
            ref["copies"],
            ref["activation"],
            ref["color"],
            ref["icon"],
        ), card_id
