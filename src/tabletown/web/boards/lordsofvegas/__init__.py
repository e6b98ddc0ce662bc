"""Words and printed facts for the Lords of Vegas board, taken from the game's own data and renderer:
every lot's block, grid place, printed die and price, Strip frontage and neighbours; the score track;
the colour ids; the street names the terminal board shows; the notation's promise kinds.

In another language (``words("pl")``) the ids stay as they are (the board script keys its colours and
promises by them); the street names are the glossary's, and ``names`` maps every term of the game's
glossary (colours, the Strip, Game End, the actions, lots, tiles...) to its printed name there."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def words(lang: str = "en") -> dict[str, Any]:
    from tabletown.core.i18n import glossary_term, language
    from tabletown.games.lordsofvegas import data, render
    from tabletown.games.lordsofvegas.actions import BAN_KINDS

    lang = language(lang)
    lots = [
        {
            "id": data.LOT_NAMES[i],
            "block": data.BLOCK[i],
            "row": data.GRID[i][0],
            "col": data.GRID[i][1],
            "die": data.DIE[i],
            "cost": data.COST[i],
            "strip": data.ON_STRIP[i],
            "neighbors": [data.LOT_NAMES[n] for n in data.NEIGHBORS[i]],
            "pays": data.PAY_NAMES[data.CARD_PAYS[i]],
        }
        for i in range(data.NUM_LOTS)
    ]
    terms = render.glossary()

    def street(name: str) -> str:
        return glossary_term(terms, render.STREET_IDS[name], lang) if name and lang != "en" else name

    streets = {str(row): [street(name) for name in names] for row, names in render.STREETS.items()}
    out: dict[str, Any] = {
        "lots": lots,
        "colors": list(data.COLORS),
        "score_track": list(data.SCORE_TRACK),
        "instant_win": data.INSTANT_WIN,
        "tiles_per_color": data.TILES_PER_COLOR,
        "dice_per_player": data.DICE_PER_PLAYER,
        "markers_per_player": data.MARKERS_PER_PLAYER,
        "excluded_2p_block": data.EXCLUDED_2P_BLOCK.lower(),
        "streets": streets,
        "promises": list(BAN_KINDS),
    }
    if lang != "en":
        out["names"] = {key: glossary_term(terms, key, lang) for key in terms}
    return out
