"""Rich rendering of a Lords of Vegas view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.pretty import Pretty


def render_view(view: Mapping[str, Any]):
    return Pretty(view)
