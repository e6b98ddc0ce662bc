"""Welcome To New Las Vegas phases: what the waiting seats are deciding."""

from __future__ import annotations

LOAN, ROUND, RESHUFFLE, OVER = "loan", "round", "reshuffle", "over"
PHASES = (LOAN, ROUND, RESHUFFLE, OVER)
