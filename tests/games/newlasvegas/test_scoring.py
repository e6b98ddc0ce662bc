"""End scoring: the rulebook's 2-player example (92 points) and single columns."""

from __future__ import annotations

from tabletown.games.newlasvegas.data import SLOT_BY_NAME, UPGRADE_INDEX
from tabletown.games.newlasvegas.scoring import opening_places, score_multiplayer
from tabletown.games.newlasvegas.sheet import GRAND, SMALL, Sheet

from .helpers import new


def put(sh: Sheet, name: str, value: int) -> None:
    sh.open_slot(SLOT_BY_NAME[name], value)


def build(sh: Sheet, name: str) -> None:
    sh.built |= 1 << SLOT_BY_NAME[name]


def drive(sh: Sheet, *directions: str) -> None:
    for d in directions:
        move = next(m for m in sh.limo_moves() if m[0] == d)
        sh.drive(move[1], move[2])


def benoit() -> Sheet:
    """The rulebook example's player, laid out on our reconstructed sheets."""
    sh = Sheet(vault=1)
    # Street 1: 11 first (the course starts), then 13 (not next to it: holes right of 11 are lost),
    # then 12 in the built crane casino, then the course grows left with 9, 7, 5.
    build(sh, "1.7")
    for name, v in (("1.6", 11), ("1.8", 13), ("1.7", 12), ("1.5", 9), ("1.4", 7), ("1.3", 5)):
        put(sh, name, v)
    for name, v in (("2.1", 1), ("2.2", 1), ("2.3", 2), ("2.5", 3), ("2.6", 4)):
        put(sh, name, v)
    build(sh, "2.9")  # built, never opened: its loan stays
    for name, v in (("3.1", 1), ("3.3", 5), ("3.4", 5), ("3.5", 7), ("3.7", 9), ("3.8", 11), ("3.9", 15)):
        put(sh, name, v)
    for name, v in (("4.2", 0), ("4.3", 4), ("4.4", 6), ("4.6", 8)):
        put(sh, name, v)
    sh.marks, sh.spent, sh.exp = 12, 0b11, 0b11  # two expansion bonuses: two loans circled
    sh.shows = [6, 3]
    sh.ups[UPGRADE_INDEX["open"]] = 1
    sh.ups[UPGRADE_INDEX["street"]] = 1
    sh.hotels = [GRAND, GRAND, GRAND, SMALL, SMALL, SMALL, SMALL, 0, 0, 0, 0]
    sh.proj = [6, 0, 12]
    drive(sh, "e", "e", "n", "w", "n", "w")  # VIP 4.3, Mafia 3.5, Luxury 2.2; 2 segments from the start
    return sh


def opponent() -> Sheet:
    sh = Sheet(vault=1)
    # Longer chains than Benoit's in streets 1, 2 and 4, a shorter one in street 3.
    for name, v in (
        ("1.2", 2),
        ("1.3", 4),
        ("1.4", 6),
        ("1.5", 8),
        ("1.6", 10),
        ("2.1", 1),
        ("2.2", 3),
        ("2.3", 5),
        ("3.1", 1),
        ("4.2", 2),
        ("4.3", 4),
        ("4.4", 6),
        ("4.6", 8),
        ("4.7", 10),
    ):
        put(sh, name, v)
    sh.marks = 10
    return sh


def test_rulebook_example_scores_92():
    a, b = benoit(), opponent()
    scores = score_multiplayer([a, b], [True, False], golf=True, bank_rule=True)
    mine = scores[0]
    assert mine["columns"] == {
        "projects": 18,
        "opening": 8,
        "shows": 28 + 9,
        "hotels": 9 + 4,
        "streets": 17 + 8,
        "golf": 3 + 4 + 10,
        "limousine": 3 + 3 - 12,
        "vault": -20,
    }
    assert mine["total"] == 92
    d = mine["detail"]
    assert d["runs"] == [4, 2, 7, 4] and d["street_bonus"] == [False, False, True, False]
    assert sorted(d["holes"]) == [3, 4, 5, 5] and d["segments_missing"] == 2
    assert d["mafia_bundles"] == 1 and d["bank_bundles"] == 2 and d["bundles"] == 4 and d["loans"] == 5


def test_example_through_the_state_and_result():
    state = new(2, 3)
    state.sheets = [benoit(), opponent()]
    state.public = list(state.sheets)
    state.loans = [True, False]
    state._finish("test")
    assert state.final["players"][0]["total"] == 92
    assert state.result().scores[0] == 92.0


def test_repaying_the_last_show_loan_and_the_crane_avoids_the_penalty():
    a, b = benoit(), opponent()
    a.shows = [6, 4]  # the extra show crosses the box beside the last loan
    put(a, "2.9", 14)  # opening the built casino repays its loan
    scores = score_multiplayer([a, b], [True, False], golf=True, bank_rule=True)
    assert scores[0]["detail"]["loans"] == 3
    assert scores[0]["columns"]["vault"] == 0


def test_bank_vote_thresholds():
    a, b = benoit(), opponent()
    assert score_multiplayer([a, b], [True, True], True, True)[0]["detail"]["bank_bundles"] == 4
    assert score_multiplayer([a, b], [False, False], True, True)[0]["detail"]["bank_bundles"] == 0
    assert score_multiplayer([a, b], [True, False], True, False)[0]["detail"]["bank_bundles"] == 0
    three = [Sheet(1), Sheet(1), Sheet(1)]
    assert score_multiplayer(three, [True, True, False], True, True)[0]["detail"]["bank_bundles"] == 4
    assert score_multiplayer(three, [True, False, False], True, True)[0]["detail"]["bank_bundles"] == 2


def test_opening_places_shared_ties_and_last_loan():
    assert opening_places([5, 5, 3, 1]) == [1, 1, 3, 4]
    sheets = [Sheet(1) for _ in range(4)]
    for sh, m in zip(sheets, (9, 9, 6, 4), strict=True):
        sh.marks = m
    scores = score_multiplayer(sheets, [False] * 4, True, False)
    assert [s["columns"]["opening"] for s in scores] == [10, 10, 2, 0]
    assert [s["detail"]["opening_last"] for s in scores] == [False, False, False, True]
    sheets[0].ups[UPGRADE_INDEX["open"]] = 1
    sheets[2].ups[UPGRADE_INDEX["open"]] = 1
    scores = score_multiplayer(sheets, [False] * 4, True, False)
    assert [s["columns"]["opening"] for s in scores] == [15, 10, 0, 0]


def test_nobody_is_last_on_openings_when_everyone_ties():
    sheets = [Sheet(1) for _ in range(3)]
    for sh in sheets:
        sh.marks = 7
    scores = score_multiplayer(sheets, [False] * 3, True, False)
    assert [s["detail"]["opening_last"] for s in scores] == [False] * 3
    assert len({s["columns"]["opening"] for s in scores}) == 1  # one shared first place
    sheets[2].marks = 6  # one box behind: that seat alone is last
    scores = score_multiplayer(sheets, [False] * 3, True, False)
    assert [s["detail"]["opening_last"] for s in scores] == [False, False, True]


def test_upgrades_raise_hotel_golf_and_limousine_values():
    a, b = benoit(), opponent()
    a.ups[UPGRADE_INDEX["grand"]] = 2
    a.ups[UPGRADE_INDEX["par5"]] = 1
    a.ups[UPGRADE_INDEX["limo"]] = 1
    a.ups[UPGRADE_INDEX["vip"]] = 1
    cols = score_multiplayer([a, b], [True, False], True, True)[0]["columns"]
    assert cols["hotels"] == 3 * 6 + 4
    assert cols["golf"] == 3 + 4 + 2 * 6
    assert cols["limousine"] == 4 + 3 - 2 * 4
    assert score_multiplayer([a, b], [True, False], False, True)[0]["columns"]["golf"] == 0


def test_unbuilt_cranes_do_not_break_runs_but_empty_built_casinos_do():
    sh = Sheet(1)
    for name, v in (("3.1", 1), ("3.3", 3)):
        put(sh, name, v)
    assert sh.longest_run(2) == 2  # 3.2 is an unbuilt crane
    build(sh, "3.2")
    assert sh.longest_run(2) == 1  # built but not opened: the chain breaks
