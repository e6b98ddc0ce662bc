"""Card data for Machi Koro and Harbor, loaded once from ``cards.json``.

Rules code never names card numbers; it reads them from here, so a different printing is a data change.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

# Landmark order is fixed: it is the bit order of a city's landmark mask.
LANDMARK_CODES = ("station", "mall", "park", "radio", "cityhall", "harbor", "airport")
# The bit of each landmark in a landmark mask (the rules test these).
STATION, MALL, PARK, RADIO, CITYHALL, HARBOR_LM, AIRPORT = (1 << i for i in range(7))
BASE_VICTORY = ("station", "mall", "park", "radio")
HARBOR_VICTORY = BASE_VICTORY + ("harbor", "airport")
COLOR_ORDER = ("blue", "green", "red", "purple")


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    code: str  # short name used in notation, e.g. "cafe"
    name: str
    name_pl: str | None
    expansion: str  # "base" or "harbor"
    kind: str  # "establishment" or "landmark"
    color: str
    icon: str
    rolls: tuple[int, ...]
    cost: int
    copies: int
    starting: int
    effect: dict[str, Any] = field(default_factory=dict)
    ability: str | None = None

    @property
    def is_purple(self) -> bool:
        return self.color == "purple"


@cache
def all_cards() -> tuple[Card, ...]:
    raw = json.loads(resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8"))
    cards = []
    for entry in raw["cards"]:
        cards.append(
            Card(
                id=entry["id"],
                code=sys.intern(entry["code"]),  # one string object per id: see game.state_from_json
                name=entry["name"],
                name_pl=entry.get("name_pl"),
                expansion=entry["expansion"],
                kind=entry["kind"],
                color=entry["color"],
                icon=entry["icon"],
                rolls=tuple(entry["rolls"]),
                cost=entry["cost"],
                copies=entry["copies"],
                starting=entry["starting"],
                effect=dict(entry.get("effect") or {}),
                ability=entry.get("ability"),
            )
        )
    return tuple(cards)


@cache
def establishments() -> tuple[Card, ...]:
    """Every establishment kind (base and Harbor), in a fixed order: index = position in a city's counts."""
    return tuple(c for c in all_cards() if c.kind == "establishment")


@cache
def landmarks() -> tuple[Card, ...]:
    by_code = {c.code: c for c in all_cards() if c.kind == "landmark"}
    return tuple(by_code[code] for code in LANDMARK_CODES)


def establishment_index(code: str) -> int:
    for index, card in enumerate(establishments()):
        if card.code == code:
            return index
    raise KeyError(code)


def landmark_bit(code: str) -> int:
    return 1 << LANDMARK_CODES.index(code)
