"""How strong is the post-game analysis's judge? A bot that plays whatever the analysis names the best
move (``tabletown.analysis.analyze.rate`` with the expert's move as the move under review) against
the expert, two players, seats alternating (docs/analysis.md, docs/bots.md).

    python benchmarks/judge_strength.py GAME [--games 40] [--margin M] [--depth D] [--samples S]

``--depth -1`` judges by expert play-outs to the end, else by the win-chance model after ``depth``
expert actions. Prints the judge's score against the expert and how often it left the expert's move.
"""

from __future__ import annotations

import argparse
import time

from tabletown.analysis.analyze import rate
from tabletown.analysis.evaluate import Evaluator, Settings
from tabletown.bots import make_bot
from tabletown.core.game import Action, Bot, Game, State
from tabletown.core.registry import get_game
from tabletown.core.rng import derive_seed
from tabletown.core.session import bot_agent, play_out


class JudgeBot(Bot):
    """Plays the move the analysis would call best, were the expert's move the one under review."""

    needs_state = True

    def __init__(self, game: Game, settings: Settings, seed: int) -> None:
        super().__init__(seed)
        self.game = game
        self.settings = settings
        self.evaluator: Evaluator | None = None
        self.overrides = 0
        self.decisions = 0

    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        if self.evaluator is None:
            self.evaluator = Evaluator(self.game, state.num_players, dict(state.options), self.settings)
        expert = self.evaluator.policy_move(state, player, ("judge", self.decisions))
        verdict = rate(self.evaluator, state, player, expert, self.decisions)
        self.decisions += 1
        if verdict.best != verdict.played:
            self.overrides += 1
        return state.parse_action(verdict.best, player)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--depth", type=int, default=0)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=6)
    args = parser.parse_args()
    game = get_game(args.game)
    settings = Settings(
        samples=args.samples,
        candidates=args.candidates,
        anchor_margin=args.margin,
        depth=args.depth,
        budget=10.0,
    )
    score, overrides, decisions, started = 0.0, 0, 0, time.time()
    for index in range(args.games):
        seed, seat = derive_seed(77, index // 2), index % 2
        state = game.new_game(2, None, seed)
        judge = JudgeBot(game, settings, seed)
        bots: list[Bot] = (
            [judge, make_bot(game, "expert", seed + 1)]
            if seat == 0
            else [make_bot(game, "expert", seed + 1), judge]
        )
        play_out(state, [bot_agent(bot, seed + k) for k, bot in enumerate(bots)])
        result = state.result()
        assert result is not None
        score += 1 / len(result.winners) if seat in result.winners else 0.0
        overrides, decisions = overrides + judge.overrides, decisions + judge.decisions
    print(
        f"{args.game}: margin {args.margin}, depth {args.depth}, samples {args.samples}: judge {score:g} of "
        f"{args.games} against the expert ({score / args.games:.1%}); left the expert's move at {overrides} "
        f"of {decisions} decisions; {(time.time() - started) / args.games:.2f} s a game"
    )


if __name__ == "__main__":
    main()
