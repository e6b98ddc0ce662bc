"""Security audit 16 (2026-12-06): can a seat or a spectator use the server as an oracle for hidden
information (deck, stack and pile orders, undrawn cards, other seats' secret choices in a New Las
Vegas round, loans and reshuffle votes, the seed and the generator, future dice)?

Method: pairs of positions that look the same to seat S but differ in everything S may not know
(``state.determinize(S, other_seed)``: decks, stacks and piles redealt, other seats' loans, votes and
round steps redone, a fresh generator). Every answer S (or a spectator) can get must then be the same
on both: the view from any ``since`` (negative and past the end too), the legal moves, the action
mask, ``is_legal``, the numeric observation, the refusal of every move of the action space and of
crafted notation (rule id, English message and its Polish, German and Russian wording, or that the
move is taken), New Las Vegas drafts (their previews and refusals) and typed plans, and, through the
server, the payload with its event texts, refused moves at the current and at an older ``seq`` (the
simultaneous-round exception), moves by action number, drafts, the unfinished record and replays.

Found: no hole. Random and targeted positions of all four games (end games, Harbor markets with
empty decks, Game End near in Lords of Vegas, New Las Vegas reshuffle votes, half-finished rounds,
the solo deck) gave identical answers, and every refusal reads only the seat's own sheet, public
cards, coins, board and deck sizes. These tests keep it so: each fails if an answer starts to depend
on hidden information (checked by making a refusal read the next card of a deck: they fail).

Also checked and sound, without a test of their own here: the draft route answers only a seat's own
round (``_require_turn`` before anything), ``seq`` and ``event_count`` tell no more than ``to_act``
(one private event per finished decision), turn clocks are not restarted by secret choices, bot and
stand-in seeds are derived one-way from the game seed, the seed and salt come from ``secrets``,
replays of unfinished tables refuse other seats (403) and try no move (``instead``), and the random
fallback move of a late bot draws from the process generator, never the table's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from web_helpers import create

from tabletown.core.errors import ActionError
from tabletown.core.registry import get_game

LANGS = ("en", "pl", "de", "ru")
JUNK = [
    "",
    " ",
    "zz",
    "-1",
    "999",
    "a,b",
    "loan, a",
    "a, 1.1, skip, skip",
    "offer 1>0:$999",
    "build cafe",
    "roll 2",
]


def _random_position(name: str, players: int, options: dict[str, Any], seed: int, moves: int):
    game = get_game(name)
    state = game.new_game(players, options, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act[rng.randrange(len(state.to_act))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return game, state


def _outcome(game, state, seat: int, action: Any) -> tuple:
    trial = state.clone()
    try:
        trial.apply(seat, action)
    except ActionError as exc:
        return (exc.rule, exc.message, tuple(game.describe_error(exc, lang) for lang in LANGS))
    return ("taken",)


def _parsed(game, state, seat: int, text: str) -> tuple:
    try:
        action = state.parse_action(text, seat)
    except ActionError as exc:
        return (exc.rule, tuple(game.describe_error(exc, lang) for lang in LANGS))
    return (
        "read",
        state.format_action(action) if not isinstance(action, tuple) else repr(action),
        _outcome(game, state, seat, action),
    )


def _drafts(state, seat: int, rng: random.Random) -> list[list[str]]:
    """Step sequences a seat might draft: walks through its legal steps, each with a stray step after."""
    found: list[list[str]] = [[]]
    for _ in range(3):
        trial, steps = state.clone(), []
        while seat in trial.to_act and len(steps) < 4:
            action = rng.choice(trial.legal_actions(seat))
            steps.append(trial.format_action(action))
            found += [list(steps), [*steps, "skip"], [*steps, "b"]]
            trial.apply(seat, action)
    return found


def _answers(game, state, seat: int | None, actions: list, texts: list[str], drafts: list[list[str]]) -> dict:
    end = len(state.log)
    out: dict[str, Any] = {
        "views": [json.dumps(state.view(seat, since), sort_keys=True) for since in (0, -3, end - 2, end + 5)],
        "events": [game.describe_event(e, None, lang) for lang in LANGS for e in state.view(seat)["events"]],
    }
    if seat is None:
        return out
    out["legal"] = [state.format_action(a) for a in state.legal_actions(seat)]
    out["mask"] = bytes(state.legal_mask(seat))
    out["is_legal"] = [state.is_legal(seat, a) for a in actions]
    out["apply"] = [_outcome(game, state, seat, a) for a in actions]
    out["parse"] = [_parsed(game, state, seat, t) for t in texts]
    out["observation"] = [float(x) for x in state.observation(seat)]
    drafted = []
    for steps in drafts:
        try:
            drafted.append(json.dumps(state.draft(seat, steps), sort_keys=True))
        except ActionError as exc:
            drafted.append(f"{exc.rule}: {exc.message} / {game.describe_error(exc, 'ru')}")
    out["drafts"] = drafted
    return out


POSITIONS = [
    # (game, players, options, seed, moves played before each look)
    ("machikoro", 3, {"harbor": True}, 3, (9, 60, 61)),
    ("machikoro", 2, {"market": "hybrid", "harbor": True}, 4, (140,)),
    ("lordsofvegas", 3, {"open_market": True}, 5, (12, 70)),
    ("multicity", 3, {"deck": 12}, 6, (5, 17)),
    ("newlasvegas", 3, {}, 7, (4, 11, 30)),  # in the middle of simultaneous rounds
    ("newlasvegas", 1, {}, 8, (6, 25)),  # the solo deck and ACME's hidden loan card
]


@pytest.mark.parametrize(("name", "players", "options", "seed", "stops"), POSITIONS, ids=lambda p: str(p))
def test_every_answer_of_the_rules_is_blind_to_hidden_information(name, players, options, seed, stops):
    for moves in stops:
        game, state = _random_position(name, players, options, seed, moves)
        rng = random.Random(moves)
        space = game.action_space(players, state.options)
        for seat, redeal in ((s, r) for s in (None, *range(players)) for r in (1, 2)):
            twin = state.determinize(seat if seat is not None else 0, 1_000_003 * redeal + moves)
            assert twin.view(seat) == state.view(seat), "precondition: the seat sees no difference"
            # the whole action space where it is small (Machi Koro, New Las Vegas), a sample elsewhere
            actions = (
                list(space) if len(space) <= 700 else [space[i] for i in rng.sample(range(len(space)), 300)]
            )
            if seat is not None:
                actions += state.legal_actions(seat)[:40]
            texts = [state.format_action(a) for a in actions[:40]] + JUNK
            drafts = _drafts(state, seat, rng) if seat is not None and name == "newlasvegas" else [[]]
            mine = _answers(game, state, seat, actions, texts, drafts)
            theirs = _answers(game, twin, seat, actions, texts, drafts)
            for key, value in mine.items():
                assert value == theirs[key], (name, moves, seat, key)


# -- through the server ------------------------------------------------------------------------------


def _play(client, tables, rng, moves):
    """The same random moves at every table of ``tables`` ([(id, tokens)]), seat by seat."""
    svc = client.app.state.service
    first = svc.get(tables[0][0])
    for _ in range(moves):
        state = first.state
        if state.is_over:
            return
        seat = rng.choice(state.to_act)
        text = state.format_action(rng.choice(state.legal_actions(seat)))
        for table_id, tokens in tables:
            seq = svc.get(table_id).seq
            answer = client.post(
                f"/api/tables/{table_id}/actions", json={"token": tokens[seat], "seq": seq, "action": text}
            )
            assert answer.status_code == 200, answer.text


def _same(a: Any, b: Any, ids: tuple[str, str]) -> bool:
    """Equal but for the table's id and its commitment (each table has its own salt)."""

    def clean(doc: Any) -> Any:
        doc = json.loads(json.dumps(doc).replace(ids[1], ids[0]))
        if isinstance(doc, dict):
            for key in ("fairness", "commitment", "turn_deadline"):
                doc.pop(key, None)
        return doc

    return bool(clean(a) == clean(b))


@pytest.mark.parametrize(
    ("name", "players", "moves"),
    [("newlasvegas", 3, 10), ("newlasvegas", 1, 7), ("lordsofvegas", 2, 30), ("machikoro", 2, 40)],
)
def test_what_a_seat_can_ask_the_server_is_blind_to_hidden_information(client, name, players, moves):
    """Two tables with the same seed and moves; the second's live position is swapped for a copy
    redealt behind seat S's back. Everything S and a spectator can fetch must read the same."""
    made = [create(client, game=name, seats=["human"] * players, seed=41) for _ in range(2)]
    tables = [(m["id"], [s["token"] for s in m["seats"]]) for m in made]
    rng = random.Random(41)
    _play(client, tables, rng, moves)
    svc = client.app.state.service
    (ida, toka), (idb, tokb) = tables
    live_a, live_b = svc.get(ida), svc.get(idb)
    state = live_a.state
    space = live_a.game.action_space(players, live_a.options)
    for seat in range(players):
        with live_b.lock:
            live_b.state = state.determinize(seat, 77 + seat)
        legal = {state.format_action(a) for a in state.legal_actions(seat)}
        texts = [state.format_action(space[i]) for i in rng.sample(range(len(space)), 25)] + JUNK
        texts = [t for t in texts if t not in legal]
        numbers = [i for i in rng.sample(range(len(space)), 8) if state.format_action(space[i]) not in legal]
        steps = [[], ["a"], ["b", "1.1"], ["c", "zz"], ["skip"], ["loan"], ["12"], texts[:2]]

        def fetch(table_id, tokens, seat=seat, texts=texts, numbers=numbers, steps=steps):
            token = tokens[seat]
            seq = svc.get(table_id).seq
            got: dict[Any, Any] = {}
            for lang in ("en", "ru"):
                for since in (0, 5):
                    got["view", lang, since] = client.get(
                        f"/api/tables/{table_id}", params={"token": token, "lang": lang, "since": since}
                    ).json()
                got["spectator", lang] = client.get(f"/api/tables/{table_id}", params={"lang": lang}).json()
            for text in texts:
                for lang, at in (("en", seq), ("de", seq), ("en", seq - 1)):
                    answer = client.post(
                        f"/api/tables/{table_id}/actions?lang={lang}",
                        json={"token": token, "seq": at, "action": text},
                    )
                    got["move", text, lang, at] = (answer.status_code, answer.json())
            for number in [*numbers, len(space)]:
                answer = client.post(
                    f"/api/tables/{table_id}/actions", json={"token": token, "seq": seq, "action": number}
                )
                got["number", number] = (answer.status_code, answer.json())
            for drafted in steps:
                answer = client.post(f"/api/tables/{table_id}/draft", json={"token": token, "steps": drafted})
                got["draft", tuple(drafted)] = (answer.status_code, answer.json())
            got["record"] = client.get(f"/api/tables/{table_id}/record", params={"token": token}).json()
            for step in (seq // 2, seq):
                got["replay", step] = client.get(
                    f"/api/tables/{table_id}/replay", params={"token": token, "seat": seat, "step": step}
                ).json()
            assert svc.get(table_id).seq == seq, "a probe was taken as a move"
            return got

        mine, theirs = fetch(ida, toka), fetch(idb, tokb)
        for key, value in mine.items():
            assert _same(value, theirs[key], (ida, idb)), (name, seat, key, value, theirs[key])
        with live_b.lock:
            live_b.state = state.clone()


def test_a_move_at_an_older_seq_after_others_secret_steps_is_judged_on_the_seats_own_round(client):
    """The simultaneous-round exception applies a late move to the position after the other seats'
    secret steps: whether it is taken must not depend on what those steps were."""
    answers = []
    for other_plan in ("a, x", "refuse"):  # two different secret rounds of seat 1 (typed whole or not)
        made = create(client, game="newlasvegas", seats=["human", "human"], seed=21)
        table_id, tokens = made["id"], [s["token"] for s in made["seats"]]
        for seq, token in enumerate(tokens):
            assert (
                client.post(
                    f"/api/tables/{table_id}/actions", json={"token": token, "seq": seq, "action": "noloan"}
                ).status_code
                == 200
            )
        seen = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
        state = client.app.state.service.get(table_id).state
        steps = [state.format_action(a) for a in state.legal_actions(1)]
        plan = steps[0] if other_plan == "a, x" else (next((s for s in steps if s == "refuse"), steps[-1]))
        assert (
            client.post(
                f"/api/tables/{table_id}/actions",
                json={"token": tokens[1], "seq": seen["seq"], "action": plan},
            ).status_code
            == 200
        )
        late = []
        for text in ("zz", "skip", "a", "b", "c", "a+e", "refuse", seen["legal"][0]):
            answer = client.post(
                f"/api/tables/{table_id}/actions",
                json={"token": tokens[0], "seq": seen["seq"], "action": text},
            )
            late.append((text, answer.status_code, answer.json().get("rule")))
            if answer.status_code == 200:
                break
        answers.append(late)
    assert answers[0] == answers[1]
    assert answers[0][-1][1] == 200  # the seat's own legal step at the older seq still stands
