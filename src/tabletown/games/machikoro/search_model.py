"""What ``bot:search`` (tabletown.bots.search) knows about Machi Koro: its dice as explicit chance
(``outcomes``, from ``chance.py``); the generic presets fit, so there is no ``SEARCH_TUNING``."""

from __future__ import annotations

from .chance import outcomes

__all__ = ["outcomes"]
