"""Post-game analysis (issue 30): win chances from a seat's information, each decision rated.

* :mod:`.model`: the learned win-chance model of a game and player count (a small network over
  ``state.observation(seat)``, fitted on positions of expert play; NumPy only).
* :mod:`.training`: the positions it is fitted on and the fit itself (``python -m
  tabletown.analysis.training``).
* :mod:`.evaluate`: win chances of a seat at a position, after each of its candidate moves, and
  the luck of each chance event, always from samples of what that seat may know.
* :mod:`.analyze`: a record analysed decision by decision, as data; :mod:`.report` writes it as
  text, JSON or a self-contained HTML page.

Nothing here knows a game's rules: it speaks through the engine contract, and each game ships its
fitted models as data files beside its rules.
"""
