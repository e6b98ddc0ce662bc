"""Hidden information and saved positions: the redraws behind ``determinize`` (the piles, the
solo deck and loan card, other seats' private events) and the checks of a loaded position."""

from __future__ import annotations

from typing import Any

from ...core.events import Event
from ...core.rng import SeededRNG
from .data import APPROVAL_BASE, CARD_EFFECT, CARD_NUMBER
from .fields import StateFields
from .phases import OVER
from .sheet import Sheet


class HiddenMixin(StateFields):
    """The redraws of :meth:`~.state.NewLasVegasState.determinize`."""

    __slots__ = ()

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
        """Redeal every card nobody has seen, keeping what is shown of the cards on the piles.

        Once rounds are running, each pile's top card shows its number but not its effect (the
        effect only appears when it is flipped next round), so it may trade places with any unseen
        card of the same number. Each pile's bottom card is the other way round: flipped for the
        cycle's first round without its number ever having been shown, so it may trade places
        with any unseen card of the same effect (security audit 12: it used to keep its true
        number, which told a bot which numbers were still to come). The cards between were seen
        whole. Before the first round nothing on the piles is shown. The unseen cards are sorted
        before the shuffle: the real order must not show through.
        """
        shown = bool(self.offers)
        top = self.top
        first = top + 1 if shown else top
        unseen = [c for p in self.piles for c in p[top:]]
        if shown:
            unseen += [p[0] for p in self.piles]  # top >= 1 once combinations are on offer
        unseen.sort()
        for _ in range(1000):  # one try nearly always does; the real deal shows a way exists
            pool = unseen[:]
            rng.shuffle(pool)
            if not shown or self._keep_shown_faces(pool):
                break
        else:
            raise ValueError("the piles' shown numbers and effects cannot be dealt from the unseen cards")
        for p in self.piles:
            size = len(p) - first
            p[first:] = pool[:size]
            del pool[:size]

    def _keep_shown_faces(self, pool: list[int]) -> bool:
        """Put on each pile a top card of its shown number and a bottom card of its shown effect,
        taken from ``pool`` (shuffled); False when the pool cannot give them in this order (the
        caller shuffles again: the real deal shows one way exists)."""
        top = self.top
        wanted = [(CARD_NUMBER[p[top]], CARD_EFFECT[p[0]]) for p in self.piles]
        chosen = []
        for number, effect in wanted:
            on_top = next((k for k, c in enumerate(pool) if CARD_NUMBER[c] == number), None)
            if on_top is None:
                return False
            card = pool.pop(on_top)
            at_bottom = next((k for k, c in enumerate(pool) if CARD_EFFECT[c] == effect), None)
            if at_bottom is None:
                return False
            chosen.append((card, pool.pop(at_bottom)))
        for p, (card, bottom) in zip(self.piles, chosen, strict=True):
            p[top] = card
            p[0] = bottom
        return True

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


def _same_sheet(a: Sheet, b: Sheet) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in Sheet.__slots__)


def _take_effect(cards: list[int], effect: str) -> int:
    """Remove and return the first card of ``cards`` with this effect."""
    k = next(k for k, c in enumerate(cards) if CARD_EFFECT[c] == effect)
    return cards.pop(k)
