"""Machi Koro phases: the steps of a turn, each one decision of the seat to act."""

from __future__ import annotations

ROLL, REROLL, HARBOR, TV_PHASE, BUSINESS, BUILD, OVER = range(7)
PHASE_NAMES = ("roll", "reroll", "harbor", "tv_station", "business_center", "build", "over")
