"""New Las Vegas in words: the names of effects, bonuses and projects, each step of a round and each
event as a sentence, the running scores and the prompt's status line, in any of the four languages.

Every text speaks through a :class:`core.i18n.Speaker` of the ``newlasvegas`` domain: the English
sentences are the message ids (English output is the text the terminal always printed), and the
printed names of effects, bonuses, hotels and upgrade columns come from ``glossary.json`` in other
languages. render.py draws the terminal's screen with these words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ...core.i18n import N_, Speaker, glossary_term
from ...core.words import Names
from .data import (
    EFFECT_NAMES,
    PROJECT_BY_ID,
)

DOMAIN = "newlasvegas"


@cache
def glossary() -> dict[str, dict[str, Any]]:
    """The printed names (``glossary.json``): ``{id: {"en", "pl", "de", "ru", "source"}}``."""
    text = resources.files(__package__).joinpath("glossary.json").read_text(encoding="utf-8")
    terms: dict[str, dict[str, Any]] = json.loads(text)["terms"]
    return terms


def speaker(lang: str = "en", names: Names | None = None) -> Speaker:
    """The game's words in ``lang`` for one reader."""
    return Speaker(domain=DOMAIN, lang=lang, names=names)


def term(key: str, lang: str, english: str) -> str:
    """A printed name: ``english`` (the game's own word) in English, the glossary's elsewhere."""
    if lang == "en" or key not in glossary():
        return english
    return glossary_term(glossary(), key, lang)


def effect_name(effect: Any, lang: str = "en") -> str:
    """An effect's name ("construction"; "budowa", "Neubau", "строительство")."""
    english = EFFECT_NAMES.get(effect, str(effect))
    return term(str(effect), lang, english) if effect in EFFECT_NAMES else english


def _seat_label(q: int, seat: Any, sp: Speaker) -> str:
    """ "seat 2", or "seat 2 (you)" for the viewer."""
    return sp.tr("seat {seat} (you)", seat=q) if q == seat else sp.tr("seat {seat}", seat=q)


def running_scores(
    view: Mapping[str, Any], lang: str = "en"
) -> tuple[list[tuple[str, Mapping[str, Any]]], bool]:
    """(label, score) rows — the final scores once the game is over, else the score each sheet in the
    view would make if the game ended now — and whether they are final. Loans stay secret until the
    end, so a running score counts no bank bundles (and ACME's vault waits for its loan card)."""
    sp = speaker(lang)
    state = view["state"]
    seat = view.get("seat")
    labels = [_seat_label(q, seat, sp) for q in range(len(state["players"]))]
    final = state.get("final")
    if final:
        rows = list(zip(labels, final["players"], strict=True))
        if "acme" in final:
            if final["acme"].get("loan"):
                label = sp.tr("ACME (loan card {card}: took the loan)", card=final["loan_card"])
            else:
                label = sp.tr("ACME (loan card {card}: refused the loan)", card=final["loan_card"])
            rows.append((label, final["acme"]))
        return rows, True
    # The running score comes with the view (draft.running_score), so the terminal shows the very
    # numbers the browser does.
    now = state["score_now"]
    rows = list(zip(labels, now["players"], strict=True))
    if "acme" in now:
        rows.append(("ACME", now["acme"]))
    return rows, False


def _phase(phase: str, sp: Speaker) -> str:
    """A phase id in words ("loan", "round", "reshuffle", "over")."""
    words = {
        "loan": sp.trp("phase", "loan"),
        "round": sp.trp("phase", "round"),
        "reshuffle": sp.trp("phase", "reshuffle"),
        "over": sp.trp("phase", "over"),
    }
    return words.get(phase, phase.replace("_", " "))


def numbers(values: Any, sp: Speaker, joiner: str = ", ") -> str:
    """A list of numbers as the screen writes it ("6, 7, 8"; "0/0/12" with ``joiner="/"``), or
    "none" when it is empty (never a Python list's brackets)."""
    return joiner.join(str(value) for value in values) if values else sp.tr("none")


def _face(top: str | None, sp: Speaker) -> str:
    if not top:
        return "-"
    if top.startswith("approval_"):
        colour = top[len("approval_") :]
        return sp.tr("approval {colour}", colour=colour_word(colour, sp))
    return effect_name(top, sp.lang) if top in EFFECT_NAMES and not sp.english else top


def colour_word(colour: str, sp: Speaker) -> str:
    """A project deck's colour (pink, purple, yellow) in the reader's language."""
    return term(colour, sp.lang, colour)


# The module's one-line summary (the browser board's words carry it as "notation_help").
SUMMARY = N_("Rich text rendering of a New Las Vegas view: city plans, score sheets, the round's cards.")
BONUS_WORDS = {"e": "easy opening", "f": "free action", "x": "expansion"}
_BONUS_TERM = {"e": "easy_opening", "f": "free_action", "x": "expansion"}


def bonus_name(bonus: str, lang: str = "en") -> str:
    """A bonus action's name (``e``, ``f``, ``x``) in ``lang``."""
    english = BONUS_WORDS.get(bonus, bonus)
    return term(_BONUS_TERM[bonus], lang, english) if bonus in _BONUS_TERM else english


UPGRADE_WORDS = {
    "open": "the opening ranks",
    "grand": "the grand hotels",
    "small": "the small hotels",
    "street": "the street bonus",
    "par3": "the PAR 3 holes",
    "par4": "the PAR 4 holes",
    "par5": "the PAR 5 holes",
    "vip": "the VIP casinos",
    "luxury": "the Luxury casinos",
    "limo": "the limousine",
}
DIRECTION_WORDS = {"n": "north", "s": "south", "e": "east", "w": "west"}

# The project cards' conditions as message ids: the very strings of projects.json (a test checks).
PROJECT_CONDITIONS = {
    "H1": N_("build 3 grand hotels"),
    "H2": N_("build 5 small hotels"),
    "H3": N_("build 7 hotels (grand and/or small)"),
    "H4": N_("build 2 grand hotels on adjacent avenues"),
    "H5": N_("build 4 hotels (any size) on adjacent avenues"),
    "H6": N_("build a hotel (any size) on avenue 1 and on avenue 11"),
    "H7": N_("have 10 marked, unused boxes on the opening track (may be spent afterwards)"),
    "S1": N_("chain of 6 even-numbered casinos in one street"),
    "S2": N_("chain of 7 odd-numbered casinos in one street"),
    "S3": N_("two chains of 4 odd-numbered casinos (same or different streets)"),
    "S4": N_(
        "chain of 5 even-numbered casinos at the start or the end of a street"
        " (a crane casino at the edge does not prevent it)"
    ),
    "S5": N_("all casinos of 2 streets opened (crane casinos ignored)"),
    "S6": N_(
        "limousine route passed at least one red-carpet casino of each type (Mafia, Luxury, VIP);"
        " casinos need not be open"
    ),
    "S7": N_("limousine route passed a red-carpet casino in each of the 4 streets; casinos need not be open"),
    "C1": N_("crane casinos of avenue 1 and avenue 11 built and opened"),
    "C2": N_("all crane casinos of 2 streets built and opened"),
    "C3": N_("all crane casinos of all 4 streets built (they need not be opened)"),
    "C4": N_("in one street: all crane casinos built and opened and all shows performed"),
    "C5": N_("top 3 boxes crossed in both show columns"),
    "C6": N_("all golf holes built and all shows of the 1st street performed"),
    "C7": N_("all PAR 4 holes built"),
}


def project_condition(pid: str, lang: str = "en") -> str:
    """A project card's condition in ``lang``: the message ids are projects.json's own words, but
    where the reference's words carry a note on how the sources differ (C3) the player reads our
    ruling, in English too."""
    if pid in PROJECT_CONDITIONS:
        return speaker(lang).tr(PROJECT_CONDITIONS[pid]) if lang != "en" else PROJECT_CONDITIONS[pid]
    return str(PROJECT_BY_ID[pid]["condition"]) if pid in PROJECT_BY_ID else str(pid)


def slot_words(slot: str, lang: str = "en") -> str:
    """A casino in the words of the sheet: "4.11" is "street 4, avenue 11" (the notation stays typed)."""
    street, _, avenue = str(slot).partition(".")
    return (
        speaker(lang).tr("street {street}, avenue {avenue}", street=street, avenue=avenue)
        if avenue
        else str(slot)
    )


def _direction(direction: str, sp: Speaker) -> str:
    words = {
        "n": sp.trp("direction", "north"),
        "s": sp.trp("direction", "south"),
        "e": sp.trp("direction", "east"),
        "w": sp.trp("direction", "west"),
    }
    return words.get(direction, direction)


def describe_step(step: Mapping[str, Any], plain: bool = False, lang: str = "en") -> str:
    """One step of a seat's round (``Turn.steps``, the ``round_played`` event) in words (``plain``:
    people's words, for the browser: no combination letters, casinos by street and avenue rather than
    the typed notation's "4.11")."""
    sp = speaker(lang)
    kind = step.get("step")

    def where(slot: str) -> str:
        return slot_words(slot, lang) if plain else str(slot)

    if kind == "pick":
        number, chosen = step["number"], effect_name(step["effect"], lang)
        if plain and step["number_card"] == step["effect_card"]:
            text = sp.tr("chose {number} with {effect}", number=number, effect=chosen)
        elif step["number_card"] == step["effect_card"]:
            text = sp.tr(
                "chose {letter} ({number}/{effect})",
                letter="abc"[step["number_card"]],
                number=number,
                effect=chosen,
            )
        else:
            text = sp.tr(
                "chose number {number} (card {number_card}), {effect} (card {effect_card})",
                number=number,
                number_card=step["number_card"] + 1,
                effect=chosen,
                effect_card=step["effect_card"] + 1,
            )
        if step.get("bonus"):
            text += "; " + sp.tr(
                "spent opening group {group} on {bonus}",
                group=step["group"],
                bonus=bonus_name(step["bonus"], lang),
            )
        return text
    if kind == "refuse":
        if step.get("card", -1) >= 0:
            return sp.tr(
                "could not write any number: marked 2 opening boxes (card {card} to ACME)",
                card=step["card"] + 1,
            )
        return sp.tr("could not write any number: marked 2 opening boxes")
    # The open, expand, up and show branches are alike on purpose (plain words or the notation's).
    if kind == "open":
        if plain:
            return sp.tr(
                "wrote {number} in the casino on {slot}", number=step["number"], slot=where(step["slot"])
            )
        return sp.tr("opened {slot} with {number}", slot=step["slot"], number=step["number"])
    if kind == "expand":
        if plain:
            return sp.tr(
                "copied {number} into the casino on {slot} (expansion)",
                number=step["number"],
                slot=where(step["slot"]),
            )
        return sp.tr("expanded into {slot} with {number}", slot=step["slot"], number=step["number"])
    if kind == "skip":
        return sp.tr("used no effect")
    effect = step.get("effect")
    if effect == "op":
        return sp.tr("marked an opening box")
    if effect == "con":
        if plain:
            return sp.tr("built the crane casino on {slot} (loan circled)", slot=where(step["slot"]))
        return sp.tr("built the crane casino {slot} (loan circled)", slot=step["slot"])
    if effect == "up":  # alike the open and expand branches above on purpose
        column = step["column"]
        if plain:
            english = UPGRADE_WORDS.get(column, column)
            return sp.tr("upgraded {column}", column=english if sp.english else term(column, lang, english))
        return sp.tr("upgraded {column}", column=column)
    if effect == "show":
        if plain:
            return sp.tr(
                "held a show on {slot} (show column {column})",
                slot=where(step["slot"]),
                column=step["column"],
            )
        return sp.tr("held a show at {slot} (column {column})", slot=step["slot"], column=step["column"])
    if effect == "limo":
        direction = _direction(step["direction"], sp) if plain else step["direction"]
        if step["complete"]:
            return sp.tr("drove the limousine {direction} back to the start", direction=direction)
        return sp.tr("drove the limousine {direction}", direction=direction)
    return str(dict(step))


END_REASONS = {
    "opening_track_full": N_("seat {seat} marked the last opening box"),
    "all_projects": N_("seat {seat} completed all three projects"),
    "all_casinos_opened": N_("seat {seat} opened every built casino"),
    "acme_all_projects": N_("ACME completed all three projects"),
    "cards_out": N_("the casino cards ran out"),
}
# The end of the game with a seat as the subject: (someone, you) — "{who}" is a name or "seat 2".
_GAME_OVER_BY = {
    "opening_track_full": (
        N_("game over: {who} marked the last opening box"),
        N_("game over: you marked the last opening box"),
    ),
    "all_projects": (
        N_("game over: {who} completed all three projects"),
        N_("game over: you completed all three projects"),
    ),
    "all_casinos_opened": (
        N_("game over: {who} opened every built casino"),
        N_("game over: you opened every built casino"),
    ),
}
_GAME_OVER = {
    "acme_all_projects": N_("game over: ACME completed all three projects"),
    "cards_out": N_("game over: the casino cards ran out"),
}
_APPROVAL_DRAWN = {
    "pink": N_("approval card (pink) drawn"),
    "purple": N_("approval card (purple) drawn"),
    "yellow": N_("approval card (yellow) drawn"),
}
_ACME_NO_PROJECT = {
    "pink": N_("ACME does not complete the pink project"),
    "purple": N_("ACME does not complete the purple project"),
    "yellow": N_("ACME does not complete the yellow project"),
}
_HOTEL = {
    "grand": (
        N_("{who} builds a grand hotel on avenue {avenue}"),
        N_("you build a grand hotel on avenue {avenue}"),
    ),
    "small": (
        N_("{who} builds a small hotel on avenue {avenue}"),
        N_("you build a small hotel on avenue {avenue}"),
    ),
}


def _cards(cards: list[list[Any]], labels: str, lang: str) -> str:
    return ", ".join(f"{labels[k]}: {n}/{effect_name(e, lang)}" for k, (n, e) in enumerate(cards))


def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (``{"i", "kind", ...}``) as a sentence in ``lang``: seats by number for the
    terminal, or by their players' names ("You" for the reader) with ``names``."""
    text = _describe(event, names, speaker(lang, names))
    return text[:1].upper() + text[1:] if names else text


def _describe(event: Mapping[str, Any], names: Names | None, sp: Speaker) -> str:
    kind = event.get("kind")
    seat = event.get("seat")
    lang = sp.lang
    # A chain of short returns, like notation.py's format_action on purpose (each its own words).

    def label(q: Any) -> str:
        """A seat as a subject someone else reads: the player's name, or "seat 2" without names."""
        return sp.name(q) if names else sp.tr("seat {seat}", seat=q)

    def does(other: str, you: str, q: Any = seat, **fields: Any) -> str:
        """The sentence whose subject is seat ``q``: ``you`` for the reader, else ``other``."""
        if names and names.you(q):
            return sp.tr(you, **fields)
        return sp.tr(other, who=label(q), **fields)

    def who(q: Any) -> str:
        return sp.who(q) if names else sp.tr("seat {seat}", seat=q)

    if kind == "projects":
        listed = "; ".join(
            f"{pid} ({project_condition(pid, lang)})" if pid in PROJECT_BY_ID else str(pid)
            for pid in event["projects"]
        )
        return sp.tr("the three projects: {projects}", projects=listed)
    if kind == "piles_shuffled":
        return sp.trn(
            "the {count} casino card is shuffled into 3 piles",
            "the {count} casino cards are shuffled into 3 piles",
            event["cards"],
        )
    if kind == "solo_start":
        effect = event["loan_card_effect"]
        return sp.tr(
            "solo against ACME, architect card {architect}; a hidden card ({effect} side seen) decides ACME's loan",
            architect=event["architect"],
            effect=effect_name(effect, lang) if effect in EFFECT_NAMES else "?",
        )
    if kind == "loan_chosen":
        if event["loan"]:
            return does(N_("{who} secretly takes the bank loan"), N_("you secretly take the bank loan"))
        return does(N_("{who} secretly refuses the bank loan"), N_("you secretly refuse the bank loan"))
    if kind == "loans_chosen":
        return sp.tr("every architect has secretly chosen about the bank loan")
    if kind == "round":
        if names:
            return sp.tr(
                "round {round}: the combinations are {combinations}",
                round=event["round"],
                combinations=_combos(event["combinations"], sp),
            )
        return sp.tr(
            "round {round}: combinations {combinations}",
            round=event["round"],
            combinations=_cards(event["combinations"], "abc", lang),
        )
    # alike the "round" sentences above on purpose: a solo round shows cards, not combinations
    if kind == "round_solo":
        if names:
            return sp.tr(
                "round {round}: the cards are {cards}",
                round=event["round"],
                cards=_combos(event["cards"], sp),
            )
        return sp.tr(
            "round {round}: cards {cards}", round=event["round"], cards=_cards(event["cards"], "123", lang)
        )
    if kind == "deck_reshuffled":
        # Alike in shape to machikoro/render.py on purpose: each game words its own events and views; only
        # the shape is shared.
        return sp.tr("the discard pile is shuffled into a new deck")
    if kind == "approval_drawn":
        colour = event["colour"]
        if colour in _APPROVAL_DRAWN:
            return sp.tr(_APPROVAL_DRAWN[colour])
        return sp.tr("approval card ({colour}) drawn", colour=colour)
    if kind == "turn_done":
        if names:
            return does(
                N_("{who} has secretly finished their round"), N_("you have secretly finished your round")
            )
        return sp.tr("{who} has secretly finished its round", who=label(seat))
    if kind == "round_played":
        steps = "; ".join(describe_step(step, bool(names), lang) for step in event["steps"])
        if names:
            return does(N_("{who} {steps}"), N_("you {steps}"), steps=steps)
        return sp.tr("seat {seat}: {steps}", seat=seat, steps=steps)
    if kind == "acme_takes":
        return sp.tr(
            "ACME takes card {card} ({effect})", card=event["card"], effect=effect_name(event["effect"], lang)
        )
    if kind == "hotel":
        hotel = event["hotel"]
        if hotel in _HOTEL:
            return does(*_HOTEL[hotel], avenue=event["avenue"])
        return does(
            N_("{who} builds a {hotel} hotel on avenue {avenue}"),
            N_("you build a {hotel} hotel on avenue {avenue}"),
            hotel=hotel,
            avenue=event["avenue"],
        )
    if kind == "acme_hotel":
        return sp.tr("ACME builds a grand hotel on avenue {avenue}", avenue=event["avenue"])
    if kind == "acme_no_project":
        colour = event["colour"]
        if colour in _ACME_NO_PROJECT:
            return sp.tr(_ACME_NO_PROJECT[colour])
        return sp.tr("ACME does not complete the {colour} project", colour=colour)
    if kind == "project_completed":
        points = sp.trn("{count} point", "{count} points", event["points"])
        return does(
            N_("{who} completes project {project} for {points}"),
            N_("you complete project {project} for {points}"),
            project=event["project"],
            points=points,
        )
    if kind == "acme_project":
        points = sp.trn("{count} point", "{count} points", event["points"])
        return sp.tr("ACME completes project {project} for {points}", project=event["project"], points=points)
    if kind == "project_approved":
        return sp.tr("project {project} is approved", project=event["project"])
    if kind == "first_project_reshuffle":
        return sp.tr("first project done: the casino cards are reshuffled")
    if kind == "reshuffle_offered":
        if names:
            seats = (
                names.listed(event["seats"]) if sp.english else sp.listed([sp.who(q) for q in event["seats"]])
            )
        else:
            seats = ", ".join(sp.tr("seat {seat}", seat=q) for q in event["seats"])
        return sp.trn(
            "the first architect to complete a project ({seats}) may reshuffle all 81 cards",
            "the first architects to complete a project ({seats}) may reshuffle all 81 cards",
            len(event["seats"]),
            seats=seats,
        )
    if kind == "vote_cast":
        if event["shuffle"]:
            return does(
                N_("{who} secretly votes to reshuffle the piles"),
                N_("you secretly vote to reshuffle the piles"),
            )
        return does(N_("{who} secretly votes to keep the piles"), N_("you secretly vote to keep the piles"))
    if kind == "reshuffle_decided":
        if event["shuffled"]:
            return sp.tr("the piles are reshuffled")
        return sp.tr("the first project's architects keep the piles as they are")
    if kind == "game_over":
        reason = event["reason"]
        if reason in _GAME_OVER_BY:
            return does(*_GAME_OVER_BY[reason])
        if reason in _GAME_OVER:
            return sp.tr(_GAME_OVER[reason])
        return sp.tr("game over: {reason}", reason=str(reason).format(seat=seat))
    if kind == "scores":
        return _scores(event, names, sp, who)
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


def _scores(event: Mapping[str, Any], names: Names | None, sp: Speaker, who: Any) -> str:
    """The final scores, ACME's with its loan card, and who took the bank loan."""
    items = [f"{who(q)} {total}" for q, total in enumerate(event["totals"])]
    if "acme" in event:
        items.append(
            sp.tr(
                "ACME {total} (its hidden loan card was {card})", total=event["acme"], card=event["loan_card"]
            )
        )
    scores = ", ".join(items)
    loans = [q for q, took in enumerate(event.get("loans", ())) if took]
    if not loans:
        return sp.tr("final scores: {scores}; no architect took the bank loan", scores=scores)
    if names:
        seats = names.listed(loans) if sp.english else sp.listed([sp.who(q) for q in loans])
        return sp.tr("final scores: {scores}; bank loans taken by {seats}", scores=scores, seats=seats)
    return sp.trn(
        "final scores: {scores}; the bank loan taken by seat {seats}",
        "final scores: {scores}; bank loans taken by seats {seats}",
        len(loans),
        scores=scores,
        seats=", ".join(map(str, loans)),
    )


def _combos(cards: list[list[Any]], sp: Speaker) -> str:
    """The round's combinations in words: "5 with Limousine, 9 with Show and 12 with Upgrade"."""
    words = [sp.tr("{number} with {effect}", number=n, effect=effect_name(e, sp.lang)) for n, e in cards]
    if not sp.english:
        return sp.listed(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def status_line(view: Mapping[str, Any], lang: str = "en") -> str:
    """The viewer's essentials in one line for the prompt: round, phase and who is still choosing."""
    sp = speaker(lang)
    state = view["state"]
    waiting = ", ".join(str(seat) for seat in view["to_act"]) or sp.tr("nobody")
    if state["phase"] == "round":  # the phase would only repeat the word: "round 1 (round)"
        head = sp.tr("round {round}; choosing: {seats}", round=state["round"], seats=waiting)
    else:
        head = sp.tr(
            "round {round} ({phase}); choosing: {seats}",
            round=state["round"],
            phase=state["phase"].replace("_", " ") if sp.english else _phase(state["phase"], sp),
            seats=waiting,
        )
    seat = view.get("seat")
    if seat is None:
        return sp.tr("spectator; {head}", head=head)
    rows, final = running_scores(view, lang=lang)
    total = rows[seat][1]["total"]
    # The English plural is the same for 1 point: the prompt has always read "1 points". The form is
    # chosen by the size of the total (-2 reads like 2), the total itself is shown with its sign.
    if final:
        points = sp.trn("{total} points", "{total} points", abs(total), total=sp.number(total))
    else:
        points = sp.trn("{total} points so far", "{total} points so far", abs(total), total=sp.number(total))
    return sp.tr("P{seat} (you): {points}; {head}", seat=seat, points=points, head=head)
