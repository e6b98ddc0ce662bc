"""The greedy bot: plays each round's steps to maximise a heuristic of its own sheet.

At every step it tries each legal action on a copy of its sheet, finishes the round greedily
(best casino, best copy, best effect) and keeps the action whose finished round scores best.
It looks only at its own sheet and the public cards, so it never uses hidden information. The
steps are the rules' own: ``state.step_actions`` lists them and ``state.play_step`` plays them on a
copy of the sheet (never a copy of the rules).
"""

from __future__ import annotations

from typing import Any

from ...core.game import Bot, State
from .actions import LOAN_YES, SHUFFLE_NO
from .heuristics import evaluate
from .sheet import Sheet
from .state import NewLasVegasState
from .steps import DONE, Turn


def _finish(state: NewLasVegasState, sh: Sheet, turn: Turn, ctx: dict[str, Any]) -> float:
    """Complete the round greedily one step at a time; the heuristic of the finished sheet."""
    while turn.stage < DONE:
        best, best_value = None, float("-inf")
        for action in state.step_actions(sh, turn):
            s2, t2 = sh.copy(), turn.clone()
            state.play_step(s2, t2, action, record=False)
            value = evaluate(s2, ctx)
            if value > best_value:
                best, best_value = action, value
        state.play_step(sh, turn, best, record=False)
    return evaluate(sh, ctx)


def phase_choice(state: NewLasVegasState) -> Any:
    """The package's bots' answer outside the rounds (take the loan, keep the cards); None in a round."""
    if state.phase == "loan":
        return LOAN_YES
    if state.phase == "reshuffle":
        return SHUFFLE_NO
    return None


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> Any:
        assert isinstance(state, NewLasVegasState)
        legal = state.legal_actions(player)
        fixed = phase_choice(state)
        if fixed is not None:
            return fixed
        if len(legal) == 1:
            return legal[0]
        ctx = {"projects": state.projects, "golf": state.golf, "grand_taken": state.grand_taken}
        sh, turn = state.sheets[player], state.turns[player]
        best, best_value = legal[0], float("-inf")
        for action in legal:
            s2, t2 = sh.copy(), turn.clone()
            state.play_step(s2, t2, action, record=False)
            value = _finish(state, s2, t2, ctx) + self.rng.random() * 1e-3
            if value > best_value:
                best, best_value = action, value
        return best
