"""A tiny game for testing bots and the arena: a dice race with a hidden card and secret bets.

It exercises everything the search bot and the arena must cope with, in a few dozen actions:

* chance (a die), a hidden deck (order unknown to all) and a hidden hand (one card per seat),
* a simultaneous round (secret bets) whose choices stay hidden until everyone has chosen.

Rules. Seats race to ``target`` points. On your turn you ``r``oll (a 1 busts: you lose the turn's
total; anything else adds to it), ``b``ank the turn total, or ``p``lay your card once per turn (adds
its value to the turn total and you draw a new one). After every full round of turns, everyone bets
0, 1 or 2 in secret; a unique highest bet scores its value. First to bank to ``target`` wins at once.

Only the tests register it (see ``use_toygame``), so it never shows up in the real game list.
"""

from __future__ import annotations

import random
from typing import Any

from tabletown.core.errors import IllegalAction, MalformedAction
from tabletown.core.events import Event
from tabletown.core.game import Bot, Game, Result, State
from tabletown.core.options import Option
from tabletown.core.rng import SeededRNG
from tabletown.core.spaces import SIMULTANEOUS, ActionSpace, GameType

ROLL, BANK, PLAY = "r", "b", "p"
BETS = (0, 1, 2)
DECK = (0, 1, 1, 2, 2, 3, 3, 4, 5)


class ToyState(State):
    # The engine's slots first, as in every game's state (machikoro/state.py, lordsofvegas/state.py,
    # newlasvegas/state.py) on purpose: core's State has no slots, so each state lists all of its own.
    __slots__ = (
        "num_players",
        "options",
        "seed",
        "rng",
        "log",
        "scores",
        "turn_total",
        "current",
        "phase",
        "hands",
        "deck",
        "bets",
        "played",
        "winner",
    )

    def __init__(self, num_players: int, options: dict[str, Any], seed: int) -> None:
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.rng = SeededRNG(seed)
        self.log: list[Event] = []
        self.scores = [0] * num_players
        self.turn_total = 0
        self.current = 0
        self.phase = "turn"
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands = [deck.pop() for _ in range(num_players)]
        self.deck = deck
        self.bets: list[int | None] = [None] * num_players
        self.played = False
        self.winner: int | None = None
        self.log.append(Event("deal", {"players": num_players}))
        for seat, card in enumerate(self.hands):
            self.log.append(Event("draw", {"seat": seat, "card": card}, (seat,)))

    # -- turn ---------------------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.winner is not None:
            return ()
        if self.phase == "bet":
            return tuple(p for p in range(self.num_players) if self.bets[p] is None)
        return (self.current,)

    def legal_actions(self, player: int) -> list[Any]:
        if player not in self.to_act:
            return []
        if self.phase == "bet":
            return list(BETS)
        actions = [ROLL, BANK]
        if not self.played and self.deck:
            actions.append(PLAY)
        return actions

    def is_secret(self, player: int, action: Any) -> bool:
        return self.phase == "bet"

    def apply(self, player: int, action: Any) -> None:
        self._require_turn(player)
        if action not in self.legal_actions(player):
            raise IllegalAction("toy.not_allowed", f"{action!r} is not allowed now")
        if self.phase == "bet":
            self.bets[player] = action
            if all(b is not None for b in self.bets):
                self._resolve_bets()
            return
        if action == ROLL:
            face = self.rng.die()
            if face == 1:
                self.log.append(Event("bust", {"seat": player, "lost": self.turn_total}))
                self._next_turn()
            else:
                self.turn_total += face
                self.log.append(Event("roll", {"seat": player, "face": face}))
        elif action == PLAY:
            self.turn_total += self.hands[player]
            self.log.append(Event("play", {"seat": player, "card": self.hands[player]}))
            self.hands[player] = self.deck.pop()
            self.log.append(Event("draw", {"seat": player, "card": self.hands[player]}, (player,)))
            self.played = True
        else:
            self.scores[player] += self.turn_total
            self.log.append(Event("bank", {"seat": player, "points": self.turn_total}))
            if self.scores[player] >= self.options["target"]:
                self.winner = player
                return
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn_total = 0
        self.played = False
        self.current = (self.current + 1) % self.num_players
        if self.current == 0:
            self.phase = "bet"

    def _resolve_bets(self) -> None:
        top = max(self.bets)  # type: ignore[type-var]
        if top and self.bets.count(top) == 1:
            seat = self.bets.index(top)
            self.scores[seat] += top
            self.log.append(Event("bets", {"bets": list(self.bets), "scorer": seat, "points": top}))
        else:
            self.log.append(Event("bets", {"bets": list(self.bets), "scorer": None, "points": 0}))
        self.bets = [None] * self.num_players
        self.phase = "turn"

    # -- outcome ------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def result(self) -> Result | None:
        if self.winner is None:
            return None
        return Result.single_winner(self.num_players, self.winner, [float(s) for s in self.scores])

    def heuristic(self) -> list[float]:
        """Share of the target reached: the optional value the search bot uses at its rollout cap."""
        target = self.options["target"]
        return [min(1.0, s / target) for s in self.scores]

    # -- information --------------------------------------------------------------------------------
    def view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        base = self._base_view(player, since)
        base["state"] = {
            "scores": list(self.scores),
            "turn_total": self.turn_total,
            "current": self.current,
            "phase": self.phase,
            "deck_size": len(self.deck),
            "played": self.played,
            "hand": self.hands[player] if player is not None else None,
            "bet_placed": [b is not None for b in self.bets],
            "my_bet": self.bets[player] if player is not None else None,
        }
        return base

    def clone(self) -> ToyState:
        # Slot by slot like every game's clone (machikoro/state.py's) on purpose: the toy mirrors them.
        twin = ToyState.__new__(ToyState)
        twin.num_players = self.num_players
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = self.rng.clone()
        twin.log = list(self.log)
        twin.scores = list(self.scores)
        twin.turn_total = self.turn_total
        twin.current = self.current
        twin.phase = self.phase
        twin.hands = list(self.hands)
        twin.deck = list(self.deck)
        twin.bets = list(self.bets)
        twin.played = self.played
        twin.winner = self.winner
        return twin

    def determinize(self, player: int, seed: int) -> ToyState:
        twin = self.clone()
        twin.rng = SeededRNG(seed)
        # Unknown cards: the deck and the other seats' hands, dealt afresh.
        others = [p for p in range(self.num_players) if p != player]
        # Sorted first so the sample depends only on what ``player`` sees, not on the true order.
        pool = sorted(twin.deck + [twin.hands[p] for p in others])
        twin.rng.shuffle(pool)
        for p in others:
            twin.hands[p] = pool.pop()
        twin.deck = pool
        # Others' secret bets: any bet is possible.
        for p in others:
            if twin.bets[p] is not None:
                twin.bets[p] = twin.rng.choice(BETS)
        return twin

    # -- notation -----------------------------------------------------------------------------------
    def format_action(self, action: Any) -> str:
        return f"bet{action}" if isinstance(action, int) else str(action)

    def parse_action(self, text: str, player: int) -> Any:
        text = text.strip().lower()
        if text in (ROLL, BANK, PLAY):
            return text
        if text.startswith("bet") and text[3:] in ("0", "1", "2"):
            return int(text[3:])
        raise MalformedAction("toy.notation", f"not a toy move: {text!r}")


def hidden_twin(state: ToyState, seat: int) -> ToyState | None:
    """A copy of a two-seat ``state`` that differs only in what ``seat`` cannot see: the rival's card
    swapped with the deck's last, the deck shuffled; None when there is nothing hidden to swap."""
    other = state.clone()
    rival = 1 - seat
    if not other.deck or other.deck[-1] == other.hands[rival]:
        return None
    other.hands[rival], other.deck[-1] = other.deck[-1], other.hands[rival]
    random.Random(1).shuffle(other.deck)
    return other


class ToyGreedy(Bot):
    """Banks at 6 or more, plays its card when it is worth 2 or more, bets 1."""

    name = "greedy"

    def choose(self, state: State, player: int) -> Any:
        legal = state.legal_actions(player)
        if 1 in legal:
            return 1
        assert isinstance(state, ToyState)
        if PLAY in legal and state.hands[player] >= 2:
            return PLAY
        if state.turn_total >= 6 or state.scores[player] + state.turn_total >= state.options["target"]:
            return BANK
        return ROLL


ACTIONS = (ROLL, BANK, PLAY, *BETS)


class ToyGame(Game):
    name = "toyrace"
    title = "Toy Race"
    min_players = 2
    max_players = 4
    options = (Option("target", 20, "points to win", minimum=5, maximum=100),)
    bench_configs = ((2, {}),)

    # Not a true bound: a run of busts and tied bets could in principle go on forever.
    game_type = GameType(
        SIMULTANEOUS, True, True, 2, 4, "points banked; the winner reached the target", 200_000
    )

    def build_action_space(self, num_players: int, options: dict[str, Any]) -> ActionSpace:
        return ActionSpace(ACTIONS)

    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> ToyState:
        return ToyState(num_players, options, seed)

    def bots(self):
        return {"greedy": ToyGreedy}


ToyState.game = ToyGame()
TOY = ToyState.game
