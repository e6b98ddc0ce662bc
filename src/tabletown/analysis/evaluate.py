"""Win chances of one seat, from samples of what that seat may know.

Every estimate starts from ``seat_state(state, seat, seed)``: a copy in which everything the seat
cannot see (other hands, deck orders, secret choices, future dice) is drawn afresh. On each copy a
move is played, then ``depth`` more actions by the policy bot at every seat, and the position is
judged by the game's win-chance model from the seat's own observation (or, for a game and player
count without a shipped model, played out to the end by the policy). The same copies serve every
candidate move of a decision (common random numbers), so two moves are compared on the same hidden
cards and the same dice, which makes their difference far less noisy than either value.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots import make_bot
from ..core.game import Action, Game, State
from ..core.rng import SeededRNG, derive_seed
from ..core.session import seat_state
from .model import WinModel, shipped_model, win_credit


@dataclass(frozen=True)
class Settings:
    """How hard the analysis looks. Sample counts, not seconds, so that the same record and settings
    give the same figures on any machine; ``budget`` caps a decision's seconds as a safety valve."""

    samples: int = 16  # copies of the hidden information per candidate (shared by all candidates)
    depth: int = 0  # actions the policy plays after a move before the model judges (-1: to the end)
    candidates: int = 8  # moves evaluated in full; the rest are screened on ``screen`` copies first
    screen: int = 2
    policy: str = "expert"
    # How much better (in win chance) than the policy's own move another move must look to be named
    # the better move (see analyze.rate).
    anchor_margin: float = 0.05
    budget: float = 5.0
    seed: int = 30
    rate_decisions: bool = True  # off: only the win-chance curve and the luck (calibration runs)
    game_tuning: bool = True  # take the game's ANALYSIS_TUNING where these are left at their defaults


def tuned(game: Game, settings: Settings) -> Settings:
    """``settings`` with the game's own analysis tuning where the caller left the defaults: a game's
    ``search_model`` may name ``ANALYSIS_TUNING`` (the judge that measured best for it)."""
    from dataclasses import fields, replace

    from ..bots.search import game_model

    if not settings.game_tuning:
        return settings
    tuning = getattr(game_model(game), "ANALYSIS_TUNING", None) or {}
    defaults = Settings()
    changes = {
        f.name: tuning[f.name]
        for f in fields(Settings)
        if f.name in tuning and getattr(settings, f.name) == getattr(defaults, f.name)
    }
    return replace(settings, **changes) if changes else settings


class Evaluator:
    """Win chances for one game set-up (game, player count, options)."""

    def __init__(
        self,
        game: Game,
        num_players: int,
        options: dict[str, Any],
        settings: Settings,
        model: WinModel | None = None,
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.settings = settings
        self.model = model if model is not None else shipped_model(game, num_players, options)
        self.capped = 0

    @property
    def judge(self) -> str:
        """How positions are judged: the model, or play-outs to the end without one."""
        return "model" if self.model is not None else "play-out"

    # -- the building blocks ------------------------------------------------------------------
    def _play_on(self, sample: State, seed: int) -> None:
        """The policy plays ``depth`` actions (to the end without a model) on the sample."""
        limit = self.settings.depth if self.model is not None and self.settings.depth >= 0 else 10**9
        if limit <= 0:
            return
        # Fresh bots seeded by the sample: the same policy draws after every candidate, and nothing a
        # bot remembers from another sample (or another position) can colour this one.
        bots = [
            make_bot(self.game, self.settings.policy, derive_seed(seed, "bot", seat))
            for seat in range(self.num_players)
        ]
        steps = 0
        while steps < limit and sample.to_act:
            for seat in sample.to_act:
                if sample.is_over or seat not in sample.to_act:
                    continue
                sample.apply(seat, bots[seat].choose(sample, seat))
                steps += 1

    def _judge(self, samples: Sequence[State | None], seat: int) -> np.ndarray:
        """The seat's chance in each finished sample (NaN for a sample that could not be played)."""
        values = np.full(len(samples), np.nan)
        pending: list[int] = []
        rows: list[Any] = []
        for i, sample in enumerate(samples):
            if sample is None:
                continue
            result = sample.result()
            if result is not None:
                values[i] = win_credit(result, seat)
            elif self.model is not None:
                pending.append(i)
                rows.append(sample.observation(seat))
            else:
                values[i] = 0.5  # a play-out cut by the game's bound: no verdict
        if rows and self.model is not None:
            values[pending] = self.model.chances(np.asarray(rows, dtype=np.float32))
        return values

    def _after(self, base: State, seat: int, move: Action, seed: int) -> State | None:
        sample = base.clone()
        if not sample.is_legal(seat, move):
            return None
        sample.apply(seat, move)
        sample.rng = SeededRNG(derive_seed(seed, "after"))  # the same stream after every candidate
        self._play_on(sample, seed)
        return sample

    def sample_seeds(self, key: object, count: int) -> list[int]:
        return [derive_seed(self.settings.seed, key, k) for k in range(count)]

    # -- what the analysis asks ---------------------------------------------------------------
    def moves(self, state: State, seat: int, moves: Sequence[Action], key: object, count: int) -> np.ndarray:
        """A (moves × samples) table of the seat's chance after each move, on shared samples."""
        table = np.full((len(moves), count), np.nan)
        started = time.perf_counter()
        for k, seed in enumerate(self.sample_seeds(key, count)):
            if k and time.perf_counter() - started > self.settings.budget:
                self.capped += 1
                break
            base = seat_state(state, seat, seed)
            table[:, k] = self._judge([self._after(base, seat, move, seed) for move in moves], seat)
        return table

    def policy_move(self, state: State, seat: int, key: object) -> Action:
        """What the policy bot would play here, asked with a seat-safe copy."""
        bot = make_bot(self.game, self.settings.policy, derive_seed(self.settings.seed, key, "choice"))
        return bot.choose(seat_state(state, seat, derive_seed(self.settings.seed, key, "view")), seat)

    def chance_now(self, state: State, seat: int) -> float:
        """The seat's chance at this position, judged directly (no move played)."""
        if state.is_over:
            result = state.result()
            return win_credit(result, seat) if result is not None else 0.5
        if self.model is not None:
            return float(self.model.chances(np.asarray([state.observation(seat)], dtype=np.float32))[0])
        return float("nan")

    def expected_after(
        self, state: State, seat: int, actor: int, move: Action, key: object
    ) -> tuple[float, float]:
        """The mean and spread of ``seat``'s chance right after ``actor`` plays ``move``, over what
        ``seat`` did not know before it (dice to come, hidden cards): the baseline of luck."""
        samples: list[State | None] = []
        for seed in self.sample_seeds(key, self.settings.samples):
            sample = seat_state(state, seat, seed)
            if sample.is_legal(actor, move):
                sample.apply(actor, move)
                samples.append(sample)
            else:
                samples.append(None)
        values = self._judge(samples, seat)
        values = values[~np.isnan(values)]
        if not len(values):
            return float("nan"), 0.0
        return float(values.mean()), float(values.std())
