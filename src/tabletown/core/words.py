"""People's words for event sentences: seats named by their players, "you" for the viewer.

A game's renderer words its events (``describe_event(event, names)``); the engine's views and events
stay data (seat numbers). :class:`Names` turns a seat number into the word a sentence needs:

* ``names.who(seat)``: a name as an object ("Alice", "you");
* ``names.subject(seat, "pays")``: subject and verb agreeing ("Alice pays", "You pay");
* ``names.whose(seat)``: a possessive ("Alice's", "your").

Without names (the terminal, records, tests) every seat is ``P0``, ``P1``... and every verb keeps its
third-person form, so the sentences are the ones the terminal always printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

_IRREGULAR = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}


def base_form(verb: str) -> str:
    """The verb's form after "you": "pays" -> "pay", "reaches" -> "reach", "is" -> "are"."""
    head, _, rest = verb.partition(" ")
    if head.endswith("ly") and rest:  # an adverb first: "secretly votes" -> "secretly vote"
        return head + " " + base_form(rest)
    if head in _IRREGULAR:
        word = _IRREGULAR[head]
    elif head.endswith("ies") and len(head) > 4:
        word = head[:-3] + "y"
    elif head.endswith(("sses", "shes", "ches", "xes", "zes")):
        word = head[:-2]
    elif head.endswith("s") and not head.endswith("ss"):
        word = head[:-1]
    else:
        word = head
    return word + (" " + rest if rest else "")


class Names:
    """Seat names for one reader (``viewer``: the seat reading, or None for a spectator)."""

    def __init__(self, names: Sequence[str] | None = None, viewer: int | None = None) -> None:
        self.names = list(names) if names is not None else None
        self.viewer = viewer if names is not None else None

    def __bool__(self) -> bool:
        return self.names is not None

    def you(self, seat: object) -> bool:
        return self.viewer is not None and seat == self.viewer

    def name(self, seat: object) -> str:
        """The seat's name, never "you" ("P1" without names)."""
        if self.names is None or not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return f"P{seat}"
        return self.names[seat]

    def who(self, seat: object) -> str:
        """The seat as an object or after a preposition: "Alice", "you"."""
        return "you" if self.you(seat) else self.name(seat)

    def Who(self, seat: object) -> str:  # noqa: N802 - the capitalised form of who()
        """The seat as a subject: "Alice", "You"."""
        return "You" if self.you(seat) else self.name(seat)

    def subject(self, seat: object, verb: str, start: bool = True) -> str:
        """Subject and verb that agree: "Alice pays", "You pay" ("you pay" with start=False)."""
        if self.you(seat):
            return ("You " if start else "you ") + base_form(verb)
        return f"{self.name(seat)} {verb}"

    def whose(self, seat: object) -> str:
        """A possessive: "Alice's", "your"."""
        if self.you(seat):
            return "your"
        return f"{self.name(seat)}'s"

    def their(self, seat: object) -> str:
        """The possessive pronoun of a subject already named: "their", "your"."""
        return "your" if self.you(seat) else "their"

    def listed(self, seats: Sequence[object]) -> str:
        """Several seats: "Alice, Bob and you"."""
        words = [self.who(s) for s in seats]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


PLAIN = Names()


def _as_written(context: str, text: str) -> str:
    return text


def seat_display_names(
    seats: Sequence[tuple[str, str | None]], say: Callable[[str, str], str] = _as_written
) -> list[str]:
    """What to call each seat of a table, from (kind, name) pairs: the player's name; else a bot by
    its level ("Expert bot", numbered when two bots share a level); else "Player N" (N from 1).
    ``say(context, message)`` words the parts in a language (core.i18n.seat_names); a part it does not
    know (a strategy's name) stays as written. The browser shows these labels as the server sends them."""
    bots: dict[str, int] = {}
    for kind, name in seats:
        if not name and kind.startswith("bot:"):
            bots[kind] = bots.get(kind, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for seat, (kind, name) in enumerate(seats):
        if name:
            out.append(name)
        elif kind.startswith("bot:"):
            level = kind[4:].replace("strategy:", "").replace("mcts:", "mcts ").replace("search:", "search ")
            words = (
                "MCTS" if part == "mcts" else say("bot level", part)
                for part in level.replace("-", " ").split(" ")
            )
            label = say("", "{level} bot").format(level=" ".join(words))
            seen[kind] = seen.get(kind, 0) + 1
            out.append(label[:1].upper() + label[1:] + (f" {seen[kind]}" if bots[kind] > 1 else ""))
        else:
            out.append(say("", "Player {number}").format(number=seat + 1))
    return out
