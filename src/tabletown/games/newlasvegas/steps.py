"""A seat's round: its choices so far (:class:`Turn`) and the step logic, once. A round is a few
small steps: ``pick`` a combination (and optionally a bonus) or ``refuse``; ``open`` a casino; with
the expansion bonus ``copy`` a neighbour's number; then an effect or ``skip``.

:meth:`StepsMixin.step_actions` lists what a seat may do next on a sheet and
:meth:`StepsMixin.play_step` does it: ``apply`` uses them on the seat's real sheet, the bots on
copies. The refusals explain an illegal step (the slow path)."""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.errors import IllegalAction, MalformedAction
from ...core.i18n import N_, Term, Word
from .actions import (  # the tables notation.py imports too, on purpose (each its own use)
    EFFECT_CON,
    EFFECT_LIMO,
    EFFECT_OP,
    EFFECT_SHOW,
    EFFECT_UP,
    EXPAND,
    OPENS,
    PICK_ROW,
    REFUSE,
    SKIP,
    Effect,
    Expand,
    Open,
    Pick,
    Refuse,
)
from .data import (
    CARD_EFFECT,
    CARD_NUMBER,
    CRANE_SLOTS,
    EFFECT_NAMES,
    EFFECTS,
    GOLF_UPGRADES,
    GROUP_END,
    SHOW_VALUES,
    SLOT_NAME,
    SLOT_STAR,
    TRACK_LENGTH,
    UPGRADE_BOXES,
    UPGRADE_IDS,
)
from .fields import StateFields
from .phases import LOAN, RESHUFFLE, ROUND
from .sheet import Sheet, project_met

_new_object = object.__new__

PICK, OPEN, COPY, EFFECT, DONE = 0, 1, 2, 3, 4  # a seat's steps in a round
# i18n: a step of a seat's round, named in a refusal ("now is the effect step, not pick")
STAGE_NAMES = (N_("pick"), N_("open"), N_("copy"), N_("effect"), N_("done"))
# An action kind as a refusal names it: the notation's short "eff" reads as the step it belongs to.
_KIND_WORDS = {"eff": STAGE_NAMES[3]}
BONUS_NAMES = {"": "", "e": "easy opening", "f": "free action", "x": "expansion"}
_SOLO_COMBOS = tuple((i, j) for i in range(3) for j in range(3) if i != j)
_MULTI_COMBOS = tuple((k, k) for k in range(3))
# Per number n: the bits of the numbers easy opening can make of it (n +- 1 or 2, within 0-17).
_NEAR = tuple(sum(1 << (n + d) for d in (-2, -1, 1, 2) if 0 <= n + d <= 17) for n in range(100))
_FIRST_GROUP_END = min(GROUP_END)  # no opening group is complete below this many marks
# The upgrade columns on offer without golf (the first game) and with it, indexed by ``golf``.
_UP_COLUMNS = (
    tuple(c for c in range(len(UPGRADE_IDS)) if c not in GOLF_UPGRADES),
    tuple(range(len(UPGRADE_IDS))),
)
_OPEN_PLAIN = tuple(row[2] for row in OPENS)  # open slot s with the number as it is


class Turn:
    """One seat's choices in the current round (hidden from the other seats).

    ``steps`` lists what the seat did this round as data (one dict per step, see ``play_step``);
    it becomes public in the ``round_played`` event when the round resolves."""

    # Positions saved before the class moved here name it by its old address (core.snapshot).
    snapshot_former_names: ClassVar[tuple[str, ...]] = ("tabletown.games.newlasvegas.rules.Turn",)

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
        # Spelled out (no loop over the slots): the bots clone turns for every step they try. Alike
        # Sheet.copy (sheet.py) on purpose.
        twin = _new_object(Turn)
        twin.stage = self.stage
        # Field by field on purpose, like every clone of ours: the searches' hot path (copy.copy costs more).
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


class StepsMixin(StateFields):
    """The steps of a round of :class:`~.state.NewLasVegasState`."""

    __slots__ = ()

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

    def _refuse(self, player: int, action: Any, legal: list[Any]) -> None:
        """Explain why ``action`` (a typed action) is not legal now (the slow path; nothing has
        changed)."""
        kind = action.kind
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
        if not (kind == want or (want == "pick" and kind == "refuse") or (want == "eff" and kind == "skip")):
            raise IllegalAction(
                "nlv.step",
                "now is the {stage} step, not {kind}",
                stage=Word(stage),
                kind=Word(_KIND_WORDS.get(kind, kind)),
            )
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
        raise IllegalAction("nlv.illegal", "{action!r} is not allowed now", action=action)

    def _explain_pick(self, sh: Sheet, action: Pick) -> None:
        i, j, bonus = action.number_card, action.effect_card, action.bonus
        if (i, j) not in self.combos():
            raise IllegalAction("nlv.combination", "no such combination")
        if bonus and bonus not in BONUS_NAMES:
            raise MalformedAction("nlv.malformed", "unknown bonus {bonus!r}", bonus=bonus)
        if bonus and not sh.groups_ready():
            raise IllegalAction("nlv.bonus_group", "no fully marked, unspent group on the opening track")
        if bonus == "x":
            raise IllegalAction("nlv.expansion", "no casino could be copied after opening this number")
        raise IllegalAction(
            "nlv.opening_order", "this number fits no empty built casino (numbers rise left to right)"
        )

    def _explain_open(self, sh: Sheet, turn: Turn, action: Open) -> None:
        s, d = action.slot, action.change
        if not isinstance(s, int) or not 0 <= s < len(sh.nums):
            raise MalformedAction("nlv.malformed", "no such casino")
        if d and turn.bonus != "e":
            raise IllegalAction("nlv.easy_opening", "changing the number needs the easy-opening bonus")
        if d not in (-2, -1, 0, 1, 2) or not 0 <= turn.num + d <= 17:
            raise IllegalAction("nlv.easy_opening", "easy opening changes the number by 1 or 2, within 0-17")
        if not sh.is_built(s):
            raise IllegalAction("nlv.crane", "casino {slot} is still under construction", slot=SLOT_NAME[s])
        if sh.nums[s] >= 0:
            raise IllegalAction("nlv.occupied", "casino {slot} is already opened", slot=SLOT_NAME[s])
        if turn.bonus == "x":
            raise IllegalAction("nlv.expansion", "after this casino no expansion copy would be possible")
        raise IllegalAction("nlv.opening_order", "numbers must rise strictly from left to right in a street")

    def _explain_effect(self, sh: Sheet, turn: Turn, action: Effect) -> None:
        eff = action.effect
        if eff not in EFFECTS:
            raise MalformedAction("nlv.malformed", "unknown effect {effect!r}", effect=eff)
        if turn.bonus != "f" and eff != turn.eff:
            raise IllegalAction(
                "nlv.effect",
                "your combination's effect is {effect}",
                effect=Term(EFFECT_NAMES[turn.eff], turn.eff),
            )
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
        cls = type(action)
        if cls is Pick:
            i, j, bonus = action.number_card, action.effect_card, action.bonus
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
        elif cls is Refuse:
            sh.marks = min(TRACK_LENGTH, sh.marks + 2)
            turn.refused = True
            turn.acme = action.card
            if record:
                turn.steps.append({"step": "refuse", "card": action.card, "marks": 2})
            turn.stage = DONE
        elif cls is Open:
            s, d = action.slot, action.change
            sh.open_slot(s, turn.num + d)
            turn.main = s
            if record:
                turn.steps.append({"step": "open", "slot": SLOT_NAME[s], "number": turn.num + d})
            turn.stage = COPY if turn.bonus == "x" else EFFECT
        elif cls is Expand:
            s, side = action.slot, action.side
            value = sh.nums[s - 1] if side == "l" else sh.nums[s + 1]
            sh.open_slot(s, value)
            turn.copy = s
            if record:
                turn.steps.append({"step": "expand", "slot": SLOT_NAME[s], "number": value, "side": side})
            turn.stage = EFFECT
        else:
            self._effect_step(sh, turn, action, record)

    def _effect_step(self, sh: Sheet, turn: Turn, action: Any, record: bool) -> None:
        if type(action) is Effect:
            eff, target = action.effect, action.target
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
