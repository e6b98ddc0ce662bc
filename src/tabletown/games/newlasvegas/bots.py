"""The greedy bot: plays each round's steps to maximise a heuristic of its own sheet.

At every step it tries each legal action on a copy of its sheet, finishes the round greedily
(best casino, best copy, best effect) and keeps the action whose finished round scores best.
It looks only at its own sheet and the public cards, so it never uses hidden information.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Bot, State
from .heuristics import evaluate
from .rules import COPY, EFFECT, OPEN, PICK, NewLasVegasState, Turn
from .sheet import Sheet


def _apply_step(state: NewLasVegasState, sh: Sheet, turn: Turn, action: Any) -> None:
    """The effect of one step on a private sheet copy (mirrors the state's own steps)."""
    kind = action[0]
    if kind == "pick":
        _, i, j, bonus = action
        turn.i, turn.j, turn.bonus = i, j, bonus
        turn.num, turn.eff = state.combo(i, j)
        if bonus:
            g = sh.groups_ready()[0]
            sh.spent |= 1 << g
            if bonus == "x":
                sh.exp |= 1 << g
        turn.stage = OPEN
    elif kind == "refuse":
        sh.marks = min(sh.marks + 2, 19)
        turn.stage = 4
    elif kind == "open":
        sh.open_slot(action[1], turn.num + action[2])
        turn.main = action[1]
        turn.stage = COPY if turn.bonus == "x" else EFFECT
    elif kind == "copy":
        s = action[1]
        sh.open_slot(s, sh.nums[s - 1] if action[2] == "l" else sh.nums[s + 1])
        turn.stage = EFFECT
    else:
        if kind == "eff":
            _, eff, target = action
            if eff == "op":
                sh.marks += 1
            elif eff == "con":
                sh.built |= 1 << target
            elif eff == "up":
                sh.ups[target] += 1
            elif eff == "show":
                sh.shows[target] += 1
                sh.star_ok |= 1 << turn.main
                turn.show = True
            else:
                for d, edge, to in sh.limo_moves():
                    if d == target:
                        sh.drive(edge, to)
                        break
        if turn.main >= 0 and not turn.show:
            from .data import SLOT_STAR

            if SLOT_STAR[turn.main]:
                sh.star_x |= 1 << turn.main
        turn.stage = 4


def _actions(state: NewLasVegasState, sh: Sheet, turn: Turn) -> list[Any]:
    if turn.stage == PICK:
        return state._pick_actions(sh)
    if turn.stage == OPEN:
        return state._open_actions(sh, turn)
    if turn.stage == COPY:
        return [("copy", s, side) for s, side in sh.copy_options()]
    return state._effect_actions(sh, turn)


def _finish(state: NewLasVegasState, sh: Sheet, turn: Turn, ctx: dict[str, Any]) -> float:
    """Complete the round greedily one step at a time; the heuristic of the finished sheet."""
    while turn.stage < 4:
        best, best_value = None, float("-inf")
        for action in _actions(state, sh, turn):
            s2, t2 = sh.copy(), turn.clone()
            _apply_step(state, s2, t2, action)
            value = evaluate(s2, ctx)
            if value > best_value:
                best, best_value = action, value
        _apply_step(state, sh, turn, best)
    return evaluate(sh, ctx)


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> Any:
        assert isinstance(state, NewLasVegasState)
        legal = state.legal_actions(player)
        if state.phase == "loan":
            return ("loan", 1)
        if state.phase == "reshuffle":
            return ("shuffle", 0)
        if len(legal) == 1:
            return legal[0]
        ctx = {"projects": state.projects, "golf": state.golf, "grand_taken": state.grand_taken}
        sh, turn = state.sheets[player], state.turns[player]
        best, best_value = legal[0], float("-inf")
        for action in legal:
            s2, t2 = sh.copy(), turn.clone()
            _apply_step(state, s2, t2, action)
            value = _finish(state, s2, t2, ctx) + self.rng.random() * 1e-3
            if value > best_value:
                best, best_value = action, value
        return best
