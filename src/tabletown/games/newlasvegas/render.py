"""Rich text rendering of a New Las Vegas view: city plans, score sheets, the round's cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...core.words import Names
from .data import (
    ARCHITECTS,
    CRANE_SLOTS,
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
from .scoring import COLUMNS, acme_columns

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
        c = _CARPET[SLOT_CARPET[s]]  # type: ignore[index]  # not None: checked just above
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
            if row.strip():  # a gap with no segment drawn takes no line
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


LOG_LINES = 12
_SHORT = {
    "projects": "proj",
    "opening": "open",
    "shows": "show",
    "hotels": "hotel",
    "streets": "street",
    "golf": "golf",
    "limousine": "limo",
    "vault": "vault",
}


def running_scores(view: Mapping[str, Any]) -> tuple[list[tuple[str, Mapping[str, Any]]], bool]:
    """(label, score) rows — the final scores once the game is over, else the score each sheet in the
    view would make if the game ended now — and whether they are final. Loans stay secret until the
    end, so a running score counts no bank bundles (and ACME's vault waits for its loan card)."""
    state = view["state"]
    seat = view.get("seat")
    labels = [f"seat {q}" + (" (you)" if q == seat else "") for q in range(len(state["players"]))]
    final = state.get("final")
    if final:
        rows = list(zip(labels, final["players"], strict=True))
        if "acme" in final:
            took = "took" if final["acme"].get("loan") else "refused"
            rows.append((f"ACME (loan card {final['loan_card']}: {took} the loan)", final["acme"]))
        return rows, True
    # The running score comes with the view (draft.running_score), so the terminal shows the very
    # numbers the browser does.
    now = state["score_now"]
    rows = list(zip(labels, now["players"], strict=True))
    if "acme" in now:
        rows.append(("ACME", now["acme"]))
    return rows, False


def render_score_table(view: Mapping[str, Any]) -> Table:
    """The score areas, one row per architect (and ACME): each column and the total."""
    rows, final = running_scores(view)
    title = "final scores" if final else "running score if the game ended now (no bank bundles yet)"
    table = Table(title=title, box=None, padding=(0, 1), title_justify="left", title_style="bold")
    table.add_column("")
    for column in COLUMNS:
        table.add_column(_SHORT[column], justify="right")
    table.add_column("total", justify="right", style="bold")
    for label, score in rows:
        cols = score["columns"]
        table.add_row(label, *(str(cols.get(c, 0)) for c in COLUMNS), str(score["total"]))
    return table


def render_acme(state: Mapping[str, Any]) -> Text:
    """Solo: ACME's architect card (values per column, the threshold of upgrade cards that raises each,
    its crane run), its pile counted per kind, hotels, projects, deck and the card under its sheet."""
    acme = state["acme"]
    card = ARCHITECTS[acme["architect"]]
    pile = list(acme["pile"])
    values, run = acme_columns(acme["architect"], pile)
    heads = ("open", "show", "hotel", "street", "golf", "limo")
    per_column = ", ".join(
        f"{h} {v} ({card['base'][i]}→{card['upgraded'][i]} at {card['thresholds'][i]} up)"
        for i, (h, v) in enumerate(zip(heads, values, strict=True))
    )
    counts = ", ".join(f"{EFFECT_NAMES[e]} {pile.count(e)}" for e in EFFECT_NAMES)
    loan = acme.get("loan_card")
    lines = [
        f"ACME, architect card {acme['architect']} (takes the loan on a loan card ≥ {card['number']}):",
        f"  values: {per_column}; street run {run} (cranes {card['crane']:+d})",
        f"  pile {len(pile)} cards: {counts}",
        f"  hotels on avenues {acme['hotels'] or '-'}; projects {acme['projects']}; deck {acme['deck_size']}, "
        f"top shows {_face(acme.get('deck_top'))}",
        "  card under its sheet: "
        + (
            f"{loan} — ACME {'takes' if loan >= card['number'] else 'refuses'} the bank loan"
            if loan is not None
            else f"hidden ({EFFECT_NAMES.get(acme.get('loan_card_effect'), '?')} side seen)"
        ),
    ]
    return Text("\n".join(lines), style="red")


def sheet_summary(sheet: Mapping[str, Any]) -> str:
    """An opponent's public sheet in one line."""
    per_street = "/".join(
        str(sum(1 for s in range(a, b) if sheet["numbers"][s] is not None)) for a, b in STREET_RANGE
    )
    cranes = sum(1 for s in CRANE_SLOTS if SLOT_NAME[s] in sheet["cranes_built"])
    grands = sum(1 for h in sheet["hotels"] if h == "grand")
    smalls = sum(1 for h in sheet["hotels"] if h == "small")
    ups = ", ".join(f"{k} {v}" for k, v in sheet["upgrades"].items() if v) or "none"
    limo = sheet["limousine"]
    return (
        f"opened per street {per_street}, cranes built {cranes}; hotels {grands} grand {smalls} small; "
        f"shows {sheet['shows'][0]}+{sheet['shows'][1]}; upgrades {ups}; golf holes {sheet['golf']['holes']}; "
        f"limousine {len(limo['edges'])} segments{' (complete)' if limo['complete'] else ''}; "
        f"opening {sheet['opening_marked']}/{TRACK_LENGTH} ({sheet['opening_unused']} unused); "
        f"projects {sheet['projects']}; open loans {sheet['open_loans']}"
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
    if state["grand_taken"]:
        parts.append(Text(f"grand hotels already taken on avenues {state['grand_taken']}"))
    if state.get("acme"):
        parts.append(render_acme(state))
    everyone = seat is None or state["phase"] == "over"
    for q, entry in enumerate(state["players"]):
        sheet = entry["sheet"]
        title = (
            f"seat {q}" + (" (you)" if q == seat else "") + (" - still choosing" if entry["acting"] else "")
        )
        if q == seat or everyone:
            parts.append(Text(title, style="bold magenta"))
            parts.append(render_city(sheet))
            parts.append(render_scores(sheet))
        else:
            when = "" if state["phase"] == "over" else " (as at the round's start)"
            parts.append(Text(f"{title}{when}: {sheet_summary(sheet)}", style="magenta"))
        if "turn" in entry and entry["turn"]["step"] != "done":
            t = entry["turn"]
            parts.append(
                Text(
                    f"your round so far: {'; '.join(map(describe_step, t['steps'])) or 'nothing yet'}"
                    f" -> next: {t['step']}",
                    style="yellow",
                )
            )
    parts.append(render_score_table(view))
    log = [describe_event(event) for event in view["events"][-LOG_LINES:]]
    if log:
        parts.append(Text("\n".join(f"· {line}" for line in log), style="dim"))
    if state.get("combinations") and not view["over"]:
        combos = "   ".join(
            f"{'abc'[k]}: {c['number']} {EFFECT_NAMES[c['effect']]}"
            for k, c in enumerate(state["combinations"])
        )
        parts.append(Text("combinations  " + combos, style="bold cyan"))
    if state.get("hand") and not view["over"]:
        cards = "   ".join(
            f"card {k + 1}: {c['number']} {EFFECT_NAMES[c['effect']]}" for k, c in enumerate(state["hand"])
        )
        parts.append(Text(cards, style="bold cyan"))
    return Group(*parts)


def _face(top: str | None) -> str:
    if not top:
        return "-"
    if top.startswith("approval_"):
        return "approval " + top[len("approval_") :]
    return top


# The module's one-line summary (the browser board's words carry it as "notation_help").
SUMMARY = "Rich text rendering of a New Las Vegas view: city plans, score sheets, the round's cards."
BONUS_WORDS = {"e": "easy opening", "f": "free action", "x": "expansion"}


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


def slot_words(slot: str) -> str:
    """A casino in the words of the sheet: "4.11" is "street 4, avenue 11" (the notation stays typed)."""
    street, _, avenue = str(slot).partition(".")
    return f"street {street}, avenue {avenue}" if avenue else str(slot)


def describe_step(step: Mapping[str, Any], plain: bool = False) -> str:
    """One step of a seat's round (``Turn.steps``, the ``round_played`` event) in words (``plain``:
    people's words, for the browser: no combination letters, casinos by street and avenue rather than
    the typed notation's "4.11")."""
    kind = step.get("step")
    where = slot_words if plain else str
    if kind == "pick":
        number, effect = step["number"], EFFECT_NAMES.get(step["effect"], step["effect"])
        if plain and step["number_card"] == step["effect_card"]:
            text = f"chose {number} with {effect}"
        elif step["number_card"] == step["effect_card"]:
            text = f"chose {'abc'[step['number_card']]} ({number}/{effect})"
        else:
            text = (
                f"chose number {number} (card {step['number_card'] + 1}),"
                f" {effect} (card {step['effect_card'] + 1})"
            )
        if step.get("bonus"):
            text += f"; spent opening group {step['group']} on {BONUS_WORDS[step['bonus']]}"
        return text
    if kind == "refuse":
        text = "could not write any number: marked 2 opening boxes"
        return text + (f" (card {step['card'] + 1} to ACME)" if step.get("card", -1) >= 0 else "")
    # The open, expand, up and show branches are alike on purpose (plain words or the notation's).
    if kind == "open":
        if plain:
            return f"wrote {step['number']} in the casino on {where(step['slot'])}"
        return f"opened {step['slot']} with {step['number']}"
    if kind == "expand":
        if plain:
            return f"copied {step['number']} into the casino on {where(step['slot'])} (expansion)"
        return f"expanded into {step['slot']} with {step['number']}"
    if kind == "skip":
        return "used no effect"
    effect = step.get("effect")
    if effect == "op":
        return "marked an opening box"
    if effect == "con":
        return f"built the crane casino {'on ' if plain else ''}{where(step['slot'])} (loan circled)"
    if effect == "up":  # alike the open and expand branches above on purpose
        if plain:
            return f"upgraded {UPGRADE_WORDS.get(step['column'], step['column'])}"
        return f"upgraded {step['column']}"
    if effect == "show":
        if plain:
            return f"held a show on {where(step['slot'])} (show column {step['column']})"
        return f"held a show at {step['slot']} (column {step['column']})"
    if effect == "limo":
        direction = DIRECTION_WORDS.get(step["direction"], step["direction"]) if plain else step["direction"]
        return f"drove the limousine {direction}" + (" back to the start" if step["complete"] else "")
    return str(dict(step))


END_REASONS = {
    "opening_track_full": "seat {seat} marked the last opening box",
    "all_projects": "seat {seat} completed all three projects",
    "all_casinos_opened": "seat {seat} opened every built casino",
    "acme_all_projects": "ACME completed all three projects",
    "cards_out": "the casino cards ran out",
}


def _cards(cards: list[list[Any]], labels: str) -> str:
    return ", ".join(f"{labels[k]}: {n}/{EFFECT_NAMES.get(e, e)}" for k, (n, e) in enumerate(cards))


def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (``{"i", "kind", ...}``) as an English sentence: seats by number for the
    terminal, or by their players' names ("You" for the reader) with ``names``."""
    text = _describe(event, names)
    return text[:1].upper() + text[1:] if names else text


def _describe(event: Mapping[str, Any], names: Names | None) -> str:
    kind = event.get("kind")
    seat = event.get("seat")
    # A chain of short returns, like notation.py's format_action on purpose (each its own words).

    def who(q: Any) -> str:
        return names.who(q) if names else f"seat {q}"

    def does(verb: str, q: Any = seat) -> str:
        return names.subject(q, verb, start=False) if names else f"seat {q} {verb}"

    if kind == "projects":
        return "the three projects: " + "; ".join(
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
        secretly = does("secretly takes" if event["loan"] else "secretly refuses")
        return f"{secretly} the bank loan"
    if kind == "loans_chosen":
        return "every architect has secretly chosen about the bank loan"
    if kind == "round":
        if names:
            return f"round {event['round']}: the combinations are {_combos(event['combinations'])}"
        return f"round {event['round']}: combinations {_cards(event['combinations'], 'abc')}"
    if kind == "round_solo":
        if names:
            return f"round {event['round']}: the cards are {_combos(event['cards'])}"
        return f"round {event['round']}: cards {_cards(event['cards'], '123')}"
    if kind == "deck_reshuffled":
        # Alike in shape to machikoro/render.py on purpose: each game words its own events and views; only
        # the shape is shared.
        return "the discard pile is shuffled into a new deck"
    if kind == "approval_drawn":
        return f"approval card ({event['colour']}) drawn"
    if kind == "turn_done":
        return f"{does('has')} secretly finished {names.their(seat) if names else 'its'} round"
    if kind == "round_played":
        steps = "; ".join(describe_step(step, bool(names)) for step in event["steps"])
        return f"{who(seat)} {steps}" if names else f"seat {seat}: {steps}"
    if kind == "acme_takes":
        return f"ACME takes card {event['card']} ({EFFECT_NAMES.get(event['effect'], event['effect'])})"
    if kind == "hotel":
        return f"{does('builds')} a {event['hotel']} hotel on avenue {event['avenue']}"
    if kind == "acme_hotel":
        return f"ACME builds a grand hotel on avenue {event['avenue']}"
    if kind == "acme_no_project":
        return f"ACME does not complete the {event['colour']} project"
    if kind == "project_completed":
        return f"{does('completes')} project {event['project']} for {event['points']} points"
    if kind == "acme_project":
        return f"ACME completes project {event['project']} for {event['points']} points"
    if kind == "project_approved":
        return f"project {event['project']} is approved"
    if kind == "first_project_reshuffle":
        return "first project done: the casino cards are reshuffled"
    if kind == "reshuffle_offered":
        seats = names.listed(event["seats"]) if names else ", ".join(f"seat {q}" for q in event["seats"])
        return f"the first architect(s) to complete a project ({seats}) may reshuffle all 81 cards"
    if kind == "vote_cast":
        return f"{does('secretly votes')} to {'reshuffle' if event['shuffle'] else 'keep'} the piles"
    if kind == "reshuffle_decided":
        if event["shuffled"]:
            return "the piles are reshuffled"
        return "the first project's architects keep the piles as they are"
    if kind == "game_over":
        reason = END_REASONS.get(event["reason"], str(event["reason"]))
        if names and "{seat}" in reason:
            verb = reason.split("{seat} ", 1)[1].split(" ", 1)
            return f"game over: {names.subject(seat, verb[0], start=False)} {verb[1]}"
        return "game over: " + reason.format(seat=seat)
    if kind == "scores":
        text = "final scores: " + ", ".join(f"{who(q)} {total}" for q, total in enumerate(event["totals"]))
        if "acme" in event:
            text += f", ACME {event['acme']} (its hidden loan card was {event['loan_card']})"
        loans = [q for q, took in enumerate(event.get("loans", ())) if took]
        if names:
            return text + (
                f"; bank loans taken by {names.listed(loans)}"
                if loans
                else "; no architect took the bank loan"
            )
        return text + (
            f"; bank loans taken by seats {loans}" if loans else "; no architect took the bank loan"
        )
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


def _combos(cards: list[list[Any]]) -> str:
    """The round's combinations in words: "5 with Limousine, 9 with Show and 12 with Upgrade"."""
    words = [f"{n} with {EFFECT_NAMES.get(e, e)}" for n, e in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def status_line(view: Mapping[str, Any]) -> str:
    """The viewer's essentials in one line for the prompt: round, phase and who is still choosing."""
    state = view["state"]
    waiting = [str(seat) for seat in view["to_act"]]
    head = f"round {state['round']} ({state['phase'].replace('_', ' ')}); choosing: {', '.join(waiting) or 'nobody'}"
    seat = view.get("seat")
    if seat is None:
        return f"spectator; {head}"
    rows, final = running_scores(view)
    points = f"{rows[seat][1]['total']} points{'' if final else ' so far'}"
    return f"P{seat} (you): {points}; {head}"
