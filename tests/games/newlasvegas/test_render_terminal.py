"""Issue 16, New Las Vegas on screen: the round's events while playing, the score areas with a running
score, ACME's pile per kind and its architect card's values, ACME's row with its loan card revealed at
the end, and a summary of each opponent's public sheet."""

from __future__ import annotations

import random
import re

from rich.console import Console
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.i18n import Speaker
from tabletown.games.newlasvegas import GAME
from tabletown.games.newlasvegas.render import sheet_summary
from tabletown.games.newlasvegas.words import describe_event, glossary, running_scores


def screen(view, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(GAME.render(view))
    return " ".join(console.export_text().split())


def random_game(players: int, seed: int, stop: int | None = None):
    rng = random.Random(seed)
    state = GAME.new_game(players, {}, seed=seed)
    moves = 0
    while state.to_act and moves != stop:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
    return state


def test_the_running_score_shown_is_the_views() -> None:
    """The terminal shows the score the view carries (the browser's too), seat by seat."""
    state = random_game(3, 2, stop=30)
    view = state.view(1)
    rows, is_final = running_scores(view)
    assert not is_final
    assert [score for _, score in rows] == view["state"]["score_now"]["players"]
    solo = random_game(1, 2, stop=20).view(0)
    rows, _ = running_scores(solo)
    assert rows[-1] == ("ACME", solo["state"]["score_now"]["acme"])


def test_multiplayer_events_running_score_and_opponents() -> None:
    state = random_game(3, 5, stop=40)
    view = state.view(1)
    text = screen(view)
    assert "running score if the game ended now" in text
    for head in ("proj", "open", "show", "hotel", "street", "golf", "limo", "vault", "total"):
        assert head in text
    assert "seat 1 (you)" in text
    for q in (0, 2):
        assert f"seat {q}" in text and "opened per street" in text
    for event in view["events"][-12:]:
        assert describe_event(event) in text
    kinds = {event["kind"] for event in view["events"]}
    assert {"round", "round_played"} <= kinds

    end = random_game(3, 5)
    final_view = end.view(0)
    text = screen(final_view)
    assert "final scores" in text
    assert "game over:" in " ".join(describe_event(e) for e in final_view["events"])
    totals = [score["total"] for score in final_view["state"]["final"]["players"]]
    assert (
        f"seat 0 (you) {' '.join(map(str, final_view['state']['final']['players'][0]['columns'].values()))} {totals[0]}"
        in text
    )


def test_every_event_kind_is_worded() -> None:
    seen = set()
    for seed in range(6):
        for players in (1, 2, 4):
            state = random_game(players, seed)
            for event in state.events(None):
                seen.add(event["kind"])
                data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
                assert describe_event(event) != f"{event['kind']}: {data}", event
    assert {"hotel", "project_completed", "game_over", "scores", "round_played"} <= seen


def test_solo_acme_pile_values_and_loan_card_revealed() -> None:
    state = random_game(1, 4, stop=30)
    view = state.view(0)
    text = screen(view)
    acme = view["state"]["acme"]
    pile = acme["pile"]
    counts = f"opening {pile.count('op')}, construction {pile.count('con')}, upgrade {pile.count('up')}"
    assert f"pile {len(pile)} cards: {counts}" in text
    assert "values: open 2 (2→3 at 7 up), show 3 (3→4 at 8 up)" in text
    assert "card under its sheet: hidden" in text and acme["loan_card"] is None
    assert "seat 0 (you)" in text and "ACME" in text and "running score" in text

    end = random_game(1, 4)
    view = end.view(0)
    card = view["state"]["acme"]["loan_card"]
    assert card is not None and view["state"]["final"]["loan_card"] == card
    text = screen(view)
    assert f"card under its sheet: {card} — ACME" in text
    acme_total = view["state"]["final"]["acme"]["total"]
    assert f"ACME (loan card {card}:" in text and f" {acme_total} " in text + " "


def test_cli_solo_shows_acme_and_scores_at_80_columns() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "newlasvegas", "--seat", "human", "--seed", "3"],
        input="loan\nquit\ny\n",
        env={"COLUMNS": "80", "LINES": "24"},
        catch_exceptions=False,
    )
    out = result.output
    assert "ACME, architect card 1" in out and "pile 0 cards" in out
    assert "running score if the game ended now" in out and "points so far; round" in out
    lines = out.splitlines()
    status = max(i for i, line in enumerate(lines) if line.startswith("P0 (you): "))
    prompt = max(i for i, line in enumerate(lines) if line.startswith("seat 0>"))
    assert prompt - status < 24


def test_events_in_peoples_words_hold_no_notation() -> None:
    """Issue 27: with the players' names (the browser's log), casinos are told by street and avenue,
    never as the typed "4.11"; no lamp name ("4:0"), combination letter or one-letter direction."""
    from tabletown.core.words import Names

    names = Names(["Ana", "Bo", "Cy", "Di"], 0)
    played = {
        "i": 9,
        "kind": "round_played",
        "seat": 1,
        "steps": [
            {
                "step": "pick",
                "number_card": 0,
                "effect_card": 0,
                "number": 7,
                "effect": "con",
                "bonus": "",
                "group": 0,
            },
            {"step": "open", "slot": "4.11", "number": 7},
            {"step": "effect", "effect": "con", "slot": "3.6"},
        ],
    }
    assert describe_event(played, names) == (
        "Bo chose 7 with construction; wrote 7 in the casino on street 4, avenue 11;"
        " built the crane casino on street 3, avenue 6 (loan circled)"
    )
    assert "opened 4.11 with 7" in describe_event(played)  # the terminal keeps the notation it types
    limo = {"step": "effect", "effect": "limo", "direction": "n", "complete": False}
    show = {"step": "effect", "effect": "show", "column": 2, "slot": "1.4"}
    played["steps"][2:] = [limo]
    assert describe_event(played, names).endswith("drove the limousine north")
    played["steps"][2:] = [show]
    assert describe_event(played, names).endswith("held a show on street 1, avenue 4 (show column 2)")
    seen = set()
    for seed in range(4):
        for players in (1, 2, 4):
            for event in random_game(players, seed).events(None):
                sentence = describe_event(event, names)
                seen.add(event["kind"])
                assert not re.search(r"\d+\.\d+|\d:\d|\bchose [abc]\b|limousine [nsew]\b", sentence), sentence
    assert {"round_played", "hotel", "game_over"} <= seen


# The same check in every game's test_render_terminal.py (the screens: conftest's prompt_screens).
def test_the_prompt_words_every_unseen_event_and_board_redraws_the_newest(prompt_screens) -> None:
    """At a prompt every event the seat has not been shown yet is printed, however many (here more
    than the board's log holds: several rounds of four architects); ``board`` redraws the board
    with the newest few."""

    from tabletown.games.newlasvegas.render import LOG_LINES

    state = random_game(4, 2, stop=40)
    seat = state.to_act[0]
    seen = len(state.log) - 2 * LOG_LINES
    unseen = [describe_event(event) for event in state.events(seat, seen)]
    assert len(unseen) > LOG_LINES
    text, redrawn = prompt_screens(GAME, state, seat, seen, width=400)
    for line in unseen:
        assert f"· {line}\n" in text, line
    assert sum(1 for line in redrawn.splitlines() if line.startswith("· ")) == LOG_LINES


def test_no_python_lists_or_repeated_words_on_screen() -> None:
    """Lists on the sheets (groups spent, projects, golf holes, avenues, loans) are written as a
    person writes them, never as Python's "[0, 0, 0]" or "[]"; the round's heading and the prompt's
    status line do not say "round 1 (round)"."""
    from tabletown.games.newlasvegas.words import status_line

    repr_list = re.compile(r"\[\d[\d, ]*\]|\[\]")
    for players, seed in ((1, 1), (2, 3), (3, 4)):
        state = random_game(players, seed, stop=25)
        for seat in (None, *range(players)):
            text = screen(state.view(seat))
            assert not repr_list.search(text), repr_list.search(text)
            assert "(round)" not in text
        assert "(round)" not in status_line(state.view(0))
        finished = random_game(players, seed)
        text = screen(finished.view(None))
        assert not repr_list.search(text), repr_list.search(text)
        assert not repr_list.search(" ".join(describe_event(e) for e in finished.events(None)))
    mid = random_game(2, 3, stop=25).view(0)
    assert screen(mid).startswith(f"Welcome To New Las Vegas, round {mid['state']['round']} ")
    scores = {"i": 1, "kind": "scores", "totals": [40, 52, 31], "loans": [True, False, True]}
    assert describe_event(scores).endswith("bank loans taken by seats 0, 2")
    scores["loans"] = [False, True, False]
    assert describe_event(scores).endswith("the bank loan taken by seat 1")
    offered = describe_event({"i": 2, "kind": "reshuffle_offered", "seats": [1]})
    assert offered == "the first architect to complete a project (seat 1) may reshuffle all 81 cards"


def _mid_round_with_upgrades(players: int = 2, seed: int = 0):
    """A random game stopped where seat 0 has crossed upgrade boxes and is in the middle of a round."""
    rng = random.Random(seed)
    state = GAME.new_game(players, {}, seed=seed)
    while state.to_act:
        seat = state.to_act[0]
        view = state.view(0)
        me = view["state"]["players"][0]
        if any(me["sheet"]["upgrades"].values()) and me.get("turn", {}).get("step") not in (
            None,
            "pick",
            "done",
        ):
            return state
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no such position in this game")


def test_other_languages_name_the_upgrades_and_the_next_step() -> None:
    """The sheet summary names upgrade columns by the glossary (not the notation's ids such as
    'luxury'), and "next:" names the round's step in the reader's language."""
    state = _mid_round_with_upgrades()
    view = state.view(0)
    me = view["state"]["players"][0]
    crossed = [k for k, v in me["sheet"]["upgrades"].items() if v]
    step = me["turn"]["step"]
    assert crossed
    english = sheet_summary(me["sheet"], lang="en")
    for column in crossed:
        assert f"{column} {me['sheet']['upgrades'][column]}" in english
    for lang in ("pl", "de", "ru"):
        summary = sheet_summary(me["sheet"], lang=lang)
        for column in crossed:
            printed = glossary()[column][lang]
            assert f"{printed}: {me['sheet']['upgrades'][column]}" in summary, (lang, summary)
        console = Console(width=100, record=True, color_system=None)
        console.print(GAME.render(view, lang=lang))
        text = " ".join(console.export_text().split())
        worded = Speaker("newlasvegas", lang).tr(step)
        assert worded != step
        assert re.search(rf"-> [^:]+: {re.escape(worded)}", text), (lang, text[-400:])
