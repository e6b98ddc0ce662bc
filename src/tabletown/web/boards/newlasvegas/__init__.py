"""Words and printed facts for the Welcome To New Las Vegas board, taken from the game's own data and
renderer: every casino slot of the city plan (street, avenue, crane, star, red carpet, golf holes),
the limousine's lamp graph, the score sheet's tracks and columns, the project conditions, the ACME
architect cards, and the names the terminal uses for effects, bonuses and end reasons — in English or, with
``lang``, in Polish, German or Russian (the glossary's printed names, the renderer's catalog)."""

from __future__ import annotations

from functools import cache
from typing import Any


def words(lang: str = "en") -> dict[str, Any]:
    """The board's words in ``lang`` (cached per language; English is the game's own data)."""
    from tabletown.core.i18n import language

    return _words(language(lang))


@cache
def _words(lang: str) -> dict[str, Any]:
    from tabletown.games.newlasvegas import data
    from tabletown.games.newlasvegas import words as game_words
    from tabletown.games.newlasvegas.sheet import MIN_LOOP

    slots = [
        {
            "id": data.SLOT_NAME[s],
            "street": data.SLOT_STREET[s] + 1,
            "avenue": data.SLOT_AVENUE[s],
            "crane": data.SLOT_CRANE[s],
            "star": data.SLOT_STAR[s],
            "carpet": data.SLOT_CARPET[s],
            "holes": list(data.SLOT_HOLES[s]),
        }
        for s in range(data.NUM_SLOTS)
    ]
    edges = [
        {
            "u": u,
            "v": v,
            "passes": [data.SLOT_NAME[s] for s in range(data.NUM_SLOTS) if data.EDGE_PASSES[e] >> s & 1],
        }
        for e, (u, v) in enumerate(data.EDGES)
    ]
    sheet = data.SHEET
    sp = game_words.speaker(lang)
    return {
        "slots": slots,
        "streets": [list(r) for r in data.STREET_RANGE],
        "avenues": data.NUM_AVENUES,
        "lamp_columns": list(data.LAMP_COLUMNS),
        "lamp_names": list(data.LAMP_NAME),
        "start_lamp": data.START_LAMP,
        "edges": edges,
        "min_loop": MIN_LOOP,
        "track_length": data.TRACK_LENGTH,
        "track_start": data.TRACK_START,
        "groups": [list(g) for g in sheet["opening"]["groups"]],
        "open_places": [list(p) for p in data.OPEN_PLACES],
        "show_values": [list(v) for v in data.SHOW_VALUES],
        "show_loans": [list(v) for v in data.SHOW_LOANS],
        "upgrades": [
            {"id": u, "values": list(data.UPGRADE_VALUES.get(u, ())), "boxes": data.UPGRADE_BOXES[i]}
            for i, u in enumerate(data.UPGRADE_IDS)
        ],
        "golf_upgrades": ["par3", "par4", "par5"],
        "vault": dict(sheet["vault"]),
        "bank": dict(data.BANK),
        "effects": {e: game_words.effect_name(e, lang) for e in data.EFFECT_NAMES},
        "bonuses": {b: game_words.bonus_name(b, lang) for b in game_words.BONUS_WORDS},
        "projects": {
            p["id"]: {
                "deck": p["deck"],
                "condition": game_words.project_condition(p["id"], lang),
                "first": p["points_first"],
                "later": p["points_later"],
            }
            for p in data.PROJECTS
        },
        "architects": {
            str(number): {
                "approvals": card["approvals"],
                "base": card["base"],
                "upgraded": card["upgraded"],
                "thresholds": card["thresholds"],
                "crane": card["crane"],
            }
            for number, card in data.ARCHITECTS.items()
        },
        "architect_columns": list(data.CARDS["architect_columns"]),
        "end_reasons": {k: sp.tr(v) for k, v in game_words.END_REASONS.items()},
        "notation_help": sp.tr(game_words.SUMMARY),
    }
