"""A finished game analysed decision by decision (``tabletown analyze``).

For each decision of a seat (an action it chose among two or more legal ones), from that seat's
information at that moment only:

* ``chance_before``: the seat's chance when the decision came up (the model's verdict on its view);
* ``chance_after``: after the move it played, ``chance_best`` after the best move found (several
  candidates on shared samples: every legal move when there are few, else the played move, the
  policy's move and the best of the rest by a quick screen);
* ``loss``: ``chance_best - chance_after`` (never negative: the played move is a candidate), and its
  class by the thresholds in :data:`CLASSES`.

Each action whose outcome the seats could not foresee (a roll, a draw, a hidden choice revealed)
is *luck*: each seat's chance right after it minus what that seat expected of it (the mean over
its samples of the hidden information and the dice), so bad luck and bad play can be told apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..core.game import Action, Game, State
from ..core.record import Record, apply_recorded
from ..core.registry import get_game
from ..core.words import Names
from .evaluate import Evaluator, Settings, tuned
from .model import WinModel

# A decision's class by its loss in win chance (0..1). The bounds are set from the losses measured
# over arena games (docs/analysis.md): most of the expert's decisions lose less than the first.
CLASSES = (("blunder", 0.15), ("mistake", 0.07), ("inaccuracy", 0.03))

# Luck below this (in win chance) is not listed as an event; it still counts in the totals.
LUCK_SHOWN = 0.02


def classify(loss: float) -> str:
    for name, bound in CLASSES:
        if loss >= bound:
            return name
    return ""


@dataclass
class Decision:
    index: int  # the action's number in the record, from 1
    seat: int
    played: str
    best: str
    chance_before: float
    chance_after: float
    chance_best: float
    loss: float
    cls: str
    candidates: int
    played_words: str = ""
    best_words: str = ""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["class"] = data.pop("cls")
        for key in ("chance_before", "chance_after", "chance_best", "loss"):
            data[key] = round(data[key], 4)
        return data


@dataclass
class ChanceEvent:
    index: int
    seat: int  # who acted
    action: str
    luck: list[float]  # each seat's chance after minus what it expected
    chances: list[float]  # each seat's chance right after

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "action": self.action,
            "luck": [round(v, 4) for v in self.luck],
            "chances": [round(v, 4) for v in self.chances],
        }


@dataclass
class Analysis:
    game: str
    seats: list[str]
    settings: Settings
    judge: str
    decisions: list[Decision] = field(default_factory=list)
    chance_events: list[ChanceEvent] = field(default_factory=list)
    # each seat's chance after every action (index 0: before the first), for the graph
    curve: list[list[float]] = field(default_factory=list)
    total_luck: list[float] = field(default_factory=list)
    result: dict[str, Any] | None = None
    capped: int = 0

    def seat_summary(self, seat: int) -> dict[str, Any]:
        mine = [d for d in self.decisions if d.seat == seat]
        losses = np.array([d.loss for d in mine]) if mine else np.zeros(0)
        counts = {name: sum(1 for d in mine if d.cls == name) for name, _ in CLASSES}
        return {
            "seat": seat,
            "name": self.seats[seat],
            "decisions": len(mine),
            "average_loss": round(float(losses.mean()), 4) if len(mine) else 0.0,
            "inaccuracies": counts["inaccuracy"],
            "mistakes": counts["mistake"],
            "blunders": counts["blunder"],
            "luck": round(self.total_luck[seat], 4) if self.total_luck else 0.0,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "settings": asdict(self.settings),
            "judge": self.judge,
            "result": self.result,
            "seats": [self.seat_summary(seat) for seat in range(len(self.seats))],
            "decisions": [d.to_json() for d in self.decisions],
            "chance_events": [e.to_json() for e in self.chance_events],
            "curve": [[round(v, 4) for v in row] for row in self.curve],
            "capped": self.capped,
        }


def _first_words(game: Game, state: State, seat: int, action: Action, names: Names, lang: str) -> str | None:
    """The first event ``action`` makes on ``state`` (which it changes), in words; None if none."""
    since = len(state.log)
    try:
        state.apply(seat, action)
    except Exception:  # noqa: BLE001 - a move the copy refuses is shown in notation instead
        return None
    for event in state.events(seat, since):
        text = game.describe_event(event, names, lang)
        if text:
            return text
    return None


def move_words(
    game: Game, state: State, seat: int, action: Action, names: Names, lang: str, played: bool = False
) -> str:
    """The move in people's words, as its seat reads it: the first event it makes.

    A move played is told from the game itself (the game is over, so nothing it shows is secret any
    more). A move not played can only be tried on seat-safe copies, whose dice and draws are made up:
    its words are used only when two copies with different draws agree on them, so "you roll 3" is
    never invented; otherwise the notation stands."""
    if played:
        said = _first_words(game, state.clone(), seat, action, names, lang)
        return said or state.format_action(action)
    from ..core.session import seat_state

    told = {_first_words(game, seat_state(state, seat, draw), seat, action, names, lang) for draw in (1, 2)}
    said = told.pop() if len(told) == 1 else None
    return said or state.format_action(action)


def seat_names_of(record: Record, lang: str) -> list[str]:
    """What to call each seat of a record: a bot by its level ("Expert bot"), a person by name."""
    from ..core.i18n import seat_names

    pairs = [(s, None) if s.startswith("bot:") or s == "human" else ("human", s) for s in record.seats]
    return seat_names(pairs, lang)


def _candidates(
    evaluator: Evaluator, state: State, seat: int, played: Action, key: object
) -> tuple[list[Action], int]:
    """The played move first, then the others worth evaluating in full; and where in that list the
    policy's (the expert's) own move is, the anchor of the verdict."""
    legal = state.legal_actions(seat)
    limit = evaluator.settings.candidates
    policy = evaluator.policy_move(state, seat, key)
    if policy not in legal:  # (a policy answering outside the legal moves is not trusted)
        policy = played
    chosen = [played] if policy == played else [played, policy]
    rest = [move for move in legal if move not in chosen]
    if len(legal) > limit and evaluator.settings.screen > 0 and evaluator.model is not None:
        quick = evaluator.moves(state, seat, rest, (key, "screen"), evaluator.settings.screen)
        order = np.argsort(-np.nan_to_num(np.nanmean(quick, axis=1), nan=-1.0), kind="stable")
        rest = [rest[i] for i in order]
    moves = chosen + rest[: max(0, limit - len(chosen))]
    return moves, moves.index(policy)


def rate(evaluator: Evaluator, state: State, seat: int, played: Action, index: int) -> Decision:
    """One decision's verdict. The best move is the expert's (the anchor) unless another candidate
    beats it by ``anchor_margin`` of win chance: the model ranks the positions after sibling moves
    far less reliably than it tells who is ahead (a bot playing the model's favourite move at every
    decision wins 0-17% against the expert, docs/analysis.md), so it may overrule the expert only
    when it is clearly sure."""
    key = ("decision", index)
    moves, anchor = _candidates(evaluator, state, seat, played, key)
    table = evaluator.moves(state, seat, moves, key, evaluator.settings.samples)
    usable = ~np.isnan(table).any(axis=0)  # samples where every candidate could be played
    if not usable.any():
        usable = ~np.isnan(table[0])
    means = np.nanmean(table[:, usable], axis=1) if usable.any() else np.zeros(len(moves))
    means = np.nan_to_num(means, nan=-1.0)
    best = int(np.argmax(means))
    if means[best] - means[anchor] < evaluator.settings.anchor_margin:
        best = anchor
    if means[best] - means[0] <= 1e-9:
        best = 0  # the move played is as good as any the analysis trusts
    loss = max(0.0, float(means[best] - means[0]))
    before = evaluator.chance_now(state, seat)
    if np.isnan(before):
        before = float(means[0])
    return Decision(
        index=index + 1,
        seat=seat,
        played=state.format_action(played),
        best=state.format_action(moves[best]),
        chance_before=before,
        chance_after=float(means[0]),
        chance_best=float(means[best]),
        loss=loss,
        cls=classify(loss),
        candidates=len(moves),
    )


def _rated(
    evaluator: Evaluator, state: State, player: int, action: Action, index: int, labels: list[str], lang: str
) -> Decision:
    """The verdict on one decision, with the moves in words: told of the seat by its name ("Expert
    bot builds a Cafe"), as a report read by anyone tells every seat's moves (a seat's own words,
    "You build...", read wrongly under another seat's name)."""
    decision = rate(evaluator, state, player, action, index)
    names = Names(labels, viewer=None)
    decision.played_words = move_words(evaluator.game, state, player, action, names, lang, played=True)
    if decision.best != decision.played:
        best_action = state.parse_action(decision.best, player)
        decision.best_words = move_words(evaluator.game, state, player, best_action, names, lang)
    return decision


def _follow_luck(
    evaluator: Evaluator, analysis: Analysis, state: State, index: int, player: int, text: str, action: Action
) -> None:
    """Apply the recorded action, adding each seat's chance after it to the curve and what it did
    to each seat against that seat's expectation to the luck."""
    seats = range(state.num_players)
    expected = [evaluator.expected_after(state, s, player, action, ("luck", index, s)) for s in seats]
    apply_recorded(state, index, player, text)
    now = [evaluator.chance_now(state, s) for s in seats]
    analysis.curve.append(now)
    luck = [
        now[s] - mean if not np.isnan(mean) else 0.0 for s, (mean, _) in zip(seats, expected, strict=True)
    ]
    for s in seats:
        analysis.total_luck[s] += luck[s]
    if any(spread > 1e-9 for _, spread in expected) and max(abs(v) for v in luck) >= LUCK_SHOWN:
        analysis.chance_events.append(ChanceEvent(index + 1, player, text, luck, now))


def analyze(
    record: Record,
    settings: Settings | None = None,
    seat: int | None = None,
    lang: str = "en",
    progress: Callable[[int, int], None] | None = None,
    model: WinModel | None = None,
) -> Analysis:
    """Analyse a record (of a finished game or not): every decision of every seat, or of ``seat``."""
    game = get_game(record.game)
    settings = tuned(game, settings or Settings())
    state = record.initial_state()
    evaluator = Evaluator(game, state.num_players, dict(state.options), settings, model)
    labels = seat_names_of(record, lang)
    analysis = Analysis(game=game.name, seats=labels, settings=settings, judge=evaluator.judge)
    seats = range(state.num_players)
    luck_on = evaluator.model is not None
    analysis.total_luck = [0.0] * state.num_players
    analysis.curve = [[evaluator.chance_now(state, s) for s in seats]] if luck_on else []
    total = len(record.actions)
    for index, (player, text) in enumerate(record.actions):
        if progress is not None:
            progress(index, total)
        action = state.parse_action(text, player)
        if settings.rate_decisions and seat in (None, player) and len(state.legal_actions(player)) > 1:
            analysis.decisions.append(_rated(evaluator, state, player, action, index, labels, lang))
        if luck_on:
            _follow_luck(evaluator, analysis, state, index, player, text, action)
        else:
            apply_recorded(state, index, player, text)
    if progress is not None:
        progress(total, total)
    result = state.result()
    analysis.result = result.to_json() if result is not None else None
    analysis.capped = evaluator.capped
    return analysis
