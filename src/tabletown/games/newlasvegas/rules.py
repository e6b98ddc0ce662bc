"""Welcome To New Las Vegas: the game state, simultaneous rounds, races and the solo game.

A player's round is a few small steps, all hidden from the others until everyone has finished:
``pick`` a combination (and optionally a bonus) or ``refuse``; ``open`` a casino; with the expansion
bonus ``copy`` a neighbour's number; then an effect or ``skip``. Each seat works on a private copy
of its sheet; the others see the copy taken at the start of the round (``public``). The round
resolves once every seat has finished: hotel and project races, the end triggers, the next cards.

The step logic lives once, in :meth:`NewLasVegasState.step_actions` (what a seat may do next on a
sheet) and :meth:`NewLasVegasState.play_step` (doing it): ``apply`` uses them on the seat's real
sheet, the bots on copies.
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.game import Result, State
from ...core.rng import SeededRNG
from .actions import (
    EFFECT_CON,
    EFFECT_LIMO,
    EFFECT_OP,
    EFFECT_SHOW,
    EFFECT_UP,
    EXPAND,
    LOAN_NO,
    LOAN_YES,
    OPENS,
    PICK_ROW,
    REFUSE,
    SHUFFLE_NO,
    SHUFFLE_YES,
    SKIP,
)
from .data import (
    APPROVAL_BASE,
    APPROVAL_COLOURS,
    ARCHITECTS,
    CARD_EFFECT,
    CARD_NUMBER,
    CRANE_SLOTS,
    EFFECT_NAMES,
    EFFECTS,
    GOLF_PROJECTS,
    GOLF_UPGRADES,
    GROUP_END,
    NUM_AVENUES,
    NUM_CARDS,
    PROJECT_BY_ID,
    PROJECT_DECKS,
    PROJECTS,
    SHOW_VALUES,
    SLOT_NAME,
    SLOT_STAR,
    TRACK_LENGTH,
    UPGRADE_BOXES,
    UPGRADE_IDS,
    VAULT_START,
    VAULT_START_FIRST_GAME,
)
from .draft import draft, score_seen_by
from .scoring import score_multiplayer, score_solo
from .sheet import GRAND, NO_HOTEL, SMALL, Sheet, project_met, project_test

# Events are built in the hot path: ``_event((kind, data, seats))`` skips the named tuple's Python
# ``__new__`` (same Event, built in C).
_event = partial(tuple.__new__, Event)
_new_object = object.__new__

LOAN, ROUND, RESHUFFLE, OVER = "loan", "round", "reshuffle", "over"
PHASES = (LOAN, ROUND, RESHUFFLE, OVER)
PICK, OPEN, COPY, EFFECT, DONE = 0, 1, 2, 3, 4  # a seat's steps in a round
STAGE_NAMES = ("pick", "open", "copy", "effect", "done")
PILE = NUM_CARDS // 3
MAX_SEATS = 12
# The ascending tuple of seats in each bitmask of waiting seats.
_SEATS_OF_MASK = tuple(tuple(p for p in range(MAX_SEATS) if mask >> p & 1) for mask in range(1 << MAX_SEATS))
BONUS_NAMES = {"": "", "e": "easy opening", "f": "free action", "x": "expansion"}
_SOLO_COMBOS = tuple((i, j) for i in range(3) for j in range(3) if i != j)
_MULTI_COMBOS = tuple((k, k) for k in range(3))
# Per number n: the bits of the numbers easy opening can make of it (n +- 1 or 2, within 0-17).
_NEAR = tuple(sum(1 << (n + d) for d in (-2, -1, 1, 2) if 0 <= n + d <= 17) for n in range(100))
_FIRST_GROUP_END = min(GROUP_END)
# The upgrade columns on offer without golf (the first game) and with it, indexed by ``golf``.
_UP_COLUMNS = (
    tuple(c for c in range(len(UPGRADE_IDS)) if c not in GOLF_UPGRADES),
    tuple(range(len(UPGRADE_IDS))),
)
_OPEN_PLAIN = tuple(
    row[2] for row in OPENS
)  # open slot s with the number as it is  # no opening group is complete below this many marks


class Turn:
    """One seat's choices in the current round (hidden from the other seats).

    ``steps`` lists what the seat did this round as data (one dict per step, see ``play_step``);
    it becomes public in the ``round_played`` event when the round resolves."""

    __slots__ = (
        "stage",
        "i",
        "j",
        "bonus",
        "num",
        "eff",
        "main",
        "copy",
        "show",
        "refused",
        "acme",
        "steps",
        "met",
        "all_open",
    )

    def __init__(self) -> None:
        self.stage = PICK
        self.i = self.j = -1  # combination (multiplayer: i == j) or number card i / effect card j (solo)
        self.bonus = ""
        self.num = -1
        self.eff = ""
        self.main = -1
        self.copy = -1
        self.show = False
        self.refused = False
        self.acme = -1  # solo: card index given to ACME
        self.steps: list[dict[str, Any]] = []
        # Met just before this round's construction (which can break a chain or reopen a street):
        # projects (bitmask by card) and the all-casinos-opened end trigger still count.
        self.met = 0
        self.all_open = False

    def clone(self) -> Turn:
        # Spelled out (no loop over the slots): the bots clone turns for every step they try.
        twin = _new_object(Turn)
        twin.stage = self.stage
        twin.i = self.i
        twin.j = self.j
        twin.bonus = self.bonus
        twin.num = self.num
        twin.eff = self.eff
        twin.main = self.main
        twin.copy = self.copy
        twin.show = self.show
        twin.refused = self.refused
        twin.acme = self.acme
        twin.steps = self.steps[:]
        twin.met = self.met
        twin.all_open = self.all_open
        return twin


class NewLasVegasState(State):
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

    def _reshuffle_all(self) -> None:
        cards = list(range(NUM_CARDS))
        self.rng.shuffle(cards)
        self.piles = [cards[k * PILE : (k + 1) * PILE] for k in range(3)]
        self.top = 0
        self.log.append(Event("piles_shuffled", {"cards": NUM_CARDS}))

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

    # -- rounds --------------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round_no += 1
        self.phase = ROUND
        if self.solo:
            if not self._deal_solo():
                self._finish("cards_out")
                return
            cards = [[CARD_NUMBER[c], CARD_EFFECT[c]] for c in self.hand]
            self.log.append(_event(("round_solo", {"round": self.round_no, "cards": cards}, None)))
        else:
            if self.top + 1 >= PILE:
                self._reshuffle_all()
            self.top += 1
            top = self.top
            self.offers = [(CARD_NUMBER[p[top]], CARD_EFFECT[p[top - 1]]) for p in self.piles]
            combos = [[n, e] for n, e in self.offers]
            self.log.append(_event(("round", {"round": self.round_no, "combinations": combos}, None)))
        self.turns = [Turn() for _ in range(self.num_players)]
        self.waiting = (1 << self.num_players) - 1

    def _deal_solo(self) -> bool:
        self.hand = []
        while len(self.hand) < 3:
            if not self.deck:
                if not self.discard:
                    return False
                self.deck = self.discard
                self.discard = []
                self.rng.shuffle(self.deck)
                self.log.append(Event("deck_reshuffled", {"cards": len(self.deck)}))
            card = self.deck.pop()
            if card >= APPROVAL_BASE:
                self.pending_approvals.append(card - APPROVAL_BASE)
                self.log.append(Event("approval_drawn", {"colour": APPROVAL_COLOURS[card - APPROVAL_BASE]}))
            else:
                self.hand.append(card)
        return True

    def combo(self, i: int, j: int) -> tuple[int, str]:
        if self.solo:
            return CARD_NUMBER[self.hand[i]], CARD_EFFECT[self.hand[j]]
        return self.offers[i][0], self.offers[j][1]

    def combos(self) -> list[tuple[int, int]]:
        if self.solo:
            return [(i, j) for i in range(3) for j in range(3) if i != j]
        return [(k, k) for k in range(3)]

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
        if not self.legal_actions(player):
            return False
        cache = self._cache
        try:
            # The lists are short and hold the very action objects: a list test is cheaper than a set.
            return cache is not None and cache[0] == player and action in cache[1]
        except TypeError:  # junk that cannot even be compared is simply not an action
            return False

    def step_actions(self, sh: Sheet, turn: Turn) -> list[Any]:
        """The steps a seat whose round so far is ``turn`` may take next on sheet ``sh``.

        The rules' one list of a round's steps: ``legal_actions`` asks it with the seat's real sheet,
        the bots with copies they explore."""
        stage = turn.stage
        if stage == PICK:
            return self._pick_actions(sh)
        if stage == OPEN:
            return self._open_actions(sh, turn)
        if stage == COPY:
            return [EXPAND[option] for option in sh.copy_options()]
        if stage == EFFECT:
            return self._effect_actions(sh, turn)
        return []

    def _pick_actions(self, sh: Sheet) -> list[Any]:
        # Which numbers fit somewhere, as one bitmask: a bit test per combination instead of a scan
        # of the free slots per number (and per easy-opening change).
        fit = sh.fit_mask()
        has_group = sh.marks >= _FIRST_GROUP_END and bool(sh.groups_ready())
        free: list[tuple[int, int, int]] | None = None
        acts: list[Any] = []
        normal_any = False
        if self.solo:
            hand = self.hand
            numbers = [CARD_NUMBER[c] for c in hand]
            combos = _SOLO_COMBOS
        else:
            numbers = [n for n, _ in self.offers]
            combos = _MULTI_COMBOS
        for i, j in combos:
            n = numbers[i]
            row = PICK_ROW[i][j]
            normal = fit >> n & 1
            if normal:
                normal_any = True
                acts.append(row[0])
            if has_group:
                if fit & _NEAR[n]:
                    acts.append(row[1])
                if normal:
                    acts.append(row[2])
                    if free is None:
                        free = sh.free_slots()
                    if sh.expansion_slots(free, n):
                        acts.append(row[3])
        if not normal_any:
            if self.solo:
                acts.extend(REFUSE[k] for k in range(3))
            else:
                acts.append(REFUSE[-1])
        return acts

    @staticmethod
    def _expansion_slots(sh: Sheet, free: list[tuple[int, int, int]], n: int) -> list[int]:
        """Slots for number ``n`` after which an expansion copy is still possible."""
        return sh.expansion_slots(free, n)

    def _open_actions(self, sh: Sheet, turn: Turn) -> list[Any]:
        n = turn.num
        if not turn.bonus:
            row = _OPEN_PLAIN
            return [row[s] for s in sh.slots_for(n)]
        free = sh.free_slots()
        if turn.bonus == "e":
            return [
                OPENS[s][d + 2]
                for d in (-2, -1, 1, 2)
                if 0 <= n + d <= 17
                for s, lo, hi in free
                if lo < n + d < hi
            ]
        if turn.bonus == "x":
            return [OPENS[s][2] for s in sh.expansion_slots(free, n)]
        return [OPENS[s][2] for s, lo, hi in free if lo < n < hi]  # a free action: no change

    def _effect_actions(self, sh: Sheet, turn: Turn) -> list[Any]:
        effects = EFFECTS if turn.bonus == "f" else (turn.eff,)
        acts: list[Any] = []
        for eff in effects:
            if eff == "op":
                if sh.marks < TRACK_LENGTH:
                    acts.append(EFFECT_OP)
            elif eff == "con":
                built = sh.built
                acts += [EFFECT_CON[s] for s in CRANE_SLOTS if not built >> s & 1]
            elif eff == "up":
                ups = sh.ups
                acts += [EFFECT_UP[c] for c in _UP_COLUMNS[self.golf] if ups[c] < UPGRADE_BOXES[c]]
            elif eff == "show":
                if SLOT_STAR[turn.main]:
                    acts.extend(EFFECT_SHOW[c] for c in range(2) if sh.shows[c] < len(SHOW_VALUES[c]))
            else:
                acts.extend(EFFECT_LIMO[d] for d, _, _ in sh.limo_moves())
        acts.append(SKIP)
        return acts

    # -- contract: apply ---------------------------------------------------------------------------
    def apply(self, player: int, action: Any) -> None:
        cache = self._cache
        # The usual case: the action comes straight from this seat's cached legal list (only a seat
        # that acts gets one, and every apply clears it), so the checks below are already done.
        if not (
            cache is not None and cache[0] == player and isinstance(action, tuple) and action in cache[1]
        ):
            self._check(player, action)
            if action[0] == "plan":
                self._apply_plan(player, action)
                return
        kind = action[0]
        self._cache = None
        if kind == "loan":
            take = bool(action[1])
            self.loans[player] = take
            self.log.append(Event("loan_chosen", {"seat": player, "loan": take}, (player,)))
            self._done(player)
        elif kind == "shuffle":
            vote = bool(action[1])
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

    def _check(self, player: int, action: Any) -> None:
        """Refuse ``action`` unless it is legal for ``player`` now (a plan is checked by its steps)."""
        self._require_turn(player)
        if not isinstance(action, tuple) or not action:
            raise MalformedAction("nlv.malformed", f"not a New Las Vegas action: {action!r}")
        if action[0] == "plan":
            return
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
                raise MalformedAction("nlv.malformed", f"not a New Las Vegas action: {action!r}") from None

    def _apply_plan(self, player: int, plan: tuple[Any, ...]) -> None:
        """Several steps typed at once (``a, 2.5, con 3.6``): all of them or none."""
        steps = plan[1] if len(plan) == 2 and isinstance(plan[1], tuple) else ()
        if not steps or any(not isinstance(step, tuple) or not step or step[0] == "plan" for step in steps):
            raise MalformedAction("nlv.malformed", "a plan is a list of steps")
        trial = self.clone()
        start = (trial.round_no, trial.phase)
        for step in steps:
            if player not in trial.to_act or (trial.round_no, trial.phase) != start:
                raise IllegalAction("nlv.plan_too_long", "the round is over for you before the plan ends")
            trial.apply(player, step)
        for step in steps:
            self.apply(player, step)

    def _refuse(self, player: int, action: Any, legal: list[Any]) -> None:
        """Explain why ``action`` is not legal now (the slow path; nothing has changed)."""
        kind = action[0]
        stage = self.phase if self.phase != ROUND else STAGE_NAMES[self.turns[player].stage]
        expected = {
            LOAN: "loan",
            RESHUFFLE: "shuffle",
            "pick": "pick",
            "open": "open",
            "copy": "copy",
            "effect": "eff",
        }
        want = expected.get(stage, "")
        if kind not in {"loan", "shuffle", "pick", "refuse", "open", "copy", "eff", "skip"}:
            raise MalformedAction("nlv.malformed", f"not a New Las Vegas action: {action!r}")
        if not (kind == want or (want == "pick" and kind == "refuse") or (want == "eff" and kind == "skip")):
            raise IllegalAction("nlv.step", f"now is the {stage} step, not {kind}")
        sh = self.sheets[player]
        turn = self.turns[player]
        if kind == "refuse":
            raise IllegalAction("nlv.refusal", "you may refuse only when none of the numbers can be written")
        if kind == "pick":
            self._explain_pick(sh, action)
        if kind == "open":
            self._explain_open(sh, turn, action)
        if kind == "copy":
            raise IllegalAction(
                "nlv.expansion",
                "the copy must go in an empty built casino next to an opened one, keeping the order",
            )
        if kind == "eff":
            self._explain_effect(sh, turn, action)
        raise IllegalAction("nlv.illegal", f"{action!r} is not allowed now")

    def _explain_pick(self, sh: Sheet, action: Any) -> None:
        _, i, j, bonus = action
        if (i, j) not in self.combos():
            raise IllegalAction("nlv.combination", "no such combination")
        if bonus and bonus not in BONUS_NAMES:
            raise MalformedAction("nlv.malformed", f"unknown bonus {bonus!r}")
        if bonus and not sh.groups_ready():
            raise IllegalAction("nlv.bonus_group", "no fully marked, unspent group on the opening track")
        if bonus == "x":
            raise IllegalAction("nlv.expansion", "no casino could be copied after opening this number")
        raise IllegalAction(
            "nlv.opening_order", "this number fits no empty built casino (numbers rise left to right)"
        )

    def _explain_open(self, sh: Sheet, turn: Turn, action: Any) -> None:
        _, s, d = action
        if not isinstance(s, int) or not 0 <= s < len(sh.nums):
            raise MalformedAction("nlv.malformed", "no such casino")
        if d and turn.bonus != "e":
            raise IllegalAction("nlv.easy_opening", "changing the number needs the easy-opening bonus")
        if d not in (-2, -1, 0, 1, 2) or not 0 <= turn.num + d <= 17:
            raise IllegalAction("nlv.easy_opening", "easy opening changes the number by 1 or 2, within 0-17")
        if not sh.is_built(s):
            raise IllegalAction("nlv.crane", f"casino {SLOT_NAME[s]} is still under construction")
        if sh.nums[s] >= 0:
            raise IllegalAction("nlv.occupied", f"casino {SLOT_NAME[s]} is already opened")
        if turn.bonus == "x":
            raise IllegalAction("nlv.expansion", "after this casino no expansion copy would be possible")
        raise IllegalAction("nlv.opening_order", "numbers must rise strictly from left to right in a street")

    def _explain_effect(self, sh: Sheet, turn: Turn, action: Any) -> None:
        eff = action[1]
        if eff not in EFFECTS:
            raise MalformedAction("nlv.malformed", f"unknown effect {eff!r}")
        if turn.bonus != "f" and eff != turn.eff:
            raise IllegalAction("nlv.effect", f"your combination's effect is {EFFECT_NAMES[turn.eff]}")
        if eff == "show":
            if not SLOT_STAR[turn.main]:
                raise IllegalAction("nlv.show_star", "a show needs a star casino opened this round")
            raise IllegalAction("nlv.show_column", "that show column is full")
        if eff == "con":
            raise IllegalAction("nlv.construction", "construction needs a crane not yet crossed out")
        if eff == "up":
            raise IllegalAction("nlv.upgrade", "that column has no yellow box left")
        if eff == "op":
            raise IllegalAction("nlv.opening_track", "the opening track is full")
        if sh.route_done:
            raise IllegalAction("nlv.limo_done", "the limousine route is already complete")
        raise IllegalAction(
            "nlv.limo_segment", "the limousine goes to a neighbouring lamp along a segment not used before"
        )

    def _begin(self, player: int) -> Sheet:
        """First step of a round: keep the public copy, work on a private one."""
        sh = self.sheets[player]
        if sh is self.public[player]:
            sh = sh.copy()
            self.sheets[player] = sh
        return sh

    def play_step(self, sh: Sheet, turn: Turn, action: Any, record: bool = True) -> None:
        """Play one step of a seat's round (a legal one: see ``step_actions``) on ``sh`` and ``turn``.

        The rules' one copy of the step logic: ``apply`` calls it with the seat's own sheet, the bots
        with copies they explore. It reads the round's cards and the projects and changes nothing but
        ``sh`` and ``turn``. With ``record`` the step is noted in ``turn.steps`` as data."""
        kind = action[0]
        if kind == "pick":
            _, i, j, bonus = action
            turn.i, turn.j, turn.bonus = i, j, bonus
            # ``combo`` spelled out (once per seat and round).
            if self.solo:
                hand = self.hand
                turn.num, turn.eff = CARD_NUMBER[hand[i]], CARD_EFFECT[hand[j]]
                turn.acme = 3 - i - j
            else:
                offers = self.offers
                turn.num, turn.eff = offers[i][0], offers[j][1]
            group = 0
            if bonus:
                g = sh.groups_ready()[0]
                sh.spent |= 1 << g
                if bonus == "x":
                    sh.exp |= 1 << g
                group = g + 1
            if record:
                turn.steps.append(
                    {
                        "step": "pick",
                        "number_card": i,
                        "effect_card": j,
                        "number": turn.num,
                        "effect": turn.eff,
                        "bonus": bonus,
                        "group": group,
                    }
                )
            turn.stage = OPEN
        elif kind == "refuse":
            sh.marks = min(TRACK_LENGTH, sh.marks + 2)
            turn.refused = True
            turn.acme = action[1]
            if record:
                turn.steps.append({"step": "refuse", "card": action[1], "marks": 2})
            turn.stage = DONE
        elif kind == "open":
            _, s, d = action
            sh.open_slot(s, turn.num + d)
            turn.main = s
            if record:
                turn.steps.append({"step": "open", "slot": SLOT_NAME[s], "number": turn.num + d})
            turn.stage = COPY if turn.bonus == "x" else EFFECT
        elif kind == "copy":
            _, s, side = action
            value = sh.nums[s - 1] if side == "l" else sh.nums[s + 1]
            sh.open_slot(s, value)
            turn.copy = s
            if record:
                turn.steps.append({"step": "expand", "slot": SLOT_NAME[s], "number": value, "side": side})
            turn.stage = EFFECT
        else:
            self._effect_step(sh, turn, action, record)

    def _effect_step(self, sh: Sheet, turn: Turn, action: Any, record: bool) -> None:
        if action[0] == "eff":
            _, eff, target = action
            step: dict[str, Any] = {"step": "effect", "effect": eff}
            if eff == "op":
                sh.marks += 1
            elif eff == "con":
                self._note_before_construction(sh, turn)
                sh.built |= 1 << target
                step["slot"] = SLOT_NAME[target]
            elif eff == "up":
                sh.ups[target] += 1
                step["column"] = UPGRADE_IDS[target]
            elif eff == "show":
                sh.shows[target] += 1
                sh.star_ok |= 1 << turn.main
                turn.show = True
                step["column"] = target + 1
                step["slot"] = SLOT_NAME[turn.main]
            else:
                for d, edge, to in sh.limo_moves():
                    if d == target:
                        sh.drive(edge, to)
                        break
                step["direction"] = target
                step["complete"] = sh.route_done
        else:
            step = {"step": "skip"}
        # A star casino opened without a show (the expansion's copy too) has its star crossed out.
        for s in (turn.main, turn.copy):
            if s >= 0 and SLOT_STAR[s] and not (s == turn.main and turn.show):
                sh.star_x |= 1 << s
        if record:
            turn.steps.append(step)
        turn.stage = DONE

    def _note_before_construction(self, sh: Sheet, turn: Turn) -> None:
        """Record what the sheet meets right before a crane is crossed out.

        A project is scored as soon as its condition is met, so a chain (or a finished street) that
        this construction breaks still earns the project this round.
        """
        for k, pid in enumerate(self.projects):
            if not sh.proj[k] and project_met(pid, sh):
                turn.met |= 1 << k
        turn.all_open = turn.all_open or sh.all_opened()

    def _done(self, player: int) -> None:
        self.waiting &= ~(1 << player)
        if self.waiting:
            return
        if self.phase == LOAN:
            self.log.append(Event("loans_chosen", {}))
            self._start_round()
        elif self.phase == RESHUFFLE:
            shuffled = any(self.votes)
            # Who asked for it stays secret; only whether the piles are reshuffled is announced.
            self.votes = [None] * self.num_players
            self.log.append(Event("reshuffle_decided", {"shuffled": shuffled}))
            if shuffled:
                self._reshuffle_all()
            self._start_round()
        else:
            self._resolve()

    # -- round resolution ------------------------------------------------------------------------
    def _resolve(self) -> None:
        n = self.num_players
        log = self.log
        for p in range(n):
            # The steps move into the public event (a position never holds one list twice).
            turn = self.turns[p]
            log.append(_event(("round_played", {"seat": p, "steps": turn.steps}, None)))
            turn.steps = []
        if self.solo:
            turn = self.turns[0]
            given = self.hand[turn.acme]
            self.acme_pile.append(given)
            self.discard.extend(c for k, c in enumerate(self.hand) if k != turn.acme)
            log.append(Event("acme_takes", {"card": turn.acme + 1, "effect": CARD_EFFECT[given]}))
        new_grand = 0
        new_hotels = [0] * n
        sheets, turns = self.sheets, self.turns
        for p in range(n):
            sh = sheets[p]
            for a in sh.new_hotels():
                if self.grand_taken >> a & 1:
                    sh.hotels[a] = SMALL
                    log.append(_event(("hotel", {"seat": p, "avenue": a + 1, "hotel": "small"}, None)))
                else:
                    sh.hotels[a] = GRAND
                    new_grand |= 1 << a
                    log.append(_event(("hotel", {"seat": p, "avenue": a + 1, "hotel": "grand"}, None)))
                new_hotels[p] |= 1 << a
        acme_done = [False, False, False]
        if self.solo:
            acme_done = self._acme_approvals(new_hotels[0])
            new_grand |= self.acme_hotels
        self.grand_taken |= new_grand
        first_round = not self.any_completed
        completers = 0
        for k, pid in enumerate(self.projects):
            met = project_test(pid)
            qualified = [
                p for p in range(n) if not sheets[p].proj[k] and (turns[p].met >> k & 1 or met(sheets[p]))
            ]
            acme_q = acme_done[k] and not self.acme_proj[k]
            if not qualified and not acme_q:
                continue
            card = PROJECT_BY_ID[pid]
            points = card["points_later"] if self.approved[k] else card["points_first"]
            for p in qualified:
                self.sheets[p].proj[k] = points
                completers |= 1 << p
                log.append(_event(("project_completed", {"seat": p, "project": pid, "points": points}, None)))
            if acme_q:
                self.acme_proj[k] = points
                log.append(Event("acme_project", {"project": pid, "points": points}))
            if not self.approved[k]:
                self.approved[k] = True
                log.append(Event("project_approved", {"project": pid}))
            self.any_completed = True
        for p in range(n):
            self.public[p] = self.sheets[p]
        reason, seat = self._end_reason()
        if reason:
            self._finish(reason, seat)
            return
        if first_round and self.any_completed:
            if self.solo:
                self.deck.extend(self.discard)
                self.discard = []
                self.rng.shuffle(self.deck)
                self.approval_zone = len(self.deck)  # approval cards may now be anywhere
                log.append(Event("first_project_reshuffle", {"cards": len(self.deck)}))
            elif completers:
                self.phase = RESHUFFLE
                self.waiting = completers
                self.votes = [None] * n
                seats = [p for p in range(n) if completers >> p & 1]
                log.append(Event("reshuffle_offered", {"seats": seats}))
                return
        self._start_round()

    def _acme_approvals(self, new_hotels: int) -> list[bool]:
        done = [False, False, False]
        card = ARCHITECTS[self.options.get("architect", 1)]
        sh = self.sheets[0]
        for colour in self.pending_approvals:
            if self.acme_seen >= len(card["approvals"]):
                break
            row = card["approvals"][self.acme_seen]
            self.acme_seen += 1
            for av in row["hotels"]:
                a = av - 1
                # ACME only builds grand hotels: not where you built one in an earlier round.
                if sh.hotels[a] != NO_HOTEL and not new_hotels >> a & 1 or self.acme_hotels >> a & 1:
                    continue
                self.acme_hotels |= 1 << a
                self.log.append(Event("acme_hotel", {"avenue": av}))
            k = PROJECT_DECKS.index(APPROVAL_COLOURS[colour])
            done[k] = bool(row["project"])
            if not row["project"]:
                self.log.append(Event("acme_no_project", {"colour": APPROVAL_COLOURS[colour]}))
        self.pending_approvals = []
        return done

    def _end_reason(self) -> tuple[str, int]:
        """Why the game ends after this round (an id and the seat that triggered it), or ``("", -1)``."""
        for p, sh in enumerate(self.sheets):
            if sh.marks >= TRACK_LENGTH:
                return "opening_track_full", p
            if all(sh.proj):
                return "all_projects", p
            if sh.all_opened() or self.turns[p].all_open:
                return "all_casinos_opened", p
        if self.solo and all(self.acme_proj):
            return "acme_all_projects", -1
        return "", -1

    def _finish(self, reason: str, seat: int = -1) -> None:
        self.phase = OVER
        self.waiting = 0
        self.log.append(Event("game_over", {"reason": reason, "seat": seat}))
        loans = [bool(x) for x in self.loans]
        if self.solo:
            effects = [CARD_EFFECT[c] for c in self.acme_pile]
            loan_number = CARD_NUMBER[self.acme_loan_card]
            player, acme = score_solo(
                self.sheets[0],
                bool(self.loans[0]),
                self.options.get("architect", 1),
                effects,
                bin(self.acme_hotels).count("1"),
                self.acme_proj,
                loan_number,
                self.golf,
                self.bank_rule,
            )
            self.final = {"players": [player], "acme": acme, "loan_card": loan_number}
            self.log.append(
                Event(
                    "scores",
                    {
                        "totals": [player["total"]],
                        "loans": loans,
                        "acme": acme["total"],
                        "loan_card": loan_number,
                    },
                )
            )
        else:
            players = score_multiplayer(self.sheets, self.loans, self.golf, self.bank_rule)
            self.final = {"players": players}
            self.log.append(Event("scores", {"totals": [s["total"] for s in players], "loans": loans}))

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
        # A sheet equal to its public copy is never mutated again (the next step copies it first).
        twin.sheets = [
            sh if sh is pub else sh.copy() for sh, pub in zip(self.sheets, self.public, strict=True)
        ]
        twin.public = self.public[:]
        twin.turns = [t.clone() for t in self.turns]
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

    def _private_index(self, kind: str, seat: int) -> int | None:
        """Where the last event ``kind`` private to ``seat`` lies in the log; ``None`` in a log
        that holds no events private to ``seat`` (a copy made for another seat)."""
        log = self.log
        for k in range(len(log) - 1, -1, -1):
            event = log[k]
            if event.kind == kind and event.seats == (seat,):
                return k
        return None

    def _rewrite_private(self, kind: str, seat: int, data: dict[str, Any]) -> None:
        where = self._private_index(kind, seat)
        if where is not None:
            self.log[where] = Event(kind, data, (seat,))

    def _resample_piles(self, rng: SeededRNG) -> None:
        """Redeal every card nobody has seen, keeping the numbers that lie face up on the piles.

        Once rounds are running, each pile's top card shows its number but not its effect (the
        effect only appears when it is flipped next round), so it may trade places with any unseen
        card of the same number. Before the first round nothing on the piles is shown. The unseen
        cards are sorted before the shuffle: the real order must not show through.
        """
        shown = bool(self.offers)
        first = self.top + 1 if shown else self.top
        unseen = sorted(c for p in self.piles for c in p[self.top :])
        rng.shuffle(unseen)
        if shown:
            for p in self.piles:
                want = CARD_NUMBER[p[self.top]]
                k = next(k for k, c in enumerate(unseen) if CARD_NUMBER[c] == want)
                p[self.top] = unseen.pop(k)
        for p in self.piles:
            size = len(p) - first
            p[first:] = unseen[:size]
            del unseen[:size]

    def _resample_solo_deck(self, rng: SeededRNG) -> None:
        """Redeal the unseen solo cards: the deck and the hidden loan card.

        The seat knows which cards it has seen (hand, discard, ACME's pile), how many approval cards
        are left and that those lie in the deck's lower part until a full reshuffle. The deck lies
        effect side up, so the seat also knows the effect on top of the deck and the effect of the
        card slid under the score sheet (only its number is secret). Every other unseen casino card
        may be anywhere. The unseen cards are sorted before the shuffle (a canonical order).
        """
        deck = self.deck
        approvals = sorted(c for c in deck if c >= APPROVAL_BASE)
        casinos = [c for c in deck if c < APPROVAL_BASE]
        hidden_loan = self.acme_loan_card >= 0 and self.phase != OVER  # shown once the game is over
        if hidden_loan:
            casinos.append(self.acme_loan_card)
        casinos.sort()
        rng.shuffle(casinos)
        if hidden_loan:
            self.acme_loan_card = _take_effect(casinos, CARD_EFFECT[self.acme_loan_card])
        rng.shuffle(approvals)
        top = -1
        if deck:
            top = deck[-1]
            if top >= APPROVAL_BASE:
                approvals.remove(top)
            else:
                top = _take_effect(casinos, CARD_EFFECT[top])
        below = len(deck) - 1 if deck else 0
        zone = min(self.approval_zone, below)
        spots = set(rng.sample(range(zone), len(approvals)))
        self.deck = [approvals.pop() if i in spots else casinos.pop() for i in range(below)]
        if top >= 0:
            self.deck.append(top)

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


def _same_sheet(a: Sheet, b: Sheet) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in Sheet.__slots__)


def _take_effect(cards: list[int], effect: str) -> int:
    """Remove and return the first card of ``cards`` with this effect."""
    k = next(k for k, c in enumerate(cards) if CARD_EFFECT[c] == effect)
    return cards.pop(k)


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


def turn_view(turn: Turn) -> dict[str, Any]:
    return {
        "step": STAGE_NAMES[turn.stage],
        "combination": [turn.i, turn.j],
        "number": turn.num,
        "effect": turn.eff,
        "bonus": turn.bonus,
        "opened": SLOT_NAME[turn.main] if turn.main >= 0 else None,
        "copied": SLOT_NAME[turn.copy] if turn.copy >= 0 else None,
        "steps": [dict(step) for step in turn.steps],
    }


def intern_strings(value: Any) -> Any:
    """``value`` with every string replaced by its interned copy (containers rebuilt, objects'
    attributes updated in place). A loaded position runs through it so that its strings are the very
    objects a live game uses (ids are literals or interned table entries): a fingerprint pickles
    shared objects once, so equal positions must share the same strings."""
    kind = type(value)
    if kind is str:
        return sys.intern(value)
    if kind is list:
        return [intern_strings(item) for item in value]
    if kind is dict:
        return {intern_strings(k): intern_strings(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(intern_strings(item) for item in value)
    if kind is Event:
        return Event(sys.intern(value.kind), intern_strings(value.data), value.seats)
    if kind is Turn or kind is Sheet:
        for name in kind.__slots__:
            setattr(value, name, intern_strings(getattr(value, name)))
    return value
