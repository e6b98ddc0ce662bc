"""Fixtures every test folder may use."""

from __future__ import annotations

import pytest

from tabletown.core.i18n import Speaker


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message must be in its catalog: a missing translation raises instead of falling back to
    English (core.i18n.Speaker.strict; monkeypatch puts the class attribute back afterwards)."""
    monkeypatch.setattr(Speaker, "strict", True)
