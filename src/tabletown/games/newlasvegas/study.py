"""What a strategy study reads from a Welcome To New Las Vegas game (``tabletown study newlasvegas``).

Openings: the bank choice (``loan``/``noloan``; ``none`` in the first-game variant), the first two
effects a seat plays, its first upgrade column, and the colour of the first project card it completes.
Uses: every effect (``op``, ``con``, ``show``, ``limo``, ``skip``, ``up:COLUMN``), the bonuses
(``bonus:e``, ``bonus:f``, ``bonus:x``), refusals and expansions. Tracks, at each new round: the
running score (the end-of-game scoring applied to the sheets as they stand).
"""

from __future__ import annotations

import re
from typing import Any

from ...study.features import GameWatcher
from .data import PROJECT_DECKS, UPGRADE_IDS
from .scoring import score_multiplayer
from .state import NewLasVegasState

TURN = "a turn is one round (every architect picks and builds at once)"
ROUNDS = True  # every seat plays every turn

EFFECTS = ("op", "con", "show", "limo", "skip")
_PICK = re.compile(r"^(?:[abc]|[1-3][1-3])(?:\+([efx]))?$")

PLAN: list[tuple[int, tuple[str, ...], dict[str, Any]]] = [
    (1, ("expert",), {}),
    (1, ("expert",), {"architect": 7}),
    (2, ("random",), {}),
    (2, ("greedy",), {}),
    (2, ("expert",), {}),
    (4, ("expert",), {}),
    (2, ("expert",), {"first_game": True}),
]


def catalogue(state: NewLasVegasState) -> list[str]:
    ups = [f"up:{column}" for column in UPGRADE_IDS if state.golf or not column.startswith("par")]
    return [*EFFECTS, *ups, "bonus:e", "bonus:f", "bonus:x", "refuse", "expand"]


class Watcher(GameWatcher[NewLasVegasState]):
    tracks = ("score",)

    def __init__(self, state: NewLasVegasState) -> None:
        self.round = state.round_no
        self.projects = [list(sheet.proj) for sheet in state.sheets]
        self.effects: list[list[str]] = [[] for _ in range(state.num_players)]
        super().__init__(state)

    def values(self, state: NewLasVegasState) -> dict[str, list[float]]:
        totals = score_multiplayer(state.sheets, state.loans, state.golf, state.bank_rule)
        return {"score": [player["total"] for player in totals]}

    def see(self, state: NewLasVegasState, seat: int, text: str, simultaneous: bool) -> None:
        if state.round_no != self.round:
            self.round = state.round_no
            self.new_turn(state)
        for step in text.split(","):
            self._step(seat, step.strip())
        done, before = state.sheets[seat].proj, self.projects[seat]
        if done != before:
            for index, (now, then) in enumerate(zip(done, before, strict=True)):
                if now and not then:
                    self.first(seat, "first_project", PROJECT_DECKS[index])
            self.projects[seat] = list(done)

    def _step(self, seat: int, step: str) -> None:
        if step in ("loan", "noloan"):
            self.open[seat]["loan"] = step
            return
        if step.startswith("refuse"):
            self.count(seat, "refuse")
            return
        pick = _PICK.match(step)
        if pick:
            if pick.group(1):
                self.count(seat, f"bonus:{pick.group(1)}")
            return
        if step.startswith("x") and "." in step:
            self.count(seat, "expand")
            return
        word = step.split(" ")[0]
        if word.startswith("show"):
            word = "show"
        if word == "up":
            column = step.split(" ")[1]
            self.count(seat, f"up:{column}")
            self.first(seat, "first_upgrade", column)
            word = f"up:{column}"
        elif word in EFFECTS:
            self.count(seat, word)
        else:
            return  # an opening (street.avenue), shuffle/keep
        effects = self.effects[seat]
        effects.append(word.split(":")[0])
        if len(effects) == 2:
            self.open[seat]["effects_1_2"] = ">".join(effects)

    def defaults(self) -> dict[str, str]:
        return {"loan": "none", "first_upgrade": "none", "first_project": "none", "effects_1_2": "none"}
