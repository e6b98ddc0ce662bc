"""Rich text rendering of a New Las Vegas view: city plans, score sheets, the round's cards (the
sentences and names come from words.py).

Every text speaks through a :class:`core.i18n.Speaker` of the ``newlasvegas`` domain: the English
sentences below are the message ids (English output is the text the terminal always printed), and the
printed names of effects, bonuses, hotels and upgrade columns come from ``glossary.json`` in other
languages. The notation (``2.5``, ``a+e``, ``up grand``) stays English in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.i18n import Speaker
from ...core.screen import Fold, Log, fit
from .data import (
    ARCHITECTS,
    CRANE_SLOTS,
    EDGES,
    EFFECT_NAMES,
    LAMP_COLUMNS,
    LAMP_NAME,
    NUM_AVENUES,
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
from .words import (
    _face,
    _phase,
    colour_word,
    describe_event,
    describe_step,
    effect_name,
    numbers,
    project_condition,
    running_scores,
    speaker,
    term,
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
        c = _CARPET[SLOT_CARPET[s]]  # type: ignore[index]  # not None: checked just above
        mark += c if name in sheet["carpets_passed"] else c.lower()
    return (body + mark).ljust(_CELL)


def render_city(sheet: Mapping[str, Any], lang: str = "en", route: bool = True) -> Text:
    """The city plan: avenues across, streets down; ## crane, __ empty, * star (@ show, x crossed),
    v/m/l red carpets (upper case once the limousine passed), golf holes above street 1; then the
    limousine's route drawn on the lamps, or (``route`` false) only the line that says where it is."""
    sp = speaker(lang)
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
        lines.append(
            "    "
            + sp.tr(
                "golf: holes built (PAR) {holes}; crossed out {crossed}",
                holes=numbers(course["holes"], sp),
                crossed=numbers(course["crossed"], sp),
            )
        )
    for st, (a, b) in enumerate(STREET_RANGE):
        cells = {SLOT_AVENUE[s]: _cell(sheet, s) for s in range(a, b)}
        lines.append(
            f"s{st + 1}  " + "".join(cells.get(av, "").ljust(_CELL) for av in range(1, NUM_AVENUES + 1))
        )
    hotels = "".join((h[0].upper() if h else ".").ljust(_CELL) for h in sheet["hotels"])
    lines.append("H   " + hotels)
    lines.extend(render_route(sheet["limousine"], lang=lang)[: None if route else 1])
    return Text("\n".join(lines))


def render_route(limo: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The lamp graph: A = airport start, @ = the limousine, - and | = segments drawn."""
    sp = speaker(lang)
    used = set(limo["edges"])
    ncol = len(LAMP_COLUMNS)
    columns = " ".join(map(str, LAMP_COLUMNS))
    if limo["complete"]:
        head = sp.tr("limousine (complete); lamp columns {columns}", columns=columns)
    else:
        head = sp.tr(
            "limousine (at {lamp}); lamp columns {columns}", lamp=LAMP_NAME[limo["at"]], columns=columns
        )
    lines = [head]
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


def _upgrades(sheet: Mapping[str, Any], sp: Speaker) -> str:
    """The sheet's upgrades or "none": in English by the notation's column ids ("grand 2, limo 1"),
    which double as what to type; elsewhere by the glossary's printed names ("duży hotel: 2")."""
    crossed = [(k, v) for k, v in sheet["upgrades"].items() if v]
    if not crossed:
        return sp.tr("none")
    if sp.english:
        return ", ".join(f"{k} {v}" for k, v in crossed)
    return "; ".join(f"{term(k, sp.lang, k)}: {v}" for k, v in crossed)


def render_scores(sheet: Mapping[str, Any], lang: str = "en") -> Text:
    sp = speaker(lang)
    return Text(
        sp.tr(
            "opening {marked}/{length} marked, {unused} unused, groups spent {groups}"
            " | shows {show1}+{show2} | upgrades {upgrades}"
            " | projects {projects} | vault {vault} | open loans {loans}",
            marked=sheet["opening_marked"],
            length=TRACK_LENGTH,
            unused=sheet["opening_unused"],
            groups=numbers(sheet["groups_spent"], sp),
            show1=sheet["shows"][0],
            show2=sheet["shows"][1],
            upgrades=_upgrades(sheet, sp),
            projects=numbers(sheet["projects"], sp, "/"),
            vault=sheet["vault"],
            loans=sheet["open_loans"],
        )
    )


LOG_LINES = 12  # the newest events a whole board shows (a replay, a redraw); a prompt shows every unseen one
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


# Alike by shape to words.py's _phase on purpose: each context's words are written out for the catalog.
def _short(column: str, sp: Speaker) -> str:
    """A score column's short head ("proj", "hotel"...), translated."""
    heads = {
        "proj": sp.trp("column", "proj"),
        "open": sp.trp("column", "open"),
        "show": sp.trp("column", "show"),
        "hotel": sp.trp("column", "hotel"),
        "street": sp.trp("column", "street"),
        "golf": sp.trp("column", "golf"),
        "limo": sp.trp("column", "limo"),
        "vault": sp.trp("column", "vault"),
        "total": sp.trp("column", "total"),
    }
    return heads.get(column, column)


def render_score_table(view: Mapping[str, Any], lang: str = "en") -> Table:
    """The score areas, one row per architect (and ACME): each column and the total."""
    sp = speaker(lang)
    rows, final = running_scores(view, lang=lang)
    title = (
        sp.tr("final scores") if final else sp.tr("running score if the game ended now (no bank bundles yet)")
    )
    table = Table(title=title, box=None, padding=(0, 1), title_justify="left", title_style="bold")
    table.add_column("")
    for column in COLUMNS:
        table.add_column(_short(_SHORT[column], sp), justify="right")
    table.add_column(_short("total", sp), justify="right", style="bold")
    for label, score in rows:
        cols = score["columns"]
        table.add_row(label, *(str(cols.get(c, 0)) for c in COLUMNS), str(score["total"]))
    return table


def render_score_line(view: Mapping[str, Any], lang: str = "en") -> Text:
    """The score table's totals in one line (its columns are left to 'board')."""
    sp = speaker(lang)
    rows, final = running_scores(view, lang=lang)
    totals = ", ".join(f"{label} {score['total']}" for label, score in rows)
    if final:
        return Text(sp.tr("final scores: {scores}", scores=totals), style="bold")
    return Text(
        sp.tr("scores if the game ended now: {scores} ('board': each column)", scores=totals), style="bold"
    )


def render_projects_short(projects: list[Mapping[str, Any]], lang: str = "en") -> Text:
    """The projects in one line: id and points, ✓ once approved (what each asks is left to 'board')."""
    sp = speaker(lang)
    listed = ", ".join(
        f"{pr['id']} {pr['first']}/{pr['later']}{' ✓' if pr['approved'] else ''}" for pr in projects
    )
    return Text(
        "  " + sp.tr("projects {projects} (✓ approved; 'board' says what each asks)", projects=listed)
    )


def render_acme_short(acme: Text) -> Text:
    """ACME in two lines: its architect card and where its hotels, projects and deck stand."""
    lines = acme.plain.split("\n")
    return Text("\n".join([lines[0], lines[3]]), style="red")


def render_acme(state: Mapping[str, Any], lang: str = "en") -> Text:
    """Solo: ACME's architect card (values per column, the threshold of upgrade cards that raises each,
    its crane run), its pile counted per kind, hotels, projects, deck and the card under its sheet."""
    sp = speaker(lang)
    acme = state["acme"]
    card = ARCHITECTS[acme["architect"]]
    pile = list(acme["pile"])
    values, run = acme_columns(acme["architect"], pile)
    heads = ("open", "show", "hotel", "street", "golf", "limo")
    per_column = ", ".join(
        sp.tr(
            "{column} {value} ({base}→{upgraded} at {threshold} up)",
            column=_short(h, sp),
            value=v,
            base=card["base"][i],
            upgraded=card["upgraded"][i],
            threshold=card["thresholds"][i],
        )
        for i, (h, v) in enumerate(zip(heads, values, strict=True))
    )
    counts = ", ".join(f"{effect_name(e, lang)} {pile.count(e)}" for e in EFFECT_NAMES)
    crane = f"{card['crane']:+d}"
    loan = acme.get("loan_card")
    if loan is None:
        seen = acme.get("loan_card_effect")
        under = sp.tr(
            "card under its sheet: hidden ({effect} side seen)",
            effect=effect_name(seen, lang) if seen in EFFECT_NAMES else "?",
        )
    elif loan >= card["number"]:
        under = sp.tr("card under its sheet: {card} — ACME takes the bank loan", card=loan)
    else:
        under = sp.tr("card under its sheet: {card} — ACME refuses the bank loan", card=loan)
    lines = [
        sp.tr(
            "ACME, architect card {architect} (takes the loan on a loan card ≥ {number}):",
            architect=acme["architect"],
            number=card["number"],
        ),
        "  "
        + sp.tr(
            "values: {values}; street run {run} (cranes {crane})",
            values=per_column,
            run=run,
            crane=crane,
        ),
        # The English plural is the same for 1 card: the terminal has always read "pile 1 cards".
        "  " + sp.trn("pile {count} cards: {kinds}", "pile {count} cards: {kinds}", len(pile), kinds=counts),
        "  "
        + sp.tr(
            "hotels on avenues {hotels}; projects {projects}; deck {deck}, top shows {top}",
            hotels=numbers(acme["hotels"], sp),
            projects=numbers(acme["projects"], sp, "/"),
            deck=acme["deck_size"],
            top=_face(acme.get("deck_top"), sp),
        ),
        "  " + under,
    ]
    return Text("\n".join(lines), style="red")


def sheet_summary(sheet: Mapping[str, Any], lang: str = "en") -> str:
    """An opponent's public sheet in one line."""
    sp = speaker(lang)
    per_street = "/".join(
        str(sum(1 for s in range(a, b) if sheet["numbers"][s] is not None)) for a, b in STREET_RANGE
    )
    cranes = sum(1 for s in CRANE_SLOTS if SLOT_NAME[s] in sheet["cranes_built"])
    grands = sum(1 for h in sheet["hotels"] if h == "grand")
    smalls = sum(1 for h in sheet["hotels"] if h == "small")
    limo = sheet["limousine"]
    fields = {
        "per_street": per_street,
        "cranes": cranes,
        "grands": grands,
        "smalls": smalls,
        "show1": sheet["shows"][0],
        "show2": sheet["shows"][1],
        "upgrades": _upgrades(sheet, sp),
        "holes": numbers(sheet["golf"]["holes"], sp),
        "segments": len(limo["edges"]),
        "marked": sheet["opening_marked"],
        "length": TRACK_LENGTH,
        "unused": sheet["opening_unused"],
        "projects": numbers(sheet["projects"], sp, "/"),
        "loans": sheet["open_loans"],
    }
    if limo["complete"]:
        return sp.tr(
            "opened per street {per_street}, cranes built {cranes}; hotels {grands} grand {smalls} small; "
            "shows {show1}+{show2}; upgrades {upgrades}; golf holes {holes}; "
            "limousine {segments} segments (complete); "
            "opening {marked}/{length} ({unused} unused); projects {projects}; open loans {loans}",
            **fields,
        )
    return sp.tr(
        "opened per street {per_street}, cranes built {cranes}; hotels {grands} grand {smalls} small; "
        "shows {show1}+{show2}; upgrades {upgrades}; golf holes {holes}; "
        "limousine {segments} segments; "
        "opening {marked}/{length} ({unused} unused); projects {projects}; open loans {loans}",
        **fields,
    )


def _title(q: int, seat: Any, acting: bool, sp: Speaker) -> str:
    if q == seat:
        if acting:
            return sp.tr("seat {seat} (you) - still choosing", seat=q)
        return sp.tr("seat {seat} (you)", seat=q)
    if acting:
        return sp.tr("seat {seat} - still choosing", seat=q)
    return sp.tr("seat {seat}", seat=q)


def render_view(
    view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
) -> RenderableType:
    """The projects, the sheets, the scores, the newest events (``all_events``: every event of the
    view, which then holds only those its seat has not been shown yet) and the cards to choose from.
    With ``height`` it folds to that many rows (core.screen): the log to its newest events, the
    score table to its totals, the projects to their ids, ACME to two lines, the other sheets to
    their titles, the limousine's route to where it stands; the round, the reader's own city plan
    and sheet, the round so far and the cards to choose from always stay."""
    sp = speaker(lang)
    state = view["state"]
    if state["phase"] == "round":  # the phase would only repeat the word: "round 1 (round)"
        heading = sp.tr("Welcome To New Las Vegas, round {round}", round=state["round"])
    else:
        heading = sp.tr(
            "Welcome To New Las Vegas, round {round} ({phase})",
            round=state["round"],
            phase=_phase(state["phase"], sp) if not sp.english else state["phase"],
        )
    parts: list[RenderableType | Fold] = [Text(heading, style="bold")]
    if state["projects"]:
        projects = Group(*(_project(pr, sp, lang) for pr in state["projects"]))
        parts.append(Fold(projects, render_projects_short(state["projects"], lang), Group(), rank=2, soft=1))
    if state["grand_taken"]:
        taken = sp.tr(
            "grand hotels already taken on avenues {avenues}", avenues=numbers(state["grand_taken"], sp)
        )
        parts.append(Fold(Text(taken), Group(), rank=3, soft=0))
    if state.get("acme"):
        acme = render_acme(state, lang=lang)
        parts.append(Fold(acme, render_acme_short(acme), Group(), rank=2, soft=1))
    for q, entry in enumerate(state["players"]):
        parts += _sheet_parts(view, q, entry, lang)
    # the totals line goes last of all (the status line keeps the reader's own score)
    table = render_score_table(view, lang=lang)
    parts.append(Fold(table, render_score_line(view, lang), Group(), rank=1, soft=1))
    events = view["events"] if all_events else view["events"][-LOG_LINES:]
    if events:
        parts.append(Log([describe_event(event, lang=lang) for event in events], lang))
    parts += _choices(view, lang)
    return fit(parts, height)


def _project(pr: Mapping[str, Any], sp: Speaker, lang: str) -> Text:
    fields = {
        "id": pr["id"],
        "deck": colour_word(pr["deck"], sp),
        "first": pr["first"],
        "later": pr["later"],
        "condition": project_condition(pr["id"], lang),
    }
    if pr["approved"]:
        return Text("  " + sp.tr("project {id} [{deck}] {first}/{later} approved: {condition}", **fields))
    return Text("  " + sp.tr("project {id} [{deck}] {first}/{later}: {condition}", **fields))


def _sheet_parts(
    view: Mapping[str, Any], q: int, entry: Mapping[str, Any], lang: str
) -> list[RenderableType | Fold]:
    """A seat's sheet: the reader's own (or every one, for a spectator or at the end) in full, its
    route folding to one line; another's one-line summary, folding to its title and then away (the
    score line still gives its total)."""
    sp = speaker(lang)
    state = view["state"]
    seat = view["seat"]
    sheet = entry["sheet"]
    title = _title(q, seat, entry["acting"], sp)
    parts: list[RenderableType | Fold] = []
    if q == seat or seat is None or state["phase"] == "over":
        parts.append(Text(title, style="bold magenta"))
        city = render_city(sheet, lang=lang)
        turn = entry.get("turn") or {}
        drawing = turn.get("effect") == "limo" and turn.get("step") == "effect"
        if drawing and not sheet["limousine"]["complete"]:
            parts.append(city)  # the route is what this round's limousine effect draws on
        else:
            parts.append(Fold(city, render_city(sheet, lang=lang, route=False), rank=3))
        # the sheet's tallies go only when nothing else can: the status line keeps its points
        parts.append(Fold(render_scores(sheet, lang=lang), Group(), rank=4, soft=0))
    else:  # an opponent while the game goes on
        summary = sheet_summary(sheet, lang=lang)
        line = sp.tr("{title} (as at the round's start): {summary}", title=title, summary=summary)
        parts.append(Fold(Text(line, style="magenta"), Text(title, style="magenta"), Group(), rank=2, soft=1))
    if "turn" in entry and entry["turn"]["step"] != "done":
        t = entry["turn"]
        steps = "; ".join(describe_step(step, lang=lang) for step in t["steps"]) or sp.tr("nothing yet")
        parts.append(
            Text(
                sp.tr("your round so far: {steps} -> next: {next}", steps=steps, next=sp.tr(t["step"])),
                style="yellow",
            )
        )
    return parts


def _choices(view: Mapping[str, Any], lang: str) -> list[RenderableType]:
    """The round's combinations (several architects) or the reader's hand of cards (solo)."""
    sp = speaker(lang)
    state = view["state"]
    parts: list[RenderableType] = []
    if state.get("combinations") and not view["over"]:
        combos = "   ".join(
            f"{'abc'[k]}: {c['number']} {effect_name(c['effect'], lang)}"
            for k, c in enumerate(state["combinations"])
        )
        parts.append(Text(sp.tr("combinations  {combinations}", combinations=combos), style="bold cyan"))
    if state.get("hand") and not view["over"]:
        cards = "   ".join(
            sp.tr(
                "card {k}: {number} {effect}",
                k=k + 1,
                number=c["number"],
                effect=effect_name(c["effect"], lang),
            )
            for k, c in enumerate(state["hand"])
        )
        parts.append(Text(cards, style="bold cyan"))
    return parts
