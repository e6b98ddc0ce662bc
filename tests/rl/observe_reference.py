"""The observations as first written (issue 20), kept as the tests' reference: plain Python, one
number at a time, New Las Vegas from the seat's JSON view (``view(seat)``, which the contract tests
hold to what the seat may know). The games' ``observe`` modules gather bytes and convert them in
NumPy for speed; ``test_observe_reference.py`` checks that they give exactly these numbers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tabletown.games.lordsofvegas import data as lv_data
from tabletown.games.lordsofvegas import phases as lv_phases
from tabletown.games.machikoro import phases as mk_phases
from tabletown.games.multicity import state as mc_state
from tabletown.games.newlasvegas import data as nlv_data


def _one_hot(value: Any, choices: Any) -> list[float]:
    return [1.0 if value == choice else 0.0 for choice in choices]


# -- Machi Koro -------------------------------------------------------------------------------------
def machikoro(state: Any, player: int) -> list[float]:
    n = state.num_players
    kinds = [i for i, live in enumerate(state.t.in_play) if live]
    obs: list[float] = []
    for k in range(n):
        p = (player + k) % n
        obs.append(state.coins[p] * 0.1)
        obs += [state.cards[p][i] * 0.25 for i in kinds]
        obs += [float(state.lm[p] >> j & 1) for j in range(7)]
    obs += [state.supply[i] / 6.0 for i in kinds]
    obs += [len(deck) * 0.05 for deck in state.decks]
    obs += _one_hot((state.current - player) % n, range(n))
    obs += _one_hot(state.phase, range(len(mk_phases.PHASE_NAMES)))
    d1, d2 = state.dice
    obs += [d1 / 6.0, d2 / 6.0, state.total / 14.0]
    obs += [float(state.rerolled), float(state.built), float(state.purple_stage), float(state.park_at_start)]
    obs.append(min(state.turn, 200) * 0.01)
    obs.append(1.0 if state.phase == mk_phases.OVER and state.winner == player else 0.0)
    return obs


# -- Multicity --------------------------------------------------------------------------------------
MC_RADIUS = 3
MC_SIDE = 3 * (2 * MC_RADIUS + 1)
MC_LOW = -3 * MC_RADIUS


def _mc_channel(code: int, player: int, n: int) -> int:
    if code == mc_state.HOLE:
        return n + 1
    if code >= n:
        return n
    return (code - player) % n


def multicity(state: Any, player: int) -> np.ndarray:
    n = state.num_players
    colours = n + 2
    planes = 1 + colours + 2
    area = MC_SIDE * MC_SIDE
    slots = 2 * MC_RADIUS + 1
    free_at = planes * area
    drawn_at = free_at + slots * slots
    tail_at = drawn_at + 9 * colours + 1
    ones: list[int] = []
    for (sx, sy), (tile, turn) in state.tiles.items():
        if -MC_RADIUS <= sx <= MC_RADIUS and -MC_RADIUS <= sy <= MC_RADIUS:
            corner = (3 * sy - MC_LOW) * MC_SIDE + 3 * sx - MC_LOW
            for i, code in enumerate(state.rotations[tile][turn]):
                square = corner + (i // 3) * MC_SIDE + i % 3
                ones += [square, (1 + _mc_channel(code, player, n)) * area + square]
    base = (MC_LOW + mc_state.OFFSET) * mc_state.STRIDE + MC_LOW + mc_state.OFFSET
    for seat, place in state.objects:
        plane = (1 + colours if seat == player else 2 + colours) * area
        for square in mc_state.object_squares(place):
            gy, gx = divmod(square - base, mc_state.STRIDE)
            if 0 <= gx < MC_SIDE and 0 <= gy < MC_SIDE:
                ones.append(plane + gy * MC_SIDE + gx)
    for sx, sy in state.frontier:
        if -MC_RADIUS <= sx <= MC_RADIUS and -MC_RADIUS <= sy <= MC_RADIUS:
            ones.append(free_at + (sy + MC_RADIUS) * slots + sx + MC_RADIUS)
    if state.drawn is not None:
        ones.append(tail_at - 1)
        for i, code in enumerate(state.rotations[state.drawn][0]):
            ones.append(drawn_at + i * colours + _mc_channel(code, player, n))
    tail: list[float] = []
    for k in range(n):
        p = (player + k) % n
        left = state.unplaced[p]
        tail += [1.0 if length in left else 0.0 for length in mc_state.LENGTHS]
        tail.append(sum(left) / 27.0)
        cands = state.cands[p]
        tail.append(min(len(cands), 100) / 100.0)
        lengths = [place.length for place in cands]
        tail += [min(lengths.count(length), 5) / 5.0 for length in mc_state.LENGTHS]
    phase = state.phase
    tail += _one_hot(phase, range(len(mc_state.PHASE_IDS)))
    current = (state.current - player) % n
    tail += [1.0 if k == current and phase != mc_state.OVER else 0.0 for k in range(n)]
    tail += _one_hot((state.first - player) % n, range(n))
    tail += [len(state.stack) / 32.0, len(state.tiles) / 32.0]
    tail.append(state.final_index / n if phase == mc_state.FINAL else 0.0)
    obs = np.zeros(tail_at + len(tail), dtype=np.float32)
    obs[ones] = 1.0
    obs[tail_at:] = tail
    return obs


# -- Lords of Vegas ---------------------------------------------------------------------------------
def lordsofvegas(state: Any, player: int) -> list[float]:
    n = state.num_players
    colors, lots_count = lv_data.NUM_COLORS, lv_data.NUM_LOTS

    def rel(seat: int) -> int:
        return (seat - player) % n

    width = 2 * n + colors + 3
    obs = [0.0] * (lots_count * width)
    for lot in range(lots_count):
        at = lot * width
        if state.marker[lot] >= 0:
            obs[at + rel(state.marker[lot])] = 1.0
        if state.tile[lot] >= 0:
            obs[at + n + state.tile[lot]] = 1.0
        if state.dieo[lot] >= 0:
            obs[at + n + colors + rel(state.dieo[lot])] = 1.0
        obs[at + 2 * n + colors] = state.diev[lot] / 6.0
        obs[at + 2 * n + colors + 1] = 1.0 if lot in state.deck else 0.0
        obs[at + 2 * n + colors + 2] = 1.0 if lot in state.discard else 0.0
    for k in range(n):
        p = (player + k) % n
        obs += [
            state.money[p] / 50.0,
            state.score[p] / 60.0,
            (lv_data.DICE_PER_PLAYER - state.dice_out[p]) / lv_data.DICE_PER_PLAYER,
            (lv_data.MARKERS_PER_PLAYER - state.markers_out[p]) / lv_data.MARKERS_PER_PLAYER,
        ]
    obs += [left / 9.0 for left in state.tiles_left]
    ended = lv_data.GAME_END in state.discard
    obs += [len(state.deck) / 50.0, 0.0 if ended else state.cards_before_game_end() / 50.0, float(ended)]
    phase = state.phase
    obs += _one_hot(phase, range(len(lv_phases.PHASE_NAMES)))
    obs += _one_hot(rel(state.active), range(n))
    obs += [
        min(state.turn, 200) / 100.0,
        float(state.gambled),
        state.offers_made / 3.0,
        len(state.bans) / 5.0,
    ]
    proposer, boss, gambler, chooser = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
    chosen_lot = [0.0] * lots_count
    bet = queue = 0.0
    if phase == lv_phases.OFFER and state.offer is not None:
        proposer[rel(state.offer[0])] = 1.0
    elif phase == lv_phases.LAYOFF and state.pending is not None:
        b, g, wager = state.pending
        boss[rel(b)] = 1.0
        gambler[rel(g)] = 1.0
        bet = wager / 10.0
    elif phase in (lv_phases.PICK_DIE, lv_phases.FREE_LOT) and state.pending is not None:
        chooser[rel(state.pending[0])] = 1.0
        chosen_lot[state.pending[1]] = 1.0
    elif phase == lv_phases.MARKET:
        queue = len(state.market) / 10.0
    elif phase == lv_phases.PLACE:
        queue = len(state.place_queue) / 10.0
    return obs + proposer + boss + gambler + [bet] + chooser + chosen_lot + [queue]


# -- New Las Vegas (from the seat's JSON view) ------------------------------------------------------
# Alike in places to games/newlasvegas/observe.py on purpose: the plain reference it is checked against.
NLV_PHASES = ("loan", "round", "reshuffle", "over")
NLV_STEPS = ("pick", "open", "copy", "effect", "done")
NLV_BONUSES = ("", "e", "f", "x")
NLV_DECKS = ("pink", "purple", "yellow")
NLV_AVENUES = 11
NLV_PARS = (3, 4, 5)


def _nlv_slots(names: list[str]) -> list[float]:
    bits = [0.0] * nlv_data.NUM_SLOTS
    for name in names:
        bits[nlv_data.SLOT_BY_NAME[name]] = 1.0
    return bits


def _nlv_card(card: Mapping[str, Any] | None) -> list[float]:
    if card is None:
        return [0.0] * (1 + len(nlv_data.EFFECTS))
    return [card["number"] / 17.0, *_one_hot(card["effect"], nlv_data.EFFECTS)]


def _nlv_sheet(sheet: Mapping[str, Any]) -> list[float]:
    out: list[float] = []
    for number in sheet["numbers"]:
        out += [0.0, 0.0] if number is None else [1.0, number / 17.0]
    for key in ("cranes_built", "stars_circled", "stars_crossed", "carpets_passed"):
        out += _nlv_slots(sheet[key])
    out += [value / 5.0 for value in sheet["shows"]]
    out += [sheet["upgrades"].get(column, 0) / 5.0 for column in nlv_data.UPGRADE_IDS]
    out += [sheet["opening_marked"] / 20.0, sheet["opening_unused"] / 20.0]
    out += [len(sheet["groups_spent"]) / 8.0, len(sheet["groups_expansion"]) / 8.0]
    golf = sheet["golf"]
    out += [golf["holes"].count(par) / 5.0 for par in NLV_PARS]
    out += [golf["crossed"].count(par) / 5.0 for par in NLV_PARS]
    limousine = sheet["limousine"]
    out += _one_hot(limousine["at"], range(nlv_data.NUM_LAMPS))
    out += [len(limousine["edges"]) / 20.0, float(limousine["complete"])]
    for hotel in sheet["hotels"]:
        out += [1.0 if hotel == "grand" else 0.0, 1.0 if hotel == "small" else 0.0]
    out += [points / 20.0 for points in sheet["projects"]]
    out += [sheet["vault"] / 10.0, sheet["open_loans"] / 5.0]
    return out


def newlasvegas(state: Any, player: int) -> list[float]:
    view = state.view(player, since=len(state.log))["state"]
    n = state.num_players
    obs = _one_hot(view["phase"], NLV_PHASES)
    obs.append(view["round"] / 50.0)
    for project in view["projects"]:
        obs += [project["first"] / 20.0, project["later"] / 20.0, float(project["approved"])]
        obs += _one_hot(project["deck"], NLV_DECKS)
    obs += [1.0 if avenue in view["grand_taken"] else 0.0 for avenue in range(1, NLV_AVENUES + 1)]
    obs.append(float(view["first_game"]))
    players = view["players"]
    for k in range(n):
        seat = players[(player + k) % n]
        obs += _nlv_sheet(seat["sheet"])
        loan = seat.get("loan")
        obs += [float(seat["acting"]), 0.0 if loan is None else 1.0, 1.0 if loan else 0.0]
    turn = players[player].get("turn")
    effects = nlv_data.EFFECTS
    if turn is None:
        obs += [0.0] * (1 + len(NLV_STEPS) + 6 + 1 + len(effects) + len(NLV_BONUSES))
    else:
        i, j = turn["combination"] if turn.get("combination") else (-1, -1)
        obs.append(1.0)
        obs += _one_hot(turn["step"], NLV_STEPS)
        obs += _one_hot(i, (0, 1, 2)) + _one_hot(j, (0, 1, 2))
        number = turn.get("number")
        obs.append(0.0 if number is None or number < 0 else number / 17.0)
        obs += _one_hot(turn.get("effect"), effects)
        obs += _one_hot(turn.get("bonus"), NLV_BONUSES)
    if n > 1:
        for card in view.get("combinations") or [None] * 3:
            obs += _nlv_card(card)
        obs += [size / 27.0 for size in view.get("pile_sizes") or [0, 0, 0]]
        return obs
    for card in view.get("hand") or [None] * 3:
        obs += _nlv_card(card)
    acme = view["acme"]
    obs += [points / 20.0 for points in acme["projects"]]
    obs += [1.0 if avenue in acme["hotels"] else 0.0 for avenue in range(1, NLV_AVENUES + 1)]
    obs += [acme["approvals_seen"] / 3.0, acme["deck_size"] / 81.0, acme["discard_size"] / 81.0]
    obs += [acme["pile"].count(effect) / 5.0 for effect in effects]
    top = acme["deck_top"]
    obs += _one_hot(top, effects) + [
        1.0 if top == f"approval_{c}" else 0.0 for c in nlv_data.APPROVAL_COLOURS
    ]
    obs += _one_hot(acme["loan_card_effect"], effects)
    return obs


REFERENCE = {
    "machikoro": machikoro,
    "multicity": multicity,
    "lordsofvegas": lordsofvegas,
    "newlasvegas": newlasvegas,
}
