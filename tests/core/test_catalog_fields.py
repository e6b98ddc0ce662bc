"""Every translation fills in only the fields its English message has: a translated sentence with a
field the code does not pass would fail at the moment a player reads it (a refusal, an event)."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from tabletown.core.catalogs import domain_folders
from tabletown.core.i18n import LANGUAGES


def fields(text: str) -> set[str]:
    """The names of a format string's fields (``{who}``, ``{text!r}`` -> who, text)."""
    names = set()
    for _literal, name, _spec, _conversion in string.Formatter().parse(text):
        if name is not None:
            names.add(name)
    return names


def entries():
    for domain, folder in sorted(domain_folders().items()):
        for lang in LANGUAGES[1:]:
            po = folder / lang / "LC_MESSAGES" / f"{domain}.po"
            if po.exists():
                yield pytest.param(domain, lang, po, id=f"{domain}-{lang}")


@pytest.mark.parametrize(("domain", "lang", "po"), list(entries()))
def test_translations_use_only_their_messages_fields(domain, lang, po):
    with po.open("rb") as handle:
        catalog = read_po(handle)
    wrong = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        allowed = set().union(*(fields(i) for i in ids)) | {"count"}  # plurals are given their count
        # a field the code passes beyond the English sentence's is named in its i18n comment
        allowed |= {name for comment in message.auto_comments for name in re.findall(r"\{(\w+)\}", comment)}
        for text in strings:
            try:
                used = fields(text)
            except ValueError as exc:  # an unbalanced brace: the sentence cannot be formatted at all
                wrong.append(f"{ids[0]!r}: {exc}")
                continue
            if used - allowed:
                wrong.append(f"{ids[0]!r} -> {text!r}: {sorted(used - allowed)}")
    assert not wrong, f"{domain}/{lang}: " + "; ".join(wrong[:10])
