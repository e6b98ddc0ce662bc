"""The phases of a Multicity game: play (expand or place), the final round, over."""

PLAY, FINAL, OVER = 0, 1, 2
PHASE_IDS = ("play", "final_round", "over")
