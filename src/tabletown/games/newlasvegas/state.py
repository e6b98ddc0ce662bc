"""Welcome To New Las Vegas: the game state (set-up, ``apply``'s dispatch, views, copies, hidden
information, saved positions). Its other parts are mixins by topic: ``steps.py`` (a seat's round:
:class:`~.steps.Turn` and the step logic), ``rounds.py`` (dealing, resolution, races, the solo
game's ACME, the end) and ``hidden.py`` (the redraws of ``determinize``); ``phases.py`` holds the
phases, ``fields.py`` the slots' types; ``sheet.py``, ``scoring.py`` and ``draft.py`` are one
sheet's rules, the final scores and the browser's draft.

Every round is simultaneous: each seat works on a private copy of its sheet; the others see the
copy taken at the start of the round (``public``). The round resolves once every seat has
finished: hotel and project races, the end triggers, the next cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.game import Result, State
from ...core.rng import SeededRNG
from .actions import ACTION_TYPES, LOAN_NO, LOAN_YES, SHUFFLE_NO, SHUFFLE_YES, Loan, Plan, Shuffle, from_tuple
from .data import (
    APPROVAL_BASE,
    APPROVAL_COLOURS,
    CARD_EFFECT,
    CARD_NUMBER,
    CRANE_SLOTS,
    GOLF_PROJECTS,
    NUM_AVENUES,
    NUM_CARDS,
    PROJECT_BY_ID,
    PROJECT_DECKS,
    PROJECTS,
    SLOT_NAME,
    UPGRADE_IDS,
    VAULT_START,
    VAULT_START_FIRST_GAME,
)
from .draft import draft, score_seen_by
from .hidden import HiddenMixin, _same_sheet
from .phases import LOAN, OVER, PHASES, RESHUFFLE, ROUND
from .rounds import RoundsMixin
from .sheet import GRAND, SMALL, Sheet
from .steps import DONE, PICK, StepsMixin, Turn, turn_view

# Events are built in the hot path: ``_event((kind, data, seats))`` skips the named tuple's Python
# ``__new__`` (same Event, built in C).
_event = partial(tuple.__new__, Event)
_new_object = object.__new__

MAX_SEATS = 12
# The ascending tuple of seats in each bitmask of waiting seats.
_SEATS_OF_MASK = tuple(tuple(p for p in range(MAX_SEATS) if mask >> p & 1) for mask in range(1 << MAX_SEATS))
_TYPED = frozenset(ACTION_TYPES)


def _typed(action: Any) -> Any:
    """``action`` as a typed action: itself, or the action of its tuple form ``(kind, *fields)``."""
    if type(action) in _TYPED:
        return action
    if isinstance(action, tuple):
        return from_tuple(action)
    raise MalformedAction("nlv.malformed", "not a New Las Vegas action: {action!r}", action=action)


class NewLasVegasState(StepsMixin, RoundsMixin, HiddenMixin, State):
    """One position. Its parts live in mixins by topic: ``steps.py`` (a seat's round),
    ``rounds.py`` (dealing and resolution) and ``hidden.py`` (redraws); here are the set-up,
    ``apply``'s dispatch, the views, copies and hidden information. The slots' types are declared
    in ``fields.py``."""

    __slots__ = (
        "num_players",
        "options",
        "seed",
        "rng",
        "log",
        "solo",
        "golf",
        "bank_rule",
        "phase",
        "round_no",
        "sheets",
        "public",
        "turns",
        "waiting",
        "loans",
        "piles",
        "top",
        "offers",
        "deck",
        "discard",
        "hand",
        "acme_pile",
        "acme_loan_card",
        "acme_seen",
        "acme_proj",
        "acme_hotels",
        "pending_approvals",
        "approval_zone",
        "projects",
        "approved",
        "any_completed",
        "grand_taken",
        "votes",
        "final",
        "_cache",
        "_cache_score",
    )
    snapshot_types = (Turn, Sheet)

    # -- set-up ------------------------------------------------------------------------------------
    def __init__(self, num_players: int, options: dict[str, Any], seed: int) -> None:
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.rng = SeededRNG(seed)
        self.log: list[Event] = []
        self.solo = num_players == 1
        first = bool(options.get("first_game"))
        self.golf = not first
        self.bank_rule = not first
        self.round_no = 0
        vault = VAULT_START_FIRST_GAME if first else VAULT_START
        self.sheets = [Sheet(vault) for _ in range(num_players)]
        self.public = list(self.sheets)
        self.turns = [Turn() for _ in range(num_players)]
        self.loans: list[bool | None] = [None] * num_players
        self.approved = [False, False, False]
        self.any_completed = False
        self.grand_taken = 0
        # Reshuffle votes of the first project's completers (None: not asked or not answered yet).
        self.votes: list[bool | None] = [None] * num_players
        self.final: dict[str, Any] | None = None
        self._cache: tuple[int, list[Any]] | None = None
        self._cache_score: tuple[int, dict[Any, dict[str, Any]]] | None = None
        self.projects = self._draw_projects()
        self.log.append(Event("projects", {"projects": list(self.projects)}))
        self.piles: list[list[int]] = []
        self.top = 0
        self.offers: list[tuple[int, str]] = []
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.hand: list[int] = []
        self.acme_pile: list[int] = []
        self.acme_loan_card = -1
        self.acme_seen = 0
        self.acme_proj = [0, 0, 0]
        self.acme_hotels = 0
        self.pending_approvals: list[int] = []
        # Solo: the approval cards still in the deck lie among its first ``approval_zone`` list
        # positions (the lower half) until a full reshuffle mixes them anywhere.
        self.approval_zone = 0
        if self.solo:
            self._setup_solo()
        else:
            self._reshuffle_all()
        if self.bank_rule:
            self.phase = LOAN
            self.waiting = (1 << num_players) - 1
        else:
            self.loans = [False] * num_players
            self._start_round()

    def _draw_projects(self) -> tuple[str, str, str]:
        chosen = []
        for deck in PROJECT_DECKS:
            pool = [
                p["id"] for p in PROJECTS if p["deck"] == deck and (self.golf or p["id"] not in GOLF_PROJECTS)
            ]
            chosen.append(pool[self.rng.randrange(len(pool))])
        return tuple(chosen)  # type: ignore[return-value]

    def _setup_solo(self) -> None:
        cards = list(range(NUM_CARDS))
        self.rng.shuffle(cards)
        half = len(cards) // 2
        upper, lower = cards[:half], cards[half:] + [APPROVAL_BASE + k for k in range(3)]
        self.rng.shuffle(lower)
        self.deck = lower + upper  # the end of the list is the top of the deck
        self.approval_zone = len(lower)
        self.acme_loan_card = self.deck.pop()
        self.log.append(
            Event(
                "solo_start",
                {
                    "architect": self.options.get("architect", 1),
                    "loan_card_effect": CARD_EFFECT[self.acme_loan_card],
                },
            )
        )

    # -- contract: who acts, what they may do --------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        # Asked before every action by the driver loop: a table lookup by the bitmask of seats.
        return _SEATS_OF_MASK[self.waiting] if self.phase != OVER else ()

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, player: int) -> list[Any]:
        if self.phase == OVER or not self.waiting >> player & 1:
            return []
        # Cached until the next apply (every apply clears it), so apply's legality check is free.
        cache = self._cache
        if cache is not None and cache[0] == player:
            return cache[1]
        acts: list[Any]
        if self.phase == LOAN:
            acts = [LOAN_YES, LOAN_NO]
        elif self.phase == RESHUFFLE:
            acts = [SHUFFLE_YES, SHUFFLE_NO]
        else:
            acts = self.step_actions(self.sheets[player], self.turns[player])
        self._cache = (player, acts)
        return acts

    def is_secret(self, player: int, action: Any) -> bool:
        # Every choice of this game is made at once and in secret: the bank loan (shown only at the
        # end), the reshuffle vote and each step of a round (public once the round resolves).
        return True

    def is_legal(self, player: int, action: Any) -> bool:
        legal = self.legal_actions(player)
        if not legal:
            return False
        # The lists are short and hold the very action objects (an equal one is the same object:
        # actions are interned), compared by identity in C: a list test is cheaper than a set.
        try:
            return _typed(action) in legal
        except (TypeError, MalformedAction):  # junk is simply not an action
            return False

    # -- contract: apply ---------------------------------------------------------------------------
    def apply(self, player: int, action: Any) -> None:
        cache = self._cache
        # The usual case: the action is in this seat's cached legal list (only a seat that acts gets
        # one, and every apply clears it; actions compare by identity, in C: they are interned), so
        # the checks below are already done.
        if not (cache is not None and cache[0] == player and action in cache[1]):
            action = self._check(player, action)
            if type(action) is Plan:
                self._apply_plan(player, action)
                return
        cls = type(action)
        self._cache = None
        if cls is Loan:
            take = bool(action.take)
            self.loans[player] = take
            self.log.append(Event("loan_chosen", {"seat": player, "loan": take}, (player,)))
            self._done(player)
        elif cls is Shuffle:
            vote = bool(action.shuffle)
            self.votes[player] = vote
            self.log.append(Event("vote_cast", {"seat": player, "shuffle": vote}, (player,)))
            self._done(player)
        else:
            turn = self.turns[player]
            sh = self._begin(player) if turn.stage == PICK else self.sheets[player]
            self.play_step(sh, turn, action)
            if turn.stage == DONE:
                # Private: the seat's steps themselves are in its view until the round resolves.
                self.log.append(_event(("turn_done", {"seat": player}, (player,))))
                self._done(player)

    def _check(self, player: int, action: Any) -> Any:
        """Refuse ``action`` unless it is legal for ``player`` now (a plan is checked by its steps);
        the typed action (the tuple form ``(kind, *fields)`` is taken too)."""
        self._require_turn(player)
        action = _typed(action)
        if type(action) is Plan:
            return action
        legal = self.legal_actions(player)
        cache = self._cache
        assert cache is not None
        try:
            known = action in cache[1]
        except TypeError:  # parts that cannot be compared: not an action of this game
            known = False
        if not known:
            try:
                self._refuse(player, action, legal)
            except (TypeError, ValueError, IndexError, KeyError) as exc:
                if isinstance(exc, IllegalAction | MalformedAction):
                    raise
                raise MalformedAction(
                    "nlv.malformed", "not a New Las Vegas action: {action!r}", action=action
                ) from None
        return action

    def combine(self, player: int, actions: Sequence[Any]) -> Plan | None:
        # A round's steps go together as a plan; a loan or a vote is one step and needs none.
        steps = tuple(_typed(action) for action in actions)
        if not steps or any(type(step) in (Loan, Shuffle, Plan) for step in steps):
            return None
        return Plan(steps)

    def _apply_plan(self, player: int, plan: Plan) -> None:
        """Several steps typed at once (``a, 2.5, con 3.6``): all of them or none."""
        steps = tuple(_typed(step) for step in plan.steps)
        if not steps or any(type(step) is Plan for step in steps):
            raise MalformedAction("nlv.malformed", "a plan is a list of steps")
        trial = self.clone()
        start = (trial.round_no, trial.phase)
        for step in steps:
            if player not in trial.to_act or (trial.round_no, trial.phase) != start:
                raise IllegalAction("nlv.plan_too_long", "the round is over for you before the plan ends")
            trial.apply(player, step)
        for step in steps:
            self.apply(player, step)

    def result(self) -> Result | None:
        if self.final is None:
            return None
        keys = []
        scores = []
        for p, s in enumerate(self.final["players"]):
            grands, smalls = self.sheets[p].hotel_counts()
            scores.append(float(s["total"]))
            keys.append((s["total"], grands + smalls, grands))
        if self.solo:
            acme = self.final["acme"]
            acme_key = (acme["total"], bin(self.acme_hotels).count("1"), bin(self.acme_hotels).count("1"))
            return Result((scores[0],), (1 if keys[0] >= acme_key else 2,))
        return Result.from_keys(scores, keys)

    # -- information ---------------------------------------------------------------------------------
    def clone(self) -> NewLasVegasState:
        # Spelled out, one line per slot (every search iteration clones): immutable values are
        # shared, lists copied. The legal-action cache is not carried over.
        twin = _new_object(NewLasVegasState)
        twin.num_players = self.num_players
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = self.rng.clone()
        twin.log = self.log[:]
        twin.solo = self.solo
        twin.golf = self.golf
        twin.bank_rule = self.bank_rule
        twin.phase = self.phase
        twin.round_no = self.round_no
        # (Spelled out like Sheet.copy in sheet.py, on purpose.)
        # A sheet equal to its public copy is never mutated again (the next step copies it first).
        twin.sheets = [
            sh if sh is pub else sh.copy() for sh, pub in zip(self.sheets, self.public, strict=True)
        ]
        twin.public = self.public[:]
        twin.turns = [t.clone() for t in self.turns]
        # Field by field on purpose, like every clone of ours: the searches' hot path (copy.copy costs more).
        twin.waiting = self.waiting
        twin.loans = self.loans[:]
        twin.piles = [p[:] for p in self.piles]
        twin.top = self.top
        twin.offers = self.offers[:]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.hand = self.hand[:]
        twin.acme_pile = self.acme_pile[:]
        twin.acme_loan_card = self.acme_loan_card
        twin.acme_seen = self.acme_seen
        twin.acme_proj = self.acme_proj[:]
        twin.acme_hotels = self.acme_hotels
        twin.pending_approvals = self.pending_approvals[:]
        twin.approval_zone = self.approval_zone
        twin.projects = self.projects
        twin.approved = self.approved[:]
        twin.any_completed = self.any_completed
        twin.grand_taken = self.grand_taken
        twin.votes = self.votes[:]
        twin.final = self.final
        twin._cache = None
        twin._cache_score = None
        return twin

    def determinize(self, player: int, seed: int) -> NewLasVegasState:
        """A copy in which everything ``player`` cannot see is redrawn from ``SeededRNG(seed)``.

        The redraw starts from a canonical order (unseen cards sorted, other seats' choices redone
        from their public sheets), so two positions that look the same to ``player`` give identical
        copies. Other seats' private events are rewritten in place to match what was redrawn (the
        log keeps its length, so every index ``player`` sees stays where it was)."""
        twin = self.clone()
        # The copy is handed to a bot: its public sheets must not be the live game's (a clone
        # shares them, as rules never write to a public sheet), or a bot writing to its copy would
        # write to the table (security audit 12). A seat's own sheet stays one with its public one.
        public = [sheet.copy() for sheet in twin.public]
        twin.sheets = [
            fresh if sheet is old else sheet
            for sheet, old, fresh in zip(twin.sheets, twin.public, public, strict=True)
        ]
        twin.public = public
        rng = twin.rng = SeededRNG(seed)
        if self.solo:
            twin._resample_solo_deck(rng)
            return twin
        twin._resample_piles(rng)
        if twin.phase == OVER:
            return twin
        for q in range(self.num_players):
            if q == player:
                continue
            if twin.bank_rule and twin.loans[q] is not None:
                twin.loans[q] = take = rng.random() < 0.5
                twin._rewrite_private("loan_chosen", q, {"seat": q, "loan": take})
            if twin.phase == RESHUFFLE and twin.votes[q] is not None:
                twin.votes[q] = vote = rng.random() < 0.5
                twin._rewrite_private("vote_cast", q, {"seat": q, "shuffle": vote})
            if twin.phase == ROUND and twin.sheets[q] is not twin.public[q]:
                finished = not twin.waiting >> q & 1
                twin.sheets[q] = twin.public[q]
                twin.turns[q] = Turn()
                twin.waiting |= 1 << q
                twin._cache = None
                if finished:
                    where = twin._private_index("turn_done", q)
                    while twin.waiting >> q & 1:
                        twin.apply(q, rng.choice(twin.legal_actions(q)))
                    # The replayed round's event takes the place of the real one; a seat's own copy
                    # (core.session.seat_state) holds no events private to others, so there it goes.
                    replayed = twin.log.pop()
                    if where is not None:
                        twin.log[where] = replayed
        return twin

    def check_snapshot(self) -> None:
        """Invariants of a loaded position, and the sharing the rules rely on: a seat that has not
        begun its round works on its public sheet itself (``_begin`` copies it on the first step)."""
        n = self.num_players
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}")
        for name in ("sheets", "public", "turns", "loans", "votes"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} does not hold one entry per seat")
        if not 0 <= self.waiting < 1 << n:
            raise ValueError("waiting names seats the game does not have")
        for q in range(n):
            if self.phase != ROUND or self.turns[q].stage == PICK:
                if not _same_sheet(self.sheets[q], self.public[q]):
                    raise ValueError(f"seat {q} has a private sheet outside its round")
                self.sheets[q] = self.public[q]
        super().check_snapshot()

    def view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        base = self._base_view(player, since)
        over = self.phase == OVER
        players = []
        for q in range(self.num_players):
            sh = self.sheets[q] if (q == player or over) else self.public[q]
            entry: dict[str, Any] = {"sheet": sheet_view(sh), "acting": bool(self.waiting >> q & 1)}
            if q == player or over:
                entry["loan"] = self.loans[q]
            if q == player and self.phase == ROUND:
                entry["turn"] = turn_view(self.turns[q])
            players.append(entry)
        state: dict[str, Any] = {
            "phase": self.phase,
            "round": self.round_no,
            "projects": [
                {
                    "id": pid,
                    "deck": PROJECT_BY_ID[pid]["deck"],
                    "first": PROJECT_BY_ID[pid]["points_first"],
                    "later": PROJECT_BY_ID[pid]["points_later"],
                    "approved": self.approved[k],
                }
                for k, pid in enumerate(self.projects)
            ],
            "grand_taken": [a + 1 for a in range(NUM_AVENUES) if self.grand_taken >> a & 1],
            "first_game": not self.golf,
            "players": players,
            "final": self.final,
        }
        if not over:
            state["score_now"] = score_seen_by(self, player)
        if self.solo:
            state["hand"] = [{"number": CARD_NUMBER[c], "effect": CARD_EFFECT[c]} for c in self.hand]
            state["acme"] = {
                "architect": self.options.get("architect", 1),
                "pile": [CARD_EFFECT[c] for c in self.acme_pile],
                "projects": self.acme_proj[:],
                "hotels": [a + 1 for a in range(NUM_AVENUES) if self.acme_hotels >> a & 1],
                "approvals_seen": self.acme_seen,
                "deck_size": len(self.deck),
                # The deck lies effect side up, and the loan card's effect was seen when it was drawn.
                "deck_top": _top_face(self.deck[-1]) if self.deck else None,
                "loan_card_effect": CARD_EFFECT[self.acme_loan_card] if self.acme_loan_card >= 0 else None,
                "discard_size": len(self.discard),
                "loan_card": CARD_NUMBER[self.acme_loan_card] if over else None,
            }
        else:
            state["combinations"] = [{"number": num, "effect": eff} for num, eff in self.offers]
            state["pile_sizes"] = [len(p) - self.top - 1 for p in self.piles]
        base["state"] = state
        return base

    def draft(self, player: int, steps: list[str]) -> dict[str, Any]:
        return draft(self, player, steps)

    # -- notation ------------------------------------------------------------------------------------
    def format_action(self, action: Any) -> str:
        from .notation import format_action

        return format_action(action, self.solo)

    def parse_action(self, text: str, player: int) -> Any:
        from .notation import parse_action

        return parse_action(text, self.solo)


def _top_face(card: int) -> str:
    """What the face-up side of the solo deck shows: an effect id, or ``approval_<colour>``."""
    if card >= APPROVAL_BASE:
        return "approval_" + APPROVAL_COLOURS[card - APPROVAL_BASE]
    return CARD_EFFECT[card]


def sheet_view(sh: Sheet) -> dict[str, Any]:
    return {
        "numbers": [v if v >= 0 else None for v in sh.nums],
        "cranes_built": [SLOT_NAME[s] for s in CRANE_SLOTS if sh.built >> s & 1],
        "stars_circled": [SLOT_NAME[s] for s in range(len(sh.nums)) if sh.star_ok >> s & 1],
        "stars_crossed": [SLOT_NAME[s] for s in range(len(sh.nums)) if sh.star_x >> s & 1],
        "shows": sh.shows[:],
        "upgrades": {UPGRADE_IDS[c]: sh.ups[c] for c in range(len(UPGRADE_IDS))},
        "opening_marked": sh.marks,
        "opening_unused": sh.unused_marks(),
        "groups_spent": [g + 1 for g in range(8) if sh.spent >> g & 1],
        "groups_expansion": [g + 1 for g in range(8) if sh.exp >> g & 1],
        "golf": {"holes": sh.holes(), "crossed": sh.holes_crossed()},
        "limousine": {
            "at": sh.lamp,
            "edges": [e for e in range(64) if sh.edges >> e & 1],
            "complete": sh.route_done,
        },
        "carpets_passed": [SLOT_NAME[s] for s in range(len(sh.nums)) if sh.carpets >> s & 1],
        "hotels": ["grand" if h == GRAND else "small" if h == SMALL else None for h in sh.hotels],
        "projects": sh.proj[:],
        "vault": sh.vault,
        "open_loans": sh.open_loans(),
    }
