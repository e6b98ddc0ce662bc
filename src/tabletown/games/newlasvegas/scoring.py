"""End-of-game scoring: every column of the score sheet, for all players and for ACME (solo)."""

from __future__ import annotations

from typing import Any

from .data import (
    ARCHITECTS,
    BANK,
    NUM_STREETS,
    OPEN_PLACES,
    UPGRADE_INDEX,
    UPGRADE_VALUES,
    VAULT_PENALTY,
    VAULT_SLOTS,
)
from .sheet import Sheet

COLUMNS = ("projects", "opening", "shows", "hotels", "streets", "golf", "limousine", "vault")


def upgraded(sh: Sheet, column: str) -> int:
    """The smallest visible value of an upgradable column."""
    return UPGRADE_VALUES[column][sh.ups[UPGRADE_INDEX[column]]]


def bank_bundles(loans: list[bool]) -> int:
    takers = sum(loans)
    if takers * 2 > len(loans):
        return BANK["majority"]
    return BANK["minority"] if takers else BANK["none"]


def opening_places(counts: list[int]) -> list[int]:
    """Competition ranking by unused marked boxes (ties share a place)."""
    return [1 + sum(1 for other in counts if other > mine) for mine in counts]


def score_player(
    sh: Sheet,
    place: int,
    last: bool,
    bonus_streets: list[bool],
    bank: int,
    golf: bool,
) -> dict[str, Any]:
    """Columns for one player, given the cross-player facts (opening place, street bonuses, bank)."""
    cols: dict[str, int] = {}
    cols["projects"] = sum(sh.proj)
    places = OPEN_PLACES[min(sh.ups[UPGRADE_INDEX["open"]], len(OPEN_PLACES) - 1)]
    cols["opening"] = places[place - 1] if place <= len(places) else 0
    cols["shows"] = sum(sh.show_points())
    grands, smalls = sh.hotel_counts()
    cols["hotels"] = grands * upgraded(sh, "grand") + smalls * upgraded(sh, "small")
    runs = [sh.longest_run(st) for st in range(NUM_STREETS)]
    cols["streets"] = sum(runs) + sum(bonus_streets) * upgraded(sh, "street")
    holes = sh.holes() if golf else []
    cols["golf"] = sum(holes.count(p) * upgraded(sh, f"par{p}") for p in (3, 4, 5))
    missing = sh.segments_missing()
    cols["limousine"] = (
        sh.opened_carpets("vip") * upgraded(sh, "vip")
        + sh.opened_carpets("luxury") * upgraded(sh, "luxury")
        + missing * upgraded(sh, "limo")
    )
    mafia = sh.opened_carpets("mafia")
    bundles = min(VAULT_SLOTS, sh.vault + mafia + bank)
    loans = sh.open_loans() + (1 if last else 0)
    cols["vault"] = 0 if bundles >= loans else VAULT_PENALTY
    total = sum(cols.values())
    return {
        "columns": cols,
        "total": total,
        "detail": {
            "opening_place": place,
            "opening_last": last,
            "runs": runs,
            "street_bonus": bonus_streets,
            "holes": holes,
            "segments_missing": missing,
            "mafia_bundles": mafia,
            "bank_bundles": bank,
            "bundles": bundles,
            "loans": loans,
        },
    }


def score_multiplayer(
    sheets: list[Sheet], loans: list[bool | None], golf: bool, bank_rule: bool
) -> list[dict[str, Any]]:
    counts = [sh.unused_marks() for sh in sheets]
    places = opening_places(counts)
    lowest = min(counts)
    everyone_tied = len(set(counts)) == 1
    runs = [[sh.longest_run(st) for st in range(NUM_STREETS)] for sh in sheets]
    best = [max(r[st] for r in runs) for st in range(NUM_STREETS)]
    bank = bank_bundles([bool(x) for x in loans]) if bank_rule else 0
    out = []
    for p, sh in enumerate(sheets):
        bonus = [runs[p][st] == best[st] and best[st] > 0 for st in range(NUM_STREETS)]
        last = counts[p] == lowest and not everyone_tied
        out.append(score_player(sh, places[p], last, bonus, bank, golf))
    return out


def acme_columns(architect: int, pile_effects: list[str]) -> tuple[list[int], int]:
    """ACME's per-column values (base or upgraded by its upgrade cards) and its street run length."""
    card = ARCHITECTS[architect]
    ups = pile_effects.count("up")
    values = [card["upgraded"][i] if ups >= card["thresholds"][i] else card["base"][i] for i in range(6)]
    run = max(1, pile_effects.count("con") + card["crane"])
    return values, run


def acme_golf_holes(pile_effects: list[str]) -> int:
    """One hole per card whose effect repeats the effect of the card before it."""
    return sum(1 for a, b in zip(pile_effects, pile_effects[1:], strict=False) if a == b)


def score_solo(
    sh: Sheet,
    loan: bool,
    architect: int,
    pile_effects: list[str],
    acme_hotels: int,
    acme_proj: list[int],
    loan_card_number: int,
    golf: bool,
    bank_rule: bool,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The player's sheet and ACME's columns at the end of a solo game."""
    values, run = acme_columns(architect, pile_effects)
    acme_open = pile_effects.count("op")
    mine = sh.unused_marks()
    place = 1 if mine >= acme_open else 2
    runs = [sh.longest_run(st) for st in range(NUM_STREETS)]
    bonus = [r >= run and r > 0 for r in runs]
    acme_loan = loan_card_number >= ARCHITECTS[architect]["number"]
    bank = bank_bundles([loan, acme_loan]) if bank_rule else 0
    player = score_player(sh, place, place == 2, bonus, bank, golf)
    acme: dict[str, int] = {
        "projects": sum(acme_proj),
        "opening": acme_open * values[0],
        "shows": pile_effects.count("show") * values[1],
        "hotels": acme_hotels * values[2],
        "streets": NUM_STREETS * run + sum(1 for r in runs if run >= r) * values[3],
        "golf": acme_golf_holes(pile_effects) * values[4] if golf else 0,
        "limousine": pile_effects.count("limo") * values[5],
        "vault": -loan_card_number if bank_rule and not loan and not acme_loan else 0,
    }
    return player, {
        "columns": acme,
        "total": sum(acme.values()),
        "loan": acme_loan,
        "values": values,
        "run": run,
    }


def score_now(sheets: list[Sheet], golf: bool, solo: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every sheet's columns if the game ended now, from what everyone may see.

    The bank loans stay secret until the end, so no bank bundles are counted (nor ACME's loan card,
    which lies face down): the running score the browser and the terminal show. ``solo`` holds
    ACME's public facts (``architect``, ``pile`` of effects, ``hotels`` count, ``projects``)."""
    if solo is None:
        return {"players": score_multiplayer(sheets, [False] * len(sheets), golf, False)}
    player, acme = score_solo(
        sheets[0],
        False,
        solo["architect"],
        solo["pile"],
        solo["hotels"],
        solo["projects"],
        0,
        golf,
        False,
    )
    del acme["loan"]  # unknown until the end: the card under the sheet lies face down
    acme["holes"] = acme_golf_holes(solo["pile"]) if golf else 0
    return {"players": [player], "acme": acme}
