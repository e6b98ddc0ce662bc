"""The one driver loop: ask each seat in ``to_act`` for an action until the game ends.

Every driver — the terminal, the arena, benchmarks, the search bot's playouts, tests and later the
web server — goes through :func:`play_out`. Bots are wrapped by :func:`bot_agent`, which hands them a
copy made for their seat (:func:`seat_state`) and never the live game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .game import Action, Bot, State
from .record import Record
from .rng import standard_draws

Agent = Callable[[State, int], Action]


class LegalMoves:
    """What a bot that needs only the legal moves receives: the seat, its moves and who acts.

    It holds copies, not the state, so nothing hidden can be read through it."""

    __slots__ = ("seat", "moves", "to_act", "num_players")

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        self.moves = state.legal_actions(seat)
        self.to_act = state.to_act
        self.num_players = state.num_players

    def legal_actions(self, player: int) -> list[Action]:
        if player != self.seat:
            raise ValueError("a bot may list only its own seat's moves")
        return list(self.moves)


def seat_state(state: State, seat: int, seed: int) -> State:
    """A copy of ``state`` that holds only what ``seat`` may know.

    Hidden information is resampled (``state.determinize``), events private to other seats are
    dropped, and the game seed is replaced, since the seed would let a bot recreate every shuffle.
    The copy shares nothing mutable with ``state``: a bot may do anything to it."""
    twin = state.determinize(seat, seed)
    twin.log = [event for event in twin.log if event.seats is None or seat in event.seats]
    twin.seed = seed
    twin.options = dict(
        twin.options
    )  # clones share the options; a bot writing to them must not change the table's rules
    return twin


def bot_agent(bot: Bot, seed: int = 0) -> Agent:
    """An agent that asks ``bot`` with a seat-safe copy of the game (or just the legal moves).

    The copies' determinization seeds come from a generator seeded with ``seed``, so a game between
    bots is reproducible from its seeds."""
    if not bot.needs_state:

        def legal_only(state: State, seat: int) -> Action:
            return bot.choose(LegalMoves(state, seat), seat)  # type: ignore[arg-type]

        return legal_only
    draws = random.Random(seed)

    def safe(state: State, seat: int) -> Action:
        return bot.choose(seat_state(state, seat, draws.getrandbits(63)), seat)

    return safe


def bot_agents(bots: Sequence[Bot], seed: int = 0) -> list[Agent]:
    """One seat-safe agent per bot, each with its own stream of determinization seeds."""
    return [bot_agent(bot, seed * 1_000_003 + index) for index, bot in enumerate(bots)]


def play_out(
    state: State,
    agents: Sequence[Agent],
    record: Record | None = None,
    on_action: Callable[[State, int, str, bool], None] | None = None,
    max_actions: int | None = None,
    stop_after: int | None = None,
    finish_rounds: bool = False,
) -> int:
    """Ask the agents for actions until the game ends; returns the number of actions applied.

    In a simultaneous round every seat in ``to_act`` is asked in seat order and each answer is
    applied at once (the state keeps it from the other seats). ``on_action(state, seat, text,
    simultaneous)`` hears of every applied action; ``simultaneous`` is true while other seats choose
    in the same round, so a display must not reveal it yet. ``max_actions`` (default: the game's
    bound) guards against a game that never ends; ``stop_after`` ends the loop quietly after that
    many actions (search playouts cut short). With ``finish_rounds`` a seat of a simultaneous round
    is asked again until its part of the round is done (the terminal's hot-seat: one seat at the
    keyboard at a time); by default every waiting seat is asked for one action in turn."""
    limit = max_actions if max_actions is not None else _game_bound(state)
    budget = limit if stop_after is None else min(limit, stop_after)
    needs_text = record is not None or on_action is not None
    if needs_text or finish_rounds:
        count = _play_observed(state, agents, budget, record, on_action, finish_rounds)
    else:
        count = _play_quietly(state, agents, budget)
    if state.to_act and (stop_after is None or count < stop_after):
        raise RuntimeError(f"game did not end within {limit} actions")
    if record is not None and not state.to_act:
        record.finish(state)
    return count


def _play_quietly(state: State, agents: Sequence[Agent], budget: int) -> int:
    """The loop for benchmarks, arena games and search playouts: nobody watches or records, so each
    action is just asked for and applied. When every seat is the same random agent its draw is
    inlined (:func:`_play_randomly`: the benchmark's figure is mostly this loop and the rules)."""
    shared = agents[0] if agents else None
    if isinstance(shared, RandomAgent) and all(agent is shared for agent in agents):
        return _play_randomly(state, shared, budget)
    count = 0
    apply = state.apply
    while count < budget:
        acting = state.to_act
        if not acting:
            break
        if len(acting) == 1:
            player = acting[0]
            apply(player, agents[player](state, player))
            count += 1
            continue
        # A simultaneous round: every waiting seat answers once, in seat order, each answer applied
        # at once (a seat whose part ended with an earlier answer is skipped).
        for player in acting:
            if player in state.to_act:
                apply(player, agents[player](state, player))
                count += 1
    return count


def _play_randomly(state: State, agent: RandomAgent, budget: int) -> int:
    """:func:`_play_quietly` for one shared random agent, with ``rng.choice`` written out when the
    generator draws as the standard library does (``core.rng.standard_draws``): two Python calls less
    per action."""
    apply = state.apply
    legal = state.legal_actions
    count = 0
    if not standard_draws(agent.rng):
        choice = agent.choice
        while count < budget:
            acting = state.to_act
            if not acting:
                break
            for player in acting:
                if player in state.to_act:
                    apply(player, choice(legal(player)))
                    count += 1
        return count
    getrandbits = agent.rng.getrandbits
    while count < budget:
        acting = state.to_act
        if not acting:
            break
        for player in acting:
            if len(acting) > 1 and player not in state.to_act:
                continue
            moves = legal(player)
            size = len(moves)
            if not size:
                raise IndexError("Cannot choose from an empty sequence")
            # random.Random.choice -> _randbelow_with_getrandbits, draw for draw.
            bits = size.bit_length()
            pick = getrandbits(bits)
            while pick >= size:
                pick = getrandbits(bits)
            apply(player, moves[pick])
            count += 1
    return count


# _play_randomly (above), _play_observed and _finish_round (below) are alike on purpose: the playout
# loop spelled out for each case, its hot path.
def _play_observed(
    state: State,
    agents: Sequence[Agent],
    budget: int,
    record: Record | None,
    on_action: Callable[[State, int, str, bool], None] | None,
    finish_rounds: bool,
) -> int:
    """The loop with a record, a listener or hot-seat rounds (see :func:`play_out`)."""
    count = 0
    needs_text = record is not None or on_action is not None
    while count < budget:
        acting = state.to_act
        if not acting:
            break
        simultaneous = len(acting) > 1
        for player in acting:
            if simultaneous and player not in state.to_act:
                continue
            action = agents[player](state, player)
            if finish_rounds and simultaneous:
                count += _finish_round(state, agents, player, action, record, on_action)
                continue
            if needs_text:
                text = state.format_action(action)
                state.apply(player, action)
                if record is not None:
                    record.add(player, text)
                if on_action is not None:
                    on_action(state, player, text, simultaneous)
            else:
                state.apply(player, action)
            count += 1
    return count


def _finish_round(
    state: State,
    agents: Sequence[Agent],
    player: int,
    action: Action,
    record: Record | None,
    on_action: Callable[[State, int, str, bool], None] | None,
) -> int:
    """Apply ``action`` and keep asking ``player`` while its part of the round goes on: it is still
    waited for and the round has not resolved (which shows as more seats waiting than before)."""
    count = 0
    while True:
        before = len(state.to_act)
        text = state.format_action(action)
        state.apply(player, action)
        count += 1
        if record is not None:
            record.add(player, text)
        if on_action is not None:
            on_action(state, player, text, True)
        if not round_goes_on(state, player, before):
            return count
        action = agents[player](state, player)


def round_goes_on(state: State, player: int, acting_before: int) -> bool:
    """Whether ``player``'s part of a simultaneous round goes on after a step: it is still waited
    for, alongside another seat, and the round has not resolved (a resolved round shows as more
    seats waiting than the ``acting_before`` of the step)."""
    acting = state.to_act
    return player in acting and 2 <= len(acting) <= acting_before


def _game_bound(state: State) -> int:
    try:
        return state.game.game_type.max_actions
    except NotImplementedError:
        return 1_000_000


class RandomAgent:
    """Uniformly random legal moves from ``rng`` (the benchmark's and soak tests' player). A class
    rather than a closure so that :func:`play_out` can recognise it and inline its choice."""

    __slots__ = ("rng", "choice")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.choice = rng.choice

    def __call__(self, state: State, seat: int) -> Action:
        return self.choice(state.legal_actions(seat))


def random_agent(rng: random.Random) -> Agent:
    """A :class:`RandomAgent` drawing from ``rng``."""
    return RandomAgent(rng)


def play_bots(state: State, bots: Sequence[Bot], seed: int = 0, **kwargs: Any) -> State:
    """Play ``state`` to its end with one bot per seat (seat-safe); returns the state."""
    play_out(state, bot_agents(bots, seed), **kwargs)
    return state
