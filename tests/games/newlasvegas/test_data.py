"""The static data against the reference: cards, projects, architects and the reconstructed sheets."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tabletown.games.newlasvegas import data

REF = (
    json.loads(Path("/work/shared/reference/new-las-vegas-known.json").read_text())
    if Path("/work/shared/reference/new-las-vegas-known.json").exists()
    else None
)

NUMBER_COUNTS = {
    1: 3,
    2: 3,
    3: 4,
    4: 5,
    5: 6,
    6: 7,
    7: 8,
    8: 9,
    9: 8,
    10: 7,
    11: 6,
    12: 5,
    13: 4,
    14: 3,
    15: 3,
}


def test_casino_cards_numbers_and_effects():
    assert data.NUM_CARDS == 81
    assert Counter(data.CARD_NUMBER) == NUMBER_COUNTS
    assert Counter(data.CARD_EFFECT) == {"op": 16, "con": 16, "limo": 16, "show": 16, "up": 17}


def test_card_ruling_changes_only_the_second_seven_opening():
    if REF is None:
        return
    fan = REF["casino_cards_fan_list"]
    diffs = [
        i for i, (n, e) in enumerate(fan) if data.CARD_NUMBER[i] != n or data.CARDS["casino_cards"][i][1] != e
    ]
    assert len(diffs) == 1
    assert fan[diffs[0]] == [7, "inauguration"] and data.CARD_EFFECT[diffs[0]] == "up"


def test_projects_and_solo_cards():
    assert len(data.PROJECTS) == 21
    assert Counter(p["deck"] for p in data.PROJECTS) == {"pink": 7, "purple": 7, "yellow": 7}
    assert all(p["points_first"] > p["points_later"] > 0 for p in data.PROJECTS)
    if REF is not None:
        assert REF["project_cards"] == data.PROJECTS
    assert len(data.APPROVAL_COLOURS) == 3
    assert len(data.ARCHITECTS) == 5
    numbers = sorted(data.ARCHITECTS)
    # Rising difficulty: ACME's base values never fall from one card to the next.
    for low, high in zip(numbers, numbers[1:], strict=False):
        assert sum(data.ARCHITECTS[high]["base"]) > sum(data.ARCHITECTS[low]["base"])
    if REF is not None:
        ex = REF["solo_rulebook_example_architect_card"]
        card = data.ARCHITECTS[1]
        assert card["base"] == ex["value_row_1"] and card["upgraded"] == ex["value_row_2"]
        assert card["thresholds"] == ex["thresholds"] and card["crane"] == ex["crane"]
        assert [r["hotels"] for r in card["approvals"]] == [
            ex["approvals"][k]["hotels"] for k in ("1st", "2nd", "3rd")
        ]
        assert [r["project"] for r in card["approvals"]] == [
            ex["approvals"][k]["project"] for k in ("1st", "2nd", "3rd")
        ]


def test_city_plan_constraints():
    assert data.NUM_STREETS == 4 and data.NUM_AVENUES == 11
    crane_avenues = {data.SLOT_AVENUE[s] for s in data.CRANE_SLOTS}
    assert {1, 11} <= crane_avenues
    a, b = data.STREET_RANGE[0]
    assert any(data.SLOT_STAR[s] for s in range(a, b))
    kinds = Counter(k for k in data.SLOT_CARPET if k)
    assert set(kinds) == {"vip", "mafia", "luxury"}
    for a, b in data.STREET_RANGE:
        assert any(data.SLOT_CARPET[s] for s in range(a, b))
    assert data.PAR_COUNT[4] > 1
    assert max(b - a for a, b in data.STREET_RANGE) >= 7
    assert all(slots for slots in data.AVENUE_SLOTS)  # every avenue has a hotel to win
    assert data.LAMP_NAME[data.START_LAMP] == "4:0"


def test_score_sheet_shape():
    assert data.TRACK_START == 3 and data.GROUP_END[-1] < data.TRACK_LENGTH
    assert len(data.SHOW_VALUES) == 2 and all(len(x) == 2 for x in data.SHOW_LOANS)
    assert data.OPEN_PLACES == ((10, 5, 2), (15, 8, 0))
    assert data.VAULT_PENALTY == -20
