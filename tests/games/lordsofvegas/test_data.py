"""The static data matches the reference: lots, costs, dice, start money, cards, tiles, score track."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tabletown.games.lordsofvegas import data

REFERENCE = Path(__file__).parents[4] / "shared" / "reference" / "lords-of-vegas-board.json"


def test_lot_counts_and_blocks() -> None:
    assert data.NUM_LOTS == 48
    assert Counter(data.BLOCK) == {"A": 6, "B": 6, "C": 12, "D": 9, "E": 6, "F": 9}
    assert sum(data.ON_STRIP) == 16
    assert data.NUM_CARDS == 49


def test_cost_and_start_money_follow_the_printed_die() -> None:
    price = {1: 8, 2: 6, 3: 9, 4: 12, 5: 15, 6: 20}
    for i in range(data.NUM_LOTS):
        assert data.COST[i] == price[data.DIE[i]]
        assert data.START_MONEY[i] == 10 - data.DIE[i]


def test_cards_per_colour() -> None:
    pays = Counter(data.PAY_NAMES[c] for c in data.CARD_PAYS)
    assert pays == {"green": 9, "brown": 9, "gold": 9, "purple": 9, "silver": 9, "strip": 4}
    strip_lots = sorted(data.LOT_NAMES[i] for i in range(data.NUM_LOTS) if data.CARD_PAYS[i] == data.STRIP)
    assert strip_lots == ["a6", "d5", "f8"]
    assert data.CARD_PAYS[data.GAME_END] == data.STRIP


def test_components() -> None:
    assert len(data.COLORS) == 5 and data.TILES_PER_COLOR == 9
    assert data.DICE_PER_PLAYER == 12 and data.MARKERS_PER_PLAYER == 10
    assert data.SCORE_TRACK == (
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        10,
        12,
        14,
        16,
        18,
        20,
        23,
        26,
        29,
        32,
        36,
        40,
        44,
        49,
        54,
        60,
        66,
        73,
        81,
        90,
    )


def test_neighbours_symmetric_and_within_block() -> None:
    for i, nbs in enumerate(data.NEIGHBORS):
        for nb in nbs:
            assert i in data.NEIGHBORS[nb]
            assert data.BLOCK[nb] == data.BLOCK[i]


def test_matches_reference_file() -> None:
    if not REFERENCE.exists():  # the reference lives beside the checkout, not in a clean clone
        pytest.skip("reference file not available")
    ref = json.loads(REFERENCE.read_text())
    for mine, theirs in zip(data.LOTS, ref["lots"], strict=True):
        for key in ("id", "cost", "die", "start_money", "touches_strip", "neighbors", "card_color"):
            assert mine[key] == theirs[key], (mine["id"], key)
    assert list(data.SCORE_TRACK) == ref["score_track"]["spaces"]


def test_score_breaks_in_the_data_match_the_track() -> None:
    breaks = data._RAW["score_breaks"]
    assert len(breaks) == 20
    for b in breaks:
        assert data.NEXT_STEP[b["from"]] == (b["to"], b["points"])
        assert b["points"] >= 2
    # Below 8 every square costs one point.
    assert all(data.NEXT_STEP[s] == (s + 1, 1) for s in range(8))


def test_score_track_breaks() -> None:
    # From 8: 1 point stays, 2-3 reach 10, 4-5 reach 12 (the rulebook example).
    assert [data.advance_score(8, k) for k in range(1, 6)] == [8, 10, 10, 12, 12]
    assert data.advance_score(0, 3) == 3
    assert data.advance_score(81, 8) == 81 and data.advance_score(81, 9) == 90
    assert data.advance_score(90, 20) == 90
