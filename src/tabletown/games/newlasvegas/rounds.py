"""Rounds: dealing the combinations (multiplayer piles, the solo hand), the end of a decision
(loans, the reshuffle vote, a round), the round's resolution (hotel and project races, ACME's
approvals in the solo game), the end triggers and the final scores."""

from __future__ import annotations

from functools import partial

from ...core.events import Event
from .data import (
    APPROVAL_BASE,
    APPROVAL_COLOURS,
    ARCHITECTS,
    CARD_EFFECT,
    CARD_NUMBER,
    NUM_CARDS,
    PROJECT_BY_ID,
    PROJECT_DECKS,
    TRACK_LENGTH,
)
from .fields import StateFields
from .phases import LOAN, OVER, RESHUFFLE, ROUND
from .scoring import score_multiplayer, score_solo
from .sheet import GRAND, NO_HOTEL, SMALL, project_test
from .steps import Turn

# Events are built in the hot path: ``_event((kind, data, seats))`` skips the named tuple's Python
# ``__new__`` (same Event, built in C).
_event = partial(tuple.__new__, Event)

PILE = NUM_CARDS // 3


class RoundsMixin(StateFields):
    """Round flow and resolution of :class:`~.state.NewLasVegasState`."""

    __slots__ = ()

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

    def _reshuffle_all(self) -> None:
        cards = list(range(NUM_CARDS))
        self.rng.shuffle(cards)
        self.piles = [cards[k * PILE : (k + 1) * PILE] for k in range(3)]
        self.top = 0
        self.log.append(Event("piles_shuffled", {"cards": NUM_CARDS}))

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
