"""A seat's round composed step by step before it is sent, and the running score.

The browser lets a player click through a round (pick, open, copy, effect) and undo freely before
confirming it as one plan. Every click asks the server what the steps so far lead to: this module
plays them on copies of the seat's sheet and turn with the rules' own ``step_actions`` and
``play_step`` and answers with the sheet, the turn, the next steps on offer (as data for the board
to draw) and everyone's score if the game ended now. Nothing of the real position changes, and the
answer holds only what the seat already sees plus its own unsent steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import IllegalAction, MalformedAction
from .actions import Effect, Expand, Open, Pick, Refuse, Skip
from .data import CARD_EFFECT, UPGRADE_IDS
from .scoring import score_now
from .sheet import Sheet

if TYPE_CHECKING:
    from .state import NewLasVegasState
    from .steps import Turn

MAX_DRAFT_STEPS = 8  # a round has at most four steps; a little slack for clear errors, no more
_STEP_TYPES = (Pick, Refuse, Open, Expand, Effect, Skip)  # the actions of a round's steps


def running_score(state: NewLasVegasState, sheets: list[Sheet]) -> dict[str, Any]:
    """``score_now`` with the position's public solo facts (ACME's pile, hotels and projects)."""
    solo = None
    if state.solo:
        solo = {
            "architect": state.options.get("architect", 1),
            "pile": [CARD_EFFECT[c] for c in state.acme_pile],
            "hotels": bin(state.acme_hotels).count("1"),
            "projects": list(state.acme_proj),
        }
    return score_now(sheets, state.golf, solo)


def score_seen_by(state: NewLasVegasState, player: int | None) -> dict[str, Any]:
    """``running_score`` of the sheets ``player`` sees, memoized: every view carries it, and the
    public sheets change only when the log grows (a round resolves), a seat's private copy only
    with its own steps. The memo lives in ``_cache_score`` (left out of snapshots and fingerprints,
    dropped by ``clone``), keyed by the log's length. The answer is shared: read it, never change it."""
    key: tuple[int, int] | None = None
    if player is not None and state.sheets[player] is not state.public[player]:
        key = (player, len(state.turns[player].steps))
    memo: tuple[int, dict[Any, dict[str, Any]]] | None = getattr(state, "_cache_score", None)
    if memo is None or memo[0] != len(state.log):
        memo = (len(state.log), {})
        state._cache_score = memo
    found = memo[1].get(key)
    if found is None:
        found = memo[1][key] = running_score(state, seen_sheets(state, player))
    return found


def seen_sheets(state: NewLasVegasState, player: int | None) -> list[Sheet]:
    """The sheets as ``player`` may see them: its own as it stands, the others' from the round's start."""
    over = state.is_over
    return [state.sheets[q] if (q == player or over) else state.public[q] for q in range(state.num_players)]


def step_option(action: Any, text: str, sh: Sheet) -> dict[str, Any]:
    """One step on offer, as data the board draws (a target on the sheet, a button)."""
    cls = type(action)
    if cls is Pick:
        return {
            "kind": "pick",
            "text": text,
            "i": action.number_card,
            "j": action.effect_card,
            "bonus": action.bonus,
        }
    if cls is Refuse:
        return {"kind": "refuse", "text": text, "card": action.card}
    if cls is Open:
        return {"kind": "open", "text": text, "slot": action.slot, "d": action.change}
    if cls is Expand:
        return {"kind": "copy", "text": text, "slot": action.slot, "side": action.side}
    if cls is Skip:
        return {"kind": "skip", "text": text}
    eff, target = action.effect, action.target
    option: dict[str, Any] = {"kind": "eff", "text": text, "eff": eff, "target": target}
    if eff == "up":
        option["target"] = UPGRADE_IDS[target]
    elif eff == "limo":
        # The lamp it drives to and the segment it uses, so the board can light them.
        option["edge"], option["to"] = next((e, to) for d, e, to in sh.limo_moves() if d == target)
    return option


def draft(state: NewLasVegasState, player: int, texts: list[str]) -> dict[str, Any]:
    """Play ``texts`` (steps in notation) on copies of ``player``'s sheet and turn; see the module."""
    from .phases import ROUND
    from .state import sheet_view
    from .steps import turn_view

    state._require_turn(player)
    if state.phase != ROUND:
        raise IllegalAction("nlv.draft", "only a round's steps are composed one by one")
    if len(texts) > MAX_DRAFT_STEPS:
        raise MalformedAction("nlv.draft", "a round has at most {most} steps", most=MAX_DRAFT_STEPS)
    sh = state.sheets[player].copy()
    turn = state.turns[player].clone()
    played = []
    for text in texts:
        action = state.parse_action(text, player) if isinstance(text, str) else None
        if type(action) not in _STEP_TYPES:
            raise MalformedAction("nlv.draft", "{text!r} is not one step of a round", text=text)
        legal = state.step_actions(sh, turn)
        if action not in legal:
            _explain(state, player, sh, turn, action)
        state.play_step(sh, turn, action)
        played.append(action)
    sheets = seen_sheets(state, player)
    sheets[player] = sh
    return {
        "steps": [state.format_action(a) for a in played],
        "turn": turn_view(turn),
        "sheet": sheet_view(sh),
        "options": [step_option(a, state.format_action(a), sh) for a in state.step_actions(sh, turn)],
        "score_now": running_score(state, sheets),
    }


def _explain(state: NewLasVegasState, player: int, sh: Sheet, turn: Turn, action: Any) -> None:
    """Raise the rule a refused draft step breaks, as ``apply`` would explain it."""
    from .steps import DONE

    if turn.stage == DONE:
        raise IllegalAction("nlv.plan_too_long", "your round is complete before this step")
    trial = state.clone()
    trial.sheets[player] = sh.copy()
    trial.turns[player] = turn.clone()
    trial._cache = None
    trial._check(player, action)
    raise IllegalAction("nlv.illegal", "{action} is not allowed now", action=state.format_action(action))
