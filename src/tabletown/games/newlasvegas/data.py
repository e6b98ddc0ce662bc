"""Static tables of Welcome To New Las Vegas, built once from the JSON files beside it.

The city plan and score sheet are RECONSTRUCTIONS (the printed sheets are not public); see
``city.json`` and ``sheet.json`` (next to this module) and docs/games/newlasvegas.md.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


CITY = _load("city.json")
SHEET = _load("sheet.json")
CARDS = _load("cards.json")
PROJECTS = _load("projects.json")["projects"]
# Ids are interned: the rules compare and hash them on hot paths.
for _p in PROJECTS:
    _p["id"], _p["deck"] = sys.intern(_p["id"]), sys.intern(_p["deck"])

# Effect codes used everywhere in the rules (short, also the notation).
EFFECTS = ("op", "con", "up", "show", "limo")
EFFECT_NAMES = {"op": "opening", "con": "construction", "up": "upgrade", "show": "show", "limo": "limousine"}
_CARD_EFFECT = {
    "inauguration": "op",
    "construction": "con",
    "improvement": "up",
    "show": "show",
    "limousine": "limo",
}

# --- casino cards -------------------------------------------------------------------------------
CARD_NUMBER: tuple[int, ...] = tuple(n for n, _ in CARDS["casino_cards"])
CARD_EFFECT: tuple[str, ...] = tuple(_CARD_EFFECT[e] for _, e in CARDS["casino_cards"])
NUM_CARDS = len(CARD_NUMBER)
APPROVAL_COLOURS: tuple[str, ...] = tuple(sys.intern(c) for c in CARDS["approval_cards"])
# Approval cards get ids after the casino cards in the solo deck.
APPROVAL_BASE = NUM_CARDS
ARCHITECTS: dict[int, dict[str, Any]] = {c["number"]: c for c in CARDS["architect_cards"]}

# --- city plan: slots numbered street by street, left to right -----------------------------------
NUM_STREETS = len(CITY["streets"])
NUM_AVENUES: int = CITY["avenues"]
SLOT_STREET: list[int] = []  # 0-based street
SLOT_AVENUE: list[int] = []  # 1-based avenue
SLOT_CRANE: list[bool] = []
SLOT_STAR: list[bool] = []
SLOT_CARPET: list[str | None] = []
SLOT_HOLES: list[tuple[int, ...]] = []
STREET_RANGE: list[tuple[int, int]] = []
for _row in CITY["streets"]:
    _start = len(SLOT_STREET)
    for _cell in _row["casinos"]:
        SLOT_STREET.append(_row["street"] - 1)
        SLOT_AVENUE.append(_cell["avenue"])
        SLOT_CRANE.append(bool(_cell.get("crane")))
        SLOT_STAR.append(bool(_cell.get("star")))
        SLOT_CARPET.append(_cell.get("carpet"))
        SLOT_HOLES.append(tuple(_cell.get("holes", ())))
    STREET_RANGE.append((_start, len(SLOT_STREET)))
NUM_SLOTS = len(SLOT_STREET)
CRANE_SLOTS = tuple(s for s in range(NUM_SLOTS) if SLOT_CRANE[s])
STAR_SLOTS = tuple(s for s in range(NUM_SLOTS) if SLOT_STAR[s])
CRANE_MASK = sum(1 << s for s in CRANE_SLOTS)
# Slots of each avenue (index avenue-1), for hotels.
AVENUE_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(NUM_SLOTS) if SLOT_AVENUE[s] == a) for a in range(1, NUM_AVENUES + 1)
)
SLOT_NAME = tuple(sys.intern(f"{SLOT_STREET[s] + 1}.{SLOT_AVENUE[s]}") for s in range(NUM_SLOTS))
SLOT_BY_NAME = {name: s for s, name in enumerate(SLOT_NAME)}
GOLF_RANGE = STREET_RANGE[0]
PAR_COUNT = {p: sum(SLOT_HOLES[s].count(p) for s in range(NUM_SLOTS)) for p in (3, 4, 5)}
STREET_STARS = tuple(sum(1 << s for s in range(a, b) if SLOT_STAR[s]) for a, b in STREET_RANGE)
STREET_CRANES = tuple(sum(1 << s for s in range(a, b) if SLOT_CRANE[s]) for a, b in STREET_RANGE)

# --- limousine lamp graph -----------------------------------------------------------------------
LAMP_COLUMNS: tuple[int, ...] = tuple(CITY["limousine"]["lamp_columns"])
_NC = len(LAMP_COLUMNS)
NUM_LAMPS = NUM_STREETS * _NC


def lamp_id(street: int, col_index: int) -> int:
    return street * _NC + col_index


LAMP_NAME = tuple(f"{lamp // _NC + 1}:{LAMP_COLUMNS[lamp % _NC]}" for lamp in range(NUM_LAMPS))
START_LAMP = lamp_id(
    CITY["limousine"]["start"]["street"] - 1, LAMP_COLUMNS.index(CITY["limousine"]["start"]["column"])
)
EDGES: list[tuple[int, int]] = []
EDGE_PASSES: list[int] = []  # bitmask of slots whose casinos the segment drives past
for _st in range(NUM_STREETS):
    for _ci in range(_NC - 1):
        EDGES.append((lamp_id(_st, _ci), lamp_id(_st, _ci + 1)))
        _lo, _hi = LAMP_COLUMNS[_ci], LAMP_COLUMNS[_ci + 1]
        _a, _b = STREET_RANGE[_st]
        EDGE_PASSES.append(sum(1 << s for s in range(_a, _b) if _lo < SLOT_AVENUE[s] <= _hi))
for _st in range(NUM_STREETS - 1):
    for _ci in range(_NC):
        EDGES.append((lamp_id(_st, _ci), lamp_id(_st + 1, _ci)))
        EDGE_PASSES.append(0)
# For each lamp: (direction letter, edge index, neighbour lamp).
LAMP_LINKS: list[list[tuple[str, int, int]]] = [[] for _ in range(NUM_LAMPS)]
for _e, (_u, _v) in enumerate(EDGES):
    if _u // _NC == _v // _NC:  # horizontal: v is east of u
        LAMP_LINKS[_u].append(("e", _e, _v))
        LAMP_LINKS[_v].append(("w", _e, _u))
    else:  # vertical: v is south of u (streets are numbered from the top)
        LAMP_LINKS[_u].append(("s", _e, _v))
        LAMP_LINKS[_v].append(("n", _e, _u))
CARPET_MASK = {
    kind: sum(1 << s for s in range(NUM_SLOTS) if SLOT_CARPET[s] == kind)
    for kind in ("vip", "mafia", "luxury")
}
ALL_CARPETS = CARPET_MASK["vip"] | CARPET_MASK["mafia"] | CARPET_MASK["luxury"]
STREET_CARPETS = tuple(sum(1 << s for s in range(a, b) if SLOT_CARPET[s]) for a, b in STREET_RANGE)

# --- score sheet ----------------------------------------------------------------------------------
_OPEN = SHEET["opening"]
TRACK_LENGTH: int = _OPEN["length"]
TRACK_START: int = _OPEN["start_marked"]
# Group g needs this many marked boxes before it can be spent, and holds this many boxes.
GROUP_END: tuple[int, ...] = tuple(b for _, b in _OPEN["groups"])
GROUP_SIZE: tuple[int, ...] = tuple(b - a + 1 for a, b in _OPEN["groups"])
OPEN_PLACES: tuple[tuple[int, ...], ...] = tuple(tuple(p) for p in _OPEN["places"])
SHOW_VALUES: tuple[tuple[int, ...], ...] = tuple(tuple(c["values"]) for c in SHEET["shows"])
SHOW_LOANS: tuple[tuple[int, ...], ...] = tuple(tuple(c["loans_beside_box"]) for c in SHEET["shows"])
UPGRADE_IDS: tuple[str, ...] = tuple(sys.intern(u["id"]) for u in SHEET["upgrades"])
UPGRADE_VALUES: dict[str, tuple[int, ...]] = {
    u["id"]: tuple(u["values"]) for u in SHEET["upgrades"] if "values" in u
}
UPGRADE_BOXES: tuple[int, ...] = tuple(
    u["boxes"] if "boxes" in u else len(u["values"]) - 1 for u in SHEET["upgrades"]
)
UPGRADE_INDEX = {name: i for i, name in enumerate(UPGRADE_IDS)}
GOLF_UPGRADES = frozenset(UPGRADE_INDEX[n] for n in ("par3", "par4", "par5"))
VAULT_SLOTS: int = SHEET["vault"]["slots"]
VAULT_START: int = SHEET["vault"]["start"]
VAULT_START_FIRST_GAME: int = SHEET["vault"]["first_game_start"]
VAULT_PENALTY: int = SHEET["vault"]["penalty"]
BANK = SHEET["bank"]

# --- projects ---------------------------------------------------------------------------------------
PROJECT_BY_ID = {p["id"]: p for p in PROJECTS}
PROJECT_DECKS = ("pink", "purple", "yellow")
GOLF_PROJECTS = frozenset({"C6", "C7"})
