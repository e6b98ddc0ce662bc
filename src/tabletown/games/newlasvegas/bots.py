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


def _worth(sh: Sheet, ctx: dict[str, Any], memo: dict[tuple[Any, ...], float]) -> float:
    """``evaluate``, memoised for one decision: finishing the round from each first step meets the
    same sheets again and again (about two evaluations in five are repeats)."""
    key = sh.key()
    value = memo.get(key)
    if value is None:
        value = memo[key] = evaluate(sh, ctx)
    return value


def _finish(
    state: NewLasVegasState, sh: Sheet, turn: Turn, ctx: dict[str, Any], memo: dict[tuple[Any, ...], float]
) -> float:
    """Complete the round greedily one step at a time; the heuristic of the finished sheet."""
    while turn.stage < DONE:
        best, best_value = None, float("-inf")
        for action in state.step_actions(sh, turn):
            s2, t2 = sh.copy(), turn.clone()
            state.play_step(s2, t2, action, record=False)
            value = _worth(s2, ctx, memo)
            if value > best_value:
                best, best_value = action, value
        state.play_step(sh, turn, best, record=False)
    return _worth(sh, ctx, memo)


_MEMO_SIZE = 20_000


def phase_choice(state: NewLasVegasState) -> Any:
    """The package's bots' answer outside the rounds (take the loan, keep the cards); None in a round."""
    if state.phase == "loan":
        return LOAN_YES
    if state.phase == "reshuffle":
        return SHUFFLE_NO
    return None


class GreedyBot(Bot):
    name = "greedy"
    _memo_context: tuple[Any, ...] | None = None
    _memo: dict[tuple[Any, ...], float]

    def _memo_for(self, context: tuple[Any, ...]) -> dict[tuple[Any, ...], float]:
        """The sheet values this bot has worked out under ``context`` (the public facts ``evaluate``
        reads). Kept from one decision to the next: the steps of a round, and the rounds of a game,
        weigh many of the same sheets again. Dropped when the facts change or it grows large."""
        if context != self._memo_context or len(self._memo) > _MEMO_SIZE:
            self._memo_context, self._memo = context, {}
        return self._memo

    def choose(self, state: State, player: int) -> Any:
        assert isinstance(state, NewLasVegasState)
        legal = state.legal_actions(player)
        fixed = phase_choice(state)
        if fixed is not None:
            return fixed
        if len(legal) == 1:
            return legal[0]
        ctx = {"projects": state.projects, "golf": state.golf, "grand_taken": state.grand_taken}
        memo = self._memo_for((tuple(state.projects), state.golf, state.grand_taken))
        sh, turn = state.sheets[player], state.turns[player]
        best, best_value = legal[0], float("-inf")
        for action in legal:
            s2, t2 = sh.copy(), turn.clone()
            state.play_step(s2, t2, action, record=False)
            value = _finish(state, s2, t2, ctx, memo) + self.rng.random() * 1e-3
            if value > best_value:
                best, best_value = action, value
        return best
