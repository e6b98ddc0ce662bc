"""Welcome To New Las Vegas as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Built from the seat's own view (``view(seat)["state"]``), which the contract tests already hold to
what that seat may know: its own sheet and its own steps of the round, the others' sheets as they
stood at the start of the round, never the others' loan choices or steps, never the piles' order.

Layout (fixed per set-up, ``game.observation_size``): phase one-hot and round; the three projects
(points first / later, approved); grand hotels taken per avenue; then per seat (own first, then the
others in seat order after it) its sheet (each casino slot: filled, number; cranes built, stars
circled / crossed, red carpets passed; shows, upgrades, opening boxes, bonus groups, golf holes,
limousine lamp and segments, hotels, project points, vault, open loans), whether it still chooses
and its bank choice if the seat may know it; the seat's own step of the round (step, combination,
number, effect, bonus); the round's combinations and pile sizes (multiplayer) or hand and ACME
(solo). ``install()``
(run when the game's package imports this module) puts ``observation`` on the game's State;
``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .data import APPROVAL_COLOURS, EFFECTS, NUM_LAMPS, NUM_SLOTS, SLOT_BY_NAME, UPGRADE_IDS
from .rules import NewLasVegasState

PHASES = ("loan", "round", "reshuffle", "over")
STEPS = ("pick", "open", "copy", "effect", "done")
BONUSES = ("", "e", "f", "x")
DECKS = ("pink", "purple", "yellow")
AVENUES = 11
PARS = (3, 4, 5)


def _one_hot(value: Any, choices: tuple) -> list[float]:
    return [1.0 if value == choice else 0.0 for choice in choices]


def _slots(names: list[str]) -> list[float]:
    bits = [0.0] * NUM_SLOTS
    for name in names:
        bits[SLOT_BY_NAME[name]] = 1.0
    return bits


def _card(card: Mapping[str, Any] | None) -> list[float]:
    if card is None:
        return [0.0] * (1 + len(EFFECTS))
    return [card["number"] / 17.0, *_one_hot(card["effect"], EFFECTS)]


def _sheet(sheet: Mapping[str, Any]) -> list[float]:
    out: list[float] = []
    for number in sheet["numbers"]:
        out += [0.0, 0.0] if number is None else [1.0, number / 17.0]
    for key in ("cranes_built", "stars_circled", "stars_crossed", "carpets_passed"):
        out += _slots(sheet[key])
    out += [value / 5.0 for value in sheet["shows"]]
    upgrades = sheet["upgrades"]
    out += [upgrades.get(column, 0) / 5.0 for column in UPGRADE_IDS]
    out += [sheet["opening_marked"] / 20.0, sheet["opening_unused"] / 20.0]
    out += [len(sheet["groups_spent"]) / 8.0, len(sheet["groups_expansion"]) / 8.0]
    golf = sheet["golf"]
    out += [golf["holes"].count(par) / 5.0 for par in PARS]
    out += [golf["crossed"].count(par) / 5.0 for par in PARS]
    limousine = sheet["limousine"]
    out += _one_hot(limousine["at"], tuple(range(NUM_LAMPS)))
    out += [len(limousine["edges"]) / 20.0, float(limousine["complete"])]
    for hotel in sheet["hotels"]:
        out += [1.0 if hotel == "grand" else 0.0, 1.0 if hotel == "small" else 0.0]
    out += [points / 20.0 for points in sheet["projects"]]
    out += [sheet["vault"] / 10.0, sheet["open_loans"] / 5.0]
    return out


def observation(self: NewLasVegasState, player: int) -> list[float]:
    view = self.view(player, since=len(self.log))["state"]
    n = self.num_players
    obs = _one_hot(view["phase"], PHASES)
    obs.append(view["round"] / 50.0)
    for project in view["projects"]:
        obs += [project["first"] / 20.0, project["later"] / 20.0, float(project["approved"])]
        obs += _one_hot(project["deck"], DECKS)
    taken = view["grand_taken"]
    obs += [1.0 if avenue in taken else 0.0 for avenue in range(1, AVENUES + 1)]
    obs.append(float(view["first_game"]))
    players = view["players"]
    for k in range(n):
        seat = players[(player + k) % n]
        obs += _sheet(seat["sheet"])
        loan = seat.get("loan")
        obs += [float(seat["acting"]), 0.0 if loan is None else 1.0, 1.0 if loan else 0.0]
    turn = players[player].get("turn")
    if turn is None:
        obs += [0.0] * (1 + len(STEPS) + 6 + 1 + len(EFFECTS) + len(BONUSES))
    else:
        i, j = turn["combination"] if turn.get("combination") else (-1, -1)
        obs.append(1.0)
        obs += _one_hot(turn["step"], STEPS)
        obs += _one_hot(i, (0, 1, 2)) + _one_hot(j, (0, 1, 2))
        number = turn.get("number")
        obs.append(0.0 if number is None or number < 0 else number / 17.0)
        obs += _one_hot(turn.get("effect"), EFFECTS)
        obs += _one_hot(turn.get("bonus"), BONUSES)
    if n > 1:
        combinations = view.get("combinations") or [None] * 3
        for card in combinations:
            obs += _card(card)
        obs += [size / 27.0 for size in view.get("pile_sizes") or [0, 0, 0]]
    else:
        hand = view.get("hand") or [None] * 3
        for card in hand:
            obs += _card(card)
        acme = view["acme"]
        obs += [points / 20.0 for points in acme["projects"]]
        hotels = acme["hotels"]
        obs += [1.0 if avenue in hotels else 0.0 for avenue in range(1, AVENUES + 1)]
        obs += [acme["approvals_seen"] / 3.0, acme["deck_size"] / 81.0, acme["discard_size"] / 81.0]
        obs += [acme["pile"].count(effect) / 5.0 for effect in EFFECTS]
        top = acme["deck_top"]
        obs += _one_hot(top, EFFECTS) + [1.0 if top == f"approval_{c}" else 0.0 for c in APPROVAL_COLOURS]
        obs += _one_hot(acme["loan_card_effect"], EFFECTS)
    return obs


def install() -> None:
    if "observation" not in NewLasVegasState.__dict__:
        NewLasVegasState.observation = observation


install()
