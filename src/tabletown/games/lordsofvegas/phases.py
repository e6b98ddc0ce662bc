"""Lords of Vegas phases: who is deciding what, and where play resumes after a decision."""

from __future__ import annotations

# Phases
ACTION, OFFER, LAYOFF, PICK_DIE, FREE_LOT, PLACE, OVER, MARKET = range(8)
PHASE_NAMES = ("action", "offer", "layoff", "pick_die", "free_lot", "place", "over", "market")

# What to do once a pick-die / free-lot decision is made.
RESUME_DRAW, RESUME_ACTION = 0, 1
