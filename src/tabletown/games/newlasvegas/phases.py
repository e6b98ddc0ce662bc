"""Welcome To New Las Vegas phases: what the waiting seats are deciding."""

from __future__ import annotations

from ...core.i18n import N_

# i18n: a phase named as the step a refusal expected ("now is the loan step, not pick")
LOAN, ROUND, RESHUFFLE, OVER = N_("loan"), "round", N_("reshuffle"), N_("over")
PHASES = (LOAN, ROUND, RESHUFFLE, OVER)
