"""Rich text rendering of a New Las Vegas view: city plans, score sheets, the round's cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.text import Text

from .data import (
    EDGES,
    EFFECT_NAMES,
    LAMP_COLUMNS,
    LAMP_NAME,
    NUM_AVENUES,
    PROJECT_BY_ID,
    SLOT_AVENUE,
    SLOT_CARPET,
    SLOT_CRANE,
    SLOT_HOLES,
    SLOT_NAME,
    SLOT_STAR,
    START_LAMP,
    STREET_RANGE,
    TRACK_LENGTH,
)

EDGE_INDEX = {edge: e for e, edge in enumerate(EDGES)}
_CARPET = {"vip": "V", "mafia": "M", "luxury": "L"}
_CELL = 6


def _cell(sheet: Mapping[str, Any], s: int) -> str:
    name = SLOT_NAME[s]
    num = sheet["numbers"][s]
    if SLOT_CRANE[s] and name not in sheet["cranes_built"]:
        body = "##"
    elif num is None:
        body = "__"
    else:
        body = f"{num:2d}"
    mark = ""
    if SLOT_STAR[s]:
        mark += "@" if name in sheet["stars_circled"] else "x" if name in sheet["stars_crossed"] else "*"
    if SLOT_CARPET[s]:
        c = _CARPET[SLOT_CARPET[s]]
        mark += c if name in sheet["carpets_passed"] else c.lower()
    return (body + mark).ljust(_CELL)


def render_city(sheet: Mapping[str, Any]) -> Text:
    """The city plan: avenues across, streets down; ## crane, __ empty, * star (@ show, x crossed),
    v/m/l red carpets (upper case once the limousine passed), golf holes above street 1."""
    lines = ["av  " + "".join(str(a).ljust(_CELL) for a in range(1, NUM_AVENUES + 1))]
    built = set(sheet["golf"]["holes"])
    holes_line = ["    "]
    a, b = STREET_RANGE[0]
    course = sheet["golf"]
    for av in range(1, NUM_AVENUES + 1):
        s = next((s for s in range(a, b) if SLOT_AVENUE[s] == av), None)
        holes_line.append(
            ("P" + "".join(map(str, SLOT_HOLES[s])) if s is not None and SLOT_HOLES[s] else "").ljust(_CELL)
        )
    lines.append("".join(holes_line))
    if built or course["crossed"]:
        lines.append(f"    golf: holes built (PAR) {course['holes']}, crossed out {course['crossed']}")
    for st, (a, b) in enumerate(STREET_RANGE):
        cells = {SLOT_AVENUE[s]: _cell(sheet, s) for s in range(a, b)}
        lines.append(
            f"s{st + 1}  " + "".join(cells.get(av, "").ljust(_CELL) for av in range(1, NUM_AVENUES + 1))
        )
    hotels = "".join((h[0].upper() if h else ".").ljust(_CELL) for h in sheet["hotels"])
    lines.append("H   " + hotels)
    lines.extend(render_route(sheet["limousine"]))
    return Text("\n".join(lines))


def render_route(limo: Mapping[str, Any]) -> list[str]:
    """The lamp graph: A = airport start, @ = the limousine, - and | = segments drawn."""
    used = set(limo["edges"])
    ncol = len(LAMP_COLUMNS)
    lines = [
        f"limousine ({'complete' if limo['complete'] else 'at ' + LAMP_NAME[limo['at']]}); lamp columns "
        + " ".join(map(str, LAMP_COLUMNS))
    ]
    for st in range(len(STREET_RANGE)):
        row = f"  s{st + 1} "
        for ci in range(ncol):
            lamp = st * ncol + ci
            row += "@" if lamp == limo["at"] and not limo["complete"] else "A" if lamp == START_LAMP else "o"
            if ci + 1 < ncol:
                edge = EDGE_INDEX[(lamp, lamp + 1)]
                row += "-----" if edge in used else "     "
        lines.append(row)
        if st + 1 < len(STREET_RANGE):
            row = "      "
            for ci in range(ncol):
                edge = EDGE_INDEX[(st * ncol + ci, (st + 1) * ncol + ci)]
                row += ("|" if edge in used else " ") + ("     " if ci + 1 < ncol else "")
            lines.append(row)
    return lines


def render_scores(sheet: Mapping[str, Any]) -> Text:
    marked, unused = sheet["opening_marked"], sheet["opening_unused"]
    ups = ", ".join(f"{k} {v}" for k, v in sheet["upgrades"].items() if v)
    return Text(
        f"opening {marked}/{TRACK_LENGTH} marked, {unused} unused, groups spent {sheet['groups_spent']}"
        f" | shows {sheet['shows'][0]}+{sheet['shows'][1]} | upgrades {ups or 'none'}"
        f" | projects {sheet['projects']} | vault {sheet['vault']} | open loans {sheet['open_loans']}"
    )


def render_view(view: Mapping[str, Any]) -> Group:
    state = view["state"]
    seat = view["seat"]
    parts: list[Any] = []
    head = Text(f"Welcome To New Las Vegas, round {state['round']} ({state['phase']})", style="bold")
    parts.append(head)
    for pr in state["projects"]:
        parts.append(
            Text(
                f"  project {pr['id']} [{pr['deck']}] {pr['first']}/{pr['later']}"
                f"{' approved' if pr['approved'] else ''}: {PROJECT_BY_ID[pr['id']]['condition']}"
            )
        )
    if state.get("combinations"):
        combos = "   ".join(
            f"{'abc'[k]}: {c['number']} {EFFECT_NAMES[c['effect']]}"
            for k, c in enumerate(state["combinations"])
        )
        parts.append(Text("combinations  " + combos, style="cyan"))
    if state.get("hand"):
        cards = "   ".join(
            f"card {k + 1}: {c['number']} {EFFECT_NAMES[c['effect']]}" for k, c in enumerate(state["hand"])
        )
        parts.append(Text(cards, style="cyan"))
    if state.get("acme"):
        acme = state["acme"]
        parts.append(
            Text(
                f"ACME (architect {acme['architect']}): pile {len(acme['pile'])} cards "
                f"{' '.join(acme['pile'][-8:])}; hotels {acme['hotels']}; projects {acme['projects']}"
            )
        )
        parts.append(
            Text(
                f"  deck {acme['deck_size']} cards, top shows {_face(acme.get('deck_top'))}; "
                f"card under the sheet: {acme.get('loan_card_effect') or '-'}"
            )
        )
    if state["grand_taken"]:
        parts.append(Text(f"grand hotels already taken on avenues {state['grand_taken']}"))
    for q, entry in enumerate(state["players"]):
        sheet = entry["sheet"]
        title = (
            f"seat {q}" + (" (you)" if q == seat else "") + (" - still choosing" if entry["acting"] else "")
        )
        if q == seat or seat is None or state["phase"] == "over" or len(state["players"]) <= 2:
            parts.append(Text(title, style="bold magenta"))
            parts.append(render_city(sheet))
        else:
            opened = sum(1 for v in sheet["numbers"] if v is not None)
            parts.append(
                Text(
                    f"{title}: {opened} casinos opened, hotels {sum(1 for h in sheet['hotels'] if h)}",
                    style="magenta",
                )
            )
        parts.append(render_scores(sheet))
        if "turn" in entry and entry["turn"]["step"] != "done":
            t = entry["turn"]
            parts.append(
                Text(
                    f"your round so far: {'; '.join(map(describe_step, t['steps'])) or 'nothing yet'}"
                    f" -> next: {t['step']}",
                    style="yellow",
                )
            )
    final = state.get("final")
    if final:
        for q, s in enumerate(final["players"]):
            cols = ", ".join(f"{k} {v}" for k, v in s["columns"].items())
            parts.append(Text(f"seat {q}: {s['total']} ({cols})", style="bold green"))
        if "acme" in final:
            cols = ", ".join(f"{k} {v}" for k, v in final["acme"]["columns"].items())
            parts.append(Text(f"ACME: {final['acme']['total']} ({cols})", style="bold red"))
    return Group(*parts)


def _face(top: str | None) -> str:
    if not top:
        return "-"
    if top.startswith("approval_"):
        return "approval " + top[len("approval_") :]
    return top


_BONUS_WORDS = {"e": "easy opening", "f": "free action", "x": "expansion"}


def describe_step(step: Mapping[str, Any]) -> str:
    """One step of a seat's round (``Turn.steps``, the ``round_played`` event) in words."""
    kind = step.get("step")
    if kind == "pick":
        number, effect = step["number"], EFFECT_NAMES.get(step["effect"], step["effect"])
        if step["number_card"] == step["effect_card"]:
            text = f"chose {'abc'[step['number_card']]} ({number}/{effect})"
        else:
            text = (
                f"chose number {number} (card {step['number_card'] + 1}),"
                f" {effect} (card {step['effect_card'] + 1})"
            )
        if step.get("bonus"):
            text += f"; spent opening group {step['group']} on {_BONUS_WORDS[step['bonus']]}"
        return text
    if kind == "refuse":
        text = "could not write any number: marked 2 opening boxes"
        return text + (f" (card {step['card'] + 1} to ACME)" if step.get("card", -1) >= 0 else "")
    if kind == "open":
        return f"opened {step['slot']} with {step['number']}"
    if kind == "expand":
        return f"expanded into {step['slot']} with {step['number']}"
    if kind == "skip":
        return "used no effect"
    effect = step.get("effect")
    if effect == "op":
        return "marked an opening box"
    if effect == "con":
        return f"built the crane casino {step['slot']} (loan circled)"
    if effect == "up":
        return f"upgraded {step['column']}"
    if effect == "show":
        return f"held a show at {step['slot']} (column {step['column']})"
    if effect == "limo":
        return f"drove the limousine {step['direction']}" + (" back to the start" if step["complete"] else "")
    return str(dict(step))


_END_REASONS = {
    "opening_track_full": "seat {seat} marked the last opening box",
    "all_projects": "seat {seat} completed all three projects",
    "all_casinos_opened": "seat {seat} opened every built casino",
    "acme_all_projects": "ACME completed all three projects",
    "cards_out": "the casino cards ran out",
}


def _cards(cards: list[list[Any]], labels: str) -> str:
    return ", ".join(f"{labels[k]}: {n}/{EFFECT_NAMES.get(e, e)}" for k, (n, e) in enumerate(cards))


def describe_event(event: Mapping[str, Any]) -> str:
    """One event of a view (``{"i", "kind", ...}``) as an English sentence for the terminal."""
    kind = event.get("kind")
    seat = event.get("seat")
    if kind == "projects":
        return "projects: " + "; ".join(
            f"{pid} ({PROJECT_BY_ID[pid]['condition']})" if pid in PROJECT_BY_ID else str(pid)
            for pid in event["projects"]
        )
    if kind == "piles_shuffled":
        return f"the {event['cards']} casino cards are shuffled into 3 piles"
    if kind == "solo_start":
        return (
            f"solo against ACME, architect card {event['architect']}; a hidden card"
            f" ({EFFECT_NAMES.get(event['loan_card_effect'], '?')} side seen) decides ACME's loan"
        )
    if kind == "loan_chosen":
        return f"seat {seat} secretly {'takes' if event['loan'] else 'refuses'} the bank loan"
    if kind == "loans_chosen":
        return "every architect has secretly chosen about the bank loan"
    if kind == "round":
        return f"round {event['round']}: combinations {_cards(event['combinations'], 'abc')}"
    if kind == "round_solo":
        return f"round {event['round']}: cards {_cards(event['cards'], '123')}"
    if kind == "deck_reshuffled":
        return "the discard pile is shuffled into a new deck"
    if kind == "approval_drawn":
        return f"approval card ({event['colour']}) drawn"
    if kind == "turn_done":
        return f"seat {seat} has secretly finished its round"
    if kind == "round_played":
        return f"seat {seat}: " + "; ".join(describe_step(step) for step in event["steps"])
    if kind == "acme_takes":
        return f"ACME takes card {event['card']} ({EFFECT_NAMES.get(event['effect'], event['effect'])})"
    if kind == "hotel":
        return f"seat {seat} builds a {event['hotel']} hotel on avenue {event['avenue']}"
    if kind == "acme_hotel":
        return f"ACME builds a grand hotel on avenue {event['avenue']}"
    if kind == "acme_no_project":
        return f"ACME does not complete the {event['colour']} project"
    if kind == "project_completed":
        return f"seat {seat} completes project {event['project']} for {event['points']} points"
    if kind == "acme_project":
        return f"ACME completes project {event['project']} for {event['points']} points"
    if kind == "project_approved":
        return f"project {event['project']} is approved"
    if kind == "first_project_reshuffle":
        return "first project done: the casino cards are reshuffled"
    if kind == "reshuffle_offered":
        seats = ", ".join(f"seat {q}" for q in event["seats"])
        return f"the first architect(s) to complete a project ({seats}) may reshuffle all 81 cards"
    if kind == "vote_cast":
        return f"seat {seat} secretly votes to {'reshuffle' if event['shuffle'] else 'keep'} the piles"
    if kind == "reshuffle_decided":
        if event["shuffled"]:
            return "the piles are reshuffled"
        return "the first project's architects keep the piles as they are"
    if kind == "game_over":
        reason = _END_REASONS.get(event["reason"], str(event["reason"]))
        return "game over: " + reason.format(seat=seat)
    if kind == "scores":
        text = "scores: " + ", ".join(f"seat {q} {total}" for q, total in enumerate(event["totals"]))
        if "acme" in event:
            text += f", ACME {event['acme']} (loan card {event['loan_card']})"
        loans = [q for q, took in enumerate(event.get("loans", ())) if took]
        return text + (f"; bank loans taken by seats {loans}" if loans else "; nobody took the bank loan")
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


def status_line(view: Mapping[str, Any]) -> str:
    """The viewer's essentials in one line for the prompt: round, phase and who is still choosing."""
    state = view["state"]
    waiting = [str(seat) for seat in view["to_act"]]
    head = f"round {state['round']} ({state['phase'].replace('_', ' ')}); choosing: {', '.join(waiting) or 'nobody'}"
    seat = view.get("seat")
    if seat is None:
        return f"spectator; {head}"
    return f"P{seat} (you); {head}"
